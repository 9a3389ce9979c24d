//! The columns of the regional rulesets' `evaluate_many`, a run of rows at a time
//! (`many::evaluate_columns`): the Python items taken with the GIL, then each row read
//! as a situation (by the reader of a single call) and scored without it.

use numpy::PyArray1;
use numpy::{PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};

use super::columns::{as_list, item, TextColumn};
use super::errors::{for_key, hand_error};
use super::many::{ColumnScorer, Refused, RowOut};
use super::score::{value, PyScheme};
use crate::error::Result as CoreResult;
use crate::notation::Format;
use crate::score::evaluate::evaluate;
use crate::score::situation::{Reader, Value};

/// One column as it will be read.
enum Column<'py> {
    List(Bound<'py, PyList>),
    Bools(Vec<bool>),
    Ints(Vec<i64>),
    Floats(Vec<f64>),
    Text(TextColumn<'py>),
}

impl<'py> Column<'py> {
    fn new(name: &str, col: &Bound<'py, PyAny>) -> PyResult<Column<'py>> {
        if let Ok(a) = col.cast::<PyUntypedArray>() {
            if a.ndim() != 1 {
                let message = format!("column {name:?} must be one-dimensional, not of {} dimensions", a.ndim());
                return Err(for_key(col.py(), hand_error(col.py(), message), name));
            }
            let kind = a.dtype().kind();
            let as_vec = |dtype: &str| -> PyResult<Bound<'py, PyAny>> { col.call_method1("astype", (dtype,)) };
            match kind {
                b'b' => {
                    let v = as_vec("bool")?;
                    let v = v.cast::<PyArray1<bool>>()?.readonly();
                    return Ok(Column::Bools(v.as_slice()?.to_vec()));
                }
                // A uint64 past i64's range is read as the ints it holds, not wrapped.
                b'u' if a.dtype().itemsize() == 8 && {
                    let max = col.call_method0("max");
                    max.is_ok_and(|m| m.extract::<i64>().is_err())
                } => {}
                b'i' | b'u' => {
                    let v = as_vec("int64")?;
                    let v = v.cast::<PyArray1<i64>>()?.readonly();
                    return Ok(Column::Ints(v.as_slice()?.to_vec()));
                }
                b'f' => {
                    let v = as_vec("float64")?;
                    let v = v.cast::<PyArray1<f64>>()?.readonly();
                    return Ok(Column::Floats(v.as_slice()?.to_vec()));
                }
                b'U' => return Ok(Column::Text(TextColumn::new(name, col)?)),
                _ => {}
            }
        }
        Ok(Column::List(as_list(name, col)?))
    }

    fn len(&self) -> usize {
        match self {
            Column::List(l) => l.len(),
            Column::Bools(v) => v.len(),
            Column::Ints(v) => v.len(),
            Column::Floats(v) => v.len(),
            Column::Text(t) => t.len(),
        }
    }
}

/// A run of rows read with the GIL and owned, so that it can be scored without it
/// while the next run is read: the rows' cells, one a column, their texts copied into
/// one buffer.
pub struct Chunk {
    /// The places in the scheme's keys of the columns' keys, in the order of the cells.
    keys: Vec<usize>,
    text: String,
    cells: Vec<Cell>,
    /// The values of the [`Cell::Other`] cells.
    others: Vec<Value<'static>>,
}

/// A cell as read: small and plain, so that a chunk's cells are one block that is
/// neither dropped nor moved a value at a time.
#[derive(Clone, Copy)]
enum Cell {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// Bytes `start..end` of the chunk's text.
    Text(usize, usize),
    /// Any other value (a list, text of a numpy column, a type's name), by its index in
    /// the chunk's `others`.
    Other(usize),
}

impl Chunk {
    /// Reads rows `start..end` of the columns (the GIL held), a column at a time.
    fn read(py: Python<'_>, table: &Table<'_>, start: usize, end: usize) -> PyResult<Chunk> {
        let columns = &table.columns;
        let rows = end - start;
        let width = columns.len().max(1);
        let mut c = Chunk {
            keys: table.keys.clone(),
            text: String::with_capacity(rows * 32),
            cells: vec![Cell::None; rows * width],
            others: vec![],
        };
        let mut buf = Vec::new();
        // The values most cells hold, known by address.
        let (none, yes, no) = (py.None().as_ptr(), PyBool::new(py, true).as_ptr(), PyBool::new(py, false).as_ptr());
        for (j, (_, col)) in columns.iter().enumerate() {
            for (k, i) in (start..end).enumerate() {
                let v = match col {
                    Column::List(l) => {
                        let p = item(l, i)?;
                        if p == none {
                            continue;
                        }
                        if p == yes || p == no {
                            Cell::Bool(p == yes)
                        } else {
                            // SAFETY: `item` returns a live item borrowed from the list, the
                            // GIL held; it is read here, before any Python code can run.
                            let o = unsafe { Bound::from_borrowed_ptr(py, p) };
                            match value(&o) {
                                Value::None => Cell::None,
                                Value::Bool(b) => Cell::Bool(b),
                                Value::Int(i) => Cell::Int(i),
                                Value::Float(f) => Cell::Float(f),
                                Value::Str(t) => c.text_cell(t),
                                v => c.other(v.into_owned()),
                            }
                        }
                    }
                    Column::Bools(v) => Cell::Bool(v[i]),
                    Column::Ints(v) => Cell::Int(v[i]),
                    Column::Floats(v) => Cell::Float(v[i]),
                    Column::Text(t) => {
                        buf.clear();
                        match t.text_of(i, true, &mut buf) {
                            Ok(Some(_)) => c.text_cell(&String::from_utf8_lossy(&buf)),
                            Ok(None) => Cell::None,
                            Err(()) => c.other(Value::Other("str that is not valid text".into())),
                        }
                    }
                };
                c.cells[k * width + j] = v;
            }
        }
        Ok(c)
    }

    /// A cell of text, copied to the chunk's text.
    fn text_cell(&mut self, t: &str) -> Cell {
        let at = self.text.len();
        self.text.push_str(t);
        Cell::Text(at, self.text.len())
    }

    fn other(&mut self, v: Value<'static>) -> Cell {
        self.others.push(v);
        Cell::Other(self.others.len() - 1)
    }
}

/// A scheme's columns of `evaluate_many`: the scheme the call's options make, and the
/// call's format.
pub struct SchemeColumns<'s> {
    pub scheme: &'s PyScheme,
    pub format: Format,
}

/// The columns of a call, with the places of their keys in the scheme's.
pub struct Table<'py> {
    py: Python<'py>,
    columns: Vec<(String, Column<'py>)>,
    keys: Vec<usize>,
}

impl ColumnScorer for SchemeColumns<'_> {
    type Table<'py> = Table<'py>;
    type Run = Chunk;

    fn table<'py>(&self, columns: &Bound<'py, PyDict>) -> PyResult<(Table<'py>, usize)> {
        let py = columns.py();
        let scheme = self.scheme.scheme();
        let mut cols: Vec<(String, Column<'py>)> = vec![];
        for (k, v) in columns.iter() {
            let k = super::convert::column_name(&k)?;
            if self.scheme.is_option(&k) {
                return Err(hand_error(py, format!("{k:?} is not a column: every row takes the call's options (evaluate_many(columns, options={{...}}))")));
            }
            if !scheme.keys.iter().any(|key| key.name == k) {
                let known: Vec<&str> = scheme.keys.iter().map(|k| k.name.as_str()).collect();
                let message = format!("unknown column {k:?}; {} takes {}", scheme.name, known.join(", "));
                return Err(for_key(py, hand_error(py, message), &k));
            }
            let col = Column::new(&k, &v)?;
            cols.push((k, col));
        }
        if !cols.iter().any(|(k, _)| k == "hand") {
            return Err(hand_error(py, "columns need a 'hand' column"));
        }
        let (first, n) = (&cols[0].0, cols[0].1.len());
        if let Some((k, c)) = cols.iter().find(|(_, c)| c.len() != n) {
            let message = format!("columns must all have the same length: {k:?} has {} rows, {first:?} {n}", c.len());
            return Err(for_key(py, hand_error(py, message), k));
        }
        let keys = cols.iter().filter_map(|(name, _)| scheme.keys.iter().position(|k| &k.name == name)).collect();
        Ok((Table { py, columns: cols, keys }, n))
    }

    fn patterns(&self) -> usize {
        self.scheme.scheme().patterns.len()
    }

    /// Takes the rows' Python values: they are read as a situation in `score`.
    fn read(&self, table: &Table<'_>, rows: std::ops::Range<usize>) -> PyResult<(Chunk, Refused)> {
        Ok((Chunk::read(table.py, table, rows.start, rows.end)?, vec![]))
    }

    /// Reads row `k` as a situation (by the reader of a single call) and scores it
    /// straight into its place in the output, its score not moved.
    fn score(&self, run: &Chunk, k: usize, out: RowOut<'_>) -> CoreResult<()> {
        let scheme = self.scheme.scheme();
        let width = run.keys.len().max(1);
        let row = &run.cells[k * width..(k + 1) * width];
        let mut reader = Reader::default();
        for (&key, cell) in run.keys.iter().zip(row) {
            let key = &scheme.keys[key];
            let v = match *cell {
                Cell::None if key.none_is_left_out() => continue,
                Cell::None => Value::None,
                Cell::Bool(b) => Value::Bool(b),
                Cell::Int(i) => Value::Int(i),
                Cell::Float(f) => Value::Float(f),
                Cell::Text(a, b) => Value::Str(&run.text[a..b]),
                Cell::Other(i) => run.others[i].clone(),
            };
            reader.set_key(key, v)?;
        }
        reader.default_format(self.format);
        out.put(&evaluate(scheme, &reader.finish(scheme)?));
        Ok(())
    }
}
