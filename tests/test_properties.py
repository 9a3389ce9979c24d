"""Properties checked against tests/reference.py, a plain brute force written apart from
the engine's tables."""

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import haidi

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
