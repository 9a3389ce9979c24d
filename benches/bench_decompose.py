"""``decompose`` on the hands with the most arrangements known, at the default limit and
at the largest.

    pytest benches/bench_decompose.py --benchmark-enable --benchmark-only

On a machine shared with other work, add ``--benchmark-timer=time.process_time``.

A listing's searches stop when they have ``limit`` arrangements, so a call's time is
about that of building the arrangements' dicts, whatever the hand (docs/engine.md). The
hands (``WORST``) are the issue's examples, a whole hand of wilds, and the slowest that
``scripts/worst_cases.py --decompose`` found. Targets: under 50 ms a call at the default
limit, and the time an arrangement about the same at both limits (no search that grows
faster than its listing). The table at the end gives the figures.
"""

from __future__ import annotations

from typing import Any

import pytest

import haidi
from haidi.ruleset import DECOMPOSE_LIMIT

#: (hand, wild kinds, extra wilds) by ruleset.
WORST: dict[str, list[tuple[str, str | None, int]]] = {
    "mcr": [("", None, 14), ("7z", None, 13), ("8m55p2222s1223z", "8m2s", 3), ("7m8p3333z", "3z", 8)],
    "changsha": [("", None, 14), ("1112m26p67s", "1m6p7s", 6), ("278m12222p", "2p", 6)],
    "hainan": [("", None, 14), ("8m3489p468s", "38p6s2z", 6), ("1p", None, 13)],
    "tangshan": [("", None, 14), ("478888p4s", "8p", 7), ("6667s", "6s", 10)],
    "beijing": [("", None, 14), ("11m11p11567s66z", "1p5s", 3), ("3m555p6999s55z", "5p9s5z", 4)],
    "longgang": [("", None, 17), ("22223799p3s13366z", "2p3z", 3), ("19999m", "9m", 12), ("5s", None, 16)],
}
CASES = [(r, i) for r in WORST for i in range(len(WORST[r]))]
LIMITS = (DECOMPOSE_LIMIT, 20_000)
#: (ruleset, limit) -> the slowest call, seconds, and its time an arrangement.
TIMES: dict[tuple[str, int], tuple[float, float]] = {}


@pytest.mark.parametrize("limit", LIMITS)
@pytest.mark.parametrize("rules, i", CASES, ids=lambda x: str(x))
def test_worst_listing(benchmark: Any, rules: str, i: int, limit: int) -> None:
    benchmark.group = f"decompose, limit {limit}"
    rs = haidi.ruleset(rules)
    hand, wilds, extra = WORST[rules][i]
    n = len(rs.decompose(hand, wilds, extra_wilds=extra, limit=limit))
    assert n > DECOMPOSE_LIMIT // 2, "a hand of few arrangements is no worst case"
    benchmark(rs.decompose, hand, wilds, extra_wilds=extra, limit=limit)
    mean = benchmark.stats.stats.mean
    if mean > TIMES.get((rules, limit), (0.0, 0.0))[0]:
        TIMES[rules, limit] = (mean, mean / n)


def teardown_module(module: Any) -> None:
    if not TIMES:
        return
    print(f"\n  {'ruleset':9s}" + "".join(f" {f'limit {lim:,}':>22s}" for lim in LIMITS))
    for r in WORST:
        cells = []
        for lim in LIMITS:
            t = TIMES.get((r, lim))
            cells.append(f" {t[0] * 1e3:8.2f} ms {t[1] * 1e6:6.2f} us/a" if t else f" {'-':>22s}")
        print(f"  {r:9s}" + "".join(cells))
