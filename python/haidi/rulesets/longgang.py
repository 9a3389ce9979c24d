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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import _core
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

EAST, GREEN, RED, WHITE = 27, 32, 33, 31
_WINDS = "ESWN"
_SUITS = "mps"


def tile_name(k: int) -> str:
    return f"{k % 9 + 1}{_SUITS[k // 9]}" if k < 27 else f"{k - 26}z"


def _kind(text: str) -> int:
    t = str(text).strip()
    if len(t) != 2 or not t[0].isdigit() or t[1] not in "mpsz":
        raise HandError(f"not a tile: {text!r}")
    n, s = int(t[0]), t[1]
    if s == "z":
        if not 1 <= n <= 7:
            raise HandError(f"not a tile: {text!r}")
        k = 26 + n
    else:
        if not 1 <= n <= 9:
            raise HandError(f"not a tile: {text!r}")
        k = "mps".index(s) * 9 + n - 1
    if k == WHITE:
        raise HandError("Longgang plays without the white dragon (5z): 龙港麻将无白板")
    return k


def is_big(k: int) -> bool:
    """大子 (么九): a terminal or an honour."""
    return k >= 27 or k % 9 in (0, 8)


def _suit(k: int) -> int:
    return k // 9 if k < 27 else 3


# ---------------------------------------------------------------------------------------
# Arrangements. The engine says whether a hand is complete; the arrangements are listed
# here because scoring needs wild-only groups kept abstract (a pair or meld of 财神 that
# may be anything) and losers' partial hands, which the engine does not decompose.


@dataclass(frozen=True)
class Group:
    """One group of an arrangement.

    ``shape``: pung, chow, pair, kong, wild_meld (three wilds), wild_pair (two wilds).
    ``base``: the kind (a chow's lowest), None for wild-only groups. ``wild_for``: kinds
    the wilds in it stand for. ``meld``: None if concealed, else the declared meld's kind.
    """

    shape: str
    base: int | None
    wild_for: tuple[int, ...] = ()
    meld: str | None = None

    @property
    def kinds(self) -> tuple[int, ...]:
        if self.base is None:
            return ()
        if self.shape == "chow":
            return (self.base, self.base + 1, self.base + 2)
        return (self.base,)

    @property
    def wilds(self) -> int:
        return {"wild_meld": 3, "wild_pair": 2}.get(self.shape, len(self.wild_for))

    @property
    def is_triplet(self) -> bool:
        return self.shape in ("pung", "kong", "wild_meld")

    def text(self) -> str:
        if self.base is None:
            return "(wild x3)" if self.shape == "wild_meld" else "(wild x2)"
        size = {"chow": 3, "pung": 3, "kong": 4, "pair": 2}[self.shape]
        tiles = list(self.kinds) if self.shape == "chow" else [self.base] * size
        body = "".join(tile_name(k)[0] for k in tiles) + tile_name(self.base)[1]
        if self.meld == "concealed_kong":
            body = "{" + body + "}"
        elif self.meld is not None:
            body = "[" + body + "]"
        if self.wild_for:
            body += "(wild " + " ".join(tile_name(k) for k in self.wild_for) + ")"
        return body


