"""The words a ruleset's scoring is written in, and the one way it reaches the engine.

A regional ruleset's module declares, as data:

- its situation keys (``KEYS``), each read in Rust the same way from a keyword argument,
  a dict in a list, a row of columns or a JSON line;
- its patterns: :class:`Pattern` rows with a :class:`Rule` each, built from the
  predicates below (``flag``, ``form``, ``triplets`` ...) and combined with ``&``, ``|``
  and ``~``;
- its options (:class:`Option` rows, one table taken by ``evaluate``, ``evaluate_many``
  and ``settle`` alike);
- a ``scheme(options)`` function that returns :func:`build`'s data for those options.

The engine (``haidi._core.Scheme``, Rust) lists the arrangements, gives groups of wilds
alone their kinds, places the winning tile, works out the facts each rule reads and
keeps the best arrangement. Nothing here runs per hand.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .._errors import hand_error, shown, spelled

# ---------------------------------------------------------------------------------------
# Kind sets


class Kinds:
    """A set of tile kinds a rule names: fixed (``kinds("258m258p258s")``) or given by the
    situation (``SEAT_WIND``, ``ROUND_WIND``, ``WILDS``); ``a | b``, ``a - b``."""

    __slots__ = ("spec",)

    def __init__(self, *spec: Any) -> None:
        self.spec = spec

    def __or__(self, other: Kinds) -> Kinds:
        return Kinds("union", self, other)

    def __sub__(self, other: Kinds) -> Kinds:
        return Kinds("minus", self, other)

    def data(self) -> tuple[Any, ...]:
        return tuple(p.data() if isinstance(p, Kinds) else p for p in self.spec)

    def __repr__(self) -> str:
        return f"Kinds{self.data()!r}"


def kinds(text: str) -> Kinds:
    """Kinds in compact notation: ``kinds("6z7z")``."""
    return Kinds("kinds", text)


def suits(letters: str) -> Kinds:
    """Suits by letter, for ``straight``: ``suits("mps")``."""
    return Kinds("suits", letters)


SEAT_WIND = Kinds("seat_wind")
ROUND_WIND = Kinds("round_wind")
WILDS = Kinds("wilds")
#: The suits of the wild kinds.
WILD_SUITS = Kinds("wild_suits")
ALL = kinds("123456789m123456789p123456789s1234567z")
SUITED = kinds("123456789m123456789p123456789s")
HONOURS = kinds("1234567z")
WINDS = kinds("1234z")
DRAGONS = kinds("567z")
TERMINALS = kinds("19m19p19s")
#: 幺九 (大子): terminals and honours.
TERMINALS_AND_HONOURS = TERMINALS | HONOURS
KINDS_258 = kinds("258m258p258s")
FIVES = kinds("5m5p5s")


# ---------------------------------------------------------------------------------------
# Rules


class Rule:
    """A predicate over an arrangement and its situation, counting how often it holds.
    ``a & b`` (when both hold, the larger count), ``a | b`` (the larger), ``~a``; a count
    compared to a number is a predicate (``triplets(WINDS) >= 4``)."""

    __slots__ = ("parts",)

    def __init__(self, *parts: Any) -> None:
        self.parts = parts

    def __and__(self, other: Rule) -> Rule:
        a = self.parts[1:] if self.parts[0] == "all" else (self,)
        b = other.parts[1:] if other.parts[0] == "all" else (other,)
        return Rule("all", *a, *b)

    def __or__(self, other: Rule) -> Rule:
        a = self.parts[1:] if self.parts[0] == "any" else (self,)
        b = other.parts[1:] if other.parts[0] == "any" else (other,)
        return Rule("any", *a, *b)

    def __invert__(self) -> Rule:
        return Rule("not", self)

    # The count compared: ``triplets(WINDS) >= 4``.
    def __ge__(self, n: int) -> Rule:
        return Rule("compare", self, ">=", int(n))

    def __le__(self, n: int) -> Rule:
        return Rule("compare", self, "<=", int(n))

    def __gt__(self, n: int) -> Rule:
        return Rule("compare", self, ">", int(n))

    def __lt__(self, n: int) -> Rule:
        return Rule("compare", self, "<", int(n))

    def __eq__(self, n: object) -> Rule:  # type: ignore[override]
        return Rule("compare", self, "==", int(n))  # type: ignore[call-overload]

    __hash__ = None  # type: ignore[assignment]

    def data(self, sets: SetTable) -> tuple[Any, ...]:
        out: list[Any] = []
        for p in self.parts:
            if isinstance(p, Rule):
                out.append(p.data(sets))
            elif isinstance(p, Kinds):
                out.append(sets.index(p))
            else:
                out.append(p)
        return tuple(out)

    def __repr__(self) -> str:
        return f"Rule{self.parts!r}"


class SetTable:
    """The kind sets of a scheme, numbered as rules name them."""

    def __init__(self) -> None:
        self.sets: list[tuple[Any, ...]] = []

    def index(self, k: Kinds) -> int:
        d = k.data()
        if d not in self.sets:
            self.sets.append(d)
        return self.sets.index(d)


class Quantity:
    """A number of the arrangement or situation; compare it (``Q.chows == 0``) or count
    it (``Q.triplets.count``)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def _cmp(self, op: str, n: int) -> Rule:
        return Rule("is", self.name, op, int(n))

    def __eq__(self, n: object) -> Rule:  # type: ignore[override]
        return self._cmp("==", n)  # type: ignore[arg-type]

    def __ne__(self, n: object) -> Rule:  # type: ignore[override]
        return self._cmp("!=", n)  # type: ignore[arg-type]

    def __lt__(self, n: int) -> Rule:
        return self._cmp("<", n)

    def __le__(self, n: int) -> Rule:
        return self._cmp("<=", n)

    def __gt__(self, n: int) -> Rule:
        return self._cmp(">", n)

    def __ge__(self, n: int) -> Rule:
        return self._cmp(">=", n)

    __hash__ = None  # type: ignore[assignment]

    @property
    def count(self) -> Rule:
        return Rule("count", self.name)


