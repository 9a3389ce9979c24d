//! `haidi._core.Engine`: a ruleset's forms and tile set, with the single-hand and batch
//! questions. The Python `Ruleset` class wraps one of these.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use super::convert::{self, kinds_mask, mask_names};
use super::errors::{hand_error, to_py, IntoPy};
use super::interrupt;
use crate::batch::{self, Rows};
use crate::decompose::Arrangement;
use crate::engine::{Engine, Wilds};
use crate::error::HandError;
use crate::forms::Forms;
use crate::hand::Hand;
use crate::tiles::{self, ALL_KINDS, KINDS};

/// One ruleset's engine: its tile set and the forms that complete a hand, answering for
/// waits, shanten, win checks and arrangements. `haidi.ruleset` makes one per ruleset.
#[pyclass(name = "Engine", module = "haidi._core", frozen)]
pub struct PyEngine {
    pub(super) inner: Engine,
}

/// The most arrangements `decompose` lists (about 100 MB of Python objects at most).
pub(super) const MAX_ARRANGEMENTS: usize = 20_000;

/// At most this many extra wilds (seat flowers playing as wilds): a 16-tile hand and
/// its winning tile.
const MAX_EXTRA_WILDS: u64 = 17;

pub(super) fn wilds(
    py: Python<'_>,
    engine: &Engine,
    hand: &Hand,
    obj: Option<&Bound<'_, PyAny>>,
    extra: Option<&Bound<'_, PyAny>>,
) -> PyResult<Wilds> {
    let extra = match extra {
        Some(e) if !e.is_none() => convert::count(e, "extra_wilds", MAX_EXTRA_WILDS)? as u8,
        _ => 0,
    };
    let (kinds, flowers) = convert::wild_names(obj, engine.flower_wilds)?;
    if flowers == 0 {
        return Ok(Wilds { kinds, extra, drawable: 0 });
    }
    // Wilds that are flowers (Longgang's 花财神): every flower held is a wild, as
    // `evaluate` reads the hand.
    let refuse = |message: String, key: &str| Err(to_py(py, HandError::invalid(message).for_key(key)));
    crate::engine::flowers_played(&engine.name, engine.flowers, flowers).map_err(|e| to_py(py, e.for_key("wilds")))?;
    if kinds != 0 {
        return refuse("the wilds are either flowers or tile kinds, not both".into(), "wilds");
    }
    if extra != 0 {
        let message = "with flowers as the wilds every flower held is one: extra_wilds is not given too";
        return refuse(message.into(), "extra_wilds");
    }
    let held = hand.flowers.count_ones() as u8;
    Ok(Wilds { kinds: 0, extra: held, drawable: Wilds::flowers_left(engine.flowers, hand.flowers) })
}

/// The wild kinds of a batch call's rows (no extra wilds: the rows are counts of kinds),
/// each a kind the engine plays.
pub(super) fn row_wilds(py: Python<'_>, engine: &Engine, obj: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    let kinds = kinds_mask(obj)?;
    engine.check_wilds(Wilds { kinds, extra: 0, drawable: 0 }).py_err(py)?;
    Ok(kinds)
}

/// Batch arguments as numpy arrays of uint8: counts n x 34, melds one a row (the
/// Python `Ruleset` converts other integer arrays first).
#[allow(clippy::type_complexity)]
fn arrays<'py>(
    counts: &Bound<'py, PyAny>,
    melds: Option<&Bound<'py, PyAny>>,
) -> PyResult<(PyReadonlyArray2<'py, u8>, Option<PyReadonlyArray1<'py, u8>>)> {
    let py = counts.py();
    let counts = counts
        .extract::<PyReadonlyArray2<'py, u8>>()
        .map_err(|_| hand_error(py, "tile counts must be a 2-D numpy array of uint8 (n x 34)"))?;
    let melds = match melds.filter(|m| !m.is_none()) {
        Some(m) => Some(
            m.extract::<PyReadonlyArray1<'py, u8>>()
                .map_err(|_| hand_error(py, "melds must be a 1-D numpy array of uint8, one a row"))?,
        ),
        None => None,
    };
    Ok((counts, melds))
}

