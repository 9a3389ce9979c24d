//! `haidi._core.Game` and `simulate`: the game state machine of `crate::game` for
//! Python. Actions and observations are plain dicts; `haidi.Game` (python/haidi/game.py)
//! adds scoring by `evaluate` and payments by `settle`.

use std::sync::Arc;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::convert;
use super::errors::{hand_error, to_py};
use super::score::PyScheme;
use crate::error::{Spelling, TRUE_OR_FALSE};
use crate::game::actions::ActionSpace;
use crate::game::audit;
use crate::game::encode;
use crate::game::rules::{Field, Kind, Setting, FIELDS};
use crate::game::simulate::{self as play, Agent, Seating};
use crate::game::state::{describe, Event, FLOWER};
use crate::game::view::{Decision, SeatView, SeenMeld};
use crate::game::{Action, Game, Judge, Rules};
use crate::hand::{Hand, MeldKind};
use crate::notation::{self, Format};
use crate::score::situation::Value;
use crate::tiles::{self, Tile, KINDS};

/// One hand in play (see `haidi.Game`).
#[pyclass(name = "Game", module = "haidi._core", subclass)]
pub struct PyGame {
    game: Game,
    legal: Vec<Action>,
}

fn item<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(key)?.ok_or_else(|| hand_error(d.py(), format!("game rules: {key} missing")))
}

/// The keys of the flow dict that are no flow rule: the tile set of the ruleset's `SPEC`
/// and the prevailing wind, which `haidi.game` adds to its `GAME`.
const TILE_SET: [&str; 5] = ["name", "melds", "tiles", "flowers", "round_wind"];

/// Sets each flow rule of `given` (a mapping of `GameRules` names) in `rules`; a name that
/// is no flow rule, or a value not of its kind, is a `HandError` naming it.
fn set_flow(rules: &mut Rules, given: &Bound<'_, PyDict>, skip: &[&str]) -> PyResult<()> {
    let py = given.py();
    for (k, v) in given.iter() {
        let name = convert::str_arg(&k, "game rules: a rule's name")?;
        if skip.contains(&name) {
            continue;
        }
        let field = Field::named(name).map_err(|e| hand_error(py, e))?;
        let what = format!("game rules: {name}");
        let setting = match field.kind {
            Kind::Flag if v.is_none() => {
                let none = Spelling::current().none();
                return Err(hand_error(py, format!("{what} must be {}, not {none}", TRUE_OR_FALSE.get())));
            }
            Kind::Flag => Setting::Flag(convert::flag_arg(Some(&v), &what, false)?),
            Kind::Count(max) => Setting::Count(convert::count(&v, &what, max as u64)? as u8),
            Kind::Choice(_) | Kind::Text => Setting::Text(convert::str_arg(&v, &what)?.to_string()),
        };
        rules.set(name, setting).map_err(|e| hand_error(py, e))?;
    }
    Ok(())
}

fn setting_to_py<'py>(py: Python<'py>, s: Setting) -> PyResult<Bound<'py, PyAny>> {
    Ok(match s {
        Setting::Flag(b) => pyo3::types::PyBool::new(py, b).to_owned().into_any(),
        Setting::Count(n) => n.into_pyobject(py)?.into_any(),
        Setting::Text(t) => PyString::new(py, &t).into_any(),
    })
}

/// The flow rules a ruleset declares, as `haidi.rulesets.GameRules` takes them: `(name,
/// type, default, doc)` each, in order (they are declared once, by `Rules` in
/// src/game/rules.rs).
#[pyfunction]
pub fn game_rule_fields(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    let rows = FIELDS.iter().map(|f| {
        let ty = match f.kind {
            Kind::Flag => "bool".to_string(),
            Kind::Count(_) => "int".to_string(),
            Kind::Choice(names) => {
                let names: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
                format!("Literal[{}]", names.join(", "))
            }
            Kind::Text => "str".to_string(),
        };
        (f.name, ty, setting_to_py(py, f.default())?, f.doc()).into_pyobject(py)
    });
    PyTuple::new(py, rows.collect::<PyResult<Vec<_>>>()?)
}

/// Every flow rule, from `rules` (a dict of `GameRules` names) over the defaults; a name
/// that is no flow rule, or a value not of its kind, is a `HandError` naming it.
#[pyfunction]
pub fn game_rules<'py>(rules: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyDict>> {
    let py = rules.py();
    let mut read = Rules::default();
    set_flow(&mut read, rules, &[])?;
    let out = PyDict::new(py);
    for f in FIELDS {
        out.set_item(f.name, setting_to_py(py, (f.get)(&read))?)?;
    }
    Ok(out)
}

