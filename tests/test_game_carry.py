"""The dealer across hands: ``haidi.Game(carry=...)`` and ``result["next"]``, each
ruleset's rule quoting its seed, checked against a transcription of the seeds' lines
written here (docs/game.md, "The dealer across hands")."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_game import ONE_DISCARD_TWO_WINS, decline_dealt_wins, stacked_wall

import haidi
from haidi.rulesets import REGISTRY

ORDER = "ESWN"


def next_seat(rules: str, wins: list[dict[str, Any]]) -> int:
    """The seat of a played hand (0 its dealer) that deals the next, by the seeds' words;
    ``wins`` the hand's win events."""
    winners = [w["seat"] for w in wins]
    if rules == "mcr":
        return 1  # the competition rule: the deal passes on every hand (the seed is silent)
    if rules == "changsha":
        # "B 、首局后，通炮者坐莊，其次胡家坐莊。" A drawn hand: the dealer again (silent).
        if not winners:
            return 0
        return wins[0]["discarder"] if len(winners) > 1 else winners[0]
    if rules == "hainan":
        # "如果庄家胡牌的话，庄家继续做庄；闲家赢的话，则由该闲家的下一家当庄；…黄庄…由庄家继续坐庄"
        return 0 if not winners or winners[0] == 0 else (winners[0] + 1) % 4
    if rules == "longgang":
        # "庄家只有胡牌才能连庄，流局或闲家胡牌，轮庄（下家坐庄）"
        return 0 if 0 in winners else 1
    # Beijing: "如果轮到庄家和牌（或荒牌），则庄家可以连庄 ... 当闲家和牌时，再继续按原顺序进行轮庄";
    # Tangshan, "以北京麻将的打法为基础", likewise.
    return 0 if not winners or 0 in winners else 1


def expected_next(rules: str, carry: dict[str, Any], wins: list[dict[str, Any]]) -> dict[str, Any]:
    seat = next_seat(rules, wins)
    dealer = (carry["dealer"] + seat) % 4
    # Longgang: "第一圈是东方圈、第二圈是西风圈、接着是南方圈北风圈".
    order = "EWSN" if rules == "longgang" else ORDER
    wind = carry["round_wind"]
    if seat != 0 and dealer < carry["dealer"]:  # the deal came round to the first dealer
        wind = order[(order.index(wind) + 1) % 4]
    if rules == "hainan":
        # "如果庄家连续胡牌，每连庄一次": the dealer's wins running; a drawn hand keeps the count.
        streak = carry["streak"] + 1 if wins and wins[0]["seat"] == 0 else carry["streak"] if not wins else 0
    else:
        streak = carry["streak"] + 1 if seat == 0 else 0
    out = {"dealer": dealer, "round_wind": wind, "streak": streak}
    if rules == "beijing":
        # "3、上楼。庄家连庄或荒牌，上楼，仅有2层。"
        out["floor"] = min(carry["floor"] + 1, 2) if seat == 0 else 0
    return out


def greedy_hand(rules: str, seed: int, carry: dict[str, Any] | None) -> haidi.Game:
    g = haidi.Game(rules, seed=seed, carry=carry)
    while not g.done:
        seat = g.to_act[0]
        action = g._greedy(seat)
        assert action is not None
        g.step(seat, action)
    return g


@pytest.mark.parametrize("rules", sorted(REGISTRY))
def test_a_match_hands_the_dealer_streak_and_wind_on_by_the_seed(rules: str) -> None:
    carry: dict[str, Any] | None = None
    seen = set()
    for seed in range(48):
        g = greedy_hand(rules, seed, carry)
        r = g.result
        assert r is not None
        wins = [e for e in g.log if e["event"] == "win"]
        assert r["next"] == expected_next(rules, g.carry, wins)
        seen.add("drawn" if not wins else "dealer" if wins[0]["seat"] == 0 else "other")
        carry = r["next"]
    assert {"dealer", "other"} <= seen


