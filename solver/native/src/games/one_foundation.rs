//! One-player games that build a single foundation one rank up or down, K and A adjacent:
//! All in a Row (13 columns of 4, the first card is any) and Black Hole (17 columns of 3,
//! the foundation starts with the ace of spades). Lost when no top card fits.

use crate::search::Game;
use crate::search::rng::{shuffle, shuffled_deck};
use crate::search::tableau::{rank, seeded_columns, Tableau};
use std::cell::Cell;

/// Entries in the cache of rank-walk answers (512 KiB).
const WALK_CACHE_SLOTS: usize = 1 << 16;

/// Mirrored roots a table tells apart (see `OneFoundation::mirrored`): their number takes the
/// key's bits 45 to 55, above the heights (under 2^38) and the tag of the top (bits 40 to 43).
pub const MIRROR_ROOTS: u64 = 1 << 11;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub column: u8,
    previous_top: u8,
}

/// `C` columns of at most `D` cards and a foundation whose top rank is `top` (0 = empty).
#[derive(Clone)]
pub struct OneFoundation<const C: usize, const D: usize> {
    tableau: Tableau<C, D>,
    top: u8,
    /// Cards of each rank still in the tableau.
    count: [u8; 14],
    /// Non-empty columns whose bottom card has each rank.
    bottoms: [u8; 14],
    /// The counts read as a number in base 5, and the ranks with a bottom card as bits: with
    /// `top` and `end_next_to` all that the rank-walk test reads, so its cache key.
    counts_key: u64,
    bottom_ranks: u16,
    /// Rank-walk answers by key (`key << 1 | answer`, 0 empty): many positions share their
    /// rank counts, and the test is most of the work at a node.
    walk_cache: Box<[Cell<u64>]>,
    /// For a mirrored position: the rank the last card must be next to (0: any last card).
    end_next_to: u8,
    /// Added to every key: tells a mirror's positions from the position's in a shared table.
    key_tag: u64,
}

pub type AllInARow = OneFoundation<13, 4>;
pub type BlackHole = OneFoundation<17, 3>;

/// 5^(r-1) for each rank r: its place in `counts_key`.
const FIVES: [u64; 14] = {
    let mut fives = [0; 14];
    let mut r = 1;
    while r <= 13 {
        fives[r] = if r == 1 { 1 } else { fives[r - 1] * 5 };
        r += 1;
    }
    fives
};

/// Ranks one apart, K and A adjacent; anything goes on an empty foundation.
#[inline]
fn adjacent(top: u8, card_rank: u8) -> bool {
    top == 0 || (top + 13 - card_rank) % 13 == 1 || (card_rank + 13 - top) % 13 == 1
}

impl<const C: usize, const D: usize> OneFoundation<C, D> {
    pub fn new(columns: &[Vec<u8>], top: u8) -> Result<Self, String> {
        if top > 13 {
            return Err(format!("foundation top {top} is not a rank 0..13"));
        }
        let tableau = Tableau::<C, D>::new(columns)?;
        let mut count = [0; 14];
        for card in columns.iter().flatten() {
            count[rank(*card) as usize] += 1;
        }
        let mut bottoms = [0; 14];
        for bottom in columns.iter().filter_map(|column| column.first()) {
            bottoms[rank(*bottom) as usize] += 1;
        }
        let counts_key = (1..=13).rev().fold(0, |key, r| key * 5 + count[r] as u64);
        let bottom_ranks = (1..=13).filter(|&r| bottoms[r] > 0).fold(0, |bits, r| bits | 1 << r);
        let walk_cache = (0..WALK_CACHE_SLOTS).map(|_| Cell::new(0)).collect();
        Ok(OneFoundation { tableau, top, count, bottoms, counts_key, bottom_ranks, walk_cache, end_next_to: 0, key_tag: 0 })
    }

