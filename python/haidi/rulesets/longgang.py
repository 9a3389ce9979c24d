"""Longgang / Wenzhou (龙港麻将): 16-tile hands, no white dragon, 财神 wilds, four flowers.

Scoring is 胡数 (face points) times 2^台数, capped at 300 (腊子); readings of the text:
docs/longgang.md.

Situation keys (keywords of ``evaluate``):
``hand`` (without the winning tile; declared melds as ``[...]``, ``{....}``, ``[....+]``),
``win`` (the winning tile; absent for a player who did not win: the hand is then scored as
a 陪家's own 胡数), ``self_drawn``, ``seat_wind`` (``"E"`` is the dealer), ``round_wind``
(accepted; 圈风 scores nothing in Longgang), ``wilds`` (the 财神 kind, e.g. ``"5m"``, or a
flower such as ``"3f"`` when the indicator is a flower: then every flower held is a 财神),
``flowers`` (flower tiles held, ``"13f"``; flowers may also be written in ``hand``),
``heavenly`` (天胡), ``earthly`` (地胡), ``kong_replacement`` (杠开, counts as self-drawn),
``robbing_kong`` and ``wall_last`` (accepted; 抢杠 is a discard win, 海底 a self-draw).

Options (also situation keys): ``eight_pairs`` (``"lazi"`` default, ``"plain"``, ``False``),
``optional`` (ids of optional patterns to score, e.g. ``["one_dragon"]``),
``single_wait_self_drawn_hu``, ``edge_wait_hu``, ``bulldozer_wilds`` (3 or 4),
``loser_pair_hu``, ``loser_four_flowers_tai`` (2 or 1), ``home_wild_is_natural``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import _core
from ._longgang_patterns import PATTERN_TABLE, PATTERNS, Pattern, Scored, _honour_kinds
from ._longgang_shapes import _WINDS, EAST, GREEN, RED, WHITE, Group, _eight_pairs, _kind, _standard, is_big, tile_name
from ._spec import RulesetSpec

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
    ),
    has_wilds=True,
    source="seed 003",
)

HandError = _core.HandError

#: The cap on any player's total (满贯 / 腊子), in 胡.
CAP = 300
#: Added to a winner's face points (基础胡数 = 20 + 牌面胡数).
BASE = 20
#: 跟胡数 by the winner's 台 (0, 1, 2, 3 or more); the second row after a player's stake ran out.
FOLLOW = ((30, 60, 90, 120), (50, 100, 150, 200))
#: 10 胡 make one chip (子).
HU_PER_CHIP = 10


# ---------------------------------------------------------------------------------------
# The situation, checked once.


@dataclass
class Situation:
    counts: list[int]  # concealed real tiles (the 财神 kind removed), the winning tile included
    melds: list[Group]
    wild_kind: int | None  # 财神 kind, None when the 财神 are flowers
    flower_wilds: bool
    wild_tiles: int  # 正财神 held (flowers in flower mode, the seat flower included)
    seat_flower: bool  # 坐花 held (in the hand, as a wild)
    guest_flowers: int  # 客花 set aside (4 胡 each)
    all_flowers: bool
    seat: int
    winner: bool
    win_kind: int | None  # None if the winning tile is a wild
    self_drawn: bool
    heavenly: bool
    earthly: bool
    options: dict[str, Any] = field(default_factory=dict)
    caps: list[int] = field(default_factory=list)
    engine_hand: Any = None
    held_flowers: int = 0  # wild flowers in the hand (extra_wilds for the engine)

    @property
    def seat_wind(self) -> int:
        return EAST + self.seat

    @property
    def total_wilds(self) -> int:
        """Wild tiles in the hand: 正财神 plus the 坐花 (once, also in flower mode)."""
        return self.wild_tiles + (self.seat_flower and not self.flower_wilds)


DEFAULT_OPTIONS: dict[str, Any] = {
    "eight_pairs": "lazi",
    "optional": (),
    "single_wait_self_drawn_hu": False,
    "edge_wait_hu": False,
    "bulldozer_wilds": 3,
    "loser_pair_hu": True,
    "loser_four_flowers_tai": 2,
    "home_wild_is_natural": True,
}
_KEYS = {
    "hand",
    "win",
    "self_drawn",
    "seat_wind",
    "round_wind",
    "wilds",
    "flowers",
    "heavenly",
    "earthly",
    "kong_replacement",
    "robbing_kong",
    "wall_last",
    "format",
    "explain",
}


def _flowers(value: Any) -> list[int]:
    if value is None or value == "":
        return []
    items = [value] if isinstance(value, str) else list(value)
    out = []
    for item in items:
        s = str(item).strip()
        if not s.endswith("f") or not s[:-1].isdigit():
            raise HandError(f"flowers are written like '13f', not {item!r}")
        out += [int(d) for d in s[:-1]]
    for f in out:
        if not 1 <= f <= 4:
            raise HandError(f"Longgang plays the four flowers 1f-4f (春夏秋冬), not {f}f")
    return out


def _situation(ruleset: Ruleset, s: dict[str, Any]) -> Situation:
    unknown = set(s) - _KEYS - set(DEFAULT_OPTIONS)
    if unknown:
        raise HandError(f"unknown situation keys for longgang: {', '.join(sorted(unknown))}")
    options = {**DEFAULT_OPTIONS, **{k: s[k] for k in DEFAULT_OPTIONS if k in s}}
    if options["eight_pairs"] not in ("lazi", "plain", False):
        raise HandError("eight_pairs is 'lazi', 'plain' or false")
    if options["bulldozer_wilds"] not in (3, 4):
        raise HandError("bulldozer_wilds is 3 or 4")
    opt = options["optional"]
    opt = [opt] if isinstance(opt, str) else list(opt)
    bad = [o for o in opt if o not in PATTERNS or not PATTERNS[o].optional]
    if bad:
        choices = ", ".join(p.id for p in PATTERN_TABLE if p.optional)
        raise HandError(f"not an optional pattern: {', '.join(map(str, bad))} (choose from {choices})")
    options["optional"] = frozenset(opt)

    if "hand" not in s:
        raise HandError("a situation needs a 'hand'")
    hand = _core.Hand(str(s["hand"]), s.get("format", "compact"))
    seat_text = s.get("seat_wind", "E")
    if isinstance(seat_text, int) and not isinstance(seat_text, bool) and 0 <= seat_text <= 3:
        seat = seat_text
    elif seat_text in tuple(_WINDS):
        seat = _WINDS.index(seat_text)
    else:
        raise HandError(f"seat_wind must be E, S, W or N, not {seat_text!r}")
    if s.get("round_wind", "E") not in tuple(_WINDS):
        raise HandError(f"round_wind must be E, S, W or N, not {s.get('round_wind')!r}")

    wv = s.get("wilds")
    if isinstance(wv, (list, tuple)):
        if len(wv) > 1:
            raise HandError("Longgang has one 财神 kind (the flipped indicator's)")
        wv = wv[0] if wv else None
    flower_wilds = isinstance(wv, str) and wv.strip().endswith("f")
    wild_kind = None
    if flower_wilds:
        _flowers(wv)
    elif wv is not None:
        wild_kind = _kind(wv)

    flowers = [*_flowers(hand.flowers and "".join(f[0] for f in hand.flowers) + "f"), *_flowers(s.get("flowers"))]
    winner = s.get("win") is not None
    win_kind: int | None = None
    win_is_flower = False
    if winner:
        wt = str(s["win"]).strip()
        if wt.endswith("f"):
            fs = _flowers(wt)
            if len(fs) != 1:
                raise HandError(f"the winning tile is one tile, not {wt!r}")
            f = fs[0]
            if not flower_wilds and f != seat + 1:
                raise HandError(
                    "a flower wins only as a wild: the seat flower (坐花) or any flower when 财神 are flowers"
                )
            flowers.append(f)
            win_is_flower = True
        else:
            win_kind = _kind(wt)
    if len(set(flowers)) != len(flowers):
        raise HandError("each flower is a single tile; one is given twice")

    melds = []
    declared = [0] * 34
    for m in hand.melds:
        kinds = [_kind(t) for t in m.tiles]
        if wild_kind is not None and wild_kind in kinds:
            raise HandError("a 财神 cannot be claimed or konged: 不能...吃掉或者碰掉或者杠掉")
        for k in kinds:
            declared[k] += 1
        shape = "kong" if len(kinds) == 4 else ("chow" if m.kind == "chow" else "pung")
        melds.append(Group(shape, min(kinds), (), m.kind))
    counts = list(hand.counts)
    if counts[WHITE]:
        raise HandError("Longgang plays without the white dragon (5z): 龙港麻将无白板")
    if win_kind is not None:
        counts[win_kind] += 1
    wild_tiles = 0
    if wild_kind is not None:
        wild_tiles = counts[wild_kind]
        counts[wild_kind] = 0
        if win_kind == wild_kind:
            win_kind = None
    seat_flower = (seat + 1) in flowers
    held_flowers = len(flowers) if flower_wilds else int(seat_flower)
    if flower_wilds:
        wild_tiles = len(flowers)
    guests = 0 if flower_wilds else len(flowers) - seat_flower
    win_is_tile = winner and not win_is_flower
    size = hand.size + held_flowers + int(win_is_tile)
    if size != (17 if winner else 16):
        raise HandError(
            f"hand has {size - int(winner)} tiles (a meld counts as 3, a held 坐花 or flower 财神 as 1); expected 16"
        )
    heavenly, earthly = bool(s.get("heavenly")), bool(s.get("earthly"))
    if (heavenly or earthly) and not winner:
        raise HandError("天胡 and 地胡 are wins: give the winning tile")
    if heavenly and seat != 0:
        raise HandError("天胡 is the dealer's (seat_wind E)")
    if earthly and seat == 0:
        raise HandError("地胡 is a win on the dealer's first discard: not the dealer's")
    self_drawn = bool(s.get("self_drawn") or s.get("kong_replacement") or s.get("wall_last") or win_is_flower)
    if self_drawn and earthly:
        raise HandError("地胡 is won on a discard, not self-drawn")
    return Situation(
        counts=counts,
        melds=melds,
        wild_kind=wild_kind,
        flower_wilds=flower_wilds,
        wild_tiles=wild_tiles,
        seat_flower=seat_flower,
        guest_flowers=guests,
        all_flowers=len(set(flowers)) == 4,
        seat=seat,
        winner=winner,
        win_kind=win_kind,
        self_drawn=self_drawn and winner,
        heavenly=heavenly,
        earthly=earthly,
        options=options,
        caps=[0 if k == WHITE else 4 - declared[k] for k in range(34)],
        engine_hand=hand.add(str(s["win"]).strip()) if win_is_tile else hand,
        held_flowers=held_flowers,
    )


# ---------------------------------------------------------------------------------------
# 胡数 (face points) and totals.

#: 胡 of a group: (small, big) for 小子 (2-8) and 大子 (terminals and honours).
HU_TABLE: dict[str, tuple[int, int]] = {
    "concealed_kong": (16, 32),  # 暗杠
    "exposed_kong": (8, 16),  # 明杠 (大明杠 and 补杠)
    "concealed_pung": (4, 8),  # 暗刻 (four unkonged tiles, or a pung with wilds)
    "exposed_pung": (2, 4),  # 明刻 (碰, or a pung completed on a discard)
}
_HU_NAMES = {
    "concealed_kong": "暗杠",
    "exposed_kong": "明杠",
    "concealed_pung": "暗刻",
    "exposed_pung": "明刻",
}
#: A pair of 中, 发 or the seat wind (雀头), also one single of them with a wild, for a winner.
PAIR_HU = 2
#: Each flower set aside (杠花).
FLOWER_HU = 4
#: 自摸 (not on a single wait), 卡档 / 坎张 (the winning tile inside a chow).
SELF_DRAWN_HU = CLOSED_WAIT_HU = EDGE_WAIT_HU = 2


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


def _group_hu(g: Group, seat_wind: int, pung_on_discard: bool) -> tuple[str, int] | None:
    if g.base is None:
        return None  # groups of wilds alone: "财神坐花对作将牌，不计将胡数"
    big = int(is_big(g.base))
    if g.meld == "concealed_kong":
        key = "concealed_kong"
    elif g.meld in ("kong", "added_kong"):
        key = "exposed_kong"
    elif g.meld == "pung" or (g.shape == "pung" and pung_on_discard):
        key = "exposed_pung"
    elif g.shape == "pung":
        key = "concealed_pung"
    elif g.shape == "pair" and g.base in (GREEN, RED, seat_wind):
        return f"对{tile_name(g.base)}", PAIR_HU
    else:
        return None
    return f"{_HU_NAMES[key]}{tile_name(g.base)}", HU_TABLE[key][big]


def _face(x: Scored) -> list[tuple[str, int]]:
    s = x.sit
    items = []
    for i, g in enumerate(x.groups):
        item = _group_hu(g, s.seat_wind, i == x.win_group and x.role == "pung" and not s.self_drawn)
        if item:
            items.append(item)
    if s.self_drawn and (x.role != "single" or s.options["single_wait_self_drawn_hu"]):
        items.append(("自摸", SELF_DRAWN_HU))
    if x.role == "closed":
        items.append(("卡档", CLOSED_WAIT_HU))
    if x.role == "edge" and s.options["edge_wait_hu"]:
        items.append(("边张", EDGE_WAIT_HU))
    if s.guest_flowers:
        items.append((f"花 x{s.guest_flowers}", FLOWER_HU * s.guest_flowers))
    return items


def _patterns(x: Scored) -> tuple[list[tuple[Pattern, int]], list[tuple[Pattern, int, str]]]:
    opt = x.sit.options["optional"]
    found = [(p, n) for p in PATTERN_TABLE if (not p.optional or p.id in opt) for n in [p.check(x)] if n]
    if x.form == "three_wilds":  # no arrangement: only what needs none is scored
        found = [(p, n) for p, n in found if p.id in ("three_wilds", "heavenly", "earthly")]
    ids = {p.id for p, _ in found}
    excluded_by = {e: p.id for p, _ in found for e in p.excludes if e in ids}
    kept = [(p, n) for p, n in found if p.id not in excluded_by]
    dropped = [(p, n, excluded_by[p.id]) for p, n in found if p.id in excluded_by]
    return kept, dropped


def _role(g: Group, k: int) -> str:
    if g.shape in ("pair", "wild_pair"):
        return "single"
    if g.shape != "chow":
        return "pung"
    pos = k - g.base  # type: ignore[operator]
    if pos == 1:
        return "closed"
    if (pos == 2 and g.base % 9 == 0) or (pos == 0 and g.base % 9 == 6):  # type: ignore[operator]
        return "edge"
    return "open"


def _slots(groups: list[Group], sit: Situation) -> list[tuple[int | None, str | None]]:
    """Where the winning tile can sit in an arrangement: (group index, role)."""
    out: list[tuple[int | None, str | None]] = []
    for i, g in enumerate(groups):
        if g.meld is not None:
            continue
        if sit.win_kind is not None:
            real = [k for k in g.kinds if k == sit.win_kind]
            if real and (
                g.shape == "chow"
                and sit.win_kind not in g.wild_for
                or g.shape != "chow"
                and len(g.wild_for) < {"pung": 3, "pair": 2}[g.shape]
            ):
                out.append((i, _role(g, sit.win_kind)))
        elif g.shape == "wild_meld":
            out += [(i, "closed"), (i, "pung")]
        elif g.shape == "wild_pair":
            out.append((i, "single"))
        else:
            out += [(i, _role(g, k)) for k in set(g.wild_for)]
    return out or [(None, None)]


# ---------------------------------------------------------------------------------------
# Evaluation.


def _arrangements(sit: Situation) -> list[tuple[str, list[Group]]]:
    melds_left = 5 - len(sit.melds)
    out = [("standard", sit.melds + g) for g in _standard(sit.counts, sit.total_wilds, melds_left, sit.caps)]
    if not sit.melds and sit.options["eight_pairs"]:
        out += [("eight_pairs", g) for g in _eight_pairs(sit.counts, sit.total_wilds, sit.caps)]
    return out


def _result(x: Scored, explain: bool) -> dict[str, Any]:
    kept, dropped = _patterns(x)
    face_items = _face(x)
    face = sum(h for _, h in face_items)
    lazi = any(p.lazi for p, _ in kept)
    tai = 3 if lazi else sum(p.tai * n for p, n in kept)
    r: dict[str, Any] = {
        "win": True,
        "role": "winner",
        "total": hand_total(face, tai, lazi=lazi),
        "face": face,
        "base": face + BASE,
        "tai": tai,
        "lazi": lazi,
        "follow": follow_hu(tai),
        "instant": any(p.id in ("three_wilds", "heavenly", "earthly") for p, _ in kept),
        "patterns": [_pattern_dict(p, n) for p, n in kept],
        "face_items": [{"name": name, "hu": h} for name, h in face_items],
        "form": x.form,
        "arrangement": " ".join(g.text() for g in x.groups),
        "wait": x.role,
        "reason": None,
    }
    if explain:
        r["excluded"] = [{**_pattern_dict(p, n), "by": by, "rule": "隐含不计 (implied)"} for p, n, by in dropped]
    return r


def _pattern_dict(p: Pattern, n: int) -> dict[str, Any]:
    return {"id": p.id, "name": p.name, "name_en": p.name_en, "tai": p.tai, "count": n, "lazi": p.lazi}


def _rank(r: dict[str, Any]) -> tuple[int, int, int]:
    return r["total"], r["tai"], r["face"]


def _winner(ruleset: Ruleset, sit: Situation, explain: bool) -> dict[str, Any]:
    wilds = [tile_name(sit.wild_kind)] if sit.wild_kind is not None else None
    complete = ruleset.is_win(sit.engine_hand, wilds, extra_wilds=sit.held_flowers)
    arrs = _arrangements(sit) if complete else []
    if complete and not sit.options["eight_pairs"] and not arrs:
        complete = False  # only the 八对半 form completes it, and 八对半 is turned off
    if complete and not arrs:  # pragma: no cover - the property tests hold these together
        raise RuntimeError("the engine found the hand complete but no arrangement was listed")
    best: dict[str, Any] | None = None
    for form, groups in arrs:
        for gi, role in _slots(groups, sit):
            r = _result(Scored(sit, groups, form, role, gi), explain)
            if best is None or _rank(r) > _rank(best):
                best = r
    if best is not None:
        return best
    # 推土机: three 正财神 win at once, whatever the shape ("不必符合一般胡牌条件").
    if sit.wild_tiles >= sit.options["bulldozer_wilds"]:
        return _result(Scored(sit, list(sit.melds), "three_wilds", None, None), explain)
    return {
        "win": False,
        "role": "winner",
        "total": 0,
        "face": 0,
        "base": 0,
        "tai": 0,
        "lazi": False,
        "follow": 0,
        "instant": False,
        "patterns": [],
        "face_items": [],
        "form": None,
        "arrangement": None,
        "wait": None,
        "reason": "not a complete hand: five melds and a pair (or 八对半) are needed",
    }


def _loser(sit: Situation) -> dict[str, Any]:
    """A 陪家's own 胡数: declared melds, concealed pungs (a pung may take up to two wilds),
    one pair of 中/发/坐风, flowers; wilds in no pung are void (财神卖兵)."""
    s = sit
    fixed = [it for g in s.melds for it in [_group_hu(g, s.seat_wind, False)] if it]
    fixed_tai = sum(g.base in _honour_kinds(s) for g in s.melds if g.is_triplet)
    if s.guest_flowers:
        fixed.append((f"花 x{s.guest_flowers}", FLOWER_HU * s.guest_flowers))
    counts = list(s.counts)
    natural = [k for k in range(34) if counts[k] >= 3]
    for k in natural:
        counts[k] -= 3
    cands = [k for k in range(34) if counts[k] in (1, 2) and s.caps[k] >= 3]
    wilds = s.total_wilds
    best: dict[str, Any] | None = None

    def score(chosen: list[tuple[int, int]]) -> None:
        nonlocal best
        items = list(fixed)
        pungs = natural + [k for k, _ in chosen]
        left = list(counts)
        for k, _need in chosen:
            left[k] = 0
        items += [(f"暗刻{tile_name(k)}", HU_TABLE["concealed_pung"][is_big(k)]) for k in sorted(pungs)]
        honours = {GREEN, RED, s.seat_wind} - {s.wild_kind}
        if s.options["loser_pair_hu"]:
            pairs = [k for k in sorted(honours) if left[k] >= 2]
            if pairs:
                items.append((f"对{tile_name(pairs[0])}", PAIR_HU))
        used = sum(need for _, need in chosen)
        face = sum(h for _, h in items)
        for seat_used in {False, bool(s.seat_flower and used)}:
            pats: list[tuple[Pattern, int]] = []
            n_honour = fixed_tai + sum(k in honours for k in pungs)
            if n_honour:
                pats.append((PATTERNS["honour_pung"], n_honour))
            real_used = used if s.flower_wilds else used - seat_used
            if not s.flower_wilds and real_used > s.wild_tiles:
                continue
            tai = n_honour
            if seat_used:
                if s.all_flowers and not s.flower_wilds:
                    pats.append((PATTERNS["four_flowers"], 1))
                    tai += int(s.options["loser_four_flowers_tai"])
                else:
                    pats.append((PATTERNS["seat_flower"], 1))
                    tai += 1
            if real_used >= 2:
                pats.append((PATTERNS["two_wilds"], 1))
                tai += 1
            r: dict[str, Any] = {
                "win": False,
                "role": "loser",
                "total": hand_total(face, tai, winner=False),
                "face": face,
                "tai": tai,
                "lazi": False,
                "patterns": [_pattern_dict(p, n) for p, n in pats],
                "face_items": [{"name": name, "hu": h} for name, h in items],
                "void_wilds": wilds - used,
                "reason": None,
            }
            if s.options["loser_four_flowers_tai"] != 2:
                for p in r["patterns"]:
                    if p["id"] == "four_flowers":
                        p["tai"] = s.options["loser_four_flowers_tai"]
            if best is None or _rank(r) > _rank(best):
                best = r

    def rec(i: int, left: int, chosen: list[tuple[int, int]]) -> None:
        score(chosen)
        for j in range(i, len(cands)):
            need = 3 - counts[cands[j]]
            if need <= left:
                rec(j + 1, left - need, chosen + [(cands[j], need)])

    rec(0, wilds, [])
    assert best is not None
    return best


def evaluate(ruleset: Ruleset, **situation: Any) -> dict[str, Any]:
    """Scores one player's hand.

    With ``win`` the hand is the winner's: ``{"win", "total", "face", "base", "tai", "lazi",
    "follow", "instant", "patterns": [{"id", "name", "name_en", "tai", "count", "lazi"}],
    "face_items": [{"name", "hu"}], "form", "arrangement", "wait", "reason"}``; ``win`` is
    false with a ``reason`` when the hand is not complete. Without ``win`` it is a 陪家's own
    胡数 (``role`` "loser"). ``instant`` marks the wins after which the others count 0
    (天胡, 地胡, 三财神).

    Raises:
        haidi.HandError: bad notation, a wrong size, a flower or 财神 where it cannot be.
    """
    explain = bool(situation.get("explain"))
    sit = _situation(ruleset, situation)
    return _winner(ruleset, sit, explain) if sit.winner else _loser(sit)


# ---------------------------------------------------------------------------------------
# Settlement (五、（四）): 10 胡 make a chip; the dealer's share is doubled.


def _seat(outcome: Mapping[str, Any], key: str) -> int | None:
    v = outcome.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 3:
        raise HandError(f"{key} must be a seat 0-3, not {v!r}")
    return v


def _hu(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= CAP or value % 10:
        raise HandError(f"{what} must be a multiple of 10 from 0 to {CAP} 胡, not {value!r}")
    return value


def settle(ruleset: Ruleset, outcome: Mapping[str, Any]) -> list[int]:
    """Chips each seat receives (positive) or pays, seat 0 the dealer; they sum to zero.

    Args:
        outcome: ``winner`` (seat, or None for a drawn hand: all zero), ``discarder``
            (seat or None; it changes nothing unless it is ``liable``), and either
            ``total`` (the winner's 总胡数) with ``tai`` (for 跟胡数) and ``losers`` (four
            胡数 by seat, the winner's ignored), or ``hands``: four situations by seat (the
            winner's with ``win``; seat winds default to the seat's), evaluated here, with
            ``wilds`` shared. ``liable``: a seat that pays the winner every share (包三家).
            ``broken_stake``: 跟胡数 of the parenthesised row (after a stake ran out).

    The dealer pays (or, winning, receives from each) 总胡数 x 2 + 跟胡数, the others 总胡数 +
    跟胡数; the losers settle the differences of their own 胡数 between them, doubled with the
    dealer. After 天胡, 地胡 and 三财神 the losers count 0.
    """
    winner = _seat(outcome, "winner")
    if winner is None:
        return [0, 0, 0, 0]
    discarder = _seat(outcome, "discarder")
    liable = _seat(outcome, "liable")
    if winner in (discarder, liable):
        raise HandError("the winner cannot be the discarder or the liable seat")
    if "hands" in outcome:
        hands = list(outcome["hands"])
        if len(hands) != 4 or not all(isinstance(h, Mapping) for h in hands):
            raise HandError("hands must be four situations, by seat")
        shared = {k: outcome[k] for k in ("wilds",) if k in outcome}
        results = []
        for seat, h in enumerate(hands):
            sit = {"seat_wind": _WINDS[seat], **shared, **h}
            if (seat == winner) != (sit.get("win") is not None):
                raise HandError(f"seat {seat}: only the winner's hand has a winning tile")
            results.append(evaluate(ruleset, **sit))
        w = results[winner]
        if not w["win"]:
            raise HandError(f"the winner's hand is not a win: {w['reason']}")
        total, tai = w["total"], w["tai"]
        losers = [0 if w["instant"] else r["total"] for r in results]
    else:
        total = _hu(outcome.get("total"), "total")
        tai = outcome.get("tai", 0)
        if isinstance(tai, bool) or not isinstance(tai, int) or tai < 0:
            raise HandError(f"tai must be a non-negative int, not {tai!r}")
        raw = outcome.get("losers", [0, 0, 0, 0])
        if len(raw) != 4:
            raise HandError("losers must be four 胡数, by seat")
        losers = [0 if s == winner else _hu(v, f"losers[{s}]") for s, v in enumerate(raw)]
    follow = follow_hu(tai, bool(outcome.get("broken_stake")))
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


def describe(result: dict[str, Any], situation: dict[str, Any]) -> str:
    """The readable form ``haidi eval --rules longgang`` prints."""
    head = f"{situation.get('hand')}" + (f" + {situation['win']}" if situation.get("win") else "")
    r = result
    if r["role"] == "loser":
        lines = [f"{head}: 陪家 (did not win), {r['face']} 胡 x 2^{r['tai']} = {r['total']} 胡"]
    elif not r["win"]:
        return f"{head}: no win ({r['reason']})"
    else:
        how = "腊子 300" if r["lazi"] else f"({r['face']} + 20) x 2^{r['tai']} = {r['total']}"
        lines = [f"{head}: win, {r['face']} 胡 face, {r['tai']} 台, total {how} 胡; 跟胡数 {r['follow']}"]
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
