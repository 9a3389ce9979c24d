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
    /// Whether the arrays a step gives are the caller's to keep.
    copy: bool,
    /// The arrays steps write into (one set without `copy`, two going round with it).
    buffers: Vec<Kept>,
}

/// The output arrays kept across steps.
struct Kept {
    obs: Py<PyArray3<u8>>,
    masks: Py<PyArray2<bool>>,
    seats: Py<PyArray1<i8>>,
    done: Py<PyArray1<bool>>,
    shaped: Py<PyArray2<f32>>,
}

type Step<'py> = (
    Bound<'py, PyArray3<u8>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<i8>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray2<f32>>,
);

impl Kept {
    fn zeros(py: Python<'_>, n: usize, planes: usize, size: usize) -> Kept {
        Kept {
            obs: PyArray3::zeros(py, [n, planes, KINDS], false).unbind(),
            masks: PyArray2::zeros(py, [n, size], false).unbind(),
            seats: PyArray1::zeros(py, n, false).unbind(),
            done: PyArray1::zeros(py, n, false).unbind(),
            shaped: PyArray2::zeros(py, [n, 4], false).unbind(),
        }
    }

    /// Nothing but this env holds any of the arrays: no name, container, view or buffer
    /// of the caller's can see them written again.
    fn unshared(&self) -> bool {
        fn alone(p: *mut pyo3::ffi::PyObject) -> bool {
            // SAFETY: `p` is an array this env holds a reference to, so it is alive; the
            // caller holds the GIL (`filled` takes `py`).
            unsafe { pyo3::ffi::Py_REFCNT(p) == 1 }
        }
        [self.obs.as_ptr(), self.masks.as_ptr(), self.seats.as_ptr(), self.done.as_ptr(), self.shaped.as_ptr()]
            .into_iter()
            .all(alone)
    }

    /// None of the arrays was made read-only (a caller may do so to arrays it holds).
    fn writeable(&self, py: Python<'_>) -> bool {
        self.obs.bind(py).try_readwrite().is_ok()
            && self.masks.bind(py).try_readwrite().is_ok()
            && self.seats.bind(py).try_readwrite().is_ok()
            && self.done.bind(py).try_readwrite().is_ok()
            && self.shaped.bind(py).try_readwrite().is_ok()
    }
}

impl PyVectorEnv {
    /// Runs `f` on the output arrays without the GIL, and gives them back. With `copy`
    /// the arrays are the caller's to keep: those of a step before are written again only
    /// when the caller holds none of them any more (its loop has moved on from them), as
    /// writing 7 MB of new pages a step costs more than encoding them
    /// (`benches/bench_vector.py`); else fresh ones. Without `copy`, always the env's own.
    fn filled<'py>(
        &mut self,
        py: Python<'py>,
        f: impl FnOnce(&mut VectorEnv, Out<'_>) -> crate::error::Result<()> + Send,
    ) -> PyResult<Step<'py>> {
        let n = self.env.len();
        let (planes, size) = (self.env.planes, self.env.space.size());
        let usable = |k: &Kept| (!self.copy || k.unshared()) && k.writeable(py);
        let at = match self.buffers.iter().position(usable) {
            Some(at) => at,
            None => {
                // Two sets go round: the caller holds the last step's while it asks for the next.
                if self.buffers.len() >= 2 {
                    self.buffers.remove(0);
                }
                self.buffers.push(Kept::zeros(py, n, planes, size));
                self.buffers.len() - 1
            }
        };
        let k = &self.buffers[at];
        let (obs, masks, seats, done) = (k.obs.bind(py), k.masks.bind(py), k.seats.bind(py), k.done.bind(py));
        let shaped = k.shaped.bind(py);
        {
            let (mut o, mut m, mut s, mut d) =
                (obs.readwrite(), masks.readwrite(), seats.readwrite(), done.readwrite());
            let mut r = shaped.readwrite();
            let out = Out {
                obs: o.as_slice_mut()?,
                masks: m.as_slice_mut()?,
                seats: s.as_slice_mut()?,
                done: d.as_slice_mut()?,
                shaped: r.as_slice_mut()?,
            };
            let env = &mut self.env;
            py.detach(|| f(env, out)).map_err(|e| to_py(py, e))?;
        }
        Ok((obs.clone(), masks.clone(), seats.clone(), done.clone(), shaped.clone()))
    }
}

#[pymethods]
impl PyVectorEnv {
    /// `num_envs` hands of the ruleset of `flow` scored by `scorer`, dealt from `seed`,
    /// observed by the encoding `version`; `copy=False`: each step writes into the same
    /// arrays; `opponents` (`"random"` or `"greedy"`): the built-in agent playing every
    /// seat but each game's learning seat (None: the caller plays every seat); `shaping`:
    /// the weight of the shaped reward (`crate::game::vector::Out::shaped`; 0: none).
    #[new]
    #[pyo3(signature = (flow, scorer, num_envs, seed, version = "v1", copy = true, opponents = None, shaping = 0.0))]
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
        shaping: f64,
    ) -> PyResult<Self> {
        if !shaping.is_finite() {
            return Err(hand_error(py, format!("shaping must be a finite number, not {shaping}")));
        }
        let n = convert::count_in(num_envs, "num_envs", 1, 1 << 20)? as usize;
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
        let mut env = VectorEnv::new(rules, judge, n, seed, version, opponents).map_err(|e| to_py(py, e))?;
        env.shaping = shaping as f32;
        Ok(PyVectorEnv { env, started: false, copy, buffers: Vec::new() })
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
        let (obs, masks, seats, _, _) = self.filled(py, move |env, out| env.reset(seed, out))?;
        self.started = true;
        PyTuple::new(py, [obs.into_any(), masks.into_any(), seats.into_any()])
    }

    /// Plays one id a game (an int64 array) for each game's seat to play; a game over at
    /// the step before is dealt its next hand instead. `(observations, masks, seats,
    /// done, shaped)`: `done[i]` when game `i` ended at this step (its seat is then -1);
    /// `shaped` (games x 4) the shaped reward of each seat, 0 without `shaping`.
    fn step<'py>(&mut self, py: Python<'py>, actions: PyReadonlyArray1<'py, i64>) -> PyResult<Bound<'py, PyTuple>> {
        if !self.started {
            return Err(hand_error(py, "reset() deals the games: call it before step()"));
        }
        let ids = actions.as_slice().map_err(|_| hand_error(py, "actions must be a contiguous array of ids"))?.to_vec();
        let (obs, masks, seats, done, shaped) = self.filled(py, move |env, out| env.step(&ids, out))?;
        PyTuple::new(py, [obs.into_any(), masks.into_any(), seats.into_any(), done.into_any(), shaped.into_any()])
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
