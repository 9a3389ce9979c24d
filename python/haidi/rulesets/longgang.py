"""Longgang / Wenzhou (龙港麻将): 16-tile hands, no white dragon, 财神 wilds, four flowers.

Scoring is 胡数 (face points) times 2^台数, capped at 300 (腊子); readings of the text:
docs/longgang.md.

Situation keys (keywords of ``evaluate``): ``KEY_DOCS`` below, listed with their types
in ``help(haidi.ruleset("longgang").evaluate)`` and in docs/reference/longgang.md. The
options that change scoring (``eight_pairs``, ``optional``, ``single_wait_self_drawn_hu``,
``edge_wait_hu``, ``bulldozer_wilds``, ``loser_pair_hu``, ``loser_four_flowers_tai``,
``home_wild_is_natural``) may also be given as situation keys. The result keys are those
of ``haidi.results.LonggangResult``; ``total`` is the 总胡数, rounded up to 10.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._core import Hand, HandError, tile_names
from .._errors import hand_error, shown
from . import _carry
from . import _outcome as oc
from ._scheme import (
    ALL,
    EXPLAIN,
    FORMAT,
    HAND,
    HONOURS,
    ROUND_WIND_KEY,
    SEAT_WIND,
    SEAT_WIND_KEY,
    TERMINALS,
    TERMINALS_AND_HONOURS,
    WILDS,
    WIN,
    WINDS,
    Option,
    Pattern,
    Points,
    Q,
    Rule,
    Scoring,
    all_tiles,
    always,
    any_of,
    build,
    flag,
    flag_key,
    form,
    key,
    kinds,
    pairs,
    pattern,
    run,
    same_rank_kongs,
    straight,
    suits,
    triplets,
    win,
)
from ._spec import GameRules, RulesetSpec

if TYPE_CHECKING:
    from ..ruleset import Ruleset

SPEC = RulesetSpec(
    name="longgang",
    title="Longgang / Wenzhou (龙港麻将)",
    melds=5,
    # "龙港麻将无白板": no white dragon (5z).
    tiles="123456789m123456789p123456789s123467z",
    flowers="1234f",
    forms=dict(
        eight_pairs_and_a_half=True,  # 八对半
        four_as_two_pairs=True,
        # "如手牌已碰红中…再胡红中配两财神，计3台": wilds may stand for a kind all four of
        # whose copies are held.
        wilds_beyond_copies=True,
    ),
    has_wilds=True,
    # "如是花财神": an indicator flower makes the flowers the 财神.
    flower_wilds=True,
    source="seed 003",
)

#: The cap on any player's total (满贯 / 腊子), in 胡.
CAP = 300
#: Added to a winner's face points (基础胡数 = 20 + 牌面胡数).
BASE = 20
#: 跟胡数 by the winner's 台 (0, 1, 2, 3 or more); the second row after a player's stake ran out.
FOLLOW = ((30, 60, 90, 120), (50, 100, 150, 200))
#: 10 胡 make one chip (子).
HU_PER_CHIP = 10

_OPTIONAL = (
    "one_dragon",
    "five_kongs",
    "four_kongs",
    "three_kongs",
    "five_concealed_pungs",
    "four_concealed_pungs",
    "four_identical_chows",
    "all_green",
    "concealed_hand",
    "self_drawn_concealed",
    "all_claimed",
    "half_claimed",
    "five_kong_run",
    "four_kong_run",
    "three_kong_run",
    "three_same_kongs",
    "five_pung_run",
    "four_pung_run",
    "red_peacock",
    "dotted_red",
    "one_red",
)

#: The options (docs/longgang.md has the table).
OPTIONS: tuple[Option, ...] = (
    Option(
        "eight_pairs",
        "lazi",
        "八对半: a 腊子 (lazi), scored by its parts (plain), or not a winning form (False)",
        choices=("lazi", "plain", False),
        acts="evaluate",
    ),
    Option("optional", (), "ids of the optional patterns (选用, 附一) to score", choices=_OPTIONAL, acts="evaluate"),
    Option("single_wait_self_drawn_hu", False, "a single wait self-drawn also scores 自摸 2 胡", acts="evaluate"),
    Option("edge_wait_hu", False, "边张 scores 2 胡 (as some places count it)", acts="evaluate"),
    Option("bulldozer_wilds", 3, "正财神 that win at once (推土机)", choices=(3, 4), acts="evaluate"),
    Option("loser_pair_hu", True, "a 陪家's pair of 中, 发 or the seat wind scores 2 胡", acts="evaluate"),
    Option("loser_four_flowers_tai", 2, "台 of 四花 for a 陪家 (some places: 1)", choices=(2, 1), acts="evaluate"),
    Option(
        "home_wild_is_natural", True, "a 财神 standing for its own kind counts as natural (财神归位)", acts="evaluate"
    ),
)
#: Options that may also be given as situation keys.
OPTION_KEYS = tuple(o.name for o in OPTIONS)


def round_up(hu: int) -> int:
    """Totals go by tens, rounded up: "如38胡算40胡"."""
    return -(-hu // 10) * 10


def hand_total(face: int, tai: int, *, winner: bool = True, lazi: bool = False) -> int:
    """(face + 20) x 2^台 for the winner, face x 2^台 for the others, rounded up to 10, at most 300."""
    if lazi:
        return CAP
    hu = (face + BASE if winner else face) * 2 ** min(tai, 16)
    return min(CAP, round_up(hu))


def follow_hu(tai: int, broken_stake: bool = False) -> int:
    """跟胡数 by the winner's 台 (3 and more as 3)."""
    return FOLLOW[int(bool(broken_stake))][max(0, min(tai, 3))]


