"""Changsha (长沙麻将; the seed calls it 广东麻将): 108 suited tiles, a 2-5-8 pair for 小胡.

Rulings and sources: docs/changsha.md.

Situation keys (keywords of ``evaluate``): ``KEY_DOCS`` below, listed with their types
in ``help(haidi.ruleset("changsha").evaluate)`` and in docs/reference/changsha.md. The
result keys are those of ``haidi.results.ChangshaResult``. ``total`` is what each other
player pays on a self-drawn win under the default table: 6 a 大胡, 2 for a 小胡 or a
dealt-hand win.

Outcome record of ``settle`` (a dict):

- ``wins``: a list of ``{"seat", "big", "small"}`` (an ``evaluate`` result with a
  ``seat`` added will do: its ``self_drawn`` must agree with ``discarder``). Several
  entries only on one discard (通炮).
- ``discarder``: the seat that discarded the winning tile (the kong's owner for 抢杠胡,
  the player who took the 海底 tile for 海底炮); None or absent for a self-drawn win.
- ``dealer``: the dealer's seat (default 0). Birds are counted from it.
- ``birds``: the bird tiles (扎鸟): the tiles drawn after the win, in order; for a 海底 win
  the 海底 tile itself. The first ``options["birds"]`` of them count.
- ``passed_win`` (漏胡): a list of seats that passed a discard win and have not drawn
  since; such a seat cannot win on a discard. ``haidi_taker`` (海底漫游): the seat that
  took the 海底 tile; when given with ``wall_last=True`` and a discarder, the two must
  agree. These are recorded and checked for consistency.
- ``wall_last``: the win was on the 海底 tile.
- ``options``: overrides of ``OPTIONS``.

``settle`` returns four amounts by seat, positive for what a seat receives, summing to 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._errors import hand_error, shown
from . import _carry
from . import _outcome as oc
from ._scheme import (
    EXPLAIN,
    FORMAT,
    HAND,
    KINDS_258,
    ROUND_WIND_KEY,
    SEAT_WIND_KEY,
    WIN,
    Option,
    Pattern,
    Q,
    all_tiles,
    any_of,
    any_tile,
    build,
    flag,
    flag_key,
    form,
    ignored_flag,
    key,
    none_of,
)
from ._spec import SUITED_TILES, GameRules, RulesetSpec

if TYPE_CHECKING:
    from ..ruleset import Ruleset

SPEC = RulesetSpec(
    name="changsha",
    title="Changsha (长沙麻将)",
    melds=4,
    tiles=SUITED_TILES,
    forms=dict(
        # 平胡 needs a 2-5-8 pair (将); the 大胡 shapes below take any pair.
        pair_kinds="258m258p258s",
        seven_pairs=True,  # 七巧对
        four_as_two_pairs=True,  # 豪华七小对
        all_pungs_any_pair=True,  # 碰碰胡
        one_suit_any_pair=True,  # 清一色
        all_258=True,  # 将将胡
    ),
    source="seeds 000/001/004, part 广东麻将中的海底捞月; see docs/changsha.md",
)

#: The options (docs/changsha.md has the table). Amounts are per payer and per 小胡 /
#: 大胡 (the common Changsha table; the seed gives none).
OPTIONS: tuple[Option, ...] = (
    Option("small_self_drawn", 2, "小胡自摸: each other player pays"),
    Option("small_discard", 1, "小胡 on a discard: the discarder pays"),
    Option("big_self_drawn", 6, "each 大胡 self-drawn: each other player pays"),
    Option("big_discard", 6, "each 大胡 on a discard: the discarder pays"),
    Option("dealer_extra", 0, "算庄闲: added to a payment the dealer makes or receives"),
    Option("birds", 1, "bird tiles that count (扎鸟); 0 plays without birds", high=16),
    Option("bird_from", "dealer", "whom the bird's number counts from", choices=("dealer", "winner")),
    Option(
        "bird_mode",
        "double",
        "double: x2 a bird; add_double: x(1 + birds); add: + bird_points a bird",
        choices=("double", "add_double", "add"),
    ),
    Option("bird_points", 1, "points a bird adds, with bird_mode add"),
)

_SMALL, _DEALT, _BIG = "small", "dealt", "big"
_DEALT_FLAGS = ("kong_replacement", "robbing_kong", "wall_last", "heavenly", "earthly")
_BIG_IDS = (
    "seven_pairs",
    "all_pungs",
    "all_258",
    "one_suit",
    "kong_bloom",
    "heavenly",
    "earthly",
    "robbing_kong",
    "last_tile_draw",
    "last_tile_discard",
)
_not_dealt = ~form("dealt")

#: The patterns. ``value`` is what each other player pays on a self-drawn win under the
#: default table, so that ``total`` is their sum.
PATTERNS: tuple[Pattern, ...] = (
    # 平胡 counts when no 大胡 does.
    Pattern("ping_hu", "平胡", "plain win (2-5-8 pair)", 2, _not_dealt & none_of(*_BIG_IDS), kind=_SMALL),
    Pattern("four_of_a_kind", "四喜", "four of a kind dealt", 2, form("dealt") & Q.fours.count, kind=_DEALT),
    Pattern("no_258", "板板胡", "no 2, 5 or 8 dealt", 2, form("dealt") & ~any_tile(KINDS_258), kind=_DEALT),
    Pattern(
        "missing_suit", "缺一色", "a suit missing from the dealt hand", 2, form("dealt") & (Q.suits < 3), kind=_DEALT
    ),
    Pattern("seven_pairs", "七巧对", "seven pairs", 6, form("seven_pairs"), kind=_BIG),
    Pattern("all_pungs", "碰碰胡", "all pungs", 6, form("standard") & (Q.chows == 0), kind=_BIG),
    Pattern("all_258", "将将胡", "every tile 2, 5 or 8", 6, _not_dealt & all_tiles(KINDS_258), kind=_BIG),
    Pattern("one_suit", "清一色", "one suit", 6, _not_dealt & (Q.suits == 1), kind=_BIG),
    Pattern("kong_bloom", "杠上花", "win on a kong's replacement tile", 6, flag("kong_replacement"), kind=_BIG),
    Pattern("heavenly", "天胡", "dealer's dealt hand complete", 6, flag("heavenly"), kind=_BIG),
    Pattern("earthly", "地胡", "win on the dealer's first discard", 6, flag("earthly"), kind=_BIG),
    Pattern("robbing_kong", "抢杠胡", "robbing a kong", 6, flag("robbing_kong"), kind=_BIG),
    Pattern(
        "last_tile_draw",
        "海底捞月",
        "win on the last tile, self-drawn",
        6,
        flag("wall_last") & flag("self_drawn"),
        kind=_BIG,
    ),
    Pattern(
        "last_tile_discard",
        "海底炮",
        "win on the last tile taken by another",
        6,
        flag("wall_last") & ~flag("self_drawn"),
        kind=_BIG,
    ),
)

#: What each situation key means in Changsha (the reference lists them with their types).
KEY_DOCS: dict[str, str] = {
    "hand": (
        "the hand without the winning tile (13 tiles, a declared meld counting 3), or a complete "
        "14-tile hand with ``win`` left out (天胡); with ``dealt=True``, the dealt hand: 13 tiles, "
        "14 for the dealer"
    ),
    "kong_replacement": "杠上花: won on the tile drawn after a kong (a self-drawn win)",
    "robbing_kong": "抢杠胡: won on the tile another player added to a pung to make a kong",
    "wall_last": "海底: won on the last tile; self-drawn it is 海底捞月, on a discard 海底炮",
    "heavenly": "天胡: the dealer's dealt hand is complete (a self-drawn win)",
    "earthly": "地胡: a non-dealer wins on the dealer's first discard",
    "dealt": "judge the dealt hand for the instant wins 四喜, 板板胡, 缺一色 instead of a win",
    "seat_wind": "the winner's seat, ``E`` the dealer: checked against 天胡 and 地胡 when given",
    "round_wind": "taken and checked, but it scores nothing in Changsha",
    "flowers": "Changsha plays no flowers: only none may be given",
}

KEYS = (
    HAND,
    WIN,
    FORMAT,
    EXPLAIN,
    flag_key("self_drawn"),
    *(flag_key(f) for f in _DEALT_FLAGS),
    flag_key("dealt"),
    SEAT_WIND_KEY,
    ROUND_WIND_KEY,
    ignored_flag("last_of_kind"),
    key("flowers", "flowers"),
)


def scheme(options: Mapping[str, Any]) -> dict[str, Any]:
    """The scoring data (no option changes it)."""
    return build(
        SPEC,
        keys=KEYS,
        patterns=PATTERNS,
        entry=lambda p: {"kind": p.kind},
        results=[
            ("big", "classes", [1]),
            ("small", "classes", [0, 2]),
            ("patterns", "fans"),
            ("self_drawn", "flag", "self_drawn"),
        ],
        implies=[
            ("kong_replacement", "self_drawn", "杠上花 and 天胡 are self-drawn wins"),
            ("heavenly", "self_drawn", "杠上花 and 天胡 are self-drawn wins"),
            ("dealt", "self_drawn", "the dealt-hand wins are paid as self-drawn"),
        ],
        refuse=[
            (
                flag("dealt") & any_of(*map(flag, _DEALT_FLAGS)),
                "dealt=True judges the dealt hand alone, not with 杠上花, 抢杠, 海底, 天胡 or 地胡",
            ),
            (
                flag("self_drawn") & (flag("robbing_kong") | flag("earthly")),
                "抢杠胡 and 地胡 are wins on another player's tile, not self-drawn",
            ),
            (flag("heavenly") & flag("earthly"), "天胡 is the dealer's, 地胡 a non-dealer's: not both"),
            # "天胡：指庄家。庄家起牌后，就已经胡牌": complete as dealt, before any kong.
            (
                flag("heavenly") & flag("kong_replacement"),
                "heavenly (天胡) with kong_replacement (杠上花): 天胡 is the hand complete as dealt"
                " (庄家起牌后，就已经胡牌), before any kong",
            ),
            # "地胡：...當莊家打出第一張牌後，閒家胡牌": won on the dealer's first discard.
            (
                flag("earthly") & flag("robbing_kong"),
                "earthly (地胡) with robbing_kong (抢杠): 地胡 is won on the dealer's first discard, not a kong",
            ),
            # "5)槓上花：開槓後，系統補張。玩家胡了補張的牌": the replacement follows a kong.
            (
                flag("kong_replacement") & (Q.kongs == 0),
                "kong_replacement (杠上花) needs a kong among the hand's melds (開槓後，系統補張)",
            ),
            # No replacement tile follows a kong made on the last tile, so none is made to rob.
            (
                flag("wall_last") & flag("robbing_kong"),
                "wall_last (海底) with robbing_kong (抢杠): no kong is made on the last tile",
            ),
            # 天胡 and 地胡 are won at the deal and on the first discard, the wall still full.
            (
                flag("wall_last") & (flag("heavenly") | flag("earthly")),
                "wall_last (海底) with heavenly (天胡) or earthly (地胡): the wall is full at the deal "
                "and the first discard",
            ),
            (flag("heavenly") & (Q.seat != 0), "天胡 is the dealer's (seat_wind E)"),
            (
                flag("earthly") & (Q.seat == 0) & (Q.seat_given == 1),
                "地胡 is a non-dealer's, on the dealer's first discard",
            ),
        ],
        no_win=[(form("dealt") & (Q.fan_count == 0), "no instant win (四喜, 板板胡, 缺一色) in the dealt hand")],
        unwon="last_tile",
        dealt_flag="dealt",
        incomplete="not a complete hand (平胡 needs a 2-5-8 pair; any pair only for 碰碰胡, 清一色, 七巧对, 将将胡)",
    )


def _paid(result: Mapping[str, Any], situation: Mapping[str, Any]) -> str:
    """What the win is paid, as ``settle`` pays it under the situation's options before
    any bird: by each other player when self-drawn, else by the discarder alone."""
    from ..ruleset import ruleset

    cs = ruleset("changsha")
    options = situation.get("options")
    extra = cs.options(options)["dealer_extra"]
    # A win of seat 1 with the dealer (seat 0) neither paying nor paid: the plain amount.
    win = {"seat": 1, "big": result["big"], "small": result["small"], "self_drawn": result["self_drawn"]}
    outcome = {"wins": [win], "discarder": None if result["self_drawn"] else 2, "options": options}
    amount = -cs.settle(outcome)[2]
    more = f" (+{extra} where the dealer pays or wins)" if extra else ""
    return f"{amount} from each other player{more}" if result["self_drawn"] else f"{amount} from the discarder{more}"


def describe(result: Mapping[str, Any], situation: Mapping[str, Any]) -> str:
    """The readable line(s) of ``haidi eval --rules changsha``."""
    head = f"{situation.get('hand')}" + (f" + {situation['win']}" if situation.get("win") else "")
    if not result["win"]:
        return f"{head}: no win ({result['reason']})"
    how = "self-drawn" if result["self_drawn"] else "on a discard"
    what = f"{result['big']} 大胡" if result["big"] else f"{result['small']} 小胡"
    arrangement = f"  [{result['arrangement']}]" if result["arrangement"] else ""
    lines = [f"{head}: win {how}, {what}, {_paid(result, situation)}{arrangement}"]
    for p in result["fans"]:
        n = f" x{p['count']}" if p["count"] > 1 else ""
        lines.append(f"  {p['name']}  {p['name_en']}{n}  ({p['kind']})")
    return "\n".join(lines)


def bird_seats(birds: list[str], origin: int) -> list[int]:
    """The seat each bird tile lands on: its number counted from ``origin`` (1 the origin,
    2 the next seat, 3 opposite, 4 the previous; 5 and 9 wrap to the origin)."""
    out = []
    for t in birds:
        # ASCII digits 1-9 only: str.isdigit also takes '٣' and '²'.
        if not isinstance(t, str) or len(t) != 2 or t[1] not in "mps" or t[0] not in "123456789":
            raise hand_error(f"a bird is a suited tile such as '5m', not {shown(t)}", key="birds")
        out.append((origin + int(t[0]) - 1) % 4)
    return out


#: The keys of an outcome record, and of an entry of its ``wins``.
_OUTCOME_KEYS = {"wins", "discarder", "dealer", "birds", "passed_win", "haidi_taker", "wall_last", "options"}
_WIN_KEYS = {"seat", "big", "small", *oc.RESULT_KEYS, "patterns", "self_drawn"}


def _win_entry(entry: Any, i: int, discarder: int | None) -> tuple[int, int, int]:
    e = oc.mapping(entry, f"wins[{i}]")
    oc.known_keys(e, _WIN_KEYS, f"wins[{i}]")
    s = oc.seat(e.get("seat"), f"wins[{i}].seat")
    big = oc.count(e.get("big", 0), f"wins[{i}].big", high=64)
    small = oc.count(e.get("small", 0), f"wins[{i}].small", high=64)
    if "win" in e and oc.flag(e["win"], f"wins[{i}].win") is False:
        raise hand_error(f"wins[{i}] is not a win", key=f"wins[{i}].win")
    if big == 0 and small == 0:
        raise hand_error(f"wins[{i}] scores nothing: give big or small", key=f"wins[{i}]")
    if "self_drawn" in e:
        self_drawn = oc.flag(e["self_drawn"], f"wins[{i}].self_drawn")
        if self_drawn and discarder is not None:
            raise hand_error(f"wins[{i}] was self-drawn, yet the outcome names a discarder", key="discarder")
        if not self_drawn and discarder is None:
            raise hand_error(f"wins[{i}] was won on a discard: give the discarder", key=f"wins[{i}].self_drawn")
    return s, big, small


def settle(ruleset: Ruleset, outcome: Mapping[str, Any]) -> list[int]:
    """Four payments by seat for a Changsha outcome record (keys in the module docstring).

    Each payer pays the winner the 小胡 / 大胡 amount (``big`` 大胡 add up; a win with any
    大胡 is paid as 大胡 only), plus ``dealer_extra`` when the dealer pays or receives, then
    each bird on the payer or on the winner doubles it (``bird_mode`` "double").
    """
    outcome = oc.mapping(outcome, "outcome")
    oc.known_keys(outcome, _OUTCOME_KEYS, "outcome")
    opt = ruleset.options(oc.options(outcome))
    dealer = oc.optional_seat(outcome, "dealer") or 0
    discarder = oc.optional_seat(outcome, "discarder")
    raw = oc.items(outcome.get("wins"), "wins", "{seat, big, small}", 3)
    if not raw:
        raise hand_error("outcome needs wins: a list of {seat, big, small}", key="wins")
    wins = [_win_entry(e, i, discarder) for i, e in enumerate(raw)]
    seats = [w[0] for w in wins]
    if len(set(seats)) != len(seats):
        raise hand_error("a seat wins at most once in one outcome", key="wins")
    if discarder is None and len(wins) > 1:
        raise hand_error("several winners (通炮) only on one discard: give the discarder", key="discarder")
    if discarder in seats:
        raise hand_error("the discarder cannot be a winner", key="discarder")
    passed = set(oc.seats(outcome.get("passed_win"), "passed_win"))
    if discarder is not None and passed & set(seats):
        message = "漏胡: a seat that passed a discard win cannot win on a discard before it draws"
        raise hand_error(message, key="passed_win")
    wall_last = oc.flag(oc.get(outcome, "wall_last", False), "wall_last")
    taker = oc.optional_seat(outcome, "haidi_taker")
    # Once the 海底 tile is taken no tile is left to draw, so a win is on that tile.
    if taker is not None and not wall_last:
        raise hand_error("the 海底 tile was taken, so the win is on it: give wall_last=True", key="haidi_taker")
    if wall_last and discarder is not None and taker is not None and taker != discarder:
        raise hand_error("海底炮: the discarder is the player who took the 海底 tile", key="haidi_taker")
    if wall_last and discarder is None and taker is not None and taker != seats[0]:
        raise hand_error("海底捞月: the winner is the player who took the 海底 tile", key="haidi_taker")
    # Every bird given is read (and refused if it is no tile); the first opt["birds"] count.
    birds = oc.items(outcome.get("birds"), "birds", "tiles")
    bird_seats(birds, 0)
    birds = birds[: opt["birds"]]
    pay = [0, 0, 0, 0]
    for winner, big, small in wins:
        origin = dealer if opt["bird_from"] == "dealer" else winner
        hit = Counter(bird_seats(birds, origin))
        payers = [s for s in range(4) if s != winner] if discarder is None else [discarder]
        if big:
            unit = big * opt["big_self_drawn" if discarder is None else "big_discard"]
        else:
            unit = small * opt["small_self_drawn" if discarder is None else "small_discard"]
        for p in payers:
            amount = unit + (opt["dealer_extra"] if dealer in (p, winner) else 0)
            k = hit[p] + hit[winner]
            if opt["bird_mode"] == "double":
                amount *= 2**k
            elif opt["bird_mode"] == "add_double":
                amount *= 1 + k
            else:
                amount += opt["bird_points"] * k
            pay[p] -= amount
            pay[winner] += amount
    return pay


#: Flow rules in play (docs/game.md quotes the seed for each).
GAME = GameRules(
    winners="all",
    passed_win=True,
    last_discard=False,
    haidi=True,
    dealt_wins=True,
    not_modelled=("起手胡 paid with the hand played on (the common practice)",),
    sources={
        "dealt_wins": "1)四喜：無將，起完牌後，玩家手上已有四張一樣的牌，即可胡牌。(計分等同小胡自摸)",
        "chow": "3、可行操作：可吃牌，可摸牌，可吃，可碰，可杠，可胡。",
        "winners": "3、通炮：即幾個玩家可衚衕一張牌，即為通炮，輸家要付清所有胡分。",
        "passed_win": "5 ，漏胡：如果玩家漏掉了炮胡，則在玩家摸牌前禁止炮胡。摸牌后一切正常。",
        "haidi": "1、海底牌漫遊：即玩家可選擇是否要海底牌(因含有點海底炮胡的風險) ，按照座次輪詢。",
        "haidi_discard": (
            "10) 海底炮胡：如果玩家要了海底牌卻不能胡牌，但另一玩家沒有要海底，但可以胡海底牌，即為海底炮胡。"
        ),
        "kong": "4、補張：玩家開杠后，補發玩家一張牌，即為補張。",
        "birds": "2、扎鳥：玩家胡牌后，再摸緊跟著的牌即為鳥牌。如果為海底胡，則海底牌為鳥牌。",
        "next_carry": "B 、首局后，通炮者坐莊，其次胡家坐莊。",
    },
)


def next_carry(carry: Mapping[str, Any], record: Mapping[str, Any]) -> dict[str, Any]:
    """ "B 、首局后，通炮者坐莊，其次胡家坐莊": after a 通炮 (several winners on one discard) its
    discarder deals, else the winner; a drawn hand keeps the dealer (the seed is silent:
    the common rule)."""
    wins = record["wins"]
    if not wins:
        return _carry.passed(carry, 0)
    return _carry.passed(carry, wins[0]["discarder"] if len(wins) > 1 else wins[0]["seat"])


def game_outcome(record: Mapping[str, Any], wins: list[dict[str, Any]], options: Any) -> dict[str, Any] | None:
    """The ``settle`` record of a hand played by ``haidi.Game``: every winner (通炮), the
    birds drawn after the win ("再摸緊跟著的牌即為鳥牌"), the 海底 tile itself for a 海底
    win ("如果為海底胡，則海底牌為鳥牌")."""
    if not wins:
        return None
    first = record["wins"][0]
    birds = [first["tile"]] if first["wall_last"] else list(record["rest"])
    return {
        "wins": [
            {"seat": w["seat"], "big": w["score"]["big"], "small": w["score"]["small"], "self_drawn": r["self_drawn"]}
            for w, r in zip(wins, record["wins"], strict=True)
        ],
        "discarder": first["discarder"],
        "dealer": record["dealer"],
        "birds": birds[:16],
        "passed_win": record["passed_win"],
        "haidi_taker": record["haidi_taker"],
        "wall_last": first["wall_last"],
        **({"options": options} if options else {}),
    }
