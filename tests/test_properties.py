"""Properties checked against tests/reference.py, a plain brute force written apart from
the engine's tables."""

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import haidi
from haidi.rulesets import REGISTRY

import reference as ref

mcr = haidi.ruleset("mcr")
longgang = haidi.ruleset("longgang")
MELD_SHAPES = [("pung", t) for t in range(34)] + [("chow", t) for t in range(27) if t % 9 <= 6]


@st.composite
def near_complete(draw, melds=4, size=14, suits=range(34)):
    """Hands built from melds and a pair, then partly reshuffled, so that complete,
    ready and far hands all occur. One seed is drawn; a Random built from it does the rest."""
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    suits = list(suits)
    shapes = [s for s in MELD_SHAPES if s[1] in suits and (s[0] == "pung" or s[1] + 2 in suits)]
    counts = [0] * 34
    for _ in range(melds):
        kind, t = rnd.choice(shapes)
        need = [t] * 3 if kind == "pung" else [t, t + 1, t + 2]
        if all(counts[x] + need.count(x) <= 4 for x in need):
            for x in need:
                counts[x] += 1
    pair = rnd.choice(suits)
    if counts[pair] <= 2:
        counts[pair] += 2
    for _ in range(rnd.choice([0, 0, 1, 1, 2, 3])):
        counts[rnd.choice([t for t in range(34) if counts[t]])] -= 1
    while sum(counts) < size:
        t = rnd.choice(suits)
        if counts[t] < 4:
            counts[t] += 1
    while sum(counts) > size:
        counts[rnd.choice([t for t in range(34) if counts[t]])] -= 1
    return counts


any_hand = st.lists(st.integers(0, 33), min_size=13, max_size=13).filter(lambda ts: max(ts.count(t) for t in ts) <= 4)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_complete(size=14))
def test_win_check_agrees_with_brute_force(counts):
    assert mcr.is_win(ref.to_text(counts)) == ref.complete(counts, **ref.MCR_FORMS)


@settings(max_examples=300, deadline=None)
@given(near_complete(size=13))
def test_a_wait_is_exactly_a_completing_tile(counts):
    text = ref.to_text(counts)
    expected = [
        ref.NAMES[t]
        for t in range(34)
        if counts[t] < 4 and ref.complete(counts[:t] + [counts[t] + 1] + counts[t + 1 :], **ref.MCR_FORMS)
    ]
    assert mcr.waits(text) == expected
    assert (mcr.shanten(text) == 0) == bool(expected)


@settings(max_examples=150, deadline=None)
@given(st.one_of(near_complete(size=13), any_hand.map(lambda ts: [ts.count(t) for t in range(34)])))
def test_shanten_drops_by_one_with_the_best_exchange(counts):
    """Shanten counts exchanges: one draw and one discard can lower it by one and no
    more; a hand at shanten 0 is one tile from complete."""
    s = mcr.shanten(ref.to_text(counts))
    assert s >= 0
    exchanged = np.array(
        [
            [c + (t == d) - (t == x) for t, c in enumerate(counts)]
            for d in range(34)
            if counts[d] < 4
            for x in range(34)
            if x != d and counts[x] > 0
        ],
        dtype=np.uint8,
    )
    best = int(mcr.shanten_batch(exchanged).min())
    if s >= 1:
        assert best == s - 1
    else:
        drawn = [counts[:t] + [counts[t] + 1] + counts[t + 1 :] for t in range(34) if counts[t] < 4]
        assert int(mcr.shanten_batch(np.array(drawn, dtype=np.uint8)).min()) == -1


@settings(max_examples=150, deadline=None)
@given(near_complete(size=13), st.integers(0, 33))
def test_wilds_agree_with_brute_force(counts, wild):
    counts = list(counts)
    w = counts[wild]
    real = list(counts)
    real[wild] = 0
    text = ref.to_text(counts)
    name = ref.NAMES[wild]
    for t in range(34):
        if counts[t] >= 4:
            continue
        after = list(real)
        extra = w
        if t == wild:
            extra += 1
        else:
            after[t] += 1
        if extra > 2:
            return  # the brute force tries every kind per wild: keep it small
        expected = ref.complete(after, wilds=extra, **ref.MCR_FORMS)
        assert (ref.NAMES[t] in mcr.waits(text, wilds=name)) == expected, (text, name, ref.NAMES[t])


@settings(max_examples=200, deadline=None)
@given(near_complete(melds=5, size=17, suits=[t for t in range(34) if t != 31]))
def test_sixteen_tile_hands(counts):
    text = ref.to_text(counts)
    expected = ref.complete(counts, melds=5) or ref.eight_pairs_and_a_half(counts)
    assert longgang.is_win(text) == expected
    assert (longgang.shanten(text) == -1) == expected


@settings(max_examples=200, deadline=None)
@given(near_complete(size=14))
def test_decompositions_cover_the_hand(counts):
    text = ref.to_text(counts)
    arrs = mcr.decompose(text)
    assert bool(arrs) == mcr.is_win(text)
    for a in arrs:
        tiles = sorted(t for g in a["groups"] for t in g["tiles"])
        assert tiles == sorted(ref.NAMES[t] for t in range(34) for _ in range(counts[t]))
    assert len({repr(a) for a in arrs}) == len(arrs)


