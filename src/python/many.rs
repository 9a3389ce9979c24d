//! `evaluate_many` of every ruleset: a list of situation dicts, or columns, read with the
//! GIL, scored without it on every core, and answered with a list of results or with
//! arrays. A ruleset's scorer says how a situation is read, scored and answered
//! ([`BatchScorer`] for lists, [`ColumnScorer`] for columns); the reading ahead, the
//! threads, Ctrl-C and `errors="collect"` are done here, once for every ruleset.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex, PoisonError};

use numpy::{PyArray1, PyArray2, PyArrayMethods};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::answer;
use super::errors::{hand_error, to_py};
use crate::error::{HandError, Result as CoreResult};

/// A scorer of `evaluate_many`'s situations, with the call's format and options.
pub trait BatchScorer: Sync {
    /// Situations read from a list's dicts, owned so that another thread scores them.
    type Read: Send + Sync + Default;
    /// A situation scored.
    type Scored: Send;
    /// Lists shorter than this are read, scored and answered on the calling thread.
    const PARALLEL_MIN: usize;

    /// Reads one situation dict onto the end of `read`; an error names the key at fault.
    fn read_dict(&self, d: &Bound<'_, PyDict>, read: &mut Self::Read) -> PyResult<()>;
    /// Scores situation `i` of `read` (without the GIL).
    fn score(&self, read: &Self::Read, i: usize) -> CoreResult<Self::Scored>;
    /// The result of situation `i` of `read`: the object, or with `json` its JSON text.
    fn answer<'py>(
        &self,
        py: Python<'py>,
        read: &Self::Read,
        i: usize,
        scored: &Self::Scored,
        json: bool,
    ) -> PyResult<Bound<'py, PyAny>>;
}

/// `errors`: None or "raise" (false), or "collect" (true).
pub fn collect_errors(errors: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    let Some(errors) = errors.filter(|e| !e.is_none()) else { return Ok(false) };
    let py = errors.py();
    match super::convert::str_arg(errors, "errors")? {
        "raise" => Ok(false),
        "collect" => Ok(true),
        other => {
            Err(hand_error(py, format!("errors must be 'raise' or 'collect', not {}", crate::error::quote(other))))
        }
    }
}

/// A result as a list holds it: the object, or with `json` its JSON text.
pub fn answer_of(py: Python<'_>, r: super::result::PyResult_, json: bool) -> PyResult<Bound<'_, PyAny>> {
    Ok(match json {
        true => pyo3::types::PyBytes::new(py, &r.json(py)?).into_any(),
        false => super::result::untracked(py, r)?.into_any(),
    })
}

/// The answer for a situation that cannot be scored under `errors="collect"`:
/// `{"error": message}`, or its JSON text.
fn error_answer<'py>(py: Python<'py>, message: &str, json: bool) -> PyResult<Bound<'py, PyAny>> {
    if json {
        let mut out = Vec::with_capacity(message.len() + 12);
        out.extend_from_slice(b"{\"error\":");
        answer::string(&mut out, message);
        out.push(b'}');
        return Ok(pyo3::types::PyBytes::new(py, &out).into_any());
    }
    let d = PyDict::new(py);
    d.set_item(pyo3::intern!(py, "error"), message)?;
    Ok(d.into_any())
}

/// Situations read and scored a chunk at a time, with threads.
const CHUNK: usize = 1024;
/// Situations read, scored and answered a chunk at a time on the calling thread, Ctrl-C
/// heard between chunks. (Measured on one core: chunks of 128 made Tangshan's hands with
/// wilds 5% slower than reading all first, where the scoring tables stay in cache;
/// chunks of 2,048 cost nothing, and made MCR's 5% faster.)
const SMALL_CHUNK: usize = 2048;

