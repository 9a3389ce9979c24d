"""Beijing (北京麻将): 136 tiles, 惠牌 wilds, additive 番 times a base, 烧庄 and 互包.

The default is the seed's 网狐 description (北京麻将规则 1.1-1.9, with 实例1 and 实例2);
``variant="draft4"`` scores the house rule 麻将规则（第4稿） instead (2^番, capped).

Situation keys (keywords of ``evaluate``): ``hand`` (without the winning tile), ``win``,
``self_drawn``, ``wilds`` (the 惠牌 kinds) or ``indicator`` (the 惠坯 turned up),
``seat_wind`` (``"E"`` is the dealer, the default), ``discarder_wind`` (who dealt in;
``"E"`` scores 庄), ``wall_last`` (海底捞月), ``kong_replacement`` (杠上开花),
``robbing_kong`` (抢杠), ``heavenly`` (天和), ``earthly`` (地和), ``variant``, ``format``.

Readings of the jumbled text: docs/beijing.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._core import HandError
from . import _wildscore as w
from ._spec import ALL_TILES, RulesetSpec

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
_KEYS = (
    "hand",
    "win",
    "self_drawn",
    "wilds",
    "indicator",
    "seat_wind",
    "round_wind",
    "discarder_wind",
    "wall_last",
    "kong_replacement",
    "robbing_kong",
    "heavenly",
    "earthly",
    "variant",
    "format",
)
_WINDS = ("E", "S", "W", "N")


@dataclass
class Context:
    """One arrangement of a winning hand (or none, for 四惠牌) with the situation."""

    arrangement: dict[str, Any] | None
    hand: Any
    win: str
    wilds: list[str]
    wild_tiles: int
    s: dict[str, Any]

    def form(self) -> str | None:
        return None if self.arrangement is None else self.arrangement["form"]

    def groups(self) -> list[dict[str, Any]]:
        return [] if self.arrangement is None else self.arrangement["groups"]

    def roles(self) -> list[tuple[int, str]]:
        return [] if self.arrangement is None else w.win_roles(self.arrangement, self.win, self.wilds)

    def exposed(self) -> int:
        return sum(1 for m in self.hand.melds if m.kind != "concealed_kong")


def _all_pungs(c: Context) -> bool:
    return c.form() == "standard" and not any(g["kind"] == "chow" for g in c.groups())


def _big_single(c: Context) -> bool:
    # "大钓：吃碰12张牌，只剩一张单钓和牌": four declared melds, the win pairs the last tile.
    return (
        c.arrangement is not None and len(c.hand.melds) == 4 and any(w.single_wait(c.arrangement, r) for r in c.roles())
    )


def _catch_five_wan(c: Context) -> bool:
    # "捉五魁：和牌时只和嵌单“五万”一张牌的牌型": 5m between 4m and 6m.
    return c.arrangement is not None and any(w.closed_wait(c.arrangement, r) and r[1] == "5m" for r in c.roles())


def _one_suit(c: Context) -> bool:
    tiles = w.all_kinds(c.arrangement) if c.arrangement else []
    return bool(tiles) and len({t[1] for t in tiles}) == 1 and tiles[0][1] != "z"


def _half_flush(c: Context) -> bool:
    suits = {t[1] for t in w.all_kinds(c.arrangement)} if c.arrangement else set()
    return "z" in suits and len(suits) == 2


def _doubled(c: Context) -> int:
    pairs = [g["tiles"][0] for g in c.groups()]
    return sum(1 for k in set(pairs) if pairs.count(k) >= 2)


def _concealed(c: Context) -> bool:
    # 网狐: "门清：没有吃碰明杠过的牌型且手中没有惠牌"; 第4稿: "暗杠算门清", wilds not mentioned.
    return c.exposed() == 0 and (c.wild_tiles == 0 or c.s["variant"] == "draft4")


def _dealer(c: Context) -> bool:
    # "庄：庄家和牌或放铳时计此番型" ... "闲家自摸不计此番型".
    return c.s["dealer"] or c.s["discarder_wind"] == "E"


#: The 番 table of the 网狐 description: id, Chinese name, English name, 番, test, voids.
PATTERNS: tuple[w.Pattern, ...] = (
    w.Pattern("concealed", "门清", "concealed hand, no wild", 1, _concealed),
    w.Pattern("all_pungs", "对对和", "all pungs", 2, _all_pungs),
    w.Pattern("big_single", "大钓", "four melds and a single wait", 2, _big_single),
    w.Pattern("catch_five_wan", "捉五魁", "closed wait on 5m", 2, _catch_five_wan),
    w.Pattern("last_tile", "海底捞月", "last tile", 2, lambda c: c.s["wall_last"]),
    w.Pattern(
        "straight", "一条龙", "straight 1-9", 3, lambda c: bool(c.arrangement) and bool(w.straight_suit(c.arrangement))
    ),
    w.Pattern("seven_pairs", "七对子", "seven pairs", 4, lambda c: c.form() == "seven_pairs"),
    w.Pattern(
        "luxury_seven_pairs",
        "豪华七对子",
        "seven pairs with four of a kind",
        8,
        lambda c: c.form() == "seven_pairs" and _doubled(c) >= 1,
        excludes=("seven_pairs",),
    ),
    w.Pattern("kong_flower", "杠上开花", "win on a kong replacement", 5, lambda c: c.s["kong_replacement"]),
    w.Pattern("one_suit", "清一色", "one suit", 6, _one_suit),
    w.Pattern("heavenly", "天和", "heavenly hand", 10, lambda c: c.s["heavenly"], excludes=("dealer",)),
    w.Pattern("earthly", "地和", "earthly hand", 8, lambda c: c.s["earthly"]),
    w.Pattern("four_wilds", "四惠牌", "four wilds", 8, lambda c: c.wild_tiles >= 4 and len(c.wilds) == 1),
    w.Pattern("half_flush", "混一色", "one suit and honours", 0, _half_flush),
    w.Pattern("dealer", "庄", "dealer", 1, _dealer),
)
#: 推倒和 (1番): a win with none of these "加番牌型".
PUSHED_DOWN = w.Pattern("pushed_down", "推倒和", "plain win", 1, lambda c: True)
_BONUS = frozenset(
    "all_pungs big_single catch_five_wan last_tile straight seven_pairs luxury_seven_pairs kong_flower one_suit"
    " heavenly earthly four_wilds half_flush".split()
)
#: 第4稿 values where they differ; None: not in that list. "推倒和 ... 不算番，只记底数";
#: "豪华七对子 ... 在7对基础上加1番" (so it keeps 七对); 混一色 "加1番".
DRAFT4_VALUES: dict[str, int | None] = {
    "pushed_down": 0,
    "all_pungs": 1,
    "big_single": 1,
    "catch_five_wan": 1,
    "last_tile": 1,
    "luxury_seven_pairs": 1,
    "kong_flower": 1,
    "one_suit": 5,
    "half_flush": 1,
    "heavenly": None,
    "earthly": None,
    "four_wilds": None,
    "dealer": None,
}


def _value(p: w.Pattern, variant: str) -> int | None:
    if variant == "draft4" and p.id in DRAFT4_VALUES:
        return DRAFT4_VALUES[p.id]
    if p.id == "half_flush":
        return None  # not in the 网狐 list
    return p.value


def _score(c: Context) -> dict[str, Any]:
    variant = c.s["variant"]
    hits = [p for p in PATTERNS if _value(p, variant) is not None and p.test(c)]
    void = {x for p in hits for x in p.excludes}
    if variant == "draft4":
        void.discard("seven_pairs")
    fans = [p for p in hits if p.id not in void]
    if not any(p.id in _BONUS for p in fans):
        fans.insert(0, PUSHED_DOWN)
    values = [(p, _value(p, variant)) for p in fans]
    return {
        "win": True,
        "total": sum(v or 0 for _, v in values),
        "fans": [{"id": p.id, "name": p.name, "name_en": p.name_en, "value": v} for p, v in values],
        "form": c.form() or "four_wilds",
        "arrangement": w.arrangement_text(c.arrangement) if c.arrangement else w.compact(w.all_kinds_of(c.hand)),
        "wilds": c.wilds,
        "variant": variant,
    }


def _situation(situation: Mapping[str, Any]) -> dict[str, Any]:
    s: dict[str, Any] = {
        k: w.flag(situation, k)
        for k in ("self_drawn", "wall_last", "kong_replacement", "robbing_kong", "heavenly", "earthly")
    }
    variant = situation.get("variant") or "wanghu"
    if variant not in VARIANTS:
        raise HandError(f"variant is one of {', '.join(VARIANTS)}, not {variant!r}")
    s["variant"] = variant
    seat = situation.get("seat_wind") or "E"
    disc = situation.get("discarder_wind")
    for key, v in (("seat_wind", seat), ("discarder_wind", disc)):
        if v is not None and v not in _WINDS:
            raise HandError(f"{key} must be E, S, W or N, not {v!r}")
    if disc is not None and (s["self_drawn"] or disc == seat):
        raise HandError("discarder_wind names another seat, and only for a win on a discard")
    if s["robbing_kong"] and s["self_drawn"]:
        raise HandError("robbing a kong is a win on another's tile, not self-drawn")
    if s["kong_replacement"] and not s["self_drawn"]:
        raise HandError("杠上开花 is self-drawn")
    if s["heavenly"] and (seat != "E" or not s["self_drawn"]):
        raise HandError("天和 is the dealer's, self-drawn")
    if s["earthly"] and seat == "E":
        raise HandError("地和 is a non-dealer's")
    s["dealer"] = seat == "E"
    s["discarder_wind"] = disc
    return s


def evaluate(ruleset: Ruleset, **situation: Any) -> dict[str, Any]:
    """Scores one win.

    Returns:
        ``{"win", "total" (和牌牌型番数, 庄 included), "fans": [{"id", "name", "name_en",
        "value"}], "form", "arrangement", "wilds", "variant"}``; a hand that may not win has
        ``win`` false and a ``reason``. Money comes from ``settle``.

    Raises:
        haidi.HandError: bad notation or size, unknown keys, contradictory flags.
    """
    w.check_keys(situation, _KEYS, "beijing")
    wilds = w.resolve_wilds(situation)
    s = _situation(situation)
    full, win = w.full_hand(situation, ruleset.hand_size)
    wild_tiles = sum(full.counts[w._KINDS.index(k)] for k in wilds)
    no = {"win": False, "total": 0, "fans": [], "wilds": wilds, "variant": s["variant"]}
    exposed = sum(1 for m in full.melds if m.kind != "concealed_kong")
    if exposed and not s["self_drawn"]:
        return {**no, "reason": "吃碰明杠后只能自摸 (after a chow, pung or exposed kong only self-drawn)"}
    if s["variant"] == "wanghu" and wild_tiles >= 3 and not s["self_drawn"]:
        return {**no, "reason": "三个惠牌在手必须自摸 (three wilds held: only self-drawn)"}
    arrs = ruleset.decompose(full, wilds) if ruleset.is_win(full, wilds) else []
    scored = [_score(Context(a, full, win, wilds, wild_tiles, s)) for a in arrs]
    if not scored and s["variant"] == "wanghu" and wild_tiles >= 4 and len(wilds) == 1:
        # "摸齐四个“惠牌”时自动和牌": four wilds win whatever the shape.
        scored = [_score(Context(None, full, win, wilds, wild_tiles, s))]
    if not scored:
        return {**no, "reason": "not a complete hand"}
    r = w.best(scored)
    if s["variant"] == "draft4" and not s["self_drawn"] and r["fans"][0]["id"] == "pushed_down":
        return {**no, "reason": "第4稿: 推倒和只能自摸才能赢 (a plain win only self-drawn)"}
    return r


def describe(result: Mapping[str, Any], situation: Mapping[str, Any]) -> str:
    """The readable form ``haidi eval --rules beijing`` prints."""
    headline = f"{result['total']} 番 ({result['variant']})" if result["win"] else ""
    return w.describe(result, situation, headline, "惠牌")


def kept_stacks(kongs: int) -> int:
    """墩 left unplayed at the end (荒牌): "执行1个杠留7砘，2个杠留8砘" (第4稿: 一杠7，二杠8，三杠9)."""
    if kongs < 0:
        raise HandError("kongs must be >= 0")
    return 7 + max(0, kongs - 1)


def _mutual(outcome: Mapping[str, Any]) -> list[tuple[int, int]]:
    pairs = outcome.get("mutual") or []
    out = []
    for p in pairs:
        if isinstance(p, (str, bytes)) or len(p) != 2:
            raise HandError(f"mutual lists pairs of seats, not {p!r}")
        a, b = (int(w.seat({"seat": x}, "seat", True) or 0) for x in p)
        if a == b:
            raise HandError("互包 joins two different seats")
        out.append((a, b))
    return out


def settle(ruleset: Ruleset, outcome: Mapping[str, Any]) -> list[int]:
    """Payments of one hand.

    Args:
        outcome: ``winner`` (seat, or None on 荒牌), ``discarder`` (seat, or None: self-drawn),
            ``total`` (和牌牌型番数 from ``evaluate``), ``burn_rounds`` (烧庄 rounds),
            ``mutual`` (互包 pairs of seats), ``exhausted`` (荒牌), ``base`` (底分, 1),
            ``variant``; for ``draft4`` also ``floor`` (上楼 0-2), ``follow_dealer`` (跟庄),
            ``concealed_kongs`` (the winner's) and ``exposed_kongs_from`` (who fed the
            winner's exposed kongs). Seats 0-3, seat 0 the dealer.

    Returns:
        Four amounts by seat, positive for what a seat receives; they sum to zero.
    """
    variant = outcome.get("variant") or "wanghu"
    if variant not in VARIANTS:
        raise HandError(f"variant is one of {', '.join(VARIANTS)}, not {variant!r}")
    winner = w.seat(outcome, "winner")
    discarder = w.seat(outcome, "discarder")
    if winner is not None and discarder == winner:
        raise HandError("the winner cannot be the discarder")
    if winner is None and discarder is not None:
        raise HandError("a hand without a winner has no discarder")
    exhausted = w.flag(outcome, "exhausted") or winner is None
    base = w.count(outcome, "base", 1, 10**9) if "base" in outcome else 1
    total = w.count(outcome, "total", 0, 200)
    pay = [0, 0, 0, 0]

    def transfer(frm: int, to: int, amount: int) -> None:
        pay[frm] -= amount
        pay[to] += amount

    if variant == "draft4":
        return _settle_draft4(outcome, winner, discarder, exhausted, total, pay, transfer)
    mutual = _mutual(outcome)
    rounds = w.count(outcome, "burn_rounds", 0, 30)
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
    floor = w.count(outcome, "floor", 0, 2)
    if w.flag(outcome, "follow_dealer"):
        for s in (1, 2, 3):
            transfer(0, s, 10)  # "跟庄,庄家付给每家10元"
    if exhausted:
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
    for _ in range(w.count(outcome, "concealed_kongs", 0, 4)):
        for s in range(4):
            if s != winner:
                transfer(s, winner, 20)
    for feeder in outcome.get("exposed_kongs_from") or []:
        f = w.seat({"s": feeder}, "s", True)
        if f == winner:
            raise HandError("an exposed kong is fed by another seat")
        transfer(f, winner, 10)
    return pay
