//! The keys of results and the JSON text of their values: the compact UTF-8 that
//! `orjson.dumps` writes of a result's dict (`evaluate_many(..., output="json")`, which
//! `haidi eval --jsonl` writes as it is; see `result`). What is made once (fan and group
//! entries, constants of the ruleset data) has its JSON text made once too, by orjson
//! itself.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

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
pub fn int(out: &mut Vec<u8>, v: i128) {
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

/// A key of a result: its place among its scorer's keys (the common keys first, see
/// [`common_key`]), its Python str (interned) and its JSON text, `"key":`.
pub struct Key {
    id: u16,
    text: Box<str>,
    name: Py<PyString>,
    json: Box<[u8]>,
}

impl Key {
    pub fn new(py: Python<'_>, name: &str, id: u16) -> Key {
        let mut json = Vec::with_capacity(name.len() + 3);
        string(&mut json, name);
        json.push(b':');
        Key { id, text: name.into(), name: PyString::intern(py, name).unbind(), json: json.into() }
    }

    pub fn name<'py>(&self, py: Python<'py>) -> &Bound<'py, PyString> {
        self.name.bind(py)
    }

    pub fn id(&self) -> u16 {
        self.id
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn json(&self) -> &[u8] {
        &self.json
    }
}

/// Room made for a result's JSON text at once: more than nearly every result's (MCR's
/// 865 bytes on average and 1,485 at most on random situations; Longgang's 1,179 at the
/// median), so that writing it seldom moves it.
pub const JSON_ROOM: usize = 1536;

/// The places of the keys every result has, in their order, and of `excluded`.
pub const WIN: u16 = 0;
pub const TOTAL: u16 = 1;
pub const FANS: u16 = 2;
pub const REASON: u16 = 3;
pub const FORM: u16 = 4;
pub const ARRANGEMENT: u16 = 5;
pub const GROUPS: u16 = 6;
pub const EXCLUDED: u16 = 7;
/// The place of a scorer's first own key.
pub const OWN_KEYS: u16 = 8;

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

/// The keys every result has, made once (under the GIL, by the first result made; read
/// without it after that).
static COMMON: std::sync::OnceLock<Common> = std::sync::OnceLock::new();

/// The keys every result has, made once.
pub fn common(py: Python<'_>) -> &'static Common {
    COMMON.get_or_init(|| Common {
        win: Key::new(py, "win", WIN),
        total: Key::new(py, "total", TOTAL),
        fans: Key::new(py, "fans", FANS),
        reason: Key::new(py, "reason", REASON),
        form: Key::new(py, "form", FORM),
        arrangement: Key::new(py, "arrangement", ARRANGEMENT),
        groups: Key::new(py, "groups", GROUPS),
        excluded: Key::new(py, "excluded", EXCLUDED),
    })
}

/// The common key of `id`, None for a scorer's own.
pub fn common_key(id: u16) -> Option<&'static Key> {
    // Made before any result is: a result's keys are read only once it is made.
    let c = COMMON.get()?;
    Some(match id {
        WIN => &c.win,
        TOTAL => &c.total,
        FANS => &c.fans,
        REASON => &c.reason,
        FORM => &c.form,
        ARRANGEMENT => &c.arrangement,
        GROUPS => &c.groups,
        EXCLUDED => &c.excluded,
        _ => return None,
    })
}
