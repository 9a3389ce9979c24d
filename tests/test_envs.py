"""The Gymnasium and PettingZoo environments (haidi.envs): the libraries' own checkers,
and what the environments add checked against ``haidi.Game`` stepped by hand."""

from __future__ import annotations

import functools
import subprocess
import sys

import numpy as np
import pytest

import haidi

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from haidi.envs import HaidiEnv, env_id, register_envs  # noqa: E402
from haidi.envs import pettingzoo as hz  # noqa: E402

RULESETS = list(haidi.RULESETS)

# PettingZoo's api_test warns of any observation that is not a bare array unless the
# environment's name is on its own list of known ones; its classic games' convention, a
# dict of `observation` and `action_mask`, is what it is asked to check here.
PZ_DICT_WARNINGS = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


def test_importing_haidi_imports_neither_library() -> None:
    code = "import sys, haidi; haidi.Game('mcr'); print([m for m in ('gymnasium', 'pettingzoo') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_an_id_per_ruleset_is_registered() -> None:
    assert env_id("mcr") == "haidi/MCR-v0" and env_id("changsha") == "haidi/Changsha-v0"
    assert register_envs() == [env_id(r) for r in RULESETS]
    for r in RULESETS:
        env = gymnasium.make(env_id(r))
        assert env.unwrapped.rules == r
        assert env.action_space.n == len(haidi.ruleset(r).actions)
        env.close()


def test_an_id_can_be_made_with_the_module_named() -> None:
    code = "import gymnasium; e = gymnasium.make('haidi.envs:haidi/Tangshan-v0'); print(e.unwrapped.rules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "tangshan"


@pytest.mark.parametrize("rules", RULESETS)
def test_gymnasium_check_env(rules: str) -> None:
    env = gymnasium.make(env_id(rules))
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("opponents", ["random", ["greedy", "random", "greedy"]])
def test_gymnasium_check_env_other_opponents(opponents: object) -> None:
    env = gymnasium.make(env_id("hainan"), seat=2, opponents=opponents)
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("rules", RULESETS)
@pytest.mark.filterwarnings(*PZ_DICT_WARNINGS)
def test_pettingzoo_api_and_seed_tests(rules: str) -> None:
    api_test(hz.env(rules), num_cycles=400)
    seed_test(functools.partial(hz.env, rules), num_cycles=400)


def _hand_by_hand(rules: str, seed: int, seat: int, opponents: list[str], learner: np.random.Generator):
    """The hand a ``HaidiEnv`` reset with ``seed`` plays, replayed on a ``haidi.Game`` by
    hand: the env's generator drawn in the same order (seat, then the hand's seed)."""
    from gymnasium.utils import seeding

    rng, _ = seeding.np_random(seed)
    if seat < 0:
        seat = int(rng.integers(4))
    game = haidi.Game(rules, int(rng.integers(2**63)))
    steps = []
    while not game.done:
        s = game.to_act[0] if seat not in game.to_act else seat
        if s == seat:
            mask = game.legal_mask(seat)
            a = int(learner.choice(np.flatnonzero(mask)))
            steps.append((game.observation_array(seat, "v1"), mask, a))
            game.step(seat, a)
        else:
            agent = opponents[(s - seat) % 4 - 1]
            if agent == "greedy":
                game.step(s, game._greedy(s))
            else:
                ids = np.flatnonzero(game.legal_mask(s))
                game.step(s, int(ids[rng.integers(len(ids))]))
    return seat, steps, game


@pytest.mark.parametrize("rules", RULESETS)
def test_a_gymnasium_hand_is_the_game_played_by_hand(rules: str) -> None:
    opponents = ["greedy", "random", "random"]
    for seed in range(4):
        env = HaidiEnv(rules, opponents=opponents)
        seat, steps, game = _hand_by_hand(rules, seed, -1, opponents, np.random.default_rng(seed))
        obs, info = env.reset(seed=seed)
        assert info["seat"] == seat
        learner = np.random.default_rng(seed)
        rewards = []
        done = False
        k = 0
        while not done:
            planes, mask, a = steps[k]
            assert np.array_equal(obs["observation"], planes)
            assert np.array_equal(obs["action_mask"], mask.astype(np.int8))
            assert np.array_equal(env.action_masks(), mask)
            assert a == int(learner.choice(np.flatnonzero(obs["action_mask"])))
            obs, r, done, truncated, info = env.step(a)
            assert not truncated
            rewards.append(r)
            k += 1
        assert k == len(steps)
        payments = game.result["payments"]
        assert env.game.log == game.log
        assert rewards[:-1] == [0.0] * (len(rewards) - 1)
        assert rewards[-1] == payments[seat]
        assert list(info["payments"]) == list(payments) and sum(payments) == 0
        assert not obs["action_mask"].any()