def tile_name(k: int) -> str:
    """The compact name of kind ``k`` (0-33)."""
    return f"{k % 9 + 1}{'mps'[k // 9]}" if k < 27 else f"{k - 26}z"


def patterns(options: Mapping[str, Any]) -> tuple[Pattern, ...]:
    """The 台 patterns, in the order results list them; optional ones as the options ask."""
    # 中, 发 and the seat wind, unless that kind is the 财神 ("如是中发坐风为财神的，不另计").
    honour = (kinds("67z") | SEAT_WIND) - WILDS
    one_suit = (Q.suits == 1) & (Q.honours == 0)
    half_suit = (Q.suits == 1) & (Q.honours == 1)
    standard = form("standard")
    loser = form("partial")
    no_wilds = (Q.seat_flower == 0) & ~((Q.flower_wilds == 1) & (Q.wild_tiles > 0))
    home = Q.wild_tiles == 0
    if options["home_wild_is_natural"]:
        # 财神归位: every 财神 stands for its own kind, as a natural tile would.
        home = home | _home_wilds_all()
    plain = (
        standard
        & (Q.triplets == 0)
        & ~pairs(kinds("67z") | SEAT_WIND)
        & (Q.seat_flower == 0)
        & (Q.guest_flowers == 0)
        & ~flag("self_drawn")
        & ~win("closed")
        & (Q.wild_tiles == 1)
        & (Q.flower_wilds == 0)
        & ~one_suit
        & ~half_suit
    )
    red_pair = standard & pairs(kinds("7z"))
    rows: list[Pattern] = [
        Pattern("self_drawn", "自摸胡", "self-drawn", 0, flag("self_drawn")),
        Pattern("closed_wait", "卡档胡", "closed wait", 0, win("closed")),
        # "含有一财神,0台 ... 胡牌含有坐花，两个财神或无财神，清一色，混一色等不计平胡"
        Pattern("plain", "平胡", "plain hand", 0, plain),
        Pattern("no_wilds", "无财神", "no wilds", 1, no_wilds & home),
        Pattern(
            "two_wilds",
            "两财神",
            "two wilds",
            1,
            (Q.real_wilds_used == 2) | (loser & (Q.real_wilds_used >= 2)),
            excludes=("no_wilds",),
            loser_value=1,
        ),
        Pattern("seat_flower", "坐花", "seat flower", 1, Q.seat_flower_used == 1, loser_value=1),
        Pattern(
            "four_flowers",
            "四花",
            "four flowers",
            2,
            (Q.all_flowers == 1) & (Q.seat_flower_used == 1) & (~loser | (Q.flower_wilds == 0)),
            excludes=("seat_flower",),
            loser_value=options["loser_four_flowers_tai"],
        ),
        Pattern("honour_pung", "字刻", "dragon or seat-wind pung", 1, triplets(honour), loser_value=1),
        Pattern("half_suit", "混一色", "half flush", 1, half_suit),
        Pattern("all_pungs", "对对胡", "all pungs", 1, standard & (Q.triplets == 5)),
        Pattern(
            "one_suit", "清一色", "full flush", 3, one_suit, excludes=("half_suit", "plain", "all_green"), lazi=True
        ),
        Pattern(
            "all_honours",
            "字一色",
            "all honours",
            3,
            all_tiles(HONOURS),
            excludes=("all_pungs", "half_suit", "terminals_and_honours", "big_four_winds", "small_four_winds"),
            lazi=True,
        ),
        Pattern(
            "all_terminals",
            "清老头",
            "all terminals",
            3,
            (Q.chows == 0) & all_tiles(TERMINALS),
            excludes=("all_pungs", "terminals_and_honours"),
            lazi=True,
        ),
        Pattern(
            "terminals_and_honours",
            "混老头",
            "terminals and honours",
            3,
            standard & (Q.chows == 0) & all_tiles(TERMINALS_AND_HONOURS),
            excludes=("all_pungs",),
            lazi=True,
        ),
        Pattern(
            "big_four_winds",
            "大四喜",
            "big four winds",
            3,
            standard & (triplets(WINDS) >= 4),
            excludes=("small_four_winds",),
            lazi=True,
        ),
        Pattern(
            "small_four_winds",
            "小四喜",
            "little four winds",
            3,
            standard & (triplets(WINDS) == 3) & pairs(WINDS),
            lazi=True,
        ),
        Pattern(
            "three_wilds",
            "三财神 (推土机)",
            "three wilds",
            3,
            Q.wild_tiles >= options["bulldozer_wilds"],
            excludes=("two_wilds", "wilds_meet"),
            lazi=True,
            instant=True,
        ),
        # "两个正财神配坐花三张组成刻子": the two 财神 and the 坐花 as one group of wilds.
        Pattern(
            "wilds_meet",
            "财神会",
            "wilds meet",
            3,
            (Q.flower_wilds == 0) & (Q.wild_tiles == 2) & (Q.seat_flower == 1) & (Q.free_melds >= 1),
            lazi=True,
        ),
        Pattern("heavenly", "天胡", "heavenly hand", 3, flag("heavenly"), lazi=True, instant=True),
        Pattern("earthly", "地胡", "earthly hand", 3, flag("earthly"), lazi=True, instant=True),
        Pattern("eight_pairs", "八对半", "eight pairs and a half", 3, form("eight_pairs"), lazi=True),
        # Optional (选用) patterns and the 附一 hands: scored only when named in ``optional``.
        Pattern("one_dragon", "一条龙", "pure straight", 1, straight(suits("mps")), optional=True),
        Pattern(
            "five_kongs",
            "五杠子",
            "five kongs",
            3,
            Q.kongs == 5,
            excludes=("four_kongs", "three_kongs", "all_pungs"),
            lazi=True,
            optional=True,
        ),
        Pattern("four_kongs", "四杠子", "four kongs", 3, Q.kongs == 4, excludes=("three_kongs",), optional=True),
        Pattern("three_kongs", "三杠子", "three kongs", 2, Q.kongs == 3, optional=True),
        Pattern(
            "five_concealed_pungs",
            "五暗刻",
            "five concealed pungs",
            3,
            Q.concealed_triplets == 5,
            excludes=("four_concealed_pungs",),
            optional=True,
        ),
        Pattern("four_concealed_pungs", "四暗刻", "four concealed pungs", 2, Q.concealed_triplets == 4, optional=True),
        Pattern("four_identical_chows", "四连太宝", "four identical chows", 3, Q.same_chows >= 4, optional=True),
        Pattern("all_green", "绿一色", "all green", 3, all_tiles(kinds("23468s6z")), lazi=True, optional=True),
        Pattern("concealed_hand", "门清", "concealed hand", 1, (Q.exposed == 0) & ~flag("self_drawn"), optional=True),
        Pattern(
            "self_drawn_concealed",
            "不求人",
            "fully concealed self-drawn",
            1,
            (Q.exposed == 0) & flag("self_drawn"),
            optional=True,
        ),
        Pattern(
            "all_claimed",
            "全求人",
            "melded hand on a discard",
            1,
            (Q.exposed == 5) & win("single") & ~flag("self_drawn"),
            optional=True,
        ),
        Pattern(
            "half_claimed",
            "半求人",
            "melded hand self-drawn",
            1,
            (Q.exposed == 5) & win("single") & flag("self_drawn"),
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
            run("kongs", 5),
            excludes=("four_kong_run", "three_kong_run", "five_pung_run", "four_pung_run"),
            optional=True,
        ),
        Pattern(
            "four_kong_run",
            "四连杠",
            "four consecutive kongs",
            3,
            run("kongs", 4),
            excludes=("four_kongs", "three_kongs", "three_kong_run", "four_pung_run"),
            optional=True,
        ),
        Pattern(
            "three_kong_run",
            "三连杠",
            "three consecutive kongs",
            3,
            run("kongs", 3),
            excludes=("three_kongs",),
            optional=True,
        ),
        Pattern(
            "three_same_kongs",
            "三同杠",
            "three kongs of one rank",
            3,
            same_rank_kongs(),
            excludes=("three_kongs",),
            optional=True,
        ),
        Pattern(
            "five_pung_run",
            "五连刻",
            "five consecutive pungs",
            3,
            run("triplets", 5),
            excludes=("four_pung_run",),
            optional=True,
        ),
        Pattern("four_pung_run", "四连刻", "four consecutive pungs", 2, run("triplets", 4), optional=True),
        # 附一 I, J, K: "有此地方玩法算腊子" (some places count these as 腊子), which is all the
        # text gives them, so as options they are 腊子.
        Pattern(
            "red_peacock",
            "红孔雀",
            "red peacock (1 5 7 9 bamboo and red dragons)",
            3,
            all_tiles(kinds("1579s7z")),
            lazi=True,
            optional=True,
        ),
        Pattern(
            "dotted_red",
            "点点红",
            "dotted red (1 3 5 6 7 9 dots, a pair of red dragons)",
            3,
            red_pair & all_tiles(kinds("135679p7z")),
            lazi=True,
            optional=True,
        ),
        Pattern(
            "one_red",
            "红一点",
            "one red (2 3 4 6 8 bamboo, a pair of red dragons)",
            3,
            red_pair & all_tiles(kinds("23468s7z")),
            lazi=True,
            optional=True,
        ),
    ]
    chosen = set(options["optional"])
    keep = [
        p
        for p in rows
        if (not p.optional or p.id in chosen) and (p.id != "eight_pairs" or options["eight_pairs"] == "lazi")
    ]
    return tuple(keep)


