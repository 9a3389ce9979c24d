"""A PettingZoo AEC environment per ruleset: four agents play one hand, seat by seat
(docs/learning.md, "Gymnasium and PettingZoo").

It follows PettingZoo's classic games: each observation is a dict of ``observation`` and
``action_mask`` (all zeros for an agent not selected), agents ``player_0`` to
``player_3`` sit at seats 0 to 3 (seat 0 the dealer), and every agent is rewarded once,
when the hand ends, with its payment from the ruleset's ``settle``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._core import HandError
from .._errors import shown
from ..game import Game
from ._table import SEED_LIMIT, InPlay, Probe, observed, read_seed, shown_text, space_of

__all__ = ["AGENT_NAMES", "HaidiAECEnv", "env", "raw_env"]

#: The agents, by seat.
AGENT_NAMES = ("player_0", "player_1", "player_2", "player_3")

Observation = dict[str, NDArray[Any]]


class HaidiAECEnv(InPlay, AECEnv[str, Observation, Any]):
    """One hand of ``rules`` a reset, every seat an agent.

    Args:
        rules: the ruleset's name (``haidi.RULESETS``).
        options: the ruleset's options, as ``haidi.Game`` takes them.
        version: the observation encoding (``Game.observation_array``).
        render_mode: None or ``"ansi"`` (what the selected agent sees, as text).

    The selected agent is the first seat whose decision is awaited. Each tile offered (a
    discard, a kong that may be robbed, the 海底 tile shown) is offered to every other
    seat in turn, a seat with no claim having only ``pass`` in its mask, and the
    ruleset's priority settles the claims once all have answered: who is selected tells
    nothing of the hands (``Game(..., ask_every_seat=True)``). An id outside its mask
    raises ``HandError`` (PettingZoo's ``TerminateIllegalWrapper`` ends the hand
    instead, if that is wanted). ``infos[agent]["payments"]`` has the four
    payments when the hand ends; ``game`` is the ``haidi.Game`` in play.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        rules: str = "mcr",
        *,
        options: Mapping[str, Any] | None = None,
        version: str = "v1",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self._probe = Probe(rules, options, version)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise HandError(f"render_mode is None or 'ansi', not {shown(render_mode)}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"haidi_{self._probe.rules}_v0"}
        self.possible_agents = list(AGENT_NAMES)
        self.agents: list[str] = []
        self.observation_spaces = {a: space_of(self._probe) for a in AGENT_NAMES}
        self.action_spaces = {a: spaces.Discrete(self._probe.actions) for a in AGENT_NAMES}
        self._np_random, _ = seeding.np_random(None)
        self._game: Game | None = None
        self.agent_selection: str = AGENT_NAMES[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deals a new hand, from ``seed``'s generator (a generator kept across resets
        without one). ``options`` are not read: PettingZoo's own API test passes some of
        its own, and an environment must take them."""
        seed = read_seed(seed)
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        seed = int(self._np_random.integers(SEED_LIMIT))
        # Every seat is asked about each tile offered, so that the agent selected tells
        # nothing of the hands (docs/learning.md).
        self._game = Game(self._probe.rules, seed, self._probe.options, ask_every_seat=True)
        self.agents = list(AGENT_NAMES)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> Observation:
        seat = self._seat(agent)
        game = self.game
        acting = not game.done and agent == self.agent_selection
        return observed(game, seat, self._probe.version, acting)

    def step(self, action: Any) -> None:
        """Plays ``action`` (an id of the selected agent's mask)."""
        game = self.game  # (a HandError before the first reset)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat(agent)
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise HandError(f"{agent}'s action is an id from 0 to {self._probe.actions - 1}, not {shown(action)}")
        self._cumulative_rewards[agent] = 0.0
        game.step(seat, int(action))
        if game.done:
            result = game.result
            assert result is not None
            payments = [float(p) for p in result["payments"]]
            for s, a in enumerate(AGENT_NAMES):
                self.rewards[a] = payments[s]
                self.terminations[a] = True
                self.infos[a] = {"payments": np.asarray(payments)}
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """What the selected agent sees, as text, under ``render_mode="ansi"``."""
        if self.render_mode != "ansi" or self._game is None or not self.agents:
            return None
        return shown_text(self._game, self._seat(self.agent_selection))

    def close(self) -> None:
        pass

    def _select(self) -> None:
        # Once the hand is over, the agent who acted last stays selected: the dead agents
        # are then stepped off by `_was_dead_step` in PettingZoo's order.
        game = self.game
        if not game.done:
            self.agent_selection = AGENT_NAMES[game.to_act[0]]

    @staticmethod
    def _seat(agent: Any) -> int:
        if agent not in AGENT_NAMES:
            raise HandError(f"an agent is one of {', '.join(AGENT_NAMES)}, not {shown(agent)}")
        return AGENT_NAMES.index(agent)


def raw_env(rules: str = "mcr", **kwargs: Any) -> HaidiAECEnv:
    """The environment of ``rules`` unwrapped (``HaidiAECEnv``'s arguments)."""
    return HaidiAECEnv(rules, **kwargs)


def env(rules: str = "mcr", **kwargs: Any) -> Any:
    """The environment of ``rules`` with PettingZoo's check of the order of calls, as
    the classic games are made. (Not its bounds check, which raises ``AssertionError``:
    the environment refuses an id outside the mask with ``HandError`` itself.)"""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, **kwargs))
