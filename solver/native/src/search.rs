//! One memoised depth-first search over any game that implements [`Game`].
//!
//! The search answers "is there a line of play from here that wins?" and returns that line.
//! It is exact: `Lost` only after every continuation was refuted; a node or time budget that
//! runs out gives `Unknown`.

use crate::table::LostTable;
use std::time::{Duration, Instant};

/// A single-agent game position that the search can walk forwards and back.
pub trait Game {
    type Move: Copy;
    /// A compact key that identifies the position (including who is to move); below u64::MAX.
    fn key(&self) -> u64;
    fn is_won(&self) -> bool;
    /// Legal moves worth trying, best first. Moves the game can prove hopeless may be left out.
    fn moves(&self, out: &mut Vec<Self::Move>);
    fn apply(&mut self, mv: Self::Move);
    fn undo(&mut self, mv: Self::Move);
    /// A cheap proof that the position cannot be won (a dead end), if the game has one.
    fn is_dead(&self) -> bool {
        false
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Lost,
    Unknown,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Won => "winnable",
            Outcome::Lost => "unwinnable",
            Outcome::Unknown => "unknown",
        }
    }
}

/// Node and time limits of one search. `node_limit == 0` means no node limit.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub node_limit: u64,
    pub time_limit: Option<Duration>,
}

pub struct SearchResult<M> {
    pub outcome: Outcome,
    /// The winning line from the root, when `outcome` is `Won`.
    pub line: Vec<M>,
    pub nodes: u64,
    pub seconds: f64,
}

const CLOCK_EVERY: u64 = 4096;

struct Dfs<'t, M> {
    table: &'t mut LostTable,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    out_of_budget: bool,
    move_buffers: Vec<Vec<M>>,
    line: Vec<M>,
}

impl<'t, M: Copy> Dfs<'t, M> {
    fn over_budget(&mut self) -> bool {
        if self.node_limit != 0 && self.nodes >= self.node_limit {
            self.out_of_budget = true;
        } else if self.nodes % CLOCK_EVERY == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.out_of_budget = true;
                }
            }
        }
        self.out_of_budget
    }

    /// True when a win was found (its moves are in `self.line`). False means lost, unless
    /// `out_of_budget` is set, in which case nothing is known.
    fn search<G: Game<Move = M>>(&mut self, game: &mut G, depth: usize) -> bool {
        if game.is_won() {
            return true;
        }
        self.nodes += 1;
        if self.over_budget() {
            return false;
        }
        let key = game.key();
        if self.table.contains(key) || game.is_dead() {
            return false;
        }
        if self.move_buffers.len() <= depth {
            self.move_buffers.push(Vec::with_capacity(32));
        }
        let mut moves = std::mem::take(&mut self.move_buffers[depth]);
        moves.clear();
        game.moves(&mut moves);
        let mut won = false;
        for &mv in &moves {
            game.apply(mv);
            self.line.push(mv);
            won = self.search(game, depth + 1);
            game.undo(mv);
            if won {
                break;
            }
            self.line.pop();
            if self.out_of_budget {
                break;
            }
        }
        self.move_buffers[depth] = moves;
        if !won && !self.out_of_budget {
            self.table.insert(key);
        }
        won
    }
}

/// Searches `game` for a win within `budget`, using and filling `table`.
pub fn solve<G: Game>(game: &mut G, table: &mut LostTable, budget: Budget) -> SearchResult<G::Move> {
    let start = Instant::now();
    let mut dfs = Dfs {
        table,
        nodes: 0,
        node_limit: budget.node_limit,
        deadline: budget.time_limit.map(|t| start + t),
        out_of_budget: false,
        move_buffers: Vec::new(),
        line: Vec::new(),
    };
    let won = dfs.search(game, 0);
    let outcome = if won {
        Outcome::Won
    } else if dfs.out_of_budget {
        Outcome::Unknown
    } else {
        Outcome::Lost
    };
    SearchResult {
        outcome,
        line: if won { dfs.line } else { Vec::new() },
        nodes: dfs.nodes,
        seconds: start.elapsed().as_secs_f64(),
    }
}
