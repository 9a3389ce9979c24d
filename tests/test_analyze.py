"""Ruleset.analyze and analyze_batch against tests/analysis_reference.py, a brute force
that shares no code with the engine; the scoring of waits against evaluate."""

from __future__ import annotations

import random
import re

import analysis_reference as ref
import numpy as np
import pytest

import haidi
from haidi.rulesets import REGISTRY

RULES = {name: ref.Rules.of(module.SPEC) for name, module in REGISTRY.items()}
WILD_RULESETS = [n for n, m in REGISTRY.items() if m.SPEC.has_wilds]


def text_of(counts) -> str:
    out = []
    for s, letter in enumerate("mpsz"):
        digits = "".join(str(t - s * 9 + 1) * counts[t] for t in range(s * 9, min(s * 9 + 9, 34)))
        if digits:
            out.append(digits + letter)
    return "".join(out)


def deal(rnd: random.Random, name: str, *, full: bool, melds: int, wild: int | None, spread: int):
    """A hand of `name` near complete: melds and a pair, `spread` tiles swapped for random
    ones; `melds` of the sets declared. Returns (text, concealed counts, Melds)."""
    rules = RULES[name]
    tiles = sorted(rules.tiles)
    counts = [0] * 34
    melded = [0] * 34
    text_melds = ""
    chows = False
    suits: set[int] = set()
    all_258 = True
    sets = []
    for _ in range(rules.melds):
        t = rnd.choice(tiles)
        shape = [t] * 3 if t >= 27 or rnd.random() < 0.4 or t % 9 > 6 else [t, t + 1, t + 2]
        if all(x in rules.tiles for x in shape):
            sets.append(shape)
    rnd.shuffle(sets)
    for i, shape in enumerate(sets):
        declare = i < melds and wild not in shape
        target = melded if declare else counts
        if any(counts[x] + melded[x] + shape.count(x) > 4 for x in set(shape)):
            continue
        for x in shape:
            target[x] += 1
        if declare:
            text_melds += "[" + text_of([shape.count(x) for x in range(34)]) + "]"
            chows |= shape[0] != shape[1]
            suits.add(shape[0] // 9)
            all_258 &= shape[0] == shape[1] and shape[0] < 27 and shape[0] % 9 in (1, 4, 7)
    n_melds = text_melds.count("[")
    size = 3 * (rules.melds - n_melds) + (2 if full else 1)
    pair = rnd.choice(tiles)
    if counts[pair] + melded[pair] <= 2:
        counts[pair] += 2
    for _ in range(spread):
        held = [t for t in range(34) if counts[t]]
        if held:
            counts[rnd.choice(held)] -= 1
    if wild is not None and rnd.random() < 0.7:
        for _ in range(rnd.choice([1, 1, 2])):
            if counts[wild] + melded[wild] < 4:
                counts[wild] += 1
    while sum(counts) < size:
        t = rnd.choice(tiles)
        if counts[t] + melded[t] < 4:
            counts[t] += 1
    while sum(counts) > size:
        counts[rnd.choice([t for t in range(34) if counts[t] and t != wild] or [wild])] -= 1
    m = ref.Melds(tuple(melded), n_melds, chows, frozenset(suits), all_258)
    return text_of(counts) + text_melds, counts, m


def seen(rnd: random.Random, counts, melded, rules) -> list[int]:
    vis = [0] * 34
    for t in rules.tiles:
        room = 4 - counts[t] - melded[t]
        if room and rnd.random() < 0.25:
            vis[t] = rnd.randint(1, room)
    return vis


def check_hand(name: str, rnd: random.Random, *, full: bool, melds: int, wild: int | None, spread: int) -> int:
    """Analyses one dealt hand and checks every entry against the brute force; returns
    how many entries were checked exactly (shanten 0 or 1)."""
    rules = RULES[name]
    text, counts, m = deal(rnd, name, full=full, melds=melds, wild=wild, spread=spread)
    vis = seen(rnd, counts, m.counts, rules)
    wilds = ref.NAMES[wild] if wild is not None else None
    entries = haidi.ruleset(name).analyze(text, visible=text_of(vis) or None, wilds=wilds)
    left = [4 - counts[t] - m.counts[t] - vis[t] if t in rules.tiles else 0 for t in range(34)]
    wild_kinds = frozenset() if wild is None else frozenset([wild])
    discards = [t for t in range(34) if counts[t]] if full else [None]
    assert sorted(e["discard"] or "" for e in entries) == sorted(
        ref.NAMES[d] if d is not None else "" for d in discards
    )
    exact = 0
    for e in entries:
        after = list(counts)
        if e["discard"] is not None:
            after[ref.NAMES.index(e["discard"])] -= 1
        p = ref.Position(tuple(after), wild_kinds, rules, m)
        s, useful = ref.shanten_and_useful(p)
        where = (name, text, wilds, text_of(vis), e["discard"])
        if s == 2:
            assert e["shanten"] >= 2, where
            continue
        exact += 1
        assert e["shanten"] == s, where
        expected = sorted(t for t in useful if left[t] > 0)
        assert e["useful"] == [ref.NAMES[t] for t in expected], where
        assert e["useful_count"] == sum(left[t] for t in expected), where
        assert e["useful_wilds"] == [ref.NAMES[t] for t in expected if t in wild_kinds], where
        if s == 0:
            assert [(w["tile"], w["left"]) for w in e["waits"]] == [(ref.NAMES[t], left[t]) for t in sorted(useful)]
        else:
            assert e["waits"] == []
    return exact


CASES = [
    (name, full, melds, wild)
    for name in REGISTRY
    for full in (True, False)
    for melds in (0, 1)
    for wild in ([None, "wild"] if name in WILD_RULESETS else [None])
]


@pytest.mark.parametrize(("name", "full", "melds", "wild"), CASES)
def test_entries_agree_with_brute_force(name, full, melds, wild):
    """Each entry's shanten is the brute force's for the hand after its discard (exactly
    where that is 0 or 1, at least 2 otherwise); its useful kinds are the draws that lower
    it with a copy unseen; useful_count counts those copies; the waits and their copies
    are the brute force's."""
    rnd = random.Random(f"{name}{full}{melds}{wild}")
    rules = RULES[name]
    exact = 0
    # A 14/17-tile hand costs the brute force a second or two (every draw and discard of
    # every discard); a 13/16-tile hand a tenth of that.
    hands = 4 if full else 15
    for _ in range(hands):
        w = rnd.choice(sorted(rules.tiles)) if wild else None
        exact += check_hand(name, rnd, full=full, melds=melds, wild=w, spread=rnd.choice([0, 1, 1, 2]))
    assert exact >= hands // 2  # most entries are near enough to be checked exactly


def test_order_is_best_first_and_stable():
    mcr = haidi.ruleset("mcr")
    entries = mcr.analyze("123m456m78p11s5z[567s]", visible="9p9p")
    keys = [(e["shanten"], -e["useful_count"], -e["winning_count"], ref.NAMES.index(e["discard"])) for e in entries]
    assert keys == sorted(keys)
    # Discarding 5z leaves 78p waiting on 6p (a win: 9 points) and 9p (under 8 points).
    best = entries[0]
    assert best["discard"] == "5z"
    assert best["waits"] == [{"tile": "6p", "left": 4}, {"tile": "9p", "left": 2}]
    assert best["winning_waits"] == [{"tile": "6p", "left": 4, "total": 9}]
    assert best["winning_count"] == 4


def test_winning_waits_agree_with_evaluate():
    """Every ready entry's winning waits are exactly the waits that evaluate scores as a
    win under the same situation, with evaluate's total."""
    rnd = random.Random(7)
    situations = {
        "mcr": {"self_drawn": True},
        "changsha": {},
        "hainan": {},
        "longgang": {"self_drawn": True},
        "tangshan": {"self_drawn": False},
        "beijing": {"self_drawn": True},
    }
    ready = 0
    for name, situation in situations.items():
        r = haidi.ruleset(name)
        for _ in range(40):
            wild = rnd.choice(sorted(RULES[name].tiles)) if name in WILD_RULESETS and rnd.random() < 0.5 else None
            text, counts, m = deal(rnd, name, full=True, melds=rnd.choice([0, 1]), wild=wild, spread=rnd.choice([0, 1]))
            wilds = ref.NAMES[wild] if wild is not None else None
            for e in r.analyze(text, wilds=wilds, **situation):
                if e["shanten"] != 0:
                    assert e["winning_waits"] == [] and e["winning_count"] == 0
                    continue
                ready += 1
                h = haidi.Hand(text)
                after = h.counts
                after[ref.NAMES.index(e["discard"])] -= 1
                hand = text_of(after) + "".join(str(x) for x in h.melds)
                extra = {"wilds": wilds} if wilds else {}
                expected = []
                for w in e["waits"]:
                    res = r.evaluate(hand=hand, win=w["tile"], **situation, **extra)
                    if res["win"]:
                        expected.append({"tile": w["tile"], "left": w["left"], "total": res["total"]})
                assert e["winning_waits"] == expected, (name, text, e["discard"])
                assert e["winning_count"] == sum(w["left"] for w in expected)
    assert ready > 50


def test_a_hand_waiting_has_one_entry():
    e = haidi.ruleset("mcr").analyze("1112345678999m")
    assert len(e) == 1 and e[0]["discard"] is None and e[0]["shanten"] == 0
    assert e[0]["useful"] == [f"{i}m" for i in range(1, 10)]
    assert e[0]["useful_count"] == 4 * 9 - 13


def test_wilds_drawn_are_useful_whenever_a_draw_is():
    lg = haidi.ruleset("longgang")
    for text in ["13569m2468p1347s6z5m5m", "123456789m12p11s77z5m5m", "1123m45p6799s12367z5m"]:
        for e in lg.analyze(text, wilds="5m"):
            assert ("5m" in e["useful"]) == bool(e["useful"]), (text, e)
            assert e["useful_wilds"] == (["5m"] if e["useful"] else [])


def test_a_wild_past_the_copies_is_a_wait_of_the_analysis():
    lg = haidi.ruleset("longgang")
    assert lg.analyze("33377899p567s22z[888p]", wilds="2m")[0]["waits"] == [{"tile": "2m", "left": 4}]


def test_indicator_names_the_wild():
    ts = haidi.ruleset("tangshan")
    assert ts.analyze("123m456p789s1112z4z", indicator="3z") == ts.analyze("123m456p789s1112z4z", wilds="4z")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda r: r.analyze("123m456p789s1234z5z", visible="5z5z5z5z"), "fifth copy of 5z"),
        (lambda r: r.analyze("123m456p789s12z"), "expected 13 or 14"),
        (lambda r: r.analyze("123m456p789s1234z5z", self_drawm=True), "self_drawm"),
        (lambda r: r.analyze("123m456p789s1234z5z", win="5z"), "win is not a situation key here"),
        (lambda r: r.analyze("123m456p789s1234z5z", visible=5), "visible must be"),
        (lambda r: r.analyze(5), "expected a Hand or a str"),
        (lambda r: r.analyze("123m456p789s1234z5z", scoring="yes"), "scoring must be True or False"),
        (lambda r: r.analyze("123m456p789s1234z5z", wilds="5z"), "plays no wild tiles"),
        (lambda r: r.analyze("123m456p789s1234z5z", self_drawn="no"), "self_drawn must be True or False"),
        (lambda r: r.analyze_batch(np.zeros((2, 34), np.uint8)), "row 0"),
        (lambda r: r.analyze_batch(np.full((1, 34), 5)), "5 copies"),
    ],
)
def test_bad_input_is_a_hand_error(call, message):
    with pytest.raises(haidi.HandError, match=message):
        call(haidi.ruleset("mcr"))


