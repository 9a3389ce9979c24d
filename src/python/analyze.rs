//! `haidi._core.analyze` and `analyze_batch`: hand analysis (牌效, `crate::analyze`) with
//! the waits scored by the ruleset's own scorer (MCR's, or a regional `Scheme`), the
//! situation read by that scorer's reader.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use super::convert;
use super::engine::{wilds, PyEngine};
use super::entry::untrack;
use super::errors::{hand_error, to_py, IntoPy};
use super::hand::PyHand;
use super::interrupt;
use super::mcr::PyMcrScorer;
use super::score::PyScheme;
use crate::analyze::{self as core, Entry, Scorer};
use crate::batch::{self, Rows};
use crate::error::{ErrorKind, HandError, Result as CoreResult};
use crate::forms::View;
use crate::hand::Hand;
use crate::notation;
use crate::score::facts::Facts;
use crate::score::rule::{Context, Rule};
use crate::score::situation::{Prepared, Reader};
use crate::tiles::{self, Counts, Tile, KINDS};

/// MCR's scorer with a situation; each wait is tried as the winning tile.
struct Mcr {
    situation: crate::mcr::Situation,
    options: crate::mcr::Options,
}

impl Scorer for Mcr {
    fn score(&mut self, hand: &Hand, win: Tile) -> CoreResult<Option<i32>> {
        let s = crate::mcr::Situation { win, ..self.situation };
        let r = crate::mcr::evaluate(hand, s, &self.options, false)?;
        Ok(r.win.then_some(r.total as i32))
    }
}

/// A regional ruleset's scorer: the situation read once, the hand and win set per wait.
struct Regional<'a> {
    scheme: &'a crate::score::scheme::Scheme,
    reader: Reader<'a>,
    /// The rules refusing the win that read the situation alone (see `refused`).
    refusals: Vec<&'a Rule>,
}

impl Regional<'_> {
    /// The situation with `hand` and `win` set, read as `evaluate` reads it.
    fn prepare(&self, hand: &Hand, win: Tile) -> CoreResult<Prepared> {
        self.reader.finish_with(self.scheme, hand, win)
    }

    /// Whether a rule refusing the win (`Scheme::no_win`) holds on the situation alone
    /// (Beijing's three 惠牌 held on a discard): then no arrangement wins, whatever it
    /// scores, and the search is not needed to say so.
    fn refused(&self, p: &Prepared) -> bool {
        let facts = Facts::default();
        let ctx = Context {
            facts: &facts,
            situation: &p.situation,
            sets: &p.sets,
            waits: None,
            counted: 0,
            total: 0,
            value: 0,
            fan_count: 0,
        };
        self.refusals.iter().any(|rule| ctx.eval(rule) > 0)
    }
}

impl Scorer for Regional<'_> {
    fn score(&mut self, hand: &Hand, win: Tile) -> CoreResult<Option<i32>> {
        let p = self.prepare(hand, win)?;
        if self.refused(&p) {
            return Ok(None);
        }
        let s = crate::score::evaluate::evaluate(self.scheme, &p);
        Ok(s.win.then_some(s.total))
    }

    /// Without rules that refuse an arrangement or a win (Longgang), every complete hand
    /// of the scheme's forms wins (a player who wins is no 陪家): its distance says so
    /// without the arrangement search; a hand not complete may still win by a fallback
    /// (推土机), which the search tells.
    fn wins(&mut self, hand: &Hand, win: Tile) -> CoreResult<bool> {
        let p = self.prepare(hand, win)?;
        if self.refused(&p) {
            return Ok(false);
        }
        let scheme = self.scheme;
        let plain = scheme.valid.is_empty() && scheme.no_win.is_empty() && !scheme.dragon_sets;
        if plain && !p.loser && !p.dealt {
            let extra = p.tiles.wilds
                - tiles::mask_tiles(p.situation.wild_kinds).map(|k| p.hand.concealed[k as usize]).sum::<u8>();
            let view =
                View::new(&p.hand, scheme.tiles, p.situation.wild_kinds, extra).with_forms(&scheme.forms, scheme.tiles);
            if crate::distance::is_complete(&scheme.forms, &view) {
                return Ok(true);
            }
        }
        Ok(crate::score::evaluate::evaluate(scheme, &p).win)
    }
}

