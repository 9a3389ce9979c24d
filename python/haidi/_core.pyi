"""Type stubs for the native module ``haidi._core`` (Rust, PyO3).

The docstrings here are those of the module itself (its Rust doc comments, which
``help()`` shows); tests/test_docs.py holds the two to the same text. The reference site
reads them from here.
"""

from collections.abc import Callable, ItemsView, Iterable, Iterator, KeysView, ValuesView
from typing import Any, TypeAlias, final

import numpy as np
from numpy.typing import NDArray
from typing_extensions import Self, disjoint_base

__all__ = [
    "ActionSpace",
    "Engine",
    "Fan",
    "Game",
    "Group",
    "Hand",
    "HandError",
    "KeyAttribute",
    "McrScorer",
    "Meld",
    "Record",
    "Result",
    "Scheme",
    "VectorEnv",
    "__version__",
    "_MAX_ARRANGEMENTS",
    "_audit_wins",
    "action_blocks",
    "analyze",
    "analyze_batch",
    "game_rule_fields",
    "game_rules",
    "game_seed",
    "mcr_evaluate",
    "observation_versions",
    "reproduce_published",
    "reproduce_table",
    "scheme_evaluate",
    "simulate",
    "spelling",
    "tile_glyph",
    "tile_names",
    "wild_from_indicator",
]
__version__: str
#: The most arrangements `Engine.decompose` lists in one call (the command's cap).
_MAX_ARRANGEMENTS: int

_Wilds: TypeAlias = str | Iterable[str] | None
_HandLike: TypeAlias = Hand | str

class HandError(ValueError):
    """A hand or its text is invalid. `kind` names what is wrong ("unknown_char",
    "fifth_copy", "wrong_size", ... or "invalid"); `key` is the situation key whose
    value is at fault and `row` the row of a batch, when known. `position` is the
    character index of the problem in the text read, when it has one; `text` is that
    text, or past 80 characters the 80 around the problem, starting at character
    `text_start` of it."""

    kind: str
    key: str | None
    row: int | None
    position: int | None
    text: str | None
    text_start: int

@final
class Meld:
    """A declared meld."""

    def __new__(cls, text: str) -> Meld: ...
    def __reduce__(self) -> tuple[type[Meld], tuple[str]]: ...
    @property
    def kind(self) -> str:
        """The kind: "chow", "pung", "kong", "concealed_kong" or "added_kong"."""
    @property
    def tiles(self) -> list[str]:
        """The meld's tiles in compact notation, one a tile."""
    @property
    def from_seat(self) -> int | None:
        """Seat offset of the player who supplied the tile (1-3), when known."""

@final
class Hand:
    """A hand: concealed tiles, declared melds and flowers.

    `Hand(text, format=None)` reads a hand in haidi's compact notation (`format` None or
    "compact") or as a ChineseOfficialMahjongHelper string ("comh"); the format is never
    guessed. Bad text raises `HandError` with the position of the fault.
    """

    def __new__(cls, text: str, format: str | None = None) -> Hand: ...
    @property
    def concealed(self) -> str:
        """Concealed tiles in compact notation, in order m, p, s, z."""
    @property
    def counts(self) -> list[int]:
        """Concealed tile counts by kind (34 numbers)."""
    @property
    def melds(self) -> list[Meld]:
        """The declared melds, in the order written."""
    @property
    def flowers(self) -> list[str]:
        """Flowers held, as `"1f"`...`"8f"`."""
    @property
    def last(self) -> str | None:
        """The concealed tile written last (in COMH strings, the winning tile)."""
    @property
    def size(self) -> int:
        """Tiles as rulesets count them: concealed tiles plus three per meld."""
    def held(self) -> list[int]:
        """Copies held of each kind, concealed and melded (34 numbers)."""
    def glyphs(self) -> str:
        """The hand in Unicode tile glyphs (melds in brackets)."""
    def add(self, tile: str) -> Hand:
        """The same hand with one more concealed tile."""
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[Hand], tuple[str]]: ...
    def _repr_html_(self) -> str: ...

