"""``Ruleset``: one ruleset's questions about hands, single and batched."""

from __future__ import annotations

import functools
import inspect
import textwrap
from collections.abc import Collection, Iterable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, overload

import numpy as np

from . import _core, _frames
from ._core import (
    Engine,
    Hand,
    HandError,
    McrScorer,
    Scheme,
    analyze,
    analyze_batch,
    scheme_evaluate,
    tile_names,
    wild_from_indicator,
)
from ._errors import flag, hand_error, shown, valid_text
from .results import (
    RESULT_TYPES,
    AnalysisEntry,
    BeijingResult,
    ChangshaResult,
    Fan,
    HainanResult,
    LonggangResult,
    MCRResult,
    Output,
    ResultView,
    RulesetName,
    TableOutput,
    TangshanResult,
    result_keys,
)
from .rulesets import REGISTRY, RulesetSpec
from .rulesets._scheme import REQUIRED, Option, key_rows, options_key, options_read, read_options

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

#: The tile kinds in the order of the 34 columns of the batch calls' rows.
TILES: tuple[str, ...] = tuple(tile_names())

#: Where a row of ``analyze_batch`` holds no tile of a kind: its shanten, its useful copies.
NOT_HELD_SHANTEN = 127
NOT_HELD_USEFUL = -1


#: What scores a ruleset's wins: the regional engine's compiled ``Scheme``, or a scorer of
#: code of its own (MCR's ``McrScorer``).
Scorer = Scheme | McrScorer

#: The result type of a ruleset's ``evaluate`` (see ``haidi.results``).
R = TypeVar("R", bound=ResultView)


