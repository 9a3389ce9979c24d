//! Fan and group entries: plain dicts, each result's own, copied from templates made once
//! a fan and count or a group. `PyDict_Copy` of a template clones its key table whole,
//! hashing no key again; the values are strs, ints, bools, None and tuples of strs, which
//! the copies share (they cannot change). A template holds no container the collector
//! must follow, and is left untracked, so its copies are too: results kept by the million
//! cost full collections nothing, as long as nobody puts a container in an entry.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString, PyTuple};

use crate::hand::MeldKind;
use crate::score::group::{write_groups, Group};
use crate::tiles::{self, Tile};

/// A template of entries: `d`, left untracked when it holds only strs, ints, bools, None
/// and tuples of them (or, in data a ruleset did not write, anything: it is then left
/// tracked, and so are its copies).
pub fn template<'py>(d: Bound<'py, PyDict>) -> Bound<'py, PyDict> {
    let mut atomic_only = true;
    for v in d.values().iter() {
        if let Ok(t) = v.cast::<PyTuple>() {
            if t.iter().all(|i| atomic(&i)) {
                untrack(t);
                continue;
            }
        }
        atomic_only &= atomic(&v);
    }
    if atomic_only {
        untrack(&d);
    }
    d
}

/// An entry of a result: a copy of `template`.
pub fn copy<'py>(template: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyAny>> {
    Ok(template.copy()?.into_any())
}

/// Whether `v` can hold no other object: None, a bool, an int, a float or a str.
fn atomic(v: &Bound<'_, PyAny>) -> bool {
    v.is_none()
        || v.is_exact_instance_of::<PyBool>()
        || v.is_exact_instance_of::<PyInt>()
        || v.is_exact_instance_of::<PyFloat>()
        || v.is_exact_instance_of::<PyString>()
}

/// Counts up to this have their fan templates made once.
const COUNTS: usize = 16;

/// A fan's entries, by count: a template for each count, `base` with its `count` set.
pub struct Counted {
    base: Py<PyDict>,
    by_count: Vec<Py<PyDict>>,
}

impl Counted {
    pub fn new(py: Python<'_>, base: &Bound<'_, PyDict>) -> PyResult<Counted> {
        let by_count =
            (0..=COUNTS).map(|n| Ok(template(counted_dict(py, base, n)?).unbind())).collect::<PyResult<_>>()?;
        Ok(Counted { base: base.clone().unbind(), by_count })
    }

    /// A new entry with this count.
    pub fn get<'py>(&self, py: Python<'py>, count: usize) -> PyResult<Bound<'py, PyAny>> {
        match self.by_count.get(count) {
            Some(t) => copy(t.bind(py)),
            None => Ok(counted_dict(py, self.base.bind(py), count)?.into_any()),
        }
    }

    /// A new entry with this count, as a dict to add to (`explain`).
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

/// A tuple of a result's entries (or of other objects that hold no container).
pub fn tuple<'py>(py: Python<'py>, entries: Vec<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyTuple>> {
    let t = PyTuple::new(py, entries)?;
    untrack(&t);
    Ok(t)
}

/// Leaves `obj` to Python's collector only when something it must follow is put in it.
///
/// Only for a dict, tuple or list just made that holds strs, ints, bools, None, entries
/// copied from templates and other such objects: it can be in no cycle, so untracking it
/// now is what the collector does when it first meets a dict or tuple, and Python tracks
/// a dict again if a container is put in it. Kept by the million, results made of such
/// objects then cost full collections nothing. A list is not tracked again: a cycle a
/// user makes through one (only the analysis's answer lists are left so) is not
/// collected, which docs/analysis.md says.
pub fn untrack<T>(obj: &Bound<'_, T>) {
    // SAFETY: `obj` is a live object we hold, of a type with GC support (a dict, tuple or
    // list), holding only objects as said above; untracking an untracked one is allowed.
    unsafe { pyo3::ffi::PyObject_GC_UnTrack(obj.as_ptr().cast()) };
}

