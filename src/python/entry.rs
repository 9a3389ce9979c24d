//! Fan and group entries: plain dicts, each result's own, copied from a template made
//! once per fan and count (or per group). A copy of a small dict of strs and ints is
//! one block copied, and like its template it is left out of Python's collector, so
//! results kept by the million cost full collections nothing. A result changed by its
//! owner changes no other result.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::hand::MeldKind;
use crate::score::group::Group;
use crate::tiles::{self, Tile};

/// A template of entries: `d` as it stands, left out of the collector (see [`untrack`]).
pub fn template(d: Bound<'_, PyDict>) -> Py<PyDict> {
    untrack(&d);
    d.unbind()
}

/// A result's own entry: a copy of `template` (untracked as it is).
pub fn copy<'py>(py: Python<'py>, template: &Py<PyDict>) -> PyResult<Bound<'py, PyAny>> {
    Ok(template.bind(py).copy()?.into_any())
}

/// Counts up to this have their fan entries' templates made once.
const COUNTS: usize = 16;

/// A fan's entries, one for each count: `base` with its `count` set.
pub struct Counted {
    base: Py<PyDict>,
    by_count: Vec<Py<PyDict>>,
}

impl Counted {
    pub fn new(py: Python<'_>, base: &Bound<'_, PyDict>) -> PyResult<Counted> {
        let by_count = (0..=COUNTS).map(|n| Ok(template(counted_dict(py, base, n)?))).collect::<PyResult<_>>()?;
        Ok(Counted { base: base.clone().unbind(), by_count })
    }

    /// The entry with this count.
    pub fn get<'py>(&self, py: Python<'py>, count: usize) -> PyResult<Bound<'py, PyAny>> {
        match self.by_count.get(count) {
            Some(t) => copy(py, t),
            None => Ok(counted_dict(py, self.base.bind(py), count)?.into_any()),
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
    untrack(&d);
    Ok(d)
}

/// A tuple of entries, which the collector need not follow either.
pub fn tuple<'py>(py: Python<'py>, entries: Vec<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyTuple>> {
    let t = PyTuple::new(py, entries)?;
    untrack(&t);
    Ok(t)
}

/// Leaves `obj` to Python's collector only when something it must follow is put in it.
///
/// Only for a dict or tuple just made that holds strs, ints, bools, None, tuples of
/// them, untracked entries and other such objects: it can be in no cycle, so untracking it now is what the
/// collector does when it first meets it, and Python tracks a dict again if a container
/// is put in it. Kept by the million, results made of such objects then cost full
/// collections nothing.
pub fn untrack<T>(obj: &Bound<'_, T>) {
    // SAFETY: `obj` is a live object we hold, of a type with GC support (a dict or a
    // tuple), holding only atomic objects as said above.
    unsafe { pyo3::ffi::PyObject_GC_UnTrack(obj.as_ptr().cast()) };
}

/// Places of the group entries made: shape, kind, wild places, meld.
const GROUP_ENTRIES: usize = 6 * 34 * 16 * 6;

/// The group entry `{"kind", "tiles", "wilds", "meld"}` (as `decompose` writes groups),
/// copied from a template made once per group.
pub fn group<'py>(py: Python<'py>, g: &Group) -> PyResult<Bound<'py, PyAny>> {
    static MADE: std::sync::OnceLock<Box<[pyo3::sync::PyOnceLock<Py<PyDict>>]>> = std::sync::OnceLock::new();
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
        Ok::<_, PyErr>(template(d))
    })?;
    copy(py, entry)
}

/// The entry of concealed tiles that make no groups (十三幺, a knitted form, the rest of a
/// loose hand) as one group of `kind`: the kinds the tiles stand for, and the wilds'.
pub fn loose<'py>(py: Python<'py>, kind: &str, kinds: &[Tile], wilds: &[Tile]) -> PyResult<Bound<'py, PyAny>> {
    let d = PyDict::new(py);
    d.set_item(pyo3::intern!(py, "kind"), kind)?;
    d.set_item(pyo3::intern!(py, "tiles"), PyTuple::new(py, kinds.iter().map(|&t| tiles::name(t)))?)?;
    d.set_item(pyo3::intern!(py, "wilds"), PyTuple::new(py, wilds.iter().map(|&t| tiles::name(t)))?)?;
    d.set_item(pyo3::intern!(py, "meld"), py.None())?;
    untrack(&d);
    Ok(d.into_any())
}
