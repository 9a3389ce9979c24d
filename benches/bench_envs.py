"""The Gymnasium and PettingZoo environments' speed (``haidi.envs``): steps a second of one
environment, the learner's actions drawn from its mask in numpy, against RLCard's mahjong
environment (random legal actions; ``pip install rlcard``) in the same run, and the
Gymnasium vector environment over ``haidi.VectorEnv``.

    pytest benches/bench_envs.py benches/bench_game.py --benchmark-enable --benchmark-only -s

The target of a single Gymnasium environment: 30,000 steps a second.
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import ratio

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import haidi  # noqa: E402
from haidi.envs import HaidiEnv, HaidiVectorEnv  # noqa: E402
from haidi.envs import pettingzoo as hz  # noqa: E402

STEPS = 3_000


def _gym(env: HaidiEnv, steps: int, rng: np.random.Generator) -> int:
    obs, _ = env.reset(seed=0)
    for _ in range(steps):
        mask = obs["action_mask"]
        obs, _, terminated, truncated, _ = env.step(int(np.argmax(rng.random(mask.shape) * mask)))
        if terminated or truncated:
            obs, _ = env.reset()
    return steps


@pytest.mark.benchmark(group="envs")
@pytest.mark.parametrize("opponents", ["random", "greedy"])
def test_gymnasium_env(benchmark, opponents):
    env = HaidiEnv("mcr", opponents=opponents)
    rng = np.random.default_rng(0)
    benchmark.extra_info["items"] = STEPS
    benchmark.pedantic(_gym, (env, STEPS, rng), rounds=3, iterations=1)


def _aec(env, steps: int, rng: np.random.Generator) -> int:
    env.reset(seed=0)
    done = 0
    while done < steps:
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                mask = obs["action_mask"]
                action = int(np.argmax(rng.random(mask.shape) * mask))
                done += 1
            env.step(action)
            if done >= steps:
                break
        else:
            env.reset()
    return done


@pytest.mark.benchmark(group="envs")
def test_pettingzoo_env(benchmark):
    env = hz.env("mcr")
    rng = np.random.default_rng(0)
    benchmark.extra_info["items"] = STEPS
    benchmark.pedantic(_aec, (env, STEPS, rng), rounds=3, iterations=1)


def _vector(envs: HaidiVectorEnv, steps: int, rng: np.random.Generator) -> int:
    obs, _ = envs.reset(seed=0)
    for _ in range(steps):
        obs, *_ = envs.step(haidi.VectorEnv.sample(obs["action_mask"], rng))
    return steps * envs.num_envs


@pytest.mark.benchmark(group="envs")
def test_gymnasium_vector_env(benchmark):
    # The learner's steps: the random agents' steps inside them are not counted.
    envs = HaidiVectorEnv("mcr", 256, opponents="random")
    rng = np.random.default_rng(0)
    benchmark.extra_info["items"] = _vector(envs, 30, rng)
    benchmark.pedantic(_vector, (envs, 30, rng), rounds=3, iterations=1)


ratio("test_gymnasium_env[random]", "test_step_rlcard", "Gymnasium env, random opponents, against RLCard's env")
ratio("test_pettingzoo_env", "test_step_rlcard", "PettingZoo AEC env against RLCard's env")
ratio("test_gymnasium_vector_env", "test_step_rlcard", "Gymnasium vector env (one core) against RLCard's env")
