"""Bot programs as ``haidi play`` runs them: pipes under one deadline, standard error
kept apart, and every process a bot starts ended with it (docs/game.md, "Running
untrusted bots").

A bot is a shell command started by ``setsid``: a process group of its own. Its standard input
is written without blocking and its standard output read, both through ``select`` and
both before the same deadline, so that a bot that reads nothing, or writes before it
reads, is late like one that does not answer, never a hang. Its standard error goes to a
thread that labels, bounds and passes it on. When it stops, its process, all that shares its group or its
``setsid``, and every descendant the process table shows are killed; a :class:`Guard` (the
command line's) makes haidi the reaper of orphans, so that a process that called ``setsid``
itself and lost its parent is found among haidi's own children.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import select
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

#: The longest answer line read from a bot, in bytes (``haidi play --max-answer``).
MAX_ANSWER = 1 << 20

#: How much of a player's standard error is shown (``--bot-stderr-bytes``).
MAX_STDERR = 64 << 10

#: How long a bot whose input is closed at the end is given to end by itself.
GRACE = 1.0

#: Why a bot may outlive its kill, and what to do about it.
UNKILLABLE = (
    "haidi may not signal it (a process of another user, started by sudo or another setuid "
    "program), so it was left running; run haidi as root to run bots as other users"
)


class Fault(Exception):
    """What was wrong with a bot's answer; ``stopped`` when the bot is stopped for it."""

    def __init__(self, message: str, stopped: bool = False) -> None:
        super().__init__(message)
        self.stopped = stopped
        #: Counted and reported already (a Botzone turn's answer, read before the decision).
        self.reported = False


