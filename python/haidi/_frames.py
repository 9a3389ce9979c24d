"""Columns in and out of the batch calls: pandas, Arrow and polars data read as the numpy
arrays and lists the Rust readers take, and results given back as one table (a pyarrow
Table, a polars or a pandas DataFrame) of flat columns (docs/data.md).

An Arrow column is read as the list ``column.to_pylist()`` would be, without building that
list where the type allows: integers and floats without nulls are handed over in place
(numpy views of the Arrow buffers), booleans as a numpy array, text as a numpy array of
str. A null is None, as in a situation dict: a key left out (its default), refused where a
value is needed (``hand``), naming the column and the row. polars data goes through
Arrow, so pyarrow is needed for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, get_args

import numpy as np

from . import _core
from ._core import HandError
from ._errors import hand_error, shown
from .results import Output

if TYPE_CHECKING:
    from numpy.typing import NDArray

OUTPUTS: tuple[str, ...] = get_args(Output)


def _library(obj: Any) -> str | None:
    """``"pandas"``, ``"pyarrow"`` or ``"polars"`` for their objects, ``"arrow"`` for any
    other object that hands out Arrow data (the Arrow PyCapsule interface), else None."""
    top = type(obj).__module__.partition(".")[0]
    if top in ("pandas", "pyarrow", "polars"):
        return top
    if hasattr(obj, "__arrow_c_stream__") or hasattr(obj, "__arrow_c_array__"):
        return "arrow"
    return None


def _pyarrow(what: str) -> Any:
    try:
        import pyarrow
    except ImportError:
        raise ImportError(f"{what} needs pyarrow: pip install 'haidi[arrow]'") from None
    return pyarrow


def is_columns(obj: Any) -> bool:
    """Whether ``evaluate_many`` reads ``obj`` as columns (not as a list of situations)."""
    # The library first: a polars LazyFrame warns when its `columns` are asked for.
    return isinstance(obj, Mapping) or _library(obj) in ("pyarrow", "polars", "arrow") or hasattr(obj, "columns")


def _arrow_table(obj: Any, library: str) -> Any:
    """An Arrow table of ``obj``: a pyarrow Table or RecordBatch, a polars DataFrame or any
    object with ``__arrow_c_stream__``."""
    pa = _pyarrow("Arrow or polars data")
    if library == "polars":
        if not hasattr(obj, "to_arrow"):
            raise HandError(f"columns must be a polars DataFrame, not a {type(obj).__name__} (collect it first)")
        obj = _to_arrow(pa, obj)
    if isinstance(obj, pa.RecordBatch):
        return pa.Table.from_batches([obj])
    if isinstance(obj, pa.Table):
        return obj
    if hasattr(obj, "__arrow_c_stream__") and not isinstance(obj, (pa.Array, pa.ChunkedArray)):
        return pa.table(obj)
    raise HandError(f"columns must be a table (a pyarrow Table or a polars DataFrame), not a {type(obj).__name__}")


def columns(obj: Any) -> dict[str, Any]:
    """Columns as the Rust readers take them: a dict of numpy arrays, lists or sequences,
    from a dict of columns, a pandas DataFrame, a pyarrow Table or RecordBatch or a polars
    DataFrame."""
    library = _library(obj)
    if library in ("pyarrow", "polars", "arrow"):
        table = _arrow_table(obj, library)
        names = table.column_names
        _once(names)
        return {name: _from_arrow(table.column(i)) for i, name in enumerate(names)}
    if hasattr(obj, "columns") and not isinstance(obj, Mapping):
        labels = list(obj.columns)
        names = [str(k) for k in labels]
        _once(names)
        if hasattr(obj, "iloc"):  # pandas: by position, as a label read twice is a frame
            return {name: column(obj.iloc[:, i]) for i, name in enumerate(names)}
        return {name: column(obj[k]) for k, name in zip(labels, names, strict=True)}
    if not isinstance(obj, Mapping):
        raise HandError("columns must be a dict of sequences or a DataFrame")
    return {k: column(v) for k, v in obj.items()}


def _once(names: Sequence[str]) -> None:
    """Refuses a table whose columns do not have distinct names."""
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise HandError(f"column {shown(twice[0])} is given twice")


def column(value: Any) -> Any:
    """One column of a dict of columns: a pandas Series as numpy, an Arrow array or a polars
    Series as :func:`columns` reads them, anything else as it is."""
    library = _library(value)
    if library in ("pyarrow", "polars", "arrow"):
        return _from_arrow(_arrow_array(value, library))
    if library == "pandas" and hasattr(value, "to_numpy"):
        return _from_pandas(value)
    if isinstance(value, np.ma.MaskedArray):
        # A masked value is a missing one: None, a key left out, as an Arrow null is.
        return value.tolist() if np.ma.getmaskarray(value).any() else np.asarray(value)
    if hasattr(value, "to_numpy"):
        return value.to_numpy()
    return value


def _from_pandas(series: Any) -> Any:
    """A pandas column (a Series, or an array such as ``pd.Categorical`` or ``pd.array``)
    as numpy. In a column of a numpy type a NaN is a value (refused by the readers: an
    empty cell of a CSV); in a column of pandas' own types (``str``, ``string``,
    ``boolean``, ``Int64``, ``category``, Arrow-backed) a missing value is pandas' marker
    for one, read as None: a key left out, as an Arrow null is."""
    if isinstance(series.dtype, np.dtype) or not series.isna().any():
        return series.to_numpy()
    return series.to_numpy(dtype=object, na_value=None)


def _arrow_array(value: Any, library: str) -> Any:
    """A pyarrow Array or ChunkedArray of a pyarrow array, a polars Series, or any object
    with ``__arrow_c_array__`` or ``__arrow_c_stream__``."""
    pa = _pyarrow("Arrow or polars data")
    if library == "polars" and hasattr(value, "to_arrow") and not hasattr(value, "columns"):
        value = _to_arrow(pa, value)
    if isinstance(value, (pa.Array, pa.ChunkedArray)):
        return value
    if hasattr(value, "__arrow_c_array__") and not hasattr(value, "columns"):
        return pa.array(value)
    if hasattr(value, "__arrow_c_stream__") and not hasattr(value, "columns"):
        return pa.chunked_array(value)
    raise HandError(f"a column must be a sequence or an array, not a {type(value).__name__}")


def _to_arrow(pa: Any, obj: Any) -> Any:
    """A polars DataFrame or Series as Arrow data; a type Arrow has none of (polars'
    ``Int128``) is refused, naming it."""
    try:
        return obj.to_arrow()
    except pa.ArrowException as e:
        raise HandError(f"polars data that Arrow cannot hold: {e}") from None


def _from_arrow(col: Any) -> Any:
    """An Arrow column (Array or ChunkedArray) as a numpy array, or for types numpy does
    not hold, the list of its Python values."""
    pa = _pyarrow("Arrow data")
    t = col.type
    if pa.types.is_dictionary(t):
        # Categorical text (a wind, a tile): decoded to its values.
        col = col.cast(t.value_type)
        t = col.type
    if pa.types.is_string_view(t):
        col = col.cast(pa.large_string())
        t = col.type
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_boolean(t):
        # Text as str (None where null); booleans as bool, or True, False and None.
        return col.to_numpy(zero_copy_only=False)
    if pa.types.is_integer(t) or pa.types.is_floating(t):
        if col.null_count == 0:
            return col.to_numpy(zero_copy_only=False)
        values = col.fill_null(0).to_numpy(zero_copy_only=False).astype(object)
        values[col.is_null().to_numpy(zero_copy_only=False)] = None
        return values
    # Lists (wilds as a list of kinds), all-null columns, and types no situation key takes
    # (the reader then names the row): their Python values.
    return col.to_pylist()


#: The tile kinds in tile order, as a table of one column per kind may name its columns.
_TILE_NAMES = tuple(_core.tile_names())


def arg_key(name: str) -> str | None:
    """The argument of a batch call a message names, as its key (``visible``, ``melds``);
    the tile counts themselves are no key."""
    return None if name == "tile counts" else name


def _kind_order(names: Sequence[Any], name: str) -> list[int] | None:
    """Where the columns of a table of one column per kind are named by the kinds (in any
    order), the place of each kind's column in tile order; None where no name is a kind
    (the columns are then in tile order). Names that are some kinds but not all are
    refused: a column named ``7z`` is never read as another kind."""
    named = [str(n) in _TILE_NAMES for n in names]
    if not any(named):
        return None
    at = {str(n): i for i, n in enumerate(names)}
    if not all(named) or len(at) != len(names) or len(names) != len(_TILE_NAMES):
        missing = [t for t in _TILE_NAMES if t not in at]
        raise hand_error(
            f"{name}: columns named by tile kinds must name each of the 34 once"
            + (f" ({missing[0]} is missing)" if missing else ""),
            key=arg_key(name),
        )
    return [at[t] for t in _TILE_NAMES]


def _masked_rows(value: Any, name: str) -> Any:
    """A numpy masked array of rows as its values, where nothing is masked; a masked
    value is a missing one, refused naming its row (as an Arrow null is)."""
    mask = np.ma.getmaskarray(value)
    if mask.any():
        row = int(np.argwhere(mask)[0][0]) if mask.ndim > 1 else int(np.argmax(mask))
        raise hand_error(f"{name} is masked (missing)", key=arg_key(name), row=row)
    return np.ma.getdata(value)


def matrix(value: Any, name: str) -> Any:
    """Rows of a batch call (tile counts) given as Arrow or polars data, as a 2-D numpy
    array: a list or fixed-size list column (or a table of one), or a table of one integer
    column per tile kind (in tile order, or named by the kinds). A pandas DataFrame whose
    columns are named by the kinds is read by its names, a numpy masked array by its mask
    (a masked count is refused). Anything else is returned as it is."""
    if isinstance(value, np.ma.MaskedArray):
        return _masked_rows(value, name)
    library = _library(value)
    if library == "pandas" and hasattr(value, "columns"):
        order = _kind_order(list(value.columns), name)
        return _pandas_rows(value if order is None else value.iloc[:, order], name)
    if library not in ("pyarrow", "polars"):
        return value
    pa = _pyarrow("Arrow or polars data")
    if (library == "polars" and hasattr(value, "columns")) or isinstance(value, (pa.Table, pa.RecordBatch)):
        table = _arrow_table(value, library)
        if table.num_columns != 1 or not _is_list(table.column(0).type):
            by_name = _kind_order(table.column_names, name)
            order = list(range(table.num_columns)) if by_name is None else by_name
            if table.num_rows == 0:
                return np.zeros((0, table.num_columns), np.uint8)
            return np.column_stack([_integers(table.column(i), name) for i in order])
        value = table.column(0)
    col = _arrow_array(value, library)
    if not _is_list(col.type):
        return _integers(col, name)
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks()
    if len(col) == 0:
        # No rows: as many counts a row as the type says, or a kind's each.
        size = col.type.list_size if pa.types.is_fixed_size_list(col.type) else len(_TILE_NAMES)
        return np.zeros((0, size), np.uint8)
    bad = _first_null(col)
    if bad is not None:
        raise hand_error(f"{name} is null", row=bad)
    lengths = np.asarray(col.value_lengths().to_numpy(zero_copy_only=False), dtype=np.int64)
    if len(lengths) and (lengths != lengths[0]).any():
        row = int(np.argmax(lengths != lengths[0]))
        raise hand_error(f"{lengths[row]} values of {name}, where row 0 has {lengths[0]}", row=row)
    flat = col.flatten()
    hole = _first_null(flat)
    if hole is not None:
        row = int(np.searchsorted(np.cumsum(lengths), hole, side="right"))
        raise hand_error(f"{name} holds a null", row=row)
    values = _integers(flat, name)
    width = int(lengths[0]) if len(lengths) else 0
    return values.reshape(len(col), width)


def _pandas_rows(frame: Any, name: str) -> Any:
    """A DataFrame's rows as a numpy array: pandas' own integer types (``Int64``,
    ``UInt8``, ``int64[pyarrow]`` ...) as integers, a missing value refused by its row."""
    missing = np.asarray(frame.isna().any(axis=1))
    if missing.any():
        raise hand_error(f"{name} is missing a value", key=arg_key(name), row=int(np.argmax(missing)))
    if len(frame.columns) and all(getattr(t, "kind", "O") in "iu" for t in frame.dtypes):
        return frame.to_numpy(dtype=np.int64)
    return frame.to_numpy()


def vector(value: Any, name: str) -> Any:
    """One value per row of a batch call (declared melds) given as Arrow or polars data, as
    a numpy array (a masked array by its mask: a masked value is refused); anything else
    as it is."""
    if isinstance(value, np.ma.MaskedArray):
        return _masked_rows(value, name)
    library = _library(value)
    if library == "pandas" and hasattr(value, "isna") and not hasattr(value, "columns"):
        # pandas' own integer types mark a missing value: refused naming its row.
        missing = np.asarray(value.isna())
        if missing.any():
            raise hand_error(f"{name} is missing", key=arg_key(name), row=int(np.argmax(missing)))
        return value.to_numpy()
    if library not in ("pyarrow", "polars"):
        return value
    return _integers(_arrow_array(value, library), name)


def _is_list(t: Any) -> bool:
    pa = _pyarrow("Arrow data")
    return bool(pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t))


def _first_null(col: Any) -> int | None:
    if not col.null_count:
        return None
    return int(np.argmax(col.is_null().to_numpy(zero_copy_only=False)))


def _integers(col: Any, name: str) -> NDArray[Any]:
    """An integer Arrow column as numpy, in place where it can be; a null or a value of
    another type is a HandError naming the row."""
    pa = _pyarrow("Arrow data")
    bad = _first_null(col)
    if bad is not None:
        raise hand_error(f"{name} is null", row=bad)
    if not pa.types.is_integer(col.type):
        raise HandError(f"{name} must be integers, got Arrow type {col.type}")
    return np.asarray(col.to_numpy(zero_copy_only=False))


def check_output(output: Any) -> str | None:
    """``output`` as given (None: numpy), or a HandError."""
    if output is None or (isinstance(output, str) and output in OUTPUTS):
        return output  # type: ignore[no-any-return]
    raise HandError(f"output must be one of {', '.join(map(repr, OUTPUTS))}, not {shown(output)}")


#: How the k columns of an n x k array are named: ``<prefix>_<label>`` for each label.
Labels = Mapping[str, tuple[str, Sequence[Any]]]


def result(arrays: Mapping[str, NDArray[Any]], output: str | None, labels: Labels | None = None) -> Any:
    """The arrays of a batch call as ``output`` asks: a dict of numpy arrays (``None`` or
    ``"numpy"``: as they are), or one table of flat columns, each n x k array being k
    columns named as ``labels[name]`` says (``fan_<id>``, ``waits_<kind>``)."""
    if output is None or output == "numpy":
        return dict(arrays)
    columns = flat_columns(arrays, labels or {})
    if output == "arrow":
        pa = _pyarrow("output='arrow'")
        return pa.table({k: pa.array(v, type=pa.string() if v.dtype == object else None) for k, v in columns.items()})
    if output == "polars":
        try:
            import polars
        except ImportError:
            raise ImportError("output='polars' needs polars: pip install 'haidi[polars]'") from None
        return polars.DataFrame(
            [
                polars.Series(k, v.tolist(), dtype=polars.String) if v.dtype == object else polars.Series(k, v)
                for k, v in columns.items()
            ]
        )
    import pandas

    text = {k: pandas.array(v, dtype="string") for k, v in columns.items() if v.dtype == object}
    return pandas.DataFrame({**columns, **text}, copy=False)


#: Rows transposed at a time: a block stays in cache while its columns are written.
_BLOCK = 4096


def flat_columns(arrays: Mapping[str, NDArray[Any]], labels: Labels) -> dict[str, NDArray[Any]]:
    """One-dimensional columns of the arrays, an n x k array split into k contiguous
    columns ``<prefix>_<label>`` (MCR's fan id None, its 明暗杠, is labelled 0)."""
    out: dict[str, NDArray[Any]] = {}
    for name, a in arrays.items():
        if a.ndim != 2:
            out[name] = a
            continue
        n, k = a.shape
        prefix, each = labels.get(name, (name, range(k)))
        names = [f"{prefix}_{0 if x is None else x}" for x in each]
        if len(names) != k:
            raise ValueError(f"{k} columns of {name}, {len(names)} labels")
        # A transposed copy, a block of rows at a time (a plain one walks memory k times).
        t = np.empty((k, n), a.dtype)
        for start in range(0, n, _BLOCK):
            t[:, start : start + _BLOCK] = a[start : start + _BLOCK].T
        out.update(zip(names, t, strict=True))
    return out
