"""Standard input in batches and standard output in lines, for the ``haidi`` command.

The rule that lets a program keep one ``haidi`` process open and talk to it a line at a
time (docs/cli.md): every complete line that one read of standard input brings is answered,
and the answers are flushed, before the next read. A read returns what has arrived, up to
``CHUNK`` bytes, so a co-process that writes one line gets its answer at once, and a large
file is read, scored and written in batches of thousands of lines.
"""

from __future__ import annotations

import codecs
import json
import os
import signal
import stat
import sys
from collections.abc import Iterator
from typing import Any, Literal, overload

import orjson

from . import _core

#: The longest line read (bytes, without its line ending); a longer line is answered
#: with an error and skipped to its end, so that no line can fill the memory.
MAX_LINE = 1 << 20
#: The most bytes one read of standard input asks for.
CHUNK = 1 << 20
#: Seconds a run must last before the progress bar is drawn: short runs draw nothing.
PROGRESS_DELAY = 1.0

#: Stands for a line longer than ``MAX_LINE`` in a batch.
TOO_LONG = None


@overload
def batches(stream: Any, progress: bool = ..., joined: Literal[False] = ...) -> Iterator[list[bytes | None]]: ...
@overload
def batches(stream: Any, progress: bool = ..., *, joined: bool) -> Iterator[list[bytes | None] | bytes]: ...
def batches(stream: Any, progress: bool = False, joined: bool = False) -> Iterator[list[bytes | None] | bytes]:
    """The lines of a binary stream, in batches: each batch holds the complete lines of
    one read, without their ``\\n`` (a ``\\r`` before it is kept), a line longer than
    ``MAX_LINE`` as ``TOO_LONG``, given as soon as it is past ``MAX_LINE``. A last line
    without ``\\n`` ends the last batch.

    Args:
        stream: a binary stream (``sys.stdin.buffer``); its ``read1`` returns what has
            arrived without waiting for more.
        progress: draw a progress bar on standard error when the stream is a regular
            file (its size is known) and standard error a terminal.
        joined: give a batch none of whose lines is too long as one bytes object, its
            lines separated by ``\\n`` (``b"\\n".join`` of the list), not split.
    """
    read = getattr(stream, "read1", None) or stream.read
    bar = _file_bar(stream) if progress else None
    tail = b""  # the start of a line not ended yet
    skipping = False  # inside a line longer than MAX_LINE
    try:
        while True:
            chunk = read(CHUNK)
            if bar is not None:
                bar.update(len(chunk))
            if not chunk:
                # A line too long was given as TOO_LONG when it passed MAX_LINE.
                if tail and not skipping:
                    yield tail if joined else [tail]
                return
            if joined and not skipping and len(chunk) <= MAX_LINE:
                # No line but the first (the tail's end) can be too long.
                last = chunk.rfind(b"\n")
                if last >= 0 and len(tail) + chunk.find(b"\n") <= MAX_LINE:
                    block = tail + chunk[:last] if tail else chunk[:last]
                    tail = chunk[last + 1 :]
                    yield block
                    continue
            parts = chunk.split(b"\n")
            rest = parts.pop()
            lines: list[bytes | None] = []
            if parts:
                first = parts[0]
                if skipping:
                    # The end of a line given as TOO_LONG already.
                    skipping = False
                else:
                    first = tail + first if tail else first
                    lines.append(first if len(first) <= MAX_LINE else TOO_LONG)
                if len(chunk) <= MAX_LINE:  # no line of it can be too long
                    lines += parts[1:]
                else:
                    lines += [p if len(p) <= MAX_LINE else TOO_LONG for p in parts[1:]]
                tail = b""
            if not skipping:
                tail = tail + rest if tail else rest
                if len(tail) > MAX_LINE:
                    # Given at once, not at the line's end: a line that never ends (a
                    # stream of zeros) is then refused, not read for ever.
                    tail, skipping = b"", True
                    lines.append(TOO_LONG)
            if lines:
                yield b"\n".join(lines) if joined and TOO_LONG not in lines else lines  # type: ignore[arg-type]
    finally:
        if bar is not None:
            bar.close()


def _file_bar(stream: Any) -> Any:
    """A progress bar in bytes over the rest of a regular file, or None."""
    if not stderr_is_terminal():
        return None
    try:
        fd = stream.fileno()
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        left = st.st_size - os.lseek(fd, 0, os.SEEK_CUR)
    except (AttributeError, OSError, ValueError):
        return None
    if left <= 0:
        return None
    return progress_bar(total=left, unit="B", unit_scale=True, unit_divisor=1024, delay=PROGRESS_DELAY)