class _Quantities:
    """The quantities rules read (see ``crate::score::rule::Quantity``)."""

    chows = Quantity("chows")
    triplets = Quantity("triplets")
    kongs = Quantity("kongs")
    pairs = Quantity("pairs")
    doubled_pairs = Quantity("doubled_pairs")
    declared = Quantity("declared")
    exposed = Quantity("exposed")
    concealed_triplets = Quantity("concealed_triplets")
    free_melds = Quantity("free_melds")
    free_pairs = Quantity("free_pairs")
    dragon_sets = Quantity("dragon_sets")
    same_chows = Quantity("same_chows")
    suits = Quantity("suits")
    honours = Quantity("honours")
    wild_tiles = Quantity("wild_tiles")
    extra_wilds = Quantity("extra_wilds")
    wilds = Quantity("wilds")
    wild_kinds = Quantity("wild_kinds")
    wilds_used = Quantity("wilds_used")
    home_wilds = Quantity("home_wilds")
    seat_flower_used = Quantity("seat_flower_used")
    real_wilds_used = Quantity("real_wilds_used")
    seat_flower = Quantity("seat_flower")
    guest_flowers = Quantity("guest_flowers")
    flowers = Quantity("flowers")
    all_flowers = Quantity("all_flowers")
    flower_wilds = Quantity("flower_wilds")
    fours = Quantity("fours")
    seat = Quantity("seat")
    seat_given = Quantity("seat_given")
    won = Quantity("won")
    discarder = Quantity("discarder")
    total = Quantity("total")
    value = Quantity("value")
    fan_count = Quantity("fan_count")


Q = _Quantities()


def always() -> Rule:
    return Rule("always")


def flag(name: str) -> Rule:
    """A flag of the situation (``self_drawn`` ...)."""
    return Rule("flag", name)


def form(*names: str) -> Rule:
    """The arrangement's form is one of these."""
    return Rule("form", *names)


def triplets(k: Kinds) -> Rule:
    """Pungs and kongs of these kinds (a count)."""
    return Rule("triplets", k)


def pairs(k: Kinds) -> Rule:
    """Pairs of these kinds (a count)."""
    return Rule("pairs", k)


def all_tiles(k: Kinds) -> Rule:
    """Every tile stands for one of these kinds."""
    return Rule("all_tiles", k)


def any_tile(k: Kinds) -> Rule:
    """Some tile stands for one of these kinds."""
    return Rule("any_tile", k)


def straight(s: Kinds) -> Rule:
    """Chows 123, 456 and 789 of one of these suits (``suits("mps")``, ``WILD_SUITS``)."""
    return Rule("straight", s)