/// The flow rules from the dict `haidi.game` builds of a ruleset's `SPEC` and `GAME`.
pub(crate) fn rules(flow: &Bound<'_, PyDict>) -> PyResult<Rules> {
    let py = flow.py();
    let text = |k: &str| -> PyResult<String> { Ok(convert::str_arg(&item(flow, k)?, k)?.to_string()) };
    let small = |k: &str, max: u64| -> PyResult<u8> { Ok(convert::count(&item(flow, k)?, k, max)? as u8) };
    let parsed = |k: &str| -> PyResult<Hand> {
        let t = text(k)?;
        Ok(notation::parse(&t, Format::Compact).map_err(|e| to_py(py, e))?.hand)
    };
    let melds = small("melds", 5)?;
    if melds < 4 {
        return Err(hand_error(py, "game rules: melds must be 4 or 5"));
    }
    let mut rules = Rules {
        name: text("name")?,
        melds,
        tiles: tiles::kinds_mask(&parsed("tiles")?.concealed),
        flowers: parsed("flowers")?.flowers,
        round_wind: small("round_wind", 3)?,
        ..Rules::default()
    };
    set_flow(&mut rules, flow, &TILE_SET)?;
    Ok(rules)
}

/// The rules and the judge of a ruleset, checked against each other: a pattern the rules
/// name is one the scorer counts.
pub(crate) fn rules_and_judge(
    flow: &Bound<'_, PyDict>,
    scorer: &Bound<'_, PyAny>,
) -> PyResult<(Arc<Rules>, Arc<Judge>)> {
    let rules = rules(flow)?;
    let judge = judge(scorer)?;
    let rob = &rules.rob_concealed_kong;
    if !rob.is_empty() && judge.pattern(rob).is_none() {
        return Err(hand_error(
            flow.py(),
            format!(
                "game rules: rob_concealed_kong names {}, which is no pattern of the ruleset's scorer",
                crate::error::quote(rob)
            ),
        ));
    }
    Ok((Arc::new(rules), Arc::new(judge)))
}

fn judge(scorer: &Bound<'_, PyAny>) -> PyResult<Judge> {
    if let Ok(s) = scorer.cast::<PyScheme>() {
        return Ok(Judge::scheme(s.get().scheme().clone()));
    }
    match scorer.cast::<super::mcr::PyMcrScorer>() {
        Ok(m) => Ok(Judge::mcr(m.get().options)),
        Err(_) => Err(hand_error(scorer.py(), "scorer must be an McrScorer or a Scheme")),
    }
}

/// A seed: an int from 0 to 2^64 - 1 (a numpy integer scalar will do; a bool, a float
/// or an array will not, as for every number read).
pub(crate) fn seed_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    let bad = || hand_error(obj.py(), format!("seed must be an int from 0 to 2**64 - 1, not {}", convert::shown(obj)));
    if !convert::is_integer(obj) {
        return Err(bad());
    }
    obj.extract::<u64>().map_err(|_| bad())
}

/// A wall given as a list of tile names.
fn wall_codes(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let py = obj.py();
    let bad = || hand_error(py, "a wall is a list of tile names such as '5m' and '3f'");
    // A str and a dict iterate, but over letters and keys.
    if obj.cast::<PyString>().is_ok() || obj.cast::<PyDict>().is_ok() {
        return Err(bad());
    }
    let mut out = vec![];
    for item in obj.try_iter().map_err(|_| bad())? {
        let item = item?;
        let text = convert::str_arg(&item, "a wall tile")?;
        let b = text.as_bytes();
        if out.len() > 200 {
            return Err(hand_error(py, "a wall holds at most 144 tiles"));
        }
        if b.len() == 2 && b[1] == b'f' && (b'1'..=b'8').contains(&b[0]) {
            out.push(FLOWER + b[0] - b'1');
        } else {
            let at = out.len();
            out.push(convert::tile(py, text).map_err(|_| {
                let t = crate::error::quote(text);
                hand_error(py, format!("wall tile {at} is {t}, not a tile name such as '5m' or '3f'"))
            })?);
        }
    }
    Ok(out)
}

/// A seat given as an int 0-3.
fn seat_arg(obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    Ok(convert::count(obj, "seat", 3)? as u8)
}

fn tile_name(py: Python<'_>, t: Tile) -> Bound<'_, PyString> {
    convert::tile_names(py)[t as usize].bind(py).clone()
}

/// A wall code's name: a kind (`"5m"`) or a flower (`"3f"`).
fn code_name(t: u8) -> String {
    if t >= FLOWER {
        tiles::flower_name(t - FLOWER)
    } else {
        tiles::name(t)
    }
}

pub(crate) fn action_dict<'py>(py: Python<'py>, a: Action) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(pyo3::intern!(py, "type"), PyString::intern(py, a.name()))?;
    if let Some(t) = a.tile() {
        d.set_item(pyo3::intern!(py, "tile"), tile_name(py, t))?;
    }
    Ok(d)
}

