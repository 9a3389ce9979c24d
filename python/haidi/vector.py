"""``haidi.VectorEnv``: many hands of one ruleset stepped at once from integer actions,
in Rust on every core (the GIL released), for reinforcement learning by self-play.

Every seat of every game is played by the caller: each step takes one action id a game
(``haidi.ruleset(rules).actions``) for the seat to play in it, and gives back each
game's observation of that seat (``Game.observation_array``'s encoding), its mask of
legal ids and the seat. Seats asked about one tile answer one at a time, in turn order
from the seat offering it; the game resolves their answers by the ruleset's priority.
A hand that ends pays each seat what the ruleset's ``settle`` says (the ``rewards``) and
is dealt again on the next step, its action then ignored (Gymnasium's next-step
autoreset). docs/learning.md has the details.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import _core
from ._core import HandError
from ._errors import finite, flag, shown, valid_text
from .game import _given, _result, flow_rules, read_carry
from .ruleset import ruleset

__all__ = ["VectorEnv"]


def _array(value: Any, name: str) -> NDArray[Any]:
    """``np.asarray(value)``, a ragged or mixed list refused as a ``HandError``."""
    try:
        return np.asarray(value)
    except (ValueError, TypeError) as e:
        raise HandError(f"{name} must be an array (a list of equal rows), not {type(value).__name__}: {e}") from None


class VectorEnv:
    """``num_envs`` hands of ``rules`` in play at once, dealt from ``seed`` (game ``i``'s
    hand ``h`` from the seed ``haidi._core.game_seed(seed, h * num_envs + i)``, so its first
    hand is ``simulate``'s hand ``i``), observed by the encoding ``version`` (``"v1"``).
    ``options``: the ruleset's options, for scoring and ``settle``. Each hand is a match's
    first (no carry from the hand before).

    ``reset(seed=None)`` -> ``(obs, info)``; ``step(actions)`` -> ``(obs, rewards,
    terminated, truncated, info)``. ``obs`` is a dict of arrays: ``observation``
    (num_envs x planes x 34 uint8), ``action_mask`` (num_envs x actions, bool) and
    ``seat`` (the seat to play, -1 in a game that just ended). ``rewards`` is num_envs x
    4 (float64), each seat's payment in a game that ended at this step (0 elsewhere); ``info`` has
    ``seeds``, the seed of the hand in play in each game (``seeds`` too), but not with
    ``opponents``: a hand's seed deals every tile of it again, which the learning seat
    must not see. ``copy=False``: every step
    writes into the same arrays (copy what you keep), as Gymnasium's ``copy=False``;
    with copies (the default) the arrays a step gives are the caller's, and those of a
    step before are written again only once the caller holds none of them.
    ``opponents`` (``"random"`` or ``"greedy"``, the agents of ``simulate``): the caller
    plays one seat a game, ``(h * num_envs + i) % 4`` in game ``i``'s hand ``h``, and the
    agent every other seat, inside the step; ``seat`` is then the learning seat (-1 when
    its hand ended).

    ``shaping`` (a number, 0 by default: none) adds a shaped reward to ``rewards`` at every
    step: a seat's potential is ``-shaping`` times its hand's shanten while the hand is in
    play and 0 once it is over, and each step pays each seat the change of its potential
    (the step that deals a hand pays nothing). A hand's shaped rewards add up to
    ``shaping`` times the seat's shanten at the step that dealt the hand (against agents,
    after their moves in that step), whatever is played, so the best play for the
    payments stays the best (potential-based shaping, Ng, Harada and Russell 1999).
    """

    def __init__(
        self,
        rules: str,
        num_envs: int,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        *,
        version: str = "v1",
        copy: bool = True,
        opponents: str | None = None,
        shaping: float = 0.0,
    ) -> None:
        rs = ruleset(rules)
        given = _given(options)
        scorer = rs.scorer_for(given or None)
        if not isinstance(version, str):
            raise HandError(f"version must be a str such as 'v1', not {type(version).__name__}")
        valid_text(version, "version")
        self.ruleset = rs
        self.actions = rs.actions
        self._options = given
        self._carry = read_carry(rs, None)
        copy = flag(copy, "copy")
        if opponents is not None and opponents not in ("random", "greedy"):
            raise HandError(f"opponents must be 'random', 'greedy' or None, not {shown(opponents)}")
        self.opponents = opponents
        if isinstance(shaping, (bool, np.bool_)) or not isinstance(shaping, (int, float, np.integer, np.floating)):
            raise HandError(f"shaping must be a number (0 for none), not {shown(shaping)}")
        # A step's shaped reward is at most 34 times `shaping` (a shanten's change).
        value = finite(shaping)
        if value is None or abs(value) > 5e306:
            raise HandError(f"shaping must be a finite number (at most about 5e306), not {shown(shaping)}")
        self.shaping = value
        flow = flow_rules(rs, options=given)
        # Rust gives the changes of potential in shanten (small integers, exact as
        # float32); they are weighed here in float64, so that a reward is `shaping` times
        # an integer exactly.
        self._env = _core.VectorEnv(flow, scorer, num_envs, seed, version, copy, opponents, float(self.shaping != 0))
        self.num_envs: int = self._env.num_envs

    def reset(self, seed: int | None = None) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        """Deals each game's first hand (from ``seed``, or the seed given before)."""
        obs, masks, seats = self._env.reset(seed)
        return {"observation": obs, "action_mask": masks, "seat": seats}, self._info()

    def step(
        self, actions: Any
    ) -> tuple[dict[str, NDArray[Any]], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """Plays ``actions[i]`` (an id) in game ``i``; an id not legal there raises
        ``HandError`` naming the game, and no game is stepped."""
        if isinstance(actions, (list, tuple)):
            # numpy reads a bool among ints as 0 or 1 (pass or win): refused as every id is.
            for game, a in enumerate(actions):
                if isinstance(a, (bool, np.bool_)):
                    raise HandError(f"game {game}: action id {shown(a)} is a bool, not an id")
        ids = _array(actions, "actions")
        if ids.shape != (self.num_envs,) or not np.issubdtype(ids.dtype, np.integer):
            raise HandError(
                f"actions must be {self.num_envs} integer ids (one a game), not an array of shape "
                f"{ids.shape} and dtype {ids.dtype}"
            )
        if ids.dtype.kind == "u" and ids.size and int(ids.max()) > np.iinfo(np.int64).max:
            # An id past int64 is named as given, not as the negative number it would wrap to.
            past = int(np.argmax(ids > np.iinfo(np.int64).max))
            raise HandError(f"game {past}: action id {int(ids[past])} is not an action id")
        obs, masks, seats, done, shaped = self._env.step(np.ascontiguousarray(ids, dtype=np.int64))
        # float64: a payment is exact however large the options make it (float32 rounds
        # past 2**24).
        rewards = shaped.astype(np.float64) * self.shaping + 0.0 if self.shaping else np.zeros((self.num_envs, 4))
        ended = np.flatnonzero(done)
        if len(ended):
            for i, record in zip(ended, self._env._records(ended.tolist()), strict=True):
                rewards[i] += _result(self.ruleset, record, self._options, self._carry)["payments"]
        observation = {"observation": obs, "action_mask": masks, "seat": seats}
        return observation, rewards, done, np.zeros(self.num_envs, dtype=bool), self._info()

    @staticmethod
    def sample(masks: NDArray[np.bool_], rng: np.random.Generator | None = None) -> NDArray[np.int64]:
        """A legal id a game, each drawn uniformly from its row of ``masks`` (num_envs x
        actions, ``obs["action_mask"]``: bool, or integers nonzero where legal, as the
        Gymnasium environments give them); 0 where a row is empty (a game that just ended,
        whose id the next step ignores). One random number a game: about an eighth of
        ``np.argmax(rng.random(masks.shape) * masks, axis=1)``'s time on 1,024 MCR games.
        ``rng``: a ``numpy.random.Generator`` (None: a fresh one)."""
        masks = _array(masks, "masks")
        if masks.ndim != 2 or not (masks.dtype == np.bool_ or np.issubdtype(masks.dtype, np.integer)):
            raise HandError(
                f"masks must be a 2-d bool or integer array (games x actions), not {masks.dtype} of shape {masks.shape}"
            )
        if rng is None:
            rng = np.random.default_rng()
        elif not isinstance(rng, np.random.Generator):
            raise HandError(f"rng must be a numpy.random.Generator (or None), not {type(rng).__name__}")
        games, width = masks.shape
        legal = np.flatnonzero(masks)  # row-major: each game's legal ids together, in order
        counts = np.bincount(legal // width, minlength=games)
        first = np.cumsum(counts) - counts
        ids = np.zeros(games, dtype=np.int64)
        some = np.flatnonzero(counts)
        pick = first[some] + (rng.random(len(some)) * counts[some]).astype(np.int64)
        ids[some] = legal[pick] - some * width
        return ids

    def _info(self) -> dict[str, Any]:
        # Against agents the seeds would give the learner the others' hands and the wall.
        return {} if self.opponents is not None else {"seeds": self._env.seeds}

    @property
    def seeds(self) -> NDArray[np.uint64]:
        """The seed of the hand in play in each game (``haidi.Game(rules, seed=...)``
        deals it again): for the one who runs the environment, not for a learning seat,
        to which it would show every tile."""
        return self._env.seeds

    @property
    def learners(self) -> NDArray[np.int8]:
        """With ``opponents``, the learning seat of the hand in play in each game (of the
        hand that just ended, until the next step deals again); -1 in self-play."""
        return self._env.learners

    def __repr__(self) -> str:
        return f"VectorEnv({self.ruleset.name!r}, num_envs={self.num_envs})"
