"""Integer actions, masks and observations for learning: the ids of each ruleset, the
mask against the legal actions, and that no observation shows a seat what it may not
know (docs/learning.md)."""

from __future__ import annotations

import json
import random
import weakref
from collections import Counter
from typing import Any

import numpy as np
import pytest
from test_game import stacked_wall
from test_game_rules import ROB_CONCEALED
from test_play import _tiles

import haidi
from haidi.play import to_botzone
from haidi.rulesets import REGISTRY

RULESETS = sorted(REGISTRY)
PREFERRED = {"concealed_kong", "added_kong", "kong", "open_ready", "take", "pung"}


def policy(g: haidi.Game, seat: int, rng: random.Random) -> dict[str, Any]:
    """Random play that reaches the rarer decisions: kongs and pungs taken, wins taken
    one time in three (so that hands go on to the last tiles), discards mostly greedy
    (so that hands get ready and may rob a kong)."""
    legal = g.legal_actions(seat)
    wins = [a for a in legal if a["type"] == "win"]
    others = [a for a in legal if a["type"] != "win"] or legal
    preferred = [a for a in legal if a["type"] in PREFERRED]
    if wins and rng.random() < 0.3:
        return wins[0]
    if preferred and rng.random() < 0.8:
        return rng.choice(preferred)
    if any(a["type"] == "discard" for a in legal) and rng.random() < 0.9:
        a = g._greedy(seat)
        if a is not None and a["type"] != "win":
            return a
    return rng.choice(others)


# -- the action space ---------------------------------------------------------------


def test_mcr_ids_are_the_botzone_baseline_layout() -> None:
    # The baseline's blocks: pass 0, win 1, discard 2, chow 36, pung 99, kong 133,
    # concealed kong 167, added kong 201 (235 ids), each tile block in the order W1-9,
    # T1-9, B1-9, F1-4, J1-3; a chow is suit (W T B) x middle 2-8 x the claimed tile's
    # place in it. Botzone's names come from haidi.play (its protocol), not from the space.
    space = haidi.ruleset("mcr").actions
    assert space.size == len(space) == 235
    order = [f"{s}{r}" for s in "WTB" for r in range(1, 10)] + [f"F{r}" for r in range(1, 5)] + ["J1", "J2", "J3"]
    names = haidi.tile_names()
    botzone = {to_botzone(t): t for t in names}
    assert space.action(0) == {"type": "pass"} and space.action(1) == {"type": "win"}
    for i, b in enumerate(order):
        t = botzone[b]
        assert space.action(2 + i) == {"type": "discard", "tile": t}
        assert space.action(99 + i) == {"type": "pung"} and space.claimed(99 + i) == t
        assert space.action(133 + i) == {"type": "kong"} and space.claimed(133 + i) == t
        assert space.action(167 + i) == {"type": "concealed_kong", "tile": t}
        assert space.action(201 + i) == {"type": "added_kong", "tile": t}
    for s, suit in enumerate("WTB"):
        for middle in range(2, 9):
            for which in range(3):
                i = 36 + s * 21 + (middle - 2) * 3 + which
                low = botzone[f"{suit}{middle - 1}"]
                claimed = botzone[f"{suit}{middle - 1 + which}"]
                assert space.action(i) == {"type": "chow", "tile": low}
                assert space.claimed(i) == claimed
                assert space.id({"type": "chow", "tile": low}, claimed=claimed) == i
    assert space.names[:3] == ["pass", "win", "discard 1m"] and space.names[36] == "chow 123m on 1m"


def test_the_baseline_tile_names_are_the_ones_its_fan_calculator_reads() -> None:
    # PyMahjongGB (the baseline's calculator) is the independent witness of the map from
    # haidi's tiles to the baseline's W/T/B/F/J: all green is 23468s and 發, reversible
    # tiles are 1234589p, 245689s and 白.
    mahjong_gb = pytest.importorskip("MahjongGB")

    def fans(hand: str, win: str) -> list[str]:
        tiles = [to_botzone(t) for t in _tiles(hand)]
        out = mahjong_gb.MahjongFanCalculator(
            pack=(),
            hand=tuple(tiles),
            winTile=to_botzone(win),
            flowerCount=0,
            isSelfDrawn=True,
            is4thTile=False,
            isAboutKong=False,
            isWallLast=False,
            seatWind=0,
            prevalentWind=0,
            verbose=True,
        )
        return [f[3] for f in out]

    assert "All Green" in fans("234234666s88s66z", "6z")
    assert "Reversible Tiles" in fans("123345888p456s5z", "5z")
    assert "Reversible Tiles" not in fans("123345888p456s7z", "7z")
    space = haidi.ruleset("mcr").actions
    assert [space.action(2 + i)["tile"] for i in (9, 18, 31, 32, 33)] == ["1s", "1p", "7z", "6z", "5z"]


