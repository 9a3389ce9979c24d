//! Fan and group entries of results: a `Fan` made once a pattern and count, a `Group`
//! made once a group, shared by every result that holds them (they cannot change), each
//! with its JSON text made once. And the templates of the analysis's answer dicts.

use pyo3::exceptions::PySystemError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString, PyTuple};

use super::answer;
use super::result::{untracked, PyFan, PyGroup};
use crate::hand::MeldKind;
use crate::inline::Inline;
use crate::score::group::{write_groups, Group, MAX_GROUPS, NO_GROUP};
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

/// A fan's entries, by count: a shared `Fan` for each count, `base` with its `count` set.
pub struct Counted {
    base: Py<PyDict>,
    by_count: Vec<Py<PyFan>>,
    /// The JSON text of an entry (see `answer`) before its count and after it: the text
    /// of any count is written without Python.
    json: (Box<[u8]>, Box<[u8]>),
}

impl Counted {
    /// The entries of a fan whose keys are those of `base`; the keys that not every
    /// fan has (MCR's `points`, Longgang's `tai`) become attributes of `Fan`.
    pub fn new(py: Python<'_>, base: &Bound<'_, PyDict>) -> PyResult<Counted> {
        let class = py.get_type::<PyFan>();
        for k in base.keys() {
            if let Ok(name) = k.cast::<PyString>() {
                super::result::declare(&class, name.to_str()?)?;
            }
        }
        let dicts = (0..=COUNTS).map(|n| counted_dict(py, base, n)).collect::<PyResult<Vec<_>>>()?;
        // `"count":0` is the key's own text: a quote inside a str is written `\"`.
        let text = answer::dumps(dicts[0].as_any())?;
        let at = text
            .windows(9)
            .position(|w| w == b"\"count\":0")
            .ok_or_else(|| PySystemError::new_err("a fan entry without its count"))?;
        let json = (text[..at + 8].into(), text[at + 9..].into());
        let by_count =
            dicts.into_iter().map(|d| Ok(untracked(py, PyFan::new(d))?.unbind())).collect::<PyResult<_>>()?;
        Ok(Counted { base: base.clone().unbind(), by_count, json })
    }

    /// The JSON text of an entry with this count, written to `out`.
    pub fn json(&self, count: usize, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.json.0);
        answer::int(out, count as i128);
        out.extend_from_slice(&self.json.1);
    }

    /// The entry with this count, shared.
    pub fn get<'py>(&self, py: Python<'py>, count: usize) -> PyResult<Bound<'py, PyFan>> {
        match self.by_count.get(count) {
            Some(f) => Ok(f.bind(py).clone()),
            None => untracked(py, PyFan::new(counted_dict(py, self.base.bind(py), count)?)),
        }
    }

    /// A new dict of the entry with this count (a result's `to_dict`, `explain`).
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

/// What a group's entry says, `{"kind", "tiles", "wilds", "meld"}`, as `decompose`
/// writes groups: written as a dict or as its JSON text from these fields alone.
struct Fields<'a> {
    kind: &'a str,
    tiles: &'a [Tile],
    wilds: &'a [Tile],
    meld: Option<&'static str>,
}

impl Fields<'_> {
    /// The entry as a new dict.
    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item(pyo3::intern!(py, "kind"), self.kind)?;
        d.set_item(pyo3::intern!(py, "tiles"), tile_names(py, self.tiles)?)?;
        d.set_item(pyo3::intern!(py, "wilds"), tile_names(py, self.wilds)?)?;
        d.set_item(pyo3::intern!(py, "meld"), self.meld)?;
        Ok(d)
    }

    /// The entry's JSON text, as orjson writes the dict.
    fn json(&self, out: &mut Vec<u8>) {
        let names = |out: &mut Vec<u8>, tiles: &[Tile]| {
            out.push(b'[');
            for (i, &t) in tiles.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                answer::string(out, &tiles::name(t));
            }
            out.push(b']');
        };
        out.extend_from_slice(b"{\"kind\":");
        answer::string(out, self.kind);
        out.extend_from_slice(b",\"tiles\":");
        names(out, self.tiles);
        out.extend_from_slice(b",\"wilds\":");
        names(out, self.wilds);
        out.extend_from_slice(b",\"meld\":");
        match self.meld {
            Some(m) => answer::string(out, m),
            None => out.extend_from_slice(b"null"),
        }
        out.push(b'}');
    }
}

/// What is made once for a group: its entry's JSON text and the group's text, and the
/// shared entry when it is first read.
pub struct Made {
    group: Group,
    record: pyo3::sync::PyOnceLock<Py<PyGroup>>,
    json: &'static [u8],
    text: &'static str,
}

/// What stands in the places of [`Entries`] past its length.
static NO_MADE: Made = Made { group: NO_GROUP, record: pyo3::sync::PyOnceLock::new(), json: b"", text: "" };

impl Made {
    /// What is made for `g`, kept for the life of the process (as the table of them is).
    fn new(g: &Group) -> Made {
        let mut json = vec![];
        let (tiles, wilds): (Vec<Tile>, Vec<Tile>) = (g.kinds().collect(), g.wild_kinds().collect());
        Fields { kind: g.shape.name(), tiles: &tiles, wilds: &wilds, meld: g.meld.map(MeldKind::name) }.json(&mut json);
        let mut text = String::new();
        write_groups(std::slice::from_ref(g), &mut text);
        Made { group: *g, record: pyo3::sync::PyOnceLock::new(), json: json.leak(), text: text.leak() }
    }