class Ruleset(Generic[R]):
    """A ruleset: its tile set and hand forms, and the engine that answers for them.

    Get one with ``haidi.ruleset(name)``. Every method takes a hand as a ``Hand`` or as
    text (``format="compact"`` by default, or ``"comh"``), and wild kinds as ``wilds``.
    Scoring (``evaluate``, ``evaluate_many``) and payments (``settle``) take the
    ruleset's situation and outcome keys and one ``options`` dict (``OPTIONS`` of the
    ruleset's module): each ruleset's page of the reference lists them, and
    ``help(ruleset.evaluate)`` lists the situation keys and options of that ruleset.
    """

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.spec: RulesetSpec = module.SPEC
        spec = self.spec
        self.engine = Engine(
            spec.name, spec.melds, spec.tiles, flowers=spec.flowers, flower_wilds=spec.flower_wilds, **spec.forms
        )
        self._option_table: tuple[Option, ...] = getattr(module, "OPTIONS", ())
        self._scorers: dict[tuple[Any, ...], Scorer] = {}
        #: What scores the ruleset's wins with its default options: a ``Scheme`` of the
        #: regional engine, compiled from the module's ``scheme(options)`` data, or the
        #: scorer of a module with code of its own (``scorer(options)``: MCR's ``McrScorer``).
        self.scorer: Scorer = self.scorer_for(None)
        #: The regional engine's scheme (``scheme.evaluate_unbounded``, ``search_size``);
        #: None for a ruleset scored by code of its own.
        self.scheme: Scheme | None = self.scorer if isinstance(self.scorer, Scheme) else None
        # The situation is read in Rust, and ``evaluate`` is a partial of the Rust call
        # rather than a method, so that a call costs no Python frame. The partial carries
        # the documentation and signature of this ruleset's evaluate, for help() and inspect.
        fast: functools.partial[Any] | None = None
        if self.scheme is not None:
            fast = functools.partial(scheme_evaluate, self.scheme)
        elif getattr(module, "evaluate", None) is not None:
            fast = functools.partial(module.evaluate, self)
        if fast is not None:
            fast.__doc__ = _evaluate_doc(self)
            fast.__signature__ = _evaluate_signature(self)  # type: ignore[attr-defined]
            self.evaluate = fast  # type: ignore[method-assign]

    def options(self, given: Any = None, keys: Collection[str] = ()) -> dict[str, Any]:
        """The ruleset's options (``OPTIONS`` of its module) with ``given`` applied; an
        unknown name or a wrong value raises ``HandError``, naming ``options`` or, for
        those of ``keys`` (options given as situation keys), the key."""
        return read_options(self._option_table, given, self.name, keys)

    def scorer_for(self, given: Any, keys: Collection[str] = ()) -> Scorer:
        """The scorer for these options (checked, ``keys`` as ``options`` reads them),
        made once per set of options that changes scoring: the module's own
        (``scorer(options)``), or a ``Scheme`` compiled from its ``scheme(options)`` data."""
        opts = self.options(given, keys)
        k = options_key(opts, self._option_table)
        s = self._scorers.get(k)
        if s is None:
            own = getattr(self.module, "scorer", None)
            if own is not None:
                s = own(opts)
            else:
                data = self.module.scheme(opts)
                data["compile"] = self._compile
                data["option_keys"] = list(getattr(self.module, "OPTION_KEYS", ()))
                # Pickled as what makes it again: the ruleset's name and these options.
                data["reduce"] = (_scheme, (self.name, options_read(opts, self._option_table)))
                s = Scheme(data)
            self._scorers[k] = s
        return s

    def _compile(self, given: Any, keys: Collection[str] = ()) -> Scheme:
        """The regional engine's scheme for these options (what a scheme compiles a
        situation's own options with; ``keys``: those given as situation keys)."""
        s = self.scorer_for(given, keys)
        if not isinstance(s, Scheme):
            raise HandError(f"{self.name} is not scored by a scheme")
        return s

    def evaluate_lines(
        self, lines: bytes, *, format: str | None = None, first_line: int = 1
    ) -> tuple[bytes | list[bytes | None], int]:
        """Scores lines of JSON situations in Rust, on every core (``eval --jsonl``): the
        lines, one bytes object separated by ``\\n``, each answered with its result's JSON
        text, or with the error answer where the reader refuses it. Returns the answer
        lines as one bytes object, each ended by ``\\n`` (or, where some line is to be read
        as a dict, a list of each line's answer, None for those lines) and how many are
        errors."""
        return self.scorer.evaluate_lines(lines, format=format, first_line=first_line)

    def _scoring(self, what: str) -> Any:
        fn = getattr(self.module, what, None)
        if fn is None:
            raise NotImplementedError(f"{what} is not implemented for {self.name} yet")
        return fn

    def evaluate(self, **situation: Any) -> R:
        """Scores one situation: a hand, how it was won, and the ruleset's options.

        The situation is given as keyword arguments: the ruleset's situation keys
        (``hand``, ``win``, ``self_drawn`` ...; each ruleset's are listed by
        ``help(haidi.ruleset(name).evaluate)`` and on its page of the reference) and
        ``options``. Every value is read strictly: a flag is True or False, never text or
        a number; an unknown key, contradictory flags, a fifth copy or a tile the ruleset
        does not play raise ``HandError``.

        Returns:
            An immutable ``haidi.Result`` with the keys of the ruleset's type in
            ``haidi.results`` (``win``, ``total``, ``fans``, ``reason``, ``form``,
            ``arrangement``, ``groups`` and the ruleset's own), read as attributes or
            items; ``to_dict()`` gives it as plain dicts. A complete hand that may not
            win keeps its ``total`` and ``fans``, with ``win`` false and a ``reason``.

        Raises:
            HandError: the situation cannot be read, naming the key at fault.
        """
        return self._scoring("evaluate")(self, **situation)  # type: ignore[no-any-return]

    def evaluate_many(
        self,
        situations: Any,
        *,
        format: str = "compact",
        errors: str = "raise",
        options: Any = None,
        output: Output | Literal["json"] | None = None,
        **kwargs: Any,
    ) -> Any:
        """Scores many situations with the GIL released.

        ``situations`` is a list of situation dicts (returning a list of results), or
        columns: a dict of equal-length sequences, numpy arrays, Arrow arrays or polars
        Series keyed like a situation, a pandas or polars DataFrame, or a pyarrow Table
        (returning numpy arrays ``win``, ``total`` and ``fans``, n x ``len(fan_ids)``
        counts). ``format`` and ``options`` apply to each situation that does not give its
        own. ``errors="collect"`` keeps going past a situation that cannot be read
        (``{"error": ...}`` in its place, or an ``error`` column); ``"raise"`` raises
        ``HandError`` naming the first.

        ``output`` (columns): ``"arrow"``, ``"polars"`` or ``"pandas"`` return those
        arrays as one table, ``fans`` as a column ``fan_<id>`` a pattern (docs/data.md).
        ``output="json"`` (a list): each result as its JSON text, the bytes that
        ``orjson.dumps`` writes of its dict (an error's ``{"error": ...}`` too).
        """
        _text(format, "format")
        _text(errors, "errors")
        as_json = isinstance(output, str) and output == "json"
        out = None if as_json else _frames.check_output(output)
        as_columns = _frames.is_columns(situations)
        # A 0-d array has __iter__ but no items.
        one_value = isinstance(situations, (str, bytes)) or getattr(situations, "ndim", None) == 0
        if not as_columns and (one_value or not hasattr(situations, "__iter__")):
            raise HandError("evaluate_many takes a list of situation dicts, or columns")
        if out is not None and not as_columns:
            raise HandError("output is for columns: a list of situations gives a list of results")
        if as_json and as_columns:
            raise HandError("output='json' is for a list of situations: columns give arrays")
        # Options a ruleset's module also takes as keywords of the call (MCR's
        # concealed_and_melded_kong).
        extra = getattr(self.module, "EVALUATE_MANY_KEYWORDS", ())
        unknown = [k for k in kwargs if k not in extra]
        if unknown:
            takes = ", ".join(("format", "errors", "options", *extra)) + " and output"
            raise HandError(f"evaluate_many takes {takes}, not {', '.join(unknown)}")
        for k, v in kwargs.items():
            if v is None:
                continue
            if isinstance(options, Mapping) and options.get(k) is not None:
                raise HandError(f"{k} is given both as a keyword and in options")
            options = {**(options or {}), k: v}
        scorer = self.scorer_for(options)
        if not as_columns:
            # Read whole, so that its length tells whether to use threads.
            items = situations if isinstance(situations, (list, tuple)) else list(situations)
            return scorer.evaluate_list(items, format=format, errors=errors, json=as_json, options=options)
        # Options may add patterns (Longgang's optional ones): the columns are this scorer's.
        fan_ids = tuple(scorer.fan_ids)
        got = scorer.evaluate_columns(_frames.columns(situations), format=format, errors=errors)
        if errors == "collect" and "error" not in got:
            # No rows at all: no column is made for their errors.
            got["error"] = np.full(len(got["win"]), None, dtype=object)
        return got if out is None else _frames.result(got, out, {"fans": ("fan", fan_ids)})

    def settle(self, outcome: Mapping[str, Any]) -> list[int]:
        """Four payments by seat (seat 0 the dealer), positive for what a seat receives;
        they sum to zero. The keys of ``outcome`` are documented per ruleset."""
        if not isinstance(outcome, Mapping):
            raise hand_error(f"settle takes an outcome record (a dict), not {type(outcome).__name__}", key="outcome")
        return self._scoring("settle")(self, outcome)

    @property
    def fan_ids(self) -> tuple[Any, ...]:
        """The pattern ids, in the order of the ``fans`` columns of ``evaluate_many``."""
        return tuple(self.scorer.fan_ids)

    @property
    def actions(self) -> _core.ActionSpace:
        """The ruleset's actions as integers, for learning code: ``size``, ``names``,
        ``action(id)`` (the dict ``Game.step`` takes), ``claimed(id)`` (the tile on offer
        a claim's id names) and ``id(action, claimed=None)``. Ids 0-234 are the layout of
        the Botzone MCR baseline; a ruleset that offers the 海底 tile or lets a hand be
        laid open (明听) appends its own (docs/learning.md). ``Game.legal_mask(seat)``
        is a mask over these ids and ``Game.step`` takes one."""
        space: _core.ActionSpace | None = self.__dict__.get("_actions")
        if space is None:
            from .game import flow_rules

            space = self.__dict__["_actions"] = _core.ActionSpace(flow_rules(self))
        return space

    @property
    def name(self) -> str:
        """The ruleset's name, as ``haidi.ruleset`` takes it (``"mcr"`` ...)."""
        return self.spec.name

    @property
    def hand_size(self) -> int:
        """Tiles in a hand waiting for its last tile (13 or 16)."""
        return self.spec.hand_size

    def __repr__(self) -> str:
        return f"haidi.ruleset({self.spec.name!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by name: unpickling (in this process or another) gives the ruleset that
        # ``haidi.ruleset(name)`` shares there. A Ruleset of a module not in the registry
        # is pickled with its module, which pickle refuses.
        if REGISTRY.get(self.name) is self.module:
            return (ruleset, (self.name,))
        return (Ruleset, (self.module,))

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
        The situation is read (and refused) as ``analyze`` reads it, whether or not the
        hand waits on anything: these are ``analyze``'s winning waits.
        """
        h = hand if isinstance(hand, Hand) else Hand(hand, format)
        # The hand must be one waiting: refused by its size otherwise.
        self.waits(h, wilds, extra_wilds=situation.get("extra_wilds", 0))
        (entry,) = self.analyze(h, wilds=wilds, **situation)
        return [w["tile"] for w in entry["winning_waits"]]

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
        scoring = flag(scoring, "scoring", key="scoring")
        if wilds is not None and not self.spec.has_wilds:
            raise hand_error(f"{self.name} plays no wild tiles, so a hand with them cannot be scored", key="wilds")
        # Where the ruleset plays no wilds, an indicator is left to the situation's reader,
        # which refuses it as evaluate does.
        if self.spec.has_wilds and situation.get("indicator") is not None:
            if wilds is not None:
                raise hand_error("give either wilds or indicator, not both", key="indicator")
            indicator = situation["indicator"]
            if not isinstance(indicator, str):
                raise hand_error(f"indicator must be a tile such as '3z', not {shown(indicator)}", key="indicator")
            try:
                wilds = wild_from_indicator(indicator)
            except HandError as e:
                raise hand_error(f"indicator: {e}", key="indicator") from None
        elif wilds is not None:
            situation["wilds"] = wilds
        return analyze(  # type: ignore[no-any-return]
            self.engine,
            hand,
            visible,
            wilds,
            format=_text(format, "format"),
            extra_wilds=extra_wilds,
            scorer=self.scorer,
            situation=situation,
            scoring=scoring,
        )

    @overload
    def analyze_batch(
        self,
        counts: Any,
        visible: Any = None,
        wilds: WildsLike = None,
        melds: Any = None,
        *,
        output: Literal["numpy"] | None = None,
    ) -> tuple[NDArray[np.int8], NDArray[np.int16]]: ...
    @overload
    def analyze_batch(
        self, counts: Any, visible: Any = None, wilds: WildsLike = None, melds: Any = None, *, output: TableOutput
    ) -> Any: ...

    def analyze_batch(
        self,
        counts: Any,
        visible: Any = None,
        wilds: WildsLike = None,
        melds: Any = None,
        *,
        output: Output | None = None,
    ) -> Any:
        """``analyze`` for many 14/17-tile hands given as tile counts (n x 34), with the GIL
        released: ``(shanten, useful)``, two n x 34 arrays where column i is discarding
        kind i: the shanten left (int8) and the unseen copies of the useful draws (int16).
        Where a row holds no tile of kind i, shanten is ``NOT_HELD_SHANTEN`` (127, so
        that ``argmin`` never picks it) and useful ``NOT_HELD_USEFUL`` (-1).

        ``visible`` is one row of 34 counts for every hand or one row per hand; ``melds[i]``
        declared melds of row i (their tiles are not in the row: give them in ``visible``).
        Rows and melds may be Arrow or polars data (docs/data.md); ``output="arrow"``,
        ``"polars"`` or ``"pandas"`` returns one table of the columns ``shanten_<kind>``
        and ``useful_<kind>`` (``shanten_1m`` ... ``useful_7z``).
        """
        out = _frames.check_output(output)
        c, m = _rows(counts, melds)
        v = None
        if visible is not None:
            v, _ = _rows(visible, None, "visible")
        shanten, useful = analyze_batch(self.engine, c, v, wilds, m)
        if out is None or out == "numpy":
            return shanten, useful
        return _frames.result(
            {"shanten": shanten, "useful": useful}, out, {"shanten": ("shanten", TILES), "useful": ("useful", TILES)}
        )

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

    @overload
    def win_batch(
        self, counts: Any, wilds: WildsLike = None, melds: Any = None, *, output: Literal["numpy"] | None = None
    ) -> NDArray[np.bool_]: ...
    @overload
    def win_batch(self, counts: Any, wilds: WildsLike = None, melds: Any = None, *, output: TableOutput) -> Any: ...

    def win_batch(
        self, counts: Any, wilds: WildsLike = None, melds: Any = None, *, output: Output | None = None
    ) -> Any:
        """Complete flags of many hands given as tile counts (n x 34; 14/17 tiles, or
        fewer with ``melds[i]`` declared melds). The GIL is released while they run.
        ``output`` as for ``analyze_batch`` (a table of one column, ``win``)."""
        out = _frames.check_output(output)
        c, m = _rows(counts, melds)
        return _one_column("win", self.engine.win_batch(c, wilds, m), out)

    @overload
    def shanten_batch(
        self, counts: Any, wilds: WildsLike = None, melds: Any = None, *, output: Literal["numpy"] | None = None
    ) -> NDArray[np.int8]: ...
    @overload
    def shanten_batch(self, counts: Any, wilds: WildsLike = None, melds: Any = None, *, output: TableOutput) -> Any: ...

    def shanten_batch(
        self, counts: Any, wilds: WildsLike = None, melds: Any = None, *, output: Output | None = None
    ) -> Any:
        """Shanten of many hands given as tile counts (n x 34); ``output`` as for
        ``analyze_batch`` (a column ``shanten``)."""
        out = _frames.check_output(output)
        c, m = _rows(counts, melds)
        return _one_column("shanten", self.engine.shanten_batch(c, wilds, m), out)

    @overload
    def waits_batch(
        self, counts: Any, wilds: WildsLike = None, melds: Any = None, *, output: Literal["numpy"] | None = None
    ) -> NDArray[np.bool_]: ...
    @overload
    def waits_batch(self, counts: Any, wilds: WildsLike = None, melds: Any = None, *, output: TableOutput) -> Any: ...

    def waits_batch(
        self, counts: Any, wilds: WildsLike = None, melds: Any = None, *, output: Output | None = None
    ) -> Any:
        """Waits of many 13/16-tile hands: an n x 34 boolean array, column i = kind i;
        ``output`` as for ``analyze_batch`` (the columns ``waits_1m`` ... ``waits_7z``)."""
        out = _frames.check_output(output)
        c, m = _rows(counts, melds)
        return _one_column("waits", self.engine.waits_batch(c, wilds, m), out)


def _one_column(name: str, values: NDArray[Any], output: str | None) -> Any:
    """A batch call's array, or a table of it as the column ``name``."""
    if output is None or output == "numpy":
        return values
    return _frames.result({name: values}, output, {name: (name, TILES)})


