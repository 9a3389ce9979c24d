"""A deliberately slow, plain, brute-force reference scorer for the regional rulesets
(changsha, hainan, tangshan, beijing, longgang), written apart from haidi's engine.

It shares no code with haidi: it imports nothing from ``haidi``, parses the compact
notation itself, and scores by brute force:

- every wild is tried as every kind it could stand for (one multiset of kinds at a time),
- each resulting concrete hand is split into groups by plain recursion (every split),
- every way to say which of a kind's tiles are the wilds, and every place the winning
  tile may sit, is tried,
- each pattern is a small Python function written from the rule texts (docs/*.md and
  the patterns of ``python/haidi/rulesets/*.py``, read, not imported),
- the best arrangement by the ruleset's rank is kept (all the tied ones are returned).

``evaluate(rules, **situation)`` returns an :class:`Outcome` or raises :class:`RefError`
for a situation that cannot be (wrong size, a fifth copy, contradictory flags ...).
:class:`TooSlow` is raised for situations it does not try: more than ``MAX_WILDS`` wilds
(except where Longgang needs no search), or a notation other than the compact one.

Readings the docs leave open follow docs/*.md; where they are silent, the modules' data.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from typing import Any

KINDS = 34
SUIT_LETTERS = "mpsz"
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = 27, 28, 29, 30, 31, 32, 33
HONOURS = frozenset(range(27, 34))
WINDS = frozenset(range(27, 31))
TERMINALS = frozenset({0, 8, 9, 17, 18, 26})
ORPHANS = tuple(sorted(TERMINALS | HONOURS))
SIMPLES = tuple(k for k in range(34) if k not in ORPHANS)
KINDS_258 = frozenset(s * 9 + r for s in range(3) for r in (1, 4, 7))
FIVES = frozenset({4, 13, 22})
ALL_KINDS = frozenset(range(KINDS))
SUITED = frozenset(range(27))


class RefError(Exception):
    """The situation cannot be (the engine raises HandError for the same)."""


class TooSlow(Exception):
    """The brute force does not try this situation (too many wilds)."""


def name(k: int) -> str:
    return f"{k % 9 + 1}{SUIT_LETTERS[k // 9]}" if k < 27 else f"{k - 26}z"


def suit(k: int) -> int:
    return k // 9 if k < 27 else 3


def is_orphan(k: int) -> bool:
    return k in TERMINALS or k in HONOURS


# ---------------------------------------------------------------------------------------
# Notation


@dataclass
class Parsed:
    concealed: list[int]
    flowers: list[int]  # flower numbers 1-8, as written
    melds: list[tuple[str, int]]  # (chow | pung | kong | concealed_kong | added_kong, lowest kind)
    last: int | None  # the last concealed tile written


def _tile_of(digit: int, letter: str) -> tuple[str, int]:
    if digit == 0:
        raise RefError(f"no tile 0{letter}")
    if letter == "f":
        if digit > 8:
            raise RefError(f"no flower {digit}f")
        return ("flower", digit)
    if letter == "z" and digit > 7:
        raise RefError(f"no tile {digit}z")
    return ("kind", SUIT_LETTERS.index(letter) * 9 + digit - 1)


def _tiles(text: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    digits: list[int] = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        elif ch in "mpszf":
            if not digits:
                raise RefError(f"a suit letter without digits in {text!r}")
            out += [_tile_of(d, ch) for d in digits]
            digits = []
        elif ch.isspace():
            continue
        else:
            raise RefError(f"unexpected {ch!r} in {text!r}")
    if digits:
        raise RefError(f"digits without a suit letter in {text!r}")
    return out


def parse(text: Any) -> Parsed:
    if not isinstance(text, str):
        raise RefError("a hand is text")
    concealed = [0] * KINDS
    flowers: list[int] = []
    melds: list[tuple[str, int]] = []
    last = None
    i = 0
    plain = ""
    while i < len(text):
        ch = text[i]
        if ch in "[{":
            close = "]" if ch == "[" else "}"
            j = text.find(close, i)
            if j < 0:
                raise RefError("an unclosed meld")
            if plain:
                raise RefError("digits waiting for a suit letter before a meld")
            body = text[i + 1 : j]
            added = body.endswith("+")
            if added:
                body = body[:-1]
            ts = _tiles(body)
            if any(t[0] == "flower" for t in ts):
                raise RefError("a flower in a meld")
            ks = sorted(t[1] for t in ts)
            if ch == "{":
                if added or len(ks) != 4 or len(set(ks)) != 1:
                    raise RefError("braces hold a concealed kong of four tiles")
                melds.append(("concealed_kong", ks[0]))
            elif len(ks) == 4 and len(set(ks)) == 1:
                melds.append(("added_kong" if added else "kong", ks[0]))
            elif added:
                raise RefError("'+' marks an added kong of four tiles")
            elif len(ks) == 3 and len(set(ks)) == 1:
                melds.append(("pung", ks[0]))
            elif len(ks) == 3 and ks[0] < 27 and ks[1] == ks[0] + 1 and ks[2] == ks[0] + 2 and ks[0] % 9 <= 6:
                melds.append(("chow", ks[0]))
            else:
                raise RefError(f"malformed meld {text[i : j + 1]!r}")
            i = j + 1
            continue
        # Plain tiles: read up to the next bracket.
        j = i
        while j < len(text) and text[j] not in "[{":
            j += 1
        for kind, v in _tiles(text[i:j]):
            if kind == "flower":
                if v in flowers:
                    raise RefError(f"a second {v}f")
                flowers.append(v)
            else:
                concealed[v] += 1
                last = v
        i = j
    return Parsed(concealed, flowers, melds, last)


def meld_kinds(meld: tuple[str, int]) -> list[int]:
    kind, k = meld
    if kind == "chow":
        return [k, k + 1, k + 2]
    if kind == "pung":
        return [k] * 3
    return [k] * 4


def next_kind(k: int) -> int:
    """The kind an indicator names: 9 to 1, winds in turn, 中→发→白→中."""
    if k in WINDS:
        return EAST + (k - EAST + 1) % 4
    if k in (RED, GREEN, WHITE):
        return {RED: GREEN, GREEN: WHITE, WHITE: RED}[k]
    return k - k % 9 + (k % 9 + 1) % 9


# ---------------------------------------------------------------------------------------
# The rulesets' fixed data (read from the modules, written out here)

RULES: dict[str, dict[str, Any]] = {
    "changsha": dict(
        tiles=SUITED,
        flowers=frozenset(),
        melds=4,
        flags=("self_drawn", "kong_replacement", "robbing_kong", "wall_last", "heavenly", "earthly", "dealt"),
        ignored=("last_of_kind",),
        keys=("seat_wind", "round_wind", "flowers"),
        implies=(("kong_replacement", "self_drawn"), ("heavenly", "self_drawn"), ("dealt", "self_drawn")),
        wilds=False,
        seat_flowers=(frozenset(),) * 4,
    ),
    "hainan": dict(
        tiles=ALL_KINDS,
        flowers=frozenset(range(1, 9)),
        melds=4,
        flags=("self_drawn", "robbing_kong", "wall_last", "kong_replacement"),
        ignored=("last_of_kind",),
        keys=("seat", "seat_wind", "flowers", "round_wind"),
        implies=(("kong_replacement", "self_drawn"),),
        wilds=False,
        seat_flowers=None,  # by option flower_order
    ),
    "tangshan": dict(
        tiles=ALL_KINDS,
        flowers=frozenset(),
        melds=4,
        flags=("self_drawn", "open_ready"),
        ignored=(),
        keys=("wilds", "indicator", "xiaosa", "seat_wind", "round_wind"),
        implies=(),
        wilds=True,
        max_wild_kinds=2,
        seat_flowers=(frozenset(),) * 4,
    ),
    "beijing": dict(
        tiles=ALL_KINDS,
        flowers=frozenset(),
        melds=4,
        flags=("self_drawn", "wall_last", "kong_replacement", "robbing_kong", "heavenly", "earthly"),
        ignored=(),
        keys=("wilds", "indicator", "seat_wind", "round_wind", "discarder_wind"),
        implies=(("kong_replacement", "self_drawn"), ("heavenly", "self_drawn")),
        wilds=True,
        max_wild_kinds=2,
        seat_flowers=(frozenset(),) * 4,
    ),
    "longgang": dict(
        tiles=ALL_KINDS - {WHITE},
        flowers=frozenset(range(1, 5)),
        melds=5,
        flags=("self_drawn", "heavenly", "earthly", "kong_replacement", "robbing_kong", "wall_last"),
        ignored=(),
        keys=("seat_wind", "round_wind", "wilds", "flowers"),
        implies=(("kong_replacement", "self_drawn"), ("wall_last", "self_drawn")),
        wilds=True,
        max_wild_kinds=1,
        seat_flowers=tuple(frozenset({i + 1}) for i in range(4)),
    ),
}

#: Options the reference understands (defaults as in the modules' OPTIONS).
OPTIONS: dict[str, dict[str, Any]] = {
    "changsha": {},
    "hainan": {"white_dragon": False, "concealed_kong_keeps_concealed": False, "flower_order": "seed"},
    "tangshan": {"ben_hun_long": "wild_suit"},
    "beijing": {"variant": "wanghu", "half_flush": "bonus"},
    "longgang": {
        "eight_pairs": "lazi",
        "optional": (),
        "single_wait_self_drawn_hu": False,
        "edge_wait_hu": False,
        "bulldozer_wilds": 3,
        "loser_pair_hu": True,
        "loser_four_flowers_tai": 2,
        "home_wild_is_natural": True,
    },
}
#: Options that may be situation keys too.
OPTION_KEYS = {"beijing": ("variant",), "longgang": tuple(OPTIONS["longgang"])}
#: Hainan's seat flowers: "庄家摸春或梅,庄家下家摸夏或兰,庄家对家摸秋或菊,庄家上家摸冬或竹".
HAINAN_SEAT_FLOWERS = {"seed": ("15", "26", "38", "47"), "mcr": ("15", "26", "37", "48")}


# ---------------------------------------------------------------------------------------
# The situation


@dataclass
class Sit:
    rules: str
    options: dict[str, Any]
    concealed: list[int]  # concealed tiles, the winning tile included (wild copies too)
    melds: list[tuple[str, int]]
    flowers: set[int]
    flags: set[str]
    seat: int
    seat_given: bool
    discarder: int | None
    wild_kinds: frozenset[int]
    flower_wilds: bool
    win_kind: int | None  # the kind of the winning tile (None: a flower, or no win)
    win_wild: bool  # the winning tile is a wild
    loser: bool
    dealt: bool
    wild_tiles: int  # 正财神 / 混 / 惠牌 held (a concealed kong's too), or flowers when flowers are wild
    extra_wilds: int  # the seat flower as a wild (Longgang, wilds not flowers)
    seat_flower: bool  # the seat's flower is held
    guest_flowers: int
    real: list[int] = field(default_factory=list)  # concealed tiles that are not wild
    n_wilds: int = 0

    def flag(self, f: str) -> bool:
        return f in self.flags


def _wind(key: str, v: Any) -> int:
    if isinstance(v, str) and v.strip() in ("E", "S", "W", "N", "e", "s", "w", "n", "1z", "2z", "3z", "4z"):
        t = v.strip().upper()
        return "ESWN".index(t) if t in "ESWN" else int(t[0]) - 1
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 3:
        return v
    raise RefError(f"{key} must be a wind")


def _text_items(key: str, v: Any) -> list[str]:
    if isinstance(v, str):
        return [v]
    if isinstance(v, (list, tuple)):
        if not all(isinstance(x, str) for x in v):
            raise RefError(f"{key} lists text")
        return list(v)
    raise RefError(f"{key}: not text")


#: The values an option takes, where it is not a True/False one.
OPTION_CHOICES = {
    "flower_order": ("seed", "mcr"),
    "variant": ("wanghu", "draft4"),
    "eight_pairs": ("lazi", "plain", False),
    "bulldozer_wilds": (3, 4),
    "loser_four_flowers_tai": (2, 1),
    "ben_hun_long": ("wild_suit", "half_flush"),
    "half_flush": ("bonus", "plain"),
}


def _option(rules: str, k: str, v: Any) -> Any:
    if k in OPTION_CHOICES:
        if not any(v is c or (type(v) is type(c) and v == c) for c in OPTION_CHOICES[k]):
            raise RefError(f"option {k}: {v!r}")
        return v
    if k == "optional":
        items = (v,) if isinstance(v, str) else tuple(v) if isinstance(v, (list, tuple)) else None
        if items is None:
            raise RefError("optional lists pattern ids")
        return items
    if not isinstance(v, bool):
        raise RefError(f"option {k} is True or False")
    return v


def read(rules: str, situation: dict[str, Any]) -> Sit:
    spec = RULES[rules]
    opts = dict(OPTIONS[rules])
    given_opts = situation.get("options")
    if given_opts is not None:
        if not isinstance(given_opts, dict):
            raise RefError("options must be a dict")
        for k, v in given_opts.items():
            if k not in opts:
                raise RefError(f"unknown option {k}")
            opts[k] = _option(rules, k, v)
    for k in OPTION_KEYS.get(rules, ()):
        if k in situation:
            if given_opts is not None and k in given_opts:
                raise RefError(f"{k} given twice")
            opts[k] = _option(rules, k, situation[k])
    if rules == "beijing" and (given_opts or {}).get("half_flush") is not None and opts["variant"] != "draft4":
        raise RefError("half_flush is 第4稿's")
    if rules == "longgang" and set(opts["optional"]) - set(_LG_OPTIONAL):
        raise RefError("no such optional pattern")
    known = {"hand", "win", "format", "options", "explain", *spec["flags"], *spec["ignored"], *spec["keys"]}
    known |= set(OPTION_KEYS.get(rules, ()))
    if rules == "tangshan":
        known.add("xiaosa")
    for k in situation:
        if k not in known:
            raise RefError(f"unknown situation key {k!r}")
    if situation.get("format", "compact") != "compact":
        raise TooSlow("compact notation only")

    flags: set[str] = set()
    given_false: set[str] = set()
    for f in (*spec["flags"], *spec["ignored"]):
        v = situation.get(f)
        if v is None:
            continue
        if not isinstance(v, bool):
            raise RefError(f"{f} must be True or False")
        if f in spec["flags"]:
            (flags if v else given_false).add(f)
    if rules == "tangshan" and situation.get("xiaosa") is not None:
        x = situation["xiaosa"]
        if x not in ("ming", "kou"):
            raise RefError("xiaosa is ming or kou")
        flags.add("xiaosa_" + x)
    if situation.get("explain") is not None and not isinstance(situation["explain"], bool):
        raise RefError("explain is True or False")

    if "hand" not in situation:
        raise RefError("no hand")
    hand = parse(situation["hand"])

    seat_a = None if situation.get("seat") is None else _wind("seat", situation["seat"])
    seat_b = None if situation.get("seat_wind") is None else _wind("seat_wind", situation["seat_wind"])
    if seat_a is not None and seat_b is not None and seat_a != seat_b:
        raise RefError("seat and seat_wind disagree")
    seat = seat_a if seat_a is not None else (seat_b if seat_b is not None else 0)
    seat_given = seat_a is not None or seat_b is not None
    if situation.get("round_wind") is not None:
        _wind("round_wind", situation["round_wind"])
    discarder = None
    if situation.get("discarder_wind") is not None:
        discarder = _wind("discarder_wind", situation["discarder_wind"])
        if discarder == seat:
            raise RefError("the discarder is another player")

    # Wilds.
    wild_kinds: set[int] = set()
    flower_wilds = False
    if situation.get("wilds") is not None and situation.get("indicator") is not None:
        raise RefError("wilds or indicator, not both")
    if situation.get("wilds") is not None:
        for t in _text_items("wilds", situation["wilds"]):
            p = parse(t)
            if p.melds or (p.flowers and rules != "longgang"):
                raise RefError("wilds name tile kinds")
            flower_wilds |= bool(p.flowers)
            wild_kinds |= {k for k in range(KINDS) if p.concealed[k]}
        if flower_wilds and wild_kinds:
            raise RefError("wilds are flowers or kinds, not both")
    if situation.get("indicator") is not None:
        ind = _tiles(_text_items("indicator", situation["indicator"])[0])
        if len(ind) != 1 or ind[0][0] != "kind":
            raise RefError("an indicator is one tile")
        wild_kinds = {next_kind(ind[0][1])}
    if wild_kinds - spec["tiles"]:
        raise RefError("a wild not played here")
    if wild_kinds and len(wild_kinds) > spec.get("max_wild_kinds", 0):
        raise RefError("too many wild kinds")

    # Flowers.
    flowers = set(hand.flowers)
    if situation.get("flowers") is not None and situation.get("flowers") != 0:
        for t in _text_items("flowers", situation["flowers"]):
            if not t:
                continue
            p = parse(t)
            if any(p.concealed) or p.melds:
                raise RefError("flowers are flower tiles")
            if flowers & set(p.flowers):
                raise RefError("a flower given twice")
            flowers |= set(p.flowers)

    if rules == "hainan":
        seat_flowers = tuple(frozenset(int(c) for c in s) for s in HAINAN_SEAT_FLOWERS[opts["flower_order"]])
    else:
        seat_flowers = spec["seat_flowers"]

    win = None
    if situation.get("win") is not None:
        ts = _tiles(situation["win"]) if isinstance(situation["win"], str) else None
        if not ts or len(ts) != 1:
            raise RefError("win is one tile")
        win = ts[0]
    if flowers - spec["flowers"]:
        raise RefError("a flower not played here")

    dealt = "dealt" in flags
    win_kind = None
    win_wild = False
    if win is not None and win[0] == "flower":
        f = win[1]
        seat_flower_win = f in seat_flowers[seat]
        if not (flower_wilds or (rules == "longgang" and seat_flower_win)):
            raise RefError("a flower wins only as a wild")
        if f in flowers:
            raise RefError("a flower given twice")
        if f not in spec["flowers"]:
            raise RefError("a flower not played")
        flowers.add(f)
        win_wild = True
        if "self_drawn" in given_false:
            raise RefError("a flower is drawn")
        flags.add("self_drawn")
    elif win is not None:
        win_kind = win[1]
        win_wild = win_kind in wild_kinds
    for a, b in spec["implies"]:
        if a in flags:
            if b in given_false:
                raise RefError(f"{a} implies {b}")
            flags.add(b)

    size = sum(hand.concealed) + 3 * len(hand.melds)
    seat_flower = bool(seat_flowers[seat] & flowers)
    if flower_wilds:
        held_wild_flowers = len(flowers)
    else:
        held_wild_flowers = int(rules == "longgang" and seat_flower)
    ready = 3 * spec["melds"] + 1
    if len(hand.melds) > spec["melds"]:
        raise RefError("too many melds")
    loser = False
    if dealt:
        if win is not None:
            raise RefError("a dealt hand has no winning tile")
        if hand.melds or flowers:
            raise RefError("a dealt hand has no melds and no flowers")
        if size not in (ready, ready + 1):
            raise RefError("a dealt hand has 13 or 14 tiles")
        if seat_given and size != ready + (seat == 0):
            raise RefError("a dealt hand has 14 tiles for the dealer, 13 for the others")
    elif win is not None:
        if size + held_wild_flowers - int(win[0] == "flower") != ready:
            raise RefError("wrong size")
    elif rules == "longgang":
        loser = True
        if size + held_wild_flowers != ready:
            raise RefError("wrong size")
    elif rules in ("changsha", "hainan"):
        # The last tile written is the winning one.
        if size + held_wild_flowers != ready + 1 or hand.last is None:
            raise RefError("give the winning tile")
        win_kind = hand.last
        win_wild = win_kind in wild_kinds
        hand.concealed[win_kind] -= 1
    else:
        raise RefError("the situation needs win")
    concealed = list(hand.concealed)
    if win_kind is not None:
        concealed[win_kind] += 1
    held = list(concealed)
    for m in hand.melds:
        for k in meld_kinds(m):
            held[k] += 1
    if any(h > 4 for h in held):
        raise RefError("a fifth copy")
    if any(held[k] and k not in spec["tiles"] for k in range(KINDS)):
        raise RefError("a tile not played here")
    if rules == "longgang" and any(k in wild_kinds for m in hand.melds for k in meld_kinds(m)):
        raise RefError("a declared meld holds no 财神")

    wild_copies = sum(concealed[k] for k in wild_kinds)
    # A concealed kong of a wild kind is four wilds held (only claimed melds' are plain).
    konged_wilds = 4 * sum(m[0] == "concealed_kong" and m[1] in wild_kinds for m in hand.melds)
    if flower_wilds:
        wild_tiles, extra = held_wild_flowers, 0
    else:
        wild_tiles, extra = wild_copies + konged_wilds, held_wild_flowers
    sit = Sit(
        rules=rules,
        options=opts,
        concealed=concealed,
        melds=list(hand.melds),
        flowers=flowers,
        flags=flags,
        seat=seat,
        seat_given=seat_given,
        discarder=discarder,
        wild_kinds=frozenset(wild_kinds),
        flower_wilds=flower_wilds,
        win_kind=win_kind,
        win_wild=win_wild,
        loser=loser,
        dealt=dealt,
        wild_tiles=wild_tiles,
        extra_wilds=extra,
        seat_flower=seat_flower,
        guest_flowers=len(flowers) - held_wild_flowers,
    )
    sit.real = [0 if k in wild_kinds else concealed[k] for k in range(KINDS)]
    sit.n_wilds = wild_copies + held_wild_flowers
    _refuse(sit)
    return sit


def _refuse(s: Sit) -> None:
    """Situations each ruleset refuses, judged on the situation alone."""
    f = s.flag
    bad = False
    has_kong = any(m[0] in ("kong", "concealed_kong", "added_kong") for m in s.melds)
    if s.rules == "changsha":
        bad = (
            (f("dealt") and any(f(x) for x in ("kong_replacement", "robbing_kong", "wall_last", "heavenly", "earthly")))
            or (f("self_drawn") and (f("robbing_kong") or f("earthly")))
            or (f("heavenly") and f("earthly"))
            or (f("heavenly") and s.seat != 0)
            or (f("earthly") and s.seat == 0 and s.seat_given)
            or (f("kong_replacement") and not has_kong)
            or (f("wall_last") and (f("robbing_kong") or f("heavenly") or f("earthly")))
            or (f("earthly") and f("robbing_kong"))
            # "天胡：指庄家。庄家起牌后，就已经胡牌": before any kong.
            or (f("heavenly") and f("kong_replacement"))
        )
    elif s.rules == "hainan":
        bad = (f("self_drawn") and f("robbing_kong")) or (f("wall_last") and f("robbing_kong"))
    elif s.rules == "beijing":
        bad = (
            (s.discarder is not None and f("self_drawn"))
            or (f("robbing_kong") and f("self_drawn"))
            or (f("heavenly") and s.seat != 0)
            or (f("earthly") and s.seat == 0)
            or (f("kong_replacement") and not has_kong)
            or (f("wall_last") and (f("heavenly") or f("earthly")))
        )
    elif s.rules == "longgang":
        bad = (
            ((f("heavenly") or f("earthly")) and s.loser)
            or (f("heavenly") and s.seat != 0)
            or (f("earthly") and s.seat == 0)
            or (f("earthly") and f("self_drawn"))
            or (f("robbing_kong") and f("self_drawn"))
            or ((f("heavenly") or f("earthly")) and f("robbing_kong"))
            or (f("heavenly") and f("wall_last"))
        )
    if bad:
        raise RefError("the situation's flags contradict each other")


# ---------------------------------------------------------------------------------------
# Splitting a concrete hand into groups (plain recursion)

# A group: (shape, kind, wilds, meld). shape: pair, chow, pung, kong, set (中发白), single.
# kind: the pair's/pung's kind, a chow's lowest. wilds: one bool per tile (is it a wild).


def slot_kinds(shape: str, kind: int) -> list[int]:
    if shape == "chow":
        return [kind, kind + 1, kind + 2]
    if shape == "set":
        return [WHITE, GREEN, RED]
    return [kind] * {"pair": 2, "pung": 3, "kong": 4, "single": 1}[shape]


# Bounded: a long differential run meets millions of distinct tile counts (a process of
# 100,000 Beijing situations with wilds grew past 18 GB with an unbounded cache).
@lru_cache(maxsize=1 << 16)
def standard_splits(counts: tuple[int, ...], melds: int, dragon_sets: bool) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every way to split ``counts`` into ``melds`` chows/pungs (and 中发白 sets) and one pair."""
    found: set[tuple[tuple[str, int], ...]] = set()
    c = list(counts)
    acc: list[tuple[str, int]] = []

    def rec(i: int, m: int, pair: int) -> None:
        # The lowest tile left goes into some group.
        while i < KINDS and not c[i]:
            i += 1
        if i == KINDS:
            if m == 0 and pair == 0:
                found.add(tuple(sorted(acc)))
            return
        if pair and c[i] >= 2:
            c[i] -= 2
            acc.append(("pair", i))
            rec(i, m, pair - 1)
            acc.pop()
            c[i] += 2
        if m and c[i] >= 3:
            c[i] -= 3
            acc.append(("pung", i))
            rec(i, m - 1, pair)
            acc.pop()
            c[i] += 3
        if m and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for k in (i, i + 1, i + 2):
                c[k] -= 1
            acc.append(("chow", i))
            rec(i, m - 1, pair)
            acc.pop()
            for k in (i, i + 1, i + 2):
                c[k] += 1
        if m and dragon_sets and i == WHITE and c[GREEN] and c[RED]:
            for k in (WHITE, GREEN, RED):
                c[k] -= 1
            acc.append(("set", 0))
            rec(i, m - 1, pair)
            acc.pop()
            for k in (WHITE, GREEN, RED):
                c[k] += 1

    rec(0, melds, 1)
    return tuple(sorted(found))


