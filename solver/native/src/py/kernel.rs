//! The kernel of the column games (Twaalven, Stapelen, All in a Row, Black Hole) as Python sees
//! it: `Kernel(game, table_entries).solve(columns, to_move, tops, node_limit, time_limit)`.

use crate::games::{one_foundation, stapelen, twaalven, GameKind};
use crate::search::table::LostTable;
use crate::search::{self, Budget, Outcome};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

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
    game: GameKind,
    table: LostTable,
    /// The columns the table's keys refer to: every later root must be a prefix of them.
    layout: Vec<Vec<u8>>,
    /// The last root searched (its columns and tops), and its number among the mirrored roots
    /// that share the table (see `one_foundation::OneFoundation::mirrored`).
    root: (Vec<Vec<u8>>, Vec<u8>),
    mirror_root: u64,
}

#[pymethods]
impl Kernel {
    #[new]
    #[pyo3(signature = (game, table_entries = 1 << 22))]
    fn new(game: &str, table_entries: usize) -> PyResult<Self> {
        let game: GameKind = game.parse().map_err(PyValueError::new_err)?;
        match game {
            GameKind::Twaalven | GameKind::Stapelen | GameKind::AllInARow | GameKind::BlackHole => {
                Ok(Kernel {
                    game,
                    table: LostTable::new(table_entries).map_err(PyValueError::new_err)?,
                    layout: Vec::new(),
                    root: (Vec::new(), Vec::new()),
                    mirror_root: 0,
                })
            }
            GameKind::TheGame | GameKind::SirTommy | GameKind::Etalage | GameKind::QuickAndEasy => Err(not_a_column_game(game)),
        }
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
            self.mirror_root = 0;
        } else if (&columns, &tops) != (&self.root.0, &self.root.1) {
            // another root of the layout: its mirror's positions get keys of their own
            self.mirror_root += 1;
            if self.mirror_root == one_foundation::MIRROR_ROOTS {
                self.table.clear();
                self.mirror_root = 0;
            }
        }
        self.root = (columns.clone(), tops.clone());
        let budget = super::budget(node_limit, time_limit)?;
        let table = &mut self.table;
        let top = |i: usize| tops.get(i).copied().unwrap_or(0);
        let answer = match self.game {
            GameKind::Twaalven => match twaalven::Twaalven::new(&columns, to_move).map_err(PyValueError::new_err)? {
                Some(mut game) => run(py, &mut game, table, budget)?,
                None => (Outcome::Lost.name(), Vec::new(), 0, 0.0),
            },
            GameKind::Stapelen => {
                let tops = [[top(0), top(1), top(2)], [top(3), top(4), top(5)]];
                let mut game = stapelen::Stapelen::new(&columns, tops, to_move).map_err(PyValueError::new_err)?;
                run(py, &mut game, table, budget)?
            }
            GameKind::AllInARow => {
                let position = one_foundation::AllInARow::new(&columns, top(0)).map_err(PyValueError::new_err)?;
                let mirror = one_foundation::AllInARow::mirrored(&columns, top(0), self.mirror_root).map_err(PyValueError::new_err)?;
                run_either(py, &mut [position, mirror], table, budget)?
            }
            // Black Hole's mirror must end next to the ace: on seeds 1-1000 that made it no faster.
            GameKind::BlackHole => {
                let mut game = one_foundation::BlackHole::new(&columns, top(0)).map_err(PyValueError::new_err)?;
                run(py, &mut game, table, budget)?
            }
            GameKind::TheGame | GameKind::SirTommy | GameKind::Etalage | GameKind::QuickAndEasy => return Err(not_a_column_game(self.game)),
        };
        Ok(answer)
    }
}

fn not_a_column_game(game: GameKind) -> PyErr {
    PyValueError::new_err(format!("{game} is not a column game; it has a kernel class of its own"))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Kernel>()
}