def _evaluate_doc(rs: Ruleset[Any]) -> str:
    """The docstring of one ruleset's ``evaluate``: ``Ruleset.evaluate``'s, with this
    ruleset's situation keys, options and result keys from its data."""
    result, _ = RESULT_TYPES.get(rs.name, (ResultView, Fan))

    def item(head: str, text: str) -> list[str]:
        return textwrap.wrap(
            f"{head}: {text}.", 88, initial_indent="    ", subsequent_indent="        ", break_on_hyphens=False
        )

    general = (inspect.getdoc(Ruleset.evaluate) or "").split("\n")
    cut = general.index("Returns:")
    lines = [f"Scores one {rs.spec.title} situation.", *general[1:cut], "Situation keys:"]
    for row in key_rows(rs.module, strict=False):
        default = "required" if row.default is REQUIRED else f"default {row.default!r}"
        lines += item(f"{row.name} ({row.takes}; {default})", row.meaning)
    if rs._option_table:
        lines += ["", "Options (``options={...}``; ``ruleset.options()`` gives their defaults):"]
        for o in rs._option_table:
            acts = "evaluate and settle" if o.acts == "both" else o.acts
            lines += item(f"{o.name} (default {o.default!r}; read by {acts})", o.doc)
    lines += ["", *general[cut:]]
    # Keys a result has at times (``excluded``) last.
    always, at_times = result_keys(result)
    own = [k for c in reversed(result.__mro__) for k in c.__dict__.get("__annotations__", {}) if k in always]
    keys = ", ".join(f"``{k}``" for k in dict.fromkeys([*own, *sorted(at_times)]))
    lines += ["", *textwrap.wrap(f"Result keys (``haidi.results.{result.__name__}``): {keys}.", 92)]
    return "\n".join(lines)