def test_regional_rulesets_append_their_own_decisions() -> None:
    sizes = {r: haidi.ruleset(r).actions.size for r in RULESETS}
    assert sizes == {"beijing": 236, "changsha": 236, "hainan": 235, "longgang": 235, "mcr": 235, "tangshan": 269}
    assert haidi.ruleset("changsha").actions.action(235) == {"type": "take"}
    ts = haidi.ruleset("tangshan").actions
    assert ts.action(235) == {"type": "open_ready", "tile": "1m"} and ts.action(268)["tile"] == "7z"
    assert ts.id({"type": "open_ready", "tile": "5p"}) == 235 + 13
    with pytest.raises(haidi.HandError, match="no id in the action space of mcr"):
        haidi.ruleset("mcr").actions.id({"type": "take"})
    with pytest.raises(haidi.HandError, match="needs the tile it claims"):
        haidi.ruleset("mcr").actions.id({"type": "pung"})
    for bad in (-1, 235, True, "3", 2.0):
        with pytest.raises(haidi.HandError, match="an action id of mcr is an int from 0 to 234"):
            haidi.ruleset("mcr").actions.action(bad)


@pytest.mark.parametrize("rules", RULESETS)
def test_ids_round_trip_and_the_mask_is_the_legal_actions(rules: str) -> None:
    # Every legal action met in many hands has one id; the id reads back to it; the mask
    # holds exactly those ids; stepping by id plays the same game as by dict.
    space = haidi.ruleset(rules).actions
    met: Counter[str] = Counter()
    for seed in range(200):
        g = haidi.Game(rules, seed=seed)
        rng = random.Random(seed)
        while not g.done:
            for seat in range(4):
                mask = g.legal_mask(seat)
                assert mask.dtype == np.bool_ and mask.shape == (space.size,)
                if seat not in g.to_act:
                    assert not mask.any()
                    continue
                legal = g.legal_actions(seat)
                offer = g.observation(seat)["offer"]
                claimed = offer["tile"] if offer else None
                ids = [space.id(a, claimed=claimed if a["type"] in ("chow", "pung", "kong") else None) for a in legal]
                assert sorted(ids) == list(np.flatnonzero(mask))
                for a, i in zip(legal, ids, strict=True):
                    assert space.action(i) == a
                    met[a["type"]] += 1
            seat = rng.choice(g.to_act)
            a = policy(g, seat, rng)
            if rng.random() < 0.5:
                g.step(seat, a)
            else:
                i = space.id(a, claimed=(g.observation(seat)["offer"] or {}).get("tile"))
                g.step(seat, np.int64(i) if i % 2 else i)
    kinds = {"discard", "chow", "pung", "kong", "concealed_kong", "added_kong", "win", "pass"}
    if rules in ("changsha", "beijing"):
        kinds.add("take")
    if rules in ("changsha",):
        kinds.discard("kong")  # rare in Changsha's shorter hands; seen in the others
    assert kinds <= set(met), met


def test_a_bad_id_is_refused_naming_it() -> None:
    g = haidi.Game("mcr", seed=3)
    with pytest.raises(haidi.HandError, match=r"action id 235 is out of range: the ids of mcr are 0 to 234"):
        g.step(0, 235)
    with pytest.raises(haidi.HandError, match="action id -1 is out of range"):
        g.step(0, -1)
    with pytest.raises(haidi.HandError, match="or an action id"):
        g.step(0, True)
    with pytest.raises(haidi.HandError, match="or an action id"):
        g.step(0, "2")
    with pytest.raises(haidi.HandError, match=r"action id 0 \(pass\) is not legal for seat 0 now"):
        g.step(0, 0)
    held = np.flatnonzero(g.legal_mask(0))
    missing = next(i for i in range(2, 36) if i not in held)
    with pytest.raises(haidi.HandError, match=rf"action id {missing} \(discard \w+\) is not legal"):
        g.step(0, missing)
    with pytest.raises(haidi.HandError, match="seat 1 is not to act"):
        g.step(1, int(held[0]))
    # A claim's id names the tile on offer: another tile's is not legal.
    rng = random.Random(1)
    while True:
        seat = g.to_act[0]
        o = g.observation(seat)
        if o["decision"] == "discard":
            break
        g.step(seat, policy(g, seat, rng))
    other = next(t for t in haidi.tile_names() if t != o["offer"]["tile"])
    wrong = haidi.ruleset("mcr").actions.id({"type": "pung"}, claimed=other)
    with pytest.raises(haidi.HandError, match=rf"action id {wrong} \(pung {other}\) is not legal for seat {seat} now"):
        g.step(seat, wrong)


# -- what a seat sees ---------------------------------------------------------------


def assert_sees_nothing_hidden(g: haidi.Game, key: int) -> int:
    """Each seat's observation (dict, both arrays) and mask are the same when what it may
    not know is dealt again; returns how many other seats' hands the reshuffles changed
    (the check is void if they change nothing)."""
    changed = 0
    for seat in range(4):
        again = g._reshuffled(seat, key * 4 + seat)
        assert again.observation(seat) == g.observation(seat)
        for version in ("v0", "v1", "v2"):
            assert np.array_equal(again.observation_array(seat, version), g.observation_array(seat, version))
        assert np.array_equal(again.legal_mask(seat), g.legal_mask(seat))
        changed += sum(again.observation(o)["hand"] != g.observation(o)["hand"] for o in range(4) if o != seat)
    return changed


