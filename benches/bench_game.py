"""Game speed: whole hands by ``haidi.simulate`` and the Python ``step`` API, against
RLCard's mahjong environment (the peer, when installed) in the same run.

    pytest benches/bench_game.py --benchmark-enable --benchmark-only

- simulate: ``haidi.simulate(rules, 2000, seed)`` with the random agent on every core,
  hands a second, for each ruleset (the target: 5,000 MCR hands a second on 2 cores).
- step: a hand of MCR and of Changsha played through ``legal_actions`` and ``step`` by
  a random choice in Python, steps a second (the target: 100,000); RLCard's ``mahjong``
  environment played the same way is the peer (``ratio`` at the end).
- bot match: ``haidi.play.Match`` with four trivial bot programs (the first legal action,
  over the JSON-lines protocol) against the same hands played by an in-process player
  making the same choices: the difference a request is the protocol's overhead (the
  request's JSON, the pipes, the bot's reading and writing).
"""

from __future__ import annotations

import os
import random
import sys

import pytest

import haidi
from haidi import play
from haidi.rulesets import REGISTRY

from conftest import ratio
from hands import all_cores

GAMES = 2000
#: Per item, seconds: (what, rules) -> mean.
TIMES: dict[tuple[str, str], float] = {}


@pytest.mark.benchmark(group="simulate")
@pytest.mark.parametrize("rules", sorted(REGISTRY))
def test_simulate(benchmark, rules):
    with all_cores():
        haidi.simulate(rules, 50, seed=0)  # the tables of waits are built once
        benchmark.extra_info["items"] = GAMES
        benchmark.pedantic(haidi.simulate, (rules, GAMES, 1), rounds=3, iterations=1)
    TIMES["simulate", rules] = benchmark.stats.stats.mean / GAMES


def _play(rules: str, seeds: range) -> int:
    steps = 0
    for seed in seeds:
        g = haidi.Game(rules, seed=seed)
        rng = random.Random(seed)
        while not g.done:
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            g.step(seat, legal[rng.randrange(len(legal))])
            steps += 1
    return steps


@pytest.mark.benchmark(group="step")
@pytest.mark.parametrize("rules", ["mcr", "changsha"])
def test_step(benchmark, rules):
    seeds = range(40)
    n = _play(rules, seeds)
    benchmark.extra_info["items"] = n
    benchmark.pedantic(_play, (rules, seeds), rounds=3, iterations=1)
    TIMES["step", rules] = benchmark.stats.stats.mean / n


def _rlcard_play(env, games: int) -> int:
    steps = 0
    for _ in range(games):
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[random.randrange(len(legal))])
            steps += 1
    return steps


@pytest.mark.benchmark(group="step")
def test_step_rlcard(benchmark):
    rlcard = pytest.importorskip("rlcard")
    env = rlcard.make("mahjong", config={"seed": 0})
    random.seed(0)
    n = _rlcard_play(env, 10)
    benchmark.extra_info["items"] = n
    benchmark.pedantic(_rlcard_play, (env, 10), rounds=3, iterations=1)
    TIMES["step", "rlcard"] = benchmark.stats.stats.mean / n


#: A bot program: the first legal action, in the JSON-lines protocol of ``haidi play``.
FIRST_LEGAL = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    print(json.dumps(json.loads(line)['observation']['legal_actions'][0]), flush=True)\n"
)


class _First(play.Player):
    """The trivial bot's choice, in process: the first legal action."""

    def decide(self, game, seat, hand):
        return game.legal_actions(seat)[0]


def _match(players, hands: int) -> int:
    requests = 0
    match = play.Match("mcr", players, seed=3)
    for g in match.hands(hands):
        requests += sum(e["event"] == "action" for e in g.log)
    return requests


BOT_HANDS = 20


@pytest.mark.benchmark(group="bot match")
def test_bot_match_in_process(benchmark):
    n = _match([_First("first", p) for p in range(4)], BOT_HANDS)
    benchmark.extra_info["items"] = n
    benchmark.pedantic(_match, ([_First("first", p) for p in range(4)], BOT_HANDS), rounds=3, iterations=1)
    TIMES["bot match", "in process"] = benchmark.stats.stats.mean / n


@pytest.mark.benchmark(group="bot match")
def test_bot_match_programs(benchmark, tmp_path):
    bot = tmp_path / "first.py"
    bot.write_text(FIRST_LEGAL)
    command = f"{sys.executable} -S {bot}"

    def players():
        return play.make_players([command] * 4)

    n = _match(players(), BOT_HANDS)
    benchmark.extra_info["items"] = n
    benchmark.pedantic(lambda: _match(players(), BOT_HANDS), rounds=3, iterations=1)
    TIMES["bot match", "programs"] = benchmark.stats.stats.mean / n


ratio("test_step[mcr]", "test_step_rlcard", "a step: legal actions, a choice and the step (MCR vs RLCard mahjong)")


def teardown_module(module):
    if not TIMES:
        return
    print(f"\nGames a second ({os.cpu_count()} cores for simulate; step on one):")
    for (what, rules), t in sorted(TIMES.items()):
        unit = {"simulate": "hands/s", "bot match": "requests/s"}.get(what, "steps/s")
        print(f"  {what:9s} {rules:9s} {1 / t:12,.0f} {unit}")
    if ("bot match", "programs") in TIMES and ("bot match", "in process") in TIMES:
        extra = TIMES["bot match", "programs"] - TIMES["bot match", "in process"]
        print(f"  a bot program's overhead: {extra * 1e6:,.0f} us a request")