def stderr_is_terminal() -> bool:
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def progress_bar(**kwargs: Any) -> Any:
    """A tqdm bar on standard error (tqdm is imported only when a bar is drawn)."""
    from tqdm import tqdm

    return tqdm(file=sys.stderr, dynamic_ncols=True, leave=False, **kwargs)


def is_utf8(stream: Any) -> bool:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


def can_encode(stream: Any, text: str) -> bool:
    """Whether ``stream`` can write ``text`` in its encoding."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def tolerate(stream: Any) -> None:
    """Makes a text stream whose encoding is not UTF-8 write a character it lacks as an
    escape (``\\u6e05``) rather than raise ``UnicodeEncodeError``."""
    if stream is not None and not is_utf8(stream) and hasattr(stream, "reconfigure"):
        stream.reconfigure(errors="backslashreplace")


def plain(value: Any) -> Any:
    """What JSON writers write of a result or one of its entries (their ``default``): its
    ``to_dict()``."""
    if isinstance(value, (_core.Result, _core.Fan, _core.Group, _core.Record)):
        return value.to_dict()
    raise TypeError(f"Type is not JSON serializable: {type(value).__name__}")


def dumps(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON (orjson), results and their entries as their dicts."""
    return orjson.dumps(value, default=plain)


def _ascii_json(value: Any) -> bytes:
    # The same layout as orjson's, with every character past ASCII escaped.
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), default=plain).encode("ascii")


class Output:
    """Standard output, written a batch of lines at a time and flushed after each batch.

    JSON lines are compact UTF-8 (orjson); where standard output has another encoding
    they are ASCII, every other character escaped (``\\uXXXX``). Text is written in the
    stream's encoding, a character it lacks as an escape (see ``tolerate``).
    """

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.utf8 = is_utf8(stream)
        self.json = dumps if self.utf8 else _ascii_json
        self.encoding = getattr(stream, "encoding", None) or "utf-8"
        self.buffer = getattr(stream, "buffer", None)
        if self.buffer is not None:
            stream.flush()  # what the text stream holds goes out before the bytes written beneath it
        #: Whether tile glyphs (🀇) can be written.
        self.glyphs = can_encode(stream, "\U0001f007")

    def json_lines(self, lines: list[bytes]) -> None:
        """Writes encoded JSON lines (from ``self.json``) and flushes."""
        if lines:
            self.json_block(b"\n".join([*lines, b""]))  # one copy of a batch's answers, not two

    def json_block(self, data: bytes) -> None:
        """Writes encoded JSON lines given as one bytes object, each ended by ``\\n``,
        and flushes."""
        if data:
            self._write(data if self.utf8 else data.decode("ascii").encode(self.encoding))

    def text(self, lines: list[str]) -> None:
        """Writes text lines and flushes."""
        if lines:
            self._write(("\n".join(lines) + "\n").encode(self.encoding, "strict" if self.utf8 else "backslashreplace"))

    def _write(self, data: bytes) -> None:
        if self.buffer is None:
            self.stream.write(data.decode(self.encoding))
            self.stream.flush()
            return
        self.buffer.flush()
        try:
            fd = self.buffer.fileno()
        except (AttributeError, OSError, ValueError):  # a stream in memory
            fd = None
        if fd is None:
            view = memoryview(data)
            while view:
                view = view[self.buffer.write(view) :]
            self.buffer.flush()
            return
        # Written to the descriptor, so that what was written is known to the byte (a
        # write cut short by a full pipe, a reader that went away or a signal returns what
        # it wrote; the next one raises). Ctrl-C in the middle of a batch finishes the line
        # being written, then stops: what was answered stays answered, whole. A second
        # Ctrl-C stops at once (a reader that no longer reads holds the first).
        stop: list[bool] = []

        def defer(signum: int, frame: Any) -> None:
            if stop:
                raise KeyboardInterrupt
            stop.append(True)

        try:
            old = signal.getsignal(signal.SIGINT)
            if old is signal.default_int_handler:
                signal.signal(signal.SIGINT, defer)
        except ValueError:  # not the main thread: signals are not heard here
            old = None
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
                if stop and view:
                    written = len(data) - len(view)
                    if data[written - 1] != ord("\n"):
                        view = view[: data.index(b"\n", written) + 1 - written]
                        while view:
                            view = view[os.write(fd, view) :]
                    break
        finally:
            if old is signal.default_int_handler:
                signal.signal(signal.SIGINT, old)
        if stop:
            raise KeyboardInterrupt
