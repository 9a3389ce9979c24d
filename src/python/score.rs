//! `haidi._core.Scheme`: the scoring engine of the regional rulesets (`crate::score`)
//! for Python. A situation is read in Rust, key by key, the same way from keyword
//! arguments, from a dict of a list or from a row of columns; scoring runs without the
//! GIL; results are dicts of one shape for every ruleset.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use super::answer;
use super::entry::{self, Entries};
use super::errors::{hand_error, to_py};
use super::hand::PyHand;
use super::kwcall;
use super::result::{untracked, PyRecord, PyResult_, Scoring, Source, Table, Val, Writer};
use super::scheme::{read, str_tuple, Written};
use crate::error::{HandError, Result as CoreResult};
use crate::notation::Format;
use crate::score::arrange::Form;
use crate::score::evaluate::{evaluate, evaluate_with, Item, Scored};
use crate::score::group::{write_loose, Group, Groups, Shape, NO_GROUP};
use crate::score::rule::{Context, Rule};
use crate::score::scheme::Scheme;
use crate::score::situation::{Prepared, Reader, Value};
use crate::tiles::{self, KINDS};

/// A result key beyond those every ruleset has, and how it is worked out.
enum Extra {
    /// A flag of the situation.
    Flag(u8),
    /// How many times the patterns of these classes count.
    Classes(u32),
    /// 2 to the total (Tangshan's points), 0 without a win.
    PowTwoTotal,
    Complete,
    /// A rule judged after scoring (false for a hand that is not complete).
    Rule(Rule),
    WildKinds,
    /// A value of the ruleset data, and its JSON text.
    Const(Py<PyAny>, Box<[u8]>),
    Role,
    Face,
    /// The face plus a base, for a complete winning hand.
    FacePlus(i32),
    /// The value, or this for a limit hand (Longgang's 台: 3 for 腊子).
    ValueOr(i32),
    Lazi,
    /// A table by the value (as in `ValueOr`), for a complete winning hand (跟胡数).
    Follow(Vec<i32>, i32),
    Instant,
    FaceItems,
    Wait,
    VoidWilds,
    /// The fans again, under another name.
    Fans,
    Value,
}

/// The Python side of a scheme's results.
struct Output {
    /// The entries of the patterns, and for a player who did not win.
    entries: Vec<entry::Counted>,
    loser_entries: Vec<entry::Counted>,
    /// The scheme's own keys, in order (their places follow the common keys').
    extras: Vec<(answer::Key, Extra)>,
    ids: Py<PyTuple>,
    /// What voided patterns are said to be voided by (`explain`).
    exclusion_text: String,
    /// Form names: the forms of `Form` in order, then the fallbacks.
    forms: Vec<Arc<str>>,
    /// The entries of `face_items`, each made when first met: by a group's row of the
    /// point table and kind, then by an extra's row and count (see [`face_slot`]).
    face_items: Box<[pyo3::sync::PyOnceLock<FaceItem>]>,
}

/// A `face_items` entry, shared.
type FaceItem = Py<PyRecord>;

/// Counts of an extra point's rule whose `face_items` entries are kept (more is rare,
/// and made each time).
const EXTRA_COUNTS: usize = 9;

/// The scoring of one ruleset (with one set of options).
#[pyclass(name = "Scheme", module = "haidi._core", frozen)]
pub struct PyScheme {
    scheme: Arc<Scheme>,
    out: Output,
    /// Builds the scheme for a dict of options (the ruleset's Python `compile`).
    compile: Option<Py<PyAny>>,
    /// Situation keys that are options (read into `options`), and as Python strings.
    option_keys: Vec<String>,
    option_key_strs: Vec<Py<PyString>>,
    /// The scheme's situation keys (but the option keys) as interned Python strings, in
    /// the order of its keys: a key given as one is found by address.
    key_strs: Vec<Py<PyString>>,
    /// How to make this scheme again in another process: `(callable, args)`, for
    /// `__reduce__` (a ruleset's name and options).
    reduce: Option<Py<PyAny>>,
}

/// A mistake in the ruleset data, at `what`.
fn bad_data(py: Python<'_>, what: &str, m: impl std::fmt::Display) -> PyErr {
    hand_error(py, format!("ruleset data, {what}: {m}"))
}

