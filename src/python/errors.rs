//! The one place where core errors become Python exceptions.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::error::{HandError as CoreError, Spelling};

pyo3::create_exception!(
    haidi,
    HandError,
    PyValueError,
    "A hand or its text is invalid. `kind` names what is wrong (\"unknown_char\", \
     \"fifth_copy\", \"wrong_size\", ... or \"invalid\"); `key` is the situation key whose \
     value is at fault and `row` the row of a batch, when known. `position` is the \
     character index of the problem in the text read, when it has one; `text` is that \
     text, or past 80 characters the 80 around the problem, starting at character \
     `text_start` of it."
);

/// The class defaults of the attributes, so that a `HandError` raised in Python code, with
/// a message only, has them too.
pub fn add_defaults(ty: &Bound<'_, pyo3::types::PyType>) -> PyResult<()> {
    for name in ["position", "text", "key", "row"] {
        ty.setattr(name, ty.py().None())?;
    }
    ty.setattr("text_start", 0)?;
    ty.setattr("kind", "invalid")
}

/// Turns a core error into `haidi.HandError` with `text` and `position` attributes.
pub fn to_py(py: Python<'_>, e: CoreError) -> PyErr {
    let err = HandError::new_err(e.to_string());
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail in practice; if it
    // did, the message still carries the same facts.
    let _ = value.setattr("position", e.position);
    let _ = value.setattr("text_start", e.excerpt.map_or(0, |(start, _)| start));
    let _ = value.setattr("text", e.input);
    if e.kind.code() != "invalid" {
        let _ = value.setattr("kind", e.kind.code());
    }
    if let Some(place) = e.place {
        let _ = value.setattr("key", place.key);
        let _ = value.setattr("row", place.row.map(|(row, _)| row));
    }
    err
}

/// `Result` of the core mapped into a `PyResult`.
pub trait IntoPy<T> {
    fn py_err(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> IntoPy<T> for Result<T, CoreError> {
    fn py_err(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| to_py(py, e))
    }
}

/// `err` (a `HandError` or another exception) as a `HandError` of batch row `row`, its
/// message led by "{word} {row}: " as [`CoreError::in_row`] leads it, its other attributes
/// kept.
pub fn in_row(py: Python<'_>, err: PyErr, word: &str, row: usize) -> PyErr {
    let value = err.value(py);
    let new = HandError::new_err(format!("{word} {row}: {value}"));
    let fresh = new.value(py);
    if err.is_instance_of::<HandError>(py) {
        for name in ["position", "text", "text_start", "kind", "key"] {
            if let Ok(v) = value.getattr(name) {
                let _ = fresh.setattr(name, v);
            }
        }
    }
    let _ = fresh.setattr("row", row);
    new
}

/// `err` as the error of situation key `key`, when it is a `HandError` that names no key
/// yet.
pub fn for_key(py: Python<'_>, err: PyErr, key: &str) -> PyErr {
    if err.is_instance_of::<HandError>(py) {
        let value = err.value(py);
        if value.getattr("key").is_ok_and(|k| k.is_none()) {
            let _ = value.setattr("key", key);
        }
    }
    err
}

/// A `HandError` with a plain message.
pub fn hand_error(py: Python<'_>, message: impl Into<String>) -> PyErr {
    to_py(py, CoreError::invalid(message))
}

/// The spelling of the messages made on this thread: "python" (`True`, `None`, `'yes'`) or
/// "json" (`true`, `null`, `"yes"`). With `name`, sets it and returns the one it replaces.
#[pyfunction]
#[pyo3(signature = (name = None))]
pub fn spelling(py: Python<'_>, name: Option<&str>) -> PyResult<&'static str> {
    let word = |s: Spelling| match s {
        Spelling::Python => "python",
        Spelling::Json => "json",
    };
    let Some(name) = name else { return Ok(word(Spelling::current())) };
    let s = match name {
        "python" => Spelling::Python,
        "json" => Spelling::Json,
        other => {
            let message = format!("spelling is \"python\" or \"json\", not {}", Spelling::current().text(other));
            return Err(hand_error(py, message));
        }
    };
    Ok(word(s.set()))
}
