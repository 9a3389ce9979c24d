//! `haidi._core` functions of the MCR scorer: one situation, a list of situations, or
//! columns. Everything but reading arguments and building results runs in `crate::mcr`
//! with the GIL released.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::answer;
use super::convert;
use super::entry::{self, Entries};
use super::errors::{hand_error, to_py, IntoPy};
use super::kwcall;
use super::result::{untracked, PyResult_, Scoring, Source, Table, Val, Writer};
use crate::error::{A_HAND, A_TILE, COMPACT_OR_COMH, TRUE_OR_FALSE};
use crate::forms::Form;
use crate::hand::MeldKind;
use crate::mcr::batch::{evaluate_text, read_plain, TextSituation, Texts, CASE_KEYS, PARALLEL_MIN};
use crate::mcr::data::FANS;
use crate::mcr::fans::{FanCounts, SetKind, MINGANGANG};
use crate::mcr::situation::wind;
use crate::mcr::{Options, Scored, Situation};
use crate::notation::Format;
use crate::score::group::{Group, Shape};
use crate::tiles::{self, Tile};

fn fan_name(fan: u8) -> (&'static str, &'static str) {
    if fan == MINGANGANG {
        ("明暗杠", "Concealed Kong and Melded Kong")
    } else {
        let f = &FANS[fan as usize - 1];
        (f.name, f.name_en)
    }
}

/// The fan entries, by fan (0 unused).
pub(super) fn shared_fans(py: Python<'_>) -> PyResult<&'static [entry::Counted]> {
    static SHARED: pyo3::sync::PyOnceLock<Vec<entry::Counted>> = pyo3::sync::PyOnceLock::new();
    let shared = SHARED.get_or_try_init(py, || {
        (0..=MINGANGANG).map(|f| entry::Counted::new(py, &new_fan_dict(py, f)?)).collect::<PyResult<Vec<_>>>()
    })?;
    Ok(shared)
}

/// The fans to list, in order: by id, but 明暗杠 (5 points) between the 6-point and the
/// 4-point fans; each with its count.
fn fan_order(fans: &FanCounts) -> Vec<(u16, u16)> {
    let mut order = Vec::with_capacity(8);
    let mut mingangang = fans.get(MINGANGANG) > 0;
    let counted = |f: u8| (f as u16, fans.get(f) as u16);
    for fan in fans.ids().filter(|&f| f != MINGANGANG) {
        if mingangang && fan > 54 {
            order.push(counted(MINGANGANG));
            mingangang = false;
        }
        order.push(counted(fan));
    }
    if mingangang {
        order.push(counted(MINGANGANG));
    }
    order
}

fn new_fan_dict<'py>(py: Python<'py>, fan: u8) -> PyResult<Bound<'py, PyDict>> {
    if fan == 0 {
        return Ok(PyDict::new(py));
    }
    let (name, name_en) = fan_name(fan);
    let d = PyDict::new(py);
    d.set_item(pyo3::intern!(py, "id"), if fan == MINGANGANG { None } else { Some(fan) })?;
    d.set_item(pyo3::intern!(py, "name"), name)?;
    d.set_item(pyo3::intern!(py, "name_en"), name_en)?;
    d.set_item(pyo3::intern!(py, "value"), FanCounts::points_of(fan))?;
    d.set_item(pyo3::intern!(py, "points"), FanCounts::points_of(fan))?;
    d.set_item(pyo3::intern!(py, "count"), 1)?;
    Ok(d)
}

/// The result of one situation (its JSON text is its `json`).
fn result(py: Python<'_>, r: &Scored) -> PyResult<PyResult_> {
    if !r.explained {
        // Written when first read (most reads are of `win`, `total` and `fans` alone).
        return Ok(Scoring::Mcr(Box::new(r.clone())).result(Source::Mcr));
    }
    // explain's list of fans not counted is made in Python, with the result.
    let c = answer::common(py);
    let mut w = values(c, r)?;
    let ex = PyList::empty(py);
    for e in &r.excluded {
        let x = PyDict::new(py);
        if e.rule == "account_once" {
            x.set_item("id", None::<u8>)?;
            x.set_item("name", "一般高/喜相逢/连六/老少副")?;
            x.set_item("count", e.count)?;
            x.set_item("by", None::<u8>)?;
            x.set_item("rule", "套算一次 (account once): a set combines once more with an unused set")?;
        } else {
            let (name, _) = fan_name(e.fan);
            let (by_name, _) = fan_name(e.by);
            x.set_item("id", e.fan)?;
            x.set_item("name", name)?;
            x.set_item("count", e.count)?;
            x.set_item("by", e.by)?;
            x.set_item("by_name", by_name)?;
            let rule = if e.rule == "list" { "不计 in the list's note" } else { "不重复 (implied by the fan)" };
            x.set_item("rule", rule)?;
        }
        ex.append(x)?;
    }
    w.put(&c.excluded, Val::Py(ex.into_any().unbind()));
    Ok(w.finish(Source::Mcr, false))
}

