"""Changsha (长沙麻将; the seed calls it 广东麻将): 108 suited tiles, a 2-5-8 pair for 小胡.

Rulings and sources: docs/changsha.md.

Situation keys (keywords of ``evaluate``):

- ``hand``: the hand without the winning tile (13 tiles, a meld counting as 3), or a
  complete 14-tile hand with ``win`` left out (天胡). With ``dealt=True``: the dealt hand,
  13 tiles (14 for the dealer), judged for the instant wins 四喜, 板板胡, 缺一色.
- ``win``: the winning tile. ``self_drawn``: 自摸.
- ``kong_replacement`` (杠上花, self-drawn), ``robbing_kong`` (抢杠胡, on a kong tile),
  ``wall_last`` (海底: self-drawn it is 海底捞月, on a discard 海底炮), ``heavenly`` (天胡,
  the dealer's dealt hand), ``earthly`` (地胡, a non-dealer on the dealer's first discard).
- ``dealt``: judge the dealt hand for the instant wins instead.
- ``seat_wind`` (E the dealer): checked against 天胡 / 地胡 when given. ``round_wind`` and
  ``last_of_kind`` are taken and ignored, so one situation file serves several rulesets.
- ``format`` ("compact" or "comh"), ``options`` (see ``OPTIONS``; none change ``evaluate``
  today, they are taken so that one dict of options serves both calls).

``evaluate`` returns ``{"win", "big", "small", "patterns": [{"id", "name", "name_en",
"kind", "count"}], "self_drawn", "form", "arrangement", "reason"}``. ``big`` counts the
大胡 (they add up); ``small`` is 1 for a 平胡 and 0 when any 大胡 is present (a 大胡 hand of
小胡 shape scores as 大胡 alone); for the dealt hand it counts the instant wins.

Outcome record of ``settle`` (a dict):

- ``wins``: a list of ``{"seat", "big", "small"}`` (an ``evaluate`` result with a
  ``seat`` added will do). Several entries only on one discard (通炮).
- ``discarder``: the seat that discarded the winning tile (the kong's owner for 抢杠胡,
  the player who took the 海底 tile for 海底炮); None or absent for a self-drawn win.
- ``dealer``: the dealer's seat (default 0). Birds are counted from it.
- ``birds``: the bird tiles (扎鸟): the tiles drawn after the win, in order; for a 海底 win
  the 海底 tile itself. The first ``options["birds"]`` of them count.
- ``passed_win`` (漏胡): seats that passed a discard win and have not drawn since; such a
  seat cannot win on a discard. ``haidi_taker`` (海底漫游): the seat that took the 海底
  tile; when given with ``wall_last=True`` and a discarder, the two must agree. These are
  recorded and checked for consistency; a game engine that enforces them comes later.
- ``wall_last``: the win was on the 海底 tile.
- ``options``: overrides of ``OPTIONS``.

``settle`` returns four amounts by seat, positive for what a seat receives, summing to 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._core import Hand, HandError
from . import _outcome as oc
from ._spec import SUITED_TILES, RulesetSpec

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

#: Settlement options. Amounts are per payer and per 小胡 / 大胡 (the common Changsha table;
#: the seed gives none, see docs/changsha.md).
OPTIONS: dict[str, Any] = {
    "small_self_drawn": 2,  # 小胡自摸: each other player pays
    "small_discard": 1,  # 小胡 on a discard: the discarder pays
    "big_self_drawn": 6,  # each 大胡 self-drawn: each other player pays
    "big_discard": 6,  # each 大胡 on a discard: the discarder pays
    "dealer_extra": 0,  # 算庄闲: added to a payment the dealer makes or receives
    "birds": 1,  # bird tiles that count (扎鸟); 0 plays without birds
    "bird_from": "dealer",  # "dealer" (the seed) or "winner"
    "bird_mode": "double",  # "double" (x2 a bird), "add_double" (x(1+birds)), "add" (+bird_points a bird)
    "bird_points": 1,  # with bird_mode "add"
}

#: The patterns: id, Chinese name, English name, kind ("small", "dealt" or "big").
PATTERNS: dict[str, tuple[str, str, str]] = {
    "ping_hu": ("平胡", "plain win (2-5-8 pair)", "small"),
    "four_of_a_kind": ("四喜", "four of a kind dealt", "dealt"),
    "no_258": ("板板胡", "no 2, 5 or 8 dealt", "dealt"),
    "missing_suit": ("缺一色", "a suit missing from the dealt hand", "dealt"),
    "seven_pairs": ("七巧对", "seven pairs", "big"),
    "all_pungs": ("碰碰胡", "all pungs", "big"),
    "all_258": ("将将胡", "every tile 2, 5 or 8", "big"),
    "one_suit": ("清一色", "one suit", "big"),
    "kong_bloom": ("杠上花", "win on a kong's replacement tile", "big"),
    "heavenly": ("天胡", "dealer's dealt hand complete", "big"),
    "earthly": ("地胡", "win on the dealer's first discard", "big"),
    "robbing_kong": ("抢杠胡", "robbing a kong", "big"),
    "last_tile_draw": ("海底捞月", "win on the last tile, self-drawn", "big"),
    "last_tile_discard": ("海底炮", "win on the last tile taken by another", "big"),
}

_FLAGS = ("self_drawn", "kong_replacement", "robbing_kong", "wall_last", "heavenly", "earthly", "dealt")
#: Keys of the MCR situation that mean nothing here, taken so one situation file serves
#: several rulesets. ``flowers`` must be empty: Changsha plays no flowers.
_IGNORED = {"round_wind", "last_of_kind"}
_KEYS = {"hand", "win", "format", "options", "seat_wind", "flowers", *_FLAGS, *_IGNORED}


def _pattern(pid: str, n: int = 1) -> dict[str, Any]:
    name, en, kind = PATTERNS[pid]
    return {"id": pid, "name": name, "name_en": en, "kind": kind, "count": n}


def dealt_wins(hand: Hand) -> list[dict[str, Any]]:
    """The instant wins of a dealt hand (起手胡): 四喜 once for each kind held four times,
    板板胡 (no 2, 5 or 8), 缺一色 (a suit missing). Each scores as a 小胡 self-draw."""
    tiles = oc.all_tiles(hand)
    out = []
    fours = sum(1 for c in Counter(tiles).values() if c == 4)
    if fours:
        out.append(_pattern("four_of_a_kind", fours))
    if not any(oc.rank(t) in (2, 5, 8) for t in tiles):
        out.append(_pattern("no_258"))
    if len({oc.suit(t) for t in tiles}) < 3:
        out.append(_pattern("missing_suit"))
    return out


def _shape_patterns(arr: dict[str, Any], tiles: list[str]) -> list[str]:
    """The 大胡 of one arrangement's shape, plus those of the whole hand."""
    found = []
    if arr["form"] == "seven_pairs":
        found.append("seven_pairs")
    if arr["form"] == "standard" and all(g["kind"] in ("pung", "kong", "pair") for g in arr["groups"]):
        found.append("all_pungs")
    if all(oc.rank(t) in (2, 5, 8) for t in tiles):
        found.append("all_258")
    if len({oc.suit(t) for t in tiles}) == 1:
        found.append("one_suit")
    return found


