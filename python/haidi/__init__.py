"""haidi (海底): a Chinese mahjong rules engine with a Rust core.

>>> import haidi
>>> haidi.ruleset("mcr").waits("1112345678999m")
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
"""

from collections.abc import Mapping as _Mapping
from typing import TYPE_CHECKING, Any

from . import reproduce, results, viewer
from ._core import Fan, Group, Hand, HandError, Meld, Record, Result, __version__, tile_glyph, tile_names
from .display import html
from .game import Game, simulate
from .ruleset import Ruleset, ruleset
from .rulesets import REGISTRY
from .vector import VectorEnv

# Results and their entries are read-only mappings (``dict(r)``, ``{**r}``).
for _c in (Result, Fan, Group, Record):
    _Mapping.register(_c)

if TYPE_CHECKING:
    #: Names of the rulesets, for ``haidi.ruleset(name)``: the six built in and those
    #: added by ``haidi.rulesets.register``.
    RULESETS: tuple[str, ...]


def __getattr__(name: str) -> Any:
    # ``RULESETS`` is read from the registry each time, so that it lists a ruleset
    # registered after import.
    if name == "RULESETS":
        return tuple(REGISTRY)
    raise AttributeError(f"module 'haidi' has no attribute {name!r}")


__all__ = [
    "RULESETS",
    "Fan",
    "Game",
    "Group",
    "Hand",
    "HandError",
    "Meld",
    "Record",
    "Result",
    "Ruleset",
    "VectorEnv",
    "__version__",
    "html",
    "reproduce",
    "results",
    "ruleset",
    "simulate",
    "tile_glyph",
    "tile_names",
    "viewer",
]