@final
class Engine:
    """One ruleset's engine: its tile set and the forms that complete a hand, answering for
    waits, shanten, win checks and arrangements. `haidi.ruleset` makes one per ruleset."""

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
        flowers: str | None = None,
        flower_wilds: bool | None = None,
    ) -> Engine:
        """`flowers`: the flowers a hand may hold, such as "1234f" ("" for none; default
        every flower); a hand that holds another is refused. `flower_wilds`: the wilds
        may be the flowers (`wilds="3f"` makes every flower held a wild)."""
    @property
    def name(self) -> str:
        """The ruleset's name."""
    @property
    def hand_size(self) -> int:
        """Tiles of a hand waiting for its last tile: 13 or 16."""
    @property
    def tiles(self) -> list[str]:
        """The kinds played with, in compact notation."""
    def shanten(
        self, hand: _HandLike, wilds: _Wilds = None, *, format: str = "compact", extra_wilds: int | None = None
    ) -> int:
        """Shanten (向听): -1 complete, 0 ready, n tiles from ready."""
    def waits(
        self, hand: _HandLike, wilds: _Wilds = None, *, format: str = "compact", extra_wilds: int | None = None
    ) -> list[str]:
        """The tile kinds that complete a hand one tile short."""
    def is_win(
        self, hand: _HandLike, wilds: _Wilds = None, *, format: str = "compact", extra_wilds: int | None = None
    ) -> bool:
        """Whether a hand of 14/17 tiles is complete."""
    def decompose(
        self,
        hand: _HandLike,
        wilds: _Wilds = None,
        *,
        format: str = "compact",
        extra_wilds: int | None = None,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """Every distinct arrangement of a complete hand, as dicts."""
    def win_batch(
        self, counts: NDArray[np.uint8], wilds: _Wilds = None, melds: NDArray[np.uint8] | None = None
    ) -> NDArray[np.bool_]:
        """Complete flags for rows of tile counts (n x 34, 14/17 tiles with `melds`)."""
    def shanten_batch(
        self, counts: NDArray[np.uint8], wilds: _Wilds = None, melds: NDArray[np.uint8] | None = None
    ) -> NDArray[np.int8]:
        """Shanten of rows of tile counts (n x 34)."""
    def waits_batch(
        self, counts: NDArray[np.uint8], wilds: _Wilds = None, melds: NDArray[np.uint8] | None = None
    ) -> NDArray[np.bool_]:
        """Waits of rows of tile counts (n x 34, 13/16 tiles): an n x 34 boolean array."""

def tile_glyph(tile: str) -> str:
    """The Unicode glyph of a tile such as "5p" or a flower such as "1f"."""

def tile_names() -> list[str]:
    """The 34 tile kinds in compact notation, in index order."""

def spelling(name: str | None = None) -> str:
    """The spelling of the messages made on this thread: "python" (`True`, `None`, `'yes'`) or
    "json" (`true`, `null`, `"yes"`). With `name`, sets it and returns the one it replaces."""

def reproduce_table(tiles: int, honours: bool | None = None) -> dict[str, Any]:
    """Every figure of one hand size: `tiles`-tile hands (ready), `tiles + 1` (complete) and
    the 含杠 hands, over one suit or (`honours`) the seven honours."""

def reproduce_published(progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Every published figure of 附二 to 附五 as haidi computes it, keyed by figure id, with
    the four tables behind them. `progress(message)` is called before each table."""

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
) -> Result:
    """Scores one MCR situation; see `haidi.rulesets.mcr`. The first argument (the ruleset,
    when called as a ruleset module's `evaluate`) is not needed. The keyword arguments are
    read from the dict Python passes, each key matched by address."""

def scheme_evaluate(scheme: Scheme, /, **situation: Any) -> Result:
    """Scores one situation given as keyword arguments with `scheme`, as `scheme.evaluate`
    does, reading the dict Python passes without another made (a ruleset's `evaluate`)."""

@final
class Result:
    """The result of scoring one situation (`evaluate`): whether it wins, the total, the
    fans counted, the arrangement, and the ruleset's own keys.

    Read it by attribute (`r.win`, `r.total`, `r.fans`; a ruleset's own keys such as
    `r.tai` too) or as a read-only mapping (`r["total"]`, `"tai" in r`, `dict(r)`).
    `to_dict()` gives it as plain dicts, lists and tuples (`json.dumps(r.to_dict())`),
    `to_json()` as its JSON text. It cannot be changed."""

    @property
    def win(self) -> bool:
        """The situation is a win: complete, and no rule of the ruleset refuses it."""
    @property
    def total(self) -> int:
        """The score (what it counts in each ruleset: docs/scoring.md); 0 when not complete."""
    @property
    def fans(self) -> tuple[Fan, ...]:
        """The patterns counted, in the table's order: `Fan` entries."""
    @property
    def reason(self) -> str | None:
        """Why `win` is false; None for a win."""
    @property
    def form(self) -> str | None:
        """The form of the arrangement scored (`standard`, `seven_pairs` ...), None when not
        complete."""
    @property
    def arrangement(self) -> str | None:
        """The arrangement scored in compact notation, None when not complete."""
    @property
    def groups(self) -> tuple[Group, ...]:
        """The groups of the arrangement: `Group` entries."""
    @property
    def ruleset(self) -> str:
        """The ruleset that scored it (`"mcr"`, `"changsha"` ...)."""
    # With `explain=True`: the fans not counted, and why.
    excluded: KeyAttribute
    def __getitem__(self, key: str, /) -> Any: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[str]: ...
    def keys(self) -> KeysView[str]:
        """The keys, in order (a `KeysView`, as a dict's)."""
    def values(self) -> ValuesView[Any]:
        """The values, in the order of the keys (a `ValuesView`)."""
    def items(self) -> ItemsView[str, Any]:
        """`(key, value)` pairs, in order (an `ItemsView`)."""
    def get(self, key: str, default: Any = None) -> Any:
        """The value of `key`, or `default`."""
    def to_dict(self) -> dict[str, Any]:
        """The result as a new plain dict: fans and groups as tuples of dicts, lists where
        the result has lists; what `json.dumps` takes."""
    def to_json(self) -> bytes:
        """The result's JSON text (UTF-8 bytes): what `orjson.dumps(r.to_dict())` writes."""
    def __eq__(self, value: object, /) -> bool: ...
    def _repr_html_(self) -> str:
        """The result as HTML, for a notebook: `haidi.html(r)`."""
    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its scorer and its values (fans and groups as their entries)."""
    @staticmethod
    def _restore(source: Scheme | None, loser: bool, state: tuple[tuple[str, int, Any], ...]) -> Result:
        """A result again from its pickle (see `__reduce__`)."""

@final
class KeyAttribute:
    """A key that only some rulesets' results or fan entries have (`r.tai`, `f.points`,
    `r.excluded`), read as an attribute. It is put on the class when a ruleset's tables
    are made; a result or entry without the key raises `AttributeError`."""

    def __get__(self, instance: object, owner: object = None, /) -> Any: ...

@final
class Fan:
    """A pattern counted: its `id` (MCR: 1-81, None for 明暗杠; the others: a name), `name`,
    `name_en`, `value` each time it counts and `count`; a ruleset's own fields too (MCR's
    `points`, Changsha's `kind`, Longgang's `tai` and `lazi`). Immutable; shared by the
    results that count it."""

    @property
    def id(self) -> int | str | None:
        """The pattern's id: MCR's number 1-81 (None for 明暗杠), the other rulesets' name."""
    @property
    def name(self) -> str:
        """The Chinese name."""
    @property
    def name_en(self) -> str:
        """The English name."""
    @property
    def value(self) -> int:
        """What the pattern is worth each time it counts."""
    @property
    def count(self) -> int:
        """How many times it counts."""
    def __getitem__(self, key: str, /) -> Any: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[str]: ...
    def keys(self) -> KeysView[str]:
        """The keys, in order (a `KeysView`, as a dict's)."""
    def values(self) -> ValuesView[Any]:
        """The values, in the order of the keys (a `ValuesView`)."""
    def items(self) -> ItemsView[str, Any]:
        """`(key, value)` pairs, in order (an `ItemsView`)."""
    def get(self, key: str, default: Any = None) -> Any:
        """The value of `key`, or `default`."""
    def to_dict(self) -> dict[str, Any]:
        """The entry as a new plain dict."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    @staticmethod
    def _restore(d: dict[str, Any]) -> Fan:
        """An entry again from its pickle: its dict, each value frozen."""

@final
class Group:
    """A group of the arrangement: its `kind` (pair, chow, pung, kong, dragon_set, orphans,
    knitted, knitted_straight, loose), the `tiles` it stands for, the kinds its `wilds` stand
    for, and the declared `meld` it is, or None. Immutable."""

    @property
    def kind(self) -> str:
        """pair, chow, pung, kong, dragon_set, orphans, knitted, knitted_straight or loose."""
    @property
    def tiles(self) -> tuple[str, ...]:
        """The kinds the group's tiles stand for."""
    @property
    def wilds(self) -> tuple[str, ...]:
        """The kinds its wild tiles stand for."""
    @property
    def meld(self) -> str | None:
        """The declared meld it is (chow, pung, kong, concealed_kong, added_kong), or None."""
    def __getitem__(self, key: str, /) -> Any: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[str]: ...
    def keys(self) -> KeysView[str]:
        """The keys, in order (a `KeysView`, as a dict's)."""
    def values(self) -> ValuesView[Any]:
        """The values, in the order of the keys (a `ValuesView`)."""
    def items(self) -> ItemsView[str, Any]:
        """`(key, value)` pairs, in order (an `ItemsView`)."""
    def get(self, key: str, default: Any = None) -> Any:
        """The value of `key`, or `default`."""
    def to_dict(self) -> dict[str, Any]:
        """The entry as a new plain dict."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    @staticmethod
    def _restore(d: dict[str, Any]) -> Group:
        """An entry again from its pickle: its dict, each value frozen."""

@final
class Record:
    """An immutable entry of a result that is neither a fan nor a group: Longgang's
    `face_items` (`name`, `hu`), explain's `excluded` entries."""

    def __getitem__(self, key: str, /) -> Any: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[str]: ...
    def keys(self) -> KeysView[str]:
        """The keys, in order (a `KeysView`, as a dict's)."""
    def values(self) -> ValuesView[Any]:
        """The values, in the order of the keys (a `ValuesView`)."""
    def items(self) -> ItemsView[str, Any]:
        """`(key, value)` pairs, in order (an `ItemsView`)."""
    def get(self, key: str, default: Any = None) -> Any:
        """The value of `key`, or `default`."""
    def to_dict(self) -> dict[str, Any]:
        """The entry as a new plain dict."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    @staticmethod
    def _restore(d: dict[str, Any]) -> Record:
        """An entry again from its pickle: its dict, each value frozen."""

@final
class McrScorer:
    """MCR's scorer: the tuned fan code with its one option, 明暗杠. It is to MCR what a
    regional ruleset's `Scheme` is to that ruleset: what `Ruleset.scorer` gives, and what
    `Game`, `simulate`, `analyze` and `eval --jsonl` score MCR's wins with."""

    def __new__(cls, concealed_and_melded_kong: bool | None = None) -> McrScorer: ...
    @property
    def concealed_and_melded_kong(self) -> bool:
        """Whether one concealed and one melded kong score 明暗杠 (5), not 明杠 + 暗杠."""
    @property
    def name(self) -> str:
        """The ruleset's name."""
    @property
    def fan_ids(self) -> tuple[int | None, ...]:
        """The fan ids in the order of the `fans` columns: None (明暗杠), then 1-81."""
    def evaluate_lines(
        self, lines: bytes, *, format: str | None = None, first_line: int | None = None
    ) -> tuple[bytes | list[bytes | None], int]:
        """Scores lines of JSON (`haidi eval --jsonl`), given as one bytes object, as
        `Scheme.evaluate_lines` does: each plain line read, scored and answered with its
        result's JSON text on every core, the GIL released. Returns the answers, one bytes
        object of lines each ended by `\\n`, and how many are errors (none: the errors are
        the caller's); where some line is not plain or cannot be scored, the answers are a
        list, a line's answer (without `\\n`) or None for the caller to read as a dict."""
    def evaluate_list(
        self,
        situations: Iterable[dict[str, Any]],
        *,
        format: str | None = None,
        errors: str | None = None,
        json: bool = False,
        options: Any = None,
    ) -> list[Any]:
        """Scores a list of situation dicts, as `Scheme.evaluate_list` does: `format` and
        `options` (the call's, over the scorer's) apply to each situation that gives none;
        a situation's `concealed_and_melded_kong` key contradicts the call's. With
        `errors="collect"`, `{"error": message}` where a situation cannot be scored."""
    def evaluate_columns(
        self, columns: dict[str, Any], *, format: str | None = None, errors: str | None = None, options: Any = None
    ) -> dict[str, NDArray[Any]]:
        """Scores columns, as `Scheme.evaluate_columns` does: a dict of equal-length
        sequences or numpy arrays keyed like a situation (`hand` and `win` required).
        Returns numpy arrays `win` (bool), `total` (int32) and `fans` (n x 82 uint8 counts
        in the order of `fan_ids`: column 0 the optional 明暗杠, then fans 1-81), and
        `error` (None or the message, by row) with `errors="collect"`."""
    def __reduce__(self) -> tuple[Any, ...]: ...

@final
class Scheme:
    """The scoring of one ruleset (with one set of options)."""

    def __new__(cls, data: dict[str, Any]) -> Scheme: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    @property
    def fan_ids(self) -> tuple[str, ...]:
        """The ids of the patterns, in the order of the `fans` columns of `evaluate_many`."""
    @property
    def name(self) -> str:
        """The ruleset's name."""
    @property
    def keys(self) -> list[str]:
        """The situation keys this scheme reads."""
    def evaluate(self, **situation: Any) -> Result:
        """Scores one situation given as keyword arguments (the ruleset's situation keys,
        and `options`)."""
    def evaluate_unbounded(self, **situation: Any) -> Result:
        """Scores one situation as `evaluate` does, but with every arrangement scored: no
        bound cuts the search short (to test the bounds; slow with many wilds)."""
    def search_size(self, **situation: Any) -> int:
        """How many arrangements scoring this situation meets plus how many placements of
        the winning tile it scores (to measure the search)."""
    def evaluate_list(
        self,
        situations: Iterable[dict[str, Any]],
        *,
        format: str | None = None,
        errors: str | None = None,
        json: bool = False,
        options: Any = None,
    ) -> list[Any]:
        """Scores a list of situation dicts (returning a list of results) with the GIL
        released. `format` and `options` apply to each situation that gives none.
        `errors="collect"` puts `{"error": message}` where a situation cannot be read;
        `"raise"` raises `HandError` naming the first. With `json`, each result is its
        JSON text (bytes, as `orjson.dumps` writes the dict)."""
    def evaluate_lines(
        self, lines: bytes, *, format: str | None = None, first_line: int | None = None
    ) -> tuple[bytes | list[bytes | None], int]:
        """Scores lines of JSON (`haidi eval --jsonl`), given as one bytes object, the lines
        separated by `\\n`: each line that is a plain situation (see `prepare_json`) is
        read, scored and answered with its result's JSON text on every core, the GIL
        released, as `evaluate_list(..., json=True)` answers the dict `orjson.loads` makes
        of it; a plain line the reader refuses with the command's error answer,
        `{"error": message, "line": N, "input": line}` (N counted from `first_line`).
        Returns the answers, one bytes object of lines each ended by `\\n`, and how many
        are errors; where some line is not plain, the answers are a list, a line's answer
        (without `\\n`) or None for the caller to read the line as a dict."""
    def evaluate_columns(
        self, columns: dict[str, Any], *, format: str | None = None, errors: str | None = None, options: Any = None
    ) -> dict[str, NDArray[Any]]:
        """Scores columns: a dict of equal-length sequences or numpy arrays keyed like a
        situation. Returns numpy arrays `win` (bool), `total` (int32) and `fans` (n x
        patterns, uint8 counts in the order of `fan_ids`), and `error` (None or the
        message, by row) with `errors="collect"`."""

def wild_from_indicator(indicator: str) -> str:
    """The wild kind an indicator tile names (开混, 惠坯): the next kind in its suit, 9 to 1,
    the winds in turn, the dragons 中→发→白→中."""

def analyze(
    engine: Engine,
    hand: _HandLike,
    visible: str | Hand | Iterable[str | Hand] | None = None,
    wilds: _Wilds = None,
    *,
    format: str = "compact",
    extra_wilds: int | None = None,
    scorer: McrScorer | Scheme | None = None,
    situation: dict[str, Any] | None = None,
    scoring: bool = False,
) -> list[Any]:
    """Analyses one hand: a list of entry dicts, best first (see `haidi.Ruleset.analyze`).
    `scorer` is MCR's `McrScorer`, a regional `Scheme`, or None (waits not scored); `situation` the
    scorer's keys but the hand and the win; `scoring` adds the draws to a winning ready hand."""

def analyze_batch(
    engine: Engine,
    counts: NDArray[np.uint8],
    visible: NDArray[np.uint8] | None = None,
    wilds: _Wilds = None,
    melds: NDArray[np.uint8] | None = None,
) -> tuple[NDArray[np.int8], NDArray[np.int16]]:
    """Shanten after each discard and unseen copies of the useful draws after it, for rows of
    14/17 tiles (n x 34 each; the module `haidi.ruleset`'s `NOT_HELD_SHANTEN` / `NOT_HELD_USEFUL` where the row
    holds no tile of the kind), with the GIL released."""

@disjoint_base
class Game:
    """One hand in play (see `haidi.Game`)."""

    def __new__(
        cls,
        flow: dict[str, Any],
        scorer: McrScorer | Scheme,
        seed: int,
        wall: Iterable[str] | None = None,
        streak: int | None = None,
    ) -> Self: ...
    @property
    def seed(self) -> int:
        """The seed the wall was shuffled from."""
    @property
    def to_act(self) -> list[int]:
        """The seats whose decision is awaited, in seat order."""
    @property
    def done(self) -> bool:
        """Whether the hand is over."""
    @property
    def wall(self) -> list[str]:
        """The wall as dealt, in drawing order: draws take its front, replacements its end
        (a replacement among the last four to draw is the last of them)."""
    def legal_actions(self, seat: int) -> list[dict[str, str]]:
        """The actions `seat` may take now (none when it is not to act), as dicts."""
    def _greedy(self, seat: int) -> dict[str, str] | None:
        """The action the built-in greedy agent takes for `seat` (None when it is not to act)."""
    def step(self, seat: int, action: dict[str, str] | int | np.integer[Any]) -> None:
        """Plays `action` (a dict, or an id of the ruleset's action space) for `seat`; an
        illegal one raises `HandError` naming it."""
    def observation(self, seat: int) -> dict[str, Any]:
        """What `seat` may know now, by the one rule of what a seat sees (docs/learning.md):
        its own tiles, everyone's melds and discards, the flowers set aside, the tile on
        offer, the tiles left, the wilds, its own decision and legal actions."""
    def observation_array(self, seat: int, version: str | None = None) -> NDArray[np.uint8]:
        """`observation` as numbers for learning: a planes x 34 uint8 array of the encoding
        `version` (`"v0"`, 11 planes; `"v1"`, complete; `"v2"`, v1 and the analysis of its
        own hand: docs/learning.md), seats counted from `seat`."""
    def legal_mask(self, seat: int) -> NDArray[np.bool_]:
        """The ids `seat` may play now (`haidi.ruleset(...).actions`), as a numpy bool array
        of the action space's size: all False when it is not to act."""
    def _reshuffled(self, seat: int, seed: int) -> Game:
        """`game` with what `seat` may not know dealt again from `seed`: the other seats'
        concealed tiles and the wall's unseen tiles shuffled together (for the test that no
        observation of `seat` changes with them)."""
    def _events(self) -> list[dict[str, Any]]:
        """The events of the hand until now, as JSON-ready dicts (without the opening one, which
        `haidi.Game.log` adds)."""
    def _record(self) -> dict[str, Any]:
        """The record of the hand for the rulesets' `game_outcome` (see `haidi.game`)."""
    def _tile_counts(self) -> tuple[list[int], int]:
        """Copies of each kind found in the wall, hands, melds, unclaimed discards and the
        indicator, and the flowers: a check that no tile is lost or made."""

@final
class ActionSpace:
    """The integer actions of one ruleset (see `haidi.Ruleset.actions`)."""

    def __new__(cls, flow: dict[str, Any]) -> Self: ...
    @property
    def size(self) -> int:
        """How many ids there are."""
    def __len__(self) -> int: ...
    @property
    def names(self) -> list[str]:
        """Each id's short name, in order (`"pass"`, `"win"`, `"discard 1m"` ...)."""
    def action(self, id: int | np.integer[Any]) -> dict[str, str]:
        """The action dict of `id`, as `Game.step` takes it."""
    def claimed(self, id: int | np.integer[Any]) -> str | None:
        """The tile on offer that `id` claims (a chow, pung or kong on a discard), else None."""
    def id(self, action: dict[str, str], claimed: str | None = None) -> int:
        """The id of `action` (a dict); `claimed`, the tile on offer, is needed for a chow,
        pung or kong on a discard."""

@disjoint_base
class VectorEnv:
    """Many hands of one ruleset in play (see `haidi.VectorEnv`)."""

    def __new__(
        cls,
        flow: dict[str, Any],
        scorer: McrScorer | Scheme,
        num_envs: int,
        seed: int,
        version: str = "v1",
        copy: bool = True,
        opponents: str | None = None,
        shaping: float = 0.0,
    ) -> Self: ...
    @property
    def learners(self) -> NDArray[np.int8]:
        """The learning seat of the hand in play in each game (of the hand that just ended,
        until the next step deals again), against agents; -1 where the caller plays
        every seat."""
    @property
    def num_envs(self) -> int:
        """How many games."""
    @property
    def planes(self) -> int:
        """The observation's planes (of 34 columns)."""
    @property
    def action_size(self) -> int:
        """The size of the action space."""
    @property
    def seeds(self) -> NDArray[np.uint64]:
        """The seed of the hand in play in each game (`Game(rules, seed=...)` deals it again)."""
    def reset(self, seed: int | None = None) -> tuple[NDArray[np.uint8], NDArray[np.bool_], NDArray[np.int8]]:
        """Deals every game's first hand again (from `seed`, or the seed given before):
        `(observations, masks, seats)`, the seat to play in each game."""
    def step(
        self, actions: NDArray[np.int64]
    ) -> tuple[NDArray[np.uint8], NDArray[np.bool_], NDArray[np.int8], NDArray[np.bool_], NDArray[np.float32]]:
        """Plays one id a game (an int64 array) for each game's seat to play; a game over at
        the step before is dealt its next hand instead. `(observations, masks, seats,
        done, shaped)`: `done[i]` when game `i` ended at this step (its seat is then -1);
        `shaped` (games x 4) the shaped reward of each seat, 0 without `shaping`."""
    def _records(self, indices: list[int]) -> list[dict[str, Any]]:
        """The records of the finished games `indices`, for `settle` (see `haidi.game`)."""

def action_blocks(flow: dict[str, Any]) -> list[tuple[str, int, int]]:
    """The blocks of the baseline layout's ids and the ruleset's own after them: `(name,
    first id, count)` each."""

def observation_versions() -> dict[str, Any]:
    """The observation encodings: a dict of version name to its blocks of planes, `(name,
    planes, what they hold)` each, and the decision kinds of the `decision` plane."""

def game_rule_fields() -> tuple[tuple[str, str, bool | int | str, str], ...]:
    """The flow rules a ruleset declares, as `haidi.rulesets.GameRules` takes them: `(name,
    type, default, doc)` each, in order (they are declared once, by `Rules` in
    src/game/rules.rs)."""

def game_rules(rules: dict[str, Any]) -> dict[str, bool | int | str]:
    """Every flow rule, from `rules` (a dict of `GameRules` names) over the defaults; a name
    that is no flow rule, or a value not of its kind, is a `HandError` naming it."""

def game_seed(seed: int, i: int) -> int:
    """The seed of the wall of hand `i` of a batch started from `seed` (`simulate`'s `seeds`)."""

def _audit_wins(
    flow: dict[str, Any],
    scorer: McrScorer | Scheme,
    games: int,
    seed: int,
) -> dict[str, Any]:
    """Checks the game's promise on `games` hands (`simulate`'s hands of `seed`) played by
    random agents taking a win one time in four: every chance of a win is scored again by
    the scorer alone. Returns `weighed` and `offered` by kind of chance, `findings` (where
    the game and the scorer disagree) and `samples` for `evaluate` to score again."""

def simulate(
    flow: dict[str, Any],
    scorer: McrScorer | Scheme,
    games: int,
    seed: int,
    agents: str | list[str] | None = None,
    duplicate: bool = False,
) -> dict[str, Any]:
    """Plays `games` hands with the built-in agents (`agents`: one name, or four, of players
    0 to 3), without the GIL, on the shared pool; `duplicate`: hand `i` deals wall `i / 4`
    with player `p` at seat `(p + i) % 4`. Returns a dict of numpy arrays (`winner`, `wins`,
    `discarder`, `self_drawn`, `total`, `turns`, `exhausted`, `seeds`, the wall's seed)
    and `records`: `(index, record)` for each hand that may pay (a win or a kong), for
    `settle` (see `haidi.simulate`)."""