def _pair_is_258(arr: dict[str, Any]) -> bool:
    pairs = [g for g in arr["groups"] if g["kind"] == "pair"]
    return arr["form"] == "standard" and len(pairs) == 1 and oc.rank(pairs[0]["tiles"][0]) in (2, 5, 8)


def evaluate(ruleset: Ruleset, **situation: Any) -> dict[str, Any]:
    """Scores one Changsha win (keys in the module docstring).

    Raises:
        haidi.HandError: bad notation, wrong size, unknown keys, contradictory flags.
    """
    oc.unknown_keys(situation, _KEYS, "changsha")
    oc.options(OPTIONS, situation.get("options"), "changsha")
    fmt = situation.get("format", "compact")
    flags = {k: oc.flag(situation.get(k, False), k) for k in _FLAGS}
    if flags["dealt"]:
        return _evaluate_dealt(ruleset, situation, flags, fmt)
    if flags["kong_replacement"] or flags["heavenly"]:
        if "self_drawn" in situation and not flags["self_drawn"]:
            raise HandError("杠上花 and 天胡 are self-drawn wins")
        flags["self_drawn"] = True
    if flags["self_drawn"] and (flags["robbing_kong"] or flags["earthly"]):
        raise HandError("抢杠胡 and 地胡 are wins on another player's tile, not self-drawn")
    if flags["heavenly"] and flags["earthly"]:
        raise HandError("天胡 is the dealer's, 地胡 a non-dealer's: not both")
    if situation.get("seat_wind") is not None:
        dealer = oc.seat(situation["seat_wind"], "seat_wind") == 0
        if flags["heavenly"] and not dealer:
            raise HandError("天胡 is the dealer's (seat_wind E)")
        if flags["earthly"] and dealer:
            raise HandError("地胡 is a non-dealer's, on the dealer's first discard")
    if situation.get("flowers") not in (None, 0, "", []):
        raise HandError("Changsha plays 108 tiles without flowers")
    hand, _ = oc.complete_hand(ruleset, situation.get("hand"), situation.get("win"), fmt)
    if hand.flowers:
        raise HandError("Changsha plays 108 tiles without flowers")
    arrs = ruleset.decompose(hand)
    base = {"self_drawn": flags["self_drawn"], "big": 0, "small": 0, "patterns": []}
    if not arrs:
        reason = "not a complete hand (平胡 needs a 2-5-8 pair; any pair only for 碰碰胡, 清一色, 七巧对, 将将胡)"
        return {"win": False, **base, "form": None, "arrangement": None, "reason": reason}
    situational = [
        pid
        for pid, on in (
            ("kong_bloom", flags["kong_replacement"]),
            ("heavenly", flags["heavenly"]),
            ("earthly", flags["earthly"]),
            ("robbing_kong", flags["robbing_kong"]),
            ("last_tile_draw", flags["wall_last"] and flags["self_drawn"]),
            ("last_tile_discard", flags["wall_last"] and not flags["self_drawn"]),
        )
        if on
    ]
    tiles = oc.all_tiles(hand)
    best: tuple[int, int, dict[str, Any], list[str]] | None = None
    for i, arr in enumerate(arrs):
        shape = _shape_patterns(arr, tiles)
        # An arrangement whose pair is not 2-5-8 stands only through a 大胡 shape.
        if not shape and not _pair_is_258(arr):
            continue
        key = (len(shape), -i)
        if best is None or key > best[:2]:
            best = (len(shape), -i, arr, shape)
    if best is None:  # every arrangement needs a pattern it lacks (cannot happen with SPEC's forms)
        return {"win": False, **base, "form": None, "arrangement": None, "reason": "no 2-5-8 pair"}
    _, _, arr, shape = best
    big = shape + situational
    patterns = [_pattern(p) for p in big] if big else [_pattern("ping_hu")]
    return {
        "win": True,
        "self_drawn": flags["self_drawn"],
        "big": len(big),
        "small": 0 if big else 1,
        "patterns": patterns,
        "form": arr["form"],
        "arrangement": oc.arrangement_text(arr["groups"]),
        "reason": None,
    }