def test_an_illegal_id_ends_the_hand_or_raises() -> None:
    env = HaidiEnv("mcr", seat=0, illegal_reward=-50)
    obs, _ = env.reset(seed=3)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, r, done, _, info = env.step(bad)
    assert (r, done, info["illegal_action"]) == (-50.0, True, True)
    assert not env.game.done and not obs["action_mask"].any()
    with pytest.raises(haidi.HandError, match="call reset"):
        env.step(0)
    env.reset(seed=3)
    for wrong in (235, -1, True, "0", 1.0, None):
        with pytest.raises(haidi.HandError, match="an action is an id from 0 to 234"):
            env.step(wrong)
    strict = HaidiEnv("mcr", seat=0, illegal="raise")
    obs, _ = strict.reset(seed=3)
    with pytest.raises(haidi.HandError, match=rf"action id {bad} \(.*\) is not legal for seat 0"):
        strict.step(bad)
    for wrong in (235, -1, True, "0", 1.0):
        with pytest.raises(haidi.HandError, match="an action is an id from 0 to 234"):
            strict.step(wrong)
    # Nothing was played: the legal ids still are.
    assert np.array_equal(strict.action_masks(), obs["action_mask"].astype(bool))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"rules": "riichi"}, "unknown ruleset 'riichi'"),
        ({"rules": 3}, "rules is a ruleset name"),
        ({"seat": 4}, "seat is a seat from 0 to 3"),
        ({"seat": True}, "seat is a seat from 0 to 3"),
        ({"opponents": "smart"}, "opponents: an agent is one of"),
        ({"opponents": ["random", "greedy"]}, "opponents is one agent name or 3"),
        ({"version": "v9"}, "v9"),
        ({"illegal": "ignore"}, "illegal is 'end' or 'raise'"),
        ({"illegal_reward": "a lot"}, "illegal_reward is a number"),
        ({"render_mode": "human"}, "render_mode is None or 'ansi'"),
        ({"options": {"no_such_option": 1}}, "no_such_option"),
        ({"options": 3}, "options must be a dict, not int"),
        ({"options": "ab"}, "options must be a dict, not str"),
        ({"options": [("concealed_and_melded_kong", True)]}, "options must be a dict, not list"),
    ],
)
def test_bad_arguments_are_hand_errors(kwargs: dict, match: str) -> None:
    with pytest.raises(haidi.HandError, match=match):
        HaidiEnv(**kwargs)
    if set(kwargs) <= {"rules", "options", "version", "render_mode"}:
        with pytest.raises(haidi.HandError, match=match):
            hz.raw_env(**kwargs)


def test_reset_options_and_a_game_before_reset() -> None:
    env = HaidiEnv("changsha")
    with pytest.raises(haidi.HandError, match="call reset"):
        env.game  # noqa: B018
    for s in range(4):
        _, info = env.reset(seed=1, options={"seat": s})
        assert info["seat"] == env.seat == s and s in env.game.to_act
    with pytest.raises(haidi.HandError, match="options\\['seat'\\] is a seat"):
        env.reset(options={"seat": 7})
    with pytest.raises(haidi.HandError, match="reset options take only 'seat'"):
        env.reset(options={"wall": []})
    # A seed as Game reads one: an int from 0 (numpy's too), a HandError for the rest.
    assert env.reset(seed=np.int64(3))[1] == env.reset(seed=3)[1]
    for seed in (-1, 1.5, "a", True, 2**64):
        with pytest.raises(haidi.HandError, match=r"seed must be an int from 0 to 2\*\*64 - 1"):
            env.reset(seed=seed)
    with pytest.raises(haidi.HandError, match="illegal_reward is a finite number"):
        HaidiEnv("mcr", illegal_reward=float("nan"))


def test_every_environment_reads_a_seed_and_its_first_step_as_the_gym_one_does() -> None:
    from haidi.envs.vector import HaidiVectorEnv

    aec = hz.raw_env("mcr")
    with pytest.raises(haidi.HandError, match="call reset"):
        aec.step(0)
    vec = HaidiVectorEnv("mcr", num_envs=2)
    for seed in (-1, 1.5, "a", True, 2**64):
        for reset in (aec.reset, vec.reset):
            with pytest.raises(haidi.HandError, match=r"seed must be an int from 0 to 2\*\*64 - 1"):
                reset(seed=seed)
    # numpy's ints are ints: the same deal as Python's.
    aec.reset(seed=np.int64(5))
    first = aec.observe(aec.agent_selection)["observation"]
    aec.reset(seed=5)
    assert (aec.observe(aec.agent_selection)["observation"] == first).all()
    with pytest.raises(haidi.HandError, match="opponents is 'greedy' or 'random'"):
        HaidiVectorEnv("mcr", opponents=np.array(["greedy"]))  # type: ignore[arg-type]
    with pytest.raises(haidi.HandError, match="masks must be an array"):
        haidi.VectorEnv.sample([[1, 0], [1]])  # type: ignore[arg-type]
    raw = haidi.VectorEnv("mcr", 2)
    raw.reset(1)
    with pytest.raises(haidi.HandError, match="actions must be an array"):
        raw.step([[1], [2, 3]])