/// A result's `fans`: the fans counted, by place in the table, with their counts.
pub(super) fn fans_val(r: &Scored) -> Val {
    Val::Fans(fan_order(&r.fans))
}

/// A scored situation's values, but `explain`'s list: what a batch's lines are written
/// from, and a result's when first read.
pub(super) fn values(c: &answer::Common, r: &Scored) -> PyResult<Writer> {
    let mut w = Writer::new(8);
    w.put(&c.win, Val::Bool(r.win));
    w.put(&c.total, Val::Int(r.total.into()));
    w.put(&c.fans, fans_val(r));
    w.put(&c.reason, r.reason.as_deref().map_or(Val::None, |s| Val::Str(s.to_owned())));
    w.put(&c.form, r.form.map_or(Val::None, |f| Val::Static(f.name())));
    if r.complete {
        let (groups, text) = groups_and_text(r)?;
        w.put(&c.arrangement, Val::Str(text));
        w.put(&c.groups, Val::Groups(Box::new(groups)));
    } else {
        w.put(&c.arrangement, Val::None);
        w.put(&c.groups, Val::Groups(Box::new(Entries::NONE)));
    }
    Ok(w)
}

/// An MCR set as a group of the shared writer.
fn group_of(x: &crate::mcr::fans::Set) -> Group {
    let shape = match x.kind {
        SetKind::Chow => Shape::Chow,
        SetKind::Pung => Shape::Pung,
        SetKind::Kong => Shape::Kong,
        SetKind::Pair => Shape::Pair,
    };
    let meld = match (x.declared, x.melded, x.kind) {
        (false, _, _) => None,
        (true, false, _) => Some(MeldKind::ConcealedKong),
        (true, true, SetKind::Chow) => Some(MeldKind::Chow),
        (true, true, SetKind::Pung) => Some(MeldKind::Pung),
        (true, true, _) => Some(MeldKind::Kong),
    };
    Group { meld, ..Group::new(shape, x.tile, 0) }
}

/// The arrangement's groups and its text, as every ruleset writes them: the sets (the
/// concealed first, in tile order, then the declared melds), after a knitted straight;
/// for the forms without sets, their tiles as one group.
fn groups_and_text(r: &Scored) -> PyResult<(Entries, String)> {
    let mut text = String::with_capacity(48);
    let none = std::iter::empty;
    match r.form {
        Some(f @ (Form::ThirteenOrphans | Form::HonoursAndKnitted)) => {
            let all = (0..tiles::KINDS as Tile).flat_map(|t| std::iter::repeat_n(t, r.tiles[t as usize] as usize));
            let kind = if f == Form::ThirteenOrphans { "orphans" } else { "knitted" };
            text.push_str(&tiles::counts_to_string(&r.tiles));
            Ok((Entries::loose(kind, all, none())?, text))
        }
        _ => {
            let mut entries = Entries::NONE;
            if let Some(nine) = r.knitted {
                let mut sorted = nine;
                sorted.sort_unstable();
                entries = Entries::loose("knitted_straight", sorted, none())?;
                text.push_str(&tiles::tiles_to_string(&sorted));
                if !r.sets.is_empty() {
                    text.push(' ');
                }
            }
            entries.groups(r.sets.iter().map(group_of), &mut text)?;
            Ok((entries, text))
        }
    }
}

fn fmt(py: Python<'_>, name: &str) -> PyResult<Format> {
    convert::format(py, name)
}

/// One situation read from a dict, its texts still Python strings: they are borrowed,
/// not copied, when it is scored.
struct Read<'py> {
    hand: Bound<'py, PyString>,
    win: Option<Bound<'py, PyString>>,
    format: Format,
    situation: Situation,
    /// The situation's own options (`options`, or the key `concealed_and_melded_kong`).
    options: Option<Options>,
    explain: bool,
    /// The keys of `batch::CASE_KEYS` given.
    given: u8,
}

