"""haidi._stream: standard input in batches of whole lines, whatever the reads bring."""

import io

from hypothesis import given
from hypothesis import strategies as st

from haidi import _stream
from haidi._stream import TOO_LONG, batches


class Trickle(io.RawIOBase):
    """A stream whose reads bring the given pieces, one a read, as a pipe does."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = [p for p in pieces if p]

    def readable(self) -> bool:
        return True

    def read1(self, n: int = -1) -> bytes:
        if not self.pieces:
            return b""
        p = self.pieces.pop(0)
        if 0 <= n < len(p):
            self.pieces.insert(0, p[n:])
            p = p[:n]
        return p


def expected(data: bytes, limit: int) -> list[bytes | None]:
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return [line if len(line) <= limit else TOO_LONG for line in lines]


@given(
    st.lists(st.sampled_from([b"a", b"bc", b"\n", b"\r\n", b"defgh", b"\n\n", b"\xff"]), max_size=60),
    st.lists(st.integers(1, 12), min_size=1, max_size=20),
    st.integers(1, 6),
    st.integers(1, 8),
)
def test_batches_are_the_lines_whatever_the_reads(parts, cuts, limit, chunk):
    data = b"".join(parts)
    pieces, i = [], 0
    for c in cuts * (len(data) + 1):
        if i >= len(data):
            break
        pieces.append(data[i : i + c])
        i += c
    old = _stream.MAX_LINE, _stream.CHUNK
    _stream.MAX_LINE, _stream.CHUNK = limit, chunk
    try:
        got = [line for batch in batches(Trickle(pieces)) for line in batch]
        split = list(batches(Trickle(pieces)))
        joined = list(batches(Trickle(pieces), joined=True))
    finally:
        _stream.MAX_LINE, _stream.CHUNK = old
    assert got == expected(data, limit)
    # Joined, a batch is the same lines, as one bytes object where none is too long.
    assert len(joined) == len(split)
    for one, lines in zip(joined, split, strict=True):
        assert one == (b"\n".join(lines) if TOO_LONG not in lines else lines)  # type: ignore[arg-type]


def test_a_joined_batch_is_one_bytes_object_of_the_lines_one_read_brings():
    got = list(batches(Trickle([b"1\n2\n3", b"4\n", b"5\n\n6\n", b"7"]), joined=True))
    assert got == [b"1\n2", b"34", b"5\n\n6", b"7"]


def test_a_batch_is_what_one_read_brings():
    got = list(batches(Trickle([b"1\n2\n3", b"4\n", b"5\n6\n"])))
    assert got == [[b"1", b"2"], [b"34"], [b"5", b"6"]]


def test_a_line_past_the_limit_is_dropped_whole(monkeypatch):
    monkeypatch.setattr(_stream, "MAX_LINE", 4)
    got = list(batches(Trickle([b"ok\nfar too", b" long", b" a line\nok2\n"])))
    # Given once, as soon as it is past the limit; the rest of it is dropped.
    assert got == [[b"ok", TOO_LONG], [b"ok2"]]


def test_a_line_that_never_ends_is_given_as_too_long_at_once(monkeypatch):
    """A stream of zeros is one line that never ends: it is given as too long once past
    the limit, so that a reader that stops at it is not left reading for ever."""
    monkeypatch.setattr(_stream, "MAX_LINE", 4)

    class Zeros:
        def read1(self, n: int) -> bytes:
            return b"\0" * 3

    first = next(batches(Zeros()))
    assert first == [TOO_LONG]
