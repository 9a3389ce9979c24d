"""Beijing (北京麻将): 136 tiles, 惠牌 wilds, additive 番 times a base, 烧庄 and 互包.

The default is the seed's 网狐 description (北京麻将规则 1.1-1.9, with 实例1 and 实例2);
the option ``variant="draft4"`` (also a situation key) scores the house rule
麻将规则（第4稿） instead (2^番, capped).

Situation keys (keywords of ``evaluate``): ``KEY_DOCS`` below, listed with their types
in ``help(haidi.ruleset("beijing").evaluate)`` and in docs/reference/beijing.md. The
result keys are those of ``haidi.results.BeijingResult``: ``total`` is the 和牌牌型番数
with 庄. Money comes from ``settle``.

Readings of the jumbled text: docs/beijing.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .._errors import hand_error, shown
from . import _carry
from . import _outcome as oc
from ._scheme import (
    EXPLAIN,
    FORMAT,
    HAND,
    ROUND_WIND_KEY,
    SEAT_WIND_KEY,
    WIN,
    Option,
    Pattern,
    Q,
    always,
    build,
    flag,
    flag_key,
    form,
    key,
    kinds,
    none_of,
    only_wait,
    pattern,
    straight,
    suits,
    win,
)
from ._spec import ALL_TILES, GameRules, RulesetSpec

if TYPE_CHECKING:
    from ..ruleset import Ruleset

SPEC = RulesetSpec(
    name="beijing",
    title="Beijing (北京麻将)",
    melds=4,
    tiles=ALL_TILES,
    forms=dict(
        seven_pairs=True,
        four_as_two_pairs=True,  # 豪华七对子
    ),
    has_wilds=True,
    source="seed 004, the Beijing descriptions",
)

VARIANTS = ("wanghu", "draft4")

#: The options (docs/beijing.md has the table).
OPTIONS: tuple[Option, ...] = (
    Option(
        "variant", "wanghu", "wanghu: the 网狐 description; draft4: 麻将规则（第4稿）", choices=VARIANTS, acts="both"
    ),
    Option("base", 1, "底分: what one 番 is worth", low=1, high=10**9, only_with=("variant", "wanghu")),
    Option(
        "half_flush",
        "bonus",
        "第4稿's 混一色: a 加番 that makes the hand no 推倒和 (bonus), or, as the 推倒和 line does not"
        " list it, a 番 beside 推倒和 as 门清 is (plain: the hand wins only self-drawn)",
        choices=("bonus", "plain"),
        acts="evaluate",
        only_with=("variant", "draft4"),
    ),
)
#: Options that may also be given as situation (and outcome) keys.
OPTION_KEYS = ("variant",)

_FLAGS = ("self_drawn", "wall_last", "kong_replacement", "robbing_kong", "heavenly", "earthly")
#: "只要和牌时不是对对和，大钓，捉五魁，海底捞月，一条龙，七对子，杠上开花，清一色，豪华七对子，四惠牌，天和，
#: 地和这些加番牌型，就视作推倒和" (网狐). 第4稿's line lists the first nine; its 混一色 ("加1番")
#: is read as one more (the option ``half_flush="plain"`` reads the list as it stands).
_BONUS = (
    "all_pungs",
    "big_single",
    "catch_five_wan",
    "last_tile",
    "straight",
    "seven_pairs",
    "luxury_seven_pairs",
    "kong_flower",
    "one_suit",
    "heavenly",
    "earthly",
    "four_wilds",
    "half_flush",
)


def patterns(variant: str, half_flush: str = "bonus") -> tuple[Pattern, ...]:
    """The 番 table of the variant, in the order results list them (推倒和 first);
    ``half_flush``: the option of that name (第4稿 only)."""
    draft4 = variant == "draft4"

    def v(wanghu: int | None, draft: int | None) -> int | None:
        return draft if draft4 else wanghu

    # 网狐: "门清：没有吃碰明杠过的牌型且手中没有惠牌"; 第4稿: "暗杠算门清", wilds not mentioned.
    concealed = Q.exposed == 0 if draft4 else (Q.exposed == 0) & (Q.wild_tiles == 0)
    rows = [
        # Its rule names the 加番 patterns of the variant, below.
        ("pushed_down", "推倒和", "plain win", v(1, 0), always(), ()),
        ("concealed", "门清", "concealed hand, no wild", v(1, 1), concealed, ()),
        ("all_pungs", "对对和", "all pungs", v(2, 1), form("standard") & (Q.chows == 0), ()),
        # "大钓：吃碰12张牌，只剩一张单钓和牌": four melds claimed (吃碰; a concealed kong is not),
        # the win pairs the last tile.
        ("big_single", "大钓", "four claimed melds and a single wait", v(2, 1), (Q.exposed == 4) & win("single"), ()),
        # "捉五魁：和牌时只和嵌单“五万”一张牌的牌型": the hand waited on 5m alone, between 4m and 6m.
        (
            "catch_five_wan",
            "捉五魁",
            "closed wait on 5m, the only wait",
            v(2, 1),
            win("closed", kinds=kinds("5m")) & only_wait(kinds("5m")),
            (),
        ),
        ("last_tile", "海底捞月", "last tile", v(2, 1), flag("wall_last"), ()),
        ("straight", "一条龙", "straight 1-9", v(3, 3), straight(suits("mps")), ()),
        ("seven_pairs", "七对子", "seven pairs", v(4, 4), form("seven_pairs"), ()),
        # "“豪华七对子”不计“七对子”" (网狐); 第4稿 "在7对基础上加1番" keeps 七对.
        (
            "luxury_seven_pairs",
            "豪华七对子",
            "seven pairs with four of a kind",
            v(8, 1),
            form("seven_pairs") & (Q.doubled_pairs >= 1),
            () if draft4 else ("seven_pairs",),
        ),
        ("kong_flower", "杠上开花", "win on a kong replacement", v(5, 1), flag("kong_replacement"), ()),
        ("one_suit", "清一色", "one suit", v(6, 5), (Q.suits == 1) & (Q.honours == 0), ()),
        ("heavenly", "天和", "heavenly hand", v(10, None), flag("heavenly"), ("dealer",)),
        ("earthly", "地和", "earthly hand", v(8, None), flag("earthly"), ()),
        ("four_wilds", "四惠牌", "four wilds", v(8, None), (Q.wild_tiles >= 4) & (Q.wild_kinds == 1), ()),
        ("half_flush", "混一色", "one suit and honours", v(None, 1), (Q.suits == 1) & (Q.honours == 1), ()),
        # "庄：庄家和牌或放铳时计此番型" ... "闲家自摸不计此番型".
        ("dealer", "庄", "dealer", v(1, None), (Q.seat == 0) | (Q.discarder == 0), ()),
    ]
    present = {r[0] for r in rows if r[3] is not None}
    bonus = [b for b in _BONUS if b in present and (b != "half_flush" or half_flush == "bonus")]
    return tuple(
        Pattern(pid, name, en, value, none_of(*bonus) if pid == "pushed_down" else rule, excludes=ex)
        for pid, name, en, value, rule, ex in rows
        if value is not None
    )


#: The 番 of the 网狐 description, with their values.
PATTERNS = patterns("wanghu")

#: What each situation key means in Beijing (the reference lists them with their types).
KEY_DOCS: dict[str, str] = {
    "hand": "the hand without the winning tile (13 tiles; declared melds in brackets, each counting 3)",
    "wall_last": "海底捞月: won on the last tile, self-drawn or on the last discard",
    "kong_replacement": "杠上开花: won on the tile drawn after a kong (a self-drawn win)",
    "robbing_kong": "抢杠: won on the tile another player added to a pung to make a kong",
    "heavenly": "天和: the dealer's dealt hand is complete (a self-drawn win)",
    "earthly": "地和: a non-dealer complete before making any discard",
    "wilds": "the 惠牌 kinds; not with ``indicator``",
    "indicator": "the 惠坯 turned up: the 惠牌 is the next kind (dragons 中→发→白→中); not with ``wilds``",
    "seat_wind": "the winner's seat wind, ``E`` the dealer (the default)",
    "round_wind": "taken and checked, but it scores nothing in Beijing",
    "discarder_wind": "the seat wind of the player who dealt in; ``E`` scores 庄",
}

KEYS = (
    HAND,
    WIN,
    FORMAT,
    EXPLAIN,
    *(flag_key(f) for f in _FLAGS),
    key("wilds", "wilds"),
    key("indicator", "indicator"),
    SEAT_WIND_KEY,
    ROUND_WIND_KEY,
    key("discarder_wind", "discarder_wind"),
)


def scheme(options: Mapping[str, Any]) -> dict[str, Any]:
    """The scoring data of the variant the options name."""
    variant = options["variant"]
    wanghu = variant == "wanghu"
    table = patterns(variant, options["half_flush"])
    no_win = [
        (
            ~flag("self_drawn") & (Q.exposed > 0),
            "吃碰明杠后只能自摸 (after a chow, pung or exposed kong only self-drawn)",
        )
    ]
    if wanghu:
        no_win.append(
            (~flag("self_drawn") & (Q.wild_tiles >= 3), "三个惠牌在手必须自摸 (three wilds held: only self-drawn)")
        )
    else:
        no_win.append(
            (~flag("self_drawn") & pattern("pushed_down"), "第4稿: 推倒和只能自摸才能赢 (a plain win only self-drawn)")
        )
    four_wilds = [
        p.id for p in table if p.id in ("last_tile", "kong_flower", "heavenly", "earthly", "four_wilds", "dealer")
    ]
    return build(
        SPEC,
        keys=KEYS,
        patterns=table,
        results=[("wilds", "wild_kinds"), ("variant", "const", variant)],
        implies=[
            ("kong_replacement", "self_drawn", "杠上开花 is self-drawn"),
            ("heavenly", "self_drawn", "天和 is the dealer's, self-drawn"),
        ],
        refuse=[
            ((Q.discarder != 4) & flag("self_drawn"), "discarder_wind names who dealt in: only for a win on a discard"),
            (flag("robbing_kong") & flag("self_drawn"), "robbing a kong is a win on another's tile, not self-drawn"),
            (flag("heavenly") & (Q.seat != 0), "天和 is the dealer's, self-drawn"),
            (flag("earthly") & (Q.seat == 0), "地和 is a non-dealer's"),
            # Beijing plays no flowers: the only replacement tile is a kong's, from the 保留牌
            # ("如果牌局中有人杠牌，则从“保留牌”的最后一张补牌").
            (
                flag("kong_replacement") & (Q.kongs == 0),
                "kong_replacement (杠上开花) needs a kong among the hand's melds",
            ),
            # "在一局还没有出过牌的时候构成可和牌牌型": before the player's first discard.
            (
                flag("wall_last") & (flag("heavenly") | flag("earthly")),
                "wall_last (海底) with heavenly (天和) or earthly (地和): those are won before a first discard",
            ),
        ],
        no_win=no_win,
        # "摸齐四个“惠牌”时自动和牌": four 惠牌 win whatever the shape.
        fallbacks=[("four_wilds", (Q.wild_tiles >= 4) & (Q.wild_kinds == 1), four_wilds)] if wanghu else [],
        wild_name="惠牌",
        max_wild_kinds=2,
    )


def describe(result: Mapping[str, Any], situation: Mapping[str, Any]) -> str:
    """The readable form ``haidi eval --rules beijing`` prints."""
    head = f"{situation.get('hand')} + {situation.get('win')}"
    if not result["win"]:
        return f"{head}: no win ({result['reason']})"
    lines = [f"{head}: win, {result['total']} 番 ({result['variant']})"]
    if result["wilds"]:
        lines.append(f"  惠牌: {' '.join(result['wilds'])}")
    lines.append(f"  {result['form']}: {result['arrangement']}")
    for f in result["fans"]:
        lines.append(f"  {f['name']}  {f['name_en']}  {f['value']} 番")
    return "\n".join(lines)


def kept_stacks(kongs: int) -> int:
    """墩 left unplayed at the end (荒牌): "执行1个杠留7砘，2个杠留8砘" (第4稿: 一杠7，二杠8，三杠9)."""
    return 7 + max(0, oc.count(kongs, "kongs", 0, 16) - 1)


def _mutual(outcome: Mapping[str, Any]) -> list[tuple[int, int]]:
    pairs = oc.items(outcome.get("mutual"), "mutual", "pairs of seats", 6)
    out = []
    for p in pairs:
        # A pair is a list, a tuple or a one-dimensional array of two seats.
        pair = p.tolist() if isinstance(p, np.ndarray) and p.ndim == 1 else p
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise hand_error(f"mutual lists pairs of seats, not {shown(p)}", key="mutual")
        a, b = (oc.seat(x, "mutual") for x in pair)
        if a == b:
            raise hand_error("互包 joins two different seats", key="mutual")
        if (a, b) in out or (b, a) in out:
            raise hand_error(f"the 互包 pair {a}, {b} is given twice (it would be paid twice)", key="mutual")
        out.append((a, b))
    return out


_OUTCOME_KEYS = {
    "winner",
    "discarder",
    "total",
    "burn_rounds",
    "mutual",
    "exhausted",
    "base",
    "variant",
    "floor",
    "follow_dealer",
    "concealed_kongs",
    "exposed_kongs_from",
    "options",
}


#: The outcome keys only one variant reads (``base`` as an option too): 第4稿 has no 烧庄
#: or 互包 and pays fixed units; the 网狐 description has no 上楼, 跟庄 or kong payments.
_VARIANT_KEYS = {
    "wanghu": {"burn_rounds", "mutual", "base"},
    "draft4": {"floor", "follow_dealer", "concealed_kongs", "exposed_kongs_from"},
}


def settle(ruleset: Ruleset, outcome: Mapping[str, Any]) -> list[int]:
    """Payments of one hand.

    Args:
        outcome: ``winner`` (seat, or None on 荒牌), ``discarder`` (seat, or None:
            self-drawn), ``total`` (和牌牌型番数 from ``evaluate``, needed with a winner: at least 1 under
            ``wanghu``), ``burn_rounds`` (烧庄
            rounds), ``mutual`` (互包 pairs of seats), ``exhausted`` (荒牌), ``base`` (底分;
            the option ``base``, 1), ``variant`` (or the option), ``options``; for
            ``draft4`` also ``floor`` (上楼 0-2), ``follow_dealer`` (跟庄),
            ``concealed_kongs`` (the winner's) and ``exposed_kongs_from`` (who fed the
            winner's exposed kongs). Seats 0-3, seat 0 the dealer. A key the other
            variant reads (``floor`` under the default, ``burn_rounds`` or ``base`` under
            ``draft4`` ...) is refused, as it would change nothing; so is an option given
            both as a key and in ``options``.

    Returns:
        Four amounts by seat, positive for what a seat receives; they sum to zero.
    """
    outcome = oc.mapping(outcome, "outcome")
    oc.known_keys(outcome, _OUTCOME_KEYS, "outcome")
    given = oc.options(outcome, ("variant", "base"))
    opt = ruleset.options(given)
    variant = opt["variant"]
    # A key the other variant reads would be ignored here: refused, as a misspelt key is.
    for k in sorted(_VARIANT_KEYS.keys() - {variant}):
        for name in sorted(_VARIANT_KEYS[k]):
            if outcome.get(name) is not None or given.get(name) is not None:
                raise hand_error(f"{name} is read under variant={shown(k)} only, not {shown(variant)}", key=name)
    winner = oc.optional_seat(outcome, "winner")
    discarder = oc.optional_seat(outcome, "discarder")
    if winner is not None and discarder == winner:
        raise hand_error("the winner cannot be the discarder", key="discarder")
    if winner is None and discarder is not None:
        raise hand_error("a hand without a winner has no discarder", key="discarder")
    exhausted = oc.flag(oc.get(outcome, "exhausted", False), "exhausted")
    if exhausted and winner is not None:
        raise hand_error("an exhausted wall (荒牌) has no winner: give winner None", key="exhausted")
    exhausted = exhausted or winner is None
    base = opt["base"]
    if exhausted:
        if outcome.get("total") is not None:
            oc.count(outcome["total"], "total", 0, 200)
            raise hand_error("a hand without a winner has no total", key="total")
        total = 0
    else:
        # A total left out would pay nothing: refused, not read as 0. Under the 网狐
        # description every win scores at least 推倒和's 1 番 ("就视作推倒和。（1番）").
        least = 1 if variant == "wanghu" else 0
        if outcome.get("total") is None:
            raise hand_error("a win needs its total (番, from evaluate)", key="total")
        total = oc.count(outcome["total"], "total", least, 200)
    pay = [0, 0, 0, 0]

    def transfer(frm: int, to: int, amount: int) -> None:
        pay[frm] -= amount
        pay[to] += amount

    if variant == "draft4":
        return _settle_draft4(outcome, winner, discarder, exhausted, total, pay, transfer)
    mutual = _mutual(outcome)
    rounds = oc.count(oc.get(outcome, "burn_rounds", 0), "burn_rounds", 0, 30)
    # "荒了，则无须支付烧庄点": an exhausted wall pays nothing.
    if exhausted:
        return pay
    assert winner is not None
    # 1.9.2: self-drawn: 牌型番数 * 3 to the winner, * (-1) from each other; on a discard
    # * 1 from the discarder. 互包: the partner pays all of it; two partners pay one share each.
    share = total * (3 if discarder is None else 1) * base
    partners = [b if a == winner else a for a, b in mutual if winner in (a, b)]
    if partners:
        for p in partners:
            transfer(p, winner, share)
    elif discarder is None:
        for s in range(4):
            if s != winner:
                transfer(s, winner, total * base)
    else:
        transfer(discarder, winner, share)
    if rounds:
        # "庄家：2^(烧庄轮数－1)＊（－3）  闲家：2^(烧庄轮数－1)".
        for s in (1, 2, 3):
            transfer(0, s, 2 ** (rounds - 1) * base)
    return pay


#: 第4稿 units: "平点:20 庄点:30 点庄:40 平摸:40,其中庄20,平10 庄摸:60,各家20".
_DRAFT4_CAP = 640  # "每盘最高番数不超过6番,也就是每人最多输640"


def _settle_draft4(outcome, winner, discarder, exhausted, total, pay, transfer) -> list[int]:  # type: ignore[no-untyped-def]
    floor = oc.count(oc.get(outcome, "floor", 0), "floor", 0, 2)
    if oc.flag(oc.get(outcome, "follow_dealer", False), "follow_dealer"):
        for s in (1, 2, 3):
            transfer(0, s, 10)  # "跟庄,庄家付给每家10元"
    if exhausted:
        # "不赢没钱": the kongs are the winner's, and there is none.
        for k in ("concealed_kongs", "exposed_kongs_from"):
            if outcome.get(k) is not None:
                raise hand_error(f"{k} counts the winner's kongs: a hand without a winner has none", key=k)
        return pay
    fan = 2 ** min(total, 6)

    def amount(unit: int) -> int:
        return min(unit * fan, _DRAFT4_CAP) * 2**floor

    if discarder is None:
        for s in range(4):
            if s != winner:
                transfer(s, winner, amount(20 if 0 in (s, winner) else 10))
    else:
        unit = 30 if winner == 0 else 40 if discarder == 0 else 20
        transfer(discarder, winner, amount(unit))  # "谁点炮，谁包庄"
    # "明杠10元，不赢没钱，赢了谁打谁付；暗杠20，不赢没钱，赢了每家都付20。杠不上楼。"
    concealed = oc.count(oc.get(outcome, "concealed_kongs", 0), "concealed_kongs", 0, 4)
    for _ in range(concealed):
        for s in range(4):
            if s != winner:
                transfer(s, winner, 20)
    feeders = oc.seats(outcome.get("exposed_kongs_from"), "exposed_kongs_from")
    if len(feeders) + concealed > 4:
        message = f"{concealed} concealed kongs and {len(feeders)} exposed: a player has at most four kongs"
        raise hand_error(message, key="exposed_kongs_from")
    for f in feeders:
        if f == winner:
            raise hand_error("an exposed kong is fed by another seat", key="exposed_kongs_from")
        transfer(f, winner, 10)
    return pay


#: Flow rules in play (docs/game.md): the 惠牌 from the indicator; the others the common rule.
GAME = GameRules(
    wild="indicator",
    kept=14,
    kept_per_kong=2,
    haidi=True,
    haidi_roams=False,
    last_discard_drawn=True,
    instant_wilds=4,
    earthly_before_own_discard=True,
    rob_concealed_kong="straight",
    concealed_kong_shown=True,
    follow_wind=True,
    carry={"floor": 2},
    # 第4稿 has no 烧庄, whose rules bind the seats to follow a wind; its 跟庄 makes the
    # dealer pay a follow, which no seat is bound to make.
    variants={"draft4": {"follow_wind": False}},
    not_modelled=(
        "只能吃牌或者碰牌一次 (one chow or pung a hand), against 互包's three",
        "保留牌 one fewer after each replacement, against 1个杠留7砘",
        "三家杠荒牌 (第4稿)",
        "under draft4, the kongs paid to the winner: 明杠10元 ... 赢了谁打谁付, 暗杠20 ... 赢了每家都付20 "
        "(settle's concealed_kongs and exposed_kongs_from)",
    ),
    sources={
        "wild": "the 惠坯 turned up: the 惠牌 is the next kind",
        "kept": "所有的牌只抓到倒数第7砘牌为结束。执行1个杠留7砘",
        "kept_per_kong": "2个杠留8砘牌的规定",
        "haidi": "海底捞月的这张牌抓到后如果不和，必须打出去，不得换其他牌打出（可以选择放弃抓“海底牌”）",
        "instant_wilds": "摸齐四个“惠牌”时自动和牌",
        "earthly_before_own_discard": "闲家在一局还没有出过牌的时候构成可和牌牌型时称“地和”（8番）",
        "rob_concealed_kong": "“一条龙”的“龙身”可以抢其他选手的“暗杠”胡牌，算作自摸胡牌",
        "concealed_kong_shown": "“一条龙”的“龙身”可以抢其他选手的“暗杠”胡牌",
        "follow_wind": "南家如果有这张牌则必须打同样的牌，西家和北家的规则也一样如此",
        "next_carry": (
            "游戏开始时由东家做庄，然后依次轮到南家，西家，北家，东家,如果轮到庄家和牌（或荒牌），则庄家可以连庄，"
            "连庄的次数没有限制，当闲家和牌时，再继续按原顺序进行轮庄。"
        ),
        "floor": "3、上楼。庄家连庄或荒牌，上楼，仅有2层。",
    },
)


def next_carry(carry: Mapping[str, Any], record: Mapping[str, Any]) -> dict[str, Any]:
    """The common rule, the seed's ("如果轮到庄家和牌（或荒牌），则庄家可以连庄 ... 当闲家和牌时，再继续按
    原顺序进行轮庄"), and 上楼 for ``draft4`` ("庄家连庄或荒牌，上楼，仅有2层"): a floor up each
    hand the dealer keeps, back to the ground floor with a new dealer."""
    kept = _carry.dealer_kept(record)
    return _carry.passed(carry, 0 if kept else 1, floor=min(carry["floor"] + 1, 2) if kept else 0)


def game_outcome(record: Mapping[str, Any], wins: list[dict[str, Any]], options: Any) -> dict[str, Any] | None:
    """The ``settle`` record of a hand played by ``haidi.Game``: the winner and the total;
    烧庄 rounds ("烧庄指每局牌庄家打出第一张牌后，其余3家的选手也打出同样一张牌的话") and 互包 pairs
    ("互包指如果一家从另一家的那里吃+碰到3嘴以后") from the discards and claims; under
    ``variant="draft4"`` 跟庄 instead ("跟庄,庄家付给每家10元"), paid on an exhausted wall too."""
    rounds = oc.followed_rounds(record["discard_order"])
    draft4 = (options or {}).get("variant") == "draft4"
    given = {"options": options} if options else {}
    if not wins:
        return {"winner": None, "exhausted": True, "follow_dealer": True, **given} if draft4 and rounds else None
    out = {
        "winner": wins[0]["seat"],
        "discarder": record["wins"][0]["discarder"],
        "total": wins[0]["score"]["total"],
        **given,
    }
    if draft4:
        return out | {"follow_dealer": rounds > 0, "floor": record["carry"]["floor"]}
    return out | {"burn_rounds": rounds, "mutual": oc.mutual_pairs(record["melds"])}
