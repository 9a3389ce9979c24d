"""Longgang (龙港麻将) scoring: the worked examples of seed 003, the 胡数 and 台 rules, settlement."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import haidi
from haidi.rulesets import longgang as lg

RS = haidi.ruleset("longgang")
#: Four declared chows in two suits: they score nothing and rule out 混一色 / 清一色.
F = "[123p][456p][789p][123s]"


def ev(**s):
    return RS.evaluate(**s)


def ids(r):
    return {p["id"]: p["count"] for p in r["patterns"]}


def hu(r):
    return {it["name"]: it["hu"] for it in r["face_items"]}


# --- 五、（二）4: the two worked totals ------------------------------------------------


def test_example_a_as_laid_out_totals_160():
    # "A）胡家三台最少是160胡，如庄家牌型：123 2财4 345 6财8 789 南花；放炮胡牌（混一色1台，坐花1台，
    #  双财神1台，牌面胡数0胡，基础胡数20胡)". A dealer hand of that build (one-suit chows, two 财神
    # standing inside chows, 南 paired with the 坐花) whose best arrangement has no face points.
    r = ev(hand="112335567789m9p9p2z1f", win="7m", wilds="9p")
    assert ids(r) == {"two_wilds": 1, "seat_flower": 1, "half_suit": 1}
    assert (r["face"], r["base"], r["tai"], r["total"]) == (0, 20, 3, 160)


def test_example_a_literal_hand_scores_its_best_arrangement():
    # The same line's tiles read literally (123 2财4 345 6财8 789 南花) hold two 8m: under
    # 五、（一）1 "和牌者可以自由选择最有利的牌形" the 财神 make 888m (暗刻 4 胡), so 200, not 160.
    r = ev(hand="1232434568789m9p9p1f", win="2z", wilds="9p")
    assert ids(r) == {"two_wilds": 1, "seat_flower": 1, "half_suit": 1}
    assert (r["face"], r["tai"], r["total"]) == (4, 3, 200)


def test_example_b_losing_dealer_totals_70():
    # "B）陪家三台最少是70胡，秋花为财神，如庄家牌型：吃牌万条索123顺子各一组，手中牌为（春花+红中+，
    #  南风，123）；放炮南风胡牌（红中刻1台，坐花1台，双财神1台，牌面胡数8胡)". The garbled tile is read
    # as a second flower (夏): with flowers as 财神 both flowers are wilds.
    r = ev(hand="[123m][123p][123s]7z2z123m", flowers="12f", wilds="3f")
    assert r["role"] == "loser"
    assert ids(r) == {"honour_pung": 1, "seat_flower": 1, "two_wilds": 1}
    assert (r["face"], r["tai"], r["total"]) == (8, 3, 70)


def test_totals_round_up_and_cap():
    # "总胡数以10胡为单位，如38胡算40胡" and "基础胡数38胡3台满300胡"
    assert lg.round_up(38) == 40
    assert lg.hand_total(18, 3) == 300
    # "胡家两台最少80胡" / "陪家两台最少20胡" (a loser with 2 台 and a 暗刻 of 小子: 4 x 4 = 16 -> 20)
    assert lg.hand_total(0, 2) == 80
    assert lg.hand_total(4, 2, winner=False) == 20
    # "有四台一定满贯"
    assert lg.hand_total(0, 4) == 300


# --- 一、C) the 胡数 table ---------------------------------------------------------------


@pytest.mark.parametrize(
    "melds, name, points",
    [
        ("{1111z}", "暗杠1z", 32),  # 大子暗杠32胡
        ("{5555m}", "暗杠5m", 16),  # 小子暗杠16胡
        ("[9999m]", "明杠9m", 16),  # 大子明杠16胡
        ("[5555m+]", "明杠5m", 8),  # 小子明杠8胡 (补杠)
        ("[111z]", "明刻1z", 4),  # 大子明刻4胡
        ("[555m]", "明刻5m", 2),  # 小子明刻2胡
    ],
)
def test_meld_table(melds, name, points):
    r = ev(hand=F[:-6] + melds + "23s55s", win="4s")
    assert hu(r)[name] == points


def test_concealed_pungs_and_an_unkonged_four():
    # "暗刻：小子暗刻4胡 大子暗刻8胡"; "手中四张暗张，如未出杠，只能算暗刻计胡数"
    r = ev(hand=F[:-6] + "999978m5s", win="5s", self_drawn=True)
    assert hu(r)["暗刻9m"] == 8
    assert "暗杠9m" not in hu(r)


def test_wilds_split_a_natural_triplet_into_two_concealed_pungs():
    # "两个财神或坐花配一张牌可视为暗刻胡": 111z and three 财神 (4z) standing for 1z score as
    # 11z + a 财神 and 1z + two, two 暗刻 of 8 胡, not as 111z beside three 财神 alone (8 胡).
    r = ev(hand="22p12356789s111444z", win="4s", wilds="4z", bulldozer_wilds=4)
    assert (r["face"], r["tai"], r["total"]) == (16, 2, 150)
    assert sorted(len(g["wilds"]) for g in r["groups"] if g["tiles"][0] == "1z") == [1, 2]


def test_honour_pair():
    # "雀头（将牌）：中，发，坐风对子的计２胡 ... 其它对子牌不计胡数"
    assert "对5s" not in hu(ev(hand=F + "555m5s", win="5s"))  # a pair of 5s scores nothing
    assert hu(ev(hand=F + "555m6z", win="6z"))["对6z"] == 2
    assert hu(ev(hand=F + "555m1z", win="1z"))["对1z"] == 2  # the dealer's seat wind
    assert "对2z" not in hu(ev(hand=F + "555m2z", win="2z"))  # another wind: nothing
    assert hu(ev(hand=F + "555m2z", win="2z", seat_wind="S"))["对2z"] == 2


# --- 二、二） points of the way a hand is won -------------------------------------------


def test_self_drawn_closed_edge_and_pung():
    # "如六、八万，自摸7万可计4胡"
    assert hu(ev(hand=F + "68m55s", win="7m", self_drawn=True)) == {"自摸": 2, "卡档": 2}
    # "六、七万自摸五万或八万的可计2胡"
    assert hu(ev(hand=F + "67m55s", win="5m", self_drawn=True)) == {"自摸": 2}
    # "两个红中再自摸红中可计10胡"
    assert sum(hu(ev(hand=F + "77z55s", win="7z", self_drawn=True)).values()) == 10


def test_single_wait_self_drawn():
    # "如单吊红中胡牌的，不计4胡，只计红中雀头2胡（现习惯上来法也有计4胡的）"
    r = ev(hand=F + "555m7z", win="7z", self_drawn=True)
    assert hu(r) == {"暗刻5m": 4, "对7z": 2}
    r = ev(hand=F + "555m7z", win="7z", self_drawn=True, single_wait_self_drawn_hu=True)
    assert hu(r) == {"暗刻5m": 4, "对7z": 2, "自摸": 2}


def test_discard_wins():
    # "如六、八万，吃7万胡牌可计2胡数，六、七万吃五万或八万胡牌的不计胡数"
    assert hu(ev(hand=F + "68m55s", win="7m")) == {"卡档": 2}
    assert hu(ev(hand=F + "67m55s", win="8m")) == {}
    # "龙港来法靠壁（边张）...不计2胡，但有的地方也计2户，如八、九万吃七万胡牌"
    assert hu(ev(hand=F + "89m55s", win="7m")) == {}
    assert hu(ev(hand=F + "89m55s", win="7m", edge_wait_hu=True)) == {"边张": 2}
    # "4556万胡5万也为坎张"
    assert hu(ev(hand="4556m" + F, win="5m")) == {"卡档": 2}


def test_pung_completed_on_a_discard_is_exposed():
    # "碰胡：碰牌成刻子的胡数，按明刻胡数算。 自摸牌成刻子的胡数，按暗刻胡数算，另加计自摸2胡。"
    assert hu(ev(hand=F + "77z55s", win="7z")) == {"明刻7z": 4}
    assert hu(ev(hand=F + "77z55s", win="7z", self_drawn=True)) == {"暗刻7z": 8, "自摸": 2}


def test_flowers_set_aside_score_4_each():
    # "每杠一个花可计4胡数"
    r = ev(hand=F + "555m5s", win="5s", flowers="23f")
    assert hu(r)["花 x2"] == 8


# --- 三） 财神 and 坐花 -----------------------------------------------------------------


def test_wild_cannot_be_in_a_declared_meld():
    # "财神可以用来代替其他所有的牌，但是不能打掉或者吃掉或者碰掉或者杠掉"; "杠子中不能有财神及坐花"
    with pytest.raises(haidi.HandError, match="财神"):
        ev(hand="[999m]" + F[:-6] + "23s55s", win="4s", wilds="9m")


def test_wild_pair_scores_no_pair_points():
    # "如是财神坐花对作将牌，不计将胡数，只计台数"
    r = ev(hand=F + "555m9m", win="1f", self_drawn=True, wilds="9m")
    assert "对" not in "".join(hu(r))
    assert ids(r)["seat_flower"] == 1


def test_wild_with_an_honour_single_as_pair():
    # "对于单发坐风配财神坐花成对子的，胡牌者计2胡，没胡牌者不计胡数"
    assert hu(ev(hand=F + "7z55s1f", win="5s"))["对7z"] == 2
    assert ev(hand=F + "7z35m1f")["face"] == 0


def test_wilds_sold_as_soldiers():
    # "比如手中剩四张牌：坐花，两个财神，红中，则牌面胡数只算红中刻8已碰杠等胡数，计2台"
    r = ev(hand=F + "7z9m9m1f", wilds="9m")
    assert (r["face"], r["tai"], r["void_wilds"]) == (8, 2, 1)


def test_wild_with_a_single_for_a_loser():
    # "例如手中剩四张牌：三、四万、红中、坐花，计0台0胡"
    r = ev(hand=F + "34m7z1f", wilds="9m")
    assert (r["face"], r["tai"], r["total"]) == (0, 0, 0)


def test_four_green_dragons_and_the_seat_flower():
    # "若手牌中以发发发发花胡牌的，按发刻子配发将计胡数，两台": five tiles stand for 发 (the 坐花 the
    # fifth), a pung and a pair of it.
    r = ev(hand=F + "6666z", win="1f", self_drawn=True, wilds="9m")
    assert r["win"] and r["tai"] == 2
    assert {"对6z", "暗刻6z"} <= {i["name"] for i in r["face_items"]}
    assert ids(r) == {"self_drawn": 1, "seat_flower": 1, "honour_pung": 1}
    assert RS.is_win(F + "6666z", extra_wilds=1)


def test_a_melded_red_dragon_and_two_wilds():
    # "如手牌已碰红中（青发，坐风同理）,再胡红中配两财神，计3台，（或手中有四个红中配双财神也计3台）".
    r = ev(hand="[777z][123p][456p][789p]9m9m5s5s", win="7z", wilds="9m")
    assert r["win"] and ids(r)["honour_pung"] == 2 and ids(r)["two_wilds"] == 1 and r["tai"] == 3
    r = ev(hand="7777z[123p][456p][789p]9m9m5s", win="5s", wilds="9m")
    assert r["win"] and ids(r)["honour_pung"] == 2 and r["tai"] == 3


# --- 四、 the 台 patterns ---------------------------------------------------------------


def test_wild_counts():
    # "1 财神：两个神计一台，胡牌时没有财神(坐花)也计一台。"
    assert ids(ev(hand=F + "68m55s", win="7m"))["no_wilds"] == 1
    assert "no_wilds" not in ids(ev(hand=F + "6m9m55s", win="7m", wilds="9m"))
    assert "two_wilds" not in ids(ev(hand=F + "6m9m55s", win="7m", wilds="9m"))
    assert ids(ev(hand=F + "9m9m55s", win="7m", wilds="9m"))["two_wilds"] == 1


def test_wild_standing_for_itself_counts_as_natural():
    # "财神归位:是指财神代替本身那张牌胡牌"; "无财神或者财神归位，称为硬八对"
    r = ev(hand=F + "78m55s", win="9m", wilds="9m")
    assert ids(r)["no_wilds"] == 1
    r = ev(hand=F + "78m55s", win="9m", wilds="9m", home_wild_is_natural=False)
    assert "no_wilds" not in ids(r)


def test_wild_seat_flower_and_dragon_pung():
    # "一个财神加一朵自家花再加一个坐风（或中，发）组成刻子计2台"
    r = ev(hand=F + "7z9m1f5s", win="5s", wilds="9m")
    assert ids(r) == {"honour_pung": 1, "seat_flower": 1}
    assert (r["face"], r["total"]) == (8, 120)


def test_flower_wilds():
    # 4 "如是花财神，坐花与１客花算２台，两客花一台"
    # "当花为财神时，坐花加一张客花再加一张其它的牌...组成刻子计二台"
    assert ev(hand=F + "9m5s12f", win="5s", wilds="3f")["tai"] == 2
    # "当花为财神时，坐花加一朵客花再加一张坐风（或中，发）组成刻子计三台"
    assert ev(hand=F + "7z5s12f", win="5s", wilds="3f")["tai"] == 3
    # "当花为财神时，坐花加一对坐风（或中，发）组成刻子计二台"
    assert ev(hand=F + "11z5s1f", win="5s", wilds="3f")["tai"] == 2
    # 两客花一台
    assert ids(ev(hand=F + "9m5s23f", win="5s", wilds="3f")) == {"two_wilds": 1}
    # "花是财神时，三花就可腊子"
    assert ev(hand=F + "5s123f", win="5s", wilds="3f")["lazi"]


def test_four_flowers():
    # "坐花胡牌的，又杠了其他三个花牌的可计2台（坐花不再重复计台），没胡牌的也算2台"
    r = ev(hand=F + "55m5s1f", win="5s", flowers="234f", explain=True)
    assert ids(r) == {"four_flowers": 1}
    assert [e["id"] for e in r["excluded"]] == ["seat_flower"]
    assert hu(r)["花 x3"] == 12 and r["total"] == 150
    assert ids(ev(hand=F + "55m3s1f", flowers="234f"))["four_flowers"] == 1
    # "（有的地方没胡倒只能算坐花一台）"
    assert ev(hand=F + "55m3s1f", flowers="234f", loser_four_flowers_tai=1)["tai"] == 1


def test_dragon_pungs():
    # "中或发的刻或坐风刻（字刻）：...每个刻子均计1台"; "如是中发坐风为财神的，不另计其刻子台数"
    r = ev(hand=F[:-6] + "[777z]666z5s", win="5s")
    assert ids(r)["honour_pung"] == 2
    assert "honour_pung" not in ids(ev(hand=F + "7z7z55s", win="5s", wilds="7z"))
    # 圈风 scores nothing: "龙港来法不计台数"
    assert "honour_pung" not in ids(ev(hand=F + "222z5s", win="5s", round_wind="S"))


def test_all_pungs_with_half_flush():
    # "不含财神、坐花、坐风、红中、青发的对对胡兼混一色为三台，如庄家牌型：「南南南北北」"
    r = ev(hand="111m333m555m999m222z4z", win="4z")
    assert ids(r) == {"no_wilds": 1, "half_suit": 1, "all_pungs": 1}
    assert r["tai"] == 3


def test_half_flush_counts():
    # "混一色的１台（无财神２台，1财神1台...2财神2台）"
    assert ev(hand="123456789m123m444z4m", win="4m")["tai"] == 2  # 无财神
    assert ev(hand="123456789m123m444z9p", win="4m", wilds="9p")["tai"] == 1  # 1 财神
    assert ev(hand="123456789m12m444z9p9p", win="4m", wilds="9p")["tai"] == 2  # 2 财神


def test_lazi_hands():
    # "清一色：...３台满贯300胡" (财神 allowed inside)
    assert ev(hand="1112345666678999m", win="3m")["total"] == 300
    assert ev(hand="111223455567899m9p", win="9p", self_drawn=True, wilds="9p")["lazi"]
    # "大四喜和青发红中对的组合：东东东南南南西西西北北北发发发中中. 腊子"
    r = ev(hand="111222333444z666z7z", win="7z")
    assert r["lazi"] and {"all_honours"} <= set(ids(r)) and r["follow"] == 120
    # 小四喜: three wind pungs and a wind pair
    assert "small_four_winds" in ids(ev(hand="111222333z44z123m55m", win="5m"))
    # 清老头 / 混老头
    assert "all_terminals" in ids(ev(hand="111999m111999p111s9s", win="9s"))
    assert "terminals_and_honours" in ids(ev(hand="111999m111p777z111s9s", win="9s"))


def test_lazi_by_calculation():
    # "腊子情况：第一种是算出来的，三台满300胡" and "胡家三台满贯称为“腊子”": 无财神, 字刻 and 混一色
    # (3 台) with an 暗杠 of 中: (34 + 20) x 2^3 = 432, capped at 300, a 腊子 with no 腊子 pattern.
    r = ev(hand="{7777z}123m456m789m234m5m", win="5m", wilds="9p")
    assert ids(r) == {"closed_wait": 1, "no_wilds": 1, "honour_pung": 1, "half_suit": 1}
    assert (r["tai"], r["total"], r["follow"]) == (3, 300, 120) and r["lazi"]
    assert "(34 + 20) x 2^3 = 432, at most 300 胡 (腊子)" in lg.describe(r, {"hand": "h", "win": "5m"})
    # "若胡家2台就超过300胡的，跟胡数也按2台算": 300 with 2 台 is the cap, not a 腊子.
    r = ev(hand="{1111m}{9999p}777z234s678s5m", win="5m", wilds="3p")
    assert (r["tai"], r["total"], r["follow"]) == (2, 300, 90) and not r["lazi"]
    # "胡家三台最少是160胡": 3 台 short of 300 is no 腊子 either.
    assert not ev(hand="112335567789m9p9p2z1f", win="7m", wilds="9p")["lazi"]


def test_wilds_meet():
    # "财神会：两个正财神配坐花三张组成刻子，其它牌已组成对，按三台腊子胡牌"
    r = ev(hand=F + "7z9m9m1f", win="7z", wilds="9m")
    assert "wilds_meet" in ids(r) and r["total"] == 300 and not r["instant"]


def test_bulldozer():
    # "推土机(三个正财神胡牌):凡手牌中含用三个正财神即可马上胡牌...不必符合一般胡牌条件,三台腊子"
    r = ev(hand="123m456m789p147s2z9m9m9m", win="6z", wilds="9m")
    assert r["win"] and r["lazi"] and r["instant"] and r["form"] == "three_wilds"
    assert ids(r) == {"three_wilds": 1}
    # "(玩法辣子要４个财神)"
    assert not ev(hand="123m456m789p147s2z9m9m9m", win="6z", wilds="9m", bulldozer_wilds=4)["win"]


def test_heavenly_and_earthly():
    # "天胡，地胡，人满贯计３００胡腊子,其他三家不能算胡数"
    r = ev(hand=F + "68m55s", win="7m", self_drawn=True, heavenly=True)
    assert r["lazi"] and r["instant"]
    assert ev(hand=F + "68m55s", win="7m", seat_wind="S", earthly=True)["instant"]
    with pytest.raises(haidi.HandError):
        ev(hand=F + "68m55s", win="7m", seat_wind="S", heavenly=True)
    # "天和：庄家起牌或者补完花（可暗杠）而胡牌", "地和：庄家出第一张牌被食胡": no kong is robbed then,
    # and the wall is full; a concealed kong's replacement may still win 天胡.
    for flags, named in [
        (dict(heavenly=True, robbing_kong=True), "no kong is robbed"),
        (dict(earthly=True, robbing_kong=True, seat_wind="S"), "no kong is robbed"),
        (dict(heavenly=True, wall_last=True, self_drawn=True), "not 海底"),
    ]:
        with pytest.raises(haidi.HandError, match=named):
            ev(hand=F + "68m55s", win="7m", **flags)
        with pytest.raises(haidi.HandError, match=named):
            RS.evaluate_many({k: [v] for k, v in dict(hand=F + "68m55s", win="7m", **flags).items()})
    assert ev(hand="[123p][456p]{7777s}[123s]68m55s", win="7m", heavenly=True, kong_replacement=True)["lazi"]


def test_plain_hand():
    # "平胡：由五组顺子配对子（将牌不可是坐风中发）组成，不可有花牌,不可自摸、卡挡，非混一色，
    #  含有一财神,0台，只计基本胡数20胡"
    r = ev(hand=F + "23m5s9m", win="4m", wilds="9m")
    assert ids(r) == {"plain": 1} and r["total"] == 20
    assert "plain" not in ids(ev(hand=F + "23m55s", win="4m"))  # 无财神


def test_eight_pairs():
    # "八对半...有的地方来法算腊子"; "腊子情况...第八种：八对半"
    hand = "1133557799m114p888s"
    assert ev(hand=hand, win="4p")["form"] == "eight_pairs"
    assert ev(hand=hand, win="4p")["total"] == 300
    assert ev(hand=hand, win="4p", eight_pairs="plain")["total"] < 300
    assert not ev(hand=hand, win="4p", eight_pairs=False)["win"]


def test_optional_patterns():
    hand = "123456789m123p555s1s"
    assert "one_dragon" not in ids(ev(hand=hand, win="1s"))
    assert ids(ev(hand=hand, win="1s", optional=["one_dragon"]))["one_dragon"] == 1
    r = ev(hand="[1111m][2222p][3333s][4444m][5555p]6s", win="6s", optional=["five_kongs"])
    assert r["lazi"] and "four_kongs" not in ids(r)
    with pytest.raises(haidi.HandError, match="optional"):
        ev(hand=hand, win="1s", optional=["no_such"])


def test_bad_input():
    for bad in (
        dict(hand=F + "68m55s", win="5z"),  # 无白板
        dict(hand=F + "68m5s", win="7m"),  # too few
        dict(hand=F + "68m55s", win="7m", flowers="5f"),
        dict(hand=F + "68m55s", win="7m", bogus=1),
        dict(hand=F + "68m55s", win="2f", self_drawn=True),  # a guest flower cannot win
    ):
        with pytest.raises(haidi.HandError):
            ev(**bad)


def test_not_complete():
    r = ev(hand=F + "68m55s", win="1m")
    assert not r["win"] and r["total"] == 0 and "complete" in r["reason"]


# --- 五、（三）（四） 跟胡数 and settlement ---------------------------------------------


def test_follow():
    # "无台跟３０（５０）　１台跟６０（１００）　２台跟９０（１５０）　３台跟１２０（２００）"
    assert [lg.follow_hu(t) for t in range(5)] == [30, 60, 90, 120, 120]
    assert [lg.follow_hu(t, True) for t in range(4)] == [50, 100, 150, 200]


def test_lazi_settlement():
    # "腊子时庄家输赢为72子(断筹后为80子), 闲家间为42子(断筹后为50子)"
    assert RS.settle({"winner": 0, "total": 300, "tai": 3}) == [216, -72, -72, -72]
    assert RS.settle({"winner": 1, "total": 300, "tai": 3}) == [-72, 156, -42, -42]
    assert RS.settle({"winner": 1, "total": 300, "tai": 3, "broken_stake": True}) == [-80, 180, -50, -50]


def test_dealer_wins():
    # "a）庄家胡时，闲家出庄家总胡数＊２＋跟胡数，其它各闲家出各其胡数的差价。即庄家总赢其总胡数*6+3*跟胡数"
    pay = RS.settle({"winner": 0, "total": 160, "tai": 3, "losers": [0, 70, 0, 40]})
    assert pay[0] * 10 == 160 * 6 + 3 * 120
    assert pay == [132, -44 + 7 + 3, -44 - 7 - 4, -44 - 3 + 4]


def test_non_dealer_wins():
    # "b）闲家胡时，庄家出给胡牌的闲家总胡数＊２＋跟胡数，与其它闲家各胡数差价的２倍计，其它闲家付给
    #  胡牌闲家总胡数＋跟胡数...即胡牌的闲家总赢其总胡数*4+3*跟胡数"
    pay = RS.settle({"winner": 2, "total": 80, "tai": 2, "losers": [70, 0, 0, 20]})
    assert pay[2] * 10 == 80 * 4 + 3 * 90
    # dealer: -(160+90) + 2*(70-0) + 2*(70-20); seat 1: -(80+90) - 140 + ... ; seat 3: -(80+90) -100 + 20
    assert pay == [(-250 + 140 + 100) // 10, (-170 - 140 - 20) // 10, 59, (-170 - 100 + 20) // 10]


def test_liable_seat_pays_every_share():
    # "若打出红中或青发被别家胡牌，要包三家筹码。陪家间另算。"
    pay = RS.settle({"winner": 1, "discarder": 3, "liable": 3, "total": 100, "tai": 1})
    assert pay == [0, 26 + 16 + 16, 0, -(26 + 16 + 16)]


def test_settle_from_hands_and_instant_wins():
    # Example B's dealer loses to seat 1; the losers' own 胡数 come from their hands.
    hands = [
        {"hand": "[123m][123p][123s]7z2z123m", "flowers": "12f"},
        {"hand": F + "68m55s", "win": "7m"},
        {"hand": F + "34m7z5s"},
        {"hand": F + "555m7z"},
    ]
    pay = RS.settle({"winner": 1, "hands": hands, "wilds": "3f"})
    assert sum(pay) == 0 and pay[1] == (50 * 4 + 3 * 60) // 10
    # seat 0 holds 70, seat 2 0, seat 3 a 暗刻5m: 4 胡 -> 10
    assert pay[0] == -(100 + 60) // 10 + 2 * (70 - 0) // 10 + 2 * (70 - 10) // 10
    hands[1] = {"hand": F + "68m55s", "win": "7m", "earthly": True}
    pay = RS.settle({"winner": 1, "hands": hands, "wilds": "3f"})
    assert pay == [-72, 156, -42, -42]  # the others count 0 after 地胡


def test_settle_errors():
    with pytest.raises(haidi.HandError):
        RS.settle({"winner": 1, "discarder": 1, "total": 100})
    with pytest.raises(haidi.HandError):
        RS.settle({"winner": 1, "total": 105})
    assert RS.settle({"winner": None}) == [0, 0, 0, 0]
    # "流局时各家均计 0 分": a drawn hand's record says nothing more.
    for extra in ({"discarder": "zzz"}, {"total": "abc"}, {"liable": 9}, {"hands": 5}, {"losers": [0, 0, 0, 0]}):
        with pytest.raises(haidi.HandError, match="a drawn hand"):
            RS.settle({"winner": None, **extra})
    # A self-drawn win (杠开 and 海底 too) has no discarder.
    others = [{"hand": "123m456p789s123m1133z"}] * 3
    for flag in ("self_drawn", "kong_replacement", "wall_last"):
        hands = [{"hand": "123m456p789s123m1122z", "win": "2z", flag: True}, *others]
        assert sum(RS.settle({"winner": 0, "hands": hands})) == 0
        with pytest.raises(haidi.HandError, match="self-drawn: no seat discarded"):
            RS.settle({"winner": 0, "discarder": 2, "hands": hands})
    hands = [{"hand": "123m456p789s123m1122z", "win": "2z"}, *others]
    assert sum(RS.settle({"winner": 0, "discarder": 2, "hands": hands})) == 0


# --- properties ----------------------------------------------------------------------


hu_values = st.integers(0, 30).map(lambda n: n * 10)


@given(
    st.integers(0, 3),
    st.one_of(st.none(), st.integers(0, 3)),
    hu_values,
    st.integers(0, 6),
    st.lists(hu_values, min_size=4, max_size=4),
    st.booleans(),
)
def test_settlement_sums_to_zero(winner, discarder, total, tai, losers, broken):
    if discarder == winner:
        discarder = None
    # A winner's total is at least its 20 胡 doubled by each 台.
    total = max(total, lg.hand_total(0, tai))
    out = {"winner": winner, "discarder": discarder, "total": total, "tai": tai, "losers": losers}
    out["broken_stake"] = broken
    assert sum(RS.settle(out)) == 0
    out["liable"] = discarder
    assert sum(RS.settle(out)) == 0


@given(st.integers(0, 400), st.integers(0, 12), st.booleans())
def test_totals_capped_and_monotone_in_tai(face, tai, winner):
    t = lg.hand_total(face, tai, winner=winner)
    assert 0 <= t <= lg.CAP and t % 10 == 0
    assert lg.hand_total(face, tai + 1, winner=winner) >= t
    assert lg.hand_total(face, tai, winner=winner, lazi=True) == lg.CAP


def _random_complete(rng):
    """A random complete Longgang hand (five melds and a pair) with some tiles made wild."""
    kinds = [k for k in range(34) if k != 31]
    while True:
        counts = [0] * 34
        tiles = []
        for _ in range(5):
            if rng.random() < 0.5:
                s = rng.choice([k for k in range(27) if k % 9 <= 6])
                group = [s, s + 1, s + 2]
            else:
                group = [rng.choice(kinds)] * 3
            tiles += group
        tiles += [rng.choice(kinds)] * 2
        for k in tiles:
            counts[k] += 1
        if max(counts) <= 4:
            return tiles


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3), st.booleans())
def test_random_wins_agree_with_the_engine_and_stay_under_the_cap(seed, n_wilds, seat_flower):
    rng = random.Random(seed)
    tiles = _random_complete(rng)
    rng.shuffle(tiles)
    wild = rng.choice([k for k in range(34) if k != 31])
    tiles = [wild if i < n_wilds else k for i, k in enumerate(tiles)]
    if tiles.count(wild) > 4:
        return
    if seat_flower:
        tiles = tiles[1:]
    win = lg.tile_name(tiles.pop())
    hand = "".join(lg.tile_name(k) for k in tiles) + ("1f" if seat_flower else "")
    r = ev(hand=hand, win=win, wilds=lg.tile_name(wild))
    full = haidi.Hand("".join(lg.tile_name(k) for k in tiles)).add(win)
    assert r["win"] == RS.is_win(full, [lg.tile_name(wild)], extra_wilds=int(seat_flower)) or r["instant"]
    assert 0 <= r["total"] <= lg.CAP
    loser = ev(hand=hand, wilds=lg.tile_name(wild))
    assert 0 <= loser["total"] <= lg.CAP


# --- the command line ------------------------------------------------------------------


def test_cli_readable(haidi_cli):
    code, out, _ = haidi_cli("eval", "112335567789m9p9p2z1f", "--win", "7m", "--wild", "9p", "--rules", "longgang")
    assert code == 0
    assert "(0 + 20) x 2^3 = 160" in out and "混一色" in out and "坐花" in out


def test_cli_json_with_flowers_and_set(haidi_cli):
    argv = ["eval", F + "55m5s1f", "--win", "5s", "--flowers", "234f", "--rules", "longgang", "--json"]
    code, out, _ = haidi_cli(*argv)
    r = json.loads(out)
    assert code == 0 and r["total"] == 150 and r["patterns"][0]["id"] == "four_flowers"
    code, out, _ = haidi_cli(*argv[:-1], "--set", "loser_four_flowers_tai=1", "--json")
    assert json.loads(out)["total"] == 150  # a winner's 四花 stays 2 台


def test_cli_loser_hand(haidi_cli):
    code, out, _ = haidi_cli("eval", "[123m][123p][123s]7z2z123m", "--flowers", "12f", "-w", "3f", "-r", "longgang")
    assert code == 0 and "陪家" in out and "8 胡 x 2^3 = 64, rounded up to 70 胡" in out


def test_cli_shows_the_rounding_of_the_total(haidi_cli):
    """Totals go by tens ("如38胡算40胡"): (14 + 20) x 2^2 is 136, paid as 140; the line shows both."""
    argv = ["eval", "123m456p789s111z22z33s", "--win", "3s", "--self-drawn", "--wild", "9m", "-r", "longgang"]
    code, out, _ = haidi_cli(*argv)
    assert code == 0 and "total (14 + 20) x 2^2 = 136, rounded up to 140 胡" in out
    code, out, _ = haidi_cli("eval", "123m456p789s111z22z33s", "--wild", "9m", "-r", "longgang")
    assert code == 0 and "8 胡 x 2^1 = 16, rounded up to 20 胡" in out
    capped = {"role": "loser", "win": False, "face": 44, "tai": 3, "total": 300}
    assert lg._reckoned(capped, False) == "352, at most 300"


def test_cli_jsonl_with_a_bad_line(haidi_cli):
    lines = [
        json.dumps({"hand": F + "68m55s", "win": "7m", "self_drawn": True}),
        json.dumps({"hand": F + "68m55s", "win": "5z"}),
        "not json",
        json.dumps({"hand": "[123m][123p][123s]7z2z123m", "flowers": "12f", "wilds": "3f"}),
    ]
    code, out, _ = haidi_cli("eval", "--rules", "longgang", "--jsonl", stdin="\n".join(lines))
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and len(rows) == 4  # 2: some lines were answered with an error
    assert rows[0]["total"] == 50 and "白板" in rows[1]["error"] and "error" in rows[2]
    assert rows[3]["total"] == 70


def test_cli_bad_hand_exits_2(haidi_cli):
    code, _, err = haidi_cli("eval", F + "68m5s", "--win", "7m", "--rules", "longgang")
    assert code == 2 and "expected 16" in err


def test_waits_and_shanten_on_16_tiles_with_wilds(haidi_cli):
    code, out, _ = haidi_cli("waits", "123456789m123p456s9p", "-w", "9p", "-r", "longgang", "--json")
    assert code == 0 and len(json.loads(out)["waits"]) == 33  # any kind but 白板
    assert RS.shanten("123456789m123p456s9p", ["9p"]) == 0


def test_evaluate_many():
    rows = RS.evaluate_many([{"hand": F + "68m55s", "win": "7m"}, {"hand": F + "34m7z1f", "wilds": "9m"}])
    assert [r["total"] for r in rows] == [50, 0]


def _ids(**situation):
    return [p["id"] for p in RS.evaluate(**situation)["patterns"]]


def test_runs_and_sets_of_kongs_and_pungs():
    # 附一 S: "五连杠3台，五杠子3台，四连杠3台，四杠子3台 ... 三连杠3台，三同杠3台，五连刻3台 ... 四连刻2台"
    four_pungs = dict(hand="[111m][222m][333m][444m]789p5s", win="5s")
    assert "four_pung_run" not in _ids(**four_pungs)  # optional: off by default
    r = RS.evaluate(**four_pungs, optional=["four_pung_run"])
    assert [p["tai"] for p in r["patterns"] if p["id"] == "four_pung_run"] == [2]
    assert "three_kong_run" in _ids(hand="{1111m}{2222m}{3333m}789p456s5s", win="5s", optional=["three_kong_run"])
    assert "three_same_kongs" in _ids(hand="{1111m}{1111p}{1111s}789p456s5s", win="5s", optional=["three_same_kongs"])
    # Not a run: 1, 2 and 4.
    assert "three_kong_run" not in _ids(hand="{1111m}{2222m}{4444m}789p456s5s", win="5s", optional=["three_kong_run"])
    five = _ids(hand="{1111m}{2222m}{3333m}{4444m}{5555m}5s", win="5s", optional=["five_kong_run", "five_kongs"])
    assert "five_kong_run" in five and "four_kong_run" not in five


def test_red_hands_are_lazi_options():
    # 附一 header: "一些极难之番役，有此地方玩法算腊子"; J "点点红：由１３５６７９筒和一对红中所组成的糊牌形"
    dotted = dict(hand="[111p][333p][555p][567p][999p]7z", win="7z")
    assert RS.evaluate(**dotted)["total"] < 300
    r = RS.evaluate(**dotted, optional=["dotted_red"])
    assert r["total"] == 300 and "dotted_red" in [p["id"] for p in r["patterns"]]
    # K "红一点：由２３４６８索和一对红中所组成的胡牌形": the pair must be 红中.
    assert "one_red" in _ids(hand="[234s][222s][333s][666s][888s]7z", win="7z", optional=["one_red"])
    assert "one_red" not in _ids(hand="[234s][222s][333s][666s][888s]6z", win="6z", optional=["one_red"])
    # I "红孔雀：胡牌中只有么鸡，五条，七条，九条和红中" (in 16 tiles only 八对半 can hold it).
    assert "red_peacock" in _ids(hand="1111s5555s7777s99s77z", win="7z", optional=["red_peacock"])


def test_a_drawn_wild_standing_past_four_copies_is_a_wait():
    # 1111m and a drawn 财神 as a fifth 1m make the pair ("如手牌已碰红中…再胡红中配两财神"):
    # evaluate scored it a win, yet waits said [] and shanten 1.
    lg = haidi.ruleset("longgang")
    hand = "[123p][456p][789p][123s]1111m"
    assert lg.waits(hand, wilds="7z") == ["7z"]
    assert lg.shanten(hand, wilds="7z") == 0
    assert lg.is_win(hand + "7z", wilds="7z")


# Settlement records are read as situations are: numpy numbers and flags, every wind
# spelling, None for a key left out, and each refusal named by its key.
_WINNER = {"hand": "123m456m789m123p456p9s", "win": "9s"}
_LOSER = {"hand": "13579m13579p13579s1z"}


def test_settle_reads_numpy_numbers_and_names_the_key() -> None:
    np = pytest.importorskip("numpy")
    assert RS.settle({"winner": 1, "total": np.int64(100), "tai": 1}) == RS.settle(
        {"winner": 1, "total": 100, "tai": 1}
    )
    losers = [10, 0, 20, np.int64(30)]
    assert RS.settle({"winner": 1, "total": 100, "tai": 1, "losers": losers}) == RS.settle(
        {"winner": 1, "total": 100, "tai": 1, "losers": [10, 0, 20, 30]}
    )
    with pytest.raises(haidi.HandError) as e:
        RS.settle({"winner": 1, "total": 100, "tai": 1, "losers": [10, 0, 20, np.int64(35)]})
    assert e.value.key == "losers[3]"


def test_settle_reads_the_winners_losers_entry_too() -> None:
    # The winner's entry counts for nothing, but a value of the wrong kind there is refused.
    paid = RS.settle({"winner": 1, "total": 100, "tai": 1, "losers": [10, None, 20, 30]})
    assert RS.settle({"winner": 1, "total": 100, "tai": 1, "losers": [10, 300, 20, 30]}) == paid
    with pytest.raises(haidi.HandError) as e:
        RS.settle({"winner": 1, "total": 100, "tai": 1, "losers": [10, "x", 20, 30]})
    assert e.value.key == "losers[1]"


def test_settle_hands_read_winds_flags_and_none_as_evaluate_does() -> None:
    np = pytest.importorskip("numpy")
    hands = [_LOSER, _WINNER, _LOSER, _LOSER]
    paid = RS.settle({"winner": 1, "hands": hands})
    # Seat 1's wind, as evaluate takes it.
    for wind in ("S", "s", "2z", 1):
        assert RS.settle({"winner": 1, "hands": [_LOSER, {**_WINNER, "seat_wind": wind}, _LOSER, _LOSER]}) == paid
    # A wilds key given None is left out, in the outcome as in a hand.
    wild = [_LOSER, {**_WINNER, "wilds": "6z"}, _LOSER, _LOSER]
    assert RS.settle({"winner": 1, "wilds": None, "hands": wild}) == RS.settle({"winner": 1, "hands": wild})
    # numpy's True is self-drawn: no seat discarded the winning tile.
    drawn = [_LOSER, {**_WINNER, "self_drawn": np.True_}, _LOSER, _LOSER]
    with pytest.raises(haidi.HandError) as e:
        RS.settle({"winner": 1, "discarder": 2, "hands": drawn})
    assert e.value.key == "discarder"


def test_settle_names_a_hands_key_within_its_seat() -> None:
    with pytest.raises(haidi.HandError) as e:
        RS.settle({"winner": 1, "hands": [_LOSER, {**_WINNER, "explain": "yes"}, _LOSER, _LOSER]})
    assert e.value.key == "hands[1].explain"
    with pytest.raises(haidi.HandError) as e:
        RS.settle({"winner": 1, "hands": [_LOSER, {**_WINNER, "seat_wind": "W"}, _LOSER, _LOSER]})
    assert e.value.key == "hands[1].seat_wind"
    with pytest.raises(haidi.HandError) as e:
        RS.settle({"winner": 1, "discarder": 1, "total": 100})
    assert e.value.key == "discarder"


def test_flowers_as_the_wilds_in_the_hand_questions() -> None:
    # "如是花财神": wilds naming a flower make every flower held a 财神, for analyze and the
    # hand questions as for evaluate.
    hand = "123m456m789m123p456p3f"
    plain = "123m456m789m123p456p"
    assert RS.waits(hand, wilds="3f") == RS.waits(plain, extra_wilds=1)
    assert RS.shanten(hand, wilds="3f") == 0
    assert RS.is_win("123m456m789m123p456p9s3f", wilds="3f")
    (entry,) = RS.analyze(hand, wilds="3f", seat_wind="S")
    assert entry["winning_waits"]
    for w in entry["winning_waits"]:
        r = RS.evaluate(hand=hand, win=w["tile"], wilds="3f", seat_wind="S")
        assert r["win"] and r["total"] == w["total"]
    # Two flowers are two wilds.
    assert RS.shanten("123m456m789m123p45p13f", wilds="1f") == 0
    with pytest.raises(haidi.HandError) as e:
        RS.waits(hand, wilds="3f", extra_wilds=1)
    assert e.value.key == "extra_wilds"
    with pytest.raises(haidi.HandError) as e:
        RS.waits(hand, wilds=["3f", "5m"])
    assert e.value.key == "wilds"


def test_a_hand_a_tile_over_has_the_shanten_of_its_best_discard() -> None:
    # Every 3m in a declared kong: the hand left after 1z waits on a drawn 财神 standing
    # for a fifth 3m ("haidi lets wilds do so in Longgang, for every kind"), so the whole
    # hand is ready too, as its best discard is. Random hands with melds besides.
    import random

    hand = "12m456p789p123s11s1z[3333m]"
    assert RS.shanten(hand, "9s") == 0 == min(e["shanten"] for e in RS.analyze(hand, wilds="9s"))
    rng = random.Random("a tile over")
    kinds = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
    checked = 0
    while checked < 300:
        meld = rng.choice(kinds[:27])
        wild = rng.choice([k for k in kinds if k != meld])
        wall = [k for k in kinds for _ in range(4) if k not in (meld, wild)]
        tiles = rng.sample(wall, 14) + [wild] * rng.randint(0, 1)
        text = "".join(tiles[:14]) + f"[{meld * 4}]"
        try:
            whole = RS.shanten(text, wild)
        except haidi.HandError:
            continue
        assert whole == min(e["shanten"] for e in RS.analyze(text, wilds=wild)), text
        checked += 1