    fn fields<R>(&self, then: impl FnOnce(&Fields<'_>) -> R) -> R {
        let g = &self.group;
        let (tiles, wilds): (Vec<Tile>, Vec<Tile>) = (g.kinds().collect(), g.wild_kinds().collect());
        then(&Fields { kind: g.shape.name(), tiles: &tiles, wilds: &wilds, meld: g.meld.map(MeldKind::name) })
    }

    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyGroup>> {
        let r = self.record.get_or_try_init(py, || {
            Ok::<_, PyErr>(untracked(py, PyGroup::new(self.fields(|f| f.dict(py))?))?.unbind())
        })?;
        Ok(r.bind(py).clone())
    }
}

/// Most tiles of a loose entry: every concealed tile of a hand (17 at most) and then some.
const LOOSE_TILES: usize = 24;

/// The kinds of a loose entry's tiles, kept inline.
type LooseTiles = Inline<Tile, LOOSE_TILES>;

/// The entry of concealed tiles that make no groups (十三幺, a knitted form, the rest of a
/// loose hand) as one group of `kind`: the kinds the tiles stand for, and the wilds'.
#[derive(Clone, Copy)]
pub struct Loose {
    kind: &'static str,
    tiles: LooseTiles,
    wilds: LooseTiles,
}

impl Loose {
    fn fields(&self) -> Fields<'_> {
        Fields { kind: self.kind, tiles: &self.tiles, wilds: &self.wilds, meld: None }
    }
}

/// An entry of a result's groups: made once a group, or a loose group's.
#[derive(Clone, Copy)]
pub enum Entry<'a> {
    Made(&'static Made),
    Loose(&'a Loose),
}

impl Entry<'_> {
    /// The entry as a result gives it: a `Group`, shared where it can be.
    pub fn object<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Entry::Made(m) => Ok(m.record(py)?.into_any()),
            Entry::Loose(l) => Ok(untracked(py, PyGroup::new(l.fields().dict(py)?))?.into_any()),
        }
    }

    /// The entry as a new dict (a result's `to_dict`).
    pub fn dict<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self {
            Entry::Made(m) => m.fields(|f| f.dict(py))?.into_any(),
            Entry::Loose(l) => l.fields().dict(py)?.into_any(),
        })
    }

    /// The entry's JSON text, written to `out`.
    pub fn json(self, out: &mut Vec<u8>) {
        match self {
            Entry::Made(m) => out.extend_from_slice(m.json),
            Entry::Loose(l) => l.fields().json(out),
        }
    }
}

/// A result's group entries, kept inline (a result allocates nothing for them): the loose
/// entry first, if any, then the groups, each made once.
pub struct Entries {
    loose: Option<Loose>,
    made: Inline<&'static Made, MAX_GROUPS>,
}

impl Entries {
    pub const NONE: Entries = Entries { loose: None, made: Inline::filled(&NO_MADE) };

    /// Entries starting with a loose group of `kind`: the kinds its tiles stand for
    /// (`tiles`) and those its wilds stand for (`wilds`), each put in order.
    pub fn loose(
        kind: &'static str,
        tiles: impl IntoIterator<Item = Tile>,
        wilds: impl IntoIterator<Item = Tile>,
    ) -> PyResult<Entries> {
        let mut l = Loose { kind, tiles: Inline::filled(0), wilds: Inline::filled(0) };
        if !tiles.into_iter().all(|t| l.tiles.push(t)) || !wilds.into_iter().all(|t| l.wilds.push(t)) {
            return Err(PySystemError::new_err(format!("a loose group of more than {LOOSE_TILES} tiles")));
        }
        l.tiles.as_mut_slice().sort_unstable();
        l.wilds.as_mut_slice().sort_unstable();
        Ok(Entries { loose: Some(l), ..Entries::NONE })
    }

    /// Adds the entries of `groups`, made once a group; writes their text to `out` as
    /// `write_groups` writes it.
    pub fn groups(&mut self, groups: impl IntoIterator<Item = Group>, out: &mut String) -> PyResult<()> {
        static MADE: std::sync::OnceLock<Box<[std::sync::OnceLock<Made>]>> = std::sync::OnceLock::new();
        let made = MADE.get_or_init(|| (0..GROUP_ENTRIES).map(|_| std::sync::OnceLock::new()).collect());
        for (n, g) in groups.into_iter().enumerate() {
            let meld = g.meld.map_or(0, |m| m as usize + 1);
            let key = ((g.shape as usize * 34 + g.tile as usize) * 16 + (g.wilds & 15) as usize) * 6 + meld;
            let made = made[key.min(GROUP_ENTRIES - 1)].get_or_init(|| Made::new(&g));
            if n > 0 {
                out.push(' ');
            }
            out.push_str(made.text);
            if !self.made.push(made) {
                return Err(PySystemError::new_err(format!("more than {MAX_GROUPS} groups")));
            }
        }
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.loose.is_some() as usize + self.made.len()
    }

    /// The `i`-th entry (below `len`).
    pub fn get(&self, i: usize) -> Entry<'_> {
        match (&self.loose, i) {
            (Some(l), 0) => Entry::Loose(l),
            (Some(_), i) => Entry::Made(self.made[i - 1]),
            (None, i) => Entry::Made(self.made[i]),
        }
    }
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