def _evaluate_dealt(ruleset: Ruleset, situation: Mapping[str, Any], flags: dict[str, bool], fmt: str) -> dict[str, Any]:
    if situation.get("win") is not None:
        raise HandError("a dealt hand (dealt=true) has no winning tile")
    others = [k for k in _FLAGS if k not in ("dealt", "self_drawn") and flags[k]]
    if others:
        raise HandError(f"dealt=true judges the dealt hand alone, not with {', '.join(others)}")
    raw = situation.get("hand")
    if raw is None:
        raise HandError("the situation needs a hand")
    hand = raw if isinstance(raw, Hand) else Hand(str(raw), fmt)
    if hand.melds or hand.flowers:
        raise HandError("a dealt hand has no melds and no flowers")
    if hand.size not in (ruleset.hand_size, ruleset.hand_size + 1):
        raise HandError(f"a dealt hand has 13 tiles (14 for the dealer), not {hand.size}")
    ruleset.shanten(hand)  # refuses tiles not in the set and fifth copies
    patterns = dealt_wins(hand)
    n = sum(p["count"] for p in patterns)
    return {
        "win": n > 0,
        "self_drawn": True,
        "big": 0,
        "small": n,
        "patterns": patterns,
        "form": "dealt" if n else None,
        "arrangement": None,
        "reason": None if n else "no instant win (四喜, 板板胡, 缺一色) in the dealt hand",
    }


