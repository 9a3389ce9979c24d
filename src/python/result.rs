//! `haidi._core.Result`, `Fan`, `Group` and `Record`: what `evaluate` returns, for every
//! ruleset. A result keeps what its scorer scored ([`Scoring`]) and reads `win`, `total`
//! and `fans` from it; its other values are written once, key by key in its dict's order,
//! as Rust values ([`Val`]), when the first of them is read. It makes a Python object of
//! a part only when that part is read. Its dict (`to_dict`) and its JSON text are written
//! from the same values, so that the three cannot say different things.
//!
//! A result and its entries are immutable: no attribute or item can be set. The fan
//! entries (one a pattern and count) and the group entries (one a group) are made once
//! and shared by every result that holds them.

use pyo3::exceptions::{PyAttributeError, PyKeyError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyList, PyString, PyTuple, PyType};

use super::answer::{self, Key};
use super::entry::Entries;
use super::score::PyScheme;
use crate::score::evaluate::Item;

/// A value of a result's key, as Rust keeps it until it is read.
pub enum Val {
    None,
    Bool(bool),
    Int(i64),
    Str(String),
    /// Text the scorer keeps (a reason).
    Shared(std::sync::Arc<str>),
    Static(&'static str),
    /// Texts: a list in the dict, a tuple when read.
    Strs(Vec<String>),
    /// The fans counted: the place of each in the scorer's table, and its count.
    Fans(Vec<(u16, u16)>),
    Groups(Box<Entries>),
    /// Longgang's `face_items`: each item and its 胡.
    FaceItems(Vec<(Item, i32)>),
    /// A constant of the ruleset's data: the place of its key among the scheme's.
    Const(u16),
    /// A value made for this result alone (explain's list), read frozen.
    Py(Py<PyAny>),
    /// A value already frozen (a result read back from a pickle).
    Frozen(Py<PyAny>),
}

/// Who wrote a result: the table of its keys beyond the common ones and of its fans.
pub enum Source {
    Mcr,
    Scheme(Py<PyScheme>),
}

impl Source {
    /// The key of `id`: a common key, or one of the scheme's own; None past its keys.
    fn key(&self, id: u16) -> Option<&Key> {
        match (self, answer::common_key(id)) {
            (_, Some(k)) => Some(k),
            (Source::Scheme(s), None) => s.get().extra_key(id),
            (Source::Mcr, None) => None,
        }
    }

    fn ruleset(&self) -> &str {
        match self {
            Source::Mcr => "mcr",
            Source::Scheme(s) => s.get().ruleset_name(),
        }
    }
}

/// A result being written: its keys in order, each with its value.
pub struct Writer {
    vals: Vec<(u16, Val)>,
}

impl Writer {
    pub fn new(keys: usize) -> Writer {
        Writer { vals: Vec::with_capacity(keys) }
    }

    pub fn put(&mut self, key: &Key, v: Val) {
        self.vals.push((key.id(), v));
    }

    /// The values written so far.
    pub fn vals(&self) -> &[(u16, Val)] {
        &self.vals
    }

    pub fn finish(self, source: Source, loser: bool) -> PyResult_ {
        PyResult_ { source, loser, vals: std::sync::OnceLock::from(self.vals), scored: None }
    }
}

/// What a scorer scored, kept by its result until a value other than `win`, `total` and
/// `fans` is first read: the values are then written from it, once (see
/// [`PyResult_::vals`]). A result read for those three alone writes nothing else.
pub enum Scoring {
    Mcr(Box<crate::mcr::score::Scored>),
    Scheme(Box<crate::score::evaluate::Scored>),
}

impl Scoring {
    /// The result of `scored`, its values written when first read.
    pub fn result(self, source: Source) -> PyResult_ {
        let loser = match &self {
            Scoring::Mcr(_) => false,
            Scoring::Scheme(s) => s.loser,
        };
        PyResult_ { source, loser, vals: std::sync::OnceLock::new(), scored: Some(self) }
    }

    fn win(&self) -> bool {
        match self {
            Scoring::Mcr(r) => r.win,
            Scoring::Scheme(s) => s.win,
        }
    }

    fn total(&self) -> i64 {
        match self {
            Scoring::Mcr(r) => r.total.into(),
            Scoring::Scheme(s) => super::score::total_of(s),
        }
    }