def test_visible_tiles_outside_the_tile_set():
    with pytest.raises(haidi.HandError, match="not played"):
        haidi.ruleset("changsha").analyze("123m456p789s1234s5s", visible="1z")


def test_batch_agrees_with_analyze():
    rnd = random.Random(3)
    for name in REGISTRY:
        r = haidi.ruleset(name)
        rows, vis = [], []
        for _ in range(30):
            text, counts, m = deal(rnd, name, full=True, melds=0, wild=None, spread=rnd.choice([0, 1, 2]))
            rows.append(counts)
            vis.append(seen(rnd, counts, m.counts, RULES[name]))
        shanten, useful = r.analyze_batch(np.array(rows, np.uint8), np.array(vis, np.uint8))
        assert shanten.shape == useful.shape == (30, 34)
        assert shanten.dtype == np.int8 and useful.dtype == np.int16
        for i, (counts, v) in enumerate(zip(rows, vis, strict=True)):
            by_discard = {e["discard"]: e for e in r.analyze(text_of(counts), visible=text_of(v) or None)}
            for t in range(34):
                e = by_discard.get(ref.NAMES[t])
                if e is None:
                    assert shanten[i, t] == 127 and useful[i, t] == -1
                else:
                    assert (shanten[i, t], useful[i, t]) == (e["shanten"], e["useful_count"])


