"""Beijing (北京): 惠牌 from the 惠坯, the 网狐 番 table, 实例1 and 实例2, 互包, 烧庄, 第4稿, CLI."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import haidi
from haidi.rulesets.beijing import kept_stacks

RS = haidi.ruleset("beijing")


def fan_ids(r: dict) -> list:
    return sorted(f["id"] for f in r["fans"])


def test_wild_from_the_indicator_dragons() -> None:
    # "“惠坯”是中的话“惠牌”为发 ... 是发的话“惠牌”为白 ... 是白的话“惠牌”为中"
    for indicator, wild in (("7z", "6z"), ("6z", "5z"), ("5z", "7z"), ("9p", "1p"), ("4z", "1z")):
        r = RS.evaluate(hand="123m456p789s1122z", win="1z", indicator=indicator, seat_wind="S")
        assert r["wilds"] == (wild,) and r.to_dict()["wilds"] == [wild]


def test_example_1() -> None:
    # "实例1：底分2000，开局后有烧庄1轮，最后东家自摸，和牌牌型为对对和。"
    # "算分结果为：牌型：庄1番 对对和2番 烧庄：1番"
    r = RS.evaluate(hand="111m222p333s4z[555s]", win="4z", self_drawn=True, indicator="9p")
    assert fan_ids(r) == ["all_pungs", "dealer"] and r["total"] == 3
    # "东家：12000 [（庄1番＋对对和2番）＊3＋（烧庄1番）＊（－3）]＊2000"
    # "南家：－4000 [（庄1番＋对对和2番）＊（－1）＋（烧庄1番）]＊2000 西家：－4000 北家：－4000"
    assert RS.settle(dict(winner=0, total=r["total"], burn_rounds=1, base=2000)) == [12000, -4000, -4000, -4000]


def test_example_2() -> None:
    # "实例2 ... 底分500，开局后有烧庄3轮，最后东家放铳给南家，和牌牌型为推倒和，南家和北家有互包关系。"
    # "算分结果为：牌型：庄1番 推倒和1番 烧庄：4番"
    r = RS.evaluate(hand="123m456p234s11z5z7s", win="8s", seat_wind="S", discarder_wind="E", indicator="6z")
    assert fan_ids(r) == ["dealer", "pushed_down"] and r["total"] == 2
    pay = RS.settle(dict(winner=1, discarder=0, total=r["total"], burn_rounds=3, mutual=[[1, 3]], base=500))
    # "东家：－6000 〔烧庄4番＊（－3）〕＊500  南家：3000 〔（庄1番＋推倒和1番）＋烧庄4番〕＊500
    #  西家：2000 （烧庄4番）＊500  北家：1000 〔（庄1番＋推倒和1番）＊（－1）＋烧庄4番〕＊500"
    assert pay == [-6000, 3000, 2000, 1000]


def test_mutual_with_two_seats_pays_double() -> None:
    # "如果和牌者同时和两家形成互包关系，则此两家各付一份和牌牌型番数：即和牌者可得双倍和牌牌型番数"
    assert RS.settle(dict(winner=1, discarder=2, total=3, mutual=[[1, 2], [3, 1]])) == [0, 6, -3, -3]
    # Self-drawn, one partner: the partner pays all (3 shares).
    assert RS.settle(dict(winner=2, total=2, mutual=[[2, 0]])) == [-6, 0, 6, 0]


def test_exhausted_pays_no_burn() -> None:
    # "但如果此把牌荒了，…则无须支付烧庄点"
    assert RS.settle(dict(winner=None, burn_rounds=2)) == [0, 0, 0, 0]


def test_kept_stacks() -> None:
    # "执行1个杠留7砘，2个杠留8砘牌的规定"; 第4稿 "一杠7，二杠8，三杠9"
    assert [kept_stacks(k) for k in range(4)] == [7, 7, 8, 9]


def test_melded_hands_win_only_self_drawn() -> None:
    # "吃碰后只能自摸，不能捉铳。门清可以捉铳，可以抢杠和"
    r = RS.evaluate(hand="111m222p333s4z[555s]", win="4z", seat_wind="S", discarder_wind="W")
    assert not r["win"] and "自摸" in r["reason"]
    r = RS.evaluate(hand="123m456p789s1122z", win="1z", seat_wind="S", robbing_kong=True)
    assert r["win"] and fan_ids(r) == ["concealed", "pushed_down"]


def test_concealed_needs_no_wild() -> None:
    r = RS.evaluate(hand="123m456p789s1125z", win="2z", seat_wind="S", wilds="5z")
    assert r["win"] and "concealed" not in fan_ids(r)
    r = RS.evaluate(hand="123m456p789s1125z", win="2z", seat_wind="S", wilds="5z", variant="draft4", self_drawn=True)
    assert "concealed" in fan_ids(r)


def test_catch_five_wan_only_5m() -> None:
    # "捉五魁：和牌时只和嵌单“五万”一张牌的牌型。（2番）"
    r = RS.evaluate(hand="46m456p234s11z789s", win="5m", seat_wind="S")
    assert fan_ids(r) == ["catch_five_wan", "concealed"] and r["total"] == 3
    r = RS.evaluate(hand="46p456m234s11z789s", win="5p", seat_wind="S")
    assert "catch_five_wan" not in fan_ids(r)


def test_catch_five_wan_with_a_wild_in_play() -> None:
    # A drawn 惠牌 would complete the hand too; it is not counted among the waits.
    r = RS.evaluate(hand="123m46m789p11z234s", win="5m", wilds="9s", seat_wind="S")
    assert "catch_five_wan" in fan_ids(r)
    # Also waiting on 4m: no 捉五魁, 惠牌 or not.
    r = RS.evaluate(hand="4666m123p456p789s", win="5m", wilds="9s", seat_wind="S")
    assert "catch_five_wan" not in fan_ids(r)


def test_big_single_and_straight() -> None:
    # "大钓：吃碰12张牌，只剩一张单钓和牌。（2番）"; "一条龙 ...（3番）"
    r = RS.evaluate(hand="1m[123p][456p][789p][111s]", win="1m", seat_wind="S", self_drawn=True)
    assert fan_ids(r) == ["big_single", "straight"] and r["total"] == 5
    # "吃碰12张牌" (全求人): every meld claimed. A concealed kong is not 吃碰: no 大钓.
    r = RS.evaluate(hand="1m[123p][456p][789p]{1111s}", win="1m", seat_wind="S", self_drawn=True)
    assert fan_ids(r) == ["straight"] and r["total"] == 3
    # Nor under 第4稿 ("（5）大钓：吃碰12张牌，只剩一张单钓和牌").
    r = RS.evaluate(hand="1m[123p][456p][789p]{1111s}", win="1m", seat_wind="S", self_drawn=True, variant="draft4")
    assert "big_single" not in fan_ids(r)


def test_seven_pairs_and_luxury() -> None:
    # "七对子 (4番)"; "“豪华七对子”不计“七对子”（8番）"
    r = RS.evaluate(hand="11223344m5566p7z", win="7z", seat_wind="W")
    assert fan_ids(r) == ["concealed", "seven_pairs"] and r["total"] == 5
    r = RS.evaluate(hand="11112233m5566p7z", win="7z", seat_wind="W")
    assert fan_ids(r) == ["concealed", "luxury_seven_pairs"] and r["total"] == 9
    # 第4稿: "豪华七对子 ... 在7对基础上加1番"
    r = RS.evaluate(hand="11112233m5566p7z", win="7z", seat_wind="W", variant="draft4")
    assert fan_ids(r) == ["concealed", "luxury_seven_pairs", "seven_pairs"] and r["total"] == 6


def test_one_suit_kong_flower_last_tile() -> None:
    r = RS.evaluate(hand="{1111m}234567999m8m", win="8m", seat_wind="N", self_drawn=True, kong_replacement=True)
    assert {"one_suit", "kong_flower"} <= set(fan_ids(r))
    r = RS.evaluate(hand="123m456p789s1122z", win="1z", seat_wind="S", wall_last=True, discarder_wind="W")
    assert fan_ids(r) == ["concealed", "last_tile"]


def test_heavenly_not_dealer_fan() -> None:
    # "“天和”不计“庄”（10番）"
    r = RS.evaluate(hand="123m456p789s1122z", win="1z", self_drawn=True, heavenly=True)
    assert fan_ids(r) == ["concealed", "heavenly"] and r["total"] == 11
    with pytest.raises(haidi.HandError):
        RS.evaluate(hand="123m456p789s1122z", win="1z", seat_wind="S", self_drawn=True, heavenly=True)


def test_situations_that_cannot_happen_are_refused() -> None:
    # No flowers: the only replacement tile is a kong's; 天和 and 地和 come before a first discard.
    hand = dict(hand="123m456p789s1122z", win="1z")
    for flags, named in [
        (dict(kong_replacement=True), "needs a kong"),
        (dict(wall_last=True, heavenly=True), "won before a first discard"),
        (dict(wall_last=True, earthly=True, seat_wind="S"), "won before a first discard"),
    ]:
        with pytest.raises(haidi.HandError, match=named):
            RS.evaluate(**hand, **flags)
        with pytest.raises(haidi.HandError, match=named):
            RS.evaluate_many({k: [v] for k, v in {**hand, **flags}.items()})
    assert RS.evaluate(hand="123m456p{7777s}1122z", win="1z", kong_replacement=True)["win"]
    # A kong made with the last tile still draws from the 保留牌: it may be robbed.
    assert RS.evaluate(**hand, wall_last=True, robbing_kong=True, seat_wind="S")["win"]


def test_four_wilds_win_whatever_the_shape() -> None:
    # "摸齐四个“惠牌”时自动和牌"
    r = RS.evaluate(hand="1379m2468p13s555z", win="5z", seat_wind="S", self_drawn=True, wilds="5z")
    assert r["win"] and fan_ids(r) == ["four_wilds"] and r["form"] == "four_wilds"


def test_a_concealed_kong_of_the_wild_is_four_wilds() -> None:
    # Four 惠牌 in a concealed kong are still 惠牌 held: "摸齐四个“惠牌”时自动和牌" (四惠牌), and
    # "门清：没有吃碰明杠过的牌型且手中没有惠牌" does not hold; three or more 惠牌 win only
    # self-drawn ("如果手中有三个“惠牌”：" ... "则必须自摸").
    hand = "{7777s}123m456m789m1p"
    r = RS.evaluate(hand=hand, win="1p", seat_wind="S", wilds="7s", self_drawn=True)
    assert r["win"] and fan_ids(r) == ["four_wilds", "straight"] and r["total"] == 11
    r = RS.evaluate(hand=hand, win="1p", seat_wind="S", wilds="7s", discarder_wind="W")
    assert not r["win"] and "自摸" in r["reason"]
    # The same concealed kong of a plain kind keeps the hand 门清, and it may win on a discard.
    r = RS.evaluate(hand=hand, win="1p", seat_wind="S", wilds="5z", discarder_wind="W")
    assert r["win"] and fan_ids(r) == ["concealed", "straight"]


def test_three_wilds_only_self_drawn() -> None:
    r = RS.evaluate(hand="123m456p789s1555z", win="1z", seat_wind="S", wilds="5z")
    assert not r["win"]


def test_draft4_pushed_down_only_self_drawn() -> None:
    # 第4稿: "推倒和只能自摸才能赢，但不算番，只记底数"
    r = RS.evaluate(hand="123m456p789s1125z", win="2z", seat_wind="S", wilds="5z", variant="draft4", discarder_wind="W")
    assert not r["win"] and "推倒和" in r["reason"]  # 门清 is no 加番 shape: still a 推倒和
    r = RS.evaluate(hand="123m456p789s2z[555m]", win="2z", seat_wind="S", variant="draft4", self_drawn=True)
    assert fan_ids(r) == ["pushed_down"] and r["total"] == 0


def test_draft4_half_flush_is_a_bonus_shape_or_beside_pushed_down() -> None:
    # "混一色,就是只有一门牌和风牌,加1番", not among the 推倒和 line's nine 加番 shapes.
    hand = dict(hand="123m456m78m22z345m", win="6m", seat_wind="S", variant="draft4")
    r = RS.evaluate(**hand)
    assert r["win"] and fan_ids(r) == ["concealed", "half_flush"] and r["total"] == 2
    plain = RS.evaluate(**hand, options={"half_flush": "plain"})
    assert not plain["win"] and "推倒和" in plain["reason"]
    assert fan_ids(plain) == ["concealed", "half_flush", "pushed_down"]
    drawn = RS.evaluate(**hand, self_drawn=True, options={"half_flush": "plain"})
    assert drawn["win"] and drawn["total"] == 2
    with pytest.raises(haidi.HandError, match="draft4"):
        RS.evaluate(**{**hand, "variant": "wanghu"}, options={"half_flush": "plain"})


def test_draft4_settlement() -> None:
    # "平摸:40,其中庄20,平10"; "庄摸:60,各家20"; "平点:20 庄点:30 点庄:40"
    assert RS.settle(dict(variant="draft4", winner=1, total=0)) == [-20, 40, -10, -10]
    assert RS.settle(dict(variant="draft4", winner=0, total=0)) == [60, -20, -20, -20]
    assert RS.settle(dict(variant="draft4", winner=1, discarder=2, total=0)) == [0, 20, -20, 0]
    assert RS.settle(dict(variant="draft4", winner=0, discarder=2, total=0)) == [30, 0, -30, 0]
    assert RS.settle(dict(variant="draft4", winner=1, discarder=0, total=0)) == [-40, 40, 0, 0]
    # "每人最多输640 ... 庄家也降低为640"
    assert RS.settle(dict(variant="draft4", winner=1, total=7)) == [-640, 1920, -640, -640]


def test_bad_situations_and_outcomes() -> None:
    with pytest.raises(haidi.HandError):
        RS.evaluate(hand="123m456p789s1122z", win="1z", variant="tokyo")
    with pytest.raises(haidi.HandError):
        RS.evaluate(hand="123m456p789s1122z", win="1z", self_drawn=True, discarder_wind="S")
    with pytest.raises(haidi.HandError):
        RS.settle(dict(winner=1, total=1, mutual=[[1, 1]]))
    with pytest.raises(haidi.HandError):
        RS.settle(dict(winner=None, discarder=2))


@given(
    winner=st.one_of(st.none(), st.integers(0, 3)),
    discarder=st.one_of(st.none(), st.integers(0, 3)),
    total=st.integers(0, 30),
    rounds=st.integers(0, 5),
    mutual=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3)).filter(lambda p: p[0] != p[1]),
        max_size=3,
        unique_by=frozenset,
    ),
    base=st.integers(1, 5000),
    variant=st.sampled_from(["wanghu", "draft4"]),
    floor=st.integers(0, 2),
    follow=st.booleans(),
)
def test_settlement_sums_to_zero(winner, discarder, total, rounds, mutual, base, variant, floor, follow) -> None:
    if winner is None or discarder == winner:
        discarder = None
    # Every 网狐 win scores at least 推倒和's 1 番; 第4稿's 推倒和 is 0.
    total = max(total, 1) if variant == "wanghu" else total
    out = dict(winner=winner, discarder=discarder, total=None if winner is None else total, variant=variant)
    if variant == "wanghu":
        out.update(burn_rounds=rounds, mutual=[list(p) for p in mutual], base=base)
    else:
        out.update(floor=floor, follow_dealer=follow)
    pay = RS.settle(out)
    assert sum(pay) == 0 and len(pay) == 4


def test_cli_readable_and_json(haidi_cli) -> None:
    argv = [
        "eval",
        "--rules",
        "beijing",
        "111m222p333s4z[555s]",
        "--win",
        "4z",
        "--self-drawn",
        "--set",
        "indicator=9p",
    ]
    code, out, _ = haidi_cli(*argv)
    assert code == 0 and "对对和" in out and "3 番" in out and "惠牌: 1p" in out
    code, out, _ = haidi_cli(*argv, "--json")
    assert json.loads(out)["total"] == 3


def test_cli_jsonl_with_a_bad_line(haidi_cli) -> None:
    good = {"hand": "123m456p234s11z5z7s", "win": "8s", "seat_wind": "S", "discarder_wind": "E", "indicator": "6z"}
    stdin = "\n".join([json.dumps(good), '{"hand": "123m", "win": "1m"}', "[1, 2]"])
    code, out, _ = haidi_cli("eval", "-r", "beijing", "--jsonl", stdin=stdin)
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and rows[0]["total"] == 2 and "error" in rows[1] and "error" in rows[2]


def test_cli_bad_key_exits_2(haidi_cli) -> None:
    code, _, err = haidi_cli("eval", "-r", "beijing", "123m456p789s1122z", "--win", "1z", "--set", "colour=red")
    assert code == 2 and 'unknown beijing situation key "colour"' in err


def test_settlement_refuses_what_no_hand_gives() -> None:
    """A pair of 互包 given twice would be paid twice; an exhausted wall has no winner,
    and a hand without a winner no total and (第4稿) no kongs of the winner's."""
    assert RS.settle({"winner": 1, "total": 5, "mutual": [[1, 2]]}) == [0, 15, -15, 0]
    for outcome, named in [
        ({"winner": 1, "total": 5, "mutual": [[1, 2], [2, 1]]}, "given twice"),
        ({"winner": 1, "discarder": 2, "exhausted": True, "total": 5}, "has no winner"),
        ({"winner": None, "total": 5}, "has no total"),
        ({"winner": None, "variant": "draft4", "concealed_kongs": 1}, "the winner's kongs"),
        ({"winner": None, "variant": "draft4", "exposed_kongs_from": [2]}, "the winner's kongs"),
    ]:
        with pytest.raises(haidi.HandError, match=named):
            RS.settle(outcome)