def lazi_rule(pats: tuple[Pattern, ...]) -> Rule:
    """Whether a result is a 腊子: a 腊子 pattern counted, or "第一种是算出来的，三台满300胡" — a
    winner's 3 台 or more reaching the cap by the formula ("胡家三台满贯称为“腊子”")."""
    calculated = (Q.won == 1) & (Q.value >= 3) & (Q.total >= CAP)
    return any_of(*(pattern(p.id) for p in pats if p.lazi)) | calculated


def _home_wilds_all() -> Any:
    """Every 财神 stands for the 财神 kind (a rule comparing two quantities)."""
    # The wild kind's copies are at most four: spell "home_wilds == wild_tiles" out.
    rules = [(Q.wild_tiles == n) & (Q.home_wilds == n) for n in range(1, 5)]
    out = rules[0]
    for r in rules[1:]:
        out = out | r
    return out


#: The patterns with the default options and every optional one, by id.
PATTERNS: dict[str, Pattern] = {
    p.id: p for p in patterns({o.name: o.default for o in OPTIONS} | {"optional": _OPTIONAL})
}

#: What each situation key means in Longgang (the reference lists them with their types).
KEY_DOCS: dict[str, str] = {
    "hand": (
        "the hand without the winning tile (16 tiles; declared melds as ``[...]``, ``{....}``, "
        "``[....+]``, each counting 3), or a complete hand with ``win`` left out"
    ),
    "win": "the winning tile; absent for a player who did not win: the hand is then scored as a 陪家's own 胡数",
    "seat_wind": "the player's seat wind, ``E`` the dealer; it names the seat flower (坐花) and the seat wind's 字刻",
    "round_wind": "taken and checked, but 圈风 scores nothing in Longgang",
    "wilds": (
        'the 财神 kind (``"5m"``), or a flower (``"3f"``) when the indicator is a flower: then every '
        "flower held is a 财神"
    ),
    "flowers": 'the flower tiles held (``"13f"``); flowers may also be written in ``hand``',
    "heavenly": "天胡: the dealer's dealt hand is complete",
    "earthly": "地胡: a non-dealer wins on the dealer's first discard",
    "kong_replacement": "杠开: won on the tile drawn after a kong (a self-drawn win)",
    "robbing_kong": "抢杠: won on the tile another player added to a pung to make a kong (a discard win)",
    "wall_last": "海底: won on the last tile of the wall (a self-drawn win)",
}