def test_the_reference_fills_wilds_as_trying_every_kind_does():
    """The brute force's wild search (each wild a missing place of a group) against the
    plainest one: every kind tried for every wild."""
    rnd = random.Random(5)
    complete = 0
    for name in WILD_RULESETS:
        rules = RULES[name]
        tiles = sorted(rules.tiles)
        for _ in range(100):
            w = rnd.choice([1, 1, 2])
            size = 3 * rules.melds + 2 - w
            c = [0] * 34
            while sum(c) < size:
                t = rnd.choice(tiles)
                run = [t, t + 1, t + 2] if rnd.random() < 0.5 and t < 27 and t % 9 <= 6 else [t]
                for x in run:
                    if sum(c) < size and c[x] < 4:
                        c[x] += 1
            a = ref.complete(tuple(c), w, rules, ref.Melds())
            assert a == ref.complete_by_assignment(tuple(c), w, rules, ref.Melds()), (name, c, w)
            complete += a
    assert complete > 10


def test_draws_to_a_winning_ready_hand_agree_with_a_search_over_evaluate():
    """``scoring=True``: 0 draws when the entry has a winning wait with a copy left; 1 when
    some draw (with a copy unseen) and discard leave a hand with such a wait, as found by
    trying every exchange with ``waits`` and ``evaluate``; else at least 2."""
    mcr = haidi.ruleset("mcr")

    def winning_ready(counts, melds_text, left):
        hand = text_of(counts) + melds_text
        if mcr.shanten(hand) != 0:
            return False
        return any(left[ref.NAMES.index(w)] > 0 and mcr.evaluate(hand=hand, win=w)["win"] for w in mcr.waits(hand))

    checked = 0
    for text in ["123m456m78p11s5z[567s]", "123m456p789s1234z5z", "1122m3456p789s125z", "1m23456p789s1234z5z"]:
        h = haidi.Hand(text)
        melds_text = "".join(str(m) for m in h.melds)
        for e in mcr.analyze(text, scoring=True):
            counts = h.counts
            counts[ref.NAMES.index(e["discard"])] -= 1
            left = [4 - x for x in h.held()]
            if winning_ready(counts, melds_text, left):
                assert (e["draws"], e["draws_exact"]) == (0, True)
                continue
            one = False
            for t in range(34):
                if left[t] == 0:
                    continue
                drawn = list(counts)
                drawn[t] += 1
                rest = list(left)
                rest[t] -= 1
                for d in range(34):
                    if drawn[d] and d != t:
                        drawn[d] -= 1
                        one = one or winning_ready(drawn, melds_text, rest)
                        drawn[d] += 1
            checked += 1
            if one:
                assert (e["draws"], e["draws_exact"]) == (1, True), (text, e)
            else:
                assert e["draws"] >= 2 and e["draws"] >= e["shanten"], (text, e)
                assert e["draws_exact"] == (e["draws"] <= 2), (text, e)
    assert checked > 10


