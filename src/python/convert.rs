//! Reading Python arguments: hands given as `Hand` or text, tiles, wild lists.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyMapping, PyString};

use super::errors::{hand_error, to_py, IntoPy};
use super::hand::PyHand;
use crate::error::{HandError, Phrase, Spelling, TRUE_OR_FALSE};
use crate::hand::Hand;
use crate::notation::{self, Format};
use crate::tiles::{self, Tile, KINDS};

/// The text of a str; one that cannot be UTF-8 (a lone surrogate) is a `HandError`
/// naming `what`.
pub fn text<'a>(s: &'a Bound<'_, PyString>, what: &str) -> PyResult<&'a str> {
    s.to_str().map_err(|_| hand_error(s.py(), format!("{what} is not valid text (it holds a lone surrogate)")))
}

/// A column's name: a str that is valid text.
pub fn column_name(k: &Bound<'_, PyAny>) -> PyResult<String> {
    let k = k.cast::<PyString>().map_err(|_| hand_error(k.py(), "column names are str"))?;
    Ok(text(k, "a column name")?.to_string())
}

/// A value as an error message shows it, cut short: its repr, or in JSON [`Spelling`]
/// its JSON text (a value that JSON cannot write, its repr).
pub fn shown(obj: &Bound<'_, PyAny>) -> String {
    // A NaN as the regional readers name it (pandas puts one in an empty cell); an int
    // is never one, and other objects are asked only if they are floats.
    if obj.cast::<PyInt>().is_err() && (obj.cast::<PyFloat>().is_ok() || is_numpy_floating(obj)) {
        if let Ok(x) = obj.extract::<f64>() {
            if x.is_nan() {
                return crate::score::situation::Value::Float(x).to_string();
            }
        }
    }
    let json = || -> PyResult<String> {
        static DUMPS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let dumps = DUMPS.import(obj.py(), "json", "dumps")?;
        let kwargs = PyDict::new(obj.py());
        kwargs.set_item("ensure_ascii", false)?;
        dumps.call((obj,), Some(&kwargs))?.extract()
    };
    let text = match Spelling::current() {
        Spelling::Json => json().ok(),
        Spelling::Python => None,
    };
    let r = match text {
        Some(t) => t,
        None => match obj.repr() {
            Ok(r) => r.to_string(),
            Err(_) => return format!("a {}", obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()),
        },
    };
    match r.char_indices().nth(40) {
        Some((at, _)) => format!("{}...", &r[..at]),
        None => r,
    }
}

/// A dict and a str, as a message names them to a Python caller and to a JSON one.
pub const A_DICT: Phrase = Phrase { python: "a dict", json: "an object" };
pub const A_STR: Phrase = Phrase { python: "a str", json: "a string" };

/// Whether a value is an integer as every situation reader takes one: a Python int (not a
/// bool) or a numpy integer scalar. A float, an array or another object with `__index__`
/// is not.
pub fn is_integer(obj: &Bound<'_, PyAny>) -> bool {
    if obj.cast::<PyInt>().is_ok() {
        return obj.cast::<PyBool>().is_err();
    }
    let name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    (name.starts_with("int") || name.starts_with("uint")) && obj.get_type().module().is_ok_and(|m| m == "numpy")
}

/// Whether a value is a numpy floating scalar (`float32`, `float16`...; `float64` is a
/// Python float too).
fn is_numpy_floating(obj: &Bound<'_, PyAny>) -> bool {
    let name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    name.starts_with("float") && obj.get_type().module().is_ok_and(|m| m == "numpy")
}

/// Whether a value is numpy's masked constant (`numpy.ma.masked`): a value left out, as
/// None is, and as a masked row of a column is.
pub fn is_masked(obj: &Bound<'_, PyAny>) -> bool {
    let t = obj.get_type();
    t.name().is_ok_and(|n| n == "MaskedConstant") && t.module().is_ok_and(|m| m == "numpy.ma.core")
}

/// An `options` value as a dict: a dict as it is, any other mapping
/// (`types.MappingProxyType` ...) copied into one; anything else is a `HandError`.
pub fn options_dict<'py>(v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let py = v.py();
    if let Ok(d) = v.cast::<PyDict>() {
        return Ok(d.clone());
    }
    let bad = || hand_error(py, format!("options must be {}, not {}", A_DICT.get(), shown(v)));
    let m = v.cast::<PyMapping>().map_err(|_| bad())?;
    let d = PyDict::new(py);
    d.update(m).map_err(|e| hand_error(py, format!("options could not be read as a dict: {e}")))?;
    Ok(d)
}

/// A str argument, or a `HandError` naming it.
pub fn str_arg<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<&'a str> {
    match obj.cast::<PyString>() {
        Ok(s) => text(s, what),
        Err(_) => Err(hand_error(obj.py(), format!("{what} must be {}, not {}", A_STR.get(), shown(obj)))),
    }
}

/// A flag given as True or False (None: `default`), or a `HandError` naming it.
pub fn flag_arg(obj: Option<&Bound<'_, PyAny>>, what: &str, default: bool) -> PyResult<bool> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(default) };
    obj.extract::<bool>()
        .map_err(|_| hand_error(obj.py(), format!("{what} must be {}, not {}", TRUE_OR_FALSE.get(), shown(obj))))
}

