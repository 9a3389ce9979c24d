//! A result written once, as a Python dict or as its JSON text: the compact UTF-8 that
//! `orjson.dumps` writes of that dict (`evaluate_many(..., output="json")`, which
//! `haidi eval --jsonl` writes as it is). The scorers put each key in the dict's order,
//! through one `Writer`, so that the two cannot say different things; what is made
//! once (fan and group entries, constants of the ruleset data) has its JSON text made
//! once too, by orjson itself.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple};

use super::entry::{self, Entries};

/// `orjson.dumps(value)`: the JSON text of something made once (an entry's template, a
/// constant), or of what a result holds only when asked for (`explain`'s list).
pub fn dumps(value: &Bound<'_, PyAny>) -> PyResult<Box<[u8]>> {
    let py = value.py();
    static DUMPS: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
    let f = DUMPS.get_or_try_init(py, || Ok::<_, PyErr>(py.import("orjson")?.getattr("dumps")?.unbind()))?;
    let text = f.bind(py).call1((value,))?;
    Ok(text.cast::<PyBytes>()?.as_bytes().into())
}

/// `s` as a JSON string, as orjson writes it: `"` and `\` escaped, the control
/// characters as `\n`, `\t` ... or `\u00XX`, every other character as it is (UTF-8).
pub fn string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let mut rest = s.as_bytes();
    while let Some(at) = rest.iter().position(|&b| b < 0x20 || b == b'"' || b == b'\\') {
        out.extend_from_slice(&rest[..at]);
        let b = rest[at];
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\r' => out.extend_from_slice(b"\\r"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
            }
        }
        rest = &rest[at + 1..];
    }
    out.extend_from_slice(rest);
    out.push(b'"');
}

/// An integer in decimal, as Python writes it.
fn int(out: &mut Vec<u8>, v: i128) {
    if v < 0 {
        out.push(b'-');
    }
    let mut digits = [0u8; 40];
    let mut n = v.unsigned_abs();
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// A key of a result: its Python str (interned, as the template's keys are) and its
/// JSON text, `"key":`.
pub struct Key {
    name: Py<PyString>,
    json: Box<[u8]>,
}

impl Key {
    pub fn new(py: Python<'_>, name: &str) -> Key {
        let mut json = Vec::with_capacity(name.len() + 3);
        string(&mut json, name);
        json.push(b':');
        Key { name: PyString::intern(py, name).unbind(), json: json.into() }
    }

    pub fn name<'py>(&self, py: Python<'py>) -> &Bound<'py, PyString> {
        self.name.bind(py)
    }
}

/// The keys every result has, in their order, and `excluded` (`explain`).
pub struct Common {
    pub win: Key,
    pub total: Key,
    pub fans: Key,
    pub reason: Key,
    pub form: Key,
    pub arrangement: Key,
    pub groups: Key,
    pub excluded: Key,
}

/// The keys every result has, made once.
pub fn common(py: Python<'_>) -> &Common {
    static COMMON: pyo3::sync::PyOnceLock<Common> = pyo3::sync::PyOnceLock::new();
    COMMON.get_or_init(py, || Common {
        win: Key::new(py, "win"),
        total: Key::new(py, "total"),
        fans: Key::new(py, "fans"),
        reason: Key::new(py, "reason"),
        form: Key::new(py, "form"),
        arrangement: Key::new(py, "arrangement"),
        groups: Key::new(py, "groups"),
        excluded: Key::new(py, "excluded"),
    })
}

/// A template of results: a dict of the keys every result has, each None (a ruleset's
/// own keys go after them).
pub fn result_template(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let c = common(py);
    let d = PyDict::new(py);
    for k in [&c.win, &c.total, &c.fans, &c.reason, &c.form, &c.arrangement, &c.groups] {
        d.set_item(k.name(py), py.None())?;
    }
    Ok(d)
}

/// Where a result is written.
enum Target<'py> {
    /// A copy of the template, its keys in place (set again in their order).
    Dict(Bound<'py, PyDict>),
    /// The JSON text so far; whether a key has been written.
    Json(Vec<u8>, bool),
}

/// Where one key of a result goes.
enum Slot<'a, 'py> {
    /// The JSON text, its `"key":` written.
    Json(&'a mut Vec<u8>),
    Dict(&'a Bound<'py, PyDict>),
}

/// A result being written, key by key, in the order of its dict's keys.
pub struct Writer<'py> {
    py: Python<'py>,
    into: Target<'py>,
}

impl<'py> Writer<'py> {
    /// A dict, a copy of `template` (the keys every result has, in their order, None);
    /// or its JSON text.
    pub fn new(template: &Bound<'py, PyDict>, json: bool) -> PyResult<Self> {
        let into = if json { Target::Json(Vec::with_capacity(512), false) } else { Target::Dict(template.copy()?) };
        Ok(Writer { py: template.py(), into })
    }

    /// Where `key` goes: the JSON text being written, after `"key":`, or the dict.
    fn slot(&mut self, key: &Key) -> Slot<'_, 'py> {
        match &mut self.into {
            Target::Json(out, any) => {
                out.push(if *any { b',' } else { b'{' });
                *any = true;
                out.extend_from_slice(&key.json);
                Slot::Json(out)
            }
            Target::Dict(d) => Slot::Dict(d),
        }
    }

