"""The shape of results, for type checkers: one shape for every ruleset, and the keys
each ruleset adds. ``haidi.ruleset("longgang").evaluate(...)`` is typed as a
:class:`LonggangResult`, and so on. At run time a result is a plain dict; its fan and
group entries are :class:`Entry` dicts, read-only and shared.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict


class Entry(dict):  # type: ignore[type-arg]
    """A fan or group entry of a result: a read-only dict, made once and shared by every
    result that has it, the way small ints are. Scoring millions of hands then builds
    no entries at all, and the garbage collector need not follow them.

    ``dict(entry)`` (or ``entry.copy()``) gives a plain dict to change. JSON, pickling and
    ``==`` with plain dicts work as for any dict.
    """

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # An entry is filled once, when made: calling __init__ again would refill it.
        if len(self):
            self._read_only()
        super().__init__(*args, **kwargs)

    def _read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("result entries are shared and read-only; dict(entry) makes a copy to change")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _read_only  # type: ignore[assignment]

    def copy(self) -> dict[str, Any]:  # type: ignore[override]
        return dict(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Entry, (dict(self),))


#: The names ``haidi.ruleset`` takes.
RulesetName = Literal["mcr", "changsha", "hainan", "longgang", "tangshan", "beijing"]

#: What the batch calls return (``output=``, docs/data.md): numpy arrays, as by default,
#: or one table of them.
Output = Literal["numpy", "arrow", "polars", "pandas"]
#: The outputs that are one table: a pyarrow Table, a polars or a pandas DataFrame.
TableOutput = Literal["arrow", "polars", "pandas"]


class Fan(TypedDict):
    """A pattern counted: its id (MCR: 1-81, None for 明暗杠; the others: a name), names,
    value each time it counts, and how many times it counts."""

    id: int | str | None
    name: str
    name_en: str
    value: int
    count: int


class Group(TypedDict):
    """A group of the arrangement: its kind (pair, chow, pung, kong, dragon_set, orphans,
    knitted, knitted_straight, loose), the kinds its tiles stand for, the kinds its wilds
    stand for, and the declared meld it is (chow, pung, kong, concealed_kong, added_kong)
    or None."""

    kind: str
    tiles: tuple[str, ...]
    wilds: tuple[str, ...]
    meld: str | None


class Excluded(TypedDict, total=False):
    """A pattern found but not counted (``explain=True``): the fan, what voided it, why."""

    id: int | str | None
    name: str
    count: int
    by: int | str | None
    by_name: str
    rule: str


class Result(TypedDict):
    """What every ruleset's ``evaluate`` returns.

    ``total``: MCR points; Changsha and Hainan what each other player pays on a self-drawn
    win under the default table; Tangshan and Beijing the 番; Longgang the rounded 总胡数.
    ``reason`` says why ``win`` is false. ``arrangement`` is the groups in compact
    notation.
    """

    win: bool
    total: int
    fans: tuple[Fan, ...]
    reason: str | None
    form: str | None
    arrangement: str | None
    groups: tuple[Group, ...]


class MCRFan(Fan):
    points: int


class MCRResult(Result, total=False):
    excluded: list[Excluded]


class ChangshaFan(Fan):
    #: "small" (小胡), "big" (大胡) or "dealt" (a dealt-hand win).
    kind: str


class ChangshaResult(Result):
    big: int
    small: int
    patterns: tuple[ChangshaFan, ...]
    self_drawn: bool


class HainanResult(Result):
    complete: bool
    discard_win: bool
    self_drawn: bool


class TangshanResult(Result):
    points: int
    wilds: list[str]


class BeijingResult(Result):
    wilds: list[str]
    variant: str


class LonggangFan(Fan):
    tai: int
    lazi: bool


class FaceItem(TypedDict):
    name: str
    hu: int


class LonggangResult(Result):
    role: str
    face: int
    base: int
    tai: int
    lazi: bool
    follow: int
    instant: bool
    patterns: tuple[LonggangFan, ...]
    face_items: tuple[FaceItem, ...]
    wait: str | None
    void_wilds: int


__all__ = [
    "BeijingResult",
    "ChangshaFan",
    "ChangshaResult",
    "Entry",
    "Excluded",
    "FaceItem",
    "Fan",
    "Group",
    "HainanResult",
    "LonggangFan",
    "LonggangResult",
    "MCRFan",
    "MCRResult",
    "Output",
    "Result",
    "RulesetName",
    "TableOutput",
    "TangshanResult",
]


class Wait(TypedDict):
    """A wait of a ready hand (``Ruleset.analyze``): the kind and its copies unseen."""

    tile: str
    left: int


class WinningWait(TypedDict):
    """A wait that scores a win: the kind, its copies unseen and the ``total`` it scores."""

    tile: str
    left: int
    total: int


class AnalysisEntry(TypedDict, total=False):
    """One choice of ``Ruleset.analyze``: the discard (None for a hand waiting for a
    tile) and what it leaves. ``draws`` and ``draws_exact`` are there with
    ``scoring=True``."""

    discard: str | None
    shanten: int
    useful: list[str]
    useful_count: int
    useful_wilds: list[str]
    waits: list[Wait]
    winning_waits: list[WinningWait]
    winning_count: int
    draws: int
    draws_exact: bool
