//! Fan and group entries: read-only dicts of the class `haidi.results.Entry`, each made
//! once and shared by every result that has it, the way small ints are. Results kept by
//! the million then hold no entries of their own, and the collector need not follow them.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString, PyTuple};

use crate::hand::MeldKind;
use crate::score::group::Group;
use crate::tiles::{self, Tile};

/// `haidi.results.Entry`.
fn class(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static CLASS: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
    Ok(CLASS.get_or_try_init(py, || py.import("haidi.results")?.getattr("Entry").map(Bound::unbind))?.bind(py))
}

/// The shared entry holding the items of `d`: strs, ints, bools, None and tuples of them,
/// or, in data a ruleset did not write, anything (the entry is then left tracked).
pub fn share(py: Python<'_>, d: &Bound<'_, PyDict>) -> PyResult<Py<PyAny>> {
    let entry = class(py)?.call1((d,))?;
    if d.values().iter().all(|v| atomic(&v) || v.cast::<PyTuple>().is_ok_and(|t| t.iter().all(|i| atomic(&i)))) {
        untrack(&entry);
    }
    Ok(entry.unbind())
}

/// Whether `v` can hold no other object: None, a bool, an int, a float or a str.
fn atomic(v: &Bound<'_, PyAny>) -> bool {
    v.is_none()
        || v.is_exact_instance_of::<PyBool>()
        || v.is_exact_instance_of::<PyInt>()
        || v.is_exact_instance_of::<PyFloat>()
        || v.is_exact_instance_of::<PyString>()
}

/// Counts up to this have their fan entries made once.
const COUNTS: usize = 16;

/// A fan's entries, one for each count: `base` with its `count` set.
pub struct Counted {
    base: Py<PyDict>,
    by_count: Vec<Py<PyAny>>,
}

impl Counted {
    pub fn new(py: Python<'_>, base: &Bound<'_, PyDict>) -> PyResult<Counted> {
        let by_count = (0..=COUNTS).map(|n| with_count(py, base, n)).collect::<PyResult<_>>()?;
        Ok(Counted { base: base.clone().unbind(), by_count })
    }

    /// The entry with this count.
    pub fn get<'py>(&self, py: Python<'py>, count: usize) -> PyResult<Bound<'py, PyAny>> {
        match self.by_count.get(count) {
            Some(e) => Ok(e.bind(py).clone()),
            None => Ok(with_count(py, self.base.bind(py), count)?.into_bound(py)),
        }
    }

    /// A plain dict of the entry with this count, to add to (`explain`).
    pub fn dict<'py>(&self, py: Python<'py>, count: usize) -> PyResult<Bound<'py, PyDict>> {
        counted_dict(py, self.base.bind(py), count)
    }
}

/// A copy of `base` with its `count` set.
fn counted_dict<'py>(py: Python<'py>, base: &Bound<'py, PyDict>, count: usize) -> PyResult<Bound<'py, PyDict>> {
    let d = base.copy()?;
    d.set_item(pyo3::intern!(py, "count"), count)?;
    Ok(d)
}

fn with_count(py: Python<'_>, base: &Bound<'_, PyDict>, count: usize) -> PyResult<Py<PyAny>> {
    share(py, &counted_dict(py, base, count)?)
}

/// A tuple of shared entries, which the collector need not follow either.
pub fn tuple<'py>(py: Python<'py>, entries: Vec<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyTuple>> {
    let t = PyTuple::new(py, entries)?;
    untrack(&t);
    Ok(t)
}

/// Leaves `obj` to Python's collector only when something it must follow is put in it.
///
/// Only for a dict or tuple just made that holds strs, ints, bools, None, shared entries
/// and other such objects: it can be in no cycle, so untracking it now is what the
/// collector does when it first meets it, and Python tracks a dict again if a container
/// is put in it. Kept by the million, results made of such objects then cost full
/// collections nothing.
pub fn untrack<T>(obj: &Bound<'_, T>) {
    // SAFETY: `obj` is a live object we hold, of a type with GC support (a dict, a
    // tuple or an `Entry`), holding only atomic objects as said above.
    unsafe { pyo3::ffi::PyObject_GC_UnTrack(obj.as_ptr().cast()) };
}

/// Places of the group entries made: shape, kind, wild places, meld.
const GROUP_ENTRIES: usize = 6 * 34 * 16 * 6;

/// The group entry `{"kind", "tiles", "wilds", "meld"}` (as `decompose` writes groups),
/// made once per group.
pub fn group<'py>(py: Python<'py>, g: &Group) -> PyResult<Bound<'py, PyAny>> {
    static MADE: std::sync::OnceLock<Box<[pyo3::sync::PyOnceLock<Py<PyAny>>]>> = std::sync::OnceLock::new();
    let made = MADE.get_or_init(|| (0..GROUP_ENTRIES).map(|_| pyo3::sync::PyOnceLock::new()).collect());
    let meld = g.meld.map_or(0, |m| m as usize + 1);
    let key = ((g.shape as usize * 34 + g.tile as usize) * 16 + (g.wilds & 15) as usize) * 6 + meld;
    let entry = made[key.min(GROUP_ENTRIES - 1)].get_or_try_init(py, || {
        let d = PyDict::new(py);
        d.set_item(pyo3::intern!(py, "kind"), g.shape.name())?;
        let names: Vec<String> = g.kinds().map(tiles::name).collect();
        d.set_item(pyo3::intern!(py, "tiles"), PyTuple::new(py, names)?)?;
        let wilds: Vec<String> = g.wild_kinds().map(tiles::name).collect();
        d.set_item(pyo3::intern!(py, "wilds"), PyTuple::new(py, wilds)?)?;
        d.set_item(pyo3::intern!(py, "meld"), g.meld.map(MeldKind::name))?;
        share(py, &d)
    })?;
    Ok(entry.bind(py).clone())
}

/// The entry of concealed tiles that make no groups (十三幺, a knitted form, the rest of a
/// loose hand) as one group of `kind`: the kinds the tiles stand for, and the wilds'.
pub fn loose<'py>(py: Python<'py>, kind: &str, kinds: &[Tile], wilds: &[Tile]) -> PyResult<Bound<'py, PyAny>> {
    let d = PyDict::new(py);
    d.set_item(pyo3::intern!(py, "kind"), kind)?;
    d.set_item(pyo3::intern!(py, "tiles"), PyTuple::new(py, kinds.iter().map(|&t| tiles::name(t)))?)?;
    d.set_item(pyo3::intern!(py, "wilds"), PyTuple::new(py, wilds.iter().map(|&t| tiles::name(t)))?)?;
    d.set_item(pyo3::intern!(py, "meld"), py.None())?;
    Ok(share(py, &d)?.into_bound(py))
}
