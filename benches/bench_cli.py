"""``haidi eval --jsonl`` speed: the command (lines read in chunks, each chunk read,
scored and answered as one batch) against scoring a line at a time (``json.loads``,
``evaluate``, ``json.dumps``, a write a line), on the same lines in the same run.

    pytest benches/bench_cli.py --benchmark-enable --benchmark-only

Lines: 20,000 a ruleset, MCR's random winning situations (``scripts/mcr_peer.py``) and
the regional rulesets' random situations (``scripts/situations.py``), seeded, as JSON.
Both run in this process, each after a round not timed, so that start-up and what a
ruleset's first hands build once (its scheme, the distance tables: whichever of the two
ran first paid them) are left out of both, on one core (``HAIDI_PARALLELISM=0``), timed
by the process's CPU time: a shared machine's load then moves the two alike. The target:
at least 5 times the lines a second of the per-line loop (docs/cli.md says where it is
met).

The ``_wall`` pair times the same two by the clock with the command's batches on every
core, as ``haidi`` runs by default: the lines a second a user sees on a machine whose
cores are free (on a loaded one, this pair says little).
"""

from __future__ import annotations

import io
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import situations  # noqa: E402
from mcr_peer import random_situation  # noqa: E402

import haidi  # noqa: E402
from haidi.cli import main  # noqa: E402

from conftest import ratio  # noqa: E402
from hands import all_cores  # noqa: E402

N = 20_000
RULESETS = ("mcr", "changsha", "hainan", "tangshan", "beijing", "longgang")


def _lines(rules: str) -> bytes:
    rng = random.Random(11)
    make = random_situation if rules == "mcr" else (lambda r: situations.situation(r, rules))
    return "".join(json.dumps(make(rng)) + "\n" for _ in range(N)).encode("utf-8")


LINES = {r: _lines(r) for r in RULESETS}


class _Stdio:
    """Standard input from ``data`` and standard output into memory, for one run."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __enter__(self) -> io.TextIOWrapper:
        self.saved = sys.stdin, sys.stdout
        sys.stdin = io.TextIOWrapper(io.BytesIO(self.data), encoding="utf-8")
        sys.stdout = out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
        return out

    def __exit__(self, *exc: Any) -> None:
        sys.stdin, sys.stdout = self.saved


def _per_line(rules: str) -> None:
    """The loop the command ran before it read in batches."""
    rs = haidi.ruleset(rules)
    for line in sys.stdin:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            sit = json.loads(line)
            sit.setdefault("format", "compact")
            out: dict[str, Any] = rs.evaluate(**sit)
        except (haidi.HandError, ValueError, TypeError) as e:
            out = {"error": str(e)}
        print(json.dumps(out, ensure_ascii=False))
    sys.stdout.flush()


@pytest.mark.benchmark(group="cli", timer=time.process_time)
@pytest.mark.parametrize("rules", RULESETS)
def test_eval_jsonl(benchmark, rules):
    def run() -> None:
        with _Stdio(LINES[rules]):
            main(["eval", "--rules", rules, "--jsonl", "--quiet"])

    benchmark.extra_info["items"] = N
    benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)


@pytest.mark.benchmark(group="cli", timer=time.process_time)
@pytest.mark.parametrize("rules", RULESETS)
def test_per_line_loop(benchmark, rules):
    def run() -> None:
        with _Stdio(LINES[rules]):
            _per_line(rules)

    benchmark.extra_info["items"] = N
    benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)


@pytest.mark.benchmark(group="cli-wall", timer=time.perf_counter)
@pytest.mark.parametrize("rules", RULESETS)
def test_eval_jsonl_wall(benchmark, rules):
    def run() -> None:
        with _Stdio(LINES[rules]), all_cores():
            main(["eval", "--rules", rules, "--jsonl", "--quiet"])

    benchmark.extra_info["items"] = N
    benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)


@pytest.mark.benchmark(group="cli-wall", timer=time.perf_counter)
@pytest.mark.parametrize("rules", RULESETS)
def test_per_line_loop_wall(benchmark, rules):
    def run() -> None:
        with _Stdio(LINES[rules]):
            _per_line(rules)

    benchmark.extra_info["items"] = N
    benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)


def test_both_give_the_same_answers():
    """The two loops compared answer each line alike (what is timed is the same work)."""
    rows = {}
    some = b"".join(LINES["hainan"].splitlines(keepends=True)[:1000])
    runs = {"batch": lambda: main(["eval", "--rules", "hainan", "--jsonl"]), "line": lambda: _per_line("hainan")}
    for name, run in runs.items():
        with _Stdio(some) as out:
            run()
            out.flush()
            rows[name] = [json.loads(x) for x in out.buffer.getvalue().splitlines()]
    assert len(rows["batch"]) == len(rows["line"]) == 1000
    for a, b in zip(rows["batch"], rows["line"], strict=True):
        assert ("error" in a) == ("error" in b) and ("error" in a or a == b)


for _r in RULESETS:
    ratio(f"test_eval_jsonl[{_r}]", f"test_per_line_loop[{_r}]", f"eval --jsonl vs a line at a time, {_r}")
    ratio(
        f"test_eval_jsonl_wall[{_r}]",
        f"test_per_line_loop_wall[{_r}]",
        f"eval --jsonl on every core vs a line at a time, by the clock, {_r}",
    )
