//! MCR's columns of `evaluate_many` (`many::evaluate_columns`): a table of situations
//! given as equal-length lists or numpy arrays, read a run of rows at a time (their
//! texts copied out of Python, the values Python keeps one object of known by address)
//! and scored by MCR's fan code. Also the reader of text columns every ruleset uses.

use numpy::{PyArray1, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString};

use super::convert;
use super::errors::hand_error;
use super::many::{ColumnScorer, Refused, RowOut, RUN};
use crate::error::HandError;
use crate::mcr::batch::{score_into, Row, Texts, CASE_KEYS, FAN_COLUMNS};
use crate::mcr::{Options, Situation};

/// One column of small values as it will be read.
enum Source<'py, T> {
    /// Not given: every row has the default.
    Absent,
    /// Copied out of a numpy array of `T`.
    Values(Vec<T>),
    /// A list, read a row at a time.
    List(Bound<'py, PyList>),
}

/// A column as a list, unless it is a contiguous numpy array of `T` (then copied).
/// Other numpy arrays become lists of Python values (`tolist`), other sequences lists.
fn source<'py, T: numpy::Element + Copy>(name: &str, col: Option<Bound<'py, PyAny>>) -> PyResult<Source<'py, T>> {
    let Some(col) = col else {
        return Ok(Source::Absent);
    };
    if let Some(values) = col.cast::<PyArray1<T>>().ok().and_then(|a| a.readonly().as_slice().ok().map(<[T]>::to_vec)) {
        return Ok(Source::Values(values));
    }
    Ok(Source::List(as_list(name, &col)?))
}

/// Column `name` as a list: a list, a numpy array's values, or any other sequence's.
/// Anything else is refused, naming the column: a str (its characters are no rows), and a
/// set, a dict or an iterator (a set or a dict has no order of rows, an iterator is read
/// once).
pub(super) fn as_list<'py>(name: &str, col: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let py = col.py();
    let refused = || {
        let kind = col.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        hand_error(
            py,
            format!(
                "column {} must be a sequence of values (a list, a tuple or an array), not a {kind}",
                crate::error::quote(name)
            ),
        )
    };
    let list = if let Ok(list) = col.cast::<PyList>() {
        list.clone().into_any()
    } else if col.cast::<PyUntypedArray>().is_ok() {
        col.call_method0(pyo3::intern!(py, "tolist"))?
    } else if col.cast::<PyString>().is_err()
        && col.cast::<pyo3::types::PyBytes>().is_err()
        && col.cast::<pyo3::types::PySequence>().is_ok()
    {
        py.get_type::<PyList>().call1((col,)).map_err(|_| refused())?
    } else {
        return Err(refused());
    };
    list.cast_into::<PyList>().map_err(|_| refused())
}

/// Item `i` of `list`, borrowed (no reference is counted in or out), or the error.
pub(super) fn item(list: &Bound<'_, PyList>, i: usize) -> PyResult<*mut pyo3::ffi::PyObject> {
    // SAFETY: `list` is a live list and the GIL is held. `PyList_GetItem` checks `i`
    // against the list's length now and returns a borrowed item, or null with an
    // exception set. The item is used before any Python code can run.
    let p = unsafe { pyo3::ffi::PyList_GetItem(list.as_ptr(), i as pyo3::ffi::Py_ssize_t) };
    if p.is_null() {
        return Err(PyErr::fetch(list.py()));
    }
    Ok(p)
}

/// Objects known by address, each with its value: a small open-addressed table, so that
/// an item is found in a probe or two rather than by comparing it with each.
struct Known<T> {
    /// `(address, value)`, address 0 where empty.
    slots: [(usize, T); KNOWN_SLOTS],
}

const KNOWN_SLOTS: usize = 64;

