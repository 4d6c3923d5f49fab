//! Sir Tommy voor twee with the stock open: player U builds four foundations up from Aces,
//! player D four down from the deck's top rank; on a turn the mover draws three, plays drawn
//! cards and row tops onto their own foundations, then places every drawn card left on the rows.
//! When the stock is empty either player may play row tops (passing is free).
//!
//! The shared search (`search::solve`) plays it: plays are single moves, ending a turn places the
//! whole hand at once. The rows do not fit a 56-bit key, so positions are keyed in 5 words.
//!
//! Exactness of the table: a key is the whole position up to symmetries, packed into 5 words and
//! compared in full, so a hit is a proof:
//! - suits never matter, so cards are keyed by rank;
//! - the stock is the root's stock minus the cards drawn, so their number says what it holds;
//! - whose turn: while the stock lasts, the drawer of the last draw is to move (the number drawn
//!   says who); in the end phase either player may play, since passing is free and a turn is any
//!   number of plays, so the end phase does not key the mover at all and its moves are the plays
//!   of both players;
//! - rows are interchangeable: the key lists them sorted; a player's foundations are a multiset:
//!   the key lists their tops sorted.
//!
//! Dominance (`safe_play`): some plays never turn a winnable position into a lost one, so when
//! one is available it is the only move tried. The proof is in `safe_play`'s comment.

use crate::search::rng::SplitMix64;
use crate::search::Game;

pub const FOUNDATIONS: usize = 4;
pub const MAX_ROWS: usize = 8;
pub const DRAW: usize = 3;
const HAND: u8 = 255;
const FAR: u8 = 99;

#[inline]
pub fn rank(card: u8) -> u8 {
    card % 13 + 1
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// `player` plays `card` from the hand (`row` = 255) or the top of `row` onto their
    /// foundation `foundation`, whose top rank was `previous` (0 = empty).
    Play { player: u8, card: u8, row: u8, foundation: u8, previous: u8 },
    /// The mover places the hand, (card, row) in this order, and the next player draws.
    /// `burial` is the placement's `SirTommy::burial`, the key of the placements' order.
    EndTurn { placements: [(u8, u8); DRAW], count: u8, burial: u16 },
}

#[derive(Clone)]
pub struct SirTommy {
    /// The root's stock, top first; `drawn` of them have been drawn since the root.
    stock: Vec<u8>,
    drawn: usize,
    hand: Vec<u8>,
    rows: Vec<Vec<u8>>,
    /// Top rank of each foundation, 0 = empty; [U, D].
    tops: [[u8; FOUNDATIONS]; 2],
    to_move: usize,
    top_rank: u8,
    /// Cards of each rank in the whole deck (index 1..=top_rank).
    per_rank: [u8; 14],
}

impl SirTommy {
    pub fn new(
        stock: &[u8],
        hand: &[u8],
        rows: &[Vec<u8>],
        tops: [[u8; FOUNDATIONS]; 2],
        to_move: u8,
        top_rank: u8,
    ) -> Result<Self, String> {
        if !(1..=MAX_ROWS).contains(&rows.len()) {
            return Err(format!("{} rows; 1 to {MAX_ROWS} are supported", rows.len()));
        }
        if !(1..=13).contains(&top_rank) || hand.len() > DRAW || to_move > 1 {
            return Err("top rank 1..13, at most 3 cards in hand, mover 0 or 1".into());
        }
        let free: Vec<u8> = stock.iter().chain(hand).chain(rows.iter().flatten()).copied().collect();
        if free.iter().any(|&c| c >= 52 || rank(c) > top_rank) || free.len() > 52 {
            return Err("a card id is not below 52 or above the top rank".into());
        }
        if tops.iter().flatten().any(|&t| t > top_rank) {
            return Err("a foundation top is above the top rank".into());
        }
        let mut game = SirTommy {
            stock: stock.to_vec(),
            drawn: 0,
            hand: hand.to_vec(),
            rows: rows.to_vec(),
            tops,
            to_move: to_move as usize,
            top_rank,
            per_rank: [0; 14],
        };
        for &c in &free {
            game.per_rank[rank(c) as usize] += 1;
        }
        for r in 1..=top_rank {
            game.per_rank[r as usize] += game.on_foundations(r);
        }
        if free.len() + (1..=top_rank).map(|r| game.on_foundations(r) as usize).sum::<usize>() > 52 {
            return Err("more than 52 cards".into());
        }
        Ok(game)
    }

