"""Matches between bots (``haidi play``) and the check of their logs (``haidi replay``).

A match plays hands of ``haidi.Game`` with a player at each seat: a built-in agent
(``random``, ``greedy``) or a bot program, a shell command spoken to over its standard
input and output, in haidi's JSON-lines protocol or, for MCR, in Botzone's Chinese
Standard Mahjong protocol. docs/game.md ("Matches between bots") is the reference.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import random
import re
import secrets
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import IO, Any

import orjson

from . import _core, _stream
from ._core import HandError
from ._errors import hand_error, json_spelling, shown
from ._procs import MAX_ANSWER, MAX_STDERR, Fault, Program, StderrSink, report
from ._procs import printable as _printable_as
from .game import AGENTS, Game, read_carry

__all__ = [
    "MAX_ANSWER",
    "MAX_DATA",
    "MAX_HISTORY",
    "MAX_RESPONSE",
    "MAX_STDERR",
    "Fault",
    "Match",
    "MatchLog",
    "Program",
    "report",
]

#: The most characters of a bot's answer that a fault quotes.
MAX_QUOTED = 80

#: The longest Botzone ``response`` string (the longest a judge reads, ``CHI W2 W3``, is 9).
MAX_RESPONSE = 256

#: The longest Botzone ``data`` or ``globaldata`` a bot may keep (``--max-data``).
MAX_DATA = 256 << 10

#: The longest history written to a Botzone program a turn (``--max-history``).
MAX_HISTORY = 4 << 20


def quoted(text: str) -> str:
    """A bot's answer as a fault quotes it: a JSON string (the protocols' language, as the
    fault's default action is written), cut to ``MAX_QUOTED`` characters."""
    return printable(orjson.dumps(text[:MAX_QUOTED]).decode()) + ("..." if len(text) > MAX_QUOTED else "")


def read_answer(text: str) -> Any:
    """A bot's answer read as JSON, as the command reads its own lines: nested at most
    ``cli.MAX_DEPTH`` deep, and a key given twice in one object is a fault (orjson would
    keep the last without a word, so that ``{"type": "pass", "type": "discard"}`` played a
    discard)."""
    from .cli import _json  # the command's reader (cli imports this module)

    try:
        return _json(text, "the answer")
    except HandError as e:
        raise Fault(f"answered {quoted(text)}: {e}") from None
    except ValueError:
        raise Fault(f"answered {quoted(text)}, which is not JSON") from None


def printable(json_text: str) -> str:
    """JSON text as a fault line quotes it (``_procs.printable``), each character Python
    does not print written as its ``\\u`` escape: still the same JSON."""
    return _printable_as(json_text, lambda c: json.dumps(c)[1:-1])


#: What a Botzone bot prints after its response to be kept running (Botzone's 长时运行).
KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"

PROTOCOLS = ("json", "botzone")

#: The largest match seed: a key of BLAKE2b (32 bytes).
MAX_SEED = (1 << 256) - 1


def read_match_seed(text: object) -> int | None:
    """A match seed written as text (a header's, the command's ``--seed``): ASCII digits
    (``str.isdigit`` and ``int()`` also take ``'²'``, ``'１'`` and ``'1_0'``) of a number
    from 0 to ``MAX_SEED``; None for anything else."""
    if not isinstance(text, str) or not re.fullmatch(r"[0-9]{1,78}", text):
        return None
    n = int(text)
    return n if n <= MAX_SEED else None


def seating(player: int, hand: int, duplicate: bool, dealer: int = 0) -> int:
    """The seat of ``player`` in ``hand`` when the player at table position ``dealer``
    deals (the carry's ``dealer``): ``(player - dealer) % 4``, seat 0 the dealer; in
    duplicate play the table is turned by ``hand % 4`` more, so that the four hands of a
    wall put each player at each seat."""
    return (player + (hand if duplicate else 0) - dealer) % 4


def match_seed() -> int:
    """A match seed no one can guess: 128 bits from the system's secure source."""
    return secrets.randbits(128)


