"""A learner nobody here wrote, on haidi's Gymnasium environment unchanged: sb3-contrib's
MaskablePPO plays MCR's learning seat against three random agents.

    pip install '.[gym]' sb3-contrib          # pulls PyTorch (several GB)
    python examples/maskable_ppo.py --steps 20000

The environment is ``gymnasium.make("haidi/MCR-v0")``; MaskablePPO reads its masks from
``action_masks()``. After learning, the policy plays ``--hands`` hands (the masks kept)
and the mean of the learning seat's payment is printed beside that of a policy that draws
a legal id at random, on the same seeds.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO

import haidi.envs  # noqa: F401  (registers haidi/MCR-v0 ...)


def play(env: gymnasium.Env, choose, hands: int, seed: int) -> float:
    """The learning seat's mean payment over ``hands`` hands."""
    total = 0.0
    for h in range(hands):
        obs, _ = env.reset(seed=seed + h)
        done = False
        while not done:
            obs, reward, terminated, truncated, _ = env.step(choose(obs))
            done = terminated or truncated
            total += float(reward)
    return total / hands


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=20_000, help="the learning seat's steps to learn from")
    ap.add_argument("--hands", type=int, default=200, help="hands of the evaluation")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    env = gymnasium.make("haidi/MCR-v0", opponents="random", seat=0)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=1024, batch_size=128, seed=args.seed, verbose=0)
    model.learn(total_timesteps=args.steps)

    def learned(obs):
        action, _ = model.predict(obs, action_masks=obs["action_mask"].astype(bool), deterministic=True)
        return int(action)

    rng = np.random.default_rng(args.seed)

    def drawn(obs):
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    seed = 1_000_000 + args.seed
    print(f"after {args.steps:,} steps: MaskablePPO {play(env, learned, args.hands, seed):+.2f} a hand,")
    print(f"a random legal id {play(env, drawn, args.hands, seed):+.2f} a hand ({args.hands} hands, same seeds)")


if __name__ == "__main__":
    main()