EXPECTED_DECISIONS = {
    "mcr": {"draw", "claimed", "discard", "rob"},
    "changsha": {"draw", "claimed", "discard", "haidi_offer", "haidi", "dealt"},
    "hainan": {"draw", "claimed", "discard"},
    "longgang": {"draw", "claimed", "discard", "split"},
    "tangshan": {"draw", "claimed", "discard"},
    "beijing": {"draw", "claimed", "discard", "haidi_offer"},
}


@pytest.mark.parametrize("rules", RULESETS)
def test_no_observation_changes_when_what_a_seat_may_not_know_is_reshuffled(rules: str) -> None:
    # The other seats' concealed tiles and the wall's unseen tiles shuffled together (each
    # seat keeping its number of tiles): every seat's observation stays the same, at every
    # kind of decision, checked at each rare decision and every twelfth common one.
    seen: Counter[str] = Counter()
    changed = checked = 0
    for seed in range(200):
        g = haidi.Game(rules, seed=seed)
        rng = random.Random(seed)
        step = 0
        while not g.done:
            kinds = {g.observation(s)["decision"] for s in g.to_act}
            if kinds - {"draw", "discard", "claimed"} or step % 12 == 0:
                changed += assert_sees_nothing_hidden(g, seed * 1000 + step)
                seen.update(kinds)
                checked += 1
            seat = rng.choice(g.to_act)
            g.step(seat, policy(g, seat, rng))
            step += 1
        assert_sees_nothing_hidden(g, seed)
    assert EXPECTED_DECISIONS[rules] <= set(seen), seen
    assert changed > checked  # the reshuffles changed the other seats' hands


def test_no_leak_when_a_concealed_kong_is_robbed_or_a_hand_laid_open() -> None:
    # The two decisions random play hardly meets: Beijing's 一条龙 robbing a concealed kong,
    # and Tangshan's 明听 (the open hand is excluded from the reshuffle: everyone sees it).
    g = haidi.Game("beijing", wall=stacked_wall("beijing", ROB_CONCEALED, draws="5m", back="3z9p"))
    g.step(0, {"type": "discard", "tile": "5z"})
    g.step(1, {"type": "concealed_kong", "tile": "5m"})
    assert g.observation(2)["decision"] == "rob_concealed"
    assert g.observation(3)["offer"] == {"tile": "5m", "from": 1, "chance": "rob_concealed"}
    assert assert_sees_nothing_hidden(g, 1) > 0
    hands = ["123m456m789m45p11z9s", "234m567m345s66s66p", "123s456s789s77p3z4z", "456m999p222s55z4z2z"]
    g = haidi.Game("tangshan", wall=stacked_wall("tangshan", hands, draws="6p7s2m3p", back="4s"))
    g.step(0, {"type": "open_ready", "tile": "9s"})
    laid = g.observation(0)["hand"]
    for seat in range(4):
        assert g.observation(seat)["open_hands"] == [laid, None, None, None]
    v1 = g.observation_array(2, "v1")
    assert v1[189 + 2].sum() == 13  # seat 0 is two seats on from seat 2
    assert assert_sees_nothing_hidden(g, 2) > 0
    g.step(1, {"type": "discard", "tile": "6p"})
    while g.to_act != [0]:
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        g.step(seat, {"type": "pass"} if {"type": "pass"} in legal else legal[0])
    # Its turn: the tile it drew is its own until it plays it.
    assert g.observation(1)["open_hands"][0] == laid and g.observation(0)["drawn"] == "3p"
    assert assert_sees_nothing_hidden(g, 3) > 0


def first_concealed_kong(rules: str) -> haidi.Game:
    for seed in range(400):
        g = haidi.Game(rules, seed=seed)
        rng = random.Random(seed)
        while not g.done:
            seat = rng.choice(g.to_act)
            legal = g.legal_actions(seat)
            kong = [a for a in legal if a["type"] == "concealed_kong"]
            g.step(seat, kong[0] if kong else policy(g, seat, rng))
            mine = [] if g.done else g.observation(seat)["meld_info"][seat]
            if kong and any(m["type"] == "concealed_kong" for m in mine):
                return g
    raise AssertionError("no concealed kong")


@pytest.mark.parametrize("rules", RULESETS)
def test_a_concealed_kong_shows_its_kind_only_where_the_ruleset_shows_it(rules: str) -> None:
    # Hainan: "暗杠不需翻开牌"; Longgang: "三张暗放一张明放"; Beijing robs them, so shows
    # them; MCR, Changsha and Tangshan keep them face down (docs/learning.md).
    shown = rules in ("longgang", "beijing")
    g = first_concealed_kong(rules)
    maker = next(s for s in range(4) for m in g.observation(s)["meld_info"][s] if m["type"] == "concealed_kong")
    own = next(m for m in g.observation(maker)["meld_info"][maker] if m["type"] == "concealed_kong")
    assert own["tile"] is not None and own["from"] is None
    k = haidi.tile_names().index(own["tile"])
    for seat in range(4):
        o = g.observation(seat)
        seen = next(m for m in o["meld_info"][maker] if m["type"] == "concealed_kong")
        r = (maker - seat) % 4
        v0, v1 = g.observation_array(seat, "v0"), g.observation_array(seat, "v1")
        if seat == maker or shown:
            assert seen["tile"] == own["tile"] and v1[5 + 8 * r + 3, k] == 1
            assert f"{{{own['tile'][0] * 4}{own['tile'][1]}}}" in o["melds"][maker]
        else:
            assert seen["tile"] is None and "{????}" in o["melds"][maker]
            assert v1[5 + 8 * r + 4].tolist() == [1] * 34 and v1[5 + 8 * r + 3].sum() == 0
            assert v0[1 + r, k] < 4


