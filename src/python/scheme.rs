//! Reading a ruleset's scoring data from Python: the plain Python values (dicts, tuples,
//! strings) that `haidi.rulesets._scheme` writes become a [`Data`] tree, which
//! `crate::score::data` checks into a [`Scheme`].

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};

use super::convert;
use super::errors::{hand_error, IntoPy};
use crate::score::data::{self, Data, MAX_DEPTH};
use crate::score::rule::Rule;
use crate::score::scheme::Scheme;

/// A Python value as scheme data; nesting past [`MAX_DEPTH`] is refused as it is met.
pub fn to_data(o: &Bound<'_, PyAny>) -> PyResult<Data> {
    to_data_at(o, 1)
}

fn to_data_at(o: &Bound<'_, PyAny>, depth: usize) -> PyResult<Data> {
    let py = o.py();
    if depth > MAX_DEPTH {
        return Err(hand_error(py, format!("ruleset data: nested more than {MAX_DEPTH} deep")));
    }
    if o.is_none() {
        return Ok(Data::None);
    }
    if let Ok(b) = o.cast::<PyBool>() {
        return Ok(Data::Bool(b.is_true()));
    }
    if o.cast::<PyInt>().is_ok() {
        return Ok(o.extract::<i64>().map_or_else(|_| Data::Other("int".into()), Data::Int));
    }
    if let Ok(s) = o.cast::<PyString>() {
        return Ok(Data::Str(convert::text(s, "ruleset data")?.to_string()));
    }
    if let Ok(d) = o.cast::<PyDict>() {
        let mut items = Vec::with_capacity(d.len());
        for (k, v) in d.iter() {
            let Ok(k) = k.cast::<PyString>() else { continue };
            items.push((convert::text(k, "ruleset data")?.to_string(), to_data_at(&v, depth + 1)?));
        }
        return Ok(Data::Dict(items));
    }
    if o.cast::<PyList>().is_ok() || o.cast::<PyTuple>().is_ok() {
        let items = o.try_iter()?.map(|i| to_data_at(&i?, depth + 1)).collect::<PyResult<_>>()?;
        return Ok(Data::List(items));
    }
    Ok(Data::Other(o.get_type().name()?.to_string()))
}

/// A scheme from its data (see `haidi.rulesets._scheme.build`).
pub fn read(d: &Bound<'_, PyDict>) -> PyResult<Scheme> {
    data::read(&to_data(d.as_any())?).py_err(d.py())
}

/// A rule naming the flags, patterns and forms of `scheme` (for rules of results).
pub fn read_rule(o: &Bound<'_, PyAny>, scheme: &Scheme) -> PyResult<Rule> {
    data::read_rule(&to_data(o)?, scheme).py_err(o.py())
}

/// The ids of the patterns.
pub fn ids(s: &Scheme) -> Vec<&str> {
    s.patterns.iter().map(|p| p.id.as_str()).collect()
}

/// A tuple of Python strings.
pub fn str_tuple<'py>(py: Python<'py>, items: &[&str]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, items.iter().map(|s| PyString::new(py, s)))
}