    /// The position with every column turned upside down, played from an empty foundation to
    /// a last card next to `top` (any last card when `top` is 0). Its wins are the position's
    /// wins played backwards: a win plays each column top to bottom, one rank apart at every
    /// step, starting next to `top`; reversed, the same cards go bottom to top, one rank apart,
    /// ending next to `top`. So it is won exactly when the position is, by the reversed line.
    ///
    /// A mirror's key reads its heights from its root's columns' tops, so equal heights of two
    /// roots of one layout (a top card taken from one column or from another) hold different
    /// cards: `root` (below `MIRROR_ROOTS`) numbers the roots that share a table, and is part
    /// of every key, so that their positions never meet in it.
    pub fn mirrored(columns: &[Vec<u8>], top: u8, root: u64) -> Result<Self, String> {
        let upside_down: Vec<Vec<u8>> = columns.iter().map(|c| c.iter().rev().copied().collect()).collect();
        let mut mirror = Self::new(&upside_down, 0)?;
        if top > 13 {
            return Err(format!("foundation top {top} is not a rank 0..13"));
        }
        if root >= MIRROR_ROOTS {
            return Err(format!("mirror root {root} is not below {MIRROR_ROOTS}"));
        }
        mirror.end_next_to = top;
        mirror.key_tag = root << 45 | (1 + top as u64) << 40;
        Ok(mirror)
    }
}

impl<const C: usize, const D: usize> OneFoundation<C, D> {
    /// The ranks of a win, from the foundation top through every remaining card, form a walk on
    /// the cycle A-2-…-K-A. Counting how often the walk crosses each edge of that cycle: a rank
    /// with n cards is entered and left 2n times, less one for the walk's last card, plus one
    /// for the foundation top where it starts. On an odd cycle these degrees fix the crossing
    /// counts; a walk exists only if for some last rank they are whole, non-negative, and join
    /// every rank that must be visited (an Euler trail). The last card is the bottom card of
    /// its column, so only ranks of bottom cards can end the walk. A mirror's walk must end next
    /// to rank `end_next_to`: it ends on a virtual card of that rank, after a bottom card next
    /// to it.
    fn rank_walk_exists(&self) -> bool {
        let top = self.top as usize;
        let end = self.end_next_to as usize;
        let mut degree = [0i32; 14];
        for (r, d) in degree.iter_mut().enumerate().skip(1) {
            *d = 2 * (self.count[r] as i32 + (r == end) as i32) + (r == top) as i32;
        }
        if end != 0 && self.bottoms[end % 13 + 1] + self.bottoms[(end + 11) % 13 + 1] == 0 {
            return false;
        }
        // The alternating sum d13 - d12 + … + d1 is twice the K-A crossings; the last card's
        // rank L lowers d_L by one, which changes the sum by one, so it must be odd here.
        let alternating = (1..=13).fold(0, |acc, r| degree[r] - acc);
        if alternating % 2 == 0 {
            return false;
        }
        (1..=13).any(|last| {
            if (end == 0 && self.bottoms[last] == 0) || (end != 0 && last != end) {
                return false;
            }
            let king_ace = (alternating - if last % 2 == 1 { 1 } else { -1 }) / 2;
            if king_ace < 0 {
                return false;
            }
            // crossings[r] counts steps between rank r and rank r % 13 + 1.
            let mut crossings = [0i32; 14];
            crossings[13] = king_ace;
            let mut before = king_ace;
            for r in 1..=12 {
                before = degree[r] - (r == last) as i32 - before;
                if before < 0 {
                    return false;
                }
                crossings[r] = before;
            }
            // Every rank still holding cards must be reachable from the top over used edges.
            let mut reached = 1u16 << top;
            let mut r = top;
            while crossings[r] > 0 && reached & (1 << (r % 13 + 1)) == 0 {
                r = r % 13 + 1;
                reached |= 1 << r;
            }
            let mut r = top;
            while crossings[(r + 11) % 13 + 1] > 0 && reached & (1 << ((r + 11) % 13 + 1)) == 0 {
                r = (r + 11) % 13 + 1;
                reached |= 1 << r;
            }
            (1..=13).all(|r| (self.count[r] == 0 && r != end) || reached & (1 << r) != 0)
        })
    }
}

