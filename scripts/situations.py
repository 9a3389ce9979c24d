"""Random situations for the regional rulesets: hands near or at completion, with melds,
kongs, wilds, flowers and flags, as a user or a game server would send them.

Shared by the differential run (``scripts/differential_regional.py``), the tests that
hold the engine to the slow reference, and the benchmarks. Plain Python, no haidi code:
a situation is a dict of the ruleset's keys.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

SUITS = "mps"
ALL = [f"{r}{s}" for s in SUITS for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]

#: Kinds each ruleset plays.
TILES = {
    "changsha": [t for t in ALL if t[1] != "z"],
    "hainan": ALL,
    "tangshan": ALL,
    "beijing": ALL,
    "longgang": [t for t in ALL if t != "5z"],
}
#: Melds of a complete hand.
MELDS = {"changsha": 4, "hainan": 4, "tangshan": 4, "beijing": 4, "longgang": 5}
WILD_RULESETS = ("tangshan", "beijing", "longgang")


def declare(rng: random.Random, ts: list[str]) -> str:
    """A declared meld of the tiles ``ts`` in notation: a chow or pung claimed, a kong
    exposed, concealed or added to a pung at random."""
    body = compact(ts)
    if len(ts) == 4:
        return rng.choice(["[{}]", "{{{}}}", "[{}+]"]).format(body)
    return f"[{body}]"


def chow(t: str) -> list[str] | None:
    """The chow a suited kind starts (its kind and the next two), or None."""
    r, s = int(t[0]), t[1]
    if s == "z" or r > 7:
        return None
    return [f"{r + i}{s}" for i in range(3)]


def compact(tiles: list[str]) -> str:
    """Tiles in compact notation, kind order."""
    order = {t: i for i, t in enumerate(ALL + [f"{i}f" for i in range(1, 9)])}
    out = []
    last = ""
    for t in sorted(tiles, key=order.__getitem__):
        if last and last != t[1]:
            out.append(last)
        out.append(t[0])
        last = t[1]
    if last:
        out.append(last)
    return "".join(out)


def complete_hand(rng: random.Random, rules: str) -> tuple[list[str], list[str]] | None:
    """A complete hand: concealed tiles and declared melds (notation), or None when the
    draw ran out of copies."""
    kinds = TILES[rules]
    melds = MELDS[rules]
    held = dict.fromkeys(kinds, 0)
    concealed: list[str] = []
    declared: list[str] = []

    def take(ts: list[str]) -> bool:
        need: dict[str, int] = {}
        for t in ts:
            need[t] = need.get(t, 0) + 1
        if any(t not in held or held[t] + n > 4 for t, n in need.items()):
            return False
        for t, n in need.items():
            held[t] += n
        return True

    form = rng.random()
    if form < 0.08 and melds == 4:  # seven pairs
        for _ in range(7):
            t = rng.choice(kinds)
            if not take([t, t]):
                return None
            concealed += [t, t]
        return concealed, declared
    if form < 0.12 and melds == 5:  # eight pairs and a half
        t = rng.choice(kinds)
        if not take([t] * 3):
            return None
        concealed += [t] * 3
        for _ in range(7):
            t = rng.choice(kinds)
            if not take([t, t]):
                return None
            concealed += [t, t]
        return concealed, declared
    if form < 0.14 and rules in ("hainan", "tangshan"):  # thirteen orphans
        orphans = ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]
        concealed = orphans + [rng.choice(orphans)]
        return concealed, declared
    n_declared = rng.choice([0, 0, 0, 1, 1, 2, 3, 4, melds])
    for i in range(melds):
        for _ in range(20):
            t = rng.choice(kinds)
            kind = rng.random()
            c = chow(t)
            if kind < 0.5 and c:
                ts = c
            elif kind < 0.85:
                ts = [t] * 3
            else:
                ts = [t] * 4
            if len(ts) == 4 and i >= n_declared:
                ts = ts[:3]
            if take(ts):
                break
        else:
            return None
        if i < n_declared:
            declared.append(declare(rng, ts))
        else:
            concealed += ts
    for _ in range(20):
        t = rng.choice(kinds)
        if take([t, t]):
            concealed += [t, t]
            break
    else:
        return None
    return concealed, declared


def situation(rng: random.Random, rules: str) -> dict[str, Any]:
    """A random situation of ``rules``: usually a complete hand, sometimes a near miss."""
    while True:
        got = complete_hand(rng, rules)
        if got is not None:
            break
    concealed, declared = got
    kinds = TILES[rules]
    if rng.random() < 0.15:
        # A near miss: one tile swapped.
        i = rng.randrange(len(concealed))
        concealed[i] = rng.choice(kinds)
        if any(
            concealed.count(t) + sum(d.count(t[0]) for d in declared if d.endswith(t[1] + "]")) > 4 for t in concealed
        ):
            concealed[i] = concealed[(i + 1) % len(concealed)]
    rng.shuffle(concealed)
    s: dict[str, Any] = {}
    if rules in WILD_RULESETS and rng.random() < 0.6:
        wild = rng.choice(kinds)
        s["wilds"] = wild
        # Some tiles become the wild kind.
        for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4])):
            j = rng.randrange(len(concealed))
            if concealed.count(wild) < 4:
                concealed[j] = wild
        if rules == "longgang" and any(wild in d for d in declared):
            s.pop("wilds")
    win = concealed.pop()
    s["hand"] = compact(concealed) + "".join(declared)
    s["win"] = win
    flags = {
        "changsha": ["self_drawn", "kong_replacement", "robbing_kong", "wall_last", "heavenly", "earthly"],
        "hainan": ["self_drawn", "robbing_kong"],
        "tangshan": ["self_drawn", "open_ready"],
        "beijing": ["self_drawn", "wall_last", "kong_replacement", "robbing_kong", "heavenly", "earthly"],
        "longgang": ["self_drawn", "kong_replacement", "wall_last", "heavenly", "earthly"],
    }[rules]
    for f in flags:
        p = 0.5 if f == "self_drawn" else 0.06
        if rng.random() < p:
            s[f] = True
    if rng.random() < 0.5:
        s["seat_wind"] = rng.choice("ESWN")
    if rules == "hainan" and rng.random() < 0.5:
        s["flowers"] = compact(rng.sample([f"{i}f" for i in range(1, 9)], rng.randint(1, 3)))
    if rules == "tangshan" and rng.random() < 0.1:
        s["xiaosa"] = rng.choice(["ming", "kou"])
    if rules == "beijing" and "self_drawn" not in s and rng.random() < 0.3:
        s["discarder_wind"] = rng.choice("ESWN")
    if rules == "longgang":
        seat = "ESWN".index(s.get("seat_wind", "E")) + 1
        if rng.random() < 0.3:
            others = [f for f in range(1, 5) if f != seat]
            s["flowers"] = compact([f"{f}f" for f in rng.sample(others, rng.randint(1, 3))])
        if rng.random() < 0.25 and "wilds" in s:
            # The seat flower held, as a wild: it takes a tile's place.
            s["hand"] = _drop_one(s["hand"]) + f"{seat}f"
        if rng.random() < 0.08:
            s.pop("win")  # a player who did not win
    return s


def _drop_one(hand: str) -> str:
    """The hand with one concealed tile fewer."""
    i = 0
    while i < len(hand) and hand[i] not in "[{":
        i += 1
    concealed, melds = hand[:i], hand[i:]
    for j, ch in enumerate(concealed):
        if ch.isdigit():
            rest = concealed[:j] + concealed[j + 1 :]
            # Drop a suit letter left with no digits.
            out = []
            for c in rest:
                if c.isalpha() and (not out or not out[-1].isdigit()):
                    continue
                out.append(c)
            return "".join(out) + melds
    return hand


def accepted(rng: random.Random, rules: str, n: int, takes: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """``n`` random situations of ``rules`` that ``takes`` accepts (for instance: the
    ruleset scores it without an error, and it has wilds)."""
    out: list[dict[str, Any]] = []
    while len(out) < n:
        s = situation(rng, rules)
        if takes(s):
            out.append(s)
    return out


def scored(
    rng: random.Random,
    rules: str,
    n: int,
    evaluate: Callable[..., Any],
    refused: type[Exception],
    wilds: bool | None = None,
) -> list[dict[str, Any]]:
    """``n`` random situations of ``rules`` that ``evaluate`` (a ruleset's) scores without
    raising ``refused`` (its ``HandError``); with ``wilds`` True or False, only those with
    a wild kind, or only those without."""

    def takes(s: dict[str, Any]) -> bool:
        if wilds is not None and ("wilds" in s) != wilds:
            return False
        try:
            evaluate(**s)
        except refused:
            return False
        return True

    return accepted(rng, rules, n, takes)


#: Changes that spoil a situation, each with its share of the situations it is made in
#: (see ``spoil``): an unknown key, a flag that is text, a hand too short.
SPOILT: list[tuple[float, str, Any]] = [(0.03, "bogus", 1), (0.03, "self_drawn", "yes"), (0.03, "hand", "12m")]


def spoil(rng: random.Random, s: dict[str, Any], changes: list[tuple[float, str, Any]] = SPOILT) -> dict[str, Any]:
    """``s`` with at most one of ``changes`` (share, key, value) made: one draw of
    ``rng`` picks each in its share of the calls, and none in the rest."""
    k = rng.random()
    upto = 0.0
    for share, key, value in changes:
        upto += share
        if k < upto:
            s[key] = value
            break
    return s
