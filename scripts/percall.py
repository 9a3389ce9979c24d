#!/usr/bin/env python3
"""Instructions a call of a ruleset's ``evaluate`` (or ``evaluate_many`` on a list), by
callgrind, which the machine's load does not move.

    python scripts/percall.py [RULES ...] [--n N] [--many] [--wilds]

For each ruleset: N random situations (MCR's from ``scripts/mcr_peer.py``, the others'
from ``scripts/situations.py``, without wilds, or with a wild kind under ``--wilds``) are
scored once in one run and three times in another, under ``valgrind --tool=callgrind``,
single-threaded; the difference of the two runs' instructions, over the 2 N calls it is
made of, is a call's, the Python call and the result dict included, start-up and the
first call's set-up left out.
``--many`` scores the list with one ``evaluate_many`` call instead, and gives the
instructions a situation. Prints one line a ruleset.
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

    rs = haidi.ruleset(rules)

    def takes(s: dict[str, Any]) -> bool:
        try:
            rs.evaluate(**s)
        except haidi.HandError:
            return False
        return ("wilds" in s) == wilds

    return regional.accepted(random.Random(f"3-{rules}-{wilds}"), rules, n, takes)


def score(rules: str, n: int, times: int, many: bool, wilds: bool) -> None:
    """Scores the situations ``times`` times (the measured run)."""
    import haidi

    sits = situations(rules, n, wilds)
    rs = haidi.ruleset(rules)
    for _ in range(times):
        if many:
            rs.evaluate_many(sits)
        else:
            ev = rs.evaluate
            for s in sits:
                ev(**s)


def instructions(rules: str, n: int, times: int, many: bool, wilds: bool) -> int:
    """The instructions of a run scoring the situations ``times`` times."""
    env = dict(os.environ, HAIDI_PARALLELISM="0", OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
    args = [sys.executable, __file__, rules, "--n", str(n), "--times", str(times)]
    args += (["--many"] if many else []) + (["--wilds"] if wilds else [])
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
    p.add_argument("--many", action="store_true")
    p.add_argument("--wilds", action="store_true", help="situations with a wild kind (the rulesets that have one)")
    p.add_argument("--times", type=int, help=argparse.SUPPRESS)  # the run measured
    a = p.parse_args()
    if a.times is not None:
        score(a.rules[0], a.n, a.times, a.many, a.wilds)
        return
    for rules in a.rules:
        wilds = a.wilds and rules != "mcr"
        once, thrice = (instructions(rules, a.n, t, a.many, wilds) for t in (1, 3))
        what = ("evaluate_many, a situation" if a.many else "evaluate, a call") + (", wilds" if wilds else "")
        print(f"{rules}: {(thrice - once) / (2 * a.n):,.0f} instructions ({what})", flush=True)


if __name__ == "__main__":
    main()
