"""Tangshan (唐山): the 混 from its indicator, the 番 table, 中发白 sets, settlement, CLI."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import haidi
from haidi._core import wild_from_indicator
from haidi.rulesets.tangshan import PATTERNS

RS = haidi.ruleset("tangshan")


def fan_ids(r: dict) -> list:
    return sorted(f["id"] for f in r["fans"])


# "扔到多少在最后倒数，如开到1，那2就是混": the 混 is the kind after the indicator.
@pytest.mark.parametrize(
    ("indicator", "wild"),
    [
        ("1m", "2m"),
        ("9m", "1m"),
        ("5p", "6p"),
        ("9s", "1s"),
        ("1z", "2z"),
        ("4z", "1z"),
        ("7z", "6z"),
        ("6z", "5z"),
        ("5z", "7z"),
    ],
)
def test_wild_from_indicator(indicator: str, wild: str) -> None:
    assert wild_from_indicator(indicator) == wild


def test_indicator_and_wilds_are_the_same_situation() -> None:
    a = RS.evaluate(hand="123456789s11z22z", win="2z", indicator="9s", self_drawn=True)
    b = RS.evaluate(hand="123456789s11z22z", win="2z", wilds=["1s"], self_drawn=True)
    assert a == b and a["wilds"] == ("1s",)
    with pytest.raises(haidi.HandError):
        RS.evaluate(hand="123456789s11z22z", win="2z", indicator="9s", wilds="1s")


def test_plain_win_is_su() -> None:
    # "素1番 无混牌": no 混 held doubles the 1-point 胡.
    r = RS.evaluate(hand="123m456p789s1122z", win="1z", wilds="5m")
    assert r["win"] and fan_ids(r) == ["plain"] and (r["total"], r["points"]) == (1, 2)


def test_holding_a_wild_is_not_su() -> None:
    r = RS.evaluate(hand="123m456p789s1125z", win="2z", wilds="5z")
    assert r["win"] and "plain" not in fan_ids(r)


def test_closed_wait_kan() -> None:
    # "砍1番 卡张"
    r = RS.evaluate(hand="13m456p789s11z222s", win="2m", wilds="5s")
    assert fan_ids(r) == ["closed_wait", "plain"] and r["points"] == 4


def test_catch_five_counts_beside_kan() -> None:
    # "捉51番 同条万46胡5": any suit's 5 between its 4 and 6. That wait is a 卡张 too, and
    # "按照以下番型，每出现一个就按番数累加": 砍 1 + 捉5 1 + 素 1 = 3 番, 8 points.
    for s in "mps":
        r = RS.evaluate(hand=f"46{s}123{'p' if s != 'p' else 'm'}789s11z222z", win=f"5{s}", wilds="9m")
        assert fan_ids(r) == ["catch_five", "closed_wait", "plain"] and (r["total"], r["points"]) == (3, 8), r


def test_wild_suit_straight() -> None:
    # "本混龙2番 混一色一条龙": a 一条龙 in the 混's suit.
    r = RS.evaluate(hand="123456789s11z22z", win="2z", wilds="1s", self_drawn=True)
    assert fan_ids(r) == ["wild_suit_straight"] and r["total"] == 2
    other = RS.evaluate(hand="123456789s11z22z", win="2z", wilds="1m")
    assert "wild_suit_straight" not in fan_ids(other)


def test_ben_hun_long_read_as_a_half_flush_straight() -> None:
    # "本混龙2番 混一色一条龙", the gloss read literally: a straight in a hand of one suit.
    half = {"ben_hun_long": "half_flush"}
    r = RS.evaluate(hand="123456789m11z22z", win="2z", wilds="3p", options=half)
    assert fan_ids(r) == ["plain", "wild_suit_straight"] and r["total"] == 3
    # The straight in the 混's suit, the other tiles of another suit: the name's reading
    # only.
    mixed = dict(hand="123456789m11p23s", win="4s", wilds="5m")
    assert "wild_suit_straight" in fan_ids(RS.evaluate(**mixed))
    assert "wild_suit_straight" not in fan_ids(RS.evaluate(**mixed, options=half))
    # One suit without honours, the 混 standing in the straight: both readings.
    for options in (None, half):
        r = RS.evaluate(hand="12345678m111m22m", win="9m", wilds="2m", options=options)
        assert "wild_suit_straight" in fan_ids(r), options
    with pytest.raises(haidi.HandError, match="ben_hun_long"):
        RS.evaluate(**mixed, options={"ben_hun_long": "half"})


def test_luxury_seven_pairs() -> None:
    # "豪华7对子2番", "超豪华7对子3番"
    r = RS.evaluate(hand="11113355m5566p7z", win="7z", wilds="9s")
    assert fan_ids(r) == ["luxury_seven_pairs", "plain"] and r["total"] == 3
    r = RS.evaluate(hand="11113333m5566p7z", win="7z", wilds="9s")
    assert fan_ids(r) == ["plain", "super_luxury_seven_pairs"] and r["total"] == 4


def test_open_ready_only_self_drawn() -> None:
    # "明听1番 明听就是亮开自己的牌，只能自模糊"
    r = RS.evaluate(hand="123m456p789s1122z", win="1z", open_ready=True)
    assert not r["win"] and "自模糊" in r["reason"]
    r = RS.evaluate(hand="123m456p789s1122z", win="1z", open_ready=True, self_drawn=True)
    assert fan_ids(r) == ["open_ready", "plain"]


def test_thirteen_orphans_pair_and_win_are_honours() -> None:
    # "十三幺 5番 （搭牌只能为风牌或箭牌，最后胡的也只能为风牌或箭牌）"
    r = RS.evaluate(hand="19m19p19s1234567z", win="1z")
    assert r["win"] and "thirteen_orphans" in fan_ids(r) and r["total"] == 6
    assert not RS.evaluate(hand="19m19p19s1234567z", win="1m")["win"]
    assert not RS.evaluate(hand="9m19p19s11234567z", win="1m")["win"]


def test_xiaosa() -> None:
    # "潇洒（明潇×1番 ，扣潇×1番）"
    r = RS.evaluate(hand="123m456p789s1122z", win="1z", xiaosa="ming")
    assert fan_ids(r) == ["open_xiaosa", "plain"]
    with pytest.raises(haidi.HandError):
        RS.evaluate(hand="123m456p789s1122z", win="1z", xiaosa="yes")


def test_dragon_set_as_a_meld_example_1() -> None:
    # "要是我4个红中，一个白一个发，可算3个红中 一组中发白"
    r = RS.evaluate(hand="7777z56z123m456p9s", win="9s")
    assert r["win"] and "567z" in r["arrangement"] and "777z" in r["arrangement"]
    assert not RS.is_win("7777z56z123m456p9s9s")  # the engine alone does not know the set


def test_dragon_set_with_a_claimed_pung_example_2() -> None:
    # "要是3个红中，一个白一个发，我可以用2个红来碰，一个做中发白": [777z] claimed, one 中 in the set.
    r = RS.evaluate(hand="7z56z123m456p9s[777z]", win="9s", self_drawn=True)
    assert r["win"] and "567z" in r["arrangement"]


def test_declared_melds_hold_no_wild() -> None:
    # "不管是吃,碰或是明杠，混无效": a pung of the 混 kind is three plain tiles.
    r = RS.evaluate(hand="123m456p78s11z[222m]", win="9s", wilds="2m")
    assert r["win"] and "wild" not in r["arrangement"].split("[222m]")[1]


def test_a_concealed_kong_of_the_wild_is_wilds_held() -> None:
    # "1.不管是吃,碰或是明杠，混无效" names claimed melds only: four 混 in a concealed kong are
    # still 混 held, so "素1番 无混牌" does not hold. The same kong of a plain kind is 素.
    r = RS.evaluate(hand="{7777s}123m456m789m1p", win="1p", wilds="7s")
    assert r["win"] and fan_ids(r) == [] and r["points"] == 1
    r = RS.evaluate(hand="{7777s}123m456m789m1p", win="1p", wilds="5z")
    assert r["win"] and fan_ids(r) == ["plain"]
    # A claimed kong of the 混 kind is plain tiles: 素 holds.
    r = RS.evaluate(hand="[7777s]123m456m789m1p", win="1p", wilds="7s", self_drawn=True)
    assert fan_ids(r) == ["plain"]


def test_pattern_table_is_data() -> None:
    assert {p.id for p in PATTERNS} >= {"plain", "closed_wait", "catch_five", "thirteen_orphans"}
    assert all(p.value > 0 for p in PATTERNS)


def test_bad_situations() -> None:
    with pytest.raises(haidi.HandError):
        RS.evaluate(hand="123m456p789s1122z", win="1z", colour="red")
    with pytest.raises(haidi.HandError):
        RS.evaluate(hand="123m456p789s112z", win="1z")
    with pytest.raises(haidi.HandError):
        RS.evaluate(hand="123m456p789s1122z", win="1z", self_drawn="yes")
    with pytest.raises(haidi.HandError, match="situation 1"):
        RS.evaluate_many([{"hand": "123m456p789s1122z", "win": "1z"}, {"hand": "x"}])


# Settlement.


def test_self_drawn_with_melds_kongs_and_follow_dealer() -> None:
    pay = RS.settle(
        dict(
            winner=1,
            total=2,
            # Seat 1's exposed kong is one of its melds (the winner's melds cost nothing).
            melds=[1, 1, 2, 0],
            exposed_kongs=[0, 1, 0, 0],
            concealed_kongs=[0, 0, 1, 0],
            follow_dealer=True,
        )
    )
    # shares 2^(2+melds): 8, 16, 4; kongs: 2 from each to seat 1, 4 from each to seat 2; 跟庄 2 each.
    assert pay == [-8 - 2 - 4 - 6, 28 + 6 - 4 + 2, -16 - 2 + 12 + 2, -4 - 2 - 4 + 2]


def test_discarder_pays_for_everyone() -> None:
    # "点炮包庄，包杠。（点炮的人包其他人输的钱）"
    pay = RS.settle(dict(winner=1, discarder=2, total=2, melds=[1, 1, 2, 0], exposed_kongs=[0, 1, 0, 0]))
    assert pay == [0, 34, -34, 0]


def test_exhausted_wall_voids_kongs() -> None:
    # "最后剩7墩牌时为荒庄，杠作废"
    assert RS.settle(dict(winner=None, melds=[0, 1, 0, 0], exposed_kongs=[0, 1, 0, 0])) == [0, 0, 0, 0]
    assert RS.settle(dict(winner=None, follow_dealer=True)) == [-6, 2, 2, 2]


def test_bad_outcomes() -> None:
    for bad in (dict(winner=1, discarder=1, total=1), dict(winner=5, total=1), dict(winner=1, total=1, melds=[1, 2])):
        with pytest.raises(haidi.HandError):
            RS.settle(bad)


@pytest.mark.parametrize(
    "counts, key",
    [
        # An exposed kong is one of the melds a seat made ("吃,碰或明杠").
        (dict(melds=[0, 0, 0, 0], exposed_kongs=[1, 0, 0, 0]), "exposed_kongs[0]"),
        (dict(melds=[2, 0, 0, 0], exposed_kongs=[3, 0, 0, 0]), "exposed_kongs[0]"),
        # Four melds and a concealed kong are five groups.
        (dict(melds=[0, 4, 0, 0], concealed_kongs=[0, 1, 0, 0]), "concealed_kongs[1]"),
        (dict(melds=[4, 0, 0, 0], exposed_kongs=[4, 0, 0, 0], concealed_kongs=[4, 0, 0, 0]), "concealed_kongs[0]"),
    ],
)
def test_kong_counts_no_hand_can_hold_are_refused(counts, key) -> None:
    with pytest.raises(haidi.HandError) as e:
        RS.settle(dict(winner=1, total=1, **counts))
    assert e.value.key == key


@given(
    winner=st.one_of(st.none(), st.integers(0, 3)),
    discarder=st.one_of(st.none(), st.integers(0, 3)),
    total=st.integers(0, 12),
    melds=st.lists(st.integers(0, 4), min_size=4, max_size=4),
    exposed=st.lists(st.integers(0, 2), min_size=4, max_size=4),
    concealed=st.lists(st.integers(0, 2), min_size=4, max_size=4),
    follow=st.booleans(),
    base=st.integers(1, 100),
)
def test_settlement_sums_to_zero(winner, discarder, total, melds, exposed, concealed, follow, base) -> None:
    if winner is None or discarder == winner:
        discarder = None
    # Counts a hand can hold: exposed kongs among the melds, at most four groups.
    exposed = [min(e, m) for e, m in zip(exposed, melds, strict=True)]
    concealed = [min(c, 4 - m) for c, m in zip(concealed, melds, strict=True)]
    pay = RS.settle(
        dict(
            winner=winner,
            discarder=discarder,
            # Nobody won: no total (given, it is refused).
            total=None if winner is None else total,
            melds=melds,
            exposed_kongs=exposed,
            concealed_kongs=concealed,
            follow_dealer=follow,
            base=base,
        )
    )
    assert sum(pay) == 0 and len(pay) == 4


# The command line.


def test_cli_readable(haidi_cli) -> None:
    code, out, _ = haidi_cli(
        "eval",
        "--rules",
        "tangshan",
        "123456789s11z22z",
        "--win",
        "2z",
        "--self-drawn",
        "--set",
        "indicator=9s",
    )
    assert code == 0 and "本混龙" in out and "4 points" in out and "混: 1s" in out


def test_cli_json_with_wild(haidi_cli) -> None:
    code, out, _ = haidi_cli("eval", "-r", "tangshan", "13m456p789s11z222s", "--win", "2m", "--wild", "5s", "--json")
    r = json.loads(out)
    assert code == 0 and r["total"] == 2 and r["wilds"] == ["5s"]


def test_cli_jsonl_with_a_bad_line(haidi_cli) -> None:
    lines = "\n".join(
        [
            json.dumps({"hand": "123m456p789s1122z", "win": "1z"}),
            "not json",
            json.dumps({"hand": "123m456p789s1122z", "win": "1z", "open_ready": True}),
        ]
    )
    code, out, _ = haidi_cli("eval", "--rules", "tangshan", "--jsonl", stdin=lines)
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and len(rows) == 3  # 2: a line was answered with an error
    assert rows[0]["points"] == 2 and "error" in rows[1] and rows[2]["win"] is False


def test_waits_and_shanten_with_the_wild() -> None:
    # The wild pairs the 2z, or the 1z/2z complete a pung; drawing the wild itself wins too.
    assert RS.waits("123456789s11z2z5m", wilds="5m") == ["5m", "1z", "2z"]
    assert RS.waits("123456789s11z2z5m") == []
    assert RS.shanten("123456789s11z2z5m", wilds="5m") == 0


def test_settlement_refuses_a_winner_on_an_exhausted_wall() -> None:
    for outcome, named in [
        ({"winner": 1, "exhausted": True, "total": 3}, "has no winner"),
        ({"winner": None, "total": 3}, "has no total"),
        ({"winner": None, "total": "abc"}, "total must be an int"),
    ]:
        with pytest.raises(haidi.HandError, match=named):
            RS.settle(outcome)
