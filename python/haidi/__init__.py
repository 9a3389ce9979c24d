"""haidi (海底): a Chinese mahjong rules engine with a Rust core.

>>> import haidi
>>> haidi.ruleset("mcr").waits("1112345678999m")
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
"""

from . import reproduce, results
from ._core import Hand, HandError, Meld, __version__, tile_glyph, tile_names
from .display import html
from .game import Game, simulate
from .ruleset import Ruleset, ruleset
from .rulesets import REGISTRY

#: Names of the rulesets, for ``haidi.ruleset(name)``.
RULESETS: tuple[str, ...] = tuple(REGISTRY)

__all__ = [
    "RULESETS",
    "Hand",
    "Game",
    "HandError",
    "Meld",
    "Ruleset",
    "__version__",
    "html",
    "reproduce",
    "results",
    "ruleset",
    "simulate",
    "tile_glyph",
    "tile_names",
]