impl Read<'_> {
    fn text(&self) -> PyResult<TextSituation<'_>> {
        let py = self.hand.py();
        let hand = convert::text(&self.hand, "hand").map_err(|e| super::errors::for_key(py, e, "hand"))?;
        let win = match &self.win {
            Some(w) => Some(convert::text(w, "win").map_err(|e| super::errors::for_key(py, e, "win"))?),
            None => None,
        };
        Ok(TextSituation {
            hand,
            win,
            format: self.format,
            situation: self.situation,
            options: self.options,
            explain: self.explain,
            given: self.given,
        })
    }
}

/// The keys a situation may have, in the order of [`KEYS`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Hand,
    Win,
    Format,
    SelfDrawn,
    LastOfKind,
    WallLast,
    KongReplacement,
    RobbingKong,
    SeatWind,
    RoundWind,
    Flowers,
    Explain,
    ConcealedAndMeldedKong,
    Options,
}

const KEYS: [(&str, Key); 14] = [
    ("hand", Key::Hand),
    ("win", Key::Win),
    ("format", Key::Format),
    ("self_drawn", Key::SelfDrawn),
    ("last_of_kind", Key::LastOfKind),
    ("wall_last", Key::WallLast),
    ("kong_replacement", Key::KongReplacement),
    ("robbing_kong", Key::RobbingKong),
    ("seat_wind", Key::SeatWind),
    ("round_wind", Key::RoundWind),
    ("flowers", Key::Flowers),
    ("explain", Key::Explain),
    ("concealed_and_melded_kong", Key::ConcealedAndMeldedKong),
    ("options", Key::Options),
];

impl Key {
    fn name(self) -> &'static str {
        KEYS[self as usize].0
    }

    /// The key's bit among those a COMH case string gives (`TextSituation::given`).
    fn case_bit(self) -> u8 {
        CASE_BITS[self as usize]
    }
}

/// Each key's bit of [`CASE_KEYS`] (0 for a key a case string does not give), worked
/// out from that list when compiling.
const CASE_BITS: [u8; KEYS.len()] = {
    const fn same(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }
    let mut bits = [0u8; KEYS.len()];
    let mut k = 0;
    while k < KEYS.len() {
        let mut j = 0;
        while j < CASE_KEYS.len() {
            if same(KEYS[k].0, CASE_KEYS[j]) {
                bits[KEYS[k].1 as usize] = 1 << j;
            }
            j += 1;
        }
        k += 1;
    }
    bits
};

/// The situation keys as interned strs (those of a call's keywords and of most dicts),
/// found by address in a small open-addressed table: slots of (address, place in `KEYS`
/// + 1).
struct Keys {
    _keys: Vec<Py<PyString>>,
    slots: [(usize, u8); 64],
}

impl Keys {
    fn slot(at: usize) -> usize {
        (at >> 4) & 63
    }