/// The tiles of `visible`: None, text in `format` (melds count their tiles; flowers are
/// no tile kind and count nothing), a `Hand`, or a list of such texts. A flower seen
/// twice, or seen and `held` (the hand's flowers), is refused: each exists once.
fn visible_counts(
    py: Python<'_>,
    engine: &crate::engine::Engine,
    obj: Option<&Bound<'_, PyAny>>,
    format: &str,
    held: u8,
) -> PyResult<Counts> {
    let mut counts = [0u32; KINDS];
    let mut flowers = 0u8;
    let mut twice = 0u8;
    let mut add = |h: &Hand| {
        for (c, n) in counts.iter_mut().zip(h.held()) {
            *c += n as u32;
        }
        twice |= flowers & h.flowers;
        flowers |= h.flowers;
    };
    match obj {
        None => {}
        Some(o) if o.is_none() => {}
        Some(o) => {
            if let Ok(h) = o.cast::<PyHand>() {
                add(&h.get().inner);
            } else if let Ok(s) = o.cast::<PyString>() {
                add(&parse_visible(py, convert::text(s, "visible")?, format)?);
            } else {
                let bad = || hand_error(py, "visible must be tiles such as \"19m5z\", a Hand, or a list of them");
                // A mapping would be read as its keys, whatever counts its values say.
                if o.cast::<pyo3::types::PyMapping>().is_ok() {
                    return Err(bad());
                }
                for item in o.try_iter().map_err(|_| bad())? {
                    let item = item?;
                    if let Ok(h) = item.cast::<PyHand>() {
                        add(&h.get().inner);
                    } else {
                        let s = item.cast::<PyString>().map_err(|_| bad())?;
                        add(&parse_visible(py, convert::text(s, "visible")?, format)?);
                    }
                }
            }
        }
    }
    // A flower counts no tile kind, but one the ruleset does not play is a mistake.
    crate::engine::flowers_played(&engine.name, engine.flowers, flowers)
        .map_err(|e| to_py(py, e.for_key("visible")))?;
    if let Some(f) = (0..8).find(|f| (twice | flowers & held) >> f & 1 == 1) {
        let whose = if twice >> f & 1 == 1 { "seen twice" } else { "seen and held in the hand" };
        let what = format!("{} in visible ({whose}; each flower exists once)", tiles::flower_name(f));
        return Err(to_py(py, HandError::new(ErrorKind::FifthCopy(what)).for_key("visible")));
    }
    let mut out = [0u8; KINDS];
    for t in 0..KINDS {
        if counts[t] > 4 {
            return Err(hand_error(py, format!("visible holds {} copies of {}", counts[t], tiles::name(t as Tile))));
        }
        out[t] = counts[t] as u8;
    }
    Ok(out)
}

fn parse_visible(py: Python<'_>, text: &str, format: &str) -> PyResult<Hand> {
    let parsed = notation::parse(text, convert::format(py, format)?).map_err(|e| {
        let mut e = e;
        e.kind = crate::error::ErrorKind::Invalid(format!("visible: {}", e.kind));
        to_py(py, e)
    })?;
    Ok(parsed.hand)
}

/// Analyses one hand: a list of entry dicts, best first (see `haidi.Ruleset.analyze`).
/// `scorer` is MCR's `McrScorer`, a regional `Scheme`, or None (waits not scored); `situation` the
/// scorer's keys but the hand and the win; `scoring` adds the draws to a winning ready hand.
#[pyfunction]
#[pyo3(signature = (engine, hand, visible = None, wilds = None, *, format = "compact", extra_wilds = None,
    scorer = None, situation = None, scoring = false))]