    /// `key` with `v`: its text as `json` writes it, or `v` in the dict.
    fn put<V: IntoPyObject<'py>>(&mut self, key: &Key, v: V, json: impl FnOnce(&mut Vec<u8>)) -> PyResult<()> {
        let py = self.py;
        match self.slot(key) {
            Slot::Json(out) => {
                json(out);
                Ok(())
            }
            Slot::Dict(d) => d.set_item(key.name(py), v),
        }
    }

    pub fn bool(&mut self, key: &Key, v: bool) -> PyResult<()> {
        self.put(key, v, |out| out.extend_from_slice(if v { b"true" } else { b"false" }))
    }

    pub fn int(&mut self, key: &Key, v: i64) -> PyResult<()> {
        self.put(key, v, |out| int(out, v.into()))
    }

    pub fn uint(&mut self, key: &Key, v: u64) -> PyResult<()> {
        self.put(key, v, |out| int(out, v.into()))
    }

    /// A key the template already holds as `v` (a template made for it, chosen by `v`):
    /// only JSON writes it.
    pub fn kept<V>(&mut self, key: &Key, v: V, json: impl FnOnce(&mut Vec<u8>)) -> PyResult<()>
    where
        V: IntoPyObject<'py>,
    {
        let py = self.py;
        match self.slot(key) {
            Slot::Json(out) => json(out),
            Slot::Dict(d) => {
                if cfg!(debug_assertions) {
                    // A wrong template is a bug of the caller, never of the input.
                    let held = d.get_item(key.name(py))?;
                    assert!(
                        held.is_some_and(|h| h.eq(v).unwrap_or(false)),
                        "the template holds another {}",
                        key.name(py)
                    );
                }
            }
        }
        Ok(())
    }

    /// A bool whose template value is false (see `score::Extra::usual`): set only when true.
    pub fn bool_or_usual(&mut self, key: &Key, v: bool) -> PyResult<()> {
        match v {
            true => self.bool(key, true),
            false => self.kept(key, false, |out| out.extend_from_slice(b"false")),
        }
    }

    /// An int whose template value is 0: set only when another.
    pub fn int_or_usual(&mut self, key: &Key, v: i64) -> PyResult<()> {
        match v {
            0 => self.kept(key, 0, |out| out.extend_from_slice(b"0")),
            v => self.int(key, v),
        }
    }

    /// A key left None: the template's value, or `null`.
    pub fn none(&mut self, key: &Key) -> PyResult<()> {
        if let Slot::Json(out) = self.slot(key) {
            out.extend_from_slice(b"null");
        }
        Ok(())
    }

    /// Text, made a Python str only for a dict.
    pub fn str(&mut self, key: &Key, v: &str) -> PyResult<()> {
        self.put(key, v, |out| string(out, v))
    }

    /// Text already made a Python str `v` (interned, or kept), put as it is in a dict.
    pub fn py_str(&mut self, key: &Key, v: &Bound<'py, PyString>, text: &str) -> PyResult<()> {
        self.put(key, v, |out| string(out, text))
    }

    /// Any value, written by orjson: for what is made per result only when asked for.
    pub fn object(&mut self, key: &Key, v: &Bound<'py, PyAny>) -> PyResult<()> {
        let json = match self.is_json() {
            true => dumps(v)?,
            false => Box::default(),
        };
        self.made(key, v, &json)
    }

    /// A value made once with its JSON text.
    pub fn made(&mut self, key: &Key, v: &Bound<'py, PyAny>, json: &[u8]) -> PyResult<()> {
        self.put(key, v, |out| out.extend_from_slice(json))
    }

    fn is_json(&self) -> bool {
        matches!(self.into, Target::Json(..))
    }

    /// A tuple of `n` items: in a dict, `tuple` (made when called); in JSON, each item's
    /// text as `item` writes it, in a list.
    pub fn items(
        &mut self,
        key: &Key,
        n: usize,
        tuple: impl FnOnce(Python<'py>) -> PyResult<Bound<'py, PyTuple>>,
        mut item: impl FnMut(usize, &mut Vec<u8>) -> PyResult<()>,
    ) -> PyResult<()> {
        let py = self.py;
        match self.slot(key) {
            Slot::Json(out) => {
                out.push(b'[');
                for i in 0..n {
                    if i > 0 {
                        out.push(b',');
                    }
                    item(i, out)?;
                }
                out.push(b']');
                Ok(())
            }
            Slot::Dict(d) => d.set_item(key.name(py), tuple(py)?),
        }
    }

    /// Texts, a list in a dict.
    pub fn str_list(&mut self, key: &Key, v: &[String]) -> PyResult<()> {
        let py = self.py;
        match self.slot(key) {
            Slot::Json(out) => {
                out.push(b'[');
                for (i, s) in v.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    string(out, s);
                }
                out.push(b']');
                Ok(())
            }
            Slot::Dict(d) => d.set_item(key.name(py), v),
        }
    }

    /// A result's groups.
    pub fn entries(&mut self, key: &Key, entries: &Entries) -> PyResult<()> {
        self.items(
            key,
            entries.len(),
            |py| {
                let mut t = entry::Tuple::new(py, entries.len())?;
                for i in 0..entries.len() {
                    t.push(entries.get(i).object(py)?)?;
                }
                t.finish()
            },
            |i, out| {
                entries.get(i).json(out);
                Ok(())
            },
        )
    }

    /// The dict, or the JSON text as bytes.
    pub fn finish(self) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self.into {
            Target::Dict(d) => d.into_any(),
            Target::Json(mut out, any) => {
                if !any {
                    out.push(b'{');
                }
                out.push(b'}');
                PyBytes::new(self.py, &out).into_any()
            }
        })
    }
}
