//! Reading Python arguments: hands given as `Hand` or text, tiles, wild lists.

use pyo3::prelude::*;
use pyo3::types::PyString;

use super::errors::{hand_error, IntoPy};
use super::hand::PyHand;
use crate::hand::Hand;
use crate::notation::{self, Format};
use crate::tiles::{self, Tile};

pub fn format(py: Python<'_>, name: &str) -> PyResult<Format> {
    match name {
        "compact" => Ok(Format::Compact),
        "comh" => Ok(Format::Comh),
        other => Err(hand_error(py, format!("unknown format {other:?} (use \"compact\" or \"comh\")"))),
    }
}

/// A `Hand`, or text in the given format.
pub fn hand(obj: &Bound<'_, PyAny>, fmt: &str) -> PyResult<Hand> {
    let py = obj.py();
    if let Ok(h) = obj.cast::<PyHand>() {
        return Ok(h.get().inner.clone());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let text = s.to_str()?;
        let parsed = notation::parse(text, format(py, fmt)?).py_err(py)?;
        if parsed.rest.is_some() {
            return Err(hand_error(py, format!("{text:?}: the part after '|' is a situation, not a hand")));
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
    let Some(obj) = obj else { return Ok(0) };
    if obj.is_none() {
        return Ok(0);
    }
    let py = obj.py();
    let mut mask = 0u64;
    let mut add_text = |text: &str| -> PyResult<()> {
        let parsed = notation::parse(text, Format::Compact).py_err(py)?;
        let h = parsed.hand;
        if !h.melds.is_empty() || h.flowers != 0 {
            return Err(hand_error(py, format!("{text:?}: name tile kinds such as \"5z\"")));
        }
        for t in 0..tiles::KINDS {
            if h.concealed[t] > 0 {
                mask |= 1 << t;
            }
        }
        Ok(())
    };
    if let Ok(s) = obj.cast::<PyString>() {
        add_text(s.to_str()?)?;
        return Ok(mask);
    }
    for item in obj.try_iter()? {
        let item = item?;
        let s =
            item.cast::<PyString>().map_err(|_| hand_error(py, "tile kinds must be given as names such as \"5z\""))?;
        add_text(s.to_str()?)?;
    }
    Ok(mask)
}

/// Tile names of a bitmask, in order m, p, s, z.
pub fn mask_names(mask: u64) -> Vec<String> {
    tiles::mask_tiles(mask).map(tiles::name).collect()
}
