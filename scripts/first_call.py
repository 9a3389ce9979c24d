#!/usr/bin/env python3
"""Times the first call of each entry point of each ruleset in a fresh process.

    python scripts/first_call.py [--rules R ...] [--repeat N]

For every ruleset and entry point a new interpreter imports haidi, makes the ruleset,
then times the entry point's first call and the same call again. The figure that
matters is the first call less the second: what the process waited for beyond the work
itself (tables, caches, lazy imports made on first use). Prints one line a call and the
worst wait; with ``--json`` the rows as JSON. Each figure is the least of ``--repeat``
fresh processes, so that a busy machine does not pass for a stall.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

# A hand one tile short and a complete-size hand of each ruleset, with wilds where the
# ruleset has them (the hand of a first-call stall once seen: Longgang with 1p wild).
HANDS: dict[str, dict[str, str | None]] = {
    "mcr": {"ready": "123m456p789s1122z", "full": "123m456p789s11222z", "win": "2z", "wilds": None},
    "changsha": {"ready": "123m456p789s2255s", "full": "123m456p789s22555s", "win": "5s", "wilds": None},
    "hainan": {"ready": "123m456p789s1122z", "full": "123m456p789s11222z", "win": "2z", "wilds": None},
    "longgang": {"ready": "12679m11114569p689s", "full": "12679m111145699p689s", "win": "9p", "wilds": "1p"},
    "tangshan": {"ready": "123m456p789s1126z", "full": "123m456p789s11226z", "win": "2z", "wilds": "6z"},
    "beijing": {"ready": "123m456p789s1126z", "full": "123m456p789s11226z", "win": "2z", "wilds": "6z"},
}

ENTRY_POINTS = [
    "shanten",
    "waits",
    "is_win",
    "decompose",
    "analyze",
    "winning_waits",
    "evaluate",
    "shanten_batch",
    "waits_batch",
    "win_batch",
    "analyze_batch",
]

CHILD = r"""
import sys, time, json
t0 = time.perf_counter()
import haidi
import numpy as np
rules, entry, ready, full, win, wilds = sys.argv[1:7]
wilds = None if wilds == "-" else wilds
rs = haidi.ruleset(rules)
t1 = time.perf_counter()

def counts(text):
    row = np.zeros((1, 34), np.uint8)
    digits = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            base = "mpsz".index(ch) * 9
            for d in digits:
                row[0, base + d - 1] += 1
            digits = []
    return row

w = {} if wilds is None else {"wilds": wilds}
calls = {
    "shanten": lambda: rs.shanten(ready, **w),
    "waits": lambda: rs.waits(ready, **w),
    "is_win": lambda: rs.is_win(full, **w),
    "decompose": lambda: rs.decompose(full, **w),
    "analyze": lambda: rs.analyze(full, **w),
    "winning_waits": lambda: rs.winning_waits(ready, **w),
    "evaluate": lambda: rs.evaluate(hand=ready, win=win, **w),
    "shanten_batch": lambda: rs.shanten_batch(counts(ready), **w),
    "waits_batch": lambda: rs.waits_batch(counts(ready), **w),
    "win_batch": lambda: rs.win_batch(counts(full), **w),
    "analyze_batch": lambda: rs.analyze_batch(counts(full), **w),
}
f = calls[entry]
a = time.perf_counter()
try:
    f()
    error = None
except Exception as e:  # a call the hand does not fit is reported, not timed
    error = f"{type(e).__name__}: {e}"
b = time.perf_counter()
try:
    f()
except Exception:
    pass
c = time.perf_counter()
print(json.dumps({"import_ms": (t1 - t0) * 1e3, "first_ms": (b - a) * 1e3, "again_ms": (c - b) * 1e3, "error": error}))
"""


def run(rules: str, entry: str) -> dict[str, object]:
    h = HANDS[rules]
    args = [h["ready"], h["full"], h["win"], h["wilds"] or "-"]
    out = subprocess.run(
        [sys.executable, "-c", CHILD, rules, entry, *[str(a) for a in args]],
        capture_output=True,
        text=True,
        check=True,
        env={"HAIDI_PARALLELISM": "off", **__import__("os").environ},
    )
    row: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", nargs="*", default=list(HANDS))
    ap.add_argument("--entry", nargs="*", default=ENTRY_POINTS)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    for rules in args.rules:
        for entry in args.entry:
            runs = [run(rules, entry) for _ in range(args.repeat)]
            best = min(runs, key=lambda r: float(r["first_ms"]) - float(r["again_ms"]))
            wait = float(best["first_ms"]) - float(best["again_ms"])
            rows.append({"rules": rules, "entry": entry, "wait_ms": round(wait, 2), **best})
            if not args.json:
                note = f"  ({best['error']})" if best["error"] else ""
                first, again, imported = (float(best[k]) for k in ("first_ms", "again_ms", "import_ms"))
                print(
                    f"{rules:9} {entry:14} first {first:7.2f} ms  again {again:7.2f} ms  wait {wait:6.2f} ms"
                    f"  import {imported:5.0f} ms{note}",
                    flush=True,
                )
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        worst = max(rows, key=lambda r: float(r["wait_ms"]))
        print(f"worst wait: {worst['wait_ms']} ms ({worst['rules']} {worst['entry']})")


if __name__ == "__main__":
    main()