#[pymethods]
impl PyScheme {
    /// Builds a scheme from the data of `haidi.rulesets._scheme.build`.
    #[new]
    fn new(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let written = Written::read(data)?;
        let scheme = read(data.cast::<PyDict>()?)?;
        let mut entries = vec![];
        let mut loser_entries = vec![];
        for e in written.entries()? {
            let le = e.loser_entry.as_ref().unwrap_or(&e.entry);
            entries.push(entry::Counted::new(py, &e.entry)?);
            loser_entries.push(entry::Counted::new(py, le)?);
        }
        let mut extras = vec![];
        let names = &scheme;
        for r in written.result_keys()? {
            let (key, kind, arg) = (&r.key, &r.kind, r.argument.as_ref());
            let need = || arg.ok_or_else(|| hand_error(py, format!("result key {key}: needs an argument")));
            let bad = |what: &'static str| move |_: PyErr| bad_data(py, key, format!("expected {what}"));
            let extra = match kind.as_str() {
                "flag" => Extra::Flag(
                    names
                        .flag(&need()?.extract::<String>().map_err(bad("a str"))?)
                        .ok_or_else(|| hand_error(py, format!("result key {key}: no such flag")))?,
                ),
                "classes" => {
                    let classes: Vec<u8> = need()?.extract().map_err(bad("a list of classes, 0 to 31"))?;
                    if classes.iter().any(|&c| c >= 32) {
                        return Err(bad_data(py, key, "expected a list of classes, 0 to 31"));
                    }
                    Extra::Classes(classes.iter().fold(0, |m, c| m | 1 << c))
                }
                "pow2_total" => Extra::PowTwoTotal,
                "complete" => Extra::Complete,
                "rule" => Extra::Rule(super::scheme::read_rule(need()?, names)?),
                "wild_kinds" => Extra::WildKinds,
                "const" => {
                    let v = need()?;
                    Extra::Const(v.clone().unbind(), answer::dumps(v).map_err(|e| bad_data(py, key, e))?)
                }
                "role" => Extra::Role,
                "face" => Extra::Face,
                "face_plus" => Extra::FacePlus(need()?.extract().map_err(bad("a 32-bit int"))?),
                "value_or" => Extra::ValueOr(need()?.extract().map_err(bad("a 32-bit int"))?),
                "lazi" => Extra::Lazi,
                "follow" => {
                    let (table, lazi): (Vec<i32>, i32) = need()?.extract().map_err(bad("(a list of ints, an int)"))?;
                    if table.is_empty() {
                        return Err(bad_data(py, key, "expected (a list of ints, an int), the list not empty"));
                    }
                    Extra::Follow(table, lazi)
                }
                "instant" => Extra::Instant,
                "face_items" => Extra::FaceItems,
                "wait" => Extra::Wait,
                "void_wilds" => Extra::VoidWilds,
                "fans" => Extra::Fans,
                "value" => Extra::Value,
                other => {
                    return Err(hand_error(
                        py,
                        format!("result key {key}: unknown kind {}", crate::error::quote(other)),
                    ))
                }
            };
            let id = u16::try_from(extras.len()).ok().and_then(|n| n.checked_add(answer::OWN_KEYS));
            let id = id.ok_or_else(|| bad_data(py, "results", "too many keys"))?;
            super::result::declare(&py.get_type::<super::result::PyResult_>(), key)?;
            extras.push((answer::Key::new(py, key, id), extra));
        }
        let ids = str_tuple(py, &super::scheme::ids(&scheme))?.unbind();
        let exclusion_text = written.exclusion_text.unwrap_or_else(|| "excluded (不计)".to_string());
        let compile = written.compile.map(Bound::unbind);
        let reduce = written.reduce.map(Bound::unbind);
        let option_keys = written.option_keys.unwrap_or_default();
        let mut forms: Vec<Arc<str>> = [
            Form::Standard,
            Form::SevenPairs,
            Form::EightPairs,
            Form::ThirteenOrphans,
            Form::All258,
            Form::Dealt,
            Form::Partial,
        ]
        .iter()
        .map(|&f| form_name(&scheme, f).into())
        .collect();
        forms.extend(scheme.fallbacks.iter().map(|f| f.name.as_str().into()));
        let key_strs = scheme
            .keys
            .iter()
            .map(|k| match k.name == "options" || option_keys.contains(&k.name) {
                // Never the address of a key given: such a key is read by its text.
                true => PyString::new(py, &k.name).unbind(),
                false => PyString::intern(py, &k.name).unbind(),
            })
            .collect();
        let face_items = (0..scheme.group_points.len() * KINDS + scheme.extra_points.len() * EXTRA_COUNTS)
            .map(|_| pyo3::sync::PyOnceLock::new())
            .collect();
        Ok(PyScheme {
            scheme: Arc::new(scheme),
            out: Output { entries, loser_entries, extras, ids, exclusion_text, forms, face_items },
            compile,
            option_key_strs: option_keys.iter().map(|k| PyString::intern(py, k).unbind()).collect(),
            key_strs,
            option_keys,
            reduce,
        })
    }

