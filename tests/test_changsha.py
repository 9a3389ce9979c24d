"""Changsha (the seed's 广东麻将): forms, 小胡 / 大胡, the dealt-hand instant wins, birds,
settlement and `haidi eval --rules changsha`. Quotes are from seed 001, part 廣東麻將中的海底撈月."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import haidi
from haidi.rulesets import changsha

CS = haidi.ruleset("changsha")


def ev(hand: str, win: str | None = None, **kw):
    return CS.evaluate(hand=hand, win=win, **kw)


def ids(r: dict) -> list[str]:
    return sorted(p["id"] for p in r["patterns"] for _ in range(p["count"]))


# "共一百零八張：筒、索、萬，不帶東、南、西、北風和中、發、白"
def test_no_honours():
    with pytest.raises(haidi.HandError, match="not played in changsha"):
        ev("123m456m789m123p5s", "1z")


# "4)平胡：需將，牌型由順，刻，將牌組成" and "需將為需2、5、8作將"
@pytest.mark.parametrize("pair", ["2s", "5s", "8s", "2m", "5p", "8m"])
def test_ping_hu_needs_a_258_pair(pair):
    hand = "123m456m789p123p" + pair
    if hand.count(pair[0]) > 3:
        pytest.skip("fifth copy")
    r = ev(hand.replace(pair, pair[0] + pair[1]), pair)
    assert r["win"] and r["small"] == 1 and r["big"] == 0 and ids(r) == ["ping_hu"]


@pytest.mark.parametrize("pair", ["1s", "3s", "4s", "6s", "7s", "9s"])
def test_ping_hu_refuses_another_pair(pair):
    r = ev("123m456m789p123p" + pair, pair)
    assert not r["win"] and "2-5-8" in r["reason"]


def test_waits_and_shanten_respect_the_258_pair():
    # 4s alone would make a pair of 4s: not a 将.
    assert CS.waits("123m456m789p123p4s") == []
    assert CS.shanten("123m456m789p123p4s") == 1
    assert CS.waits("123m456m789p12p55s") == ["3p"]
    # A one-suit hand (清一色) takes any pair: the 1m-4m pair waits count.
    assert CS.waits("1112345678999m") == [f"{i}m" for i in range(1, 10)]
    # MCR, with any pair, waits on 4s.
    assert haidi.ruleset("mcr").waits("123m456m789p123p4s") == ["4s"]


# "2)碰碰胡：亂將，由刻牌和將牌組成。可碰，可槓。"
def test_all_pungs_any_pair():
    r = ev("111m333p777s[999m]4s", "4s")
    assert r["win"] and ids(r) == ["all_pungs"] and r["small"] == 0 and r["big"] == 1


# "1)七巧對：亂將，手中有六對牌和一張單牌，而別的玩家又打出了或者自己摸到了和單牌一樣的牌"
def test_seven_pairs_from_six_pairs_and_a_single():
    r = ev("1133m4466p7799s3s", "3s")
    assert r["win"] and ids(r) == ["seven_pairs"] and r["form"] == "seven_pairs"
    r = ev("1133m4466p7799s3s", "3s", self_drawn=True)
    assert r["win"] and r["self_drawn"]


def test_luxury_seven_pairs():
    # "豪華七對" (seed's garbled line): four of a kind inside seven pairs.
    r = ev("1111m4466p7799s3s", "3s")
    assert r["win"] and "seven_pairs" in ids(r)


# "3)將將胡：玩家手上每一張牌都為2、5、8" — no set structure needed.
def test_all_258_needs_no_structure():
    r = ev("2258m2558p2588s2m", "2m")
    assert r["win"] and ids(r) == ["all_258"] and r["form"] == "all_258"
    # With declared pungs of 2, 5 or 8.
    r = ev("[222m][555p]258s258m8p", "8p")
    assert r["win"] and ids(r) == ["all_258"]
    # A chow cannot be all 2, 5, 8.
    assert not ev("[234m]22558p2588s8m", "8m")["win"]


# "4)清一色：亂將，有筒、索、萬三種" — any suit, any pair.
@pytest.mark.parametrize("suit", "mps")
def test_one_suit_any_pair(suit):
    r = ev(f"1234567891114{suit}", f"4{suit}")
    assert r["win"] and "one_suit" in ids(r)


# "(“含小胡”－表示牌型可以為小胡牌型，但計大胡)" and "Several 大胡 add up".
def test_big_wins_add_up_and_replace_the_small_win():
    r = ev("1122334455667m", "7m")  # 七巧對 + 清一色
    assert ids(r) == ["one_suit", "seven_pairs"] and r["big"] == 2 and r["small"] == 0
    r = ev("222555m888p222s5s", "5s")  # 碰碰胡 + 將將胡
    assert ids(r) == ["all_258", "all_pungs"] and r["big"] == 2
    r = ev("111333555777m9m", "9m")  # 碰碰胡 + 清一色
    assert ids(r) == ["all_pungs", "one_suit"] and r["big"] == 2


@pytest.mark.parametrize(
    "flag, pid, self_drawn",
    [
        ("kong_replacement", "kong_bloom", True),  # "5)槓上花：開槓後，系統補張。玩家胡了補張的牌。(含小胡)"
        ("heavenly", "heavenly", True),  # "6)天胡：指莊家。莊家起牌後，就已經胡牌。(含小胡)"
        ("earthly", "earthly", False),  # "7)地胡：指閒家。當莊家打出第一張牌後，閒家胡牌。(含小胡)"
        ("robbing_kong", "robbing_kong", False),  # "8)搶槓胡 ... (含小胡)"
    ],
)
def test_situational_big_wins_on_a_small_shape(flag, pid, self_drawn):
    # 杠上花 wins on the tile drawn after a kong: the hand has one.
    melds = "[2222p]" if flag == "kong_replacement" else "123p"
    r = ev(f"123m456m789p{melds}5s", "5s", **{flag: True})
    assert r["win"] and ids(r) == [pid] and r["big"] == 1 and r["small"] == 0 and r["self_drawn"] == self_drawn
    # 含小胡: the shape still needs its 2-5-8 pair.
    assert not ev(f"123m456m789p{melds}4s", "4s", **{flag: True})["win"]


# "9)海底撈月：胡了最後一張牌" / "10)海底炮胡：...另一玩家沒有要海底，但可以胡海底牌"
def test_haidi_wins():
    r = ev("123m456m789p123p5s", "5s", wall_last=True, self_drawn=True)
    assert ids(r) == ["last_tile_draw"]
    r = ev("123m456m789p123p5s", "5s", wall_last=True)
    assert ids(r) == ["last_tile_discard"]
    r = ev("1122334455667m", "7m", wall_last=True, self_drawn=True)
    assert r["big"] == 3


def test_heavenly_from_a_complete_hand():
    r = CS.evaluate(hand="123m456m789p123p55s", heavenly=True)
    assert r["win"] and r["self_drawn"] and ids(r) == ["heavenly"]


@pytest.mark.parametrize(
    "kw",
    [
        dict(robbing_kong=True, self_drawn=True),
        dict(earthly=True, self_drawn=True),
        dict(kong_replacement=True, self_drawn=False),
        dict(heavenly=True, earthly=True),
        dict(heavenly=True, seat_wind="S"),
        dict(earthly=True, seat_wind="E"),
        dict(flowers="1f"),
        dict(bogus=True),
        dict(self_drawn="yes"),
        dict(options={"birds": "two"}),
        dict(options={"nope": 1}),
    ],
)
def test_contradictions_are_refused(kw):
    with pytest.raises(haidi.HandError):
        ev("123m456m789p123p5s", "5s", **kw)


# Situations that cannot happen are refused, as MCR's are, on every path.
IMPOSSIBLE = [
    # "5)槓上花：開槓後，系統補張。玩家胡了補張的牌": no kong, no replacement tile.
    (dict(hand="123m456m789p123p5s", win="5s", kong_replacement=True), "kong_replacement"),
    # No replacement can follow a kong made on the last tile, so no such kong is robbed.
    (dict(hand="123m456m789p123p5s", win="5s", wall_last=True, robbing_kong=True), "robbing_kong"),
    # 天胡 and 地胡 come at the deal and on the first discard: the wall is still full.
    (dict(hand="123m456m789p123p55s", wall_last=True, heavenly=True), "heavenly"),
    (dict(hand="123m456m789p123p5s", win="5s", wall_last=True, earthly=True, seat_wind="S"), "earthly"),
    # "地胡：指閒家。當莊家打出第一張牌後，閒家胡牌": a discard, not a tile added to a kong.
    (dict(hand="123m456m789p123p5s", win="5s", robbing_kong=True, earthly=True, seat_wind="S"), "robbing_kong"),
    # "天胡：指庄家。庄家起牌后，就已经胡牌": complete as dealt, before any kong.
    (dict(hand="456789m234p5s{1111m}", win="5s", heavenly=True, kong_replacement=True), "heavenly"),
    # "2、起張數目：莊家的起張數目為14張，閒家的起張數目為13張".
    (dict(hand="1111m2345p3467s9s", dealt=True, seat_wind="E"), "seat_wind E"),
    (dict(hand="1234567m2345678p", dealt=True, seat_wind="S"), "seat_wind S"),
]


@pytest.mark.parametrize(("situation", "named"), IMPOSSIBLE)
def test_impossible_situations_are_refused(situation, named, haidi_cli):
    with pytest.raises(haidi.HandError, match=named):
        CS.evaluate(**situation)
    with pytest.raises(haidi.HandError, match=f"situation 0: .*{named}"):
        CS.evaluate_many([situation])
    columns = {k: [v] for k, v in situation.items()}
    with pytest.raises(haidi.HandError, match=named):
        CS.evaluate_many(columns)
    code, out, _ = haidi_cli("eval", "--rules", "changsha", "--jsonl", stdin=json.dumps(situation))
    assert code == 2 and named in json.loads(out)["error"]


def test_possible_neighbours_of_the_refused_are_taken():
    # The same flags with a kong declared (concealed or not), each alone, or the sizes right.
    assert ids(ev("123m456m789p{2222p}5s", "5s", kong_replacement=True)) == ["kong_bloom"]
    assert ids(ev("123m456m789p123p5s", "5s", wall_last=True)) == ["last_tile_discard"]
    assert CS.evaluate(hand="123m456m789p123p5s", win="5s", earthly=True, seat_wind="S")["win"]
    assert CS.evaluate(hand="123m456m789p123p5s", win="5s", robbing_kong=True, seat_wind="S")["win"]
    assert CS.evaluate(hand="1111m2345p3467s9s", dealt=True, seat_wind="S")["win"]
    assert CS.evaluate(hand="1234567m2345678p", dealt=True, seat_wind="E")["win"]
    # Without a seat the size says whose dealt hand it is.
    assert CS.evaluate(hand="1234567m2345678p", dealt=True)["win"]


# 小胡 on the dealt hand: "1)四喜：無將，起完牌後，玩家手上已有四張一樣的牌，即可胡牌。(計分等同小胡自摸)"
def test_dealt_four_of_a_kind():
    r = CS.evaluate(hand="1111m2345p3467s9s", dealt=True)
    assert r["win"] and ids(r) == ["four_of_a_kind"] and r["small"] == 1 and r["self_drawn"]


# "2)板板胡：無將，起完牌後，玩家手上沒有一張2、5、8(將牌)"
def test_dealt_no_258():
    r = CS.evaluate(hand="1346m1379p134679s", dealt=True)
    assert ids(r) == ["no_258"] and r["small"] == 1


# "3)缺一色：無將，起完牌後，玩家手上筒、索、萬任缺一門"
def test_dealt_missing_suit():
    r = CS.evaluate(hand="1234567m2345678p", dealt=True)  # dealer's 14 tiles, no bamboo
    assert ids(r) == ["missing_suit"]


def test_dealt_wins_count_each():
    r = CS.evaluate(hand="1111m3333p4679p13s", dealt=True)  # 两个四喜 + 板板胡
    assert ids(r) == ["four_of_a_kind", "four_of_a_kind", "no_258"] and r["small"] == 3
    r = CS.evaluate(hand="1256m1479p1347s5s", dealt=True)
    assert not r["win"] and r["small"] == 0


@pytest.mark.parametrize(
    "kw", [dict(hand="1111m2345p3467s9s", win="9s"), dict(hand="[111m]2345p3467s9s"), dict(hand="12m")]
)
def test_dealt_hand_errors(kw):
    with pytest.raises(haidi.HandError):
        CS.evaluate(dealt=True, **kw)


# -- settlement ------------------------------------------------------------------------

NO_BIRDS = {"birds": 0}


def test_payment_table():
    # 小胡 self-drawn: each pays 2; on a discard: the discarder pays 1.
    assert CS.settle({"wins": [{"seat": 1, "small": 1}], "options": NO_BIRDS}) == [-2, 6, -2, -2]
    assert CS.settle({"wins": [{"seat": 1, "small": 1}], "discarder": 3, "options": NO_BIRDS}) == [0, 1, 0, -1]
    # Each 大胡 self-drawn: each pays 6; on a discard: the discarder pays 6.
    assert CS.settle({"wins": [{"seat": 2, "big": 2}], "options": NO_BIRDS}) == [-12, -12, 36, -12]
    assert CS.settle({"wins": [{"seat": 2, "big": 1}], "discarder": 0, "options": NO_BIRDS}) == [-6, 0, 6, 0]
    # The dealt-hand wins are paid as 小胡 self-draws, once each.
    assert CS.settle({"wins": [{"seat": 0, "small": 3}], "options": NO_BIRDS}) == [18, -6, -6, -6]


def test_an_evaluate_result_is_a_win_entry():
    r = ev("1122334455667m", "7m", self_drawn=True)
    assert CS.settle({"wins": [{**r, "seat": 3}], "options": NO_BIRDS}) == [-12, -12, -12, 36]


# "(鳥的計算方法為：以莊家為起點，按牌面數字計算。譬如，一表示莊家，二表示下家，三為對家，四為上家)"
@pytest.mark.parametrize("n, seat", [(1, 0), (2, 1), (3, 2), (4, 3), (5, 0), (6, 1), (7, 2), (8, 3), (9, 0)])
def test_bird_counted_from_the_dealer(n, seat):
    assert changsha.bird_seats([f"{n}p"], 0) == [seat]
    assert changsha.bird_seats([f"{n}s"], 2) == [(seat + 2) % 4]


# "被扎鳥方贏輸計分要翻倍"
def test_bird_doubles_the_birded_players_payment():
    # Seat 1 self-draws a 小胡; the bird 3m lands on seat 2 (opposite the dealer).
    assert CS.settle({"wins": [{"seat": 1, "small": 1}], "birds": ["3m"]}) == [-2, 8, -4, -2]
    # The bird on the winner doubles everything it receives.
    assert CS.settle({"wins": [{"seat": 1, "small": 1}], "birds": ["6m"]}) == [-4, 12, -4, -4]
    # On a discard: only the discarder pays; a bird on a third player changes nothing.
    assert CS.settle({"wins": [{"seat": 1, "big": 1}], "discarder": 3, "birds": ["4s"]}) == [0, 12, 0, -12]
    assert CS.settle({"wins": [{"seat": 1, "big": 1}], "discarder": 3, "birds": ["1s"]}) == [0, 6, 0, -6]


def test_bird_counted_from_another_dealer():
    out = {"wins": [{"seat": 1, "small": 1}], "birds": ["1m"], "dealer": 1}
    assert CS.settle(out) == [-4, 12, -4, -4]


# "如果為海底胡，則海底牌為鳥牌": the caller gives the 海底 tile as the bird.
def test_haidi_tile_is_the_bird():
    r = ev("123m456m789p123p5s", "5s", wall_last=True, self_drawn=True)
    out = {"wins": [{**r, "seat": 2}], "birds": ["5s"], "wall_last": True}
    assert CS.settle(out) == [-12, -6, 24, -6]


def test_bird_options():
    win = {"wins": [{"seat": 1, "small": 1}], "birds": ["2m", "3m", "2s"]}
    # One bird by default: only 2m counts (on the winner).
    assert CS.settle(win) == [-4, 12, -4, -4]
    # Three birds, doubling: two on the winner, one on seat 2.
    assert CS.settle({**win, "options": {"birds": 3}}) == [-8, 32, -16, -8]
    # Three birds, adding doubles: x(1 + birds).
    assert CS.settle({**win, "options": {"birds": 3, "bird_mode": "add_double"}}) == [-6, 20, -8, -6]
    # Three birds, adding a point a bird.
    assert CS.settle({**win, "options": {"birds": 3, "bird_mode": "add"}}) == [-4, 13, -5, -4]
    # Counted from the winner: 2 is the winner's next seat.
    assert CS.settle({**win, "options": {"bird_from": "winner"}}) == [-2, 8, -4, -2]


def test_amounts_are_options():
    opt = {"birds": 0, "small_self_drawn": 1, "big_discard": 5, "dealer_extra": 1}
    assert CS.settle({"wins": [{"seat": 1, "small": 1}], "options": opt}) == [-2, 4, -1, -1]
    assert CS.settle({"wins": [{"seat": 0, "big": 1}], "discarder": 2, "options": opt}) == [6, 0, -6, 0]


# "3、通炮：即幾個玩家可胡同一張牌，即為通炮，輸家要付清所有胡分。"
def test_tongpao_discarder_pays_each():
    out = {"wins": [{"seat": 0, "small": 1}, {"seat": 2, "big": 2}], "discarder": 1, "options": NO_BIRDS}
    assert CS.settle(out) == [1, -13, 12, 0]


@pytest.mark.parametrize(
    "out",
    [
        {"wins": []},
        {"wins": [{"seat": 1, "small": 1}, {"seat": 2, "small": 1}]},  # two self-drawn winners
        {"wins": [{"seat": 1, "small": 1}], "discarder": 1},
        {"wins": [{"seat": 1, "small": 1}, {"seat": 1, "big": 1}], "discarder": 0},
        {"wins": [{"seat": 1}]},
        {"wins": [{"seat": 5, "small": 1}]},
        {"wins": [{"seat": 1, "small": -1}]},
        {"wins": [{"seat": 1, "small": 1}], "birds": ["1z"]},
        {"wins": [{"seat": 1, "small": 1}], "birds": "5m"},
        {"wins": [{"seat": 1, "small": 1}], "options": {"bird_mode": "triple"}},
        {"wins": [{"seat": 1, "small": 1}], "options": {"bird_from": "east"}},
        # 漏胡: seat 1 passed a discard win and has not drawn since.
        {"wins": [{"seat": 1, "small": 1}], "discarder": 2, "passed_win": [1]},
        # 海底炮: the discarder is who took the 海底 tile.
        {"wins": [{"seat": 1, "big": 1}], "discarder": 2, "wall_last": True, "haidi_taker": 3},
        "not a mapping",
    ],
)
def test_bad_outcomes(out):
    with pytest.raises(haidi.HandError):
        CS.settle(out)


def test_recorded_play_fields_that_agree_are_fine():
    out = {"wins": [{"seat": 1, "big": 1}], "discarder": 2, "wall_last": True, "haidi_taker": 2, "passed_win": [3]}
    assert sum(CS.settle(out)) == 0


tiles = st.sampled_from([f"{n}{s}" for n in range(1, 10) for s in "mps"])
wins_st = st.fixed_dictionaries({"big": st.integers(0, 4), "small": st.integers(0, 3)}).filter(
    lambda w: w["big"] or w["small"]
)


@given(
    seats=st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True),
    scores=st.lists(wins_st, min_size=3, max_size=3),
    discarder=st.integers(0, 3),
    self_drawn=st.booleans(),
    dealer=st.integers(0, 3),
    birds=st.lists(tiles, max_size=6),
    nbirds=st.integers(0, 6),
    mode=st.sampled_from(["double", "add_double", "add"]),
    origin=st.sampled_from(["dealer", "winner"]),
    extra=st.integers(0, 2),
)
def test_settlements_sum_to_zero(seats, scores, discarder, self_drawn, dealer, birds, nbirds, mode, origin, extra):
    if self_drawn:
        seats, disc = seats[:1], None
    else:
        seats, disc = [s for s in seats if s != discarder] or [(discarder + 1) % 4], discarder
    wins = [{"seat": s, **w} for s, w in zip(seats, scores, strict=False)]
    opt = {"birds": nbirds, "bird_mode": mode, "bird_from": origin, "dealer_extra": extra}
    pay = CS.settle({"wins": wins, "discarder": disc, "dealer": dealer, "birds": birds, "options": opt})
    assert sum(pay) == 0
    for s in range(4):
        if s not in seats:
            assert pay[s] <= 0  # only winners receive
    if disc is not None:
        assert all(pay[s] == 0 for s in range(4) if s not in seats and s != disc)


# -- the command line ------------------------------------------------------------------


def test_cli_readable(haidi_cli):
    code, out, _ = haidi_cli("eval", "--rules", "changsha", "1122334455667m", "--win", "7m", "--self-drawn")
    assert code == 0 and "2 大胡" in out and "七巧对" in out and "清一色" in out and "self-drawn" in out
    code, out, _ = haidi_cli("eval", "--rules", "changsha", "123m456m789p123p4s", "--win", "4s")
    assert code == 0 and "no win" in out and "2-5-8" in out
    code, out, _ = haidi_cli("eval", "--rules", "changsha", "1346m1379p134679s", "--set", "dealt=true")
    assert code == 0 and "板板胡" in out and "1 小胡" in out


def test_cli_says_what_the_discarder_pays(haidi_cli):
    """A discard win is paid by the discarder alone ("4)大胡接炮:点炮方出6分", "小胡接炮
    点炮方出1分"), and the line says so; a self-drawn win by each other player."""

    def head(*argv: str) -> str:
        code, out, _ = haidi_cli("eval", "--rules", "changsha", *argv)
        assert code == 0
        return out.splitlines()[0]

    assert "6 from the discarder" in head("111m333p444s666s1s", "--win", "1s")
    assert "1 from the discarder" in head("123m456p789s22m55s", "--win", "5s")
    assert "2 from each other player" in head("123m456p789s22m55s", "--win", "5s", "--self-drawn")
    assert "12 from each other player" in head("1122334455667m", "--win", "7m", "--self-drawn")
    line = head("123m456p789s22m55s", "--win", "5s", "--set", 'options={"small_discard": 3, "dealer_extra": 1}')
    assert "3 from the discarder (+1 where the dealer pays or wins)" in line
    assert "each player self-drawn" not in line


def test_cli_json_and_flags(haidi_cli):
    code, out, _ = haidi_cli(
        "eval", "--rules", "changsha", "123m456m789p123p5s", "--win", "5s", "--wall-last", "--self-drawn", "--json"
    )
    r = json.loads(out)
    assert code == 0 and r["big"] == 1 and r["patterns"][0]["id"] == "last_tile_draw"


def test_cli_jsonl_keeps_going(haidi_cli):
    lines = "\n".join(
        [
            json.dumps({"hand": "123m456m789p123p5s", "win": "5s", "robbing_kong": True}),
            "not json",
            json.dumps({"hand": "123m456m789p123p5s", "win": "1z"}),
            json.dumps({"hand": "1111m2345p3467s9s", "dealt": True}),
        ]
    )
    code, out, _ = haidi_cli("eval", "--rules", "changsha", "--jsonl", stdin=lines)
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and len(rows) == 4  # 2: some lines were answered with an error
    assert rows[0]["big"] == 1 and "error" in rows[1] and "error" in rows[2] and rows[3]["small"] == 1


def test_cli_error_exit(haidi_cli):
    code, _, _ = haidi_cli("eval", "--rules", "changsha", "123m456m789p123p5s", "--win", "5s", "--flowers", "1f")
    assert code == 2


def test_evaluate_many_and_flowers_in_the_hand():
    rows = CS.evaluate_many([{"hand": "123m456m789p123p5s", "win": "5s"}, {"hand": "1346m1379p134679s", "dealt": True}])
    assert [r["small"] for r in rows] == [1, 1]
    with pytest.raises(haidi.HandError):
        CS.evaluate_many("123m")
    with pytest.raises(haidi.HandError, match="flowers"):
        ev("123m456m789p123p5s1f", "5s")


def test_every_bird_given_is_read() -> None:
    """Only the first options["birds"] birds count, but each given is read: a bird that is
    no suited tile (another script's digit too) is refused, counted or not."""
    win = {"wins": [{"seat": 1, "small": 1}]}
    assert CS.settle({**win, "birds": ["5m", "3p"]}) == CS.settle({**win, "birds": ["5m"]})
    for birds in (["²m"], ["٣m"], ["３m"], ["5m", "garbage"], ["5m", 7], ["5z"]):
        with pytest.raises(haidi.HandError, match="a bird is a suited tile"):
            CS.settle({**win, "birds": birds})