impl<T: Copy + Default> Known<T> {
    fn new(objects: impl IntoIterator<Item = (*mut pyo3::ffi::PyObject, T)>) -> Known<T> {
        let mut known = Known { slots: [(0, T::default()); KNOWN_SLOTS] };
        for (p, v) in objects {
            let mut i = Self::slot(p);
            while known.slots[i].0 != 0 {
                i = (i + 1) % KNOWN_SLOTS;
            }
            known.slots[i] = (p as usize, v);
        }
        known
    }

    fn slot(p: *mut pyo3::ffi::PyObject) -> usize {
        // Objects are 16-byte aligned at least.
        (p as usize >> 4) % KNOWN_SLOTS
    }

    fn get(&self, p: *mut pyo3::ffi::PyObject) -> Option<T> {
        let mut i = Self::slot(p);
        loop {
            let (k, v) = self.slots[i];
            if k == p as usize {
                return Some(v);
            }
            if k == 0 {
                return None;
            }
            i = (i + 1) % KNOWN_SLOTS;
        }
    }
}

/// A column of small values: its source, the values Python keeps one object of (`True`,
/// `False`, small ints, one-letter strings), known by identity, and how other items
/// are read.
struct Small<'py, T> {
    name: &'static str,
    source: Source<'py, T>,
    known: Known<T>,
    read: fn(&Bound<'py, PyAny>) -> Option<T>,
    /// The largest value allowed.
    max: T,
    expected: &'static str,
    /// Text is tiles here (flowers): text that is not read is refused with the notation
    /// reader's error, which points into it, as the situation reader refuses it.
    tiles: bool,
}

impl<'py, T: Copy + Default + PartialOrd + std::fmt::Display> Small<'py, T> {
    /// The value of row `i`, or the error naming the key.
    fn at(&self, py: Python<'py>, i: usize) -> Result<T, HandError> {
        let mut value = [T::default()];
        match self.fill(py, i..i + 1, &mut value) {
            Some(()) => Ok(value[0]),
            None => {
                if let (true, Source::List(list)) = (self.tiles, &self.source) {
                    if let Some(Err(e)) = list.get_item(i).ok().and_then(|v| {
                        v.cast::<PyString>().ok().map(|t| {
                            crate::notation::parse(t.to_str().unwrap_or(""), crate::notation::Format::Compact).map(drop)
                        })
                    }) {
                        return Err(e.for_key(self.name));
                    }
                }
                // The value as every reader quotes it (a NaN as the regional columns do);
                // a column of numbers read in place, by its number.
                let shown = match &self.source {
                    Source::List(list) => list.get_item(i).ok().map(|v| convert::shown(&v)),
                    Source::Values(v) => v.get(i).map(|x| x.to_string()),
                    Source::Absent => None,
                };
                let message = match shown {
                    Some(v) => format!("{} must be {}, not {v}", self.name, self.expected),
                    None => format!("{} must be {}", self.name, self.expected),
                };
                Err(HandError::invalid(message).for_key(self.name))
            }
        }
    }

    /// The values of `rows` into `out`, or `None` if one cannot be read (then the rows
    /// are read one at a time, with [`Small::at`], to name it).
    fn fill(&self, py: Python<'py>, rows: std::ops::Range<usize>, out: &mut [T]) -> Option<()> {
        match &self.source {
            Source::Absent => out.fill(T::default()),
            Source::Values(v) => out.copy_from_slice(v.get(rows)?),
            Source::List(list) => {
                for (i, o) in rows.zip(out.iter_mut()) {
                    let p = item(list, i).ok()?;
                    *o = match self.known.get(p) {
                        Some(v) => v,
                        // SAFETY: `p` is the live item just borrowed from the list; it is
                        // counted in before any Python code runs.
                        None => (self.read)(&unsafe { Bound::from_borrowed_ptr(py, p) })?,
                    };
                }
            }
        }
        out.iter().all(|v| *v <= self.max).then_some(())
    }

