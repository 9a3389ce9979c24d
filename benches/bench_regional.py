"""Regional scoring speed, measured against MCR's ``evaluate`` in the same run.

    pytest benches/bench_regional.py --benchmark-enable --benchmark-only

- per call: each regional ruleset's ``evaluate`` on 2,000 random situations without
  wilds, and with a wild kind (one to four wilds held) where the ruleset has wilds;
  MCR's ``evaluate`` on 2,000 of its own random winning situations. Ratio: regional time
  over MCR's (the target is at most 2 on hands like MCR's, without wilds; with a wild
  kind, which MCR's hands never hold, it is given for scale).
- per call, interleaved: each round times MCR's calls, a regional ruleset's calls (the
  same situations, without wilds or with a wild kind), and MCR's again, one after the
  other; the round's ratio is the regional time over the mean of MCR's two, and the
  table gives the median of the rounds. A host whose speed drifts between the separate
  benchmarks above moves both sides alike here.
- columns: ``evaluate_many`` on columns of 20,000 rows (the same situations ten times
  over) with every core, situations a second (targets: 1,000,000 without wilds, 300,000
  with a wild kind).
- worst: the slowest situations known (``WORST``: the first examples and those found by
  ``scripts/worst_cases.py`` and by adversarial hill climbs on the size of the search and
  on time), one call each (the target is under 1 ms).

The table at the end gives the figures; the situations are those of
``scripts/situations.py``, seeded.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import situations  # noqa: E402
from mcr_peer import random_situation  # noqa: E402

import haidi  # noqa: E402
from haidi.rulesets import longgang  # noqa: E402

from hands import all_cores  # noqa: E402

N = 2000
RULESETS = ("changsha", "hainan", "tangshan", "beijing", "longgang")
WILD = ("tangshan", "beijing", "longgang")

#: The slowest situations known, by ruleset.
WORST: dict[str, list[dict[str, Any]]] = {
    "changsha": [
        dict(hand="6667777888899m", win="9m"),
        dict(hand="1112223334445m", win="5m", self_drawn=True),
    ],
    "hainan": [
        dict(hand="1112223334445m", win="5m"),
        dict(hand="1112223334445m", win="5m", self_drawn=True),
    ],
    "tangshan": [
        dict(hand="1112223334445m", win="5m", wilds="1m2m", self_drawn=True),
        dict(hand="77m3333p5667888s", win="7m", wilds="3p"),
        dict(hand="1111333445568s", win="7s", wilds="1s"),
        dict(hand="11112222m123p45s", win="6s", wilds="1m2m"),
        dict(hand="1111222234567m", win="8m", wilds="1m2m"),
        dict(hand="3445567788999s", win="9s", wilds="9s", self_drawn=True, xiaosa="ming"),
        dict(hand="1134555667999m", win="9m", wilds="9m", self_drawn=True),
        dict(hand="2344556679999p", win="6p", wilds="9p", seat_wind="W"),
        dict(hand="3334556667789m", win="3m", wilds="3m", self_drawn=True, open_ready=True, seat_wind="N"),
        dict(hand="4444m456777s[1111s+]", win="7s", wilds="4m7s", self_drawn=True),
        dict(hand="3333m118p333388s", win="8p", seat_wind="E", wilds="3m3s"),
        # Eight 混 of two kinds and a wild winning tile: 2,510 arrangements and placements.
        dict(hand="333345666p4567s", win="6p", wilds="3p6p", self_drawn=True, xiaosa="ming", open_ready=True),
        # The same with an honour 混, found by a climb on time.
        dict(
            hand="22245p4567s1111z",
            win="2p",
            wilds="1z2p",
            self_drawn=True,
            seat_wind="N",
            xiaosa="ming",
            open_ready=True,
        ),
    ],
    "beijing": [
        dict(hand="3456777m444p555s", win="7m", wilds="7m"),
        dict(hand="222334678m4444s", win="5m", wilds="4s", discarder_wind="W"),
        dict(hand="3455667999m[555z]", win="9m", wilds="9m"),
        dict(hand="1234555667999p", win="9p", wilds="9p"),
        dict(hand="2224555678889s", win="2s", wilds="2s", seat_wind="N", discarder_wind="W"),
        dict(hand="11114567m46p344s", win="5p", wilds="1m4s", seat_wind="N", discarder_wind="E"),
        dict(hand="9999p456999s[123s]", win="9s", wilds="9p9s", variant="draft4", seat_wind="W"),
        dict(hand="111224578p3456s", win="2p", wilds="1p2p", variant="draft4", seat_wind="E"),
        # Found by climbs on time: the slowest of each variant (flags no game gives
        # together, refused since, left out).
        dict(hand="114567m567p5s666z", win="1m", wilds="1m6z", seat_wind="E", heavenly=True, self_drawn=True),
        dict(hand="1114567m567p4s66z", win="6z", wilds="1m6z", wall_last=True, seat_wind="E", variant="draft4"),
    ],
    "longgang": [
        dict(hand="1m1m2m3m3m2m4m5m8m6m7m9p9p9p9p1f", win="4m", wilds="9p"),
        dict(hand="224444888p1133366z", flowers="2f", wilds="4p"),
        dict(hand="888m555599p999s3377z", wilds="5p", self_drawn=True, seat_wind="W"),
        dict(hand="34445556667m456p7z123f", win="7z", wilds="7z", self_drawn=True, wall_last=True),
        # Four wilds, 推土机 at four, every optional pattern and 边张 胡: about 1,100
        # arrangements, each bounded.
        dict(
            hand="234455667788m456s",
            win="8m",
            wilds="8m",
            flowers="123f",
            seat_wind="S",
            self_drawn=True,
            bulldozer_wilds=4,
            optional=[p.id for p in longgang.PATTERNS.values() if p.optional],
            edge_wait_hu=True,
        ),
    ],
}


def _valid(rules: str, wilds: bool, n: int = N, seed: int = 3) -> list[dict[str, Any]]:
    """``n`` random situations ``evaluate`` takes, with a wild kind or without."""
    rng = random.Random(f"{seed}-{rules}-{wilds}")
    return situations.scored(rng, rules, n, haidi.ruleset(rules).evaluate, haidi.HandError, wilds)


#: Columns hold the situations this many times over: a batch of 20,000 rows, long
#: enough for reading and scoring to overlap as they do in a large batch.
REPEAT = 10


def _columns(sits: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """The situations as columns (``REPEAT`` times over), None where a situation does
    not give a key."""
    keys = sorted({k for s in sits for k in s})
    return {k: [s.get(k) for s in sits] * REPEAT for k in keys}


MCR = [random_situation(random.Random(i)) for i in range(N)]
PLAIN = {r: _valid(r, wilds=False) for r in RULESETS}
WILDS = {r: _valid(r, wilds=True) for r in WILD}
#: Per situation, seconds: (ruleset, what) -> mean.
TIMES: dict[tuple[str, str], float] = {}
#: (ruleset, what) -> the median ratio of the interleaved rounds, and their number.
INTERLEAVED: dict[tuple[str, str], tuple[float, int]] = {}
#: Rounds of the interleaved benchmark.
ROUNDS = 15


def _per_call(benchmark, rules: str, sits: list[dict[str, Any]], what: str) -> None:
    ev = haidi.ruleset(rules).evaluate
    for s in sits:  # the first calls build the tables of waits
        ev(**s)

    def run():
        for s in sits:
            ev(**s)

    benchmark.extra_info["items"] = len(sits)
    benchmark(run)
    TIMES[rules, what] = benchmark.stats.stats.mean / len(sits)


def test_mcr_per_call(benchmark):
    _per_call(benchmark, "mcr", MCR, "per call")


@pytest.mark.parametrize("rules", RULESETS)
def test_per_call(benchmark, rules):
    _per_call(benchmark, rules, PLAIN[rules], "per call")


@pytest.mark.parametrize("rules", WILD)
def test_per_call_with_wilds(benchmark, rules):
    _per_call(benchmark, rules, WILDS[rules], "per call, wilds")


def _interleaved(benchmark, rules: str, sits: list[dict[str, Any]], what: str) -> None:
    ev, mcr = haidi.ruleset(rules).evaluate, haidi.ruleset("mcr").evaluate

    def loop(f, situations: list[dict[str, Any]]) -> float:
        start = time.perf_counter()
        for s in situations:
            f(**s)
        return (time.perf_counter() - start) / len(situations)

    loop(ev, sits)  # the first calls build the tables
    loop(mcr, MCR)
    ratios: list[float] = []

    def run():
        before, regional, after = loop(mcr, MCR), loop(ev, sits), loop(mcr, MCR)
        ratios.append(regional / ((before + after) / 2))

    benchmark.pedantic(run, rounds=ROUNDS)
    INTERLEAVED[rules, what] = (statistics.median(ratios), len(ratios))


@pytest.mark.parametrize("rules", RULESETS)
def test_per_call_interleaved(benchmark, rules):
    _interleaved(benchmark, rules, PLAIN[rules], "without wilds")


@pytest.mark.parametrize("rules", WILD)
def test_per_call_with_wilds_interleaved(benchmark, rules):
    _interleaved(benchmark, rules, WILDS[rules], "with a wild kind")


def _columns_run(benchmark, rules: str, sits: list[dict[str, Any]], what: str) -> None:
    rs = haidi.ruleset(rules)
    cols = _columns(sits)
    with all_cores():
        out = rs.evaluate_many(cols)
        assert out["total"].tolist() == [rs.evaluate(**s)["total"] for s in sits] * REPEAT
        benchmark.extra_info["items"] = len(sits) * REPEAT
        benchmark(rs.evaluate_many, cols)
    TIMES[rules, what] = benchmark.stats.stats.mean / (len(sits) * REPEAT)


@pytest.mark.parametrize("rules", RULESETS)
def test_columns(benchmark, rules):
    _columns_run(benchmark, rules, PLAIN[rules], "columns")


@pytest.mark.parametrize("rules", WILD)
def test_columns_with_wilds(benchmark, rules):
    _columns_run(benchmark, rules, WILDS[rules], "columns, wilds")


@pytest.mark.parametrize("rules, i", [(r, i) for r in RULESETS for i in range(len(WORST[r]))], ids=lambda x: str(x))
def test_worst(benchmark, rules, i):
    ev = haidi.ruleset(rules).evaluate
    s = WORST[rules][i]
    ev(**s)
    benchmark(lambda: ev(**s))
    TIMES[rules, "worst"] = max(TIMES.get((rules, "worst"), 0.0), benchmark.stats.stats.mean)


def teardown_module(module):
    mcr = TIMES.get(("mcr", "per call"))
    if mcr is None:
        print()
        _print_interleaved()
        return
    print(f"\nMCR evaluate per call: {mcr * 1e6:.2f} us ({os.cpu_count()} cores for the columns)")
    print(
        f"  {'ruleset':9s} {'per call':>9s} {'x MCR':>6s} {'wilds':>9s} {'x MCR':>6s}"
        f" {'columns/s':>10s} {'wilds/s':>10s} {'worst':>9s}"
    )

    def us(key):
        t = TIMES.get(key)
        return f"{t * 1e6:7.2f}us" if t else f"{'-':>9s}"

    def ratio(key):
        t = TIMES.get(key)
        return f"{t / mcr:6.2f}" if t else f"{'-':>6s}"

    def rate(key):
        t = TIMES.get(key)
        return f"{1 / t:10,.0f}" if t else f"{'-':>10s}"

    for r in RULESETS:
        print(
            f"  {r:9s} {us((r, 'per call'))} {ratio((r, 'per call'))} {us((r, 'per call, wilds'))}"
            f" {ratio((r, 'per call, wilds'))} {rate((r, 'columns'))} {rate((r, 'columns, wilds'))}"
            f" {us((r, 'worst'))}"
        )
    _print_interleaved()


def _print_interleaved() -> None:
    for what in ("without wilds", "with a wild kind"):
        got = {r: v for (r, w), v in INTERLEAVED.items() if w == what}
        if got:
            rounds = max(n for _, n in got.values())
            each = ", ".join(f"{r} {x:.2f}" for r, (x, _) in got.items())
            print(f"  {what}, x MCR interleaved (median of {rounds} rounds): {each}")
