//! `evaluate_many` of the regional rulesets on columns, a chunk of rows at a time: the
//! Python items taken with the GIL, then each row read as a situation (by the reader of a
//! single call) and scored on the pool without it.

use std::sync::Arc;

use numpy::PyArray1;
use numpy::{PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};

use super::columns::{as_list, item, TextColumn};
use super::errors::{hand_error, to_py};
use super::score::{value, ColumnsOut, PyScheme, RowOut};
use crate::error::{HandError, Result as CoreResult};
use crate::notation::Format;
use crate::score::evaluate::evaluate;
use crate::score::situation::{Key, Reader, Value};
use crate::score::Scheme;
use rayon::prelude::*;

/// Rows in a chunk: enough to keep both cores busy, few enough that the situations read
/// stay in cache.
const CHUNK: usize = 2048;

/// One column as it will be read.
enum Column<'py> {
    List(Bound<'py, PyList>),
    Bools(Vec<bool>),
    Ints(Vec<i64>),
    Floats(Vec<f64>),
    Text(TextColumn<'py>),
}

impl<'py> Column<'py> {
    fn new(col: &Bound<'py, PyAny>) -> PyResult<Column<'py>> {
        if let Ok(a) = col.cast::<PyUntypedArray>() {
            if a.ndim() != 1 {
                return Err(hand_error(col.py(), "each column must be one-dimensional"));
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
                b'U' => return Ok(Column::Text(TextColumn::new(col)?)),
                _ => {}
            }
        }
        Ok(Column::List(as_list(col)?))
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

/// A chunk of rows read with the GIL and owned, so that it can be scored without it
/// while the next chunk is read: the rows' cells, one a column, their texts copied into
/// one buffer.
struct Chunk {
    start: usize,
    text: String,
    cells: Vec<Cell>,
    /// The values of the [`Cell::Other`] cells.
    others: Vec<Value<'static>>,
}

/// A row's cells, and the places of its win, total and pattern counts in the output.
type RowCells<'a> = (((&'a [Cell], &'a mut bool), &'a mut i32), &'a mut [u8]);

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
    fn read(py: Python<'_>, columns: &[(String, Column<'_>)], start: usize, end: usize) -> PyResult<Chunk> {
        let rows = end - start;
        let width = columns.len().max(1);
        let mut c = Chunk {
            start,
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
                            Err(()) => c.other(Value::Other("text that cannot be read".into())),
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

    /// Reads each row as a situation (by the reader of a single call) and scores it into
    /// `out` (the chunk's rows of the output), spread over the pool when `parallel`. The
    /// rows that cannot be read, with their errors.
    fn score(
        &self,
        scheme: &Scheme,
        keys: &[&Key],
        format: Format,
        parallel: bool,
        out: (&mut [bool], &mut [i32], &mut [u8]),
        width: usize,
    ) -> Vec<(usize, HandError)> {
        let (text, others) = (self.text.as_str(), &self.others);
        // The row scored straight into its place in the output, its score not moved.
        let score = |row: &[Cell], out: RowOut<'_>| -> CoreResult<()> {
            let mut reader = Reader::default();
            for (key, cell) in keys.iter().zip(row) {
                let v = match *cell {
                    Cell::None if key.none_is_left_out() => continue,
                    Cell::None => Value::None,
                    Cell::Bool(b) => Value::Bool(b),
                    Cell::Int(i) => Value::Int(i),
                    Cell::Float(f) => Value::Float(f),
                    Cell::Text(a, b) => Value::Str(&text[a..b]),
                    Cell::Other(i) => others[i].clone(),
                };
                reader.set_key(key, v)?;
            }
            reader.default_format(format);
            out.put(&evaluate(scheme, &reader.finish(scheme)?));
            Ok(())
        };
        let one = |(i, (((row, win), total), fans)): (usize, RowCells<'_>)| {
            score(row, RowOut { win, total, fans }).err().map(|e| (i, e))
        };
        let (win, total, fans) = out;
        let cells = keys.len().max(1);
        if parallel {
            let rows = self.cells.par_chunks(cells).zip(win).zip(total).zip(fans.par_chunks_mut(width));
            rows.enumerate().with_min_len(16).filter_map(one).collect()
        } else {
            let rows = self.cells.chunks(cells).zip(win).zip(total).zip(fans.chunks_mut(width));
            rows.enumerate().filter_map(one).collect()
        }
    }
}

/// Scores columns (see `Scheme.evaluate_columns`).
pub fn evaluate_columns<'py>(
    py: Python<'py>,
    s: &PyScheme,
    columns: &Bound<'py, PyDict>,
    format: Format,
    collect: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let scheme: &Arc<Scheme> = s.scheme();
    let mut cols: Vec<(String, Column<'py>)> = vec![];
    for (k, v) in columns.iter() {
        let k = k.cast::<PyString>().map_err(|_| hand_error(py, "column names are str"))?.to_str()?.to_string();
        if s.is_option(&k) {
            return Err(hand_error(py, format!("{k:?} is not a column: every row takes the call's options (evaluate_many(columns, options={{...}}))")));
        }
        if !scheme.keys.iter().any(|key| key.name == k) {
            let known: Vec<&str> = scheme.keys.iter().map(|k| k.name.as_str()).collect();
            return Err(hand_error(py, format!("unknown column {k:?}; {} takes {}", scheme.name, known.join(", "))));
        }
        cols.push((k, Column::new(&v)?));
    }
    if !cols.iter().any(|(k, _)| k == "hand") {
        return Err(hand_error(py, "columns need a 'hand' column"));
    }
    let n = cols[0].1.len();
    if cols.iter().any(|(_, c)| c.len() != n) {
        return Err(hand_error(py, "columns must all have the same length"));
    }
    let patterns = scheme.patterns.len();
    let mut out = ColumnsOut::new(n, patterns, collect);
    let keys: Vec<&Key> = cols.iter().filter_map(|(name, _)| scheme.keys.iter().find(|k| &k.name == name)).collect();
    let keys = &keys[..];
    let pool = crate::parallel::pool().filter(|_| n >= 64);
    let width = out.width;
    // The rows that cannot be read: the first stops the batch unless errors are collected.
    let refused = |start: usize, errors: Vec<(usize, HandError)>, out: &mut ColumnsOut| -> PyResult<()> {
        for (k, e) in errors {
            if !collect {
                return Err(to_py(py, e.in_row("row", start + k)));
            }
            out.errors[start + k] = Some(e.to_string());
        }
        Ok(())
    };
    let mut next = Some(Chunk::read(py, &cols, 0, n.min(CHUNK))?);
    while let Some(c) = next.take() {
        // Ctrl-C stops the batch between chunks.
        py.check_signals()?;
        let end = (c.start + CHUNK).min(n);
        let rows = out.rows(c.start, end);
        let Some(pool) = pool else {
            let errors = py.detach(|| c.score(scheme, keys, format, false, rows, width));
            refused(c.start, errors, &mut out)?;
            next = if end < n { Some(Chunk::read(py, &cols, end, (end + CHUNK).min(n))?) } else { None };
            continue;
        };
        // The pool scores this chunk while this thread, holding the GIL, reads the next;
        // then it waits without the GIL.
        let (tx, rx) = std::sync::mpsc::channel();
        let (read, errors) = pool.in_place_scope(|scope| {
            let c = &c;
            scope.spawn(move |_| {
                let _ = tx.send(c.score(scheme, keys, format, true, rows, width));
            });
            let read = if end < n { Chunk::read(py, &cols, end, (end + CHUNK).min(n)).map(Some) } else { Ok(None) };
            (read, py.detach(move || rx.recv()))
        });
        // The job sends before it ends; had it panicked, the scope would have resumed the
        // panic before this line.
        refused(c.start, errors.expect("the scoring job sends its errors"), &mut out)?;
        next = read?;
    }
    out.into_dict(py, patterns)
}