    /// Refuses a mover other than the last drawer while the stock lasts: keys leave the mover out
    /// (the number drawn says who), so a table shared by the roots of one stock would mix them.
    pub fn check_mover(&self) -> Result<(), String> {
        let total: usize = self.per_rank.iter().map(|&n| n as usize).sum();
        let draws = (total - self.stock_left()).div_ceil(DRAW);
        if self.end_phase() || (draws > 0 && self.to_move == (draws - 1) % 2) {
            Ok(())
        } else {
            Err(format!("mover {}, but after {draws} draws of {DRAW} the last drawer is to move", self.to_move))
        }
    }

    fn stock_left(&self) -> usize {
        self.stock.len() - self.drawn
    }

    pub fn end_phase(&self) -> bool {
        self.stock_left() == 0 && self.hand.is_empty()
    }

    /// Cards of rank `r` on foundations.
    fn on_foundations(&self, r: u8) -> u8 {
        self.foundations_at(0, r) + self.foundations_at(1, r)
    }

    /// `player`'s foundations holding a card of rank `r`: U's at or past r, D's started ones at
    /// or past r (counting down). The rank before the first counts as on all four: 0 for U,
    /// top_rank + 1 for D.
    fn foundations_at(&self, player: usize, r: u8) -> u8 {
        let count = if player == 0 {
            if r == 0 { FOUNDATIONS } else { self.tops[0].iter().filter(|&&t| t >= r).count() }
        } else if r > self.top_rank {
            FOUNDATIONS
        } else {
            self.tops[1].iter().filter(|&&t| t != 0 && t <= r).count()
        };
        count as u8
    }

    /// Whether rank `r` goes on a foundation of `player` whose top is `top`.
    #[inline]
    fn fits(&self, player: usize, top: u8, r: u8) -> bool {
        if player == 0 {
            r == top + 1
        } else if top == 0 {
            r == self.top_rank
        } else {
            r + 1 == top
        }
    }

    /// How many plays onto `player`'s foundations a card of rank `r` is away from fitting
    /// (FAR if never): the placement order's measure of how soon a card will be wanted.
    fn distance(&self, r: u8) -> u8 {
        let mut best = FAR;
        for &t in &self.tops[0] {
            if t < r {
                best = best.min(r - 1 - t);
            }
        }
        for &t in &self.tops[1] {
            let t = if t == 0 { self.top_rank + 1 } else { t };
            if t > r {
                best = best.min(t - 1 - r);
            }
        }
        best
    }

    /// A play that cannot hurt, if one is available to `players` (those who may play now).
    ///
    /// Say U may play card c of rank r now (a hand card or a row top) and (1) U has room for
    /// every rank-r card left: U's foundations at r-1 (four "at 0" less those started) are at
    /// least the rank-r cards off the foundations, and (2) no rank-(r-1) card is left off the
    /// foundations (always so for aces). Take any win L from here; L plays c at some later time,
    /// for U or for D. Let L' play c now and then follow L without c's placement and play:
    /// - every other move of L stays legal: the rows of L' are those of L without c, so each
    ///   row top L plays is a top in L' too;
    /// - U's rank-r plays: by (1) U has a free foundation at r-1 before each of them; U's
    ///   plays of other ranks only gain (one more foundation at r, earlier);
    /// - D's plays: D holds c in L at most; without it D has one foundation fewer at r, which
    ///   only a rank-(r-1) play of D could want, and by (2) there is none; D's rank-r plays
    ///   need fewer foundations at r, so they only gain.
    ///
    /// So L' wins. For D the same holds with ranks mirrored (D builds from the top rank down).
    fn safe_play(&self, players: &[usize]) -> Option<Move> {
        let left = |r: u8| self.per_rank[r as usize] - self.on_foundations(r);
        for &player in players {
            let sources = self.rows.iter().enumerate().filter_map(|(i, row)| row.last().map(|&c| (c, i as u8)));
            for (card, row) in sources.chain(self.hand.iter().map(|&c| (c, HAND))) {
                let r = rank(card);
                // the rank this player's foundations need before r, which is also the rank the
                // other player would lay after r
                let before = if player == 0 { r - 1 } else { r + 1 };
                let room = self.foundations_at(player, before).saturating_sub(self.foundations_at(player, r));
                let before_gone = before == 0 || before > self.top_rank || left(before) == 0;
                if room > 0 && room >= left(r) && before_gone {
                    let f = (0..FOUNDATIONS).find(|&f| self.fits(player, self.tops[player][f], r)).expect("room on a foundation");
                    return Some(Move::Play { player: player as u8, card, row, foundation: f as u8, previous: self.tops[player][f] });
                }
            }
        }
        None
    }

