"""A Gymnasium environment per ruleset: one learning seat plays a hand against the
built-in agents (docs/learning.md, "Gymnasium and PettingZoo").

Importing this module registers ``haidi/MCR-v0``, ``haidi/Changsha-v0``, ... (one id per
ruleset, ``env_id``), so ``gymnasium.make("haidi.envs:haidi/MCR-v0")`` works without an
import of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from .._core import HandError
from .._errors import finite, shown
from ..game import Game
from ..rulesets import REGISTRY
from ._table import (
    SEED_LIMIT,
    InPlay,
    Probe,
    agent_action,
    observed,
    read_agents,
    read_seat,
    read_seed,
    shown_text,
    space_of,
)

__all__ = ["HaidiEnv", "env_id", "register_envs"]

#: What an illegal id does: ``"end"`` ends the hand (``illegal_reward``), ``"raise"``
#: raises ``HandError``.
ILLEGAL = ("end", "raise")

#: The hands dealt again at most in one ``reset`` when a hand ends before the learning
#: seat has a decision (a win on the dealt hand by another seat).
REDEALS = 100

Observation = dict[str, NDArray[Any]]


class HaidiEnv(InPlay, gymnasium.Env[Observation, np.int64]):
    """One hand of ``rules`` a reset, the learning seat against three built-in agents.

    Args:
        rules: the ruleset's name (``haidi.RULESETS``).
        seat: the learning seat (0 the dealer), or None for one drawn at each reset
            (``info["seat"]`` says which; the observation counts seats from it).
        opponents: ``"greedy"``, ``"random"`` or three names, the agents at the seats after
            the learning seat in turn order.
        options: the ruleset's options, as ``haidi.Game`` takes them.
        version: the observation encoding (``Game.observation_array``).
        illegal: what an id of the space outside the mask does: ``"end"`` ends the hand
            with ``illegal_reward`` (``info["illegal_action"]`` True), ``"raise"`` raises
            ``HandError``. Anything not an id of the space raises ``HandError`` either way.
        illegal_reward: the reward of an illegal id under ``illegal="end"``.
        render_mode: None or ``"ansi"`` (what the learning seat sees, as text).

    Observations are dicts of ``observation`` (the planes x 34 ``uint8`` array of the
    learning seat) and ``action_mask`` (``int8``, 1 for each legal id). The reward is 0
    until the hand ends, then the learning seat's payment from the ruleset's ``settle``
    (``info["payments"]`` has all four, by seat). ``action_masks()`` returns the mask (as
    sb3-contrib's ``MaskablePPO`` asks for it).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        rules: str = "mcr",
        *,
        seat: int | None = None,
        opponents: str | Sequence[str] = "greedy",
        options: Mapping[str, Any] | None = None,
        version: str = "v1",
        illegal: str = "end",
        illegal_reward: float = -100.0,
        render_mode: str | None = None,
    ) -> None:
        self._probe = Probe(rules, options, version)
        self._fixed_seat = None if seat is None else read_seat(seat)
        self._opponents = read_agents(opponents, 3, "opponents")
        if illegal not in ILLEGAL:
            raise HandError(f"illegal is 'end' or 'raise', not {shown(illegal)}")
        # A number as numpy gives one too (float32, int64), but no flag.
        if isinstance(illegal_reward, (bool, np.bool_)) or not isinstance(
            illegal_reward, (int, float, np.integer, np.floating)
        ):
            raise HandError(f"illegal_reward is a number, not {shown(illegal_reward)}")
        if finite(illegal_reward) is None:
            raise HandError(f"illegal_reward is a finite number, not {shown(illegal_reward)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise HandError(f"render_mode is None or 'ansi', not {shown(render_mode)}")
        self._illegal = illegal
        self._illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space: spaces.Space[Any] = space_of(self._probe)
        self.action_space: spaces.Space[Any] = spaces.Discrete(self._probe.actions)
        self._game: Game | None = None
        self._seat = 0
        self._over = False

    @property
    def seat(self) -> int:
        """The learning seat of the hand in play."""
        return self._seat

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deals a new hand (from ``seed``'s generator) and plays the built-in agents up to
        the learning seat's first decision. ``options={"seat": s}`` seats the learner at
        ``s`` for this hand."""
        super().reset(seed=read_seed(seed))
        seat = self._fixed_seat
        if options is not None:
            if not isinstance(options, Mapping) or set(options) - {"seat"}:
                raise HandError(f"reset options take only 'seat', not {shown(options)}")
            if "seat" in options:
                seat = read_seat(options["seat"], "options['seat']")
        if seat is None:
            seat = int(self.np_random.integers(4))
        self._seat = seat
        for _ in range(REDEALS):
            hand_seed = int(self.np_random.integers(SEED_LIMIT))
            self._game = Game(self._probe.rules, hand_seed, self._probe.options)
            self._over = False
            self._play_others()
            if not self._game.done:
                return self._observation(), {"seat": seat}
        raise HandError(f"{REDEALS} hands in a row ended before seat {seat} had a decision")

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Plays ``action`` (an id of the mask) for the learning seat, then the built-in
        agents up to its next decision or the hand's end."""
        game = self.game
        if self._over:
            raise HandError("the hand is over: call reset()")
        seat = self._seat
        mask = game.legal_mask(seat)
        # Anything but an id of the space is bad input; an id outside the mask is a move
        # the rules forbid, which `illegal` decides about.
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not 0 <= action < len(mask):
            raise HandError(f"an action is an id from 0 to {len(mask) - 1}, not {shown(action)}")
        if not mask[int(action)]:
            if self._illegal == "raise":
                name = game.ruleset.actions.names[int(action)]
                raise HandError(f"action id {int(action)} ({name}) is not legal for seat {seat} now")
            self._over = True
            return self._observation(), self._illegal_reward, True, False, {"seat": seat, "illegal_action": True}
        game.step(seat, int(action))
        self._play_others()
        info: dict[str, Any] = {"seat": seat}
        if game.done:
            self._over = True
            result = game.result
            assert result is not None
            payments = np.asarray(result["payments"], dtype=np.float64)
            info["payments"] = payments
            return self._observation(), float(payments[seat]), True, False, info
        return self._observation(), 0.0, False, False, info

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal ids of the learning seat now, as bools (sb3-contrib's mask)."""
        if self._over:
            return np.zeros(self._probe.actions, dtype=bool)
        return self.game.legal_mask(self._seat)

    def render(self) -> str | None:  # type: ignore[override]
        """What the learning seat sees, as text, under ``render_mode="ansi"``."""
        if self.render_mode != "ansi" or self._game is None:
            return None
        return shown_text(self._game, self._seat)

    def _play_others(self) -> None:
        """The built-in agents' decisions until the learning seat's or the hand's end."""
        game = self.game
        while not game.done:
            waiting = game.to_act
            if self._seat in waiting:
                return
            other = waiting[0]
            agent = self._opponents[(other - self._seat) % 4 - 1]
            game.step(other, agent_action(game, other, agent, self.np_random))

    def _observation(self) -> Observation:
        game = self.game
        acting = not self._over and not game.done and self._seat in game.to_act
        return observed(game, self._seat, self._probe.version, acting)


def env_id(rules: str) -> str:
    """The registered id of ``rules``' environment: ``haidi/MCR-v0``, ``haidi/Changsha-v0`` ..."""
    name = "MCR" if rules == "mcr" else rules.capitalize()
    return f"haidi/{name}-v0"


def register_envs() -> list[str]:
    """Registers an environment for every ruleset known (those added by
    ``haidi.rulesets.register`` too, when called again after it); returns their ids."""
    ids = []
    for name in REGISTRY:
        eid = env_id(name)
        if eid not in gymnasium.registry:
            gymnasium.register(
                id=eid,
                entry_point="haidi.envs.gym:HaidiEnv",
                vector_entry_point="haidi.envs.vector:HaidiVectorEnv",
                kwargs={"rules": name},
            )
        ids.append(eid)
    return ids


register_envs()