    /// Pickled as the data's `reduce`: the ruleset and options it was made for.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.reduce {
            Some(r) => Ok(r.bind(py).clone()),
            None => Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "cannot pickle a Scheme made without `reduce` in its data ({})",
                self.scheme.name
            ))),
        }
    }

    /// The ids of the patterns, in the order of the `fans` columns of `evaluate_many`.
    #[getter]
    fn fan_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyTuple> {
        self.out.ids.bind(py).clone()
    }

    /// The ruleset's name.
    #[getter]
    fn name(&self) -> &str {
        &self.scheme.name
    }

    /// The situation keys this scheme reads.
    #[getter]
    fn keys(&self) -> Vec<String> {
        self.scheme.keys.iter().map(|k| k.name.clone()).chain(self.option_keys.iter().cloned()).collect()
    }

    /// Scores one situation given as keyword arguments (the ruleset's situation keys,
    /// and `options`).
    #[pyo3(signature = (**situation))]
    fn evaluate<'py>(
        slf: &Bound<'py, Self>,
        situation: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyResult_>> {
        evaluate_one(slf, situation)
    }

    /// How many arrangements scoring this situation meets plus how many placements of
    /// the winning tile it scores (to measure the search).
    #[pyo3(signature = (**situation))]
    fn search_size(slf: &Bound<'_, Self>, situation: Option<&Bound<'_, PyDict>>) -> PyResult<u32> {
        score_one(slf, situation, true, |_, _, scored| Ok(scored.met + scored.tried))
    }

    /// Scores one situation as `evaluate` does, but with every arrangement scored: no
    /// bound cuts the search short (to test the bounds; slow with many wilds).
    #[pyo3(signature = (**situation))]
    fn evaluate_unbounded<'py>(
        slf: &Bound<'py, Self>,
        situation: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        score_one(slf, situation, false, |s, p, scored| {
            Ok(Bound::new(slf.py(), result(slf.py(), s, p, scored)?)?.into_any())
        })
    }

    /// Scores a list of situation dicts (returning a list of results) with the GIL
    /// released. `format` and `options` apply to each situation that gives none.
    /// `errors="collect"` puts `{"error": message}` where a situation cannot be read;
    /// `"raise"` raises `HandError` naming the first. With `json`, each result is its
    /// JSON text (bytes, as `orjson.dumps` writes the dict).
    #[pyo3(signature = (situations, *, format = None, errors = None, json = false, options = None))]
    fn evaluate_list<'py>(
        slf: &Bound<'py, Self>,
        situations: &Bound<'py, PyAny>,
        format: Option<&Bound<'py, PyAny>>,
        errors: Option<&Bound<'py, PyAny>>,
        json: bool,
        options: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let collect = super::many::collect_errors(errors)?;
        let format = super::convert::format_arg(format)?;
        let options = options.filter(|o| !o.is_none()).map(|o| o.clone().unbind());
        let batch = Batch { this: slf.clone().unbind(), format, options };
        super::many::evaluate_list(slf.py(), &batch, situations, json, collect)
    }

    /// Scores lines of JSON (`haidi eval --jsonl`), given as one bytes object, the lines
    /// separated by `\n`: each line that is a plain situation (see `prepare_json`) is
    /// read, scored and answered with its result's JSON text on every core, the GIL
    /// released, as `evaluate_list(..., json=True)` answers the dict `orjson.loads` makes
    /// of it; a plain line the reader refuses with the command's error answer,
    /// `{"error": message, "line": N, "input": line}` (N counted from `first_line`).
    /// Returns the answers, one bytes object of lines each ended by `\n`, and how many
    /// are errors; where some line is not plain, the answers are a list, a line's answer
    /// (without `\n`) or None for the caller to read the line as a dict.
    #[pyo3(signature = (lines, *, format = None, first_line = None))]
    fn evaluate_lines<'py>(
        slf: &Bound<'py, Self>,
        lines: &Bound<'py, PyAny>,
        format: Option<&Bound<'py, PyAny>>,
        first_line: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let fmt = super::convert::format_arg(format)?;
        super::lines::evaluate_lines(slf.py(), slf.get(), lines, fmt, first_line)
    }

    /// Scores columns: a dict of equal-length sequences or numpy arrays keyed like a
    /// situation. Returns numpy arrays `win` (bool), `total` (int32) and `fans` (n x
    /// patterns, uint8 counts in the order of `fan_ids`), and `error` (None or the
    /// message, by row) with `errors="collect"`.
    #[pyo3(signature = (columns, *, format = None, errors = None, options = None))]
    fn evaluate_columns<'py>(
        slf: &Bound<'py, Self>,
        columns: &Bound<'py, PyAny>,
        format: Option<&Bound<'py, PyAny>>,
        errors: Option<&Bound<'py, PyAny>>,
        options: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let py = slf.py();
        let collect = super::many::collect_errors(errors)?;
        let fmt = super::convert::format_arg(format)?;
        let this = slf.get();
        let other = match options {
            Some(o) if !o.is_none() => {
                let d = PyDict::new(py);
                d.set_item("options", o)?;
                this.scheme_for(py, &d)?
            }
            _ => None,
        };
        let scheme = other.as_ref().map_or(this, |o| o.get());
        super::many::evaluate_columns(py, &super::table::SchemeColumns { scheme, format: fmt }, columns, collect)
    }
}

/// The wild kind an indicator tile names (开混, 惠坯): the next kind in its suit, 9 to 1,
/// the winds in turn, the dragons 中→发→白→中.
#[pyfunction]
pub fn wild_from_indicator(py: Python<'_>, indicator: &Bound<'_, PyAny>) -> PyResult<String> {
    let indicator = super::convert::str_arg(indicator, "indicator")?;
    let t = crate::notation::parse_tile(indicator, Format::Compact).map_err(|e| to_py(py, e))?;
    Ok(tiles::name(crate::score::situation::next_kind(t)))
}