class Terminated(BaseException):
    """A signal that ends haidi (SIGTERM, SIGHUP) arrived: the bots are ended, then haidi
    exits with ``128 + signum``, as the shells report a process a signal ended."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_report_lock = threading.Lock()


def report(line: str, stream: Any = None) -> None:
    """One whole line on haidi's standard error, not interleaved with a bot's."""
    stream = sys.stderr if stream is None else stream
    if stream is None:  # no standard error (started with it closed): nowhere to report
        return
    with _report_lock:
        try:
            stream.write(line + "\n")
            stream.flush()
        except (OSError, ValueError):
            pass


def _printable(raw: bytes) -> str:
    """A line of a bot's standard error as haidi shows it: control characters (a carriage
    return that would overwrite the label, escape sequences) written as escapes."""
    return printable(raw.decode("utf-8", "replace"))


def printable(text: str, escape: Callable[[str], str] = lambda c: repr(c)[1:-1]) -> str:
    """``text`` with every character Python does not print (controls, line and paragraph
    separators ...) written as ``escape`` writes it (Python's escape by default): what a
    bot sent, shown on haidi's own lines, can then neither start a line that passes for
    haidi's nor drive the terminal."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else escape(c) for c in text)


class StderrSink:
    """Where a player's standard error goes: labelled lines on haidi's standard error
    (``show``), a file (``path``), or nowhere; at most ``limit`` bytes of it a match, the
    rest counted."""

    def __init__(self, label: str, mode: str = "show", path: str | None = None, limit: int = MAX_STDERR) -> None:
        self.label = label
        self.mode = mode
        self.limit = limit
        self.kept = 0
        self.dropped = 0
        self.file: BinaryIO | None = None
        self.partial = b""
        self.lock = threading.Lock()
        if mode == "file":
            assert path is not None
            # Readable by haidi's user alone, as the log is: a player's standard error may
            # hold its hand, and other bots may run as other users. A link put in the
            # place of the file is not followed.
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
            os.fchmod(fd, 0o600)
            self.file = open(fd, "wb")  # noqa: SIM115

    def take(self, data: bytes) -> None:
        with self.lock:
            room = max(0, self.limit - self.kept)
            shown, self.dropped = data[:room], self.dropped + max(0, len(data) - room)
            self.kept += len(shown)
            if not shown or self.mode == "discard":
                return
            if self.file is not None:
                self.file.write(shown)
                self.file.flush()
                return
            # Whole lines only: a line may come in two reads. (Split at newlines only,
            # so that a carriage return shows as one.)
            *lines, self.partial = (self.partial + shown).split(b"\n")
            for line in lines:
                report(f"[{self.label}] {_printable(line)}")

    def drain(self, fd: int) -> None:
        """Reads ``fd`` to its end (run in a thread of its own)."""
        try:
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                self.take(chunk)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                os.close(fd)

    def close(self) -> str | None:
        """Closes the file; a note of what was left out, if anything was."""
        with self.lock:
            if self.partial and self.mode == "show":
                report(f"[{self.label}] {_printable(self.partial)}")
            self.partial = b""
            if self.file is not None:
                self.file.close()
                self.file = None
            if self.dropped and self.mode != "discard":
                return f"{self.label}: {self.dropped:,} more bytes of standard error not kept (limit {self.limit:,})"
        return None


#: The processes that outlived their kill (see ``UNKILLABLE``), kept so that whoever
#: can may still reap them.
left_running: list[subprocess.Popen[bytes]] = []

#: The programs running now, ended by a guard that haidi is stopped with.
_running: weakref.WeakSet[Program] = weakref.WeakSet()


class Program:
    """A bot program: ``command`` run by the shell, its standard input and output pipes to
    haidi, its standard error to ``stderr`` (discarded when None), in a ``setsid`` group of its own."""

    def __init__(
        self, command: str, timeout: float, stderr: StderrSink | None = None, max_answer: int = MAX_ANSWER
    ) -> None:
        self.command = command
        self.timeout = timeout
        self.stderr = stderr
        self.max_answer = max_answer
        self.proc: subprocess.Popen[bytes] | None = None
        self.buf = bytearray()
        self.pending = bytearray()
        self.eof = False
        self.input_closed = False
        self._drain: threading.Thread | None = None
        #: Every process id this program was started as (for the caller's checks).
        self.pids: list[int] = []

    @property
    def running(self) -> bool:
        return self.proc is not None and _exited(self.proc.pid, 0) is None

    def start(self) -> None:
        err = subprocess.PIPE if self.stderr is not None else subprocess.DEVNULL
        try:
            self.proc = subprocess.Popen(
                self.command,
                shell=True,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                start_new_session=True,
                close_fds=True,
            )
        except OSError as e:
            raise Fault(f"cannot start: {e}", stopped=True) from None
        self.pids.append(self.proc.pid)
        _running.add(self)
        self.buf, self.pending, self.eof, self.input_closed = bytearray(), bytearray(), False, False
        assert self.proc.stdin is not None
        os.set_blocking(self.proc.stdin.fileno(), False)
        if self.stderr is not None:
            assert self.proc.stderr is not None
            # The thread owns the descriptor from now on (and closes it at its end).
            fd = os.dup(self.proc.stderr.fileno())
            self.proc.stderr.close()
            self._drain = threading.Thread(target=self.stderr.drain, args=(fd,), daemon=True)
            self._drain.start()

    def _gone(self) -> Fault:
        # Its output is closed: its end is near.
        status = None if self.proc is None else _exited(self.proc.pid, GRACE)
        return Fault("exited" + (f" with status {status}" if status is not None else ""), stopped=True)

    def send(self, text: str) -> None:
        """Queues ``text`` for the program's input; it is written as the program reads, by
        ``line`` and ``flush``, before their deadline (a program that has ended may still
        have an answer to read)."""
        self.pending += text.encode()

    def _pump(self, deadline: float, done: Any, late: str) -> None:
        """Writes what is queued and reads what the program writes until ``done()``; a
        ``Fault`` (the bot stopped) at ``deadline``."""
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        wfd, rfd = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        while not done():
            reading = not self.eof and len(self.buf) <= self.max_answer
            writing = bool(self.pending) and not self.input_closed
            if not reading and not writing:
                return
            left = deadline - time.monotonic()
            if left <= 0:
                raise Fault(late, stopped=True)
            r, w, _ = select.select([rfd] if reading else [], [wfd] if writing else [], [], left)
            if w:
                try:
                    n = os.write(wfd, self.pending[:65536])
                    del self.pending[:n]
                except BlockingIOError:
                    pass
                except OSError:  # the program closed its input: what is left is not for it
                    self.input_closed = True
                    self.pending.clear()
            if r:
                chunk = os.read(rfd, 65536)
                if not chunk:
                    self.eof = True
                else:
                    self.buf += chunk
                    if b"\n" not in self.buf and len(self.buf) > self.max_answer:
                        raise Fault(f"an answer longer than {self.max_answer:,} bytes", stopped=True)

    def line(self, deadline: float) -> str | None:
        """The next line the program writes (None at its end), waiting until ``deadline``;
        what is queued for its input is written meanwhile."""
        self._pump(deadline, lambda: b"\n" in self.buf or self.eof, f"no answer in {self.timeout:g} s")
        if b"\n" not in self.buf:
            rest, self.buf = bytes(self.buf), bytearray()
            if len(rest) > self.max_answer:
                raise Fault(f"an answer longer than {self.max_answer:,} bytes", stopped=True)
            return rest.decode("utf-8", "replace").strip() if rest else None
        end = self.buf.index(b"\n")
        if end > self.max_answer:
            raise Fault(f"an answer longer than {self.max_answer:,} bytes", stopped=True)
        raw = bytes(self.buf[:end])
        del self.buf[: end + 1]
        return raw.decode("utf-8", "replace").strip()

    def flush(self, deadline: float) -> None:
        """Waits until the program has read what was queued for it (or closed its input);
        one that has not by ``deadline`` is late."""
        self._pump(
            deadline,
            lambda: not self.pending or self.input_closed,
            f"did not read its input in {self.timeout:g} s",
        )
        if self.pending and not self.input_closed and self.eof and not self.running:
            self.pending.clear()

    def answer(self, deadline: float) -> str:
        """The next line that is not blank; the program's end is a fault."""
        while True:
            text = self.line(deadline)
            if text is None:
                raise self._gone()
            if text:
                return text

    def stop(self, grace: float = GRACE) -> None:
        """Closes the program's input, gives it ``grace`` seconds to end, then kills what is
        left of it: its group, its ``setsid`` and its descendants."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        _running.discard(self)
        with contextlib.suppress(OSError):
            if proc.stdin is not None:
                proc.stdin.close()
        if grace > 0:
            _exited(proc.pid, grace)
        # Killed before it is reaped, so that its id (its group's and session's) is not
        # taken by another process meanwhile.
        kill_tree(proc.pid)
        if _exited(proc.pid, GRACE) is None:
            # A process haidi may not signal (run as another user by a setuid wrapper)
            # outlives the kill: it is left running, said so, and not waited for.
            report(f"haidi play: {self.command!r} (process {proc.pid}) could not be ended: {UNKILLABLE}")
            left_running.append(proc)
        else:
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
        if self._drain is not None:
            # Everything that held the pipe is dead: its end follows at once.
            self._drain.join(GRACE)
            self._drain = None


def _exited(pid: int, wait: float) -> int | None:
    """The exit status of child ``pid`` (``-signal`` when a signal ended it, as
    ``Popen.returncode``), waiting up to ``wait`` seconds; None while it runs. It is not
    reaped."""
    end = time.monotonic() + wait
    while True:
        try:
            r = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT | os.WNOHANG)
        except ChildProcessError:
            return 0
        if r is not None:
            return r.si_status if r.si_code == os.CLD_EXITED else -r.si_status
        if time.monotonic() >= end:
            return None
        time.sleep(0.01)


def _stat(pid: str) -> tuple[int, int, int, str] | None:
    """``(ppid, pgid, sid, state)`` of a process from ``/proc``, None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rindex(b")") + 2 :].split()
    return int(fields[1]), int(fields[2]), int(fields[3]), fields[0].decode()