#[pymethods]
impl PyEngine {
    /// A ruleset's engine: `melds` is 4 (13-tile hands) or 5 (16-tile hands), `tiles` the
    /// kinds played with (None: all 34); the keyword flags switch hand forms on.
    #[new]
    #[pyo3(signature = (name, melds, tiles = None, *, standard = None, pair_kinds = None,
        seven_pairs = None, four_as_two_pairs = None, eight_pairs_and_a_half = None,
        thirteen_orphans = None, honours_and_knitted = None, knitted_straight = None,
        all_pungs_any_pair = None, one_suit_any_pair = None, all_258 = None, wilds_beyond_copies = None,
        flowers = None, flower_wilds = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        name: &Bound<'_, PyAny>,
        melds: &Bound<'_, PyAny>,
        tiles: Option<&Bound<'_, PyAny>>,
        standard: Option<&Bound<'_, PyAny>>,
        pair_kinds: Option<&Bound<'_, PyAny>>,
        seven_pairs: Option<&Bound<'_, PyAny>>,
        four_as_two_pairs: Option<&Bound<'_, PyAny>>,
        eight_pairs_and_a_half: Option<&Bound<'_, PyAny>>,
        thirteen_orphans: Option<&Bound<'_, PyAny>>,
        honours_and_knitted: Option<&Bound<'_, PyAny>>,
        knitted_straight: Option<&Bound<'_, PyAny>>,
        all_pungs_any_pair: Option<&Bound<'_, PyAny>>,
        one_suit_any_pair: Option<&Bound<'_, PyAny>>,
        all_258: Option<&Bound<'_, PyAny>>,
        wilds_beyond_copies: Option<&Bound<'_, PyAny>>,
        flowers: Option<&Bound<'_, PyAny>>,
        flower_wilds: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let py = name.py();
        let name = convert::str_arg(name, "name")?.to_string();
        let melds = convert::count(melds, "melds", 5)? as u8;
        if !(melds == 4 || melds == 5) {
            return Err(hand_error(py, format!("melds must be 4 or 5, not {melds}")));
        }
        let flag = |o: Option<&Bound<'_, PyAny>>, what: &str| convert::flag_arg(o, what, false);
        let standard = convert::flag_arg(standard, "standard", true)?;
        let seven_pairs = flag(seven_pairs, "seven_pairs")?;
        let four_as_two_pairs = flag(four_as_two_pairs, "four_as_two_pairs")?;
        let eight_pairs_and_a_half = flag(eight_pairs_and_a_half, "eight_pairs_and_a_half")?;
        let thirteen_orphans = flag(thirteen_orphans, "thirteen_orphans")?;
        let honours_and_knitted = flag(honours_and_knitted, "honours_and_knitted")?;
        let knitted_straight = flag(knitted_straight, "knitted_straight")?;
        let all_pungs_any_pair = flag(all_pungs_any_pair, "all_pungs_any_pair")?;
        let one_suit_any_pair = flag(one_suit_any_pair, "one_suit_any_pair")?;
        let all_258 = flag(all_258, "all_258")?;
        let wilds_beyond_copies = flag(wilds_beyond_copies, "wilds_beyond_copies")?;
        let tile_set = match tiles {
            Some(t) if !t.is_none() => kinds_mask(Some(t))?,
            _ => ALL_KINDS,
        };
        let pair_kinds = match pair_kinds {
            Some(p) if !p.is_none() => kinds_mask(Some(p))?,
            _ => ALL_KINDS,
        };
        let forms = Forms {
            melds,
            standard,
            pair_kinds,
            seven_pairs,
            four_as_two_pairs,
            eight_pairs_and_a_half,
            thirteen_orphans,
            honours_and_knitted,
            knitted_straight,
            all_pungs_any_pair,
            one_suit_any_pair,
            all_258,
            wilds_beyond_copies,
        };
        // The flowers played as text ("1234f"; "" for none); None: every flower.
        let flower_set = match flowers.filter(|f| !f.is_none()) {
            None => u8::MAX,
            Some(f) => {
                let text = convert::str_arg(f, "flowers")?;
                let h = crate::notation::parse(text, crate::notation::Format::Compact).py_err(py)?.hand;
                if h.concealed_len() > 0 || !h.melds.is_empty() {
                    return Err(hand_error(
                        py,
                        format!("flowers must be flower tiles such as \"1234f\", not {}", crate::error::quote(text)),
                    ));
                }
                h.flowers
            }
        };
        let flower_wilds = flag(flower_wilds, "flower_wilds")?;
        Ok(PyEngine { inner: Engine::new(name, forms, tile_set).with_flowers(flower_set, flower_wilds) })
    }

    /// The ruleset's name.
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }

    /// Tiles of a hand waiting for its last tile: 13 or 16.
    #[getter]
    fn hand_size(&self) -> usize {
        self.inner.forms.ready_size()
    }

    /// The kinds played with, in compact notation.
    #[getter]
    fn tiles(&self) -> Vec<String> {
        mask_names(self.inner.tiles)
    }

    /// Shanten (向听): -1 complete, 0 ready, n tiles from ready.
    #[pyo3(signature = (hand, wilds = None, *, format = "compact", extra_wilds = None))]
    fn shanten(
        &self,
        hand: &Bound<'_, PyAny>,
        wilds: Option<&Bound<'_, PyAny>>,
        format: &str,
        extra_wilds: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<i8> {
        let py = hand.py();
        let h = convert::hand(hand, format)?;
        let w = self::wilds(py, &self.inner, &h, wilds, extra_wilds)?;
        self.inner.shanten(&h, w).py_err(py)
    }

    /// The tile kinds that complete a hand one tile short.
    #[pyo3(signature = (hand, wilds = None, *, format = "compact", extra_wilds = None))]
    fn waits(
        &self,
        hand: &Bound<'_, PyAny>,
        wilds: Option<&Bound<'_, PyAny>>,
        format: &str,
        extra_wilds: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<String>> {
        let py = hand.py();
        let h = convert::hand(hand, format)?;
        let w = self::wilds(py, &self.inner, &h, wilds, extra_wilds)?;
        let ts = self.inner.waits(&h, w).py_err(py)?;
        Ok(ts.into_iter().map(tiles::name).collect())
    }

    /// Whether a hand of 14/17 tiles is complete.
    #[pyo3(signature = (hand, wilds = None, *, format = "compact", extra_wilds = None))]
    fn is_win(
        &self,
        hand: &Bound<'_, PyAny>,
        wilds: Option<&Bound<'_, PyAny>>,
        format: &str,
        extra_wilds: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let py = hand.py();
        let h = convert::hand(hand, format)?;
        let w = self::wilds(py, &self.inner, &h, wilds, extra_wilds)?;
        self.inner.is_win(&h, w).py_err(py)
    }

    /// Every distinct arrangement of a complete hand, as dicts.
    #[pyo3(signature = (hand, wilds = None, *, format = "compact", extra_wilds = None, limit = None))]
    fn decompose<'py>(
        &self,
        hand: &Bound<'py, PyAny>,
        wilds: Option<&Bound<'py, PyAny>>,
        format: &str,
        extra_wilds: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let py = hand.py();
        let h = convert::hand(hand, format)?;
        let w = self::wilds(py, &self.inner, &h, wilds, extra_wilds)?;
        let asked = match limit {
            Some(l) if !l.is_none() => Some(convert::count(l, "limit", MAX_ARRANGEMENTS as u64)? as usize),
            _ => None,
        };
        // Without a limit, one past the most listed: a hand with more is refused rather
        // than listed into all the memory there is.
        let limit = asked.unwrap_or(MAX_ARRANGEMENTS + 1);
        let arrs = py.detach(|| self.inner.decompose(&h, w, limit)).py_err(py)?;
        if asked.is_none() && arrs.len() > MAX_ARRANGEMENTS {
            return Err(hand_error(
                py,
                format!(
                    "the hand has more than {MAX_ARRANGEMENTS} arrangements; \
                     give a limit (at most {MAX_ARRANGEMENTS}) to list some"
                ),
            ));
        }
        arrangement_list(py, &arrs)
    }

    /// Complete flags for rows of tile counts (n x 34, 14/17 tiles with `melds`).
    #[pyo3(signature = (counts, wilds = None, melds = None))]
    fn win_batch<'py>(
        &self,
        counts: &Bound<'py, PyAny>,
        wilds: Option<&Bound<'py, PyAny>>,
        melds: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let py = counts.py();
        let (counts, melds) = arrays(counts, melds)?;
        let w = row_wilds(py, &self.inner, wilds)?;
        let out = with_rows(&counts, &melds, |rows| {
            batch::validate(&self.inner, rows, Some(false))?;
            Ok(batch::win(&self.inner, rows, w))
        })?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// Shanten of rows of tile counts (n x 34).
    #[pyo3(signature = (counts, wilds = None, melds = None))]
    fn shanten_batch<'py>(
        &self,
        counts: &Bound<'py, PyAny>,
        wilds: Option<&Bound<'py, PyAny>>,
        melds: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let py = counts.py();
        let (counts, melds) = arrays(counts, melds)?;
        let w = row_wilds(py, &self.inner, wilds)?;
        let out = with_rows(&counts, &melds, |rows| {
            batch::validate(&self.inner, rows, None)?;
            Ok(batch::shanten(&self.inner, rows, w))
        })?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// Waits of rows of tile counts (n x 34, 13/16 tiles): an n x 34 boolean array.
    #[pyo3(signature = (counts, wilds = None, melds = None))]
    fn waits_batch<'py>(
        &self,
        counts: &Bound<'py, PyAny>,
        wilds: Option<&Bound<'py, PyAny>>,
        melds: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let py = counts.py();
        let (counts, melds) = arrays(counts, melds)?;
        let w = row_wilds(py, &self.inner, wilds)?;
        let masks = with_rows(&counts, &melds, |rows| {
            batch::validate(&self.inner, rows, Some(true))?;
            Ok(batch::waits(&self.inner, rows, w))
        })?;
        let n = masks.len();
        let flat: Vec<bool> = masks.iter().flat_map(|&m| (0..KINDS).map(move |t| m >> t & 1 == 1)).collect();
        PyArray1::from_vec(py, flat).reshape([n, KINDS])
    }

    fn __repr__(&self) -> String {
        format!("Engine({:?}, hand_size={})", self.inner.name, self.inner.forms.ready_size())
    }
}

