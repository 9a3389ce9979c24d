#!/usr/bin/env python3
"""Instructions a call of a ruleset's ``evaluate`` (or ``evaluate_many`` on a list), by
callgrind, which the machine's load does not move.

    python scripts/percall.py [RULES ...] [--n N] [--many | --columns] [--wilds]

For each ruleset: N random situations (MCR's from ``scripts/mcr_peer.py``, the others'
from ``scripts/situations.py``, without wilds) are scored once in one run and three times
in another, under ``valgrind --tool=callgrind``, single-threaded; the difference of the
two runs' instructions, over the 2 N calls it is made of, is a call's, the Python call
and the result dict included, start-up and the first call's set-up left out.
``--many`` scores the list with one ``evaluate_many`` call instead, and gives the
instructions a situation; ``--columns`` scores them as the columns of
``benches/bench_regional.py`` (the situations ten times over, None where a situation
does not give a key), and gives the instructions a row. ``--wilds`` takes situations
with a wild kind instead (the rulesets that have one). Prints one line a ruleset.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

RULESETS = ["mcr", "changsha", "hainan", "tangshan", "beijing", "longgang"]


def situations(rules: str, n: int, wilds: bool = False) -> list[dict[str, Any]]:
    """``n`` random situations of ``rules`` that it scores, with a wild kind or without."""
    sys.path.insert(0, str(Path(__file__).parent))
    import haidi

    if rules == "mcr":
        from mcr_peer import random_situation

        return [random_situation(random.Random(i)) for i in range(n)]
    import situations as regional

    rng = random.Random(f"3-{rules}-{wilds}")
    return regional.scored(rng, rules, n, haidi.ruleset(rules).evaluate, haidi.HandError, wilds=wilds)


#: Columns hold the situations this many times over, as the benchmark's do.
REPEAT = 10


def columns(sits: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """The situations as ``benches/bench_regional.py`` makes columns of them."""
    keys = sorted({k for s in sits for k in s})
    return {k: [s.get(k) for s in sits] * REPEAT for k in keys}


def score(rules: str, n: int, times: int, how: str, wilds: bool) -> None:
    """Scores the situations ``times`` times (the measured run)."""
    import haidi

    sits = situations(rules, n, wilds)
    rs = haidi.ruleset(rules)
    cols = columns(sits) if how == "columns" else None
    for _ in range(times):
        if cols is not None:
            rs.evaluate_many(cols)
        elif how == "many":
            rs.evaluate_many(sits)
        else:
            ev = rs.evaluate
            for s in sits:
                ev(**s)


def instructions(rules: str, n: int, times: int, how: str, wilds: bool) -> int:
    """The instructions of a run scoring the situations ``times`` times."""
    env = dict(os.environ, HAIDI_PARALLELISM="0", OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
    args = [sys.executable, __file__, rules, "--n", str(n), "--times", str(times)]
    args += ([f"--{how}"] if how != "call" else []) + (["--wilds"] if wilds else [])
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *args],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"refs:\s+([\d,]+)", run.stderr)
    if not found:
        raise SystemExit(f"no instruction count from callgrind:\n{run.stderr}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("rules", nargs="*", default=RULESETS)
    p.add_argument("--n", type=int, default=500)
    how = p.add_mutually_exclusive_group()
    how.add_argument("--many", dest="how", action="store_const", const="many", default="call")
    how.add_argument("--columns", dest="how", action="store_const", const="columns")
    p.add_argument("--wilds", action="store_true", help="situations with a wild kind (the rulesets that have one)")
    p.add_argument("--times", type=int, help=argparse.SUPPRESS)  # the run measured
    a = p.parse_args()
    if a.times is not None:
        score(a.rules[0], a.n, a.times, a.how, a.wilds)
        return
    rows = REPEAT if a.how == "columns" else 1
    what = {"call": "evaluate, a call", "many": "evaluate_many, a situation", "columns": "columns, a row"}[a.how]
    for rules in a.rules:
        if rules == "mcr" and a.how == "columns":
            continue  # MCR's columns take other keys
        wilds = a.wilds and rules not in ("mcr", "changsha", "hainan")
        once, thrice = (instructions(rules, a.n, t, a.how, wilds) for t in (1, 3))
        per = (thrice - once) / (2 * a.n * rows)
        print(f"{rules}: {per:,.0f} instructions ({what}{', wilds' if wilds else ''})", flush=True)


if __name__ == "__main__":
    main()