/// Scores a list (any iterable) of situation dicts; returns a list of results, with
/// `json` each result's JSON text (bytes, as `orjson.dumps` writes the dict). A bad
/// situation raises `HandError` naming its index (the first bad one, whether it cannot
/// be read or cannot be scored), or with `collect` is answered `{"error": message}` in
/// its place.
pub fn evaluate_list<'py, S: BatchScorer>(
    py: Python<'py>,
    scorer: &S,
    situations: &Bound<'py, PyAny>,
    json: bool,
    collect: bool,
) -> PyResult<Bound<'py, PyList>> {
    let not_list = || hand_error(py, "evaluate_many takes a list of situation dicts, or columns");
    if situations.cast::<PyString>().is_ok() || situations.cast::<PyDict>().is_ok() {
        return Err(not_list());
    }
    let mut items = situations.try_iter().map_err(|_| not_list())?.enumerate();
    // With `collect`, the situations that cannot be read, by index, each with its error.
    let refused = RefCell::new(VecDeque::<(usize, String)>::new());
    // Reads up to `size` situations; at a bad one, those before it and the error. (They
    // are scored first, so that the error raised is always the first bad situation's.)
    // With `collect`, a bad one is put aside and reading goes on.
    // Also says whether the list ended.
    let mut read_chunk = |size: usize| -> (S::Read, usize, Option<PyErr>, bool) {
        let mut read = S::Read::default();
        let (mut taken, mut kept) = (0, 0);
        while taken < size {
            let Some((i, item)) = items.next() else { break };
            taken += 1;
            let situation = item.and_then(|item| {
                let d = item.cast::<PyDict>().map_err(|_| hand_error(py, "must be a dict"))?;
                scorer.read_dict(d, &mut read)
            });
            match situation {
                Ok(()) => kept += 1,
                Err(e) if collect => refused.borrow_mut().push_back((i, e.value(py).to_string())),
                Err(e) => return (read, kept, Some(super::errors::in_row(py, e, "situation", i)), true),
            }
        }
        (read, kept, None, taken < size)
    };
    // The results, made a list at the end (at its length, with no list grown item by item).
    // (A list's or tuple's length, not a `__len__` that might claim any.)
    let known = situations.cast::<PyList>().map(|l| l.len()).or_else(|_| situations.cast::<PyTuple>().map(|t| t.len()));
    let mut out: Vec<Bound<'py, PyAny>> = Vec::with_capacity(known.unwrap_or(0));
    // The answers of the situations put aside up to the next to answer.
    let put_aside = |out: &mut Vec<Bound<'py, PyAny>>| -> PyResult<()> {
        loop {
            let mut refused = refused.borrow_mut();
            if refused.front().is_none_or(|(i, _)| *i != out.len()) {
                return Ok(());
            }
            let message = refused.pop_front().map(|(_, m)| m).unwrap_or_default();
            out.push(error_answer(py, &message, json)?);
        }
    };
    // Appends the results of a chunk, or raises the first error.
    let append = |out: &mut Vec<Bound<'py, PyAny>>, read: &S::Read, results: Vec<CoreResult<S::Scored>>| {
        // A dozen containers a result: collections would start every 60 results.
        let _paused = super::engine::GcPause::new(py);
        for (k, r) in results.into_iter().enumerate() {
            put_aside(out)?;
            match r {
                Ok(r) => out.push(scorer.answer(py, read, k, &r, json)?),
                Err(e) if collect => out.push(error_answer(py, &e.to_string(), json)?),
                Err(e) => return Err(to_py(py, e.in_row("situation", out.len()))),
            }
        }
        put_aside(out)
    };
    let score = |read: &S::Read, n: usize| crate::parallel::map(n, 1, 16, |i| scorer.score(read, i));
    // Short lists, and any list when threads are off, are read, scored and answered in
    // chunks small enough to stay in cache.
    if !crate::parallel::enabled() || situations.len().unwrap_or(0) < S::PARALLEL_MIN {
        loop {
            // Ctrl-C stops the batch between chunks.
            py.check_signals()?;
            let (read, n, bad, ended) = read_chunk(SMALL_CHUNK);
            let results = py.detach(|| (0..n).map(|i| scorer.score(&read, i)).collect());
            append(&mut out, &read, results)?;
            match bad {
                Some(e) => return Err(e),
                None if ended => return PyList::new(py, out),
                None => {}
            }
        }
    }
    // With threads, reading and answering (which need the GIL) go on here while the chunk
    // before is scored on the pool; waiting for it releases the GIL.
    std::thread::scope(|scope| -> PyResult<()> {
        let (to_scorer, inbox) = std::sync::mpsc::channel::<(S::Read, usize)>();
        let (to_main, mut scored) = std::sync::mpsc::channel::<(S::Read, Vec<CoreResult<S::Scored>>)>();
        scope.spawn(move || {
            for (read, n) in inbox {
                let results = score(&read, n);
                if to_main.send((read, results)).is_err() {
                    break;
                }
            }
        });
        let (mut in_flight, mut done) = (0, false);
        let mut bad = None;
        loop {
            py.check_signals()?;
            // Two chunks ahead: one being scored, one waiting.
            while in_flight < 2 && !done {
                let (read, n, error, ended) = read_chunk(CHUNK);
                (done, bad) = (ended, error);
                if n == 0 {
                    continue;
                }
                if to_scorer.send((read, n)).is_err() {
                    break;
                }
                in_flight += 1;
            }
            if in_flight == 0 {
                put_aside(&mut out)?;
                return bad.map_or(Ok(()), Err);
            }
            let (receiver, results) = py.detach(move || {
                let results = scored.recv();
                (scored, results)
            });
            scored = receiver;
            in_flight -= 1;
            let (read, results) = results.map_err(|_| hand_error(py, "the scoring thread stopped"))?;
            append(&mut out, &read, results)?;
        }
    })?;
    PyList::new(py, out)
}

