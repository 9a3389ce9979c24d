"""Scoring a Parquet dataset on a Dask cluster (``pip install 'haidi[dask]'``).

Each partition of the dataset is scored by ``evaluate_many`` in the worker that read it
(docs/data.md); only the results travel. The ruleset goes to the workers by its name and
options, and each worker process builds it once::

    from dask.distributed import Client, LocalCluster
    import haidi.dask

    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster):
        haidi.dask.score_parquet("hands/", "mcr", destination="scores/", keep=["game"])

Without a client, Dask runs the partitions in threads of this process.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._core import HandError
from ._errors import hand_error, shown
from .ruleset import ruleset


def score_partition(
    frame: Any,
    rules: str,
    *,
    options: Any = None,
    format: str = "compact",
    errors: str = "raise",
    columns: Sequence[str] | None = None,
    keep: Sequence[str] = (),
    partition_info: dict[str, Any] | None = None,
) -> Any:
    """Scores one partition: a pandas DataFrame of situation columns, as
    ``ddf.map_partitions(score_partition, "mcr", meta=result_meta("mcr"))`` hands it.

    Args:
        rules: the ruleset's name (``haidi.RULESETS``).
        options, format, errors: as for ``evaluate_many``.
        columns: the situation columns (default: every column not in ``keep``).
        keep: columns copied to the result as they are (an id to join on).
        partition_info: given by Dask; a bad row is then named by its partition and its
            row in it (``partition 3: row 7: ...``).

    Returns:
        A pandas DataFrame with the partition's index: the ``keep`` columns, then
        ``win``, ``total``, a column ``fan_<id>`` of counts for each of the ruleset's
        ``fan_ids`` and, with ``errors="collect"``, ``error``.
    """
    frame = _frame(frame)
    keep = _keep_list(keep)
    _check_keep(keep)
    columns = None if columns is None else _keep_list(columns, "columns")
    if partition_info is not None and not (
        isinstance(partition_info, dict) and type(partition_info.get("number")) is int
    ):
        raise HandError("partition_info is Dask's: a dict whose 'number' is the partition's")
    names = list(columns) if columns is not None else [c for c in frame.columns if c not in keep]
    missing = [c for c in [*keep, *names] if c not in frame.columns]
    if missing:
        raise hand_error(f"the partition has no column {shown_name(missing[0])}", key=str(missing[0]))
    given = list(frame.columns)
    twice = [c for c in [*keep, *names] if given.count(c) > 1]
    if twice:
        raise hand_error(f"the partition has two columns named {shown_name(twice[0])}", key=str(twice[0]))
    try:
        out = ruleset(rules).evaluate_many(frame[names], options=options, format=format, errors=errors, output="pandas")
    except HandError as e:
        if partition_info is None:
            raise
        # Led by the partition, still naming the key and the row in it.
        error = HandError(f"partition {partition_info['number']}: {e}")
        error.key, error.row = e.key, e.row
        raise error from None
    out.index = frame.index
    for i, k in enumerate(keep):
        out.insert(i, k, frame[k].array)
    return out


def result_meta(rules: str, *, options: Any = None, errors: str = "raise", keep: Any = None) -> Any:
    """The empty DataFrame that :func:`score_partition` returns for ``rules`` and
    ``options`` (which may add patterns, so columns): Dask's ``meta``. ``keep``: the kept
    columns, as a pandas or Dask DataFrame (their types)."""
    out = ruleset(rules).evaluate_many({"hand": [], "win": []}, options=options, errors=errors, output="pandas")
    if keep is not None:
        keep = getattr(keep, "_meta", keep)
        if not (hasattr(keep, "iloc") and hasattr(keep, "columns")):
            raise HandError(f"keep is the kept columns as a DataFrame, not {type(keep).__name__}")
        keep = keep.iloc[:0]
        _check_keep(_keep_list(list(keep.columns)))
        out.index = keep.index
        for i, k in enumerate(keep.columns):
            out.insert(i, k, keep[k].array)
    return out


def score_parquet(
    source: Any,
    rules: str,
    *,
    destination: Any = None,
    options: Any = None,
    format: str = "compact",
    errors: str = "raise",
    columns: Sequence[str] | None = None,
    keep: Sequence[str] = (),
    **read_parquet: Any,
) -> Any:
    """Scores the situations of a Parquet dataset (a file, a folder of files, a glob or a
    list of them), a partition at a time on the current Dask client's workers.

    Args:
        source: what ``dask.dataframe.read_parquet`` reads.
        rules: the ruleset's name.
        destination: where to write the results as Parquet (one file a partition); the
            call then returns when they are written. Without it, the lazy Dask DataFrame
            of the results is returned (``.compute()`` it, or go on with it).
        options, format, errors: as for ``evaluate_many``.
        columns: the situation columns to read (default: every column not in ``keep``).
        keep: columns copied to the results (an id to join them back on).
        read_parquet: passed to ``dask.dataframe.read_parquet`` (``blocksize``,
            ``filters``, ``storage_options`` ...).

    Returns:
        The results (as :func:`score_partition` gives them), or None with ``destination``.
    """
    import dask.dataframe as dd

    keep = _keep_list(keep)
    _check_keep(keep)
    columns = None if columns is None else _keep_list(columns, "columns")
    wanted = None if columns is None else list(dict.fromkeys([*keep, *columns]))
    # Arrow-backed columns: read and handed to the scorer without Python objects per row.
    read_parquet.setdefault("dtype_backend", "pyarrow")
    frame = dd.read_parquet(source, **read_parquet)
    # The names are checked against the dataset's (its metadata: nothing is read yet).
    missing = [c for c in (wanted or keep) if c not in frame.columns]
    if missing:
        raise hand_error(f"the dataset has no column {shown_name(missing[0])}", key=str(missing[0]))
    if wanted is not None:
        frame = frame[wanted]
    meta = result_meta(rules, options=options, errors=errors, keep=frame[keep] if keep else None)
    scored = frame.map_partitions(
        score_partition,
        rules,
        options=options,
        format=format,
        errors=errors,
        columns=None if columns is None else list(columns),
        keep=keep,
        meta=meta,
    )
    if destination is None:
        return scored
    scored.to_parquet(destination, write_index=False)
    return None


def shown_name(name: Any) -> str:
    """A column's name in a message: quoted, any character that is not text escaped."""
    return ascii(name) if isinstance(name, str) else repr(name)


def _keep_list(keep: Any, what: str = "keep") -> list[str]:
    """``keep`` (or ``columns``, as ``what``) as a list of column names, each once;
    ``HandError`` for anything else."""
    if isinstance(keep, (str, bytes)) or not hasattr(keep, "__iter__"):
        raise HandError(f"{what} is a list of column names, not {type(keep).__name__}")
    out = list(keep)
    for k in out:
        if not isinstance(k, str):
            raise HandError(f"{what}: a column name is a str, not {type(k).__name__} ({shown(k)})")
    twice = [k for i, k in enumerate(out) if k in out[:i]]
    if twice:
        raise HandError(f"{what}: {shown_name(twice[0])} is given twice")
    return out


def _frame(frame: Any) -> Any:
    """A partition as Dask hands it: a pandas DataFrame (``HandError`` for anything else)."""
    if not (hasattr(frame, "iloc") and hasattr(frame, "columns")):
        raise HandError(f"a partition is a pandas DataFrame, not {type(frame).__name__}")
    return frame


def _check_keep(keep: list[str]) -> None:
    clash = [k for k in keep if k in ("win", "total", "error") or k.startswith("fan_")]
    if clash:
        raise HandError(f"keep: {shown(clash[0])} is also the name of a result column; rename it first")
