#!/usr/bin/env python3
"""Searches for the regional situations that take haidi longest to score, or with
``--decompose`` for the hands that ``decompose`` takes longest to list.

    python scripts/worst_cases.py [--rules R ...] [--seconds S] [--seed N] [--top K]
    python scripts/worst_cases.py --decompose [--limit L] [--rules R ...]

For each ruleset: random situations from ``scripts/situations.py`` with as many wilds
as the ruleset allows (and one-suit hands, which have the most arrangements), then a
hill climb from the slowest: change one tile, keep the change when the situation is
still valid and slower. A situation's time is the least of several calls, so that noise
does not pass for a slow hand. Prints JSON: the slowest situations by ruleset, with the
microseconds each took. benches/bench_regional.py times the ones found.

With ``--decompose``, the inputs are complete hands of every ruleset (MCR's too) with
four wilds to a whole hand of them, as copies of one to four wild kinds or as
``extra_wilds``, listed at ``--limit`` (default: the default limit);
benches/bench_decompose.py times the ones found.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import situations  # noqa: E402

import haidi  # noqa: E402
from haidi.ruleset import DECOMPOSE_LIMIT  # noqa: E402

RULESETS = ("changsha", "hainan", "tangshan", "beijing", "longgang")
#: The rulesets ``--decompose`` searches, and the kinds each plays.
DECOMPOSE_RULESETS = ("mcr", *RULESETS)
KINDS = {**situations.TILES, "mcr": situations.ALL}


def cost(rs: Any, s: dict[str, Any], repeat: int = 5) -> float | None:
    """The least time of ``repeat`` calls, in seconds; None for a situation refused."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        try:
            rs.evaluate(**s)
        except haidi.HandError:
            return None
        best = min(best, time.perf_counter() - t)
    return best


def tiles_of(hand: str) -> tuple[list[str], str]:
    """The concealed tiles of a compact hand, and the rest (melds, flowers)."""
    i = 0
    while i < len(hand) and hand[i] not in "[{":
        i += 1
    concealed, rest = hand[:i], hand[i:]
    out, digits = [], []
    for ch in concealed:
        if ch.isdigit():
            digits.append(ch)
        else:
            out.extend(d + ch for d in digits)
            digits = []
    flowers = [t for t in out if t[1] == "f"]
    return [t for t in out if t[1] != "f"], rest + "".join(flowers)


def heavy(rng: random.Random, rules: str) -> dict[str, Any]:
    """A situation with the most wilds, or of one suit."""
    s = situations.situation(rng, rules)
    kinds = situations.TILES[rules]
    if rng.random() < 0.3:
        # One suit: the most arrangements.
        suit = rng.choice("mps")
        tiles, rest = tiles_of(s["hand"])
        tiles = [f"{rng.randint(1, 9)}{suit}" for _ in tiles]
        s["hand"] = situations.compact(tiles) + rest
        s["win"] = f"{rng.randint(1, 9)}{suit}"
    if rules in situations.WILD_RULESETS:
        wild = s.get("wilds") or rng.choice(kinds)
        s["wilds"] = wild
        tiles, rest = tiles_of(s["hand"])
        n = min(len(tiles), rng.choice([3, 4, 4]))
        for i in rng.sample(range(len(tiles)), n):
            tiles[i] = wild
        s["hand"] = situations.compact(tiles) + rest
    return s


def mutate(rng: random.Random, rules: str, s: dict[str, Any]) -> dict[str, Any]:
    """The situation with one concealed tile (or the winning tile) changed."""
    kinds = situations.TILES[rules]
    t = dict(s)
    tiles, rest = tiles_of(t["hand"])
    if "win" in t and rng.random() < 0.2:
        t["win"] = rng.choice(kinds)
    elif tiles:
        tiles[rng.randrange(len(tiles))] = rng.choice(kinds)
        t["hand"] = situations.compact(tiles) + rest
    return t


def search(rules: str, seconds: float, rng: random.Random, top: int) -> list[tuple[float, dict[str, Any]]]:
    rs = haidi.ruleset(rules)
    # The first calls build the distance tables; not a worst case.
    for _ in range(200):
        try:
            rs.evaluate(**situations.situation(rng, rules))
        except haidi.HandError:
            pass
    found: list[tuple[float, dict[str, Any]]] = []
    end = time.perf_counter() + seconds / 2
    while time.perf_counter() < end:
        s = heavy(rng, rules)
        c = cost(rs, s, repeat=2)
        if c is not None:
            found.append((c, s))
    found.sort(key=lambda x: -x[0])
    end = time.perf_counter() + seconds / 2
    starts = found[:top]
    i = 0
    while time.perf_counter() < end and starts:
        c, s = starts[i % len(starts)]
        for _ in range(40):
            t = mutate(rng, rules, s)
            ct = cost(rs, t, repeat=2)
            if ct is not None and ct > c:
                c, s = ct, t
        starts[i % len(starts)] = (c, s)
        i += 1
    climbed = [(cost(rs, s, repeat=9) or 0.0, s) for _, s in starts]
    climbed.sort(key=lambda x: -x[0])
    return climbed[:top]