def _standard(counts: list[int], wilds: int, melds: int, caps: list[int]) -> list[list[Group]]:
    """Every arrangement of concealed ``counts`` plus ``wilds`` into ``melds`` melds and a pair."""
    out: dict[tuple, list[Group]] = {}
    c = list(counts)
    used = [0] * 34

    def take(kinds: list[tuple[int, bool]]) -> bool:
        for k, real in kinds:
            if real and c[k] == 0:
                return False
            if used[k] + 1 > caps[k]:
                return False
        return True

    def rec(i: int, w: int, m: int, p: int, groups: list[Group]) -> None:
        while i < 34 and c[i] == 0:
            i += 1
        if i == 34:
            if w == 3 * m + 2 * p:
                gs = groups + [Group("wild_meld", None)] * m + [Group("wild_pair", None)] * p
                out.setdefault(tuple(sorted((g.shape, g.base or -1, g.wild_for) for g in gs)), gs)
            return
        options: list[tuple[Group, list[tuple[int, bool]], int, int]] = []
        if m:
            for r in (3, 2, 1):
                if c[i] >= r and 3 - r <= w:
                    tiles = [(i, True)] * r + [(i, False)] * (3 - r)
                    options.append((Group("pung", i, (i,) * (3 - r)), tiles, 1, 0))
            if i < 27:
                for pos in (0, 1, 2):
                    start = i - pos
                    if start < 0 or start // 9 != i // 9 or start % 9 > 6:
                        continue
                    # Lower positions hold no real tile (i is the lowest left), so they are wild;
                    # a higher one may be real or wild.
                    choices: list[list[tuple[int, bool]]] = [[]]
                    for k in range(start, start + 3):
                        if k < i:
                            alts = [(k, False)]
                        elif k == i:
                            alts = [(k, True)]
                        else:
                            alts = ([(k, True)] if c[k] else []) + [(k, False)]
                        choices = [ch + [a] for ch in choices for a in alts]
                    for ch in choices:
                        nw = sum(not real for _, real in ch)
                        if nw <= w:
                            g = Group("chow", start, tuple(k for k, real in ch if not real))
                            options.append((g, ch, 1, 0))
        if p:
            for r in (2, 1):
                if c[i] >= r and 2 - r <= w:
                    options.append((Group("pair", i, (i,) * (2 - r)), [(i, True)] * r + [(i, False)] * (2 - r), 0, 1))
        for g, tiles, dm, dp in options:
            if not _fits(tiles, c, used, caps):
                continue
            for k, real in tiles:
                used[k] += 1
                if real:
                    c[k] -= 1
            rec(i, w - g.wilds, m - dm, p - dp, groups + [g])
            for k, real in tiles:
                used[k] -= 1
                if real:
                    c[k] += 1

    rec(0, wilds, melds, 1, [])
    return list(out.values())


def _fits(tiles: list[tuple[int, bool]], c: list[int], used: list[int], caps: list[int]) -> bool:
    need_real: dict[int, int] = {}
    need_all: dict[int, int] = {}
    for k, real in tiles:
        need_all[k] = need_all.get(k, 0) + 1
        if real:
            need_real[k] = need_real.get(k, 0) + 1
    return all(c[k] >= n for k, n in need_real.items()) and all(used[k] + n <= caps[k] for k, n in need_all.items())