/// An action dict: `{"type": ...}` and, for the actions that name one, `"tile"`.
pub(crate) fn read_action(obj: &Bound<'_, PyAny>) -> PyResult<Action> {
    let py = obj.py();
    let q = |s: &str| Spelling::current().text(s);
    let d = obj.cast::<PyDict>().map_err(|_| {
        let example = describe(Action::Discard(4));
        hand_error(py, format!("an action is {} such as {example}, not {}", convert::A_DICT.get(), convert::shown(obj)))
    })?;
    let kind = d
        .get_item(pyo3::intern!(py, "type"))?
        .ok_or_else(|| hand_error(py, format!("an action needs its {}", q("type"))))?;
    let kind = convert::str_arg(&kind, "the action's type")?;
    // The action of each type, given its tile (read only by the types that name one).
    let of_kind = |t: Tile| {
        Some(match kind {
            "discard" => Action::Discard(t),
            "chow" => Action::Chow(t),
            "concealed_kong" => Action::ConcealedKong(t),
            "added_kong" => Action::AddedKong(t),
            "open_ready" => Action::OpenReady(t),
            "pung" => Action::Pung,
            "kong" => Action::Kong,
            "win" => Action::Win,
            "pass" => Action::Pass,
            "take" => Action::Take,
            _ => return None,
        })
    };
    // The type is known before its tile is read: a misspelt type is named as such.
    let Some(a) = of_kind(0) else {
        return Err(hand_error(
            py,
            format!(
                "unknown action type {:?}; known: discard, chow, pung, kong, concealed_kong, added_kong, win, pass, take, open_ready",
                kind.chars().take(40).collect::<String>()
            ),
        ));
    };
    let with_tile = a.tile().is_some();
    let tile = match d.get_item(pyo3::intern!(py, "tile"))? {
        Some(t) if with_tile => {
            let text = convert::str_arg(&t, "the action's tile")?;
            Some(notation::parse_tile(text, Format::Compact).map_err(|e| {
                hand_error(py, format!("the tile of a {kind} action must be a tile such as {} ({e})", q("5m")))
            })?)
        }
        Some(_) => return Err(hand_error(py, format!("a {kind} action names no tile"))),
        None if with_tile => return Err(hand_error(py, format!("a {kind} action needs its {}", q("tile")))),
        None => None,
    };
    if d.len() > 1 + tile.is_some() as usize {
        let keys: Vec<String> = d.keys().iter().map(|k| convert::shown(&k)).collect();
        return Err(hand_error(py, format!("an action has the keys type and tile only, not {}", keys.join(", "))));
    }
    Ok(of_kind(tile.unwrap_or(0)).unwrap_or(a))
}

fn value_to_py<'py>(py: Python<'py>, v: &Value<'_>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Bool(b) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        Value::Text(s) => PyString::new(py, s).into_any(),
        Value::Str(s) => PyString::new(py, s).into_any(),
        Value::Hand(h) => PyString::new(py, &h.notation()).into_any(),
        _ => py.None().into_bound(py),
    })
}

fn meld_kind(k: MeldKind) -> &'static str {
    k.name()
}

/// Seats of a mask, as a list (not `Vec<u8>`, which Python would get as bytes).
fn seats_list(mask: u8) -> Vec<usize> {
    (0..4).filter(|s| mask >> s & 1 == 1).collect()
}

impl PyGame {
    /// The action of the id `obj` for `seat`: an int in the action space, whose tile on
    /// offer (a claim's) is the one offered now; else a `HandError` naming the id.
    fn action_of_id(&mut self, seat: u8, obj: &Bound<'_, PyAny>) -> PyResult<Action> {
        let py = obj.py();
        let space = ActionSpace::of(&self.game.rules);
        let size = space.size();
        let out_of_range = |shown: String| {
            let rules = &self.game.rules.name;
            hand_error(py, format!("action id {shown} is out of range: the ids of {rules} are 0 to {}", size - 1))
        };
        if obj.cast::<pyo3::types::PyBool>().is_ok() || !convert::is_integer(obj) {
            return Err(hand_error(
                py,
                format!("an action is {} or an action id (an int), not {}", convert::A_DICT.get(), convert::shown(obj)),
            ));
        }
        // An int past i64 is an id out of range like any other.
        let id = obj.extract::<i64>().map_err(|_| out_of_range(convert::shown(obj)))?;
        let Some((a, offer)) = usize::try_from(id).ok().and_then(|i| space.action(i)) else {
            return Err(out_of_range(id.to_string()));
        };
        let name = space.name(id as usize).unwrap_or_default();
        if offer.is_some() && offer != offer_tile(&self.game, seat) {
            return Err(hand_error(py, format!("action id {id} ({name}) is not legal for seat {seat} now")));
        }
        if self.game.to_act() >> seat & 1 == 1 && !self.game.legal(seat).contains(&a) {
            return Err(hand_error(py, format!("action id {id} ({name}) is not legal for seat {seat} now")));
        }
        Ok(a)
    }