impl<const C: usize, const D: usize> Game for OneFoundation<C, D> {
    type Move = Move;
    type Key = u64;

    fn key(&self) -> u64 {
        self.key_tag + self.tableau.heights_key() * 14 + self.top as u64
    }

    fn is_won(&self) -> bool {
        self.tableau.remaining() == 0
    }

    /// Taller columns first: digging where most cards wait keeps more options open. Among
    /// equals, cards of the ranks with most cards left first, keeping scarce ranks as the
    /// bridges later cards need (Black Hole seeds 1-200: 4.2M nodes instead of 16.8M).
    fn moves(&self, out: &mut Vec<Move>) {
        for column in 0..C {
            if let Some(card) = self.tableau.top(column) {
                let ends_well = self.end_next_to == 0
                    || self.tableau.remaining() > 1
                    || adjacent(self.end_next_to, rank(card));
                if adjacent(self.top, rank(card)) && ends_well {
                    out.push(Move { column: column as u8, previous_top: self.top });
                }
            }
        }
        out.sort_by_key(|m| {
            let column = m.column as usize;
            let card = self.tableau.top(column).expect("a move from a non-empty column");
            std::cmp::Reverse((self.tableau.height(column), self.count[rank(card) as usize]))
        });
    }

    fn apply(&mut self, mv: Move) {
        let card = self.tableau.top(mv.column as usize).expect("move from an empty column");
        self.tableau.pop(mv.column as usize);
        self.top = rank(card);
        self.count[self.top as usize] -= 1;
        self.counts_key -= FIVES[self.top as usize];
        if self.tableau.height(mv.column as usize) == 0 {
            self.bottoms[self.top as usize] -= 1;
            if self.bottoms[self.top as usize] == 0 {
                self.bottom_ranks &= !(1 << self.top);
            }
        }
    }

    fn undo(&mut self, mv: Move) {
        if self.tableau.height(mv.column as usize) == 0 {
            self.bottoms[self.top as usize] += 1;
            self.bottom_ranks |= 1 << self.top;
        }
        self.count[self.top as usize] += 1;
        self.counts_key += FIVES[self.top as usize];
        self.tableau.unpop(mv.column as usize);
        self.top = mv.previous_top;
    }

    /// Dead when the ranks alone rule out a win (see [`OneFoundation::rank_walk_exists`]).
    fn is_dead(&self) -> bool {
        if self.top == 0 {
            return false;
        }
        let key = ((self.counts_key * 14 + self.top as u64) * 14 + self.end_next_to as u64) << 14
            | self.bottom_ranks as u64;
        let slot = &self.walk_cache[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48) as usize % WALK_CACHE_SLOTS];
        let cached = slot.get();
        if cached >> 1 == key {
            return cached & 1 == 0;
        }
        let alive = self.rank_walk_exists();
        slot.set(key << 1 | alive as u64);
        !alive
    }
}

/// The seeded All in a Row deal: card k of the shuffled deck to column k % 13.
pub fn all_in_a_row_deal(seed: u64) -> Vec<Vec<u8>> {
    seeded_columns(&shuffled_deck(seed), 13)
}

