"""Arrow and polars data in and out of the batch calls (docs/data.md): read as the same
columns as lists, numpy arrays and pandas DataFrames, with the same strictness, and
results given back as tables built from the numpy arrays."""

from __future__ import annotations

import random
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import haidi
from haidi import _frames

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

sys.path.insert(0, str(Path(__file__).parent.parent / "scripts"))
import situations  # noqa: E402
from mcr_peer import random_situation  # noqa: E402

RULESETS = ("mcr", "changsha", "hainan", "tangshan", "beijing", "longgang")


def random_columns(rules: str, n: int, seed: int = 21) -> dict[str, list]:
    """``n`` random situations the ruleset scores, as columns (None where a situation
    leaves a key out)."""
    rng = random.Random(seed)
    if rules == "mcr":
        sits = [random_situation(rng) for _ in range(n)]
    else:
        sits = situations.scored(rng, rules, n, haidi.ruleset(rules).evaluate, haidi.HandError)
    keys = sorted({k for s in sits for k in s})
    return {k: [s.get(k) for s in sits] for k in keys}


def same(a: dict, b: dict) -> None:
    assert set(a) == set(b)
    for k in a:
        assert np.array_equal(a[k], b[k]), k


@pytest.mark.parametrize("rules", RULESETS)
def test_arrow_columns_score_as_lists(rules: str, tmp_path: Path) -> None:
    rs = haidi.ruleset(rules)
    cols = random_columns(rules, 300)
    expected = rs.evaluate_many(cols)
    table = pa.table(cols)
    same(rs.evaluate_many(table), expected)
    # A Parquet file read back, in several chunks, with the text columns dictionary
    # encoded (categorical), as readers hand them out.
    pq.write_table(table, tmp_path / "s.parquet", row_group_size=70)
    back = pq.read_table(tmp_path / "s.parquet", read_dictionary=[k for k in cols if k != "hand"])
    assert back.column("hand").num_chunks > 1 and pa.types.is_dictionary(back.schema.field("win").type)
    same(rs.evaluate_many(back), expected)
    same(rs.evaluate_many(back.to_batches()[0]), rs.evaluate_many({k: v[:70] for k, v in cols.items()}))
    # A dict of Arrow arrays, and of chunked ones.
    same(rs.evaluate_many({k: pa.array(v) for k, v in cols.items()}), expected)
    same(rs.evaluate_many({k: back.column(k) for k in cols}), expected)


@pytest.mark.parametrize("rules", RULESETS)
def test_polars_columns_score_as_lists(rules: str) -> None:
    pl = pytest.importorskip("polars")
    rs = haidi.ruleset(rules)
    cols = random_columns(rules, 200, seed=22)
    expected = rs.evaluate_many(cols)
    frame = pl.DataFrame(cols)
    same(rs.evaluate_many(frame), expected)
    same(rs.evaluate_many({k: frame[k] for k in cols}), expected)
    # Winds as polars categoricals.
    if "seat_wind" in cols:
        same(rs.evaluate_many(frame.with_columns(pl.col("seat_wind").cast(pl.Categorical))), expected)


@pytest.mark.parametrize("rules", RULESETS)
def test_pandas_missing_values_are_keys_left_out(rules: str, tmp_path: Path) -> None:
    """A DataFrame of the columns as pandas types them (``str`` columns with NaN for None
    in pandas 3), and read from Parquet with Arrow-backed types, scores as the lists."""
    pd = pytest.importorskip("pandas")
    rs = haidi.ruleset(rules)
    cols = random_columns(rules, 200, seed=25)
    expected = rs.evaluate_many(cols)
    same(rs.evaluate_many(pd.DataFrame(cols)), expected)
    pq.write_table(pa.table(cols), tmp_path / "s.parquet")
    same(rs.evaluate_many(pd.read_parquet(tmp_path / "s.parquet", dtype_backend="pyarrow")), expected)
    same(rs.evaluate_many(pd.read_parquet(tmp_path / "s.parquet", dtype_backend="numpy_nullable")), expected)