    fn event<'py>(&self, py: Python<'py>, e: &Event) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        match e {
            Event::Deal { seat, tiles } => {
                d.set_item("event", "deal")?;
                d.set_item("seat", seat)?;
                d.set_item("tiles", tiles.iter().map(|&t| code_name(t)).collect::<Vec<_>>())?;
            }
            Event::Draw { seat, tile, back } => {
                d.set_item("event", "draw")?;
                d.set_item("seat", seat)?;
                d.set_item("tile", code_name(*tile))?;
                d.set_item("replacement", back)?;
            }
            Event::Flower { seat, flower } => {
                d.set_item("event", "flower")?;
                d.set_item("seat", seat)?;
                d.set_item("tile", tiles::flower_name(*flower))?;
            }
            Event::Indicator { tile } => {
                d.set_item("event", "indicator")?;
                d.set_item("tile", code_name(*tile))?;
            }
            Event::Act { seat, action } => {
                d.set_item("event", "action")?;
                d.set_item("seat", seat)?;
                d.set_item("action", action_dict(py, *action)?)?;
            }
            Event::Claim { seat, from, meld } => {
                d.set_item("event", "claim")?;
                d.set_item("seat", seat)?;
                d.set_item("from", from)?;
                d.set_item("meld", meld_kind(meld.kind))?;
                d.set_item("tiles", meld.notation())?;
            }
            Event::Win { seat, tile, discarder, total } => {
                d.set_item("event", "win")?;
                d.set_item("seat", seat)?;
                d.set_item("tile", tile.map(code_name))?;
                d.set_item("discarder", discarder)?;
                d.set_item("total", total)?;
            }
            Event::End { exhausted } => {
                d.set_item("event", "end")?;
                d.set_item("exhausted", exhausted)?;
            }
        }
        Ok(d)
    }
}

/// The tile on offer to `seat` for its decision now (a claim's), if any.
fn offer_tile(g: &Game, seat: u8) -> Option<Tile> {
    match SeatView::new(g, seat).decision()? {
        Decision::Offer { tile, .. } => Some(tile),
        _ => None,
    }
}

/// An encoding's name (None: `"v0"`) and its planes; an unknown one is a `HandError`.
fn version_arg(version: Option<&Bound<'_, PyAny>>) -> PyResult<(&'static str, usize)> {
    let Some(v) = version.filter(|v| !v.is_none()) else {
        return Ok(encode::VERSIONS[0]);
    };
    let name = convert::str_arg(v, "version")?;
    encode::VERSIONS.iter().find(|(n, _)| *n == name).copied().ok_or_else(|| {
        let known: Vec<String> = encode::VERSIONS.iter().map(|(n, _)| Spelling::current().text(n)).collect();
        hand_error(v.py(), format!("unknown observation version {}; known: {}", convert::shown(v), known.join(", ")))
    })
}

fn seen_meld<'py>(py: Python<'py>, m: &SeenMeld) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("type", m.kind.name())?;
    d.set_item("tile", m.tile.map(tiles::name))?;
    d.set_item("from", m.from)?;
    d.set_item("claimed", m.claimed.map(tiles::name))?;
    Ok(d)
}

/// The observation dict of a seat's view; `legal` its legal actions as dicts.
fn observation_dict<'py>(py: Python<'py>, v: &SeatView<'_>, legal: Bound<'py, PyList>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let s = v.seat();
    d.set_item("seat", s)?;
    d.set_item("dealer", v.dealer())?;
    d.set_item("round_wind", ["E", "S", "W", "N"][v.round_wind() as usize])?;
    d.set_item("streak", v.streak())?;
    d.set_item("hand", tiles::counts_to_string(v.hand()))?;
    d.set_item("drawn", v.drawn().map(code_name))?;
    let melds = PyList::empty(py);
    let meld_info = PyList::empty(py);
    let discards = PyList::empty(py);
    let claimed = PyList::empty(py);
    let flowers = PyList::empty(py);
    let sizes = PyList::empty(py);
    let open = PyList::empty(py);
    for o in 0..4u8 {
        let seen: Vec<SeenMeld> = v.melds(o).collect();
        melds.append(seen.iter().map(|m| m.notation(o)).collect::<Vec<_>>())?;
        meld_info.append(PyList::new(py, seen.iter().map(|m| seen_meld(py, m)).collect::<PyResult<Vec<_>>>()?)?)?;
        // The tile names interned once: a request to a bot is mostly this dict.
        let river = v.rivers(o);
        discards.append(PyList::new(py, river.iter().map(|&(t, _)| tile_name(py, t)))?)?;
        claimed.append(PyList::new(py, (0..river.len()).filter(|&i| river[i].1))?)?;
        let f = v.flowers(o);
        flowers.append((0..8).filter(|k| f >> k & 1 == 1).map(tiles::flower_name).collect::<Vec<_>>())?;
        sizes.append(v.tiles_held(o))?;
        open.append(v.open_hand(o).map(|c| tiles::counts_to_string(&c)))?;
    }
    d.set_item("melds", melds)?;
    d.set_item("meld_info", meld_info)?;
    d.set_item("discards", discards)?;
    d.set_item("claimed", claimed)?;
    d.set_item("flowers", flowers)?;
    d.set_item("concealed_counts", sizes)?;
    d.set_item("open_hands", open)?;
    d.set_item("wall", v.drawable())?;
    d.set_item("indicator", v.turned().map(code_name))?;
    d.set_item("wilds", convert::mask_names(v.wild_kinds()))?;
    let offer = v.offer().map(|(t, from, chance)| {
        let o = PyDict::new(py);
        o.set_item("tile", tiles::name(t))?;
        o.set_item("from", from)?;
        o.set_item("chance", chance.name())?;
        Ok::<_, PyErr>(o)
    });
    d.set_item("offer", offer.transpose()?)?;
    d.set_item("decision", v.decision().map(Decision::name))?;
    let (rounds, lead) = v.followed();
    let followed = PyDict::new(py);
    followed.set_item("rounds", rounds)?;
    followed.set_item("tile", lead.map(tiles::name))?;
    d.set_item("followed", followed)?;
    d.set_item("passed_win", v.passed_win())?;
    d.set_item("haidi_taker", v.haidi_taker())?;
    d.set_item("to_act", seats_list(v.to_act()))?;
    d.set_item("done", v.done())?;
    d.set_item("legal_actions", legal)?;
    Ok(d)
}

