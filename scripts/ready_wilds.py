#!/usr/bin/env python3
"""Times ``analyze`` on random ready 17-tile Longgang hands holding exactly two 财神, the
hands of docs/analysis.md's table.

    python scripts/ready_wilds.py [--hands N] [--seed S] [--repeat R]

Each hand is a complete hand dealt without 5m (five melds and a pair, each meld a pung
or a chow at random), two of its tiles given up for the 财神 (5m) and one more swapped
for a random tile; hands with no discard that leaves them ready are dealt again. A
hand's time is the least CPU time (``time.process_time``) of ``repeat`` runs of a few
calls each. Prints JSON: the tenth percentile, the median and the slowest, with the
hand at the median and the slowest, and the waits each scores.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import situations  # noqa: E402

import haidi  # noqa: E402

WILD = "5m"
KINDS = [t for t in situations.TILES["longgang"] if t != WILD]


def complete(rng: random.Random) -> list[str] | None:
    """Five melds and a pair of the kinds but 5m, four copies at most; None if stuck."""
    tiles: list[str] = []
    for _ in range(5):
        k = rng.choice(KINDS)
        if k[1] != "z" and k[0] <= "7" and rng.random() < 0.6:
            meld = [f"{int(k[0]) + i}{k[1]}" for i in range(3)]
        else:
            meld = [k] * 3
        tiles += meld
    tiles += [rng.choice(KINDS)] * 2
    if WILD in tiles or any(tiles.count(t) > 4 for t in tiles):
        return None
    return tiles


def deal(rng: random.Random, lg: haidi.Ruleset) -> str:
    while True:
        tiles = complete(rng)
        if tiles is None:
            continue
        rng.shuffle(tiles)
        tiles[0] = tiles[1] = WILD
        tiles[2] = rng.choice(KINDS)
        if any(tiles.count(t) > 4 for t in tiles if t != WILD):
            continue
        hand = "".join(tiles)
        if any(e["shanten"] == 0 for e in lg.analyze(hand, wilds=WILD)):
            return hand


def cpu_time(lg: haidi.Ruleset, hand: str, repeat: int, number: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(number):
            lg.analyze(hand, wilds=WILD)
        best = min(best, (time.process_time() - start) / number)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=260)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lg = haidi.ruleset("longgang")
    timed = []
    for _ in range(args.hands):
        hand = deal(rng, lg)
        waits = sum(len(e.get("waits", [])) for e in lg.analyze(hand, wilds=WILD))
        timed.append((cpu_time(lg, hand, args.repeat), hand, waits))
    timed.sort()

    def at(q: float) -> dict[str, object]:
        t, hand, waits = timed[min(len(timed) - 1, int(q * len(timed)))]
        return {"us": round(t * 1e6, 1), "hand": hand, "waits": waits}

    print(json.dumps({"hands": len(timed), "p10": at(0.1), "median": at(0.5), "slowest": at(1.0)}, indent=1))


if __name__ == "__main__":
    main()
