"""Batches in other processes: after a fork (a child of ``os.fork``, pools of
``multiprocessing`` started by fork and by spawn) and stopped by Ctrl-C.

Each runs in a process of its own (``process_work.py``) with a time limit, so that a
batch that hangs fails its test instead of the run.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import haidi

import process_work

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="fork and SIGINT are POSIX")

HERE = Path(__file__).resolve().parent
#: Far more than the batches take, parent and child, on a slow machine.
FORK_LIMIT = 180
#: Ctrl-C is sent this long after the batch starts ...
INTERRUPT_AFTER = 0.5
#: ... and the batch, which would run ``process_work.LONG`` seconds (fewer on a machine
#: fast enough to reach ``process_work.MOST`` items), must have stopped within this long.
#: A batch that was not stopped prints "finished", not "interrupted", so the test tells
#: the two apart at any limit under ``LONG``; this one leaves room for a host whose two
#: cores are both busy with other work (3 s was once not enough there).
INTERRUPT_LIMIT = 6.0


def _env(**extra: str) -> dict[str, str]:
    """The environment of a child: this copy of haidi, threads on, two of them."""
    env = dict(os.environ)
    env.pop("HAIDI_PARALLELISM", None)
    paths = [str(Path(haidi.__file__).resolve().parent.parent), str(HERE), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    env["RAYON_NUM_THREADS"] = "2"
    env.update(extra)
    return env


def _start(*args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(HERE / "process_work.py"), *args],
        env=_env(**env),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def _kill(p: subprocess.Popen[str]) -> str:
    """Kills the child and whatever it started; what it printed."""
    os.killpg(p.pid, signal.SIGKILL)
    return p.communicate()[0]


@pytest.mark.parametrize(
    ("how", "parallelism"),
    [("os.fork", None), ("os.fork", "0"), ("fork", None), ("spawn", None)],
    ids=["os.fork", "os.fork-no-threads", "pool-fork", "pool-spawn"],
)
def test_batches_after_a_batch_in_the_parent_run_again_in_a_child(how: str, parallelism: str | None) -> None:
    # Every batch of process_work.BATCHES, 6,000 rows each, in the parent, then in a
    # child made by `how`: the same outputs.
    p = _start("fork", how, **({"HAIDI_PARALLELISM": parallelism} if parallelism else {}))
    try:
        out = p.communicate(timeout=FORK_LIMIT)[0]
    except subprocess.TimeoutExpired:
        pytest.fail(f"no answer in {FORK_LIMIT} s: a batch hangs in the child\n{_kill(p)}")
    assert p.returncode == 0, out


def _ready(p: subprocess.Popen[str]) -> str:
    """The child's ``ready`` line: it times a sample first, then prints it as the long
    batch starts (after a warning, say)."""
    if not select.select([p.stdout], [], [], FORK_LIMIT)[0]:
        pytest.fail(f"the child did not start its batch\n{_kill(p)}")
    assert p.stdout is not None
    ready = p.stdout.readline()
    while ready and not ready.startswith("ready"):
        ready = p.stdout.readline()
    assert ready.startswith("ready"), ready + _kill(p)
    return ready


@pytest.mark.parametrize("parallelism", ["threads", "no-threads"])
@pytest.mark.parametrize("batch", ["analyze_batch", "mcr_columns", "mcr_list", "longgang_columns", "longgang_list"])
def test_ctrl_c_stops_a_long_batch_with_keyboard_interrupt(batch: str, parallelism: str) -> None:
    p = _start("interrupt", batch, **({"HAIDI_PARALLELISM": "0"} if parallelism == "no-threads" else {}))
    try:
        _ready(p)
        time.sleep(INTERRUPT_AFTER)
        p.send_signal(signal.SIGINT)
        out = p.communicate(timeout=INTERRUPT_LIMIT)[0]
    except subprocess.TimeoutExpired:
        pytest.fail(f"not stopped {INTERRUPT_LIMIT} s after SIGINT (the batch runs {process_work.LONG} s)\n{_kill(p)}")
    # Warnings may come first (stderr is in `out` too).
    assert "interrupted" in [line.split(" ")[0] for line in out.splitlines()], out
    assert p.returncode == 0, out


def test_ctrl_c_is_heard_while_the_pool_scores_the_last_runs() -> None:
    """Columns of 64 runs of 128 slow rows are all read at once and wait for the pool:
    the calling thread then scores with the pool and must still hear Ctrl-C between
    runs (it heard it only when every run was scored: seconds later)."""
    p = _start("interrupt", "queued")
    try:
        estimate = float(_ready(p).split()[2])
        if estimate < 4 * INTERRUPT_AFTER:
            _kill(p)
            pytest.skip(f"the batch takes {estimate:.2f} s here: too short to interrupt in its middle")
        time.sleep(INTERRUPT_AFTER)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out = p.communicate(timeout=INTERRUPT_LIMIT + estimate)[0]
    except subprocess.TimeoutExpired:
        pytest.fail(f"not stopped after SIGINT\n{_kill(p)}")
    heard = [float(line.split()[1]) for line in out.splitlines() if line.startswith("interrupted ")]
    assert heard, out
    # A run is 128 rows of about 0.5 ms: heard within a few runs, not at the batch's end.
    assert heard[0] - sent < max(0.5, estimate / 4), (heard[0] - sent, estimate)


def test_ctrl_c_while_jsonl_writes_into_a_slow_pipe_leaves_whole_lines() -> None:
    """Ctrl-C while ``eval --jsonl`` writes a batch into a pipe read slowly: the line being
    written is finished, so that every line the reader gets is whole JSON, and the
    command exits 130. Sent at several points of the writing."""
    import json
    import random

    sys.path.insert(0, str(HERE.parent / "scripts"))
    from mcr_peer import random_situation

    rng = random.Random(3)
    data = "".join(json.dumps(random_situation(rng)) + "\n" for _ in range(40_000)).encode()
    for run in range(4):
        with subprocess.Popen(
            [sys.executable, "-m", "haidi", "eval", "--rules", "mcr", "--jsonl", "--quiet"],
            env=_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            # SIGINT heard, even where this runs as a job in the background (which
            # inherits it ignored, and Python then leaves it so).
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        ) as p:
            out = _interrupt_while_writing(p, data, 0.1 * run)
        assert p.returncode == 130
        assert out.endswith(b"\n")
        lines = out.splitlines()
        assert all("win" in json.loads(line) or "error" in json.loads(line) for line in lines)
        assert len(lines) < 40_000, "the batch was not cut short: Ctrl-C came too late"


def _interrupt_while_writing(p: subprocess.Popen[bytes], data: bytes, after: float) -> bytes:
    """Feeds ``data`` to ``p`` and reads its answers slowly; sends SIGINT once some are in
    and ``after`` seconds have passed. Returns all it wrote."""
    import threading

    stdin, stdout = p.stdin, p.stdout
    assert stdin is not None and stdout is not None

    def feed() -> None:
        try:
            stdin.write(data)
            stdin.close()
        except (BrokenPipeError, ValueError):
            pass

    threading.Thread(target=feed, daemon=True).start()
    out = b""
    end = time.monotonic() + after
    try:
        while len(out) < 4096 or time.monotonic() < end:
            if select.select([stdout], [], [], FORK_LIMIT)[0]:
                out += os.read(stdout.fileno(), 997)
            time.sleep(0.001)
        p.send_signal(signal.SIGINT)
        out += stdout.read()
        p.wait(timeout=INTERRUPT_LIMIT * 10)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        pytest.fail("not stopped after SIGINT")
    return out