def test_changsha_the_discarder_of_a_double_win_deals_next() -> None:
    # Seed 000: "B 、首局后，通炮者坐莊，其次胡家坐莊。"
    wall = stacked_wall("changsha", ONE_DISCARD_TWO_WINS, draws="7p")
    both = haidi.Game("changsha", wall=wall, carry={"dealer": 2, "round_wind": "S", "streak": 1})
    decline_dealt_wins(both)
    both.step(0, {"type": "discard", "tile": "4s"})
    both.step(1, {"type": "win"})
    both.step(2, {"type": "win"})
    assert both.result is not None
    # The dealer fed both winners (通炮): it deals again, though it did not win.
    assert both.result["next"] == {"dealer": 2, "round_wind": "S", "streak": 2}
    one = haidi.Game("changsha", wall=wall, carry={"dealer": 2, "round_wind": "S", "streak": 1})
    decline_dealt_wins(one)
    one.step(0, {"type": "discard", "tile": "4s"})
    one.step(1, {"type": "win"})
    one.step(2, {"type": "pass"})
    assert one.result is not None
    # One winner (其次胡家坐莊): seat 1, at table position 3.
    assert one.result["next"] == {"dealer": 3, "round_wind": "S", "streak": 0}


def test_hainan_the_streak_reaches_settle() -> None:
    # Seed 002: "如果庄家连续胡牌，每连庄一次，则有人自摸时，庄家胡牌和杠牌的加减分数都要加一倍".
    rs = haidi.ruleset("hainan")
    for seed in range(200):
        g = greedy_hand("hainan", seed, None)
        assert g.result is not None
        w = g.result["wins"]
        if w and w[0]["seat"] == 0 and w[0]["situation"].get("self_drawn") and not g.result["outcome"]["kongs"]:
            break
    else:
        pytest.fail("no self-drawn dealer win without kongs in 200 greedy hands")
    actions = [(e["seat"], e["action"]) for e in g.log if e["event"] == "action"]
    again = haidi.Game("hainan", seed=seed, carry={"streak": 2})
    for seat, action in actions:
        again.step(seat, action)
    assert again.result is not None and again.result["outcome"]["dealer_streak"] == 2
    each = rs.options()["self_drawn_each"]
    # Two hands kept: each step adds one more time (the linear default): 3 x 20 from each.
    assert g.result["payments"] == [3 * each, -each, -each, -each]
    assert again.result["payments"] == [9 * each, -3 * each, -3 * each, -3 * each]
    assert again.result["next"]["streak"] == 3


def test_mcr_the_prevailing_wind_is_the_carrys() -> None:
    # The round wind scores in MCR (圈风刻, "60 圈風刻 與圈風相同的風刻"): the carry's is played.
    for seed in range(60):
        g = greedy_hand("mcr", seed, {"round_wind": "W", "dealer": 3})
        assert g.observation(0)["round_wind"] == "W"
        assert g.result is not None
        for w in g.result["wins"]:
            assert w["situation"]["round_wind"] == "W"
        # Table position 3 dealt: the deal comes round to position 0, and the North round begins.
        assert g.result["next"] == {"dealer": 0, "round_wind": "N", "streak": 0}


def test_beijing_draft4_floor_reaches_settle() -> None:
    # Seed 004 (第4稿): "3、上楼。庄家连庄或荒牌，上楼，仅有2层。"
    options = {"variant": "draft4"}
    for seed in range(100):
        g = haidi.Game("beijing", seed=seed, options=options, carry={"floor": 2})
        while not g.done:
            g.step(g.to_act[0], g._greedy(g.to_act[0]))  # type: ignore[arg-type]
        r = g.result
        assert r is not None
        if r["wins"]:
            assert r["outcome"]["floor"] == 2
            low = haidi.Game("beijing", seed=seed, options=options)
            for e in g.log:
                if e["event"] == "action":
                    low.step(e["seat"], e["action"])
            assert low.result is not None
            # Two floors up: each payment for the win four times the ground floor's.
            kongs = r["outcome"].get("concealed_kongs") or r["outcome"].get("exposed_kongs_from")
            if not kongs and not r["outcome"]["follow_dealer"]:
                assert r["payments"] == [4 * p for p in low.result["payments"]]
                return
    pytest.fail("no Beijing draft4 hand won without kongs")


