"""The seeds' flow rules that shape a hand in play, each on a stacked or seeded wall and
each quoting its line: Longgang's 财神, 坐花, 补花, 王牌, 分张, 漏胡, 三财神 and the losers'
own 胡数, 过水碰 and the bars on claims, 天胡 after a concealed kong, 包三家; 跟庄 in
Tangshan and Beijing, Beijing's 烧庄 and 互包 (docs/game.md)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from test_game import stacked_wall, tiles_of

import haidi

Policy = Callable[[haidi.Game, int, list[dict[str, Any]]], dict[str, Any]]


def play_out(g: haidi.Game, policy: Policy) -> None:
    """Plays ``g`` to its end, ``policy`` choosing for each awaited seat."""
    steps = 0
    while not g.done:
        seat = g.to_act[0]
        g.step(seat, policy(g, seat, g.legal_actions(seat)))
        steps += 1
        assert steps < 3000


def win_or_random(rng: random.Random) -> Policy:
    """Wins whenever it may, else a random legal action."""
    return lambda g, seat, legal: {"type": "win"} if {"type": "win"} in legal else rng.choice(legal)


def never_win(g: haidi.Game, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Claims nothing and wins nothing: passes, else the first discard."""
    if {"type": "pass"} in legal:
        return {"type": "pass"}
    return next(a for a in legal if a["type"] == "discard")


def longgang_wall(hands: list[str], draws: str = "", back: str = "", turned: str = "9s") -> list[str]:
    """A Longgang wall: ``turned`` is its last tile, the 财神 turned up before the deal;
    ``back`` the replacements after it, from the end."""
    return stacked_wall("longgang", hands, draws, back=turned + back)


def events(g: haidi.Game, kind: str) -> list[dict[str, Any]]:
    return [e for e in g.log if e["event"] == kind]