    fn fans(&self) -> Val {
        match self {
            Scoring::Mcr(r) => super::mcr::fans_val(r),
            Scoring::Scheme(s) => super::score::fans_val(s),
        }
    }
}

/// What a result's JSON text reads of the scorer that wrote it, borrowed: enough to
/// write the text without Python (a batch writes its lines on every core).
#[derive(Clone, Copy)]
pub enum Table<'a> {
    Mcr(&'a [super::entry::Counted]),
    /// A scheme, and whether the result is a 陪家's (a loser's fan entries).
    Scheme(&'a PyScheme, bool),
}

impl Table<'_> {
    fn key(&self, id: u16) -> Option<&Key> {
        match (self, answer::common_key(id)) {
            (_, Some(k)) => Some(k),
            (Table::Scheme(s, _), None) => s.extra_key(id),
            (Table::Mcr(_), None) => None,
        }
    }
}

/// Writes the JSON text of a result's values (what `orjson.dumps` writes of its dict):
/// all but the values made for one result alone (`explain`'s list), which `made` writes
/// and which only a caller holding the GIL has.
pub fn json(
    table: Table<'_>,
    vals: &[(u16, Val)],
    out: &mut Vec<u8>,
    mut made: impl FnMut(&Val, &mut Vec<u8>) -> PyResult<()>,
) -> PyResult<()> {
    let past = || pyo3::exceptions::PySystemError::new_err("a result's value past its table");
    out.push(b'{');
    for (i, (k, v)) in vals.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(table.key(*k).ok_or_else(past)?.json());
        match v {
            Val::None => out.extend_from_slice(b"null"),
            Val::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            Val::Int(n) => answer::int(out, (*n).into()),
            Val::Str(s) => answer::string(out, s),
            Val::Shared(s) => answer::string(out, s),
            Val::Static(s) => answer::string(out, s),
            Val::Strs(v) => {
                out.push(b'[');
                for (i, s) in v.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    answer::string(out, s);
                }
                out.push(b']');
            }
            Val::Fans(fans) => {
                let entries = match table {
                    Table::Mcr(fans) => fans,
                    Table::Scheme(s, loser) => s.fan_entries(loser),
                };
                out.push(b'[');
                for (i, &(at, n)) in fans.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    entries.get(at as usize).ok_or_else(past)?.json(n as usize, out);
                }
                out.push(b']');
            }
            Val::Groups(g) => {
                out.push(b'[');
                for i in 0..g.len() {
                    if i > 0 {
                        out.push(b',');
                    }
                    g.get(i).json(out);
                }
                out.push(b']');
            }
            Val::FaceItems(items) => {
                let Table::Scheme(s, _) = table else { return Err(past()) };
                out.push(b'[');
                for (i, &item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    s.face_item_json(item, out);
                }
                out.push(b']');
            }
            Val::Const(at) => {
                let Table::Scheme(s, _) = table else { return Err(past()) };
                out.extend_from_slice(s.constant_json(*at));
            }
            Val::Py(_) | Val::Frozen(_) => made(v, out)?,
        }
    }
    out.push(b'}');
    Ok(())
}

/// The result of scoring one situation (`evaluate`): whether it wins, the total, the
/// fans counted, the arrangement, and the ruleset's own keys.
///
/// Read it by attribute (`r.win`, `r.total`, `r.fans`; a ruleset's own keys such as
/// `r.tai` too) or as a read-only mapping (`r["total"]`, `"tai" in r`, `dict(r)`).
/// `to_dict()` gives it as plain dicts, lists and tuples (`json.dumps(r.to_dict())`),
/// `to_json()` as its JSON text. It cannot be changed.
#[pyclass(name = "Result", module = "haidi._core", frozen, mapping)]
pub struct PyResult_ {
    source: Source,
    /// A 陪家's result: its fans are the loser's entries.
    loser: bool,
    /// Its keys in order, each with its value: written when the result is made, or from
    /// `scored` when first read.
    vals: std::sync::OnceLock<Vec<(u16, Val)>>,
    scored: Option<Scoring>,
}

