"""The baseline learner of examples/behaviour_cloning.py, run small: greedy self-play
recorded, a network fitted, and the learned policy playing duplicate hands with legal
ids only."""

from __future__ import annotations

import importlib.util
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sklearn")

import haidi  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "behaviour_cloning.py"


@pytest.fixture(scope="module")
def bc():
    spec = importlib.util.spec_from_file_location("behaviour_cloning", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["behaviour_cloning"] = module
    spec.loader.exec_module(module)
    return module


def test_the_recorded_choices_are_greedys_and_legal(bc) -> None:
    x, y = bc.record(3, seed=7)
    assert len(x) == len(y) > 100 and x.shape[1] == len(bc.PLANES) * 34 + haidi.ruleset("mcr").actions.size
    # Replayed: each recorded id is legal where it was chosen, and the hands end.
    at = 0
    for h in range(3):
        game = haidi.Game("mcr", seed=7 + h)
        while not game.done:
            seat = game.to_act[0]
            assert game.legal_mask(seat)[y[at]] and np.array_equal(bc.observe(game, seat), x[at])
            game.step(seat, int(y[at]))
            at += 1
    assert at == len(y)


def fitted(bc, hands: int, seed: int, hidden: int, iterations: int):
    """The example's network fitted to ``hands`` hands of greedy play, at a size of the
    test's (a ConvergenceWarning of so few iterations silenced)."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier

    x, y = bc.record(hands, seed=seed)
    model = MLPClassifier(hidden_layer_sizes=(hidden,), max_iter=iterations, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(x, y)
    return model


def test_the_cloned_policy_plays_duplicate_hands(bc) -> None:
    model = fitted(bc, 4, seed=1, hidden=16, iterations=3)
    policy = bc.Cloned(model, np.random.default_rng(0))
    mean, half = bc.duplicate(policy, bc.random_agent(np.random.default_rng(1)), walls=2, seed=100)
    assert np.isfinite(mean) and half >= 0
    # Greedy against itself in duplicate: every seat the same agent, so every wall's four
    # deals pay the seat nothing in all.
    mean, _ = bc.duplicate(bc.greedy, bc.greedy, walls=2, seed=100)
    assert mean == 0


def test_the_cloned_policy_beats_random_agents(bc) -> None:
    # The pipeline at a tenth of the example's size still learns: 600 hands of greedy
    # play, a hidden layer of 128, and against three random agents over 40 walls (each
    # dealt four times) its mean payment a hand is above 0 by more than the 95% interval.
    model = fitted(bc, 600, seed=0, hidden=128, iterations=25)
    rng = np.random.default_rng(0)
    mean, half = bc.duplicate(bc.Cloned(model, rng), bc.random_agent(rng), walls=40, seed=500_000)
    assert mean - half > 0, (mean, half)
