//! `haidi._core.ActionSpace` and the observation encodings' tables: the integer action
//! space of a ruleset (`crate::game::actions`) and the planes of each encoding
//! (`crate::game::encode`), for learning code.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::convert;
use super::errors::hand_error;
use super::game::{action_dict, read_action, rules};
use crate::game::actions::{self, ActionSpace};
use crate::game::encode;
use crate::game::view::Decision;
use crate::notation::{self, Format};
use crate::tiles;

/// The integer actions of one ruleset (see `haidi.Ruleset.actions`).
#[pyclass(name = "ActionSpace", module = "haidi._core", frozen)]
pub struct PyActionSpace {
    space: ActionSpace,
    ruleset: String,
}

impl PyActionSpace {
    fn id_arg(&self, obj: &Bound<'_, PyAny>) -> PyResult<usize> {
        let py = obj.py();
        let size = self.space.size();
        let bad = || {
            hand_error(
                py,
                format!(
                    "an action id of {} is an int from 0 to {}, not {}",
                    self.ruleset,
                    size - 1,
                    convert::shown(obj)
                ),
            )
        };
        // An int or a numpy integer scalar, as every number is read: no bool, no array.
        if !convert::is_integer(obj) {
            return Err(bad());
        }
        let id = obj.extract::<i64>().map_err(|_| bad())?;
        usize::try_from(id).ok().filter(|&i| i < size).ok_or_else(bad)
    }
}

#[pymethods]
impl PyActionSpace {
    /// The action space of the ruleset whose flow rules are `flow` (the dict `haidi.game`
    /// builds).
    #[new]
    fn new(flow: &Bound<'_, PyDict>) -> PyResult<Self> {
        let r = rules(flow)?;
        Ok(PyActionSpace { space: ActionSpace::of(&r), ruleset: r.name.clone() })
    }

    /// How many ids there are.
    #[getter]
    fn size(&self) -> usize {
        self.space.size()
    }

    fn __len__(&self) -> usize {
        self.space.size()
    }

    /// Each id's short name, in order (`"pass"`, `"win"`, `"discard 1m"` ...).
    #[getter]
    fn names(&self) -> Vec<String> {
        (0..self.space.size()).map(|i| self.space.name(i).unwrap_or_default()).collect()
    }

    /// The action dict of `id`, as `Game.step` takes it.
    fn action<'py>(&self, py: Python<'py>, id: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let id = self.id_arg(id)?;
        let (a, _) = self.space.action(id).expect("an id in range");
        action_dict(py, a)
    }

    /// The tile on offer that `id` claims (a chow, pung or kong on a discard), else None.
    fn claimed(&self, id: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let id = self.id_arg(id)?;
        Ok(self.space.action(id).and_then(|(_, t)| t).map(tiles::name))
    }

    /// The id of `action` (a dict); `claimed`, the tile on offer, is needed for a chow,
    /// pung or kong on a discard.
    #[pyo3(signature = (action, claimed = None))]
    fn id(&self, action: &Bound<'_, PyAny>, claimed: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
        let py = action.py();
        let a = read_action(action)?;
        let offer = match claimed.filter(|c| !c.is_none()) {
            None => None,
            Some(c) => {
                let text = convert::str_arg(c, "claimed")?;
                Some(notation::parse_tile(text, Format::Compact).map_err(|e| hand_error(py, format!("claimed: {e}")))?)
            }
        };
        self.space.id(a, offer).ok_or_else(|| {
            let what = convert::shown(action);
            match (a.name(), offer) {
                ("chow" | "pung" | "kong", None) => {
                    hand_error(py, format!("{what} needs the tile it claims (claimed=...)"))
                }
                _ => hand_error(py, format!("{what} has no id in the action space of {}", self.ruleset)),
            }
        })
    }

    fn __repr__(&self) -> String {
        format!("ActionSpace({:?}, size={})", self.ruleset, self.space.size())
    }
}

/// The blocks of the baseline layout's ids and the ruleset's own after them: `(name,
/// first id, count)` each.
#[pyfunction]
pub fn action_blocks(flow: &Bound<'_, PyDict>) -> PyResult<Vec<(&'static str, usize, usize)>> {
    let s = ActionSpace::of(&rules(flow)?);
    let mut out = vec![
        ("pass", actions::PASS, 1),
        ("win", actions::WIN, 1),
        ("discard", actions::DISCARD, 34),
        ("chow", actions::CHOW, 63),
        ("pung", actions::PUNG, 34),
        ("kong", actions::KONG, 34),
        ("concealed_kong", actions::CONCEALED_KONG, 34),
        ("added_kong", actions::ADDED_KONG, 34),
    ];
    if s.take {
        out.push(("take", actions::BASE, 1));
    }
    if s.open_ready {
        out.push(("open_ready", actions::BASE + s.take as usize, 34));
    }
    Ok(out)
}

/// The observation encodings: a dict of version name to its blocks of planes, `(name,
/// planes, what they hold)` each, and the decision kinds of the `decision` plane.
#[pyfunction]
pub fn observation_versions(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    let v0: Vec<(&str, usize, &str)> = vec![
        ("hand", 1, "own concealed tiles (copies)"),
        ("melds", 4, "each seat's melded tiles it sees (copies)"),
        ("discards", 4, "each seat's discards, claimed ones too (copies)"),
        ("wilds", 1, "the wild kinds (1)"),
        ("indicator", 1, "the indicator tile (1 at its kind)"),
    ];
    d.set_item("v0", v0)?;
    d.set_item("v1", encode::V1_BLOCKS.to_vec())?;
    d.set_item("v2", [encode::V1_BLOCKS, encode::V2_BLOCKS].concat())?;
    d.set_item("decisions", PyList::new(py, Decision::NAMES)?)?;
    Ok(d)
}