def _evaluate_signature(rs: Ruleset[Any]) -> inspect.Signature:
    """The signature of one ruleset's ``evaluate``: its situation keys as keywords."""
    result, _ = RESULT_TYPES.get(rs.name, (ResultView, Fan))
    params = [
        inspect.Parameter(r.name, inspect.Parameter.KEYWORD_ONLY, default=r.default)
        for r in key_rows(rs.module, strict=False)
    ]
    return inspect.Signature(params, return_annotation=result.__name__)


def _text(value: Any, name: str) -> str:
    """An argument that must be a str (``format``, ``errors``)."""
    if not isinstance(value, str):
        raise HandError(f"{name} must be a str, not {type(value).__name__}")
    return valid_text(value, name)


#: The most melds a hand declares (a 16-tile hand's five).
MAX_MELDS = 5


def _array(value: Any, name: str) -> NDArray[Any]:
    """``value`` as a numpy array; nested lists of unequal lengths are a HandError, and so
    is a bool among a list's ints (numpy would read True as 1)."""
    try:
        a = np.asarray(value)
    except (ValueError, TypeError) as e:
        raise HandError(f"{name} must be an array of integers: {e}") from None
    if isinstance(value, (list, tuple)) and a.dtype.kind in "iu" and _holds_bool(value):
        raise hand_error(f"{name} must be integers, not True or False", key=_frames.arg_key(name))
    return a