def process_table() -> dict[int, tuple[int, int, int, str]]:
    """Every process ``/proc`` shows: pid to ``(ppid, pgid, sid, state)``; empty where
    there is no ``/proc`` (macOS)."""
    table = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return {}
    for name in names:
        if name.isdigit():
            st = _stat(name)
            if st is not None:
                table[int(name)] = st
    return table


def _family(roots: set[int], table: dict[int, tuple[int, int, int, str]]) -> set[int]:
    """``roots``, the processes that share their groups or ``setsid``, and all their descendants."""
    found = {p for p, (_, pgid, sid, _) in table.items() if sid in roots or pgid in roots} | (roots & table.keys())
    children: dict[int, list[int]] = {}
    for p, (ppid, *_rest) in table.items():
        children.setdefault(ppid, []).append(p)
    todo = list(found)
    while todo:
        for c in children.get(todo.pop(), []):
            if c not in found:
                found.add(c)
                todo.append(c)
    found.discard(os.getpid())
    return found


def _kill(pids: set[int], table: dict[int, tuple[int, int, int, str]], spare: int | None = None) -> None:
    """SIGKILL to each of ``pids``; those that are haidi's children are reaped (but
    ``spare``, a child that its ``Popen`` reaps). A process the kill is refused for
    (another user's) is not waited for: it may never end."""
    me = os.getpid()
    killed = set()
    for p in pids:
        with contextlib.suppress(OSError):
            os.kill(p, signal.SIGKILL)
            killed.add(p)
    for p in killed:
        if p != spare and table.get(p, (0,))[0] == me:
            with contextlib.suppress(OSError):
                os.waitpid(p, 0)