KEYS = (
    HAND,
    WIN,
    FORMAT,
    flag_key("self_drawn"),
    SEAT_WIND_KEY,
    ROUND_WIND_KEY,
    key("wilds", "wilds"),
    key("flowers", "flowers"),
    flag_key("heavenly"),
    flag_key("earthly"),
    flag_key("kong_replacement"),
    flag_key("robbing_kong"),
    flag_key("wall_last"),
    EXPLAIN,
)


def scheme(options: Mapping[str, Any]) -> dict[str, Any]:
    """The scoring data for these options."""
    pats = patterns(options)
    big_or_small = ALL
    points = Points(
        groups=[
            ("暗杠", "concealed_kong", big_or_small, 16, 32, True, True),
            ("明杠", "exposed_kong", big_or_small, 8, 16, True, True),
            ("明刻", "exposed_pung", big_or_small, 2, 4, True, True),
            ("暗刻", "concealed_pung", big_or_small, 4, 8, True, True),
            # "雀头（将牌）：中，发，坐风对子的计２胡".
            ("对", "pair", kinds("67z") | SEAT_WIND, 2, 2, True, options["loser_pair_hu"]),
        ],
        extra=[
            # "单吊自摸的不计自摸2胡" unless the option says otherwise.
            (
                "自摸",
                flag("self_drawn") & (always() if options["single_wait_self_drawn_hu"] else ~win("single")),
                2,
                True,
                False,
            ),
            ("卡档", win("closed"), 2, True, False),
            *([("边张", win("edge"), 2, True, False)] if options["edge_wait_hu"] else []),
            ("花 x{n}", Q.guest_flowers.count, 4, True, True),
        ],
    )
    three_wilds = [p for p in ("three_wilds", "heavenly", "earthly") if any(q.id == p for q in pats)]
    return build(
        SPEC,
        keys=KEYS,
        patterns=pats,
        entry=lambda p: {"tai": p.value, "lazi": p.lazi},
        loser_entry=lambda p: {"value": p.loser_value, "tai": p.loser_value, "lazi": p.lazi},
        results=[
            ("role", "role"),
            ("face", "face"),
            ("base", "face_plus", BASE),
            ("tai", "value_or", 3),
            ("lazi", "rule", lazi_rule(pats)),
            ("follow", "follow", (list(FOLLOW[0]), 3)),
            ("instant", "instant"),
            ("patterns", "fans"),
            ("face_items", "face_items"),
            ("wait", "wait"),
            ("void_wilds", "void_wilds"),
        ],
        implies=[
            ("kong_replacement", "self_drawn", "杠开 is self-drawn (开杠...只计自摸2胡)"),
            ("wall_last", "self_drawn", "海底 is self-drawn (海底捞月按自摸算)"),
        ],
        refuse=[
            ((flag("heavenly") | flag("earthly")) & (Q.won == 0), "天胡 and 地胡 are wins: give the winning tile"),
            (flag("heavenly") & (Q.seat != 0), "天胡 is the dealer's (seat_wind E)"),
            (flag("earthly") & (Q.seat == 0), "地胡 is a win on the dealer's first discard: not the dealer's"),
            (flag("earthly") & flag("self_drawn"), "地胡 is won on a discard, not self-drawn"),
            (flag("robbing_kong") & flag("self_drawn"), "抢杠 is a win on another player's kong tile, not self-drawn"),
            # "天和：庄家起牌或者补完花（可暗杠）而胡牌", "地和：庄家出第一张牌被食胡".
            (
                (flag("heavenly") | flag("earthly")) & flag("robbing_kong"),
                "天胡 is won on the dealt hand and 地胡 on the dealer's first discard: no kong is robbed",
            ),
            (flag("heavenly") & flag("wall_last"), "天胡 is won on the dealt hand, the wall full: not 海底"),
        ],
        # 推土机: three 正财神 win at once, whatever the shape ("不必符合一般胡牌条件").
        fallbacks=[("three_wilds", Q.wild_tiles >= options["bulldozer_wilds"], three_wilds)],
        scoring=Scoring(
            total=("hu_tai", BASE, CAP, 10),
            rank=("total", "value", "face"),
            # Nothing a winner receives grows past 300 胡 and 3 台 (跟胡数 stops at 3 台).
            stop=(CAP, 3),
            exclusion_text="隐含不计 (implied)",
        ),
        points=points,
        unwon="loser",
        # A 陪家's 胡数 are its pungs' and pairs' (none negative) and its 台 grow with the
        # pungs and the 财神 used (两财神 from two, 字刻 a pung each): a pung or pair more
        # never scores less, so only the partial hands no group can be added to are scored.
        maximal_partials=True,
        incomplete="not a complete hand: five melds and a pair (or 八对半) are needed",
        seat_flower_wild=True,
        seat_flowers=("1f", "2f", "3f", "4f"),
        wild_kinds_in_melds=False,
        wild_name="财神",
        tiles_note=" (龙港麻将无白板: no white dragon)",
        max_wild_kinds=1,
        eight_pairs_name="eight_pairs",
    ) | {"forms": {"melds": SPEC.melds, **SPEC.forms, "eight_pairs_and_a_half": options["eight_pairs"] is not False}}


