"""Waits, shanten, win checks and decompositions on known hands."""

import gc

import pytest

import haidi
from haidi import HandError
from haidi.ruleset import DECOMPOSE_LIMIT

mcr = haidi.ruleset("mcr")


def test_nine_gates():
    assert mcr.waits("1112345678999m") == [f"{i}m" for i in range(1, 10)]
    assert mcr.shanten("1112345678999m") == 0


def test_public_ting_cases(mcr_cases):
    cases = mcr_cases["ting_cases"]
    assert len(cases) == 20
    for case in cases:
        comh = mcr.waits(case["input"], format="comh")
        compact = mcr.waits(case["hand"])
        assert sorted(comh) == sorted(case["waits"]), case["input"]
        assert compact == comh


def test_special_forms_complete():
    assert mcr.is_win("19m19p19s12345677z")  # 十三幺
    assert mcr.is_win("1133557799m1122z")  # 七对
    assert mcr.is_win("1111335577m1122z")  # 七对 with four of a kind as two pairs
    assert mcr.is_win("147m258p369s12345z")  # 全不靠
    assert mcr.is_win("147m258p369s234m11z")  # 组合龙
    assert not mcr.is_win("147m258p369s234m12z")


def test_thirteen_orphans_waits():
    assert mcr.waits("19m19p19s1234567z") == ["1m", "9m", "1p", "9p", "1s", "9s"] + [f"{i}z" for i in range(1, 8)]
    assert mcr.waits("19m19p19s1234566z") == ["7z"]


def test_a_kind_held_four_times_is_no_wait():
    # 1111m beside three chows: every reading needs a fifth 1m.
    assert mcr.waits("1111m234p567p789p") == []
    assert mcr.shanten("1111m234p567p789p") == 1
    # The four copies may be partly melded.
    assert mcr.waits("1m234p567p789p[111m]") == []
    assert mcr.shanten("1m234p567p789p[111m]") == 1


def test_melds_count_towards_size():
    assert mcr.waits("1m[234p][567p][789p][123s]") == ["1m"]
    assert mcr.is_win("11m[234p][567p][789p]{1111s}")
    assert mcr.shanten("11m[234p][567p][789p]{1111s}") == -1


def test_size_and_tile_set_errors():
    with pytest.raises(HandError, match="expected 13"):
        mcr.waits("123m")
    with pytest.raises(HandError, match="expected 14"):
        mcr.is_win("1112345678999m")
    with pytest.raises(HandError, match="not played in changsha"):
        haidi.ruleset("changsha").waits("111234567899m1z")
    with pytest.raises(HandError, match="not played in longgang"):
        haidi.ruleset("longgang").shanten("1112345678999m5z55z")
    with pytest.raises(HandError, match="unknown ruleset"):
        haidi.ruleset("riichi")
    with pytest.raises(HandError, match="at most 4"):
        mcr.waits("1m[123p][123p][123s][123s][789s]")


def test_wilds():
    # 7z wild: it makes a pung of 2z (waiting on 1p) or of 1p (waiting on 2z); a second
    # wild completes either way.
    assert mcr.waits("123456789m11p2z7z", wilds="7z") == ["1p", "2z", "7z"]
    assert mcr.waits("123456789m11p2z7z", wilds=["7z"]) == ["1p", "2z", "7z"]
    # A wild may stand for its own kind: 777z with a 7z wild is still a pung.
    assert mcr.is_win("123456789m11p777z", wilds="7z")
    # Four wilds and ten tiles: complete as long as the real tiles fit.
    assert mcr.is_win("123456789m1p5555z", wilds="5z")


def test_wild_given_as_an_extra_tile():
    # A seat flower that plays as a wild is passed as extra_wilds.
    longgang = haidi.ruleset("longgang")
    assert longgang.hand_size == 16
    assert longgang.is_win("123456789m123p11s77z", extra_wilds=1)


def test_changsha_pairs():
    cs = haidi.ruleset("changsha")
    # 平胡 needs a 2-5-8 pair: 11s is not one.
    assert not cs.is_win("123m456m789m234p11s")
    assert cs.is_win("123m456m789m234p55s")
    assert cs.waits("123m456m789m234p1s") == []
    assert cs.waits("123m456m789m234p2s") == ["2s"]
    # 碰碰胡 and 清一色 take any pair; 将将胡 needs no structure.
    assert cs.is_win("111m333p444s666s11s")
    assert cs.is_win("11123456778899m")  # 清一色, pair 11m
    assert cs.is_win("22558m258p25588s2m")


