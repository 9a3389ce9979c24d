"""The command line when its output cannot be written: a full disk (``/dev/full``), a
closed standard output (``>&-``), a log past the file size limit. One line on standard
error, exit status 4, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")

COMMANDS = [
    (["shanten", "123m456p789s1234z"], b""),
    (["eval", "--jsonl"], b'{"hand": "123m456p789s1122z", "win": "1z"}\n'),
    (["play", "--bots", "random,random,random,random", "--games", "2"], b""),
]


def _haidi(argv, stdin: bytes, stdout, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "haidi", *argv], input=stdin, stdout=stdout, stderr=subprocess.PIPE, timeout=60, **kw
    )


@pytest.mark.parametrize(("argv", "stdin"), COMMANDS)
def test_a_full_disk_is_one_line_and_status_4(argv, stdin):
    with open("/dev/full", "wb") as full:
        done = _haidi(argv, stdin, full)
    assert done.returncode == 4
    assert done.stderr.decode().endswith("haidi: error: cannot write standard output: No space left on device\n")
    assert b"Traceback" not in done.stderr


@pytest.mark.parametrize(("argv", "stdin"), COMMANDS)
def test_a_closed_standard_output_is_one_line_and_status_4(argv, stdin):
    done = _haidi(argv, stdin, None, pass_fds=(), preexec_fn=lambda: os.close(1))
    assert done.returncode == 4
    assert done.stderr == b"haidi: error: cannot write standard output: it is closed\n"


def test_a_log_that_cannot_be_written_is_said_after_the_summary(tmp_path):
    import resource

    log = tmp_path / "games.jsonl"

    def small() -> None:
        # Far less than ten hands' log, whatever the walls.
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    bots = "random,random,random,random"
    argv = ["play", "--bots", bots, "--games", "10", "--seed", "1", "--log", str(log), "--json"]
    done = _haidi(argv, b"", subprocess.PIPE, preexec_fn=small)
    assert done.returncode == 4 and b'"hands": 10' in done.stdout
    assert done.stderr.decode().endswith("cannot write '" + str(log) + "': File too large\n")
    assert not log.exists() and list(tmp_path.iterdir()) == []