def wall_seed(seed: int, hand: int, duplicate: bool) -> int:
    """The seed of the wall of ``hand`` (``Game(seed=...)``): BLAKE2b keyed with the match
    ``seed`` over the wall's number (``hand // 4`` in duplicate play), its first 8 bytes.
    The hash is one-way: the walls of a match, and every hand's seed, tell nothing of the
    match seed, so no hand's seed is known before it is dealt unless the match seed is."""
    if not 0 <= seed <= MAX_SEED:
        raise HandError(f"a match seed is an integer from 0 to 2**256 - 1, not {seed}")
    wall = hand // 4 if duplicate else hand
    key = seed.to_bytes(32, "little")
    h = hashlib.blake2b(wall.to_bytes(8, "little"), digest_size=8, key=key, person=b"haidi wall")
    return int.from_bytes(h.digest(), "little")


def default_action(game: Game, seat: int) -> dict[str, str]:
    """What a seat plays when its bot gives no legal answer: ``pass`` where it may pass,
    else the discard of the tile it just drew where it may, else its first legal action
    (the discard of its lowest tile)."""
    legal = game.legal_actions(seat)
    if {"type": "pass"} in legal:
        return {"type": "pass"}
    drawn = drawn_tile(game._events(), seat)
    if drawn is not None and {"type": "discard", "tile": drawn} in legal:
        return {"type": "discard", "tile": drawn}
    return legal[0]


def drawn_tile(events: Sequence[Mapping[str, Any]], seat: int) -> str | None:
    """The tile ``seat`` drew for the move it is to make (the dealer's first: the tile
    dealt to it last, or the replacement of a flower), or None after a claim."""
    for e in reversed(events):
        if e["event"] in ("action", "claim"):
            return None
        if e.get("seat") != seat:
            continue
        if e["event"] == "draw" and not e["tile"].endswith("f"):
            return str(e["tile"])
        if e["event"] == "deal":
            return str(e["tiles"][-1])
    return None


@dataclass
class Player:
    """A player of the match: a built-in agent or a bot program."""

    name: str
    number: int
    payments: int = 0
    wins: int = 0
    faults: int = 0
    #: Why the bot is stopped now (its seat plays the default), or None.
    stopped: str | None = None
    #: Each time the bot was stopped: ``{"hand", "seat", "fault"}``. A bot of the JSON-lines
    #: protocol is stopped for the rest of the match; a Botzone bot is started again the
    #: next hand, so it may be stopped once a hand.
    stops: list[dict[str, Any]] = field(default_factory=list)
    #: Where the bot's standard error goes (a bot program's).
    stderr: StderrSink | None = None

    def begin(self, hand: int, seat: int) -> None:
        """A hand begins with this player at ``seat``."""

    def decide(self, game: Game, seat: int, hand: int) -> dict[str, str]:
        raise NotImplementedError

    def close(self) -> None:
        """The match is over."""


@dataclass
class Builtin(Player):
    """``random`` (a legal action chosen uniformly, from a generator seeded by the match's
    seed and the player) or ``greedy`` (the agent of ``simulate``)."""

    rng: random.Random = field(default_factory=random.Random)

    def decide(self, game: Game, seat: int, hand: int) -> dict[str, str]:
        if self.name == "greedy":
            action = game._greedy(seat)
            assert action is not None
            return action
        return self.rng.choice(game.legal_actions(seat))


@dataclass
class LineBot(Player):
    """A bot program in the JSON-lines protocol: one request a line, one action a line.
    With ``restart``, the program is started afresh for each hand (and a bot stopped in
    one hand plays the next); else it is kept for the match."""

    program: Program | None = None
    restart: bool = False

    def begin(self, hand: int, seat: int) -> None:
        if self.restart and self.program is not None:
            self.program.stop()
            self.stopped = None

    def decide(self, game: Game, seat: int, hand: int) -> dict[str, str]:
        assert self.program is not None
        if self.program.proc is None:
            self.program.start()
        request = {"hand": hand, "seat": seat, "rules": game.ruleset.name, "observation": game.observation(seat)}
        deadline = time.monotonic() + self.program.timeout
        self.program.send(orjson.dumps(request).decode() + "\n")
        text = self.program.answer(deadline)
        # A bot that answers without reading its requests would fill the pipe.
        self.program.flush(deadline)
        action = read_answer(text)
        if not isinstance(action, dict):
            shown = printable(text[:MAX_QUOTED])
            raise Fault(f'answered {shown}, which is no action (an object such as {{"type": "pass"}})')
        return action

    def close(self) -> None:
        if self.program is not None:
            self.program.stop()