def test_a_nan_in_a_numpy_column_is_still_refused() -> None:
    pd = pytest.importorskip("pandas")
    hn = haidi.ruleset("hainan")
    df = pd.DataFrame({"hand": ["123m456p789s1122z"] * 2, "win": ["1z"] * 2, "self_drawn": [True, float("nan")]})
    with pytest.raises(haidi.HandError, match="row 1: self_drawn must be True or False, not NaN"):
        hn.evaluate_many(df)


@pytest.mark.parametrize("rules", RULESETS)
def test_a_dataframe_with_a_column_name_twice_is_refused(rules: str) -> None:
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame([["123m456p789s1122z", "1z", True]], columns=["hand", "win", "win"])
    with pytest.raises(haidi.HandError, match="column 'win' is given twice"):
        haidi.ruleset(rules).evaluate_many(df)


@pytest.mark.parametrize("rules", RULESETS)
def test_a_masked_value_is_a_key_left_out(rules: str) -> None:
    """numpy's masked arrays: a masked value is missing, read as None (a key left out), as
    an Arrow null and pandas' missing marker are."""
    rs = haidi.ruleset(rules)
    cols = random_columns(rules, 60, seed=27)
    rng = np.random.default_rng(3)
    masked, expected = dict(cols), dict(cols)
    # Typed arrays, as the readers take numbers and flags in place: the data under a mask
    # (a wind, True) must not be read.
    typed = {
        "seat_wind": np.array(["ESWN".index(v) if isinstance(v, str) else v or 0 for v in cols["seat_wind"]]),
        "self_drawn": np.array([bool(v) for v in cols["self_drawn"]]),
    }
    for key, values in typed.items():
        mask = rng.random(60) < 0.3
        masked[key] = np.ma.masked_array(values, mask=mask)
        expected[key] = [None if m else v for v, m in zip(values.tolist(), mask, strict=True)]
    # (Some rows become bad ones, a 杠上开花 not self-drawn: their errors are the same.)
    same(rs.evaluate_many(masked, errors="collect"), rs.evaluate_many(expected, errors="collect"))
    # A masked array with nothing masked is its data.
    plain = {k: np.ma.masked_array(np.array(v, dtype=object)) for k, v in cols.items()}
    same(rs.evaluate_many(plain), rs.evaluate_many(cols))


def test_numbers_are_read_in_place() -> None:
    values = np.arange(1000, dtype=np.int64) % 4
    assert np.shares_memory(_frames.column(pa.array(values)), values)
    # A null makes the column a column of Python values, None at the null.
    read = _frames.column(pa.array([1, None, 3]))
    assert read.tolist() == [1, None, 3]


#: Bad columns beside a good hand and win: each is refused with the message the same
#: column gives as a list (the row and the column named).
BAD = {
    "a flag as text": {"self_drawn": ["False", "False", "False"]},
    "a flag as a number": {"self_drawn": [1, 0, 1]},
    "a float flag": {"self_drawn": [1.0, float("nan"), 0.0]},
    "a seat out of range": {"seat_wind": [0, 300, 1]},
    "a null hand": {"hand": ["123m456p789s1122z", None, "123m456p789s1122z"]},
    "a hand as a number": {"hand": [1, 2, 3]},
    "an unknown column": {"colour": [1, 2, 3]},
}


@pytest.mark.parametrize("rules", ("mcr", "hainan"))
@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_arrow_columns_are_refused_as_lists(rules: str, case: str) -> None:
    rs = haidi.ruleset(rules)
    cols = {"hand": ["123m456p789s1122z"] * 3, "win": ["1z"] * 3, **BAD[case]}
    with pytest.raises(haidi.HandError) as listed:
        rs.evaluate_many(cols)
    message = str(listed.value)
    assert "row" in message or "unknown" in message
    with pytest.raises(haidi.HandError) as arrow:
        rs.evaluate_many(pa.table(cols))
    assert str(arrow.value) == message
    pl = pytest.importorskip("polars")
    with pytest.raises(haidi.HandError) as polars:
        rs.evaluate_many(pl.DataFrame(cols, strict=False))
    assert str(polars.value) == message