/// The seeded Black Hole deal: the AS removed, the other 51 shuffled, card k to column k % 17.
pub fn black_hole_deal(seed: u64) -> Vec<Vec<u8>> {
    let mut deck: Vec<u8> = (1..52).collect();
    shuffle(&mut deck, seed);
    seeded_columns(&deck, 17)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{solve, Budget, Game, Outcome};
    use crate::search::table::LostTable;

    /// The mirror image of a position is won exactly when the position is, and its win played
    /// backwards is a win of the position. Returns whether the position is won.
    fn check_mirror<const C: usize, const D: usize>(columns: &[Vec<u8>], top: u8) -> bool {
        let mut position = OneFoundation::<C, D>::new(columns, top).unwrap();
        let mut mirror = OneFoundation::<C, D>::mirrored(columns, top, 0).unwrap();
        let forward = solve(&mut position, &mut LostTable::new(1 << 16).unwrap(), Budget::default());
        let backward = solve(&mut mirror, &mut LostTable::new(1 << 16).unwrap(), Budget::default());
        assert_eq!(forward.outcome, backward.outcome, "{columns:?} from {top}");
        for mv in backward.line.iter().rev() {
            let mut moves = Vec::new();
            position.moves(&mut moves);
            let played = moves.iter().find(|m| m.column == mv.column).copied();
            position.apply(played.unwrap_or_else(|| panic!("{columns:?}: column {} cannot play", mv.column)));
        }
        assert_eq!(position.is_won(), forward.outcome == Outcome::Won, "{columns:?} from {top}");
        position.is_won()
    }

    /// Two roots of one layout (its columns with another top card taken) whose foundations
    /// show the same rank: their mirrors' positions of equal heights hold different cards.
    /// Searched one after the other on one table, as `analyse` does, the second must answer as
    /// it does on a table of its own.
    #[test]
    fn mirrors_of_sibling_roots_share_a_table_without_mixing_their_positions() {
        let (mut compared, mut lost) = (0, 0);
        for seed in 1..=120u64 {
            let layout = all_in_a_row_deal(seed);
            let tops: Vec<(usize, u8)> = (0..13).map(|c| (c, rank(*layout[c].last().unwrap()))).collect();
            let Some((&(a, top), &(b, _))) = tops.iter().flat_map(|x| tops.iter().map(move |y| (x, y)))
                .find(|(x, y)| x.0 < y.0 && x.1 == y.1) else { continue };
            let root = |column: usize| -> Vec<Vec<u8>> {
                let mut columns = layout.clone();
                columns[column].pop();
                columns
            };
            let mut table = LostTable::new(1 << 16).unwrap();
            let mut first = AllInARow::mirrored(&root(a), top, 1).unwrap();
            solve(&mut first, &mut table, Budget::default());
            let mut second = AllInARow::mirrored(&root(b), top, 2).unwrap();
            let shared = solve(&mut second, &mut table, Budget::default()).outcome;
            let mut alone = AllInARow::mirrored(&root(b), top, 2).unwrap();
            let fresh = solve(&mut alone, &mut LostTable::new(1 << 16).unwrap(), Budget::default()).outcome;
            assert_eq!(shared, fresh, "seed {seed}: columns {a} and {b} from rank {top}");
            compared += 1;
            lost += (fresh == Outcome::Lost) as usize;
        }
        assert!(compared > 100 && lost > 10 && lost < compared, "{compared} pairs, {lost} lost");
    }

    #[test]
    fn a_mirrored_position_is_won_backwards_exactly_when_the_position_is() {
        let mut verdicts = [0; 2];
        for seed in 1..=12 {
            verdicts[check_mirror::<13, 4>(&all_in_a_row_deal(seed), 0) as usize] += 1;
            verdicts[check_mirror::<17, 3>(&black_hole_deal(seed), 1) as usize] += 1;
            // partly played: the first eight columns only, from a few foundation tops
            for top in [1, 7, 13] {
                verdicts[check_mirror::<13, 4>(&all_in_a_row_deal(seed)[..8].iter().cloned().chain(vec![vec![]; 5]).collect::<Vec<_>>(), top) as usize] += 1;
                verdicts[check_mirror::<17, 3>(&black_hole_deal(seed)[..6].iter().cloned().chain(vec![vec![]; 11]).collect::<Vec<_>>(), top) as usize] += 1;
            }
        }
        assert!(verdicts[0] > 10 && verdicts[1] > 10, "both verdicts occur: {verdicts:?}");
    }
}