impl PyResult_ {
    /// The values, written from what was scored if they are not yet.
    fn vals(&self, py: Python<'_>) -> PyResult<&[(u16, Val)]> {
        if let Some(v) = self.vals.get() {
            return Ok(v);
        }
        let c = answer::common(py);
        let written = match (&self.scored, &self.source) {
            (Some(Scoring::Mcr(r)), _) => super::mcr::values(c, r)?,
            (Some(Scoring::Scheme(scored)), Source::Scheme(s)) => {
                // The kind sets the rules of some keys read, as the situation resolved them.
                let this = s.get();
                super::score::values(this, c, &this.scheme().sets_of(&scored.situation), scored)?
            }
            _ => return Err(pyo3::exceptions::PySystemError::new_err("a result without its values")),
        };
        // Another thread may have written them meanwhile: the same values, and theirs kept.
        Ok(self.vals.get_or_init(|| written.vals))
    }

    fn find(&self, py: Python<'_>, name: &str) -> PyResult<Option<&Val>> {
        let source = &self.source;
        Ok(self.vals(py)?.iter().find(|(k, _)| source.key(*k).is_some_and(|k| k.text() == name)).map(|(_, v)| v))
    }

    /// The value of item `key`: None where it is no key of the result (or no str).
    fn item(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Option<&Val>> {
        match key.cast::<PyString>().ok().and_then(|k| k.to_str().ok()) {
            Some(k) => self.find(py, k),
            None => Ok(None),
        }
    }

    /// The key of `id`, which the result's writer was given by its source.
    fn key(&self, id: u16) -> PyResult<&Key> {
        self.source.key(id).ok_or_else(|| pyo3::exceptions::PySystemError::new_err("a result key past its table"))
    }

    fn common(&self, py: Python<'_>, id: u16) -> PyResult<Option<&Val>> {
        Ok(self.vals(py)?.iter().find(|(k, _)| *k == id).map(|(_, v)| v))
    }

    fn get_common<'py>(&self, py: Python<'py>, id: u16) -> PyResult<Bound<'py, PyAny>> {
        match self.common(py, id)? {
            Some(v) => self.value(py, v, true),
            None => Ok(py.None().into_bound(py)),
        }
    }

    /// The fan entries of the scorer that wrote it.
    fn fan_table(&self, py: Python<'_>) -> PyResult<&[super::entry::Counted]> {
        Ok(match &self.source {
            Source::Mcr => super::mcr::shared_fans(py)?,
            Source::Scheme(s) => s.get().fan_entries(self.loser),
        })
    }

    /// A value as Python reads it: frozen (entries, tuples) or as the dict holds it.
    fn value<'py>(&self, py: Python<'py>, v: &Val, frozen: bool) -> PyResult<Bound<'py, PyAny>> {
        Ok(match v {
            Val::None => py.None().into_bound(py),
            Val::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
            Val::Int(n) => n.into_pyobject(py)?.into_any(),
            Val::Str(s) => PyString::new(py, s).into_any(),
            Val::Shared(s) => PyString::new(py, s).into_any(),
            Val::Static(s) => PyString::new(py, s).into_any(),
            Val::Strs(v) if frozen => PyTuple::new(py, v)?.into_any(),
            Val::Strs(v) => PyList::new(py, v)?.into_any(),
            Val::Fans(fans) => {
                let table = self.fan_table(py)?;
                let mut items = Vec::with_capacity(fans.len());
                for &(at, n) in fans {
                    let e = table
                        .get(at as usize)
                        .ok_or_else(|| pyo3::exceptions::PySystemError::new_err("a fan past its table"))?;
                    items.push(if frozen {
                        e.get(py, n as usize)?.into_any()
                    } else {
                        e.dict(py, n as usize)?.into_any()
                    });
                }
                PyTuple::new(py, items)?.into_any()
            }
            Val::Groups(g) => {
                let items = (0..g.len())
                    .map(|i| if frozen { g.get(i).object(py) } else { g.get(i).dict(py) })
                    .collect::<PyResult<Vec<_>>>()?;
                PyTuple::new(py, items)?.into_any()
            }
            Val::FaceItems(items) => {
                let Source::Scheme(s) = &self.source else {
                    return Err(pyo3::exceptions::PySystemError::new_err("face items without a scheme"));
                };
                let items = items
                    .iter()
                    .map(|&item| s.get().face_item_object(py, item, frozen))
                    .collect::<PyResult<Vec<_>>>()?;
                PyTuple::new(py, items)?.into_any()
            }
            Val::Const(at) => {
                let Source::Scheme(s) = &self.source else {
                    return Err(pyo3::exceptions::PySystemError::new_err("a constant without a scheme"));
                };
                let c = s.get().constant(py, *at);
                if frozen {
                    freeze(&c)?
                } else {
                    plain_copy(&c)?
                }
            }
            Val::Py(o) if frozen => freeze(o.bind(py))?,
            Val::Py(o) => plain_copy(o.bind(py))?,
            Val::Frozen(o) if frozen => o.bind(py).clone(),
            Val::Frozen(o) => thaw(o.bind(py))?,
        })
    }

    /// The result's JSON text: what `orjson.dumps(r.to_dict())` writes.
    pub fn json(&self, py: Python<'_>) -> PyResult<Vec<u8>> {
        let table = match &self.source {
            Source::Mcr => Table::Mcr(super::mcr::shared_fans(py)?),
            Source::Scheme(s) => Table::Scheme(s.get(), self.loser),
        };
        let mut out = Vec::with_capacity(answer::JSON_ROOM);
        json(table, self.vals(py)?, &mut out, |v, out| {
            match v {
                Val::Py(o) => out.extend_from_slice(&answer::dumps(o.bind(py))?),
                Val::Frozen(o) => out.extend_from_slice(&answer::dumps(&thaw(o.bind(py))?)?),
                _ => {}
            }
            Ok(())
        })?;
        Ok(out)
    }

    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.vals(py)?.iter() {
            d.set_item(self.key(*k)?.name(py), self.value(py, v, false)?)?;
        }
        Ok(d)
    }

    fn key_name<'py>(&self, py: Python<'py>, k: u16) -> PyResult<Bound<'py, PyString>> {
        Ok(self.key(k)?.name(py).clone())
    }
}