def win(*roles: str, kinds: Kinds = ALL) -> Rule:
    """The winning tile completes its group in one of these roles (single, closed,
    edge, open, pung, set), standing for one of ``kinds``."""
    return Rule("win", roles, kinds)


def only_wait(k: Kinds) -> Rule:
    """The hand waited on these kinds only (the wild kinds aside: a drawn wild completes
    every ready hand)."""
    return Rule("only_wait", k)


def run(of: str, length: int) -> Rule:
    """Pungs and kongs (``"triplets"``) or kongs of ``length`` ranks in a row of one suit."""
    return Rule("run", of, length)


def same_rank_kongs() -> Rule:
    return Rule("same_rank_kongs")


def pattern(pid: str) -> Rule:
    """The pattern counts (judged after the others)."""
    return Rule("pattern", pid)


def exists(rule: Rule) -> Rule:
    """1 when ``rule`` counts at all (a pattern counted once however often it holds)."""
    return ~~rule


def any_of(*rules: Rule) -> Rule:
    out = rules[0]
    for r in rules[1:]:
        out = out | r
    return out


def none_of(*ids: str) -> Rule:
    """None of these patterns counts (judged after them): a fallback such as 平胡."""
    return ~any_of(*(pattern(i) for i in ids))


# ---------------------------------------------------------------------------------------
# Patterns


@dataclass(frozen=True)
class Pattern:
    """One pattern: id, names, value each time it counts, the rule that finds it, the
    patterns it makes void, and its flags.

    ``lazi``: a limit hand (the total is the cap). ``instant``: after it the others
    count nothing. ``loser_value``: its value for a player who did not win (None: it
    does not count for one). ``kind``: a grouping of the ruleset's own, shown in the
    entry (Changsha's small, big, dealt). ``optional``: scored only when the options
    name it.
    """

    id: str
    name: str
    name_en: str
    value: int
    rule: Rule
    excludes: tuple[str, ...] = ()
    lazi: bool = False
    instant: bool = False
    loser_value: int | None = None
    kind: str | None = None
    optional: bool = False


# ---------------------------------------------------------------------------------------
# Options: one table per ruleset, one reading for evaluate, evaluate_many and settle.


@dataclass(frozen=True)
class Option:
    """An option: its default, what it means, and the values it takes (``choices``, or
    the default's type)."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    #: Where it acts: "evaluate", "settle" or "both".
    acts: str = "settle"
    #: Bounds of an integer option.
    low: int | None = None
    high: int | None = None
    #: Read only where another option has a value, ``(name, value)``: given otherwise,
    #: it would change nothing, and is refused as a misspelt option is.
    only_with: tuple[str, Any] | None = None


def read_options(table: Sequence[Option], given: Any, ruleset: str, keys: Collection[str] = ()) -> dict[str, Any]:
    """The defaults of ``table`` with ``given`` applied; an unknown name, a wrong type or
    a value outside the choices is a ``HandError`` naming the option. None is an option
    left out (its default), as None is a situation key left out. ``keys`` are the options
    that were given as situation keys: an error of one of them names that key, the
    others' name ``options``."""
    out = {o.name: o.default for o in table}
    if given is None:
        return out
    if not isinstance(given, Mapping):
        raise hand_error(f"options must be a dict, not {type(given).__name__}", key="options")
    by_name = {o.name: o for o in table}
    for k, v in given.items():
        o = by_name.get(k)
        if o is None:
            raise hand_error(f"unknown {ruleset} option {shown(k)}; known: {', '.join(by_name)}", key="options")
        if v is not None:  # None is an option left out: its default
            out[k] = check_option(o, v, k if k in keys else "options")
    for o in table:
        if o.only_with is not None and given.get(o.name) is not None:
            other, value = o.only_with
            if out[other] != value:
                raise hand_error(
                    f"option {o.name} is read under {other}={shown(value)} only, not {shown(out[other])}",
                    key=o.name if o.name in keys else "options",
                )
    return out


