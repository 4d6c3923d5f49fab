//! One memoised depth-first search over any game that implements [`Game`].
//!
//! The search answers "is there a line of play from here that wins?" and returns that line.
//! It is exact: `Lost` only after every continuation was refuted; a node or time budget that
//! runs out gives `Unknown`.

pub mod rng;
pub mod table;
pub mod tableau;

use rng::SplitMix64;
use table::{LostTable, TableKey};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A single-agent game position that the search can walk forwards and back.
pub trait Game {
    type Move: Copy;
    /// Identifies a position exactly (including who is to move): a compact u64 below 2^56 - 1
    /// where the game fits one, else a wider key (see `TableKey`).
    type Key: TableKey;
    /// Restart runs (see `solve`) before the last, unlimited and unperturbed one.
    const RESTARTS: u64 = 30;
    fn key(&self) -> Self::Key;
    fn is_won(&self) -> bool;
    /// Legal moves worth trying, best first. Moves the game can prove hopeless may be left out.
    fn moves(&self, out: &mut Vec<Self::Move>);
    /// Reorders `moves` (as `moves` gave them) for restart run number `run` (1, 2, ...); by
    /// default a uniform shuffle. A game whose order is worth keeping roughly can perturb it less.
    fn perturb(&self, moves: &mut [Self::Move], rng: &mut SplitMix64, _run: u64) {
        rng.shuffle(moves);
    }
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
/// `interrupted` is asked as often as the clock; when it says yes the search stops as if out of
/// budget and the result says so (the Python side uses it for Ctrl-C).
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    pub node_limit: u64,
    pub time_limit: Option<Duration>,
    pub interrupted: Option<fn() -> bool>,
}

impl Budget {
    /// Whether the node or time limit is reached after `nodes` nodes of a search begun at `start`.
    pub fn spent(&self, start: Instant, nodes: u64) -> bool {
        let out_of_nodes = self.node_limit != 0 && nodes >= self.node_limit;
        out_of_nodes || self.time_limit.is_some_and(|t| start.elapsed() >= t)
    }
}

/// A budget as a search spends it (the memoised DFS here, The Game's and Etalage's searches):
/// counts nodes, asks the clock and `Budget::interrupted` every `CLOCK_EVERY` nodes and the
/// stop flag at every node, and remembers that it stopped and whether an interruption was why.
pub struct Watch {
    budget: Budget,
    start: Instant,
    pub nodes: u64,
    pub stopped: bool,
    pub interrupted: bool,
    /// The node count at which the search stops: the budget's limit, or a pause's.
    stop_at: u64,
    /// Set by another thread to stop this search as if interrupted (see `stopped_by`).
    stop: Option<Arc<AtomicBool>>,
}

/// The node count at which a search on `budget` stops (none: never).
fn node_cap(budget: &Budget) -> u64 {
    if budget.node_limit == 0 {
        u64::MAX
    } else {
        budget.node_limit
    }
}

impl Watch {
    pub fn new(budget: Budget) -> Self {
        Watch { budget, start: Instant::now(), nodes: 0, stopped: false, interrupted: false, stop_at: node_cap(&budget), stop: None }
    }

    /// A watch that also stops, as if interrupted (so `resume` does not go on), once `flag` is
    /// set: for a search that helps another and ends with it.
    pub fn stopped_by(budget: Budget, flag: Arc<AtomicBool>) -> Self {
        Watch { stop: Some(flag), ..Watch::new(budget) }
    }

    /// Stops the search after `nodes` more nodes (or sooner, at the budget's limits) until
    /// `resume`: for a caller that shares its budget among several searches in turn.
    pub fn pause_after(&mut self, nodes: u64) {
        self.stop_at = node_cap(&self.budget).min(self.nodes.saturating_add(nodes));
    }

    /// Lifts a pause; true when the search may go on, false when the budget is spent.
    pub fn resume(&mut self) -> bool {
        self.stop_at = node_cap(&self.budget);
        if self.stopped && !self.interrupted && !self.budget.spent(self.start, self.nodes) {
            self.stopped = false;
        }
        !self.stopped
    }