/// Places of the group templates made: shape, kind, wild places, meld.
const GROUP_ENTRIES: usize = 6 * 34 * 16 * 6;

/// What is made once for a group: the template of its entry, and its text.
struct Made {
    template: Py<PyDict>,
    text: Box<str>,
}

/// New entries of `groups` (`{"kind", "tiles", "wilds", "meld"}`, as `decompose` writes
/// groups), copied from templates made once a group; their text is written to `out` as
/// `write_groups` writes it.
pub fn groups<'py>(py: Python<'py>, groups: &[Group], out: &mut String) -> PyResult<Vec<Bound<'py, PyAny>>> {
    static MADE: std::sync::OnceLock<Box<[pyo3::sync::PyOnceLock<Made>]>> = std::sync::OnceLock::new();
    let made = MADE.get_or_init(|| (0..GROUP_ENTRIES).map(|_| pyo3::sync::PyOnceLock::new()).collect());
    let mut entries = Vec::with_capacity(groups.len());
    for (n, g) in groups.iter().enumerate() {
        let meld = g.meld.map_or(0, |m| m as usize + 1);
        let key = ((g.shape as usize * 34 + g.tile as usize) * 16 + (g.wilds & 15) as usize) * 6 + meld;
        let made = made[key.min(GROUP_ENTRIES - 1)].get_or_try_init(py, || {
            let d = PyDict::new(py);
            d.set_item(pyo3::intern!(py, "kind"), g.shape.name())?;
            let names: Vec<String> = g.kinds().map(tiles::name).collect();
            d.set_item(pyo3::intern!(py, "tiles"), PyTuple::new(py, names)?)?;
            let wilds: Vec<String> = g.wild_kinds().map(tiles::name).collect();
            d.set_item(pyo3::intern!(py, "wilds"), PyTuple::new(py, wilds)?)?;
            d.set_item(pyo3::intern!(py, "meld"), g.meld.map(MeldKind::name))?;
            let mut text = String::new();
            write_groups(std::slice::from_ref(g), &mut text);
            Ok::<_, PyErr>(Made { template: template(d).unbind(), text: text.into() })
        })?;
        if n > 0 {
            out.push(' ');
        }
        out.push_str(&made.text);
        entries.push(copy(made.template.bind(py))?);
    }
    Ok(entries)
}

/// The entry of concealed tiles that make no groups (十三幺, a knitted form, the rest of a
/// loose hand) as one group of `kind`: the kinds the tiles stand for, and the wilds'.
pub fn loose<'py>(py: Python<'py>, kind: &str, kinds: &[Tile], wilds: &[Tile]) -> PyResult<Bound<'py, PyAny>> {
    let d = PyDict::new(py);
    d.set_item(pyo3::intern!(py, "kind"), kind)?;
    d.set_item(pyo3::intern!(py, "tiles"), tile_names(py, kinds)?)?;
    d.set_item(pyo3::intern!(py, "wilds"), tile_names(py, wilds)?)?;
    d.set_item(pyo3::intern!(py, "meld"), py.None())?;
    Ok(template(d).into_any())
}

/// The names of `tiles`, a tuple of interned strs.
fn tile_names<'py>(py: Python<'py>, tiles: &[Tile]) -> PyResult<Bound<'py, PyTuple>> {
    static NAMES: pyo3::sync::PyOnceLock<Vec<Py<PyString>>> = pyo3::sync::PyOnceLock::new();
    let names = NAMES.get_or_init(py, || {
        (0..tiles::KINDS as Tile).map(|t| PyString::intern(py, &tiles::name(t)).unbind()).collect()
    });
    let name = |t: Tile| match names.get(t as usize) {
        Some(n) => n.bind(py).clone(),
        None => PyString::new(py, &tiles::name(t)),
    };
    PyTuple::new(py, tiles.iter().map(|&t| name(t)))
}