# Botzone's tile names: W 万, B 饼, T 条 with the rank; F1-F4 the winds (East to North);
# J1 中, J2 發, J3 白; H1-H8 the flowers.
_TO_BOTZONE = {
    **{f"{r}{s}": f"{b}{r}" for s, b in (("m", "W"), ("p", "B"), ("s", "T")) for r in range(1, 10)},
    **{f"{r}z": f"F{r}" for r in range(1, 5)},
    "7z": "J1",
    "6z": "J2",
    "5z": "J3",
    **{f"{r}f": f"H{r}" for r in range(1, 9)},
}
_FROM_BOTZONE = {b: t for t, b in _TO_BOTZONE.items()}


def to_botzone(tile: str) -> str:
    """A haidi tile name (``5m``, ``7z``, ``3f``) in Botzone's spelling (``W5``, ``J1``, ``H3``)."""
    return _TO_BOTZONE[tile]


def from_botzone(tile: str) -> str:
    """A Botzone tile name as haidi spells it; ``HandError`` for one that is no tile."""
    try:
        return _FROM_BOTZONE[tile]
    except KeyError:
        raise HandError(f"{quoted(tile[:20])} is no Botzone tile (W1-W9, B1-B9, T1-T9, F1-F4, J1-J3)") from None


@dataclass
class BotzoneBot(Player):
    """A bot program in Botzone's protocol. Each hand is a Botzone match: the program is
    started for a turn with every request and response of the hand before it (JSON or
    simple interaction, ``io``); one that prints ``KEEP_RUNNING`` after its response is
    kept, and given only the new request the next turn (long-running mode). ``globaldata``
    is kept from hand to hand unless ``keep_globaldata`` is false (duplicate play)."""

    command: str = ""
    timeout: float = 5.0
    io: str = "json"
    program: Program | None = None
    requests: list[str] = field(default_factory=list)
    responses: list[str] = field(default_factory=list)
    data: str = ""
    globaldata: str = ""
    keep_globaldata: bool = True
    max_answer: int = MAX_ANSWER
    max_data: int = MAX_DATA
    max_history: int = MAX_HISTORY

    def begin(self, hand: int, seat: int) -> None:
        # A new Botzone match: a new program, even for one stopped in the hand before.
        if self.program is not None:
            self.program.stop()
        self.program = Program(self.command, self.timeout, self.stderr, self.max_answer)
        self.requests, self.responses, self.data = [], [], ""
        if not self.keep_globaldata:
            self.globaldata = ""
        self.stopped = None

    def ask(self, request: str) -> str:
        """The bot's response to one turn's request."""
        assert self.program is not None
        self.requests.append(request)
        deadline = time.monotonic() + self.timeout
        if self.program.running:
            self.program.send((request if self.io == "simple" else orjson.dumps(request).decode()) + "\n")
        else:
            self.program.stop()
            history = self._history()
            if len(history) > self.max_history:
                raise Fault(f"its history would be {len(history):,} bytes, more than {self.max_history:,}", True)
            self.program.start()
            self.program.send(history)
        text = self.program.answer(deadline)
        if len(text) > (self.max_answer if self.io == "json" else MAX_RESPONSE):
            raise Fault(f"answered a response of {len(text):,} characters, more than {MAX_RESPONSE}", True)
        # The history keeps what the bot answered, read or not (Botzone gives it back).
        self.responses.append(text[:MAX_RESPONSE])
        # The rest of the output until the program ends, or asks to be kept running.
        while True:
            rest = self.program.line(deadline)
            if rest is None:
                self.program.stop()
                break
            if rest == KEEP_RUNNING:
                # Kept, it must have read what it was given (a program a turn may answer
                # and end without reading it).
                self.program.flush(deadline)
                break
        if self.io == "json":
            text = self.responses[-1] = self._read_json(text)
        return text

    def _history(self) -> str:
        if self.io == "simple":
            lines = [str(len(self.requests))]
            for req, resp in zip(self.requests, [*self.responses, None], strict=True):
                lines.append(req)
                if resp is not None:
                    lines.append(resp)
            return "\n".join(lines) + "\n"
        history = {"requests": self.requests, "responses": self.responses}
        return orjson.dumps({**history, "data": self.data, "globaldata": self.globaldata}).decode() + "\n"

    def _read_json(self, text: str) -> str:
        out = read_answer(text)
        if not isinstance(out, dict) or not isinstance(out.get("response"), str):
            raise Fault(f"answered {printable(text[:MAX_QUOTED])}, with no response string")
        response = out["response"]
        if len(response) > MAX_RESPONSE:
            raise Fault(f"answered a response of {len(response):,} characters, more than {MAX_RESPONSE}", True)
        for key in ("data", "globaldata"):
            value = out.get(key)
            if isinstance(value, str) and len(value.encode()) > self.max_data:
                raise Fault(f"kept {key} of {len(value.encode()):,} bytes, more than {self.max_data:,}", True)
        self.data = out.get("data", self.data) if isinstance(out.get("data", ""), str) else self.data
        if isinstance(out.get("globaldata"), str):
            self.globaldata = out["globaldata"]
        return str(response)

    def close(self) -> None:
        if self.program is not None:
            self.program.stop()