/// Runs `f` on the rows with the GIL released, a run of rows at a time so that Ctrl-C
/// stops it between runs; the runs' outputs in order.
fn with_rows<T: Send>(
    counts: &PyReadonlyArray2<'_, u8>,
    melds: &Option<PyReadonlyArray1<'_, u8>>,
    f: impl Fn(&Rows<'_>) -> crate::error::Result<Vec<T>> + Sync,
) -> PyResult<Vec<T>> {
    let py = counts.py();
    let shape = counts.shape();
    if shape[1] != KINDS {
        return Err(hand_error(py, format!("tile counts must have 34 columns, not {}", shape[1])));
    }
    let slice = counts.as_slice().map_err(|_| hand_error(py, "tile counts must be a C-contiguous uint8 array"))?;
    let meld_slice = match melds {
        Some(m) => Some(m.as_slice().map_err(|_| hand_error(py, "melds must be a contiguous uint8 array"))?),
        None => None,
    };
    let rows = Rows::new(slice, meld_slice);
    batch::check_lengths(&rows).py_err(py)?;
    let mut out = Vec::with_capacity(rows.len());
    interrupt::in_runs(py, rows.len(), batch::PARALLEL_MIN_ROWS, |run| {
        out.extend(f(&rows.part(run))?);
        Ok(())
    })?;
    Ok(out)
}

/// Python strings for the names of forms, group kinds and melds, made once a call: a
/// listing repeats a few names thousands of times.
#[derive(Default)]
struct Names<'py> {
    made: Vec<(&'static str, Bound<'py, PyString>)>,
}