def test_decompose_lists_every_reading():
    arrs = mcr.decompose("111222333m456p77z")
    assert len(arrs) == 2
    kinds = sorted(tuple(g["kind"] for g in a["groups"]) for a in arrs)
    assert kinds == [("pair", "chow", "chow", "chow", "chow"), ("pair", "chow", "pung", "pung", "pung")]
    seven = mcr.decompose("1122334455667m7m")
    assert {a["form"] for a in seven} == {"standard", "seven_pairs"}
    w = mcr.decompose("123456789m11p22z7z", wilds="7z")
    assert all(sum(len(g["wilds"]) for g in a["groups"]) == 1 for a in w)
    assert len(mcr.decompose("123456789m1p5555z", wilds="5z", limit=5)) == 5


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda m: m.waits("123m456p789s1122z", extra_wilds=256), "extra_wilds must be an int from 0 to 17, not 256"),
        (lambda m: m.waits("123m456p789s1122z", extra_wilds=-1), "extra_wilds must be an int from 0 to 17, not -1"),
        (lambda m: m.waits("123m456p789s1122z", extra_wilds=True), "extra_wilds must be an int .* not True"),
        (lambda m: m.shanten("123m456p789s1122z", extra_wilds=1.0), "extra_wilds must be an int .* not 1.0"),
        (lambda m: m.decompose("111222333m456p77z", limit=-1), "limit must be an int from 0 to"),
        (lambda m: m.decompose("111222333m456p77z", limit="2"), "limit must be an int .* not '2'"),
        (lambda m: m.waits("123m456p789s1122z", wilds=5), 'wilds must be tile kinds such as "5z"'),
        (lambda m: m.waits("123m456p789s1122z", wilds=[5]), 'wilds must be tile kinds such as "5z"'),
        (lambda m: m.waits("123m456p789s1122z\ud800"), "the hand is not valid text"),
        (lambda m: m.waits("123m456p789s1122z", wilds="5z\ud800"), "the wilds is not valid text"),
        (lambda m: m.evaluate(hand="123m456p789s1122z\ud800", win="2z"), "^hand is not valid text"),
    ],
)
def test_bad_arguments_are_hand_errors_naming_them(call, message):
    # Each of these raised OverflowError, TypeError or UnicodeEncodeError.
    with pytest.raises(HandError, match=message):
        call(haidi.ruleset("mcr"))


def test_counts_in_range_are_taken():
    m = haidi.ruleset("mcr")
    assert m.waits("123m456p789s112z", extra_wilds=1) == ["1z", "2z"]
    assert len(m.decompose("111222333m456p77z", limit=1)) == 1
    assert len(m.decompose("111222333m456p77z", limit=None)) == 2


def test_decompose_limits_count_only_the_arrangements_kept():
    # Under Changsha's 2-5-8 pair the 7p pair is kept only as 清一色; the filter ran after
    # the limit, so limit=1 listed nothing though the hand is a win.
    cs = haidi.ruleset("changsha")
    assert cs.is_win("222m44455566677p")
    one = cs.decompose("222m44455566677p", limit=1)
    assert len(one) == 1 and one[0] in cs.decompose("222m44455566677p", limit=None)


def test_listing_every_arrangement_is_bounded():
    # decompose("", extra_wilds=14, limit=None) grew until the process aborted.
    m = haidi.ruleset("mcr")
    with pytest.raises(HandError, match="more than 20000 arrangements; give a limit"):
        m.decompose("", extra_wilds=14, limit=None)
    with pytest.raises(HandError, match="limit must be an int from 0 to 20000"):
        m.decompose("", extra_wilds=14, limit=20_001)
    assert len(m.decompose("1234m", extra_wilds=10, limit=50)) == 50


#: Hands of 388 to 8,669 arrangements (standard, seven pairs and knitted forms, with
#: Changsha's 2-5-8 pair): (hand, extra wilds) by ruleset.
MANY = {
    "mcr": [("123456m11p", 6), ("1122m3344p55s", 4), ("147m258p369s", 5)],
    "changsha": [("123456m11p", 6), ("1122m3344p55s", 4), ("258m258p", 8)],
    "hainan": [("123456m11p", 6), ("1122m3344p55s", 4)],
    "tangshan": [("123456m11p", 6), ("1122m3344p55s", 4)],
    "beijing": [("123456m11p", 6), ("1122m3344p55s", 4)],
    "longgang": [("1122m3344p55s66z", 5)],
}