class BotzoneTurns:
    """Botzone's requests for the events of a hand: each turn four requests, one a seat
    (``3 0 DRAW`` and the like for the others' moves), in the order Botzone's judge
    sends them. ``next(events)`` reads the events not yet read."""

    def __init__(self, quan: int = 0) -> None:
        self.read = 0
        self.quan = quan
        self.melded: dict[int, str] = {}  # seat -> Botzone's word for its pending claim

    def next(self, events: Sequence[Mapping[str, Any]]) -> list[list[str]]:
        turns: list[list[str]] = []
        new = events[self.read :]
        if self.read == 0:
            dealt = 0
            while dealt < len(new) and new[dealt]["event"] in ("deal", "draw", "flower"):
                dealt += 1
            turns += self._deal(new[:dealt])
            new = new[dealt:]
        self.read = len(events)
        for e in new:
            turns += self._turns(e)
        return turns

    def _all(self, text: str) -> list[str]:
        return [text] * 4

    def _deal(self, events: Sequence[Mapping[str, Any]]) -> list[list[str]]:
        hands: list[list[str]] = [[] for _ in range(4)]
        flowers: list[list[str]] = [[] for _ in range(4)]
        for e in events:
            if e["event"] == "deal":
                hands[e["seat"]] += [t for t in e["tiles"] if not t.endswith("f")]
            elif e["event"] == "flower":
                flowers[e["seat"]].append(e["tile"])
            elif e["event"] == "draw" and not e["tile"].endswith("f"):
                hands[e["seat"]].append(e["tile"])
        # Botzone deals 13 tiles a seat and the dealer draws the 14th.
        drawn = drawn_tile(events, 0)
        assert drawn is not None
        hands[0].remove(drawn)
        counts = " ".join(str(len(f)) for f in flowers)
        shown = " ".join(to_botzone(t) for f in flowers for t in f)
        deal = []
        for s in range(4):
            tiles = " ".join(to_botzone(t) for t in hands[s])
            deal.append(" ".join(x for x in ("1", counts, tiles, shown) if x))
        return [[f"0 {s} {self.quan}" for s in range(4)], deal, self._draw(0, drawn)]

    def _draw(self, seat: int, tile: str) -> list[str]:
        return [f"2 {to_botzone(tile)}" if s == seat else f"3 {seat} DRAW" for s in range(4)]

    def _turns(self, e: Mapping[str, Any]) -> list[list[str]]:
        kind, seat = e["event"], int(e.get("seat", -1))
        if kind == "draw":
            if e["tile"].endswith("f"):
                return [self._all(f"3 {seat} BUHUA {to_botzone(e['tile'])}")]
            return [self._draw(seat, e["tile"])]
        if kind == "claim":
            if e["meld"] == "kong":
                return [self._all(f"3 {seat} GANG")]
            if e["meld"] == "chow":
                # "[234s,3]": the middle tile of the chow.
                self.melded[seat] = f"CHI {to_botzone(e['tiles'][2] + e['tiles'][4])}"
            else:
                self.melded[seat] = "PENG"
            return []
        if kind != "action":
            return []
        action = e["action"]
        if action["type"] == "discard":
            word = self.melded.pop(seat, "PLAY")
            return [self._all(f"3 {seat} {word} {to_botzone(action['tile'])}")]
        if action["type"] == "concealed_kong":
            return [self._all(f"3 {seat} GANG")]
        if action["type"] == "added_kong":
            return [self._all(f"3 {seat} BUGANG {to_botzone(action['tile'])}")]
        return []