    /// The table, made once.
    fn get(py: Python<'_>) -> &'static Keys {
        static KEYS_BY_ADDRESS: pyo3::sync::PyOnceLock<Keys> = pyo3::sync::PyOnceLock::new();
        KEYS_BY_ADDRESS.get_or_init(py, || {
            let keys: Vec<Py<PyString>> = KEYS.iter().map(|(k, _)| PyString::intern(py, k).unbind()).collect();
            let mut slots = [(0, 0); 64];
            for (i, k) in keys.iter().enumerate() {
                let mut s = Keys::slot(k.as_ptr() as usize);
                while slots[s].0 != 0 {
                    s = (s + 1) & 63;
                }
                slots[s] = (k.as_ptr() as usize, i as u8 + 1);
            }
            Keys { _keys: keys, slots }
        })
    }

    /// A situation key. Keys written as identifiers (keyword arguments, dict literals)
    /// are interned by Python, so they are found by identity before any text is
    /// compared; an unknown key is an error naming it.
    fn find(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Key> {
        let at = key.as_ptr() as usize;
        let mut s = Keys::slot(at);
        while self.slots[s].0 != 0 {
            if self.slots[s].0 == at {
                return Ok(KEYS[self.slots[s].1 as usize - 1].1);
            }
            s = (s + 1) & 63;
        }
        let key = key.cast::<PyString>().map_err(|_| hand_error(py, "situation keys must be str"))?;
        let text = convert::text(key, "a situation key")?;
        match KEYS.iter().find(|(k, _)| *k == text) {
            Some(&(_, k)) => Ok(k),
            None => {
                let shown: String = text.chars().take(40).collect();
                let message = format!(
                    "unknown mcr situation key {}; known: {}",
                    crate::error::quote(&shown),
                    KEYS.map(|(k, _)| k).join(", ")
                );
                Err(to_py(py, crate::error::HandError::invalid(message).for_key(&shown)))
            }
        }
    }
}

/// A situation being read, key by key.
struct Reader<'py> {
    py: Python<'py>,
    hand: Option<Bound<'py, PyString>>,
    win: Option<Bound<'py, PyString>>,
    format: Format,
    situation: Situation,
    /// `explain`: list the fans not counted, and why.
    explain: bool,
    /// The hand was given as a `Hand` (its text then compact whatever the format).
    hand_object: bool,
    /// The options the situation gives (`options`, `concealed_and_melded_kong`).
    own: Option<Options>,
    /// Where the situation gave `concealed_and_melded_kong`: as a key, in `options`; and
    /// whether the call gave it for every situation (`evaluate_many(...,
    /// concealed_and_melded_kong=...)` or its `options`). A key and either of the others
    /// would contradict, or one silently win: both are refused.
    kong_key: bool,
    kong_in_options: bool,
    kong_by_call: bool,
    /// The keys of `batch::CASE_KEYS` given.
    given: u8,
}

impl<'py> Reader<'py> {
    fn new(py: Python<'py>, format: Format) -> Self {
        Reader {
            py,
            hand: None,
            win: None,
            format,
            situation: Situation::default(),
            explain: false,
            hand_object: false,
            own: None,
            kong_key: false,
            kong_in_options: false,
            kong_by_call: false,
            given: 0,
        }
    }

    /// Reads one key (`None` values are left out); an error names the key.
    fn set(&mut self, key: Key, v: Bound<'py, PyAny>) -> PyResult<()> {
        match self.set_value(key, &v) {
            Ok(()) => Ok(()),
            // numpy's masked constant is a value left out (asked only of a value refused).
            Err(_) if convert::is_masked(&v) => Ok(()),
            Err(e) => Err(super::errors::for_key(self.py, e, key.name())),
        }
    }

