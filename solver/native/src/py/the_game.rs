//! The Game's kernel as seen from Python: `TheGameKernel(table_entries).solve(...)`.

use crate::games::the_game::{self, BoundTable, Rules, Solver, PILES};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

/// What `solve` returns: (best, lower_bound, optimal, line, nodes, seconds, beam_best), the line
/// as (card, pile) pairs with piles 0 up1, 1 up2, 2 down1, 3 down2 and (0, 0) for "end turn".
type Answer = (u8, u8, bool, Vec<(u8, u8)>, u64, f64, u8);

type RulesId = (Vec<u8>, usize, usize, bool, u8, Option<Vec<(u8, u8)>>);

/// The Game's exact search, keeping its table of proven bounds between calls on the same draw
/// pile and variant (as `analyse` makes).
#[pyclass]
struct TheGameKernel {
    table: BoundTable,
    /// (draw pile, players, hand size, expert, top, Extreme's marks) the table's keys refer to.
    rules: Option<RulesId>,
}

#[pymethods]
impl TheGameKernel {
    #[new]
    #[pyo3(signature = (table_entries = 1 << 22))]
    fn new(table_entries: usize) -> PyResult<Self> {
        Ok(TheGameKernel { table: BoundTable::new(table_entries).map_err(PyValueError::new_err)?, rules: None })
    }

    /// Bytes held by the table of proven bounds.
    #[getter]
    fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// The fewest cards left from a position: hands (one list of cards per player), the draw
    /// pile (next card first), pile tops (up1 up2 down1 down2), the player to move (0-based),
    /// cards they played this turn, the variant, the budget and the beam widths to try first
    /// (by default `Rules::beam_widths`).
    /// The Game: Extreme gives `marks`, (card, instruction) pairs with instructions numbered
    /// from 1 in the reference's order (stop, skull, three, no-talk, no-backwards, same-pile,
    /// draw-one), and mid-turn `turn` = (the turn's pile: 0-3, 4 mixed, 5 none; three; stop).
    #[pyo3(signature = (hands, draw, piles, to_move, played = 0, expert = false, hand_size = 8, top = 99,
                        node_limit = 0, time_limit = None, beam_widths = None,
                        marks = None, turn = (the_game::NO_PILE, false, false)))]
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &mut self,
        py: Python<'_>,
        hands: Vec<Vec<u8>>,
        draw: Vec<u8>,
        piles: [u8; PILES],
        to_move: usize,
        played: u8,
        expert: bool,
        hand_size: usize,
        top: u8,
        node_limit: u64,
        time_limit: Option<f64>,
        beam_widths: Option<Vec<usize>>,
        marks: Option<Vec<(u8, u8)>>,
        turn: (u8, bool, bool),
    ) -> PyResult<Answer> {
        let mut root = the_game::state(&hands, piles, to_move, played).map_err(PyValueError::new_err)?;
        let mut rules = Rules::new(draw.clone(), hands.len(), hand_size, expert, top);
        if let Some(marks) = &marks {
            rules = rules.with_marks(marks).map_err(PyValueError::new_err)?;
            if turn.0 > the_game::NO_PILE {
                return Err(PyValueError::new_err(format!("turn pile {} is out of range", turn.0)));
            }
            (root.turn_pile, root.three, root.stopped) = turn;
        }
        let beam_widths = beam_widths.unwrap_or_else(|| rules.beam_widths().to_vec());
        rules.check(&hands, &root, &beam_widths).map_err(PyValueError::new_err)?;
        let same = (draw, hands.len(), hand_size, expert, top, marks);
        if self.rules.as_ref() != Some(&same) {
            self.table.clear();
            self.rules = Some(same);
        }
        let budget = super::budget(node_limit, time_limit)?;
        let table = &mut self.table;
        let answer = py.detach(|| Solver::new(&rules, table, budget).solve(&root, &beam_widths));
        if answer.interrupted {
            return Err(PyKeyboardInterrupt::new_err("search interrupted"));
        }
        let line = answer.line.iter().map(|m| (m.card, m.pile)).collect();
        Ok((answer.best, answer.lower_bound, answer.optimal(), line, answer.nodes, answer.seconds, answer.beam_best))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TheGameKernel>()
}