def botzone_actions(response: str) -> list[dict[str, str]]:
    """A Botzone response as haidi's actions: ``PENG T6`` is a pung and the discard of
    T6, ``CHI T3 W5`` the chow with T3 in its middle and the discard of W5; ``HandError``
    for a response that is none."""
    words = response.split()
    head, args = (words[0], words[1:]) if words else ("", [])
    one = {"PASS": "pass", "HU": "win", "GANG": "kong"}
    if head in one and not args:
        return [{"type": one[head]}]
    if head == "PLAY" and len(args) == 1:
        return [{"type": "discard", "tile": from_botzone(args[0])}]
    if head == "GANG" and len(args) == 1:
        return [{"type": "concealed_kong", "tile": from_botzone(args[0])}]
    if head == "BUGANG" and len(args) == 1:
        return [{"type": "added_kong", "tile": from_botzone(args[0])}]
    if head == "PENG" and len(args) == 1:
        return [{"type": "pung"}, {"type": "discard", "tile": from_botzone(args[0])}]
    if head == "CHI" and len(args) == 2:
        middle = from_botzone(args[0])
        if middle[1] not in "mps" or middle[0] in "19":
            raise HandError(f"CHI {args[0]}: the middle of a chow is a suited 2 to 8")
        low = f"{int(middle[0]) - 1}{middle[1]}"
        return [{"type": "chow", "tile": low}, {"type": "discard", "tile": from_botzone(args[1])}]
    raise HandError(f"{quoted(response)} is no Botzone response")


@dataclass
class Match:
    """A match: ``players`` (four, players 0 to 3), ``hands`` hands of ``rules``, each
    hand dealt with the carry of the one before (``Game(carry=...)``: the dealer, the
    streak, the prevailing wind). In duplicate play the hands of each rotation (hand
    ``i`` with ``i % 4 == r``) are a match of their own, with a carry of their own."""

    rules: str
    players: list[Player]
    #: The match seed (a key of the walls' hash, ``wall_seed``); None draws one at random.
    seed: int | None = None
    options: dict[str, Any] | None = None
    duplicate: bool = False
    protocol: str = "json"
    on_fault: Callable[[dict[str, Any]], None] | None = None
    seat_payments: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    played: int = 0
    #: The carry of the next hand of each rotation (one without duplicate play).
    carries: list[dict[str, Any] | None] = field(default_factory=lambda: [None] * 4)

    def __post_init__(self) -> None:
        if self.seed is None:
            self.seed = match_seed()

    def header(self, asked: int | None = None) -> dict[str, Any]:
        """The first line of the match's log (``MatchLog``): what a replay checks each hand
        against (the rules and their options, the match seed and the seating, the hands
        played, the players' payments); ``asked`` the hands the match was to play."""
        assert self.seed is not None
        options = Game(self.rules, seed=0, options=self.options).log[0]["options"]
        return {
            "event": "match",
            "haidi": _core.__version__,
            "rules": self.rules,
            "options": options,
            "seed": str(self.seed),
            "duplicate": self.duplicate,
            "protocol": self.protocol,
            "hands": self.played,
            "complete": asked is None or self.played == asked,
            "players": [p.name for p in self.players],
            "payments": [p.payments for p in self.players],
        }

    def hands(self, n: int) -> Iterator[Game]:
        """Plays ``n`` hands, each given back when done."""
        try:
            for hand in range(n):
                yield self.play(hand)
        finally:
            for p in self.players:
                p.close()

    def play(self, hand: int) -> Game:
        # The bots speak JSON: the game's messages about their answers quote them as JSON.
        with json_spelling():
            return self._play(hand)

    def _play(self, hand: int) -> Game:
        rotation = hand % 4 if self.duplicate else 0
        assert self.seed is not None
        seed = wall_seed(self.seed, hand, self.duplicate)
        game = Game(self.rules, seed=seed, options=self.options, carry=self.carries[rotation])
        dealer = game.carry["dealer"]
        at = [0] * 4  # the player at each seat
        for p in self.players:
            seat = seating(p.number, hand, self.duplicate, dealer)
            at[seat] = p.number
            p.begin(hand, seat)
        by_seat = [self.players[at[s]] for s in range(4)]
        if self.protocol == "botzone":
            self._botzone(game, by_seat, hand)
        else:
            while not game.done:
                seat = game.to_act[0]
                self._step(game, seat, by_seat[seat], hand, partial(by_seat[seat].decide, game, seat, hand))
        assert game.result is not None
        for s, paid in enumerate(game.result["payments"]):
            self.seat_payments[s] += paid
            by_seat[s].payments += paid
        for w in game.result["wins"]:
            by_seat[w["seat"]].wins += 1
        self.carries[rotation] = game.result["next"]
        self.played += 1
        return game

    def _step(
        self, game: Game, seat: int, player: Player, hand: int, decide: Callable[[], dict[str, str]]
    ) -> dict[str, str] | None:
        """Plays the action ``decide`` gives for ``seat``, or the default when it gives a
        fault or an action that is not legal; returns the action played."""
        fault = None
        if player.stopped is None:
            try:
                action = decide()
                game.step(seat, action)
                return action
            except Fault as f:
                fault = None if f.reported else f
            except HandError as e:
                fault = Fault(str(e))
        action = default_action(game, seat)
        game.step(seat, action)
        if fault is not None:
            self._fault(player, hand, seat, fault, action)
        return action

    def _fault(self, player: Player, hand: int, seat: int, fault: Fault, played: dict[str, str] | None) -> None:
        """Counts and reports a fault (``played``: the default played for it, None where
        the seat had no decision to make); a bot stopped for it is stopped now."""
        fault.reported = True
        player.faults += 1
        if fault.stopped:
            player.stopped = str(fault)
            player.stops.append({"hand": hand, "seat": seat, "fault": str(fault)})
            program = getattr(player, "program", None)
            if program is not None:
                program.stop()
        if self.on_fault is not None:
            self.on_fault(
                {"hand": hand, "seat": seat, "player": player.number, "bot": player.name, "fault": str(fault)}
                | {"played": played, "stopped": fault.stopped}
            )

    def _botzone(self, game: Game, by_seat: list[Player], hand: int) -> None:
        turns = BotzoneTurns("ESWN".index(game.carry["round_wind"]))
        while not game.done:
            answers: dict[int, str | Fault] = {}
            for requests in turns.next(game._events()):
                answers = {}
                for s, p in enumerate(by_seat):
                    if isinstance(p, BotzoneBot) and p.stopped is None:
                        try:
                            answers[s] = p.ask(requests[s])
                        except Fault as f:
                            answers[s] = f
                            self._fault(p, hand, s, f, None)
            follow: dict[int, dict[str, str]] = {}
            for seat in game.to_act:
                player = by_seat[seat]
                if not isinstance(player, BotzoneBot):
                    self._step(game, seat, player, hand, partial(player.decide, game, seat, hand))
                    continue

                parsed: list[dict[str, str]] = []
                played = self._step(game, seat, player, hand, partial(_first_action, answers.get(seat), parsed))
                if played is not None and played["type"] in ("pung", "chow") and len(parsed) > 1:
                    follow[seat] = parsed[1]
            # The discard of a PENG or CHI answer, once the claim is the seat's: only the
            # seat whose claim won is to act now. A claim that lost drops its discard,
            # which must not be read as the seat's answer to the next tile offered.
            if not game.done and len(game.to_act) == 1 and game.to_act[0] in follow:
                seat = game.to_act[0]
                self._step(game, seat, by_seat[seat], hand, partial(_kept, follow[seat]))


