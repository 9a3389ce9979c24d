#!/usr/bin/env python3
"""Differential run: haidi's MCR scorer against PyMahjongGB on random situations.

    python scripts/differential_mcr.py [N] [--seed S] [--show K]

Situations come from ``scripts/mcr_peer.py``'s generator (concealed and melded hands,
kongs, every special form, every flag). haidi runs with ``concealed_and_melded_kong=True``
(PyMahjongGB's 明暗杠); a second pass checks that the default (the seed's list) differs
only by 明暗杠 -> 明杠 + 暗杠. Each difference is put in a class; classes are explained in
docs/mcr-differences.md. Exit status 1 if a difference falls in no known class.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mcr_peer import FAN_ID, PeerError, peer_call, random_situation, situation_to_pymahjonggb  # noqa: E402

import haidi  # noqa: E402

PEER_ALIASES = {"独听・边张": "边张", "独听・嵌张": "坎张", "独听・单钓": "单钓将"}


def peer_counts(sit: dict) -> tuple[Counter, int]:
    out: Counter = Counter()
    total = 0
    for name, cnt, pts in peer_call(situation_to_pymahjonggb(sit)):
        out[FAN_ID.get(name, name)] += cnt
        total += cnt * pts
    return out, total


def haidi_counts(result: dict) -> Counter:
    out = Counter()
    for f in result["fans"]:
        out[f["id"] if f["id"] is not None else "明暗杠"] += f["count"]
    return out


def classify(sit: dict, ours: Counter, our_total: int, theirs: Counter, their_total: int) -> str:
    if our_total == their_total:
        return "equal_total"
    return "unexplained"


def run(n: int, seed: int, show: int) -> int:
    rs = haidi.ruleset("mcr")
    rng = random.Random(seed)
    sits = [random_situation(rng) for _ in range(n)]
    ours = rs.evaluate_many(sits, concealed_and_melded_kong=True)
    seeds = rs.evaluate_many(sits)
    classes: Counter = Counter()
    examples: dict = {}
    peer_refused = 0
    default_mismatch = 0
    for sit, r, d in zip(sits, ours, seeds, strict=False):
        try:
            theirs, their_total = peer_counts(sit)
        except PeerError:
            peer_refused += 1
            if r["total"] != 0:
                classes["peer_refused_haidi_scored"] += 1
                examples.setdefault("peer_refused_haidi_scored", []).append((sit, r, None))
            continue
        mine = haidi_counts(r)
        # The default differs from the option only by 明暗杠 -> 明杠 + 暗杠.
        expect_default = Counter(mine)
        if expect_default.pop("明暗杠", 0):
            expect_default[74] += 1
            expect_default[67] += 1
        if haidi_counts(d) != expect_default:
            default_mismatch += 1
        if mine == theirs:
            classes["same"] += 1
            continue
        c = classify(sit, mine, r["total"], theirs, their_total)
        classes[c] += 1
        examples.setdefault(c, []).append((sit, mine, theirs))
    print(f"situations: {n} (seed {seed}); PyMahjongGB refused {peer_refused}")
    print(f"default (seed list) vs option differs beyond 明暗杠: {default_mismatch}")
    for c, k in classes.most_common():
        print(f"  {c}: {k}")
    for c, ex in examples.items():
        for sit, mine, theirs in ex[:show]:
            peer = dict(sorted(theirs.items(), key=str)) if theirs else None
            print(f"[{c}] {sit}\n    haidi {dict(sorted(mine.items(), key=str))}\n    peer  {peer}")
    bad = classes["unexplained"] + classes["peer_refused_haidi_scored"] + default_mismatch
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs="?", default=100_000)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--show", type=int, default=5)
    a = ap.parse_args()
    return run(a.n, a.seed, a.show)


if __name__ == "__main__":
    sys.exit(main())
