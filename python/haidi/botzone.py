"""Botzone's MCR match logs: read, replayed through ``haidi.Game``, written; training examples.

Botzone (the platform of the IJCAI Chinese Standard Mahjong competitions) records a hand as
lines of text, one event a line (docs/learning.md, "Logs from real play"):

    Match 61602cb45ddc087351c04358
    Wind 1
    Player 0 Deal T8 B7 T1 W6 B8 W9 J1 T9 B2 W3 T6 F4 W9
    ...
    Player 0 Draw J3
    Player 0 Play T6
    Player 0 Peng W9 Ignore Player 3 Chi W8
    Player 1 Hu B7
    Fan 9 混一色*1+箭刻*1+老少副*1
    Score -8 33 -17 -8

``read`` parses such text into ``Match`` records (``HandError`` naming the line and the
field for anything else); ``wall`` rebuilds the wall a hand was dealt from, ``replay`` plays
it through ``haidi.Game("mcr", wall=...)`` and ``differences`` compares the result with the
log's ``Fan`` and ``Score`` lines. ``write`` spells a haidi MCR game (a ``Game`` or its
``log``) in the same format. ``examples`` and ``export`` turn logs into training examples.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import orjson

from . import _stream
from ._core import HandError
from ._errors import shown
from .game import Game
from .play import from_botzone, to_botzone

__all__ = [
    "FAN_NAMES",
    "Event",
    "Match",
    "Wall",
    "action_json",
    "differences",
    "examples",
    "export",
    "observation_array",
    "parse",
    "read",
    "replay",
    "wall",
    "write",
]

#: The events of a player, as Botzone spells them.
KINDS = ("Deal", "Draw", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang", "Hu")
#: Claims on a tile just played (or, ``Hu``, a kong being added): the kinds an ``Ignore``
#: may name.
CLAIMS = ("Chi", "Peng", "Gang", "Hu")
#: Kongs: the player's next ``Draw`` is a replacement from the end of the wall.
KONGS = ("Gang", "AnGang", "BuGang")
_HAND = 13
#: Fan names of Botzone's fan calculator (ChineseOfficialMahjongHelper) that haidi, after
#: the seed's list, spells otherwise: fan 78.
FAN_NAMES = {"嵌张": "坎张"}
_TO_FAN_NAMES = {v: k for k, v in FAN_NAMES.items()}


@dataclass(frozen=True)
class Event:
    """One ``Player`` line: ``player`` (0-3, 0 the dealer, East), ``kind`` (one of
    ``KINDS``), ``tiles`` (haidi tile names: the dealt tiles of a ``Deal``, else one), the
    ``ignored`` claims of other players on the same tile as ``(player, kind, tile)``, and
    the ``line`` it was read from (1 for the first line of the text)."""

    player: int
    kind: str
    tiles: tuple[str, ...]
    ignored: tuple[tuple[int, str, str], ...] = ()
    line: int = 0

    @property
    def tile(self) -> str:
        """The one tile of an event other than ``Deal``."""
        return self.tiles[0]


@dataclass(frozen=True)
class Match:
    """One hand of a Botzone log.

    ``id`` and ``wind`` (the prevalent wind, 0-3 = E S W N); ``deals``, the tiles each
    player was dealt (haidi names; flowers among them followed by the tiles that replaced
    them); ``events``, the ``Player`` lines after the deals; ``fan`` (the winner's total,
    None for a drawn hand), ``fans`` (``(name, count)`` as the log lists them),
    ``scores`` (the four payments), ``huang`` (the wall ran out) and ``line``, where the
    ``Match`` line is.
    """

    id: str
    wind: int
    deals: tuple[tuple[str, ...], ...]
    events: tuple[Event, ...]
    fan: int | None
    fans: tuple[tuple[str, int], ...]
    scores: tuple[int, int, int, int]
    huang: bool
    line: int = 0
    #: The line of each player's ``Deal`` (by player).
    deal_lines: tuple[int, ...] = ()

    @property
    def winner(self) -> int | None:
        """The player whose ``Hu`` ends the hand (None: drawn)."""
        last = self.events[-1] if self.events else None
        return last.player if last is not None and last.kind == "Hu" else None

    @property
    def flowers(self) -> bool:
        """Whether the hand was played with flowers (a flower appears in it)."""
        return any(t.endswith("f") for d in self.deals for t in d) or any(
            e.tiles[0].endswith("f") for e in self.events if e.kind == "Draw"
        )


# ---------------------------------------------------------------------------------------
# Reading


class _Lines:
    """The lines of a source with their numbers, blank lines between hands."""

    def __init__(self, lines: Iterable[str], start: int = 1) -> None:
        self._it = iter(lines)
        self.number = start - 1

    def __iter__(self) -> Iterator[tuple[int, str]]:
        while True:
            try:
                raw = next(self._it)
            except StopIteration:
                return
            except UnicodeDecodeError as e:
                # (A text file decodes in blocks: then the line is one at or after the last
                # read; a path is decoded a line at a time.)
                raise HandError(f"line {self.number + 1}: not UTF-8 text ({e.reason})") from None
            self.number += 1
            if not isinstance(raw, str):
                raise HandError(f"line {self.number}: a log's lines are text, not {type(raw).__name__}")
            yield self.number, raw.rstrip("\r\n")


def _fail(line: int, field_: str, message: str) -> HandError:
    return HandError(f"line {line}: {field_}: {message}")


def _int(text: str, line: int, field_: str, low: int, high: int) -> int:
    # ASCII digits only: int() also reads '٣' and '３', str.isdigit '²'.
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()):
        raise _fail(line, field_, f"{text[:20]!r} is not a number")
    n = int(text)
    if not low <= n <= high:
        raise _fail(line, field_, f"{text[:20]!r} is not a number from {low} to {high}")
    return n


def _tile(text: str, line: int, field_: str) -> str:
    try:
        return from_botzone(text)
    except HandError:
        raise _fail(
            line, field_, f"{text[:20]!r} is no Botzone tile (W1-W9, B1-B9, T1-T9, F1-F4, J1-J3, H1-H8)"
        ) from None


def _player(words: list[str], at: int, line: int) -> int:
    if len(words) <= at + 1 or words[at] != "Player":
        raise _fail(line, "Player", "expected 'Player <0-3> <event>'")
    return _int(words[at + 1], line, "player", 0, 3)


def _event(words: list[str], line: int) -> Event:
    player = _player(words, 0, line)
    if len(words) < 3 or words[2] not in KINDS:
        kind = words[2][:20] if len(words) > 2 else ""
        raise _fail(line, "event", f"{kind!r} is not one of {', '.join(KINDS)}")
    kind = words[2]
    if kind == "Deal":
        tiles = tuple(_tile(w, line, "Deal") for w in words[3:])
        if len(tiles) < _HAND:
            raise _fail(line, "Deal", f"{len(tiles)} tiles: a deal is 13, then the tiles replacing its flowers")
        return Event(player, kind, tiles, line=line)
    if len(words) < 4:
        raise _fail(line, kind, "no tile")
    tile = _tile(words[3], line, kind)
    if tile.endswith("f") and kind != "Draw":
        raise _fail(line, kind, f"{words[3]} is a flower, which is only drawn")
    rest = words[4:]
    ignored: list[tuple[int, str, str]] = []
    while rest:
        if rest[0] != "Ignore" or len(rest) < 5:
            raise _fail(line, "Ignore", f"expected 'Ignore Player <0-3> <claim> <tile>', not {' '.join(rest)[:40]!r}")
        if kind not in CLAIMS:
            raise _fail(line, "Ignore", f"a {kind} overrides no claim")
        other = _player(rest, 1, line)
        if rest[3] not in CLAIMS:
            raise _fail(line, "Ignore", f"{rest[3][:20]!r} is not a claim ({', '.join(CLAIMS)})")
        if other == player or any(o == other for o, _, _ in ignored):
            raise _fail(line, "Ignore", f"player {other} claims twice")
        ignored.append((other, rest[3], _tile(rest[4], line, "Ignore")))
        rest = rest[5:]
    return Event(player, kind, (tile,), tuple(ignored), line)


def _match(head: list[tuple[int, str]]) -> Match:
    """One hand from its lines (numbered), the ``Match`` line first."""
    n0, first = head[0]
    words = first.split()
    if len(words) != 2 or words[0] != "Match":
        raise _fail(n0, "Match", "a hand starts with 'Match <id>'")
    mid = words[1]
    if len(head) < 2:
        raise _fail(n0, "Wind", "the hand ends after its Match line")
    n1, second = head[1]
    words = second.split()
    if len(words) != 2 or words[0] != "Wind":
        raise _fail(n1, "Wind", "expected 'Wind <0-3>'")
    wind = _int(words[1], n1, "Wind", 0, 3)
    deals: list[tuple[str, ...] | None] = [None] * 4
    deal_lines = [0, 0, 0, 0]
    events: list[Event] = []
    fan: int | None = None
    fans: tuple[tuple[str, int], ...] = ()
    scores: tuple[int, int, int, int] | None = None
    huang = False
    ending = False
    for n, text in head[2:]:
        words = text.split()
        if scores is not None:
            raise _fail(n, words[0][:20], "a line after the hand's Score")
        if words[0] == "Player":
            if ending:
                raise _fail(n, "Player", "a Player line after the hand's Fan or Huang")
            e = _event(words, n)
            if events and events[-1].kind == "Hu":
                raise _fail(n, "Player", "an event after the hand's Hu")
            if e.kind == "Deal":
                if events or deals[e.player] is not None:
                    raise _fail(n, "Deal", f"player {e.player} is dealt twice, or after play began")
                deals[e.player] = e.tiles
                deal_lines[e.player] = n
            else:
                if any(d is None for d in deals):
                    raise _fail(n, e.kind, "play before all four players are dealt")
                events.append(e)
        elif words[0] == "Fan":
            if ending:
                raise _fail(n, "Fan", "a second Fan or Huang")
            ending = True
            if not events or events[-1].kind != "Hu":
                raise _fail(n, "Fan", "the hand's last event is no Hu")
            if len(words) != 3:
                raise _fail(n, "Fan", "expected 'Fan <total> <name>*<count>+...'")
            fan = _int(words[1], n, "Fan", 0, 100_000)
            parsed = []
            for part in words[2].split("+"):
                name, star, count = part.rpartition("*")
                if not star or not name:
                    raise _fail(n, "Fan", f"{part[:30]!r} is not <name>*<count>")
                parsed.append((name, _int(count, n, "Fan", 1, 8)))
            fans = tuple(parsed)
        elif words[0] == "Huang":
            if ending or len(words) != 1:
                raise _fail(n, "Huang", "a second Fan or Huang, or words after Huang")
            if events and events[-1].kind == "Hu":
                raise _fail(n, "Huang", "a drawn hand, but its last event is a Hu")
            ending = huang = True
        elif words[0] == "Score":
            if not ending:
                raise _fail(n, "Score", "a Score before the hand's Fan or Huang")
            if len(words) != 5:
                raise _fail(n, "Score", "expected four payments")
            s = tuple(_int(w, n, "Score", -1_000_000, 1_000_000) for w in words[1:])
            if sum(s) != 0:
                raise _fail(n, "Score", f"the payments {' '.join(words[1:])} do not sum to zero")
            scores = (s[0], s[1], s[2], s[3])
        else:
            raise _fail(n, "line", f"{words[0][:20]!r} is not Player, Fan, Huang or Score")
    last = head[-1][0]
    if any(d is None for d in deals):
        raise _fail(last, "Deal", "a player is not dealt")
    if scores is None:
        raise _fail(last, "Score", "the hand ends without its Score line")
    if huang and any(scores):
        raise _fail(last, "Score", "a drawn hand (Huang) pays nothing")
    dealt = tuple(d for d in deals if d is not None)
    return Match(mid, wind, dealt, tuple(events), fan, fans, scores, huang, n0, tuple(deal_lines))


def read(source: str | os.PathLike[str] | IO[str] | Iterable[str]) -> Iterator[Match]:
    """The hands of a Botzone log, one ``Match`` at a time (a file is read as it goes).

    ``source``: a path, an open text file or any iterable of lines. Hands are separated by
    blank lines (or begin at each ``Match`` line). ``HandError`` names the line and the
    field of the first thing that is not the format.
    """
    if isinstance(source, (str, os.PathLike)):
        # Decoded a line at a time, so that text that is not UTF-8 is named by its line.
        with open(source, "rb") as f:
            yield from read(line.decode("utf-8") for line in f)
        return
    block: list[tuple[int, str]] = []
    for n, text in _Lines(source):
        stripped = text.strip()
        if stripped.startswith("Match ") and block:
            yield _match(block)
            block = []
        if stripped:
            block.append((n, stripped))
        elif block:
            yield _match(block)
            block = []
    if block:
        yield _match(block)


def parse(text: str) -> list[Match]:
    """Every hand of a Botzone log given as text (``read`` of its lines)."""
    if not isinstance(text, str):
        raise HandError(f"parse takes the log's text (a str), not {type(text).__name__}")
    return list(read(io.StringIO(text)))


# ---------------------------------------------------------------------------------------
# The wall


def _tile_set() -> list[str]:
    """haidi's MCR tile set in its order: four of each kind (``tile_names()``), then the
    eight flowers."""
    from . import tile_names

    return [t for t in tile_names() for _ in range(4)] + [f"{f}f" for f in range(1, 9)]


def _draws(match: Match) -> tuple[list[str], list[str]]:
    """The tiles drawn from the front of the wall and, in order, from its end: a ``Draw``
    right after the same player's kong or flower is a replacement (docs/game.md)."""
    front: list[str] = []
    back: list[str] = []
    prev: Event | None = None
    for e in match.events:
        if e.kind == "Draw":
            replaced = (
                prev is not None
                and prev.player == e.player
                and (prev.kind in KONGS or (prev.kind == "Draw" and prev.tile.endswith("f")))
            )
            (back if replaced else front).append(e.tile)
        prev = e
    return front, back


