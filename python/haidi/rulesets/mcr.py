"""MCR, Mahjong Competition Rules (国标麻将): 144 tiles, 13-tile hands, 81 fans.

Situation keys (keywords of ``evaluate``, keys of the dicts of ``evaluate_many``):
``KEY_DOCS`` below, listed with their types in ``help(haidi.ruleset("mcr").evaluate)``
and in docs/reference/mcr.md. The result keys are those of ``haidi.results.MCRResult``.

Rulings: docs/mcr-fans.md and docs/mcr-differences.md. The default follows the 2006
list of the seed; ``concealed_and_melded_kong=True`` scores ChineseOfficialMahjongHelper's
明暗杠 (5 points) for one concealed and one melded kong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import _core
from .._errors import hand_error
from . import _carry
from . import _outcome as oc
from ._scheme import EXPLAIN, FORMAT, HAND, ROUND_WIND_KEY, SEAT_WIND_KEY, WIN, Option, flag_key, key
from ._spec import ALL_TILES, GameRules, RulesetSpec

if TYPE_CHECKING:
    from ..ruleset import Ruleset

SPEC = RulesetSpec(
    name="mcr",
    title="MCR / Chinese Official (国标麻将)",
    melds=4,
    tiles=ALL_TILES,
    flowers="12345678f",
    forms=dict(
        seven_pairs=True,
        # 七对 may hold four of a kind as two pairs (it then also scores 四归一).
        four_as_two_pairs=True,
        thirteen_orphans=True,
        honours_and_knitted=True,
        knitted_straight=True,
    ),
    source="seeds 000/001/004: the 81-fan list",
)

#: Base of the standard payment (底分).
BASE = 8


def scorer(options: dict[str, Any]) -> _core.McrScorer:
    """MCR is scored by its own fan code in Rust, not by a ``scheme``: its scorer for these
    options (checked), what ``Game``, ``analyze`` and ``eval --jsonl`` score with."""
    return _core.McrScorer(options["concealed_and_melded_kong"])


#: The ids of the ``fans`` columns of ``evaluate_many``, in order: column 0 is the optional
#: 明暗杠 (``concealed_and_melded_kong``; its ``id`` in results is None), then fans 1 to 81.
FAN_IDS: tuple[int | None, ...] = (None, *range(1, 82))

_FLAGS = ("self_drawn", "last_of_kind", "wall_last", "kong_replacement", "robbing_kong")


#: The situation keys, read in Rust by ``_core.mcr_evaluate`` (whose keyword parameters
#: they are: tests/test_docs.py holds the two together).
KEYS = (
    HAND,
    WIN,
    FORMAT,
    EXPLAIN,
    *(flag_key(f) for f in _FLAGS),
    SEAT_WIND_KEY,
    ROUND_WIND_KEY,
    key("flowers", "flowers"),
)

#: What each situation key means in MCR (the reference lists them with their types).
KEY_DOCS: dict[str, str] = {
    "hand": (
        'the hand without the winning tile, or with ``format="comh"`` a ChineseOfficialMahjongHelper '
        "case string, which may carry the winning tile last and the situation at its end"
    ),
    "last_of_kind": (
        "和绝张: the winning tile is the last of its kind (set by itself when the melds show the other three)"
    ),
    "wall_last": "the winning tile is the wall's last: 妙手回春 self-drawn, 海底捞月 on a discard",
    "kong_replacement": "杠上开花: won on the tile drawn after a kong (self-drawn)",
    "robbing_kong": "抢杠和: won on the tile another player added to a pung to make a kong",
    "seat_wind": "the winner's seat wind (门风刻)",
    "round_wind": "the prevailing wind (圈风刻)",
    "flowers": 'the flowers held, 0-8 or as tiles (``"13f"``): 1 point each (花牌), not counted towards the 8',
}
#: ``flowers`` is also a count in MCR.
KEY_TYPES = {"flowers": 'int 0-8, or a str of flower tiles (``"13f"``)'}

#: Scores one situation: ``evaluate(ruleset, **situation)``, called as
#: ``haidi.ruleset("mcr").evaluate(**situation)``. Written in Rust (no Python frame in
#: between, as per-call speed matters to game servers). ``fans`` is a tuple of dicts, the
#: result's own, which the garbage collector need not follow (docs/scoring.md). Raises
#: ``haidi.HandError`` for bad notation, a wrong size, a fifth tile, contradictory flags or
#: an unknown key.
evaluate = _core.mcr_evaluate


#: The options (docs/mcr-fans.md): ``concealed_and_melded_kong`` is also a situation key.
OPTIONS: tuple[Option, ...] = (
    Option(
        "concealed_and_melded_kong",
        False,
        "score ChineseOfficialMahjongHelper's 明暗杠 (5) for one concealed and one melded kong, not 明杠 + 暗杠 (3)",
        acts="evaluate",
    ),
)
#: Options that may also be given as situation keys.
OPTION_KEYS = ("concealed_and_melded_kong",)
#: ``Ruleset.evaluate_many``'s keywords of MCR's own: the option as a keyword of the call.
EVALUATE_MANY_KEYWORDS = ("concealed_and_melded_kong",)


def describe(result: Mapping[str, Any], situation: Mapping[str, Any]) -> str:
    """The readable form ``haidi eval`` prints: the total, then a fan a line with its id."""
    head = f"{situation.get('hand')}" + (f" + {situation['win']}" if situation.get("win") else "")
    lines = [f"{head}: {'win' if result['win'] else 'no win'}, {result['total']} points"]
    if result.get("reason"):
        lines.append(f"  ({result['reason']})")
    for f in result["fans"]:
        fid = "--" if f["id"] is None else f"{f['id']:2d}"
        count = f" x{f['count']}" if f["count"] > 1 else ""
        lines.append(f"  {fid}  {f['name']}  {f['name_en']}{count}  {f['value'] * f['count']}")
    for e in result.get("excluded", []):
        by = f" by {e['by_name']}" if e.get("by_name") else ""
        lines.append(f"  not counted: {e['name']} x{e['count']}{by} ({e['rule']})")
    return "\n".join(lines)


#: The keys of an MCR outcome record.
_OUTCOME_KEYS = {"winner", "discarder", "total", "options"}
#: The least points of a win, flowers left out ("81 花牌 ... 不計在起和分內").
MIN_POINTS = 8
#: Far above any hand's points (the fans of one hand add up to a few hundred at most).
MAX_TOTAL = 100_000


def settle(ruleset: Ruleset, outcome: Mapping[str, Any]) -> list[int]:
    """The MCR standard payment (base 8).

    Args:
        outcome: ``{"winner": seat, "discarder": seat or None, "total": points}``;
            seats 0-3 (or E, S, W, N), seat 0 the dealer (East), then in turn order.
            ``discarder`` None (or absent) means self-drawn; ``total`` is at least 8,
            the least a win scores before its flowers. Other keys are refused
            (a misspelt ``discarder`` would pay a discard win as self-drawn).

    Returns:
        Four amounts by seat, positive for what a seat receives; they sum to zero.
        Self-drawn: each other seat pays 8 + total. On a discard: the discarder pays
        8 + total, the two others 8 each.
    """

    outcome = oc.mapping(outcome, "outcome")
    oc.known_keys(outcome, _OUTCOME_KEYS, "outcome")
    ruleset.options(oc.options(outcome))  # checked: no MCR option changes the payment
    if outcome.get("winner") is None:
        raise hand_error("outcome needs a winner", key="winner")
    winner = oc.seat(outcome["winner"], "winner")
    discarder = oc.optional_seat(outcome, "discarder")
    if discarder == winner:
        raise hand_error("the winner cannot be the discarder", key="discarder")
    # A win scores 8 points before its flowers, and the total counts them: a total under 8
    # is no win.
    total = oc.count(outcome.get("total"), "total", MIN_POINTS, MAX_TOTAL)
    pay = [0, 0, 0, 0]
    for s in range(4):
        if s == winner:
            continue
        pay[s] = -(BASE + int(total)) if discarder is None or s == discarder else -BASE
    pay[winner] = -sum(pay)
    return pay


#: Flow rules in play (docs/game.md): the seed lists fans only, so the common competition
#: rules are followed: chows from the left, one winner on a discard (截和), no 漏胡.
GAME = GameRules(
    winners="first",
    concealed_kong_shown=False,
    sources={
        "flowers": "81 花牌 即春夏秋冬，梅蘭竹菊，每花計一分。不計在起和分內",
        "concealed_kong_shown": "58 和絕張 和牌池、桌面已亮明的3張牌所剩的第4張牌",
    },
)


def next_carry(carry: Mapping[str, Any], record: Mapping[str, Any]) -> dict[str, Any]:
    """The competition rule (the seed is silent): the deal passes to the next seat after
    every hand, won or drawn, and the prevailing wind moves on once each player has dealt."""
    return _carry.passed(carry, 1)


def game_outcome(record: Mapping[str, Any], wins: list[dict[str, Any]], options: Any) -> dict[str, Any] | None:
    """The ``settle`` record of a hand played by ``haidi.Game``: the one winner (截和)."""
    if not wins:
        return None
    w = wins[0]
    return {"winner": w["seat"], "discarder": record["wins"][0]["discarder"], "total": w["score"]["total"]}