@pytest.mark.parametrize("rules", ("mcr", "hainan"))
def test_a_null_is_a_key_left_out(rules: str) -> None:
    """As None in a situation dict: the key's default."""
    rs = haidi.ruleset(rules)
    hand, win = ["123m456p789s1122z"] * 3, ["1z"] * 3
    nulls = pa.table({"hand": hand, "win": win, "self_drawn": [True, None, None], "seat_wind": ["S", None, "E"]})
    defaults = {"hand": hand, "win": win, "self_drawn": [True, False, False], "seat_wind": ["S", "E", "E"]}
    same(rs.evaluate_many(nulls), rs.evaluate_many(defaults))
    rows = [{k: v for k, v in row.items() if v is not None} for row in nulls.to_pylist()]
    assert rs.evaluate_many(nulls)["total"].tolist() == [r["total"] for r in rs.evaluate_many(rows)]


def test_the_refusals_name_column_and_row() -> None:
    mcr, hainan = haidi.ruleset("mcr"), haidi.ruleset("hainan")
    good = {"hand": ["123m456p789s1122z"] * 3, "win": ["1z"] * 3}
    with pytest.raises(haidi.HandError, match=r"row 1: hand must be a hand \(text or a Hand\), not None"):
        mcr.evaluate_many(pa.table({**good, "hand": ["123m456p789s1122z", None, "123m456p789s1122z"]}))
    with pytest.raises(haidi.HandError, match="row 0: self_drawn must be True or False, not 'False'"):
        hainan.evaluate_many(pa.table({**good, "self_drawn": ["False"] * 3}))
    with pytest.raises(haidi.HandError, match='unknown column "colour"'):
        hainan.evaluate_many(pa.table({**good, "colour": [1, 2, 3]}))
    with pytest.raises(haidi.HandError, match="row 2: hand must be a hand"):
        hainan.evaluate_many(pa.table({"hand": ["123m456p789s1122z"] * 2 + [None], "win": ["1z"] * 3}))
    # Types no key takes are read as their Python values, and refused by row.
    dates = pa.array([0, 1, 2], type=pa.timestamp("s"))
    with pytest.raises(haidi.HandError, match="row 0: self_drawn"):
        hainan.evaluate_many(pa.table({**good, "self_drawn": dates}))
    with pytest.raises(haidi.HandError, match="given twice"):
        hainan.evaluate_many(
            pa.Table.from_arrays([pa.array(good["hand"])] * 2 + [pa.array(good["win"])], names=["hand", "hand", "win"])
        )


def fan_columns(rs: haidi.Ruleset) -> list[str]:
    return [f"fan_{0 if i is None else i}" for i in rs.fan_ids]


@pytest.mark.parametrize("rules", ("mcr", "longgang"))
def test_results_as_tables(rules: str) -> None:
    rs = haidi.ruleset(rules)
    cols = random_columns(rules, 5000, seed=23)
    arrays = rs.evaluate_many(cols)
    fans = fan_columns(rs)
    assert rules != "mcr" or fans[:2] == ["fan_0", "fan_1"] and fans[-1] == "fan_81"
    assert rules != "longgang" or "fan_self_drawn" in fans
    t = rs.evaluate_many(cols, output="arrow")
    assert t.column_names == ["win", "total", *fans]
    assert t.schema.field("win").type == pa.bool_() and t.schema.field("total").type == pa.int32()
    assert t.column("win").to_pylist() == arrays["win"].tolist()
    assert t.column("total").to_numpy().tolist() == arrays["total"].tolist()
    counts = np.column_stack([t.column(f).to_numpy() for f in fans])
    assert counts.dtype == np.uint8 and np.array_equal(counts, arrays["fans"])
    assert rs.evaluate_many(cols, output="numpy").keys() == arrays.keys()
    df = rs.evaluate_many(cols, output="pandas")
    assert df.columns.tolist() == ["win", "total", *fans]
    assert df["total"].tolist() == arrays["total"].tolist() and df["win"].dtype == bool
    assert np.array_equal(df[fans].to_numpy(), arrays["fans"])
    pl = pytest.importorskip("polars")
    frame = rs.evaluate_many(pa.table(cols), output="polars")
    assert frame.columns == ["win", "total", *fans] and frame.schema["fan_0" if rules == "mcr" else fans[0]] == pl.UInt8
    assert np.array_equal(frame.select(fans).to_numpy(), arrays["fans"])
    assert frame["win"].to_list() == arrays["win"].tolist()