/// Rows read and scored as one run of columns: small enough that the pool starts early
/// and shares the work evenly, big enough that handing a run over costs little.
pub const RUN: usize = 128;

/// Runs read and waiting to be scored, at most (about 8,000 rows).
const WAITING_RUNS: usize = 64;

/// How often the calling thread, waiting for the pool's last runs, lets Ctrl-C be heard.
const SIGNAL_POLL: std::time::Duration = std::time::Duration::from_millis(50);

/// Columns of rows below this are scored on the calling thread.
const COLUMNS_PARALLEL_MIN: usize = 64;

/// A scorer of `evaluate_many`'s columns, with the call's format and options.
pub trait ColumnScorer: Sync {
    /// The columns of one call, ready to be read a run of rows at a time.
    type Table<'py>;
    /// A run of rows read with the GIL, owned so that another thread scores them.
    type Run: Send;

    /// Checks the columns' names and lengths: the table, and its number of rows.
    fn table<'py>(&self, columns: &Bound<'py, PyDict>) -> PyResult<(Self::Table<'py>, usize)>;
    /// The `fans` columns: one a pattern.
    fn patterns(&self) -> usize;
    /// Reads the rows `rows` of the table (at most [`RUN`]): the run, and the rows in it
    /// that cannot be read (by place in the run, in order) with their errors, naming the
    /// key. Such a row is not scored; without `collect` the first is raised before any
    /// row that cannot be scored. (A scorer that reads each row's values as it scores it
    /// gives their errors from [`ColumnScorer::score`] instead.)
    fn read(&self, table: &Self::Table<'_>, rows: std::ops::Range<usize>) -> PyResult<(Self::Run, Refused)>;
    /// Scores row `k` of `run` into `out` (without the GIL), or gives the row's error,
    /// naming its key.
    fn score(&self, run: &Self::Run, k: usize, out: RowOut<'_>) -> CoreResult<()>;
}

/// The rows of a run that cannot be read, by place in the run, with their errors.
pub type Refused = Vec<(usize, HandError)>;

/// The places of one row's score in the output columns.
pub struct RowOut<'a> {
    pub win: &'a mut bool,
    pub total: &'a mut i32,
    pub fans: &'a mut [u8],
}

impl RowOut<'_> {
    /// A regional scheme's score: its win, its total (0 for a hand that is not
    /// complete) and the counts of its patterns.
    pub fn put(self, s: &crate::score::evaluate::Scored) {
        *self.win = s.win;
        *self.total = if s.complete { s.total } else { 0 };
        for (j, n) in s.fans() {
            self.fans[j] = n;
        }
    }
}