def check_option(o: Option, v: Any, key: str = "options") -> Any:
    """``v`` read as option ``o``'s value; a ``HandError`` naming ``key`` if it is not one."""
    # numpy's scalars are read as the Python values they hold, as every reader reads them.
    if isinstance(v, np.bool_):
        v = bool(v)
    elif isinstance(v, np.integer):
        v = int(v)
    if o.choices is not None:
        # The value as given is quoted; a list is read as the tuple it names.
        given, v = v, tuple(v) if isinstance(v, list) else v
        if isinstance(o.default, tuple):
            items = (v,) if isinstance(v, str) else v
            if not isinstance(items, tuple) or any(i not in o.choices for i in items):
                raise hand_error(
                    f"option {o.name} lists some of {', '.join(map(shown, o.choices))}, not {shown(given)}", key=key
                )
            return tuple(dict.fromkeys(items))
        if not any(v is c or (type(v) is type(c) and v == c) for c in o.choices):
            raise hand_error(
                f"option {o.name} is one of {', '.join(map(shown, o.choices))}, not {shown(given)}", key=key
            )
        return v
    d = o.default
    if isinstance(d, bool):
        if not isinstance(v, (bool, np.bool_)):
            raise hand_error(
                f"option {o.name} must be {spelled('True or False', 'true or false')}, not {shown(v)}", key=key
            )
        return bool(v)
    if isinstance(d, int):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise hand_error(f"option {o.name} must be an int, not {shown(v)}", key=key)
        lo = 0 if o.low is None else o.low
        hi = 10**6 if o.high is None else o.high
        if not lo <= int(v) <= hi:
            raise hand_error(f"option {o.name} must be from {lo} to {hi}, not {shown(v)}", key=key)
        return int(v)
    if isinstance(d, str):
        if not isinstance(v, str):
            raise hand_error(f"option {o.name} must be {spelled('a str', 'a string')}, not {shown(v)}", key=key)
        return v
    return v


def options_read(opts: Mapping[str, Any], table: Sequence[Option]) -> dict[str, Any]:
    """``opts`` as they may be given again: without those the others leave unread (an
    option ``only_with`` another's value, where that option has another)."""
    return {o.name: opts[o.name] for o in table if o.only_with is None or opts[o.only_with[0]] == o.only_with[1]}


def options_key(opts: Mapping[str, Any], table: Sequence[Option]) -> tuple[Any, ...]:
    """The options that change scoring, as a hashable key."""
    return tuple((o.name, opts[o.name]) for o in table if o.acts in ("evaluate", "both"))


# ---------------------------------------------------------------------------------------
# Situation keys


def key(name: str, kind: str, arg: Any = None) -> tuple[str, str, Any]:
    """A situation key: ``kind`` is hand, win, format, flag (``arg``: the flag it sets,
    None for a key taken but meaning nothing here), seat_wind, seat, round_wind,
    discarder_wind, wilds, indicator, flowers, choice (``arg``: (value, flag) pairs) or
    explain."""
    return (name, kind, arg)


def flag_key(name: str) -> tuple[str, str, Any]:
    return key(name, "flag", name)


def ignored_flag(name: str) -> tuple[str, str, Any]:
    """A flag other rulesets have: taken and checked, meaning nothing here."""
    return key(name, "flag", None)


HAND = key("hand", "hand")
WIN = key("win", "win")
FORMAT = key("format", "format")
SEAT_WIND_KEY = key("seat_wind", "seat_wind")
ROUND_WIND_KEY = key("round_wind", "round_wind")
EXPLAIN = key("explain", "explain")

_WIND = '``"E"``, ``"S"``, ``"W"``, ``"N"`` (either case; or ``1z``-``4z``, or 0-3)'

#: The default of a key that must be given (``hand``).
REQUIRED = inspect.Parameter.empty

#: What a key of each kind takes, and its value when not given, as the reference shows
#: them. The reader in Rust (``crate::score::situation``) takes exactly these.
KEY_KINDS: dict[str, tuple[str, Any]] = {
    "hand": ("str or ``Hand``", REQUIRED),
    "win": ('str, a tile such as ``"5p"``', None),
    "format": ('``"compact"`` or ``"comh"``', "compact"),
    "explain": ("bool", False),
    "flag": ("bool", False),
    "seat_wind": (_WIND, None),
    "round_wind": (_WIND, None),
    "discarder_wind": (_WIND, None),
    "seat": ("int 0-3 (or a wind letter)", None),
    "wilds": ('str of tile kinds (``"5m"``, ``"5z6z"``) or a list of them', None),
    "indicator": ('str, a tile such as ``"3z"``', None),
    "flowers": ('str of flower tiles (``"15f"``) or a list of them', None),
    "options": ("dict", None),
}