def test_each_seat_sees_only_its_own_claim() -> None:
    # Several seats asked about one discard: each sees its own decision, none the others'.
    many = 0
    for seed in range(200):
        g = haidi.Game("mcr", seed=seed)
        rng = random.Random(seed)
        while not g.done:
            if len(g.to_act) > 1:
                many += 1
                for seat in range(4):
                    o = g.observation(seat)
                    asked = seat in g.to_act
                    assert o["to_act"] == ([seat] if asked else [])
                    assert (o["decision"] in ("discard", "rob")) == asked and o["offer"] is not None
            seat = rng.choice(g.to_act)
            g.step(seat, policy(g, seat, rng))
    assert many > 20


def test_the_v1_planes_hold_what_the_dict_shows() -> None:
    blocks = haidi._core.observation_versions()
    assert sum(b[1] for b in blocks["v1"]) == 197 and sum(b[1] for b in blocks["v0"]) == 11
    assert blocks["v2"][:-4] == blocks["v1"] and sum(b[1] for b in blocks["v2"]) == 201
    names = haidi.tile_names()
    rng = random.Random(5)
    for rules in RULESETS:
        g = haidi.Game(rules, seed=7, carry={"streak": 3})
        for _ in range(60):
            if g.done:
                break
            seat = rng.choice(g.to_act)
            g.step(seat, policy(g, seat, rng))
        for seat in range(4):
            o, a = g.observation(seat), g.observation_array(seat, "v1")
            assert a.shape == (197, 34) and a.dtype == np.uint8
            held = Counter(_tiles(o["hand"]))
            assert all(a[0:4, names.index(t)].sum() == held[t] for t in names)
            for r in range(4):
                other = (seat + r) % 4
                assert a[37 + 34 * r + 32].sum() == len(o["discards"][other])
                assert a[37 + 34 * r + 33].sum() == len(o["claimed"][other])
                assert a[185, r] == o["concealed_counts"][other]
            assert a[179, 0] == 3  # the streak
            assert a[180, 0] == min(o["wall"], 255)
            assert a[176, seat] == 1 and a[177, "ESWN".index(o["round_wind"])] == 1
            decision = blocks["decisions"].index(o["decision"]) if o["decision"] else None
            assert list(np.flatnonzero(a[175])) == ([decision] if decision is not None else [])
            assert g.observation_array(seat).shape == (11, 34)  # the default stays v0
    with pytest.raises(haidi.HandError, match="unknown observation version 'v9'; known: 'v0', 'v1', 'v2'$"):
        g.observation_array(0, "v9")


def test_the_v2_planes_are_the_analysis_of_the_hand_dealt() -> None:
    # At the first decision nothing is seen outside a seat's hand: planes 197-200 equal
    # what Ruleset.analyze says of the hand alone, the dealer's 14 tiles (an entry a
    # discard) and the other seats' 13 (one entry).
    names = haidi.tile_names()
    for rules in ("mcr", "hainan"):
        rs = haidi.ruleset(rules)
        for seed in range(40):
            g = haidi.Game(rules, seed=seed)
            for seat in range(4):
                o, a = g.observation(seat), g.observation_array(seat, "v2")
                assert a.shape == (201, 34) and np.array_equal(a[:197], g.observation_array(seat, "v1"))
                entries = rs.analyze(o["hand"])
                if o["decision"] == "draw":
                    held = {e["discard"] for e in entries}
                    assert {names[k] for k in np.flatnonzero(a[197])} == held
                    for e in entries:
                        k = names.index(e["discard"])
                        expected = (1 + e["shanten"], e["useful_count"], e["winning_count"])
                        assert (a[197, k], a[198, k], a[199, k]) == expected
                    assert not a[200].any()
                else:
                    (e,) = entries
                    assert set(a[197]) == {1 + e["shanten"]} and set(a[198]) == {min(e["useful_count"], 255)}
                    assert [names[k] for k in np.flatnonzero(a[200])] == e["useful"]


def test_the_v2_planes_rank_the_discards_as_the_greedy_agent_does() -> None:
    # The greedy agent discards by (lowest shanten, most useful copies, most winning
    # copies, first kind): read from the planes alone, at its every discard, every ruleset.
    names = haidi.tile_names()
    for rules in RULESETS:
        checked = 0
        for seed in range(6):
            g = haidi.Game(rules, seed=seed)
            while not g.done:
                seat = g.to_act[0]
                choice = g._greedy(seat)
                if choice["type"] == "discard" and g.observation(seat)["decision"] in ("draw", "claimed"):
                    a = g.observation_array(seat, "v2").astype(int)
                    held = np.flatnonzero(a[197])
                    best = min(held, key=lambda k: (a[197, k], -a[198, k], -a[199, k], k))
                    assert names[best] == choice["tile"], (rules, seed, g.observation(seat)["hand"])
                    checked += 1
                g.step(seat, choice)
        assert checked > 50