def test_seats_drawn_at_reset_cover_the_table() -> None:
    env = HaidiEnv("beijing", opponents="random")
    seats = {env.reset(seed=i)[1]["seat"] for i in range(40)}
    assert seats == {0, 1, 2, 3}


def test_render_ansi_shows_the_learning_seats_hand() -> None:
    env = HaidiEnv("mcr", seat=1, render_mode="ansi")
    env.reset(seed=5)
    text = env.render()
    assert isinstance(text, str)
    assert f"hand {env.game.observation(1)['hand']}" in text
    assert HaidiEnv("mcr").render() is None


@pytest.mark.parametrize("rules", ["mcr", "tangshan"])
def test_a_pettingzoo_hand_is_the_game_played_by_hand(rules: str) -> None:
    env = hz.env(rules)
    rng = np.random.default_rng(0)
    paid = 0
    for seed in range(40):
        env.reset(seed=seed)
        game = haidi.Game(rules, env.unwrapped.game.seed, ask_every_seat=True)
        rewards = dict.fromkeys(hz.AGENT_NAMES, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            rewards[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            seat = hz.AGENT_NAMES.index(agent)
            assert seat == game.to_act[0]
            assert np.array_equal(obs["observation"], game.observation_array(seat, "v1"))
            assert np.array_equal(obs["action_mask"], game.legal_mask(seat).astype(np.int8))
            for other in hz.AGENT_NAMES:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            game.step(seat, a)
            env.step(a)
        assert game.done and env.unwrapped.game.log == game.log
        payments = game.result["payments"]
        assert [rewards[a] for a in hz.AGENT_NAMES] == [float(p) for p in payments]
        paid += any(payments)
    # Random play mostly exhausts the wall; some hands must still have paid.
    assert paid >= 1


@pytest.mark.parametrize("rules", ["mcr", "changsha", "longgang"])
def test_pettingzoo_asks_every_other_seat_about_each_discard(rules: str) -> None:
    """Which agent is selected must not tell the others who can claim: after each discard
    the three other seats are selected in turn, whether or not they hold a claim."""
    env = hz.env(rules)
    rng = np.random.default_rng(1)
    windows = claimed = 0
    for seed in range(12):
        env.reset(seed=seed)
        game = env.unwrapped.game
        expect: list[str] = []
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if expect:
                assert agent == expect.pop(0)
            legal = game.legal_actions(hz.AGENT_NAMES.index(agent))
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            before = len(game.log)
            env.step(a)
            events = game.log[before:]
            discarded = any(e.get("event") == "action" and e["action"]["type"] == "discard" for e in events)
            if not expect and discarded:
                if not game.done and game.to_act:
                    seat = hz.AGENT_NAMES.index(agent)
                    expect = [a for a in hz.AGENT_NAMES if a != agent]
                    assert game.to_act == [s for s in range(4) if s != seat]
                    windows += 1
            claimed += len(legal) > 1 and not any(x["type"] == "discard" for x in legal)
    assert windows > 100 and claimed > 0


def test_asking_every_seat_plays_the_same_hand() -> None:
    """The extra asks are passes: answered so, a hand played with ``ask_every_seat`` is
    the hand played without, event for event but the asks, with the same result."""
    rng = np.random.default_rng(3)
    for rules in ("mcr", "changsha", "hainan", "tangshan", "beijing", "longgang"):
        for seed in range(6):
            plain, every = haidi.Game(rules, seed), haidi.Game(rules, seed, ask_every_seat=True)
            while True:
                # The asks the plain game does not make: a pass-only offer where the plain
                # game asks that seat nothing, or something else.
                while extra := [
                    s
                    for s in every.to_act
                    if every.legal_actions(s) == [{"type": "pass"}]
                    and (s not in plain.to_act or plain.legal_actions(s) != every.legal_actions(s))
                ]:
                    every.step(extra[0], {"type": "pass"})
                if plain.done:
                    break
                assert sorted(every.to_act) == sorted(plain.to_act)
                assert all(every.legal_actions(s) == plain.legal_actions(s) for s in plain.to_act)
                seat = plain.to_act[0]
                acts = plain.legal_actions(seat)
                a = acts[int(rng.integers(len(acts)))]
                plain.step(seat, a)
                every.step(seat, a)
            assert every.done and every.result["payments"] == plain.result["payments"]
            assert every.log[0]["ask_every_seat"] is True and "ask_every_seat" not in plain.log[0]
            again = haidi.Game.replay(every.log)
            assert again.log == every.log
    with pytest.raises(haidi.HandError, match="ask_every_seat"):
        haidi.Game("mcr", 0, ask_every_seat="yes")  # type: ignore[arg-type]


def test_a_game_is_dealt_from_a_seed_or_a_wall_not_both() -> None:
    wall = haidi.Game("mcr", 5).wall
    assert haidi.Game("mcr", wall=wall).wall == wall
    with pytest.raises(haidi.HandError, match="from a seed or from a given wall, not both"):
        haidi.Game("mcr", 5, wall=wall)


def test_pettingzoo_refuses_an_illegal_id() -> None:
    env = hz.raw_env("hainan")
    env.reset(seed=2)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(haidi.HandError, match=rf"action id {bad} .* is not legal"):
        env.step(bad)
    with pytest.raises(haidi.HandError, match="action is an id from 0 to 234"):
        env.step("pass")
    with pytest.raises(haidi.HandError, match="an agent is one of"):
        env.observe("player_4")
    # The wrapped environment refuses the same way (PettingZoo's bounds wrapper raised
    # AssertionError before haidi could).
    wrapped = hz.env("hainan")
    wrapped.reset(seed=2)
    for action in (235, -1, 2.0, "2", np.float64(2)):
        with pytest.raises(haidi.HandError):
            wrapped.step(action)


def test_make_vec_steps_several_hands() -> None:
    envs = gymnasium.make_vec("haidi/Longgang-v0", num_envs=3, vectorization_mode="sync", opponents="random")
    obs, info = envs.reset(seed=0)
    assert obs["observation"].shape == (3, *envs.single_observation_space["observation"].shape)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        # A hand's last observation has no legal id; the action after it is not read
        # (the next step resets that hand: Gymnasium's next-step autoreset).
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        ended += int(terminated.sum())
    assert ended > 0
    envs.close()


@pytest.mark.parametrize("rules", ["mcr", "tangshan"])
def test_the_rust_vector_env_pays_each_learning_seat_its_payment(rules: str) -> None:
    """``make_vec`` with the vector entry point steps ``haidi.VectorEnv`` against the
    agents: its observations are in its space, and a game's reward is its learning seat's
    payment, read from the same ids played in a ``haidi.VectorEnv`` of its own."""
    from haidi.envs import HaidiVectorEnv

    envs = gymnasium.make_vec(env_id(rules), num_envs=16, vectorization_mode="vector_entry_point")
    assert isinstance(envs, HaidiVectorEnv)
    same = haidi.VectorEnv(rules, 16, opponents="greedy")
    obs, info = envs.reset(seed=5)
    mine, _ = same.reset(seed=5)
    assert np.array_equal(obs["observation"], mine["observation"])
    rng = np.random.default_rng(1)
    ended = paid = 0
    for _ in range(300):
        assert envs.observation_space.contains(obs)
        mask = obs["action_mask"].astype(bool)
        ids = np.argmax(rng.random(mask.shape) * mask, axis=1)
        obs, rewards, terminated, truncated, info = envs.step(ids)
        mine, payments, done, _, _ = same.step(ids)
        assert np.array_equal(terminated, done) and not truncated.any()
        learners = info["seat"]
        assert np.array_equal(learners, same.learners) and ((learners >= 0) & (learners < 4)).all()
        want = np.where(done, payments[np.arange(16), learners], 0)
        assert np.array_equal(rewards, want) and np.array_equal(info["payments"], payments)
        ended += int(done.sum())
        paid += int((rewards != 0).sum())
    assert ended > 20 and paid > 0
    with pytest.raises(haidi.HandError, match="game"):
        envs.step(np.full(16, 10_000))
    envs.close()


def test_the_rust_vector_env_reads_its_arguments_strictly() -> None:
    from haidi.envs import HaidiVectorEnv

    with pytest.raises(haidi.HandError, match="opponents"):
        HaidiVectorEnv("mcr", 4, opponents="clever")
    with pytest.raises(haidi.HandError, match="rules"):
        HaidiVectorEnv("mahjong", 4)
    with pytest.raises(haidi.HandError, match="seed"):
        HaidiVectorEnv("mcr", 4).reset(seed=[1, 2, 3, 4])
    with pytest.raises(haidi.HandError, match="reset takes no options here"):
        HaidiVectorEnv("mcr", 4).reset(seed=1, options={"seat": 1})
