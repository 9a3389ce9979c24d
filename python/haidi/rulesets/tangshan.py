"""Tangshan (唐山麻将): 136 tiles, 混 wilds, 番 that each double a 1-point 胡, kong points,
点炮包庄 and 跟庄.

Situation keys (keywords of ``evaluate``): ``KEY_DOCS`` below, listed with their types
in ``help(haidi.ruleset("tangshan").evaluate)`` and in docs/reference/tangshan.md. The
result keys are those of ``haidi.results.TangshanResult``: ``total`` is the 番,
``points`` 2 ** 番 (the 胡 being 1).

Readings of the text: docs/tangshan.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._errors import hand_error
from . import _outcome as oc
from ._scheme import (
    EXPLAIN,
    FIVES,
    FORMAT,
    HAND,
    HONOURS,
    ROUND_WIND_KEY,
    SEAT_WIND_KEY,
    WILD_SUITS,
    WIN,
    Option,
    Pattern,
    Q,
    build,
    flag,
    flag_key,
    form,
    key,
    pairs,
    straight,
    suits,
    win,
)
from ._spec import ALL_TILES, GameRules, RulesetSpec

if TYPE_CHECKING:
    from ..ruleset import Ruleset

SPEC = RulesetSpec(
    name="tangshan",
    title="Tangshan (唐山麻将)",
    melds=4,
    tiles=ALL_TILES,
    forms=dict(
        seven_pairs=True,
        four_as_two_pairs=True,  # 豪华七对
        thirteen_orphans=True,  # 十三幺
    ),
    has_wilds=True,
    # "中，发，白一套可做副使用": a concealed set of the three dragons, real tiles.
    dragon_sets=True,
    source="seed 004, first part",
)

#: 明杠 and 暗杠 points, in units of the base (底注): "以打1分为例，明杠2分，暗杠4分".
EXPOSED_KONG, CONCEALED_KONG = 2, 4
#: 跟庄: "庄家要付给每人两倍底注".
FOLLOW_DEALER = 2

#: The options (docs/tangshan.md has the table).
OPTIONS: tuple[Option, ...] = (
    Option("base", 1, "底注: the unit every payment is counted in", low=1, high=10**9),
    Option(
        "ben_hun_long",
        "wild_suit",
        "本混龙 (混一色一条龙): a 一条龙 in the 混's suit (wild_suit), or a 一条龙 in a hand"
        " of one suit, honours allowed (half_flush)",
        choices=("wild_suit", "half_flush"),
        acts="evaluate",
    ),
)


def patterns(options: Mapping[str, Any]) -> tuple[Pattern, ...]:
    """The 番 table: "每出现以下一种番型，分数就多×2"."""
    if options["ben_hun_long"] == "half_flush":
        # "本混龙 混一色一条龙" read literally: a 一条龙 whose suit is the hand's only one.
        ben_hun_long = Pattern(
            "wild_suit_straight", "本混龙", "straight in a one-suit hand", 2, straight(suits("mps")) & (Q.suits == 1)
        )
    else:
        # "本混龙 混一色一条龙": a 一条龙 in the suit of the 混.
        ben_hun_long = Pattern("wild_suit_straight", "本混龙", "straight in the wild's suit", 2, straight(WILD_SUITS))
    return (
        Pattern("plain", "素", "no wild held", 1, Q.wild_tiles == 0),
        Pattern("closed_wait", "砍", "closed wait", 1, win("closed")),
        # "捉5 同条万46胡5": the 5 of any suit, between a 4 and a 6. Such a wait is also a 卡张,
        # and "每出现一个就按番数累加": 砍 counts beside it.
        Pattern("catch_five", "捉5", "closed wait on a 5", 1, win("closed", kinds=FIVES)),
        ben_hun_long,
        Pattern(
            "luxury_seven_pairs",
            "豪华7对子",
            "seven pairs with four of a kind",
            2,
            form("seven_pairs") & (Q.doubled_pairs == 1),
        ),
        Pattern(
            "super_luxury_seven_pairs",
            "超豪华7对子",
            "seven pairs with two fours of a kind",
            3,
            form("seven_pairs") & (Q.doubled_pairs >= 2),
            excludes=("luxury_seven_pairs",),
        ),
        Pattern("open_ready", "明听", "open ready hand", 1, flag("open_ready")),
        Pattern("thirteen_orphans", "十三幺", "thirteen orphans", 5, form("thirteen_orphans")),
        Pattern("open_xiaosa", "明潇", "xiaosa, open", 1, flag("xiaosa_ming")),
        Pattern("hidden_xiaosa", "扣潇", "xiaosa, hidden", 1, flag("xiaosa_kou")),
    )


#: The 番 table with the default options.
PATTERNS: tuple[Pattern, ...] = patterns({o.name: o.default for o in OPTIONS})

#: What each situation key means in Tangshan (the reference lists them with their types).
KEY_DOCS: dict[str, str] = {
    "hand": "the hand without the winning tile (13 tiles; declared melds and kongs in brackets, each counting 3)",
    "wilds": "the 混 kinds of the deal (one, or two for the tables that play two); not with ``indicator``",
    "indicator": "the tile turned up (开混): the 混 is the next kind; not with ``wilds``",
    "open_ready": "明听: the hand was laid open; it may only win self-drawn",
    "xiaosa": "潇洒 declared by the player: ``ming`` (明潇) or ``kou`` (扣潇)",
    "seat_wind": "taken and checked, but it scores nothing in Tangshan",
    "round_wind": "taken and checked, but it scores nothing in Tangshan",
}

KEYS = (
    HAND,
    WIN,
    FORMAT,
    EXPLAIN,
    flag_key("self_drawn"),
    key("wilds", "wilds"),
    key("indicator", "indicator"),
    flag_key("open_ready"),
    key("xiaosa", "choice", (("ming", "xiaosa_ming"), ("kou", "xiaosa_kou"))),
    SEAT_WIND_KEY,
    ROUND_WIND_KEY,
)


def scheme(options: Mapping[str, Any]) -> dict[str, Any]:
    """The scoring data for these options."""
    return build(
        SPEC,
        keys=KEYS,
        patterns=patterns(options),
        results=[("points", "pow2_total"), ("wilds", "wild_kinds")],
        valid=[
            # "十三幺 搭牌只能为风牌或箭牌，最后胡的也只能为风牌或箭牌".
            (
                ~form("thirteen_orphans") | (pairs(HONOURS) & win("single", kinds=HONOURS)),
                "十三幺 wins only with an honour pair and on an honour"
                " (搭牌只能为风牌或箭牌，最后胡的也只能为风牌或箭牌)",
            ),
            # "有中发，不能吃白": a 中发白 set is never completed by another player's tile.
            (
                ~(win("set") & ~flag("self_drawn")),
                "a 中发白 set is not completed by another player's discard (有中发，不能吃白)",
            ),
        ],
        no_win=[(flag("open_ready") & ~flag("self_drawn"), "明听 may only win self-drawn (只能自模糊)")],
        wild_name="混",
        max_wild_kinds=2,
    )


def describe(result: Mapping[str, Any], situation: Mapping[str, Any]) -> str:
    """The readable form ``haidi eval --rules tangshan`` prints."""
    head = f"{situation.get('hand')} + {situation.get('win')}"
    if not result["win"]:
        return f"{head}: no win ({result['reason']})"
    lines = [f"{head}: win, {result['total']} 番 = {result['points']} points (胡 1, each 番 doubles)"]
    if result["wilds"]:
        lines.append(f"  混: {' '.join(result['wilds'])}")
    lines.append(f"  {result['form']}: {result['arrangement']}")
    for f in result["fans"]:
        lines.append(f"  {f['name']}  {f['name_en']}  {f['value']} 番")
    return "\n".join(lines)


_OUTCOME_KEYS = {
    "winner",
    "discarder",
    "total",
    "melds",
    "exposed_kongs",
    "concealed_kongs",
    "follow_dealer",
    "exhausted",
    "base",
    "options",
}


def settle(ruleset: Ruleset, outcome: Mapping[str, Any]) -> list[int]:
    """Payments of one hand, in units of the base (底注).

    Args:
        outcome: ``winner`` (seat, or None on an exhausted wall), ``discarder`` (seat, or
            None: self-drawn), ``total`` (the winner's 番, needed with a winner; none without one),
            ``melds`` (chows, pungs and exposed kongs each seat made), ``exposed_kongs`` /
            ``concealed_kongs`` (per seat), ``follow_dealer`` (跟庄 happened),
            ``exhausted`` (荒庄, no winner), ``base`` (the option ``base``, 1), ``options``.
            Seats 0-3, seat 0 the dealer.

    Returns:
        Four amounts by seat, positive for what a seat receives; they sum to zero.
    """
    outcome = oc.mapping(outcome, "outcome")
    oc.known_keys(outcome, _OUTCOME_KEYS, "outcome")
    opt = ruleset.options(oc.options(outcome, ("base",)))
    winner = oc.optional_seat(outcome, "winner")
    discarder = oc.optional_seat(outcome, "discarder")
    exhausted = oc.flag(oc.get(outcome, "exhausted", False), "exhausted")
    if exhausted and winner is not None:
        raise hand_error("an exhausted wall (荒庄) has no winner: give winner None", key="exhausted")
    exhausted = exhausted or winner is None
    # Read whether or not the hand was won, so that a bad total is refused either way;
    # a win's total left out would be paid as 0 番, so it is refused, not guessed.
    total = oc.count(oc.get(outcome, "total", 0), "total", 0, 60)
    if exhausted and outcome.get("total") is not None:
        raise hand_error("an exhausted wall has no total: nobody won", key="total")
    if not exhausted and outcome.get("total") is None:
        raise hand_error("a win needs its total (番, from evaluate)", key="total")
    base = opt["base"]
    # A player has at most four melds, and four kongs.
    melds = oc.per_seat(outcome, "melds", 4)
    exposed = oc.per_seat(outcome, "exposed_kongs", 4)
    concealed = oc.per_seat(outcome, "concealed_kongs", 4)
    for s in range(4):
        # An exposed kong is one of the seat's melds, and a concealed kong takes a place
        # of the four beside them.
        if exposed[s] > melds[s]:
            message = f"exposed_kongs[{s}] is {exposed[s]}, but seat {s} made {melds[s]} melds (kongs among them)"
            raise hand_error(message, key=f"exposed_kongs[{s}]")
        if melds[s] + concealed[s] > 4:
            message = f"seat {s} has {melds[s]} melds and {concealed[s]} concealed kongs: a hand holds at most four"
            raise hand_error(message, key=f"concealed_kongs[{s}]")
    pay = [0, 0, 0, 0]

    def transfer(frm: int, to: int, amount: int) -> None:
        pay[frm] -= amount
        pay[to] += amount

    if not exhausted:
        assert winner is not None
        if discarder == winner:
            raise hand_error("the winner cannot be the discarder", key="discarder")
        for s in range(4):
            if s == winner:
                continue
            # "吃,碰或明杠几次，其他人胡牌就要多输几番": each meld the payer made is one more 番.
            share = base * 2 ** (total + melds[s])
            # "点炮包庄 ... 点炮的人包其他人输的钱": the discarder pays every loser's share.
            transfer(s if discarder is None else discarder, winner, share)
        # Kong points stand whoever wins, and are void on an exhausted wall ("荒庄杠则作废").
        for k in range(4):
            for n, unit in ((exposed[k], EXPOSED_KONG), (concealed[k], CONCEALED_KONG)):
                for s in range(4):
                    if s != k and n:
                        # "包杠": on a discard, the discarder also pays what others owe the winner.
                        payer = discarder if (discarder is not None and k == winner) else s
                        transfer(payer, k, n * unit * base)
    elif outcome.get("discarder") is not None:
        raise hand_error("an exhausted wall has no discarder", key="discarder")
    if oc.flag(oc.get(outcome, "follow_dealer", False), "follow_dealer"):
        for s in (1, 2, 3):
            transfer(0, s, FOLLOW_DEALER * base)
    return pay


#: Flow rules in play (docs/game.md): the 混 from the indicator; the others the common rule.
GAME = GameRules(
    wild="indicator",
    kept=14,
    open_ready=True,
    not_modelled=("潇洒 declarations (明潇, 扣潇): the seed gives a 番 each and no rule of play",),
    sources={
        "wild": "the tile turned up (开混): the 混 is the next kind",
        "kept": "6.最后剩7墩牌时为荒庄，杠作废。",
        "kept_replacements": "杠从后7敦摸",
        "open_ready": "明听1番 明听就是亮开自己的牌，只能自模糊",
    },
)


def game_outcome(record: Mapping[str, Any], wins: list[dict[str, Any]], options: Any) -> dict[str, Any] | None:
    """The ``settle`` record of a hand played by ``haidi.Game``: the winner, the melds and
    kongs of each seat, and 跟庄 ("庄家在头一张打出来的牌后被其他3人跟出来后，只限于头一圈"),
    which is paid on an exhausted wall too."""
    follow = oc.followed_rounds(record["discard_order"]) > 0
    if not wins:
        if not follow:
            return None
        return {"winner": None, "exhausted": True, "follow_dealer": True, **({"options": options} if options else {})}
    melds, exposed, concealed = [0] * 4, [0] * 4, [0] * 4
    for m in record["melds"]:
        if m["meld"] == "concealed_kong":
            concealed[m["seat"]] += 1
        elif m["meld"] in ("kong", "added_kong"):
            exposed[m["seat"]] += 1
        if m["meld"] in ("chow", "pung", "kong"):
            melds[m["seat"]] += 1
    return {
        "winner": wins[0]["seat"],
        "discarder": record["wins"][0]["discarder"],
        "total": wins[0]["score"]["total"],
        "melds": melds,
        "exposed_kongs": exposed,
        "concealed_kongs": concealed,
        "follow_dealer": follow,
        **({"options": options} if options else {}),
    }