def describe(result: Mapping[str, Any], situation: Mapping[str, Any]) -> str:
    """The readable line(s) of ``haidi eval --rules changsha``."""
    head = f"{situation.get('hand')}" + (f" + {situation['win']}" if situation.get("win") else "")
    if not result["win"]:
        return f"{head}: no win ({result['reason']})"
    how = "self-drawn" if result["self_drawn"] else "on a discard"
    if result["big"]:
        what = f"{result['big']} 大胡"
    else:
        what = f"{result['small']} 小胡"
    lines = [f"{head}: win {how}, {what}" + (f"  [{result['arrangement']}]" if result["arrangement"] else "")]
    for p in result["patterns"]:
        n = f" x{p['count']}" if p["count"] > 1 else ""
        lines.append(f"  {p['name']}  {p['name_en']}{n}  ({p['kind']})")
    return "\n".join(lines)


def bird_seats(birds: list[str], origin: int) -> list[int]:
    """The seat each bird tile lands on: its number counted from ``origin`` (1 the origin,
    2 the next seat, 3 opposite, 4 the previous; 5 and 9 wrap to the origin)."""
    out = []
    for t in birds:
        if not isinstance(t, str) or len(t) != 2 or t[1] not in "mps" or not t[0].isdigit() or t[0] == "0":
            raise HandError(f"a bird is a suited tile such as '5m', not {t!r}")
        out.append((origin + int(t[0]) - 1) % 4)
    return out


def _win_entry(entry: Any, i: int) -> tuple[int, int, int]:
    e = oc.mapping(entry, f"wins[{i}]")
    s = oc.seat(e.get("seat"), f"wins[{i}].seat")
    big = oc.count(e.get("big", 0), f"wins[{i}].big")
    small = oc.count(e.get("small", 0), f"wins[{i}].small")
    if big == 0 and small == 0:
        raise HandError(f"wins[{i}] scores nothing: give big or small")
    if "win" in e and e["win"] is False:
        raise HandError(f"wins[{i}] is not a win")
    return s, big, small


def settle(ruleset: Ruleset, outcome: Mapping[str, Any]) -> list[int]:
    """Four payments by seat for a Changsha outcome record (keys in the module docstring).

    Each payer pays the winner the 小胡 / 大胡 amount (``big`` 大胡 add up; a win with any
    大胡 is paid as 大胡 only), plus ``dealer_extra`` when the dealer pays or receives, then
    each bird on the payer or on the winner doubles it (``bird_mode`` "double").
    """
    outcome = oc.mapping(outcome, "outcome")
    opt = oc.options(OPTIONS, outcome.get("options"), "changsha")
    if opt["bird_from"] not in ("dealer", "winner"):
        raise HandError("option bird_from is 'dealer' or 'winner'")
    if opt["bird_mode"] not in ("double", "add_double", "add"):
        raise HandError("option bird_mode is 'double', 'add_double' or 'add'")
    dealer = 0 if outcome.get("dealer") is None else oc.seat(outcome["dealer"], "dealer")
    discarder = oc.optional_seat(outcome, "discarder")
    raw = outcome.get("wins")
    if not isinstance(raw, list) or not raw:
        raise HandError("outcome needs wins: a list of {seat, big, small}")
    wins = [_win_entry(e, i) for i, e in enumerate(raw)]
    seats = [w[0] for w in wins]
    if len(set(seats)) != len(seats):
        raise HandError("a seat wins at most once in one outcome")
    if discarder is None and len(wins) > 1:
        raise HandError("several winners (通炮) only on one discard: give the discarder")
    if discarder in seats:
        raise HandError("the discarder cannot be a winner")
    passed = {oc.seat(s, "passed_win") for s in outcome.get("passed_win") or []}
    if discarder is not None and passed & set(seats):
        raise HandError("漏胡: a seat that passed a discard win cannot win on a discard before it draws")
    if outcome.get("wall_last") and discarder is not None and outcome.get("haidi_taker") is not None:
        if oc.seat(outcome["haidi_taker"], "haidi_taker") != discarder:
            raise HandError("海底炮: the discarder is the player who took the 海底 tile")
    birds = outcome.get("birds") or []
    if not isinstance(birds, list):
        raise HandError("birds must be a list of tiles")
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
