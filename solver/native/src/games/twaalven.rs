//! Twaalven en veertienen: T takes pairs summing to 12 (and Q+K), F pairs summing to 14.
//!
//! The counting invariant of docs/games/twaalven.md, generalised to any position: the remaining cards and the
//! number of turns left for each player fix exactly how many pairs of each type must still be
//! taken (see [`required_pairs`]). The search carries those counts and never takes a pair type
//! whose count is used up, which prunes most of the tree for free.

use crate::search::Game;
use crate::search::rng::shuffled_deck;
use crate::search::tableau::{rank, seeded_columns, Tableau};

pub const COLUMNS: usize = 13;
pub const DEPTH: usize = 4;

/// Pair types as rank pairs (A=1 … K=13): 0..7 are T's, 7..14 are F's.
pub const PAIR_TYPES: [(u8, u8); 14] = [
    (12, 13), (1, 11), (2, 10), (3, 9), (4, 8), (5, 7), (6, 6),
    (1, 13), (2, 12), (3, 11), (4, 10), (5, 9), (6, 8), (7, 7),
];


/// How many pairs of each type must still be taken to clear cards with these rank counts
/// (`counts[r]` for r in 1..=13) when T has `t_turns` and F has `f_turns` turns left; `None`
/// when no such counts exist, which proves the position lost. The system has one solution at
/// most, so trying every Q-K count finds it.
pub fn required_pairs(counts: &[i32; 14], t_turns: i32, f_turns: i32) -> Option<[i32; 14]> {
    let r = counts;
    for qk in 0..=r[12].min(r[13]) {
        let ak = r[13] - qk;
        let aj = r[1] - ak;
        let three_j = r[11] - aj;
        let three_nine = r[3] - three_j;
        let five_nine = r[9] - three_nine;
        let five_seven = r[5] - five_nine;
        let seven_seven2 = r[7] - five_seven;
        let two_q = r[12] - qk;
        let two_ten = r[2] - two_q;
        let four_ten = r[10] - two_ten;
        let four_eight = r[4] - four_ten;
        let six_eight = r[8] - four_eight;
        let six_six2 = r[6] - six_eight;
        if seven_seven2 % 2 != 0 || six_six2 % 2 != 0 {
            continue;
        }
        let need = [
            qk, aj, two_ten, three_nine, four_eight, five_seven, six_six2 / 2,
            ak, two_q, three_j, four_ten, five_nine, six_eight, seven_seven2 / 2,
        ];
        if need.iter().any(|&n| n < 0) {
            continue;
        }
        if need[..7].iter().sum::<i32>() == t_turns && need[7..].iter().sum::<i32>() == f_turns {
            return Some(need);
        }
    }
    None
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub first: u8,
    pub second: u8,
    pub pair_type: u8,
}

#[derive(Clone)]
pub struct Twaalven {
    tableau: Tableau<COLUMNS, DEPTH>,
    /// 0 = T to move, 1 = F.
    to_move: u8,
    need: [i8; 14],
    /// For each rank, the set of columns whose top card has that rank.
    tops: [u16; 14],
    /// For each rank, the set of non-empty columns whose bottom card has that rank.
    bottoms: [u16; 14],
    /// Remaining cards of each rank, in all and per column.
    total: [u8; 14],
    per_column: [[u8; 14]; COLUMNS],
}

impl Twaalven {
    /// A position from its columns (bottom card first) and the player to move.
    /// `None` when the counting invariant already proves it lost.
    pub fn new(columns: &[Vec<u8>], to_move: u8) -> Result<Option<Self>, String> {
        let tableau = Tableau::<COLUMNS, DEPTH>::new(columns)?;
        if tableau.remaining() % 2 != 0 {
            return Err("an odd number of cards remains".into());
        }
        let mut game = Twaalven {
            tableau,
            to_move,
            need: [0; 14],
            tops: [0; 14],
            bottoms: [0; 14],
            total: [0; 14],
            per_column: [[0; 14]; COLUMNS],
        };
        for (c, column) in columns.iter().enumerate() {
            for &card in column {
                game.total[rank(card) as usize] += 1;
                game.per_column[c][rank(card) as usize] += 1;
            }
            if let (Some(&bottom), Some(&top)) = (column.first(), column.last()) {
                game.bottoms[rank(bottom) as usize] |= 1 << c;
                game.tops[rank(top) as usize] |= 1 << c;
            }
        }
        let counts = game.total.map(i32::from);
        let turns = game.tableau.remaining() as i32 / 2;
        let (mover, other) = ((turns + 1) / 2, turns / 2);
        let (t_turns, f_turns) = if to_move == 0 { (mover, other) } else { (other, mover) };
        let Some(need) = required_pairs(&counts, t_turns, f_turns) else {
            return Ok(None);
        };
        for (slot, n) in game.need.iter_mut().zip(need) {
            *slot = n as i8;
        }
        Ok(Some(game))
    }

    #[inline]
    fn pop(&mut self, column: usize) {
        let card = self.tableau.top(column).expect("a move from a non-empty column");
        let r = rank(card) as usize;
        self.tops[r] &= !(1 << column);
        self.total[r] -= 1;
        self.per_column[column][r] -= 1;
        self.tableau.pop(column);
        match self.tableau.top(column) {
            Some(next) => self.tops[rank(next) as usize] |= 1 << column,
            None => self.bottoms[r] &= !(1 << column),
        }
    }

