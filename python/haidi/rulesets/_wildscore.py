"""What the 番 rulesets with a wild (Tangshan 混, Beijing 惠牌) share: the wild kind from
its indicator, situation checks, and reading an arrangement (where the winning tile sits).

Each ruleset module keeps its own pattern table and settlement; this module holds only
the plumbing both would otherwise repeat.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core import Hand, HandError
from . import _outcome as oc

#: The honour cycles: winds 东→南→西→北→东; dragons 中→发→白→中 (in haidi's kinds
#: 5z white, 6z green, 7z red, so 7z→6z→5z→7z). Beijing's text spells the dragon cycle
#: out ("惠坯是中的话惠牌为发 ... 是发的话惠牌为白 ... 是白的话惠牌为中"); Tangshan lists
#: its honours in the same order ("风（东、南、西、北、中、发、白）").
_NEXT_HONOUR = {"1z": "2z", "2z": "3z", "3z": "4z", "4z": "1z", "7z": "6z", "6z": "5z", "5z": "7z"}


def wild_from_indicator(indicator: str) -> str:
    """The wild kind the indicator tile names: the next kind in its suit ("开到1，那2就是混").

    Args:
        indicator: one tile, ``"1m"`` ... ``"7z"`` (also ``E S W N`` style via ``haidi.Hand``).

    Returns:
        The kind after it: 9 wraps to 1, winds and dragons turn in their own cycles.
    """
    h = Hand(str(indicator))
    tiles = [t for t, c in zip(_KINDS, h.counts, strict=False) for _ in range(c)]
    if len(tiles) != 1 or h.melds:
        raise HandError(f"an indicator is one tile, not {indicator!r}")
    t = tiles[0]
    if t in _NEXT_HONOUR:
        return _NEXT_HONOUR[t]
    n = int(t[0])
    return f"{n % 9 + 1}{t[1]}"


_KINDS = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]


def resolve_wilds(situation: Mapping[str, Any]) -> list[str]:
    """The wild kinds of a situation: ``wilds`` (kinds) or ``indicator`` (a tile), not both."""
    wilds = situation.get("wilds")
    indicator = situation.get("indicator")
    if wilds is not None and indicator is not None:
        raise HandError("give either 'wilds' or 'indicator', not both")
    if indicator is not None:
        return [wild_from_indicator(indicator)]
    if wilds is None:
        return []
    if isinstance(wilds, str):
        wilds = [wilds]
    out: list[str] = []
    for w in wilds:
        h = Hand(str(w))
        kinds = [k for k, c in zip(_KINDS, h.counts, strict=False) if c]
        if h.melds or not kinds:
            raise HandError(f"a wild is a tile kind, not {w!r}")
        out.extend(k for k in kinds if k not in out)
    return out


def flag(situation: Mapping[str, Any], key: str) -> bool:
    """A yes/no key: absent is False; anything but a bool is refused."""
    v = situation.get(key)
    return False if v is None else oc.flag(v, key)


def count(situation: Mapping[str, Any], key: str, lo: int = 0, hi: int = 1_000) -> int:
    """A small non-negative integer key (rounds, melds ...); absent is 0."""
    v = situation.get(key)
    n = 0 if v is None else oc.count(v, key)
    if not lo <= n <= hi:
        raise HandError(f"{key} must be an integer {lo}-{hi}, not {v!r}")
    return n


def seat(outcome: Mapping[str, Any], key: str, required: bool = False) -> int | None:
    """A seat 0-3 (0 the dealer, then in turn order), or None when absent."""
    v = outcome.get(key)
    if v is None:
        if required:
            raise HandError(f"outcome needs {key!r} (a seat 0-3)")
        return None
    return oc.seat(v, key)


def per_seat(outcome: Mapping[str, Any], key: str) -> list[int]:
    """Four non-negative integers by seat (melds made, kongs ...); absent is four zeros."""
    v = outcome.get(key)
    if v is None:
        return [0, 0, 0, 0]
    if isinstance(v, (str, bytes)) or not isinstance(v, Sequence) or len(v) != 4:
        raise HandError(f"{key} must list four numbers, one per seat, not {v!r}")
    out = []
    for x in v:
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 0:
            raise HandError(f"{key} must list four non-negative integers, not {v!r}")
        out.append(int(x))
    return out


def check_keys(situation: Mapping[str, Any], allowed: Iterable[str], ruleset: str) -> None:
    oc.unknown_keys(situation, set(allowed), ruleset)


@dataclass(frozen=True)
class Pattern:
    """One 番 pattern of a table: id, names, value, and the patterns it makes void."""

    id: str
    name: str
    name_en: str
    value: int
    test: Callable[[Any], bool]
    excludes: tuple[str, ...] = ()


def kinds_in(group: Mapping[str, Any]) -> list[str]:
    """The kinds a group stands for (wilds read as what they stand for)."""
    return list(group["tiles"])


def natural(group: Mapping[str, Any], kind: str) -> int:
    """Real copies of ``kind`` in a group (not wilds standing for it)."""
    return group["tiles"].count(kind) - group["wilds"].count(kind)


def win_roles(arrangement: Mapping[str, Any], win: str, wild_kinds: Sequence[str]) -> list[tuple[int, str]]:
    """Where the winning tile may sit: (group index, kind it plays) pairs.

    A real tile sits in a concealed group holding a real copy of its kind; a drawn wild in
    any concealed group holding a wild, as any kind a wild there stands for.
    """
    roles: list[Any] = []
    for i, g in enumerate(arrangement["groups"]):
        if g["meld"] is not None:
            continue
        if win in wild_kinds:
            roles.extend((i, k) for k in dict.fromkeys(g["wilds"]))
        if natural(g, win) > 0:
            roles.append((i, win))
    return roles


def closed_wait(arrangement: Mapping[str, Any], role: tuple[int, str]) -> bool:
    """卡张 / 嵌张: the winning tile is the middle of a chow."""
    g = arrangement["groups"][role[0]]
    return g["kind"] == "chow" and g["tiles"][1] == role[1]


def single_wait(arrangement: Mapping[str, Any], role: tuple[int, str]) -> bool:
    """单钓: the winning tile completes the pair of a standard hand."""
    return arrangement["form"] == "standard" and arrangement["groups"][role[0]]["kind"] == "pair"


def straight_suit(arrangement: Mapping[str, Any]) -> str | None:
    """The suit of a 一条龙 (chows 123, 456, 789 of one suit), or None."""
    chows = {tuple(g["tiles"]) for g in arrangement["groups"] if g["kind"] == "chow"}
    for s in "mps":
        if all((f"{a}{s}", f"{a + 1}{s}", f"{a + 2}{s}") in chows for a in (1, 4, 7)):
            return s
    return None


def all_kinds(arrangement: Mapping[str, Any]) -> list[str]:
    return [t for g in arrangement["groups"] for t in g["tiles"]]


def all_kinds_of(hand: Hand) -> list[str]:
    """The concealed tiles of a hand, in kind order."""
    return [k for k, c in zip(_KINDS, hand.counts, strict=False) for _ in range(c)]


def arrangement_text(arrangement: Mapping[str, Any]) -> str:
    """Groups written in haidi notation, wilds noted: ``123m [555p] 77z(wild 7z)``."""
    parts = []
    for g in arrangement["groups"]:
        body = compact(g["tiles"])
        if g["meld"] is not None:
            body = f"{{{body}}}" if g["meld"] == "concealed_kong" else f"[{body}]"
        if g["wilds"]:
            body += "(wild " + " ".join(g["wilds"]) + ")"
        parts.append(body)
    return " ".join(parts)


def compact(tiles: Sequence[str]) -> str:
    """Tiles in compact notation, a suit letter after each run: ``19m19p1z1z``."""
    out = []
    for i, t in enumerate(tiles):
        out.append(t[0])
        if i + 1 == len(tiles) or tiles[i + 1][1] != t[1]:
            out.append(t[1])
    return "".join(out)


def full_hand(situation: Mapping[str, Any], hand_size: int) -> tuple[Hand, str]:
    """The hand with its winning tile added, and the winning tile."""
    text = situation.get("hand")
    win = situation.get("win")
    if not isinstance(text, (str, Hand)):
        raise HandError("a situation needs 'hand' (the hand without the winning tile)")
    if not isinstance(win, str) or not win:
        raise HandError("a situation needs 'win' (the winning tile, e.g. '5p')")
    fmt = situation.get("format", "compact")
    hand = text if isinstance(text, Hand) else Hand(text, fmt)
    wt = Hand(win, fmt)
    kinds = [k for k, c in zip(_KINDS, wt.counts, strict=False) for _ in range(c)]
    if len(kinds) != 1 or wt.melds:
        raise HandError(f"'win' is one tile, not {win!r}")
    kongs = sum(1 for m in hand.melds if len(m.tiles) == 4)
    if hand.size - kongs != hand_size:
        raise HandError(
            f"hand has {hand.size - kongs} tiles (a meld counts as 3) without the winning tile; expected {hand_size}"
        )
    return hand.add(kinds[0]), kinds[0]


def best(scored: list[dict[str, Any]], key: str = "total") -> dict[str, Any]:
    """The arrangement scoring most; ties keep the first (the engine's order)."""
    return max(scored, key=lambda r: r[key])


def describe(result: Mapping[str, Any], situation: Mapping[str, Any], headline: str, wild_name: str) -> str:
    """The readable form of a 番 result: ``headline`` follows "win, " on the first line,
    and the wilds are named ``wild_name`` (混, 惠牌)."""
    head = f"{situation.get('hand')} + {situation.get('win')}"
    if not result["win"]:
        return f"{head}: no win ({result.get('reason')})"
    lines = [f"{head}: win, {headline}"]
    if result["wilds"]:
        lines.append(f"  {wild_name}: {' '.join(result['wilds'])}")
    lines.append(f"  {result['form']}: {result['arrangement']}")
    for f in result["fans"]:
        lines.append(f"  {f['name']}  {f['name_en']}  {f['value']} 番")
    return "\n".join(lines)