#[allow(clippy::too_many_arguments)]
pub fn analyze<'py>(
    py: Python<'py>,
    engine: &Bound<'py, PyEngine>,
    hand: &Bound<'py, PyAny>,
    visible: Option<&Bound<'py, PyAny>>,
    wilds: Option<&Bound<'py, PyAny>>,
    format: &str,
    extra_wilds: Option<&Bound<'py, PyAny>>,
    scorer: Option<&Bound<'py, PyAny>>,
    situation: Option<&Bound<'py, PyDict>>,
    scoring: bool,
) -> PyResult<Bound<'py, PyList>> {
    let engine = &engine.get().inner;
    let h = convert::hand(hand, format)?;
    let w = self::wilds(py, engine, &h, wilds, extra_wilds)?;
    let seen = visible_counts(py, engine, visible, format, h.flowers)?;
    let mut entries = core::analyze(engine, &h, w, &seen).py_err(py)?;
    let left = core::unseen(engine, &h, &seen).py_err(py)?;
    let empty = PyDict::new(py);
    let situation = situation.unwrap_or(&empty);
    let scored = match scorer {
        None => {
            if scoring || !situation.is_empty() {
                return Err(hand_error(py, "scoring and a situation need a scorer"));
            }
            false
        }
        Some(s) if s.cast::<PyMcrScorer>().is_ok() => {
            if w.kinds != 0 || w.extra != 0 {
                return Err(hand_error(py, "mcr plays no wild tiles: its scorer cannot score a hand with wilds"));
            }
            let (situation, own) = super::mcr::read_keys(py, situation)?;
            let options = own.unwrap_or(s.cast::<PyMcrScorer>()?.get().options);
            let mut m = Mcr { situation, options };
            run(engine, &mut entries, &h, w, &left, &mut m, scoring).py_err(py)?;
            true
        }
        Some(s) => {
            let s = s.cast::<PyScheme>().map_err(|_| hand_error(py, "scorer must be an McrScorer or a Scheme"))?;
            let this = s.get();
            let other = this.scheme_for(py, situation)?;
            let s = other.as_ref().map_or(this, |o| o.get());
            let items: Vec<(Bound<'_, PyAny>, Bound<'_, PyAny>)> = situation.iter().collect();
            let reader = s.read_keys(&items).py_err(py)?;
            let scheme = s.scheme().as_ref();
            if w.extra != 0 && !scheme.seat_flower_wild && !scheme.flower_wilds {
                // The engine would count them, the scorer never: every wait would be refused
                // as a hand short of its size.
                let message = format!(
                    "extra_wilds: {} scores no wild that is not a tile (no flower plays as one), so analyze, which scores the waits, cannot take them; shanten and waits can",
                    scheme.name
                );
                return Err(super::errors::for_key(py, hand_error(py, message), "extra_wilds"));
            }
            let refusals = scheme
                .no_win
                .iter()
                .filter(|nw| nw.rule.of_situation() && !nw.rule.reads_waits())
                .map(|nw| &nw.rule)
                .collect();
            let mut r = Regional { scheme, reader, refusals };
            if w.extra != 0 {
                // The situation must give the flowers the extra wilds count (Longgang's 坐花):
                // told once here, not only where a wait is scored.
                let mut probe = h.clone();
                if h.size() + w.extra as usize > scheme.hand_size() {
                    if let Some(k) = (0..KINDS).find(|&k| probe.concealed[k] > 0) {
                        probe.concealed[k] -= 1;
                    }
                }
                let t = (0..KINDS).find(|&k| probe.held()[k] < 4).unwrap_or(0) as Tile;
                if let Err(e) = r.prepare(&probe, t) {
                    if matches!(e.kind, ErrorKind::WrongSize { .. }) {
                        let message = format!(
                            "extra_wilds={}: the situation must give the flowers it counts (flowers, seat_wind) for the waits to be scored: {}",
                            w.extra, e.kind
                        );
                        return Err(to_py(py, HandError::invalid(message).for_key("extra_wilds")));
                    }
                }
            }
            run(engine, &mut entries, &h, w, &left, &mut r, scoring).py_err(py)?;
            true
        }
    };
    core::order(&mut entries);
    let out = PyList::empty(py);
    for e in &entries {
        out.append(entry_dict(py, e, &left, w.kinds, scored, scoring)?)?;
    }
    Ok(out)
}

fn run(
    engine: &crate::engine::Engine,
    entries: &mut [Entry],
    hand: &Hand,
    w: crate::engine::Wilds,
    left: &Counts,
    scorer: &mut dyn Scorer,
    scoring: bool,
) -> CoreResult<()> {
    core::score_waits(entries, hand, left, scorer)?;
    if scoring {
        core::score_draws(engine, entries, hand, w, left, scorer, core::DRAWS_WORK)?;
    }
    Ok(())
}

/// A new list of `len` items, each slot set by `item` with a new reference, left
/// untracked by the cycle collector (see [`untrack`]).
fn list_of<'py>(
    py: Python<'py>,
    len: usize,
    mut item: impl FnMut(usize) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    // SAFETY: the list is made at its length and each slot set once, with a new
    // reference to a live object, before the list is handed out (on an error the list
    // is dropped with its empty slots, which list_dealloc allows).
    unsafe {
        let list = pyo3::ffi::PyList_New(len as pyo3::ffi::Py_ssize_t);
        let list = Bound::from_owned_ptr_or_err(py, list)?.cast_into_unchecked::<PyList>();
        for i in 0..len {
            pyo3::ffi::PyList_SetItem(list.as_ptr(), i as pyo3::ffi::Py_ssize_t, item(i)?.into_ptr());
        }
        untrack(&list);
        Ok(list)
    }
}