/// A Python value as the situation reader takes it.
pub fn value<'a>(o: &'a Bound<'_, PyAny>) -> Value<'a> {
    if o.is_none() {
        return Value::None;
    }
    if let Ok(b) = o.cast::<PyBool>() {
        return Value::Bool(b.is_true());
    }
    if let Ok(s) = o.cast::<PyString>() {
        return match s.to_str() {
            Ok(t) => Value::Str(t),
            Err(_) => Value::Other("str that is not valid text".into()),
        };
    }
    if let Ok(i) = o.cast::<PyInt>() {
        return match i.extract::<i64>() {
            Ok(v) => Value::Int(v),
            // Named by its digits (an int from 0 to 2**64 - 1 is no -1).
            Err(_) => Value::Other(i.str().map_or_else(|_| "int".into(), |t| t.to_string())),
        };
    }
    if let Ok(f) = o.cast::<PyFloat>() {
        return Value::Float(f.value());
    }
    if let Ok(h) = o.cast::<PyHand>() {
        return Value::Hand(Box::new(h.get().inner.clone()));
    }
    if let Ok(l) = o.cast::<PyList>() {
        return Value::List(l.iter().map(|x| owned(&x)).collect());
    }
    if let Ok(t) = o.cast::<PyTuple>() {
        return Value::List(t.iter().map(|x| owned(&x)).collect());
    }
    let type_name = o.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    // numpy scalars: bool_ is a flag, integers are integers, floats floats.
    if type_name == "bool" || type_name == "bool_" {
        if let Ok(b) = o.extract::<bool>() {
            return Value::Bool(b);
        }
    }
    if super::convert::is_integer(o) {
        return match o.extract::<i64>() {
            Ok(v) => Value::Int(v),
            Err(_) => Value::Other(o.str().map_or_else(|_| type_name, |t| t.to_string())),
        };
    }
    if type_name.starts_with("float") {
        if let Ok(v) = o.extract::<f64>() {
            return Value::Float(v);
        }
    }
    if super::convert::is_masked(o) {
        return Value::None;
    }
    Value::Other(type_name)
}

/// An item of a list (wilds or flowers named one by one): its text copied. A list or
/// tuple inside is named without reading it (it may nest past any stack's depth).
fn owned(o: &Bound<'_, PyAny>) -> Value<'static> {
    if o.is_instance_of::<PyList>() || o.is_instance_of::<PyTuple>() {
        return Value::Other("list inside a list".into());
    }
    value(o).into_owned()
}

impl PyScheme {
    /// The scheme for a situation when its `options` (or option keys) ask for another
    /// than this one.
    pub fn scheme_for(&self, py: Python<'_>, situation: &Bound<'_, PyDict>) -> PyResult<Option<Py<PyScheme>>> {
        let mut options: Option<Bound<'_, PyDict>> = None;
        if let Some(o) = situation.get_item(pyo3::intern!(py, "options"))? {
            if !o.is_none() {
                let d = super::convert::options_dict(&o).map_err(|e| super::errors::for_key(py, e, "options"))?;
                options = Some(d.copy()?);
            }
        }
        // The options given as situation keys, named by their keys where refused.
        let mut keys = vec![];
        for k in &self.option_key_strs {
            let k = k.bind(py);
            // None is a key left out, as for every situation key.
            if let Some(v) = situation.get_item(k)?.filter(|v| !v.is_none()) {
                let d = options.get_or_insert_with(|| PyDict::new(py));
                // An option given None in `options` is left out there: no clash.
                if d.get_item(k)?.is_some_and(|x| !x.is_none()) {
                    let e = HandError::invalid(format!("{k} is given both as a key and in options"));
                    return Err(to_py(py, e.for_key("options")));
                }
                d.set_item(k, v)?;
                keys.push(k.clone());
            }
        }
        let Some(o) = options else { return Ok(None) };
        let Some(compile) = &self.compile else {
            let e = HandError::invalid(format!("{} takes no options", self.scheme.name));
            return Err(to_py(py, e.for_key("options")));
        };
        let s = compile.bind(py).call1((o, PyTuple::new(py, keys)?))?;
        Ok(Some(s.cast_into::<PyScheme>().map_err(|_| hand_error(py, "compile must return a Scheme"))?.unbind()))
    }

    /// Reads a situation dict.
    pub fn prepare(&self, situation: &Bound<'_, PyDict>, format: Option<Format>) -> CoreResult<Prepared> {
        // Read to the end: never None.
        self.prepare_until(situation, format, false)?.ok_or_else(|| HandError::invalid("an option key"))
    }

    /// Reads a situation dict; with `stop_at_option`, None at its first option key.
    fn prepare_until(
        &self,
        situation: &Bound<'_, PyDict>,
        format: Option<Format>,
        stop_at_option: bool,
    ) -> CoreResult<Option<Prepared>> {
        let items: Vec<(Bound<'_, PyAny>, Bound<'_, PyAny>)> = situation.iter().collect();
        let mut reader = Reader::default();
        for (k, v) in &items {
            if let Some(i) = self.key_strs.iter().position(|s| k.is(s)) {
                reader.set_key(&self.scheme.keys[i], value(v))?;
                continue;
            }
            let Ok(k) = k.cast::<PyString>() else {
                return Err(HandError::invalid("situation keys are str"));
            };
            let k = k.to_str().map_err(|_| HandError::invalid("a situation key is not valid text"))?;
            if stop_at_option && self.is_option(k) {
                return Ok(None);
            }
            self.read_item(&mut reader, k, value(v))?;
        }
        finish(&self.scheme, &mut reader, format).map(Some)
    }

    /// Reads a situation dict with the scheme its options make (None: this one). Most
    /// situations give no option: they are read once, and only one that gives an option
    /// (or that is refused, so that its error is the one the options would give first)
    /// is read again after its options are compiled.
    pub fn read(
        &self,
        py: Python<'_>,
        situation: &Bound<'_, PyDict>,
        format: Option<Format>,
    ) -> PyResult<(Option<Py<PyScheme>>, Prepared)> {
        if let Ok(Some(p)) = self.prepare_until(situation, format, true) {
            return Ok((None, p));
        }
        self.read_again(py, situation, format)
    }

    /// [`PyScheme::read`] once the situation read without its options
    /// (`prepare_until`) gave none: read with the scheme its options make.
    fn read_again(
        &self,
        py: Python<'_>,
        situation: &Bound<'_, PyDict>,
        format: Option<Format>,
    ) -> PyResult<(Option<Py<PyScheme>>, Prepared)> {
        let other = self.scheme_for(py, situation)?;
        let s = other.as_ref().map_or(self, |o| o.get());
        let p = s.prepare(situation, format).map_err(|e| to_py(py, e))?;
        Ok((other, p))
    }

    /// Reads one item of a situation by its key's text (the options were read before).
    fn read_item<'a>(&self, reader: &mut Reader<'a>, k: &str, v: Value<'a>) -> CoreResult<()> {
        if self.is_option(k) {
            return Ok(());
        }
        reader.set(&self.scheme, k, v)
    }

    /// Whether `k` is `options` or an option that may be given as a situation key.
    pub(super) fn is_option(&self, k: &str) -> bool {
        k == "options" || self.option_keys.iter().any(|o| o == k)
    }

    /// Reads a line of JSON as `prepare` reads the dict `orjson.loads` makes of it, when
    /// it is a plain object (`crate::score::json`) with no options: the situation, or the
    /// reader's message where it refuses the situation; Unread otherwise, and the line is
    /// read as a dict.
    fn prepare_json(&self, line: &[u8], format: Format) -> JsonLine {
        let Some(items) = crate::score::json::object(line) else {
            return JsonLine::Unread;
        };
        if items.iter().any(|(k, _)| self.is_option(k)) {
            return JsonLine::Unread;
        }
        let mut reader = Reader::default();
        for (k, v) in items {
            if let Err(e) = reader.set(&self.scheme, k, v) {
                return JsonLine::Refused(e.to_string());
            }
        }
        match finish(&self.scheme, &mut reader, Some(format)) {
            Ok(p) => JsonLine::Read(p),
            Err(e) => JsonLine::Refused(e.to_string()),
        }
    }

    /// Reads the keys of a situation's items into a reader, but the hand, the winning
    /// tile and the format, which a caller trying each wait as the win (`analyze`) sets.
    pub fn read_keys<'a>(&self, items: &'a [(Bound<'_, PyAny>, Bound<'_, PyAny>)]) -> CoreResult<Reader<'a>> {
        let mut reader = Reader::default();
        for (k, v) in items {
            let Ok(k) = k.cast::<PyString>() else {
                return Err(HandError::invalid("situation keys are str"));
            };
            let k = k.to_str().map_err(|_| HandError::invalid("a situation key is not valid text"))?;
            if k == "options" || self.option_keys.iter().any(|o| o == k) {
                continue;
            }
            if matches!(k, "hand" | "win" | "format") {
                return Err(HandError::invalid(format!(
                    "{k} is not a situation key here: analysis takes the hand and its format, and tries each wait as the win"
                )));
            }
            reader.set(&self.scheme, k, value(v))?;
        }
        Ok(reader)
    }
}