    /// Counts one node; true once the search must stop. A node refused because the watch has
    /// stopped is not searched and not counted, so a node limit is never exceeded (a search
    /// may ask again before it notices the stop: Etalage's node goes on to its first child
    /// after its cleared-display search stopped the watch).
    #[inline(always)]
    pub fn tick(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.stop_at {
            self.stopped = true;
        } else if self.stop.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            // asked at every node, so that the search it helps need not wait for it to stop
            self.stopped = true;
            self.interrupted = true;
        } else if self.nodes.is_multiple_of(CLOCK_EVERY) {
            if self.budget.time_limit.is_some_and(|t| self.start.elapsed() >= t) {
                self.stopped = true;
            }
            if self.budget.interrupted.is_some_and(|interrupted| interrupted()) {
                self.stopped = true;
                self.interrupted = true;
            }
        }
        self.stopped
    }

    pub fn seconds(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// When the search began.
    pub fn start(&self) -> Instant {
        self.start
    }
}

pub struct SearchResult<M> {
    pub outcome: Outcome,
    /// The winning line from the root, when `outcome` is `Won`.
    pub line: Vec<M>,
    pub nodes: u64,
    pub seconds: f64,
    /// The search stopped because `Budget::interrupted` said so.
    pub interrupted: bool,
}

const CLOCK_EVERY: u64 = 4096;

struct Dfs<'t, M, K> {
    table: &'t mut LostTable<K>,
    /// The budget; a restart run that is not the last is a pause of it. `watch.stopped` is set
    /// when the search stopped early, by the budget or the run's end: nothing is proven.
    watch: Watch,
    /// Shuffles the moves of restarted runs; the first run keeps the game's order.
    shuffle: Option<SplitMix64>,
    /// The restart run under way (0 = the first, in the game's order).
    run: u64,
    move_buffers: Vec<Vec<M>>,
    line: Vec<M>,
}

impl<'t, M: Copy, K: TableKey> Dfs<'t, M, K> {
    /// True when a win was found (its moves are in `self.line`). False means lost, unless
    /// `watch.stopped` is set, in which case nothing is known.
    fn search<G: Game<Move = M, Key = K>>(&mut self, game: &mut G, depth: usize) -> bool {
        if game.is_won() {
            return true;
        }
        if self.watch.tick() {
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
        if let Some(rng) = self.shuffle.as_mut() {
            game.perturb(&mut moves, rng, self.run);
        }
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
            if self.watch.stopped {
                break;
            }
        }
        self.move_buffers[depth] = moves;
        if !won && !self.watch.stopped {
            self.table.insert(key);
        }
        won
    }
}

/// The Luby sequence 1 1 2 1 1 2 4 1 1 2 …, the restart lengths that waste at most a
/// logarithmic factor against the best fixed length (Luby, Sinclair and Zuckerman, 1993).
pub fn luby(i: u64) -> u64 {
    let mut k = 1;
    while (1u64 << k) - 1 < i {
        k += 1;
    }
    if i == (1u64 << k) - 1 {
        1 << (k - 1)
    } else {
        luby(i - (1u64 << (k - 1)) + 1)
    }
}

/// Nodes in a restart run of Luby length 1.
const RESTART_UNIT: u64 = 3000;

/// Searches `game` for a win within `budget`, using and filling `table`.
///
/// Search effort on winnable deals is heavy-tailed: an early wrong move can hide the win
/// behind a large lost subtree. So the search first makes short runs (Luby lengths) with the
/// moves perturbed, then one run without limit. Lost positions proven by any run stay in the
/// table, so later runs never repeat those proofs; the result is as exact as a single run.
pub fn solve<G: Game>(game: &mut G, table: &mut LostTable<G::Key>, budget: Budget) -> SearchResult<G::Move> {
    solve_seeded(game, table, budget, 0)
}

