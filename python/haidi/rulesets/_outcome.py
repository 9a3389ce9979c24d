"""Small checks shared by the rulesets' ``evaluate`` and ``settle``: seats, options, hands.

Every failure is a ``haidi.HandError`` (a ``ValueError``) that names the key at fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core import Hand, HandError

if TYPE_CHECKING:
    from ..ruleset import Ruleset

#: Seat winds by seat, seat 0 the dealer (East), then in turn order.
WINDS = "ESWN"


def seat(value: Any, key: str) -> int:
    """A seat 0-3 (an int, or a wind letter E/S/W/N counted from the dealer)."""
    if isinstance(value, str) and len(value) == 1 and value.upper() in WINDS:
        return WINDS.index(value.upper())
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= int(value) <= 3:
        raise HandError(f"{key} must be a seat 0-3 (or E, S, W, N), not {value!r}")
    return int(value)


def optional_seat(outcome: Mapping[str, Any], key: str) -> int | None:
    v = outcome.get(key)
    return None if v is None else seat(v, key)


def count(value: Any, key: str) -> int:
    """A non-negative int."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) < 0:
        raise HandError(f"{key} must be a non-negative int, not {value!r}")
    return int(value)


def flag(value: Any, key: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise HandError(f"{key} must be true or false, not {value!r}")
    return bool(value)


def mapping(value: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise HandError(f"{key} must be a mapping, not {type(value).__name__}")
    return value


def options(defaults: Mapping[str, Any], given: Any, ruleset: str) -> dict[str, Any]:
    """The defaults overridden by ``given``; unknown names and wrong types are refused."""
    out = dict(defaults)
    if given is None:
        return out
    for k, v in mapping(given, "options").items():
        if k not in defaults:
            raise HandError(f"unknown {ruleset} option {k!r}; known: {', '.join(defaults)}")
        d = defaults[k]
        ok = isinstance(v, type(d)) and (isinstance(v, bool) == isinstance(d, bool))
        if not ok:
            raise HandError(f"option {k} must be {type(d).__name__}, not {v!r}")
        out[k] = v
    return out


def unknown_keys(given: Mapping[str, Any], known: set[str], ruleset: str) -> None:
    bad = sorted(set(given) - known)
    if bad:
        raise HandError(f"unknown {ruleset} situation keys: {', '.join(bad)}; known: {', '.join(sorted(known))}")


def complete_hand(ruleset: Ruleset, hand: Any, win: Any, fmt: str) -> tuple[Hand, str | None]:
    """The complete (14-tile) hand: ``hand`` plus ``win``, or ``hand`` alone when it is
    already complete and ``win`` is None. Returns the hand and the winning tile."""
    if hand is None:
        raise HandError("the situation needs a hand")
    h = hand if isinstance(hand, Hand) else Hand(str(hand), fmt)
    if win is None:
        if h.size != ruleset.hand_size + 1:
            raise HandError(f"give the winning tile (win) or a complete hand of {ruleset.hand_size + 1} tiles")
        return h, h.last
    if not isinstance(win, str):
        raise HandError(f"win must be a tile such as '5p', not {win!r}")
    if h.size != ruleset.hand_size:
        raise HandError(f"hand has {h.size} tiles (a meld counts as 3); with win it needs {ruleset.hand_size}")
    w = Hand(win, fmt)
    if w.size != 1 or w.melds or w.flowers:
        raise HandError(f"win must be one tile, not {win!r}")
    return h.add(w.concealed), w.concealed


def suit(tile: str) -> str:
    return tile[-1]


def rank(tile: str) -> int:
    return int(tile[0])


def all_tiles(hand: Hand) -> list[str]:
    """Every tile of the hand, concealed and melded (a kong's four included)."""
    out: list[str] = []
    names = ["{}{}".format(i % 9 + 1, "mpsz"[i // 9]) for i in range(34)]
    for i, c in enumerate(hand.counts):
        out += [names[i]] * c
    for m in hand.melds:
        out += list(m.tiles)
    return out


def arrangement_text(groups: list[dict[str, Any]]) -> str:
    """``11s 123m [456p] {7777m}``: a readable arrangement."""
    parts = []
    for g in groups:
        body = "".join(t[0] for t in g["tiles"]) + g["tiles"][0][1]
        if g["meld"] == "concealed_kong":
            body = "{" + body + "}"
        elif g["meld"] is not None:
            body = "[" + body + "]"
        parts.append(body)
    return " ".join(parts)


def evaluate_each(evaluate: Any, ruleset: Ruleset, situations: Any, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``evaluate`` over a list of situation dicts, ``options`` (e.g. ``format``) applied to
    each. As in every ruleset, a bad situation raises ``HandError`` naming its index."""
    if isinstance(situations, (str, bytes, Mapping)) or not hasattr(situations, "__iter__"):
        raise HandError("evaluate_many takes a list of situation dicts")
    out = []
    for i, sit in enumerate(situations):
        if not isinstance(sit, Mapping):
            raise HandError(f"situation {i} is not a mapping")
        try:
            out.append(evaluate(ruleset, **{**options, **sit}))
        except HandError as e:
            raise HandError(f"situation {i}: {e}") from None
    return out