impl<'py> Names<'py> {
    fn get(&mut self, py: Python<'py>, name: &'static str) -> Bound<'py, PyString> {
        if let Some((_, s)) = self.made.iter().find(|(n, _)| *n == name) {
            return s.clone();
        }
        let s = PyString::intern(py, name);
        self.made.push((name, s.clone()));
        s
    }
}

/// CPython's automatic garbage collection paused while a listing (or a list of results)
/// is built, and resumed (if it was on) when this is dropped. A listing makes up to 17
/// containers an arrangement; CPython starts a collection every 700 new containers and a
/// full one each time the heap has grown by a quarter, and these collections took two
/// thirds of the time of a listing of 10,000 arrangements. The new objects hold only
/// strings and each other, so no cycle is left uncollected. No Python code runs while it
/// is paused, and the GIL is not released (another thread would run with it paused).
pub(super) struct GcPause(bool);

impl GcPause {
    pub(super) fn new(_py: Python<'_>) -> GcPause {
        // SAFETY: the GIL is held (the `Python` token proves it).
        GcPause(unsafe { pyo3::ffi::PyGC_Disable() } == 1)
    }
}

impl Drop for GcPause {
    fn drop(&mut self) {
        if self.0 {
            // SAFETY: dropped where it was made, with the GIL held.
            unsafe { pyo3::ffi::PyGC_Enable() };
        }
    }
}

/// The arrangements as dicts: `{"form", "groups": [{"kind", "tiles", "wilds", "meld"}]}`.
fn arrangement_list<'py>(py: Python<'py>, arrs: &[Arrangement]) -> PyResult<Bound<'py, PyList>> {
    let _paused = GcPause::new(py);
    let tiles = convert::tile_names(py);
    let mut names = Names::default();
    let (form, groups_key) = (intern!(py, "form"), intern!(py, "groups"));
    let (kind, tiles_key, wilds_key, meld) =
        (intern!(py, "kind"), intern!(py, "tiles"), intern!(py, "wilds"), intern!(py, "meld"));
    let out = PyList::empty(py);
    for a in arrs {
        let groups = PyList::empty(py);
        for g in &a.groups {
            let gd = PyDict::new(py);
            gd.set_item(kind, names.get(py, g.kind.name()))?;
            gd.set_item(tiles_key, PyList::new(py, g.tiles.iter().map(|&t| tiles[t as usize].bind(py)))?)?;
            gd.set_item(wilds_key, PyList::new(py, g.wild_tiles().into_iter().map(|t| tiles[t as usize].bind(py)))?)?;
            gd.set_item(meld, g.meld.map(|m| names.get(py, m.name())))?;
            groups.append(gd)?;
        }
        let d = PyDict::new(py);
        d.set_item(form, names.get(py, a.form.name()))?;
        d.set_item(groups_key, groups)?;
        out.append(d)?;
    }
    Ok(out)
}