def _dealt_replacements(match: Match, first_draw: str) -> list[str]:
    """The replacements of dealt flowers in the order haidi's deal takes them from the end
    of the wall: the dealer first and then in turn, each seat all of its flowers (the
    dealer's 14th tile, its first ``Draw``, among them), and again for flowers so drawn."""
    queues = [list(d[_HAND:]) for d in match.deals]
    wanted = [sum(t.endswith("f") for t in d[:_HAND]) for d in match.deals]
    wanted[0] += first_draw.endswith("f")
    order: list[str] = []
    while any(wanted):
        again = [0, 0, 0, 0]
        for s in range(4):
            for _ in range(wanted[s]):
                if not queues[s]:
                    message = f"Deal: player {s} has more flowers than tiles listed to replace them"
                    raise HandError(f"line {_deal_line(match, s)}: {message}")
                t = queues[s].pop(0)
                order.append(t)
                again[s] += t.endswith("f")
        wanted = again
    for s in range(4):
        if queues[s]:
            message = f"Deal: player {s} lists more tiles than its 13 and their replacements"
            raise HandError(f"line {_deal_line(match, s)}: {message}")
    return order


def _deal_line(match: Match, player: int) -> int:
    """The line of ``player``'s ``Deal`` (the ``Match`` line where it is not known)."""
    return match.deal_lines[player] if len(match.deal_lines) > player else match.line