# -- many games at once -------------------------------------------------------------


def first_asked(g: haidi.Game) -> int:
    """The seat that answers first when seats answer one at a time: the one after the
    seat offering the tile, in turn order (from the dealer for the dealt hands)."""
    asked = g.to_act
    offer = g.observation(asked[0])["offer"]
    start = offer["from"] + 1 if offer else 0
    return next(s % 4 for s in range(start, start + 4) if s % 4 in asked)


@pytest.mark.parametrize("rules", RULESETS)
def test_vector_env_plays_as_games_stepped_by_hand(rules: str) -> None:
    # The same ids played in VectorEnv and in haidi.Game by hand: the same observations,
    # masks, seats, ends and payments; a game that ends is dealt its next hand at the next
    # step (its action ignored), from the seed the docs give.
    n, seed = 4, 11
    env = haidi.VectorEnv(rules, n, seed=seed)
    obs, info = env.reset()
    games = [haidi.Game(rules, seed=int(s)) for s in info["seeds"]]
    assert [int(s) for s in info["seeds"]] == [haidi._core.game_seed(seed, i) for i in range(n)]
    hands, over, last = [0] * n, [False] * n, [0] * n
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(400):
        for i, g in enumerate(games):
            if over[i]:
                assert obs["seat"][i] == -1 and not obs["action_mask"][i].any()
                assert np.array_equal(obs["observation"][i], g.observation_array(last[i], "v1"))
                continue
            seat = first_asked(g)
            assert obs["seat"][i] == seat
            assert np.array_equal(obs["observation"][i], g.observation_array(seat, "v1"))
            assert np.array_equal(obs["action_mask"][i], g.legal_mask(seat))
        ids = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 7 for m in obs["action_mask"]])
        seats = obs["seat"].copy()
        obs, rewards, terminated, truncated, info = env.step(ids)
        assert not truncated.any()
        for i in range(n):
            if over[i]:
                hands[i] += 1
                assert int(info["seeds"][i]) == haidi._core.game_seed(seed, hands[i] * n + i)
                games[i], over[i] = haidi.Game(rules, seed=int(info["seeds"][i])), False
                assert not terminated[i] and not rewards[i].any()
                continue
            g = games[i]
            g.step(int(seats[i]), int(ids[i]))
            assert terminated[i] == g.done
            if g.done:
                ended += 1
                over[i], last[i] = True, int(seats[i])
                assert rewards[i].tolist() == g.result["payments"]  # type: ignore[index]
            else:
                assert not rewards[i].any()
    assert ended >= 3


def test_vector_env_without_copies_writes_the_same_numbers_into_its_own_arrays() -> None:
    fresh, kept = haidi.VectorEnv("changsha", 70, seed=2), haidi.VectorEnv("changsha", 70, seed=2, copy=False)
    (a, _), (b, _) = fresh.reset(), kept.reset()
    rng = np.random.default_rng(0)
    arrays = None
    for _ in range(150):
        for k in a:
            assert np.array_equal(a[k], b[k])
        ids = np.argmax(rng.random(a["action_mask"].shape) * a["action_mask"], axis=1)
        a, ra, da, _, _ = fresh.step(ids)
        b, rb, db, _, _ = kept.step(ids)
        assert np.array_equal(ra, rb) and np.array_equal(da, db)
        arrays = b["observation"] if arrays is None else arrays
        assert b["observation"] is arrays  # the env's own array, overwritten


def test_vector_env_never_writes_again_into_arrays_the_caller_holds() -> None:
    # With copies (the default) the env writes again into a step's arrays once the caller
    # has dropped them; whatever the caller still holds (an array, a view of one, an array
    # it made read-only and dropped) keeps its numbers.
    env = haidi.VectorEnv("hainan", 40, seed=3)
    obs, _ = env.reset()
    rng = np.random.default_rng(3)
    held = []
    # Weak references hold nothing: the arrays of two steps before, let go of, come back.
    ago: list[weakref.ref[np.ndarray]] = []
    again = 0
    for step in range(150):
        obs, *_ = env.step(env.sample(obs["action_mask"], rng))
        again += len(ago) == 2 and ago[0]() is obs["observation"]
        ago = [*ago[-1:], weakref.ref(obs["observation"])]
        if step % 7 == 0:
            held.append((obs["observation"], obs["observation"].copy()))
        if step % 11 == 0:
            view = obs["action_mask"][3]
            held.append((view, view.copy()))
        if step % 13 == 0:
            obs["seat"].flags.writeable = False
    for array, numbers in held:
        assert np.array_equal(array, numbers)
    assert again > 60  # arrays let go of are written again (none would be without reuse)


def test_vector_env_shaped_rewards_are_shaping_times_an_integer_in_float64() -> None:
    # Weighed in float64: 0.1 pays 0.1, not float32's 0.10000000149011612.
    env = haidi.VectorEnv("mcr", 8, seed=1, shaping=0.1)
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    seen = set()
    for _ in range(200):
        obs, rewards, done, _, _ = env.step(env.sample(obs["action_mask"], rng))
        shaped = rewards[~done]
        assert np.array_equal(shaped, 0.1 * np.round(shaped / 0.1))
        seen |= set(shaped.ravel().tolist())
    assert 0.1 in seen and -0.1 in seen


