"""Hand analysis (牌效) speed: one ``analyze`` of a 14-tile MCR hand against finding the
same answer with PyMahjongGB (its shanten and useful tiles after each discard), the
batch in hands a second, and a 17-tile Longgang hand with two 财神.

    pytest benches/bench_analyze.py --benchmark-enable --benchmark-only
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import haidi

from conftest import ratio
from hands import WALL, all_cores

MahjongGB = pytest.importorskip("MahjongGB")
MCR = haidi.ruleset("mcr")
CODES = (
    [f"W{i}" for i in range(1, 10)]
    + [f"B{i}" for i in range(1, 10)]
    + [f"T{i}" for i in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
)
N = 200
#: 14-tile hands dealt from a shuffled wall (typically two or three from ready).
DEALT = [random.Random(i).sample(WALL, 14) for i in range(N)]
TEXTS = [haidi.Hand("".join(f"{t % 9 + 1}{'mpsz'[t // 9]}" for t in sorted(h))).concealed for h in DEALT]


def _peer_discards(hand: list[int], forms) -> None:
    """PyMahjongGB's answer for each distinct discard: shanten and useful tiles of every
    form asked for."""
    for d in sorted(set(hand)):
        rest = list(hand)
        rest.remove(d)
        tiles = tuple(CODES[t] for t in rest)
        for f in forms:
            f(tiles)


def test_peer_regular_per_discard(benchmark):
    """RegularShanten after each discard (the standard form only)."""
    benchmark.extra_info["items"] = N
    benchmark(lambda: [_peer_discards(h, [MahjongGB.RegularShanten]) for h in DEALT])


def test_peer_all_forms_per_discard(benchmark):
    """Every form PyMahjongGB has, after each discard: what analyze answers for MCR."""
    forms = [
        MahjongGB.RegularShanten,
        MahjongGB.SevenPairsShanten,
        MahjongGB.ThirteenOrphansShanten,
        MahjongGB.HonorsAndKnittedTilesShanten,
        MahjongGB.KnittedStraightShanten,
    ]
    benchmark.extra_info["items"] = N
    benchmark(lambda: [_peer_discards(h, forms) for h in DEALT])


def test_haidi_analyze(benchmark):
    benchmark.extra_info["items"] = N
    # A round not timed: the first analysis of a process makes the table of draws (35
    # MB, about 35 ms here), which would be a tenth of a round's mean.
    [MCR.analyze(t) for t in TEXTS]
    benchmark(lambda: [MCR.analyze(t) for t in TEXTS])


ratio("test_haidi_analyze", "test_peer_regular_per_discard", "analyze vs RegularShanten per discard")
ratio("test_haidi_analyze", "test_peer_all_forms_per_discard", "analyze vs all five forms per discard")

BATCH = np.zeros((20_000, 34), np.uint8)
for i in range(len(BATCH)):
    for t in random.Random(10_000 + i).sample(WALL, 14):
        BATCH[i, t] += 1


def test_haidi_analyze_batch_one_core(benchmark):
    benchmark.extra_info["items"] = len(BATCH)
    benchmark(MCR.analyze_batch, BATCH)


def test_haidi_analyze_batch_all_cores(benchmark):
    benchmark.extra_info["items"] = len(BATCH)
    with all_cores():
        benchmark(MCR.analyze_batch, BATCH)


LONGGANG = haidi.ruleset("longgang")
#: 17-tile Longgang hands with two 财神 (5m wild), not yet ready; and two ready, whose
#: waits are each scored: 27 waits, the median by CPU time of an earlier draw of 260
#: random ready hands with two, and 25 waits over three discards, the median (analysed
#: again) of a run of ``scripts/ready_wilds.py`` (260 hands, seed 1).
LG_HANDS = ["13569m2468p1347s6z5m5m", "1123m45p679s12367z5m5m", "124578m13469p2588s5m5m"]
LG_READY_TWO = "7m1m9m9s9s1p8p3p7m3m9m8p9s3m2p5m5m"
LG_READY_MEDIAN = "5m5m2z7p6z7s6z6s6z6m7m4p6s4p4p8m5s"
#: Ready on 85 waits over 13 discards, holding three 财神 (the 5m of the run is one):
#: each wait scores the 300 cap (三财神).
LG_READY = "123456789m12p11s77z5m5m"
#: One from ready after every good discard, four 2s held: the slowest of 17,400 random
#: hands with two 财神, whose draws a wild standing past the copies might make ready.
LG_ONE_FROM_READY = "3p3p5p6p6p7p8p8p2s2s2s2s3s8s1z5m5m"


@pytest.mark.parametrize("hand", LG_HANDS)
def test_haidi_longgang_two_wilds(benchmark, hand):
    benchmark(LONGGANG.analyze, hand, wilds="5m")


def test_haidi_longgang_two_wilds_ready(benchmark):
    benchmark(LONGGANG.analyze, LG_READY_TWO, wilds="5m")


def test_haidi_longgang_two_wilds_ready_median(benchmark):
    benchmark(LONGGANG.analyze, LG_READY_MEDIAN, wilds="5m")


def test_haidi_longgang_three_wilds_ready(benchmark):
    benchmark(LONGGANG.analyze, LG_READY, wilds="5m")


def test_haidi_longgang_two_wilds_one_from_ready(benchmark):
    benchmark(LONGGANG.analyze, LG_ONE_FROM_READY, wilds="5m")