def test_the_columns_are_those_of_the_options() -> None:
    """An optional pattern is a column more, named by its id."""
    lg = haidi.ruleset("longgang")
    cols = random_columns("longgang", 200, seed=24)
    options = {"optional": ("one_dragon",)}
    arrays = lg.evaluate_many(cols, options=options)
    t = lg.evaluate_many(pa.table(cols), options=options, output="arrow")
    fans = [c for c in t.column_names if c.startswith("fan_")]
    assert len(fans) == len(lg.fan_ids) + 1 == arrays["fans"].shape[1] and "fan_one_dragon" in fans
    assert np.array_equal(np.column_stack([t.column(f).to_numpy() for f in fans]), arrays["fans"])


def test_no_rows_give_empty_tables() -> None:
    for rules in RULESETS:
        t = haidi.ruleset(rules).evaluate_many({"hand": [], "win": []}, errors="collect", output="arrow")
        assert t.num_rows == 0 and t.column_names[:2] == ["win", "total"] and t.column_names[-1] == "error"
        assert haidi.ruleset(rules).evaluate_many([], errors="collect") == []


def test_collected_errors_are_a_text_column() -> None:
    ts = haidi.ruleset("tangshan")
    cols = {"hand": ["123m456p789s1112z"] * 2, "win": ["2z", "3z"], "self_drawn": [True, "no"]}
    expected = ts.evaluate_many(cols, errors="collect")["error"].tolist()
    assert expected[0] is None and "self_drawn" in expected[1]
    t = ts.evaluate_many(cols, errors="collect", output="arrow")
    assert t.schema.field("error").type == pa.string() and t.column("error").to_pylist() == expected
    pl = pytest.importorskip("polars")
    frame = ts.evaluate_many(cols, errors="collect", output="polars")
    assert frame.schema["error"] == pl.String and frame["error"].to_list() == expected
    df = ts.evaluate_many(cols, errors="collect", output="pandas")
    assert df["error"].isna().tolist() == [True, False] and df["error"][1] == expected[1]


def test_output_is_checked() -> None:
    rs = haidi.ruleset("mcr")
    cols = {"hand": ["123m456p789s1122z"], "win": ["1z"]}
    with pytest.raises(haidi.HandError, match="output must be one of"):
        rs.evaluate_many(cols, output="xml")
    with pytest.raises(haidi.HandError, match="output='json' is for a list of situations"):
        rs.evaluate_many(cols, output="json")
    with pytest.raises(haidi.HandError, match="output is for columns"):
        rs.evaluate_many([{"hand": "123m456p789s1122z", "win": "1z"}], output="arrow")
    with pytest.raises(haidi.HandError, match="output must be one of"):
        rs.win_batch(np.zeros((1, 34), np.uint8), output=1)


