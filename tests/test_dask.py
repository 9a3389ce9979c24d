"""A Parquet dataset scored on a local Dask cluster of two worker processes (haidi.dask,
docs/data.md) gives what ``evaluate_many`` gives on the same rows in this process."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import haidi

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
haidi_dask = pytest.importorskip("haidi.dask")

from test_frames import RULESETS, random_columns  # noqa: E402


@pytest.fixture(scope="module")
def client():
    """Two worker processes of one thread each, on this machine's loopback address."""
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


def dataset(folder: Path, rules: str, n: int, files: int = 3, seed: int = 31) -> pa.Table:
    """``n`` random situations of ``rules`` with a ``game`` id, written to ``files``
    Parquet files in ``folder``; the table written."""
    cols = random_columns(rules, n, seed=seed)
    table = pa.table({"game": np.arange(n, dtype=np.int64), **cols})
    folder.mkdir()
    step = -(-n // files)
    for i in range(files):
        pq.write_table(table.slice(i * step, step), folder / f"part-{i}.parquet")
    return table


def by_game(table: pa.Table) -> pa.Table:
    return table.sort_by("game")


@pytest.mark.parametrize("rules", RULESETS)
def test_a_parquet_dataset_scores_on_the_cluster_as_here(client, tmp_path: Path, rules: str) -> None:
    table = dataset(tmp_path / "in", rules, 1000)
    expected = haidi.ruleset(rules).evaluate_many(table.drop_columns(["game"]))
    assert haidi_dask.score_parquet(tmp_path / "in", rules, destination=tmp_path / "out", keep=["game"]) is None
    got = by_game(pq.read_table(tmp_path / "out"))
    fans = [f"fan_{0 if i is None else i}" for i in haidi.ruleset(rules).fan_ids]
    assert got.column_names == ["game", "win", "total", *fans]
    assert got.column("game").to_pylist() == list(range(1000))
    assert got.column("win").to_pylist() == expected["win"].tolist()
    assert got.column("total").to_pylist() == expected["total"].tolist()
    assert np.array_equal(np.column_stack([got.column(f).to_numpy() for f in fans]), expected["fans"])
    # The work was spread over both workers.
    assert len(client.scheduler_info()["workers"]) == 2


def test_results_come_back_lazily_with_options(client, tmp_path: Path) -> None:
    table = dataset(tmp_path / "in", "longgang", 600, files=2)
    situations = table.drop_columns(["game"])
    options = {"optional": ("one_dragon",)}
    expected = haidi.ruleset("longgang").evaluate_many(situations, options=options)
    lazy = haidi_dask.score_parquet(tmp_path / "in", "longgang", options=options, keep=["game"])
    got = lazy.compute().sort_values("game")
    assert got["total"].tolist() == expected["total"].tolist()
    # The optional pattern is one column more.
    fans = [c for c in got.columns if c.startswith("fan_")]
    assert len(fans) == len(haidi.ruleset("longgang").fan_ids) + 1 == expected["fans"].shape[1]
    assert np.array_equal(got[fans].to_numpy(), expected["fans"])
    # The options count: without them some totals differ.
    assert got["total"].tolist() != haidi.ruleset("longgang").evaluate_many(situations)["total"].tolist()


def test_a_bad_row_is_named_or_collected(client, tmp_path: Path) -> None:
    table = dataset(tmp_path / "in", "hainan", 300, files=1)
    hands = table.column("hand").to_pylist()
    hands[157] = "123m456p789s11x"
    bad = table.set_column(table.column_names.index("hand"), "hand", pa.array(hands))
    (tmp_path / "bad").mkdir()
    pq.write_table(bad.slice(0, 150), tmp_path / "bad" / "part-0.parquet")
    pq.write_table(bad.slice(150), tmp_path / "bad" / "part-1.parquet")
    # Named by its partition (a file here) and its row in it.
    with pytest.raises(haidi.HandError, match="^partition 1: row 7: "):
        haidi_dask.score_parquet(tmp_path / "bad", "hainan", keep=["game"]).compute()
    got = haidi_dask.score_parquet(tmp_path / "bad", "hainan", keep=["game"], errors="collect").compute()
    errors = got.set_index("game")["error"]
    assert "'x'" in errors[157] and errors.isna().sum() == 299


def test_the_map_partitions_recipe(client, tmp_path: Path) -> None:
    """The partition function and its meta, as a user calls them on a frame of their own."""
    import dask.dataframe as dd

    table = dataset(tmp_path / "in", "tangshan", 400, files=2)
    frame = dd.read_parquet(tmp_path / "in", dtype_backend="pyarrow")
    frame = frame[frame["game"] >= 150]
    meta = haidi_dask.result_meta("tangshan", keep=frame[["game"]])
    scored = frame.map_partitions(haidi_dask.score_partition, "tangshan", keep=["game"], meta=meta)
    got = scored.compute().sort_values("game")
    rest = table.slice(150)
    expected = haidi.ruleset("tangshan").evaluate_many(rest.drop_columns(["game"]))
    assert got["game"].tolist() == rest.column("game").to_pylist()
    assert got["total"].tolist() == expected["total"].tolist()


def test_keep_may_not_hide_a_result(tmp_path: Path) -> None:
    with pytest.raises(haidi.HandError, match="'total' is also the name of a result column"):
        haidi_dask.score_parquet(tmp_path, "mcr", keep=["total"])


def test_a_partition_is_read_as_pandas_columns_are(client) -> None:
    """A NaN in a float column of a frame of one's own is a value, and refused; None in a
    text column is a key left out."""
    import dask.dataframe as dd
    import pandas as pd

    hand, win = ["123m456p789s1122z"] * 4, ["1z"] * 4
    left_out = pd.DataFrame({"hand": hand, "win": win, "seat_wind": ["S", None, "E", None]})
    frame = dd.from_pandas(left_out, npartitions=2)
    got = frame.map_partitions(haidi_dask.score_partition, "hainan", meta=haidi_dask.result_meta("hainan"))
    expected = haidi.ruleset("hainan").evaluate_many(left_out)
    assert got.compute()["total"].tolist() == expected["total"].tolist()
    # A float column (what a CSV's empty cells make of a flag column): its NaN is refused.
    nan = pd.DataFrame({"hand": hand, "win": win, "self_drawn": [float("nan")] * 4})
    frame = dd.from_pandas(nan, npartitions=2)
    got = frame.map_partitions(haidi_dask.score_partition, "hainan", meta=haidi_dask.result_meta("hainan"))
    with pytest.raises(haidi.HandError, match="^partition [01]: row 0: self_drawn must be True or False, not NaN"):
        got.compute()


def test_bad_keep_and_partition_info_are_hand_errors():
    import pandas as pd

    frame = pd.DataFrame({"hand": ["123m456p789s1122z"], "win": ["1z"], "game": [7]})
    bad = [([0], "a column name is a str"), ("game", "a list of column names"), (["x"], "no column 'x'")]
    for keep, message in bad:
        with pytest.raises(haidi.HandError, match=message):
            haidi_dask.score_partition(frame, "mcr", keep=keep)
    with pytest.raises(haidi.HandError, match="partition_info is Dask's"):
        haidi_dask.score_partition(frame, "mcr", keep=["game"], partition_info={})
    with pytest.raises(haidi.HandError, match="as a DataFrame, not int"):
        haidi_dask.result_meta("mcr", keep=5)
    # Dask's own partition_info is taken.
    got = haidi_dask.score_partition(frame, "mcr", keep=["game"], partition_info={"number": 0, "division": None})
    assert list(got["game"]) == [7] and bool(got["win"][0])


def test_names_and_partitions_are_read_strictly(tmp_path: Path) -> None:
    """Column names are checked before anything is read: a name given twice, one the
    dataset lacks, or columns given as a str are HandErrors, not pandas' or Dask's own;
    so is a partition that is not a DataFrame."""
    import pandas as pd

    dataset(tmp_path / "in", "mcr", 50, files=1)
    for kwargs, named in [
        ({"keep": ["game", "game"]}, "'game' is given twice"),
        ({"keep": ["nope"]}, "the dataset has no column 'nope'"),
        ({"columns": ["nope"]}, "the dataset has no column 'nope'"),
        ({"columns": "hand"}, "columns is a list of column names"),
        ({"columns": 5}, "columns is a list of column names"),
    ]:
        with pytest.raises(haidi.HandError, match=named):
            haidi_dask.score_parquet(tmp_path / "in", "mcr", **kwargs)
    for frame in (None, {"hand": ["123m"]}, [1]):
        with pytest.raises(haidi.HandError, match="a partition is a pandas DataFrame"):
            haidi_dask.score_partition(frame, "mcr")
    with pytest.raises(haidi.HandError, match="also the name of a result column"):
        haidi_dask.result_meta("mcr", keep=pd.DataFrame({"win": [True]}))


def test_a_partition_names_the_key_and_row_and_a_column_given_twice() -> None:
    pd = pytest.importorskip("pandas")
    h, w = "123m456p789s1122z", "1z"
    with pytest.raises(haidi.HandError) as e:
        haidi_dask.score_partition(pd.DataFrame({"hand": ["bad"], "win": [w]}), "hainan", partition_info={"number": 3})
    assert str(e.value).startswith("partition 3: row 0:")
    assert (e.value.key, e.value.row) == ("hand", 0)
    frame = pd.DataFrame([[1, 1, h, w]], columns=["game", "game", "hand", "win"])
    with pytest.raises(haidi.HandError, match="two columns named 'game'") as e:
        haidi_dask.score_partition(frame, "hainan", keep=["game"])
    assert e.value.key == "game"