def won(g: haidi.Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """The result of a hand over and its one win."""
    r = g.result
    assert r is not None
    (w,) = r["wins"]
    return r, w


# Longgang (seed 003) ---------------------------------------------------------------------


def test_longgang_turns_the_wild_up_keeps_the_seat_flower_and_replaces_the_others() -> None:
    # "翻开总和数的最后一对的内侧牌，此为财神牌，胡牌时可以替代任何牌"; "坐花可当财神用";
    # "补花：抓到花牌后，明放在立牌前，并从牌墙最后(牌海侧开始)补一张牌"; "财神及坐花在行牌程中不能打出".
    hands = [
        "123m456m789m11p23s9p4z13f",  # the dealer's 春 (1f) is its 坐花, 秋 (3f) a guest
        "123p456p78p4s11z22z33z2f",  # 夏 (2f) is South's 坐花
        "111s555s777s66z44z5s6s9s",
        "111m222m333p444p5p6p7m8m",
    ]
    g = haidi.Game("longgang", wall=longgang_wall(hands, draws="4f", back="7z8s", turned="9p"))
    assert events(g, "indicator") == [{"event": "indicator", "tile": "9p"}]
    assert g.observation(0)["wilds"] == ["9p"]
    # Only the guest flowers are set aside and replaced from the end of the wall.
    assert events(g, "flower") == [{"event": "flower", "seat": 0, "tile": "3f"}]
    assert [e for e in events(g, "draw") if e["replacement"]] == [
        {"event": "draw", "seat": 0, "tile": "7z", "replacement": True}
    ]
    o = g.observation(0)
    assert o["flowers"][0] == ["1f", "3f"] and o["concealed_counts"][0] == 17  # 16 tiles and the 坐花
    # The others see the guest flower set aside, not the 坐花 kept among the concealed tiles.
    assert g.observation(1)["flowers"][0] == ["3f"] and g.observation(1)["concealed_counts"][0] == 17
    discards = [a["tile"] for a in g.legal_actions(0) if a["type"] == "discard"]
    assert "9p" not in discards and "7z" in discards
    g.step(0, {"type": "discard", "tile": "7z"})
    # South draws 冬 (4f), a guest: set aside, and the next tile from the end replaces it.
    assert events(g, "flower")[-1] == {"event": "flower", "seat": 1, "tile": "4f"}
    assert events(g, "draw")[-1] == {"event": "draw", "seat": 1, "tile": "8s", "replacement": True}
    assert g.observation(1)["flowers"][1] == ["2f", "4f"]
    counts, flowers = g._tile_counts()
    assert flowers == 4 and set(counts) <= {0, 4}


def test_longgang_the_greedy_agent_counts_its_seat_flower_as_a_wild() -> None:
    # "坐花可当财神用": the dealer's 春 is one wild more in the greedy agent's analysis, which
    # then reads the 16 tiles and the flower as a hand to discard from: an honour goes,
    # not the first tile (1m) it would fall back to.
    hands = [
        "123m456m789m11p23s9p4z13f",
        "123p456p78p4s11z22z33z2f",
        "111s555s777s66z44z5s6s9s",
        "111m222m333p444p5p6p7m8m",
    ]
    g = haidi.Game("longgang", wall=longgang_wall(hands, draws="4f", back="7z8s", turned="9p"))
    assert g._greedy(0) in ({"type": "discard", "tile": "4z"}, {"type": "discard", "tile": "7z"})


def _one_win_of_seats_1_and_3(g: haidi.Game) -> dict:
    """Seats 1 and 3 both asked about one discard, both call a win: the one win made."""
    assert set(g.to_act) == {1, 3}
    g.step(1, {"type": "win"})
    g.step(3, {"type": "win"})
    _, w = won(g)
    return w


def test_longgang_a_seat_flower_plays_as_a_wild() -> None:
    # "坐花：坐花可以代替任何牌,坐花胡牌的都可计算1台": South's 夏 pairs the 7s, the dealer's 4s completes.
    hands = [
        "111m222m333m444p66z77z4s",
        "123p456p789p123s44s7s2f",
        "111s555s666s888s11z2z3z",
        "777m888m999m555p22z3z4z",
    ]
    g = haidi.Game("longgang", wall=longgang_wall(hands))
    g.step(0, {"type": "discard", "tile": "4s"})
    assert {"type": "win"} in g.legal_actions(1)
    g.step(1, {"type": "win"})
    r, w = won(g)
    assert w["seat"] == 1 and "2f" in w["situation"]["hand"]
    assert "seat_flower" in [p["id"] for p in w["score"]["patterns"]]
    assert r["payments"][1] > 0 and sum(r["payments"]) == 0


def test_longgang_three_wilds_win_at_the_deal_before_an_earthly_hand() -> None:
    # "凡手牌中含用三个正财神即可马上胡牌，抓16张牌时如有三财神亦可胡牌" and "另如一家地胡，一家三财神
    # （时未摸进首张牌，补花补杠除外），应以三财神优先"; settled as "腊子时庄家输赢为72子 ... 闲家间为42子"
    # with the others at 0 ("其他人不能算胡数，就全部当0胡计").
    hands = [
        "111m222m333m444p66z77z4s",
        "123p456p789p123s44s77s",  # waits on 4s and 7s: 地胡 on the dealer's 4s
        "111s555s666s888s11z2z3z",
        "9s9s9s777m888m999m555p2z",  # the 财神 turned up is 9s: three of them
    ]
    g = haidi.Game("longgang", wall=longgang_wall(hands, turned="9s"))
    assert g.observation(0)["wilds"] == ["9s"]
    g.step(0, {"type": "discard", "tile": "4s"})
    w = _one_win_of_seats_1_and_3(g)
    assert w["seat"] == 3 and w["score"]["instant"] and w["score"]["total"] == 300
    assert g.result["payments"] == [-72, -42, -42, 156]  # type: ignore[index]


def test_longgang_three_wilds_win_first_only_on_the_dealers_first_discard() -> None:
    # Past it, one winner on a discard, the first in turn from the discarder:
    # "如有一人以上同时表示胡牌时(含抢杠胡)，从打牌者按逆时针方向，顺序在前者被定为“胡牌者”".
    hands = [
        "1z1z2z2z3z3z4z4z6z2m4m6m8m1s3s5s7s",
        "123m456m789m123p456p5s",  # waits on 5s
        "6z6z7z7z1p3p7p8p2s4s6s8s9m9m1m1m",
        "9p9p9p7z7z2p4p8p2s4s6s8s3m5m5m7m",  # three 财神 (9p turned up)
    ]
    g = haidi.Game("longgang", wall=longgang_wall(hands, draws="1z4z3z2z", turned="9p"))

    def turn(seat: int, tile: str) -> None:
        # Every claim passed (seat 3 may win on any tile: it waits), then the discard.
        while g.observation(g.to_act[0])["decision"] not in ("draw", "claimed"):
            g.step(g.to_act[0], {"type": "pass"})
        assert g.to_act == [seat]
        g.step(seat, {"type": "discard", "tile": tile})

    for seat, tile in [(0, "8m"), (1, "1z"), (2, "4z"), (3, "3z"), (0, "5s")]:
        turn(seat, tile)
    w = _one_win_of_seats_1_and_3(g)
    assert w["seat"] == 1 and not w["score"]["instant"]


def test_longgang_three_flowers_are_three_wilds_when_a_flower_is_turned_up() -> None:
    # "如是花财神" with "花是财神时，三花就可腊子": 夏 turned up, the dealer holds 春, 秋 and 冬 and
    # wins at once (天胡, "天和：庄家起牌或者补完花（可暗杠）而胡牌"): 72 子 from each.
    hands = [
        "123m456m789m11p23s134f7z",
        "123p456p78p4s11z22z33z6z",
        "111s555s777s66z44z5s6s9s",
        "111m222m333p444p5p6p7m8m",
    ]
    g = haidi.Game("longgang", wall=longgang_wall(hands, turned="2f"))
    assert events(g, "flower") == [] and g.observation(0)["indicator"] == "2f"
    assert {"type": "win"} in g.legal_actions(0)
    g.step(0, {"type": "win"})
    r = g.result
    assert r is not None
    assert r["wins"][0]["situation"]["wilds"] == "2f" and r["wins"][0]["score"]["instant"]
    assert r["payments"] == [216, -72, -72, -72]


def test_longgang_a_passed_win_waits_for_the_next_draw() -> None:
    # "i 漏胡：如果玩家漏掉了炮胡，另一家已摸牌，则此时玩家禁止胡牌，摸牌后一切正常。" and "c 过水胡牌()：例如下家
    # 舍出3万 你不胡 对家也打3万 你就不能胡牌 要等到自己摸过1手才可胡牌，或是自摸胡。"
    hands = [
        "444m666m333s777s11z22z4s",
        "111m999m111p999p33z4z6z",
        "123p456p789p123m55m23s",
        "222m333m777m888s66z1s2z",
    ]
    g = haidi.Game("longgang", wall=longgang_wall(hands, draws="4s8p4s"))
    g.step(0, {"type": "discard", "tile": "4s"})
    assert {"type": "win"} in g.legal_actions(2)
    g.step(2, {"type": "pass"})
    g.step(1, {"type": "discard", "tile": "4s"})  # South drew the second 4s
    assert g.legal_actions(2) == [{"type": "chow", "tile": "2s"}, {"type": "pass"}]
    g.step(2, {"type": "pass"})
    assert g.to_act == [2]  # it drew 8p
    g.step(2, {"type": "discard", "tile": "8p"})
    g.step(3, {"type": "discard", "tile": "4s"})  # North drew the third 4s
    assert {"type": "win"} in g.legal_actions(2)
    g.step(2, {"type": "win"})
    r = g.result
    assert r is not None
    # The others' own 胡数 ("牌面胡数*2^台数(其它玩家)") are settled between them ("其他家的分数：胡数少的
    # 玩家要支付胡数多的玩家总胡数的差价"), doubled with the dealer. Counted by hand from 一、C)
    # ("暗刻：小子暗刻4胡 大子暗刻8胡", "雀头（将牌）：中，发，坐风对子的计２胡"), rounded up to 10:
    # the dealer 444m 666m 333s 777s and 东东 (its 坐风) 4 x 4 + 2 = 18 -> 20; South 111m 999m
    # 111p 999p 4 x 8 = 32 -> 40; North 222m 333m 777m 888s and 发发 4 x 4 + 2 = 18 -> 20.
    rs = haidi.ruleset("longgang")
    hands_at_end = r["outcome"]["hands"]
    own = [rs.evaluate(**h, wilds="9s")["total"] for s, h in enumerate(hands_at_end) if s != 2]
    assert own == [20, 40, 20]
    s = r["wins"][0]["score"]
    zero = rs.settle({"winner": 2, "discarder": 3, "total": s["total"], "tai": s["tai"]})
    assert [a - b for a, b in zip(r["payments"], zero, strict=True)] == [-4, 6, 0, -2]


def test_longgang_keeps_ten_stacks_and_deals_the_last_four_out() -> None:
    # "王牌：牌墙最后只剩下１０幢（尾张除财神牌外无单张）或１０幢半（尾张除财神牌外有单张）称王牌或铁十墩。王牌
    # 一般不能摸"; "一盘从开局至结束除去王牌只有50张牌可摸"; "6 分张：如果牌墙最后只剩下王牌和海底牌时还没有人胡牌，
    # 则开始分底牌，每人一张按摸牌顺序摸一张，分张后禁止补花补杠，此时玩家的牌不用打出 ... 无一家胡牌则流局".
    exhausted = 0
    for seed in range(40):
        g = haidi.Game("longgang", seed=seed)
        play_out(g, never_win)
        log = g.log
        rest = g._record()["rest"]
        assert len(rest) in (20, 21)
        # 136 tiles: 16 a seat, the dealer's 17th, the 财神 turned up, those drawn, the 王牌.
        assert 65 + 1 + sum(e["event"] == "draw" for e in log) + len(rest) == 136
        # After the last discard each seat in turn takes one tile (a flower's replacement
        # with it), at most four seats, and no tile is discarded.
        last_discard = max(i for i, e in enumerate(log) if e["event"] == "action")
        seats: list[int] = []
        for e in log[last_discard:]:
            if e["event"] == "draw" and (not seats or seats[-1] != e["seat"]):
                seats.append(e["seat"])
        assert 3 <= len(seats) <= 4 and seats == [(seats[0] + k) % 4 for k in range(len(seats))]
        exhausted += g.result["exhausted"]  # type: ignore[index]
    assert exhausted == 40


@pytest.mark.parametrize("seed", [25, 106])
def test_longgang_a_replacement_among_the_last_four_is_the_last_of_them(seed: int) -> None:
    # "若王牌是20张则从海底牌处末一张，下家摸首张，其它家按序各摸一张"; "海底牌必须分完，牌局才能结束".
    # In these hands the dealer draws a flower as the tile before the four 海底牌: its
    # replacement is the last of the four, the others take the first three, and the 王牌
    # are untouched (before, the replacement came from the wall's end and the last 海底牌
    # joined the 王牌).
    g = haidi.Game("longgang", seed=seed)
    play_out(g, never_win)
    log = g.log
    wall = log[0]["wall"]
    dealt = sum(len(e["tiles"]) for e in events(g, "deal"))
    draws = events(g, "draw")
    (at,) = [i for i, e in enumerate(draws) if e["replacement"] and draws[i - 1]["tile"].endswith("f")][-1:]
    front = dealt + sum(not e["replacement"] for e in draws[:at])
    last_four = wall[front : front + 4]
    assert draws[at]["tile"] == last_four[3]
    assert [e["tile"] for e in draws[at + 1 : at + 4]] == last_four[:3]
    assert [e["seat"] for e in draws[at + 1 : at + 4]] == [(draws[at]["seat"] + k) % 4 for k in (1, 2, 3)]
    assert g.result is not None and g.result["exhausted"]
    # The 王牌 left are the dealt wall's, in order, and a replay deals the same hand.
    assert g._record()["rest"] == wall[front + 4 : front + 4 + len(g._record()["rest"])]
    assert haidi.Game.replay(log).log == log


def test_longgang_a_split_tile_won_on_is_self_drawn_and_the_last() -> None:
    # "若能胡牌称海底捞月按自摸算"; "一盘只能有一位胡牌者".
    found = 0
    for seed in range(400):
        g = haidi.Game("longgang", seed=seed)
        play_out(g, win_or_random(random.Random(seed)))
        r = g.result
        assert r is not None
        if r["wins"] and r["wins"][0]["situation"].get("wall_last"):
            found += 1
            (w,) = r["wins"]
            assert w["situation"]["self_drawn"]
            assert g.observation(0)["wall"] <= 3
    assert found >= 3


def test_longgang_a_pung_let_go_is_not_made_until_the_seat_draws() -> None:
    # 五）d: "过水碰牌例如下家舍出8万你不碰 对家再舍出8万你不能碰 除非已经摸过1巡 不然禁止".
    hands = [
        "111m222m333m444p66z77z8m",  # the dealer discards 8m first
        "123p456p789p123s44s7s5s",  # draws the other 8m and discards it
        "111s555s666s888s11z8m8m",  # may pung the first 8m
        "777m456m999m555p22z3z4z",
    ]
    g = haidi.Game("longgang", wall=longgang_wall(hands, draws="8m"))
    g.step(0, {"type": "discard", "tile": "8m"})
    assert {"type": "pung"} in g.legal_actions(2)
    g.step(2, {"type": "pass"})
    g.step(1, {"type": "discard", "tile": "8m"})
    # Let go once, the pung is not offered again before seat 2 draws: it is not asked.
    assert g.to_act == [2] and {"type": "pung"} not in g.legal_actions(2)
    assert events(g, "draw")[-1]["seat"] == 2


def test_longgang_a_chow_does_not_discard_its_tile_or_the_other_end() -> None:
    # 五）d: "吃牌禁止则为你有345万 上家舍出2万你喊吃 再舍出5万或上家打出3万你喊吃再舍出3万， 这是被禁止的"
    # and f: "吃入牌时不得打出同牌".
    hands = [
        "111m777s333m444p66z77z2m",  # the dealer discards 2m
        "2m345m123p456p789p44s7s",  # chows it with 3m 4m, holding another 2m and the 5m
        "111s555s666s888s11z2z3z",
        "777m456m999m555p22z3z4z",
    ]
    g = haidi.Game("longgang", wall=longgang_wall(hands))
    g.step(0, {"type": "discard", "tile": "2m"})
    g.step(1, {"type": "chow", "tile": "2m"})
    discards = {a["tile"] for a in g.legal_actions(1) if a["type"] == "discard"}
    assert "2m" not in discards and "5m" not in discards
    assert {"7s", "4s", "1p"} <= discards
    g.step(1, {"type": "discard", "tile": "1p"})
    # The bar ends with the discard: the next seat, having drawn, discards any tile but the 财神.
    (seat,) = g.to_act
    held = set(tiles_of(g.observation(seat)["hand"])) - set(g.observation(seat)["wilds"])
    assert {a["tile"] for a in g.legal_actions(seat) if a["type"] == "discard"} == held


def test_longgang_heavenly_hand_after_a_concealed_kong() -> None:
    # 四、6: "天和：庄家起牌或者补完花（可暗杠）而胡牌": the dealer's kong of four 1m, its
    # replacement 3s completing the hand, is 天胡.
    hands = [
        "1111m234p567p789s12s11z",
        "345m678m2p5p8p3p22z33z44z",
        "111s555s888s2m2m9m9m7z7z4p",
        "777p999p333m444m6m6m5m7m",
    ]
    g = haidi.Game("longgang", wall=longgang_wall(hands, back="3s", turned="6s"))
    g.step(0, {"type": "concealed_kong", "tile": "1m"})
    assert {"type": "win"} in g.legal_actions(0)
    g.step(0, {"type": "win"})
    _, w = won(g)
    assert w["situation"]["heavenly"] and w["situation"]["kong_replacement"]
    assert "heavenly" in [p["id"] for p in w["score"]["patterns"]] and w["score"]["total"] == 300


# South holds a single 南 (its 坐风) and a 中; West waits on 中 alone; every seat else
# discards what it draws. The other 财神 (9s) and the flowers are dealt, so nobody keeps one.
LIABLE_HANDS = [
    "9s9s1s2s5s8s3m6m2p8p9p1z3z4z6z7s4s",
    "7z2z1m4m7m3p5p7p3s6s1z1z3z6z6z8p",
    "123m456m789m123p456p7z",
    "1f2f3f4f9s7z7z2m5m8m4p6p9m2s6z3z",
]


def discard_red_dragon(left: int) -> haidi.Game:
    """South discards its 中 at its first turn with at most ``left`` tiles to draw; West
    wins on it; the others pass and discard the tile they drew."""

    def policy(g: haidi.Game, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
        if seat == 2 and {"type": "win"} in legal:
            return {"type": "win"}
        if {"type": "pass"} in legal:
            return {"type": "pass"}
        red = {"type": "discard", "tile": "7z"}
        if seat == 1 and g.observation(seat)["wall"] <= left and red in legal:
            return red
        mine = [e for e in g.log if e["event"] in ("deal", "draw") and e.get("seat") == seat][-1]
        drawn = {"type": "discard", "tile": mine["tiles"][-1] if mine["event"] == "deal" else mine["tile"]}
        return drawn if drawn in legal else never_win(g, seat, legal)

    g = haidi.Game("longgang", wall=longgang_wall(LIABLE_HANDS, back="8s8s8s", turned="9s"))
    play_out(g, policy)
    return g


def test_longgang_a_red_dragon_discarded_late_before_the_seat_wind_pays_for_all() -> None:
    # 四）a: "行牌至最后阶段（分张前几张），红中青发等未碰过，若手中有单张坐风牌，红中，青发，要先打坐风，
    # 若打出红中或青发被别家胡牌，要包三家筹码。陪家间另算。" The last stage read as the go-round
    # before 分张: at most 8 tiles left to draw.
    rs = haidi.ruleset("longgang")
    late = discard_red_dragon(8)
    r = late.result
    assert r is not None and [w["seat"] for w in r["wins"]] == [2]
    assert late._record()["left"] <= 8 and r["outcome"]["liable"] == 1
    # South pays West every share; the others' differences between them stay ("陪家间另算").
    free = rs.settle({k: v for k, v in r["outcome"].items() if k != "liable"})
    assert r["payments"][2] == free[2] and r["payments"][1] < free[1]
    early = discard_red_dragon(40)
    assert early.result is not None and [w["seat"] for w in early.result["wins"]] == [2]
    assert "liable" not in early.result["outcome"]


def test_longgang_a_green_dragon_discarded_before_the_red_pays_for_all() -> None:
    # 四）c: "前面已有人打过红中，发财没出，自已手中有红中，青发，此时要先打红中，如打青发被别家胡牌，要包三家筹码。"
    from haidi.rulesets.longgang import liable_seat

    hands = ["", "1m4m7m3p5p7p3s6s1z1z3z6z8p2z2z7z", "", ""]
    record = {"discard_order": [[3, "7z", None], [1, "6z", "won"]], "left": 6, "hands": hands, "melds": []}
    assert liable_seat(record, "9s") == 1  # South held a 中 and discarded the 发
    assert liable_seat({**record, "discard_order": [[3, "6z", None], [1, "6z", "won"]]}, "9s") is None
    assert liable_seat({**record, "left": 9}, "9s") is None  # not the last stage


# 跟庄 and 烧庄 (seed 004) -----------------------------------------------------------------

# Each seat holds one 东 (1z), which the dealer discards first and the others follow.
FOLLOWED = ["123m456m789m23p5p8s1z", "234p567p345s66s9m1z", "123s456s789s77p3z1z", "456m999p222s55z4z1z"]


def follow_the_dealer(g: haidi.Game) -> None:
    g.step(0, {"type": "discard", "tile": "1z"})
    for seat in (1, 2, 3):
        assert g.to_act == [seat]
        g.step(seat, {"type": "discard", "tile": "1z"})


def test_tangshan_the_dealer_pays_when_followed_in_the_first_round() -> None:
    # "4.跟庄庄家要付给每人两倍底注（庄家在头一张打出来的牌后被其他3人跟出来后，只限于头一圈）。" Paid on a
    # drawn hand too (docs/tangshan.md).
    g = haidi.Game("tangshan", wall=stacked_wall("tangshan", FOLLOWED, draws="7s2m6z", back="4p"))
    follow_the_dealer(g)
    play_out(g, never_win)
    r = g.result
    assert r is not None and r["exhausted"]
    assert r["outcome"]["follow_dealer"] and r["payments"] == [-6, 2, 2, 2]


def test_tangshan_no_follow_when_a_claim_breaks_the_round() -> None:
    hands = list(FOLLOWED)
    hands[1] = "234p567p345s66s9m2z"
    hands[2] = "123s456s789s77p1z1z"  # West can pung the dealer's 东
    g = haidi.Game("tangshan", wall=stacked_wall("tangshan", hands, back="4p"))
    g.step(0, {"type": "discard", "tile": "1z"})
    g.step(2, {"type": "pung"})
    play_out(g, never_win)
    r = g.result
    assert r is not None and r["outcome"] is None and r["payments"] == [0, 0, 0, 0]


def test_beijing_burned_dealer_pays_each_other_seat() -> None:
    # "烧庄指每局牌庄家打出第一张牌后，其余3家的选手也打出同样一张牌的话，北京的俗语称之为“烧庄”" and
    # "庄家：2（烧庄轮数－1）＊（－3）  闲家：2（烧庄轮数－1）": one round, 1 x base to each; the dealer
    # then draws 7p, which completes its hand.
    hands = ["123m456m789m23p4p8s8s1z", *FOLLOWED[1:]]
    hands[0] = "123m456m789m23p8s8s1z"
    g = haidi.Game("beijing", wall=stacked_wall("beijing", hands, draws="7s2m6z1p", back="4p"))
    follow_the_dealer(g)
    assert {"type": "win"} in g.legal_actions(0)
    g.step(0, {"type": "win"})
    r = g.result
    assert r is not None and r["outcome"]["burn_rounds"] == 1
    rs = haidi.ruleset("beijing")
    unburned = rs.settle(dict(r["outcome"], burn_rounds=0))
    assert [a - b for a, b in zip(r["payments"], unburned, strict=True)] == [-3, 1, 1, 1]
    # "跟庄,庄家付给每家10元" (第4稿, `variant="draft4"`), paid on a drawn hand too.
    g = haidi.Game("beijing", options={"variant": "draft4"}, wall=stacked_wall("beijing", FOLLOWED, back="4p"))
    follow_the_dealer(g)
    play_out(g, never_win)
    r = g.result
    assert r is not None and r["exhausted"] and r["payments"] == [-30, 10, 10, 10]


@pytest.mark.parametrize("case", ["self-drawn", "on another's first discard"])
def test_beijing_earthly_is_any_win_before_the_seats_own_first_discard(case: str) -> None:
    # "闲家在一局还没有出过牌的时候构成可和牌牌型时称“地和”（8番）": a non-dealer's, self-drawn
    # or on any discard, before it discarded; not only on the dealer's first discard.
    hands = [
        "1z1z2z2z3z3z4z2p4p6p8p1s3s7z",
        "123m456m789m1p1p2s3s",  # waits on 1s and 4s
        "123p456p789p5m5m6s7s",  # waits on 5s and 8s
        "2m3m4m7m8m1p3p5p5s9s6s6s6z",
    ]
    drawn = "4s5z6z6z" if case == "self-drawn" else "8s5z6z6z"
    g = haidi.Game("beijing", wall=stacked_wall("beijing", hands, draws=drawn, back="3z"))
    g.step(0, {"type": "discard", "tile": "7z"})
    while g.to_act != [1] or g.observation(1)["decision"] != "draw":
        g.step(g.to_act[0], {"type": "pass"})
    if case == "self-drawn":
        g.step(1, {"type": "win"})
    else:
        g.step(1, {"type": "discard", "tile": "8s"})
        g.step(2, {"type": "win"})
    _, w = won(g)
    assert w["situation"]["earthly"] and "earthly" in [f.id for f in w["score"].fans]


@pytest.mark.parametrize("options", [None, {"variant": "draft4"}])
def test_beijing_the_follow_duty_is_burned_dealer_rule_not_draft4s(options: dict | None) -> None:
    # "南家如果有这张牌则必须打同样的牌" belongs to 烧庄, which 第4稿 does not play: there a
    # follow only makes the dealer pay ("跟庄,庄家付给每家10元"), and no seat is bound to it.
    g = haidi.Game("beijing", 2, options)
    assert {"type": "discard", "tile": "2z"} in g.legal_actions(0)
    g.step(0, {"type": "discard", "tile": "2z"})
    while g.to_act != [1] or g.observation(1)["decision"] == "claim":
        g.step(g.to_act[0], {"type": "pass"})
    discards = [a["tile"] for a in g.legal_actions(1) if a["type"] == "discard"]
    assert "2z" in discards
    assert (discards == ["2z"]) == (options is None)


def test_beijing_three_claims_from_one_seat_make_it_pay_for_the_other() -> None:
    # "互包指如果一家从另一家的那里吃+碰到3嘴以后，这两家在此把牌中就自动形成“互包”的关系，也就是说如果任何一家和
    # 牌了，则由另一家来支付其所有积分".
    found = 0
    for seed in range(400):
        g = haidi.Game("beijing", seed=seed)
        play_out(g, win_or_random(random.Random(seed)))
        r = g.result
        assert r is not None
        record = g._record()
        taken: dict[tuple[int, int], int] = {}
        for m in record["melds"]:
            if m["meld"] in ("chow", "pung"):
                taken[m["seat"], m["from"]] = taken.get((m["seat"], m["from"]), 0) + 1
        pairs = sorted({tuple(sorted(k)) for k, n in taken.items() if n >= 3})
        if not r["wins"]:
            continue
        assert [tuple(p) for p in r["outcome"]["mutual"]] == pairs
        winner = r["wins"][0]["seat"]
        partners = [b if a == winner else a for a, b in pairs if winner in (a, b)]
        if len(partners) == 1 and r["outcome"]["burn_rounds"] == 0:
            found += 1
            (p,) = partners
            # The partner pays it all; nobody else pays anything.
            assert r["payments"][p] == -r["payments"][winner] < 0
            assert all(r["payments"][s] == 0 for s in range(4) if s not in (p, winner))
    assert found >= 2


# Changsha's 起手胡 and Tangshan's 明听 ------------------------------------------------------


def test_changsha_a_dealt_hand_wins_at_once() -> None:
    # Seed 000: "1)四喜：無將，起完牌後，玩家手上已有四張一樣的牌，即可胡牌。(計分等同小胡自摸)" and
    # "2)板板胡：無將，起完牌後，玩家手上沒有一張2、5、8(將牌)，即可胡牌。(計分等同小胡自摸)": West holds
    # four 1m (四喜) and South no 2, 5 or 8 (板板胡); both may say so before the dealer plays.
    hands = ["123m456m789m234p5s8s", "111p333p444s666s9m", "9999p345m567s22s8m", "567p234s678m23m55p"]
    g = haidi.Game("changsha", wall=stacked_wall("changsha", hands))
    assert g.to_act == [1, 2]
    assert g.legal_actions(1) == [{"type": "win"}, {"type": "pass"}]
    g.step(2, {"type": "win"})
    g.step(1, {"type": "pass"})
    r, w = won(g)
    assert w["seat"] == 2 and w["situation"]["dealt"] and "win" not in w["situation"]
    assert [p["id"] for p in w["score"]["fans"]] == ["four_of_a_kind"]
    # Paid as a 小胡 self-drawn: 2 from each other seat, doubled by each bird on the payer or
    # the winner (the birds are the tiles that follow, "再摸緊跟著的牌即為鳥牌").
    rs = haidi.ruleset("changsha")
    assert r["payments"] == rs.settle(r["outcome"]) and r["payments"][2] > 0
    plain = rs.settle(dict(r["outcome"], birds=[]))
    assert plain == [-2, -2, 6, -2]
    # Nobody declaring, the dealer plays on.
    g = haidi.Game("changsha", wall=stacked_wall("changsha", hands))
    g.step(1, {"type": "pass"})
    g.step(2, {"type": "pass"})
    assert g.to_act == [0] and any(a["type"] == "discard" for a in g.legal_actions(0))


def test_tangshan_an_open_hand_wins_only_self_drawn() -> None:
    # "明听1番 明听就是亮开自己的牌，只能自模糊": the dealer lays its hand open as it discards 9s,
    # waiting on 3p and 6p; South's 6p is no win for it, its own 3p is, with 明听's 番.
    hands = ["123m456m789m45p11z9s", "234m567m345s66s66p", "123s456s789s77p3z4z", "456m999p222s55z4z2z"]
    g = haidi.Game("tangshan", wall=stacked_wall("tangshan", hands, draws="6p7s2m3p", back="4s"))
    assert {"type": "open_ready", "tile": "9s"} in g.legal_actions(0)
    assert {"type": "open_ready", "tile": "1m"} not in g.legal_actions(0)
    g.step(0, {"type": "open_ready", "tile": "9s"})
    assert g.to_act == [1]
    g.step(1, {"type": "discard", "tile": "6p"})
    assert 0 not in g.to_act  # no win on a discard, and no claim either
    while g.to_act != [0]:
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        g.step(seat, {"type": "pass"} if {"type": "pass"} in legal else legal[0])
    assert g.legal_actions(0)[0] == {"type": "win"}
    g.step(0, {"type": "win"})
    _, w = won(g)
    assert w["situation"]["open_ready"] and w["situation"]["self_drawn"]
    assert "open_ready" in [f["id"] for f in w["score"]["fans"]]


def test_tangshan_open_ready_is_offered_exactly_on_the_discards_that_leave_a_ready_hand() -> None:
    rs = haidi.ruleset("tangshan")
    checked = dragon_ready = 0
    for seed in range(40):
        g = haidi.Game("tangshan", seed=seed)
        rng = random.Random(seed)
        while not g.done:
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            discards = [a["tile"] for a in legal if a["type"] == "discard"]
            if len(discards) > 1:
                o = g.observation(seat)
                held = tiles_of(o["hand"])
                melds = "".join(o["melds"][seat])
                ready = set()
                for t in set(held):
                    rest = list(held)
                    rest.remove(t)
                    hand = "".join(rest) + melds
                    # "中，发，白一套可做副使用": a 中发白 set, which the engine's waits do not
                    # know, may make it ready too.
                    dragons = len({"5z", "6z", "7z"} & set(rest)) >= 2
                    if not (rs.waits(hand, wilds=o["wilds"]) or dragons):
                        continue
                    # Ready: some tile drawn wins, as the scorer sees the open hand (a
                    # 十三幺 whose pair is no honour waits on the engine's count only).
                    held_all = tiles_of(re.sub(r",\d|[\[\]{}+]", "", hand))
                    if any(
                        rs.evaluate(hand=hand, win=w, self_drawn=True, open_ready=True, wilds=o["wilds"])["win"]
                        for w in haidi.tile_names()
                        if held_all.count(w) < 4
                    ):
                        ready.add(t)
                        dragon_ready += dragons and not rs.waits(hand, wilds=o["wilds"])
                assert {a["tile"] for a in legal if a["type"] == "open_ready"} == ready
                checked += 1
            g.step(seat, rng.choice([a for a in legal if a["type"] != "open_ready"]))
    assert checked > 500 and dragon_ready > 0


def test_tangshan_open_ready_is_not_offered_on_a_hand_no_tile_wins() -> None:
    # Laying 8s open leaves 19m19p119s123567z, a 十三幺 shape waiting on 4z, but "十三幺 ...
    # 将牌必须是字牌" (docs/tangshan.md): no tile wins it, and an open hand could never win.
    hands = ["19m19p1189s123567z", "234m567m345s66s66p", "123s456s789s77p3z4z", "456m999p222s55z4z2z"]
    g = haidi.Game("tangshan", wall=stacked_wall("tangshan", hands, back="6p"))
    assert g.observation(0)["wilds"] == ["7p"]
    assert {"type": "discard", "tile": "8s"} in g.legal_actions(0)
    assert not [a for a in g.legal_actions(0) if a["type"] == "open_ready"]
    rs = haidi.ruleset("tangshan")
    rest = "19m19p119s123567z"
    assert rs.waits(rest, wilds="7p") and not any(
        rs.evaluate(hand=rest, win=w, self_drawn=True, open_ready=True, wilds="7p").win for w in haidi.tile_names()
    )


def test_beijing_robbing_a_concealed_kong_before_the_first_discard_is_earthly() -> None:
    # The robbed kong is not made (docs/game.md): seat 1 has not discarded, no claim or
    # kong stands, so its win is 地和 ("闲家在一局还没有出过牌的时候构成可和牌牌型时称“地和”").
    hands = [
        "5555p1z2z3z4z5z6z7z1p9p9s",
        "123456789m11s46p",
        "2m3m7m8p2p3p6s7s8s2z3z4z6z",
        "1z1z9m8m2s3s5s6s7s3p7p8p1s",
    ]
    g = haidi.Game("beijing", wall=stacked_wall("beijing", hands, draws="9p", back="6z"))
    g.step(0, {"type": "concealed_kong", "tile": "5p"})
    assert {"type": "win"} in g.legal_actions(1)
    g.step(1, {"type": "win"})
    r, w = won(g)
    assert w["situation"]["earthly"] and w["situation"]["self_drawn"]
    assert "earthly" in [f.id for f in w["score"].fans]
    assert r["payments"] == haidi.ruleset("beijing").settle(r["outcome"])


def test_longgang_offers_every_win_evaluate_finds_on_a_discard() -> None:
    # The game's quick test of waits (a hand counted two tiles from ready, each kind given
    # room for every wild held) drops no win: each seat not barred by 漏胡 is offered a
    # win on a discard exactly when `evaluate` scores one.
    rs = haidi.ruleset("longgang")
    checked = won = 0
    for seed in range(24):
        g = haidi.Game("longgang", seed=seed)
        rng = random.Random(seed)
        while not g.done:
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            choice = rng.choice([a for a in legal if a["type"] != "win"] or legal)
            before = [g.observation(s) for s in range(4)]
            barred = set(g._record()["passed_win"])
            g.step(seat, choice)
            if choice["type"] != "discard" or g.done or before[0]["wall"] <= 4:
                continue
            for other in range(4):
                o = before[other]
                if other == seat or other in barred:
                    continue
                flowers = o["flowers"][other]
                hand = (
                    o["hand"] + "".join(o["melds"][other]) + ("".join(f[0] for f in flowers) + "f" if flowers else "")
                )
                r = rs.evaluate(
                    hand=hand,
                    win=choice["tile"],
                    seat_wind="ESWN"[other],
                    wilds=o["indicator"] if o["indicator"].endswith("f") else o["wilds"][0],
                    # 地胡 on the dealer's first discard, its concealed kongs before it kept
                    # ("天和：庄家起牌或者补完花（可暗杠）而胡牌"): nobody else melds before it.
                    earthly=seat == 0 and len(o["discards"][0]) == 0 and not any(o["melds"][1:]),
                )
                legal_other = g.legal_actions(other) if other in g.to_act else []
                offered = {"type": "win"} in legal_other and {"type": "pass"} in legal_other
                assert offered == bool(r["win"]), (seed, other, hand, choice)
                checked += 1
                won += offered
    assert checked > 1000 and won > 0


# The wall's end, the 海底 tile and robbing a concealed kong (seeds 004, 000, 002, 003) ---


def test_tangshan_keeps_the_last_seven_stacks_and_replaces_kongs_from_the_end() -> None:
    # "6.最后剩7墩牌时为荒庄，杠作废。" and "杠从后7敦摸": the hand is drawn with 14 tiles left,
    # kong replacements come from the end of the wall, and a drawn hand pays no kong.
    drawn = kongs = 0
    for seed in range(60):
        g = haidi.Game("tangshan", seed=seed)
        play_out(g, win_or_random(random.Random(seed)) if seed % 3 else never_win)
        r = g.result
        assert r is not None
        log = g.log
        wall, back = log[0]["wall"], len(log[0]["wall"]) - 1  # the 混's indicator is the last
        for e in log:
            if e["event"] == "draw" and e["replacement"]:
                back -= 1
                assert e["tile"] == wall[back]
                kongs += 1
        if r["exhausted"]:
            drawn += 1
            assert len(g._record()["rest"]) == 14
            assert r["outcome"] is None or set(r["outcome"]) <= {"winner", "exhausted", "follow_dealer"}
    assert drawn > 20 and kongs > 0


# A 惠牌 of 5p (the 惠坯 4p, turned up from the end): South holds three and draws the fourth.
FOUR_WILDS = ["123m456m789m23p88s1z", "555p1m4m7m2s5s8s2z3z4z6z", "111s333s666p999p7z", "222s444s777p888p7z"]


def test_beijing_the_fourth_wild_drawn_wins_whatever_the_shape() -> None:
    # "摸齐四个“惠牌”时自动和牌": `evaluate` scores it 四惠牌 on a hand far from ready, and the
    # game offers the win. The four are never made a concealed kong, which the scorer
    # would read as plain tiles (推倒和 and 门清).
    rs = haidi.ruleset("beijing")
    assert rs.waits("555p1m4m7m2s5s8s2z3z4z6z", wilds="5p") == []
    g = haidi.Game("beijing", wall=stacked_wall("beijing", FOUR_WILDS, draws="5p", back="4p"))
    assert g.observation(0)["wilds"] == ["5p"]
    g.step(0, {"type": "discard", "tile": "1z"})
    legal = g.legal_actions(1)
    assert legal[0] == {"type": "win"}
    assert {"type": "concealed_kong", "tile": "5p"} not in legal
    g.step(1, {"type": "win"})
    _, w = won(g)
    assert w["seat"] == 1 and "four_wilds" in [f["id"] for f in w["score"]["fans"]]
    again = rs.evaluate(**w["situation"])
    assert again["win"] and again["total"] == w["score"]["total"]


def test_tangshan_four_wilds_are_never_made_a_concealed_kong() -> None:
    # "不管是吃,碰或是明杠，混无效": the 混 is never claimed, and the game makes no kong of it,
    # concealed either (a scorer reading four 混 in a kong as plain tiles would score 素).
    g = haidi.Game("tangshan", wall=stacked_wall("tangshan", FOUR_WILDS, draws="5p", back="4p"))
    assert g.observation(0)["wilds"] == ["5p"]
    g.step(0, {"type": "discard", "tile": "1z"})
    assert g.to_act == [1]
    assert not any(a["type"] == "concealed_kong" for a in g.legal_actions(1))
    assert tiles_of(g.observation(1)["hand"]).count("5p") == 4


def test_beijing_the_last_tile_may_be_let_go_and_taken_is_won_on_or_discarded() -> None:
    # "海底捞月的这张牌抓到后如果不和，必须打出去，不得换其他牌打出（可以选择放弃抓“海底牌”）": the seat to
    # draw the last tile takes it or lets it go (the hand is then drawn: nobody else is
    # offered it); taken and not won on, it is that tile it discards.
    taken = declined = 0
    for seed in range(80):
        g = haidi.Game("beijing", seed=seed)
        rng = random.Random(seed)
        while not g.done:
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            if legal == [{"type": "take"}, {"type": "pass"}]:
                assert g.observation(seat)["wall"] == 1
                choice = rng.choice(legal)
                g.step(seat, choice)
                if choice["type"] == "pass":
                    declined += 1
                    assert g.done and g.result["exhausted"]  # type: ignore[index]
                    assert g._record()["left"] == 1
                    break
                taken += 1
                drawn = g.log[-1]
                assert drawn["event"] == "draw" and drawn["seat"] == seat and not drawn["replacement"]
                after = g.legal_actions(seat)
                assert [a for a in after if a["type"] != "win"] == [{"type": "discard", "tile": drawn["tile"]}]
                g.step(seat, after[-1])
                continue
            g.step(seat, never_win(g, seat, legal))
    assert taken > 10 and declined > 10


# West's 1-9m waits on 5m, the 一条龙 made by it; North's 46m waits on it too, without one.
ROB_CONCEALED = [
    "123p456p789s11s2z3z5z",
    "555m239p2356s5z6z7z",
    "1234m6789m456p11z",
    "46m111p222s333s22z",
]


def test_beijing_a_straight_robs_a_concealed_kong_as_self_drawn() -> None:
    # "“一条龙”的“龙身”可以抢其他选手的“暗杠”胡牌，算作自摸胡牌" (and "b. 暗杠的抢杠"): West's hand, whose
    # win makes a 一条龙, may take the 5m of South's concealed kong; North's, which would
    # win on it without one, may not. The win is paid as self-drawn, by every other seat.
    wall = stacked_wall("beijing", ROB_CONCEALED, draws="5m", back="3z9p")
    g = haidi.Game("beijing", wall=wall)
    assert g.observation(0)["wilds"] == ["4z"]
    g.step(0, {"type": "discard", "tile": "5z"})
    assert g.to_act == [1]
    g.step(1, {"type": "concealed_kong", "tile": "5m"})
    assert g.to_act == [2] and g.legal_actions(2) == [{"type": "win"}, {"type": "pass"}]
    g.step(2, {"type": "win"})
    r, w = won(g)
    assert w["seat"] == 2 and w["situation"]["self_drawn"] and not w["situation"].get("robbing_kong")
    assert "straight" in [f["id"] for f in w["score"]["fans"]]
    assert r["outcome"]["discarder"] is None
    # 14 番 from each: 门清, 捉五魁 and 一条龙 (6), and 地和 (8): West has not discarded, and
    # the kong robbed is not made.
    assert w["situation"]["earthly"]
    assert r["payments"] == [-14, -14, 42, -14]
    # The kong is not made: South keeps three 5m, the fourth is West's.
    assert g._record()["hands"][1].startswith("555m") and g.observation(0)["melds"][1] == []
    # Let go, the kong stands and South takes its replacement from the end of the wall.
    g = haidi.Game("beijing", wall=wall)
    g.step(0, {"type": "discard", "tile": "5z"})
    g.step(1, {"type": "concealed_kong", "tile": "5m"})
    g.step(2, {"type": "pass"})
    assert g.log[-1] == {"event": "draw", "seat": 1, "tile": "9p", "replacement": True}
    assert g.observation(0)["melds"][1] == ["{5555m}"]


def test_longgang_the_fourth_tile_of_a_melded_pung_is_not_discarded() -> None:
    # "有小明杠若不补杠，则不能打出这张牌" (一）9): West, having punged 8m, holds the fourth; it may add
    # it to the pung (补杠) or keep it, not discard it. The seed's penalty for discarding
    # it ("若打出去，计0胡，只能陪打") is not played: the discard is not legal.
    hands = [
        "111m222m333m444p66z77z8m",
        "123p456p789p123s44s7s5s",
        "111s555s666s88s11z8m8m8m",
        "777m456m999m555p22z3z4z",
    ]
    g = haidi.Game("longgang", wall=longgang_wall(hands))
    g.step(0, {"type": "discard", "tile": "8m"})
    g.step(2, {"type": "pung"})
    g.step(2, {"type": "discard", "tile": "1s"})
    while not (g.to_act == [2] and any(a["type"] == "discard" for a in g.legal_actions(2))):
        seat = g.to_act[0]
        g.step(seat, never_win(g, seat, g.legal_actions(seat)))
    legal = g.legal_actions(2)
    assert "8m" in tiles_of(g.observation(2)["hand"])
    assert {"type": "discard", "tile": "8m"} not in legal
    assert {"type": "added_kong", "tile": "8m"} in legal


def test_changsha_claims_the_discard_before_the_last_tile_and_hainan_does_not() -> None:
    # Changsha: the 海底 tile is still drawn after that discard ("海底牌漫遊 ... 按照座次輪詢"),
    # so it is claimed as any other (the seed is silent). Hainan: "倒数第二张玩家摸进后打出的牌
    # 不允许吃碰杠，只能胡".
    def claims_with_one_left(rules: str) -> int:
        found = 0
        for seed in range(150):
            g = haidi.Game(rules, seed=seed)
            rng = random.Random(seed)
            while not g.done:
                seat = g.to_act[0]
                legal = g.legal_actions(seat)
                claims = [a for a in legal if a["type"] in ("chow", "pung", "kong")]
                if claims and g.observation(seat)["wall"] == 1:
                    found += 1
                    g.step(seat, rng.choice(claims))
                    continue
                g.step(seat, rng.choice([a for a in legal if a["type"] != "win"] or legal))
        return found

    assert claims_with_one_left("changsha") > 5
    assert claims_with_one_left("hainan") == 0


def test_beijing_the_seats_follow_a_wind_the_dealer_discards_first() -> None:
    # "如东家打出的第一张牌是风头 ... 南家如果有这张牌则必须打同样的牌，西家和北家的规则也一样如此；如果东南西3家已经
    # 打出了同样的风牌时，北家如果也有此牌，就必须打那张牌" and "如东家打出的第一张牌不是风头 ... 则其他3家均没有义务
    # 打同样的牌".
    g = haidi.Game("beijing", wall=stacked_wall("beijing", FOLLOWED, back="4p"))
    g.step(0, {"type": "discard", "tile": "1z"})
    for seat in (1, 2, 3):
        assert [a for a in g.legal_actions(seat) if a["type"] == "discard"] == [{"type": "discard", "tile": "1z"}]
        g.step(seat, {"type": "discard", "tile": "1z"})
    # The dealer's first discard no wind: nobody is bound.
    g = haidi.Game("beijing", wall=stacked_wall("beijing", FOLLOWED, back="4p"))
    g.step(0, {"type": "discard", "tile": "1m"})
    assert len([a for a in g.legal_actions(1) if a["type"] == "discard"]) > 1
    # South does not hold it: the round is not followed, and West is not bound.
    hands = list(FOLLOWED)
    hands[1] = "234p567p345s66s9m2z"
    g = haidi.Game("beijing", wall=stacked_wall("beijing", hands, back="4p"))
    g.step(0, {"type": "discard", "tile": "1z"})
    g.step(1, {"type": "discard", "tile": "2z"})
    assert len([a for a in g.legal_actions(2) if a["type"] == "discard"]) > 1


@pytest.mark.parametrize("back", ["6m", "1f6m"])
def test_mcr_a_flowers_replacement_after_a_kong_is_no_kong_replacement(back: str) -> None:
    # Seat 1 makes an exposed kong of the dealer's 2m; its replacement completes
    # 567m 345p 234s 11z. 杠上开花 (8) makes it a win; a flower drawn for the kong takes
    # that away ("開杠抓進的牌成和牌(不包括補花)"): 3 points, under the 8 needed.
    hands = ["2m19m19p19s1234567z", "222m57m345p234s11z", "3388m2266p5599s2z", "4499m7788p6677s3z"]
    g = haidi.Game("mcr", wall=stacked_wall("mcr", hands, back=back))
    g.step(0, {"type": "discard", "tile": "2m"})
    g.step(1, {"type": "kong"})
    assert g.to_act == [1] and events(g, "draw")[-1]["tile"] == "6m"
    wins = [a for a in g.legal_actions(1) if a["type"] == "win"]
    if back == "6m":
        g.step(1, wins[0])
        w = g.result["wins"][0]
        assert w["situation"]["kong_replacement"] and "杠上开花" in [f.name for f in w["score"].fans]
    else:
        assert wins == [] and events(g, "flower")[-1]["seat"] == 1
