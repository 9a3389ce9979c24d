"""What a ruleset declares: its tiles, hand size and the hand forms that complete a hand."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
    #: 中发白 may stand as a concealed set when scoring (Tangshan). The engine's waits and
    #: shanten do not know such sets.
    dragon_sets: bool = False
    #: Where the rules come from and the readings chosen (see docs/).
    source: str = ""

    @property
    def hand_size(self) -> int:
        """Tiles in a hand waiting for its last tile: 13 or 16."""
        return self.melds * 3 + 1


@dataclass(frozen=True)
class GameRules:
    """The flow rules of one ruleset in play (``GAME`` of its module; docs/game.md).

    Each field is a rule the game follows; ``sources`` quotes the seed line for the rules
    taken from it (the others follow the common rule, said so in docs/game.md).
    """

    #: Chows may be claimed, from the player on the left only.
    chow: bool = True
    #: Several players calling a win on one tile: ``"all"`` win (通炮) or ``"first"`` in
    #: turn order after the discarder (截胡).
    winners: str = "first"
    #: 漏胡: a player who passes a win on a discard cannot win on a discard until it draws.
    passed_win: bool = False
    #: Tiles left in the wall when the hand is drawn (黄庄), and ``kept_per_kong`` more for
    #: each kong after the first.
    kept: int = 0
    kept_per_kong: int = 0
    #: The drawer of the last tile discards it, and the others may win on it; False: it
    #: wins on it or the hand ends.
    last_discard: bool = True
    #: 海底: the last tile is offered to the seat to draw, which takes it (``{"type":
    #: "take"}``) or lets it go; taken and not won where it is not discarded, the others
    #: may win on it.
    haidi: bool = False
    #: 海底漫游: a 海底 tile let go is offered to the next seat in turn; False: the hand is
    #: drawn.
    haidi_roams: bool = True
    #: The drawer of the last tile, not winning on it, discards that tile and no other.
    last_discard_drawn: bool = False
    #: A discard made while one tile is left to draw may only be won on (no chow, pung or
    #: kong); False: it is claimed as any other.
    before_last_won_only: bool = False
    #: Wild tiles: ``"none"``; ``"indicator"``: a tile turned up from the end of the wall
    #: after the deal, the wild being the next kind; ``"turned"``: a tile turned up from the
    #: end of the wall before the deal is the wild itself (a flower: every flower is wild).
    wild: str = "none"
    #: The flowers of ``SPEC`` are in the wall (False: played without them).
    flowers: bool = True
    #: The seat's own flower is a wild kept in the hand (坐花), not set aside.
    seat_flower_wild: bool = False
    #: Wild tiles may not be discarded (unless the hand holds nothing else).
    wilds_kept: bool = False
    #: 分张: when this many tiles or fewer are left to draw, each seat in turn takes one and
    #: wins on it or keeps it (0: no 分张).
    split: int = 0
    #: The kept tiles are whole stacks: one more while a single tile tops the end of the
    #: wall, after an odd number of replacements.
    kept_stacks: bool = False
    #: A hand holding this many wilds proper wins at once, whatever its shape (0: never).
    instant_wilds: int = 0
    #: A dealt hand may win at once where the ruleset's ``evaluate(dealt=True)`` says so
    #: (Changsha's 起手胡), before the dealer's first discard.
    dealt_wins: bool = False
    #: 明听: a player may lay its ready hand open as it discards (``{"type": "open_ready",
    #: "tile": ...}``); it then wins only self-drawn, claims nothing and discards what it draws.
    open_ready: bool = False
    #: Longgang's bars on claims: a pung let go is not made until the seat draws (过水碰);
    #: a seat chows no kind it discarded since its draw; after a chow it discards neither
    #: the tile claimed nor the one at the other end of the two it held, after a pung not
    #: the kind punged (吃牌禁止).
    claim_bars: bool = False
    #: The dealer's concealed kongs before its first discard keep 天胡 and 地胡.
    heavenly_kongs: bool = False
    #: A tile of a kind the seat melded as a pung is not discarded: it is added to the
    #: pung (补杠) or kept (小明杠).
    fourth_tile_kept: bool = False
    #: A concealed kong may be robbed by a win on its tile that counts this pattern (an id
    #: of the ruleset's ``fan_ids``), scored as self-drawn; ``""``: never robbed.
    rob_concealed_kong: str = ""
    #: 烧庄: a wind the dealer discards first must be discarded by each seat after it in
    #: the first go-round that holds it, all before it having followed.
    follow_wind: bool = False
    #: The ruleset's own counts handed on to the next hand (``haidi.Game``'s ``carry``),
    #: each with its largest value: Beijing's 上楼 ``{"floor": 2}``.
    carry: dict[str, int] = field(default_factory=dict)
    #: The flow rules of the ruleset that the game does not play yet (docs/game.md).
    not_modelled: tuple[str, ...] = ()
    #: The seed's words for the rules above, by field.
    sources: dict[str, str] = field(default_factory=dict)
