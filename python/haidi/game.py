"""``haidi.Game``: one hand in play under a ruleset; ``haidi.simulate``: many at once.

The state machine is in Rust (``haidi._core.Game``, src/game/); wins are judged there by
the ruleset's own scorer, so that a legal ``win`` always scores. This module adds what
the ruleset's Python does: ``evaluate`` for each win and ``settle`` for the payments,
through the ruleset module's ``GAME`` (its flow rules) and ``game_outcome`` (the record
of a played hand as its ``settle`` reads it). docs/game.md has the rules modelled.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from . import _core
from ._core import HandError
from ._errors import flag, shown
from .ruleset import Ruleset, ruleset
from .rulesets import GameRules, _carry

__all__ = ["AGENTS", "Game", "simulate"]

#: Seat winds by seat, seat 0 the dealer.
_WINDS = "ESWN"


def game_rules(rs: Ruleset[Any]) -> GameRules:
    """The ruleset's ``GAME``; ``HandError`` for a ruleset that has none."""
    game: GameRules | None = getattr(rs.module, "GAME", None)
    if game is None:
        raise HandError(f"{rs.name} has no game rules (GAME) yet")
    return game


def flow_rules(rs: Ruleset[Any], round_wind: str = "E", options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The dict ``_core.Game`` takes: the ruleset's tile set, its ``GAME`` rules (those of
    the ``variant`` the options name, read before) and the prevailing wind."""
    variant = (options or {}).get("variant")
    return dict(_flow_rules(rs, round_wind, variant if isinstance(variant, str) else None))


@functools.lru_cache(maxsize=64)
def _flow_rules(rs: Ruleset[Any], round_wind: str, variant: str | None) -> dict[str, Any]:
    # Built once per ruleset, wind and variant: a hand of `Game` would otherwise spend
    # more on building it than on its first steps.
    game = game_rules(rs)
    flow = game.flow(variant)
    spec = rs.spec
    flowers = spec.flowers if game.flowers else ""
    wind = _WINDS.index(round_wind)
    flow.update(name=spec.name, melds=spec.melds, tiles=spec.tiles, flowers=flowers, round_wind=wind)
    return flow


def read_carry(rs: Ruleset[Any], carry: Any) -> dict[str, Any]:
    """``carry`` checked against the ruleset's keys (None: a match's first hand)."""
    return _carry.read(carry, game_rules(rs).carry)


def next_carry(rs: Ruleset[Any], carry: Mapping[str, Any], record: Mapping[str, Any]) -> dict[str, Any]:
    """The carry of the hand after the one of ``record``, by the ruleset's ``next_carry``
    (the common rule without one)."""
    rule = getattr(rs.module, "next_carry", _carry.common)
    return dict(rule(carry, record))


def _given(options: Any) -> dict[str, Any]:
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise HandError(f"options must be a dict, not {type(options).__name__}")
    return dict(options)


class Game(_core.Game):
    """One hand of ``rules`` (a ruleset name), the wall shuffled from ``seed``; seat 0 is
    the dealer (East), seats follow in turn order.

    ``to_act`` lists the seats whose decision is awaited; ``legal_actions(seat)`` their
    actions as dicts (``{"type": "discard", "tile": "5m"}``, ``{"type": "chow", "tile":
    "3m"}`` naming the chow's lowest tile, ``{"type": "pung"}``, ``{"type": "kong"}``,
    ``{"type": "concealed_kong", "tile": ...}``, ``{"type": "added_kong", "tile": ...}``,
    ``{"type": "win"}``, ``{"type": "pass"}``, ``{"type": "take"}`` for the 海底 tile,
    ``{"type": "open_ready", "tile": ...}`` for a discard laying the hand open, 明听);
    ``step(seat, action)`` plays one (anything else raises ``HandError`` naming it); it
    takes an id of ``haidi.ruleset(rules).actions`` too, and ``legal_mask(seat)`` gives
    the legal ids (docs/learning.md). ``observation(seat)`` is what the seat may know,
    and nothing more; ``observation_array(seat, version)`` the same as numbers.
    When ``done``, ``result`` has the ``payments`` and the ``wins``. ``wall`` (tile
    names in drawing order, the whole tile set once) deals that wall instead of a
    shuffled one: draws take its front, replacements its end (docs/game.md). ``carry``:
    what the hand before handed on (``result["next"]`` of it): the dealer's table
    position, the 连庄 streak, the prevailing wind and the ruleset's own counts; None for
    a match's first hand. ``kept``: tiles left in the wall when the hand is drawn, in
    place of the ruleset's (its ``GAME.kept``): a given wall replayed from a table that
    ended its hands with tiles still in the wall (Botzone's judge, docs/learning.md).
    ``ask_every_seat``: every other seat is asked about each tile offered, one with no
    claim to pass, so that who is asked tells nothing of the hands (the environments
    where each seat is its own agent play so; docs/learning.md).
    """

    _ruleset: Ruleset[Any]
    _options: dict[str, Any]
    _carry: dict[str, Any]
    _seeded: bool
    _kept: int | None
    _ask_every_seat: bool
    _result: dict[str, Any] | None

    def __new__(
        cls,
        rules: str,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        *,
        wall: Sequence[str] | None = None,
        carry: Mapping[str, Any] | None = None,
        kept: int | None = None,
        ask_every_seat: bool = False,
    ) -> Game:
        rs = ruleset(rules)
        given = _given(options)
        carried = read_carry(rs, carry)
        scorer = rs.scorer_for(given or None)
        flow = flow_rules(rs, carried["round_wind"], given)
        if kept is not None:
            # Checked by the flow rules' reader as the ruleset's own `kept` is.
            flow["kept"] = kept
        if ask_every_seat is not False:
            flow["ask_every_seat"] = ask_every_seat  # (the reader refuses a value not a bool)
        if wall is not None and not (isinstance(seed, int) and not isinstance(seed, bool) and seed == 0):
            raise HandError(f"a hand is dealt from a seed or from a given wall, not both (seed {shown(seed)})")
        self = super().__new__(cls, flow, scorer, seed, wall, carried["streak"])
        self._ruleset = rs
        # The options given, as read (numpy's scalars as Python's): the log is JSON-ready.
        read = rs.options(given)
        self._options = {k: read[k] for k, v in given.items() if v is not None}
        self._carry = carried
        self._seeded = wall is None
        self._kept = kept
        self._ask_every_seat = ask_every_seat
        self._result = None
        return self

    def __init__(
        self,
        rules: str,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        *,
        wall: Sequence[str] | None = None,
        carry: Mapping[str, Any] | None = None,
        kept: int | None = None,
        ask_every_seat: bool = False,
    ) -> None:
        # Everything is done by __new__ (the Rust state is made there).
        pass

    @property
    def ruleset(self) -> Ruleset[Any]:
        """The ruleset played."""
        return self._ruleset

    @property
    def carry(self) -> dict[str, Any]:
        """What the hand before handed on to this one (``Game(carry=...)``, completed)."""
        return dict(self._carry)

    @property
    def result(self) -> dict[str, Any] | None:
        """None until the hand is over; then ``payments`` (four amounts by seat, summing
        to zero, from the ruleset's ``settle``), ``wins`` (each ``seat``, the
        ``situation`` given to ``evaluate`` and the ``score`` it returned), ``exhausted``
        (nobody won), ``outcome`` (the record given to ``settle``, or None when nothing
        is paid) and ``next``, the carry of the next hand (``Game(carry=...)``)."""
        if not self.done:
            return None
        if self._result is None:
            record = self._record()
            self._result = _result(self._ruleset, record, self._options, self._carry)
            self._result["next"] = next_carry(self._ruleset, self._carry, record)
        return self._result

    @property
    def log(self) -> list[dict[str, Any]]:
        """The events of the hand as JSON-ready dicts: ``start`` (rules, seed, options,
        the carry, the wall), then ``deal``, ``draw``, ``flower``, ``indicator``, ``action``,
        ``claim``, ``win`` and ``end``. ``Game.replay(log)`` plays it again."""
        start = {
            "event": "start",
            "rules": self._ruleset.name,
            "seed": self.seed if self._seeded else None,
            # As JSON gives them back (a list for a tuple read), so that a log read from
            # JSON replays equal to itself.
            "options": {k: list(v) if isinstance(v, tuple) else v for k, v in self._options.items()},
            "carry": dict(self._carry),
            "wall": self.wall,
        }
        if self._kept is not None:
            start["kept"] = self._kept
        if self._ask_every_seat:
            start["ask_every_seat"] = True
        return [start, *self._events()]

    @classmethod
    def replay(cls, log: Sequence[Mapping[str, Any]]) -> Game:
        """Plays the actions of a log again; the game must reach the same events (the
        same draws, claims, wins and end), else ``HandError`` names the first that differs."""
        return cls._replay(log, None)

    @classmethod
    def _replay(cls, log: Sequence[Mapping[str, Any]], watch: Callable[[Game, int, Any], None] | None) -> Game:
        """``replay``, with ``watch(game, seat, action)`` called before each action is
        played (on a seat and an action dict read from the log, not yet checked as legal):
        what records a game's decisions as it is played again."""
        if isinstance(log, (str, bytes, Mapping)) or not isinstance(log, Sequence) or not log:
            raise HandError("a log is a non-empty list of events, the first the start")
        start = log[0]
        if not isinstance(start, Mapping) or start.get("event") != "start":
            raise HandError("a log starts with its start event")
        rules, seed, options = start.get("rules"), start.get("seed"), start.get("options") or None
        carry, kept = start.get("carry"), start.get("kept")
        every = start.get("ask_every_seat", False)
        if seed is None:
            if start.get("wall") is None:
                raise HandError("log: the start event gives neither a seed nor a wall to deal from")
            g = cls(rules, 0, options, wall=start.get("wall"), carry=carry, kept=kept, ask_every_seat=every)  # type: ignore[arg-type]
        else:
            g = cls(rules, seed, options, carry=carry, kept=kept, ask_every_seat=every)  # type: ignore[arg-type]
            # The log's wall is read as Game(wall=...) reads one, then compared.
            if "wall" in start and cls(rules, 0, options, wall=start["wall"]).wall != g.wall:  # type: ignore[arg-type]
                raise HandError("log: the wall differs from the one the seed shuffles")
        for i, e in enumerate(log[1:], 1):
            if not isinstance(e, Mapping):
                raise HandError(f"log event {i} is not a dict")
            if e.get("event") == "action":
                seat, action = e.get("seat"), e.get("action")
                if watch is not None:
                    # A logged action is the dict Game logs (the final comparison says so).
                    if type(seat) is not int or not 0 <= seat < 4 or not isinstance(action, Mapping):
                        raise HandError(f"log event {i}: an action event has a seat (0-3) and an action dict")
                    watch(g, seat, action)
                try:
                    g.step(seat, action)  # type: ignore[arg-type]
                except HandError as err:
                    raise HandError(f"log event {i}: {err}") from None
        mine = g.log
        for i, (a, b) in enumerate(zip(mine, log, strict=False)):
            if a != b and (a := dict(a)) != (b := dict(b)):  # (a Mapping that is no dict)
                # Named by its keys that differ: a start event holds the whole wall.
                keys = [k for k in {**b, **a} if k not in a or k not in b or a[k] != b[k]]
                said = "; ".join(f"{shown(k)}: {_logged(b, k)} logged, {_logged(a, k)} replayed" for k in keys[:3])
                raise HandError(f"log event {i} ({shown(b.get('event'))}) differs in the replay: {said}")
        if len(mine) != len(log):
            raise HandError(f"the log has {len(log)} events, the replay {len(mine)}")
        return g

    def __reduce__(self) -> Any:
        return (_from_log, (self.log,))


def _logged(event: Mapping[str, Any], key: str) -> str:
    """The value of ``key`` in a log event, as a message shows it."""
    return shown(event[key], 200) if key in event else "none"


def _from_log(log: list[dict[str, Any]]) -> Game:
    return Game.replay(log)


def _result(rs: Ruleset[Any], record: dict[str, Any], options: dict[str, Any], carry: dict[str, Any]) -> dict[str, Any]:
    # The carry reaches `settle` through the record (Hainan's dealer_streak, Beijing's floor).
    record["carry"] = carry
    wins = []
    for w in record["wins"]:
        situation = dict(w["situation"])
        if options:
            situation["options"] = options
        wins.append({"seat": w["seat"], "situation": situation, "score": rs.evaluate(**situation)})
    outcome = rs.module.game_outcome(record, wins, options)
    payments = rs.settle(outcome) if outcome is not None else [0, 0, 0, 0]
    return {"payments": payments, "wins": wins, "exhausted": record["exhausted"], "outcome": outcome}


#: The built-in agents, by name: ``simulate``'s ``agents`` and ``haidi play --bots``.
AGENTS = ("random", "greedy")


def _agents(agents: Any) -> list[str]:
    """``agents`` as the four agents of players 0 to 3 (one name is every player's)."""
    names = [agents] if isinstance(agents, str) else agents
    if not isinstance(names, Sequence) or len(names) not in (1, 4):
        raise HandError(f"agents is one agent name or four (players 0 to 3), not {shown(agents)}")
    for a in names:
        if a not in AGENTS:
            raise HandError(f"agents must be 'random' or 'greedy' (or a list of four of them), not {shown(a)}")
    return list(names) * (4 // len(names))


def _fan_columns(rs: Ruleset[Any], scorer: Any) -> tuple[Any, ...]:
    """The pattern ids of the ``fans`` columns: the scorer's (options may add some)."""
    return tuple(scorer.fan_ids)


def simulate(
    rules: str,
    games: int,
    seed: int = 0,
    agents: str | Sequence[str] = "random",
    options: Mapping[str, Any] | None = None,
    *,
    duplicate: bool = False,
) -> dict[str, Any]:
    """Plays ``games`` whole hands of ``rules`` with built-in agents, in Rust on every core
    (the GIL released), hand ``i`` dealt from a seed of its own (``haidi.Game(rules,
    seed=seeds[i])`` deals it again).

    ``agents``: ``"random"`` (a legal action chosen uniformly) or ``"greedy"`` (wins when it
    may, else discards by shanten and useful tiles, claims nothing), or a list of four,
    the agents of players 0 to 3. ``duplicate=True``: each wall is played four times,
    once per seat rotation (``games`` a multiple of 4): hand ``i`` deals wall ``i // 4``
    with player ``p`` at seat ``(p + i) % 4`` (docs/game.md).

    Returns numpy arrays of one row a hand: ``payments`` (n x 4 by seat, from the
    ruleset's ``settle``: the hands that pay are settled in Python after the play, see
    docs/game.md), ``players`` (n x 4, the player at each seat), ``player_payments`` (n x
    4 by player), ``winner`` (the first winner's seat, -1 none), ``wins`` (winners),
    ``discarder`` (-1: self-drawn or none), ``self_drawn``, ``total`` (the first win's
    total), ``fans`` (n x ``len(fan_ids)``, the counts of the first win's patterns),
    ``turns`` (discards made), ``exhausted`` and ``seeds`` (the wall's seed); and
    ``fan_ids``, the pattern of each ``fans`` column.
    """
    rs = ruleset(rules)
    given = _given(options)
    names = _agents(agents)
    duplicate = flag(duplicate, "duplicate")
    scorer = rs.scorer_for(given or None)
    carry = read_carry(rs, None)
    out = _core.simulate(flow_rules(rs, options=given), scorer, games, seed, names, duplicate)
    n = len(out["winner"])
    fan_ids = _fan_columns(rs, scorer)
    column = {f: k for k, f in enumerate(fan_ids)}
    payments = np.zeros((n, 4), dtype=np.int64)
    fans = np.zeros((n, len(fan_ids)), dtype=np.uint8)
    for i, record in out.pop("records"):
        result = _result(rs, record, given, carry)
        payments[i] = result["payments"]
        if result["wins"]:
            for fan in result["wins"][0]["score"]["fans"]:
                fans[i, column[fan["id"]]] = fan["count"]
    rotation = np.arange(n) % 4 if duplicate else np.zeros(n, dtype=np.int64)
    # Player p sits at seat (p + rotation) % 4, so seat s holds player (s - rotation) % 4.
    players = ((np.arange(4)[None, :] - rotation[:, None]) % 4).astype(np.int8)
    player_payments = np.zeros_like(payments)
    np.put_along_axis(player_payments, players.astype(np.intp), payments, axis=1)
    out.update(payments=payments, players=players, player_payments=player_payments, fans=fans, fan_ids=fan_ids)
    return out