def seven_pairs_split(counts: tuple[int, ...]) -> tuple[tuple[str, int], ...] | None:
    """七对, four of a kind as two pairs."""
    if sum(counts) != 14 or any(c % 2 or c > 4 for c in counts):
        return None
    return tuple(("pair", k) for k in range(KINDS) for _ in range(counts[k] // 2))


def eight_pairs_split(counts: tuple[int, ...]) -> tuple[tuple[str, int], ...] | None:
    """八对半: seven pairs (four of a kind as two) and a triplet of another kind."""
    if sum(counts) != 17:
        return None
    threes = [k for k in range(KINDS) if counts[k] == 3]
    if len(threes) != 1 or any(c not in (0, 2, 3, 4) for c in counts):
        return None
    t = threes[0]
    return (("pung", t),) + tuple(("pair", k) for k in range(KINDS) if k != t for _ in range(counts[k] // 2))


def orphans_split(counts: tuple[int, ...]) -> tuple[tuple[str, int], ...] | None:
    """十三幺: every terminal and honour, one of them twice."""
    if sum(counts) != 14 or any(counts[k] for k in SIMPLES):
        return None
    if any(counts[k] == 0 for k in ORPHANS) or sorted(counts[k] for k in ORPHANS)[-1] != 2:
        return None
    return tuple(("pair", k) if counts[k] == 2 else ("single", k) for k in ORPHANS)


def distribute(split: tuple[tuple[str, int], ...], wild: dict[int, int]) -> list[tuple[Any, ...]]:
    """Every way to say which tiles of each kind are the wilds (never a 中发白 set's)."""
    places: dict[int, list[tuple[int, int]]] = {}
    for gi, (shape, kind) in enumerate(split):
        if shape == "set":
            continue
        for si, k in enumerate(slot_kinds(shape, kind)):
            if wild.get(k):
                places.setdefault(k, []).append((gi, si))
    per_kind = []
    for k, n in wild.items():
        if n == 0:
            continue
        options = list(combinations(places.get(k, []), n))
        if not options:
            return []
        per_kind.append(options)
    out = set()
    for choice in product(*per_kind):
        chosen = {p for part in choice for p in part}
        groups = []
        for gi, (shape, kind) in enumerate(split):
            n = len(slot_kinds(shape, kind))
            groups.append((shape, kind, tuple((gi, si) in chosen for si in range(n)), None))
        # Tiles of one kind are alike: the wild places within a pair, pung or single are
        # sorted (a chow's or a set's places are kinds of their own).
        out.add(tuple(sorted((s, k, w if s in ("chow", "set") else tuple(sorted(w)), m) for s, k, w, m in groups)))
    return sorted(out)


def meld_group(meld: tuple[str, int]) -> tuple[Any, ...]:
    kind, k = meld
    shape = {"chow": "chow", "pung": "pung"}.get(kind, "kong")
    return (shape, k, (False,) * len(meld_kinds(meld)), kind)


# ---------------------------------------------------------------------------------------
# Arrangements of a winning hand


def forms_of(s: Sit) -> dict[str, Any]:
    r = s.rules
    return dict(
        seven_pairs=r in ("changsha", "hainan", "tangshan", "beijing"),
        orphans=r in ("hainan", "tangshan"),
        eight_pairs=r == "longgang" and s.options["eight_pairs"] is not False,
        all_258=r == "changsha",
        dragon_sets=r == "tangshan",
    )


def wild_assignments(s: Sit, real: list[int], n: int):
    """Every multiset of kinds ``n`` wilds may stand for, with the real tiles' counts.

    At most four tiles (real and wild, melds included) stand for a kind, except in
    Longgang, where wilds may stand for a kind past its four copies."""
    melded = [0] * KINDS
    for m in s.melds:
        for k in meld_kinds(m):
            melded[k] += 1
    pool = sorted(RULES[s.rules]["tiles"])
    for assign in combinations_with_replacement(pool, n):
        wild = Counter(assign)
        counts = list(real)
        for k, c in wild.items():
            counts[k] += c
        if s.rules != "longgang" and any(counts[k] + melded[k] > 4 for k in wild):
            continue
        yield dict(wild), tuple(counts)


def arrangements(s: Sit, real: list[int] | None = None, n_wilds: int | None = None):
    """(form, groups) for every arrangement of the hand (declared melds included)."""
    real = s.real if real is None else real
    n = s.n_wilds if n_wilds is None else n_wilds
    forms = forms_of(s)
    melds = [meld_group(m) for m in s.melds]
    need = RULES[s.rules]["melds"] - len(s.melds)
    for wild, counts in wild_assignments(s, real, n):
        splits = [("standard", sp) for sp in standard_splits(counts, need, forms["dragon_sets"])]
        if not s.melds:
            if forms["seven_pairs"] and (sp := seven_pairs_split(counts)):
                splits.append(("seven_pairs", sp))
            if forms["eight_pairs"] and (sp := eight_pairs_split(counts)):
                splits.append(("eight_pairs", sp))
            if forms["orphans"] and (sp := orphans_split(counts)):
                splits.append(("thirteen_orphans", sp))
        if forms["all_258"] and all_258_ok(counts, s.melds):
            splits.append(("all_258", tuple(("single", k) for k in range(KINDS) for _ in range(counts[k]))))
        for form, sp in splits:
            for groups in distribute(sp, wild):
                yield form, tuple(melds) + groups


def all_258_ok(counts: tuple[int, ...], melds: list[tuple[str, int]]) -> bool:
    """将将胡: every tile a 2, 5 or 8; declared melds pungs or kongs of them."""
    return all(counts[k] == 0 or k in KINDS_258 for k in range(KINDS)) and all(
        kind != "chow" and k in KINDS_258 for kind, k in melds
    )


def complete(s: Sit, real: list[int], n_wilds: int) -> bool:
    """Whether some arrangement of these tiles is complete (pair rules aside: no caller
    here narrows the pair)."""
    return any(True for _ in arrangements(s, real, n_wilds))


def role_of(shape: str, kind: int, si: int) -> str:
    if shape in ("pair", "single"):
        return "single"
    if shape in ("pung", "kong"):
        return "pung"
    if shape == "set":
        return "set"
    if si == 1:
        return "closed"
    if (si == 2 and kind % 9 == 0) or (si == 0 and kind % 9 == 6):
        return "edge"
    return "open"


def placements(s: Sit, groups: tuple[Any, ...]) -> list[tuple[int, str, int] | None]:
    """Where the winning tile may sit: a real tile of its kind in a concealed group, or,
    for a wild winning tile, any wild there."""
    if s.loser or s.dealt:
        return [None]
    out = []
    for gi, (shape, kind, wilds, meld) in enumerate(groups):
        if meld is not None:
            continue
        for si, k in enumerate(slot_kinds(shape, kind)):
            if (s.win_wild and wilds[si]) or (not s.win_wild and not wilds[si] and k == s.win_kind):
                p = (gi, role_of(shape, kind, si), k)
                if p not in out:
                    out.append(p)
    return out


# ---------------------------------------------------------------------------------------
# Facts of one arrangement


@dataclass
class Facts:
    form: str
    groups: tuple[Any, ...]
    place: tuple[int, str, int] | None
    kinds: set[int]
    stood: Counter
    suits: int
    honours: bool
    chows: list[int]
    triplets: list[int]
    kongs: list[int]
    pairs: list[int]
    declared: int
    exposed: int
    concealed_triplets: int
    free_melds: int
    free_pairs: int
    home_wilds: int
    pung_on_discard: int | None  # the group index of a pung completed on a discard


def facts(s: Sit, form: str, groups: tuple[Any, ...], place: tuple[int, str, int] | None) -> Facts:
    kinds: set[int] = set()
    stood: Counter = Counter()
    home = 0
    for shape, kind, wilds, _ in groups:
        for si, k in enumerate(slot_kinds(shape, kind)):
            kinds.add(k)
            stood[k] += 1
            if wilds[si] and k in s.wild_kinds:
                home += 1
    discard_win = not s.flag("self_drawn") and not s.loser
    on_discard = None
    conc = 0
    free_m = free_p = 0
    for gi, (shape, _kind, wilds, meld) in enumerate(groups):
        all_wild = len(wilds) > 1 and all(wilds)
        if shape in ("pung", "kong"):
            here = discard_win and place is not None and place[0] == gi
            if here:
                on_discard = gi
            if meld in (None, "concealed_kong") and not here:
                conc += 1
        if all_wild and shape in ("pung", "kong", "chow"):
            free_m += 1
        if all_wild and shape == "pair":
            free_p += 1
    return Facts(
        form=form,
        groups=groups,
        place=place,
        kinds=kinds,
        stood=stood,
        suits=len({suit(k) for k in kinds if k < 27}),
        honours=any(k >= 27 for k in kinds),
        chows=[g[1] for g in groups if g[0] == "chow"],
        triplets=[g[1] for g in groups if g[0] in ("pung", "kong")],
        kongs=[g[1] for g in groups if g[0] == "kong"],
        pairs=[g[1] for g in groups if g[0] == "pair"],
        declared=sum(g[3] is not None for g in groups),
        exposed=sum(g[3] not in (None, "concealed_kong") for g in groups),
        concealed_triplets=conc,
        free_melds=free_m,
        free_pairs=free_p,
        home_wilds=home,
        pung_on_discard=on_discard,
    )


def straight_in(f: Facts, suits: set[int]) -> bool:
    """一条龙: chows 123, 456 and 789 of one of these suits."""
    return any(all(s * 9 + r in f.chows for r in (0, 3, 6)) for s in suits if s < 3)


def doubled_pairs(f: Facts) -> int:
    """Kinds that are two of the pairs (four of a kind in seven pairs)."""
    c = Counter(f.pairs)
    return sum(1 for n in c.values() if n >= 2)


def win_at(f: Facts, roles: tuple[str, ...], kinds: frozenset[int] | set[int] = ALL_KINDS) -> bool:
    return f.place is not None and f.place[1] in roles and f.place[2] in kinds


def all_tiles_in(f: Facts, kinds: set[int] | frozenset[int]) -> bool:
    return bool(f.kinds) and f.kinds <= set(kinds)


def count_in(items: list[int], kinds: set[int] | frozenset[int]) -> int:
    """How many of these groups are of these kinds."""
    return sum(1 for k in items if k in kinds)


# ---------------------------------------------------------------------------------------
# The outcome


@dataclass
class Outcome:
    #: None when the tied arrangements disagree (Beijing 第4稿: 推倒和 wins only self-drawn).
    win: bool | None
    total: int
    #: What the best arrangements say (one dict per tied arrangement): ``win``, ``fans``
    #: ({id: count}) and the ruleset's own keys.
    best: list[dict[str, Any]]
    #: Longgang: the search may stop at any arrangement of 300 胡 and 3 台.
    capped: bool = False
    complete: bool = True


def _key(d: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted((k, tuple(sorted(v.items())) if isinstance(v, dict) else v) for k, v in d.items()))


class Best:
    """Keeps the arrangements of the highest rank."""

    def __init__(self) -> None:
        self.rank: tuple[Any, ...] | None = None
        self.items: dict[tuple[Any, ...], dict[str, Any]] = {}

    def offer(self, rank: tuple[Any, ...], sig: dict[str, Any]) -> None:
        if self.rank is None or rank > self.rank:
            self.rank = rank
            self.items = {}
        if rank == self.rank:
            self.items.setdefault(_key(sig), sig)

    def sigs(self) -> list[dict[str, Any]]:
        return list(self.items.values())


# ---------------------------------------------------------------------------------------
# Changsha


def _changsha_fans(s: Sit, f: Facts) -> dict[str, int]:
    fans: dict[str, int] = {}
    if f.form == "dealt":
        fours = sum(1 for n in f.stood.values() if n >= 4)
        if fours:
            fans["four_of_a_kind"] = fours  # 四喜, once per kind held four times
        if not (f.kinds & KINDS_258):
            fans["no_258"] = 1  # 板板胡
        if f.suits < 3:
            fans["missing_suit"] = 1  # 缺一色
        return fans
    big = {
        "seven_pairs": f.form == "seven_pairs",
        "all_pungs": f.form == "standard" and not f.chows,
        "all_258": all_tiles_in(f, KINDS_258),
        "one_suit": f.suits == 1,
        "kong_bloom": s.flag("kong_replacement"),
        "heavenly": s.flag("heavenly"),
        "earthly": s.flag("earthly"),
        "robbing_kong": s.flag("robbing_kong"),
        "last_tile_draw": s.flag("wall_last") and s.flag("self_drawn"),
        "last_tile_discard": s.flag("wall_last") and not s.flag("self_drawn"),
    }
    fans = {k: 1 for k, v in big.items() if v}
    if not fans:
        fans["ping_hu"] = 1  # 平胡 when no 大胡
    return fans


def _changsha_pair_ok(f: Facts) -> bool:
    """平胡 needs a 2-5-8 pair; 碰碰胡 and 清一色 take any pair."""
    pair = f.pairs[0]
    return pair in KINDS_258 or not f.chows or (f.suits == 1 and not f.honours)


_CHANGSHA_SMALL = ("ping_hu", "four_of_a_kind", "no_258", "missing_suit")


def changsha(s: Sit) -> Outcome:
    best = Best()
    if s.dealt:
        groups = tuple(("single", k, (False,), None) for k in range(KINDS) for _ in range(s.concealed[k]))
        cands = [("dealt", groups)]
    else:
        cands = list(arrangements(s))
    for form, groups in cands:
        for place in placements(s, groups)[:1] or [None]:
            f = facts(s, form, groups, place)
            if form == "standard" and not _changsha_pair_ok(f):
                continue
            fans = _changsha_fans(s, f)
            # 6 a 大胡, 2 a 小胡 or a dealt-hand win (what each player pays self-drawn).
            bigs = sum(n for k, n in fans.items() if k not in _CHANGSHA_SMALL)
            smalls = sum(n for k, n in fans.items() if k in _CHANGSHA_SMALL)
            total = 6 * bigs + 2 * smalls
            best.offer((total,), {"fans": fans, "big": bigs, "small": smalls})
    if best.rank is None:
        return Outcome(False, 0, [{"fans": {}, "big": 0, "small": 0}], complete=False)
    total = best.rank[0]
    win = not (s.dealt and total == 0)
    return Outcome(win, total, best.sigs())


# ---------------------------------------------------------------------------------------
# Hainan


def hainan(s: Sit) -> Outcome:
    o = s.options
    dragons = {WHITE, GREEN, RED} if o["white_dragon"] else {GREEN, RED}
    best = Best()
    for form, groups in arrangements(s):
        for place in placements(s, groups)[:1]:
            f = facts(s, form, groups, place)
            declared = f.exposed if o["concealed_kong_keeps_concealed"] else f.declared
            rows = {
                # "只吃不碰，牌里都是顺子和1副对子"
                "all_chows": f.form == "standard" and not f.triplets,
                # "门清，没有吃、碰、杠牌"
                "concealed": declared == 0,
                "all_pungs": f.form == "standard" and not f.chows,
                # "清一色，14张牌都是同一花色的牌"
                "one_suit": f.suits == 1 and not f.honours,
                # "有二五八做将"
                "pair_258": f.form == "standard" and any(p in KINDS_258 for p in f.pairs),
                "robbing_kong": s.flag("robbing_kong"),
                # "有三张相同红中、发财，明刻暗刻均可"
                "dragon_pung": any(t in dragons for t in f.triplets),
                "seat_flower": s.seat_flower,
                "seat_wind_pung": (EAST + s.seat) in f.triplets,
                "thirteen_orphans": f.form == "thirteen_orphans",
                "seven_pairs": f.form == "seven_pairs",
            }
            fans = {k: 1 for k, v in rows.items() if v}
            best.offer((len(fans),), {"fans": fans, "complete": True, "discard_win": len(fans) >= 1})
    if best.rank is None:
        return Outcome(False, 0, [{"fans": {}, "complete": False, "discard_win": False}], complete=False)
    # "有番才能胡": without a 番 only a self-drawn hand wins.
    win = s.flag("self_drawn") or best.rank[0] >= 1
    return Outcome(win, 20, best.sigs())


# ---------------------------------------------------------------------------------------
# Tangshan


def tangshan(s: Sit) -> Outcome:
    best = Best()
    wild_suits = {suit(k) for k in s.wild_kinds}
    for form, groups in arrangements(s):
        for place in placements(s, groups):
            f = facts(s, form, groups, place)
            # "十三幺 搭牌只能为风牌或箭牌，最后胡的也只能为风牌或箭牌"
            if form == "thirteen_orphans" and not (
                any(p in HONOURS for p in f.pairs) and win_at(f, ("single",), HONOURS)
            ):
                continue
            # "有中发，不能吃白": a 中发白 set is completed only by a drawn tile.
            if win_at(f, ("set",)) and not s.flag("self_drawn"):
                continue
            fans: dict[str, int] = {}
            if s.wild_tiles == 0:
                fans["plain"] = 1  # 素: no 混 held
            if win_at(f, ("closed",)):
                fans["closed_wait"] = 1  # 砍
            if win_at(f, ("closed",), FIVES):
                fans["catch_five"] = 1  # 捉5, beside 砍 ("每出现一个就按番数累加")
            # 本混龙 "混一色一条龙": in the 混's suit, or (half_flush) in a one-suit hand.
            if s.options["ben_hun_long"] == "half_flush":
                if f.suits == 1 and straight_in(f, {0, 1, 2}):
                    fans["wild_suit_straight"] = 2
            elif straight_in(f, wild_suits):
                fans["wild_suit_straight"] = 2
            if form == "seven_pairs" and doubled_pairs(f) == 1:
                fans["luxury_seven_pairs"] = 2
            if form == "seven_pairs" and doubled_pairs(f) >= 2:
                fans["super_luxury_seven_pairs"] = 3
            if s.flag("open_ready"):
                fans["open_ready"] = 1
            if form == "thirteen_orphans":
                fans["thirteen_orphans"] = 5
            if s.flag("xiaosa_ming"):
                fans["open_xiaosa"] = 1
            if s.flag("xiaosa_kou"):
                fans["hidden_xiaosa"] = 1
            total = sum(fans.values())
            best.offer((total,), {"fans": {k: 1 for k in fans}})
    if best.rank is None:
        return Outcome(False, 0, [{"fans": {}, "points": 0}], complete=False)
    total = best.rank[0]
    # "明听就是亮开自己的牌，只能自模糊"
    win = not (s.flag("open_ready") and not s.flag("self_drawn"))
    sigs = [{"fans": sig["fans"], "points": 2**total if win else 0} for sig in best.sigs()]
    return Outcome(win, total, sigs)


# ---------------------------------------------------------------------------------------
# Beijing (the 网狐 description)

_BEIJING_BONUS = (
    "all_pungs",
    "big_single",
    "catch_five_wan",
    "last_tile",
    "straight",
    "seven_pairs",
    "luxury_seven_pairs",
    "kong_flower",
    "one_suit",
    "heavenly",
    "earthly",
    "four_wilds",
)
_BEIJING_VALUES = dict(
    pushed_down=1,
    concealed=1,
    all_pungs=2,
    big_single=2,
    catch_five_wan=2,
    last_tile=2,
    straight=3,
    seven_pairs=4,
    luxury_seven_pairs=8,
    kong_flower=5,
    one_suit=6,
    heavenly=10,
    earthly=8,
    four_wilds=8,
    dealer=1,
)


def _beijing_only_5m(s: Sit) -> bool:
    """捉五魁's "只和…一张牌": the hand before the win waited on 5m alone, the 惠牌 kinds
    aside."""
    real = list(s.real)
    n = s.n_wilds
    if s.win_wild:
        n -= 1
    else:
        real[s.win_kind] -= 1
    held = [real[k] for k in range(KINDS)]
    for k in s.wild_kinds:
        held[k] = s.concealed[k] - (1 if s.win_kind == k else 0)
    for m in s.melds:
        for k in meld_kinds(m):
            held[k] += 1
    # A drawn 惠牌 would complete any ready hand; the waits are the other kinds.
    waits = set()
    for t in sorted(RULES["beijing"]["tiles"] - s.wild_kinds):
        if held[t] >= 4 or t in waits:
            continue
        real[t] += 1
        if complete(s, real, n):
            waits.add(t)
        real[t] -= 1
        if waits - {4}:
            return False
    return bool(waits) and waits <= {4}


#: 第4稿 (variant="draft4"): "番数相加", its own values; no 庄, 天和, 地和, 四惠牌.
_BEIJING_DRAFT4_VALUES = dict(
    pushed_down=0,
    concealed=1,
    all_pungs=1,
    big_single=1,
    catch_five_wan=1,
    last_tile=1,
    straight=3,
    seven_pairs=4,
    luxury_seven_pairs=1,
    kong_flower=1,
    one_suit=5,
    half_flush=1,
)


def beijing(s: Sit) -> Outcome:
    draft4 = s.options["variant"] == "draft4"
    values = _BEIJING_DRAFT4_VALUES if draft4 else _BEIJING_VALUES
    # 第4稿's 混一色 stands beside the listed 加番 unless half_flush="plain" (the list as written).
    bonus = ({*_BEIJING_BONUS, "half_flush"} if s.options["half_flush"] == "bonus" else set(_BEIJING_BONUS)) & set(
        values
    )
    exposed = sum(m[0] != "concealed_kong" for m in s.melds)
    best = Best()
    only_5m: list[bool] = []

    def score(f: Facts, allowed: set[str] | None) -> None:
        rows = {
            # 网狐: "门清：没有吃碰明杠过的牌型且手中没有惠牌"; 第4稿: "暗杠算门清".
            "concealed": f.exposed == 0 and (draft4 or s.wild_tiles == 0),
            "all_pungs": f.form == "standard" and not f.chows,
            # "大钓：吃碰12张牌，只剩一张单钓和牌"
            "big_single": f.exposed == 4 and win_at(f, ("single",)),
            "catch_five_wan": False,
            "last_tile": s.flag("wall_last"),
            "straight": straight_in(f, {0, 1, 2}),
            "seven_pairs": f.form == "seven_pairs",
            "luxury_seven_pairs": f.form == "seven_pairs" and doubled_pairs(f) >= 1,
            "kong_flower": s.flag("kong_replacement"),
            "one_suit": f.suits == 1 and not f.honours,
            "heavenly": s.flag("heavenly"),
            "earthly": s.flag("earthly"),
            "four_wilds": s.wild_tiles >= 4 and len(s.wild_kinds) == 1,
            "half_flush": f.suits == 1 and f.honours,
            # "庄：庄家和牌或放铳时计此番型"
            "dealer": s.seat == 0 or s.discarder == 0,
        }
        if win_at(f, ("closed",), {4}):
            # "捉五魁：和牌时只和嵌单“五万”一张牌的牌型"
            if not only_5m:
                only_5m.append(_beijing_only_5m(s))
            rows["catch_five_wan"] = only_5m[0]
        found = {k for k, v in rows.items() if v and k in values and (allowed is None or k in allowed)}
        voided = set()
        if "luxury_seven_pairs" in found and not draft4:
            voided.add("seven_pairs")  # "“豪华七对子”不计“七对子”" (第4稿: "在7对基础上加1番")
        if "heavenly" in found:
            voided.add("dealer")  # "“天和”不计“庄”"
        fans = found - voided
        # 推倒和: none of the 加番 patterns.
        if (allowed is None or "pushed_down" in allowed) and not (fans & bonus):
            fans.add("pushed_down")
        total = sum(values[k] for k in fans)
        win = True
        if not s.flag("self_drawn") and exposed > 0:
            win = False  # "吃碰后只能自摸"
        if not draft4 and not s.flag("self_drawn") and s.wild_tiles >= 3:
            win = False  # "如果手中有三个“惠牌”：则必须自摸"
        if draft4 and not s.flag("self_drawn") and "pushed_down" in fans:
            win = False  # 第4稿: "推倒和只能自摸才能赢"
        best.offer((total,), {"fans": {k: 1 for k in fans}, "win": win})

    for form, groups in arrangements(s):
        for place in placements(s, groups):
            score(facts(s, form, groups, place), None)
    if best.rank is None and not draft4 and s.wild_tiles >= 4 and len(s.wild_kinds) == 1:
        # "摸齐四个“惠牌”时自动和牌", whatever the shape.
        groups = tuple(meld_group(m) for m in s.melds) + tuple(
            ("single", k, (k in s.wild_kinds,), None) for k in range(KINDS) for _ in range(s.concealed[k])
        )
        score(
            facts(s, "four_wilds", groups, None),
            {"last_tile", "kong_flower", "heavenly", "earthly", "four_wilds", "dealer"},
        )
    if best.rank is None:
        return Outcome(False, 0, [{"fans": {}, "win": False}], complete=False)
    return Outcome(None, best.rank[0], best.sigs())


# ---------------------------------------------------------------------------------------
# Longgang

LG_CAP, LG_BASE = 300, 20
LG_FOLLOW = (30, 60, 90, 120)
_LG_TAI = dict(
    one_dragon=1,
    five_kongs=3,
    four_kongs=3,
    three_kongs=2,
    five_concealed_pungs=3,
    four_concealed_pungs=2,
    four_identical_chows=3,
    all_green=3,
    concealed_hand=1,
    self_drawn_concealed=1,
    all_claimed=1,
    half_claimed=1,
    five_kong_run=3,
    four_kong_run=3,
    three_kong_run=3,
    three_same_kongs=3,
    five_pung_run=3,
    four_pung_run=2,
    red_peacock=3,
    dotted_red=3,
    one_red=3,
    self_drawn=0,
    closed_wait=0,
    plain=0,
    no_wilds=1,
    two_wilds=1,
    seat_flower=1,
    four_flowers=2,
    honour_pung=1,
    half_suit=1,
    all_pungs=1,
    one_suit=3,
    all_honours=3,
    all_terminals=3,
    terminals_and_honours=3,
    big_four_winds=3,
    small_four_winds=3,
    three_wilds=3,
    wilds_meet=3,
    heavenly=3,
    earthly=3,
    eight_pairs=3,
)
_LG_LAZI = {
    "five_kongs",
    "all_green",
    "red_peacock",
    "dotted_red",
    "one_red",
    "one_suit",
    "all_honours",
    "all_terminals",
    "terminals_and_honours",
    "big_four_winds",
    "small_four_winds",
    "three_wilds",
    "wilds_meet",
    "heavenly",
    "earthly",
    "eight_pairs",
}
_LG_EXCLUDES = dict(
    two_wilds=("no_wilds",),
    four_flowers=("seat_flower",),
    one_suit=("half_suit", "plain", "all_green"),
    all_honours=("all_pungs", "half_suit", "terminals_and_honours", "big_four_winds", "small_four_winds"),
    all_terminals=("all_pungs", "terminals_and_honours"),
    terminals_and_honours=("all_pungs",),
    big_four_winds=("small_four_winds",),
    three_wilds=("two_wilds", "wilds_meet"),
    five_kongs=("four_kongs", "three_kongs", "all_pungs"),
    four_kongs=("three_kongs",),
    five_concealed_pungs=("four_concealed_pungs",),
    five_kong_run=("four_kong_run", "three_kong_run", "five_pung_run", "four_pung_run"),
    four_kong_run=("four_kongs", "three_kongs", "three_kong_run", "four_pung_run"),
    three_kong_run=("three_kongs",),
    three_same_kongs=("three_kongs",),
    five_pung_run=("four_pung_run",),
)


def _round_up(hu: int) -> int:
    return -(-hu // 10) * 10


def lg_total(face: int, tai: int, lazi: bool, winner: bool) -> int:
    """(胡数 + 20) x 2^台 for the winner, 胡数 x 2^台 for a 陪家, rounded up to 10, at most 300."""
    if lazi:
        return LG_CAP
    return min(LG_CAP, _round_up((face + (LG_BASE if winner else 0)) * 2 ** min(tai, 30)))


def lg_group_hu(s: Sit, g: tuple[Any, ...], on_discard: bool, winner: bool) -> tuple[str, int] | None:
    """The 胡数 of a group (一、C): kongs, pungs, the pair of 中/发/坐风."""
    shape, kind, wilds, meld = g
    if len(wilds) > 1 and all(wilds):
        return None  # "财神坐花对作将牌，不计将胡数": groups of wilds alone score nothing
    big = is_orphan(kind)
    if shape == "kong":
        if meld == "concealed_kong":
            return f"暗杠{name(kind)}", 32 if big else 16
        return f"明杠{name(kind)}", 16 if big else 8
    if shape == "pung":
        if meld is not None or on_discard:
            return f"明刻{name(kind)}", 4 if big else 2
        return f"暗刻{name(kind)}", 8 if big else 4
    if shape == "pair" and kind in (GREEN, RED, EAST + s.seat):
        if winner or s.options["loser_pair_hu"]:
            return f"对{name(kind)}", 2
    return None


def _lg_honours(s: Sit) -> set[int]:
    """中, 发 and the seat wind, unless that kind is the 财神 ("如是中发坐风为财神的，不另计")."""
    return {GREEN, RED, EAST + s.seat} - set(s.wild_kinds)


def _lg_exclude(found: dict[str, int]) -> dict[str, int]:
    void = {x for p in found for x in _LG_EXCLUDES.get(p, ())}
    return {p: n for p, n in found.items() if p not in void}


def _lg_winner_patterns(s: Sit, f: Facts) -> dict[str, int]:
    o = s.options
    std = f.form == "standard"
    one_suit = f.suits == 1 and not f.honours
    half_suit = f.suits == 1 and f.honours
    seat_used = int(s.seat_flower)  # a winner uses every wild, the 坐花 among them
    found: dict[str, int] = {}
    if s.flag("self_drawn"):
        found["self_drawn"] = 1
    if win_at(f, ("closed",)):
        found["closed_wait"] = 1
    if (
        std
        and not f.triplets
        and not any(p in (GREEN, RED, EAST + s.seat) for p in f.pairs)
        and not s.seat_flower
        and s.guest_flowers == 0
        and not s.flag("self_drawn")
        and not win_at(f, ("closed",))
        and s.wild_tiles == 1
        and not s.flower_wilds
        and not one_suit
        and not half_suit
    ):
        found["plain"] = 1  # 平胡: exactly one 财神, no 坐花 ...
    no_wilds = not s.seat_flower and not (s.flower_wilds and s.wild_tiles > 0)
    home = s.wild_tiles == 0 or (o["home_wild_is_natural"] and 1 <= s.wild_tiles <= 4 and f.home_wilds == s.wild_tiles)
    if no_wilds and home:
        found["no_wilds"] = 1  # 无财神 (or 财神归位)
    if s.wild_tiles == 2:
        found["two_wilds"] = 1  # "两个神计一台"
    if seat_used:
        found["seat_flower"] = 1
    if s.flowers >= {1, 2, 3, 4} and seat_used:
        found["four_flowers"] = 1
    n = count_in(f.triplets, _lg_honours(s))
    if n:
        found["honour_pung"] = n  # 字刻, each
    if half_suit:
        found["half_suit"] = 1
    if std and len(f.triplets) == 5:
        found["all_pungs"] = 1
    if one_suit:
        found["one_suit"] = 1
    if all_tiles_in(f, HONOURS):
        found["all_honours"] = 1
    if not f.chows and all_tiles_in(f, TERMINALS):
        found["all_terminals"] = 1
    if std and not f.chows and all_tiles_in(f, TERMINALS | HONOURS):
        found["terminals_and_honours"] = 1
    winds = count_in(f.triplets, WINDS)
    if std and winds >= 4:
        found["big_four_winds"] = 1
    if std and winds == 3 and count_in(f.pairs, WINDS):
        found["small_four_winds"] = 1
    if s.wild_tiles >= o["bulldozer_wilds"]:
        found["three_wilds"] = 1
    if not s.flower_wilds and s.wild_tiles == 2 and s.seat_flower and f.free_melds >= 1:
        found["wilds_meet"] = 1  # 财神会: the two 财神 and the 坐花 as one group
    if s.flag("heavenly"):
        found["heavenly"] = 1
    if s.flag("earthly"):
        found["earthly"] = 1
    if f.form == "eight_pairs" and o["eight_pairs"] == "lazi":
        found["eight_pairs"] = 1  # 八对半 "有的地方来法算腊子"
    for p in o["optional"]:
        n = _LG_OPTIONAL[p](s, f)
        if n:
            found[p] = int(n)
    return _lg_exclude(found)


def _run(kinds: list[int], length: int) -> bool:
    """Pungs or kongs of ``length`` ranks in a row of one suit."""
    ks = set(kinds)
    return any(all(st + i in ks for i in range(length)) for st in range(27) if st % 9 + length <= 9)


def _same_rank_kongs(f: Facts) -> bool:
    ks = set(f.kongs)
    return any(all(x * 9 + r in ks for x in range(3)) for r in range(9))


#: The optional patterns (选用, 附一), scored when ``optional`` names them.
_LG_OPTIONAL = {
    "one_dragon": lambda s, f: straight_in(f, {0, 1, 2}),
    "five_kongs": lambda s, f: len(f.kongs) == 5,
    "four_kongs": lambda s, f: len(f.kongs) == 4,
    "three_kongs": lambda s, f: len(f.kongs) == 3,
    "five_concealed_pungs": lambda s, f: f.concealed_triplets == 5,
    "four_concealed_pungs": lambda s, f: f.concealed_triplets == 4,
    "four_identical_chows": lambda s, f: any(n >= 4 for n in Counter(f.chows).values()),
    "all_green": lambda s, f: all_tiles_in(f, {19, 20, 21, 23, 25, GREEN}),
    "concealed_hand": lambda s, f: f.exposed == 0 and not s.flag("self_drawn"),
    "self_drawn_concealed": lambda s, f: f.exposed == 0 and s.flag("self_drawn"),
    "all_claimed": lambda s, f: f.exposed == 5 and win_at(f, ("single",)) and not s.flag("self_drawn"),
    "half_claimed": lambda s, f: f.exposed == 5 and win_at(f, ("single",)) and s.flag("self_drawn"),
    "five_kong_run": lambda s, f: _run(f.kongs, 5),
    "four_kong_run": lambda s, f: _run(f.kongs, 4),
    "three_kong_run": lambda s, f: _run(f.kongs, 3),
    "three_same_kongs": lambda s, f: _same_rank_kongs(f),
    "five_pung_run": lambda s, f: _run(f.triplets, 5),
    "four_pung_run": lambda s, f: _run(f.triplets, 4),
    # 红孔雀 (1 5 7 9 索 and 红中), 点点红 (1 3 5 6 7 9 筒, a pair of 红中), 红一点 (2 3 4 6 8 索, a pair of 红中)
    "red_peacock": lambda s, f: all_tiles_in(f, {18, 22, 24, 26, RED}),
    "dotted_red": lambda s, f: (
        f.form == "standard" and RED in f.pairs and all_tiles_in(f, {9, 11, 13, 14, 15, 17, RED})
    ),
    "one_red": lambda s, f: f.form == "standard" and RED in f.pairs and all_tiles_in(f, {19, 20, 21, 23, 25, RED}),
}


def _lg_score_winner(s: Sit, f: Facts, best: Best) -> None:
    o = s.options
    fans = _lg_winner_patterns(s, f)
    tai = sum(_LG_TAI[p] * n for p, n in fans.items())
    lazi = any(p in _LG_LAZI for p in fans)
    face = 0
    for gi, g in enumerate(f.groups):
        item = lg_group_hu(s, g, f.pung_on_discard == gi, True)
        if item:
            face += item[1]
    single = win_at(f, ("single",))
    if s.flag("self_drawn") and (o["single_wait_self_drawn_hu"] or not single):
        face += 2  # 自摸 (not on a single wait: "单吊自摸的不计自摸2胡")
    if win_at(f, ("closed",)):
        face += 2  # 卡档 / 坎张
    if o["edge_wait_hu"] and win_at(f, ("edge",)):
        face += 2
    face += 4 * s.guest_flowers  # "每杠一个花可计4胡数"
    total = lg_total(face, tai, lazi, True)
    shown_tai = 3 if lazi else tai
    sig = {"fans": fans, "face": face, "tai": shown_tai, "follow": LG_FOLLOW[min(shown_tai, 3)]}
    best.offer((total, tai, face), sig)


def _lg_loser(s: Sit) -> Outcome:
    """A 陪家's own 胡数: any pungs of one to three real tiles of a kind with wilds for the
    rest, at most one natural pair of 中/发/坐风, declared melds; wilds left over are void."""
    o = s.options
    best = Best()
    melds = tuple(meld_group(m) for m in s.melds)
    kinds = [k for k in range(KINDS) if s.real[k]]
    honours = _lg_honours(s)
    pair_kinds = {GREEN, RED, EAST + s.seat} if o["loser_pair_hu"] else set()

    def kind_options(k: int, c: int, pair_free: bool) -> list[tuple[tuple[int, ...], bool]]:
        """The groups one kind's ``c`` real tiles may make: pungs of 1-3 real tiles each
        (wilds for the rest), and a natural pair, using at most ``c`` tiles: one kind may
        make two groups (7777z and two 财神: 777z and 7z with both)."""
        out = []
        for pair in (False, True) if pair_free and k in pair_kinds and c >= 2 else (False,):
            left = c - 2 * pair
            pungs: list[tuple[int, ...]] = [()]
            for a in range(1, min(left, 3) + 1):
                pungs.append((a,))
                for b in range(1, a + 1):
                    if a + b <= left:
                        pungs.append((a, b))
                        for d in range(1, b + 1):
                            if a + b + d <= left:
                                pungs.append((a, b, d))
            for ps in pungs:
                out.append((ps, pair))
        return out

    def choose(i: int, wilds_left: int, pair: bool, acc: list[tuple[Any, ...]]):
        if i == len(kinds):
            yield tuple(acc), wilds_left
            return
        k = kinds[i]
        for ps, with_pair in kind_options(k, s.real[k], not pair):
            need = sum(3 - n for n in ps)
            if need > wilds_left:
                continue
            added = [("pung", k, (True,) * (3 - n) + (False,) * n, None) for n in ps]
            if with_pair:
                added.append(("pair", k, (False, False), None))
            acc += added
            yield from choose(i + 1, wilds_left - need, pair or with_pair, acc)
            del acc[len(acc) - len(added) :]

    for chosen, left in choose(0, s.n_wilds, False, []):
        used = s.n_wilds - left
        groups = melds + chosen
        f = facts(s, "partial", groups, None)
        # Which wilds were used: the 坐花 among them or not.
        for seat_used in (0, 1) if used > 0 and s.seat_flower else (0,):
            real_used = used if s.flower_wilds else used - seat_used
            if not s.flower_wilds and real_used > s.wild_tiles:
                continue
            found: dict[str, int] = {}
            if real_used >= 2:
                found["two_wilds"] = 1
            if seat_used:
                found["seat_flower"] = 1
            if s.flowers >= {1, 2, 3, 4} and seat_used and not s.flower_wilds:
                found["four_flowers"] = 1
            n = count_in(f.triplets, honours)
            if n:
                found["honour_pung"] = n
            fans = _lg_exclude(found)
            values = dict(two_wilds=1, seat_flower=1, four_flowers=o["loser_four_flowers_tai"], honour_pung=1)
            tai = sum(values[p] * n for p, n in fans.items())
            face = sum(item[1] for g in groups if (item := lg_group_hu(s, g, False, False)))
            face += 4 * s.guest_flowers
            total = lg_total(face, tai, False, False)
            sig = {"fans": fans, "face": face, "tai": tai, "follow": 0}
            best.offer((total, tai, face), sig)
    assert best.rank is not None
    capped = best.rank[0] >= LG_CAP and best.rank[1] >= 3
    return Outcome(False, best.rank[0], best.sigs(), capped=capped)


def longgang(s: Sit) -> Outcome:
    if s.loser:
        return _lg_loser(s)
    if s.wild_tiles >= s.options["bulldozer_wilds"]:
        # 三财神 (推土机) counts in every arrangement and wins whatever the shape: 腊子, 300.
        return Outcome(True, LG_CAP, [{"fans": {"three_wilds": 1}, "face": 0, "tai": 3, "follow": 120}], capped=True)
    best = Best()
    for form, groups in arrangements(s):
        for place in placements(s, groups):
            f = facts(s, form, groups, place)
            _lg_score_winner(s, f, best)
    if best.rank is None:
        return Outcome(False, 0, [{"fans": {}, "face": 0, "tai": 0, "follow": 0}], complete=False)
    # The engine stops at the first arrangement of 300 胡 and 3 台: nothing it pays grows.
    capped = best.rank[0] >= LG_CAP and best.rank[1] >= 3
    return Outcome(True, best.rank[0], best.sigs(), capped=capped)


# ---------------------------------------------------------------------------------------

SCORERS = {"changsha": changsha, "hainan": hainan, "tangshan": tangshan, "beijing": beijing, "longgang": longgang}
#: Most wilds the brute force tries.
MAX_WILDS = 3


def evaluate(rules: str, **situation: Any) -> Outcome:
    """Scores a situation of ``rules`` by brute force (see the module docstring)."""
    if rules not in SCORERS:
        raise RefError(f"no ruleset {rules!r}")
    s = read(rules, situation)
    # Longgang: three 正财神 win 300 whatever the shape, and a 陪家's search is small.
    cheap = rules == "longgang" and (s.loser or s.wild_tiles >= s.options["bulldozer_wilds"])
    if s.n_wilds > MAX_WILDS and not cheap:
        raise TooSlow(f"{s.n_wilds} wilds")
    o = SCORERS[rules](s)
    for sig in o.best:
        sig.setdefault("win", o.win)
    wins = {sig["win"] for sig in o.best}
    o.win = wins.pop() if len(wins) == 1 else None
    return o