/// A new object of `value`, left out of the collector's lists: results and their entries
/// hold no object through which a cycle could come back to them (what they hold was made
/// before them and is never handed out to be changed), and declare no `__traverse__`, so
/// the collector could see nothing through them anyway. Kept by the million, they then
/// cost full collections nothing.
pub fn untracked<T: pyo3::PyClass>(py: Python<'_>, value: T) -> PyResult<Bound<'_, T>>
where
    pyo3::PyClassInitializer<T>: From<T>,
{
    let obj = Bound::new(py, value)?;
    super::entry::untrack(&obj);
    Ok(obj)
}

/// Tags of a value in a pickle's state.
const PLAIN: u8 = 0;
const FROZEN: u8 = 1;
const MADE: u8 = 2;

#[pymethods]
impl PyResult_ {
    /// The situation is a win: complete, and no rule of the ruleset refuses it.
    #[getter]
    fn win(&self, py: Python<'_>) -> PyResult<bool> {
        // Read from the score where the result keeps one (its values need not be written).
        Ok(match &self.scored {
            Some(s) => s.win(),
            None => matches!(self.common(py, answer::WIN)?, Some(Val::Bool(true))),
        })
    }

    /// The score (what it counts in each ruleset: docs/scoring.md); 0 when not complete.
    #[getter]
    fn total(&self, py: Python<'_>) -> PyResult<i64> {
        Ok(match &self.scored {
            Some(s) => s.total(),
            None => match self.common(py, answer::TOTAL)? {
                Some(Val::Int(n)) => *n,
                _ => 0,
            },
        })
    }

    /// The patterns counted, in the table's order: `Fan` entries.
    #[getter]
    fn fans<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.scored {
            Some(s) => self.value(py, &s.fans(), true),
            None => self.get_common(py, answer::FANS),
        }
    }

    /// Why `win` is false; None for a win.
    #[getter]
    fn reason<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.get_common(py, answer::REASON)
    }

    /// The form of the arrangement scored (`standard`, `seven_pairs` ...), None when not
    /// complete.
    #[getter]
    fn form<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.get_common(py, answer::FORM)
    }

    /// The arrangement scored in compact notation, None when not complete.
    #[getter]
    fn arrangement<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.get_common(py, answer::ARRANGEMENT)
    }

    /// The groups of the arrangement: `Group` entries.
    #[getter]
    fn groups<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.get_common(py, answer::GROUPS)
    }

    /// The ruleset that scored it (`"mcr"`, `"changsha"` ...).
    #[getter]
    fn ruleset(&self) -> &str {
        self.source.ruleset()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        match self.item(py, key)? {
            Some(v) => self.value(py, v, true),
            None => Err(PyKeyError::new_err(key.clone().unbind())),
        }
    }

    fn __contains__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.item(py, key)?.is_some())
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.vals(py)?.len())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let keys = self.vals(py)?.iter().map(|(k, _)| self.key_name(py, *k)).collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, keys)?.try_iter()?.into_any())
    }

    /// The keys, in order (a `KeysView`, as a dict's).
    fn keys<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        view(slf.as_any(), "KeysView")
    }

    /// The values, in the order of the keys (a `ValuesView`).
    fn values<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        view(slf.as_any(), "ValuesView")
    }

    /// `(key, value)` pairs, in order (an `ItemsView`).
    fn items<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        view(slf.as_any(), "ItemsView")
    }

    /// The value of `key`, or `default`.
    #[pyo3(signature = (key, default = None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match self.item(py, key)? {
            Some(v) => self.value(py, v, true),
            None => Ok(default.unwrap_or_else(|| py.None().into_bound(py))),
        }
    }

    /// The result as a new plain dict: fans and groups as tuples of dicts, lists where
    /// the result has lists; what `json.dumps` takes.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.dict(py)
    }

    /// The result's JSON text (UTF-8 bytes): what `orjson.dumps(r.to_dict())` writes.
    fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &self.json(py)?))
    }

    fn __eq__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let mine = self.dict(py)?;
        if let Ok(o) = other.cast::<PyResult_>() {
            return Ok(PyBool::new(py, mine.eq(o.get().dict(py)?)?).to_owned().into_any());
        }
        if other.cast::<PyDict>().is_ok() {
            return Ok(PyBool::new(py, mine.eq(other)?).to_owned().into_any());
        }
        Ok(py.NotImplemented().into_bound(py))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut s = format!("Result({}: ", self.source.ruleset());
        for (i, (k, v)) in self.vals(py)?.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            let name = self.key_name(py, *k)?;
            s.push_str(&format!("{}={}", name.to_str()?, self.value(py, v, true)?.repr()?.to_str()?));
        }
        s.push(')');
        Ok(s)
    }

    /// The result as HTML, for a notebook: `haidi.html(r)`.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py().import("haidi.display")?.getattr("html")?.call1((slf,))?.extract()
    }

    /// Pickled as its scorer and its values (fans and groups as their entries).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let source = match &self.source {
            Source::Mcr => py.None().into_bound(py),
            Source::Scheme(s) => s.bind(py).clone().into_any(),
        };
        let vals = self.vals(py)?;
        let mut state = Vec::with_capacity(vals.len());
        for (k, v) in vals.iter() {
            let (tag, payload) = match v {
                Val::None
                | Val::Bool(_)
                | Val::Int(_)
                | Val::Str(_)
                | Val::Shared(_)
                | Val::Static(_)
                | Val::Strs(_) => (PLAIN, self.value(py, v, false)?),
                Val::Py(o) => (MADE, o.bind(py).clone()),
                _ => (FROZEN, self.value(py, v, true)?),
            };
            state.push((self.key_name(py, *k)?, tag, payload));
        }
        let restore = py.import("haidi._core")?.getattr("Result")?.getattr("_restore")?;
        (restore, (source, self.loser, PyTuple::new(py, state)?)).into_pyobject(py).map(Bound::into_any)
    }

    /// A result again from its pickle (see `__reduce__`).
    #[staticmethod]
    fn _restore(
        py: Python<'_>,
        source: &Bound<'_, PyAny>,
        loser: bool,
        state: Vec<(Bound<'_, PyString>, u8, Bound<'_, PyAny>)>,
    ) -> PyResult<Self> {
        let source = match source.cast::<PyScheme>() {
            Ok(s) => Source::Scheme(s.clone().unbind()),
            Err(_) if source.is_none() => Source::Mcr,
            Err(_) => return Err(PyTypeError::new_err("a result's scorer is a Scheme or None")),
        };
        // The common keys, for a process that unpickles a result before it makes one.
        answer::common(py);
        let mut vals = Vec::with_capacity(state.len());
        for (name, tag, payload) in state {
            let name = name.to_str()?;
            let id = (0..u16::MAX).map_while(|id| source.key(id).map(|k| (id, k))).find(|(_, k)| k.text() == name);
            let Some((id, _)) = id else {
                return Err(PyTypeError::new_err(format!("a result of this ruleset has no key {name:?}")));
            };
            let v = match tag {
                PLAIN if payload.is_none() => Val::None,
                PLAIN if payload.is_instance_of::<PyBool>() => Val::Bool(payload.extract()?),
                PLAIN if payload.is_instance_of::<PyInt>() => Val::Int(payload.extract()?),
                PLAIN if payload.is_instance_of::<PyString>() => Val::Str(payload.extract()?),
                PLAIN => Val::Strs(payload.extract()?),
                MADE => Val::Py(payload.unbind()),
                _ => Val::Frozen(payload.unbind()),
            };
            vals.push((id, v));
        }
        Ok(PyResult_ { source, loser, vals: std::sync::OnceLock::from(vals), scored: None })
    }
}

