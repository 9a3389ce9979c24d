"""A baseline learner, end to end: behaviour cloning of the greedy agent on MCR, then
duplicate matches against the random and the greedy agents.

    pip install '.[learn]'      # scikit-learn
    python examples/behaviour_cloning.py                      # 1,000 hands to learn from
    python examples/behaviour_cloning.py --hands 3000 --walls 300

1. Data: the greedy agent plays every seat of ``--hands`` hands (``haidi.Game``); each
   decision gives an example: the seat's observation (``observation_array``: of the v2
   planes, its hand and the tile it drew, the tile on offer, the decision asked and the
   analysis of its hand: the shanten, useful and winning copies each discard leaves),
   its mask of legal ids, and the id greedy chose (``ruleset.actions``).
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


#: The v2 planes learned from (docs/learning.md has the table): the hand (0-3), the tile
#: drawn (4), the tile on offer (173), the decision asked (175) and the analysis of the
#: hand (197-200: shanten, useful copies and winning copies by discard, useful kinds).
PLANES = [*range(0, 5), 173, 175, *range(197, 201)]
#: Each plane's scale to about 0-1: the shanten plane holds 1 + shanten, the copies up to
#: a few dozen.
SCALE = np.array([1.0] * 7 + [1 / 4, 1 / 16, 1 / 16, 1.0], dtype=np.float32)[:, None]


def observe(game: haidi.Game, seat: int) -> np.ndarray:
    """The features of one decision: the planes, scaled, and the mask of legal ids."""
    planes = game.observation_array(seat, version="v2")[PLANES] * SCALE
    return np.concatenate([planes.reshape(-1), game.legal_mask(seat)]).astype(np.float32)


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
        p[self.classes] = self.model.predict_proba(observe(game, seat)[None, :])[0]
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
    ap.add_argument("--hands", type=int, default=1000, help="hands of greedy self-play to learn from")
    ap.add_argument("--walls", type=int, default=100, help="walls of each duplicate evaluation")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)

    t = time.perf_counter()
    x, y = record(args.hands, seed=args.seed)
    print(f"{len(y):,} decisions from {args.hands} hands of greedy self-play ({time.perf_counter() - t:.0f} s)")

    t = time.perf_counter()
    model = MLPClassifier(hidden_layer_sizes=(256,), max_iter=60, early_stopping=True, random_state=args.seed)
    model.fit(x, y)
    print(f"learned in {time.perf_counter() - t:.0f} s: {model.best_validation_score_:.1%} of held-out choices")

    policy = Cloned(model, rng)
    # Walls never learned from: seeds past the data's.
    walls_seed = args.seed + 1_000_000
    # The learner against each agent, then greedy itself against random agents for scale.
    matches = (("learner", policy, "random", random_agent(rng)), ("learner", policy, "greedy", greedy))
    matches += (("greedy", greedy, "random", random_agent(rng)),)
    for who, agent, name, opponent in matches:
        t = time.perf_counter()
        mean, half = duplicate(agent, opponent, args.walls, walls_seed)
        print(
            f"{who} vs {name}: {mean:+.2f} a hand, 95% interval {mean - half:+.2f} to {mean + half:+.2f}"
            f" ({args.walls} walls x 4 seats, {time.perf_counter() - t:.0f} s)"
        )


if __name__ == "__main__":
    main()
