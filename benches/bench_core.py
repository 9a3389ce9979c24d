"""Core engine against PyMahjongGB and the `mahjong` package, same hands, same run.

pytest benches --benchmark-only          # ratios printed at the end
"""

import pytest

import haidi

from conftest import ratio
from hands import compact, complete_hands, counts_array, pymahjonggb, random_hands, tiles34

MahjongGB = pytest.importorskip("MahjongGB")
mahjong_shanten = pytest.importorskip("mahjong.shanten")
mahjong_agari = pytest.importorskip("mahjong.agari")

N = 20_000
mcr = haidi.ruleset("mcr")
HANDS13 = random_hands(N, 13)
COUNTS13 = counts_array(HANDS13)
TEXT13 = [compact(h) for h in HANDS13]
GB13 = [pymahjonggb(h) for h in HANDS13]
T34_13 = [tiles34(h) for h in HANDS13]
HANDS14 = complete_hands(N)
COUNTS14 = counts_array(HANDS14)
T34_14 = [tiles34(h) for h in HANDS14]
SMALL = 5_000  # per-call peers are slow: time them on the first SMALL hands

ratio("test_shanten_batch", "test_peer_pymahjonggb_shanten", "batch shanten vs PyMahjongGB MahjongShanten per call")
ratio("test_shanten_batch", "test_peer_mahjong_shanten", "batch shanten vs mahjong Shanten per call")
ratio("test_waits_per_call", "test_peer_pymahjonggb_shanten", "waits per call vs PyMahjongGB MahjongShanten per call")
ratio(
    "test_shanten_per_call", "test_peer_pymahjonggb_shanten", "shanten per call vs PyMahjongGB MahjongShanten per call"
)
ratio("test_win_batch", "test_peer_mahjong_agari", "batch win check vs mahjong Agari per call")


def test_peer_pymahjonggb_shanten(benchmark):
    benchmark.extra_info["items"] = SMALL
    benchmark(lambda: [MahjongGB.MahjongShanten((), h) for h in GB13[:SMALL]])


def test_peer_mahjong_shanten(benchmark):
    benchmark.extra_info["items"] = SMALL
    benchmark(lambda: [mahjong_shanten.Shanten.calculate_shanten(t) for t in T34_13[:SMALL]])


def test_peer_mahjong_agari(benchmark):
    benchmark.extra_info["items"] = SMALL
    benchmark(lambda: [mahjong_agari.Agari.is_agari(t) for t in T34_14[:SMALL]])


def test_shanten_batch(benchmark):
    benchmark.extra_info["items"] = N
    result = benchmark(mcr.shanten_batch, COUNTS13)
    assert result.shape == (N,)


def test_win_batch(benchmark):
    benchmark.extra_info["items"] = N
    wins = benchmark(mcr.win_batch, COUNTS14)
    benchmark.extra_info["hands_per_second"] = N / benchmark.stats.stats.mean
    assert 0.3 < wins.mean() < 0.8  # both answers are exercised


def test_waits_per_call(benchmark):
    benchmark.extra_info["items"] = SMALL
    benchmark(lambda: [mcr.waits(t) for t in TEXT13[:SMALL]])


def test_shanten_per_call(benchmark):
    benchmark.extra_info["items"] = SMALL
    benchmark(lambda: [mcr.shanten(t) for t in TEXT13[:SMALL]])