#: What the keys mean where a ruleset says nothing more of its own (``KEY_DOCS`` of its
#: module says what they mean there).
COMMON_KEY_DOCS: dict[str, str] = {
    "hand": (
        "the hand without the winning tile, in the notation ``format`` names, or a ``Hand``: "
        "concealed tiles, then declared melds (``[123m]``, ``[555p]``, ``{1111z}``, "
        "``[5555p+]``), each counting 3 tiles"
    ),
    "win": "the winning tile",
    "format": (
        "the notation of ``hand``: ``compact`` (haidi's) or ``comh`` "
        "(ChineseOfficialMahjongHelper strings); never guessed"
    ),
    "explain": "also list, as ``excluded``, the patterns found but not counted, and what voided each",
    "self_drawn": "the winning tile was drawn by the winner (自摸), not taken from a discard",
    "options": "overrides of the ruleset's options (the options table), as a dict",
}


class KeyRow(NamedTuple):
    """A situation key as the reference lists it."""

    name: str
    #: What it takes, in words.
    takes: str
    #: Its value when not given (``REQUIRED`` for ``hand``).
    default: Any
    meaning: str


def key_rows(module: Any, strict: bool = True) -> list[KeyRow]:
    """The situation keys of a ruleset's module, as the reference lists them: each of its
    ``KEYS``, each of its ``OPTION_KEYS`` (an option also taken as a situation key), and
    ``options``.

    Meanings come from the module's ``KEY_DOCS``, else :data:`COMMON_KEY_DOCS`; what a key
    takes from :data:`KEY_KINDS`, unless the module's ``KEY_TYPES`` says otherwise. A key
    with no meaning is a ``KeyError`` when ``strict`` (as the reference pages are written,
    so that no key goes undocumented), else its meaning reads "not documented".
    """
    docs: Mapping[str, str] = getattr(module, "KEY_DOCS", {})
    types: Mapping[str, str] = getattr(module, "KEY_TYPES", {})
    rows = []
    for name, kind, arg in getattr(module, "KEYS", ()):
        if kind == "choice":
            takes, default = " or ".join(f'``"{v}"``' for v, _ in arg), None
        else:
            takes, default = KEY_KINDS[kind]
        meaning = docs.get(name) or COMMON_KEY_DOCS.get(name)
        if meaning is None and kind == "flag" and arg is None:
            meaning = (
                "taken (True or False) and checked, but it scores nothing in this ruleset: one "
                "situation file serves several rulesets"
            )
        if meaning is None and strict:
            raise KeyError(f"situation key {name!r} of {module.__name__} has no meaning in KEY_DOCS")
        rows.append(KeyRow(name, types.get(name, takes), default, meaning or "not documented"))
    options = {o.name: o for o in getattr(module, "OPTIONS", ())}
    for name in getattr(module, "OPTION_KEYS", ()):
        rows.append(KeyRow(name, "as the option", options[name].default, f"the option ``{name}``, as a situation key"))
    rows.append(KeyRow("options", *KEY_KINDS["options"], docs.get("options") or COMMON_KEY_DOCS["options"]))
    return rows


# ---------------------------------------------------------------------------------------
# Building a scheme


@dataclass
class Scoring:
    """How a ruleset totals and ranks: ``total`` is ("sum",), ("fixed", n) or ("hu_tai",
    base, cap, step); ``rank`` lists total, value, face, fan_count, most important first."""

    total: tuple[Any, ...] = ("sum",)
    rank: tuple[str, ...] = ("total",)
    stop: tuple[int, int] | None = None
    exclusion: str = "every_hit"
    exclusion_text: str = "excluded (不计)"


@dataclass
class Points:
    """Face points: rows for groups (name, state, kinds, small, big, winners, losers)
    and rows for the rest (name, rule, points, winners, losers)."""

    groups: list[tuple[Any, ...]] = field(default_factory=list)
    extra: list[tuple[Any, ...]] = field(default_factory=list)