    fn push_plays(&self, player: usize, card: u8, row: u8, out: &mut Vec<Move>) {
        let r = rank(card);
        let tops = self.tops[player];
        for f in 0..FOUNDATIONS {
            if self.fits(player, tops[f], r) && !tops[..f].contains(&tops[f]) {
                out.push(Move::Play { player: player as u8, card, row, foundation: f as u8, previous: tops[f] });
            }
        }
    }

    /// Every distinct placement of the hand up to symmetry (rows of equal ranks are one row;
    /// cards of equal rank are one card), the ones burying soon-wanted cards least first.
    fn push_placements(&self, out: &mut Vec<Move>) {
        let k = self.hand.len();
        let n = self.rows.len();
        let class: Vec<usize> = (0..n)
            .map(|i| {
                (0..i)
                    .find(|&j| self.rows[j].iter().map(|&c| rank(c)).eq(self.rows[i].iter().map(|&c| rank(c))))
                    .unwrap_or(i)
            })
            .collect();
        let mut seen: Vec<u64> = Vec::new();
        let mut scored: Vec<(u16, Move)> = Vec::new();
        let mut perm: Vec<usize> = (0..k).collect();
        let mut row_of = [0usize; DRAW];
        loop {
            // every nondecreasing row sequence for this order of the cards
            row_of[..k].fill(0);
            loop {
                let mut placements = [(0u8, 0u8); DRAW];
                for i in 0..k {
                    placements[i] = (self.hand[perm[i]], row_of[i] as u8);
                }
                let mut entries: Vec<u64> = Vec::with_capacity(DRAW);
                for (row, &row_class) in class.iter().enumerate() {
                    let seq = placements[..k]
                        .iter()
                        .filter(|p| p.1 as usize == row)
                        .fold(0u64, |s, p| s << 4 | rank(p.0) as u64);
                    if seq != 0 {
                        entries.push((row_class as u64) << 12 | seq);
                    }
                }
                entries.sort_unstable();
                let signature = entries.iter().fold(0u64, |s, &e| s << 16 | e);
                if !seen.contains(&signature) {
                    seen.push(signature);
                    let burial = self.burial(&placements[..k]);
                    scored.push((burial, Move::EndTurn { placements, count: k as u8, burial }));
                }
                // next nondecreasing sequence
                let mut i = k;
                while i > 0 && row_of[i - 1] == n - 1 {
                    i -= 1;
                }
                if i == 0 {
                    break;
                }
                row_of[i - 1] += 1;
                for j in i..k {
                    row_of[j] = row_of[i - 1];
                }
            }
            if !next_permutation(&mut perm) {
                break;
            }
        }
        scored.sort_by_key(|&(score, _)| score);
        out.extend(scored.into_iter().map(|(_, mv)| mv));
    }

    /// How much a placement buries cards wanted sooner than the card laid on them.
    fn burial(&self, placements: &[(u8, u8)]) -> u16 {
        let mut tops: Vec<Option<u8>> = self.rows.iter().map(|r| r.last().copied()).collect();
        let mut score = 0u16;
        for &(card, row) in placements {
            let d = self.distance(rank(card));
            score += match tops[row as usize] {
                None => 0,
                Some(below) => (d.saturating_sub(self.distance(rank(below))) as u16) * 4 + 1,
            };
            tops[row as usize] = Some(card);
        }
        score
    }
}

impl Game for SirTommy {
    type Move = Move;
    type Key = [u64; 5];
    /// Restart runs without end (their Luby lengths grow without bound, so one completes): on hard
    /// deals the perturbed runs keep finding wins that one long run in the heuristic's order misses.
    const RESTARTS: u64 = u64::MAX;