def _kept(action: dict[str, str]) -> dict[str, str]:
    """An action decided before (the discard of a Botzone ``PENG`` or ``CHI``)."""
    return action


def _first_action(answer: str | Fault | None, parsed: list[dict[str, str]]) -> dict[str, str]:
    """The first action of a Botzone answer, all of them put in ``parsed``."""
    if answer is None:
        raise Fault("no request was open for the decision")
    if isinstance(answer, Fault):
        raise answer
    parsed += botzone_actions(answer)
    return parsed[0]


def make_players(
    bots: Sequence[str],
    *,
    seed: int = 0,
    timeout: float = 5.0,
    protocol: str = "json",
    io: str = "json",
    restart: bool = False,
    stderr: str = "show",
    stderr_bytes: int = MAX_STDERR,
    max_answer: int = MAX_ANSWER,
    max_data: int = MAX_DATA,
    max_history: int = MAX_HISTORY,
) -> list[Player]:
    """The four players of ``--bots``: a built-in agent's name, or a shell command.

    ``restart``: a bot program is started afresh each hand (Botzone bots always are; with
    ``restart`` their ``globaldata`` is dropped as well). ``stderr``: where a bot's standard
    error goes: ``show`` (haidi's, each line labelled ``[player N]``), ``discard``, or a
    directory for files ``player-N.stderr``; at most ``stderr_bytes`` a player. The
    ``max_`` limits: an answer line, a Botzone ``data`` or ``globaldata``, a Botzone
    history, in bytes; a bot past one is stopped."""
    if len(bots) != 4:
        raise HandError(f"--bots names four players, not {len(bots)}")
    players: list[Player] = []
    for n, bot in enumerate(bots):
        bot = bot.strip()
        if not bot:
            raise HandError(f"--bots: player {n} is empty")
        if bot in AGENTS:
            players.append(Builtin(bot, n, rng=random.Random(f"{seed}:{n}")))
            continue
        sink = _sink(stderr, n, stderr_bytes)
        if protocol == "botzone":
            bz = BotzoneBot(bot, n, command=bot, timeout=timeout, io=io, keep_globaldata=not restart, stderr=sink)
            bz.max_answer, bz.max_data, bz.max_history = max_answer, max_data, max_history
            players.append(bz)
        else:
            program = Program(bot, timeout, sink, max_answer)
            players.append(LineBot(bot, n, program=program, restart=restart, stderr=sink))
    return players