/// A scheme's situations of `evaluate_many`: the call's format and options.
struct Batch {
    this: Py<PyScheme>,
    format: Format,
    /// The call's options, for each situation that gives none.
    options: Option<Py<PyAny>>,
}

/// Situations read, each with the scheme its options make (None: the call's).
type ReadSituations = Vec<(Option<Py<PyScheme>>, Prepared)>;

impl super::many::BatchScorer for Batch {
    type Read = ReadSituations;
    type Scored = Scored;
    const PARALLEL_MIN: usize = 64;

    fn read_dict(&self, d: &Bound<'_, PyDict>, read: &mut ReadSituations) -> PyResult<()> {
        let py = d.py();
        let this = self.this.get();
        let situation = match &self.options {
            Some(o) if !d.contains(pyo3::intern!(py, "options"))? => {
                let with = d.copy()?;
                with.set_item(pyo3::intern!(py, "options"), o.bind(py))?;
                this.read(py, &with, Some(self.format))?
            }
            _ => this.read(py, d, Some(self.format))?,
        };
        read.push(situation);
        Ok(())
    }

    fn score(&self, read: &ReadSituations, i: usize) -> CoreResult<Scored> {
        let (other, p) = &read[i];
        Ok(evaluate(&other.as_ref().unwrap_or(&self.this).get().scheme, p))
    }

    fn answer<'py>(
        &self,
        py: Python<'py>,
        read: &ReadSituations,
        i: usize,
        scored: &Scored,
        json: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (other, p) = &read[i];
        let scheme = other.as_ref().unwrap_or(&self.this).bind(py);
        super::many::answer_of(py, result(py, scheme, p, scored)?, json)
    }
}

/// A line of `evaluate_lines` as read: a situation, the reader's message refusing it, or
/// not read here.
// Held in a vector a line, as `Option<Prepared>` was: boxing the situation would cost an
// allocation a line.
#[allow(clippy::large_enum_variant)]
enum JsonLine {
    Read(Prepared),
    Refused(String),
    Unread,
}

