"""`HandError`s raised in Python that name the situation key and the batch row at fault,
as the core's do (`HandError.key`, `HandError.row`), and the spelling of the values a
message quotes (`shown`): Python's for Python callers, JSON's for the `haidi` command."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from . import _core
from ._core import HandError


def hand_error(message: str, *, key: str | None = None, row: int | None = None) -> HandError:
    """A `HandError` of `message`; with `row`, led by "row {row}: " as the core leads a
    batch row's error."""
    error = HandError(message if row is None else f"row {row}: {message}")
    error.key = key
    error.row = row
    return error


def shown(value: object, limit: int | None = 40) -> str:
    """``value`` as a message quotes it, cut to ``limit`` characters (40, as the core cuts
    it; None: whole): its repr (``'yes'``, ``True``), or where messages speak JSON
    (``json_spelling``) its JSON text (``"yes"``, ``true``); ``a <type>`` where neither can
    be written."""
    text = None
    if _core.spelling() == "json":
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            text = None
    if text is None:
        try:
            text = repr(value)
        except Exception:
            return f"a {type(value).__name__}"
    return text if limit is None or len(text) <= limit else text[:limit] + "..."


def flag(value: object, name: str, key: str | None = None) -> bool:
    """A flag argument as every reader takes one: True or False, numpy's ``bool_`` too;
    ``key``: the situation key the error names (``HandError.key``)."""
    if not isinstance(value, (bool, np.bool_)):
        raise hand_error(f"{name} must be True or False, not {shown(value)}", key=key)
    return bool(value)


def valid_text(text: str, name: str) -> str:
    """``text`` (a str), refused where it cannot be UTF-8: a lone surrogate (``"\\ud800"``)."""
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise HandError(f"{name} is not valid text (it holds a lone surrogate)") from None
    return text


def finite(number: float) -> float | None:
    """A number (checked to be one) as a float; None where it is not finite: a NaN, an
    infinity, or an int past a float's range (``10**400``)."""
    try:
        value = float(number)
    except OverflowError:
        return None
    return value if math.isfinite(value) else None


def spelled(python: str, json: str) -> str:
    """A phrase of a message that names literals (``True or False``), in the spelling of
    this thread's messages."""
    return json if _core.spelling() == "json" else python


@contextmanager
def json_spelling() -> Iterator[None]:
    """Messages made inside (in Python and in the core, on this thread) quote values as
    JSON writes them: for a reader who gave JSON, such as a line of ``haidi eval --jsonl``
    or a bot's answer in ``haidi play``."""
    before = _core.spelling("json")
    try:
        yield
    finally:
        _core.spelling(before)