    fn set_value(&mut self, key: Key, v: &Bound<'py, PyAny>) -> PyResult<()> {
        let py = self.py;
        if v.is_none() {
            // None is a key left out, but a hand is needed (as every ruleset reads it).
            return match key {
                Key::Hand => Err(hand_error(py, format!("hand must be {}, not {}", A_HAND.get(), convert::shown(v)))),
                _ => Ok(()),
            };
        }
        let name = key.name();
        self.given |= key.case_bit();
        let flag = |v: &Bound<'_, PyAny>| {
            v.extract::<bool>().map_err(|_| {
                hand_error(py, format!("{name} must be {}, not {}", TRUE_OR_FALSE.get(), convert::shown(v)))
            })
        };
        let s = &mut self.situation;
        match key {
            Key::Hand => {
                // A `Hand` is read as its compact notation, whatever the format.
                self.hand = Some(match v.cast::<super::hand::PyHand>() {
                    Ok(h) => {
                        self.hand_object = true;
                        PyString::new(py, &h.get().inner.notation())
                    }
                    Err(_) => v.cast::<PyString>().cloned().map_err(|_| {
                        hand_error(py, format!("hand must be {}, not {}", A_HAND.get(), convert::shown(v)))
                    })?,
                })
            }
            Key::Win => {
                let not_tile = |v: &Bound<'_, PyAny>| {
                    hand_error(py, format!("win must be {}, not {}", A_TILE.get(), convert::shown(v)))
                };
                self.win = Some(v.cast::<PyString>().cloned().map_err(|_| not_tile(v))?)
            }
            Key::Format => {
                let bad = |v: &Bound<'_, PyAny>| {
                    hand_error(py, format!("format must be {}, not {}", COMPACT_OR_COMH.get(), convert::shown(v)))
                };
                let f = v.cast::<PyString>().map_err(|_| bad(v))?;
                self.format = fmt(py, convert::text(f, "format")?).map_err(|_| bad(v))?
            }
            Key::SelfDrawn => s.self_drawn = flag(v)?,
            Key::LastOfKind => s.last_of_kind = flag(v)?,
            Key::WallLast => s.wall_last = flag(v)?,
            Key::KongReplacement => s.kong_replacement = flag(v)?,
            Key::RobbingKong => s.robbing_kong = flag(v)?,
            Key::SeatWind => s.seat_wind = wind_value(py, name, v)?,
            Key::RoundWind => s.round_wind = wind_value(py, name, v)?,
            Key::Flowers => s.flowers = flowers_of(py, v)?,
            Key::Explain => self.explain = flag(v)?,
            Key::ConcealedAndMeldedKong => {
                if self.kong_in_options || self.kong_by_call {
                    let whose = if self.kong_in_options { "options" } else { "the call's options" };
                    return Err(hand_error(py, format!("{name} is given both as a key and in {whose}")));
                }
                self.kong_key = true;
                self.own.get_or_insert_with(Options::default).concealed_and_melded_kong = flag(v)?;
            }
            Key::Options => {
                let d = convert::options_dict(v)?;
                let own = self.own.get_or_insert_with(Options::default);
                for (k, x) in d.iter() {
                    match k.cast::<PyString>().ok().map(|k| k.to_string()).as_deref() {
                        // An option left out (None): its default. The name is known first,
                        // so that a misspelt one is refused whatever its value.
                        Some("concealed_and_melded_kong") if x.is_none() => {}
                        Some("concealed_and_melded_kong") => {
                            if self.kong_key {
                                return Err(hand_error(
                                    py,
                                    "concealed_and_melded_kong is given both as a key and in options",
                                ));
                            }
                            self.kong_in_options = true;
                            own.concealed_and_melded_kong = x.extract::<bool>().map_err(|_| {
                                hand_error(
                                    py,
                                    format!(
                                        "option concealed_and_melded_kong must be {}, not {}",
                                        TRUE_OR_FALSE.get(),
                                        convert::shown(&x)
                                    ),
                                )
                            })?
                        }
                        _ => {
                            return Err(hand_error(
                                py,
                                format!("unknown mcr option {}; known: concealed_and_melded_kong", convert::shown(&k)),
                            ))
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Reads every item of a dict.
    fn set_all(&mut self, d: &Bound<'py, PyDict>) -> PyResult<()> {
        let py = self.py;
        let keys = Keys::get(py);
        let (mut at, mut k, mut v) = (0, std::ptr::null_mut(), std::ptr::null_mut());
        // `PyDict_Next` itself, as pyo3's iterator also checks the size at each step. A
        // value read can run Python code (`__index__`) that changes the dict: its key and
        // value are taken as our own first, and `PyDict_Next` stays in bounds.
        // SAFETY: `d` is a dict we hold; `k` and `v` are borrowed from it just now.
        while unsafe { pyo3::ffi::PyDict_Next(d.as_ptr(), &mut at, &mut k, &mut v) } != 0 {
            let (k, v) = unsafe { (Bound::from_borrowed_ptr(py, k), Bound::from_borrowed_ptr(py, v)) };
            self.set(keys.find(py, &k)?, v)?;
        }
        Ok(())
    }

    fn finish(self) -> PyResult<Read<'py>> {
        let Some(hand) = self.hand else {
            return Err(hand_error(self.py, "the situation needs a hand"));
        };
        Ok(Read {
            hand,
            win: self.win,
            format: if self.hand_object { Format::Compact } else { self.format },
            situation: self.situation,
            options: self.own,
            explain: self.explain,
            given: self.given,
        })
    }
}

/// Reads one situation dict (the JSON keys) in a single pass over its items.
/// `kong_by_call`: the call gave `concealed_and_melded_kong` for every situation.
fn read_situation<'py>(
    py: Python<'py>,
    d: &Bound<'py, PyDict>,
    format: Format,
    kong_by_call: bool,
) -> PyResult<Read<'py>> {
    let mut r = Reader::new(py, format);
    r.kong_by_call = kong_by_call;
    r.set_all(d)?;
    r.finish()
}

/// A wind: a letter E, S, W, N (or 1z-4z), or 0-3, as every ruleset reads it.
fn wind_value(py: Python<'_>, name: &str, v: &Bound<'_, PyAny>) -> PyResult<u8> {
    // "E", "S", "W" and "N" are most often the strs Python keeps of one letter each: by
    // address first.
    static LETTERS: pyo3::sync::PyOnceLock<[Py<PyString>; 4]> = pyo3::sync::PyOnceLock::new();
    let letters = LETTERS.get_or_init(py, || ["E", "S", "W", "N"].map(|w| PyString::intern(py, w).unbind()));
    if let Some(w) = letters.iter().position(|l| v.is(l)) {
        return Ok(w as u8);
    }
    wind_of(v).ok_or_else(|| {
        hand_error(py, format!("{name} must be a wind E, S, W or N (or 0-3), not {}", convert::shown(v)))
    })
}

/// A wind as the dicts and the columns read it (a letter, 1z-4z, or an int 0-3), or None.
pub(super) fn wind_of(v: &Bound<'_, PyAny>) -> Option<u8> {
    if let Ok(text) = v.cast::<PyString>() {
        return wind(text.to_str().ok()?).ok();
    }
    if !convert::is_integer(v) {
        return None;
    }
    v.extract::<i64>().ok().filter(|w| (0..=3).contains(w)).map(|w| w as u8)
}

/// What a flowers value must be, as its errors say.
pub(super) const FLOWERS_EXPECTED: &str = "a number 0 to 8 or flower tiles such as \"13f\"";

/// Flowers as a number 0-8, or as the flower tiles held (`"13f"`).
fn flowers_of(py: Python<'_>, v: &Bound<'_, PyAny>) -> PyResult<u8> {
    if let Some(n) = flowers_count(v) {
        return Ok(n);
    }
    // Flower text that does not parse: the parser's error, which points into the text.
    if let Ok(text) = v.cast::<PyString>() {
        crate::notation::parse(convert::text(text, "flowers")?, Format::Compact)
            .map_err(|e| e.for_key("flowers"))
            .py_err(py)?;
    }
    Err(hand_error(py, format!("flowers must be {FLOWERS_EXPECTED}, not {}", convert::shown(v))))
}

/// Flowers as the dicts and the columns read them (an int 0-8, or flower tiles), or None.
pub(super) fn flowers_count(v: &Bound<'_, PyAny>) -> Option<u8> {
    if convert::is_integer(v) {
        return v.extract::<i64>().ok().filter(|n| (0..=8).contains(n)).map(|n| n as u8);
    }
    let h = crate::notation::parse(v.cast::<PyString>().ok()?.to_str().ok()?, Format::Compact).ok()?.hand;
    (h.concealed_len() == 0 && h.melds.is_empty()).then(|| h.flowers.count_ones() as u8)
}

/// Scores one MCR situation; see `haidi.rulesets.mcr`. The first argument (the ruleset,
/// when called as a ruleset module's `evaluate`) is not needed. The keys are named
/// parameters so that a call passes them without building a dict; any other key lands in
/// `rest` and is refused by name.
/// `mcr_evaluate`'s documentation, with its signature for `inspect`.
/// The keys are named parameters there, as [`KEYS`] has them (tests/test_docs.py holds
/// the two together), and any other lands in `rest`, refused by name.
const EVALUATE_DOC: &std::ffi::CStr = c"mcr_evaluate(_ruleset=None, /, *, hand=None, win=None, self_drawn=None, \
seat_wind=None, round_wind=None, flowers=None, last_of_kind=None, wall_last=None, kong_replacement=None, \
robbing_kong=None, format=None, explain=None, concealed_and_melded_kong=None, options=None, **rest)
--

Scores one MCR situation; see `haidi.rulesets.mcr`. The first argument (the ruleset,
when called as a ruleset module's `evaluate`) is not needed. The keyword arguments are
read from the dict Python passes, each key matched by address.";

/// Adds `mcr_evaluate` to the module: a function taking the dict of keyword arguments as
/// Python made it (see `kwcall`).
pub fn add_evaluate(m: &Bound<'_, PyModule>) -> PyResult<()> {
    kwcall::add_function!(m, c"mcr_evaluate", EVALUATE_DOC, |py, args, situation| {
        kwcall::at_most("mcr_evaluate", args, 1, "the ruleset")?;
        Ok(evaluate_one(py, situation)?.into_any())
    })
}

/// Scores one situation given as a dict of its keys.
fn evaluate_one<'py>(py: Python<'py>, situation: Option<&Bound<'py, PyDict>>) -> PyResult<Bound<'py, PyResult_>> {
    let mut r = Reader::new(py, Format::Compact);
    if let Some(situation) = situation {
        r.set_all(situation)?;
    }
    if r.hand.is_none() && r.win.is_none() {
        return Err(hand_error(py, "a situation needs a hand and a win"));
    }
    let read = r.finish()?;
    let scored = evaluate_text(&read.text()?, &Options::default()).py_err(py)?;
    untracked(py, result(py, &scored)?)
}

/// MCR's situations of `evaluate_many`: the call's format and options.
struct Batch {
    format: Format,
    options: Options,
    /// Whether the call gave `concealed_and_melded_kong`: a situation's key then
    /// contradicts it (its own `options` replace the call's).
    kong_by_call: bool,
}

impl Batch {
    /// The call's: `options` (a dict, checked; None) over the scorer's.
    fn new(
        py: Python<'_>,
        scorer: &PyMcrScorer,
        format: Format,
        options: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Batch> {
        let mut r = Reader::new(py, format);
        if let Some(o) = options.filter(|o| !o.is_none()) {
            r.set(Key::Options, o.clone())?;
        }
        let kong_by_call = r.kong_in_options;
        Ok(Batch { format, options: r.own.filter(|_| kong_by_call).unwrap_or(scorer.options), kong_by_call })
    }
}

impl super::many::BatchScorer for Batch {
    type Read = Texts;
    type Scored = Scored;
    const PARALLEL_MIN: usize = PARALLEL_MIN;

    fn read_dict(&self, d: &Bound<'_, PyDict>, read: &mut Texts) -> PyResult<()> {
        read.push(&read_situation(d.py(), d, self.format, self.kong_by_call)?.text()?);
        Ok(())
    }

    fn score(&self, read: &Texts, i: usize) -> crate::error::Result<Scored> {
        evaluate_text(&read.situation(i), &self.options)
    }

    fn answer<'py>(
        &self,
        py: Python<'py>,
        _: &Texts,
        _: usize,
        scored: &Scored,
        json: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        super::many::answer_of(py, result(py, scored)?, json)
    }
}

/// MCR's scorer of plain lines: its options, and the fan entries its results' JSON is
/// written from.
struct Lines {
    fans: &'static [entry::Counted],
    options: Options,
}

/// A plain line read ([`read_plain`]), scored and written without Python; any other line
/// (and one the scorer refuses) is left to the dict reader, which names what is wrong.
impl super::lines::LineScorer for Lines {
    fn line(&self, common: &answer::Common, line: &[u8], format: Format, out: &mut Vec<u8>) -> super::lines::Line {
        use super::lines::Line;
        let Some(items) = crate::score::json::object(line) else { return Line::Unread };
        let Some(situation) = read_plain(&items, format) else { return Line::Unread };
        // A line's own option beside the scorer's is refused by the dict reader.
        if situation.options.is_some() && self.options != Options::default() {
            return Line::Unread;
        }
        let Ok(scored) = evaluate_text(&situation, &self.options) else { return Line::Unread };
        let start = out.len();
        let written = values(common, &scored).and_then(|w| {
            super::result::json(Table::Mcr(self.fans), w.vals(), out, |_, _| {
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
}

/// MCR's scorer: the tuned fan code with its one option, 明暗杠. It is to MCR what a
/// regional ruleset's `Scheme` is to that ruleset: what `Ruleset.scorer` gives, and what
/// `Game`, `simulate`, `analyze` and `eval --jsonl` score MCR's wins with.
#[pyclass(name = "McrScorer", module = "haidi._core", frozen)]
pub struct PyMcrScorer {
    pub options: Options,
}

#[pymethods]
impl PyMcrScorer {
    #[new]
    #[pyo3(signature = (concealed_and_melded_kong = None))]
    fn new(concealed_and_melded_kong: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let concealed_and_melded_kong =
            convert::flag_arg(concealed_and_melded_kong, "concealed_and_melded_kong", false)?;
        Ok(PyMcrScorer { options: Options { concealed_and_melded_kong } })
    }

    /// Whether one concealed and one melded kong score 明暗杠 (5), not 明杠 + 暗杠.
    #[getter]
    fn concealed_and_melded_kong(&self) -> bool {
        self.options.concealed_and_melded_kong
    }

    /// The ruleset's name.
    #[getter]
    fn name(&self) -> &'static str {
        "mcr"
    }

    /// The fan ids in the order of the `fans` columns: None (明暗杠), then 1-81.
    #[getter]
    fn fan_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let ids: Vec<Option<u8>> = std::iter::once(None).chain((1..=81u8).map(Some)).collect();
        PyTuple::new(py, ids)
    }

    /// Scores lines of JSON (`haidi eval --jsonl`), given as one bytes object, as
    /// `Scheme.evaluate_lines` does: each plain line read, scored and answered with its
    /// result's JSON text on every core, the GIL released. Returns the answers, one bytes
    /// object of lines each ended by `\n`, and how many are errors (none: the errors are
    /// the caller's); where some line is not plain or cannot be scored, the answers are a
    /// list, a line's answer (without `\n`) or None for the caller to read as a dict.
    #[pyo3(signature = (lines, *, format = None, first_line = None))]
    fn evaluate_lines<'py>(
        &self,
        py: Python<'py>,
        lines: &Bound<'py, PyAny>,
        format: Option<&Bound<'py, PyAny>>,
        first_line: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let format = convert::format_arg(format)?;
        let scorer = Lines { fans: shared_fans(py)?, options: self.options };
        super::lines::evaluate_lines(py, &scorer, lines, format, first_line)
    }

    /// Scores a list of situation dicts, as `Scheme.evaluate_list` does: `format` and
    /// `options` (the call's, over the scorer's) apply to each situation that gives none;
    /// a situation's `concealed_and_melded_kong` key contradicts the call's. With
    /// `errors="collect"`, `{"error": message}` where a situation cannot be scored.
    #[pyo3(signature = (situations, *, format = None, errors = None, json = false, options = None))]
    fn evaluate_list<'py>(
        &self,
        py: Python<'py>,
        situations: &Bound<'py, PyAny>,
        format: Option<&Bound<'py, PyAny>>,
        errors: Option<&Bound<'py, PyAny>>,
        json: bool,
        options: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let collect = super::many::collect_errors(errors)?;
        let batch = Batch::new(py, self, convert::format_arg(format)?, options)?;
        super::many::evaluate_list(py, &batch, situations, json, collect)
    }

    /// Scores columns, as `Scheme.evaluate_columns` does: a dict of equal-length
    /// sequences or numpy arrays keyed like a situation (`hand` and `win` required).
    /// Returns numpy arrays `win` (bool), `total` (int32) and `fans` (n x 82 uint8 counts
    /// in the order of `fan_ids`: column 0 the optional 明暗杠, then fans 1-81), and
    /// `error` (None or the message, by row) with `errors="collect"`.
    #[pyo3(signature = (columns, *, format = None, errors = None, options = None))]
    fn evaluate_columns<'py>(
        &self,
        py: Python<'py>,
        columns: &Bound<'py, PyAny>,
        format: Option<&Bound<'py, PyAny>>,
        errors: Option<&Bound<'py, PyAny>>,
        options: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let collect = super::many::collect_errors(errors)?;
        let Batch { format, options, .. } = Batch::new(py, self, convert::format_arg(format)?, options)?;
        super::many::evaluate_columns(py, &super::columns::McrColumns { format, options }, columns, collect)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let kong = slf.get().options.concealed_and_melded_kong;
        (slf.get_type(), (kong,)).into_pyobject(slf.py()).map(Bound::into_any)
    }

    fn __repr__(&self) -> String {
        match self.options.concealed_and_melded_kong {
            true => "McrScorer(concealed_and_melded_kong=True)".into(),
            false => "McrScorer()".into(),
        }
    }
}

/// Reads the situation keys of a dict other than the hand and the winning tile, for a
/// caller that tries each wait as the win (`analyze`): the situation and the options.
pub fn read_keys(py: Python<'_>, d: &Bound<'_, PyDict>) -> PyResult<(Situation, Option<Options>)> {
    let mut r = Reader::new(py, Format::Compact);
    for (k, v) in d.iter() {
        match Keys::get(py).find(py, &k)? {
            key @ (Key::Hand | Key::Win | Key::Format) => {
                return Err(hand_error(
                    py,
                    format!("{} is not a situation key here: analysis takes the hand and its format, and tries each wait as the win", key.name()),
                ))
            }
            k => r.set(k, v)?,
        }
    }
    Ok((r.situation, r.own))
}