/// The record of a finished hand that the rulesets' `game_outcome` read.
pub(crate) fn record<'py>(py: Python<'py>, g: &Game) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("dealer", g.dealer)?;
    d.set_item("exhausted", g.exhausted)?;
    let wins = PyList::empty(py);
    for w in &g.wins {
        let e = PyDict::new(py);
        e.set_item("seat", w.facts.seat)?;
        let tile = w.facts.win_flower.map_or_else(|| tiles::name(w.facts.win), tiles::flower_name);
        e.set_item("tile", (!w.facts.dealt).then_some(tile))?;
        e.set_item("discarder", w.facts.discarder)?;
        e.set_item("self_drawn", w.facts.self_drawn)?;
        e.set_item("wall_last", w.facts.wall_last)?;
        e.set_item("total", w.total)?;
        e.set_item("situation", situation_dict(py, &g.judge, &w.facts)?)?;
        wins.append(e)?;
    }
    d.set_item("wins", wins)?;
    let made = PyList::empty(py);
    for m in &g.made {
        let e = PyDict::new(py);
        e.set_item("seat", m.seat)?;
        e.set_item("from", m.from)?;
        e.set_item("meld", meld_kind(m.meld.kind))?;
        e.set_item("tile", tiles::name(m.meld.tile))?;
        made.append(e)?;
    }
    d.set_item("melds", made)?;
    d.set_item("rest", g.rest().iter().map(|&t| code_name(t)).collect::<Vec<_>>())?;
    d.set_item("left", g.drawable())?;
    d.set_item("haidi_taker", g.haidi_taker)?;
    d.set_item("passed_win", seats_list(g.passed_win))?;
    d.set_item("discards", g.discards)?;
    // The discards in the order made: seat, tile, and what became of it (claimed, won on).
    let order = PyList::empty(py);
    let mut last_discard: Option<Bound<'py, PyList>> = None;
    for e in &g.events {
        match e {
            Event::Act { seat, action: Action::Discard(t) } => {
                let row = PyList::new(py, [seat.into_pyobject(py)?.into_any(), tile_name(py, *t).into_any()])?;
                row.append(py.None())?;
                order.append(&row)?;
                last_discard = Some(row);
            }
            Event::Act { action: Action::AddedKong(_), .. } => last_discard = None,
            Event::Claim { .. } | Event::Win { discarder: Some(_), .. } => {
                if let Some(row) = last_discard.take() {
                    let what = if matches!(e, Event::Claim { .. }) { "claimed" } else { "won" };
                    row.set_item(2, what)?;
                }
            }
            Event::Draw { .. } => last_discard = None,
            _ => {}
        }
    }
    d.set_item("discard_order", order)?;
    // Each hand as it ends, for the scores of those who did not win: less a robbed
    // kong's tile (taken by the winner) and a 分张 tile kept (not discarded).
    let hands = PyList::empty(py);
    for s in 0..4u8 {
        let mut h = g.hands[s as usize].clone();
        if let Some(t) = g.split_kept[s as usize] {
            if t >= FLOWER {
                h.flowers &= !(1 << (t - FLOWER));
            } else {
                h.concealed[t as usize] -= 1;
            }
        }
        if let Some((_, t)) = g.robbed.filter(|&(r, _)| r == s) {
            h.concealed[t as usize] -= 1;
        }
        hands.append(h.notation())?;
    }
    d.set_item("hands", hands)?;
    Ok(d)
}