def build(
    spec: Any,
    *,
    keys: Iterable[tuple[str, str, Any]],
    patterns: Sequence[Pattern],
    entry: Callable[[Pattern], dict[str, Any]] | None = None,
    loser_entry: Callable[[Pattern], dict[str, Any]] | None = None,
    results: Sequence[tuple[Any, ...]] = (),
    implies: Sequence[tuple[str, str, str]] = (),
    refuse: Sequence[tuple[Rule, str]] = (),
    valid: Sequence[tuple[Rule, str]] = (),
    no_win: Sequence[tuple[Rule, str]] = (),
    fallbacks: Sequence[tuple[str, Rule, Sequence[str]]] = (),
    scoring: Scoring | None = None,
    points: Points | None = None,
    unwon: str = "refused",
    dealt_flag: str | None = None,
    incomplete: str = "not a complete hand",
    wild_name: str = "wild",
    tiles_note: str = "",
    seat_flower_wild: bool = False,
    seat_flowers: Sequence[str] = ("", "", "", ""),
    wild_kinds_in_melds: bool = True,
    maximal_partials: bool = False,
    max_wild_kinds: int = 4,
    eight_pairs_name: str = "eight_pairs_and_a_half",
    option_keys: Sequence[str] = (),
    compile: Callable[[Any], Any] | None = None,
) -> dict[str, Any]:
    """The data of a ``haidi._core.Scheme``: rules with their kind sets numbered, flags
    named by the keys that set them, pattern entries made once."""
    sets = SetTable()
    keys = list(keys)
    flags: list[str] = []
    key_data = []
    for name, kind, arg in keys:
        if kind == "flag" and arg is not None and arg not in flags:
            flags.append(arg)
        if kind == "choice":
            for _, f in arg:
                if f not in flags:
                    flags.append(f)
        key_data.append((name, kind, arg))
    scoring = scoring or Scoring()
    points = points or Points()

    def rule(r: Rule) -> tuple[Any, ...]:
        return r.data(sets)

    def make_entry(p: Pattern, f: Callable[[Pattern], dict[str, Any]] | None) -> dict[str, Any]:
        e = {"id": p.id, "name": p.name, "name_en": p.name_en, "value": p.value, "count": 1}
        if f is not None:
            e.update(f(p))
        return e

    pats = []
    for p in patterns:
        pats.append(
            {
                "id": p.id,
                "value": p.value,
                "loser_value": p.loser_value,
                "rule": rule(p.rule),
                "excludes": [x for x in p.excludes if any(q.id == x for q in patterns)],
                "lazi": p.lazi,
                "instant": p.instant,
                "class": {None: 0, "small": 0, "big": 1, "dealt": 2}.get(p.kind, 0),
                "entry": make_entry(p, entry),
                "loser_entry": None if loser_entry is None else make_entry(p, loser_entry),
            }
        )
    result_data = []
    for r in results:
        if len(r) > 2 and isinstance(r[2], Rule):
            result_data.append((r[0], r[1], rule(r[2])))
        else:
            result_data.append(r)
    data = {
        "name": spec.name,
        "tiles": spec.tiles,
        "flowers": spec.flowers,
        "forms": {"melds": spec.melds, **spec.forms, "dragon_sets": spec.dragon_sets},
        "flags": flags,
        "keys": key_data,
        "implies": list(implies),
        "refuse": [(rule(r), m) for r, m in refuse],
        "patterns": pats,
        "exclusion": scoring.exclusion,
        "exclusion_text": scoring.exclusion_text,
        "valid": [(rule(r), m) for r, m in valid],
        "no_win": [(rule(r), m) for r, m in no_win],
        "group_points": [(n, st, sets.index(k), a, b, w, lo) for n, st, k, a, b, w, lo in points.groups],
        "extra_points": [(n, rule(r), pts, w, lo) for n, r, pts, w, lo in points.extra],
        "total": scoring.total,
        "rank": list(scoring.rank),
        "stop": scoring.stop,
        "fallbacks": [(n, rule(r), list(ps)) for n, r, ps in fallbacks],
        "unwon": unwon,
        "dealt_flag": dealt_flag,
        "self_drawn_flag": "self_drawn" if "self_drawn" in flags else None,
        "seat_flower_wild": seat_flower_wild,
        "flower_wilds": spec.flower_wilds,
        "seat_flowers": list(seat_flowers),
        "wild_kinds_in_melds": wild_kinds_in_melds,
        "maximal_partials": maximal_partials,
        "max_wild_kinds": max_wild_kinds,
        "incomplete": incomplete,
        "wild_name": wild_name,
        "tiles_note": tiles_note,
        "eight_pairs_name": eight_pairs_name,
        "results": result_data,
        "option_keys": list(option_keys),
        "compile": compile,
    }
    data["sets"] = list(sets.sets)
    return data