/// A plain line read, scored and written without Python; an `explain` line is left to
/// the dict reader (its list of patterns not counted is made in Python).
impl super::lines::LineScorer for PyScheme {
    fn line(&self, common: &answer::Common, line: &[u8], format: Format, out: &mut Vec<u8>) -> super::lines::Line {
        use super::lines::Line;
        match self.prepare_json(line, format) {
            JsonLine::Read(p) if !p.explain => {
                let s = evaluate(&self.scheme, &p);
                let start = out.len();
                let written = values(self, common, &p.sets, &s).and_then(|w| {
                    super::result::json(Table::Scheme(self, s.loser), w.vals(), out, |_, _| {
                        Err(pyo3::exceptions::PySystemError::new_err("a value made in Python"))
                    })
                });
                match written {
                    Ok(()) => Line::Written,
                    Err(_) => {
                        out.truncate(start);
                        Line::Unread
                    }
                }
            }
            JsonLine::Refused(e) => Line::Refused(e),
            _ => Line::Unread,
        }
    }
}

/// The situation read, with the format given for the call where it gives none.
fn finish(scheme: &Scheme, reader: &mut Reader<'_>, format: Option<Format>) -> CoreResult<Prepared> {
    if let Some(f) = format {
        reader.default_format(f);
    }
    reader.finish(scheme)
}

fn form_name(scheme: &Scheme, f: Form) -> &str {
    match f {
        Form::Standard => "standard",
        Form::SevenPairs => "seven_pairs",
        Form::EightPairs => &scheme.eight_pairs_name,
        Form::ThirteenOrphans => "thirteen_orphans",
        Form::All258 => "all_258",
        Form::Dealt => "dealt",
        Form::Partial => "partial",
        Form::Fallback(i) => scheme.fallbacks.get(i as usize).map_or("", |f| f.name.as_str()),
    }
}

/// The entries of a form without structure: its concealed groups as one group, then the
/// declared melds.
fn loose_entries(form: Form, groups: &[Group], text: &mut String) -> PyResult<Entries> {
    let kind = if form == Form::ThirteenOrphans { "orphans" } else { "loose" };
    let concealed = || groups.iter().filter(|g| g.meld.is_none());
    let mut entries =
        Entries::loose(kind, concealed().flat_map(|g| g.kinds()), concealed().flat_map(|g| g.wild_kinds()))?;
    write_loose(&Groups::collect_with(NO_GROUP, concealed().copied()), text);
    let mut melds = groups.iter().filter(|g| g.meld.is_some()).copied().peekable();
    if melds.peek().is_some() {
        text.push(' ');
    }
    entries.groups(melds, text)?;
    Ok(entries)
}

/// The place in `Output::face_items` of an item's entry, where it is kept: a group's row
/// and kind, or an extra's row and count (below `EXTRA_COUNTS`). Either gives the points.
fn face_slot(scheme: &Scheme, item: Item) -> Option<usize> {
    match item {
        Item::Group(row, t) => Some(row * KINDS + t as usize),
        Item::Extra(row, n) if (n as usize) < EXTRA_COUNTS => {
            Some(scheme.group_points.len() * KINDS + row * EXTRA_COUNTS + n as usize)
        }
        Item::Extra(..) => None,
    }
}

/// The name of a point of the face (Longgang's 牌面胡数): its group and kind, or its rule.
fn face_item_name(scheme: &Scheme, item: Item) -> String {
    match item {
        Item::Group(row, t) => format!("{}{}", scheme.group_points[row].name, tiles::name(t)),
        Item::Extra(row, n) => scheme.extra_points[row].name.replace("{n}", &n.to_string()),
    }
}

/// The entry `{"name", "hu"}` of a point of the face, made once: given to `put`.
fn face_item<R>(
    py: Python<'_>,
    scheme: &Scheme,
    out: &Output,
    (item, hu): (Item, i32),
    put: impl FnOnce(&FaceItem) -> PyResult<R>,
) -> PyResult<R> {
    let make = || -> PyResult<FaceItem> {
        let d = PyDict::new(py);
        d.set_item(pyo3::intern!(py, "name"), face_item_name(scheme, item))?;
        d.set_item(pyo3::intern!(py, "hu"), hu)?;
        Ok(untracked(py, PyRecord::new(d))?.unbind())
    };
    match face_slot(scheme, item).and_then(|i| out.face_items.get(i)) {
        Some(slot) => put(slot.get_or_try_init(py, make)?),
        None => put(&make()?),
    }
}

/// A scored situation's result.
fn result(py: Python<'_>, slf: &Bound<'_, PyScheme>, p: &Prepared, s: &Scored) -> PyResult<PyResult_> {
    let this = slf.get();
    if !p.explain {
        // Written when first read (most reads are of `win`, `total` and `fans` alone).
        return Ok(Scoring::Scheme(Box::new(s.clone())).result(Source::Scheme(slf.clone().unbind())));
    }
    // explain's list of patterns not counted is made in Python, with the result.
    let c = answer::common(py);
    let mut w = values(this, c, &p.sets, s)?;
    let (scheme, out) = (&*this.scheme, &this.out);
    let entries = this.fan_entries(s.loser);
    let ex = PyList::empty(py);
    for (i, n, by) in s.voided_by(scheme) {
        let e = entries[i].dict(py, n as usize)?;
        e.set_item("by", &scheme.patterns[by].id)?;
        e.set_item("rule", &out.exclusion_text)?;
        ex.append(e)?;
    }
    w.put(&c.excluded, Val::Py(ex.into_any().unbind()));
    Ok(w.finish(Source::Scheme(slf.clone().unbind()), s.loser))
}

