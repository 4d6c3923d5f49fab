//! The Game: Quick & Easy with every hand and the draw pile open: the most cards played, exactly.
//!
//! The same search as the Python engine's (`solver/games/quick_and_easy/engine.py`), which it
//! replaces for speed: a depth-first search over single plays and turn ends that computes the
//! exact most cards played from each position, memoised on the exact position (each hand as a bit
//! set, the cards drawn, the pile tops, the mover and the cards played this turn) in a table of
//! capped size, stopping at the first line that plays all 50 cards. Plays are tried cheapest
//! first. Rules as in `puzzles/quick_and_easy.py`: cards 0..50 are colour * 10 + value - 1.

use crate::search::{Budget, Watch};
use std::collections::HashMap;

pub const CARDS: u8 = 50;
pub const MAX_PLAYERS: usize = 5;
const HAND: u32 = 2;
/// An empty pile's top, and the card and pile of "end turn" in a line.
pub const NONE: u8 = u8::MAX;

fn value(card: u8) -> i32 {
    (card % 10) as i32 + 1
}

fn colour(card: u8) -> u8 {
    card / 10
}

/// Whether pile `pile` (0 ascending, 1 descending) with top `top` takes `card`.
pub fn accepts(pile: usize, top: u8, card: u8) -> bool {
    if top == NONE || colour(card) == colour(top) {
        return true;
    }
    if pile == 0 {
        value(card) > value(top)
    } else {
        value(card) < value(top)
    }
}

/// How much a move costs the piles (the Python engine's `step`): the values a play skips, a
/// colour trick back below zero, and 2 for ending the turn.
fn cost(piles: &[u8; 2], mv: Move) -> i32 {
    if mv.card == NONE {
        return 2;
    }
    let top = piles[mv.pile as usize];
    match (top == NONE, mv.pile) {
        (true, 0) => value(mv.card) - 1,
        (true, _) => 10 - value(mv.card),
        (false, 0) => value(mv.card) - value(top),
        (false, _) => value(top) - value(mv.card),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub card: u8,
    pub pile: u8,
}

const END_TURN: Move = Move { card: NONE, pile: NONE };

/// The fixed facts of a search: the draw pile (next card first), the players and the variant.
pub struct Rules {
    pub draw: Vec<u8>,
    pub players: usize,
    /// The most cards a turn plays: 2, or 1 in the professional variant.
    pub per_turn: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    hands: [u64; MAX_PLAYERS],
    drawn: u8,
    piles: [u8; 2],
    mover: u8,
    played: u8,
}

impl State {
    /// A position from Python's lists and the rules' draw pile; Err for what the rules module
    /// never sends. Every card of the hands and the draw pile is in the deck and given once:
    /// the search counts the cards played as 50 less those in the hands and the draw pile (a
    /// card given twice made it wrap) and the cards drawn in a byte (a draw pile of 256 cards
    /// made the turn's draw loop without end).
    pub fn new(rules: &Rules, hands: &[Vec<u8>], piles: [u8; 2], mover: usize, played: u8) -> Result<State, String> {
        if hands.is_empty() || hands.len() > MAX_PLAYERS || mover >= hands.len() {
            return Err(format!("{} hands with player {} to move", hands.len(), mover + 1));
        }
        if let Some(top) = piles.iter().find(|&&top| top != NONE && top >= CARDS) {
            return Err(format!("pile top {top} is not in the deck"));
        }
        if played > rules.per_turn {
            return Err(format!("{played} cards played this turn; a turn plays at most {}", rules.per_turn));
        }
        let mut state = State { hands: [0; MAX_PLAYERS], drawn: 0, piles, mover: mover as u8, played };
        let mut seen = 0u64;
        let mut take = |card: u8| {
            if card >= CARDS || seen & 1 << card != 0 {
                return Err(format!("card {card} is not in the deck or given twice"));
            }
            seen |= 1 << card;
            Ok(1 << card)
        };
        for (player, hand) in hands.iter().enumerate() {
            for &card in hand {
                state.hands[player] |= take(card)?;
            }
        }
        for &card in &rules.draw {
            take(card)?;
        }
        Ok(state)
    }

    fn remaining(&self, rules: &Rules) -> u32 {
        self.hands.iter().map(|h| h.count_ones()).sum::<u32>() + (rules.draw.len() - self.drawn as usize) as u32
    }

    pub fn cards_played(&self, rules: &Rules) -> u8 {
        CARDS - self.remaining(rules) as u8
    }

    /// Plays while the turn has room, then "end turn" once a card is played; none once won.
    fn moves(&self, rules: &Rules, out: &mut Vec<Move>) {
        out.clear();
        if self.remaining(rules) == 0 {
            return;
        }
        if self.played < rules.per_turn {
            let mut hand = self.hands[self.mover as usize];
            while hand != 0 {
                let card = hand.trailing_zeros() as u8;
                hand &= hand - 1;
                for pile in 0..2 {
                    if accepts(pile, self.piles[pile], card) {
                        out.push(Move { card, pile: pile as u8 });
                    }
                }
            }
        }
        if self.played > 0 {
            out.push(END_TURN);
        }
        out.sort_by_key(|&mv| cost(&self.piles, mv));
    }

    fn apply(&self, rules: &Rules, mv: Move) -> State {
        let mut next = *self;
        let mover = self.mover as usize;
        if mv.card != NONE {
            next.hands[mover] &= !(1u64 << mv.card);
            next.piles[mv.pile as usize] = mv.card;
            next.played += 1;
            return next;
        }
        while next.hands[mover].count_ones() < HAND && (next.drawn as usize) < rules.draw.len() {
            next.hands[mover] |= 1 << rules.draw[next.drawn as usize];
            next.drawn += 1;
        }
        next.played = 0;
        for step in 1..=rules.players {
            let candidate = (mover + step) % rules.players;
            if next.hands[candidate] != 0 {
                next.mover = candidate as u8;
                break;
            }
        }
        next
    }
}

/// The search stopped: its budget ran out, or Python asked it to.
struct Stop;

/// What a search found: the most cards played (exact when `exact`), a line reaching it (empty
/// when it stopped before any line ended the game), and its effort.
pub struct Answer {
    pub played: u8,
    pub exact: bool,
    pub line: Vec<Move>,
    pub nodes: u64,
    pub seconds: f64,
    pub interrupted: bool,
}

pub struct Searcher<'a> {
    rules: &'a Rules,
    table: HashMap<State, u8>,
    capacity: usize,
    watch: Watch,
    best: Option<(u8, Vec<Move>)>,
    path: Vec<Move>,
    buffers: Vec<Vec<Move>>,
}

