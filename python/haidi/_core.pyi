"""Type stubs for the native module ``haidi._core`` (Rust, PyO3)."""

from collections.abc import Callable, Iterable
from typing import Any, TypeAlias, final

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "Engine",
    "Hand",
    "HandError",
    "Meld",
    "Scheme",
    "__version__",
    "analyze",
    "analyze_batch",
    "mcr_evaluate",
    "mcr_evaluate_columns",
    "mcr_evaluate_many",
    "reproduce_published",
    "reproduce_table",
    "tile_glyph",
    "tile_names",
    "wild_from_indicator",
]
__version__: str

_Wilds: TypeAlias = str | Iterable[str] | None
_HandLike: TypeAlias = Hand | str

class HandError(ValueError):
    """A hand or its text is invalid. ``position`` is the character index of the problem
    in the text read; ``text`` is that text, or past 80 characters the 80 around the
    problem, starting at character ``text_start``."""

    position: int | None
    text: str | None
    text_start: int

@final
class Meld:
    def __new__(cls, text: str) -> Meld: ...
    def __reduce__(self) -> tuple[type[Meld], tuple[str]]: ...
    @property
    def kind(self) -> str: ...
    @property
    def tiles(self) -> list[str]: ...
    @property
    def from_seat(self) -> int | None: ...

@final
class Hand:
    def __new__(cls, text: str, format: str | None = None) -> Hand: ...
    @property
    def concealed(self) -> str: ...
    @property
    def counts(self) -> list[int]: ...
    @property
    def melds(self) -> list[Meld]: ...
    @property
    def flowers(self) -> list[str]: ...
    @property
    def last(self) -> str | None: ...
    @property
    def size(self) -> int: ...
    def held(self) -> list[int]: ...
    def glyphs(self) -> str: ...
    def add(self, tile: str) -> Hand: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[Hand], tuple[str]]: ...
    def _repr_html_(self) -> str: ...

@final
class Engine:
    def __new__(
        cls,
        name: str,
        melds: int,
        tiles: _Wilds = None,
        *,
        standard: bool | None = None,
        pair_kinds: _Wilds = None,
        seven_pairs: bool | None = None,
        four_as_two_pairs: bool | None = None,
        eight_pairs_and_a_half: bool | None = None,
        thirteen_orphans: bool | None = None,
        honours_and_knitted: bool | None = None,
        knitted_straight: bool | None = None,
        all_pungs_any_pair: bool | None = None,
        one_suit_any_pair: bool | None = None,
        all_258: bool | None = None,
        wilds_beyond_copies: bool | None = None,
    ) -> Engine: ...
    @property
    def name(self) -> str: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def tiles(self) -> list[str]: ...
    def shanten(
        self, hand: _HandLike, wilds: _Wilds = None, *, format: str = "compact", extra_wilds: int | None = None
    ) -> int: ...
    def waits(
        self, hand: _HandLike, wilds: _Wilds = None, *, format: str = "compact", extra_wilds: int | None = None
    ) -> list[str]: ...
    def is_win(
        self, hand: _HandLike, wilds: _Wilds = None, *, format: str = "compact", extra_wilds: int | None = None
    ) -> bool: ...
    def decompose(
        self,
        hand: _HandLike,
        wilds: _Wilds = None,
        *,
        format: str = "compact",
        extra_wilds: int | None = None,
        limit: int | None = None,
    ) -> list[dict[str, Any]]: ...
    def win_batch(
        self, counts: NDArray[np.uint8], wilds: _Wilds = None, melds: NDArray[np.uint8] | None = None
    ) -> NDArray[np.bool_]: ...
    def shanten_batch(
        self, counts: NDArray[np.uint8], wilds: _Wilds = None, melds: NDArray[np.uint8] | None = None
    ) -> NDArray[np.int8]: ...
    def waits_batch(
        self, counts: NDArray[np.uint8], wilds: _Wilds = None, melds: NDArray[np.uint8] | None = None
    ) -> NDArray[np.bool_]: ...

def tile_glyph(tile: str) -> str: ...
def tile_names() -> list[str]: ...
def reproduce_table(tiles: int, honours: bool | None = None) -> dict[str, Any]: ...
def reproduce_published(progress: Callable[[str], None] | None = None) -> dict[str, Any]: ...
def mcr_evaluate(
    _ruleset: object = None,
    /,
    *,
    hand: str | None = None,
    win: str | None = None,
    self_drawn: bool | None = None,
    seat_wind: str | None = None,
    round_wind: str | None = None,
    flowers: int | str | None = None,
    last_of_kind: bool | None = None,
    wall_last: bool | None = None,
    kong_replacement: bool | None = None,
    robbing_kong: bool | None = None,
    format: str | None = None,
    explain: bool | None = None,
    concealed_and_melded_kong: bool | None = None,
    options: dict[str, Any] | None = None,
    **rest: Any,
) -> dict[str, Any]: ...
def mcr_evaluate_many(
    situations: Iterable[dict[str, Any]],
    *,
    format: str | None = None,
    explain: bool | None = None,
    concealed_and_melded_kong: bool | None = None,
) -> list[dict[str, Any]]: ...
def mcr_evaluate_columns(
    columns: dict[str, Any],
    *,
    format: str | None = None,
    concealed_and_melded_kong: bool | None = None,
) -> tuple[NDArray[np.bool_], NDArray[np.int32], NDArray[np.uint8]]: ...

@final
class Scheme:
    """One ruleset's scoring (with one set of options); built by ``haidi.ruleset``."""

    def __new__(cls, data: dict[str, Any]) -> Scheme: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    @property
    def fan_ids(self) -> tuple[str, ...]: ...
    @property
    def name(self) -> str: ...
    @property
    def keys(self) -> list[str]: ...
    def evaluate(self, **situation: Any) -> dict[str, Any]: ...
    def search_size(self, **situation: Any) -> int: ...
    def evaluate_list(
        self, situations: Iterable[dict[str, Any]], *, format: str | None = None, errors: str | None = None
    ) -> list[dict[str, Any]]: ...
    def evaluate_columns(
        self, columns: dict[str, Any], *, format: str | None = None, errors: str | None = None, options: Any = None
    ) -> dict[str, NDArray[Any]]: ...

def wild_from_indicator(indicator: str) -> str: ...
def analyze(
    engine: Engine,
    hand: _HandLike,
    visible: str | Hand | Iterable[str | Hand] | None = None,
    wilds: _Wilds = None,
    *,
    format: str = "compact",
    extra_wilds: int | None = None,
    scorer: str | Scheme | None = None,
    situation: dict[str, Any] | None = None,
    scoring: bool = False,
) -> list[Any]: ...
def analyze_batch(
    engine: Engine,
    counts: NDArray[np.uint8],
    visible: NDArray[np.uint8] | None = None,
    wilds: _Wilds = None,
    melds: NDArray[np.uint8] | None = None,
) -> tuple[NDArray[np.int8], NDArray[np.int16]]: ...