@pytest.mark.parametrize("rules", haidi.RULESETS)
def test_winning_waits_are_tried_wait_by_wait_and_read_as_analyze_reads(rules: str) -> None:
    """``winning_waits`` are the waits whose ``evaluate`` wins, and its situation is read
    (and refused) as ``analyze`` reads it, whether or not the hand waits on anything."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    import situations
    from mcr_peer import random_situation

    rs = haidi.ruleset(rules)
    rng = random.Random(41)
    tried = 0
    while tried < 60:
        s = dict(random_situation(rng) if rules == "mcr" else situations.situation(rng, rules))
        hand, wilds = s.pop("hand"), s.pop("wilds", None)
        s.pop("win", None)
        if s.pop("format", None) == "comh":
            continue
        try:
            got = rs.winning_waits(hand, wilds, **s)
        except haidi.HandError:
            continue
        tried += 1
        extra = {"wilds": wilds} if wilds is not None else {}
        expected = [t for t in rs.waits(hand, wilds) if rs.evaluate(hand=hand, win=t, **extra, **s)["win"]]
        assert got == expected, (hand, wilds, s)
    never = {"mcr": "159m159p159s1234z", "changsha": "159m159p159s2358m"}.get(rules, "159m159p159s1234z")
    never = never if rs.hand_size == 13 else never + "135p"
    assert rs.winning_waits(never) == []
    for bad, named in [
        ({"self_drwan": True}, "self_drwan"),
        ({"self_drawn": "yes"}, "self_drawn"),
        ({"win": "1m"}, "win"),
    ]:
        with pytest.raises(haidi.HandError, match=named):
            rs.winning_waits(never, **bad)


def test_analyze_reads_flags_and_counts_as_every_reader_does() -> None:
    """numpy's bool_ is a flag and its integer scalars are counts, as in evaluate; an int
    is no flag, a bool no count."""
    rs = haidi.ruleset("longgang")
    hand = "123456789m12p11s77z5m5m"
    expected = rs.analyze(hand, wilds="5m", scoring=True, extra_wilds=0)
    assert rs.analyze(hand, wilds="5m", scoring=np.bool_(True), extra_wilds=np.int64(0)) == expected
    for kw, named in [
        ({"scoring": 1}, "scoring must be True or False"),
        ({"extra_wilds": True}, "extra_wilds must be"),
    ]:
        with pytest.raises(haidi.HandError, match=named):
            rs.analyze(hand, wilds="5m", **kw)


@pytest.mark.parametrize("name", ["changsha", "hainan", "tangshan", "beijing"])
def test_analyze_refuses_extra_wilds_where_scoring_has_no_wild_flower(name: str) -> None:
    """The engine would count them and the scorer never: every wait would be refused as
    a hand short of its size. The engine's own questions take them."""
    rs = haidi.ruleset(name)
    hand = "444m66677p999s12p"
    with pytest.raises(haidi.HandError, match=f"extra_wilds: {name} scores no wild that is not a tile") as e:
        rs.analyze(hand, extra_wilds=1)
    assert e.value.key == "extra_wilds"
    # 444m 666p 999s 77p, and 12p with the wild; Changsha's pair must be a 2, 5 or 8.
    assert rs.shanten(hand, extra_wilds=1) == (0 if name == "changsha" else -1)
    assert rs.analyze(hand, extra_wilds=0) == rs.analyze(hand)


