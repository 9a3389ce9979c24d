"""The shape of results, for type checkers and readers: one shape for every ruleset, and
the keys each ruleset adds.

At run time every ruleset's ``evaluate`` returns a ``Result`` (``haidi._core.Result``):
immutable, owned by Rust, read by attribute (``r.total``, ``r.tai``) or as a read-only
mapping (``r["total"]``, ``"tai" in r``, ``dict(r)``), with ``to_dict()`` for plain data
and ``to_json()`` for its JSON text. Its fans are ``Fan`` entries, its groups ``Group``
entries and its other entries ``Record`` entries, immutable too, and the same fan with the
same count is one object shared by every result that counts it.

The classes below are typed views of results for type checkers (``Protocol`` classes):
``haidi.ruleset("longgang").evaluate(...)`` is typed as a ``LonggangResult``, whose
``tai`` a checker knows, and so on. Their attributes are read-only at run time. A list in
``to_dict()`` (``wilds``, ``excluded``) is a tuple when read from the result.
"""

from __future__ import annotations

from collections.abc import Iterator, KeysView
from typing import Any, Literal, Protocol, TypedDict

from ._core import Fan as FanEntry
from ._core import Group as GroupEntry
from ._core import Record, Result

#: The names ``haidi.ruleset`` takes.
RulesetName = Literal["mcr", "changsha", "hainan", "longgang", "tangshan", "beijing"]

#: What the batch calls return (``output=``, docs/data.md): numpy arrays, as by default,
#: or one table of them.
Output = Literal["numpy", "arrow", "polars", "pandas"]
#: The outputs that are one table: a pyarrow Table, a polars or a pandas DataFrame.
TableOutput = Literal["arrow", "polars", "pandas"]


class Fan(Protocol):
    """A pattern counted: its id (MCR: 1-81, None for 明暗杠; the others: a name), names,
    value each time it counts, and how many times it counts."""

    id: int | str | None
    """MCR: the fan's number 1-81 in the list (None for 明暗杠); the other rulesets: the
    pattern's name, as ``Ruleset.fan_ids`` lists them."""
    name: str
    """The Chinese name."""
    name_en: str
    """The English name."""
    value: int
    """What the pattern is worth each time it counts."""
    count: int
    """How many times it counts."""


class Group(Protocol):
    """A group of the arrangement: its kind (pair, chow, pung, kong, dragon_set, orphans,
    knitted, knitted_straight, loose), the kinds its tiles stand for, the kinds its wilds
    stand for, and the declared meld it is (chow, pung, kong, concealed_kong, added_kong)
    or None."""

    kind: str
    """pair, chow, pung, kong, dragon_set, orphans, knitted, knitted_straight or loose."""
    tiles: tuple[str, ...]
    """The kinds the group's tiles stand for."""
    wilds: tuple[str, ...]
    """The kinds its wild tiles stand for."""
    meld: str | None
    """The declared meld it is (chow, pung, kong, concealed_kong, added_kong), or None."""


class Excluded(Protocol):
    """A pattern found but not counted (``explain=True``): the fan, what voided it, why."""

    id: int | str | None
    """The pattern's id, as in ``Fan``."""
    name: str
    """Its Chinese name."""
    count: int
    """How many times it was found."""
    by: int | str | None
    """The id of the pattern that voided it (None: a rule of the ruleset did)."""
    by_name: str
    """That pattern's name."""
    rule: str
    """Why it is not counted."""


class _Explained(Protocol):
    excluded: tuple[Excluded, ...]
    """With ``explain=True`` only: the patterns found but not counted, each with what
    voided it and the rule (MCR: 不计, 不重复, 套算一次)."""


class ResultView(_Explained, Protocol):
    """What every ruleset's ``evaluate`` returns.

    ``total``: MCR points; Changsha and Hainan what each other player pays on a self-drawn
    win under the default table; Tangshan and Beijing the 番; Longgang the rounded 总胡数.
    ``reason`` says why ``win`` is false. ``arrangement`` is the groups in compact
    notation.
    """

    win: bool
    """The situation is a win: the hand is complete and no rule of the ruleset refuses it."""
    total: int
    """The score; what it counts in each ruleset is said above. 0 for a hand that is not complete."""
    fans: tuple[Fan, ...]
    """The patterns counted, in the table's order."""
    reason: str | None
    """Why ``win`` is false; None for a win."""
    form: str | None
    """The form of the arrangement scored: ``standard``, ``seven_pairs``, ``thirteen_orphans``,
    ``eight_pairs_and_a_half`` and the ruleset's own forms; None when not complete."""
    arrangement: str | None
    """The arrangement scored in compact notation: concealed groups in tile order, then the
    declared melds; after a group with wilds, the kinds they stand for
    (``123m 55p(wild 5p) [789s] {1111z}``)."""
    groups: tuple[Group, ...]
    """The same groups, as ``Group`` entries."""

    def __getitem__(self, key: str) -> Any: ...
    def __contains__(self, key: object) -> bool: ...
    def __iter__(self) -> Iterator[str]: ...
    def __len__(self) -> int: ...
    def keys(self) -> KeysView[str]: ...
    def get(self, key: str, default: Any = None) -> Any: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> bytes: ...


class MCRFan(Fan, Protocol):
    """An MCR fan counted: a ``Fan`` with its points."""

    points: int
    """The fan's points each time it counts (the same as ``value``)."""


class MCRResult(ResultView, Protocol):
    """An MCR result. ``total`` is the points, flowers included (a win needs 8 without
    them); ``fans`` are ``MCRFan`` entries."""