/// An immutable copy of a plain value: dicts as `Record`s, lists and tuples as tuples.
pub fn freeze<'py>(v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = v.py();
    if let Ok(d) = v.cast::<PyDict>() {
        let frozen = PyDict::new(py);
        for (k, x) in d.iter() {
            frozen.set_item(k, freeze(&x)?)?;
        }
        return Ok(untracked(py, PyRecord::new(frozen))?.into_any());
    }
    if v.cast::<PyList>().is_ok() || v.is_exact_instance_of::<PyTuple>() {
        let items = v.try_iter()?.map(|x| freeze(&x?)).collect::<PyResult<Vec<_>>>()?;
        return Ok(PyTuple::new(py, items)?.into_any());
    }
    Ok(v.clone())
}

/// A plain copy of a frozen value: entries as dicts, tuples as tuples.
pub fn thaw<'py>(v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = v.py();
    let record = if let Ok(r) = v.cast::<PyFan>() {
        Some(r.get().d.bind(py).clone())
    } else if let Ok(r) = v.cast::<PyGroup>() {
        Some(r.get().d.bind(py).clone())
    } else {
        v.cast::<PyRecord>().ok().map(|r| r.get().d.bind(py).clone())
    };
    if let Some(d) = record {
        return Ok(thaw_dict(&d)?.into_any());
    }
    if v.is_exact_instance_of::<PyTuple>() {
        let items = v.try_iter()?.map(|x| thaw(&x?)).collect::<PyResult<Vec<_>>>()?;
        return Ok(PyTuple::new(py, items)?.into_any());
    }
    Ok(v.clone())
}