def random_counts(n: int, size: int, seed: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 34), np.uint8)
    for row in out:
        np.add.at(row, rng.choice(136, size, replace=False) // 4, 1)
    return out


def test_batch_calls_take_arrow_rows() -> None:
    rs = haidi.ruleset("mcr")
    c14, c13 = random_counts(300, 14), random_counts(300, 13, seed=5)
    lists = pa.FixedSizeListArray.from_arrays(pa.array(c14.ravel()), 34)
    forms = [
        lists,
        pa.chunked_array([lists[:100], lists[100:]]),
        pa.array(c14.tolist()),  # a variable-size list column
        pa.table({"counts": lists}),
        pa.table({f"k{i}": c14[:, i] for i in range(34)}),  # one column per kind
    ]
    for rows in forms:
        assert np.array_equal(rs.win_batch(rows), rs.win_batch(c14))
        assert np.array_equal(rs.shanten_batch(rows), rs.shanten_batch(c14))
    shanten, useful = rs.analyze_batch(lists, visible=pa.array(c13[:1].tolist()))
    expected = rs.analyze_batch(c14, visible=c13[:1])
    assert np.array_equal(shanten, expected[0]) and np.array_equal(useful, expected[1])
    waits = pa.FixedSizeListArray.from_arrays(pa.array(c13.ravel()), 34)
    assert np.array_equal(rs.waits_batch(waits), rs.waits_batch(c13))
    melds = np.zeros(300, np.int64)
    assert np.array_equal(rs.win_batch(c14, melds=pa.array(melds)), rs.win_batch(c14, melds=melds))


def test_batch_results_as_tables() -> None:
    rs = haidi.ruleset("mcr")
    c14, c13 = random_counts(200, 14), random_counts(200, 13, seed=6)
    kinds = haidi.tile_names()
    t = rs.win_batch(c14, output="arrow")
    assert t.column_names == ["win"] and t.column("win").to_pylist() == rs.win_batch(c14).tolist()
    t = rs.waits_batch(c13, output="arrow")
    assert t.column_names == [f"waits_{k}" for k in kinds] and t.schema.field("waits_1m").type == pa.bool_()
    assert np.array_equal(np.column_stack([c.to_numpy(zero_copy_only=False) for c in t.columns]), rs.waits_batch(c13))
    shanten, useful = rs.analyze_batch(c14)
    t = rs.analyze_batch(c14, output="arrow")
    assert t.column_names == [f"shanten_{k}" for k in kinds] + [f"useful_{k}" for k in kinds]
    assert np.array_equal(np.column_stack([t.column(f"useful_{k}").to_numpy() for k in kinds]), useful)
    assert t.schema.field("shanten_5p").type == pa.int8() and t.schema.field("useful_5p").type == pa.int16()
    assert rs.shanten_batch(c14, output="pandas")["shanten"].tolist() == rs.shanten_batch(c14).tolist()
    pl = pytest.importorskip("polars")
    frame = rs.analyze_batch(pl.Series(c14), output="polars")
    assert np.array_equal(frame.select(pl.col("^shanten_.*$")).to_numpy(), shanten)


def test_bad_arrow_rows_are_refused_by_row() -> None:
    rs = haidi.ruleset("mcr")
    c = random_counts(10, 14).tolist()
    short = [list(r) for r in c]
    short[3] = short[3][:33]
    with pytest.raises(haidi.HandError, match="row 3: 33 values of tile counts, where row 0 has 34"):
        rs.win_batch(pa.array(short))
    missing = list(c)
    missing[5] = None
    with pytest.raises(haidi.HandError, match="row 5: tile counts is null"):
        rs.win_batch(pa.array(missing))
    holes = [list(r) for r in c]
    holes[7][3] = None
    with pytest.raises(haidi.HandError, match="row 7: tile counts holds a null"):
        rs.win_batch(pa.array(holes))
    with pytest.raises(haidi.HandError, match="tile counts must be integers, got Arrow type double"):
        rs.win_batch(pa.array(np.asarray(c, dtype=float).tolist()))
    with pytest.raises(haidi.HandError, match="row 9: melds is null"):
        rs.win_batch(np.asarray(c, np.uint8), melds=pa.array([0] * 9 + [None]))
    c[2][0] = 5
    with pytest.raises(haidi.HandError, match="row 2: 5 copies"):
        rs.win_batch(pa.array(c))


def test_pandas_arrays_are_read_as_their_series() -> None:
    """A pandas array (``pd.Categorical``, ``pd.array``) as a column is read as the same
    values in a Series: a missing value is a key left out."""
    pd = pytest.importorskip("pandas")
    rs = haidi.ruleset("mcr")
    cols = random_columns("mcr", 50)
    expected = rs.evaluate_many(cols)["total"].tolist()
    seats = [None if i % 7 == 0 else w for i, w in enumerate(cols["seat_wind"])]
    with_gaps = rs.evaluate_many({**cols, "seat_wind": seats})["total"].tolist()
    for array in (pd.Categorical, lambda v: pd.array(v, dtype="string"), lambda v: pd.Series(v, dtype="category")):
        assert rs.evaluate_many({**cols, "seat_wind": array(cols["seat_wind"])})["total"].tolist() == expected
        assert rs.evaluate_many({**cols, "seat_wind": array(seats)})["total"].tolist() == with_gaps
    flowers = pd.array(cols["flowers"], dtype="Int8")
    assert rs.evaluate_many({**cols, "flowers": flowers})["total"].tolist() == expected


def test_polars_data_arrow_cannot_hold_is_refused() -> None:
    pl = pytest.importorskip("polars")
    rs = haidi.ruleset("mcr")
    frame = pl.DataFrame({"hand": ["123m456p789s1122z"], "win": ["2z"], "flowers": [2**70]})
    with pytest.raises(haidi.HandError, match="polars data that Arrow cannot hold"):
        rs.evaluate_many(frame)
    with pytest.raises(haidi.HandError, match="polars data that Arrow cannot hold"):
        rs.evaluate_many({"hand": ["123m456p789s1122z"], "win": ["2z"], "flowers": frame["flowers"]})


def test_a_polars_lazy_frame_is_refused_without_a_warning() -> None:
    """A LazyFrame is named (collect it first), and asking what it is warns of nothing:
    polars warns when a LazyFrame's columns are asked for."""
    pl = pytest.importorskip("polars")
    lazy = pl.DataFrame({"hand": ["123m456p789s1122z"], "win": ["2z"]}).lazy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(haidi.HandError, match="not a LazyFrame"):
            haidi.ruleset("mcr").evaluate_many(lazy)


@pytest.mark.parametrize("rules", ["mcr", "changsha"])
def test_a_masked_value_is_a_value_left_out_on_every_path(rules: str) -> None:
    """numpy's masked constant reads as None (a key left out) in a call and a list, as a
    masked row of a column does."""
    rs = haidi.ruleset(rules)
    s = {"mcr": dict(hand="123m456p789s1122z", win="2z")}.get(rules, dict(hand="123m456p789s2255m", win="5m"))
    plain = rs.evaluate(**s)
    assert rs.evaluate(**s, self_drawn=np.ma.masked) == plain
    assert rs.evaluate_many([{**s, "self_drawn": np.ma.masked}])[0] == plain
    masked = np.ma.masked_array([True, True, True], mask=[0, 1, 0])
    cols = rs.evaluate_many({"hand": [s["hand"]] * 3, "win": [s["win"]] * 3, "self_drawn": masked})
    assert cols["total"][1] == plain.total


def test_a_dataframe_of_situations_scores_as_the_situations_once_its_types_are_pandas() -> None:
    # pd.DataFrame(situations) makes a float column of a key some situations leave out
    # (1.0 and NaN): refused, quoting the float; convert_dtypes() gives pandas' own types.
    pd = pytest.importorskip("pandas")
    rs = haidi.ruleset("hainan")
    h, w = "123m456p789s1122z", "1z"
    sits = [dict(hand=h, win=w, seat=1), dict(hand=h, win=w, self_drawn=True), dict(hand=h, win=w, flowers="1f")]
    with pytest.raises(haidi.HandError, match=r"not 1\.0$"):
        rs.evaluate_many(pd.DataFrame(sits))
    got = rs.evaluate_many(pd.DataFrame(sits).convert_dtypes())
    assert got["total"].tolist() == [r["total"] for r in rs.evaluate_many(sits)]
    # Every key in every row: from_pylist takes its columns from the first row alone.
    keys = sorted({k for s in sits for k in s})
    table = pa.Table.from_pylist([{k: s.get(k) for k in keys} for s in sits])
    assert rs.evaluate_many(table)["total"].tolist() == got["total"].tolist()


def _complete_row() -> np.ndarray:
    c = np.zeros((1, 34), np.uint8)
    c[0, [0, 1, 2, 9, 10, 11, 18, 19, 20]] = 1
    c[0, 27], c[0, 28] = 3, 2
    return c


def test_batch_rows_named_by_kind_are_read_by_name() -> None:
    pd = pytest.importorskip("pandas")
    mcr = haidi.ruleset("mcr")
    c = _complete_row()
    names = haidi.tile_names()
    reversed_table = pa.table({n: pa.array(c[:, i]) for i, n in reversed(list(enumerate(names)))})
    assert mcr.win_batch(reversed_table).tolist() == [True]
    frame = pd.DataFrame({n: c[:, i] for i, n in reversed(list(enumerate(names)))})
    assert mcr.win_batch(frame).tolist() == [True]
    # Some kinds named but not all: refused, never read by place.
    partly = pa.table({("x" if i == 0 else n): pa.array(c[:, i]) for i, n in enumerate(names)})
    with pytest.raises(haidi.HandError, match="1m is missing"):
        mcr.win_batch(partly)
    # Names that are no kinds: in tile order, as documented.
    plain = pa.table({f"c{i}": pa.array(c[:, i]) for i in range(34)})
    assert mcr.win_batch(plain).tolist() == [True]


def test_batch_rows_read_a_mask_and_take_no_rows() -> None:
    mcr = haidi.ruleset("mcr")
    c = _complete_row()
    with pytest.raises(haidi.HandError) as e:
        mcr.win_batch(np.ma.array(c, mask=np.ones_like(c, dtype=bool)))
    assert e.value.row == 0
    assert mcr.win_batch(np.ma.array(c, mask=np.zeros_like(c, dtype=bool))).tolist() == [True]
    with pytest.raises(haidi.HandError) as e:
        mcr.win_batch(np.repeat(c, 3, axis=0), melds=np.ma.array([0, 9, 0], mask=[0, 1, 0]))
    assert (e.value.key, e.value.row) == ("melds", 1)
    for empty in ([], np.zeros((0, 34), np.uint8), pa.array([], pa.list_(pa.uint8(), 34))):
        assert mcr.win_batch(empty).tolist() == []
    assert mcr.shanten_batch(np.zeros((0, 34), np.uint8), melds=[]).tolist() == []
    with pytest.raises(haidi.HandError, match="^visible") as e:
        mcr.analyze_batch(c, visible=np.zeros((1, 33), np.uint8))
    assert e.value.key == "visible"


@pytest.mark.parametrize("rules", ["mcr", "hainan"])
def test_a_column_at_fault_is_named(rules: str) -> None:
    rs = haidi.ruleset(rules)
    h, w = "123m456p789s1122z", "1z"
    for columns, key in (
        ({"hand": [h, h], "win": [w]}, "win"),
        ({"hand": [h], "win": [w], "Seat": [1]}, "Seat"),
        ({"hand": [h], "win": [w], "flowers": np.array([9], np.uint8)}, "flowers"),
    ):
        with pytest.raises(haidi.HandError) as e:
            rs.evaluate_many(columns)
        assert e.value.key == key
        assert repr(key) in str(e.value).replace('"', "'") or str(e.value).endswith("not 9")


def test_melds_as_a_pandas_column_name_a_missing_row() -> None:
    pd = pytest.importorskip("pandas")
    mcr = haidi.ruleset("mcr")
    c = np.repeat(_complete_row(), 3, axis=0)
    with pytest.raises(haidi.HandError) as e:
        mcr.win_batch(c, melds=pd.Series([0, None, 0], dtype="Int64"))
    assert (e.value.key, e.value.row) == ("melds", 1)
    assert mcr.win_batch(c, melds=pd.Series([0, 0, 0], dtype="Int64")).tolist() == [True] * 3
