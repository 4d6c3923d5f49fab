//! winnable's search kernels, exposed to Python as `solver._native`.

pub mod one_foundation;
pub mod rng;
pub mod search;
pub mod sir_tommy;
pub mod sir_tommy_py;
pub mod stapelen;
pub mod table;
pub mod tableau;
pub mod the_game;
pub mod the_game_py;
pub mod twaalven;

use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
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

/// Whether Ctrl-C (or another signal whose Python handler raises) arrived during a search.
fn signal_pending() -> bool {
    Python::attach(|py| py.check_signals().is_err())
}

pub(crate) fn budget(node_limit: u64, time_limit: Option<f64>) -> Budget {
    Budget { node_limit, time_limit: time_limit.map(Duration::from_secs_f64), interrupted: Some(signal_pending) }
}

/// The seeded deal of `game` as columns of card ids, bottom card first.
#[pyfunction]
fn deal(game: &str, seed: u64) -> PyResult<Vec<Vec<u8>>> {
    match game {
        "twaalven" => Ok(twaalven::deal(seed)),
        "stapelen" => Ok(stapelen::deal(seed)),
        "all-in-a-row" => Ok(one_foundation::all_in_a_row_deal(seed)),
        "black-hole" => Ok(one_foundation::black_hole_deal(seed)),
        _ => Err(PyValueError::new_err(format!("no kernel for game {game:?}"))),
    }
}

/// A kernel line as pairs of small numbers, as the Python side replays it.
pub trait Notation {
    fn pair(&self) -> (u8, u8);
}

impl Notation for twaalven::Move {
    /// (first column, second column)
    fn pair(&self) -> (u8, u8) {
        (self.first, self.second)
    }
}

impl Notation for stapelen::Move {
    /// (column, foundation of the player to move)
    fn pair(&self) -> (u8, u8) {
        (self.column, self.foundation)
    }
}

impl Notation for one_foundation::Move {
    /// (column, 0)
    fn pair(&self) -> (u8, u8) {
        (self.column, 0)
    }
}

type Answer = (&'static str, Vec<(u8, u8)>, u64, f64);

/// Runs the search without holding the GIL; a Ctrl-C during it comes back as KeyboardInterrupt.
fn run<G>(py: Python<'_>, game: &mut G, table: &mut LostTable, budget: Budget) -> PyResult<Answer>
where
    G: search::Game<Key = u64> + Send,
    G::Move: Notation + Send,
{
    let result = py.detach(|| search::solve(game, table, budget));
    answer(result, false)
}

/// The search's result as Python receives it, its line read backwards when `backwards`.
fn answer<M: Notation>(result: search::SearchResult<M>, backwards: bool) -> PyResult<Answer> {
    if result.interrupted {
        return Err(PyKeyboardInterrupt::new_err("search interrupted"));
    }
    let mut line: Vec<(u8, u8)> = result.line.iter().map(Notation::pair).collect();
    if backwards {
        line.reverse();
    }
    Ok((result.outcome.name(), line, result.nodes, result.seconds))
}

/// As `run`, for a position and its mirror image (see `search::solve_either`): a win found in
/// the mirror is played backwards, which makes it the position's win.
fn run_either<G>(py: Python<'_>, games: &mut [G; 2], table: &mut LostTable, budget: Budget) -> PyResult<Answer>
where
    G: search::Game<Key = u64> + Send,
    G::Move: Notation + Send,
{
    let (result, index) = py.detach(|| search::solve_either(games, table, budget));
    answer(result, index == 1)
}

/// The memoised DFS for one game, keeping its table of lost positions between calls on
/// positions of the same layout (as `analyse` makes).
#[pyclass]
struct Kernel {
    game: String,
    table: LostTable,
    /// The columns the table's keys refer to: every later root must be a prefix of them.
    layout: Vec<Vec<u8>>,
}

#[pymethods]
impl Kernel {
    #[new]
    #[pyo3(signature = (game, table_entries = 1 << 22))]
    fn new(game: String, table_entries: usize) -> PyResult<Self> {
        if !["twaalven", "stapelen", "all-in-a-row", "black-hole"].contains(&game.as_str()) {
            return Err(PyValueError::new_err(format!("no kernel for game {game:?}")));
        }
        Ok(Kernel { game, table: LostTable::new(table_entries), layout: Vec::new() })
    }

    /// Bytes held by the transposition table.
    #[getter]
    fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Searches a position: its columns (bottom card first), the player to move (0 or 1) and
    /// the foundation tops as ranks (0 = empty; Stapelen: the first player's three, then the
    /// second's; one-foundation games: one). Returns (verdict, line, nodes, seconds), the line
    /// as pairs in the game's notation (see `Notation`).
    #[pyo3(signature = (columns, to_move = 0, tops = Vec::new(), node_limit = 0, time_limit = None))]
    fn solve(
        &mut self,
        py: Python<'_>,
        columns: Vec<Vec<u8>>,
        to_move: u8,
        tops: Vec<u8>,
        node_limit: u64,
        time_limit: Option<f64>,
    ) -> PyResult<Answer> {
        if to_move > 1 {
            return Err(PyValueError::new_err(format!("to_move is 0 or 1, not {to_move}")));
        }
        let same_layout = self.layout.len() == columns.len()
            && self.layout.iter().zip(&columns).all(|(full, now)| full.starts_with(now));
        if !same_layout {
            self.table.clear();
            self.layout = columns.clone();
        }
        let budget = budget(node_limit, time_limit);
        let table = &mut self.table;
        let top = |i: usize| tops.get(i).copied().unwrap_or(0);
        let answer = match self.game.as_str() {
            "twaalven" => match twaalven::Twaalven::new(&columns, to_move).map_err(PyValueError::new_err)? {
                Some(mut game) => run(py, &mut game, table, budget)?,
                None => (Outcome::Lost.name(), Vec::new(), 0, 0.0),
            },
            "stapelen" => {
                let tops = [[top(0), top(1), top(2)], [top(3), top(4), top(5)]];
                let mut game = stapelen::Stapelen::new(&columns, tops, to_move).map_err(PyValueError::new_err)?;
                run(py, &mut game, table, budget)?
            }
            "all-in-a-row" => {
                let position = one_foundation::AllInARow::new(&columns, top(0)).map_err(PyValueError::new_err)?;
                let mirror = one_foundation::AllInARow::mirrored(&columns, top(0)).map_err(PyValueError::new_err)?;
                run_either(py, &mut [position, mirror], table, budget)?
            }
            // Black Hole's mirror must end next to the ace: on seeds 1-1000 that made it no faster.
            _ => {
                let mut game = one_foundation::BlackHole::new(&columns, top(0)).map_err(PyValueError::new_err)?;
                run(py, &mut game, table, budget)?
            }
        };
        Ok(answer)
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(shuffled, m)?)?;
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    m.add_class::<Kernel>()?;
    the_game_py::register(m)?;
    sir_tommy_py::register(m)?;
    Ok(())
}
