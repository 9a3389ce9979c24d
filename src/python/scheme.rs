//! Reading a ruleset's scoring data from Python: the plain Python values (dicts, tuples,
//! strings) that `haidi.rulesets._scheme` writes become a [`Data`] tree, which
//! `crate::score::data` checks into a [`Scheme`].

use pyo3::exceptions::PyKeyError;
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

/// What the binding reads of a scheme's data beside its scoring (which
/// `crate::score::data` reads, for Python and for the fuzz targets' JSON alike): how its
/// results are written and how the scheme is made again. A field missing where it has no
/// default, or of the wrong type, is a `HandError` naming it.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct Written<'py> {
    /// Each pattern's entries (its other keys are the scoring's); read one by one, so
    /// that a mistake names the pattern.
    pub patterns: Vec<Bound<'py, PyAny>>,
    /// The ruleset's own result keys, each `(key, kind)` or `(key, kind, argument)`.
    pub results: Vec<Bound<'py, PyAny>>,
    /// What voided patterns are said to be voided by.
    #[pyo3(default)]
    pub exclusion_text: Option<String>,
    /// Builds the scheme for a dict of options (the ruleset's `compile`), and how to make
    /// the scheme again in another process (`(callable, args)`, for pickling).
    #[pyo3(default)]
    pub compile: Option<Bound<'py, PyAny>>,
    #[pyo3(default)]
    pub reduce: Option<Bound<'py, PyAny>>,
    /// Situation keys that are options.
    #[pyo3(default)]
    pub option_keys: Option<Vec<String>>,
}

/// A pattern's entries in results: for a winner, and for a player who did not win (the
/// winner's when not given).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct Entries<'py> {
    pub entry: Bound<'py, PyDict>,
    #[pyo3(default)]
    pub loser_entry: Option<Bound<'py, PyDict>>,
}

/// A result key of the ruleset's own: `(key, kind, argument)`, the argument None or left
/// out where the kind takes none.
#[derive(FromPyObject)]
pub struct ResultKey<'py> {
    #[pyo3(item(0))]
    pub key: String,
    #[pyo3(item(1))]
    pub kind: String,
    #[pyo3(item(2))]
    pub argument: Option<Bound<'py, PyAny>>,
}

const KEY_SHAPE: &str = "a result is (key, kind) or (key, kind, argument)";

/// A mistake in the ruleset data at `what`, from the error of reading it: the error and
/// its causes (those of a typed field name the field).
fn bad_field(py: Python<'_>, what: &str, e: PyErr) -> PyErr {
    // A dict's key not there is a KeyError naming the key alone.
    let say = |e: &PyErr| match e.is_instance_of::<PyKeyError>(py) {
        true => format!("missing key {}", e.value(py)),
        false => e.value(py).to_string(),
    };
    let mut m = say(&e);
    let mut cause = e.cause(py);
    while let Some(c) = cause {
        m.push_str(": ");
        m.push_str(&say(&c));
        cause = c.cause(py);
    }
    hand_error(py, format!("ruleset data, {what}: {m}"))
}

impl<'py> Written<'py> {
    /// The binding's part of `data`.
    pub fn read(data: &Bound<'py, PyAny>) -> PyResult<Written<'py>> {
        let py = data.py();
        if !data.is_instance_of::<PyDict>() {
            return Err(hand_error(py, "ruleset data, the data: expected a dict"));
        }
        data.extract().map_err(|e| bad_field(py, "scheme", e))
    }

    /// Each pattern's entries, in order.
    pub fn entries(&self) -> PyResult<Vec<Entries<'py>>> {
        let at = |i: usize, p: &Bound<'py, PyAny>| {
            let id = p.get_item("id").ok().and_then(|id| id.extract::<String>().ok()).unwrap_or_default();
            p.extract::<Entries<'py>>().map_err(|e| bad_field(p.py(), &format!("patterns[{i}] {id:?}"), e))
        };
        self.patterns.iter().enumerate().map(|(i, p)| at(i, p)).collect()
    }

    /// The ruleset's own result keys, in order (a row may be any sequence).
    pub fn result_keys(&self) -> PyResult<Vec<ResultKey<'py>>> {
        let at = |i: usize, r: &Bound<'py, PyAny>| {
            let py = r.py();
            let what = format!("results[{i}]");
            let bad = |e| bad_field(py, &what, e);
            if r.is_instance_of::<PyString>() || r.is_instance_of::<PyDict>() {
                return Err(hand_error(py, format!("ruleset data, {what}: {KEY_SHAPE}")));
            }
            let mut row = r.try_iter().map_err(bad)?.collect::<PyResult<Vec<_>>>().map_err(bad)?;
            match row.len() {
                2 => row.push(py.None().into_bound(py)),
                3 => {}
                _ => return Err(hand_error(py, format!("ruleset data, {what}: {KEY_SHAPE}"))),
            }
            PyTuple::new(py, row)?.extract::<ResultKey<'py>>().map_err(bad)
        };
        self.results.iter().enumerate().map(|(i, r)| at(i, r)).collect()
    }
}
