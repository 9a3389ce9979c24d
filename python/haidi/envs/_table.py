"""What the Gymnasium and PettingZoo environments share, without importing either: the
checks of their arguments, the built-in agents stepped one decision at a time, and the
arrays a seat is shown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from .._core import HandError
from .._errors import shown
from ..game import AGENTS, Game, _given
from ..ruleset import ruleset

__all__ = ["AGENTS", "InPlay", "Probe", "agent_action", "read_agents", "read_seat", "shown_text", "space_of"]

#: The largest seed a hand is dealt from (``Game`` takes an unsigned 64-bit seed; numpy's
#: generators draw below 2**63 as an int64).
SEED_LIMIT = 2**63


def read_seat(seat: Any, what: str = "seat") -> int:
    """``seat`` as an int from 0 to 3 (seat 0 the dealer); ``HandError`` otherwise."""
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= int(seat) <= 3:
        raise HandError(f"{what} is a seat from 0 to 3 (0 the dealer), not {shown(seat)}")
    return int(seat)


def read_agents(agents: Any, count: int, what: str) -> tuple[str, ...]:
    """``agents`` as ``count`` built-in agent names (one name is all of them)."""
    names = [agents] if isinstance(agents, str) else agents
    if not isinstance(names, Sequence) or len(names) not in (1, count):
        raise HandError(f"{what} is one agent name or {count}, not {shown(agents)}")
    for a in names:
        if a not in AGENTS:
            raise HandError(f"{what}: an agent is one of {', '.join(map(repr, AGENTS))}, not {shown(a)}")
    return tuple(names) * (count // len(names))


def agent_action(game: Game, seat: int, agent: str, rng: np.random.Generator) -> int | dict[str, str]:
    """What built-in ``agent`` plays at ``seat`` now: ``greedy`` is ``simulate``'s own
    (in Rust), ``random`` an id drawn uniformly from the legal ones with ``rng``."""
    if agent == "greedy":
        action = game._greedy(seat)
        if action is None:
            raise HandError(f"seat {seat} is not to act")
        return action
    ids = np.flatnonzero(game.legal_mask(seat))
    return int(ids[rng.integers(len(ids))])


class Probe:
    """A ruleset's sizes for the spaces: the number of action ids and the shape of an
    observation of ``version``, read from a hand dealt once (bad ``rules``, ``options`` or
    ``version`` raise ``HandError`` here, before any space is built)."""

    def __init__(self, rules: Any, options: Mapping[str, Any] | None, version: Any) -> None:
        if not isinstance(rules, str):
            raise HandError(f"rules is a ruleset name, not {shown(rules)}")
        if not isinstance(version, str):
            raise HandError(f"version is an observation version name such as 'v1', not {shown(version)}")
        self.rules = ruleset(rules).name
        # Read as Game reads them: a dict, or None (a HandError for anything else).
        self.options = _given(options) if options is not None else None
        self.version = version
        game = Game(self.rules, 0, self.options)
        self.shape: tuple[int, ...] = game.observation_array(0, version=version).shape
        self.actions: int = len(game.ruleset.actions)


def read_seed(seed: Any) -> int | None:
    """A reset's seed as Game reads one: None, or an int from 0 to 2**64 - 1 (numpy's
    too); anything else a ``HandError``, before gymnasium's or PettingZoo's own check
    raises its error (or takes a seed Game refuses)."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise HandError(f"seed must be an int from 0 to 2**64 - 1, not {shown(seed)}")
    return int(seed)


class InPlay:
    """What both environments say of their hand: the ruleset and the ``haidi.Game``."""

    _probe: Probe
    _game: Game | None

    @property
    def rules(self) -> str:
        """The ruleset played."""
        return self._probe.rules

    @property
    def game(self) -> Game:
        """The hand in play (``haidi.Game``: its log, result and observation dict)."""
        if self._game is None:
            raise HandError("the environment has no hand yet: call reset() first")
        return self._game


def space_of(probe: Probe) -> spaces.Dict:
    """The space of an observation dict: its planes, counts and flags in ``uint8``, and its
    mask, 0 or 1 in ``int8`` (what ``Discrete.sample(mask=...)`` takes)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0, 255, probe.shape, np.uint8),
            "action_mask": spaces.Box(0, 1, (probe.actions,), np.int8),
        }
    )


def observed(game: Game, seat: int, version: str, acting: bool) -> dict[str, NDArray[Any]]:
    """The observation dict of ``seat``: its planes, and its mask (all zeros when it is not
    to act)."""
    planes = game.observation_array(seat, version=version)
    if acting:
        mask = game.legal_mask(seat).astype(np.int8)
    else:
        mask = np.zeros(len(game.ruleset.actions), dtype=np.int8)
    return {"observation": planes, "action_mask": mask}


def shown_text(game: Game, seat: int) -> str:
    """A few lines of what ``seat`` sees, for ``render_mode="ansi"``."""
    o = game.observation(seat)
    lines = [
        f"{game.ruleset.name} seat {seat} ({'ESWN'[seat]}), round {o['round_wind']}, wall {o['wall']}, "
        f"decision {o['decision']}, to act {o['to_act']}",
        f"hand {o['hand']}" + (f" drawn {o['drawn']}" if o.get("drawn") else ""),
    ]
    if o.get("offer"):
        lines.append(f"on offer {o['offer']}")
    for s in range(4):
        melds = " ".join(str(m) for m in o["melds"][s])
        lines.append(f"  seat {s}: discards {''.join(o['discards'][s])} melds {melds}")
    return "\n".join(lines) + "\n"
