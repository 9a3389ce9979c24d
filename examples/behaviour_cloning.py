"""A baseline learner, end to end: behaviour cloning of the greedy agent on MCR, then
duplicate matches against the random and the greedy agents.

    pip install '.[learn]'      # scikit-learn
    python examples/behaviour_cloning.py                      # 400 hands to learn from
    python examples/behaviour_cloning.py --hands 2000 --walls 300

1. Data: the greedy agent plays every seat of ``--hands`` hands (``haidi.Game``); each
   decision gives an example: the seat's observation (``observation_array``: of the v1
   planes, its hand, the melds, each seat's discards in all, the tile on offer, the
   decision asked, the winds and the tiles left) and the id greedy chose
   (``ruleset.actions``).
2. Learning: a small neural network (scikit-learn's ``MLPClassifier``) predicts the id
   from the observation; playing, the policy takes the most likely legal id.
3. Evaluation, duplicate: each of ``--walls`` walls is dealt four times, the learner at
   each seat in turn and the same agent at the three others, so that the tiles' luck is
   shared out. The score is the learner's mean payment a hand (a seat of three equal
   opponents scores 0 on average), with a 95% interval over the walls.

docs/learning.md ("A baseline learner") gives the figures of a run.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import numpy as np
from sklearn.neural_network import MLPClassifier

import haidi

RULES = "mcr"
ACTIONS = haidi.ruleset(RULES).actions

Agent = Callable[[haidi.Game, int], int]


def legal_ids(game: haidi.Game, seat: int) -> np.ndarray:
    return np.flatnonzero(game.legal_mask(seat))


def greedy(game: haidi.Game, seat: int) -> int:
    """The greedy agent's choice, as an id (the legal id whose action it is)."""
    chosen = game._greedy(seat)
    for i in legal_ids(game, seat):
        if ACTIONS.action(int(i)) == chosen:
            return int(i)
    raise AssertionError(f"greedy chose {chosen}, which is no legal id")


def random_agent(rng: np.random.Generator) -> Agent:
    return lambda game, seat: int(rng.choice(legal_ids(game, seat)))


#: The v1 planes learned from (docs/learning.md has the table): the hand and the drawn
#: tile, the melds, each seat's discards in all and those claimed, the tile on offer and
#: who offers it, the decision asked, the winds, the dealer, the streak and the tiles left.
PLANES = [*range(0, 37), *(37 + 34 * r + k for r in range(4) for k in (32, 33)), *range(173, 181)]


def observe(game: haidi.Game, seat: int) -> np.ndarray:
    return game.observation_array(seat, version="v1")[PLANES].reshape(-1)


def record(hands: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Every decision of ``hands`` hands of greedy self-play: observations and ids."""
    xs, ys = [], []
    for h in range(hands):
        game = haidi.Game(RULES, seed=seed + h)
        while not game.done:
            seat = game.to_act[0]
            i = greedy(game, seat)
            xs.append(observe(game, seat))
            ys.append(i)
            game.step(seat, i)
    return np.array(xs, dtype=np.float32), np.array(ys)


class Cloned:
    """The learned policy: the most likely legal id (a legal id it never saw: random)."""

    def __init__(self, model: MLPClassifier, rng: np.random.Generator) -> None:
        self.model = model
        self.classes = model.classes_
        self.rng = rng

    def __call__(self, game: haidi.Game, seat: int) -> int:
        legal = game.legal_mask(seat)
        p = np.full(ACTIONS.size, -1.0)
        p[self.classes] = self.model.predict_proba(observe(game, seat)[None, :].astype(np.float32))[0]
        p[~legal] = -2.0
        best = int(np.argmax(p))
        if p[best] < 0:
            return int(self.rng.choice(np.flatnonzero(legal)))
        return best


def duplicate(learner: Agent, opponent: Agent, walls: int, seed: int) -> tuple[float, float]:
    """The learner's mean payment a hand over ``walls`` walls, each dealt four times with
    the learner at each seat, and the half-width of its 95% interval over the walls."""
    per_wall = []
    for w in range(walls):
        total = 0
        for seat in range(4):
            game = haidi.Game(RULES, seed=seed + w)
            while not game.done:
                s = game.to_act[0]
                game.step(s, (learner if s == seat else opponent)(game, s))
            total += game.result["payments"][seat]
        per_wall.append(total / 4)
    a = np.array(per_wall, dtype=float)
    return float(a.mean()), 1.96 * float(a.std(ddof=1)) / math.sqrt(len(a))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=400, help="hands of greedy self-play to learn from")
    ap.add_argument("--walls", type=int, default=100, help="walls of each duplicate evaluation")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)

    t = time.perf_counter()
    x, y = record(args.hands, seed=args.seed)
    print(f"{len(y):,} decisions from {args.hands} hands of greedy self-play ({time.perf_counter() - t:.0f} s)")

    t = time.perf_counter()
    model = MLPClassifier(hidden_layer_sizes=(256,), max_iter=40, early_stopping=True, random_state=args.seed)
    model.fit(x, y)
    print(f"learned in {time.perf_counter() - t:.0f} s: {model.best_validation_score_:.1%} of held-out choices")

    policy = Cloned(model, rng)
    # Walls never learned from: seeds past the data's.
    walls_seed = args.seed + 1_000_000
    for name, opponent in (("random", random_agent(rng)), ("greedy", greedy)):
        t = time.perf_counter()
        mean, half = duplicate(policy, opponent, args.walls, walls_seed)
        print(
            f"vs {name}: {mean:+.2f} a hand, 95% interval {mean - half:+.2f} to {mean + half:+.2f}"
            f" ({args.walls} walls x 4 seats, {time.perf_counter() - t:.0f} s)"
        )


if __name__ == "__main__":
    main()
