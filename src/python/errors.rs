//! The one place where core errors become Python exceptions.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::error::HandError as CoreError;

pyo3::create_exception!(
    haidi,
    HandError,
    PyValueError,
    "A hand or its text is invalid. `position` is the character index of the problem \
     in the text read, when it has one; `text` is that text, or past 80 characters the 80 \
     around the problem, starting at character `text_start` of it."
);

/// Turns a core error into `haidi.HandError` with `text` and `position` attributes.
pub fn to_py(py: Python<'_>, e: CoreError) -> PyErr {
    let err = HandError::new_err(e.to_string());
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail in practice; if it
    // did, the message still carries the same facts.
    let _ = value.setattr("position", e.position);
    let _ = value.setattr("text_start", e.excerpt.map_or(0, |(start, _)| start));
    let _ = value.setattr("text", e.input);
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

/// A `HandError` with a plain message.
pub fn hand_error(py: Python<'_>, message: impl Into<String>) -> PyErr {
    to_py(py, CoreError::invalid(message))
}
