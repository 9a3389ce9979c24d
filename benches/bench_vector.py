"""Learning speed: ``haidi.VectorEnv`` stepping 1,024 MCR games at once with observations
(v1) and masks, the actions drawn from the masks in numpy (``VectorEnv.sample``; one
case with ``argmax`` of a random array times the mask), against ``haidi.Game`` played
the same way one step at a time in Python (and RLCard's mahjong environment, when
installed, in bench_game.py) in the same run.

    pytest benches/bench_vector.py --benchmark-enable --benchmark-only

- vector env: agent steps a second (one step of one game), on every core and on one
  (the target: 500,000 on 2 cores).
- by hand: ``Game.observation_array(seat, "v1")``, ``legal_mask`` and ``step(seat, id)``
  a step, the same choice drawn from the mask.
"""

from __future__ import annotations

import numpy as np
import pytest

import haidi

from conftest import ratio
from hands import all_cores

GAMES = 1024
STEPS = 60


def _argmax_draw(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def _vector(env: haidi.VectorEnv, steps: int, rng: np.random.Generator, draw=haidi.VectorEnv.sample) -> int:
    obs, _ = env.reset()
    for _ in range(steps):
        obs, *_ = env.step(draw(obs["action_mask"], rng))
    return steps * env.num_envs


@pytest.mark.benchmark(group="vector env")
def test_vector_env_every_core(benchmark):
    with all_cores():
        env = haidi.VectorEnv("mcr", GAMES, seed=0)
        rng = np.random.default_rng(0)
        benchmark.extra_info["items"] = _vector(env, STEPS, rng)
        benchmark.pedantic(_vector, (env, STEPS, rng), rounds=3, iterations=1)


@pytest.mark.benchmark(group="vector env")
def test_vector_env_every_core_argmax_draw(benchmark):
    with all_cores():
        env = haidi.VectorEnv("mcr", GAMES, seed=0)
        rng = np.random.default_rng(0)
        benchmark.extra_info["items"] = _vector(env, STEPS, rng, _argmax_draw)
        benchmark.pedantic(_vector, (env, STEPS, rng, _argmax_draw), rounds=3, iterations=1)


@pytest.mark.benchmark(group="vector env")
def test_vector_env_one_core(benchmark):
    env = haidi.VectorEnv("mcr", GAMES, seed=0)
    rng = np.random.default_rng(0)
    benchmark.extra_info["items"] = _vector(env, STEPS, rng)
    benchmark.pedantic(_vector, (env, STEPS, rng), rounds=3, iterations=1)


@pytest.mark.benchmark(group="vector env")
def test_vector_env_one_core_no_copy(benchmark):
    env = haidi.VectorEnv("mcr", GAMES, seed=0, copy=False)
    rng = np.random.default_rng(0)
    benchmark.extra_info["items"] = _vector(env, STEPS, rng)
    benchmark.pedantic(_vector, (env, STEPS, rng), rounds=3, iterations=1)


@pytest.mark.benchmark(group="vector env")
def test_vector_env_v0_one_core_no_copy(benchmark):
    env = haidi.VectorEnv("mcr", GAMES, seed=0, copy=False, version="v0")
    rng = np.random.default_rng(0)
    benchmark.extra_info["items"] = _vector(env, STEPS, rng)
    benchmark.pedantic(_vector, (env, STEPS, rng), rounds=3, iterations=1)


@pytest.mark.benchmark(group="vector env")
def test_vector_env_against_random_agents_one_core(benchmark):
    # Items are the learner's steps; the agents' steps inside them are not counted.
    env = haidi.VectorEnv("mcr", GAMES, seed=0, copy=False, opponents="random")
    rng = np.random.default_rng(0)
    benchmark.extra_info["items"] = _vector(env, STEPS, rng)
    benchmark.pedantic(_vector, (env, STEPS, rng), rounds=3, iterations=1)


def _by_hand(hands: int) -> int:
    rng = np.random.default_rng(0)
    steps = 0
    for seed in range(hands):
        g = haidi.Game("mcr", seed=seed)
        while not g.done:
            seat = g.to_act[0]
            g.observation_array(seat, "v1")
            mask = g.legal_mask(seat)
            g.step(seat, int(np.argmax(rng.random(mask.shape) * mask)))
            steps += 1
    return steps


@pytest.mark.benchmark(group="vector env")
def test_vector_env_by_hand(benchmark):
    benchmark.extra_info["items"] = _by_hand(20)
    benchmark.pedantic(_by_hand, (20,), rounds=3, iterations=1)


ratio("test_vector_env_one_core", "test_vector_env_by_hand", "VectorEnv (one core) against Game stepped by hand")
ratio("test_vector_env_one_core_no_copy", "test_vector_env_by_hand", "VectorEnv (one core, copy=False) against by hand")
ratio("test_vector_env_every_core", "test_vector_env_by_hand", "VectorEnv (every core) against Game stepped by hand")
ratio("test_vector_env_every_core", "test_step_rlcard", "VectorEnv (every core) against RLCard's mahjong env")
