"""MCR scoring speed against PyMahjongGB's MahjongFanCalculator, same hands, same run.

    pytest benches/bench_mcr.py --benchmark-enable --benchmark-only

Ratios are printed at the end (peer time / haidi time per situation).
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from mcr_peer import random_situation, situation_to_pymahjonggb  # noqa: E402

import haidi  # noqa: E402

from conftest import ratio  # noqa: E402
from hands import all_cores  # noqa: E402

MahjongGB = pytest.importorskip("MahjongGB")
N = 2000
RS = haidi.ruleset("mcr")
SITS = [random_situation(random.Random(i)) for i in range(N)]
PEER_ARGS = [situation_to_pymahjonggb(s) for s in SITS]
COLUMNS = {k: [s[k] for s in SITS] for k in SITS[0]}
_WIND = {"E": 0, "S": 1, "W": 2, "N": 3}
#: The columns as a user scoring millions would keep them: numpy arrays, winds as 0-3.
ARRAYS = {
    k: np.array([_WIND[w] for w in v], dtype=np.uint8) if k.endswith("wind") else np.asarray(v)
    for k, v in COLUMNS.items()
}
TIMES: dict = {}


def _record(benchmark, name):
    benchmark.extra_info["items"] = N
    TIMES[name] = benchmark.stats.stats.mean / N


# Each call's answer is read as a user reads it, the same way on both sides: whether it
# wins, the total, and each fan's two fields (haidi's id and count, the peer's name and
# points), the engine's own fans kept with the rest. The peer raises for a hand under 8
# points, and answers a win with (points, name) pairs, a fan counted twice listed twice;
# its total is the sum of the points.


def _read_peer(calc, args):
    try:
        fans = calc(**args)
    except Exception:  # the peer's "ERROR_NOT_WIN" and the like: no win
        return False, 0, ()
    return True, sum(points for points, name in fans if name), fans


def _read(r):
    fans = r.fans
    return r.win, r.total, sum(f.count for f in fans if f.id), fans


def test_peer_per_call(benchmark):
    calc = MahjongGB.MahjongFanCalculator

    def run():
        for a in PEER_ARGS:
            _read_peer(calc, a)

    benchmark(run)
    _record(benchmark, "peer")


def test_peer_list(benchmark):
    """The peer scoring the whole list and keeping the results, as evaluate_many does."""
    calc = MahjongGB.MahjongFanCalculator

    def run():
        return [_read_peer(calc, a) for a in PEER_ARGS]

    benchmark(run)
    _record(benchmark, "peer, results kept")


def test_haidi_evaluate_per_call(benchmark):
    ev = RS.evaluate

    def run():
        for s in SITS:
            _read(ev(**s))

    benchmark(run)
    _record(benchmark, "evaluate")


class _Plain:
    """A result's values read by the benchmark, in a plain ``__slots__`` object."""

    __slots__ = ("win", "total", "fans")

    def __init__(self, win, total, fans):
        self.win, self.total, self.fans = win, total, fans


class _PlainFan:
    __slots__ = ("id", "count")

    def __init__(self, id, count):
        self.id, self.count = id, count


def test_haidi_read_results(benchmark):
    """Reading alone: the results, made beforehand, read as a user reads them."""
    results = [RS.evaluate(**s) for s in SITS]

    def run():
        for r in results:
            _read(r)

    benchmark(run)
    _record(benchmark, "reading results")


def test_plain_read(benchmark):
    """The same values in plain ``__slots__`` objects, read the same way: the floor of
    reading in Python, for scale."""
    plain = []
    for s in SITS:
        r = RS.evaluate(**s)
        plain.append(_Plain(r.win, r.total, tuple(_PlainFan(f.id, f.count) for f in r.fans)))

    def run():
        for r in plain:
            _read(r)

    benchmark(run)
    _record(benchmark, "reading __slots__ objects")


def test_haidi_evaluate_many_dicts(benchmark):
    def run():
        return [_read(r) for r in RS.evaluate_many(SITS)]

    benchmark(run)
    _record(benchmark, "evaluate_many(list)")


def test_haidi_evaluate_many_columns(benchmark):
    benchmark(RS.evaluate_many, COLUMNS)
    _record(benchmark, "evaluate_many(columns)")


def test_haidi_evaluate_many_arrays(benchmark):
    benchmark(RS.evaluate_many, ARRAYS)
    _record(benchmark, "evaluate_many(arrays)")


def test_haidi_evaluate_many_dicts_all_cores(benchmark):
    def run():
        return [_read(r) for r in RS.evaluate_many(SITS)]

    with all_cores():
        benchmark(run)
    _record(benchmark, f"list, {os.cpu_count()} cores")


def test_haidi_evaluate_many_columns_all_cores(benchmark):
    with all_cores():
        benchmark(RS.evaluate_many, COLUMNS)
    _record(benchmark, f"columns, {os.cpu_count()} cores")


def test_haidi_evaluate_many_arrays_all_cores(benchmark):
    with all_cores():
        benchmark(RS.evaluate_many, ARRAYS)
    _record(benchmark, f"arrays, {os.cpu_count()} cores")


def teardown_module(module):
    if "peer" not in TIMES:
        return
    print("\nper situation (mean) and speed-up over PyMahjongGB per call:")
    for k, t in TIMES.items():
        # Reading alone is given for scale, beside the call it is part of.
        ratio = "" if k.startswith("reading") else f"   x{TIMES['peer'] / t:6.2f}"
        print(f"  {k:24s} {t * 1e6:8.2f} us{ratio}")
    if "peer, results kept" in TIMES and "evaluate_many(list)" in TIMES:
        kept = TIMES["peer, results kept"] / TIMES["evaluate_many(list)"]
        print(f"  evaluate_many(list) against the peer keeping its results too: x{kept:.2f}")


for _name, _what in [
    ("test_haidi_evaluate_per_call", "MCR evaluate per call"),
    ("test_haidi_evaluate_many_dicts", "MCR evaluate_many, list of dicts"),
    ("test_haidi_evaluate_many_columns", "MCR evaluate_many, columns"),
    ("test_haidi_evaluate_many_arrays", "MCR evaluate_many, numpy columns"),
    ("test_haidi_evaluate_many_dicts_all_cores", "MCR evaluate_many, list of dicts, every core"),
    ("test_haidi_evaluate_many_columns_all_cores", "MCR evaluate_many, columns, every core"),
    ("test_haidi_evaluate_many_arrays_all_cores", "MCR evaluate_many, numpy columns, every core"),
]:
    ratio(_name, "test_peer_per_call", f"{_what} vs PyMahjongGB MahjongFanCalculator per call")
