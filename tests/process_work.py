"""Work for the tests of processes (test_processes.py), run in processes of their own.

Each batch is made from a seed, so that a worker process makes the same inputs as its
parent and sends back its outputs to compare. Run as a script it is one of those
processes:

    python process_work.py fork <how>     # batches, then again in a child made by <how>
    python process_work.py interrupt <batch>   # a long batch, until SIGINT
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import situations  # noqa: E402
from mcr_peer import random_situation  # noqa: E402

import haidi  # noqa: E402
from haidi.rulesets import longgang  # noqa: E402

#: Rows of each batch: enough for the pool to share them.
ROWS = 6000
WALL = np.repeat(np.arange(34), 4)
#: Distinct hands or situations a batch repeats (making them is the slow part).
DISTINCT = 500


def _dealt(n: int, size: int, seed: int) -> np.ndarray:
    """``n`` hands of ``size`` tiles dealt from shuffled walls, as tile counts."""
    rng = np.random.default_rng(seed)
    picks = np.argsort(rng.random((n, len(WALL))), axis=1)[:, :size]
    counts = np.zeros((n, 34), dtype=np.uint8)
    np.add.at(counts, (np.repeat(np.arange(n), size), WALL[picks].ravel()), 1)
    return counts


def _complete(n: int, seed: int) -> np.ndarray:
    """``n`` complete MCR hands of four sets and a pair, one tile swapped in half of them
    (``DISTINCT`` hands over and over)."""
    rng = random.Random(seed)
    out = np.zeros((DISTINCT, 34), dtype=np.uint8)
    i = 0
    while i < DISTINCT:
        c = [0] * 34
        for _ in range(4):
            t = rng.randrange(34)
            if t < 27 and t % 9 <= 6 and rng.random() < 0.6:
                for k in range(3):
                    c[t + k] += 1
            else:
                c[t] += 3
        c[rng.randrange(34)] += 2
        if rng.random() < 0.5:
            c[rng.choice([t for t in range(34) if c[t]])] -= 1
            c[rng.randrange(34)] += 1
        if max(c) <= 4:
            out[i] = c
            i += 1
    return np.tile(out, (n // DISTINCT + 1, 1))[:n]


@functools.cache
def _situations(rules: str) -> list[dict[str, Any]]:
    """``ROWS`` situations of ``rules``, ``DISTINCT`` of them over and over."""
    if rules == "mcr":
        distinct = [random_situation(random.Random(i)) for i in range(DISTINCT)]
    else:
        rs = haidi.ruleset(rules)
        distinct = situations.scored(random.Random(rules), rules, DISTINCT, rs.evaluate, haidi.HandError)
    return (distinct * (ROWS // DISTINCT + 1))[:ROWS]


def columns(sits: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """Situations as columns, None where a situation does not give a key."""
    keys = sorted({k for s in sits for k in s})
    return {k: [s.get(k) for s in sits] for k in keys}


def run(name: str) -> Any:
    """Batch ``name`` of ``BATCHES``: its outputs."""
    mcr = haidi.ruleset("mcr")
    if name == "win_batch":
        return mcr.win_batch(_complete(ROWS, 1))
    if name == "shanten_batch":
        return haidi.ruleset("tangshan").shanten_batch(_dealt(ROWS, 13, 2), "5z")
    if name == "analyze_batch":
        return mcr.analyze_batch(_dealt(ROWS, 14, 3))
    if name == "mcr_columns":
        return mcr.evaluate_many(columns(_situations("mcr")))
    if name == "mcr_list":
        return mcr.evaluate_many(_situations("mcr"))
    if name == "tangshan_columns":
        return haidi.ruleset("tangshan").evaluate_many(columns(_situations("tangshan")))
    if name == "changsha_list":
        return haidi.ruleset("changsha").evaluate_many(_situations("changsha"))
    raise ValueError(name)


BATCHES = (
    "win_batch",
    "shanten_batch",
    "analyze_batch",
    "mcr_columns",
    "mcr_list",
    "tangshan_columns",
    "changsha_list",
)


def same(a: Any, b: Any) -> bool:
    """Whether two outputs are equal: arrays element by element, containers item by item."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def threads() -> int | None:
    """Threads of this process (Linux), else None."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return None


def _forked(expected: dict[str, Any]) -> None:
    """In a child of `os.fork`: the batches again, exit status 0 if all are as expected."""
    status = 0
    try:
        for name in BATCHES:
            if not same(run(name), expected[name]):
                print(f"{name}: not as in the parent", flush=True)
                status = 1
        # The parent's pool threads are not in the child: more than the one thread
        # means that it made a pool of its own.
        n = threads()
        if "HAIDI_PARALLELISM" not in os.environ and n is not None and n < 2:
            print("the child ran without a pool of its own", flush=True)
            status = 1
    finally:
        os._exit(status)


def fork(how: str) -> int:
    """Runs the batches here, then in a child made by ``how``; 0 when all agree."""
    expected = {name: run(name) for name in BATCHES}
    if how == "os.fork":
        pid = os.fork()
        if pid == 0:
            _forked(expected)
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status)
    with multiprocessing.get_context(how).Pool(2) as pool:
        got = pool.map(run, BATCHES)
    bad = [name for name, out in zip(BATCHES, got, strict=True) if not same(out, expected[name])]
    for name in bad:
        print(f"{name}: not as in the parent", flush=True)
    return 1 if bad else 0


#: How long an interrupted batch would run to its end, about ...
LONG = 10.0
#: ... but for a fast machine, on which it holds at most this many items: were it not
#: interrupted, its results would take some hundreds of MB at most.
MOST = {
    "analyze_batch": 1_000_000,
    "mcr_columns": 3_000_000,
    "mcr_list": 2_000_000,
    "longgang_columns": 200_000,
    "longgang_list": 100_000,
}


def _batch(rules: str) -> tuple[Any, dict[str, Any]]:
    """``evaluate_many`` of ``rules`` and a situation for it: for Longgang the slowest
    known (benches/bench_regional.py, WORST), about 0.5 ms with the options given."""
    situation = {
        "mcr": dict(hand="1112223334445m", win="5m", self_drawn=True),
        "longgang": dict(
            hand="234455667788m456s", win="8m", wilds="8m", flowers="123f", seat_wind="S", self_drawn=True
        ),  # fmt: skip
    }[rules]
    options = None
    if rules == "longgang":
        optional = [p.id for p in longgang.PATTERNS.values() if p.optional]
        options = dict(bulldozer_wilds=4, optional=optional, edge_wait_hu=True)
    return functools.partial(haidi.ruleset(rules).evaluate_many, options=options), situation


def _long(name: str) -> tuple[Any, Any, int]:
    """A function, its argument and the number of items, for a batch of about ``LONG``
    seconds: the time of a sample scaled up."""
    if name == "analyze_batch":
        mcr = haidi.ruleset("mcr")
        sample = _dealt(8192, 14, 6)

        def make(n: int) -> Any:
            return np.tile(sample, (n // len(sample) + 1, 1))[:n]

        fn: Any = mcr.analyze_batch
    else:
        rules, shape = name.rsplit("_", 1)
        fn, situation = _batch(rules)

        def make(n: int) -> Any:
            if shape == "list":
                return [situation] * n
            return {k: [v] * n for k, v in situation.items()}

        sample_n = 8192 if rules == "mcr" else 256
        sample = make(sample_n)
    fn(sample)
    start = time.perf_counter()
    fn(sample)
    per_item = (time.perf_counter() - start) / (len(sample) if not isinstance(sample, dict) else sample_n)
    n = min(int(LONG / per_item), MOST[name])
    return fn, make(n), n


def interrupt(name: str) -> int:
    """Starts a long batch and waits for SIGINT: prints ``interrupted <monotonic time>``
    when the batch raises KeyboardInterrupt, ``finished`` if it ends first."""
    # Python leaves SIGINT alone when it starts ignored (a job in the background).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    fn, arg, n = _long(name)
    return _until_interrupted(fn, arg, f"ready {n}")


def _until_interrupted(fn: Any, arg: Any, ready: str) -> int:
    """Prints ``ready`` and runs ``fn(arg)``: 0 and ``interrupted <monotonic time>`` when
    it raises KeyboardInterrupt, 1 and ``finished`` if it ends first."""
    print(ready, flush=True)
    try:
        fn(arg)
    except KeyboardInterrupt:
        print(f"interrupted {time.monotonic()}", flush=True)
        return 0
    print("finished", flush=True)
    return 1


def interrupt_queued() -> int:
    """Longgang's slowest rows as columns of exactly ``QUEUED`` runs, all read at once
    and queued for the pool: the whole batch is scored after the reading has ended. Prints
    ``ready <rows> <seconds the batch would take>``, then as ``interrupt`` does."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    fn, situation = _batch("longgang")
    rows = QUEUED * 128
    columns = {k: [v] * rows for k, v in situation.items()}
    sample = {k: v[:512] for k, v in columns.items()}
    start = time.perf_counter()
    fn(sample)
    estimate = (time.perf_counter() - start) * rows / 512
    return _until_interrupted(fn, columns, f"ready {rows} {estimate}")


#: The runs of ``interrupt_queued``: as many as wait for the pool at most.
QUEUED = 64


if __name__ == "__main__":
    what, arg = sys.argv[1], sys.argv[2]
    if what == "fork":
        sys.exit(fork(arg))
    sys.exit(interrupt_queued() if arg == "queued" else interrupt(arg))
