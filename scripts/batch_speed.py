#!/usr/bin/env python3
"""Python batch figures on random 13-tile hands from a 136-tile wall, one core.

    HAIDI_PARALLELISM=0 python scripts/batch_speed.py [--hands N] [--passes P]

Prints ns a hand for ``shanten_batch`` (Hainan: standard, seven pairs, thirteen orphans,
the forms `cargo bench --bench shanten` times against xiangting; MCR's five forms),
``waits_batch`` and, on 14-tile hands, ``analyze_batch``: the least of ``--passes``
passes over the same hands. The README's speed section lists them beside the criterion
ratio.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

os.environ.setdefault("HAIDI_PARALLELISM", "0")

import haidi  # noqa: E402


def deal(n: int, size: int, seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    tiles = np.repeat(np.arange(34), 4)[rng.random((n, 136)).argsort(axis=1)[:, :size]]
    out = np.zeros((n, 34), np.uint8)
    np.add.at(out, (np.repeat(np.arange(n), size), tiles.ravel()), 1)
    return out


def per_hand(f, hands: np.ndarray, passes: int) -> float:
    best = float("inf")
    for _ in range(passes):
        t = time.perf_counter()
        f(hands)
        best = min(best, time.perf_counter() - t)
    return best / len(hands) * 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--passes", type=int, default=7)
    args = ap.parse_args()
    ready, full = deal(args.hands, 13), deal(args.hands // 10, 14)
    for rules in ("hainan", "mcr"):
        rs = haidi.ruleset(rules)
        rs.shanten_batch(ready[:10])
        print(f"{rules:7} shanten_batch {per_hand(rs.shanten_batch, ready, args.passes):7.1f} ns a hand")
        print(f"{rules:7} waits_batch   {per_hand(rs.waits_batch, ready, args.passes):7.1f} ns a hand")
        print(f"{rules:7} analyze_batch {per_hand(rs.analyze_batch, full, args.passes):7.1f} ns a hand (14 tiles)")


if __name__ == "__main__":
    main()