@pytest.mark.parametrize("name", haidi.RULESETS)
def test_a_limit_lists_that_many_of_the_arrangements_in_order(name):
    # The forms share the limit and each search stops at it; what is listed is the
    # hand's arrangements, in the order of the whole listing.
    rs = haidi.ruleset(name)
    for hand, extra in MANY[name]:
        every = rs.decompose(hand, extra_wilds=extra, limit=None)
        assert len(every) > 300
        where = {repr(a): i for i, a in enumerate(every)}
        assert len(where) == len(every)
        for limit in (0, 1, 10, 299, len(every) - 1, len(every), 20_000):
            some = rs.decompose(hand, extra_wilds=extra, limit=limit)
            assert len(some) == min(limit, len(every)), (hand, limit)
            places = [where[repr(a)] for a in some]
            assert places == sorted(places), (hand, limit)
    assert len(rs.decompose("", extra_wilds=rs.hand_size + 1)) == DECOMPOSE_LIMIT


def test_decompose_leaves_the_collector_as_it_found_it():
    # The collector is paused while a listing's dicts are built.
    assert gc.isenabled()
    assert len(mcr.decompose("", extra_wilds=14, limit=100)) == 100
    assert gc.isenabled()
    gc.disable()
    try:
        mcr.decompose("", extra_wilds=14, limit=100)
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: haidi.Hand(5), "a hand is text"),
        (lambda: haidi.Hand(None), "a hand is text"),
        (lambda: haidi.Hand("123m", 5), 'format must be "compact" or "comh", not 5'),
        (lambda: mcr.parse(5), "a hand is text"),
        (lambda: mcr.winning_waits(5), "a hand is text"),
        (lambda: mcr.waits("123m456p789s1122z", format=5), "format must be a str"),
        (lambda: mcr.decompose("111222333m456p77z", format=None), "format must be a str"),
        (lambda: mcr.settle([]), "settle takes an outcome record"),
        (lambda: mcr.evaluate_many(5), "evaluate_many takes a list"),
        (lambda: haidi.ruleset("changsha").evaluate_many([], format=5), "format must be a str"),
        (lambda: haidi.ruleset("changsha").evaluate_many({"hand": 5}), 'column "hand" must be a sequence'),
        (lambda: haidi.ruleset("changsha").evaluate_many({"hand": "123m"}), "not a str"),
        (lambda: mcr.evaluate_many({"hand": "123m", "win": "5m"}), "not a str"),
        (lambda: haidi.reproduce.figures(honours=5), "honours must be True or False"),
    ],
)
def test_arguments_of_the_wrong_type_are_hand_errors(call, message):
    # Each raised TypeError or AttributeError; a str column was read as its characters.
    with pytest.raises(HandError, match=message):
        call()


def test_a_wild_standing_past_the_copies_is_a_wait():
    """Longgang's wilds may stand for a kind all four of whose copies are held (8p here:
    three melded, one concealed), so a drawn 财神 completes the hand: it is a wait, and
    the hand is ready, as is_win says of the hand with it."""
    import numpy as np

    lg = haidi.ruleset("longgang")
    hand = "33377899p567s22z[888p]"
    assert lg.is_win(hand + "2m", wilds="2m")
    assert lg.waits(hand, wilds="2m") == ["2m"]
    assert lg.shanten(hand, wilds="2m") == 0
    counts = np.array([haidi.Hand(hand).counts], np.uint8)
    assert lg.shanten_batch(counts, "2m", melds=np.array([1], np.uint8)).tolist() == [0]


@pytest.mark.parametrize(
    "rules, hand, call",
    [
        ("changsha", "2m345m678m234p567s1f", "waits"),
        ("changsha", "2m345m678m234p567s1f", "shanten"),
        ("longgang", "123m456m789m123p456p9s5f", "waits"),
        ("longgang", "123m456m789m123p456p99s5f", "is_win"),
    ],
)
def test_a_flower_the_ruleset_does_not_play_is_refused(rules, hand, call):
    # As evaluate and analyze refuse it: Changsha plays no flowers, Longgang 1f-4f.
    with pytest.raises(HandError, match="flower") as e:
        getattr(haidi.ruleset(rules), call)(hand)
    assert e.value.key == "hand"


def test_a_visible_flower_the_ruleset_does_not_play_is_refused():
    with pytest.raises(HandError, match="plays no flowers") as e:
        haidi.ruleset("changsha").analyze("2m345m678m234p567s", visible="1f")
    assert e.value.key == "visible"
    # A flower the ruleset plays counts no tile kind.
    lg = haidi.ruleset("longgang")
    assert lg.analyze("123m456m789m123p456p9s", visible="4f") == lg.analyze("123m456m789m123p456p9s")
