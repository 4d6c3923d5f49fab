//! winnable's search kernels, exposed to Python as `solver._native`.

pub mod rng;
pub mod search;
pub mod table;
pub mod twaalven;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use search::{Budget, Outcome};
use std::time::Duration;
use table::LostTable;

/// The shuffled order of `0..n` for `seed` (SplitMix64, Fisher–Yates from the end).
#[pyfunction]
fn shuffled(seed: u64, n: usize) -> Vec<u32> {
    let mut items: Vec<u32> = (0..n as u32).collect();
    rng::shuffle(&mut items, seed);
    items
}

/// The seeded Twaalven en veertienen deal: 13 columns of card ids, bottom card first.
#[pyfunction]
fn twaalven_deal(seed: u64) -> Vec<Vec<u8>> {
    twaalven::deal(seed)
}

fn budget(node_limit: u64, time_limit: Option<f64>) -> Budget {
    Budget { node_limit, time_limit: time_limit.map(Duration::from_secs_f64) }
}

/// The memoised DFS for Twaalven en veertienen, keeping its table of lost positions between
/// calls on positions of the same layout (as `analyse` makes).
#[pyclass]
struct TwaalvenKernel {
    table: LostTable,
    /// The columns the table's keys refer to: every later root must be a prefix of them.
    layout: Vec<Vec<u8>>,
}

#[pymethods]
impl TwaalvenKernel {
    #[new]
    #[pyo3(signature = (table_entries = 1 << 22))]
    fn new(table_entries: usize) -> Self {
        TwaalvenKernel { table: LostTable::new(table_entries), layout: Vec::new() }
    }

    /// Bytes held by the transposition table.
    #[getter]
    fn table_bytes(&self) -> usize {
        self.table.capacity() * 8
    }

    /// Searches the position; returns (verdict, line as (column, column) pairs, nodes, seconds).
    #[pyo3(signature = (columns, to_move, node_limit = 0, time_limit = None))]
    fn solve(
        &mut self,
        py: Python<'_>,
        columns: Vec<Vec<u8>>,
        to_move: u8,
        node_limit: u64,
        time_limit: Option<f64>,
    ) -> PyResult<(&'static str, Vec<(u8, u8)>, u64, f64)> {
        let game = twaalven::Twaalven::new(&columns, to_move).map_err(PyValueError::new_err)?;
        let Some(mut game) = game else {
            return Ok((Outcome::Lost.name(), Vec::new(), 0, 0.0));
        };
        let same_layout = self.layout.len() == columns.len()
            && self.layout.iter().zip(&columns).all(|(full, now)| full.starts_with(now));
        if !same_layout {
            self.table.clear();
            self.layout = columns;
        }
        let table = &mut self.table;
        let result = py.detach(|| search::solve(&mut game, table, budget(node_limit, time_limit)));
        let line = result.line.iter().map(|m| (m.first, m.second)).collect();
        Ok((result.outcome.name(), line, result.nodes, result.seconds))
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(shuffled, m)?)?;
    m.add_function(wrap_pyfunction!(twaalven_deal, m)?)?;
    m.add_class::<TwaalvenKernel>()?;
    Ok(())
}