def test_a_bad_carry_is_refused_by_name() -> None:
    with pytest.raises(haidi.HandError, match="unknown key.*floor"):
        haidi.Game("mcr", carry={"floor": 1})
    with pytest.raises(haidi.HandError, match="round_wind"):
        haidi.Game("mcr", carry={"round_wind": "east"})
    with pytest.raises(haidi.HandError, match="dealer"):
        haidi.Game("mcr", carry={"dealer": 4})
    with pytest.raises(haidi.HandError, match="streak"):
        haidi.Game("hainan", carry={"streak": True})
    with pytest.raises(haidi.HandError, match="floor"):
        haidi.Game("beijing", carry={"floor": 3})
    with pytest.raises(haidi.HandError, match="carry must be a dict"):
        haidi.Game("mcr", carry=[0, "E"])  # type: ignore[arg-type]


def test_the_carry_is_logged_and_replayed() -> None:
    carry = {"dealer": 1, "round_wind": "S", "streak": 3}
    g = greedy_hand("hainan", 5, carry)
    assert g.log[0]["carry"] == carry == g.carry
    again = haidi.Game.replay(g.log)
    assert again.carry == carry and again.result == g.result
    assert again.result is not None and again.result["next"] == g.result["next"]  # type: ignore[index]
    rng = random.Random(0)
    # Every next carry is one Game takes.
    for rules in REGISTRY:
        g = haidi.Game(rules, seed=rng.randrange(1000))
        while not g.done:
            g.step(g.to_act[0], rng.choice(g.legal_actions(g.to_act[0])))
        assert g.result is not None
        assert haidi.Game(rules, seed=1, carry=g.result["next"]).carry == g.result["next"]


@pytest.mark.parametrize("rules", haidi.RULESETS)
def test_a_carry_reads_its_wind_as_a_situation_reads_round_wind(rules):
    """The prevailing wind of a carry is read as ``evaluate`` reads ``round_wind`` (a
    letter in either case, 1z-4z or 0-3) and kept as its letter; what ``evaluate`` refuses
    (spaces around it, a bool, other text) the carry refuses too."""
    rs = haidi.ruleset(rules)
    hand = {"mcr": dict(hand="123m456p789s1122z", win="2z")}.get(rules)
    for given, letter in [("W", "W"), ("w", "W"), ("3z", "W"), (2, "W"), ("n", "N")]:
        assert haidi.Game(rules, seed=1, carry={"round_wind": given}).carry["round_wind"] == letter
        if hand is not None:
            assert rs.evaluate(**hand, round_wind=given) == rs.evaluate(**hand, round_wind=letter)
    for bad in (" E", "E ", "East", "", True, 4, "5z"):
        with pytest.raises(haidi.HandError, match="round_wind"):
            haidi.Game(rules, seed=1, carry={"round_wind": bad})
        if hand is not None:
            with pytest.raises(haidi.HandError, match="round_wind"):
                rs.evaluate(**hand, round_wind=bad)


def test_a_carry_reads_numpy_numbers_and_names_a_bad_key() -> None:
    np = pytest.importorskip("numpy")
    game = haidi.Game("mcr", carry={"dealer": np.int64(1), "round_wind": np.int64(2), "streak": np.uint8(3)})
    assert game.carry == haidi.Game("mcr", carry={"dealer": 1, "round_wind": "W", "streak": 3}).carry
    for carry, key in (({"dealer": 4}, "dealer"), ({"dealr": 1}, "dealr"), ({"round_wind": "X"}, "round_wind")):
        with pytest.raises(haidi.HandError) as e:
            haidi.Game("mcr", carry=carry)
        assert e.value.key == key