@settings(max_examples=50, deadline=None)
@given(st.lists(near_complete(size=13), min_size=1, max_size=40))
def test_batch_equals_single_calls(hands):
    counts = np.array(hands, dtype=np.uint8)
    texts = [ref.to_text(h) for h in hands]
    assert mcr.shanten_batch(counts).tolist() == [mcr.shanten(t) for t in texts]
    waits = mcr.waits_batch(counts)
    assert [[ref.NAMES[i] for i in np.flatnonzero(row)] for row in waits] == [mcr.waits(t) for t in texts]
    drawn = [[c + (t == h.index(max(h))) for t, c in enumerate(h)] for h in hands]
    drawn = [d for d in drawn if max(d) <= 4]
    if drawn:
        wins = mcr.win_batch(np.array(drawn, dtype=np.uint8)).tolist()
        assert wins == [mcr.is_win(ref.to_text(d)) for d in drawn]


#: The kinds each ruleset plays, and its hand's size.
PLAYED = {
    name: ([t for t, c in enumerate(ref.counts_of(m.SPEC.tiles)) if c], m.SPEC.hand_size)
    for name, m in REGISTRY.items()
}


def _hand_with_melds(rnd: random.Random, kinds: list[int], size: int) -> tuple[list[int], str, list[int]]:
    """A hand of `size` tiles with one to three declared melds (kongs often, so that some
    kinds have no copy left to draw), its concealed tiles drawn partly from their own
    kinds: (concealed counts, melds text, copies held of each kind)."""
    held = [0] * 34
    melds = ""
    for _ in range(rnd.choice([1, 2, 2, 3])):
        t = rnd.choice(kinds)
        kind = rnd.choice(["pung", "kong", "kong", "chow"])
        shape = [t, t + 1, t + 2] if kind == "chow" and t < 27 and t % 9 <= 6 else [t] * (4 if kind == "kong" else 3)
        if all(held[x] + shape.count(x) <= 4 for x in shape):
            for x in shape:
                held[x] += 1
            melds += "[" + ref.to_text([shape.count(x) for x in range(34)]) + "]"
    counts = [0] * 34
    while sum(counts) < size - 3 * melds.count("["):
        t = rnd.choice(kinds if rnd.random() < 0.5 or not any(counts) else [x for x in range(34) if counts[x]])
        if held[t] < 4:
            held[t] += 1
            counts[t] += 1
    return counts, melds, held


def test_a_wild_drawn_past_the_copies_makes_a_longgang_hand_nearer():
    """A drawn 财神 may stand for a kind whose copies are all held or melded, so a hand
    that holds no 财神 can be nearer than its real tiles allow: `12m7777m4p13s4z` with
    3333m and 2222s melded and 4m wild is two from ready (three drawn 4m stand for a 3m,
    a 2s and a fifth 7m)."""
    assert longgang.shanten("127777m4p13s4z[2222s][3333m]", wilds="4m") == 2
    assert longgang.shanten("127777m4p13s4z[2222s][3333m]") == 4
    assert longgang.shanten("12m7777m13s4m4m[2222s][3333m]", wilds="4m") == 0
    # The same where the flowers are the wilds (花财神): a flower drawn for the 4p.
    assert longgang.shanten("127777m4p13s4z[2222s][3333m]", wilds="3f") == 2
    assert longgang.shanten("127777m13s4z[2222s][3333m]1f", wilds="3f") == 1


@pytest.mark.parametrize(("name", "hands"), [(n, 700 if n == "longgang" else 200) for n in REGISTRY])
def test_shanten_drops_by_one_with_the_best_exchange_with_melds_and_a_wild_kind(name, hands):
    """Shanten must drop by exactly one with the best exchange (one draw of a kind with a
    copy left, one discard), a hand at shanten 0 must have a wait, and a hand with a tile
    drawn has its best discard's shanten: random hands whose melds leave kinds with no
    copy to draw, with a wild kind mostly not held (every ruleset answers what a hand
    would be were some kind wild)."""
    rs = haidi.ruleset(name)
    kinds, size = PLAYED[name]
    rnd = random.Random(48)
    checked = 0
    for _ in range(hands):
        counts, melds, held = _hand_with_melds(rnd, kinds, size)
        wild = ref.NAMES[rnd.choice(kinds)]
        text = ref.to_text(counts) + melds
        s = rs.shanten(text, wilds=wild)
        if s == 0:
            assert rs.waits(text, wilds=wild), (text, wild)
        if s < 1:
            continue
        exchanged = [
            ref.to_text([c + (t == x) - (t == d) for t, c in enumerate(counts)]) + melds
            for d in range(34)
            if counts[d]
            for x in kinds
            if x != d and held[x] < 4
        ]
        best = min(rs.shanten(h, wilds=wild) for h in exchanged)
        assert best == s - 1, (text, wild, s, best)
        drawn = rnd.choice([x for x in kinds if held[x] < 4])
        over = [c + (t == drawn) for t, c in enumerate(counts)]
        discards = [ref.to_text([c - (t == d) for t, c in enumerate(over)]) + melds for d in range(34) if over[d]]
        best_discard = min(rs.shanten(h, wilds=wild) for h in discards)
        assert rs.shanten(ref.to_text(over) + melds, wilds=wild) == best_discard, (text, wild, drawn)
        checked += 1
    assert checked > hands // 2
