//! `haidi.Hand` and `haidi.Meld`.

use pyo3::prelude::*;

use super::convert;
use super::errors::IntoPy;
use crate::hand::{Hand, Meld};
use crate::notation;
use crate::tiles::{self, KINDS};

/// A hand: concealed tiles, declared melds and flowers.
///
/// `Hand(text, format=None)` reads a hand in haidi's compact notation (`format` None or
/// "compact") or as a ChineseOfficialMahjongHelper string ("comh"); the format is never
/// guessed. Bad text raises `HandError` with the position of the fault.
#[pyclass(name = "Hand", module = "haidi._core", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyHand {
    pub inner: Hand,
}

#[pymethods]
impl PyHand {
    /// Reads a hand. `format` is "compact" (haidi's notation) or "comh"
    /// (ChineseOfficialMahjongHelper); it is never guessed.
    #[new]
    #[pyo3(signature = (text, format = None))]
    fn new(py: Python<'_>, text: &Bound<'_, PyAny>, format: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let format = convert::format_arg(format)?;
        let Ok(text) = text.cast::<pyo3::types::PyString>() else {
            let kind = text.get_type().name().map(|n| n.to_string()).unwrap_or_default();
            return Err(super::errors::hand_error(py, format!("a hand is text such as \"123m456p\", not {kind}")));
        };
        let parsed = notation::parse(convert::text(text, "the hand")?, format).py_err(py)?;
        if parsed.rest.is_some() {
            return Err(super::errors::hand_error(py, "the part after '|' is a situation, not a hand"));
        }
        Ok(PyHand { inner: parsed.hand })
    }

    /// Concealed tiles in compact notation, in order m, p, s, z.
    #[getter]
    fn concealed(&self) -> String {
        tiles::counts_to_string(&self.inner.concealed)
    }

    /// Concealed tile counts by kind (34 numbers).
    #[getter]
    fn counts(&self) -> Vec<u32> {
        // Not Vec<u8>, which PyO3 would hand over as bytes.
        self.inner.concealed.iter().map(|&c| c as u32).collect()
    }

    /// The declared melds, in the order written.
    #[getter]
    fn melds(&self) -> Vec<PyMeld> {
        self.inner.melds.iter().map(|&m| PyMeld { inner: m }).collect()
    }

    /// Flowers held, as `"1f"`...`"8f"`.
    #[getter]
    fn flowers(&self) -> Vec<String> {
        (0..8u8).filter(|f| self.inner.flowers >> f & 1 == 1).map(tiles::flower_name).collect()
    }

    /// The concealed tile written last (in COMH strings, the winning tile).
    #[getter]
    fn last(&self) -> Option<String> {
        self.inner.last.map(tiles::name)
    }

    /// Tiles as rulesets count them: concealed tiles plus three per meld.
    #[getter]
    fn size(&self) -> usize {
        self.inner.size()
    }

    /// Copies held of each kind, concealed and melded (34 numbers).
    fn held(&self) -> Vec<u32> {
        self.inner.held().iter().map(|&c| c as u32).collect()
    }

    /// The hand in Unicode tile glyphs (melds in brackets).
    fn glyphs(&self) -> String {
        let mut out: String = (0..KINDS as u8)
            .flat_map(|t| std::iter::repeat_n(tiles::glyph(t), self.inner.concealed[t as usize] as usize))
            .collect();
        for m in &self.inner.melds {
            out.push('[');
            out.extend(m.tiles().map(tiles::glyph));
            out.push(']');
        }
        out.extend((0..8u8).filter(|f| self.inner.flowers >> f & 1 == 1).map(tiles::flower_glyph));
        out
    }

    /// The same hand with one more concealed tile.
    fn add(&self, py: Python<'_>, tile: &Bound<'_, PyAny>) -> PyResult<PyHand> {
        let tile = convert::str_arg(tile, "tile")?;
        let t = convert::tile(py, tile)?;
        if self.inner.held()[t as usize] >= 4 {
            return Err(super::errors::hand_error(py, format!("a fifth copy of {tile}")));
        }
        Ok(PyHand { inner: self.inner.with_tile(t) })
    }

    fn __str__(&self) -> String {
        self.inner.notation()
    }

    fn __repr__(&self) -> String {
        format!("Hand({:?})", self.inner.notation())
    }

    /// Pickled as its compact notation, the last tile written last (`copy` and
    /// `multiprocessing` use the same).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, pyo3::types::PyType>, (String,)) {
        (slf.get_type(), (slf.get().inner.notation_keeping_last(),))
    }

    /// The hand in tile glyphs, for notebooks (`haidi.html`).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py().import("haidi.display")?.call_method1("html", (slf,))?.extract()
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.notation().hash(&mut h);
        h.finish()
    }
}

/// A declared meld.
#[pyclass(name = "Meld", module = "haidi._core", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyMeld {
    pub inner: Meld,
}

#[pymethods]
impl PyMeld {
    /// Reads one meld in compact notation: `[123m]`, `[555p,2]`, `[5555p+]`, `{1111z}`.
    #[new]
    fn new(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = convert::str_arg(text, "a meld")?;
        let h = notation::parse(text, notation::Format::Compact).py_err(py)?.hand;
        match (h.melds.len(), h.concealed_len(), h.flowers) {
            (1, 0, 0) => Ok(PyMeld { inner: h.melds[0] }),
            _ => Err(super::errors::hand_error(py, format!("{text:?} is not one meld such as \"[555p,2]\""))),
        }
    }

    /// Pickled as its compact notation.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, pyo3::types::PyType>, (String,)) {
        (slf.get_type(), (slf.get().inner.notation(),))
    }

    /// The kind: "chow", "pung", "kong", "concealed_kong" or "added_kong".
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind.name()
    }

    /// The meld's tiles in compact notation, one a tile.
    #[getter]
    fn tiles(&self) -> Vec<String> {
        self.inner.tiles().map(tiles::name).collect()
    }

    /// Seat offset of the player who supplied the tile (1-3), when known.
    #[getter(from_seat)]
    fn supplier(&self) -> Option<u8> {
        self.inner.from
    }

    fn __str__(&self) -> String {
        self.inner.notation()
    }

    fn __repr__(&self) -> String {
        format!("Meld({:?})", self.inner.notation())
    }
}

/// The Unicode glyph of a tile such as "5p" or a flower such as "1f".
#[pyfunction]
pub fn tile_glyph(py: Python<'_>, tile: &Bound<'_, PyAny>) -> PyResult<String> {
    let tile = convert::str_arg(tile, "tile")?;
    let h = notation::parse(tile, notation::Format::Compact).py_err(py)?.hand;
    match (h.concealed_len(), h.flowers.count_ones(), h.melds.len()) {
        (1, 0, 0) => Ok(h.last.map(tiles::glyph).unwrap_or('?').to_string()),
        (0, 1, 0) => Ok(tiles::flower_glyph(h.flowers.trailing_zeros() as u8).to_string()),
        _ => Err(super::errors::hand_error(py, format!("{tile:?} is not one tile"))),
    }
}

/// The 34 tile kinds in compact notation, in index order.
#[pyfunction]
pub fn tile_names() -> Vec<String> {
    (0..KINDS as u8).map(tiles::name).collect()
}