#[pymethods]
impl PyGame {
    /// Deals a hand. `flow`: the ruleset's flow rules (see `haidi.game`); `scorer`:
    /// the ruleset's scorer for its options (`Ruleset.scorer_for`: MCR's `McrScorer`, or a
    /// regional ruleset's `Scheme`).
    /// `wall`: the tiles in drawing order (names such as `"5m"`, `"3f"`) instead of a
    /// wall shuffled from `seed`.
    #[new]
    #[pyo3(signature = (flow, scorer, seed, wall = None, streak = None))]
    fn new(
        py: Python<'_>,
        flow: &Bound<'_, PyDict>,
        scorer: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        wall: Option<&Bound<'_, PyAny>>,
        streak: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let seed = seed_arg(seed)?;
        let streak = streak.map(|s| convert::count(s, "streak", 255)).transpose()?.unwrap_or(0) as u8;
        let (rules, judge) = rules_and_judge(flow, scorer)?;
        let mut game = match wall.filter(|w| !w.is_none()) {
            None => Game::new(rules, judge, seed),
            Some(w) => Game::from_wall(rules, judge, wall_codes(w)?).map_err(|e| to_py(py, e))?,
        };
        game.streak = streak;
        Ok(PyGame { game, legal: Vec::with_capacity(24) })
    }

    /// The seed the wall was shuffled from.
    #[getter]
    fn seed(&self) -> u64 {
        self.game.seed
    }

    /// The seats whose decision is awaited, in seat order.
    #[getter]
    fn to_act(&self) -> Vec<usize> {
        seats_list(self.game.to_act())
    }

    /// Whether the hand is over.
    #[getter]
    fn done(&self) -> bool {
        self.game.done()
    }

    /// The actions `seat` may take now (none when it is not to act), as dicts.
    fn legal_actions<'py>(&mut self, py: Python<'py>, seat: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let seat = seat_arg(seat)?;
        let mut legal = std::mem::take(&mut self.legal);
        self.game.legal_into(seat, &mut legal);
        let out = PyList::empty(py);
        for &a in &legal {
            out.append(action_dict(py, a)?)?;
        }
        self.legal = legal;
        Ok(out)
    }

    /// The action the built-in greedy agent takes for `seat` (None when it is not to act).
    fn _greedy<'py>(&mut self, py: Python<'py>, seat: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let seat = seat_arg(seat)?;
        let mut legal = std::mem::take(&mut self.legal);
        self.game.legal_into(seat, &mut legal);
        let a = (!legal.is_empty()).then(|| play::greedy(&self.game, seat, &legal));
        self.legal = legal;
        a.map(|a| action_dict(py, a)).transpose()
    }

    /// Plays `action` (a dict, or an id of the ruleset's action space) for `seat`; an
    /// illegal one raises `HandError` naming it.
    fn step(&mut self, py: Python<'_>, seat: &Bound<'_, PyAny>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let seat = seat_arg(seat)?;
        let a = if action.cast::<PyDict>().is_ok() { read_action(action)? } else { self.action_of_id(seat, action)? };
        self.game.step(seat, a).map_err(|e| to_py(py, e))
    }

    /// What `seat` may know now, by the one rule of what a seat sees (docs/learning.md):
    /// its own tiles, everyone's melds and discards, the flowers set aside, the tile on
    /// offer, the tiles left, the wilds, its own decision and legal actions.
    fn observation<'py>(&mut self, py: Python<'py>, seat: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let s = seat_arg(seat)?;
        let legal = self.legal_actions(py, seat)?;
        observation_dict(py, &SeatView::new(&self.game, s), legal)
    }

    /// `observation` as numbers for learning: a planes x 34 uint8 array of the encoding
    /// `version` (`"v0"`, 11 planes; `"v1"`, complete; `"v2"`, v1 and the analysis of its
    /// own hand: docs/learning.md), seats counted from `seat`.
    #[pyo3(signature = (seat, version = None))]
    fn observation_array<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
        version: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, numpy::PyArray2<u8>>> {
        let s = seat_arg(seat)?;
        let (name, planes) = version_arg(version)?;
        let mut buf = vec![0u8; planes * KINDS];
        encode::encode(name, &SeatView::new(&self.game, s), &mut buf);
        PyArray1::from_vec(py, buf).reshape([planes, KINDS]).map_err(|e| hand_error(py, e.to_string()))
    }

    /// The ids `seat` may play now (`haidi.ruleset(...).actions`), as a numpy bool array
    /// of the action space's size: all False when it is not to act.
    fn legal_mask<'py>(&mut self, py: Python<'py>, seat: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let s = seat_arg(seat)?;
        let space = ActionSpace::of(&self.game.rules);
        let mut legal = std::mem::take(&mut self.legal);
        self.game.legal_into(s, &mut legal);
        let mut mask = vec![false; space.size()];
        space.mask(&legal, offer_tile(&self.game, s), &mut mask);
        self.legal = legal;
        Ok(PyArray1::from_vec(py, mask))
    }

    /// `game` with what `seat` may not know dealt again from `seed`: the other seats'
    /// concealed tiles and the wall's unseen tiles shuffled together (for the test that no
    /// observation of `seat` changes with them).
    fn _reshuffled(&self, seat: &Bound<'_, PyAny>, seed: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let s = seat_arg(seat)?;
        let game = crate::game::view::reshuffled(&self.game, s, seed_arg(seed)?);
        Ok(PyGame { game, legal: Vec::with_capacity(24) })
    }

    /// The events of the hand until now, as JSON-ready dicts (without the opening one, which
    /// `haidi.Game.log` adds).
    fn _events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for e in &self.game.events {
            out.append(self.event(py, e)?)?;
        }
        Ok(out)
    }

    /// The record of the hand for the rulesets' `game_outcome` (see `haidi.game`).
    fn _record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        record(py, &self.game)
    }

    /// The wall as dealt, in drawing order: draws take its front, replacements its end
    /// (a replacement among the last four to draw is the last of them).
    #[getter]
    fn wall(&self) -> Vec<String> {
        self.game.dealt_wall().iter().map(|&t| code_name(t)).collect()
    }

    /// Copies of each kind found in the wall, hands, melds, unclaimed discards and the
    /// indicator, and the flowers: a check that no tile is lost or made.
    fn _tile_counts(&self) -> (Vec<u32>, u32) {
        let (c, f) = self.game.tile_counts();
        (c.iter().map(|&n| n as u32).collect(), f as u32)
    }

    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, seed={}, to_act={:?}{})",
            self.game.rules.name,
            self.game.seed,
            seats_list(self.game.to_act()),
            if self.game.done() { ", done" } else { "" }
        )
    }
}

