"""``Ruleset``: one ruleset's questions about hands, single and batched."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, overload

import numpy as np

from ._core import Engine, Hand, HandError, Scheme, analyze, analyze_batch, wild_from_indicator
from .results import (
    AnalysisEntry,
    BeijingResult,
    ChangshaResult,
    HainanResult,
    LonggangResult,
    MCRResult,
    Result,
    RulesetName,
    TangshanResult,
)
from .rulesets import REGISTRY, RulesetSpec
from .rulesets._scheme import Option, options_key, read_options

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

#: Default cap on the arrangements ``Ruleset.decompose`` lists: a listing's time is about
#: that of building its dicts, 5 to 7 microseconds an arrangement (docs/engine.md).
DECOMPOSE_LIMIT = 1_000

#: A hand: a ``Hand`` or its text.
HandLike = Hand | str
#: Wild tile kinds: ``None``, ``"5z"``, ``"5z6z"`` or ``["5z", "6z"]``.
WildsLike = str | Iterable[str] | None
#: Tiles seen: ``None``, text (``"19m[555p]"``), a ``Hand``, or a list of them.
VisibleLike = str | Hand | Iterable[str | Hand] | None

#: Where a row of ``analyze_batch`` holds no tile of a kind: its shanten, its useful copies.
NOT_HELD_SHANTEN = 127
NOT_HELD_USEFUL = -1


#: The result type of a ruleset's ``evaluate`` (see ``haidi.results``).
R = TypeVar("R", bound=Result)


class Ruleset(Generic[R]):
    """A ruleset: its tile set and hand forms, and the engine that answers for them.

    Get one with ``haidi.ruleset(name)``. Every method takes a hand as a ``Hand`` or as
    text (``format="compact"`` by default, or ``"comh"``), and wild kinds as ``wilds``.
    Scoring (``evaluate``, ``evaluate_many``) and payments (``settle``) take the
    ruleset's situation and outcome keys and one ``options`` dict (``OPTIONS`` of the
    ruleset's module, documented in docs/).
    """

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.spec: RulesetSpec = module.SPEC
        spec = self.spec
        self.engine = Engine(spec.name, spec.melds, spec.tiles, **spec.forms)
        self._option_table: tuple[Option, ...] = getattr(module, "OPTIONS", ())
        self._schemes: dict[tuple[Any, ...], Scheme] = {}
        self.scheme: Scheme | None = None
        if hasattr(module, "scheme"):
            self.scheme = self._compile(None)
            # The situation is read in Rust: a call costs no Python frame.
            self.evaluate = self.scheme.evaluate  # type: ignore[method-assign, assignment]
        elif getattr(module, "evaluate", None) is not None:
            self.evaluate = functools.partial(module.evaluate, self)  # type: ignore[method-assign]

    def options(self, given: Any = None) -> dict[str, Any]:
        """The ruleset's options (``OPTIONS`` of its module) with ``given`` applied; an
        unknown name or a wrong value raises ``HandError``."""
        return read_options(self._option_table, given, self.name)

    def _compile(self, given: Any) -> Scheme:
        """The scoring scheme for these options, built once per set of options that
        changes scoring."""
        opts = self.options(given)
        k = options_key(opts, self._option_table)
        s = self._schemes.get(k)
        if s is None:
            data = self.module.scheme(opts)
            data["compile"] = self._compile
            data["option_keys"] = list(getattr(self.module, "OPTION_KEYS", ()))
            s = self._schemes[k] = Scheme(data)
        return s

    def _scoring(self, what: str) -> Any:
        fn = getattr(self.module, what, None)
        if fn is None:
            raise NotImplementedError(f"{what} is not implemented for {self.name} yet")
        return fn

    def evaluate(self, **situation: Any) -> R:
        """Scores a situation (keys documented per ruleset); the result has the keys of
        ``haidi.results`` for the ruleset."""
        return self._scoring("evaluate")(self, **situation)  # type: ignore[no-any-return]

    def evaluate_many(
        self, situations: Any, *, format: str = "compact", errors: str = "raise", options: Any = None, **kwargs: Any
    ) -> Any:
        """Scores many situations with the GIL released.

        ``situations`` is a list of situation dicts (returning a list of results), or
        columns: a dict of equal-length sequences or numpy arrays keyed like a situation,
        or a pandas DataFrame (returning numpy arrays ``win``, ``total`` and ``fans``,
        n x ``len(fan_ids)`` counts). ``format`` and ``options`` apply to each situation
        that does not give its own. ``errors="collect"`` keeps going past a situation that
        cannot be read (``{"error": ...}`` in its place, or an ``error`` column);
        ``"raise"`` raises ``HandError`` naming the first.
        """
        _text(format, "format")
        _text(errors, "errors")
        if isinstance(situations, (str, bytes)) or not hasattr(situations, "__iter__"):
            raise HandError("evaluate_many takes a list of situation dicts, or columns")
        batch = getattr(self.module, "evaluate_many", None)
        if batch is not None:
            return batch(self, situations, format=format, errors=errors, options=options, **kwargs)
        if kwargs:
            raise HandError(f"evaluate_many takes format, errors and options, not {', '.join(kwargs)}")
        assert self.scheme is not None
        scheme = self.scheme if options is None else self._compile(options)
        if isinstance(situations, Mapping) or hasattr(situations, "columns"):
            return scheme.evaluate_columns(_columns(situations), format=format, errors=errors)
        if isinstance(situations, (str, bytes)) or not hasattr(situations, "__iter__"):
            raise HandError("evaluate_many takes a list of situation dicts, or columns")
        if options is not None:
            situations = [
                s if not isinstance(s, Mapping) or "options" in s else {**s, "options": options} for s in situations
            ]
        return scheme.evaluate_list(situations, format=format, errors=errors)

    def settle(self, outcome: Mapping[str, Any]) -> list[int]:
        """Four payments by seat (seat 0 the dealer), positive for what a seat receives;
        they sum to zero. The keys of ``outcome`` are documented per ruleset."""
        if not isinstance(outcome, Mapping):
            raise HandError(f"settle takes an outcome record (a dict), not {type(outcome).__name__}")
        return self._scoring("settle")(self, outcome)

    @property
    def fan_ids(self) -> tuple[Any, ...]:
        """The pattern ids, in the order of the ``fans`` columns of ``evaluate_many``."""
        if self.scheme is not None:
            return tuple(self.scheme.fan_ids)
        return tuple(self._scoring("FAN_IDS"))

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def hand_size(self) -> int:
        """Tiles in a hand waiting for its last tile (13 or 16)."""
        return self.spec.hand_size

    def __repr__(self) -> str:
        return f"haidi.ruleset({self.spec.name!r})"

    def parse(self, text: str, format: str = "compact") -> Hand:
        """Reads a hand in the given notation."""
        return Hand(text, format)

    def shanten(self, hand: HandLike, wilds: WildsLike = None, *, format: str = "compact", extra_wilds: int = 0) -> int:
        """Tiles away from ready (向听): -1 complete, 0 ready (听牌), 1, 2, ...

        Takes a hand of 13/16 tiles or one of 14/17 (a declared meld counts as 3).
        """
        return self.engine.shanten(hand, wilds, format=_text(format, "format"), extra_wilds=extra_wilds)

    def waits(
        self, hand: HandLike, wilds: WildsLike = None, *, format: str = "compact", extra_wilds: int = 0
    ) -> list[str]:
        """Tile kinds that complete a hand of 13/16 tiles, in order m, p, s, z.

        A kind the player already holds four of (concealed or melded) is not a wait.
        """
        return self.engine.waits(hand, wilds, format=_text(format, "format"), extra_wilds=extra_wilds)

    def winning_waits(
        self,
        hand: HandLike,
        wilds: WildsLike = None,
        *,
        format: str = "compact",
        **situation: Any,
    ) -> list[str]:
        """The waits that would score a win, not only complete the hand: MCR's 8 points,
        Hainan's 番 on a discard, Beijing's and Tangshan's self-drawn-only hands.

        ``situation`` holds the ruleset's other keys (``self_drawn``, ``seat_wind`` ...), as
        for ``evaluate``; the hand is the one waiting, and each wait is tried as ``win``.
        """
        h = hand if isinstance(hand, Hand) else Hand(hand, format)
        if wilds is not None:
            situation["wilds"] = wilds
        waits = self.waits(h, wilds)
        return [t for t in waits if self.evaluate(hand=str(h), win=t, **situation)["win"]]

    def analyze(
        self,
        hand: HandLike,
        visible: VisibleLike = None,
        wilds: WildsLike = None,
        *,
        format: str = "compact",
        extra_wilds: int = 0,
        scoring: bool = False,
        **situation: Any,
    ) -> list[AnalysisEntry]:
        """Hand analysis (牌效): what each discard leaves, best first (docs/analysis.md).

        A hand of 14/17 tiles (a declared meld counts 3) gives one entry per distinct
        discard; a hand of 13/16 one entry with ``discard`` None. Each entry has
        ``shanten`` (of the hand left), ``useful`` (kinds with a copy unseen whose draw
        lowers it; for a ready hand its waits), ``useful_count`` (their unseen copies),
        ``useful_wilds`` (the wild kinds among them), ``waits`` (a ready hand's waits,
        each ``{"tile", "left"}``), ``winning_waits`` (the waits that score a win under
        ``situation``, each ``{"tile", "left", "total"}``) and ``winning_count``.

        Args:
            visible: tiles seen elsewhere (discards, others' melds, an indicator): text,
                a ``Hand`` or a list of them. They and the hand's own tiles, the discard
                included, are taken off the four copies of each kind.
            scoring: add ``draws``, the least draws (each followed by a discard) to a
                ready hand with a winning wait, and ``draws_exact`` (False: a lower bound).
            situation: the ruleset's situation keys as for ``evaluate`` but ``hand`` and
                ``win`` (``self_drawn``, ``seat_wind``, ``indicator``, ``options`` ...).

        Order: lowest shanten, most useful copies, most winning copies, then the
        discard in tile order.
        """
        if not isinstance(scoring, bool):
            raise HandError(f"scoring must be True or False, not {scoring!r}")
        if wilds is not None and not self.spec.has_wilds:
            raise HandError(f"{self.name} plays no wild tiles, so analyze cannot score a hand with them")
        if "indicator" in situation and situation["indicator"] is not None:
            if wilds is not None:
                raise HandError("give either wilds or indicator, not both")
            indicator = situation["indicator"]
            if not isinstance(indicator, str):
                raise HandError(f"indicator must be a tile such as '3z', not {indicator!r}")
            wilds = wild_from_indicator(indicator)
        elif wilds is not None:
            situation["wilds"] = wilds
        return analyze(  # type: ignore[no-any-return]
            self.engine,
            hand,
            visible,
            wilds,
            format=_text(format, "format"),
            extra_wilds=extra_wilds,
            scorer=self.scheme if self.scheme is not None else self.name,
            situation=situation,
            scoring=scoring,
        )

    def analyze_batch(
        self,
        counts: ArrayLike,
        visible: ArrayLike | None = None,
        wilds: WildsLike = None,
        melds: ArrayLike | None = None,
    ) -> tuple[NDArray[np.int8], NDArray[np.int16]]:
        """``analyze`` for many 14/17-tile hands given as tile counts (n x 34), with the GIL
        released: ``(shanten, useful)``, two n x 34 arrays where column i is discarding
        kind i: the shanten left (int8) and the unseen copies of the useful draws (int16).
        Where a row holds no tile of kind i, shanten is ``NOT_HELD_SHANTEN`` (127, so
        that ``argmin`` never picks it) and useful ``NOT_HELD_USEFUL`` (-1).

        ``visible`` is one row of 34 counts for every hand or one row per hand; ``melds[i]``
        declared melds of row i (their tiles are not in the row: give them in ``visible``).
        """
        c, m = _rows(counts, melds)
        v = None
        if visible is not None:
            v, _ = _rows(visible, None)
        return analyze_batch(self.engine, c, v, wilds, m)  # type: ignore[no-any-return]

    def is_win(self, hand: HandLike, wilds: WildsLike = None, *, format: str = "compact", extra_wilds: int = 0) -> bool:
        """Whether a hand of 14/17 tiles is complete under this ruleset's forms."""
        return self.engine.is_win(hand, wilds, format=_text(format, "format"), extra_wilds=extra_wilds)

    def decompose(
        self,
        hand: HandLike,
        wilds: WildsLike = None,
        *,
        format: str = "compact",
        extra_wilds: int = 0,
        limit: int | None = DECOMPOSE_LIMIT,
    ) -> list[dict[str, Any]]:
        """Distinct arrangements of a complete hand, sorted, at most ``limit`` (up to
        20,000; None: all, where there are at most 20,000, else ``HandError``).

        Each is ``{"form": ..., "groups": [{"kind", "tiles", "wilds", "meld"}, ...]}``, where
        ``wilds`` lists the kinds that wild tiles stand for in that group. Groups made of
        wilds alone are listed with every concrete choice, so a hand with six or more wilds
        has tens of thousands of arrangements: hence the default limit. A hand with more
        than ``limit`` lists the first its search finds, the forms in the order of
        ``docs/engine.md``.
        """
        fmt = _text(format, "format")
        return self.engine.decompose(hand, wilds, format=fmt, extra_wilds=extra_wilds, limit=limit)

    def win_batch(
        self, counts: ArrayLike, wilds: WildsLike = None, melds: ArrayLike | None = None
    ) -> NDArray[np.bool_]:
        """Complete flags of many hands given as tile counts (n x 34; 14/17 tiles, or
        fewer with ``melds[i]`` declared melds). The GIL is released while they run."""
        c, m = _rows(counts, melds)
        return self.engine.win_batch(c, wilds, m)

    def shanten_batch(
        self, counts: ArrayLike, wilds: WildsLike = None, melds: ArrayLike | None = None
    ) -> NDArray[np.int8]:
        """Shanten of many hands given as tile counts (n x 34)."""
        c, m = _rows(counts, melds)
        return self.engine.shanten_batch(c, wilds, m)

    def waits_batch(
        self, counts: ArrayLike, wilds: WildsLike = None, melds: ArrayLike | None = None
    ) -> NDArray[np.bool_]:
        """Waits of many 13/16-tile hands: an n x 34 boolean array, column i = kind i."""
        c, m = _rows(counts, melds)
        return self.engine.waits_batch(c, wilds, m)


def _text(value: Any, name: str) -> str:
    """An argument that must be a str (``format``, ``errors``)."""
    if not isinstance(value, str):
        raise HandError(f"{name} must be a str, not {type(value).__name__}")
    return value


def _columns(cols: Any) -> dict[str, Any]:
    """Columns as a dict: a pandas DataFrame's columns as numpy arrays."""
    if hasattr(cols, "columns") and not isinstance(cols, Mapping):
        return {str(k): cols[k].to_numpy() for k in cols.columns}
    if not isinstance(cols, Mapping):
        raise HandError("columns must be a dict of sequences or a DataFrame")
    return {k: v.to_numpy() if hasattr(v, "to_numpy") else v for k, v in cols.items()}


#: The most melds a hand declares (a 16-tile hand's five).
MAX_MELDS = 5


def _array(value: Any, name: str) -> NDArray[Any]:
    """``value`` as a numpy array; nested lists of unequal lengths are a HandError."""
    try:
        return np.asarray(value)
    except (ValueError, TypeError) as e:
        raise HandError(f"{name} must be an array of integers: {e}") from None


def _rows(counts: ArrayLike, melds: ArrayLike | None) -> tuple[NDArray[np.uint8], NDArray[np.uint8] | None]:
    """Checks and converts tile counts to a contiguous uint8 n x 34 array."""
    a = _array(counts, "tile counts")
    if a.ndim == 1:
        a = a.reshape(1, -1)
    if a.ndim != 2 or a.shape[1] != 34:
        raise HandError(f"tile counts must be an n x 34 array, got shape {np.shape(counts)}")
    if a.size and a.dtype != np.uint8:
        if not np.issubdtype(a.dtype, np.integer):
            raise HandError(f"tile counts must be integers, got {a.dtype}")
        bad = np.argwhere((a < 0) | (a > 4))
        if len(bad):
            row, col = bad[0]
            raise HandError(f"row {row}: {a[row, col]} copies of tile column {col} (0 to 4 allowed)")
    c = np.ascontiguousarray(a, dtype=np.uint8)
    m = None
    if melds is not None:
        mm = _array(melds, "melds")
        if mm.shape != (c.shape[0],) or not np.issubdtype(mm.dtype, np.integer):
            raise HandError("melds must be one integer per row")
        bad = np.argwhere((mm < 0) | (mm > MAX_MELDS))
        if len(bad):
            row = int(bad[0][0])
            raise HandError(f"row {row}: {mm[row]} declared melds (0 to {MAX_MELDS} allowed)")
        m = np.ascontiguousarray(mm, dtype=np.uint8)
    return c, m


@overload
def ruleset(name: Literal["mcr"]) -> Ruleset[MCRResult]: ...
@overload
def ruleset(name: Literal["changsha"]) -> Ruleset[ChangshaResult]: ...
@overload
def ruleset(name: Literal["hainan"]) -> Ruleset[HainanResult]: ...
@overload
def ruleset(name: Literal["longgang"]) -> Ruleset[LonggangResult]: ...
@overload
def ruleset(name: Literal["tangshan"]) -> Ruleset[TangshanResult]: ...
@overload
def ruleset(name: Literal["beijing"]) -> Ruleset[BeijingResult]: ...
@overload
def ruleset(name: str) -> Ruleset[Result]: ...


def ruleset(name: RulesetName | str) -> Ruleset[Any]:
    """The ruleset called ``name``: one of ``haidi.RULESETS`` (made once, then shared)."""
    if not isinstance(name, str):
        raise HandError(f"a ruleset is named by a str ({', '.join(REGISTRY)}), not {name!r}")
    return _ruleset(name.lower())


@cache
def _ruleset(name: str) -> Ruleset[Any]:
    try:
        module = REGISTRY[name]
    except KeyError:
        raise HandError(f"unknown ruleset {name!r}; choose from {', '.join(REGISTRY)}") from None
    return Ruleset(module)