/// `solve` with the restart runs' orders drawn from `seed`: a search that comes back to a root
/// it left open (Sir Tommy's `analyse`) tries other orders than the time before.
pub fn solve_seeded<G: Game>(game: &mut G, table: &mut LostTable<G::Key>, budget: Budget, seed: u64) -> SearchResult<G::Move> {
    let mut dfs = Dfs {
        table,
        watch: Watch::new(budget),
        shuffle: None,
        run: 0,
        move_buffers: Vec::new(),
        line: Vec::new(),
    };
    let mut run = 0;
    let outcome = loop {
        let last = run >= G::RESTARTS;
        dfs.watch.pause_after(if last { u64::MAX } else { RESTART_UNIT * luby(run + 1) });
        dfs.shuffle = (run > 0 && !last).then(|| SplitMix64::new(seed << 32 ^ run));
        dfs.run = run;
        dfs.line.clear();
        if dfs.search(game, 0) {
            break Outcome::Won;
        }
        if !dfs.watch.stopped {
            break Outcome::Lost;
        }
        if !dfs.watch.resume() {
            break Outcome::Unknown;
        }
        run += 1;
    };
    SearchResult {
        outcome,
        line: if outcome == Outcome::Won { dfs.line } else { Vec::new() },
        nodes: dfs.watch.nodes,
        seconds: dfs.watch.seconds(),
        interrupted: dfs.watch.interrupted,
    }
}

/// Nodes the first of two mirrored searches may use before the other takes its turn.
const FIRST_SHARE: u64 = 2000;

/// Searches two games that are won or lost together (a deal and its mirror image), in turns,
/// each turn with twice the nodes of the one before, sharing `table` (their keys must differ).
/// Whichever decides first answers for both; the index says which. Proof sizes of the two differ
/// by orders of magnitude on many deals, so this costs at most a small factor over the smaller.
pub fn solve_either<G: Game>(games: &mut [G; 2], table: &mut LostTable<G::Key>, budget: Budget) -> (SearchResult<G::Move>, usize) {
    let start = Instant::now();
    let mut nodes = 0;
    let mut share = FIRST_SHARE;
    loop {
        for (index, game) in games.iter_mut().enumerate() {
            let limit = if budget.node_limit == 0 { share } else { share.min(budget.node_limit.saturating_sub(nodes).max(1)) };
            let time_limit = budget.time_limit.map(|t| t.saturating_sub(start.elapsed()));
            let mut result = solve(game, table, Budget { node_limit: limit, time_limit, ..budget });
            nodes += result.nodes;
            if result.outcome != Outcome::Unknown || result.interrupted || budget.spent(start, nodes) {
                result.nodes = nodes;
                result.seconds = start.elapsed().as_secs_f64();
                return (result, index);
            }
        }
        share *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::{luby, Budget, Watch};

    #[test]
    fn luby_sequence_starts_as_published() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    /// Counts nodes until the watch stops (at most `most`).
    fn ticks_until_stopped(watch: &mut Watch, most: u64) -> u64 {
        (1..=most).find(|_| watch.tick()).unwrap_or(most)
    }

    #[test]
    fn a_pause_stops_the_search_and_resume_goes_on_while_the_budget_lasts() {
        let mut watch = Watch::new(Budget { node_limit: 25, ..Budget::default() });
        watch.pause_after(10);
        assert_eq!(ticks_until_stopped(&mut watch, 100), 10);
        assert!(watch.resume() && !watch.stopped);
        // a pause reaching past the budget stops at the budget, and then resume says so
        watch.pause_after(100);
        assert_eq!(ticks_until_stopped(&mut watch, 100), 15);
        assert!(!watch.resume() && watch.stopped);
    }

    #[test]
    fn a_stopped_watch_counts_no_more_nodes() {
        let mut watch = Watch::new(Budget { node_limit: 25, ..Budget::default() });
        assert_eq!(ticks_until_stopped(&mut watch, 100), 25);
        assert!(watch.tick() && watch.tick());
        assert_eq!(watch.nodes, 25);
    }
}