/// A run read, and where its rows' scores go.
struct Job<'o, R> {
    start: usize,
    run: R,
    /// The places of the rows that cannot be read: not scored.
    refused: Vec<usize>,
    win: &'o mut [bool],
    total: &'o mut [i32],
    fans: &'o mut [u8],
}

/// Scores columns: `columns` maps situation keys to equal-length sequences or numpy
/// arrays. Returns a dict of numpy arrays `win` (bool), `total` (int32) and `fans` (n x
/// patterns, uint8 counts), and with `collect` `error` (None or the message, by row).
/// Without `collect`, the first bad row raises `HandError` naming the row and the key.
///
/// Reading needs the GIL and scoring does not, so this thread reads runs of rows and
/// hands them to the pool's threads; once all are read it scores what is left alongside
/// them.
pub fn evaluate_columns<'py, S: ColumnScorer>(
    py: Python<'py>,
    scorer: &S,
    columns: &Bound<'py, PyAny>,
    collect: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let columns = columns.cast::<PyDict>().map_err(|_| hand_error(py, "columns must be a dict of sequences"))?;
    let (table, n) = scorer.table(columns)?;
    let patterns = scorer.patterns();
    let width = patterns.max(1);
    let (mut win, mut total, mut fans) = (vec![false; n], vec![0i32; n], vec![0u8; n * width]);
    // The rows that cannot be scored: all of them with `collect`, else the first.
    let bad: Mutex<Vec<(usize, HandError)>> = Mutex::new(vec![]);
    let read_error = {
        let keep = |found: Vec<(usize, HandError)>| {
            if found.is_empty() {
                return;
            }
            let mut bad = bad.lock().unwrap_or_else(PoisonError::into_inner);
            if collect {
                bad.extend(found);
            } else if let Some((i, e)) = found.into_iter().next() {
                if bad.first().is_none_or(|(j, _)| i < *j) {
                    *bad = vec![(i, e)];
                }
            }
        };
        let score = |job: Job<'_, S::Run>| {
            let Job { start, run, refused, win, total, fans } = job;
            let outs = win.iter_mut().zip(total.iter_mut()).zip(fans.chunks_mut(width));
            let mut found = vec![];
            let mut refused = refused.into_iter().peekable();
            for (k, ((win, total), fans)) in outs.enumerate() {
                if refused.next_if_eq(&k).is_some() {
                    continue;
                }
                if let Err(e) = scorer.score(&run, k, RowOut { win, total, fans }) {
                    found.push((start + k, e));
                    if !collect {
                        break;
                    }
                }
            }
            keep(found);
        };
        let runs = win.chunks_mut(RUN).zip(total.chunks_mut(RUN)).zip(fans.chunks_mut(RUN * width));
        // The pool's threads score while this one reads, and this one joins them once
        // all is read. (Measured on two cores: leaving a core to the reader instead
        // made the time vary more from call to call, and its mean worse.)
        let pool = crate::parallel::pool().filter(|_| n >= COLUMNS_PARALLEL_MIN);
        let helpers = pool.map_or(0, |p| p.current_num_threads());
        // At most this many runs wait to be scored, so that memory stays bounded however
        // long the columns: the reader waits (without the GIL) when they are all taken.
        let (to_score, queue) = mpsc::sync_channel::<Job<'_, S::Run>>(WAITING_RUNS);
        let queue = Mutex::new(queue);
        // Set when the reading stops short (Ctrl-C): the runs waiting are not scored.
        let stop = AtomicBool::new(false);
        // Scores runs until none are left to take.
        let work = || loop {
            let job = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
            let Ok(job) = job else { break };
            if !stop.load(Ordering::Relaxed) {
                score(job);
            }
        };
        let (finished, done) = mpsc::channel::<()>();
        // Reads every run (once `start_helpers` has set the pool's threads scoring), then
        // scores what is left.
        let read_all = |start_helpers: &mut dyn FnMut()| {
            start_helpers();
            let mut read_error = None;
            for (k, ((win, total), fans)) in runs.enumerate() {
                // Ctrl-C stops the reading; what was read is scored, a few runs at most.
                if let Err(e) = py.check_signals() {
                    read_error = Some(e);
                    break;
                }
                let start = k * RUN;
                let (run, refused) = match scorer.read(&table, start..start + win.len()) {
                    Ok(read) => read,
                    Err(e) => {
                        read_error = Some(e);
                        break;
                    }
                };
                if let Some((k, e)) = refused.first().filter(|_| !collect) {
                    read_error = Some(to_py(py, e.clone().in_row("row", start + k)));
                    break;
                }
                let places = refused.iter().map(|(k, _)| *k).collect();
                // (With `collect`: each is its row's error.)
                bad.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .extend(refused.into_iter().map(|(k, e)| (start + k, e)));
                let job = Job { start, run, refused: places, win, total, fans };
                // Without threads each run is scored as soon as it is read.
                if helpers == 0 {
                    py.detach(|| score(job));
                    continue;
                }
                let sent = match to_score.try_send(job) {
                    Err(mpsc::TrySendError::Full(job)) => py.detach(|| to_score.send(job).is_ok()),
                    sent => sent.is_ok(),
                };
                if !sent {
                    break;
                }
            }
            drop(to_score);
            stop.store(read_error.is_some(), Ordering::Relaxed);
            // The rest is scored here too, a run at a time without the GIL, until every
            // helper is done; Ctrl-C is still heard between runs (up to `WAITING_RUNS`
            // runs wait: seconds of the slowest rows), and then the runs left are dropped.
            let heard = |read_error: &mut Option<PyErr>| {
                if read_error.is_none() {
                    if let Err(e) = py.check_signals() {
                        *read_error = Some(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            };
            // One run taken and scored without the GIL, then the signals: true while
            // runs are left.
            let one = || {
                let Ok(job) = queue.lock().unwrap_or_else(PoisonError::into_inner).recv() else { return false };
                if !stop.load(Ordering::Relaxed) {
                    score(job);
                }
                true
            };
            while py.detach(one) {
                heard(&mut read_error);
            }
            let (mut left, mut done) = (helpers, done);
            while left > 0 {
                let (receiver, got) = py.detach(move || {
                    let got = done.recv_timeout(SIGNAL_POLL);
                    (done, got)
                });
                done = receiver;
                match got {
                    Ok(()) => left -= 1,
                    Err(mpsc::RecvTimeoutError::Timeout) => heard(&mut read_error),
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
            read_error
        };
        match pool {
            Some(pool) => pool.in_place_scope(|scope| {
                read_all(&mut || {
                    for _ in 0..helpers {
                        let finished = finished.clone();
                        scope.spawn(move |_| {
                            work();
                            let _ = finished.send(());
                        });
                    }
                })
            }),
            None => read_all(&mut || {}),
        }
    };
    if let Some(e) = read_error {
        return Err(e);
    }
    let mut bad = bad.into_inner().unwrap_or_else(PoisonError::into_inner);
    if !collect {
        if let Some((i, e)) = bad.pop() {
            return Err(to_py(py, e.in_row("row", i)));
        }
    }
    fans.truncate(n * patterns);
    let d = PyDict::new(py);
    d.set_item("win", PyArray1::from_vec(py, win))?;
    d.set_item("total", PyArray1::from_vec(py, total))?;
    let fans: Bound<'py, PyArray2<u8>> = PyArray1::from_vec(py, fans).reshape([n, patterns])?;
    d.set_item("fans", fans)?;
    if collect {
        let errors = py.import("numpy")?.call_method1("full", (n, py.None(), "object"))?;
        for (i, e) in bad {
            errors.set_item(i, e.to_string())?;
        }
        d.set_item("error", errors)?;
    }
    Ok(d)
}
