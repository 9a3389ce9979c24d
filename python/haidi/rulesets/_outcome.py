"""Reading the outcome records of ``settle``: seats, counts, flags, known keys.

Every failure is a ``haidi.HandError`` (a ``ValueError``) that names the key at fault;
every count is bounded, so that no record can make ``settle`` loop or grow without end.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from .._errors import hand_error, shown

#: Seat winds by seat, seat 0 the dealer (East), then in turn order.
WINDS = "ESWN"

#: The keys of every ``evaluate`` result: a result passed where an outcome takes a win
#: is read by them.
RESULT_KEYS = frozenset({"win", "total", "fans", "reason", "form", "arrangement", "groups", "excluded"})

#: The largest count a record may give (streaks, rounds, melds ...).
MAX_COUNT = 1_000


def get(outcome: Mapping[str, Any], key: str, default: Any) -> Any:
    """The value of ``key``, or ``default`` where it is absent or None (a key left out,
    as in a situation)."""
    value = outcome.get(key)
    return default if value is None else value


#: A wind by its names, as a situation's wind keys take them: ``E`` ``S`` ``W`` ``N`` in
#: either case and ``1z``-``4z``; the value is its seat, 0 the dealer (East).
_WIND_NAMES = {
    **{w: i for i, w in enumerate(WINDS)},
    **{w.lower(): i for i, w in enumerate(WINDS)},
    **{f"{i + 1}z": i for i in range(4)},
}


def is_int(value: Any) -> bool:
    """An int, a numpy integer too, but not a bool (which Python counts as an int)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def wind(value: Any) -> int | None:
    """A wind or seat 0-3 as a situation's wind keys read it (E, S, W, N in either case,
    1z-4z, or an int 0-3); None for anything else."""
    if isinstance(value, str):
        return _WIND_NAMES.get(value)
    if is_int(value) and 0 <= value <= 3:
        return int(value)
    return None


def seat(value: Any, key: str) -> int:
    """A seat 0-3: an int, or a wind counted from the dealer, read as `wind` reads it."""
    s = wind(value)
    if s is None:
        raise hand_error(f"{key} must be a seat 0-3 (or E, S, W, N), not {shown(value)}", key=key)
    return s


def optional_seat(outcome: Mapping[str, Any], key: str) -> int | None:
    v = outcome.get(key)
    return None if v is None else seat(v, key)


def items(value: Any, key: str, what: str, most: int = MAX_COUNT) -> list[Any]:
    """A list of at most ``most`` items: a list, a tuple or a one-dimensional numpy array;
    None is an empty list (a key left out). Anything else is refused, False, 0 and ""
    too: read by their truth they would pass for an empty list."""
    if value is None:
        return []
    if isinstance(value, np.ndarray) and value.ndim == 1:
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        raise hand_error(f"{key} must be a list of {what}, not {shown(value)}", key=key)
    if len(value) > most:
        raise hand_error(f"{key} lists at most {most} {what}, not {len(value)}", key=key)
    return list(value)


def seats(value: Any, key: str, most: int = MAX_COUNT) -> list[int]:
    """A list of seats (None: none)."""
    return [seat(v, key) for v in items(value, key, "seats", most)]


def count(value: Any, key: str, low: int = 0, high: int = MAX_COUNT) -> int:
    """An int from ``low`` to ``high``."""
    if not is_int(value) or not low <= value <= high:
        raise hand_error(f"{key} must be an int from {low} to {high}, not {shown(value)}", key=key)
    return int(value)


def per_seat(outcome: Mapping[str, Any], key: str, high: int = MAX_COUNT) -> list[int]:
    """Four ints from 0 to ``high``, one per seat (melds made, kongs ...); absent: zeros."""
    if outcome.get(key) is None:
        return [0, 0, 0, 0]
    v = items(outcome[key], key, "four numbers, one per seat", 4)
    if len(v) != 4:
        raise hand_error(f"{key} must list four numbers, one per seat, not {shown(v)}", key=key)
    return [count(x, f"{key}[{i}]", 0, high) for i, x in enumerate(v)]


def word(value: Any, key: str, words: tuple[str, ...]) -> str:
    """One of ``words`` (a str equal to one of them): anything else, an array of them
    too, is refused by name."""
    if not isinstance(value, str) or value not in words:
        raise hand_error(f"{key} must be {', '.join(words[:-1])} or {words[-1]}, not {shown(value)}", key=key)
    return value


def flag(value: Any, key: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise hand_error(f"{key} must be True or False, not {shown(value)}", key=key)
    return bool(value)


def options(outcome: Mapping[str, Any], keys: Iterable[str] = ()) -> dict[str, Any]:
    """The options a record gives: its ``options`` (a dict; None or absent: none), with
    the options it may also give as keys of its own (``keys``: Beijing's ``variant``).
    An option given both ways is refused: one of the two would be dropped."""
    given = outcome.get("options")
    out = {} if given is None else dict(mapping(given, "options"))
    for k in keys:
        if outcome.get(k) is not None:
            if out.get(k) is not None:
                raise hand_error(f"{k} is given both as a key and in options", key=k)
            out[k] = outcome[k]
    return out


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