impl<'a> Searcher<'a> {
    pub fn new(rules: &'a Rules, capacity: usize, budget: Budget) -> Self {
        Searcher {
            rules,
            table: HashMap::new(),
            capacity,
            watch: Watch::new(budget),
            best: None,
            path: Vec::new(),
            buffers: Vec::new(),
        }
    }

    pub fn solve(mut self, root: &State) -> Answer {
        let result = self.value(root, 0);
        // A finished search has visited a leaf of its value: the table holds only values this
        // search worked out (it is made anew for each root), and a position's value is its best
        // leaf's, since cards played only grow along a line. So `best` is the value with its line;
        // were it ever below, the value would be reported as bounds, not as exact.
        let (played, exact, line) = match (result, self.best.take()) {
            (Ok(found), Some((best, line))) => (best, best == found, line),
            (_, Some((best, line))) => (best, false, line),
            (_, None) => (root.cards_played(self.rules), false, Vec::new()),
        };
        Answer {
            played,
            exact,
            line,
            nodes: self.watch.nodes,
            seconds: self.watch.seconds(),
            interrupted: self.watch.interrupted,
        }
    }

    /// The most cards played by the end of the game from `state`, exactly.
    fn value(&mut self, state: &State, depth: usize) -> Result<u8, Stop> {
        if self.buffers.len() <= depth {
            self.buffers.push(Vec::with_capacity(12));
        }
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        state.moves(self.rules, &mut moves);
        if moves.is_empty() {
            self.buffers[depth] = moves;
            let played = state.cards_played(self.rules);
            if self.best.as_ref().is_none_or(|(best, _)| played > *best) {
                self.best = Some((played, self.path.clone()));
            }
            return Ok(played);
        }
        if let Some(&known) = self.table.get(state) {
            self.buffers[depth] = moves;
            return Ok(known);
        }
        if self.watch.tick() {
            self.buffers[depth] = moves;
            return Err(Stop);
        }
        let mut result = state.cards_played(self.rules);
        let mut outcome = Ok(());
        for &mv in &moves {
            self.path.push(mv);
            let found = self.value(&state.apply(self.rules, mv), depth + 1);
            self.path.pop();
            match found {
                Ok(found) => result = result.max(found),
                Err(stop) => {
                    outcome = Err(stop);
                    break;
                }
            }
            if result == CARDS {
                break;
            }
        }
        self.buffers[depth] = moves;
        outcome?;
        if self.table.len() < self.capacity {
            self.table.insert(*state, result);
        }
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_entry_takes_56_bytes() {
        // QuickAndEasyEngine.table_slot_bytes sizes the table by it (and a control byte).
        assert_eq!(std::mem::size_of::<(State, u8)>(), 56);
    }

    fn card(text: &str) -> u8 {
        let (digits, letter) = text.split_at(text.len() - 1);
        "RYGBP".find(letter).unwrap() as u8 * 10 + digits.parse::<u8>().unwrap() - 1
    }

    #[test]
    fn the_colour_trick_and_the_directions() {
        assert!(accepts(0, card("6B"), card("7Y")) && !accepts(0, card("6B"), card("5Y")));
        assert!(accepts(0, card("6B"), card("2B")) && accepts(1, card("6P"), card("9P")));
        assert!(!accepts(1, card("6P"), card("6Y")) && accepts(1, NONE, card("10R")));
    }

    #[test]
    fn a_hand_that_fits_nowhere_ends_the_game_with_what_was_played() {
        // Piles 9Y up and 2Y down; the mover holds 5R 6R: stuck at once, 48 cards gone.
        let rules = Rules { draw: vec![], players: 1, per_turn: 2 };
        let root = State::new(&rules, &[vec![card("5R"), card("6R")]], [card("9Y"), card("2Y")], 0, 0).unwrap();
        let answer = Searcher::new(&rules, 1 << 10, Budget::default()).solve(&root);
        assert_eq!((answer.played, answer.exact, answer.line.len()), (48, true, 0));
    }
}