    /// The position's key: the header (cards left in the stock, hand ranks sorted, each player's
    /// tops sorted: 6 + 12 + 32 bits) in word 0, then the rows' ranks sorted, each row ended by
    /// 0 (at most 52 + 8 nibbles).
    fn key(&self) -> [u64; 5] {
        let mut header = self.stock_left() as u64;
        let mut hand: Vec<u8> = self.hand.iter().map(|&c| rank(c)).collect();
        hand.sort_unstable();
        for i in 0..DRAW {
            header = header << 4 | *hand.get(i).unwrap_or(&0) as u64;
        }
        for player in 0..2 {
            let mut t = self.tops[player];
            t.sort_unstable();
            for x in t {
                header = header << 4 | x as u64;
            }
        }
        let mut order: Vec<usize> = (0..self.rows.len()).collect();
        order.sort_unstable_by(|&a, &b| {
            self.rows[a].iter().map(|&c| rank(c)).cmp(self.rows[b].iter().map(|&c| rank(c)))
        });
        let mut key = [header, 0, 0, 0, 0];
        let mut nibble = 0;
        for &r in &order {
            for &c in self.rows[r].iter().chain(std::iter::once(&0xFF)) {
                let value = if c == 0xFF { 0 } else { rank(c) as u64 };
                key[1 + nibble / 16] |= value << (4 * (nibble % 16));
                nibble += 1;
            }
        }
        key
    }

    fn is_won(&self) -> bool {
        self.end_phase() && self.rows.iter().all(|r| r.is_empty())
    }

    /// Moves worth trying, best first: a safe play alone if there is one; else plays from the
    /// rows, plays from the hand (one card of each rank), then the placements of the hand.
    fn moves(&self, out: &mut Vec<Move>) {
        let players: &[usize] = if self.end_phase() { &[0, 1] } else { &[self.to_move] };
        if let Some(play) = self.safe_play(players) {
            out.push(play);
            return;
        }
        for &player in players {
            for (i, row) in self.rows.iter().enumerate() {
                if let Some(&card) = row.last() {
                    self.push_plays(player, card, i as u8, out);
                }
            }
            for (i, &card) in self.hand.iter().enumerate() {
                if !self.hand[..i].iter().any(|&c| rank(c) == rank(card)) {
                    self.push_plays(player, card, HAND, out);
                }
            }
        }
        if !self.end_phase() {
            self.push_placements(out);
        }
    }

    /// Restart runs: the plays in random order, then the placements. Even runs perturb the
    /// placements' order a little (a placement may pass ones burying up to 2 less), keeping the
    /// heuristic's drift: on hard deals this decides far more than a uniform shuffle. Odd runs
    /// shuffle them uniformly: in crowded mid-game positions the heuristic's first placements
    /// can all hide their wins behind millions of nodes while a placement it ranks late wins
    /// within a hundred (seed 1 after 8 greedy turns: moves open after 10 s decided in 0.02 s).
    fn perturb(&self, moves: &mut [Move], rng: &mut SplitMix64, run: u64) {
        let plays = moves.iter().take_while(|mv| matches!(mv, Move::Play { .. })).count();
        let (plays, placements) = moves.split_at_mut(plays);
        rng.shuffle(plays);
        if run % 2 == 1 {
            rng.shuffle(placements);
            return;
        }
        placements.sort_by_cached_key(|mv| match mv {
            Move::EndTurn { burial, .. } => *burial as u32 * 4 + (rng.next_u64() % 12) as u32,
            Move::Play { .. } => unreachable!("placements follow the plays"),
        });
    }

    fn apply(&mut self, mv: Move) {
        match mv {
            Move::Play { player, card, row, foundation, .. } => {
                if row == HAND {
                    let i = self.hand.iter().position(|&c| c == card).expect("card in hand");
                    self.hand.swap_remove(i);
                } else {
                    self.rows[row as usize].pop();
                }
                self.tops[player as usize][foundation as usize] = rank(card);
            }
            Move::EndTurn { placements, count, .. } => {
                for &(card, row) in &placements[..count as usize] {
                    self.rows[row as usize].push(card);
                }
                let take = DRAW.min(self.stock_left());
                self.hand.clear();
                self.hand.extend_from_slice(&self.stock[self.drawn..self.drawn + take]);
                self.drawn += take;
                self.to_move ^= 1;
            }
        }
    }

