//! Stapelen: two players take turns moving one top card onto one of their own three
//! foundations; an empty foundation takes any card, otherwise one rank up, K followed by A.
//! The player to move with no legal card loses.
//!
//! Symmetry: a player's foundations are interchangeable and the two players have the same
//! rules, so the key holds the tops of the mover's foundations sorted, then the other
//! player's, and a card is tried on only one of several foundations with equal tops.

use crate::search::Game;
use crate::search::rng::shuffled_deck;
use crate::search::tableau::{rank, seeded_columns, Tableau};

pub const COLUMNS: usize = 13;
pub const DEPTH: usize = 4;
pub const FOUNDATIONS: usize = 3;

/// The rank that may follow `top` on a foundation (0 = empty takes anything).
#[inline]
pub fn follows(top: u8, card_rank: u8) -> bool {
    top == 0 || top % 13 + 1 == card_rank
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub column: u8,
    pub foundation: u8,
    previous_top: u8,
}

#[derive(Clone)]
pub struct Stapelen {
    tableau: Tableau<COLUMNS, DEPTH>,
    /// Top rank of each foundation (0 = empty), per player (0 = A, 1 = B).
    tops: [[u8; FOUNDATIONS]; 2],
    to_move: usize,
}

impl Stapelen {
    pub fn new(columns: &[Vec<u8>], tops: [[u8; FOUNDATIONS]; 2], to_move: u8) -> Result<Self, String> {
        if tops.iter().flatten().any(|&t| t > 13) {
            return Err("a foundation top is not a rank 0..13".into());
        }
        Ok(Stapelen { tableau: Tableau::new(columns)?, tops, to_move: to_move as usize })
    }

    fn sorted_tops(&self, player: usize) -> u64 {
        let mut t = self.tops[player];
        t.sort_unstable();
        t.iter().fold(0, |key, &x| key << 4 | x as u64)
    }
}

impl Game for Stapelen {
    type Move = Move;
    type Key = u64;

    fn key(&self) -> u64 {
        let heights = self.tableau.heights_key(); // < 5^13 < 2^31
        heights << 24 | self.sorted_tops(self.to_move) << 12 | self.sorted_tops(1 - self.to_move)
    }

    fn is_won(&self) -> bool {
        self.tableau.remaining() == 0
    }

    /// Cards onto started foundations first: starting a foundation spends a free choice.
    fn moves(&self, out: &mut Vec<Move>) {
        let tops = self.tops[self.to_move];
        for starting in [false, true] {
            for column in 0..COLUMNS {
                let Some(card) = self.tableau.top(column) else { continue };
                let r = rank(card);
                for f in 0..FOUNDATIONS {
                    let top = tops[f];
                    if (top == 0) != starting || !follows(top, r) || tops[..f].contains(&top) {
                        continue;
                    }
                    out.push(Move { column: column as u8, foundation: f as u8, previous_top: top });
                }
            }
        }
    }

    fn apply(&mut self, mv: Move) {
        let card = self.tableau.top(mv.column as usize).expect("move from an empty column");
        self.tableau.pop(mv.column as usize);
        self.tops[self.to_move][mv.foundation as usize] = rank(card);
        self.to_move ^= 1;
    }

    fn undo(&mut self, mv: Move) {
        self.to_move ^= 1;
        self.tops[self.to_move][mv.foundation as usize] = mv.previous_top;
        self.tableau.unpop(mv.column as usize);
    }
}

/// The seeded deal: as Twaalven en veertienen (card k to column k % 13, depth k / 13).
pub fn deal(seed: u64) -> Vec<Vec<u8>> {
    seeded_columns(&shuffled_deck(seed), COLUMNS)
}