/// A result's `total`: the score, 0 when not complete.
pub(super) fn total_of(s: &Scored) -> i64 {
    if s.complete {
        s.total.into()
    } else {
        0
    }
}

/// A result's `fans`: the patterns counted, by place in the table, with their counts.
pub(super) fn fans_val(s: &Scored) -> Val {
    Val::Fans(s.fans().map(|(i, n)| (i as u16, n as u16)).collect())
}

/// A scored situation's values, but `explain`'s list (which needs Python): what a
/// batch's lines are written from on every core, and a result's when first read.
pub(super) fn values(this: &PyScheme, c: &answer::Common, sets: &[u64], s: &Scored) -> PyResult<Writer> {
    let (scheme, out) = (&*this.scheme, &this.out);
    let mut w = Writer::new(8 + out.extras.len());
    w.put(&c.win, Val::Bool(s.win));
    w.put(&c.total, Val::Int(total_of(s)));
    w.put(&c.fans, fans_val(s));
    w.put(&c.reason, s.reason.as_ref().map_or(Val::None, |r| Val::Shared(r.clone())));
    if let Some(form) = s.form {
        let form_index = match form {
            Form::Standard => 0,
            Form::SevenPairs => 1,
            Form::EightPairs => 2,
            Form::ThirteenOrphans => 3,
            Form::All258 => 4,
            Form::Dealt => 5,
            Form::Partial => 6,
            Form::Fallback(i) => 7 + i as usize,
        };
        w.put(&c.form, Val::Shared(out.forms[form_index.min(out.forms.len() - 1)].clone()));
        // Room for most texts: nine groups, some with their wilds named (`55m(wild 5m)`).
        let mut text = String::with_capacity(128);
        let groups = if form.is_loose() {
            loose_entries(form, &s.groups, &mut text)?
        } else {
            // Concealed groups first, in tile order (at one tile a pair, a pung, a chow),
            // then the declared melds, as MCR's are written.
            let mut ordered = Groups::collect_with(NO_GROUP, s.groups.iter().filter(|g| g.meld.is_none()).copied());
            let rank = |g: &Group| match g.shape {
                Shape::Pair => 0,
                Shape::Pung => 1,
                Shape::Kong => 2,
                Shape::Chow => 3,
                _ => 4,
            };
            ordered.as_mut_slice().sort_unstable_by_key(|g| (g.tile, rank(g), g.wilds));
            for &g in s.groups.iter().filter(|g| g.meld.is_some()) {
                ordered.push(g);
            }
            let mut entries = Entries::NONE;
            entries.groups(ordered.iter().copied(), &mut text)?;
            entries
        };
        w.put(&c.arrangement, Val::Str(text));
        w.put(&c.groups, Val::Groups(Box::new(groups)));
    } else {
        w.put(&c.form, Val::None);
        w.put(&c.arrangement, Val::None);
        w.put(&c.groups, Val::Groups(Box::new(Entries::NONE)));
    }
    let winner_complete = s.complete && !s.loser;
    for (at, (key, extra)) in out.extras.iter().enumerate() {
        let tai = |or: i32| if s.lazi { or } else { s.value };
        let int = |n: i32| Val::Int(n.into());
        let v = match extra {
            Extra::Flag(bit) => Val::Bool(s.situation.flag(*bit)),
            Extra::Classes(mask) => {
                let n: u32 =
                    s.fans().filter(|(i, _)| mask >> scheme.patterns[*i].class & 1 == 1).map(|(_, n)| n as u32).sum();
                Val::Int(n.into())
            }
            Extra::PowTwoTotal => Val::Int(if s.win { 1i64 << s.total.clamp(0, 62) } else { 0 }),
            Extra::Complete => Val::Bool(s.complete),
            Extra::Rule(rule) => {
                let ctx = Context {
                    facts: &s.facts,
                    situation: &s.situation,
                    sets,
                    waits: None,
                    counted: s.counted,
                    total: s.total,
                    value: s.value,
                    fan_count: s.counted.count_ones() as i32,
                };
                Val::Bool(s.complete && ctx.eval(rule) > 0)
            }
            Extra::WildKinds => Val::Strs(tiles::mask_tiles(s.situation.wild_kinds).map(tiles::name).collect()),
            Extra::Const(..) => Val::Const(at as u16),
            Extra::Role => Val::Static(if s.loser { "loser" } else { "winner" }),
            Extra::Face => int(s.face),
            Extra::FacePlus(n) => int(if winner_complete { s.face.saturating_add(*n) } else { 0 }),
            Extra::ValueOr(n) => int(tai(*n)),
            Extra::Lazi => Val::Bool(s.lazi),
            Extra::Follow(table, n) => int(if winner_complete {
                // The last entry past its end (the reader refuses an empty table).
                let i = tai(*n).max(0) as usize;
                table.get(i).or(table.last()).copied().unwrap_or(0)
            } else {
                0
            }),
            Extra::Instant => Val::Bool(s.complete && s.fans().any(|(i, _)| scheme.patterns[i].instant)),
            Extra::FaceItems => Val::FaceItems(s.items(scheme, sets)),
            Extra::Wait => match s.placement {
                Some(pl) => Val::Static(pl.role.name()),
                None => Val::None,
            },
            Extra::VoidWilds => int(s.void_wilds.into()),
            Extra::Fans => fans_val(s),
            Extra::Value => int(s.value),
        };
        w.put(key, v);
    }
    Ok(w)
}