def kill_tree(root: int, rounds: int = 20) -> None:
    """Kills ``root`` (a ``setsid`` leader), all that shares its group or ``setsid``, and every descendant
    the process table shows, again until none is left (a process may fork while its
    family is killed)."""
    with contextlib.suppress(OSError):
        os.killpg(root, signal.SIGKILL)
    for _ in range(rounds):
        table = process_table()
        alive = {p for p in _family({root}, table) if table[p][3] != "Z"}
        if not alive:
            break
        _kill(alive, table, spare=root)
    _reap_orphans()


# prctl(2) options (linux/prctl.h).
_PR_GET_DUMPABLE, _PR_SET_DUMPABLE = 3, 4
_PR_SET_CHILD_SUBREAPER, _PR_GET_CHILD_SUBREAPER = 36, 37


def _prctl() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None
    return libc.prctl


class Guard:
    """What the command line holds for a match: haidi as the reaper of its orphaned
    descendants (Linux's ``PR_SET_CHILD_SUBREAPER``), its memory and open files kept from
    other processes of the user (``PR_SET_DUMPABLE`` 0: no ``ptrace``, no
    ``/proc/<haidi>/mem`` or ``fd``), and SIGTERM and SIGHUP turned into ``Terminated``.
    At its end every bot still running is ended, and every orphan that came to haidi in
    the meantime; all that it changed is put back."""

    def __init__(self) -> None:
        self.prctl = _prctl()
        self.saved: dict[int, Any] = {}
        self.baseline: set[int] = set()
        self.subreaper = False

    def __enter__(self) -> Guard:
        global _guarded
        if self.prctl is not None:
            value = ctypes.c_int(0)
            self.prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(value), 0, 0, 0)
            self._was_subreaper = value.value
            self.subreaper = self.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            self._was_dumpable = self.prctl(_PR_GET_DUMPABLE, 0, 0, 0, 0)
            self.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
        self.baseline = _children(process_table())
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGHUP):
                self.saved[sig] = signal.signal(sig, _terminate)
        _guarded = self
        return self

    def __exit__(self, *exc: object) -> None:
        global _guarded
        # A second signal while the bots are ended would cut the ending short.
        for sig in self.saved:
            signal.signal(sig, signal.SIG_IGN)
        with _deferred_interrupt():
            for program in list(_running):
                program.stop(grace=0)
            self.sweep()
        _guarded = None
        for sig, handler in self.saved.items():
            signal.signal(sig, handler)
        if self.prctl is not None:
            self.prctl(_PR_SET_CHILD_SUBREAPER, self._was_subreaper, 0, 0, 0)
            if self._was_dumpable > 0:
                self.prctl(_PR_SET_DUMPABLE, self._was_dumpable, 0, 0, 0)

    def sweep(self) -> None:
        """Kills the processes that came to haidi as orphans since the guard began (a
        bot's child process whose parent is gone), and their families.

        An orphan that forks and ends without pause (a new process id, and a ``setsid``
        of its own, each time) stays ahead of a scan of the whole process table: each is
        gone before the kill for it is sent, and its successor comes to haidi only then.
        So haidi's own children, which the kernel lists in a few small files, are read
        and killed in a tight loop (a successor comes to haidi the moment its parent
        ends, and is killed before it has forked again), and a scan of the whole table
        ends the sweep when neither finds anything more."""
        deadline = time.monotonic() + SWEEP_SECONDS
        killed: set[int] = set()
        live = {p.proc.pid for p in _running if p.proc is not None}
        while True:
            # The main thread's children first (one file), then every thread's.
            own = _own_children(main_only=True)
            if own is None or not own - self.baseline - live - killed:
                live = {p.proc.pid for p in _running if p.proc is not None}
                own = _own_children()
            if own is not None:
                new = own - self.baseline - live - killed
                if new and time.monotonic() < deadline:
                    for p in new:
                        with contextlib.suppress(OSError):
                            os.kill(p, signal.SIGKILL)
                    killed |= new
                    _reap_now(killed)
                    continue
            table = process_table()
            new = _children(table) - self.baseline - live
            alive = {p for p in _family(new, table) if table[p][3] != "Z"} if new else set()
            if not alive or time.monotonic() >= deadline:
                _reap(new, table)
                _reap_now(killed)
                return
            _kill(alive, table)
            killed |= alive