/// The names of the kinds of `mask`, in tile order, as a new list of the shared name strs.
fn names<'py>(py: Python<'py>, mask: u64) -> PyResult<Bound<'py, PyList>> {
    let all = convert::tile_names(py);
    let mut kinds = tiles::mask_tiles(mask);
    list_of(py, mask.count_ones() as usize, |_| Ok(all[kinds.next().unwrap_or(0) as usize].bind(py).clone().into_any()))
}

/// Dict templates made the first time each is asked for, one a slot.
struct Templates<const N: usize>(std::sync::OnceLock<Box<[pyo3::sync::PyOnceLock<Py<PyDict>>]>>);

impl<const N: usize> Templates<N> {
    const fn new() -> Self {
        Templates(std::sync::OnceLock::new())
    }

    /// A copy of the template of `slot` (made by `make` the first time), or, for a slot
    /// past the kept ones (None), a dict `make` makes anew.
    fn copy<'py>(
        &self,
        py: Python<'py>,
        slot: Option<usize>,
        make: impl FnOnce() -> PyResult<Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let made = self.0.get_or_init(|| (0..N).map(|_| pyo3::sync::PyOnceLock::new()).collect());
        match slot.and_then(|s| made.get(s)) {
            Some(t) => t.get_or_try_init(py, || make().map(Bound::unbind))?.bind(py).copy(),
            None => make(),
        }
    }
}

/// Entry templates are kept for these shanten values (of every discard, None last, and
/// of the three sets of keys).
const SHANTEN_KEPT: usize = 16;

/// A new entry dict: its keys in their order, with the discard and shanten set and the
/// rest None. Each entry is a copy of a template, whose table is made once at its size
/// rather than grown key by key, with two of its values already in place; a template
/// holds only strs, ints and None and is untracked, and so are its copies.
fn template<'py>(
    py: Python<'py>,
    scored: bool,
    scoring: bool,
    discard: Option<Tile>,
    shanten: i8,
) -> PyResult<Bound<'py, PyDict>> {
    static MADE: Templates<{ 3 * (KINDS + 1) * SHANTEN_KEPT }> = Templates::new();
    let keys = if scoring { 2 } else { scored as usize };
    let slot = usize::try_from(shanten)
        .ok()
        .filter(|&s| s < SHANTEN_KEPT)
        .map(|s| (keys * (KINDS + 1) + discard.map_or(KINDS, |t| t as usize)) * SHANTEN_KEPT + s);
    MADE.copy(py, slot, || {
        let more: &[&str] = match keys {
            0 => &[],
            1 => &["winning_waits", "winning_count"],
            _ => &["winning_waits", "winning_count", "draws", "draws_exact"],
        };
        let d = PyDict::new(py);
        for k in ["discard", "shanten", "useful", "useful_count", "useful_wilds", "waits"].iter().chain(more) {
            d.set_item(PyString::intern(py, k), py.None())?;
        }
        let all = convert::tile_names(py);
        d.set_item(pyo3::intern!(py, "discard"), discard.map(|t| all[t as usize].bind(py)))?;
        d.set_item(pyo3::intern!(py, "shanten"), shanten)?;
        Ok(super::entry::template(d))
    })
}

/// Wait templates are kept for up to this many copies left.
const LEFT_KEPT: usize = 5;

/// A new wait dict, `{"tile", "left"}`, and `"total"` (None) when `total`: a copy of a
/// template made once a tile, copies left and set of keys.
fn wait_dict<'py>(py: Python<'py>, tile: Tile, left: u8, total: bool) -> PyResult<Bound<'py, PyDict>> {
    static MADE: Templates<{ 2 * KINDS * LEFT_KEPT }> = Templates::new();
    let slot = (left as usize) < LEFT_KEPT;
    let slot = slot.then(|| (total as usize * KINDS + tile as usize) * LEFT_KEPT + left as usize);
    MADE.copy(py, slot, || {
        let d = PyDict::new(py);
        d.set_item(pyo3::intern!(py, "tile"), convert::tile_names(py)[tile as usize].bind(py))?;
        d.set_item(pyo3::intern!(py, "left"), left)?;
        if total {
            d.set_item(pyo3::intern!(py, "total"), py.None())?;
        }
        Ok(super::entry::template(d))
    })
}

