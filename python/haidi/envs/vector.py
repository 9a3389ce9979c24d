"""A Gymnasium vector environment over ``haidi.VectorEnv``: many hands stepped at once in
Rust, one learning seat a game against the built-in agents (docs/learning.md,
"Gymnasium and PettingZoo").

``gymnasium.make_vec("haidi.envs:haidi/MCR-v0", num_envs=1024)`` makes one (the ids
registered by ``haidi.envs.gym`` name this class as their vector entry point).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from .._core import HandError
from .._errors import shown
from ..vector import VectorEnv
from ._table import Probe, read_seed, space_of

__all__ = ["HaidiVectorEnv"]

Observation = dict[str, NDArray[Any]]


class HaidiVectorEnv(gymnasium.vector.VectorEnv[Observation, NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` hands of ``rules`` at once, a learning seat in each against the built-in
    ``opponents`` (``"greedy"`` or ``"random"``), stepped in Rust on every core.

    Each game's learning seat goes round the table hand by hand (``haidi.VectorEnv``;
    ``info["seat"]`` says which). Observations are ``HaidiEnv``'s, batched: a dict of
    ``observation`` (num_envs x planes x 34 ``uint8``) and ``action_mask`` (num_envs x
    actions, ``int8``). The reward is 0 until a game's hand ends, then its learning seat's
    payment from the ruleset's ``settle`` (``info["payments"]`` has the four, by seat);
    with ``shaping``, ``haidi.VectorEnv``'s shaped reward is added at every step (to
    ``info["payments"]`` too).
    Autoreset is Gymnasium's next-step mode: a game that ended is dealt again at the next
    step, the action given for it then ignored. An id outside a game's mask raises
    ``HandError`` naming the game, and no game is stepped.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        rules: str = "mcr",
        num_envs: int = 8,
        *,
        opponents: str = "greedy",
        options: Mapping[str, Any] | None = None,
        version: str = "v1",
        shaping: float = 0.0,
    ) -> None:
        if not isinstance(opponents, str) or opponents not in ("greedy", "random"):
            raise HandError(f"opponents is 'greedy' or 'random', not {shown(opponents)}")
        probe = Probe(rules, options, version)
        self._env = VectorEnv(probe.rules, num_envs, 0, options, version=version, opponents=opponents, shaping=shaping)
        self.rules = probe.rules
        self.num_envs = self._env.num_envs
        self.single_observation_space = space_of(probe)
        self.single_action_space = spaces.Discrete(probe.actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deals every game's first hand (from ``seed``), played by the agents up to each
        learning seat's first decision."""
        if isinstance(seed, list):
            raise HandError("seed is one int for all the games (each game's hands are dealt from it)")
        if options is not None:
            raise HandError(f"reset takes no options here (the games' own are the constructor's), not {shown(options)}")
        seed = read_seed(seed)
        super().reset(seed=seed)
        obs, _ = self._env.reset(seed)
        # No seeds: a hand's seed deals the other seats' tiles and the wall again.
        return self._observed(obs), {"seat": self._env.learners.copy()}

    def step(self, actions: Any) -> tuple[Observation, NDArray[Any], NDArray[Any], NDArray[Any], dict[str, Any]]:
        obs, payments, terminated, truncated, info = self._env.step(actions)
        learners = self._env.learners
        # The learner's column: its payment where the hand ended, and its shaped reward.
        rewards = payments[np.arange(self.num_envs), learners]
        info = {**info, "seat": learners.copy(), "payments": payments}
        return self._observed(obs), rewards, terminated, truncated, info

    @staticmethod
    def _observed(obs: Mapping[str, NDArray[Any]]) -> Observation:
        return {"observation": obs["observation"], "action_mask": obs["action_mask"].astype(np.int8)}

    def __repr__(self) -> str:
        return f"HaidiVectorEnv({self.rules!r}, num_envs={self.num_envs})"