def test_a_batch_refuses_melds_whose_kinds_open_a_form() -> None:
    """A batch row gives how many melds it declared, not their kinds. Changsha's 碰碰胡 and
    清一色 take any pair and 将将胡 reads every tile, so its rows with melds are refused
    (a guess would answer 33344m[777s][555s][777m] wrongly); without melds they are read,
    and the other rulesets read rows with melds."""
    cs = haidi.ruleset("changsha")
    assert cs.is_win("33344m[777s][555s][777m]") and cs.shanten("3334m[777s][555s][777m]") == 0
    row = np.zeros((1, 34), dtype=np.uint8)
    row[0, 2], row[0, 3] = 3, 2  # 33344m
    for call in (cs.win_batch, cs.shanten_batch, cs.waits_batch, cs.analyze_batch):
        with pytest.raises(haidi.HandError, match="row 0: changsha has forms the melds' kinds open"):
            call(
                row if call in (cs.win_batch, cs.analyze_batch) else row - np.eye(34, dtype=np.uint8)[[3]],
                melds=np.array([3], dtype=np.uint8),
            )
    full = np.zeros((1, 34), dtype=np.uint8)
    full[0, [1, 2, 3, 10, 11, 12, 19, 20, 21]] = 1
    full[0, 22], full[0, 4] = 3, 2  # 234m 234p 234s 555s 55m: complete, 2-5-8 pair
    assert cs.win_batch(full).tolist() == [True]
    mcr = haidi.ruleset("mcr")
    assert mcr.win_batch(row, melds=np.array([3], dtype=np.uint8)).tolist() == [mcr.is_win("33344m[777s][555s][777m]")]


def test_visible_and_wilds_are_never_read_from_a_mapping() -> None:
    """A dict would be read as its keys whatever its values say ({"4p": 3} as one 4p):
    refused, as visible and wilds are tiles, a Hand, or a list of them."""
    mcr, ts = haidi.ruleset("mcr"), haidi.ruleset("tangshan")
    with pytest.raises(haidi.HandError, match="visible must be tiles"):
        mcr.analyze("123m456p789s1122z", visible={"4p": 3})
    for call in (ts.analyze, ts.shanten, ts.waits):
        with pytest.raises(haidi.HandError, match="wilds must be tile kinds"):
            call("123m456p789s112z", wilds={"5m": 1})
    assert mcr.analyze("123m456p789s1122z", visible=["4p", "4p"]) == mcr.analyze("123m456p789s1122z", visible="4p4p")


