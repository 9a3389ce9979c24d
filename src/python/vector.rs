//! `haidi._core.VectorEnv`: many games stepped at once from a numpy array of action ids,
//! without the GIL (`crate::game::vector`); `haidi.VectorEnv` (python/haidi/vector.py)
//! adds the payments of `settle` and Gymnasium's shapes.

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use super::convert;
use super::errors::{hand_error, to_py};
use super::game::{record, rules_and_judge, seed_arg};
use crate::game::simulate::Agent;
use crate::game::vector::{Out, VectorEnv};
use crate::tiles::KINDS;

/// Many hands of one ruleset in play (see `haidi.VectorEnv`).
#[pyclass(name = "VectorEnv", module = "haidi._core", subclass)]
pub struct PyVectorEnv {
    env: VectorEnv,
    started: bool,
    /// The arrays each step writes into when they are not copied (`copy=False`).
    kept: Option<Kept>,
}

/// The output arrays kept across steps.
struct Kept {
    obs: Py<PyArray3<u8>>,
    masks: Py<PyArray2<bool>>,
    seats: Py<PyArray1<i8>>,
    done: Py<PyArray1<bool>>,
}

type Step<'py> =
    (Bound<'py, PyArray3<u8>>, Bound<'py, PyArray2<bool>>, Bound<'py, PyArray1<i8>>, Bound<'py, PyArray1<bool>>);

impl PyVectorEnv {
    /// Runs `f` on the output arrays without the GIL, and gives them back: fresh arrays,
    /// or the env's own (overwritten at each step: writing 7 MB of new pages a step costs
    /// more than encoding them, `benches/bench_vector.py`).
    fn filled<'py>(
        &mut self,
        py: Python<'py>,
        f: impl FnOnce(&mut VectorEnv, Out<'_>) -> crate::error::Result<()> + Send,
    ) -> PyResult<Step<'py>> {
        let n = self.env.len();
        let (planes, size) = (self.env.planes, self.env.space.size());
        let env = &mut self.env;
        if let Some(k) = &self.kept {
            let (obs, masks, seats, done) = (k.obs.bind(py), k.masks.bind(py), k.seats.bind(py), k.done.bind(py));
            {
                let (mut o, mut m, mut s, mut d) =
                    (obs.readwrite(), masks.readwrite(), seats.readwrite(), done.readwrite());
                let out = Out {
                    obs: o.as_slice_mut()?,
                    masks: m.as_slice_mut()?,
                    seats: s.as_slice_mut()?,
                    done: d.as_slice_mut()?,
                };
                py.detach(|| f(env, out)).map_err(|e| to_py(py, e))?;
            }
            return Ok((obs.clone(), masks.clone(), seats.clone(), done.clone()));
        }
        let mut obs = vec![0u8; n * planes * KINDS];
        let mut masks = vec![false; n * size];
        let mut seats = vec![-1i8; n];
        let mut done = vec![false; n];
        py.detach(|| f(env, Out { obs: &mut obs, masks: &mut masks, seats: &mut seats, done: &mut done }))
            .map_err(|e| to_py(py, e))?;
        let obs = PyArray1::from_vec(py, obs).reshape([n, planes, KINDS])?;
        let masks = PyArray1::from_vec(py, masks).reshape([n, size])?;
        Ok((obs, masks, PyArray1::from_vec(py, seats), PyArray1::from_vec(py, done)))
    }
}

