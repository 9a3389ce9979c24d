#!/usr/bin/env python3
"""Times ``analyze`` on random ready 17-tile Longgang hands holding exactly two 财神, the
hands of docs/analysis.md's table.

    python scripts/ready_wilds.py [--hands N] [--seed S] [--repeat R]

Each hand is a complete hand dealt without 5m (five melds and a pair, each meld a pung
or a chow at random), two of its tiles given up for the 财神 (5m) and one more swapped
for a random tile; hands with no discard that leaves them ready are dealt again.

Two times a hand, by CPU time (``time.process_time``): ``first``, its first analysis
(the one that tells it ready), met after the hands dealt before it and after the tables
a process makes once; and ``again``, the least of ``repeat`` more, as a benchmark that
repeats one hand measures it (what a hand's groups were worth is kept per thread for the
groups met last). Prints JSON: for
each, the tenth percentile, the median and the slowest, with the hand and the waits
it scores.
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


def deal(rng: random.Random, lg: haidi.Ruleset) -> tuple[str, float]:
    """A ready hand, and the CPU time of its first analysis (which tells it ready)."""
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
        start = time.process_time()
        entries = lg.analyze(hand, wilds=WILD)
        took = time.process_time() - start
        if any(e["shanten"] == 0 for e in entries):
            return hand, took


def cpu_time(lg: haidi.Ruleset, hand: str) -> float:
    start = time.process_time()
    lg.analyze(hand, wilds=WILD)
    return time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=260)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lg = haidi.ruleset("longgang")
    # The tables a process makes once (distances, the arrangement search's) are made
    # here, so that ``first`` times a hand met for the first time, not the process.
    lg.analyze("123456789m12p11s77z5m5m", wilds=WILD)
    dealt = [deal(rng, lg) for _ in range(args.hands)]
    hands = [h for h, _ in dealt]
    waits = {h: sum(len(e.get("waits", [])) for e in lg.analyze(h, wilds=WILD)) for h in hands}
    first = sorted((t, h) for h, t in dealt)
    again = sorted((min(cpu_time(lg, h) for _ in range(args.repeat)), h) for h in hands)

    def at(timed: list[tuple[float, str]], q: float) -> dict[str, object]:
        t, hand = timed[min(len(timed) - 1, int(q * len(timed)))]
        return {"us": round(t * 1e6, 1), "hand": hand, "waits": waits[hand]}

    out = {
        name: {"p10": at(timed, 0.1), "median": at(timed, 0.5), "slowest": at(timed, 1.0)}
        for name, timed in (("first", first), ("again", again))
    }
    print(json.dumps({"hands": len(hands), **out}, indent=1))


if __name__ == "__main__":
    main()