    #[inline]
    fn push_back(&mut self, column: usize) {
        let covered = self.tableau.top(column);
        self.tableau.unpop(column);
        let r = rank(self.tableau.top(column).expect("a card to put back")) as usize;
        match covered {
            Some(covered) => self.tops[rank(covered) as usize] &= !(1 << column),
            None => self.bottoms[r] |= 1 << column,
        }
        self.tops[r] |= 1 << column;
        self.total[r] += 1;
        self.per_column[column][r] += 1;
    }

    /// The last turn takes the final two cards, which are bottom cards of two columns, so
    /// they must form a still-needed pair of the player whose turn is last.
    fn last_turn_possible(&self) -> bool {
        let turns_left = self.tableau.remaining() / 2;
        let last_player = (self.to_move ^ ((turns_left + 1) & 1)) as usize;
        (7 * last_player..7 * last_player + 7).any(|t| {
            let (ra, rb) = PAIR_TYPES[t];
            let (a, b) = (self.bottoms[ra as usize], self.bottoms[rb as usize]);
            self.need[t] > 0 && if ra == rb { a.count_ones() >= 2 } else { a != 0 && b != 0 }
        })
    }

    /// Each still-needed pair type needs that many disjoint pairs of its two ranks from
    /// different columns. Every such pair has a card outside any given column, so there can be
    /// no more of them than the type's cards outside the column that holds most of them.
    fn pairs_formable(&self) -> bool {
        let (total, per_column) = (&self.total, &self.per_column);
        PAIR_TYPES.iter().zip(&self.need).all(|(&(ra, rb), &need)| {
            if need == 0 {
                return true;
            }
            let (ra, rb) = (ra as usize, rb as usize);
            let (cards, most) = if ra == rb {
                (total[ra], total[ra] / 2)
            } else {
                (total[ra] + total[rb], total[ra].min(total[rb]))
            };
            let crowded = per_column
                .iter()
                .map(|counts| counts[ra] + if ra == rb { 0 } else { counts[rb] })
                .max()
                .unwrap_or(0);
            most.min(cards - crowded) as i8 >= need
        })
    }
}

impl Game for Twaalven {
    type Move = Move;
    type Key = u64;

    fn key(&self) -> u64 {
        self.to_move as u64 * 5u64.pow(COLUMNS as u32) + self.tableau.heights_key()
    }

    fn is_won(&self) -> bool {
        self.tableau.remaining() == 0
    }

    fn moves(&self, out: &mut Vec<Move>) {
        let first_type = 7 * self.to_move as usize;
        for (t, &(ra, rb)) in PAIR_TYPES.iter().enumerate().skip(first_type).take(7) {
            if self.need[t] == 0 {
                continue;
            }
            let (mask_a, mask_b) = (self.tops[ra as usize], self.tops[rb as usize]);
            let mut a_bits = mask_a;
            while a_bits != 0 {
                let a = a_bits.trailing_zeros() as u8;
                a_bits &= a_bits - 1;
                // Same-rank pairs: each unordered pair of columns once.
                let mut b_bits = if ra == rb { mask_b & !((2u16 << a) - 1) } else { mask_b & !(1 << a) };
                while b_bits != 0 {
                    let b = b_bits.trailing_zeros() as u8;
                    b_bits &= b_bits - 1;
                    out.push(Move { first: a, second: b, pair_type: t as u8 });
                }
            }
        }
    }

    fn apply(&mut self, mv: Move) {
        self.pop(mv.first as usize);
        self.pop(mv.second as usize);
        self.need[mv.pair_type as usize] -= 1;
        self.to_move ^= 1;
    }

    /// Dead when the last turn cannot be played or a needed pair type cannot be formed.
    fn is_dead(&self) -> bool {
        !self.last_turn_possible() || !self.pairs_formable()
    }

    fn undo(&mut self, mv: Move) {
        self.push_back(mv.second as usize);
        self.push_back(mv.first as usize);
        self.need[mv.pair_type as usize] += 1;
        self.to_move ^= 1;
    }
}

/// The seeded deal: card k of the shuffled deck goes to column k % 13, depth k / 13.
pub fn deal(seed: u64) -> Vec<Vec<u8>> {
    seeded_columns(&shuffled_deck(seed), COLUMNS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{solve, Budget, Outcome};
    use crate::search::table::LostTable;

    #[test]
    fn full_deck_needs_each_pair_twice_and_doubles_once() {
        let counts = { let mut c = [4; 14]; c[0] = 0; c };
        let need = required_pairs(&counts, 13, 13).unwrap();
        assert_eq!(need, [2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1]);
    }

    #[test]
    fn seeded_deals_are_decided() {
        let mut table = LostTable::new(1 << 20).unwrap();
        for seed in 1..20 {
            for starter in 0..2 {
                let mut game = Twaalven::new(&deal(seed), starter).unwrap().unwrap();
                let budget = Budget::default();
                let result = solve(&mut game, &mut table, budget);
                assert_ne!(result.outcome, Outcome::Unknown);
            }
        }
    }
}