def _sink(where: str, n: int, limit: int) -> StderrSink:
    if where in ("show", "discard"):
        return StderrSink(f"player {n}", where, limit=limit)
    try:
        return StderrSink(f"player {n}", "file", os.path.join(where, f"player-{n}.stderr"), limit)
    except OSError as e:
        raise HandError(f"--bot-stderr: cannot write in {where!r}: {e.strerror or e}") from None


def stderr_notes(players: Sequence[Player]) -> list[str]:
    """Closes the players' standard-error files; a note for each that was cut short."""
    notes = []
    for p in players:
        if p.stderr is not None:
            note = p.stderr.close()
            if note is not None:
                notes.append(note)
    return notes


def read_key(path: str) -> bytes:
    """The key of a log's HMAC from the file ``path`` (its bytes, surrounding white space
    left out); ``HandError`` for an empty or unreadable one."""
    try:
        with open(path, "rb") as f:
            key = f.read(1 << 16).strip()
    except OSError as e:
        raise HandError(f"--key-file: cannot read {path!r}: {e.strerror or e}") from None
    if len(key) < 16:
        raise HandError(f"--key-file: {path!r} holds {len(key)} bytes; a key is 16 bytes or more")
    return key


def _header_bytes(header: Mapping[str, Any]) -> bytes:
    """A match header as its MAC covers it: without ``mac``, keys sorted, one line."""
    return orjson.dumps({k: v for k, v in header.items() if k != "mac"}, option=orjson.OPT_SORT_KEYS) + b"\n"