/// A new dict of an entry's keys and values, each thawed.
fn thaw_dict<'py>(d: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(d.py());
    for (k, x) in d.iter() {
        out.set_item(k, thaw(&x)?)?;
    }
    Ok(out)
}

/// A new copy of a plain value (dicts and lists copied, all the way down).
fn plain_copy<'py>(v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = v.py();
    if let Ok(d) = v.cast::<PyDict>() {
        let out = PyDict::new(py);
        for (k, x) in d.iter() {
            out.set_item(k, plain_copy(&x)?)?;
        }
        return Ok(out.into_any());
    }
    if let Ok(l) = v.cast::<PyList>() {
        let items = l.iter().map(|x| plain_copy(&x)).collect::<PyResult<Vec<_>>>()?;
        return Ok(PyList::new(py, items)?.into_any());
    }
    Ok(v.clone())
}

/// The methods every entry class shares: typed attributes for its fields (struct members,
/// which Python reads as fast as `__slots__`), the read-only mapping of its dict, and the
/// class's own `methods`. A class with `__getattr__` is read slower, every attribute
/// through it: only `Record`, whose keys vary, has one; a ruleset's own fan keys are
/// attributes by [`declare`].
macro_rules! entry_class {
    ($rust:ident, $name:literal, $doc:literal, [$($field:ident: $field_doc:literal),*] $(, { $($methods:tt)* })?) => {
        #[doc = $doc]
        #[pyclass(name = $name, module = "haidi._core", frozen, mapping)]
        pub struct $rust {
            /// Its keys and values: never handed out, so never changed.
            d: Py<PyDict>,
            // The typed fields' values, read once from `d` (None where it has none: every
            // entry a scorer makes has them all), each an attribute read as a struct member.
            $(
                #[doc = $field_doc]
                #[pyo3(get)]
                $field: Py<PyAny>,
            )*
        }

        impl $rust {
            /// An entry of the keys and values of `d` (which nobody else may hold).
            pub fn new(d: Bound<'_, PyDict>) -> Self {
                $(
                    let $field = match d.get_item(stringify!($field)).ok().flatten() {
                        Some(v) => v.unbind(),
                        None => d.py().None(),
                    };
                )*
                $rust { d: d.unbind(), $($field,)* }
            }

            /// A new dict of its keys and values.
            pub fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
                self.d.bind(py).copy()
            }
        }

        #[pymethods]
        impl $rust {
            $($($methods)*)?

            fn __getitem__<'py>(&self, py: Python<'py>, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
                self.d.bind(py).get_item(key)?.ok_or_else(|| PyKeyError::new_err(key.clone().unbind()))
            }

            fn __contains__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<bool> {
                self.d.bind(py).contains(key)
            }

            fn __len__(&self, py: Python<'_>) -> usize {
                self.d.bind(py).len()
            }

            fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                Ok(self.d.bind(py).keys().try_iter()?.into_any())
            }

            /// The keys, in order (a `KeysView`, as a dict's).
            fn keys<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
                view(slf.as_any(), "KeysView")
            }

            /// The values, in the order of the keys (a `ValuesView`).
            fn values<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
                view(slf.as_any(), "ValuesView")
            }

            /// `(key, value)` pairs, in order (an `ItemsView`).
            fn items<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
                view(slf.as_any(), "ItemsView")
            }

            /// The value of `key`, or `default`.
            #[pyo3(signature = (key, default = None))]
            fn get<'py>(
                &self,
                py: Python<'py>,
                key: &Bound<'py, PyAny>,
                default: Option<Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                Ok(self.d.bind(py).get_item(key)?.or(default).unwrap_or_else(|| py.None().into_bound(py)))
            }

            /// The entry as a new plain dict.
            fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
                thaw_dict(self.d.bind(py))
            }

            fn __eq__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
                let mine = self.d.bind(py);
                let equal = if let Ok(o) = other.cast::<$rust>() {
                    mine.eq(o.get().d.bind(py))?
                } else if other.cast::<PyDict>().is_ok() {
                    mine.eq(other)?
                } else {
                    return Ok(py.NotImplemented().into_bound(py));
                };
                Ok(PyBool::new(py, equal).to_owned().into_any())
            }

            fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
                PyTuple::new(py, self.d.bind(py).items())?.hash()
            }

            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                let mut s = String::from(concat!($name, "("));
                for (i, (k, v)) in self.d.bind(py).iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    s.push_str(&format!("{}={}", k.str()?.to_str()?, v.repr()?.to_str()?));
                }
                s.push(')');
                Ok(s)
            }

            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
                let py = slf.py();
                let restore = slf.get_type().getattr("_restore")?;
                (restore, (slf.get().d.bind(py).copy()?,)).into_pyobject(py).map(Bound::into_any)
            }

            /// An entry again from its pickle: its dict, each value frozen, and its keys
            /// attributes of the class as when its ruleset made it (a pickle may be read
            /// before the ruleset is).
            #[staticmethod]
            fn _restore(d: &Bound<'_, PyDict>) -> PyResult<Self> {
                let py = d.py();
                let out = PyDict::new(py);
                for (k, v) in d.iter() {
                    if let Ok(name) = k.cast::<PyString>() {
                        declare(&py.get_type::<$rust>(), name.to_str()?)?;
                    }
                    out.set_item(k, freeze(&v)?)?;
                }
                Ok($rust::new(out))
            }
        }
    };
}