    fn undo(&mut self, mv: Move) {
        match mv {
            Move::Play { player, card, row, foundation, previous } => {
                self.tops[player as usize][foundation as usize] = previous;
                if row == HAND {
                    self.hand.push(card);
                } else {
                    self.rows[row as usize].push(card);
                }
            }
            Move::EndTurn { placements, count, .. } => {
                self.to_move ^= 1;
                self.drawn -= self.hand.len();
                self.hand.clear();
                for &(card, row) in placements[..count as usize].iter().rev() {
                    self.rows[row as usize].pop();
                    self.hand.push(card);
                }
            }
        }
    }
}

/// The next permutation in lexicographic order; false after the last.
fn next_permutation(items: &mut [usize]) -> bool {
    let n = items.len();
    if n < 2 {
        return false;
    }
    let mut i = n - 1;
    while i > 0 && items[i - 1] >= items[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = n - 1;
    while items[j] <= items[i - 1] {
        j -= 1;
    }
    items.swap(i - 1, j);
    items[i..].reverse();
    true
}

/// The seeded deal: the shuffled deck is the stock, index 0 on top.
pub fn deal(seed: u64) -> Vec<u8> {
    let mut deck: Vec<u8> = (0..52).collect();
    crate::search::rng::shuffle(&mut deck, seed);
    deck
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opening(seed: u64, rows: usize) -> SirTommy {
        let deck = deal(seed);
        SirTommy::new(&deck[3..], &deck[..3], &vec![Vec::new(); rows], [[0; 4]; 2], 0, 13).unwrap()
    }

    #[test]
    fn apply_then_undo_restores_every_key() {
        let mut game = opening(7, 4);
        let mut moves = Vec::new();
        for step in 0..200 {
            moves.clear();
            game.moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let before = game.key();
            let mv = moves[step % moves.len()];
            game.apply(mv);
            game.undo(mv);
            assert_eq!(before, game.key());
            game.apply(mv);
        }
    }

    #[test]
    fn placements_of_three_cards_on_four_empty_rows_are_few() {
        // U's first turn: three cards, rows all empty and alike; cards of distinct ranks
        let game = opening(7, 4);
        let mut moves = Vec::new();
        game.push_placements(&mut moves);
        // partitions of 3 distinct cards into ordered lists on unlabelled rows: 3 singles (1),
        // a pair plus a single (3 * 2), one list of three (6)
        assert_eq!(moves.len(), 13);
    }

    #[test]
    fn a_safe_play_is_the_only_move_and_needs_the_rank_below_gone() {
        let seed = (1..).find(|&s| deal(s)[..3].iter().any(|&c| rank(c) == 1)).unwrap();
        let game = opening(seed, 4);
        let mut moves = Vec::new();
        game.moves(&mut moves);
        assert!(matches!(moves[..], [Move::Play { player: 0, row: HAND, card, .. }] if rank(card) == 1));
        // D holds K..2 of one suit; U has three aces; the 2 of another suit tops row 1. U has
        // room for all three 2s left, but while the last ace is off the foundations D might
        // want it after a 2, so playing the 2 is safe only once that ace is on a foundation.
        let moves_with_last_ace = |on_u: bool| {
            let held: Vec<u8> = (1..=12).chain([13, 26, 39]).collect();
            let stock: Vec<u8> = (0..52).filter(|c| !held.contains(c) && *c != 14 && !(on_u && *c == 0)).collect();
            let tops_u = if on_u { [1, 1, 1, 1] } else { [1, 1, 1, 0] };
            let game = SirTommy::new(&stock, &[], &[vec![14], vec![], vec![], vec![]], [tops_u, [2, 0, 0, 0]], 0, 13).unwrap();
            let mut moves = Vec::new();
            game.moves(&mut moves);
            moves
        };
        assert!(moves_with_last_ace(false).len() > 1);
        assert!(matches!(moves_with_last_ace(true)[..], [Move::Play { player: 0, card: 14, row: 0, .. }]));
    }
}
