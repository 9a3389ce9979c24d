"""What one hand of a match hands on to the next (the carry): who deals, the 连庄 streak,
the prevailing wind, and counts a ruleset keeps of its own (Beijing's 上楼).

A carry is a plain dict: ``dealer``, the table position (0-3) of the player who deals, so
that in a match player ``p`` sits at seat ``(p - dealer) % 4`` (seat 0 deals every hand);
``round_wind``, the prevailing wind, ``E`` ``S`` ``W`` or ``N`` (read as a situation's
``round_wind`` is, kept as its letter); ``streak``, how many hands
running the dealer has kept the deal (0 for a new dealer); and the keys of the ruleset's
``GAME.carry``. A ruleset module's ``next_carry(carry, record)`` gives the carry of the
next hand from the record of a played hand; without one, ``common`` is its rule.
docs/game.md ("The dealer across hands") quotes each ruleset's seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._errors import hand_error, shown
from . import _outcome as oc
from ._outcome import WINDS

#: The keys every carry has.
KEYS = ("dealer", "round_wind", "streak")

#: The longest streak carried: a dealer keeping the deal a hundred hands running is
#: counted as a hundred (Hainan's ``settle`` takes ``dealer_streak`` up to 100).
MAX_STREAK = 100


def start(extras: Mapping[str, int]) -> dict[str, Any]:
    """The carry of a match's first hand: position 0 deals, East round, no streak."""
    return {"dealer": 0, "round_wind": "E", "streak": 0, **dict.fromkeys(extras, 0)}


def _count(value: Any, key: str, high: int) -> int:
    if not oc.is_int(value) or not 0 <= value <= high:
        raise hand_error(f"carry: {key} must be an int from 0 to {high}, not {shown(value)}", key=key)
    return int(value)


def _wind(value: Any) -> str:
    """A carry's wind, read as a situation's ``round_wind`` is (``E``, ``S``, ``W``, ``N``
    in either case, ``1z``-``4z`` or 0-3), as its letter."""
    w = oc.wind(value)
    if w is None:
        message = f"carry: round_wind must be a wind E, S, W or N (or 1z-4z, or 0-3), not {shown(value)}"
        raise hand_error(message, key="round_wind")
    return WINDS[w]


def read(carry: Any, extras: Mapping[str, int]) -> dict[str, Any]:
    """``carry`` checked and completed (None: the first hand's); ``extras``: the ruleset's
    own keys, each with its largest value. A key unknown or of the wrong type is a
    ``HandError`` naming it."""
    out = start(extras)
    if carry is None:
        return out
    if not isinstance(carry, Mapping):
        raise hand_error(f"carry must be a dict, not {type(carry).__name__}", key="carry")
    bad = sorted(str(k) for k in carry if k not in out)
    if bad:
        raise hand_error(f"unknown key(s) in carry: {', '.join(bad)}; known: {', '.join(out)}", key=bad[0])
    for k, v in carry.items():
        if k == "round_wind":
            out[k] = _wind(v)
        else:
            out[k] = _count(v, k, {"dealer": 3, "streak": MAX_STREAK}.get(k, extras.get(k, 0)))
    return out


def passed(carry: Mapping[str, Any], seat: int, order: str = WINDS, **extras: int) -> dict[str, Any]:
    """The next hand's carry when ``seat`` of this hand (0 the dealer) deals it: the same
    dealer adds one to the streak; a new one starts it at 0, and the prevailing wind moves
    on (in ``order``) when the deal passes table position 0 again, every player having
    dealt (the common count of a round, 圈). ``extras``: the ruleset's keys, new values."""
    dealer = (carry["dealer"] + seat) % 4
    wind = carry["round_wind"]
    if seat and dealer < carry["dealer"]:
        wind = order[(order.index(wind) + 1) % 4]
    streak = min(carry["streak"] + 1, MAX_STREAK) if seat == 0 else 0
    return {**carry, "dealer": dealer, "round_wind": wind, "streak": streak, **extras}


def common(carry: Mapping[str, Any], record: Mapping[str, Any]) -> dict[str, Any]:
    """The common rule: the dealer keeps the deal when it wins or nobody does (连庄), else
    the next seat deals (the Beijing seed: "如果轮到庄家和牌（或荒牌），则庄家可以连庄 ... 当闲家和牌时，
    再继续按原顺序进行轮庄")."""
    return passed(carry, 0 if dealer_kept(record) else 1)


def dealer_kept(record: Mapping[str, Any]) -> bool:
    """The dealer won, or nobody did."""
    return not record["wins"] or any(w["seat"] == 0 for w in record["wins"])
