//! The thread pool every batch runs on, the switch that turns it off, and the runs a long
//! batch is cut into so that its caller can stop between them.
//!
//! One pool per process, made by the first batch that wants threads. A child made by
//! `fork` has only the thread that forked: the parent's pool threads are not in it, and a
//! job handed to their queue would wait for ever. So the pool is kept with the number of
//! forks this process descends from (counted by a handler `pthread_atfork` runs in each
//! child) and the process id; a child finds them changed and makes a pool of its own. The
//! parent's is left as it is: dropping it would signal threads that are not there, on
//! locks that may have been held when the process forked.
//!
//! `HAIDI_PARALLELISM` set to `0`, `false`, `off` or `no` runs every batch on the calling
//! thread; `RAYON_NUM_THREADS` sets the pool's size (by default, one thread a core).

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rayon::ThreadPool;

/// Whether batches may use the pool (`HAIDI_PARALLELISM`, read at each call).
pub fn enabled() -> bool {
    !matches!(
        std::env::var("HAIDI_PARALLELISM").as_deref().map(str::to_ascii_lowercase).as_deref(),
        Ok("0") | Ok("false") | Ok("off") | Ok("no")
    )
}

/// The pool of this process, or `None` when threads are off or cannot be started.
pub fn pool() -> Option<&'static ThreadPool> {
    if enabled() {
        current()
    } else {
        None
    }
}

/// `f(i)` for each `i` in `0..n`, spread over the pool (in pieces of at least `min_len`)
/// when there are at least `min` and threads are on.
pub fn map<T: Send>(n: usize, min: usize, min_len: usize, f: impl Fn(usize) -> T + Sync + Send) -> Vec<T> {
    match pool().filter(|_| n >= min) {
        Some(pool) => pool.install(|| (0..n).into_par_iter().with_min_len(min_len).map(f).collect()),
        None => (0..n).map(f).collect(),
    }
}

/// A pool and the process it was made in.
struct Made {
    forks: usize,
    pid: u32,
    pool: ThreadPool,
}

/// Forks since the program started, counted in each child as it starts.
static FORKS: AtomicUsize = AtomicUsize::new(0);
/// The pool made last: null, or a [`Made`] from `Box::into_raw` that is never freed.
static POOL: AtomicPtr<Made> = AtomicPtr::new(std::ptr::null_mut());

fn current() -> Option<&'static ThreadPool> {
    let (forks, pid) = (FORKS.load(Ordering::Acquire), std::process::id());
    let made = POOL.load(Ordering::Acquire);
    // SAFETY: `POOL` holds null or a pointer from `Box::into_raw` that is never freed.
    if let Some(m) = unsafe { made.as_ref() } {
        if m.forks == forks && m.pid == pid {
            return Some(&m.pool);
        }
    }
    watch_forks();
    let pool = rayon::ThreadPoolBuilder::new().thread_name(|i| format!("haidi-{i}")).build().ok()?;
    let fresh = Box::into_raw(Box::new(Made { forks, pid, pool }));
    match POOL.compare_exchange(made, fresh, Ordering::AcqRel, Ordering::Acquire) {
        // What `fresh` replaced, if anything, is a parent's pool: left alone (see above).
        // SAFETY: `fresh` is now in `POOL`, which never frees what it holds.
        Ok(_) => Some(unsafe { &(*fresh).pool }),
        Err(_) => {
            // Another thread made one first: this one is dropped, its threads ended.
            // SAFETY: `fresh` came from `Box::into_raw` above and was never shared.
            drop(unsafe { Box::from_raw(fresh) });
            current()
        }
    }
}