@pytest.mark.parametrize("rules", ["mcr", "changsha"])
def test_vector_env_shaped_rewards_add_up_to_the_dealt_shanten(rules: str) -> None:
    # Two envs stepped alike, one with shaping=2: the difference of their rewards is the
    # shaped reward, and over each hand it adds up to 2 x each seat's shanten as dealt
    # (the potential going from -2 x that shanten to 0), whatever was played.
    plain, shaped = haidi.VectorEnv(rules, 24, seed=6), haidi.VectorEnv(rules, 24, seed=6, shaping=2)
    rs = haidi.ruleset(rules)
    (obs, info), _ = plain.reset(), shaped.reset()

    def dealt(seed: int) -> np.ndarray:
        g = haidi.Game(rules, seed=int(seed))
        return np.array([rs.shanten(g.observation(s)["hand"]) for s in range(4)], dtype=float)

    expected = [dealt(seed) for seed in info["seeds"]]
    sums = np.zeros((24, 4))
    rng = np.random.default_rng(6)
    hands = moved = 0
    redealt = np.array([], dtype=int)
    for _ in range(2500):
        ids = plain.sample(obs["action_mask"], rng)
        obs, r0, done, _, info = plain.step(ids)
        _, r1, done1, _, _ = shaped.step(ids)
        assert np.array_equal(done, done1)
        for i in redealt:  # dealt again at this step, which pays nothing
            assert not (r1[i] - r0[i]).any()
            expected[i] = dealt(info["seeds"][i])
        sums += r1 - r0
        moved += int(np.count_nonzero(r1 - r0))
        for i in np.flatnonzero(done):
            assert np.allclose(sums[i], 2 * expected[i]), (i, sums[i], expected[i])
            hands += 1
            sums[i] = 0
        redealt = np.flatnonzero(done)
    assert hands > 10 and moved > 1000


def test_vector_env_sample_draws_each_legal_id_alike() -> None:
    env = haidi.VectorEnv("mcr", 64, seed=4)
    obs, _ = env.reset()
    rng = np.random.default_rng(4)
    for _ in range(300):
        masks = obs["action_mask"]
        ids = haidi.VectorEnv.sample(masks, rng)
        some = masks.any(axis=1)
        assert masks[some, ids[some]].all() and (ids[~some] == 0).all()
        obs, *_ = env.step(ids)
    # Rows of 1, 3 and 7 legal ids (and an empty one) drawn 30,000 times: each id near a
    # third, a seventh, ...; never an id that is not legal.
    masks = np.zeros((4, 40), dtype=bool)
    masks[0, 5] = True
    masks[1, [0, 17, 39]] = True
    masks[2, [1, 2, 3, 10, 20, 30, 38]] = True
    draws = np.array([haidi.VectorEnv.sample(masks, rng) for _ in range(30_000)])
    for row in range(3):
        legal = np.flatnonzero(masks[row])
        counts = np.bincount(draws[:, row], minlength=40)
        assert counts.sum() == counts[legal].sum()
        assert np.all(np.abs(counts[legal] / 30_000 - 1 / len(legal)) < 0.01)
    assert (draws[:, 3] == 0).all()
    as_int8 = haidi.VectorEnv.sample(masks.astype(np.int8), rng)  # the Gymnasium envs' masks
    assert masks[[0, 1, 2], as_int8[:3]].all() and as_int8[3] == 0
    for bad in (masks.astype(np.float32), masks[0]):
        with pytest.raises(haidi.HandError, match="masks must be a 2-d bool or integer array"):
            haidi.VectorEnv.sample(bad, rng)
    with pytest.raises(haidi.HandError, match="rng must be a numpy.random.Generator"):
        haidi.VectorEnv.sample(masks, 7)
    assert masks[[0, 1, 2], haidi.VectorEnv.sample(masks)[:3]].all()  # a fresh generator


def test_vector_env_refuses_what_it_cannot_play() -> None:
    env = haidi.VectorEnv("mcr", 3, seed=1)
    with pytest.raises(haidi.HandError, match=r"reset\(\) deals the games"):
        env.step(np.zeros(3, dtype=np.int64))
    obs, _ = env.reset()
    with pytest.raises(haidi.HandError, match="actions must be 3 integer ids"):
        env.step(np.zeros(4, dtype=np.int64))
    with pytest.raises(haidi.HandError, match="actions must be 3 integer ids"):
        env.step(np.zeros(3))
    bad = np.flatnonzero(~obs["action_mask"][1])[0]
    ids = obs["action_mask"].argmax(axis=1)
    ids[1] = bad
    with pytest.raises(haidi.HandError, match=rf"game 1: action id {bad} \(\w+"):
        env.step(ids)
    # Nothing was stepped: the legal ids still play.
    ids[1] = obs["action_mask"][1].argmax()
    env.step(ids)
    with pytest.raises(haidi.HandError, match="unknown observation version"):
        haidi.VectorEnv("mcr", 2, version="v7")
    for n in (0, -1, 2**20 + 1):
        with pytest.raises(haidi.HandError, match=f"num_envs must be an int from 1 to 1048576, not {n}"):
            haidi.VectorEnv("mcr", n)
    # An id past int64 is named as given (not as the -1 it would wrap to).
    with pytest.raises(haidi.HandError, match=f"game 0: action id {2**64 - 1} is not an action id"):
        env.step(np.full(3, 2**64 - 1, dtype=np.uint64))
    for bad in ("1", True, None, [1]):
        with pytest.raises(haidi.HandError, match="shaping must be a number"):
            haidi.VectorEnv("mcr", 2, shaping=bad)
    for bad in (float("nan"), float("inf"), 1e307, 10**400):
        with pytest.raises(haidi.HandError, match=r"shaping must be a finite number \(at most about 5e306\)"):
            haidi.VectorEnv("mcr", 2, shaping=bad)
    with pytest.raises(haidi.HandError, match="opponents must be"):
        haidi.VectorEnv("mcr", 2, opponents="greedyy")
    # numpy reads a bool among ints as 0 or 1 (pass, win): refused as every bool id is.
    obs, _ = env.reset()
    ids = obs["action_mask"].argmax(axis=1).tolist()
    with pytest.raises(haidi.HandError, match="game 1: action id False is a bool"):
        env.step([ids[0], False, ids[2]])


