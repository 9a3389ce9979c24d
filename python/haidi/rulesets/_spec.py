"""What a ruleset declares: its tiles, hand size and the hand forms that complete a hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from .. import _core
from .._core import HandError
from .._errors import shown

_T = TypeVar("_T")

#: The flow rules declared in Rust: ``(name, type, default, doc)`` each.
_FLOW = _core.game_rule_fields()

#: Every kind of the 136-tile set, in compact notation.
ALL_TILES = "123456789m123456789p123456789s1234567z"
#: The 108 suited tiles (no honours).
SUITED_TILES = "123456789m123456789p123456789s"


@dataclass(frozen=True)
class RulesetSpec:
    """The data of one ruleset. Each module in ``haidi.rulesets`` defines one as ``SPEC``."""

    #: Registry name, e.g. ``"mcr"``.
    name: str
    #: Human name, English and Chinese.
    title: str
    #: Melds in a complete hand: 4 (13-tile hands) or 5 (16-tile hands).
    melds: int
    #: Tile kinds played with, in compact notation.
    tiles: str = ALL_TILES
    #: Flowers in the set, in compact notation (``"12345678f"``), or ``""``.
    flowers: str = ""
    #: Hand forms, as keyword flags of ``haidi._core.Engine`` (``seven_pairs=True`` ...).
    forms: dict[str, Any] = field(default_factory=dict)
    #: Whether the ruleset plays with wild tiles (财神 / 混 / 惠牌).
    has_wilds: bool = False
    #: The wilds may be the flowers: ``wilds`` naming a flower makes every flower held a
    #: wild (Longgang's 花财神), for scoring and for the hand questions alike.
    flower_wilds: bool = False
    #: 中发白 may stand as a concealed set when scoring (Tangshan). The engine's waits and
    #: shanten do not know such sets.
    dragon_sets: bool = False
    #: Where the rules come from and the readings chosen (see docs/).
    source: str = ""

    @property
    def hand_size(self) -> int:
        """Tiles in a hand waiting for its last tile: 13 or 16."""
        return self.melds * 3 + 1


def _flow_fields(cls: type[_T]) -> type[_T]:
    """Gives ``cls`` the flow rules declared in Rust (``Rules`` in src/game/rules.rs), each
    with its type, default and doc, before its own fields, and lists them in its docstring."""
    flow: dict[str, Any] = {}
    lines = []
    for name, type_, default, doc in _FLOW:
        flow[name] = type_
        setattr(cls, name, field(default=default, metadata={"doc": doc}))
        lines.append(f"    {name} ({type_}, default {default!r}): {doc}")
    cls.__annotations__ = {**flow, **cls.__dict__.get("__annotations__", {})}
    cls.__doc__ = f"{cls.__doc__}\n\n    Flow rules:\n\n" + "\n".join(lines) + "\n"
    return cls


@dataclass(frozen=True, init=False)
@_flow_fields
class GameRules:
    """The flow rules of one ruleset in play (``GAME`` of its module; docs/game.md).

    Each flow rule is declared once, in Rust (``Rules`` in src/game/rules.rs): its name,
    type, default and doc are this class's fields (``dataclasses.fields``, each doc in its
    ``metadata["doc"]``), listed below. The fields after them are the Python side's own.
    ``sources`` quotes the seed line for the rules taken from it (the others follow the
    common rule, said so in docs/game.md).
    """

    #: The flowers of ``SPEC`` are in the wall (False: played without them).
    flowers: bool = True
    #: The ruleset's own counts handed on to the next hand (``haidi.Game``'s ``carry``),
    #: each with its largest value: Beijing's 上楼 ``{"floor": 2}``.
    carry: dict[str, int] = field(default_factory=dict)
    #: The flow rules of the ruleset that the game does not play yet (docs/game.md).
    not_modelled: tuple[str, ...] = ()
    #: The seed's words for the rules above, by field.
    sources: dict[str, str] = field(default_factory=dict)
    #: Flow rules a variant of the ruleset (its ``variant`` option) plays otherwise, by
    #: variant: Beijing's ``draft4`` has no 烧庄, so no duty to follow the dealer's wind.
    variants: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __init__(
        self,
        *,
        flowers: bool = True,
        carry: Mapping[str, int] | None = None,
        not_modelled: Sequence[str] = (),
        sources: Mapping[str, str] | None = None,
        variants: Mapping[str, Mapping[str, Any]] | None = None,
        **flow: Any,
    ) -> None:
        # The Rust reader checks each flow rule given (a name it does not declare, or a
        # value not of its type, is a HandError naming it) and gives every one.
        for name, value in _core.game_rules(flow).items():
            object.__setattr__(self, name, value)
        # A variant's flow rules are read the same way, over the ruleset's.
        for changes in (variants or {}).values():
            _core.game_rules({**flow, **changes})
        object.__setattr__(self, "variants", {v: dict(c) for v, c in (variants or {}).items()})
        if not isinstance(flowers, bool):
            raise HandError(f"game rules: flowers must be True or False, not {shown(flowers)}")
        object.__setattr__(self, "flowers", flowers)
        object.__setattr__(self, "carry", dict(carry or {}))
        object.__setattr__(self, "not_modelled", tuple(not_modelled))
        object.__setattr__(self, "sources", dict(sources or {}))

    def flow(self, variant: str | None = None) -> dict[str, Any]:
        """The flow rules by name, as ``haidi._core.Game`` reads them, with those of
        ``variant`` (the ruleset's ``variant`` option) over them."""
        return {name: getattr(self, name) for name, *_ in _FLOW} | self.variants.get(variant or "", {})

    if TYPE_CHECKING:
        # The flow rules, declared in Rust.
        def __getattr__(self, name: str) -> Any: ...
