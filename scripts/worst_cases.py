#!/usr/bin/env python3
"""Searches for the regional situations that take haidi longest to score.

    python scripts/worst_cases.py [--rules R ...] [--seconds S] [--seed N] [--top K]

For each ruleset: random situations from ``scripts/situations.py`` with as many wilds
as the ruleset allows (and one-suit hands, which have the most arrangements), then a
hill climb from the slowest: change one tile, keep the change when the situation is
still valid and slower. A situation's time is the least of several calls, so that noise
does not pass for a slow hand. Prints JSON: the slowest situations by ruleset, with the
microseconds each took. benches/bench_regional.py times the ones found.
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

RULESETS = ("changsha", "hainan", "tangshan", "beijing", "longgang")


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", nargs="*", default=list(RULESETS), choices=RULESETS)
    ap.add_argument("--seconds", type=float, default=60.0, help="search time per ruleset")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = {}
    for rules in args.rules:
        worst = search(rules, args.seconds, rng, args.top)
        out[rules] = [{"us": round(c * 1e6, 1), "situation": s} for c, s in worst]
        print(f"{rules}: slowest {worst[0][0] * 1e6:.1f} us", file=sys.stderr)
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main()