/// The seed of the wall of hand `i` of a batch started from `seed` (`simulate`'s `seeds`).
#[pyfunction]
pub fn game_seed(seed: &Bound<'_, PyAny>, i: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(crate::game::rng::game_seed(seed_arg(seed)?, seed_arg(i)?))
}

fn agent(py: Python<'_>, name: &str) -> PyResult<Agent> {
    match name {
        "random" => Ok(Agent::Random),
        "greedy" => Ok(Agent::Greedy),
        other => {
            Err(hand_error(py, format!("agents must be 'random' or 'greedy', not {}", crate::error::quote(other))))
        }
    }
}

/// Plays `games` hands with the built-in agents (`agents`: one name, or four, of players
/// 0 to 3), without the GIL, on the shared pool; `duplicate`: hand `i` deals wall `i / 4`
/// with player `p` at seat `(p + i) % 4`. Returns a dict of numpy arrays (`winner`,
/// `wins`, `discarder`, `self_drawn`, `total`, `turns`, `exhausted`, `seeds`, the
/// wall's seed) and `records`: `(index, record)` for each hand that may pay (a win or a
/// kong), for `settle` (see `haidi.simulate`).
#[pyfunction]
#[pyo3(signature = (flow, scorer, games, seed, agents = None, duplicate = false))]
#[allow(clippy::too_many_arguments)]
pub fn simulate<'py>(
    py: Python<'py>,
    flow: &Bound<'py, PyDict>,
    scorer: &Bound<'py, PyAny>,
    games: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    agents: Option<&Bound<'py, PyAny>>,
    duplicate: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let n = convert::count(games, "games", 100_000_000)? as usize;
    let seed = seed_arg(seed)?;
    let names: Vec<String> = match agents {
        None => vec!["random".into()],
        Some(a) if a.cast::<PyString>().is_ok() => vec![a.extract()?],
        Some(a) => a.extract().map_err(|_| hand_error(py, "agents: an agent's name, or a list of four"))?,
    };
    let agents: [Agent; 4] = match names.len() {
        1 => [agent(py, &names[0])?; 4],
        4 => [agent(py, &names[0])?, agent(py, &names[1])?, agent(py, &names[2])?, agent(py, &names[3])?],
        k => return Err(hand_error(py, format!("agents: one agent or four (players 0 to 3), not {k}"))),
    };
    if duplicate && n % 4 != 0 {
        return Err(hand_error(
            py,
            format!("duplicate play deals each wall four times: games must be a multiple of 4, not {n}"),
        ));
    }
    let seating = Seating { agents, duplicate };
    let (rules, judge) = rules_and_judge(flow, scorer)?;
    struct Row {
        winner: i8,
        wins: u8,
        discarder: i8,
        self_drawn: bool,
        total: i32,
        turns: u32,
        exhausted: bool,
        game: Option<Box<Game>>,
    }
    let mut rows: Vec<Row> = Vec::with_capacity(n);
    for run in crate::parallel::Runs::new(n, 64) {
        let part = py.detach(|| {
            play::simulate(&rules, &judge, run, seed, seating, |g| {
                let first = g.wins.first();
                // Kongs pay in Hainan, 跟庄 in Tangshan, on a drawn hand too.
                let pays = !g.wins.is_empty() || g.made.iter().any(|m| m.meld.kind.is_kong()) || g.dealer_followed();
                Row {
                    winner: first.map_or(-1, |w| w.facts.seat as i8),
                    wins: g.wins.len() as u8,
                    discarder: first.and_then(|w| w.facts.discarder).map_or(-1, |d| d as i8),
                    self_drawn: first.is_some_and(|w| w.facts.self_drawn),
                    total: first.map_or(0, |w| w.total),
                    turns: g.discards,
                    exhausted: g.exhausted,
                    game: pays.then(|| Box::new(g.clone())),
                }
            })
        });
        rows.extend(part);
        py.check_signals()?;
    }
    let d = PyDict::new(py);
    d.set_item("winner", PyArray1::from_vec(py, rows.iter().map(|r| r.winner).collect()))?;
    d.set_item("wins", PyArray1::from_vec(py, rows.iter().map(|r| r.wins).collect()))?;
    d.set_item("discarder", PyArray1::from_vec(py, rows.iter().map(|r| r.discarder).collect()))?;
    d.set_item("self_drawn", PyArray1::from_vec(py, rows.iter().map(|r| r.self_drawn).collect()))?;
    d.set_item("total", PyArray1::from_vec(py, rows.iter().map(|r| r.total).collect()))?;
    d.set_item("turns", PyArray1::from_vec(py, rows.iter().map(|r| r.turns).collect()))?;
    d.set_item("exhausted", PyArray1::from_vec(py, rows.iter().map(|r| r.exhausted).collect()))?;
    let seeds: Vec<u64> = (0..n as u64).map(|i| crate::game::rng::game_seed(seed, seating.hand(i).0)).collect();
    d.set_item("seeds", PyArray1::from_vec(py, seeds))?;
    let records = PyList::empty(py);
    for (i, r) in rows.iter().enumerate() {
        if let Some(g) = &r.game {
            records.append((i, record(py, g)?))?;
        }
    }
    d.set_item("records", records)?;
    Ok(d)
}