fn entry_dict<'py>(
    py: Python<'py>,
    e: &Entry,
    left: &Counts,
    wild_kinds: u64,
    scored: bool,
    scoring: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let d = template(py, scored, scoring, e.discard, e.shanten)?;
    d.set_item(pyo3::intern!(py, "useful"), names(py, e.useful)?)?;
    d.set_item(pyo3::intern!(py, "useful_count"), e.useful_count)?;
    d.set_item(pyo3::intern!(py, "useful_wilds"), names(py, e.useful & wild_kinds)?)?;
    let mut waits = tiles::mask_tiles(e.waits);
    let waits = list_of(py, e.waits.count_ones() as usize, |_| {
        let t = waits.next().unwrap_or(0);
        Ok(wait_dict(py, t, left[t as usize], false)?.into_any())
    })?;
    d.set_item(pyo3::intern!(py, "waits"), waits)?;
    if scored {
        let winning = list_of(py, e.winning.len(), |i| {
            let (t, v) = e.winning[i];
            let w = wait_dict(py, t, left[t as usize], true)?;
            w.set_item(pyo3::intern!(py, "total"), v)?;
            Ok(w.into_any())
        })?;
        d.set_item(pyo3::intern!(py, "winning_waits"), winning)?;
        d.set_item(pyo3::intern!(py, "winning_count"), e.winning_count)?;
    }
    if scoring {
        let draws = e.draws.ok_or_else(|| hand_error(py, "draws not searched"))?;
        d.set_item(pyo3::intern!(py, "draws"), draws.count)?;
        d.set_item(pyo3::intern!(py, "draws_exact"), draws.exact)?;
    }
    // Putting an untracked list in a dict tracks the dict.
    untrack(&d);
    Ok(d)
}

/// Shanten after each discard and unseen copies of the useful draws after it, for rows of
/// 14/17 tiles (n x 34 each; the module `haidi.ruleset`'s `NOT_HELD_SHANTEN` / `NOT_HELD_USEFUL` where the row
/// holds no tile of the kind), with the GIL released.
#[pyfunction]
#[pyo3(signature = (engine, counts, visible = None, wilds = None, melds = None))]
#[allow(clippy::type_complexity)]
pub fn analyze_batch<'py>(
    py: Python<'py>,
    engine: &Bound<'py, PyEngine>,
    counts: PyReadonlyArray2<'py, u8>,
    visible: Option<PyReadonlyArray2<'py, u8>>,
    wilds: Option<&Bound<'py, PyAny>>,
    melds: Option<PyReadonlyArray1<'py, u8>>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let engine = &engine.get().inner;
    let w = super::engine::row_wilds(py, engine, wilds)?;
    let shape = counts.shape();
    if shape[1] != KINDS {
        return Err(hand_error(py, format!("tile counts must have 34 columns, not {}", shape[1])));
    }
    let n = shape[0];
    let slice = counts.as_slice().map_err(|_| hand_error(py, "tile counts must be a C-contiguous uint8 array"))?;
    let meld_slice = match &melds {
        Some(m) => Some(m.as_slice().map_err(|_| hand_error(py, "melds must be a contiguous uint8 array"))?),
        None => None,
    };
    let seen = match &visible {
        Some(v) => {
            let s = v.shape();
            if s[1] != KINDS || (s[0] != 1 && s[0] != n) {
                return Err(hand_error(py, format!("visible must be 1 x 34 or {n} x 34, not {} x {}", s[0], s[1])));
            }
            Some(v.as_slice().map_err(|_| hand_error(py, "visible must be a C-contiguous uint8 array"))?)
        }
        None => None,
    };
    let rows = Rows::new(slice, meld_slice);
    batch::check_lengths(&rows).py_err(py)?;
    let (mut s, mut u) = (Vec::with_capacity(n * KINDS), Vec::with_capacity(n * KINDS));
    // A run of rows at a time, so that Ctrl-C stops the batch between runs.
    interrupt::in_runs(py, n, batch::PARALLEL_MIN_ROWS, |run| {
        let part = rows.part(run.clone());
        let seen = seen.map(|v| match v.len() {
            KINDS => v,
            _ => v.get(run.start * KINDS..run.end * KINDS).unwrap_or(&[]),
        });
        batch::validate(engine, &part, Some(false))?;
        let (a, b) = core::batch(engine, &part, w, seen)?;
        s.extend(a);
        u.extend(b);
        Ok(())
    })?;
    let s = PyArray1::from_vec(py, s).reshape([n, KINDS])?;
    let u = PyArray1::from_vec(py, u).reshape([n, KINDS])?;
    Ok((s.into_any(), u.into_any()))
}
