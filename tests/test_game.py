"""haidi.Game and haidi.simulate: whole hands of every ruleset, their invariants, and the
flow rules of the seeds (each test quotes its line), on seeded and stacked walls."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import haidi
from haidi.rulesets import REGISTRY

SEEDS_PER_RULESET = 300


def tiles_of(text: str) -> list[str]:
    """Compact notation (``123m55z``) as tile names, written order kept."""
    out: list[str] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    assert not digits, text
    return out


def tile_set(rules: str) -> list[str]:
    spec = haidi.ruleset(rules).spec
    flowers = tiles_of(spec.flowers) if REGISTRY[rules].GAME.flowers else []
    return [t for t in tiles_of(spec.tiles) for _ in range(4)] + flowers


def stacked_wall(rules: str, hands: list[str], draws: str = "", back: str = "") -> list[str]:
    """A wall dealing ``hands`` (seat 0 the dealer's 14, its last tile dealt last), then
    the draws from the front; ``back`` are the first replacements (from the end); the
    other tiles fill the middle. Deal order (docs/game.md): four tiles a seat at a time,
    three times, then one each, then the dealer's extra."""
    seats = [tiles_of(h) for h in hands]
    size = len(seats[1])
    front: list[str] = []
    taken = [0, 0, 0, 0]
    for r in range(-(-size // 4)):
        for s in range(4):
            n = min(4, size - 4 * r)
            front += seats[s][taken[s] : taken[s] + n]
            taken[s] += n
    front.append(seats[0][size])
    front += tiles_of(draws)
    end = tiles_of(back)
    left = Counter(tile_set(rules))
    left.subtract(front + end)
    assert all(n >= 0 for n in left.values()), left
    middle = sorted(left.elements(), key=lambda t: (t[1] == "f", t[1], t[0]))
    return front + middle + end[::-1]


def random_game(
    rules: str, seed: int, wins: bool = True, carry: dict[str, Any] | None = None
) -> tuple[haidi.Game, int]:
    """A hand played by random legal actions; ``wins``: a legal win is always taken;
    ``carry``: what the hand before handed on."""
    g = haidi.Game(rules, seed=seed, carry=carry)
    rng = random.Random(seed)
    steps = 0
    while not g.done:
        seat = rng.choice(g.to_act)
        legal = g.legal_actions(seat)
        choice = {"type": "win"} if wins and {"type": "win"} in legal else rng.choice(legal)
        g.step(seat, choice)
        steps += 1
        assert steps < 2000
    return g, steps


@pytest.mark.parametrize("rules", sorted(REGISTRY))
def test_random_hands_end_account_for_every_tile_and_rescore(rules: str) -> None:
    rs = haidi.ruleset(rules)
    won = 0
    # The seeds are played as one match: each hand dealt with the carry of the one before.
    carry = None
    dealers, winds, streaks = set(), set(), set()
    for seed in range(SEEDS_PER_RULESET):
        g, _ = random_game(rules, seed, wins=seed % 2 == 0, carry=carry)
        # Every tile is somewhere, once: the counts of the tile set.
        counts, flowers = g._tile_counts()
        kinds = set(tiles_of(rs.spec.tiles))
        assert counts == [4 if t in kinds else 0 for t in haidi.tile_names()]
        assert flowers == (len(tiles_of(rs.spec.flowers)) if REGISTRY[rules].GAME.flowers else 0)
        r = g.result
        assert r is not None
        assert len(r["payments"]) == 4 and sum(r["payments"]) == 0
        assert r["exhausted"] == (not r["wins"])
        totals = [e["total"] for e in g.log if e["event"] == "win"]
        for w, total in zip(r["wins"], totals, strict=True):
            # The game's scorer and evaluate agree: the win scores, and as much.
            again = rs.evaluate(**w["situation"])
            assert again["win"] and again["total"] == total == w["score"]["total"], w
            won += 1
            assert w["situation"].get("round_wind", g.carry["round_wind"]) == g.carry["round_wind"]
        log = g.log
        assert json.loads(json.dumps(log)) == log
        assert log[0]["carry"] == g.carry == (carry or log[0]["carry"])
        replayed = haidi.Game.replay(log)
        assert replayed.result == r
        assert haidi.Game(rules, seed=seed).wall == g.wall
        carry = r["next"]
        dealers.add(carry["dealer"])
        winds.add(carry["round_wind"])
        streaks.add(carry["streak"])
    assert won > 0, f"no {rules} hand was won: the win check never says yes"
    # The match went round the table: the deal passed on, the wind moved on.
    assert len(dealers) > 2 and len(winds) > 1
    assert (max(streaks) > 0) == (rules != "mcr")


@pytest.mark.parametrize("rules", sorted(REGISTRY))
def test_the_same_seed_deals_the_same_wall_and_log(rules: str) -> None:
    a, _ = random_game(rules, 11)
    b, _ = random_game(rules, 11)
    assert a.log == b.log
    assert haidi.Game(rules, seed=12).wall != a.wall
    assert sorted(a.wall) == sorted(tile_set(rules))


def test_the_wall_is_the_documented_splitmix_shuffle() -> None:
    # Fisher-Yates from the last place down with SplitMix64 (docs/game.md), written here
    # from the published algorithm.
    def splitmix(state: int) -> tuple[int, int]:
        state = (state + 0x9E3779B97F4A7C15) % 2**64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        return state, z ^ (z >> 31)

    wall = tile_set("mcr")
    state = 7
    for i in range(len(wall) - 1, 0, -1):
        state, x = splitmix(state)
        j = ((x >> 32) * (i + 1)) >> 32
        wall[i], wall[j] = wall[j], wall[i]
    assert haidi.Game("mcr", seed=7).wall == wall


def test_simulate_plays_whole_hands_that_pay_to_zero() -> None:
    for rules in sorted(REGISTRY):
        out = haidi.simulate(rules, 300, seed=3)
        n = len(out["winner"])
        assert n == 300 and out["payments"].shape == (300, 4)
        assert (out["payments"].sum(axis=1) == 0).all()
        assert ((out["winner"] >= 0) == ~out["exhausted"]).all()
        # Exhausted hands pay nothing but Hainan's kongs and Tangshan's 跟庄.
        assert (
            out["payments"][out["exhausted"] & (out["winner"] < 0)].any(axis=1) <= (rules in ("hainan", "tangshan"))
        ).all()
        assert len(set(out["seeds"].tolist())) == 300
        again = haidi.simulate(rules, 300, seed=3)
        for k in out:
            np.testing.assert_array_equal(out[k], again[k])
    # The hands of a batch are numbered across its runs: a longer batch begins the same.
    a, b = haidi.simulate("mcr", 50, seed=9), haidi.simulate("mcr", 500, seed=9)
    np.testing.assert_array_equal(a["turns"], b["turns"][:50])


def test_illegal_actions_are_refused_by_name() -> None:
    g = haidi.Game("changsha", seed=7)
    assert g.to_act == [0]
    with pytest.raises(haidi.HandError, match="seat 1 is not to act"):
        g.step(1, {"type": "discard", "tile": "5m"})
    held = g.observation(0)["hand"]
    absent = next(t for t in haidi.tile_names()[:27] if t not in re.findall(r"\d[mps]", _expand(held)))
    with pytest.raises(haidi.HandError, match=f"'discard', 'tile': '{absent}'.*not legal"):
        g.step(0, {"type": "discard", "tile": absent})
    for bad, msg in [
        ("discard", "an action is a dict"),
        ({"type": "discard"}, "needs its 'tile'"),
        ({"type": "discard", "tile": "5x"}, "tile of a discard action"),
        ({"type": "pung", "tile": "5m"}, "names no tile"),
        ({"type": "fly"}, "unknown action type"),
        ({"type": "DISCARD", "tile": "5m"}, 'unknown action type "DISCARD"'),
        (10**20, "action id 100000000000000000000 is out of range"),
        (-1, "action id -1 is out of range"),
        ({"type": "win", "extra": 1}, "keys type and tile only"),
        ({"type": "discard", "tile": "1z"}, "not legal"),
    ]:
        with pytest.raises(haidi.HandError, match=msg):
            g.step(0, bad)
    for seat in (4, -1, "0", True, None):
        with pytest.raises(haidi.HandError, match="seat"):
            g.step(seat, {"type": "pass"})  # type: ignore[arg-type]
    with pytest.raises(haidi.HandError, match="seed"):
        haidi.Game("mcr", seed=-1)
    with pytest.raises(haidi.HandError, match="unknown ruleset"):
        haidi.Game("riichi")
    with pytest.raises(haidi.HandError, match="holds its tile set once"):
        haidi.Game("mcr", wall=["1m"] * 144)
    assert g.legal_actions(2) == []
    done, _ = random_game("mcr", 1)
    with pytest.raises(haidi.HandError, match="over"):
        done.step(0, {"type": "pass"})


def _expand(compact: str) -> str:
    return "".join(tiles_of(compact))


def test_replay_refuses_a_changed_log() -> None:
    g, _ = random_game("hainan", 5)
    log = g.log
    changed = [dict(e) for e in log]
    i = next(i for i, e in enumerate(changed) if e["event"] == "draw")
    changed[i]["tile"] = "9z" if changed[i]["tile"] != "9z" else "1m"
    logged = changed[i]["tile"]
    with pytest.raises(haidi.HandError, match=rf"log event {i} \('draw'\) differs in the replay: 'tile': '{logged}'"):
        haidi.Game.replay(changed)
    with pytest.raises(haidi.HandError, match="starts with its start"):
        haidi.Game.replay(log[1:])
    # A start with neither a seed nor a wall has nothing to deal: refused as such.
    for gone in ({"seed": None, "wall": None}, {"seed": None}):
        start = {k: v for k, v in log[0].items() if k not in ("seed", "wall")} | gone
        with pytest.raises(haidi.HandError, match="neither a seed nor a wall"):
            haidi.Game.replay([start, *log[1:]])
    # A start event holds the whole wall: only the keys that differ are named.
    for key, value in [("x", 1), ("options", None)]:
        start = {k: v for k, v in log[0].items() if k != key} | ({} if value is None else {key: value})
        with pytest.raises(haidi.HandError) as info:
            haidi.Game.replay([start, *log[1:]])
        assert str(info.value).startswith(f"log event 0 ('start') differs in the replay: '{key}': ")
        assert len(str(info.value)) < 200


@pytest.mark.parametrize(
    "rules, options", [("longgang", {"optional": ["one_dragon"]}), ("beijing", {"variant": "draft4"})]
)
def test_a_log_read_back_from_json_replays(rules: str, options: dict) -> None:
    """A log is JSON-ready: read back from its JSON text (an option's tuple now a list),
    it replays equal to itself."""
    g = haidi.Game(rules, seed=3, options=options)
    while not g.done:
        seat = g.to_act[0]
        g.step(seat, g.legal_actions(seat)[0])
    log = json.loads(json.dumps(g.log))
    assert log == g.log
    assert haidi.Game.replay(log).log == log


@pytest.mark.parametrize("wall", [None, 5, True, ["1m"], "1m2m"])
def test_replay_reads_the_wall_of_a_seeded_log_as_game_does(wall: object) -> None:
    g, _ = random_game("beijing", 3)
    changed = [dict(g.log[0], wall=wall), *g.log[1:]]
    with pytest.raises(haidi.HandError, match="wall"):
        haidi.Game.replay(changed)


def decline_dealt_wins(g: haidi.Game) -> None:
    """Passes the wins on dealt hands (Changsha's 起手胡) a stacked wall may offer."""
    while not any(a["type"] == "discard" for a in g.legal_actions(g.to_act[0])):
        g.step(g.to_act[0], {"type": "pass"})


# Stacked walls for the flow rules. Seat 0 deals; its 14th tile is 4s, which it discards.
ONE_DISCARD_TWO_WINS = ["444p888p555s888s9m4s", "123m456m789m22p56s", "123p456p789p55m23s", "111s999s777m333m6p"]


def test_changsha_every_seat_wins_on_one_discard() -> None:
    # Seed 000: "3、通炮：即幾個玩家可衚衕一張牌，即為通炮，輸家要付清所有胡分。"
    g = haidi.Game("changsha", wall=stacked_wall("changsha", ONE_DISCARD_TWO_WINS, draws="7p"))
    decline_dealt_wins(g)
    g.step(0, {"type": "discard", "tile": "4s"})
    assert g.to_act == [1, 2]
    g.step(1, {"type": "win"})
    g.step(2, {"type": "win"})
    r = g.result
    assert r is not None and [w["seat"] for w in r["wins"]] == [1, 2]
    assert r["payments"][0] < 0 < r["payments"][1] and r["payments"][2] > 0 and r["payments"][3] == 0
    # "扎鳥：玩家胡牌后，再摸緊跟著的牌即為鳥牌": the bird is the next tile, 7p, on the dealer's
    # opposite seat (seven counted from the dealer: 1, 2, 3, 4, 5, 6, 7 -> seat 2).
    assert r["outcome"]["birds"][0] == "7p"


def test_hainan_only_the_first_seat_wins_on_one_discard() -> None:
    # Seed 002: "C 、截胡：打出一张牌，多人要胡，按照顺序只有第一人算胡，后面的不能算胡。"
    g = haidi.Game("hainan", wall=stacked_wall("hainan", ONE_DISCARD_TWO_WINS))
    g.step(0, {"type": "discard", "tile": "4s"})
    assert g.to_act == [1, 2]
    g.step(2, {"type": "win"})
    g.step(1, {"type": "win"})
    r = g.result
    assert r is not None and [w["seat"] for w in r["wins"]] == [1]
    assert r["payments"][1] > 0 and r["payments"][2] <= 0


def test_hainan_pung_takes_the_discard_before_chow() -> None:
    # Seed 002: "其中，“杠”、“碰”比“吃”优先，吃牌只能吃上家。"
    hands = ["444p888p555s777s9m4s", "123m456m789m22p56s", "111s999s666p888m2m", "44s999p777p333p3m5p"]
    g = haidi.Game("hainan", wall=stacked_wall("hainan", hands))
    g.step(0, {"type": "discard", "tile": "4s"})
    assert {"type": "chow", "tile": "4s"} in g.legal_actions(1)
    assert {"type": "pung"} in g.legal_actions(3)
    # Only the player after the discarder (下家, whose 上家 discarded) may chow.
    assert not any(a["type"] == "chow" for a in g.legal_actions(3))
    g.step(1, {"type": "chow", "tile": "4s"})
    g.step(3, {"type": "pung"})
    claim = [e for e in g.log if e["event"] == "claim"]
    assert claim == [{"event": "claim", "seat": 3, "from": 0, "meld": "pung", "tiles": "[444s,1]"}]
    assert g.to_act == [3]


def test_changsha_a_passed_win_waits_for_the_next_draw() -> None:
    # Seed 000: "5 ，漏胡：如果玩家漏掉了炮胡，則在玩家摸牌前禁止炮胡。摸牌后一切正常。"
    hands = ["444m666m333s777s9s4s", "111m999m111p999p5s", "123p456p789p55m23s", "222m333m777m888s6p"]
    g = haidi.Game("changsha", wall=stacked_wall("changsha", hands, draws="4s8p4s"))
    decline_dealt_wins(g)
    g.step(0, {"type": "discard", "tile": "4s"})
    assert {"type": "win"} in g.legal_actions(2)
    g.step(2, {"type": "pass"})
    g.step(1, {"type": "discard", "tile": "4s"})  # seat 1 drew the second 4s
    # Seat 2 has not drawn since it passed: it may chow, but not win.
    assert g.legal_actions(2) == [{"type": "chow", "tile": "2s"}, {"type": "pass"}]
    g.step(2, {"type": "pass"})
    assert g.to_act == [2]  # it drew 8p
    g.step(2, {"type": "discard", "tile": "8p"})
    g.step(3, {"type": "discard", "tile": "4s"})  # seat 3 drew the third 4s
    assert {"type": "win"} in g.legal_actions(2)


def test_changsha_offers_the_last_tile_in_turn() -> None:
    # Seed 000: "1、海底牌漫遊：即玩家可選擇是否要海底牌(因含有點海底炮胡的風險) ，按照座次輪詢。"
    offers = 0
    for seed in range(60):
        g = haidi.Game("changsha", seed=seed)
        rng = random.Random(seed)
        while not g.done:
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            if legal == [{"type": "take"}, {"type": "pass"}]:
                offers += 1
                assert g.observation(seat)["wall"] == 1
                choice = rng.choice(legal)
                g.step(seat, choice)
                if choice["type"] == "pass" and not g.done:
                    # The next seat in turn is asked, unless all four let it go.
                    assert g.legal_actions((seat + 1) % 4)[0] == {"type": "take"}
                elif choice["type"] == "take" and not g.done:
                    # Its taker wins on it or passes; it is not discarded.
                    assert all(a["type"] in ("win", "pass") for a in g.legal_actions(seat))
                continue
            g.step(seat, rng.choice(legal))
    assert offers > 30


def test_hainan_keeps_seven_and_a_half_stacks_and_discards_no_last_tile() -> None:
    # Seed 002: "如果还剩下七墩半牌时仍然无人胡牌（即黄庄）" and "牌墙内可摸的最后一张不用打出，
    # 倒数第二张玩家摸进后打出的牌不允许吃碰杠，只能胡".
    drawn = 0
    for seed in range(40):
        g, _ = random_game("hainan", seed, wins=False)
        if not g.result["exhausted"]:  # type: ignore[index]
            continue
        drawn += 1
        assert len(g._record()["rest"]) == 15
        log = g.log
        last_draw = max(i for i, e in enumerate(log) if e["event"] == "draw")
        assert not any(e["event"] == "action" and e["action"]["type"] == "discard" for e in log[last_draw:])
    assert drawn > 10


def test_claims_and_kongs_follow_the_rules() -> None:
    # Chows only from the player on the left ("吃牌只能吃上家", seed 002); a kong's
    # replacement from the end of the wall ("補張：玩家開杠后，補發玩家一張牌", seed 000).
    kongs = 0
    for rules in ("mcr", "changsha", "hainan"):
        for seed in range(40):
            g, _ = random_game(rules, seed)
            log = g.log
            wall = log[0]["wall"]
            back = len(wall)
            for i, e in enumerate(log):
                if e["event"] == "claim" and e["meld"] == "chow":
                    assert e["from"] == (e["seat"] - 1) % 4
                if e["event"] == "draw" and e["replacement"]:
                    back -= 1
                    assert e["tile"] == wall[back]
                if e["event"] == "action" and e["action"]["type"] in ("kong", "concealed_kong"):
                    kongs += 1
                    following = next(x for x in log[i + 1 :] if x["event"] == "draw")
                    assert following["replacement"] and following["seat"] == e["seat"]
    assert kongs > 0


def test_observation_shows_own_tiles_and_what_is_public() -> None:
    g = haidi.Game("mcr", seed=3)
    o = g.observation(1)
    # Seat 1 is not asked: it sees no decision, not even whose it is.
    assert o["seat"] == 1 and o["to_act"] == [] and o["legal_actions"] == [] and o["decision"] is None
    assert g.observation(0)["to_act"] == [0] and g.observation(0)["decision"] == "draw"
    assert len(tiles_of(o["hand"])) == 13 and o["concealed_counts"][0] == 14
    assert o["wall"] == 144 - 53 - sum(len(f) for f in o["flowers"])
    assert json.loads(json.dumps(o)) == o


def test_a_game_pickles_as_its_log() -> None:
    import pickle

    g, _ = random_game("changsha", 4)
    again = pickle.loads(pickle.dumps(g))
    assert again.log == g.log and again.result == g.result


SEED_TEXTS = Path("/work/shared/seeds")


@pytest.mark.skipif(not SEED_TEXTS.is_dir(), reason="the seed texts are not on this machine")
def test_game_rules_quote_the_seeds() -> None:
    seeds = "".join(p.read_text(encoding="utf-8") for p in sorted(SEED_TEXTS.iterdir()))
    flat = re.sub(r"\s", "", seeds)
    for name, module in REGISTRY.items():
        for field, quote in module.GAME.sources.items():
            if field == "wild":
                continue  # the readings of the situation keys (docs/tangshan.md, docs/beijing.md)
            assert re.sub(r"\s", "", quote) in flat, (name, field)


@pytest.mark.parametrize("rules", sorted(REGISTRY))
def test_greedy_hands_win_and_every_win_rescores(rules: str) -> None:
    # The greedy agent wins most hands: each win's situation scores again to the
    # game's total, and the payments sum to zero.
    from haidi import _core
    from haidi.game import flow_rules

    rs = haidi.ruleset(rules)
    raw = _core.simulate(flow_rules(rs), rs.scorer, 150, 5, "greedy")
    assert (raw["winner"] >= 0).mean() > 0.5
    for _, record in raw["records"]:
        for w in record["wins"]:
            assert rs.evaluate(**w["situation"])["total"] == w["total"], w
    out = haidi.simulate(rules, 150, seed=5, agents="greedy")
    assert (out["payments"].sum(axis=1) == 0).all()
    assert (out["payments"][out["winner"] >= 0] != 0).any()
    with pytest.raises(haidi.HandError, match="agents must be"):
        haidi.simulate(rules, 1, agents="clever")


def test_the_observation_array_counts_what_the_dict_shows() -> None:
    g, _ = random_game("tangshan", 8)
    for seat in range(4):
        o, a = g.observation(seat), g.observation_array(seat)
        assert a.shape == (11, 34) and a.dtype == np.uint8
        names = haidi.tile_names()
        assert [names[k] for k in range(34) for _ in range(a[0, k])] == sorted(tiles_of(o["hand"]), key=names.index)
        for r in range(4):
            other = (seat + r) % 4
            assert a[5 + r].sum() == len(o["discards"][other])
            assert a[1 + r].sum() == sum(len(tiles_of(m.strip("[]{}+").split(",")[0])) for m in o["melds"][other])
        assert [names[k] for k in np.flatnonzero(a[9])] == o["wilds"]
        assert [names[k] for k in np.flatnonzero(a[10])] == [o["indicator"]]


def test_beijing_keeps_seven_stacks_and_one_more_a_kong_after_the_first() -> None:
    # Seed 004: "所有的牌只抓到倒数第7砘牌为结束。执行1个杠留7砘" and "2个杠留8砘牌的规定".
    seen = set()
    for seed in range(40):
        g, _ = random_game("beijing", seed, wins=False)
        if not g.result["exhausted"]:  # type: ignore[index]
            continue
        record = g._record()
        kongs = sum(m["meld"] in ("kong", "added_kong", "concealed_kong") for m in record["melds"])
        # The 海底 tile let go ("可以选择放弃抓“海底牌”") is the one tile left to draw.
        assert record["left"] in (0, 1)
        assert len(record["rest"]) == 14 + 2 * max(0, kongs - 1) + record["left"]
        seen.add(min(kongs, 2))
    assert seen >= {0, 2}


# The chances each ruleset's flow rules make (beyond draws and discards): Changsha's 海底
# tile shown and its dealt hands, Longgang's 分张, Beijing's concealed kongs robbed.
CHANCES = {
    "changsha": {"haidi", "dealt"},
    "longgang": {"split"},
    "beijing": {"rob_concealed"},
}


@pytest.mark.parametrize("rules", sorted(REGISTRY))
def test_a_win_is_offered_exactly_when_the_scorer_says_the_hand_wins(rules: str) -> None:
    # docs/game.md: "a `win` action is legal exactly when the ruleset says the hand wins".
    # 2,000 hands of random agents that take a win one time in four: at every chance of a
    # win (a tile drawn or replaced, a discard, a kong added or made concealed, the 海底
    # tile, a dealt hand, a 分张 tile) the situation is scored again by the scorer alone,
    # without the game's quick tests of waits; a win offered that it refuses, or a win it
    # scores that is not offered, is a finding. A few of each are scored by `evaluate`.
    from haidi import _core
    from haidi.game import flow_rules

    rs = haidi.ruleset(rules)
    out = _core._audit_wins(flow_rules(rs), rs.scorer, 2000, 1)
    assert out["findings"] == []
    weighed, offered = out["weighed"], out["offered"]
    assert weighed["draw"] > 50_000 and weighed["discard"] > 200_000 and weighed["rob"] > 100
    assert offered["draw"] > 0 and offered["discard"] > 0
    for chance in CHANCES.get(rules, set()):
        assert weighed[chance] > 100, chance
    for chance, n in weighed.items():
        assert n == 0 or chance in CHANCES.get(rules, set()) | {"draw", "discard", "rob"}, chance
    for s in out["samples"]:
        again = rs.evaluate(**s["situation"])
        assert again["win"] == (s["total"] is not None), s
        assert s["total"] is None or again["total"] == s["total"], s
    assert {s["total"] is not None for s in out["samples"]} == {True, False}


def test_a_log_is_json_ready_whatever_types_the_options_came_in() -> None:
    """The start event keeps the options as read: numpy's scalars as Python's."""
    import numpy as np

    g = haidi.Game("hainan", 0, {"discard_each": np.int64(5), "white_dragon": np.bool_(True)})
    start = json.loads(json.dumps(g.log))[0]
    assert start["options"] == {"discard_each": 5, "white_dragon": True}
    assert haidi.Game.replay(g.log).log == g.log
