"""`HandError`s raised in Python that name the situation key and the batch row at fault,
as the core's do (`HandError.key`, `HandError.row`)."""

from __future__ import annotations

from ._core import HandError


def hand_error(message: str, *, key: str | None = None, row: int | None = None) -> HandError:
    """A `HandError` of `message`; with `row`, led by "row {row}: " as the core leads a
    batch row's error."""
    error = HandError(message if row is None else f"row {row}: {message}")
    error.key = key
    error.row = row
    return error


def shown(value: object) -> str:
    """``value`` as a message quotes it: its repr cut to 40 characters, as the core cuts
    it, and ``a <type>`` where the repr itself fails."""
    try:
        text = repr(value)
    except Exception:
        return f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:40] + "..."