/// `collections.abc`'s view `kind` of a mapping (the views a dict's methods give).
fn view<'py>(mapping: &Bound<'py, PyAny>, kind: &str) -> PyResult<Bound<'py, PyAny>> {
    mapping.py().import("collections.abc")?.getattr(kind)?.call1((mapping,))
}

fn entry_get<'py>(d: &Bound<'py, PyDict>, name: &str, class: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(name)?
        .ok_or_else(|| PyAttributeError::new_err(format!("a {class} entry has no attribute or key {name:?}")))
}

entry_class!(
    PyFan,
    "Fan",
    "A pattern counted: its `id` (MCR: 1-81, None for 明暗杠; the others: a name), `name`,
`name_en`, `value` each time it counts and `count`; a ruleset's own fields too (MCR's
`points`, Changsha's `kind`, Longgang's `tai` and `lazi`). Immutable; shared by the
results that count it.",
    [id: "The pattern's id: MCR's number 1-81 (None for 明暗杠), the other rulesets' name.", name: "The Chinese name.", name_en: "The English name.", value: "What the pattern is worth each time it counts.", count: "How many times it counts."]
);

entry_class!(
    PyGroup,
    "Group",
    "A group of the arrangement: its `kind` (pair, chow, pung, kong, dragon_set, orphans,
knitted, knitted_straight, loose), the `tiles` it stands for, the kinds its `wilds` stand
for, and the declared `meld` it is, or None. Immutable.",
    [kind: "pair, chow, pung, kong, dragon_set, orphans, knitted, knitted_straight or loose.", tiles: "The kinds the group's tiles stand for.", wilds: "The kinds its wild tiles stand for.", meld: "The declared meld it is (chow, pung, kong, concealed_kong, added_kong), or None."]
);