class MatchLog:
    """The log of a match (``haidi play --log``): its header, then each hand's
    ``Game.log``, a JSON line each. While the match is played the hands go to a file with
    no name (removed as it is made, so that no bot can open it by its path); when it ends,
    the header and the hands are written to a new file beside ``path`` (mode 0600), which
    is then renamed to ``path``. With ``key``, the header carries ``mac``, the
    HMAC-SHA256 of the header without it and every hand line after it."""

    def __init__(self, path: str, key: bytes | None = None) -> None:
        self.path = path
        self.dir = os.path.dirname(os.path.abspath(path))
        self.key = key
        self.hands: IO[bytes] = tempfile.TemporaryFile(dir=self.dir)  # noqa: SIM115

    def add(self, game: Game) -> None:
        self.hands.write(_stream.dumps(game.log) + b"\n")

    def finish(self, header: dict[str, Any]) -> None:
        """Writes the log at ``path``."""
        head = _header_bytes(header)
        if self.key is not None:
            mac = hmac.new(self.key, head, hashlib.sha256)
            self.hands.seek(0)
            while chunk := self.hands.read(1 << 20):
                mac.update(chunk)
            head = orjson.dumps({**header, "mac": mac.hexdigest()}, option=orjson.OPT_SORT_KEYS) + b"\n"
        fd, name = tempfile.mkstemp(dir=self.dir, prefix=f".{os.path.basename(self.path)}.", suffix=".partial")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(head)
                self.hands.seek(0)
                while chunk := self.hands.read(1 << 20):
                    out.write(chunk)
            os.replace(name, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(name)
            raise
        finally:
            self.hands.close()

    def close(self) -> None:
        self.hands.close()


def check_log(log: Any) -> tuple[list[int] | None, str | None]:
    """``Game.replay(log)``: the payments, or why the log is refused."""
    try:
        g = Game.replay(log)
    except HandError as e:
        return None, str(e)
    if g.result is None:
        return None, "the log stops before its hand ends: no payments yet"
    return list(g.result["payments"]), None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class MatchCheck:
    """The checks a match header (``MatchLog``) makes possible, beyond each hand's own
    replay: each hand's rules and options are the header's, its seed is ``wall_seed`` of
    the match seed, its carry follows from the hand before it (of its rotation, in
    duplicate play); the hands are as many as the header says and the players' payments
    add up to its; with ``key``, the header's MAC is the HMAC of the lines."""

    def __init__(self, header: Mapping[str, Any], key: bytes | None = None) -> None:
        from .ruleset import ruleset

        if not isinstance(header, Mapping):
            raise HandError(f"a match header is a dict, not {type(header).__name__}")
        self.header = header
        rules, seed = header.get("rules"), header.get("seed")
        number = read_match_seed(seed)
        if not isinstance(rules, str) or number is None:
            raise HandError("a match header names its rules and its seed (a string of digits below 2**256)")
        self.rs = ruleset(rules)
        self.seed = number
        # Each value is read strictly: one left out or of another type would turn its
        # check off (a header without options let a hand play under others).
        options, duplicate = header.get("options"), header.get("duplicate")
        if not isinstance(options, Mapping):
            raise hand_error("a match header gives its options: a dict ({} for none)", key="options")
        if not isinstance(duplicate, bool):
            raise hand_error(f"a match header's duplicate is true or false, not {shown(duplicate)}", key="duplicate")
        hands, payments, players = header.get("hands"), header.get("payments"), header.get("players")
        if isinstance(hands, bool) or not isinstance(hands, int) or hands < 0:
            raise hand_error(f"a match header counts its hands (an int), not {shown(hands)}", key="hands")
        if not (isinstance(payments, list) and len(payments) == 4 and all(_is_int(x) for x in payments)):
            raise hand_error(f"a match header's payments are four ints, not {shown(payments)}", key="payments")
        if not (isinstance(players, list) and len(players) == 4 and all(isinstance(x, str) for x in players)):
            raise hand_error(f"a match header's players are four names, not {shown(players)}", key="players")
        self.duplicate = duplicate
        self.options = dict(options)
        self.carries: list[dict[str, Any] | None] = [None] * 4
        self.payments = [0, 0, 0, 0]
        self.count = 0
        self.mac = hmac.new(key, _header_bytes(header), hashlib.sha256) if key is not None else None

    def hand(self, raw: bytes, log: Sequence[Mapping[str, Any]], g: Game | None) -> str | None:
        """Checks the next hand (``g`` its replay, None where it failed); why it does not
        belong to the match, or None."""
        i, self.count = self.count, self.count + 1
        if self.mac is not None:
            self.mac.update(raw + b"\n")
        start = log[0]
        rotation = i % 4 if self.duplicate else 0
        expected = {
            "rules": self.rs.name,
            "options": self.options,
            "seed": wall_seed(self.seed, i, self.duplicate),
            "carry": read_carry(self.rs, None) if i == rotation else self.carries[rotation],
        }
        for key, want in expected.items():
            # (None: the hand before did not replay, and its carry is not known.)
            if want is not None and start.get(key) != want:
                return f"match: hand {i + 1}'s {key} is not the one the match header and the hands before it give"
        if g is None or g.result is None:
            self.carries[rotation] = None
            # A match logs only hands played to their end (``haidi play`` keeps none cut short).
            return None if g is None else f"match: hand {i + 1} stops before its end, which no match logs"
        self.carries[rotation] = g.result["next"]
        dealer = start["carry"]["dealer"]
        for p in range(4):
            self.payments[p] += g.result["payments"][seating(p, i, self.duplicate, dealer)]
        return None

    def finish(self) -> list[str]:
        """What is wrong with the match as a whole (an empty list: nothing)."""
        wrong = []
        if self.count != self.header.get("hands"):
            wrong.append(f"match: the header counts {self.header.get('hands')} hands, the log holds {self.count}")
        elif self.header.get("payments") != self.payments:
            wrong.append(f"match: the players' payments add up to {self.payments}, not the header's")
        if self.mac is not None:
            given = self.header.get("mac")
            if not isinstance(given, str):
                wrong.append("match: the header has no mac, and a key was given")
            elif not hmac.compare_digest(given, self.mac.hexdigest()):
                wrong.append("match: the mac does not match: the log was changed, or the key is another")
        return wrong
