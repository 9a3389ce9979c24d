#!/usr/bin/env python3
"""Searches for the hands that ``analyze`` takes longest on, per ruleset.

    python scripts/worst_analysis.py [--rules R ...] [--seconds S] [--seed N] [--top K]

For each ruleset: random situations from ``scripts/situations.py`` (near or at
completion, melds, wilds, flowers), hands of one suit with as many wilds as the ruleset
allows (the most waits and arrangements), then a hill climb from the slowest: change one
tile, keep the change when the hand is still valid and slower. The analysis is of the
hand with its winning tile (every discard, and each ready discard's waits scored). A
hand's time is the least of several calls, so that noise does not pass for a slow hand.
Prints JSON: the slowest hands by ruleset, with the microseconds each took.
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

RULESETS = ("mcr", "changsha", "hainan", "tangshan", "beijing", "longgang")
KINDS = {**situations.TILES, "mcr": situations.ALL}


def call(rules: str, s: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The hand to analyze (the hand and its winning tile) and the keys that go with it."""
    rest = {k: v for k, v in s.items() if k not in ("hand", "win") and not isinstance(v, bool)}
    return s["win"] + s["hand"], rest


def cost(rs: Any, hand: str, keys: dict[str, Any], repeat: int = 5) -> float | None:
    """The least time of ``repeat`` analyses, in seconds; None for a hand refused."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        try:
            rs.analyze(hand, **keys)
        except haidi.HandError:
            return None
        best = min(best, time.perf_counter() - t)
    return best


def one_suit(rng: random.Random, rules: str) -> tuple[str, dict[str, Any]]:
    """A concealed hand of one suit, with up to four wilds where the ruleset has them."""
    size = 17 if rules == "longgang" else 14
    suit = rng.choice("ps" if rules != "changsha" else "mps")
    keys: dict[str, Any] = {}
    wilds = 0
    if rules in situations.WILD_RULESETS:
        wild = rng.choice([t for t in KINDS[rules] if t[1] != suit])
        keys["wilds"] = wild
        wilds = rng.randint(1, 4)
    tiles: list[str] = [keys["wilds"]] * wilds if wilds else []
    counts: dict[str, int] = {}
    while len(tiles) < size:
        t = f"{rng.randint(1, 9)}{suit}"
        if counts.get(t, 0) < 4:
            counts[t] = counts.get(t, 0) + 1
            tiles.append(t)
    return situations.compact(tiles), keys


def mutate(rng: random.Random, rules: str, hand: str) -> str:
    """The hand with one concealed tile changed for another kind."""
    i = 0
    while i < len(hand) and hand[i] not in "[{":
        i += 1
    concealed, melds = hand[:i], hand[i:]
    tiles: list[str] = []
    digits: list[str] = []
    for ch in concealed:
        if ch.isdigit():
            digits.append(ch)
        else:
            tiles.extend(d + ch for d in digits)
            digits = []
    plain = [t for t in tiles if t[1] != "f"]
    flowers = [t for t in tiles if t[1] == "f"]
    if not plain:
        return hand
    plain[rng.randrange(len(plain))] = rng.choice(KINDS[rules])
    return situations.compact(plain) + melds + (situations.compact(flowers) if flowers else "")


def search(rules: str, seconds: float, rng: random.Random, top: int) -> list[tuple[float, str, dict[str, Any]]]:
    rs = haidi.ruleset(rules)
    found: list[tuple[float, str, dict[str, Any]]] = []
    end = time.perf_counter() + seconds / 2
    while time.perf_counter() < end:
        s = situations.situation(rng, rules) if rules != "mcr" else {}
        if rng.random() < 0.5 and "win" in s:
            hand, keys = call(rules, s)
        else:
            hand, keys = one_suit(rng, rules)
        c = cost(rs, hand, keys, repeat=2)
        if c is not None:
            found.append((c, hand, keys))
    found.sort(key=lambda f: -f[0])
    found = found[:top]
    # Hill climb from each of the slowest.
    end = time.perf_counter() + seconds / 2
    climbed = []
    for c, hand, keys in found:
        while time.perf_counter() < end:
            better = False
            for _ in range(20):
                h = mutate(rng, rules, hand)
                c2 = cost(rs, h, keys, repeat=2)
                if c2 is not None and c2 > c:
                    c, hand, better = c2, h, True
            if not better:
                break
        climbed.append((cost(rs, hand, keys) or c, hand, keys))
    climbed.sort(key=lambda f: -f[0])
    return climbed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", nargs="*", default=list(RULESETS))
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = {}
    for rules in args.rules:
        worst = search(rules, args.seconds, rng, args.top)
        out[rules] = [{"us": round(c * 1e6, 1), "hand": h, **k} for c, h, k in worst]
        print(f"{rules}: {out[rules][:1]}", file=sys.stderr, flush=True)
    print(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
