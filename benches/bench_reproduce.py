"""`haidi reproduce` against a plain pure-Python enumeration, measured in the same run.

    pytest benches/bench_reproduce.py -o addopts="" -s

(`-o addopts=""` lifts the project's default `--benchmark-skip`; `-s` shows the ratio.)

The peer is `table13()` of benches/pure_python_tables.py: every 13-tile one-suit hand's
waits and every 14-tile hand's completeness, from empty caches. haidi's 13-tile table
computes the same figures plus the hands with declared kongs (含杠), so the ratio is, if
anything, in the peer's favour.
"""

import pathlib
import sys

import pytest

from haidi import _core

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import pure_python_tables  # noqa: E402

TIMES: dict[str, float] = {}


def test_rust_table13(benchmark):
    benchmark.group = "13-tile one-suit table"
    out = benchmark(_core.reproduce_table, 13)
    assert out["values"]["ready13_standard"] == 40070
    TIMES["rust"] = benchmark.stats.stats.median


def test_pure_python_table13(benchmark):
    benchmark.group = "13-tile one-suit table"
    out = benchmark.pedantic(pure_python_tables.table13, rounds=3, iterations=1)
    assert out["ready"]["ready_standard"] == 40070
    TIMES["python"] = benchmark.stats.stats.median


def test_rust_every_published_figure(benchmark):
    benchmark.group = "every figure of 附二-附五"
    out = benchmark(_core.reproduce_published)
    assert len(out["values"]) == 105
    TIMES["all"] = benchmark.stats.stats.median


def test_ratio():
    if not {"rust", "python"} <= TIMES.keys():
        pytest.skip("run with the benchmarks enabled")
    ratio = TIMES["python"] / TIMES["rust"]
    print(
        f"\n13-tile table: Rust {TIMES['rust'] * 1e3:.1f} ms, pure Python {TIMES['python'] * 1e3:.0f} ms, "
        f"ratio {ratio:.0f}x; every published figure: {TIMES.get('all', float('nan')) * 1e3:.0f} ms"
    )
    assert ratio > 1
