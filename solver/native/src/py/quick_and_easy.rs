//! Quick & Easy's kernel as seen from Python: `quick_and_easy_solve(...)`.

use crate::games::quick_and_easy::{Rules, Searcher, State, NONE};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

/// (most cards played, exact, line, nodes, seconds); the line as (card, pile) pairs, pile 0 up and
/// 1 down, and (255, 255) for "end turn".
type Answer = (u8, bool, Vec<(u8, u8)>, u64, f64);

/// The most cards played from a position: hands (one list of cards per player), the draw pile
/// (next card first), the pile tops (255 for an empty pile), the player to move (0-based), the
/// cards they played this turn, the professional variant, the budget and the table's size.
#[pyfunction]
#[pyo3(signature = (hands, draw, piles, to_move, played = 0, pro = false, node_limit = 0, time_limit = None,
                    table_entries = 1 << 21))]
#[allow(clippy::too_many_arguments)]
fn quick_and_easy_solve(
    py: Python<'_>,
    hands: Vec<Vec<u8>>,
    draw: Vec<u8>,
    piles: [u8; 2],
    to_move: usize,
    played: u8,
    pro: bool,
    node_limit: u64,
    time_limit: Option<f64>,
    table_entries: usize,
) -> PyResult<Answer> {
    let rules = Rules { draw, players: hands.len(), per_turn: if pro { 1 } else { 2 } };
    let root = State::new(&rules, &hands, piles, to_move, played).map_err(PyValueError::new_err)?;
    let budget = super::budget(node_limit, time_limit)?;
    let answer = py.detach(|| Searcher::new(&rules, table_entries, budget).solve(&root));
    if answer.interrupted {
        return Err(PyKeyboardInterrupt::new_err("search interrupted"));
    }
    let line = answer.line.iter().map(|m| if m.card == NONE { (NONE, NONE) } else { (m.card, m.pile) }).collect();
    Ok((answer.played, answer.exact, line, answer.nodes, answer.seconds))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(quick_and_easy_solve, m)?)
}