def _eight_pairs(counts: list[int], wilds: int, caps: list[int]) -> list[list[Group]]:
    """八对半: seven pairs and a triplet, concealed; four of a kind may be two pairs."""
    out = []
    triplets = [(k, counts[k]) for k in range(34) if 1 <= counts[k] <= 3 and 3 - counts[k] <= wilds and caps[k] >= 3]
    for t, r in [*triplets, (None, 0)]:
        w = wilds - (3 - r)
        if w < 0:
            continue
        groups = [Group("pung", t, (t,) * (3 - r)) if t is not None else Group("wild_meld", None)]
        ok = True
        for k in range(34):
            n = counts[k] if k != t else 0
            if n == 0:
                continue
            groups += [Group("pair", k)] * (n // 2)
            if n % 2:
                if w == 0 or n + 1 > caps[k]:
                    ok = False
                    break
                w -= 1
                groups.append(Group("pair", k, (k,)))
        if ok and w % 2 == 0:
            out.append(groups + [Group("wild_pair", None)] * (w // 2))
    return out


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
# Patterns (台). One small function per pattern over a scored arrangement.


@dataclass
class Scored:
    """One arrangement with the role of its winning tile, as the pattern functions see it."""

    sit: Situation
    groups: list[Group]
    form: str  # "standard" or "eight_pairs"
    role: str | None  # single, pung, closed, edge, open (the winning tile's place)
    win_group: int | None

    def concrete(self) -> list[Group]:
        return [g for g in self.groups if g.base is not None]

    def suits(self) -> set[int]:
        return {_suit(k) for g in self.concrete() for k in g.kinds}

    def triplets(self) -> list[Group]:
        return [g for g in self.groups if g.is_triplet]

    def chows(self) -> list[Group]:
        return [g for g in self.groups if g.shape == "chow"]

    def pair(self) -> Group | None:
        pairs = [g for g in self.groups if g.shape in ("pair", "wild_pair")]
        return pairs[0] if self.form == "standard" and pairs else None


@dataclass(frozen=True)
class Pattern:
    """A 台 pattern: ``tai`` per occurrence; ``lazi`` patterns make the hand 300 outright."""

    id: str
    name: str
    name_en: str
    tai: int
    check: Callable[[Scored], int]
    excludes: tuple[str, ...] = ()
    lazi: bool = False
    optional: bool = False


def _honour_kinds(sit: Situation) -> set[int]:
    """中, 发 and the seat wind, unless that kind is the 财神 ("如是中发坐风为财神的，不另计")."""
    return {GREEN, RED, sit.seat_wind} - {sit.wild_kind}


def _no_wilds(x: Scored) -> int:
    s = x.sit
    if s.seat_flower or s.flower_wilds and s.wild_tiles:
        return 0
    if s.wild_tiles == 0:
        return 1
    if not s.options["home_wild_is_natural"]:
        return 0
    # 财神归位: every 财神 stands for its own kind, as a natural tile would.
    home = sum(g.wild_for.count(s.wild_kind) for g in x.groups)  # type: ignore[arg-type]
    return int(home == s.wild_tiles)


def _one_suit(x: Scored) -> int:
    su = x.suits()
    return int(len(su) == 1 and 3 not in su)


def _half_suit(x: Scored) -> int:
    su = x.suits()
    return int(3 in su and len(su) == 2)


def _no_chows(x: Scored) -> bool:
    return not x.chows()


def _all_kinds(x: Scored, pred: Callable[[int], bool]) -> bool:
    return all(pred(k) for g in x.concrete() for k in g.kinds)


def _terminal(k: int) -> bool:
    return k < 27 and k % 9 in (0, 8)


def _winds_pung(x: Scored) -> tuple[int, int]:
    winds = {g.base for g in x.triplets() if g.base is not None and EAST <= g.base < EAST + 4}
    return len(winds), sum(g.shape == "wild_meld" for g in x.groups)


def _big_four(x: Scored) -> int:
    n, free = _winds_pung(x)
    return int(x.form == "standard" and n + free >= 4 and n >= 1)


def _small_four(x: Scored) -> int:
    n, free = _winds_pung(x)
    p = x.pair()
    if p is None or n + free != 3 or n < 1:
        return 0
    winds = {g.base for g in x.triplets() if g.base is not None and EAST <= g.base < EAST + 4}
    return int(p.base is None or (EAST <= p.base < EAST + 4 and p.base not in winds))


def _plain(x: Scored) -> int:
    s, p = x.sit, x.pair()
    if x.form != "standard" or x.triplets() and any(g.shape != "wild_meld" for g in x.triplets()):
        return 0
    if p is None or (p.base is not None and p.base in {GREEN, RED, s.seat_wind}):
        return 0
    if s.seat_flower or s.guest_flowers or s.self_drawn or x.role == "closed":
        return 0
    # "含有一财神,0台 ... 胡牌含有坐花，两个财神或无财神，清一色，混一色等不计平胡"
    return int(s.wild_tiles == 1 and not s.flower_wilds and not _one_suit(x) and not _half_suit(x))


def _dragon(x: Scored) -> int:
    starts = {g.base for g in x.chows()}
    free = sum(g.shape == "wild_meld" for g in x.groups)
    return int(any(sum(s + d not in starts for d in (0, 3, 6)) <= free for s in (0, 9, 18)))


def _kongs(x: Scored) -> int:
    return sum(g.shape == "kong" for g in x.groups)


def _concealed_pungs(x: Scored) -> int:
    n = 0
    for i, g in enumerate(x.groups):
        if g.meld == "concealed_kong" or (g.meld is None and g.is_triplet):
            n += not (i == x.win_group and x.role == "pung" and not x.sit.self_drawn)
    return n


def _run(kinds: list[int], n: int, free: int = 0) -> int:
    """Whether n consecutive ranks of one suit are among ``kinds``, up to ``free`` of them
    supplied by groups of wilds alone."""
    have = set(kinds)
    return int(
        any(sum(k not in have for k in range(lo, lo + n)) <= free for s in (0, 9, 18) for lo in range(s, s + 10 - n))
    )


def _kong_kinds(x: Scored) -> list[int]:
    # A 财神 cannot make a kong, so only real kongs count.
    return [g.base for g in x.groups if g.shape == "kong" and g.base is not None]


def _pung_kinds(x: Scored) -> list[int]:
    return [g.base for g in x.triplets() if g.base is not None]


def _wild_melds(x: Scored) -> int:
    return sum(g.shape == "wild_meld" for g in x.groups)


def _same_rank_kongs(x: Scored) -> int:
    kongs = set(_kong_kinds(x))
    return int(any(all(s * 9 + r in kongs for s in range(3)) for r in range(9)))


def _red_pair_hand(x: Scored, allowed: set[int]) -> int:
    """点点红 / 红一点: every tile among ``allowed`` and a pair of 红中."""
    pair = x.pair()
    red_pair = pair is not None and (pair.base == RED or pair.base is None)
    return int(red_pair and _all_kinds(x, lambda k: k in allowed or k == RED))


def _identical_chows(x: Scored) -> int:
    bases = [g.base for g in x.chows()]
    return int(any(bases.count(b) >= 4 for b in set(bases)))


def _green(k: int) -> bool:
    return k == GREEN or k in (19, 20, 21, 23, 25)


def _open_melds(x: Scored) -> int:
    return sum(g.meld not in (None, "concealed_kong") for g in x.groups)


PATTERN_TABLE: tuple[Pattern, ...] = (
    Pattern("self_drawn", "自摸胡", "self-drawn", 0, lambda x: int(x.sit.self_drawn)),
    Pattern("closed_wait", "卡档胡", "closed wait", 0, lambda x: int(x.role == "closed")),
    Pattern("plain", "平胡", "plain hand", 0, _plain),
    Pattern("no_wilds", "无财神", "no wilds", 1, _no_wilds),
    Pattern("two_wilds", "两财神", "two wilds", 1, lambda x: int(x.sit.wild_tiles == 2), excludes=("no_wilds",)),
    Pattern("seat_flower", "坐花", "seat flower", 1, lambda x: int(x.sit.seat_flower)),
    Pattern("four_flowers", "四花", "four flowers", 2, lambda x: int(x.sit.all_flowers), excludes=("seat_flower",)),
    Pattern(
        "honour_pung",
        "字刻",
        "dragon or seat-wind pung",
        1,
        lambda x: sum(g.base in _honour_kinds(x.sit) for g in x.triplets()),
    ),
    Pattern("half_suit", "混一色", "half flush", 1, _half_suit),
    Pattern("all_pungs", "对对胡", "all pungs", 1, lambda x: int(x.form == "standard" and len(x.triplets()) == 5)),
    Pattern("one_suit", "清一色", "full flush", 3, _one_suit, excludes=("half_suit", "plain", "all_green"), lazi=True),
    Pattern(
        "all_honours",
        "字一色",
        "all honours",
        3,
        lambda x: int(_all_kinds(x, lambda k: k >= 27)),
        excludes=("all_pungs", "half_suit", "terminals_and_honours", "big_four_winds", "small_four_winds"),
        lazi=True,
    ),
    Pattern(
        "all_terminals",
        "清老头",
        "all terminals",
        3,
        lambda x: int(_no_chows(x) and _all_kinds(x, _terminal)),
        excludes=("all_pungs", "terminals_and_honours"),
        lazi=True,
    ),
    Pattern(
        "terminals_and_honours",
        "混老头",
        "terminals and honours",
        3,
        lambda x: int(x.form == "standard" and _no_chows(x) and _all_kinds(x, is_big)),
        excludes=("all_pungs",),
        lazi=True,
    ),
    Pattern("big_four_winds", "大四喜", "big four winds", 3, _big_four, excludes=("small_four_winds",), lazi=True),
    Pattern("small_four_winds", "小四喜", "little four winds", 3, _small_four, lazi=True),
    Pattern(
        "three_wilds",
        "三财神 (推土机)",
        "three wilds",
        3,
        lambda x: int(x.sit.wild_tiles >= x.sit.options["bulldozer_wilds"]),
        excludes=("two_wilds", "wilds_meet"),
        lazi=True,
    ),
    Pattern(
        "wilds_meet",
        "财神会",
        "wilds meet",
        3,
        lambda x: int(
            not x.sit.flower_wilds
            and x.sit.wild_tiles == 2
            and x.sit.seat_flower
            and any(g.shape == "wild_meld" for g in x.groups)
        ),
        lazi=True,
    ),
    Pattern("heavenly", "天胡", "heavenly hand", 3, lambda x: int(x.sit.heavenly), lazi=True),
    Pattern("earthly", "地胡", "earthly hand", 3, lambda x: int(x.sit.earthly), lazi=True),
    Pattern(
        "eight_pairs",
        "八对半",
        "eight pairs and a half",
        3,
        lambda x: int(x.form == "eight_pairs" and x.sit.options["eight_pairs"] == "lazi"),
        lazi=True,
    ),
    # Optional (选用) patterns and the 附一 hands: scored only when named in ``optional``.
    Pattern("one_dragon", "一条龙", "pure straight", 1, _dragon, optional=True),
    Pattern(
        "five_kongs",
        "五杠子",
        "five kongs",
        3,
        lambda x: int(_kongs(x) == 5),
        excludes=("four_kongs", "three_kongs", "all_pungs"),
        lazi=True,
        optional=True,
    ),
    Pattern("four_kongs", "四杠子", "four kongs", 3, lambda x: int(_kongs(x) == 4), ("three_kongs",), optional=True),
    Pattern("three_kongs", "三杠子", "three kongs", 2, lambda x: int(_kongs(x) == 3), optional=True),
    Pattern(
        "five_concealed_pungs",
        "五暗刻",
        "five concealed pungs",
        3,
        lambda x: int(_concealed_pungs(x) == 5),
        excludes=("four_concealed_pungs",),
        optional=True,
    ),
    Pattern(
        "four_concealed_pungs",
        "四暗刻",
        "four concealed pungs",
        2,
        lambda x: int(_concealed_pungs(x) == 4),
        optional=True,
    ),
    Pattern("four_identical_chows", "四连太宝", "four identical chows", 3, _identical_chows, optional=True),
    Pattern(
        "all_green",
        "绿一色",
        "all green",
        3,
        lambda x: int(_all_kinds(x, _green)),
        lazi=True,
        optional=True,
    ),
    Pattern(
        "concealed_hand",
        "门清",
        "concealed hand",
        1,
        lambda x: int(_open_melds(x) == 0 and not x.sit.self_drawn),
        optional=True,
    ),
    Pattern(
        "self_drawn_concealed",
        "不求人",
        "fully concealed self-drawn",
        1,
        lambda x: int(_open_melds(x) == 0 and x.sit.self_drawn),
        optional=True,
    ),
    Pattern(
        "all_claimed",
        "全求人",
        "melded hand on a discard",
        1,
        lambda x: int(_open_melds(x) == 5 and x.role == "single" and not x.sit.self_drawn),
        optional=True,
    ),
    Pattern(
        "half_claimed",
        "半求人",
        "melded hand self-drawn",
        1,
        lambda x: int(_open_melds(x) == 5 and x.role == "single" and x.sit.self_drawn),
        optional=True,
    ),
    # 附一 S: the runs and sets of kongs and pungs, with the 台 the list gives
    # ("五连杠3台 ... 四连杠3台 ... 三连杠3台，三同杠3台，五连刻3台 ... 四连刻2台"). A run
    # counts instead of the plainer count of kongs it implies (五、（一）: not counted twice).
    Pattern(
        "five_kong_run",
        "五连杠",
        "five consecutive kongs",
        3,
        lambda x: _run(_kong_kinds(x), 5),
        excludes=("four_kong_run", "three_kong_run", "five_pung_run", "four_pung_run"),
        optional=True,
    ),
    Pattern(
        "four_kong_run",
        "四连杠",
        "four consecutive kongs",
        3,
        lambda x: _run(_kong_kinds(x), 4),
        excludes=("four_kongs", "three_kongs", "three_kong_run", "four_pung_run"),
        optional=True,
    ),
    Pattern(
        "three_kong_run",
        "三连杠",
        "three consecutive kongs",
        3,
        lambda x: _run(_kong_kinds(x), 3),
        excludes=("three_kongs",),
        optional=True,
    ),
    Pattern(
        "three_same_kongs", "三同杠", "three kongs of one rank", 3, _same_rank_kongs, ("three_kongs",), optional=True
    ),
    Pattern(
        "five_pung_run",
        "五连刻",
        "five consecutive pungs",
        3,
        lambda x: _run(_pung_kinds(x), 5, _wild_melds(x)),
        excludes=("four_pung_run",),
        optional=True,
    ),
    Pattern(
        "four_pung_run",
        "四连刻",
        "four consecutive pungs",
        2,
        lambda x: _run(_pung_kinds(x), 4, _wild_melds(x)),
        optional=True,
    ),
    # 附一 I, J, K: "有此地方玩法算腊子" (some places count these as 腊子), which is all the
    # text gives them, so as options they are 腊子.
    Pattern(
        "red_peacock",
        "红孔雀",
        "red peacock (1 5 7 9 bamboo and red dragons)",
        3,
        lambda x: int(_all_kinds(x, lambda k: k in (18, 22, 24, 26, RED))),
        lazi=True,
        optional=True,
    ),
    Pattern(
        "dotted_red",
        "点点红",
        "dotted red (1 3 5 6 7 9 dots, a pair of red dragons)",
        3,
        lambda x: _red_pair_hand(x, {9, 11, 13, 14, 15, 17}),
        lazi=True,
        optional=True,
    ),
    Pattern(
        "one_red",
        "红一点",
        "one red (2 3 4 6 8 bamboo, a pair of red dragons)",
        3,
        lambda x: _red_pair_hand(x, {19, 20, 21, 23, 25}),
        lazi=True,
        optional=True,
    ),
)
PATTERNS: dict[str, Pattern] = {p.id: p for p in PATTERN_TABLE}


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
