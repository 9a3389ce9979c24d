//! Long batches that Ctrl-C stops: the work runs a run at a time with the GIL released
//! (`crate::parallel::Runs`, about 50 ms each), and between runs, with the GIL, Python's
//! signal handlers run. A `KeyboardInterrupt` (or whatever a handler raises) then ends
//! the batch and is raised by the call.

use std::ops::Range;

use pyo3::prelude::*;

use super::errors::IntoPy;
use crate::error::Result as CoreResult;
use crate::parallel::Runs;

/// Runs `work` on `0..n` a run at a time (`Runs`: about 50 ms each, the first at most
/// `first` items), without the GIL; stops at the first error `work` returns or a signal
/// handler raises.
pub fn in_runs(
    py: Python<'_>,
    n: usize,
    first: usize,
    mut work: impl FnMut(Range<usize>) -> CoreResult<()> + Send,
) -> PyResult<()> {
    for run in Runs::new(n, first) {
        py.detach(|| work(run)).py_err(py)?;
        py.check_signals()?;
    }
    Ok(())
}
