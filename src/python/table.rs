//! `evaluate_many` of the regional rulesets on columns: each row read as a situation,
//! by the same reader as a single call, a chunk of rows at a time, each chunk scored on
//! the pool without the GIL.

use std::sync::Arc;

use numpy::PyArray1;
use numpy::{PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use super::columns::{as_list, item, TextColumn};
use super::errors::hand_error;
use super::score::{score_all, value, ColumnsOut, PyScheme};
use crate::error::Result as CoreResult;
use crate::notation::Format;
use crate::score::situation::{Prepared, Reader, Value};
use crate::score::Scheme;

/// Rows read before a chunk is scored: enough to keep both cores busy, few enough that
/// the situations read stay in cache.
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

/// Reads row `i` of the columns as a situation.
fn read_row<'py>(
    py: Python<'py>,
    s: &PyScheme,
    columns: &[(String, Column<'py>)],
    i: usize,
    format: Format,
) -> CoreResult<Prepared> {
    let mut held: Vec<Bound<'py, PyAny>> = Vec::with_capacity(columns.len());
    for (_, c) in columns {
        if let Column::List(l) = c {
            // SAFETY: `item` returns a live item borrowed from the list (the GIL is held);
            // it is counted in here, so it lives as long as `held`.
            let p = item(l, i).map_err(|e| crate::error::HandError::invalid(e.to_string()))?;
            held.push(unsafe { Bound::from_borrowed_ptr(py, p) });
        }
    }
    let mut reader = Reader::default();
    let mut next = held.iter();
    for (key, c) in columns {
        let v = match c {
            Column::List(_) => match next.next() {
                Some(o) => value(o),
                None => Value::None,
            },
            Column::Bools(v) => Value::Bool(v[i]),
            Column::Ints(v) => Value::Int(v[i]),
            Column::Floats(v) => Value::Float(v[i]),
            Column::Text(t) => {
                let mut buf = Vec::new();
                match t.text_of(i, true, &mut buf) {
                    Ok(Some(_)) => Value::Text(String::from_utf8_lossy(&buf).into_owned()),
                    Ok(None) => Value::None,
                    Err(()) => Value::Other("text that cannot be read".into()),
                }
            }
        };
        reader.set(s.scheme(), key, v)?;
    }
    reader.default_format(format);
    reader.finish(s.scheme())
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
    let mut start = 0;
    while start < n {
        let end = (start + CHUNK).min(n);
        let mut read: Vec<Option<Prepared>> = Vec::with_capacity(end - start);
        for i in start..end {
            match read_row(py, s, &cols, i, format) {
                Ok(p) => read.push(Some(p)),
                Err(e) if collect => {
                    out.errors[i] = Some(e.to_string());
                    read.push(None);
                }
                Err(e) => return Err(hand_error(py, format!("row {i}: {e}"))),
            }
        }
        let jobs: Vec<Option<(Arc<Scheme>, &Prepared)>> =
            read.iter().map(|p| p.as_ref().map(|p| (scheme.clone(), p))).collect();
        let scored = py.detach(|| score_all(&jobs));
        for (k, sc) in scored.into_iter().enumerate() {
            if let Some(sc) = sc {
                out.put(start + k, patterns, &sc);
            }
        }
        start = end;
    }
    out.into_dict(py, patterns)
}
