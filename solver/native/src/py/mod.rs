//! The bindings Python calls (`solver._native`): the kernels of the column games (`Kernel`),
//! of The Game, of Sir Tommy, of Etalage and of Quick & Easy, the seeded shuffle and deals, and the budget every search
//! takes from Python.

mod etalage;
mod kernel;
mod quick_and_easy;
mod sir_tommy;
mod the_game;

use crate::games::GameKind;
use crate::search::{rng, Budget};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The shuffled order of `0..n` for `seed` (SplitMix64, Fisher–Yates from the end). An `n`
/// beyond the `u32` items, or beyond memory, is an error (it was cut to 32 bits, or aborted).
#[pyfunction]
fn shuffled(seed: u64, n: usize) -> PyResult<Vec<u32>> {
    let count = u32::try_from(n).map_err(|_| PyValueError::new_err(format!("cannot shuffle {n} items; at most {}", u32::MAX)))?;
    let mut items: Vec<u32> = Vec::new();
    items.try_reserve_exact(n).map_err(|_| PyValueError::new_err(format!("{n} items do not fit in this machine's memory")))?;
    items.extend(0..count);
    rng::shuffle(&mut items, seed);
    Ok(items)
}

/// The seeded deal of `game` as lists of card ids (see `GameKind::deal`).
#[pyfunction]
fn deal(game: &str, seed: u64) -> PyResult<Vec<Vec<u8>>> {
    game.parse::<GameKind>().and_then(|kind| kind.deal(seed)).map_err(PyValueError::new_err)
}

/// Set while Python asks every running search to stop (`stop_searches`).
static STOP_SEARCHES: AtomicBool = AtomicBool::new(false);

/// Asks every search running in any thread to stop as if interrupted (`stop` true), or lets
/// searches run again (false). Python's signal handlers run in its main thread only, so when
/// searches run in other threads the main thread catches Ctrl-C and stops them with this.
#[pyfunction]
fn stop_searches(stop: bool) {
    STOP_SEARCHES.store(stop, Ordering::Relaxed);
}

/// Whether Ctrl-C (or another signal whose Python handler raises) arrived during a search, or
/// Python asked every search to stop.
fn signal_pending() -> bool {
    STOP_SEARCHES.load(Ordering::Relaxed) || Python::attach(|py| py.check_signals().is_err())
}

/// The budget of one search from Python's limits: `node_limit` 0 is no node limit, a
/// `time_limit` of None, infinity or beyond what a `Duration` holds is no time limit, and a
/// negative or NaN time limit is an error (never a panic).
pub(crate) fn budget(node_limit: u64, time_limit: Option<f64>) -> PyResult<Budget> {
    let time_limit = match time_limit {
        Some(seconds) if seconds.is_nan() || seconds < 0.0 => {
            return Err(PyValueError::new_err(format!("time limit {seconds} is not a number of seconds >= 0")));
        }
        Some(seconds) => Duration::try_from_secs_f64(seconds).ok(),
        None => None,
    };
    Ok(Budget { node_limit, time_limit, interrupted: Some(signal_pending) })
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(shuffled, m)?)?;
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    m.add_function(wrap_pyfunction!(stop_searches, m)?)?;
    kernel::register(m)?;
    the_game::register(m)?;
    sir_tommy::register(m)?;
    etalage::register(m)?;
    quick_and_easy::register(m)?;
    Ok(())
}