#: Fans of a win on the wall's last tile: a log that scores one ended its wall there.
LAST_TILE_FANS = ("妙手回春", "海底捞月")


@dataclass(frozen=True)
class Wall:
    """A rebuilt wall: ``tiles`` in drawing order (haidi names, the tile set once),
    ``unseen`` (the tiles no line of the log shows, in the middle of the wall) and
    ``kept``: the tiles the hand leaves in the wall, for ``Game(kept=...)`` (None: the
    ruleset's, none)."""

    tiles: list[str]
    unseen: list[str]
    kept: int | None


def wall(match: Match) -> Wall:
    """The wall ``match`` was dealt from, in haidi's drawing order (docs/learning.md).

    The dealt tiles are put where haidi's deal takes them (four a seat three times from
    the dealer, then one each, then the dealer's first ``Draw``); the later draws follow at
    the front, the replacements (after a kong or a flower) at the end, the first taken
    last. The tiles no line shows (the eight flowers too, in a hand without them) fill
    the middle in haidi's tile order (``tile_names()``, then the flowers). When the hand
    ended with the wall spent (``Huang``, or a win the log scores 妙手回春 or 海底捞月),
    they are the tiles it leaves (``kept``). ``HandError`` if the log shows a tile more
    often than the set holds.
    """
    if not match.events or match.events[0].kind != "Draw" or match.events[0].player != 0:
        raise HandError(f"line {match.line}: the dealer's first Draw (its 14th tile) must follow the deals")
    front, back = _draws(match)
    positions: list[str] = [""] * 52
    for s, d in enumerate(match.deals):
        for i, t in enumerate(d[:_HAND]):
            positions[(i // 4) * 16 + s * 4 + i % 4 if i < 12 else 48 + s] = t
    head = positions + front
    tail = _dealt_replacements(match, front[0]) + back
    full = _tile_set()
    counts = dict.fromkeys(full, 0)
    for t in full:
        counts[t] += 1
    for t in head + tail:
        if counts[t] == 0:
            raise HandError(f"line {match.line}: the hand shows more of {to_botzone(t)} than the wall holds")
        counts[t] -= 1
    unseen = [t for t, c in counts.items() for _ in range(c)]
    ended = match.huang or any(name in LAST_TILE_FANS for name, _ in match.fans)
    kept = len(unseen) if ended and unseen else None
    return Wall(head + unseen + tail[::-1], unseen, kept)


# ---------------------------------------------------------------------------------------
# Replay


def _chow_low(middle: str, line: int) -> str:
    rank, suit = int(middle[0]), middle[1]
    if suit not in "mps" or not 2 <= rank <= 8:
        raise _fail(line, "Chi", f"{to_botzone(middle)} is no middle tile of a chow (2-8 of a suit)")
    return f"{rank - 1}{suit}"


def _claims_tile(kind: str, tile: str, played: str | None) -> bool:
    """Whether a claim written ``kind tile`` takes ``played``: a chow names its middle
    tile, the others the tile itself."""
    if played is None:
        return False
    if kind != "Chi":
        return tile == played
    return tile[1] == played[1] and tile[1] in "mps" and abs(int(tile[0]) - int(played[0])) <= 1


def _claim_action(kind: str, tile: str, line: int) -> dict[str, str]:
    if kind == "Chi":
        return {"type": "chow", "tile": _chow_low(tile, line)}
    return {"type": {"Peng": "pung", "Gang": "kong", "Hu": "win"}[kind]}


_PASS = {"type": "pass"}

Observer = Callable[[Game, int, dict[str, Any]], None]


def _step(g: Game, seat: int, action: dict[str, Any], line: int, watch: Observer | None) -> None:
    if watch is not None:
        watch(g, seat, action)
    try:
        g.step(seat, action)
    except HandError as err:
        raise HandError(f"line {line}: haidi does not allow it: {err}") from None


def _pass_all(g: Game, line: int, watch: Observer | None, but: Sequence[int] = ()) -> None:
    """Every seat asked about a claim and not named in the log passes (none is asked in
    a turn: an MCR turn offers no pass)."""
    seats = [s for s in g.to_act if s not in but]
    if not all(_PASS in g.legal_actions(s) for s in seats):
        return
    for s in seats:
        _step(g, s, dict(_PASS), line, watch)


def _claims(g: Game, e: Event, watch: Observer | None) -> None:
    """A claim of the log and the claims it overrode, stepped with the passes of the other
    seats asked in the order of ``to_act``."""
    named = {p: (kind, tile) for p, kind, tile in ((e.player, e.kind, e.tile), *e.ignored)}
    asked = list(g.to_act)
    for p, (kind, _) in named.items():
        if p not in asked:
            raise HandError(f"line {e.line}: {kind}: player {p} may not claim now in haidi's game")
    for s in asked:
        if s in named:
            kind, tile = named[s]
            _step(g, s, _claim_action(kind, tile, e.line), e.line, watch)
        else:
            _step(g, s, dict(_PASS), e.line, watch)


def replay(match: Match, watch: Observer | None = None) -> Game:
    """``match`` played through ``haidi.Game("mcr", wall=...)`` (``wall(match)``), each
    logged action stepped and every seat haidi asks about a claim the log does not name
    passing; ``watch(game, seat, action)``, if given, is called before each step.

    Returns the game, done. ``HandError`` names the line of the first action haidi does
    not allow, or of a log whose events do not follow (a draw by the wrong player, a
    claim on a tile not played). Compare its result with ``differences``.
    """
    w = wall(match)
    g = Game("mcr", wall=w.tiles, carry={"round_wind": "ESWN"[match.wind]}, kept=w.kept)
    last_played: str | None = None
    events = match.events
    for i, e in enumerate(events):
        if g.done and match.huang and all(x.kind == "Draw" for x in events[i:]):
            # The wall ran out on flowers: the last draws found no replacement.
            break
        if g.done:
            raise HandError(f"line {e.line}: {e.kind}: haidi's hand is over before it")
        if e.kind == "Draw":
            # The draw is haidi's own; a claim the log shows nobody taking is passed first.
            _pass_all(g, e.line, watch)
            if g.done or g.to_act != [e.player]:
                whose = "over" if g.done else f"player {g.to_act}'s to act"
                raise HandError(f"line {e.line}: Draw: player {e.player} draws, but haidi's hand is {whose}")
            continue
        if e.kind == "Play":
            _step(g, e.player, {"type": "discard", "tile": e.tile}, e.line, watch)
            last_played = e.tile
        elif e.kind in ("AnGang", "BuGang"):
            kind = "concealed_kong" if e.kind == "AnGang" else "added_kong"
            _step(g, e.player, {"type": kind, "tile": e.tile}, e.line, watch)
            if e.kind == "BuGang":
                last_played = e.tile
        elif e.kind == "Hu" and i and events[i - 1].kind == "Draw" and events[i - 1].player == e.player:
            _step(g, e.player, {"type": "win"}, e.line, watch)
        else:
            for p, kind, tile in ((e.player, e.kind, e.tile), *e.ignored):
                if not _claims_tile(kind, tile, last_played):
                    shown = to_botzone(last_played) if last_played else "none"
                    what = f"{kind} {to_botzone(tile)}"
                    raise _fail(e.line, kind, f"player {p}'s {what} does not claim the tile just played ({shown})")
            _claims(g, e, watch)
            last_played = None
    if not g.done:
        _pass_all(g, events[-1].line if events else match.line, watch)
    if not g.done:
        end = events[-1].line if events else match.line
        raise HandError(f"line {end}: the log ends, haidi's hand goes on (player {g.to_act} to act)")
    return g


def differences(match: Match, game: Game) -> list[str]:
    """What the log's end says that haidi's replay does not (empty when they agree): the
    winner, the fan total, the fans and the four payments."""
    result = game.result
    if result is None:
        raise HandError("differences compares a finished hand: this game is not over")
    out = []
    wins = result["wins"]
    if match.huang:
        if not result["exhausted"] or wins:
            out.append(f"the log's hand is drawn (Huang), haidi's {'won' if wins else 'goes on'}")
    else:
        if not wins:
            out.append(f"the log's player {match.winner} wins, haidi's hand is drawn")
        else:
            w = wins[0]
            if w["seat"] != match.winner:
                out.append(f"winner: log {match.winner}, haidi {w['seat']}")
            score = w["score"]
            if score["total"] != match.fan:
                out.append(f"fan total: log {match.fan}, haidi {score['total']}")
            mine = sorted((f["name"], f["count"]) for f in score["fans"])
            theirs = sorted((FAN_NAMES.get(n, n), c) for n, c in match.fans)
            if mine != theirs:
                log = "+".join(f"{n}*{c}" for n, c in match.fans)
                out.append(f"fans: log {log}, haidi {'+'.join(f'{n}*{c}' for n, c in mine)}")
    if list(result["payments"]) != list(match.scores):
        out.append(f"payments: log {list(match.scores)}, haidi {list(result['payments'])}")
    return out


# ---------------------------------------------------------------------------------------
# Writing


def _log_of(game: Game | Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    if isinstance(game, Game):
        return list(game.log)
    if isinstance(game, (str, bytes)) or not isinstance(game, Sequence) or not game:
        raise HandError("write takes a haidi.Game or its log (a list of events, the first the start)")
    return list(game)


def write(game: Game | Sequence[Mapping[str, Any]], match_id: str | None = None) -> str:
    """A played MCR hand of haidi (a ``Game`` or its ``log``) as Botzone's text, blank line
    at the end. ``match_id`` names it (default ``haidi-<seed>``, or ``haidi`` for a given
    wall). ``read`` of the text gives the same deal and actions, and ``replay`` the same
    result (flowers at the deal spelt as docs/learning.md says)."""
    log = _log_of(game)
    start = log[0]
    if not isinstance(start, Mapping) or start.get("event") != "start" or start.get("rules") != "mcr":
        raise HandError("write spells MCR hands: the log's start must be an MCR game's")
    # Checked whole by its replay before any event is read (Game.replay names what differs).
    result = _result_of(game, log)
    wind = "ESWN".index((start.get("carry") or {}).get("round_wind", "E"))
    seed = start.get("seed")
    mid = match_id or (f"haidi-{seed}" if seed is not None else "haidi")
    lines = [f"Match {mid}", f"Wind {wind}"]
    deals: list[list[str]] = [[], [], [], []]
    first: str | None = None
    i = 1
    # The deal and the replacements of dealt flowers, up to the dealer's first decision.
    while i < len(log) and log[i]["event"] != "action":
        e = log[i]
        if e["event"] == "deal":
            tiles = list(e["tiles"])
            if e["seat"] == 0:
                first = tiles.pop()
            deals[e["seat"]] = tiles
        elif e["event"] == "draw":
            deals[e["seat"]].append(e["tile"])
        elif e["event"] not in ("flower", "win", "end"):
            raise HandError(f"log event {i}: {e['event']} before the dealer's first decision")
        i += 1
    for s in range(4):
        lines.append(f"Player {s} Deal " + " ".join(to_botzone(t) for t in deals[s]))
    if first is not None:
        lines.append(f"Player 0 Draw {to_botzone(first)}")
    # The answers to the tile on offer (a discard, or a kong being added) while it is.
    window: list[tuple[int, Mapping[str, Any]]] | None = None
    offered: str | None = None
    for n, e in enumerate(log[i:], i):
        kind = e["event"]
        if kind == "action":
            seat, a = e["seat"], e["action"]
            if window is not None:
                window.append((seat, a))
            elif a["type"] in ("discard", "concealed_kong", "added_kong"):
                word = {"discard": "Play", "concealed_kong": "AnGang", "added_kong": "BuGang"}[a["type"]]
                lines.append(f"Player {seat} {word} {to_botzone(a['tile'])}")
                if a["type"] != "concealed_kong":
                    window, offered = [], a["tile"]
            elif a["type"] != "win":
                raise HandError(f"log event {n}: {a} is not an action of Botzone's MCR")
        elif kind in ("claim", "win"):
            if kind == "win" and window is None:
                lines.append(f"Player {e['seat']} Hu {to_botzone(e['tile'])}")
            else:
                lines.append(_claim_line(e, window or [], offered))
            window = None
        elif kind == "draw":
            lines.append(f"Player {e['seat']} Draw {to_botzone(e['tile'])}")
            window = None
        elif kind == "end":
            window = None
    if result["wins"]:
        score = result["wins"][0]["score"]
        fans = "+".join(f"{_TO_FAN_NAMES.get(f['name'], f['name'])}*{f['count']}" for f in score["fans"])
        lines.append(f"Fan {score['total']} {fans}")
    else:
        lines.append("Huang")
    lines.append("Score " + " ".join(str(p) for p in result["payments"]))
    return "\n".join(lines) + "\n\n"


_WORDS = {"chow": "Chi", "pung": "Peng", "kong": "Gang", "win": "Hu"}


def _claim_line(e: Mapping[str, Any], window: list[tuple[int, Mapping[str, Any]]], offered: str | None) -> str:
    """The line of the claim that took the tile on offer, with the claims it overrode."""
    seat = e["seat"]
    claims = [(s, a) for s, a in window if a["type"] != "pass"]
    if not any(s == seat for s, _ in claims) or offered is None:
        raise HandError(f"write: the log's claim of seat {seat} has no action before it")
    words = [f"Player {seat} {_claim_words(a, offered)}" for s, a in claims if s == seat]
    words += [f"Ignore Player {s} {_claim_words(a, offered)}" for s, a in claims if s != seat]
    return " ".join(words)


def _claim_words(a: Mapping[str, Any], offered: str) -> str:
    if a["type"] == "chow":
        low = a["tile"]
        return f"Chi {to_botzone(f'{int(low[0]) + 1}{low[1]}')}"
    return f"{_WORDS[a['type']]} {to_botzone(offered)}"


def _result_of(game: Game | Sequence[Mapping[str, Any]], log: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    g = game if isinstance(game, Game) else Game.replay(log)
    result = g.result
    if result is None:
        raise HandError("write takes a finished hand: the log stops before its end")
    return result


# ---------------------------------------------------------------------------------------
# Training examples


def observation_array(game: Game, seat: int) -> np.ndarray:
    """The default observation of an example: ``Game.observation_array(seat)``."""
    return np.asarray(game.observation_array(seat))


def action_json(action: Mapping[str, Any], game: Game, seat: int) -> str:
    """The default encoding of an example's action: the action dict as JSON text."""
    return orjson.dumps(dict(action), option=orjson.OPT_SORT_KEYS).decode()


def _games(source: Any) -> Iterator[tuple[str, Callable[[Observer], Game]]]:
    """Each hand of ``source`` as ``(name, play)``: ``play(watch)`` plays it with a watcher.

    A source is a ``Match``, a haidi log (a list of events), a ``Game`` (its log), a path
    to a Botzone text file (``.txt``) or to JSON lines of haidi logs (``.jsonl``, as
    ``haidi play --log`` writes), or an iterable of any of these."""
    if isinstance(source, Match):
        m = source
        yield m.id, lambda watch: replay(m, watch)
        return
    if isinstance(source, Game):
        source = source.log
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if path.suffix in (".jsonl", ".json"):
            for n, events in _jsonl(path):
                yield from ((f"{path}:{n}", p) for _, p in _games(events))
            return
        for m in read(path):
            yield from _games(m)
        return
    if isinstance(source, Sequence) and source and isinstance(source[0], Mapping):
        log = source
        yield "log", lambda watch: Game._replay(log, watch)
        return
    if isinstance(source, Iterable) and not isinstance(source, (bytes, Mapping)):
        for s in source:
            yield from _games(s)
        return
    raise HandError(f"no hands in {type(source).__name__}: give Botzone text files, haidi logs or Matches")


ObservationEncoder = Callable[[Game, int], Any]
ActionEncoder = Callable[[Mapping[str, Any], Game, int], Any]
MaskEncoder = Callable[[Game, int], Any]


def examples(
    source: Any,
    *,
    observe: ObservationEncoder = observation_array,
    encode_action: ActionEncoder = action_json,
    mask: MaskEncoder | None = None,
) -> Iterator[dict[str, Any]]:
    """One training example per decision of every hand of ``source``, hand by hand.

    Each example is a dict: ``hand`` (the hand's name: a Botzone match id, or the file
    and line of a haidi log), ``step`` (the decision's number in the hand), ``seat``,
    ``observation`` (``observe(game, seat)`` before the decision; default
    ``Game.observation_array``), ``action`` (``encode_action(action_dict, game, seat)``;
    default the action dict as JSON text), ``mask`` (``mask(game, seat)`` when a mask
    encoder is given) and ``payment`` (what the seat is paid when the hand ends). The
    encoders are parameters so that another observation version or integer action ids
    plug in unchanged. A hand of Botzone's whose replay haidi refuses raises
    ``HandError`` naming its line.
    """
    for name, play in _games(source):
        rows: list[dict[str, Any]] = []

        def watch(
            g: Game, seat: int, action: dict[str, Any], rows: list[dict[str, Any]] = rows, name: str = name
        ) -> None:
            row = {
                "hand": name,
                "step": len(rows),
                "seat": seat,
                "observation": observe(g, seat),
                "action": encode_action(action, g, seat),
            }
            if mask is not None:
                row["mask"] = mask(g, seat)
            rows.append(row)

        try:
            g = play(watch)
        except HandError as e:
            # Named by the hand's place (a Botzone error names its line already).
            raise HandError(str(e) if str(e).startswith(("line ", name)) else f"{name}: {e}") from None
        result = g.result
        if result is None:
            raise HandError(f"{name}: the hand is not over at the end of its log")
        payments = result["payments"]
        for row in rows:
            row["payment"] = int(payments[row["seat"]])
            yield row


def _columns(rows: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    cols: dict[str, np.ndarray] = {
        "hand": np.array([r["hand"] for r in rows], dtype=str),
        "step": np.array([r["step"] for r in rows], dtype=np.int32),
        "seat": np.array([r["seat"] for r in rows], dtype=np.int8),
        "observation": np.stack([np.asarray(r["observation"]) for r in rows]),
        "payment": np.array([r["payment"] for r in rows], dtype=np.int32),
    }
    actions = [r["action"] for r in rows]
    cols["action"] = np.array(actions, dtype=str) if isinstance(actions[0], str) else np.asarray(actions)
    if "mask" in rows[0]:
        cols["mask"] = np.stack([np.asarray(r["mask"]) for r in rows])
    return cols


def export(
    sources: Any,
    out: str | os.PathLike[str],
    *,
    format: str = "npz",
    shard: int = 100_000,
    observe: ObservationEncoder = observation_array,
    encode_action: ActionEncoder = action_json,
    mask: MaskEncoder | None = None,
    progress: bool = True,
) -> dict[str, int]:
    """Writes the ``examples`` of ``sources`` to ``out`` as they are made, ``shard`` rows
    at a time, so that any number of logs fit in memory.

    ``format="npz"``: ``out`` is a directory, filled with ``part-00000.npz``,
    ``part-00001.npz``, ... each holding the columns ``hand``, ``step``, ``seat``,
    ``observation`` (rows stacked), ``action``, ``payment`` (and ``mask``) of up to
    ``shard`` examples (``numpy.load`` reads them without pickle). ``format="parquet"``:
    ``out`` is one Parquet file (pyarrow, the ``arrow`` extra) with a row group per shard,
    the observation and mask flattened into lists of their shape's size (the shape is in
    the file's metadata, ``observation_shape``). A progress bar (tqdm) counts the hands
    on standard error when ``progress``.

    Returns ``{"hands": ..., "examples": ..., "files": ...}``.
    """
    from tqdm import tqdm

    if format not in ("npz", "parquet"):
        raise HandError(f"format must be 'npz' or 'parquet', not {shown(format)}")
    if not isinstance(shard, int) or isinstance(shard, bool) or shard < 1:
        raise HandError(f"shard must be a positive number of examples, not {shown(shard)}")
    target = Path(out)
    writer: Any = None
    files = 0
    count = 0
    hands = 0
    bar = tqdm(unit=" hands", disable=not progress, desc="haidi botzone export")
    buffer: list[dict[str, Any]] = []
    last_hand: str | None = None

    def flush() -> None:
        nonlocal writer, files
        if not buffer:
            return
        cols = _columns(buffer)
        if format == "npz":
            target.mkdir(parents=True, exist_ok=True)
            np.savez(target / f"part-{files:05d}.npz", **cols)  # type: ignore[arg-type]
            files += 1
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            arrays = {}
            meta = {}
            for k, v in cols.items():
                if v.ndim > 1:
                    meta[f"{k}_shape"] = orjson.dumps(list(v.shape[1:])).decode()
                    width = int(np.prod(v.shape[1:]))
                    arrays[k] = pa.FixedSizeListArray.from_arrays(pa.array(v.reshape(-1)), width)
                else:
                    arrays[k] = pa.array(v.tolist() if v.dtype.kind == "U" else v)
            table = pa.table(arrays).replace_schema_metadata(meta)
            if writer is None:
                target.parent.mkdir(parents=True, exist_ok=True)
                writer = pq.ParquetWriter(str(target), table.schema)
                files = 1
            writer.write_table(table)
        buffer.clear()

    try:
        for row in examples(sources, observe=observe, encode_action=encode_action, mask=mask):
            if row["hand"] != last_hand or row["step"] == 0:
                hands += 1
                bar.update(1)
                last_hand = row["hand"]
            buffer.append(row)
            count += 1
            if len(buffer) >= shard:
                flush()
        flush()
    finally:
        bar.close()
        if writer is not None:
            writer.close()
    return {"hands": hands, "examples": count, "files": files}


# ---------------------------------------------------------------------------------------
# The command: haidi botzone replay | write | export


def add_parser(sub: Any) -> None:
    """Adds ``haidi botzone`` to the subcommands of ``haidi`` (python/haidi/cli.py)."""
    import argparse

    # The command's readers of a file to write and of a count, as its other arguments.
    from .cli import _out_path, _positive

    p = sub.add_parser(
        "botzone",
        help="Botzone's MCR match logs: replay them, write haidi's hands in them, export training examples",
        description="Read Botzone's Chinese Standard Mahjong match logs (docs/learning.md, 'Logs from real "
        "play'): replay each hand through haidi's MCR game, write haidi's logged hands in the same format, "
        "or export one training example per decision.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  haidi botzone replay matches.txt\n  haidi play --bots greedy,greedy,greedy,greedy "
        "--games 4 --log games.jsonl && haidi botzone write games.jsonl\n  haidi botzone export matches.txt "
        "games.jsonl -o examples/ --format npz",
    )
    bsub = p.add_subparsers(dest="botzone_command", required=True, metavar="ACTION")
    rp = bsub.add_parser("replay", help="replay each hand and compare with its Fan and Score lines")
    rp.add_argument("files", nargs="+", metavar="FILE", help="Botzone match logs (text)")
    rp.add_argument("--json", action="store_true", help="one JSON line a hand")
    wp = bsub.add_parser("write", help="write haidi's logged MCR hands (JSON lines of Game.log) as Botzone text")
    wp.add_argument("logs", nargs="+", metavar="FILE", help="JSON-lines logs, as haidi play --log writes")
    ep = bsub.add_parser("export", help="one training example per decision, to .npz shards or a Parquet file")
    ep.add_argument(
        "sources", nargs="+", metavar="FILE", help="Botzone text logs, or haidi logs (.jsonl: JSON lines of Game.log)"
    )
    ep.add_argument(
        "--out", "-o", required=True, type=_out_path, metavar="PATH", help="a directory (npz) or a file (parquet)"
    )
    ep.add_argument("--format", default="npz", choices=["npz", "parquet"], help="npz shards (default) or Parquet")
    ep.add_argument("--shard", type=_positive, default=100_000, metavar="N", help="examples a file or row group")
    ep.add_argument("--quiet", "-q", action="store_true", help="no progress bar (none is drawn off a terminal)")


def main(args: Any) -> int:
    """``haidi botzone``: 0 when every hand agrees (or is written), 1 when one differs or is
    refused, 2 for a file that cannot be read or is not the format, 4 when ``export``
    cannot write its output."""
    import sys

    try:
        if args.botzone_command == "replay":
            return _replay_main(args, sys.stdout)
        if args.botzone_command == "write":
            for name in args.logs:
                for n, log in _jsonl(name):
                    try:
                        text = write(log)
                    except HandError as e:
                        raise HandError(f"{name}: line {n}: {e}") from None
                    sys.stdout.write(text)
            return 0
        try:
            # The bar only where someone watches: on a terminal, as every bar of the command.
            progress = not args.quiet and _stream.stderr_is_terminal()
            counts = export(args.sources, args.out, format=args.format, shard=args.shard, progress=progress)
        except OSError as e:
            # Not a source that cannot be read: the output (a full disk, a file where the
            # npz folder goes), which the command's exit status 4 is for.
            if e.filename is not None and any(os.fspath(e.filename) == os.fspath(s) for s in args.sources):
                raise
            print(f"haidi: error: cannot write {os.fspath(args.out)!r}: {e.strerror or e}", file=sys.stderr)
            return 4
        print(f"{counts['examples']} examples of {counts['hands']} hands in {counts['files']} files at {args.out}")
        return 0
    except OSError as e:
        if e.filename is None:
            raise  # not a file read: main says what failed (the reader gone, a full disk)
        print(f"haidi: error: cannot read {e.filename!r}: {e.strerror or e}", file=sys.stderr)
        return 2
    except HandError as e:
        print(f"haidi: error: {e}", file=sys.stderr)
        return 2


def _jsonl(name: str | os.PathLike[str]) -> Iterator[tuple[int, list[Any]]]:
    """The hands of a file of JSON lines of haidi logs, with their line numbers: blank and
    ``#`` lines skipped, and the match header ``haidi play --log`` writes first (it is
    no hand)."""
    from .cli import _json  # the command's reader of a JSON line (cli imports this module)

    hands = 0
    read_before = False  # a line not blank nor a comment
    with open(name, "rb") as f:
        for n, raw in enumerate(f, 1):
            if not raw.strip() or raw.lstrip().startswith(b"#"):
                continue
            try:
                # The command's reader: a key given twice, or nesting past its depth, is refused.
                log = _json(raw, "a log line")
            except orjson.JSONDecodeError as e:
                raise HandError(f"{name}: line {n}: not JSON ({e})") from None
            except HandError as e:
                raise HandError(f"{name}: line {n}: {e}") from None
            first, read_before = not read_before, True
            if isinstance(log, Mapping) and log.get("event") == "match":
                # First but for blank and comment lines, as haidi replay reads it.
                if not first:
                    raise HandError(f"{name}: line {n}: the match header must be the log's first line, once")
                continue
            if not isinstance(log, list) or not log:
                raise HandError(f"{name}: line {n}: not a log (a JSON list of events)")
            hands += 1
            yield n, log


def _named(name: str, matches: Iterator[Match]) -> Iterator[Match]:
    """``matches``, an error reading them named by the file ``name`` as well as its line."""
    try:
        yield from matches
    except HandError as e:
        raise HandError(f"{name}: {e}") from None


def _replay_main(args: Any, out: IO[str]) -> int:
    agree = hands = 0
    for name in args.files:
        for m in _named(name, read(name)):
            hands += 1
            row: dict[str, Any] = {"file": name, "match": m.id, "line": m.line}
            try:
                g = replay(m)
            except HandError as e:
                row.update(agrees=False, error=str(e))
                text = f"{name}: {m.id}: REFUSED: {e}"
            else:
                diff = differences(m, g)
                result = g.result
                assert result is not None
                row.update(agrees=not diff, payments=result["payments"])
                if diff:
                    row["error"] = "; ".join(diff)
                    text = f"{name}: {m.id}: DIFFERS: {row['error']}"
                else:
                    agree += 1
                    how = "drawn" if m.huang else f"player {m.winner} wins, {m.fan} fans"
                    text = f"{name}: {m.id}: agrees ({how}; payments {' '.join(map(str, result['payments']))})"
            out.write((orjson.dumps(row).decode() if args.json else text) + "\n")
    if not args.json:
        out.write(f"{agree} of {hands} hands agree\n")
    return 0 if agree == hands else 1