def list_cost(rs: Any, d: dict[str, Any], limit: int, repeat: int = 5) -> float | None:
    """The least time of ``repeat`` listings of ``d`` (hand, wilds, extra_wilds), in
    seconds; None for a hand refused."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        try:
            rs.decompose(d["hand"], d["wilds"], extra_wilds=d["extra_wilds"], limit=limit)
        except haidi.HandError:
            return None
        best = min(best, time.perf_counter() - t)
    return best


def wild_hand(rng: random.Random, rules: str) -> dict[str, Any]:
    """A hand of the complete size with many wilds: copies of wild kinds, extra wilds or
    both, the other tiles of one suit or of any."""
    kinds = KINDS[rules]
    size = 3 * situations.MELDS.get(rules, 4) + 2
    held: dict[str, int] = {}
    tiles: list[str] = []
    wilds = rng.sample(kinds, rng.choice([1, 1, 2, 3, 4]))
    extra = 0
    for _ in range(rng.randint(4, size)):
        free = [k for k in wilds if held.get(k, 0) < 4]
        if free and rng.random() < 0.6:
            k = rng.choice(free)
            held[k] = held.get(k, 0) + 1
            tiles.append(k)
        else:
            extra += 1
    suit = rng.choice("mpsz")
    pool = [k for k in kinds if k not in wilds and (rng.random() < 0.5 or k[1] == suit)]
    while len(tiles) + extra < size:
        free = [k for k in pool if held.get(k, 0) < 4] or [k for k in kinds if k not in wilds and held.get(k, 0) < 4]
        k = rng.choice(free)
        held[k] = held.get(k, 0) + 1
        tiles.append(k)
    used = [w for w in wilds if held.get(w)]
    return {"hand": situations.compact(tiles), "wilds": situations.compact(used) or None, "extra_wilds": extra}


def change_hand(rng: random.Random, rules: str, d: dict[str, Any]) -> dict[str, Any]:
    """The hand with one tile changed: to another kind, or traded with an extra wild."""
    t = dict(d)
    tiles, rest = tiles_of(t["hand"])
    r = rng.random()
    if r < 0.15 and tiles:
        tiles.pop(rng.randrange(len(tiles)))
        t["extra_wilds"] += 1
    elif r < 0.3 and t["extra_wilds"]:
        tiles.append(rng.choice(KINDS[rules]))
        t["extra_wilds"] -= 1
    elif tiles:
        tiles[rng.randrange(len(tiles))] = rng.choice(KINDS[rules])
    t["hand"] = situations.compact(tiles) + rest
    return t


def search_lists(rules: str, seconds: float, rng: random.Random, top: int, limit: int) -> list[tuple[float, Any]]:
    """As ``search``, for ``decompose`` at ``limit``."""
    rs = haidi.ruleset(rules)
    rs.decompose("", extra_wilds=3 * situations.MELDS.get(rules, 4) + 2, limit=1)
    found: list[tuple[float, dict[str, Any]]] = []
    end = time.perf_counter() + seconds / 2
    while time.perf_counter() < end:
        d = wild_hand(rng, rules)
        c = list_cost(rs, d, limit, repeat=2)
        if c is not None:
            found.append((c, d))
    found.sort(key=lambda x: -x[0])
    starts = found[:top]
    end = time.perf_counter() + seconds / 2
    i = 0
    while time.perf_counter() < end and starts:
        c, d = starts[i % len(starts)]
        for _ in range(20):
            t = change_hand(rng, rules, d)
            ct = list_cost(rs, t, limit, repeat=2)
            if ct is not None and ct > c:
                c, d = ct, t
        starts[i % len(starts)] = (c, d)
        i += 1
    climbed = [(list_cost(rs, d, limit, repeat=7) or 0.0, d) for _, d in starts]
    climbed.sort(key=lambda x: -x[0])
    return climbed[:top]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", nargs="*", default=None, choices=DECOMPOSE_RULESETS)
    ap.add_argument("--seconds", type=float, default=60.0, help="search time per ruleset")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--decompose", action="store_true", help="search decompose inputs instead")
    ap.add_argument("--limit", type=int, default=DECOMPOSE_LIMIT, help="decompose's limit (default: its default)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = {}
    for rules in args.rules or (DECOMPOSE_RULESETS if args.decompose else RULESETS):
        if args.decompose:
            worst = search_lists(rules, args.seconds, rng, args.top, args.limit)
            out[rules] = [{"ms": round(c * 1e3, 2), "input": d} for c, d in worst]
            print(f"{rules}: slowest {worst[0][0] * 1e3:.2f} ms", file=sys.stderr)
            continue
        if rules == "mcr":
            ap.error("mcr situations: --decompose only")
        worst = search(rules, args.seconds, rng, args.top)
        out[rules] = [{"us": round(c * 1e6, 1), "situation": s} for c, s in worst]
        print(f"{rules}: slowest {worst[0][0] * 1e6:.1f} us", file=sys.stderr)
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main()