/// The situation `evaluate` takes for a win's facts, as a dict.
fn situation_dict<'py>(py: Python<'py>, judge: &Judge, f: &crate::game::WinFacts) -> PyResult<Bound<'py, PyDict>> {
    let s = PyDict::new(py);
    for (k, v) in judge.situation(f) {
        s.set_item(k, value_to_py(py, &v)?)?;
    }
    Ok(s)
}

/// Checks the game's promise on `games` hands (`simulate`'s hands of `seed`) played by
/// random agents taking a win one time in four: every chance of a win (a draw, a discard,
/// a kong robbed, the 海底 tile, a dealt hand, a 分张 tile) is scored again by the scorer
/// alone. Returns `weighed` and `offered`, the chances and the wins offered by kind;
/// `findings`, each chance where the game and the scorer disagree (`chance`,
/// `situation`, `scored`, `offered`); and `samples`, a few chances of each kind with the
/// total offered (None: no win), for `evaluate` to score again.
#[pyfunction]
#[pyo3(name = "_audit_wins", signature = (flow, scorer, games, seed))]
pub fn audit_wins<'py>(
    py: Python<'py>,
    flow: &Bound<'py, PyDict>,
    scorer: &Bound<'py, PyAny>,
    games: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = convert::count(games, "games", 10_000_000)? as usize;
    let seed = seed_arg(seed)?;
    let (rules, judge) = rules_and_judge(flow, scorer)?;
    let mut report = audit::Report::default();
    for run in crate::parallel::Runs::new(n, 64) {
        let part = py.detach(|| audit::audit(&rules, &judge, run, seed));
        report.merge(part);
        py.check_signals()?;
    }
    let d = PyDict::new(py);
    let weighed = PyDict::new(py);
    let offered = PyDict::new(py);
    for (k, c) in audit::CHANCES.iter().enumerate() {
        weighed.set_item(c.name(), report.weighed[k])?;
        offered.set_item(c.name(), report.offered[k])?;
    }
    d.set_item("weighed", weighed)?;
    d.set_item("offered", offered)?;
    let findings = PyList::empty(py);
    for f in &report.findings {
        let e = PyDict::new(py);
        e.set_item("chance", f.chance.name())?;
        e.set_item("situation", f.facts.as_ref().map(|facts| situation_dict(py, &judge, facts)).transpose()?)?;
        match &f.scored {
            Ok(total) => e.set_item("scored", total)?,
            Err(msg) => e.set_item("error", msg)?,
        }
        e.set_item("offered", f.offered)?;
        findings.append(e)?;
    }
    d.set_item("findings", findings)?;
    let samples = PyList::empty(py);
    for (c, facts, total) in &report.samples {
        let e = PyDict::new(py);
        e.set_item("chance", c.name())?;
        e.set_item("situation", situation_dict(py, &judge, facts)?)?;
        e.set_item("total", total)?;
        samples.append(e)?;
    }
    d.set_item("samples", samples)?;
    Ok(d)
}
