"""Hainan (海南麻将): 144 tiles with eight flowers; a 番 is needed to win on a discard.

Rulings and quotes: docs/hainan.md. In Hainan a 番 is a condition for winning, not a
multiplier ("番是指胡牌的前提,而不是倍数"): a win on a discard needs at least one of the
11 番 of the text; a self-drawn win needs none ("无论有番或者无番，自己摸到最后一张牌就算自摸").

Situation keys (keywords of ``evaluate``): ``KEY_DOCS`` below, listed with their types
in ``help(haidi.ruleset("hainan").evaluate)`` and in docs/reference/hainan.md. The result
keys are those of ``haidi.results.HainanResult``: ``win`` says whether this situation is
a win, ``complete`` whether the tiles form a winning shape and ``discard_win`` whether
that shape may win on a discard (it has a 番). ``total`` is what each other player pays
on a self-drawn win under the default table (20), for any complete hand: the payment
never depends on how many 番. Each fan's ``value`` is 1.

Outcome record of ``settle`` (a dict):

- ``winner``: the winning seat, or ``winners``: every seat that called a win on one
  discard (截胡: only the first after the discarder in turn order wins). None or absent
  with no winners: a drawn hand (黄庄), only kongs are paid.
- ``discarder``: who discarded the winning tile (the kong's owner for 抢杠); None or
  absent: self-drawn.
- ``dealer`` (default 0) and ``dealer_streak``: the dealer's consecutive wins before this
  hand (连庄; 0 the first hand).
- ``kongs``: ``[{"seat", "kind"}]``, kind "exposed" (明杠), "added" (补杠) or "concealed" (暗杠).
- ``claims``: the melds claimed from discards, ``[{"by", "from", "meld"}]`` with meld
  "chow", "pung" or "kong", for 包牌.
- ``wall_last``: the win was on the last tile of the wall, which is never discarded
  ("最后一张不用打出"), so it cannot be a discard win.
- ``options``: overrides of ``OPTIONS``.

``settle`` returns four amounts by seat, positive for what a seat receives, summing to 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._errors import hand_error
from . import _carry
from . import _outcome as oc
from ._scheme import (
    EXPLAIN,
    FORMAT,
    HAND,
    KINDS_258,
    ROUND_WIND_KEY,
    SEAT_WIND,
    SEAT_WIND_KEY,
    WIN,
    Option,
    Pattern,
    Q,
    Scoring,
    build,
    exists,
    flag,
    flag_key,
    form,
    ignored_flag,
    key,
    kinds,
    pairs,
    triplets,
)
from ._spec import ALL_TILES, GameRules, RulesetSpec

if TYPE_CHECKING:
    from ..ruleset import Ruleset

SPEC = RulesetSpec(
    name="hainan",
    title="Hainan (海南麻将)",
    melds=4,
    tiles=ALL_TILES,
    flowers="12345678f",
    forms=dict(
        seven_pairs=True,  # 七对
        four_as_two_pairs=True,
        thirteen_orphans=True,  # 十三幺
    ),
    source="seed 002; see docs/hainan.md",
)

#: The options (docs/hainan.md has the table).
OPTIONS: tuple[Option, ...] = (
    Option("discard_each", 10, "平胡: each player other than the discarder pays"),
    Option("discard_discarder", 20, "平胡: the discarder pays"),
    Option("self_drawn_each", 20, "自摸: each other player pays"),
    Option("exposed_kong_each", 10, "明杠 and 补杠: each other player pays"),
    Option("concealed_kong_each", 20, "暗杠: each other player pays"),
    Option("streak_discard_add", 10, "a streak step adds this to the dealer's amounts after a 平胡"),
    Option(
        "streak_growth",
        "linear",
        "after a 自摸 each streak step adds one more time (linear) or doubles (exponential)",
        choices=("linear", "exponential"),
    ),
    Option("white_dragon", False, "a pung of 白 is a 番 too (the text's second list: 中发白)", acts="evaluate"),
    Option("concealed_kong_keeps_concealed", False, "门清 with an 暗杠 (the text: no 杠 of any kind)", acts="evaluate"),
    Option(
        "flower_order",
        "seed",
        "seat flowers: seed (春梅 夏兰 秋菊 冬竹) or mcr (春梅 夏兰 秋竹 冬菊)",
        choices=("seed", "mcr"),
        acts="evaluate",
    ),
    Option("kongs_paid_on_draw", True, "kongs are paid in a drawn hand (黄庄)"),
    Option("bao_kongs_as_pungs", True, "包牌: a kong claimed from a discard counts as a pung"),
)

#: Flowers 1f-8f are 春夏秋冬梅兰竹菊; each seat's two, seat 0 the dealer:
#: "庄家摸春或梅,庄家下家摸夏或兰,庄家对家摸秋或菊,庄家上家摸冬或竹".
SEAT_FLOWERS = {"seed": ("15f", "26f", "38f", "47f"), "mcr": ("15f", "26f", "37f", "48f")}

#: What each situation key means in Hainan (the reference lists them with their types).
KEY_DOCS: dict[str, str] = {
    "hand": (
        "the hand without the winning tile (13 tiles, a declared meld counting 3; flowers may be "
        "written in it, ``15f``), or a complete hand with ``win`` left out"
    ),
    "robbing_kong": "抢杠: won on the tile another player added to a pung to make a kong (a discard win)",
    "seat": "the winner's seat, 0-3 counted from the dealer in turn order: decides the seat flower and wind",
    "seat_wind": "the winner's seat wind instead of ``seat`` (``E`` the dealer); neither given: the dealer",
    "flowers": "the flowers set aside, added to any written in ``hand``",
    "round_wind": "taken and checked, but it scores nothing in Hainan (no 番 of the text)",
    "wall_last": "won on the last tile of the wall (海底); no 番 of the text, but not with ``robbing_kong``",
    "kong_replacement": (
        "won on a replacement tile (杠上开花); no 番 of the text, but self-drawn: alone it makes the win "
        "self-drawn, and ``self_drawn=False`` or ``robbing_kong`` with it is refused"
    ),
}

KEYS = (
    HAND,
    WIN,
    FORMAT,
    EXPLAIN,
    flag_key("self_drawn"),
    flag_key("robbing_kong"),
    key("seat", "seat"),
    SEAT_WIND_KEY,
    key("flowers", "flowers"),
    ROUND_WIND_KEY,
    # No 番 of the text: taken so that one situation file serves several rulesets. What
    # 海底 and 杠上开花 say of the win still holds (self-drawn; no kong robbed on the last tile).
    ignored_flag("last_of_kind"),
    flag_key("wall_last"),
    flag_key("kong_replacement"),
)


def patterns(options: Mapping[str, Any]) -> tuple[Pattern, ...]:
    """The 11 番 of the text (A, 1-11), in its order; each counts once (value 1)."""
    dragons = kinds("567z" if options["white_dragon"] else "67z")
    declared = Q.exposed if options["concealed_kong_keeps_concealed"] else Q.declared
    return (
        Pattern("all_chows", "只吃不碰", "only chows and one pair", 1, form("standard") & (Q.triplets == 0)),
        Pattern("concealed", "门清", "no chow, pung or kong declared", 1, declared == 0),
        Pattern("all_pungs", "碰碰胡", "all pungs", 1, form("standard") & (Q.chows == 0)),
        Pattern("one_suit", "清一色", "one suit", 1, (Q.suits == 1) & (Q.honours == 0)),
        Pattern("pair_258", "二五八将", "a 2, 5 or 8 pair", 1, form("standard") & exists(pairs(KINDS_258))),
        Pattern("robbing_kong", "抢杠", "robbing a kong", 1, flag("robbing_kong")),
        Pattern("dragon_pung", "中发刻", "a pung of 中 or 发", 1, exists(triplets(dragons))),
        Pattern("seat_flower", "本位花", "the flower of one's seat", 1, Q.seat_flower == 1),
        Pattern("seat_wind_pung", "本位风刻", "a pung of one's seat wind", 1, exists(triplets(SEAT_WIND))),
        Pattern("thirteen_orphans", "十三幺", "thirteen orphans", 1, form("thirteen_orphans")),
        Pattern("seven_pairs", "七对", "seven pairs", 1, form("seven_pairs")),
    )


#: The 番 with the default options, by id: (Chinese name, English name).
FANS: dict[str, tuple[str, str]] = {
    p.id: (p.name, p.name_en) for p in patterns({"white_dragon": False, "concealed_kong_keeps_concealed": False})
}


def scheme(options: Mapping[str, Any]) -> dict[str, Any]:
    """The scoring data for these options."""
    return build(
        SPEC,
        keys=KEYS,
        patterns=patterns(options),
        results=[
            ("complete", "complete"),
            ("discard_win", "rule", Q.fan_count >= 1),
            ("self_drawn", "flag", "self_drawn"),
        ],
        implies=[("kong_replacement", "self_drawn", "杠上开花 is self-drawn")],
        refuse=[
            (flag("self_drawn") & flag("robbing_kong"), "抢杠 is a win on another player's kong tile, not self-drawn"),
            (
                flag("wall_last") & flag("robbing_kong"),
                "wall_last (海底) with robbing_kong (抢杠): no kong is made on the last tile",
            ),
        ],
        no_win=[(~flag("self_drawn") & (Q.fan_count == 0), "有番才能胡: no 番, so this hand wins only self-drawn")],
        scoring=Scoring(total=("fixed", 20), rank=("fan_count",)),
        seat_flowers=SEAT_FLOWERS[options["flower_order"]],
        unwon="last_tile",
    )


def describe(result: Mapping[str, Any], situation: Mapping[str, Any]) -> str:
    """The readable line(s) of ``haidi eval --rules hainan``."""
    head = f"{situation.get('hand')}" + (f" + {situation['win']}" if situation.get("win") else "")
    if not result["complete"]:
        return f"{head}: no win ({result['reason']})"
    how = "self-drawn" if result["self_drawn"] else "on a discard"
    state = f"win {how}" if result["win"] else f"no win {how}"
    lines = [f"{head}: {state}, {len(result['fans'])} 番  [{result['arrangement']}]"]
    for f in result["fans"]:
        lines.append(f"  {f['name']}  {f['name_en']}")
    if result["reason"]:
        lines.append(f"  ({result['reason']})")
    return "\n".join(lines)


def first_claimant(discarder: int, claimants: list[int]) -> int:
    """截胡: of the seats that call a win on one discard, the first after the discarder in
    turn order ("按照顺序只有第一人算胡")."""
    return min(claimants, key=lambda s: (s - discarder) % 4)


def bao_pairs(claims: Any, opt: Mapping[str, Any]) -> set[tuple[int, int]]:
    """包牌 relations as (feeder, taker): the taker chowed three times from the feeder, its
    上家, or punged three times from the feeder."""
    claims = oc.items(claims, "claims", "{by, from, meld}", _MAX_CLAIMS)
    chows: Counter[tuple[int, int]] = Counter()
    pungs: Counter[tuple[int, int]] = Counter()
    made: Counter[int] = Counter()
    for i, c in enumerate(claims):
        c = oc.mapping(c, f"claims[{i}]")
        oc.known_keys(c, ("by", "from", "meld"), f"claims[{i}]")
        by, frm = oc.seat(c.get("by"), f"claims[{i}].by"), oc.seat(c.get("from"), f"claims[{i}].from")
        meld = oc.word(c.get("meld"), f"claims[{i}].meld", ("chow", "pung", "kong"))
        if by == frm:
            raise hand_error(f"claims[{i}]: a player claims another's discard", key="claims")
        # Each claim is a meld of the claimer's, and a hand holds four melds at most.
        made[by] += 1
        if made[by] > 4:
            raise hand_error(f"claims[{i}]: seat {by} claims a fifth meld; a hand holds four", key="claims")
        if meld == "chow":
            if frm != (by - 1) % 4:
                raise hand_error(f"claims[{i}]: a chow is claimed only from the player before (上家)", key="claims")
            chows[(frm, by)] += 1
        elif meld == "pung" or opt["bao_kongs_as_pungs"]:
            pungs[(frm, by)] += 1
    return {k for k, n in chows.items() if n >= 3} | {k for k, n in pungs.items() if n >= 3}


def _streak_amount(amount: int, involves_dealer: bool, streak: int, self_drawn: bool, opt: Mapping[str, Any]) -> int:
    if not involves_dealer or streak == 0:
        return amount
    if self_drawn:
        factor = 2**streak if opt["streak_growth"] == "exponential" else 1 + streak
        return amount * factor
    return amount + opt["streak_discard_add"] * streak


#: Bounds of a record: a dealer cannot win a hundred hands running, and a hand holds
#: few claims and kongs.
_MAX_STREAK, _MAX_CLAIMS, _MAX_KONGS = 100, 64, 16
_OUTCOME_KEYS = {"winner", "winners", "discarder", "dealer", "dealer_streak", "kongs", "claims", "wall_last", "options"}


def settle(ruleset: Ruleset, outcome: Mapping[str, Any]) -> list[int]:
    """Four payments by seat for a Hainan outcome record (keys in the module docstring)."""
    outcome = oc.mapping(outcome, "outcome")
    oc.known_keys(outcome, _OUTCOME_KEYS, "outcome")
    opt = ruleset.options(oc.options(outcome))
    dealer = oc.optional_seat(outcome, "dealer") or 0
    streak = oc.count(oc.get(outcome, "dealer_streak", 0), "dealer_streak", high=_MAX_STREAK)
    discarder = oc.optional_seat(outcome, "discarder")
    winner = oc.optional_seat(outcome, "winner")
    wall_last = oc.flag(oc.get(outcome, "wall_last", False), "wall_last")
    # Read whatever the win: a record is refused the same way whoever won.
    bao = bao_pairs(outcome.get("claims"), opt)
    if outcome.get("winners") is not None:
        seats = oc.seats(outcome["winners"], "winners", 4)
        if not seats:
            raise hand_error("winners must be a non-empty list of seats", key="winners")
        if len(set(seats)) != len(seats):
            raise hand_error("winners lists each seat once", key="winners")
        if discarder is None and len(seats) > 1:
            raise hand_error("several winners only on one discard: give the discarder (截胡)", key="discarder")
        if discarder in seats:
            raise hand_error("the discarder cannot be one of the winners", key="discarder")
        first = seats[0] if discarder is None else first_claimant(discarder, seats)
        if winner is not None and winner != first:
            raise hand_error(f"截胡: seat {first} wins, not seat {winner}", key="winner")
        winner = first
    if winner is not None and discarder == winner:
        raise hand_error("the winner cannot be the discarder", key="discarder")
    if winner is None and discarder is not None:
        raise hand_error("a discarder without a winner", key="discarder")
    if winner is not None and discarder is not None and wall_last:
        message = "the last tile of the wall is not discarded (最后一张不用打出): no discard win on it"
        raise hand_error(message, key="wall_last")
    self_drawn = winner is not None and discarder is None
    pay = [0, 0, 0, 0]

    def move(payer: int, payee: int, amount: int) -> None:
        if winner is not None:
            amount = _streak_amount(amount, dealer in (payer, payee), streak, self_drawn, opt)
        pay[payer] -= amount
        pay[payee] += amount

    if winner is not None:
        others = [s for s in range(4) if s != winner]
        if self_drawn:
            for s in others:
                move(s, winner, opt["self_drawn_each"])
        elif discarder is not None and ((discarder, winner) in bao or (winner, discarder) in bao):
            # 包牌: the discarder pays what all three would have paid.
            for s in others:
                due = opt["discard_discarder"] if s == discarder else opt["discard_each"]
                amount = _streak_amount(due, dealer in (s, winner), streak, False, opt)
                pay[discarder] -= amount
                pay[winner] += amount
        else:
            for s in others:
                move(s, winner, opt["discard_discarder"] if s == discarder else opt["discard_each"])
    # The kongs are read whether or not they are paid (a drawn hand with
    # kongs_paid_on_draw off pays none): a record is refused the same way either way.
    kongs = oc.items(outcome.get("kongs"), "kongs", "{seat, kind}", _MAX_KONGS)
    paid = winner is not None or opt["kongs_paid_on_draw"]
    kongs_of: Counter[int] = Counter()
    for i, k in enumerate(kongs):
        k = oc.mapping(k, f"kongs[{i}]")
        oc.known_keys(k, ("seat", "kind"), f"kongs[{i}]")
        owner = oc.seat(k.get("seat"), f"kongs[{i}].seat")
        kind = oc.word(k.get("kind"), f"kongs[{i}].kind", ("exposed", "added", "concealed"))
        kongs_of[owner] += 1
        if kongs_of[owner] > 4:
            raise hand_error(f"kongs[{i}]: seat {owner} makes a fifth kong; a hand holds four", key="kongs")
        each = opt["concealed_kong_each" if kind == "concealed" else "exposed_kong_each"]
        for s in range(4):
            if paid and s != owner:
                move(s, owner, each)
    return pay


#: Flow rules in play (docs/game.md quotes the seed for each).
GAME = GameRules(
    winners="first",
    kept=15,
    last_discard=False,
    before_last_won_only=True,
    concealed_kong_shown=False,
    sources={
        "concealed_kong_shown": "吃、碰、杠的牌要翻开摆出。暗杠不需翻开牌。",
        "chow": "其中，“杠”、“碰”比“吃”优先，吃牌只能吃上家。",
        "winners": "C 、截胡：打出一张牌，多人要胡，按照顺序只有第一人算胡，后面的不能算胡。",
        "kept": "如果还剩下七墩半牌时仍然无人胡牌（即黄庄），则由庄家继续坐庄。",
        "last_discard": "最后一张行牌时要注意牌墙内可摸的最后一张不用打出",
        "before_last_won_only": "倒数第二张玩家摸进后打出的牌不允许吃碰杠，只能胡",
        "flowers": (
            "摸到花牌（ 春夏秋冬、梅兰菊竹）时，要将花牌摆出，并到牌墙最后补一张牌。"
            "如果是起手摸到的花牌，则在摸好 13张牌后再补牌。"
        ),
        "deal": "庄家拿十四张牌，其余的人十三张。",
        "next_carry": (
            "如果庄家胡牌的话，庄家继续做庄；闲家赢的话，则由该闲家的下一家当庄；"
            "如果还剩下七墩半牌时仍然无人胡牌（即黄庄），则由庄家继续坐庄。"
        ),
    },
)


def next_carry(carry: Mapping[str, Any], record: Mapping[str, Any]) -> dict[str, Any]:
    """ "如果庄家胡牌的话，庄家继续做庄；闲家赢的话，则由该闲家的下一家当庄；…（即黄庄），则由庄家继续坐庄":
    the streak counts the dealer's wins running ("如果庄家连续胡牌，每连庄一次"), which a drawn
    hand neither adds to nor ends; the winner's next seat deals after a non-dealer's win
    (the dealer again after the win of the seat before it, its streak begun anew)."""
    wins = record["wins"]
    if not wins:
        return _carry.passed(carry, 0) | {"streak": carry["streak"]}
    winner = wins[0]["seat"]
    if winner == 0:
        return _carry.passed(carry, 0)
    return _carry.passed(carry, (winner + 1) % 4) | {"streak": 0}


_KONG_KINDS = {"kong": "exposed", "added_kong": "added", "concealed_kong": "concealed"}


def game_outcome(record: Mapping[str, Any], wins: list[dict[str, Any]], options: Any) -> dict[str, Any] | None:
    """The ``settle`` record of a hand played by ``haidi.Game``: the winner (截胡), the
    kongs, and the claims for 包牌."""
    melds = record["melds"]
    kongs = [{"seat": m["seat"], "kind": _KONG_KINDS[m["meld"]]} for m in melds if m["meld"] in _KONG_KINDS]
    if not wins and not kongs:
        return None
    claims = [{"by": m["seat"], "from": m["from"], "meld": m["meld"]} for m in melds if m["from"] is not None]
    return {
        "winner": wins[0]["seat"] if wins else None,
        "discarder": record["wins"][0]["discarder"] if wins else None,
        "dealer": record["dealer"],
        "dealer_streak": record["carry"]["streak"],
        "kongs": kongs,
        "claims": claims,
        **({"options": options} if options else {}),
    }