# ---------------------------------------------------------------------------------------
# Settlement (五、（四）): 10 胡 make a chip; the dealer's share is doubled.


_OUTCOME_KEYS = {"winner", "discarder", "liable", "total", "tai", "losers", "hands", "wilds", "broken_stake", "options"}


def _hu(value: Any, what: str) -> int:
    if not oc.is_int(value) or not 0 <= value <= CAP or value % 10:
        raise hand_error(f"{what} must be a multiple of 10 from 0 to {CAP} 胡, not {shown(value)}", key=what)
    return int(value)


def settle(ruleset: Ruleset, outcome: Mapping[str, Any]) -> list[int]:
    """Chips each seat receives (positive) or pays, seat 0 the dealer; they sum to zero.

    Args:
        outcome: ``winner`` (seat, or None for a drawn hand: all zero, and no key but
            ``options`` beside it), ``discarder``
            (seat or None; it changes nothing unless it is ``liable``), and either
            ``total`` (the winner's 总胡数) with ``tai`` (for 跟胡数) and ``losers`` (four
            胡数 by seat; the winner's, None or a 胡数, counts for nothing), or ``hands``: four situations by seat (the
            winner's with ``win``; a hand's seat wind is its seat's), evaluated here, with
            ``wilds`` and ``options`` shared: a hand that gives them too, or another seat
            wind, is refused, as is ``wilds`` without ``hands`` and ``total``, ``tai`` or
            ``losers`` with them. ``liable``: the discarder, when it pays the winner every
            share (包三家). A total needs its ``tai``, and is at least the winner's 20 胡
            doubled by each 台.
            ``broken_stake``: 跟胡数 of the parenthesised row (after a stake ran out).

    The dealer pays (or, winning, receives from each) 总胡数 x 2 + 跟胡数, the others 总胡数 +
    跟胡数; the losers settle the differences of their own 胡数 between them, doubled with the
    dealer. After 天胡, 地胡 and 三财神 the losers count 0.
    """
    outcome = oc.mapping(outcome, "outcome")
    oc.known_keys(outcome, _OUTCOME_KEYS, "outcome")
    given = outcome.get("options")
    ruleset.options(given)
    winner = oc.optional_seat(outcome, "winner")
    if winner is None:
        # "流局时各家均计 0 分": a drawn hand pays nothing, so a key that says otherwise is
        # refused rather than dropped.
        given = sorted(k for k, v in outcome.items() if v is not None and k not in ("winner", "options"))
        if given:
            raise hand_error(f"a drawn hand (winner None) pays nothing: {given[0]} is given", key=given[0])
        return [0, 0, 0, 0]
    discarder = oc.optional_seat(outcome, "discarder")
    liable = oc.optional_seat(outcome, "liable")
    if winner in (discarder, liable):
        key = "discarder" if winner == discarder else "liable"
        raise hand_error("the winner cannot be the discarder or the liable seat", key=key)
    # 包三家 (四） a-c) falls on the seat that discarded the 红中 or 青发 won on: "若打出红中或
    # 青发被别家胡牌，要包三家筹码".
    if liable is not None and liable != discarder:
        message = "the liable seat (包三家) is the seat whose discard was won on: give it as discarder too"
        raise hand_error(message, key="liable")
    if outcome.get("hands") is None and outcome.get("wilds") is not None:
        raise hand_error("wilds is read with hands (the hands' wild kind), not with a total", key="wilds")
    if outcome.get("hands") is not None:
        scored = sorted(k for k in ("total", "tai", "losers") if outcome.get(k) is not None)
        if scored:
            message = f"give hands (scored here) or total, tai and losers, not both: {', '.join(scored)}"
            raise hand_error(message, key=scored[0])
        hands = oc.items(outcome["hands"], "hands", "situations, by seat", 4)
        if len(hands) != 4 or not all(isinstance(h, Mapping) for h in hands):
            raise hand_error("hands must be four situations, by seat", key="hands")
        # A key given None is a key left out, in the outcome as in a hand.
        shared: dict[str, Any] = {k: outcome[k] for k in ("wilds",) if outcome.get(k) is not None}
        if given is not None:
            shared["options"] = given
        results = []
        for seat, h in enumerate(hands):
            # What the outcome gives every hand, or the seat gives, a hand may not give
            # otherwise: one of the two would be dropped.
            where = f"hands[{seat}]"
            twice = sorted(k for k in h if k in shared and h[k] is not None)
            if twice:
                message = f"{where} gives {twice[0]}, which the outcome gives for every hand"
                raise hand_error(message, key=f"{where}.{twice[0]}")
            if h.get("seat_wind") is not None and oc.seat(h["seat_wind"], f"{where}.seat_wind") != seat:
                message = f"{where}.seat_wind is not seat {seat}'s wind {oc.WINDS[seat]}"
                raise hand_error(message, key=f"{where}.seat_wind")
            sit = {**h, "seat_wind": oc.WINDS[seat], **shared}
            if (seat == winner) != (sit.get("win") is not None):
                raise hand_error(f"seat {seat}: only the winner's hand has a winning tile", key=f"{where}.win")
            try:
                results.append(ruleset.evaluate(**sit))
            except HandError as e:
                # Named as the outcome gives it: the hand's key within its seat's hand.
                raise hand_error(f"{where}: {e}", key=where if e.key is None else f"{where}.{e.key}") from None
        w = results[winner]
        if not w["win"]:
            raise hand_error(f"the winner's hand is not a win: {w['reason']}", key=f"hands[{winner}]")
        # 杠开 and 海底 are self-drawn too ("开杠...只计自摸2胡", "海底捞月按自摸算").
        own = hands[winner]
        # The flags were read by `evaluate`: True or False, Python's or numpy's.
        if discarder is not None and any(own.get(k) for k in ("self_drawn", "kong_replacement", "wall_last")):
            raise hand_error("the winner's hand is self-drawn: no seat discarded its winning tile", key="discarder")
        total, tai = w["total"], w["tai"]
        losers = [0 if w["instant"] else r["total"] for r in results]
    else:
        total = _hu(outcome.get("total"), "total")
        # 跟胡数 follows the 台: left out, it would be paid as 0 台.
        if outcome.get("tai") is None:
            raise hand_error("a win needs its tai (台, for 跟胡数) beside its total", key="tai")
        tai = oc.count(outcome["tai"], "tai", 0, 64)
        # A winner has at least the 20 胡 of 基础胡数, doubled by each 台 ("胡家三台最少是160胡").
        least = hand_total(0, tai)
        if total < least:
            message = f"a winner with {tai} 台 has at least {least} 胡, not {total}"
            raise hand_error(message, key="total")
        raw = [0, 0, 0, 0] if outcome.get("losers") is None else oc.items(outcome["losers"], "losers", "胡数", 4)
        if len(raw) != 4:
            raise hand_error("losers must be four 胡数, by seat", key="losers")
        # The winner's entry counts for nothing, but it is read as the others are (or
        # left None): a value of the wrong kind there is a mistake, not a blank.
        losers = [_hu(v, f"losers[{s}]") if v is not None or s != winner else 0 for s, v in enumerate(raw)]
        losers[winner] = 0
    follow = follow_hu(tai, oc.flag(oc.get(outcome, "broken_stake", False), "broken_stake"))
    hu = [0, 0, 0, 0]
    for s in range(4):
        if s == winner:
            continue
        share = total * (2 if 0 in (s, winner) else 1) + follow
        payer = liable if liable is not None else s
        hu[payer] -= share
        hu[winner] += share
    others = [s for s in range(4) if s != winner]
    for i, a in enumerate(others):
        for b in others[i + 1 :]:
            diff = (losers[a] - losers[b]) * (2 if 0 in (a, b) else 1)
            hu[a] += diff
            hu[b] -= diff
    return [h // HU_PER_CHIP for h in hu]


def _reckoned(r: Mapping[str, Any], winner: bool) -> str:
    """The product of the face and the 台 as ``hand_total`` reckons it, and the total it
    gives where that differs: "136, rounded up to 140" ("如38胡算40胡"), "480, at most 300"."""
    hu = (r["face"] + BASE if winner else r["face"]) * 2 ** min(r["tai"], 16)
    if r["total"] == hu:
        return str(hu)
    if round_up(hu) > CAP:
        return f"{hu}, at most {r['total']}"
    return f"{hu}, rounded up to {r['total']}"


def describe(result: dict[str, Any], situation: dict[str, Any]) -> str:
    """The readable form ``haidi eval --rules longgang`` prints."""
    head = f"{situation.get('hand')}" + (f" + {situation['win']}" if situation.get("win") else "")
    r = result
    if r["role"] == "loser":
        lines = [f"{head}: 陪家 (did not win), {r['face']} 胡 x 2^{r['tai']} = {_reckoned(r, False)} 胡"]
    elif not r["win"]:
        return f"{head}: no win ({r['reason']})"
    else:
        # A 腊子 pattern makes the total 300; a 3-台 hand reaching it is a 腊子 by the formula.
        limit = any(p["lazi"] for p in r["patterns"])
        how = "腊子 300 胡" if limit else f"({r['face']} + 20) x 2^{r['tai']} = {_reckoned(r, True)} 胡"
        how += " (腊子)" if r["lazi"] and not limit else ""
        lines = [f"{head}: win, {r['face']} 胡 face, {r['tai']} 台, total {how}; 跟胡数 {r['follow']}"]
        lines.append(f"  {r['form']}: {r['arrangement']}")
    for it in r["face_items"]:
        lines.append(f"  {it['hu']:3d} 胡  {it['name']}")
    for p in r["patterns"]:
        count = f" x{p['count']}" if p["count"] > 1 else ""
        tai = "腊子" if p["lazi"] else f"{p['tai'] * p['count']} 台"
        lines.append(f"  {tai:>5}  {p['name']}  {p['name_en']}{count}")
    for e in r.get("excluded", []):
        lines.append(f"  not counted: {e['name']} (implied by {e['by']})")
    return "\n".join(lines)


#: Flow rules in play (docs/game.md has each with its line and the readings chosen).
GAME = GameRules(
    wild="turned",
    seat_flower_wild=True,
    wilds_kept=True,
    passed_win=True,
    kept=20,
    kept_stacks=True,
    split=4,
    instant_wilds=3,
    claim_bars=True,
    heavenly_kongs=True,
    fourth_tile_kept=True,
    concealed_kong_shown=True,
    not_modelled=(
        "诈胡 and 相公 penalties",
        "concealed kongs declared in turn, East to North, right after the deal (made at the seat's own turn)",
        "five players with a substitute (替补)",
        "the local 流局 of other places (四同风, 四杠, 三炮同响)",
    ),
    sources={
        "wild": "翻开总和数的最后一对的内侧牌，此为财神牌，胡牌时可以替代任何牌",
        "seat_flower_wild": "坐花可当财神用",
        "wilds_kept": "财神及坐花在行牌程中不能打出",
        "passed_win": "漏胡：如果玩家漏掉了炮胡，另一家已摸牌，则此时玩家禁止胡牌，摸牌后一切正常。",
        "kept": "王牌一般不能摸",
        "kept_stacks": "牌墙最后只剩下１０幢（尾张除财神牌外无单张）或１０幢半（尾张除财神牌外有单张）称王牌或铁十墩",
        "split": "如果牌墙最后只剩下王牌和海底牌时还没有人胡牌，则开始分底牌，每人一张按摸牌顺序摸一张",
        "instant_wilds": "凡手牌中含用三个正财神即可马上胡牌，抓16张牌时如有三财神亦可胡牌",
        "claim_bars": (
            "d 过水碰牌.吃牌禁止：过水碰牌例如下家舍出8万你不碰 对家再舍出8万你不能碰 除非已经摸过1巡 不然禁止"
        ),
        "claim_bars_chow": (
            "f 吃牌或碰牌之後不得接着开杠；.吃入牌时不得打出同牌；打出牌後不得於同巡吃入同牌；碰牌时不得打出同牌。"
        ),
        "heavenly_kongs": "天和：庄家起牌或者补完花（可暗杠）而胡牌",
        "fourth_tile_kept": "有小明杠若不补杠，则不能打出这张牌",
        "concealed_kong_shown": "抓在手中四张相同的牌可以暗杠，需要三张暗放一张明放立牌前",
        "liable": "若打出红中或青发被别家胡牌，要包三家筹码。陪家间另算。",
        "next_carry": "庄家只有胡牌才能连庄，流局或闲家胡牌，轮庄（下家坐庄）",
        "round_wind": "第一圈是东方圈、第二圈是西风圈、接着是南方圈北风圈",
    },
)

#: The order of the rounds (圈): "第一圈是东方圈、第二圈是西风圈、接着是南方圈北风圈".
ROUND_ORDER = "EWSN"


def next_carry(carry: Mapping[str, Any], record: Mapping[str, Any]) -> dict[str, Any]:
    """ "庄家只有胡牌才能连庄，流局或闲家胡牌，轮庄（下家坐庄）": the dealer keeps the deal only by
    winning; the rounds go East, West, South, North (``ROUND_ORDER``)."""
    kept = any(w["seat"] == 0 for w in record["wins"])
    return _carry.passed(carry, 0 if kept else 1, ROUND_ORDER)


#: 四）a-c: "行牌至最后阶段（分张前几张）", read as the last go-round before 分张: at most
#: eight tiles left to draw (the four 海底牌 and four more) when the tile is discarded.
LAST_STAGE = 8


def liable_seat(record: Mapping[str, Any], wilds: str | None) -> int | None:
    """包三家 (四）a, c): the discarder of a 中 or 发 won on in the last stage, when it
    should have discarded another first. a: "红中青发等未碰过，若手中有单张坐风牌，红中，青发，
    要先打坐风，若打出红中或青发被别家胡牌，要包三家筹码" (no pung of 中 or 发 made, a single
    坐风 held); c: "前面已有人打过红中，发财没出，自已手中有红中，青发，此时要先打红中，如打青发被别家胡牌，
    要包三家筹码" (a 中 out and no 发, a 中 held, the 发 discarded)."""
    rows = record["discard_order"]
    if not rows or rows[-1][2] != "won" or record["left"] > LAST_STAGE:
        return None
    discarder, tile = rows[-1][0], rows[-1][1]
    if tile not in ("6z", "7z"):
        return None
    held = Hand(record["hands"][discarder]).counts
    names = tile_names()
    dragons_melded = any(m["tile"] in ("6z", "7z") for m in record["melds"] if m["meld"] != "chow")
    own_wind = f"{discarder + 1}z"  # 坐风, the seat's wind; not when it is the 财神
    if not dragons_melded and own_wind != wilds and held[names.index(own_wind)] == 1:
        return int(discarder)
    before = [r[1] for r in rows[:-1]]
    if tile == "6z" and "7z" in before and "6z" not in before and held[names.index("7z")] > 0:
        return int(discarder)
    return None


def game_outcome(record: Mapping[str, Any], wins: list[dict[str, Any]], options: Any) -> dict[str, Any] | None:
    """The ``settle`` record of a hand played by ``haidi.Game``: the winner's situation and
    the hands of the others, whose own 胡数 ``settle`` scores ("其他家的分数：胡数少的玩家要支付
    胡数多的玩家总胡数的差价"); None for a drawn hand ("流局时各家均计 0 分")."""
    if not wins:
        return None
    winner = wins[0]["seat"]
    own = {k: v for k, v in wins[0]["situation"].items() if k not in ("options", "wilds")}
    hands = [own if s == winner else {"hand": record["hands"][s], "seat_wind": oc.WINDS[s]} for s in range(4)]
    wilds = wins[0]["situation"].get("wilds")
    liable = liable_seat(record, wilds)
    return {
        "winner": winner,
        "discarder": record["wins"][0]["discarder"],
        **({"liable": liable} if liable is not None else {}),
        "hands": hands,
        **({"wilds": wilds} if wilds else {}),
        **({"options": options} if options else {}),
    }