def test_a_draw_at_shanten_one_is_useful_only_if_a_wait_is_left_unseen_with_wilds_held() -> None:
    # Every 4p (the 混) seen: no drawn wild completes the ready hands, whose waits must
    # have a copy unseen, the visible ones taken off too.
    from collections import Counter

    ts = haidi.ruleset("tangshan")
    hand = "4p8m9m2s9s9m2p4p2m4p8p1s3s3s"
    visible = (
        "1m3p9p1m5m2m7p6s9s6p7m1p2m6p1m5s4m7p7p8p5s8m8p3p6m2s2p5s3m6s2p8p2s5m8m4s4p3s2m6p"
        "2s4s9p7m7s1m1s9s4m9s1s5m5p2p9p7s6p7m1p3s1p5p3m6s"
    )
    split = lambda text: [text[i : i + 2] for i in range(0, len(text), 2)]  # noqa: E731
    seen = Counter(split(visible))
    entries = {e["discard"]: e for e in ts.analyze(hand, visible=split(visible), wilds="4p")}
    for d in ("8m", "1s"):
        assert entries[d]["shanten"] == 1 and entries[d]["useful"] == []
        left = split(hand)
        left.remove(d)
        # The draws that lower the shape's distance, checked by hand: after the draw, no
        # discard leaves a wait with a copy unseen.
        for t in ("8m", "1s"):
            # Seen by the player: the whole hand (the discards included) and the draw.
            held = Counter([*split(hand), t])
            for x in Counter([*left, t]):
                rest = [*left, t]
                rest.remove(x)
                live = [k for k in ts.waits("".join(rest), wilds="4p") if 4 - held[k] - seen[k] > 0]
                assert live == [], (d, t, x, live)


def test_inputs_read_alike_on_every_path() -> None:
    # A bool among a list's ints is no count (numpy reads True as 1); pandas' own
    # integer types are counts; a flower is seen once; keys are named as evaluate names
    # them; extra wilds the situation does not give are refused before any wait is met.
    pd = pytest.importorskip("pandas")
    mcr, lg, ts, hn = (haidi.ruleset(n) for n in ("mcr", "longgang", "tangshan", "hainan"))
    row = [1] * 14 + [0] * 20
    refused = [
        (lambda: mcr.analyze_batch([[True] + [1] * 13 + [0] * 20]), "not True or False", None),
        (lambda: mcr.analyze_batch([row, row], melds=[True, 0]), "not True or False", "melds"),
        (lambda: mcr.analyze_batch([row], visible=[True] + [0] * 33), "not True or False", "visible"),
        (lambda: mcr.analyze("123m456p789s1122z1f", visible="1f"), "seen and held", "visible"),
        (lambda: mcr.analyze("123m456p789s1122z", visible=["1f", "1f"]), "seen twice", "visible"),
        (
            lambda: hn.analyze("123456789m1234p", indicator="3x"),
            'unknown hainan situation key "indicator"',
            "indicator",
        ),
        (lambda: mcr.analyze("123456789m1234p", indicator="3z"), 'unknown mcr situation key "indicator"', "indicator"),
        (lambda: ts.analyze("123456789m1234p", indicator="3x"), "indicator: unknown character", "indicator"),
        (lambda: ts.analyze("123456789m1234p", wilds="3f"), 'wilds name tile kinds such as "5z", not "3f"', "wilds"),
        (lambda: lg.analyze("147m258p369s13467z1m", extra_wilds=1), "must give the flowers", "extra_wilds"),
    ]
    for call, message, key in refused:
        with pytest.raises(haidi.HandError, match=re.escape(message)) as e:
            call()
        assert e.value.key == key, (message, e.value.key)
    frame = pd.DataFrame([row], columns=haidi.tile_names())
    for dtype in ("Int64", "UInt8"):
        assert (mcr.analyze_batch(frame.astype(dtype))[0] == mcr.analyze_batch(frame)[0]).all()
    frame = frame.astype("Int64")
    frame.iloc[0, 3] = pd.NA
    with pytest.raises(haidi.HandError, match="missing a value") as e:
        mcr.analyze_batch(frame)
    assert e.value.row == 0
    # winning_waits reads extra_wilds as analyze does.
    situation = dict(extra_wilds=1, flowers="1f", seat_wind="E")
    (entry,) = lg.analyze("123456789m12p11s77z", **situation)
    assert lg.winning_waits("123456789m12p11s77z", **situation) == [w["tile"] for w in entry["winning_waits"]]
