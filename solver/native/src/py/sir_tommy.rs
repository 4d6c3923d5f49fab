//! Python face of the Sir Tommy voor twee kernel (`solver._native.SirTommyKernel`).

use crate::search;
use crate::games::sir_tommy::{self, Move, SirTommy, FOUNDATIONS};
use crate::search::table::LostTable;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

/// A kernel line's move: (kind, player, card, row, foundation, placements) with kind 0 a play
/// (row 255 = from the hand) and kind 1 an end of turn placing (card, row) pairs in order.
type PyMove = (u8, u8, u8, u8, u8, Vec<(u8, u8)>);

fn to_py(mv: &Move) -> PyMove {
    match *mv {
        Move::Play { player, card, row, foundation, .. } => (0, player, card, row, foundation, Vec::new()),
        Move::EndTurn { placements, count, .. } => (1, 0, 0, 0, 0, placements[..count as usize].to_vec()),
    }
}

/// The search over one deal; its table of lost positions is kept while the roots searched are
/// positions of the same deal (same stock tail, rows and deck), as `analyse` and `--maximise` make.
#[pyclass]
struct SirTommyKernel {
    table: LostTable<[u64; 5]>,
    /// The stock of the first root since the table was cleared, and the rows and top rank.
    layout: (Vec<u8>, usize, u8),
}

#[pymethods]
impl SirTommyKernel {
    #[new]
    #[pyo3(signature = (table_entries = 1 << 22))]
    fn new(table_entries: usize) -> PyResult<Self> {
        Ok(SirTommyKernel { table: LostTable::new(table_entries).map_err(PyValueError::new_err)?, layout: (Vec::new(), 0, 0) })
    }

    #[getter]
    fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Searches a position: stock (top first), hand, rows (bottom first), each player's four
    /// foundation tops as ranks (0 = empty), the mover (0 = U) and the deck's top rank.
    /// `seed` draws the restart runs' orders. Returns (verdict, line, nodes, seconds).
    #[pyo3(signature = (stock, hand, rows, tops_u, tops_d, to_move, top_rank = 13, node_limit = 0, time_limit = None, seed = 0))]
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &mut self,
        py: Python<'_>,
        stock: Vec<u8>,
        hand: Vec<u8>,
        rows: Vec<Vec<u8>>,
        tops_u: [u8; FOUNDATIONS],
        tops_d: [u8; FOUNDATIONS],
        to_move: u8,
        top_rank: u8,
        node_limit: u64,
        time_limit: Option<f64>,
        seed: u64,
    ) -> PyResult<(&'static str, Vec<PyMove>, u64, f64)> {
        let mut game = SirTommy::new(&stock, &hand, &rows, [tops_u, tops_d], to_move, top_rank)
            .and_then(|game| game.check_mover().map(|()| game))
            .map_err(PyValueError::new_err)?;
        let (known, known_rows, known_top) = &self.layout;
        if !(known.ends_with(&stock) && *known_rows == rows.len() && *known_top == top_rank) {
            self.table.clear();
            self.layout = (stock.clone(), rows.len(), top_rank);
        }
        let budget = super::budget(node_limit, time_limit)?;
        let table = &mut self.table;
        let result = py.detach(|| search::solve_seeded(&mut game, table, budget, seed));
        if result.interrupted {
            return Err(PyKeyboardInterrupt::new_err("search interrupted"));
        }
        let line = result.line.iter().map(to_py).collect();
        Ok((result.outcome.name(), line, result.nodes, result.seconds))
    }
}

/// The seeded stock, top card first.
#[pyfunction]
fn sir_tommy_deal(seed: u64) -> Vec<u8> {
    sir_tommy::deal(seed)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SirTommyKernel>()?;
    m.add_function(wrap_pyfunction!(sir_tommy_deal, m)?)?;
    Ok(())
}