    /// Whether row `i` gives a value (not a None, nor a column left out).
    fn given_at(&self, i: usize) -> bool {
        match &self.source {
            Source::Absent => false,
            Source::Values(_) => true,
            Source::List(list) => list.get_item(i).is_ok_and(|v| !v.is_none()),
        }
    }

    fn len(&self) -> Option<usize> {
        match &self.source {
            Source::Absent => None,
            Source::Values(v) => Some(v.len()),
            Source::List(list) => Some(list.len()),
        }
    }
}

/// A flag as every path reads it: True or False (numpy's bool too), never a string, a
/// number or NaN by its truth.
fn flag<'py>(v: &Bound<'py, PyAny>) -> Option<bool> {
    v.extract::<bool>().ok()
}

/// A row's format as [`Table::formats`] holds it.
fn format_code(v: &Bound<'_, PyAny>) -> Option<u8> {
    match v.cast::<PyString>().ok()?.to_str().ok()? {
        "compact" => Some(1),
        "comh" => Some(2),
        _ => None,
    }
}

fn format_of(code: u8) -> Option<crate::notation::Format> {
    match code {
        1 => Some(crate::notation::Format::Compact),
        2 => Some(crate::notation::Format::Comh),
        _ => None,
    }
}

/// The situation columns of one call, ready to be read a run of rows at a time.
pub struct Table<'py> {
    py: Python<'py>,
    hands: TextColumn<'py>,
    wins: TextColumn<'py>,
    format: crate::notation::Format,
    flags: [Small<'py, bool>; 5],
    winds: [Small<'py, u8>; 2],
    flowers: Small<'py, u8>,
    /// A row's own format: 0 the call's (None), 1 compact, 2 comh.
    formats: Small<'py, u8>,
    /// Read as every path reads the flag; the columns list no fans not counted.
    explain: Small<'py, bool>,
    /// The objects whose addresses the columns' `known` values are; held so that they
    /// stay where they are.
    _held: Vec<Bound<'py, PyAny>>,
}

impl<'py> Table<'py> {
    fn new(columns: &Bound<'py, PyDict>, format: crate::notation::Format) -> PyResult<Table<'py>> {
        let py = columns.py();
        let get = |k: &str| columns.get_item(k);
        for k in ["options", "concealed_and_melded_kong"] {
            if columns.contains(k)? {
                return Err(hand_error(py, format!("{} is not a column: every row takes the call's options (evaluate_many(columns, options={{...}}))", crate::error::quote(k))));
            }
        }
        // Named as the other rulesets' columns name them.
        for k in columns.keys() {
            let k = super::convert::column_name(&k)?;
            if !OWN_COLUMNS.contains(&k.as_str()) && !CASE_KEYS.contains(&k.as_str()) {
                let all: Vec<&str> = OWN_COLUMNS.iter().chain(&CASE_KEYS).copied().collect();
                let message = format!("unknown column {}; mcr takes {}", crate::error::quote(&k), all.join(", "));
                return Err(super::errors::for_key(py, hand_error(py, message), &k));
            }
        }
        let (Some(hands), Some(wins)) = (get("hand")?, get("win")?) else {
            return Err(hand_error(py, "columns need at least 'hand' and 'win'"));
        };
        let bools = [
            (PyBool::new(py, false).to_owned().into_any(), false),
            (PyBool::new(py, true).to_owned().into_any(), true),
        ];
        let letters: Vec<_> =
            ["E", "S", "W", "N"].iter().zip(0..).map(|(w, i)| (PyString::new(py, w).into_any(), i)).collect();
        let ints: Vec<_> = (0..=8u8).map(|i| (PyInt::new(py, i).into_any(), i)).collect();
        let addresses =
            |objects: &[(Bound<'py, PyAny>, _)]| objects.iter().map(|(o, v)| (o.as_ptr(), *v)).collect::<Vec<_>>();
        // None is a key left out, as in a situation dict: the default (false, East, none).
        let none = py.None().as_ptr();
        let flag_column = |name: &'static str| -> PyResult<Small<'py, bool>> {
            let known = Known::new(bools.iter().map(|(o, v)| (o.as_ptr(), *v)).chain([(none, false)]));
            Ok(Small {
                name,
                source: source(name, get(name)?)?,
                known,
                read: flag,
                max: true,
                expected: "True or False",
                tiles: false,
            })
        };
        let wind_column = |name: &'static str| -> PyResult<Small<'py, u8>> {
            // Winds may be letters or 0-3.
            let known = Known::new(addresses(&letters).into_iter().chain(addresses(&ints[..4])).chain([(none, 0)]));
            Ok(Small {
                name,
                source: source(name, get(name)?)?,
                known,
                read: super::mcr::wind_of,
                max: 3,
                expected: "a wind E, S, W or N (or 0-3)",
                tiles: false,
            })
        };
        let table = Table {
            py,
            hands: TextColumn::new("hand", &hands)?,
            wins: TextColumn::new("win", &wins)?,
            format,
            // The keys of `CASE_KEYS` in its order, so that `given` reads bit b as key b:
            // five flags, two winds, the flowers.
            flags: [
                flag_column(CASE_KEYS[0])?,
                flag_column(CASE_KEYS[1])?,
                flag_column(CASE_KEYS[2])?,
                flag_column(CASE_KEYS[3])?,
                flag_column(CASE_KEYS[4])?,
            ],
            winds: [wind_column(CASE_KEYS[5])?, wind_column(CASE_KEYS[6])?],
            flowers: Small {
                name: CASE_KEYS[7],
                source: source(CASE_KEYS[7], get(CASE_KEYS[7])?)?,
                known: Known::new(addresses(&ints).into_iter().chain([(none, 0)])),
                read: super::mcr::flowers_count,
                max: 8,
                expected: super::mcr::FLOWERS_EXPECTED,
                tiles: true,
            },
            formats: Small {
                name: "format",
                // Text only: a column of numbers is not read as the codes it is kept in.
                source: match get("format")? {
                    Some(col) => Source::List(as_list("format", &col)?),
                    None => Source::Absent,
                },
                known: Known::new([(none, 0)]),
                read: format_code,
                max: 2,
                expected: "'compact' or 'comh'",
                tiles: false,
            },
            explain: flag_column("explain")?,
            _held: bools.into_iter().map(|(o, _)| o).chain(letters.into_iter().chain(ints).map(|(o, _)| o)).collect(),
        };
        let n = table.len();
        let lengths = [table.wins.len()]
            .into_iter()
            .chain(table.flags.iter().filter_map(Small::len))
            .chain(table.winds.iter().filter_map(Small::len))
            .chain(table.flowers.len())
            .chain(table.formats.len())
            .chain(table.explain.len());
        if lengths.into_iter().any(|l| l != n) {
            // Named by the first column whose length is not the hands' (read again: only
            // a refused call pays for it).
            let other = columns.iter().find(|(_, v)| v.len().is_ok_and(|l| l != n));
            let Some((k, v)) = other else {
                return Err(hand_error(py, "columns must all have the same length"));
            };
            let k = k.str()?.to_string();
            let message = format!(
                "columns must all have the same length: {} has {} rows, \"hand\" {n}",
                crate::error::quote(&k),
                v.len()?
            );
            return Err(super::errors::for_key(py, hand_error(py, message), &k));
        }
        Ok(table)
    }

    fn len(&self) -> usize {
        self.hands.len()
    }

    /// The keys of `batch::CASE_KEYS` row `i` gives (a COMH case string gives them too):
    /// the columns are made in that list's order.
    fn given(&self, i: usize) -> u8 {
        let columns = self.flags.iter().map(|c| c.given_at(i));
        let columns = columns.chain(self.winds.iter().map(|c| c.given_at(i))).chain([self.flowers.given_at(i)]);
        columns.enumerate().fold(0, |m, (b, given)| m | (given as u8) << b)
    }

    /// Reads rows `first..first + n` into a run: a column at a time, or, when some value
    /// cannot be read, a row at a time, each bad row with its error.
    fn read(&self, first: usize, n: usize) -> (Texts, Refused) {
        let (text, rows, refused) = match self.read_columns(first, n) {
            Some((text, rows)) => (text, rows, vec![]),
            None => self.read_rows(first, n),
        };
        (Texts { format: self.format, text, rows }, refused)
    }

    fn read_columns(&self, first: usize, n: usize) -> Option<(String, Vec<Row>)> {
        let py = self.py;
        let range = first..first + n;
        let mut text = Vec::with_capacity(20 * n);
        let mut hands = Vec::with_capacity(n);
        for i in range.clone() {
            hands.push(self.hands.text_of(i, false, &mut text).ok()??);
        }
        let mut wins = Vec::with_capacity(n);
        for i in range.clone() {
            wins.push(self.wins.text_of(i, true, &mut text).ok()?);
        }
        let mut flags = [[false; RUN]; 5];
        for (column, values) in self.flags.iter().zip(flags.iter_mut()) {
            column.fill(py, range.clone(), &mut values[..n])?;
        }
        let mut small = [[0u8; RUN]; 4];
        for (column, values) in self.winds.iter().chain([&self.flowers, &self.formats]).zip(small.iter_mut()) {
            column.fill(py, range.clone(), &mut values[..n])?;
        }
        self.explain.fill(py, range.clone(), &mut [false; RUN][..n])?;
        let rows = hands
            .into_iter()
            .zip(wins)
            .enumerate()
            .map(|(k, (hand, win))| Row {
                hand,
                win,
                format: format_of(small[3][k]),
                options: None,
                explain: false,
                given: self.given(first + k),
                situation: Situation {
                    win: 0,
                    self_drawn: flags[0][k],
                    seat_wind: small[0][k],
                    round_wind: small[1][k],
                    flowers: small[2][k],
                    last_of_kind: flags[1][k],
                    wall_last: flags[2][k],
                    kong_replacement: flags[3][k],
                    robbing_kong: flags[4][k],
                },
            })
            .collect();
        Some((String::from_utf8(text).ok()?, rows))
    }

    /// Reads rows `first..first + n` one at a time: the text of their hands and winning
    /// tiles, the rows (a bad one's left empty), and the bad rows' errors by place.
    fn read_rows(&self, first: usize, n: usize) -> (String, Vec<Row>, Refused) {
        let mut text = Vec::new();
        let mut rows = Vec::with_capacity(n);
        let mut refused = vec![];
        for i in first..first + n {
            let at = text.len();
            match self.read_row(i, &mut text) {
                Ok(row) => rows.push(row),
                Err(e) => {
                    text.truncate(at);
                    let situation = Situation::default();
                    rows.push(Row {
                        hand: 0..0,
                        win: None,
                        situation,
                        format: None,
                        options: None,
                        explain: false,
                        given: 0,
                    });
                    refused.push((i - first, e));
                }
            }
        }
        // Text of str items and of UCS-4 code points is valid UTF-8.
        let text = String::from_utf8(text).unwrap_or_default();
        (text, rows, refused)
    }

    /// Reads row `i`, its texts onto the end of `text`; the error names the key.
    fn read_row(&self, i: usize, text: &mut Vec<u8>) -> Result<Row, HandError> {
        let py = self.py;
        // A `Hand` is read as its compact notation, whatever the format (looked for only
        // where the row holds no text, so that a column of text pays nothing for it).
        let (hand, object) = match self.hands.text_at(i, "hand", false, text) {
            Ok(range) => (range.unwrap_or(0..0), false),
            Err(e) => {
                let h = self.hands.hand_at(i).ok_or(e)?;
                let start = text.len();
                text.extend_from_slice(h.as_bytes());
                (start..text.len(), true)
            }
        };
        let win = self.wins.text_at(i, "win", true, text)?;
        let [self_drawn, last_of_kind, wall_last, kong_replacement, robbing_kong] =
            [0, 1, 2, 3, 4].map(|f| self.flags[f].at(py, i));
        let situation = Situation {
            win: 0,
            self_drawn: self_drawn?,
            seat_wind: self.winds[0].at(py, i)?,
            round_wind: self.winds[1].at(py, i)?,
            flowers: self.flowers.at(py, i)?,
            last_of_kind: last_of_kind?,
            wall_last: wall_last?,
            kong_replacement: kong_replacement?,
            robbing_kong: robbing_kong?,
        };
        let format = format_of(self.formats.at(py, i)?);
        let format = if object { Some(crate::notation::Format::Compact) } else { format };
        self.explain.at(py, i)?;
        Ok(Row { hand, win, situation, format, options: None, explain: false, given: self.given(i) })
    }
}

/// The columns MCR reads besides the situation keys a COMH case string also gives
/// ([`CASE_KEYS`]).
const OWN_COLUMNS: [&str; 4] = ["hand", "win", "format", "explain"];

/// MCR's columns of `evaluate_many`: the call's format and options.
pub struct McrColumns {
    pub format: crate::notation::Format,
    pub options: Options,
}

impl ColumnScorer for McrColumns {
    type Table<'py> = Table<'py>;
    type Run = Texts;

    fn table<'py>(&self, columns: &Bound<'py, PyDict>) -> PyResult<(Table<'py>, usize)> {
        let table = Table::new(columns, self.format)?;
        let n = table.len();
        Ok((table, n))
    }

    fn patterns(&self) -> usize {
        FAN_COLUMNS
    }

    fn read(&self, table: &Table<'_>, rows: std::ops::Range<usize>) -> PyResult<(Texts, Refused)> {
        Ok(table.read(rows.start, rows.len()))
    }

    fn score(&self, run: &Texts, k: usize, out: RowOut<'_>) -> crate::error::Result<()> {
        score_into(&run.situation(k), &self.options, out.win, out.total, out.fans)
    }
}

/// A column of text: a list of str (`None` allowed where optional), or a numpy array of
/// fixed-width text, read in place. (Such an array hands out a new Python string per
/// item; reading its code points costs a fraction of that.)
pub(super) enum TextColumn<'py> {
    List(Bound<'py, PyList>),
    /// A one-dimensional array of `chars` UCS-4 code points an item, native byte order.
    Unicode {
        array: Bound<'py, PyUntypedArray>,
        chars: usize,
    },
}

impl<'py> TextColumn<'py> {
    pub(super) fn new(name: &str, col: &Bound<'py, PyAny>) -> PyResult<TextColumn<'py>> {
        if let Ok(a) = col.cast::<PyUntypedArray>() {
            let dtype = a.dtype();
            let native = match dtype.byteorder() {
                b'=' | b'|' => true,
                b'<' => cfg!(target_endian = "little"),
                b'>' => cfg!(target_endian = "big"),
                _ => false,
            };
            if dtype.kind() == b'U' {
                if a.ndim() == 1 && native {
                    return Ok(TextColumn::Unicode { array: a.clone(), chars: dtype.itemsize() / 4 });
                }
                return Ok(TextColumn::List(as_list(name, &col.call_method0(pyo3::intern!(col.py(), "tolist"))?)?));
            }
        }
        Ok(TextColumn::List(as_list(name, col)?))
    }

    pub(super) fn len(&self) -> usize {
        match self {
            TextColumn::List(list) => list.len(),
            TextColumn::Unicode { array, .. } => array.len(),
        }
    }

    /// Copies the text of row `i` (as UTF-8) to the end of `text` and returns where it
    /// stands (`None` for a `None` where `optional`); `Err(())` when the item is not text (its
    /// exception cleared).
    pub(super) fn text_of(
        &self,
        i: usize,
        optional: bool,
        text: &mut Vec<u8>,
    ) -> Result<Option<std::ops::Range<usize>>, ()> {
        let start = text.len();
        match self {
            TextColumn::List(list) => {
                let py = list.py();
                let p = item(list, i).map_err(drop)?;
                // SAFETY: `p` is a live object borrowed from the list, and the GIL is
                // held. `PyUnicode_AsUTF8AndSize` returns the UTF-8 text the string keeps,
                // which is copied out at once; or null with an exception set (not a str,
                // or not encodable).
                unsafe {
                    if optional && p == pyo3::ffi::Py_None() {
                        return Ok(None);
                    }
                    let mut size: pyo3::ffi::Py_ssize_t = 0;
                    let data = pyo3::ffi::PyUnicode_AsUTF8AndSize(p, &mut size);
                    if data.is_null() {
                        drop(PyErr::fetch(py));
                        return Err(());
                    }
                    let bytes = std::slice::from_raw_parts(data.cast::<u8>(), size as usize);
                    text.extend_from_slice(bytes);
                }
            }
            TextColumn::Unicode { array, chars } => {
                if i >= array.len() {
                    return Err(());
                }
                // SAFETY: the array is one-dimensional, alive and not changed while the GIL
                // is held; item `i` (below its length) starts `i` strides from its data
                // and holds `chars` code points of 4 bytes, read unaligned.
                let stride = array.strides()[0];
                let code_points = unsafe {
                    let data = (*array.as_array_ptr()).fields.data;
                    let item = data.cast::<u8>().cast_const().offset(i as isize * stride);
                    (0..*chars).map(move |k| item.add(4 * k).cast::<u32>().read_unaligned())
                };
                // Trailing NULs are padding; the text is ASCII but for mistakes.
                let len = code_points.clone().rposition(|c| c != 0).map_or(0, |k| k + 1);
                for c in code_points.take(len) {
                    match u8::try_from(c) {
                        Ok(b) if b.is_ascii() => text.push(b),
                        _ => text.extend_from_slice(char::from_u32(c).ok_or(())?.encode_utf8(&mut [0; 4]).as_bytes()),
                    }
                }
            }
        }
        Ok(Some(start..text.len()))
    }

    /// The compact notation of row `i` where it is a `haidi.Hand`.
    fn hand_at(&self, i: usize) -> Option<String> {
        let TextColumn::List(list) = self else { return None };
        list.get_item(i).ok()?.cast::<super::hand::PyHand>().ok().map(|h| h.get().inner.notation())
    }

    /// [`TextColumn::text_of`], with the error naming the key.
    fn text_at(
        &self,
        i: usize,
        name: &str,
        optional: bool,
        text: &mut Vec<u8>,
    ) -> Result<Option<std::ops::Range<usize>>, HandError> {
        // Said as the situation reader says it (the hand or the winning tile, and the value).
        let not_str = || {
            let what = if name == "hand" { crate::error::A_HAND.get() } else { crate::error::A_TILE.get() };
            let shown = match self {
                TextColumn::List(list) => list.get_item(i).map(|v| super::convert::shown(&v)).unwrap_or_default(),
                TextColumn::Unicode { .. } => String::new(),
            };
            HandError::invalid(format!("{name} must be {what}, not {shown}")).for_key(name)
        };
        if let TextColumn::List(list) = self {
            let p = item(list, i).map_err(|_| not_str())?;
            // SAFETY: `p` is a live object borrowed from the list, and the GIL is held.
            if unsafe { !(optional && p == pyo3::ffi::Py_None()) && pyo3::ffi::PyUnicode_Check(p) == 0 } {
                return Err(not_str());
            }
        }
        self.text_of(i, optional, text)
            .map_err(|()| HandError::invalid(format!("{name} is not valid text")).for_key(name))
    }
}
