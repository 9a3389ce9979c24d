"""Hainan: the 11 番, 有番才能胡, seat flowers and winds, settlement (连庄, 截胡, 包牌) and
`haidi eval --rules hainan`. Quotes are from seed 002."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import haidi
from haidi.rulesets import hainan

HN = haidi.ruleset("hainan")


def ev(hand: str, win: str | None = None, **kw):
    return HN.evaluate(hand=hand, win=win, **kw)


def fans(r: dict) -> list[str]:
    return sorted(f["id"] for f in r["fans"])


# "总牌数一共 144 张" with "春夏秋冬、梅兰菊竹"; 13-tile hands.
def test_tiles_and_flowers():
    assert HN.hand_size == 13
    assert HN.spec.flowers == "12345678f"
    r = ev("123m456p789s234m1z8f", "1z")
    assert r["complete"]


# "1、只吃不碰，牌里都是顺子和1副对子"
def test_only_chows():
    r = ev("[123m][456p][789s]234m1z", "1z")
    assert r["win"] and fans(r) == ["all_chows"]


# "2、门清，没有吃、碰、杠牌"
def test_concealed():
    r = ev("111m456p999s234m1z", "1z")
    assert r["win"] and fans(r) == ["concealed"]


def test_concealed_kong_and_menqing():
    # "4.门前清,即没有任何碰,吃或杠": by default an 暗杠 is a 杠 too.
    r = ev("{1111m}456p999s234m1z", "1z")
    assert not r["discard_win"] and fans(r) == []
    r = ev("{1111m}456p999s234m1z", "1z", options={"concealed_kong_keeps_concealed": True})
    assert fans(r) == ["concealed"]


# "3、碰碰胡"
def test_all_pungs():
    r = ev("[111m][444p][999s][333m]1z", "1z")
    assert r["win"] and fans(r) == ["all_pungs"]


# "4、清一色，14张牌都是同一花色的牌"
def test_one_suit():
    r = ev("[111m][444m]99m123m67m", "8m")
    assert "one_suit" in fans(r)
    assert "one_suit" not in fans(ev("[111m][444m]99m123m11z", "1z"))


# "5、有二五八做将（最后的对子是2、5、8的牌，如2万、5饼、8条等）"
@pytest.mark.parametrize("pair", ["2m", "5p", "8s"])
def test_258_pair(pair):
    r = ev(f"[111m][444p][999s]345s{pair}", pair)
    assert fans(r) == ["pair_258"]


def test_258_pair_of_honours_is_not_one():
    assert fans(ev("[111m][444p][999s]345s2z", "2z")) == []


# "6、抢杠 ... 抢杠算胡牌者平胡，杠牌者点炮"
def test_robbing_kong():
    r = ev("[111m][444p][999s]345s1z", "1z", robbing_kong=True)
    assert r["win"] and fans(r) == ["robbing_kong"] and not r["self_drawn"]
    with pytest.raises(haidi.HandError):
        ev("[111m][444p][999s]345s1z", "1z", robbing_kong=True, self_drawn=True)


# "7、有三张相同红中、发财，明刻暗刻均可"
@pytest.mark.parametrize("dragon", ["6z", "7z"])
def test_dragon_pung(dragon):
    r = ev(f"[111m][444p]{dragon * 3}345s1z", "1z")
    assert fans(r) == ["dragon_pung"]
    r = ev(f"[111m][444p][{dragon * 3}]345s1z", "1z")
    assert fans(r) == ["dragon_pung"]


def test_white_dragon_pung_is_an_option():
    # The text's first list names 中 and 发; its second "碰或杠(包括明杠暗杠)中发白" adds 白.
    assert fans(ev("[111m][444p][555z]345s1z", "1z")) == []
    assert fans(ev("[111m][444p][555z]345s1z", "1z", options={"white_dragon": True})) == ["dragon_pung"]


# "8、从庄家位置始按逆时针计算，有拿到和自己座位相对应的春夏秋冬、梅兰竹菊的花牌"
# "庄家摸春或梅,庄家下家摸夏或兰,庄家对家摸秋或菊,庄家上家摸冬或竹"
@pytest.mark.parametrize(
    "seat, own, other",
    [(0, ["1f", "5f"], "2f"), (1, ["2f", "6f"], "1f"), (2, ["3f", "8f"], "7f"), (3, ["4f", "7f"], "8f")],
)
def test_seat_flower(seat, own, other):
    hand = "[111m][444p][999s]345s1z"
    for f in own:
        assert "seat_flower" in fans(ev(hand, "1z", seat=seat, flowers=f))
        assert "seat_flower" in fans(ev(hand + f, "1z", seat=seat))  # written in the hand
    assert "seat_flower" not in fans(ev(hand, "1z", seat=seat, flowers=other))


def test_flower_order_option():
    hand = "[111m][444p][999s]345s1z"
    assert fans(ev(hand, "1z", seat=2, flowers="7f", options={"flower_order": "mcr"})) == ["seat_flower"]
    assert fans(ev(hand, "1z", seat=2, flowers="7f")) == []


# "9、从庄家位置开始按逆时针计算“东西南北”，如果手头上有和自己座位相对应的风牌的刻子"
@pytest.mark.parametrize("seat, wind", [(0, "1z"), (1, "2z"), (2, "3z"), (3, "4z")])
def test_seat_wind_pung(seat, wind):
    r = ev(f"[111m][444p][{wind * 3}]345s7s", "7s", seat=seat)
    assert fans(r) == ["seat_wind_pung"]
    r = ev(f"[111m][444p][{wind * 3}]345s7s", "7s", seat=(seat + 1) % 4)
    assert fans(r) == []
    r = ev(f"[111m][444p][{wind * 3}]345s7s", "7s", seat_wind="ESWN"[seat])
    assert fans(r) == ["seat_wind_pung"]


# "10、十三幺"
def test_thirteen_orphans():
    r = ev("19m19p19s1234567z", "7z")
    assert r["form"] == "thirteen_orphans" and "thirteen_orphans" in fans(r)


# "11、七对"
def test_seven_pairs():
    r = ev("1133m4466p7799s3z", "3z")
    assert r["form"] == "seven_pairs" and "seven_pairs" in fans(r)


# "A、平胡。有一番就可以平胡" / "B、自摸：无论有番或者无番，自己摸到最后一张牌就算自摸"
def test_you_fan_cai_neng_hu():
    hand = "[111m][444p][999s]345s1z"
    r = ev(hand, "1z")
    assert r["complete"] and not r["discard_win"] and not r["win"] and "有番才能胡" in r["reason"]
    r = ev(hand, "1z", self_drawn=True)
    assert r["win"] and r["self_drawn"] and not r["discard_win"]


def test_waits_and_discard_waits():
    hand = "[111m][456p][789s]55s99s"
    assert HN.waits(hand) == ["5s", "9s"]  # a self-draw completes on either
    assert HN.winning_waits(hand) == ["9s"]  # only 9s leaves a 2-5-8 pair
    assert HN.winning_waits("[111m][456p][789s]23m99s") == []
    assert HN.winning_waits("[111m][456p][789s]66z99s") == ["6z"]
    assert HN.winning_waits("[111m][456p][789s]66z99s", options={"white_dragon": True}) == ["6z"]
    assert HN.winning_waits("[111m][456p][789s]55z99s", options={"white_dragon": True}) == ["5z"]


def test_not_complete():
    r = ev("123m456p789s234m1z", "2z")
    assert not r["complete"] and not r["win"]


@pytest.mark.parametrize(
    "kw",
    [
        dict(flowers=2),
        dict(flowers="11f"),
        dict(flowers="1m"),
        dict(seat=4),
        dict(seat=1, seat_wind="E"),
        dict(seat_wind="X"),
        dict(options={"flower_order": "other"}),
        dict(options={"white_dragon": 1}),
        dict(bogus=1),
    ],
)
def test_bad_situations(kw):
    with pytest.raises(haidi.HandError):
        ev("123m456p789s234m1z", "1z", **kw)


# -- settlement ------------------------------------------------------------------------


# "平胡：每个人扣 10分，点炮人扣20分"
def test_discard_win_payment():
    assert HN.settle({"winner": 1, "discarder": 2}) == [-10, 40, -20, -10]


# "自摸：每个人扣 20分，胜利者加60分"
def test_self_drawn_payment():
    pay = HN.settle({"winner": 1})
    assert pay == [-20, 60, -20, -20] and pay[1] == 60


# "明杠补杠每家给 10分，暗杠每家给20分。"
def test_kong_payments():
    kongs = [{"seat": 2, "kind": "exposed"}, {"seat": 2, "kind": "added"}, {"seat": 3, "kind": "concealed"}]
    assert HN.settle({"kongs": kongs}) == [-40, -40, 40, 40]
    assert HN.settle({"kongs": kongs, "options": {"kongs_paid_on_draw": False}}) == [0, 0, 0, 0]


# "如果庄家连续胡牌，每连庄一次，则有人自摸时，庄家胡牌和杠牌的加减分数都要加一倍；
#  有人 平胡 时，庄家胡杠的加减分都要多加 10分"
def test_dealer_streak_self_drawn_doubles():
    assert HN.settle({"winner": 0, "dealer_streak": 1}) == [120, -40, -40, -40]
    assert HN.settle({"winner": 2, "dealer_streak": 1}) == [-40, -20, 80, -20]
    # Kongs are the dealer's amounts too.
    out = {"winner": 2, "dealer_streak": 1, "kongs": [{"seat": 0, "kind": "exposed"}]}
    assert HN.settle(out) == [20, -40, 60, -40]
    # Two streak steps: one more time each (linear), or doubling again (exponential).
    assert HN.settle({"winner": 0, "dealer_streak": 2}) == [180, -60, -60, -60]
    out = {"winner": 0, "dealer_streak": 2, "options": {"streak_growth": "exponential"}}
    assert HN.settle(out) == [240, -80, -80, -80]


def test_dealer_streak_discard_adds_ten():
    assert HN.settle({"winner": 0, "discarder": 1, "dealer_streak": 1}) == [70, -30, -20, -20]
    assert HN.settle({"winner": 1, "discarder": 2, "dealer_streak": 2}) == [-30, 60, -20, -10]
    out = {"winner": 1, "discarder": 0, "dealer_streak": 1, "kongs": [{"seat": 3, "kind": "concealed"}]}
    assert HN.settle(out) == [-60, 30, -30, 60]


def test_other_dealer():
    assert HN.settle({"winner": 3, "dealer": 3, "dealer_streak": 1}) == [-40, -40, -40, 120]


# "C、截胡：打出一张牌，多人要胡，按照顺序只有第一人算胡，后面的不能算胡。"
def test_jiehu_first_in_turn_wins():
    assert hainan.first_claimant(1, [0, 3]) == 3
    assert hainan.first_claimant(1, [2, 3, 0]) == 2
    assert HN.settle({"winners": [0, 3], "discarder": 1}) == [-10, -20, -10, 40]
    with pytest.raises(haidi.HandError, match="截胡"):
        HN.settle({"winners": [0, 3], "winner": 0, "discarder": 1})


# "(7)包牌：吃上家三道牌，或碰任意一家三道牌，最后点炮给对方胡，需付三家的分数。
#  反之如果对方点炮被己方胡，则由对方一人付三家的分数。"
CHOWS_0_TO_1 = [{"by": 1, "from": 0, "meld": "chow"}] * 3
PUNGS_2_TO_0 = [{"by": 0, "from": 2, "meld": "pung"}, {"by": 0, "from": 2, "meld": "kong"}] + [
    {"by": 0, "from": 2, "meld": "pung"}
]


def test_bao_three_chows_feeder_deals_in():
    assert HN.settle({"winner": 1, "discarder": 0, "claims": CHOWS_0_TO_1}) == [-40, 40, 0, 0]


def test_bao_reverse():
    assert HN.settle({"winner": 0, "discarder": 1, "claims": CHOWS_0_TO_1}) == [40, -40, 0, 0]


def test_bao_three_pungs_from_anyone():
    assert HN.settle({"winner": 0, "discarder": 2, "claims": PUNGS_2_TO_0}) == [40, 0, -40, 0]
    # A kong claimed from a discard counts as a pung unless the option says otherwise.
    out = {"winner": 0, "discarder": 2, "claims": PUNGS_2_TO_0, "options": {"bao_kongs_as_pungs": False}}
    assert HN.settle(out) == [40, -10, -20, -10]


def test_no_bao_for_two_melds_a_third_player_or_self_draw():
    two = CHOWS_0_TO_1[:2]
    assert HN.settle({"winner": 1, "discarder": 0, "claims": two}) == [-20, 40, -10, -10]
    assert HN.settle({"winner": 1, "discarder": 3, "claims": CHOWS_0_TO_1}) == [-10, 40, -10, -20]
    assert HN.settle({"winner": 1, "claims": CHOWS_0_TO_1}) == [-20, 60, -20, -20]


def test_bao_with_streak():
    out = {"winner": 1, "discarder": 2, "dealer_streak": 1, "claims": [{"by": 1, "from": 2, "meld": "pung"}] * 3}
    assert HN.settle(out) == [0, 50, -50, 0]


@pytest.mark.parametrize(
    "out",
    [
        {"winner": 1, "discarder": 1},
        {"discarder": 1},
        {"winners": [1, 2]},
        {"winners": []},
        {"winners": [1, 1], "discarder": 0},
        {"winner": 1, "discarder": 2, "wall_last": True},
        {"winner": 5},
        {"winner": 1, "dealer_streak": -1},
        {"kongs": [{"seat": 1, "kind": "big"}]},
        {"kongs": "1"},
        {"winner": 1, "discarder": 2, "claims": [{"by": 1, "from": 2, "meld": "chow"}]},
        {"winner": 1, "discarder": 2, "claims": [{"by": 1, "from": 1, "meld": "pung"}]},
        {"winner": 1, "discarder": 2, "claims": [{"by": 1, "from": 2, "meld": "pair"}]},
        {"winner": 1, "options": {"streak_growth": "fast"}},
        [1, 2],
    ],
)
def test_bad_outcomes(out):
    with pytest.raises(haidi.HandError):
        HN.settle(out)


seat = st.integers(0, 3)


@given(
    winner=st.one_of(st.none(), seat),
    discarder=st.one_of(st.none(), seat),
    dealer=seat,
    streak=st.integers(0, 5),
    kongs=st.lists(
        st.fixed_dictionaries({"seat": seat, "kind": st.sampled_from(["exposed", "added", "concealed"])}), max_size=4
    ),
    claims=st.lists(st.tuples(seat, st.integers(1, 3), st.sampled_from(["chow", "pung", "kong"])), max_size=8),
    growth=st.sampled_from(["linear", "exponential"]),
    on_draw=st.booleans(),
)
def test_settlements_sum_to_zero(winner, discarder, dealer, streak, kongs, claims, growth, on_draw):
    if winner is None or discarder == winner:
        discarder = None
    cl = []
    for by, off, meld in claims:
        frm = (by - 1) % 4 if meld == "chow" else (by + off) % 4
        # A hand holds four melds at most.
        if sum(c["by"] == by for c in cl) < 4:
            cl.append({"by": by, "from": frm, "meld": meld})
    out = {
        "winner": winner,
        "discarder": discarder,
        "dealer": dealer,
        "dealer_streak": streak,
        "kongs": kongs,
        "claims": cl,
        "options": {"streak_growth": growth, "kongs_paid_on_draw": on_draw},
    }
    pay = HN.settle(out)
    assert sum(pay) == 0
    if winner is not None and not kongs:
        assert pay[winner] > 0 and all(pay[s] <= 0 for s in range(4) if s != winner)


# -- the command line ------------------------------------------------------------------


def test_cli_readable(haidi_cli):
    code, out, _ = haidi_cli("eval", "--rules", "hainan", "[111m][444p][999s]345s1z", "--win", "1z")
    assert code == 0 and "no win on a discard" in out and "有番才能胡" in out
    code, out, _ = haidi_cli("eval", "--rules", "hainan", "[111m][444p][999s]345s1z", "--win", "1z", "--self-drawn")
    assert code == 0 and "win self-drawn" in out
    argv = ["eval", "--rules", "hainan", "[111m][444p][999s]345s1z", "--win", "1z", "--seat", "W", "--flowers", "8f"]
    code, out, _ = haidi_cli(*argv)
    assert code == 0 and "本位花" in out and "1 番" in out


def test_cli_json(haidi_cli):
    code, out, _ = haidi_cli("eval", "--rules", "hainan", "19m19p19s1234567z", "--win", "1m", "--json")
    r = json.loads(out)
    assert code == 0 and r["win"] and "thirteen_orphans" in fans(r)


def test_cli_jsonl_keeps_going(haidi_cli):
    lines = "\n".join(
        [
            json.dumps({"hand": "[111m][444p][999s]345s1z", "win": "1z", "seat": 2, "flowers": "3f"}),
            "[1, 2]",
            json.dumps({"hand": "[111m][444p][999s]345s1z", "win": "1z", "flowers": 3}),
            json.dumps({"hand": "1133m4466p7799s3z", "win": "3z"}),
        ]
    )
    code, out, _ = haidi_cli("eval", "--rules", "hainan", "--jsonl", stdin=lines)
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and len(rows) == 4  # 2: some lines were answered with an error
    assert rows[0]["win"] and "error" in rows[1] and "error" in rows[2] and rows[3]["win"]


def test_cli_flower_count_is_refused(haidi_cli):
    code, _, _ = haidi_cli("eval", "--rules", "hainan", "[111m][444p][999s]345s1z", "--win", "1z", "--flowers", "2")
    assert code == 2


def test_evaluate_many():
    sits = [{"hand": "[111m][444p][999s]345s1z", "win": "1z"}, {"hand": "[111m][444p][999s]345s1z", "win": "1z"}]
    rows = HN.evaluate_many(sits, options={"white_dragon": True})
    assert [r["win"] for r in rows] == [False, False]
    rows = HN.evaluate_many([{**sits[0], "self_drawn": True}])
    assert rows[0]["win"]
    with pytest.raises(haidi.HandError):
        HN.evaluate_many([1])


def test_flags_without_a_fan_still_say_what_they_say_of_the_win() -> None:
    """杠上开花 is self-drawn and no kong is robbed on the last tile, though Hainan counts
    neither: given alone the flag makes the win self-drawn; the contradictions are refused
    on every path."""
    rs = haidi.ruleset("hainan")
    base = dict(hand="123m456p789s2255m", win="2m")
    assert rs.evaluate(**base, kong_replacement=True)["self_drawn"]
    assert not rs.evaluate(**base, wall_last=True)["self_drawn"]
    for flags, named in [
        (dict(kong_replacement=True, self_drawn=False), "杠上开花 is self-drawn"),
        (dict(kong_replacement=True, robbing_kong=True), "not self-drawn"),
        (dict(wall_last=True, robbing_kong=True), "no kong is made on the last tile"),
    ]:
        with pytest.raises(haidi.HandError, match=named):
            rs.evaluate(**base, **flags)
        with pytest.raises(haidi.HandError, match=named):
            rs.evaluate_many({k: [v] for k, v in {**base, **flags}.items()})


def test_unpaid_kongs_are_still_read() -> None:
    """A drawn hand with kongs_paid_on_draw off pays no kongs, but its record is read as
    any other: a bad kong is refused whoever won."""
    off = {"options": {"kongs_paid_on_draw": False}}
    assert HN.settle({"kongs": [{"seat": 1, "kind": "exposed"}], **off}) == [0, 0, 0, 0]
    assert HN.settle({"kongs": [{"seat": 1, "kind": "exposed"}]}) == [-10, 30, -10, -10]
    for bad, named in [({"seat": 9, "kind": "exposed"}, "seat"), ({"seat": 1, "kind": "x"}, "kind")]:
        with pytest.raises(haidi.HandError, match=named):
            HN.settle({"kongs": [bad], **off})