/// A count given as an int (not a bool; numpy's integer scalars too, as every reader
/// takes them) from 0 to `max`, or a `HandError` naming it.
pub fn count(obj: &Bound<'_, PyAny>, what: &str, max: u64) -> PyResult<u64> {
    count_in(obj, what, 0, max)
}

/// A count from `min` to `max`, as [`count`] reads one.
pub fn count_in(obj: &Bound<'_, PyAny>, what: &str, min: u64, max: u64) -> PyResult<u64> {
    let py = obj.py();
    let bad = || hand_error(py, format!("{what} must be an int from {min} to {max}, not {}", shown(obj)));
    if !is_integer(obj) {
        return Err(bad());
    }
    match obj.extract::<i64>() {
        Ok(n) if (min as i64..=max as i64).contains(&n) => Ok(n as u64),
        _ => Err(bad()),
    }
}

/// A `format=` argument: None (compact), "compact" or "comh".
pub fn format_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Format> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(Format::Compact) };
    match obj.cast::<PyString>() {
        Ok(s) => format(obj.py(), text(s, "format")?),
        Err(_) => Err(hand_error(obj.py(), format!("format must be \"compact\" or \"comh\", not {}", shown(obj)))),
    }
}

pub fn format(py: Python<'_>, name: &str) -> PyResult<Format> {
    match name {
        "compact" => Ok(Format::Compact),
        "comh" => Ok(Format::Comh),
        other => {
            Err(hand_error(py, format!("unknown format {} (use \"compact\" or \"comh\")", crate::error::quote(other))))
        }
    }
}

/// A `Hand`, or text in the given format.
pub fn hand(obj: &Bound<'_, PyAny>, fmt: &str) -> PyResult<Hand> {
    let py = obj.py();
    if let Ok(h) = obj.cast::<PyHand>() {
        return Ok(h.get().inner.clone());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let text = text(s, "the hand")?;
        let parsed = notation::parse(text, format(py, fmt)?).py_err(py)?;
        if parsed.rest.is_some() {
            return Err(hand_error(
                py,
                format!("{}: the part after '|' is a situation, not a hand", crate::error::quote(text)),
            ));
        }
        return Ok(parsed.hand);
    }
    Err(hand_error(py, format!("expected a Hand or a str, got {}", obj.get_type().name()?)))
}

/// One tile kind from text such as `"5p"`.
pub fn tile(py: Python<'_>, text: &str) -> PyResult<Tile> {
    notation::parse_tile(text, Format::Compact).py_err(py)
}

/// Tile kinds as a bitmask from None, a str of tiles (`"5z"`, `"5z6z"`) or a list of them.
pub fn kinds_mask(obj: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    wild_names(obj, false).map(|(kinds, _)| kinds)
}

/// The kinds a `wilds` value names (see [`kinds_mask`]) and, where `flowers` (a ruleset
/// whose wilds may be the flowers), the flowers it names (bits, 1f bit 0).
pub fn wild_names(obj: Option<&Bound<'_, PyAny>>, flowers: bool) -> PyResult<(u64, u8)> {
    let Some(obj) = obj else { return Ok((0, 0)) };
    if obj.is_none() {
        return Ok((0, 0));
    }
    let py = obj.py();
    let mut mask = 0u64;
    let mut named_flowers = 0u8;
    let mut add_text = |text: &str| -> PyResult<()> {
        let parsed = notation::parse(text, Format::Compact).map_err(|e| to_py(py, e.for_key("wilds")))?;
        let h = parsed.hand;
        if !h.melds.is_empty() || h.flowers != 0 && !flowers {
            let message = format!("wilds name tile kinds such as \"5z\", not {}", crate::error::quote(text));
            return Err(to_py(py, HandError::invalid(message).for_key("wilds")));
        }
        mask |= tiles::kinds_mask(&h.concealed);
        named_flowers |= h.flowers;
        Ok(())
    };
    if let Ok(s) = obj.cast::<PyString>() {
        add_text(text(s, "the wilds")?)?;
        return Ok((mask, named_flowers));
    }
    let not_kinds = || {
        let message = "wilds must be tile kinds such as \"5z\": a str, or a list of them";
        to_py(py, HandError::invalid(message).for_key("wilds"))
    };
    // A mapping would be read as its keys, whatever its values say.
    if obj.cast::<PyMapping>().is_ok() {
        return Err(not_kinds());
    }
    for item in obj.try_iter().map_err(|_| not_kinds())? {
        let item = item?;
        let s = item.cast::<PyString>().map_err(|_| not_kinds())?;
        add_text(text(s, "the wilds")?)?;
    }
    Ok((mask, named_flowers))
}

/// Tile names of a bitmask, in order m, p, s, z.
/// The tile names as Python strings, made once: an analysis or a listing of
/// arrangements names many tiles, and formatting each name again cost more than the
/// work itself.
pub fn tile_names(py: Python<'_>) -> &[Py<PyString>; KINDS] {
    static NAMES: PyOnceLock<[Py<PyString>; KINDS]> = PyOnceLock::new();
    NAMES.get_or_init(py, || std::array::from_fn(|t| PyString::intern(py, &tiles::name(t as Tile)).unbind()))
}

pub fn mask_names(mask: u64) -> Vec<String> {
    tiles::mask_tiles(mask).map(tiles::name).collect()
}
