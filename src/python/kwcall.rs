//! Functions that read the dict of keyword arguments Python made for the call. Through
//! `#[pyfunction]`, `**kwargs` copies that dict, and named parameters match each key
//! against each name by text. Measured (callgrind, one thread, 6,000 calls of MCR's
//! `evaluate(**situation)` on random situations, each answer read): 26,400 instructions
//! a call made and read this way, 31,400 through a `#[pyfunction]` taking `**kwargs`.

use std::ffi::CStr;

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// What such a function does with its positional arguments and keyword arguments.
pub type Body =
    for<'py> fn(Python<'py>, &Bound<'py, PyTuple>, Option<&Bound<'py, PyDict>>) -> PyResult<Bound<'py, PyAny>>;

/// Runs `body` for Python: its error is raised, a panic as `PanicException`.
///
/// # Safety
///
/// Only as a `METH_VARARGS | METH_KEYWORDS` function called by Python: the interpreter
/// attached, `args` a tuple and `kwargs` a dict or null, both borrowed.
pub unsafe fn call(args: *mut ffi::PyObject, kwargs: *mut ffi::PyObject, body: Body) -> *mut ffi::PyObject {
    // SAFETY: Python calls with the interpreter attached (the contract above).
    let py = unsafe { Python::assume_attached() };
    let run = || {
        // SAFETY: borrowed references Python holds for the call.
        let args = unsafe { Bound::from_borrowed_ptr(py, args) }.cast_into::<PyTuple>()?;
        let kwargs = match kwargs.is_null() {
            true => None,
            // SAFETY: as above.
            false => Some(unsafe { Bound::from_borrowed_ptr(py, kwargs) }.cast_into::<PyDict>()?),
        };
        body(py, &args, kwargs.as_ref())
    };
    let err = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(Ok(out)) => return out.into_ptr(),
        Ok(Err(e)) => e,
        Err(payload) => {
            let message = match (payload.downcast_ref::<String>(), payload.downcast_ref::<&str>()) {
                (Some(s), _) => s.clone(),
                (_, Some(s)) => s.to_string(),
                _ => "panic from Rust code".to_string(),
            };
            PanicException::new_err((message,))
        }
    };
    err.restore(py);
    std::ptr::null_mut()
}

/// Adds the function `meth` to the module `m` as `name`, a function of the module as a
/// `#[pyfunction]` is (so that it pickles by name). `doc` may start with its signature
/// (`name(...)\n--\n\n`), which `inspect.signature` reads.
pub fn add(
    m: &Bound<'_, PyModule>,
    name: &'static CStr,
    doc: &'static CStr,
    meth: ffi::PyCFunctionWithKeywords,
) -> PyResult<()> {
    // Python keeps a pointer to the definition for as long as the function lives: for
    // good, as the module's.
    let def = Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: name.as_ptr(),
        ml_meth: ffi::PyMethodDefPointer { PyCFunctionWithKeywords: meth },
        ml_flags: ffi::METH_VARARGS | ffi::METH_KEYWORDS,
        ml_doc: doc.as_ptr(),
    }));
    let module_name = m.name()?;
    // SAFETY: `def` lives for good; `m` and its name are live objects we hold.
    let f =
        unsafe { Bound::from_owned_ptr_or_err(m.py(), ffi::PyCFunction_NewEx(def, m.as_ptr(), module_name.as_ptr())) }?;
    m.add(name.to_str().map_err(|e| PyTypeError::new_err(e.to_string()))?, f)
}

/// The positional arguments but at most `most`, or a `TypeError` as Python raises.
pub fn at_most(name: &str, args: &Bound<'_, PyTuple>, most: usize, what: &str) -> PyResult<()> {
    if args.len() > most {
        return Err(PyTypeError::new_err(format!(
            "{name} takes at most {most} positional argument{} ({what}), {} given",
            if most == 1 { "" } else { "s" },
            args.len()
        )));
    }
    Ok(())
}

/// Adds to the module `$m` the function `$name` (documented by `$doc`) that runs `$body`, a
/// [`Body`], with the call's positional arguments and the keyword dict Python made.
macro_rules! add_function {
    ($m:expr, $name:expr, $doc:expr, $body:expr) => {{
        unsafe extern "C" fn function(
            _module: *mut pyo3::ffi::PyObject,
            args: *mut pyo3::ffi::PyObject,
            kwargs: *mut pyo3::ffi::PyObject,
        ) -> *mut pyo3::ffi::PyObject {
            // SAFETY: Python calls this as the `METH_VARARGS | METH_KEYWORDS` function it is.
            unsafe { $crate::python::kwcall::call(args, kwargs, $body) }
        }
        $crate::python::kwcall::add($m, $name, $doc, function)
    }};
}
pub(crate) use add_function;
