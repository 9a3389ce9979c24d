"""Reading the outcome records of ``settle``: seats, counts, flags, known keys.

Every failure is a ``haidi.HandError`` (a ``ValueError``) that names the key at fault;
every count is bounded, so that no record can make ``settle`` loop or grow without end.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from .._errors import hand_error

#: Seat winds by seat, seat 0 the dealer (East), then in turn order.
WINDS = "ESWN"

#: The keys of every ``evaluate`` result: a result passed where an outcome takes a win
#: is read by them.
RESULT_KEYS = frozenset({"win", "total", "fans", "reason", "form", "arrangement", "groups", "excluded"})

#: The largest count a record may give (streaks, rounds, melds ...).
MAX_COUNT = 1_000


def seat(value: Any, key: str) -> int:
    """A seat 0-3 (an int, or a wind letter E/S/W/N counted from the dealer)."""
    if isinstance(value, str) and len(value) == 1 and value.upper() in WINDS:
        return WINDS.index(value.upper())
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= int(value) <= 3:
        raise hand_error(f"{key} must be a seat 0-3 (or E, S, W, N), not {value!r}", key=key)
    return int(value)


def optional_seat(outcome: Mapping[str, Any], key: str) -> int | None:
    v = outcome.get(key)
    return None if v is None else seat(v, key)


def seats(value: Any, key: str) -> list[int]:
    """A list of seats (None: none)."""
    if value is None:
        return []
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise hand_error(f"{key} must be a list of seats, not {value!r}", key=key)
    return [seat(v, key) for v in value]


def count(value: Any, key: str, low: int = 0, high: int = MAX_COUNT) -> int:
    """An int from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= int(value) <= high:
        raise hand_error(f"{key} must be an int from {low} to {high}, not {value!r}", key=key)
    return int(value)


def per_seat(outcome: Mapping[str, Any], key: str, high: int = MAX_COUNT) -> list[int]:
    """Four ints from 0 to ``high``, one per seat (melds made, kongs ...); absent: zeros."""
    v = outcome.get(key)
    if v is None:
        return [0, 0, 0, 0]
    if isinstance(v, (str, bytes, Mapping)) or not isinstance(v, Iterable):
        raise hand_error(f"{key} must list four numbers, one per seat, not {v!r}", key=key)
    v = list(v)
    if len(v) != 4:
        raise hand_error(f"{key} must list four numbers, one per seat, not {v!r}", key=key)
    return [count(x, f"{key}[{i}]", 0, high) for i, x in enumerate(v)]


def flag(value: Any, key: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise hand_error(f"{key} must be True or False, not {value!r}", key=key)
    return bool(value)


def mapping(value: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise hand_error(f"{key} must be a dict, not {type(value).__name__}", key=key)
    return value


def known_keys(given: Mapping[str, Any], known: Iterable[str], where: str) -> None:
    """Refuses keys not in ``known``: a misspelt key would otherwise change the outcome
    silently (a discard win paid as self-drawn)."""
    known = set(known)
    bad = sorted(str(k) for k in given if k not in known)
    if bad:
        message = f"unknown key(s) in {where}: {', '.join(bad)}; known: {', '.join(sorted(known))}"
        raise hand_error(message, key=bad[0])


def followed_rounds(discard_order: Iterable[Any]) -> int:
    """跟庄 / 烧庄 in a played hand: how many rounds running, from the first, the dealer's
    discard was followed by the same tile from each other seat in turn (no claim between,
    and none won on: "如果最后一张所出的牌给别人放了铳 ... 则不算作“烧庄”").

    ``discard_order``: the discards in the order made, each ``[seat, tile, fate]`` with
    ``fate`` None, ``"claimed"`` or ``"won"`` (the record ``haidi.Game`` gives).
    """
    rows = list(discard_order)
    rounds = 0
    while len(rows) >= 4 * (rounds + 1):
        four = rows[4 * rounds : 4 * rounds + 4]
        if [r[0] for r in four] != [0, 1, 2, 3] or len({r[1] for r in four}) != 1 or any(r[2] for r in four):
            break
        rounds += 1
    return rounds


def mutual_pairs(melds: Iterable[Mapping[str, Any]], claims: int = 3) -> list[list[int]]:
    """互包 in a played hand: the pairs of seats one of which took ``claims`` chows and
    pungs from the other ("一家从另一家的那里吃+碰到3嘴以后"), from the record's ``melds``."""
    taken: dict[tuple[int, int], int] = {}
    for m in melds:
        if m["meld"] in ("chow", "pung") and m["from"] is not None:
            key = (m["seat"], m["from"])
            taken[key] = taken.get(key, 0) + 1
    pairs = {tuple(sorted(k)) for k, n in taken.items() if n >= claims}
    return [list(p) for p in sorted(pairs)]
