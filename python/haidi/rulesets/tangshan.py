"""Tangshan (唐山麻将): 136 tiles, 混 wilds, 番 that each double a 1-point 胡, kong points,
点炮包庄 and 跟庄.

Situation keys (keywords of ``evaluate``): ``hand`` (without the winning tile), ``win``,
``self_drawn``, ``wilds`` (the 混 kinds) or ``indicator`` (the tile turned up: the 混 is
the next kind), ``open_ready`` (明听: the hand was laid open; it may only win self-drawn),
``xiaosa`` (潇洒: ``"ming"`` 明潇 or ``"kou"`` 扣潇), ``format``.

Readings of the text: docs/tangshan.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._core import Hand, HandError
from . import _wildscore as w
from ._spec import ALL_TILES, RulesetSpec

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
    source="seed 004, first part",
)

#: 明杠 and 暗杠 points, in units of the base (底注): "以打1分为例，明杠2分，暗杠4分".
EXPOSED_KONG, CONCEALED_KONG = 2, 4
#: 跟庄: "庄家要付给每人两倍底注".
FOLLOW_DEALER = 2

_KEYS = ("hand", "win", "self_drawn", "wilds", "indicator", "open_ready", "xiaosa", "format", "seat_wind", "round_wind")
_DRAGONS = ("5z", "6z", "7z")
_ORPHANS = "thirteen_orphans"


@dataclass
class Context:
    """One arrangement of a winning hand with what the patterns ask about it."""

    arrangement: dict[str, Any]
    win: str
    wilds: list[str]
    wild_tiles: int
    self_drawn: bool
    open_ready: bool
    xiaosa: str | None

    def roles(self) -> list[tuple[int, str]]:
        return w.win_roles(self.arrangement, self.win, self.wilds)

    def doubled_pairs(self) -> int:
        """Kinds that are two of the seven pairs (four of a kind)."""
        pairs = [g["tiles"][0] for g in self.arrangement["groups"]]
        return sum(1 for k in set(pairs) if pairs.count(k) >= 2)


def _plain(c: Context) -> bool:
    return c.wild_tiles == 0


def _closed(c: Context) -> bool:
    return any(w.closed_wait(c.arrangement, r) for r in c.roles())


def _catch_five(c: Context) -> bool:
    # "捉5 同条万46胡5": the 5 of any suit, between a 4 and a 6.
    return any(w.closed_wait(c.arrangement, r) and r[1][0] == "5" and r[1][1] in "mps" for r in c.roles())


def _wild_straight(c: Context) -> bool:
    # "本混龙 混一色一条龙": a 一条龙 in the suit of the 混.
    s = w.straight_suit(c.arrangement)
    return s is not None and any(k[1] == s for k in c.wilds)


def _seven_pairs(c: Context, doubled: int) -> bool:
    return c.arrangement["form"] == "seven_pairs" and c.doubled_pairs() == doubled


#: The 番 table: id, Chinese name, English name, 番, test, patterns it makes void.
PATTERNS: tuple[w.Pattern, ...] = (
    w.Pattern("plain", "素", "no wild held", 1, _plain),
    w.Pattern("closed_wait", "砍", "closed wait", 1, _closed),
    w.Pattern("catch_five", "捉5", "closed wait on a 5", 1, _catch_five, excludes=("closed_wait",)),
    w.Pattern("wild_suit_straight", "本混龙", "straight in the wild's suit", 2, _wild_straight),
    w.Pattern("luxury_seven_pairs", "豪华7对子", "seven pairs with four of a kind", 2, lambda c: _seven_pairs(c, 1)),
    w.Pattern(
        "super_luxury_seven_pairs",
        "超豪华7对子",
        "seven pairs with two fours of a kind",
        3,
        lambda c: c.arrangement["form"] == "seven_pairs" and c.doubled_pairs() >= 2,
    ),
    w.Pattern("open_ready", "明听", "open ready hand", 1, lambda c: c.open_ready),
    w.Pattern("thirteen_orphans", "十三幺", "thirteen orphans", 5, lambda c: c.arrangement["form"] == _ORPHANS),
    w.Pattern("open_xiaosa", "明潇", "xiaosa, open", 1, lambda c: c.xiaosa == "ming"),
    w.Pattern("hidden_xiaosa", "扣潇", "xiaosa, hidden", 1, lambda c: c.xiaosa == "kou"),
)
_BY_ID = {p.id: p for p in PATTERNS}


def _score(c: Context) -> dict[str, Any]:
    hits = [p for p in PATTERNS if p.test(c)]
    void = {x for p in hits for x in p.excludes}
    fans = [p for p in hits if p.id not in void]
    total = sum(p.value for p in fans)
    return {
        "win": True,
        "total": total,
        "points": 2**total,
        "fans": [{"id": p.id, "name": p.name, "name_en": p.name_en, "value": p.value} for p in fans],
        "form": c.arrangement["form"],
        "arrangement": w.arrangement_text(c.arrangement),
        "wilds": c.wilds,
    }


def _thirteen_ok(arr: dict[str, Any], win: str, wilds: list[str]) -> bool:
    # "十三幺 搭牌只能为风牌或箭牌，最后胡的也只能为风牌或箭牌": the pair and the winning tile are honours.
    tiles = w.all_kinds(arr)
    if not any(tiles.count(k) == 2 and k[1] == "z" for k in tiles):
        return False
    return any(k[1] == "z" for _, k in w.win_roles(arr, win, wilds))


def _arrangements(rs: Ruleset, full: Hand, wilds: list[str]) -> list[dict[str, Any]]:
    """Every arrangement, also those that use 中发白 sets as melds (rule 5)."""
    arrs = list(rs.decompose(full, wilds) if rs.is_win(full, wilds) else [])
    counts = full.counts
    # "中，发，白一套可做副使用": one each of the three dragons, real tiles, held concealed.
    # The engine knows no such meld, so each set is swapped for a pung of an honour the hand
    # does not hold; that pung can only stand where the set stood.
    most = min(counts[31], counts[32], counts[33])
    if any(d in wilds for d in _DRAGONS):
        most = 0
    for n in range(1, most + 1):
        c = list(counts)
        for k in (31, 32, 33):
            c[k] -= n
        free = [k for k in range(27, 34) if c[k] == 0 and w._KINDS[k] not in wilds]
        if len(free) < n:
            continue
        for k in free[:n]:
            c[k] = 3
        text = "".join(w._KINDS[k][0] * c[k] + w._KINDS[k][1] for k in range(34) if c[k])
        text += "".join(_meld_text(m) for m in full.melds)
        h = Hand(text)
        if not rs.is_win(h, wilds):
            continue
        stand_ins = {w._KINDS[k] for k in free[:n]}
        for a in rs.decompose(h, wilds):
            groups = []
            for g in a["groups"]:
                if g["meld"] is None and g["tiles"][0] in stand_ins:
                    if g["kind"] != "pung" or g["wilds"]:
                        break
                    g = {"kind": "dragon_set", "tiles": list(_DRAGONS), "wilds": [], "meld": None}
                groups.append(g)
            else:
                arrs.append({"form": a["form"], "groups": groups})
    return arrs


def _meld_text(m: Any) -> str:
    body = "".join(t[0] for t in m.tiles) + m.tiles[0][1]
    return {"concealed_kong": f"{{{body}}}", "added_kong": f"[{body}+]"}.get(m.kind, f"[{body}]")


def evaluate(ruleset: Ruleset, **situation: Any) -> dict[str, Any]:
    """Scores one win.

    Returns:
        ``{"win", "total" (番), "points" (2 ** 番, the 胡 being 1), "fans": [{"id", "name",
        "name_en", "value"}], "form", "arrangement", "wilds"}``; a hand that cannot win has
        ``win`` false and a ``reason``.

    Raises:
        haidi.HandError: bad notation or size, unknown keys, contradictory flags.
    """
    w.check_keys(situation, _KEYS, "tangshan")
    wilds = w.resolve_wilds(situation)
    full, win = w.full_hand(situation, ruleset.hand_size)
    self_drawn = w.flag(situation, "self_drawn")
    open_ready = w.flag(situation, "open_ready")
    xiaosa = situation.get("xiaosa")
    if xiaosa not in (None, "ming", "kou"):
        raise HandError(f"xiaosa is 'ming' (明潇) or 'kou' (扣潇), not {xiaosa!r}")
    no = {"win": False, "total": 0, "points": 0, "fans": [], "wilds": wilds}
    if open_ready and not self_drawn:
        return {**no, "reason": "明听 may only win self-drawn (只能自模糊)"}
    concealed = full.counts
    wild_tiles = sum(concealed[w._KINDS.index(k)] for k in wilds)
    scored = []
    for arr in _arrangements(ruleset, full, wilds):
        if arr["form"] == "thirteen_orphans" and not _thirteen_ok(arr, win, wilds):
            continue
        c = Context(arr, win, wilds, wild_tiles, self_drawn, open_ready, xiaosa)
        scored.append(_score(c))
    if not scored:
        return {**no, "reason": "not a complete hand"}
    return w.best(scored)


def describe(result: Mapping[str, Any], situation: Mapping[str, Any]) -> str:
    """The readable form ``haidi eval --rules tangshan`` prints."""
    headline = f"{result['total']} 番 = {result['points']} points (胡 1, each 番 doubles)" if result["win"] else ""
    return w.describe(result, situation, headline, "混")


def settle(ruleset: Ruleset, outcome: Mapping[str, Any]) -> list[int]:
    """Payments of one hand, in units of the base (底注).

    Args:
        outcome: ``winner`` (seat, or None on an exhausted wall), ``discarder`` (seat, or
            None: self-drawn), ``total`` (the winner's 番), ``melds`` (chows, pungs and
            exposed kongs each seat made), ``exposed_kongs`` / ``concealed_kongs`` (per
            seat), ``follow_dealer`` (跟庄 happened), ``exhausted`` (荒庄), ``base`` (1).
            Seats 0-3, seat 0 the dealer.

    Returns:
        Four amounts by seat, positive for what a seat receives; they sum to zero.
    """
    winner = w.seat(outcome, "winner")
    discarder = w.seat(outcome, "discarder")
    exhausted = w.flag(outcome, "exhausted") or winner is None
    base = w.count(outcome, "base", 1, 10**9) if "base" in outcome else 1
    melds = w.per_seat(outcome, "melds")
    exposed = w.per_seat(outcome, "exposed_kongs")
    concealed = w.per_seat(outcome, "concealed_kongs")
    pay = [0, 0, 0, 0]

    def transfer(frm: int, to: int, amount: int) -> None:
        pay[frm] -= amount
        pay[to] += amount

    if not exhausted:
        assert winner is not None
        if discarder == winner:
            raise HandError("the winner cannot be the discarder")
        total = w.count(outcome, "total", 0, 60)
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
        raise HandError("an exhausted wall has no discarder")
    if w.flag(outcome, "follow_dealer"):
        for s in (1, 2, 3):
            transfer(0, s, FOLLOW_DEALER * base)
    return pay