/// Has each child made by `fork` count itself in [`FORKS`], once per process. Before any
/// pool is made, so that no pool goes without it. (Should two threads race here, the
/// handler is registered twice and a fork counts twice, which changes nothing.)
#[cfg(unix)]
fn watch_forks() {
    static WATCHING: AtomicBool = AtomicBool::new(false);
    if WATCHING.load(Ordering::Acquire) {
        return;
    }
    extern "C" fn forked() {
        FORKS.fetch_add(1, Ordering::AcqRel);
    }
    extern "C" {
        fn pthread_atfork(
            prepare: Option<extern "C" fn()>,
            parent: Option<extern "C" fn()>,
            child: Option<extern "C" fn()>,
        ) -> std::ffi::c_int;
    }
    // SAFETY: `pthread_atfork` only records the handlers. `forked` does one atomic add, as
    // a handler run in a child that may have been forked from any state must, and it stays
    // loaded for the life of the process (Python never unloads an extension module). Should
    // registering fail, the process id still tells a child from its parent.
    let registered = unsafe { pthread_atfork(None, None, Some(forked)) } == 0;
    WATCHING.store(registered, Ordering::Release);
}

#[cfg(not(unix))]
fn watch_forks() {}

/// How long a run of a batch should take: short enough that a caller looking for Ctrl-C
/// between runs answers at once, long enough that starting runs costs nothing to speak of.
pub const RUN_TIME: Duration = Duration::from_millis(50);

/// The longest first run: its pace is not known yet, and a row may take milliseconds (a
/// Tangshan situation with eight 混), so the first run is short and later ones grow.
pub const FIRST_RUN: usize = 8;

/// `0..n` cut into runs of about [`RUN_TIME`] each, judged by how long the run before
/// took (the time between two calls of `next`): the first at most `min(first,
/// FIRST_RUN)` items, each later one at most four times the one before. So a batch of
/// slow rows is never a long run of them, whatever the caller's `first`.
pub struct Runs {
    n: usize,
    start: usize,
    size: usize,
    since: Option<Instant>,
}

impl Runs {
    pub fn new(n: usize, first: usize) -> Runs {
        Runs { n, start: 0, size: first.clamp(1, FIRST_RUN), since: None }
    }
}

impl Iterator for Runs {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        if self.start >= self.n {
            return None;
        }
        if let Some(since) = self.since {
            let took = since.elapsed().as_secs_f64();
            let last = self.size as f64;
            // The pace of the run before, growing at most fourfold a run: a few fast rows
            // may be followed by slow ones.
            let want = if took > 0.0 { last * RUN_TIME.as_secs_f64() / took } else { 4.0 * last };
            self.size = (want.min(4.0 * last) as usize).max(1);
        }
        let start = self.start;
        let mut end = start.saturating_add(self.size).min(self.n);
        // No last run shorter than a quarter of this one: it joins this one.
        if self.n - end < self.size / 4 {
            end = self.n;
        }
        self.start = end;
        self.since = Some(Instant::now());
        Some(start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_cover_the_batch_once_in_order() {
        for (n, min) in [(0, 10), (1, 10), (10, 10), (25, 10), (1000, 7), (100_000, 64)] {
            let mut next = 0;
            for r in Runs::new(n, min) {
                assert_eq!(r.start, next);
                assert!(r.end > r.start && r.end <= n);
                // The first run is short, whatever `min` says: its pace is not known.
                assert!(r.start > 0 || r.len() < FIRST_RUN + FIRST_RUN / 4, "{r:?}");
                next = r.end;
            }
            assert_eq!(next, n);
        }
    }

    #[test]
    fn runs_grow_when_fast_and_shrink_when_slow() {
        let mut runs = Runs::new(1 << 30, 16);
        let first = runs.next().unwrap();
        let second = runs.next().unwrap();
        assert!(second.len() > first.len() && second.len() <= 4 * first.len(), "{second:?}");
        std::thread::sleep(2 * RUN_TIME);
        let third = runs.next().unwrap();
        assert!(third.len() < second.len() && !third.is_empty(), "{third:?}");
    }

    #[test]
    fn the_pool_is_made_once_and_again_in_a_forked_child() {
        let parent = current().unwrap() as *const ThreadPool;
        assert_eq!(parent, current().unwrap() as *const ThreadPool);
        let squares = map(10_000, 1, 16, |i| i * i);
        assert!(squares.iter().enumerate().all(|(i, &s)| s == i * i));
        // What the handler does in a child: the parent's pool is then not used.
        FORKS.fetch_add(1, Ordering::AcqRel);
        let child = current().unwrap() as *const ThreadPool;
        assert_ne!(parent, child);
        assert_eq!(map(5000, 1, 1, |i| i).len(), 5000);
    }
}