/// What a result reads of the scheme that wrote it.
impl PyScheme {
    /// The key of `id`, one of the scheme's own (see `answer::OWN_KEYS`).
    pub(super) fn extra_key(&self, id: u16) -> Option<&answer::Key> {
        self.out.extras.get(id.checked_sub(answer::OWN_KEYS)? as usize).map(|(k, _)| k)
    }

    pub(super) fn ruleset_name(&self) -> &str {
        &self.scheme.name
    }

    /// The fan entries of a winner's result, or a loser's.
    pub(super) fn fan_entries(&self, loser: bool) -> &[entry::Counted] {
        if loser {
            &self.out.loser_entries
        } else {
            &self.out.entries
        }
    }

    /// A `face_items` entry: the shared `Record`, or a new dict.
    pub(super) fn face_item_object<'py>(
        &self,
        py: Python<'py>,
        item: (Item, i32),
        frozen: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        face_item(py, &self.scheme, &self.out, item, |r| match frozen {
            true => Ok(r.bind(py).clone().into_any()),
            false => Ok(r.get().dict(py)?.into_any()),
        })
    }

    /// Its JSON text, as `orjson.dumps` writes the entry's dict.
    pub(super) fn face_item_json(&self, (item, hu): (Item, i32), out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"name\":");
        answer::string(out, &face_item_name(&self.scheme, item));
        out.extend_from_slice(b",\"hu\":");
        answer::int(out, hu.into());
        out.push(b'}');
    }

    /// The constant of the scheme's own key at `at` (its place among them).
    pub(super) fn constant<'py>(&self, py: Python<'py>, at: u16) -> Bound<'py, PyAny> {
        match self.out.extras.get(at as usize) {
            Some((_, Extra::Const(v, _))) => v.bind(py).clone(),
            _ => py.None().into_bound(py),
        }
    }

    /// Its JSON text.
    pub(super) fn constant_json(&self, at: u16) -> &[u8] {
        match self.out.extras.get(at as usize) {
            Some((_, Extra::Const(_, text))) => text,
            _ => b"null",
        }
    }
}

/// Scores one situation given as a dict of its keys (and `options`).
fn evaluate_one<'py>(
    slf: &Bound<'py, PyScheme>,
    situation: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyResult_>> {
    score_one(slf, situation, true, |s, p, scored| untracked(slf.py(), result(slf.py(), s, p, scored)?))
}

/// Reads one situation (None: no key given) with the scheme its options make, scores it
/// (`bounded`: see [`evaluate_with`]) and gives `then` the scheme, the situation read and
/// the score.
fn score_one<'py, R>(
    slf: &Bound<'py, PyScheme>,
    situation: Option<&Bound<'py, PyDict>>,
    bounded: bool,
    then: impl FnOnce(&Bound<'py, PyScheme>, &Prepared, &Scored) -> PyResult<R>,
) -> PyResult<R> {
    let py = slf.py();
    let this = slf.get();
    let empty;
    let situation = match situation {
        Some(d) => d,
        None => {
            empty = PyDict::new(py);
            &empty
        }
    };
    // Most situations are read once, with no option: the situation is then scored where
    // it was read, not moved (it is large).
    let first = this.prepare_until(situation, None, true);
    let again;
    let other;
    let (s, p) = match &first {
        Ok(Some(p)) => (slf, p),
        _ => {
            again = this.read_again(py, situation, None)?;
            other = again.0.as_ref().map(|o| o.bind(py).clone());
            (other.as_ref().unwrap_or(slf), &again.1)
        }
    };
    then(s, p, &evaluate_with(&s.get().scheme, p, bounded))
}

/// `scheme_evaluate(scheme, /, **situation)`'s documentation, with its signature.
const EVALUATE_DOC: &std::ffi::CStr = c"scheme_evaluate(scheme, /, **situation)
--

Scores one situation given as keyword arguments with `scheme`, as `scheme.evaluate`
does, reading the dict Python passes without another made (a ruleset's `evaluate`).";

/// Adds `scheme_evaluate` to the module: `Scheme.evaluate` taking the dict of keyword
/// arguments as Python made it (see `kwcall`).
pub fn add_evaluate(m: &Bound<'_, PyModule>) -> PyResult<()> {
    kwcall::add_function!(m, c"scheme_evaluate", EVALUATE_DOC, |_, args, situation| {
        let scheme = match args.len() {
            1 => args.get_item(0)?,
            n => {
                return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                    "scheme_evaluate takes 1 positional argument (the scheme), {n} given"
                )))
            }
        };
        let scheme = scheme.cast::<PyScheme>()?;
        Ok(evaluate_one(scheme, situation)?.into_any())
    })
}

impl PyScheme {
    pub fn scheme(&self) -> &Arc<Scheme> {
        &self.scheme
    }
}
