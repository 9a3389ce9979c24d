"""Longgang's 台 patterns: one small function per pattern over a scored arrangement, and
the table of them. Part of ``longgang``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ._longgang_shapes import EAST, GREEN, RED, Group, _suit, is_big

if TYPE_CHECKING:
    from .longgang import Situation

# ---------------------------------------------------------------------------------------
# Patterns (台). One small function per pattern over a scored arrangement.


@dataclass
class Scored:
    """One arrangement with the role of its winning tile, as the pattern functions see it."""

    sit: Situation
    groups: list[Group]
    form: str  # "standard" or "eight_pairs"
    role: str | None  # single, pung, closed, edge, open (the winning tile's place)
    win_group: int | None

    def concrete(self) -> list[Group]:
        return [g for g in self.groups if g.base is not None]

    def suits(self) -> set[int]:
        return {_suit(k) for g in self.concrete() for k in g.kinds}

    def triplets(self) -> list[Group]:
        return [g for g in self.groups if g.is_triplet]

    def chows(self) -> list[Group]:
        return [g for g in self.groups if g.shape == "chow"]

    def pair(self) -> Group | None:
        pairs = [g for g in self.groups if g.shape in ("pair", "wild_pair")]
        return pairs[0] if self.form == "standard" and pairs else None


@dataclass(frozen=True)
class Pattern:
    """A 台 pattern: ``tai`` per occurrence; ``lazi`` patterns make the hand 300 outright."""

    id: str
    name: str
    name_en: str
    tai: int
    check: Callable[[Scored], int]
    excludes: tuple[str, ...] = ()
    lazi: bool = False
    optional: bool = False


def _honour_kinds(sit: Situation) -> set[int]:
    """中, 发 and the seat wind, unless that kind is the 财神 ("如是中发坐风为财神的，不另计")."""
    return {GREEN, RED, sit.seat_wind} - {sit.wild_kind}


def _no_wilds(x: Scored) -> int:
    s = x.sit
    if s.seat_flower or s.flower_wilds and s.wild_tiles:
        return 0
    if s.wild_tiles == 0:
        return 1
    if not s.options["home_wild_is_natural"]:
        return 0
    # 财神归位: every 财神 stands for its own kind, as a natural tile would.
    home = sum(g.wild_for.count(s.wild_kind) for g in x.groups)  # type: ignore[arg-type]
    return int(home == s.wild_tiles)


def _one_suit(x: Scored) -> int:
    su = x.suits()
    return int(len(su) == 1 and 3 not in su)


def _half_suit(x: Scored) -> int:
    su = x.suits()
    return int(3 in su and len(su) == 2)


def _no_chows(x: Scored) -> bool:
    return not x.chows()


def _all_kinds(x: Scored, pred: Callable[[int], bool]) -> bool:
    return all(pred(k) for g in x.concrete() for k in g.kinds)


def _terminal(k: int) -> bool:
    return k < 27 and k % 9 in (0, 8)


def _winds_pung(x: Scored) -> tuple[int, int]:
    winds = {g.base for g in x.triplets() if g.base is not None and EAST <= g.base < EAST + 4}
    return len(winds), sum(g.shape == "wild_meld" for g in x.groups)


def _big_four(x: Scored) -> int:
    n, free = _winds_pung(x)
    return int(x.form == "standard" and n + free >= 4 and n >= 1)


def _small_four(x: Scored) -> int:
    n, free = _winds_pung(x)
    p = x.pair()
    if p is None or n + free != 3 or n < 1:
        return 0
    winds = {g.base for g in x.triplets() if g.base is not None and EAST <= g.base < EAST + 4}
    return int(p.base is None or (EAST <= p.base < EAST + 4 and p.base not in winds))


def _plain(x: Scored) -> int:
    s, p = x.sit, x.pair()
    if x.form != "standard" or x.triplets() and any(g.shape != "wild_meld" for g in x.triplets()):
        return 0
    if p is None or (p.base is not None and p.base in {GREEN, RED, s.seat_wind}):
        return 0
    if s.seat_flower or s.guest_flowers or s.self_drawn or x.role == "closed":
        return 0
    # "含有一财神,0台 ... 胡牌含有坐花，两个财神或无财神，清一色，混一色等不计平胡"
    return int(s.wild_tiles == 1 and not s.flower_wilds and not _one_suit(x) and not _half_suit(x))


def _dragon(x: Scored) -> int:
    starts = {g.base for g in x.chows()}
    free = sum(g.shape == "wild_meld" for g in x.groups)
    return int(any(sum(s + d not in starts for d in (0, 3, 6)) <= free for s in (0, 9, 18)))


def _kongs(x: Scored) -> int:
    return sum(g.shape == "kong" for g in x.groups)


def _concealed_pungs(x: Scored) -> int:
    n = 0
    for i, g in enumerate(x.groups):
        if g.meld == "concealed_kong" or (g.meld is None and g.is_triplet):
            n += not (i == x.win_group and x.role == "pung" and not x.sit.self_drawn)
    return n


def _run(kinds: list[int], n: int, free: int = 0) -> int:
    """Whether n consecutive ranks of one suit are among ``kinds``, up to ``free`` of them
    supplied by groups of wilds alone."""
    have = set(kinds)
    return int(
        any(sum(k not in have for k in range(lo, lo + n)) <= free for s in (0, 9, 18) for lo in range(s, s + 10 - n))
    )


def _kong_kinds(x: Scored) -> list[int]:
    # A 财神 cannot make a kong, so only real kongs count.
    return [g.base for g in x.groups if g.shape == "kong" and g.base is not None]


def _pung_kinds(x: Scored) -> list[int]:
    return [g.base for g in x.triplets() if g.base is not None]


def _wild_melds(x: Scored) -> int:
    return sum(g.shape == "wild_meld" for g in x.groups)


def _same_rank_kongs(x: Scored) -> int:
    kongs = set(_kong_kinds(x))
    return int(any(all(s * 9 + r in kongs for s in range(3)) for r in range(9)))


def _red_pair_hand(x: Scored, allowed: set[int]) -> int:
    """点点红 / 红一点: every tile among ``allowed`` and a pair of 红中."""
    pair = x.pair()
    red_pair = pair is not None and (pair.base == RED or pair.base is None)
    return int(red_pair and _all_kinds(x, lambda k: k in allowed or k == RED))


def _identical_chows(x: Scored) -> int:
    bases = [g.base for g in x.chows()]
    return int(any(bases.count(b) >= 4 for b in set(bases)))


def _green(k: int) -> bool:
    return k == GREEN or k in (19, 20, 21, 23, 25)


def _open_melds(x: Scored) -> int:
    return sum(g.meld not in (None, "concealed_kong") for g in x.groups)


PATTERN_TABLE: tuple[Pattern, ...] = (
    Pattern("self_drawn", "自摸胡", "self-drawn", 0, lambda x: int(x.sit.self_drawn)),
    Pattern("closed_wait", "卡档胡", "closed wait", 0, lambda x: int(x.role == "closed")),
    Pattern("plain", "平胡", "plain hand", 0, _plain),
    Pattern("no_wilds", "无财神", "no wilds", 1, _no_wilds),
    Pattern("two_wilds", "两财神", "two wilds", 1, lambda x: int(x.sit.wild_tiles == 2), excludes=("no_wilds",)),
    Pattern("seat_flower", "坐花", "seat flower", 1, lambda x: int(x.sit.seat_flower)),
    Pattern("four_flowers", "四花", "four flowers", 2, lambda x: int(x.sit.all_flowers), excludes=("seat_flower",)),
    Pattern(
        "honour_pung",
        "字刻",
        "dragon or seat-wind pung",
        1,
        lambda x: sum(g.base in _honour_kinds(x.sit) for g in x.triplets()),
    ),
    Pattern("half_suit", "混一色", "half flush", 1, _half_suit),
    Pattern("all_pungs", "对对胡", "all pungs", 1, lambda x: int(x.form == "standard" and len(x.triplets()) == 5)),
    Pattern("one_suit", "清一色", "full flush", 3, _one_suit, excludes=("half_suit", "plain", "all_green"), lazi=True),
    Pattern(
        "all_honours",
        "字一色",
        "all honours",
        3,
        lambda x: int(_all_kinds(x, lambda k: k >= 27)),
        excludes=("all_pungs", "half_suit", "terminals_and_honours", "big_four_winds", "small_four_winds"),
        lazi=True,
    ),
    Pattern(
        "all_terminals",
        "清老头",
        "all terminals",
        3,
        lambda x: int(_no_chows(x) and _all_kinds(x, _terminal)),
        excludes=("all_pungs", "terminals_and_honours"),
        lazi=True,
    ),
    Pattern(
        "terminals_and_honours",
        "混老头",
        "terminals and honours",
        3,
        lambda x: int(x.form == "standard" and _no_chows(x) and _all_kinds(x, is_big)),
        excludes=("all_pungs",),
        lazi=True,
    ),
    Pattern("big_four_winds", "大四喜", "big four winds", 3, _big_four, excludes=("small_four_winds",), lazi=True),
    Pattern("small_four_winds", "小四喜", "little four winds", 3, _small_four, lazi=True),
    Pattern(
        "three_wilds",
        "三财神 (推土机)",
        "three wilds",
        3,
        lambda x: int(x.sit.wild_tiles >= x.sit.options["bulldozer_wilds"]),
        excludes=("two_wilds", "wilds_meet"),
        lazi=True,
    ),
    Pattern(
        "wilds_meet",
        "财神会",
        "wilds meet",
        3,
        lambda x: int(
            not x.sit.flower_wilds
            and x.sit.wild_tiles == 2
            and x.sit.seat_flower
            and any(g.shape == "wild_meld" for g in x.groups)
        ),
        lazi=True,
    ),
    Pattern("heavenly", "天胡", "heavenly hand", 3, lambda x: int(x.sit.heavenly), lazi=True),
    Pattern("earthly", "地胡", "earthly hand", 3, lambda x: int(x.sit.earthly), lazi=True),
    Pattern(
        "eight_pairs",
        "八对半",
        "eight pairs and a half",
        3,
        lambda x: int(x.form == "eight_pairs" and x.sit.options["eight_pairs"] == "lazi"),
        lazi=True,
    ),
    # Optional (选用) patterns and the 附一 hands: scored only when named in ``optional``.
    Pattern("one_dragon", "一条龙", "pure straight", 1, _dragon, optional=True),
    Pattern(
        "five_kongs",
        "五杠子",
        "five kongs",
        3,
        lambda x: int(_kongs(x) == 5),
        excludes=("four_kongs", "three_kongs", "all_pungs"),
        lazi=True,
        optional=True,
    ),
    Pattern("four_kongs", "四杠子", "four kongs", 3, lambda x: int(_kongs(x) == 4), ("three_kongs",), optional=True),
    Pattern("three_kongs", "三杠子", "three kongs", 2, lambda x: int(_kongs(x) == 3), optional=True),
    Pattern(
        "five_concealed_pungs",
        "五暗刻",
        "five concealed pungs",
        3,
        lambda x: int(_concealed_pungs(x) == 5),
        excludes=("four_concealed_pungs",),
        optional=True,
    ),
    Pattern(
        "four_concealed_pungs",
        "四暗刻",
        "four concealed pungs",
        2,
        lambda x: int(_concealed_pungs(x) == 4),
        optional=True,
    ),
    Pattern("four_identical_chows", "四连太宝", "four identical chows", 3, _identical_chows, optional=True),
    Pattern(
        "all_green",
        "绿一色",
        "all green",
        3,
        lambda x: int(_all_kinds(x, _green)),
        lazi=True,
        optional=True,
    ),
    Pattern(
        "concealed_hand",
        "门清",
        "concealed hand",
        1,
        lambda x: int(_open_melds(x) == 0 and not x.sit.self_drawn),
        optional=True,
    ),
    Pattern(
        "self_drawn_concealed",
        "不求人",
        "fully concealed self-drawn",
        1,
        lambda x: int(_open_melds(x) == 0 and x.sit.self_drawn),
        optional=True,
    ),
    Pattern(
        "all_claimed",
        "全求人",
        "melded hand on a discard",
        1,
        lambda x: int(_open_melds(x) == 5 and x.role == "single" and not x.sit.self_drawn),
        optional=True,
    ),
    Pattern(
        "half_claimed",
        "半求人",
        "melded hand self-drawn",
        1,
        lambda x: int(_open_melds(x) == 5 and x.role == "single" and x.sit.self_drawn),
        optional=True,
    ),
    # 附一 S: the runs and sets of kongs and pungs, with the 台 the list gives
    # ("五连杠3台 ... 四连杠3台 ... 三连杠3台，三同杠3台，五连刻3台 ... 四连刻2台"). A run
    # counts instead of the plainer count of kongs it implies (五、（一）: not counted twice).
    Pattern(
        "five_kong_run",
        "五连杠",
        "five consecutive kongs",
        3,
        lambda x: _run(_kong_kinds(x), 5),
        excludes=("four_kong_run", "three_kong_run", "five_pung_run", "four_pung_run"),
        optional=True,
    ),
    Pattern(
        "four_kong_run",
        "四连杠",
        "four consecutive kongs",
        3,
        lambda x: _run(_kong_kinds(x), 4),
        excludes=("four_kongs", "three_kongs", "three_kong_run", "four_pung_run"),
        optional=True,
    ),
    Pattern(
        "three_kong_run",
        "三连杠",
        "three consecutive kongs",
        3,
        lambda x: _run(_kong_kinds(x), 3),
        excludes=("three_kongs",),
        optional=True,
    ),
    Pattern(
        "three_same_kongs", "三同杠", "three kongs of one rank", 3, _same_rank_kongs, ("three_kongs",), optional=True
    ),
    Pattern(
        "five_pung_run",
        "五连刻",
        "five consecutive pungs",
        3,
        lambda x: _run(_pung_kinds(x), 5, _wild_melds(x)),
        excludes=("four_pung_run",),
        optional=True,
    ),
    Pattern(
        "four_pung_run",
        "四连刻",
        "four consecutive pungs",
        2,
        lambda x: _run(_pung_kinds(x), 4, _wild_melds(x)),
        optional=True,
    ),
    # 附一 I, J, K: "有此地方玩法算腊子" (some places count these as 腊子), which is all the
    # text gives them, so as options they are 腊子.
    Pattern(
        "red_peacock",
        "红孔雀",
        "red peacock (1 5 7 9 bamboo and red dragons)",
        3,
        lambda x: int(_all_kinds(x, lambda k: k in (18, 22, 24, 26, RED))),
        lazi=True,
        optional=True,
    ),
    Pattern(
        "dotted_red",
        "点点红",
        "dotted red (1 3 5 6 7 9 dots, a pair of red dragons)",
        3,
        lambda x: _red_pair_hand(x, {9, 11, 13, 14, 15, 17}),
        lazi=True,
        optional=True,
    ),
    Pattern(
        "one_red",
        "红一点",
        "one red (2 3 4 6 8 bamboo, a pair of red dragons)",
        3,
        lambda x: _red_pair_hand(x, {19, 20, 21, 23, 25}),
        lazi=True,
        optional=True,
    ),
)
PATTERNS: dict[str, Pattern] = {p.id: p for p in PATTERN_TABLE}