entry_class!(
    PyRecord,
    "Record",
    "An immutable entry of a result that is neither a fan nor a group: Longgang's
`face_items` (`name`, `hu`), explain's `excluded` entries.",
    [],
    {
        /// Its keys, which vary from entry to entry, as attributes.
        fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
            entry_get(self.d.bind(py), name, "Record")
        }
    }
);

// The classes have no `__getattr__` for these keys: a class with one has every attribute
// read through it (`r.win`, `f.id`), and Python then cannot read a typed field directly as
// it reads a `__slots__` one (about 3x slower a field).

/// A key that only some rulesets' results or fan entries have (`r.tai`, `f.points`,
/// `r.excluded`), read as an attribute. It is put on the class when a ruleset's tables
/// are made; a result or entry without the key raises `AttributeError`.
#[pyclass(name = "KeyAttribute", module = "haidi._core", frozen)]
pub struct KeyAttribute {
    name: Py<PyString>,
}

#[pymethods]
impl KeyAttribute {
    fn __get__<'py>(
        slf: &Bound<'py, Self>,
        obj: Option<&Bound<'py, PyAny>>,
        _owner: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let name = slf.get().name.bind(py);
        let Some(obj) = obj else {
            return Ok(slf.clone().into_any());
        };
        let found = if let Ok(r) = obj.cast::<PyResult_>() {
            let r = r.get();
            match r.find(py, name.to_str()?)? {
                Some(v) => Ok(r.value(py, v, true)?),
                None => Err(format!("a {} result", r.source.ruleset())),
            }
        } else if let Ok(f) = obj.cast::<PyFan>() {
            f.get().d.bind(py).get_item(name)?.ok_or_else(|| "a Fan entry".to_string())
        } else {
            match obj.get_item(name) {
                Err(e) if e.is_instance_of::<PyKeyError>(py) => Err(format!("a {} entry", obj.get_type().name()?)),
                other => Ok(other?),
            }
        };
        found.map_err(|whose| {
            PyAttributeError::new_err(format!("{whose} has no attribute or key {:?}", name.to_string()))
        })
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("<key attribute {:?}>", self.name.bind(py).to_string())
    }
}

/// Makes the key `name` an attribute of `class` (a [`KeyAttribute`]), unless the class has
/// an attribute of that name already: a typed field, a method, or a key declared before.
pub fn declare(class: &Bound<'_, PyType>, name: &str) -> PyResult<()> {
    if class.hasattr(name)? {
        return Ok(());
    }
    class.setattr(name, KeyAttribute { name: PyString::new(class.py(), name).unbind() })
}

/// Adds the result classes to the module.
pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    declare(&py.get_type::<PyResult_>(), "excluded")?;
    m.add_class::<KeyAttribute>()?;
    m.add_class::<PyResult_>()?;
    m.add_class::<PyFan>()?;
    m.add_class::<PyGroup>()?;
    m.add_class::<PyRecord>()?;
    Ok(())
}