def test_vector_env_rewards_are_the_payments_however_large() -> None:
    # float64: a payment past 2**24 (Tangshan's base may be 10**9) is not rounded.
    env = haidi.VectorEnv("tangshan", 8, seed=0, options={"base": 123456789}, opponents="greedy")
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    paid = []
    while not paid:
        obs, rewards, done, _, _ = env.step(env.sample(obs["action_mask"], rng))
        assert rewards.dtype == np.float64
        paid = [r for r, d in zip(rewards, done, strict=True) if d and r.any()]
    assert all(float(x) == int(x) and int(x) % 123456789 == 0 for row in paid for x in row)
    assert all(sum(row) == 0 for row in paid)


#: A JSON-lines bot that notes what each request shows it and claims what it may.
NOTING = """
import json, sys
out = open(sys.argv[1], "a")
for line in sys.stdin:
    o = json.loads(line)["observation"]
    out.write(json.dumps([o["seat"], o["to_act"], o["decision"], o["melds"]]) + "\\n")
    out.flush()
    legal = o["legal_actions"]
    claim = [a for a in legal if a["type"] in ("pung", "kong", "chow", "concealed_kong")]
    print(json.dumps(claim[0] if claim else legal[0]), flush=True)
"""


def test_a_bot_is_shown_only_its_own_decision_and_no_hidden_kong(tmp_path) -> None:
    # The JSON-lines protocol of `haidi play` sends the observation: a bot asked about a
    # discard never learns who else is asked, nor the kind of another's concealed kong.
    import sys

    from haidi import play

    bot = tmp_path / "noting.py"
    bot.write_text(NOTING)
    notes = tmp_path / "notes.jsonl"
    command = f"{sys.executable} -S {bot} {notes}"
    match = play.Match("mcr", play.make_players([command] * 4), seed=5)
    for _ in match.hands(6):
        pass
    rows = [json.loads(line) for line in notes.read_text().splitlines()]
    assert len(rows) > 200
    for seat, to_act, decision, melds in rows:
        assert to_act == [seat] and decision is not None
        for other, shown in enumerate(melds):
            if other != seat:
                assert not any(m.startswith("{") and m != "{????}" for m in shown)
    claims = Counter(decision for _, _, decision, _ in rows)
    assert claims["discard"] > 10


def greedy_until_asked(g: haidi.Game, learner: int) -> None:
    """The built-in greedy agent plays every seat asked before the learner's."""
    while not g.done and first_asked(g) != learner:
        seat = first_asked(g)
        g.step(seat, g._greedy(seat))  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", ["mcr", "changsha", "longgang", "tangshan"])
def test_vector_env_against_agents_plays_as_a_game_by_hand(rules: str) -> None:
    # One learning seat a game, going round the table hand by hand, against the greedy
    # agent inside the step: the same as haidi.Game played by hand with `_greedy` at the
    # other seats.
    n, seed = 3, 4
    env = haidi.VectorEnv(rules, n, seed=seed, opponents="greedy")
    obs, info = env.reset()
    # Against agents the info holds no seeds (they deal every tile): the env's own do.
    assert "seeds" not in info
    hands = [0] * n
    learners = [i % 4 for i in range(n)]
    games = [haidi.Game(rules, seed=int(s)) for s in env.seeds]
    for i, g in enumerate(games):
        greedy_until_asked(g, learners[i])
    over = [False] * n
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(300):
        for i, g in enumerate(games):
            if not over[i]:
                assert obs["seat"][i] == learners[i]
                assert np.array_equal(obs["observation"][i], g.observation_array(learners[i], "v1"))
                assert np.array_equal(obs["action_mask"][i], g.legal_mask(learners[i]))
        ids = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]])
        obs, rewards, terminated, _, info = env.step(ids)
        for i in range(n):
            if over[i]:
                hands[i] += 1
                learners[i] = (hands[i] * n + i) % 4
                games[i], over[i] = haidi.Game(rules, seed=int(env.seeds[i])), False
            else:
                games[i].step(learners[i], int(ids[i]))
            greedy_until_asked(games[i], learners[i])
            assert terminated[i] == games[i].done
            if games[i].done:
                ended += 1
                over[i] = True
                assert rewards[i].tolist() == games[i].result["payments"]  # type: ignore[index]
                assert obs["seat"][i] == -1
    assert ended >= 3