class ChangshaFan(Fan, Protocol):
    """A Changsha pattern counted: a ``Fan`` with its kind."""

    kind: str
    """``small`` (小胡), ``big`` (大胡) or ``dealt`` (a dealt-hand win)."""


class ChangshaResult(ResultView, Protocol):
    """A Changsha result. ``total`` is what each other player pays on a self-drawn win
    under the default table: 6 a 大胡, 2 for a 小胡 or a dealt-hand win."""

    big: int
    """The 大胡 counted (they add up)."""
    small: int
    """1 for a 平胡 with no 大胡, else 0; for a dealt hand, the instant wins counted."""
    patterns: tuple[ChangshaFan, ...]
    """The fans again, each with its ``kind``."""
    self_drawn: bool
    """The win was self-drawn (given, or implied by 杠上花, 天胡 or the dealt hand);
    ``settle`` checks it against the outcome's ``discarder``."""


class HainanResult(ResultView, Protocol):
    """A Hainan result. ``total`` is what each other player pays on a self-drawn win under
    the default table (20) for any complete hand; each fan's ``value`` is 1."""

    complete: bool
    """The tiles form a winning shape."""
    discard_win: bool
    """That shape may win on a discard: it has at least one 番 (有番才能胡)."""
    self_drawn: bool
    """The win was self-drawn: a hand without 番 wins only so."""


class TangshanResult(ResultView, Protocol):
    """A Tangshan result. ``total`` is the 番."""

    points: int
    """2 ** 番, the 胡 being 1; 0 without a win."""
    wilds: tuple[str, ...]
    """The 混 kinds of the deal (given, or named by the indicator)."""


class BeijingResult(ResultView, Protocol):
    """A Beijing result. ``total`` is the 和牌牌型番数, 庄 included; money comes from
    ``settle``."""

    wilds: tuple[str, ...]
    """The 惠牌 kinds of the deal (given, or named by the 惠坯)."""
    variant: str
    """The variant scored: ``wanghu`` (the 网狐 description) or ``draft4`` (麻将规则（第4稿）)."""


class LonggangFan(Fan, Protocol):
    """A Longgang pattern counted: a ``Fan`` with its 台 and whether it is a 腊子."""

    tai: int
    """The pattern's 台."""
    lazi: bool
    """A 腊子 (limit) pattern: the total is the 300 cap."""


class FaceItem(Protocol):
    """One item of a Longgang hand's face points (牌面胡数)."""

    name: str
    """What scores: a meld, a pair, a flower, a wait, 自摸 ..."""
    hu: int
    """The 胡 it scores."""


class LonggangResult(ResultView, Protocol):
    """A Longgang result. ``total`` is the 总胡数, rounded up to 10 and at most 300 (a
    陪家's own 胡数 when the situation has no ``win``)."""

    role: str
    """``winner``, or ``loser`` for a player who did not win (a 陪家)."""
    face: int
    """The face points (牌面胡数)."""
    base: int
    """20 + ``face`` for a winner (基础胡数)."""
    tai: int
    """The 台 counted; 3 for a 腊子 hand."""
    lazi: bool
    """A 腊子 hand: the total is the 300 cap."""
    follow: int
    """跟胡数, by the winner's 台 (3 and more as 3); 0 for a 陪家."""
    instant: bool
    """天胡, 地胡 or 三财神: a win after which the others count 0 胡."""
    patterns: tuple[LonggangFan, ...]
    """The fans again, each with its ``tai`` and ``lazi``."""
    face_items: tuple[FaceItem, ...]
    """What makes up ``face``: entries with ``name`` and ``hu``."""
    wait: str | None
    """Where the winning tile sits in the arrangement scored (single, closed, edge, open,
    pung or set), or None."""
    void_wilds: int
    """A 陪家's wilds in no group (财神卖兵): they score nothing."""


def result_keys(view: type[Any]) -> tuple[frozenset[str], frozenset[str]]:
    """The keys a result of this view always has, and those it has at times (``excluded``,
    with ``explain=True``)."""
    always: set[str] = set()
    at_times: set[str] = set()
    for c in view.__mro__:
        if c.__dict__.get("_is_protocol") and c.__module__ == __name__:
            names = c.__dict__.get("__annotations__", {})
            (at_times if c.__name__.startswith("_") else always).update(names)
    return frozenset(always), frozenset(at_times)


#: Each ruleset's result type and the type of its fan entries.
RESULT_TYPES: dict[str, tuple[type[Any], type[Any]]] = {
    "mcr": (MCRResult, MCRFan),
    "changsha": (ChangshaResult, ChangshaFan),
    "hainan": (HainanResult, Fan),
    "longgang": (LonggangResult, LonggangFan),
    "tangshan": (TangshanResult, Fan),
    "beijing": (BeijingResult, Fan),
}


__all__ = [
    "AnalysisEntry",
    "BeijingResult",
    "ChangshaFan",
    "ChangshaResult",
    "Excluded",
    "FaceItem",
    "Fan",
    "FanEntry",
    "Group",
    "GroupEntry",
    "HainanResult",
    "LonggangFan",
    "LonggangResult",
    "MCRFan",
    "MCRResult",
    "RESULT_TYPES",
    "Output",
    "Record",
    "Result",
    "ResultView",
    "RulesetName",
    "TableOutput",
    "TangshanResult",
    "Wait",
    "WinningWait",
    "result_keys",
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
