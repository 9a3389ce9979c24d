"""Hainan (海南麻将): 144 tiles with eight flowers; a 番 is needed to win on a discard.

Rulings and quotes: docs/hainan.md. In Hainan a 番 is a condition for winning, not a
multiplier ("番是指胡牌的前提,而不是倍数"): a win on a discard needs at least one of the
11 番 of the text; a self-drawn win needs none ("无论有番或者无番，自己摸到最后一张牌就算自摸").

Situation keys (keywords of ``evaluate``):

- ``hand``: the hand without the winning tile (13 tiles, a meld counting as 3; flowers
  may be written in it, ``15f``), or a complete hand with ``win`` left out.
- ``win``: the winning tile. ``self_drawn``: 自摸. ``robbing_kong``: 抢杠 (a discard win).
- ``seat`` (0-3 counted from the dealer in turn order) or ``seat_wind`` (E S W N, E the
  dealer): decides the seat flower and the seat wind. Default: the dealer.
- ``flowers``: the flowers set aside (``"15f"`` or a list of tiles), added to any in ``hand``.
- ``format``, ``options`` (see ``OPTIONS``). ``round_wind``, ``last_of_kind``,
  ``wall_last`` and ``kong_replacement`` are taken and ignored (no 番 of the text).

``evaluate`` returns ``{"win", "complete", "discard_win", "self_drawn", "fans": [{"id",
"name", "name_en"}], "form", "arrangement", "reason"}``: ``complete`` says whether the
tiles form a winning shape, ``discard_win`` whether that shape may win on a discard (it has
a 番), ``win`` whether this situation is a win.

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

from .._core import Hand, HandError
from . import _outcome as oc
from ._spec import ALL_TILES, RulesetSpec

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

OPTIONS: dict[str, Any] = {
    "discard_each": 10,  # 平胡: each player other than the discarder pays
    "discard_discarder": 20,  # 平胡: the discarder pays
    "self_drawn_each": 20,  # 自摸: each other player pays
    "exposed_kong_each": 10,  # 明杠 and 补杠: each other player pays
    "concealed_kong_each": 20,  # 暗杠: each other player pays
    "streak_discard_add": 10,  # a streak step adds this to the dealer's amounts after a 平胡
    "streak_growth": "linear",  # after a 自摸 each streak step adds one more time ("exponential": doubles)
    "white_dragon": False,  # a pung of 白 is a 番 too (the text's second list: 中发白)
    "concealed_kong_keeps_concealed": False,  # 门清 with an 暗杠 (the text: no 杠 of any kind)
    "flower_order": "seed",  # seat flowers: "seed" (春梅 夏兰 秋菊 冬竹) or "mcr" (春梅 夏兰 秋竹 冬菊)
    "kongs_paid_on_draw": True,  # kongs are paid in a drawn hand (黄庄)
    "bao_kongs_as_pungs": True,  # 包牌: a kong claimed from a discard counts as a pung
}

#: The 11 番 of the text (A, 1-11), in its order: id, Chinese name, English name.
FANS: dict[str, tuple[str, str]] = {
    "all_chows": ("只吃不碰", "only chows and one pair"),
    "concealed": ("门清", "no chow, pung or kong declared"),
    "all_pungs": ("碰碰胡", "all pungs"),
    "one_suit": ("清一色", "one suit"),
    "pair_258": ("二五八将", "a 2, 5 or 8 pair"),
    "robbing_kong": ("抢杠", "robbing a kong"),
    "dragon_pung": ("中发刻", "a pung of 中 or 发"),
    "seat_flower": ("本位花", "the flower of one's seat"),
    "seat_wind_pung": ("本位风刻", "a pung of one's seat wind"),
    "thirteen_orphans": ("十三幺", "thirteen orphans"),
    "seven_pairs": ("七对", "seven pairs"),
}

#: Flowers 1f-8f are 春夏秋冬梅兰竹菊; the seat each belongs to, seat 0 the dealer.
SEAT_FLOWERS = {
    # "庄家摸春或梅,庄家下家摸夏或兰,庄家对家摸秋或菊,庄家上家摸冬或竹"
    "seed": {"1f": 0, "5f": 0, "2f": 1, "6f": 1, "3f": 2, "8f": 2, "4f": 3, "7f": 3},
    "mcr": {"1f": 0, "5f": 0, "2f": 1, "6f": 1, "3f": 2, "7f": 2, "4f": 3, "8f": 3},
}

_WIND_TILES = ("1z", "2z", "3z", "4z")
#: Keys of the MCR situation that change no 番 here, taken so one situation file serves
#: several rulesets (Hainan has no 杠上花, 海底 or 和绝张 番).
_IGNORED = {"round_wind", "last_of_kind", "wall_last", "kong_replacement"}
_KEYS = {"hand", "win", "self_drawn", "robbing_kong", "seat", "seat_wind", "flowers", "format", "options", *_IGNORED}


def _fan(fid: str) -> dict[str, Any]:
    name, en = FANS[fid]
    return {"id": fid, "name": name, "name_en": en}


def _flowers(value: Any, fmt: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        value = "".join(str(v) for v in value)
    if not isinstance(value, str):
        raise HandError(f"hainan needs the flower tiles held (e.g. '15f'), not {value!r}")
    h = Hand(value, fmt) if value else None
    if h is not None and (h.size or h.melds):
        raise HandError(f"flowers must be flower tiles 1f-8f, not {value!r}")
    return list(h.flowers) if h is not None else []


def _arrangement_fans(arr: dict[str, Any], hand: Hand, seat: int, flowers: list[str], opt: dict[str, Any]) -> list[str]:
    groups = arr["groups"]
    form = arr["form"]
    sets = [g for g in groups if g["kind"] != "pair"]
    pairs = [g for g in groups if g["kind"] == "pair"]
    tiles = oc.all_tiles(hand)
    found = []
    if form == "standard" and all(g["kind"] == "chow" for g in sets):
        found.append("all_chows")
    declared = [m for m in hand.melds if m.kind != "concealed_kong" or not opt["concealed_kong_keeps_concealed"]]
    if not declared:
        found.append("concealed")
    if form == "standard" and all(g["kind"] in ("pung", "kong") for g in sets):
        found.append("all_pungs")
    if len({oc.suit(t) for t in tiles}) == 1 and oc.suit(tiles[0]) != "z":
        found.append("one_suit")
    if form == "standard" and pairs and oc.suit(pairs[0]["tiles"][0]) != "z":
        if oc.rank(pairs[0]["tiles"][0]) in (2, 5, 8):
            found.append("pair_258")
    dragons = {"6z", "7z"} | ({"5z"} if opt["white_dragon"] else set())
    pungs = {g["tiles"][0] for g in sets if g["kind"] in ("pung", "kong")}
    if pungs & dragons:
        found.append("dragon_pung")
    owner = SEAT_FLOWERS[opt["flower_order"]]
    if any(owner[f] == seat for f in flowers):
        found.append("seat_flower")
    if _WIND_TILES[seat] in pungs:
        found.append("seat_wind_pung")
    if form == "thirteen_orphans":
        found.append("thirteen_orphans")
    if form == "seven_pairs":
        found.append("seven_pairs")
    return found


def _seat(situation: Mapping[str, Any]) -> int:
    s = situation.get("seat")
    w = situation.get("seat_wind")
    if s is not None and w is not None and oc.seat(s, "seat") != oc.seat(w, "seat_wind"):
        raise HandError("seat and seat_wind disagree")
    if s is not None:
        return oc.seat(s, "seat")
    if w is not None:
        if not (isinstance(w, str) and w.upper() in oc.WINDS and len(w) == 1):
            raise HandError(f"seat_wind must be E, S, W or N, not {w!r}")
        return oc.seat(w, "seat_wind")
    return 0


def _options(given: Any) -> dict[str, Any]:
    opt = oc.options(OPTIONS, given, "hainan")
    if opt["flower_order"] not in SEAT_FLOWERS:
        raise HandError("option flower_order is 'seed' or 'mcr'")
    if opt["streak_growth"] not in ("linear", "exponential"):
        raise HandError("option streak_growth is 'linear' or 'exponential'")
    return opt


def evaluate(ruleset: Ruleset, **situation: Any) -> dict[str, Any]:
    """Judges one Hainan win: its 番, and whether it may win on a discard.

    Raises:
        haidi.HandError: bad notation, wrong size, unknown keys, contradictory flags.
    """
    oc.unknown_keys(situation, _KEYS, "hainan")
    opt = _options(situation.get("options"))
    fmt = situation.get("format", "compact")
    self_drawn = oc.flag(situation.get("self_drawn", False), "self_drawn")
    robbing = oc.flag(situation.get("robbing_kong", False), "robbing_kong")
    if self_drawn and robbing:
        raise HandError("抢杠 is a win on another player's kong tile, not self-drawn")
    seat = _seat(situation)
    hand, _ = oc.complete_hand(ruleset, situation.get("hand"), situation.get("win"), fmt)
    flowers = list(hand.flowers) + _flowers(situation.get("flowers"), fmt)
    if len(set(flowers)) != len(flowers):
        raise HandError("each flower is in the set once")
    base = {"self_drawn": self_drawn, "fans": []}
    arrs = ruleset.decompose(hand)
    if not arrs:
        empty = {"form": None, "arrangement": None, "reason": "not a complete hand"}
        return {"win": False, "complete": False, "discard_win": False, **base, **empty}
    best = None
    for arr in arrs:
        fans = _arrangement_fans(arr, hand, seat, flowers, opt) + (["robbing_kong"] if robbing else [])
        if best is None or len(fans) > len(best[1]):
            best = (arr, fans)
    assert best is not None
    arr, fans = best
    ids = [f for f in FANS if f in fans]
    discard_win = bool(ids)
    win = self_drawn or discard_win
    reason = None if win else "有番才能胡: no 番, so this hand wins only self-drawn"
    return {
        "win": win,
        "complete": True,
        "discard_win": discard_win,
        "self_drawn": self_drawn,
        "fans": [_fan(f) for f in ids],
        "form": arr["form"],
        "arrangement": oc.arrangement_text(arr["groups"]),
        "reason": reason,
    }


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
    if claims is None:
        return set()
    if not isinstance(claims, list):
        raise HandError("claims must be a list of {by, from, meld}")
    chows: Counter[tuple[int, int]] = Counter()
    pungs: Counter[tuple[int, int]] = Counter()
    for i, c in enumerate(claims):
        c = oc.mapping(c, f"claims[{i}]")
        by, frm = oc.seat(c.get("by"), f"claims[{i}].by"), oc.seat(c.get("from"), f"claims[{i}].from")
        meld = c.get("meld")
        if by == frm:
            raise HandError(f"claims[{i}]: a player claims another's discard")
        if meld == "chow":
            if frm != (by - 1) % 4:
                raise HandError(f"claims[{i}]: a chow is claimed only from the player before (上家)")
            chows[(frm, by)] += 1
        elif meld == "pung" or (meld == "kong" and opt["bao_kongs_as_pungs"]):
            pungs[(frm, by)] += 1
        elif meld != "kong":
            raise HandError(f"claims[{i}].meld must be chow, pung or kong, not {meld!r}")
    return {k for k, n in chows.items() if n >= 3} | {k for k, n in pungs.items() if n >= 3}


def _streak_amount(amount: int, involves_dealer: bool, streak: int, self_drawn: bool, opt: Mapping[str, Any]) -> int:
    if not involves_dealer or streak == 0:
        return amount
    if self_drawn:
        factor = 2**streak if opt["streak_growth"] == "exponential" else 1 + streak
        return amount * factor
    return amount + opt["streak_discard_add"] * streak


def settle(ruleset: Ruleset, outcome: Mapping[str, Any]) -> list[int]:
    """Four payments by seat for a Hainan outcome record (keys in the module docstring)."""
    outcome = oc.mapping(outcome, "outcome")
    opt = _options(outcome.get("options"))
    dealer = 0 if outcome.get("dealer") is None else oc.seat(outcome["dealer"], "dealer")
    streak = oc.count(outcome.get("dealer_streak", 0), "dealer_streak")
    discarder = oc.optional_seat(outcome, "discarder")
    winner = oc.optional_seat(outcome, "winner")
    claimants = outcome.get("winners")
    if claimants is not None:
        if not isinstance(claimants, list) or not claimants:
            raise HandError("winners must be a non-empty list of seats")
        seats = [oc.seat(s, "winners") for s in claimants]
        if len(set(seats)) != len(seats):
            raise HandError("winners lists each seat once")
        if discarder is None and len(seats) > 1:
            raise HandError("several winners only on one discard: give the discarder (截胡)")
        first = seats[0] if discarder is None else first_claimant(discarder, seats)
        if winner is not None and winner != first:
            raise HandError(f"截胡: seat {first} wins, not seat {winner}")
        winner = first
    if winner is not None and discarder == winner:
        raise HandError("the winner cannot be the discarder")
    if winner is None and discarder is not None:
        raise HandError("a discarder without a winner")
    if winner is not None and discarder is not None and outcome.get("wall_last"):
        raise HandError("the last tile of the wall is not discarded (最后一张不用打出): no discard win on it")
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
        elif discarder is not None and (
            (discarder, winner) in bao_pairs(outcome.get("claims"), opt)
            or (winner, discarder) in bao_pairs(outcome.get("claims"), opt)
        ):
            # 包牌: the discarder pays what all three would have paid.
            for s in others:
                due = opt["discard_discarder"] if s == discarder else opt["discard_each"]
                amount = _streak_amount(due, dealer in (s, winner), streak, False, opt)
                pay[discarder] -= amount
                pay[winner] += amount
        else:
            for s in others:
                move(s, winner, opt["discard_discarder"] if s == discarder else opt["discard_each"])
    if winner is not None or opt["kongs_paid_on_draw"]:
        kongs = outcome.get("kongs") or []
        if not isinstance(kongs, list):
            raise HandError("kongs must be a list of {seat, kind}")
        for i, k in enumerate(kongs):
            k = oc.mapping(k, f"kongs[{i}]")
            owner = oc.seat(k.get("seat"), f"kongs[{i}].seat")
            kind = k.get("kind")
            if kind not in ("exposed", "added", "concealed"):
                raise HandError(f"kongs[{i}].kind must be exposed, added or concealed, not {kind!r}")
            each = opt["concealed_kong_each" if kind == "concealed" else "exposed_kong_each"]
            for s in range(4):
                if s != owner:
                    move(s, owner, each)
    return pay