#[pymethods]
impl PyVectorEnv {
    /// `num_envs` hands of the ruleset of `flow` scored by `scorer`, dealt from `seed`,
    /// observed by the encoding `version`; `copy=False`: each step writes into the same
    /// arrays; `opponents` (`"random"` or `"greedy"`): the built-in agent playing every
    /// seat but each game's learning seat (None: the caller plays every seat).
    #[new]
    #[pyo3(signature = (flow, scorer, num_envs, seed, version = "v1", copy = true, opponents = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        flow: &Bound<'_, PyDict>,
        scorer: &Bound<'_, PyAny>,
        num_envs: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        version: &str,
        copy: bool,
        opponents: Option<&str>,
    ) -> PyResult<Self> {
        let n = convert::count(num_envs, "num_envs", 1 << 20)? as usize;
        let seed = seed_arg(seed)?;
        let (rules, judge) = rules_and_judge(flow, scorer)?;
        let opponents = match opponents {
            None => None,
            Some("random") => Some(Agent::Random),
            Some("greedy") => Some(Agent::Greedy),
            Some(other) => {
                let shown = convert::shown(&pyo3::types::PyString::new(py, other).into_any());
                return Err(hand_error(py, format!("opponents must be 'random' or 'greedy', not {shown}")));
            }
        };
        let env = VectorEnv::new(rules, judge, n, seed, version, opponents).map_err(|e| to_py(py, e))?;
        let kept = (!copy)
            .then(|| -> PyResult<Kept> {
                let (planes, size) = (env.planes, env.space.size());
                Ok(Kept {
                    obs: PyArray3::zeros(py, [n, planes, KINDS], false).unbind(),
                    masks: PyArray2::zeros(py, [n, size], false).unbind(),
                    seats: PyArray1::zeros(py, n, false).unbind(),
                    done: PyArray1::zeros(py, n, false).unbind(),
                })
            })
            .transpose()?;
        Ok(PyVectorEnv { env, started: false, kept })
    }

    /// How many games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.env.len()
    }

    /// The observation's planes (of 34 columns).
    #[getter]
    fn planes(&self) -> usize {
        self.env.planes
    }

    /// The size of the action space.
    #[getter]
    fn action_size(&self) -> usize {
        self.env.space.size()
    }

    /// The seed of the hand in play in each game (`Game(rules, seed=...)` deals it again).
    #[getter]
    fn seeds<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_vec(py, (0..self.env.len()).map(|i| self.env.seed(i)).collect())
    }

    /// The learning seat of the hand in play in each game (of the hand that just ended,
    /// until the next step deals again), against agents; -1 where the caller plays
    /// every seat.
    #[getter]
    fn learners<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let seats = (0..self.env.len()).map(|i| self.env.learner(i).map_or(-1, |s| s as i8)).collect();
        PyArray1::from_vec(py, seats)
    }

    /// Deals every game's first hand again (from `seed`, or the seed given before):
    /// `(observations, masks, seats)`, the seat to play in each game.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyTuple>> {
        let seed = seed.filter(|s| !s.is_none()).map(seed_arg).transpose()?;
        let (obs, masks, seats, _) = self.filled(py, move |env, out| env.reset(seed, out))?;
        self.started = true;
        PyTuple::new(py, [obs.into_any(), masks.into_any(), seats.into_any()])
    }

    /// Plays one id a game (an int64 array) for each game's seat to play; a game over at
    /// the step before is dealt its next hand instead. `(observations, masks, seats,
    /// done)`: `done[i]` when game `i` ended at this step (its seat is then -1).
    fn step<'py>(&mut self, py: Python<'py>, actions: PyReadonlyArray1<'py, i64>) -> PyResult<Bound<'py, PyTuple>> {
        if !self.started {
            return Err(hand_error(py, "reset() deals the games: call it before step()"));
        }
        let ids = actions.as_slice().map_err(|_| hand_error(py, "actions must be a contiguous array of ids"))?.to_vec();
        let (obs, masks, seats, done) = self.filled(py, move |env, out| env.step(&ids, out))?;
        PyTuple::new(py, [obs.into_any(), masks.into_any(), seats.into_any(), done.into_any()])
    }

    /// The records of the finished games `indices`, for `settle` (see `haidi.game`).
    fn _records<'py>(&self, py: Python<'py>, indices: Vec<usize>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for i in indices {
            if i >= self.env.len() {
                return Err(hand_error(py, format!("no game {i}")));
            }
            out.append(record(py, self.env.game(i))?)?;
        }
        Ok(out)
    }
}
