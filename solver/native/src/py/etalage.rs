//! Etalage's kernel as seen from Python: `EtalageKernel(table_entries).solve(...)`.

use crate::games::etalage::{BoundTable, Searches, State};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

/// What `solve` returns: (lower, upper, line, nodes, seconds): proven bounds on what the focus
/// player still takes, and when they meet a line realising it (card ids for plays, 100 + colour
/// for picks).
type Answer = (i32, i32, Vec<u8>, u64, f64);

/// A cap on helper threads, so that an absurd count cannot exhaust the threads a process may have.
const MAX_HELPERS: usize = 255;

/// The guaranteed-score and cooperative searches, keeping one table of proven bounds between
/// calls (its keys are exact and name the focus player and the search kind, so any position
/// of any deal may share it). Searches in several Python threads may run at once and share it.
#[pyclass(frozen)]
struct EtalageKernel {
    table: BoundTable,
    searches: Searches,
}

#[pymethods]
impl EtalageKernel {
    #[new]
    #[pyo3(signature = (table_entries = 3 << 20))]
    fn new(table_entries: usize) -> PyResult<Self> {
        Ok(EtalageKernel { table: BoundTable::new(table_entries).map_err(PyValueError::new_err)?, searches: Searches::default() })
    }

    /// Bytes held by the table of proven bounds.
    #[getter]
    fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// What `focus` (0-based) still takes from a position: the display and hands as card ids,
    /// the leader (0-based), the trick's cards from the leader on, the picks made in its
    /// distribution; against every other player (`cooperative` false) or helped by all.
    /// With `helpers` (at most `MAX_HELPERS`), that many more threads search the same root on
    /// the same table in other orders (`solve_together`); more may join it later (`help`).
    /// Under a node limit the search runs alone (`Searches::solve`), so that it counts none past it.
    #[pyo3(signature = (display, hands, leader, trick, picked, focus, cooperative = false, node_limit = 0,
                        time_limit = None, helpers = 0))]
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &self,
        py: Python<'_>,
        display: Vec<u8>,
        hands: Vec<Vec<u8>>,
        leader: usize,
        trick: Vec<u8>,
        picked: usize,
        focus: usize,
        cooperative: bool,
        node_limit: u64,
        time_limit: Option<f64>,
        helpers: usize,
    ) -> PyResult<Answer> {
        let root = State::new(&display, &hands, leader, &trick, picked).map_err(PyValueError::new_err)?;
        if focus >= hands.len() {
            return Err(PyValueError::new_err(format!("focus player {focus} of {}", hands.len())));
        }
        let budget = super::budget(node_limit, time_limit)?;
        let answer = py.detach(|| {
            self.searches.solve(&self.table, budget, focus as u8, cooperative, &root, helpers.min(MAX_HELPERS))
        });
        if answer.interrupted {
            return Err(PyKeyboardInterrupt::new_err("search interrupted"));
        }
        Ok((answer.lower, answer.upper, answer.line, answer.nodes, answer.seconds))
    }

    /// Helps the `solve` under way in another thread with the fewest helpers, searching its
    /// root on the same table in another order until it returns (or `time_limit` runs out):
    /// for a thread whose own searches are done. The nodes searched; 0 when no search is
    /// under way.
    #[pyo3(signature = (time_limit = None))]
    fn help(&self, py: Python<'_>, time_limit: Option<f64>) -> PyResult<u64> {
        let budget = super::budget(0, time_limit)?;
        Ok(py.detach(|| self.searches.help(&self.table, budget)))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EtalageKernel>()
}