def _holds_bool(value: list[Any] | tuple[Any, ...]) -> bool:
    """Whether a list (or a list of rows) holds a bool, Python's or numpy's."""
    rows = value if value and isinstance(value[0], (list, tuple)) else [value]
    return any(not _BOOLS.isdisjoint(map(type, row)) for row in rows)


_BOOLS = frozenset({bool, np.bool_})


def _rows(
    counts: ArrayLike, melds: ArrayLike | None, name: str = "tile counts"
) -> tuple[NDArray[np.uint8], NDArray[np.uint8] | None]:
    """Checks and converts tile counts (``name``: what a message calls them) to a
    contiguous uint8 n x 34 array."""
    a = _array(_frames.matrix(counts, name), name)
    if a.ndim == 1:
        # One row; an empty list is no rows.
        a = a.reshape(0, 34) if a.size == 0 else a.reshape(1, -1)
    if a.ndim != 2 or a.shape[1] != 34:
        raise hand_error(f"{name} must be an n x 34 array, got shape {np.shape(a)}", key=_frames.arg_key(name))
    if a.size and a.dtype != np.uint8:
        if not np.issubdtype(a.dtype, np.integer):
            raise hand_error(f"{name} must be integers, got {a.dtype}", key=_frames.arg_key(name))
        bad = np.argwhere((a < 0) | (a > 4))
        if len(bad):
            row, col = bad[0]
            message = f"{a[row, col]} copies of {TILES[col]} (column {col}) in {name} (0 to 4 allowed)"
            raise hand_error(message, key=_frames.arg_key(name), row=int(row))
    c = np.ascontiguousarray(a, dtype=np.uint8)
    m = None
    if melds is not None:
        mm = _array(_frames.vector(melds, "melds"), "melds")
        if mm.size == 0 and mm.ndim == 1:
            mm = mm.astype(np.uint8)
        if mm.shape != (c.shape[0],) or not np.issubdtype(mm.dtype, np.integer):
            raise hand_error("melds must be one integer per row", key="melds")
        bad = np.argwhere((mm < 0) | (mm > MAX_MELDS))
        if len(bad):
            row = int(bad[0][0])
            raise hand_error(f"{mm[row]} declared melds (0 to {MAX_MELDS} allowed)", key="melds", row=row)
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
def ruleset(name: str) -> Ruleset[ResultView]: ...


def ruleset(name: RulesetName | str) -> Ruleset[Any]:
    """The ruleset called ``name``: one of ``haidi.RULESETS`` (made once, then shared)."""
    if not isinstance(name, str):
        raise HandError(f"a ruleset is named by a str ({', '.join(REGISTRY)}), not {shown(name)}")
    return _ruleset(name.lower())


def _scheme(name: str, options: dict[str, Any]) -> Scheme:
    """The scoring scheme of ruleset ``name`` for ``options``: how a pickled one is made again."""
    return ruleset(name)._compile(options)


#: The rulesets made so far, by name: each made once, then shared.
_MADE: dict[str, Ruleset[Any]] = {}


def _ruleset(name: str) -> Ruleset[Any]:
    module = REGISTRY.get(name)
    if module is None:
        raise HandError(f"unknown ruleset {shown(name)}; choose from {', '.join(REGISTRY)}")
    rs = _MADE.get(name)
    # A name registered again with another module is a new ruleset.
    if rs is None or rs.module is not module:
        rs = _MADE[name] = Ruleset(module)
    return rs
