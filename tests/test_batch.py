"""Batch entry points: shapes, dtypes, validation, melds, wilds."""

import numpy as np
import pytest

import haidi
from haidi import HandError

import reference as ref

mcr = haidi.ruleset("mcr")


def rows(*texts):
    return np.array([ref.counts_of(t) for t in texts], dtype=np.uint8)


def test_batch_answers():
    c = rows("1112345678999m", "1111m234p567p789p", "123m456p789s1234z")
    assert mcr.shanten_batch(c).tolist() == [0, 1, 2]
    w = mcr.waits_batch(c)
    assert w.dtype == np.bool_ and w.shape == (3, 34)
    assert w[0, :9].all() and not w[1:].any()
    assert mcr.win_batch(rows("11123455678999m", "11123456789999m")).tolist() == [True, True]


@pytest.mark.parametrize("bad", [5, 200, 255])
def test_counts_over_four_are_refused_with_the_row(bad):
    c = rows("1112345678999m", "1112345678999m")
    c[1, 3] = bad
    c[1, 0] = 0
    with pytest.raises(HandError, match=f"row 1: {bad} copies of 4m"):
        mcr.shanten_batch(c)


def test_any_integer_dtype_and_range_checks():
    c = rows("1112345678999m").astype(np.int64)
    assert mcr.shanten_batch(c).tolist() == [0]
    c[0, 0] = -1
    with pytest.raises(HandError, match="row 0"):
        mcr.shanten_batch(c)
    with pytest.raises(HandError, match="integers"):
        mcr.shanten_batch(np.zeros((1, 34), dtype=float))
    with pytest.raises(HandError, match="n x 34"):
        mcr.shanten_batch(np.zeros((2, 33), dtype=np.uint8))
    # A single row may be given flat.
    assert mcr.waits_batch(ref.counts_of("1112345678999m")).shape == (1, 34)


def test_sizes_and_tile_sets_are_checked():
    with pytest.raises(HandError, match="row 0: 13 tiles"):
        mcr.win_batch(rows("1112345678999m"))
    with pytest.raises(HandError, match="not played in changsha"):
        haidi.ruleset("changsha").shanten_batch(rows("111234567899m1z"))


def test_declared_melds_and_wilds():
    # Ten concealed tiles plus one declared meld.
    c = rows("1m234p567p789p")
    assert np.flatnonzero(mcr.waits_batch(c, melds=[1])[0]).tolist() == [0]
    assert mcr.shanten_batch(rows("123456789m11p2z7z"), wilds="7z").tolist() == [0]
    with pytest.raises(HandError, match="one integer per row"):
        mcr.shanten_batch(c, melds=[1, 2])


def test_parallel_and_serial_agree(monkeypatch):
    rng = np.random.default_rng(0)
    hands = [rng.choice(136, 13, replace=False) // 4 for _ in range(5000)]
    c = np.zeros((len(hands), 34), dtype=np.uint8)
    for i, h in enumerate(hands):
        np.add.at(c[i], h, 1)
    parallel = mcr.shanten_batch(c)
    monkeypatch.setenv("HAIDI_PARALLELISM", "0")
    assert (mcr.shanten_batch(c) == parallel).all()


@pytest.mark.parametrize("melds", [256, -1, 6])
def test_declared_meld_counts_out_of_range_are_refused(melds):
    # 256 wrapped to 0 in a byte: a hand of 14 tiles "with 256 melds" was a win.
    mcr = haidi.ruleset("mcr")
    counts = np.zeros((2, 34), dtype=np.uint8)
    counts[:, :5] = [3, 3, 3, 3, 2]
    with pytest.raises(haidi.HandError, match=f"row 1: {melds} declared melds"):
        mcr.win_batch(counts, melds=np.array([0, melds]))


@pytest.mark.parametrize("rules", ["mcr", "changsha"])
def test_a_uint64_past_int64_is_named_by_its_own_digits(rules):
    rs = haidi.ruleset(rules)
    big = 2**64 - 1
    row = {"hand": "123m456p789s1122m", "win": "1m"}
    for call in [
        lambda: rs.evaluate_many({"hand": [row["hand"]], "win": ["1m"], "flowers": np.array([big], dtype=np.uint64)}),
        lambda: rs.evaluate_many([{**row, "flowers": np.uint64(big)}]),
        lambda: rs.evaluate_many([{**row, "flowers": big}]),
        lambda: rs.evaluate(**row, flowers=big),
    ]:
        with pytest.raises(HandError, match=str(big)) as e:
            call()
        assert "-1" not in str(e.value)
    if rules == "mcr":
        # A uint64 column within int64's range is read as before.
        flowers = np.array([2], dtype=np.uint64)
        assert rs.evaluate_many({"hand": [row["hand"]], "win": ["1m"], "flowers": flowers})["total"][0] > 0
