"""How long Ctrl-C takes to stop a list batch of slow situations: the slowest Tangshan
situation found (eight 混 of two kinds, the winning tile one of them), ``--rows`` copies
of it in one ``evaluate_many`` call, SIGINT sent after each of a few delays; prints the
time from the signal to the ``KeyboardInterrupt``, and the worst.

    python scripts/ctrl_c_latency.py [--rows 20000]          # every core
    HAIDI_PARALLELISM=0 python scripts/ctrl_c_latency.py      # one
"""

from __future__ import annotations

import argparse
import os
import signal
import threading
import time

import haidi

SLOWEST = dict(hand="333345666p4567s", win="6p", wilds="3p6p", self_drawn=True, xiaosa="ming", open_ready=True)


def _interrupt(delay: float, sent: list[float]) -> None:
    time.sleep(delay)
    sent.append(time.perf_counter())
    os.kill(os.getpid(), signal.SIGINT)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20000)
    args = ap.parse_args()
    ts = haidi.ruleset("tangshan")
    rows = [dict(SLOWEST) for _ in range(args.rows)]
    started = time.perf_counter()
    ts.evaluate_many(rows[:2000])
    per = (time.perf_counter() - started) / 2000
    worst = 0.0
    for delay in [0.05, 0.3, 0.8, 1.5, 2.5, 3.5]:
        sent: list[float] = []
        threading.Thread(target=_interrupt, args=(delay, sent)).start()
        try:
            ts.evaluate_many(rows)
            print(f"delay {delay}: the batch ended first")
        except KeyboardInterrupt:
            lag = time.perf_counter() - sent[0]
            worst = max(worst, lag)
            print(f"delay {delay}: stopped {lag * 1000:.0f} ms after the signal")
    print(f"{per * 1e6:.0f} us a situation; worst {worst * 1000:.0f} ms")


if __name__ == "__main__":
    main()