# -- the same, by walls dealt again -------------------------------------------------


#: The place of the tile turned up for the wilds, which every seat sees.
TURNED = -1


def wall_owners(g: haidi.Game) -> list[int | None]:
    """The seat that took each place of the wall until now (None: not taken; ``TURNED``:
    the tile turned up), read from the log as the deal and the draws take them."""
    size = g.ruleset.hand_size
    owners: list[int | None] = [None] * len(g.wall)
    front, back = 0, len(g.wall)
    for e in g.log[1:]:
        if e["event"] == "indicator":
            back -= 1
            owners[back] = TURNED
        elif e["event"] == "deal" and e["seat"] == 0:
            # Four tiles a seat at a time from the dealer, then the dealer's extra tile.
            for r in range(0, size, 4):
                for s in range(4):
                    for _ in range(min(4, size - r)):
                        owners[front], front = s, front + 1
            owners[front], front = 0, front + 1
        elif e["event"] == "draw":
            if e["replacement"]:
                back -= 1
                owners[back] = e["seat"]
            else:
                owners[front], front = e["seat"], front + 1
    return owners


def dealt_again(g: haidi.Game, seat: int, rng: random.Random) -> list[str]:
    """The wall with what ``seat`` may not know shuffled: the places of the tiles the
    other seats hold concealed now (hands laid open kept) and the places not taken,
    flowers kept where they are."""
    owners = wall_owners(g)
    wall = list(g.wall)
    hidden = [i for i, o in enumerate(owners) if o is None and not wall[i].endswith("f")]
    for other in range(4):
        if other == seat or g.observation(seat)["open_hands"][other] is not None:
            continue
        held = Counter(_tiles(g.observation(other)["hand"]))
        for i in reversed(range(len(wall))):
            if owners[i] == other and held[wall[i]] > 0:
                held[wall[i]] -= 1
                hidden.append(i)
    tiles = [wall[i] for i in hidden]
    rng.shuffle(tiles)
    for i, t in zip(hidden, tiles, strict=True):
        wall[i] = t
    return wall


def replayed(g: haidi.Game, wall: list[str]) -> haidi.Game | None:
    """The actions of ``g`` played again on ``wall``: a pass for a seat asked there and
    not in ``g``, a pass left out for a seat asked in ``g`` and not there; None when an
    action of ``g`` is not legal there (another seat's tiles decided it)."""
    h = haidi.Game(g.ruleset.name, wall=wall)
    actions = [(e["seat"], e["action"]) for e in g.log if e["event"] == "action"]
    i = 0
    while i < len(actions):
        seat, a = actions[i]
        if a in h.legal_actions(seat):
            h.step(seat, a)
            i += 1
        elif a == {"type": "pass"}:
            i += 1  # asked in g, not there
        else:
            # Asked there, not in g (it may be the same seat, asked about a tile first).
            extra = [s for s in h.to_act if {"type": "pass"} in h.legal_actions(s)]
            if not extra:
                return None
            h.step(extra[0], {"type": "pass"})
    # Seats asked there at this moment and not here pass, as a game waits for them.
    while not h.done and not set(h.to_act) <= set(g.to_act):
        extra = [s for s in h.to_act if s not in g.to_act and {"type": "pass"} in h.legal_actions(s)]
        if not extra:
            return None
        h.step(extra[0], {"type": "pass"})
    return h


@pytest.mark.parametrize("rules", RULESETS)
def test_no_observation_changes_on_a_wall_dealt_again(rules: str) -> None:
    # Game(wall=...): the places of the wall holding what a seat may not know shuffled,
    # the hand played again to the same moment (the other seats asked about a tile there
    # that were not here pass). The dict, arrays and mask of each seat asked now are the
    # same. (A seat not asked is shown nothing at such a moment: while others decide on
    # a discard the game may wait or, nobody able to claim it, move on.)
    compared = skipped = changed = 0
    for seed in range(12):
        g = haidi.Game(rules, seed=seed)
        rng = random.Random(seed)
        step = 0
        while not g.done:
            if step % 25 == 7:
                for seat in g.to_act:
                    wall = dealt_again(g, seat, rng)
                    assert sorted(wall) == sorted(g.wall)
                    h = replayed(g, wall)
                    if h is None:
                        skipped += 1
                        continue
                    assert h.observation(seat) == g.observation(seat)
                    assert np.array_equal(h.observation_array(seat, "v1"), g.observation_array(seat, "v1"))
                    assert np.array_equal(h.legal_mask(seat), g.legal_mask(seat))
                    compared += 1
                    others = [o for o in range(4) if o != seat]
                    changed += any(h.observation(o)["hand"] != g.observation(o)["hand"] for o in others)
            seat = rng.choice(g.to_act)
            g.step(seat, policy(g, seat, rng))
            step += 1
    assert compared > 3 * skipped and compared > 15, (compared, skipped)
    assert changed > compared / 2  # the other seats' hands were dealt again