_guarded: Guard | None = None


#: The longest a sweep for orphans goes on (one that forks without end is killed well
#: before: each successor within microseconds of coming to haidi).
SWEEP_SECONDS = 5.0


def _own_children(main_only: bool = False) -> set[int] | None:
    """haidi's own children, as the kernel lists them for each of its threads (a few
    small files: far quicker than a scan of the process table), or with ``main_only`` for
    its main thread alone (where an orphan comes while that thread lives: one file);
    None where the kernel does not list them (no ``/proc``, or a kernel without
    ``/proc/<pid>/task/<tid>/children``)."""
    try:
        tids = [str(os.getpid())] if main_only else os.listdir("/proc/self/task")
    except OSError:
        return None
    out: set[int] = set()
    listed = False
    for tid in tids:
        try:
            with open(f"/proc/self/task/{tid}/children", "rb") as f:
                out.update(int(p) for p in f.read().split())
            listed = True
        except OSError:
            continue
    return out if listed else None


def _reap_now(pids: set[int]) -> None:
    """Reaps those of haidi's children among ``pids`` that have ended (a killed child is
    listed among haidi's children until it is reaped)."""
    for p in list(pids):
        try:
            done, _ = os.waitpid(p, os.WNOHANG)
        except ChildProcessError:
            pids.discard(p)
            continue
        except OSError:
            continue
        if done:
            pids.discard(p)


def _children(table: dict[int, tuple[int, int, int, str]]) -> set[int]:
    me = os.getpid()
    return {p for p, (ppid, *_rest) in table.items() if ppid == me}


def _reap(pids: set[int], table: dict[int, tuple[int, int, int, str]]) -> None:
    for p in pids:
        if table.get(p, ("", "", "", ""))[3] == "Z":
            with contextlib.suppress(OSError):
                os.waitpid(p, os.WNOHANG)


def _reap_orphans() -> None:
    """With a guard, ends the orphans that reached haidi (a child process of a bot just killed)."""
    if _guarded is not None:
        _guarded.sweep()


def _terminate(signum: int, frame: Any) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def _deferred_interrupt() -> Iterator[None]:
    """Ctrl-C while the bots are being ended waits until they are."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    hit: list[int] = []
    old = signal.signal(signal.SIGINT, lambda s, f: hit.append(s))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
