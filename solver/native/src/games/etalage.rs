//! Etalage with every hand open: what one player can guarantee (paranoid: every other player
//! plays to minimise that player's final score) and the most they reach with everybody's help.
//!
//! A position is each hand and the display as bit sets of card ids (`colour * 10 + value - 1`),
//! the trick's cards in play order, the leader, and during a distribution the order of the
//! players entitled to pick and how many have picked, as in `puzzles/etalage.py`. A move is a
//! card (its id) or a pick (`PICK + colour`).
//!
//! The search is alpha-beta with one maximiser (the focus player; every player in the
//! cooperative search) against the others as one minimiser. It values what the focus player
//! still takes, so scores so far are not part of a position. Bounds on that value are kept in
//! a size-capped table on exact keys (every card's place, the leader, the picks made, the focus
//! player and the search kind); the root value is found by null-window tests that halve the
//! interval between proven bounds, so a budget that runs out still leaves proven bounds. The
//! table may be shared by searches in several threads, and spare cores can help one search
//! (`solve_together`).
//!
//! Pruning, each safe:
//! - A static upper bound: the focus player takes at most one colour per distribution still
//!   open to them (in the current one from the display as it is), and only cards that can
//!   still be taken: the display, the trick when another trick follows, and hand cards except
//!   each hand's last card (the last trick's cards stay in the display). A position whose bound
//!   is 0 (e.g. the last distribution after the focus player's pick) is a leaf.
//! - A static lower bound during a distribution: the focus player is sure of the colour ranked
//!   one below the picks of the others before them (`sure_pick`); and in the search of a
//!   guarantee, while a trick is played, that bound after the trick's remaining cards played
//!   best for each side (`trick_floor`), which cuts where the others cannot stop the focus
//!   player taking enough from this trick's distribution (measured, 5 players from the 5th
//!   trick: with the floor from the last two cards on, 2.4 times as fast as without; from the
//!   last three, 3.5 times; from every card, fewer nodes again and as fast). From a
//!   distribution, the next trick's floor whatever is picked (`next_trick_floor`) cuts before
//!   the picks are searched one by one. In the trick before the last, whose cards decide the
//!   last trick's, the floor adds what the focus player is sure of there (`last_trick_floor`;
//!   measured: 6 players from the 6th trick 0.47 times the nodes and 1.8 times as fast, 6
//!   players from the 5th trick 0.53 to 0.73 times the nodes of three hard tests). Elsewhere
//!   the floor is the display's colour at the focus player's best place in the trick, which
//!   does not depend on the display, so each search remembers the places it proved
//!   (`placed_within`; one hard 6-player test 12.9 s to 10.4 s, the same nodes), and leaves
//!   that memory to the next search (`BoundTable::spare_places`).
//! - Null-window searches that need only a few points more (`NEED_KEYED`) are also keyed with
//!   the display seen through its colours' totals capped at that need (`State::keys`), which
//!   merges positions whose displays differ in cards but not in the answer.
//! - A run of picks by players other than the focus player takes its colours in increasing
//!   order only, since any order leaves the same position (only the focus player's points
//!   count); the run's later picks, which see only part of their moves, stay out of the table.
//! - The endgame is valued without the table: from the distribution before the last trick on,
//!   every play is forced, so only that distribution's picks are searched (a small alpha-beta
//!   of its own), and the last distribution has a closed form (`sure_pick` is exact there).
//!   The last few cards of the trick before the last are searched without the table too.
//! - A pick with one colour in the display, and a play from a hand of one card, are the only
//!   moves there (no branching).
//! - Move order: the table's move first; then the last two cards of a trick by what the focus
//!   player is then sure to take in its distribution (`trick_floor`); then the maximiser's high
//!   cards and the minimisers' low ones (measured: a third of the nodes of high cards for all),
//!   picks of large colours first (of small ones for a helper in the cooperative search).

use crate::search::table::{table_memory, table_slots};
use crate::search::{Budget, Watch};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

pub const MAX_PLAYERS: usize = 6;
pub const MIN_PLAYERS: usize = 3;
/// Cards per colour in the full deck; card ids are `colour * TOP + value - 1`.
pub const TOP: u8 = 10;
/// Moves are card ids for plays and `PICK + colour` for picks.
pub const PICK: u8 = 100;
const COLOUR: u64 = (1 << TOP) - 1;

#[inline]
fn value(card: u8) -> i32 {
    (card % TOP) as i32 + 1
}

#[inline]
fn colour_mask(colour: usize) -> u64 {
    COLOUR << (colour * TOP as usize)
}

/// The points of each set of one colour's values (bit v - 1 for value v).
const COLOUR_POINTS: [u8; 1 << TOP] = {
    let mut table = [0u8; 1 << TOP];
    let mut set = 1;
    while set < table.len() {
        table[set] = table[set & (set - 1)] + set.trailing_zeros() as u8 + 1;
        set += 1;
    }
    table
};

/// The points of one colour's cards among `cards`.
#[inline]
fn colour_points(cards: u64, colour: usize) -> i32 {
    COLOUR_POINTS[((cards >> (colour * TOP as usize)) & COLOUR) as usize] as i32
}

/// The points of a set of cards.
#[inline]
fn points(cards: u64) -> i32 {
    (0..MAX_PLAYERS).map(|colour| colour_points(cards, colour)).sum()
}

/// The lowest value among a non-empty set of cards (ids run colour by colour, so the lowest id
/// is not the lowest value).
#[inline]
fn lowest_value(cards: u64) -> i32 {
    // the values held in any colour, a bit each
    let values = (0..MAX_PLAYERS).fold(0, |values, colour| values | cards >> (colour * TOP as usize)) & COLOUR;
    if values == 0 {
        0
    } else {
        values.trailing_zeros() as i32 + 1
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub players: u8,
    pub hands: [u64; MAX_PLAYERS],
    pub display: u64,
    /// The trick's cards in play order from the leader.
    pub trick: [u8; MAX_PLAYERS],
    pub trick_len: u8,
    pub leader: u8,
    /// During a distribution: who picks, in order, and how many have picked.
    pub order: [u8; MAX_PLAYERS],
    pub order_len: u8,
    pub picked: u8,
}

/// An exact key: four bits per card (0 taken, 1..=6 in hand p+1, 7..=12 played to this trick by
/// player p+7, 13 in the display), fifteen cards a word, and in each word's top four bits the
/// picks made, the leader, the focus player, and the players with the search kind.
pub type Key = [u64; 4];

impl State {
    /// A position from card lists; Err on anything the rules rule out (never a panic).
    pub fn new(display: &[u8], hands: &[Vec<u8>], leader: usize, trick: &[u8], picked: usize) -> Result<State, String> {
        let players = hands.len();
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(format!("{players} players; Etalage is for {MIN_PLAYERS} to {MAX_PLAYERS}"));
        }
        if leader >= players || trick.len() > players {
            return Err(format!("leader {leader} or trick of {} cards out of range", trick.len()));
        }
        let mut seen = 0u64;
        let mut set = |cards: &[u8]| -> Result<u64, String> {
            let mut mask = 0;
            for &card in cards {
                if card as usize >= players * TOP as usize {
                    return Err(format!("card id {card} is not in play with {players} players"));
                }
                if seen & (1 << card) != 0 {
                    return Err(format!("card id {card} appears twice"));
                }
                seen |= 1 << card;
                mask |= 1 << card;
            }
            Ok(mask)
        };
        let display = set(display)?;
        let mut s = State {
            players: players as u8,
            hands: [0; MAX_PLAYERS],
            display,
            trick: [0; MAX_PLAYERS],
            trick_len: trick.len() as u8,
            leader: leader as u8,
            order: [0; MAX_PLAYERS],
            order_len: 0,
            picked: 0,
        };
        for (p, hand) in hands.iter().enumerate() {
            s.hands[p] = set(hand)?;
        }
        // Every hand holds the same number of cards, counting the card each player who has
        // played to the trick put there: the search reads the tricks left from one hand and
        // plays a card of every hand each trick (uneven hands made it recurse without end).
        let size = |p: usize| hands[p].len() + ((p + players - leader) % players < trick.len()) as usize;
        if let Some(p) = (0..players).find(|&p| size(p) != size(leader)) {
            return Err(format!("hand {p} holds {} cards, which does not fit hand {leader} and a trick of {}", hands[p].len(), trick.len()));
        }
        set(trick)?;
        s.trick[..trick.len()].copy_from_slice(trick);
        if s.distributing() {
            s.set_order();
            if picked >= s.order_len as usize || s.display == 0 {
                return Err(format!("pick {picked} of a distribution of {} picks", s.order_len));
            }
            s.picked = picked as u8;
        } else if picked != 0 {
            return Err("picks before the trick is complete".to_string());
        }
        Ok(s)
    }

    /// Every card in the hands.
    #[inline]
    pub fn held(&self) -> u64 {
        self.hands.iter().fold(0, |all, &hand| all | hand)
    }

    #[inline]
    pub fn distributing(&self) -> bool {
        self.trick_len == self.players
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.trick_len == 0 && self.hands[..self.players as usize].iter().all(|&h| h == 0)
    }

    /// The player to play or pick.
    #[inline]
    pub fn mover(&self) -> u8 {
        if self.distributing() {
            self.order[self.picked as usize]
        } else {
            (self.leader + self.trick_len) % self.players
        }
    }

    /// The players still to pick in the current distribution, in order (none outside one).
    #[inline]
    pub fn pickers(&self) -> &[u8] {
        &self.order[self.picked as usize..self.order_len as usize]
    }

    /// The order of the players entitled to pick after a complete trick: colours by strength
    /// (sum of their cards), players within a colour by card value, stopping at a tie.
    fn set_order(&mut self) {
        let n = self.players as usize;
        let strength = Strengths::of(&self.trick[..n]);
        // each player's place: strength first, then the card (ids of one colour rise with the
        // value); sorted strongest first by insertion (at most six)
        let mut places = [(0u16, 0u8, 0u8); MAX_PLAYERS];
        for i in 0..n {
            let card = self.trick[i];
            let place = ((strength.get((card / TOP) as usize) as u16) << 8 | card as u16, card / TOP, ((self.leader as usize + i) % n) as u8);
            let mut j = i;
            while j > 0 && places[j - 1].0 < place.0 {
                places[j] = places[j - 1];
                j -= 1;
            }
            places[j] = place;
        }
        self.order_len = 0;
        let mut i = 0;
        while i < n {
            let (level, colour) = (places[i].0 >> 8, places[i].1);
            let mut end = i;
            while end < n && places[end].0 >> 8 == level {
                if places[end].1 != colour {
                    return; // a tie: nobody from here on picks
                }
                end += 1;
            }
            for &(_, _, player) in &places[i..end] {
                self.order[self.order_len as usize] = player;
                self.order_len += 1;
            }
            i = end;
        }
    }

    /// Ends a distribution when every entitled player has picked or the display is empty.
    fn settle(&mut self) {
        if !self.distributing() || (self.picked < self.order_len && self.display != 0) {
            return;
        }
        for &card in &self.trick[..self.players as usize] {
            self.display |= 1 << card;
        }
        if self.order_len > 0 {
            self.leader = self.order[0];
        }
        self.trick_len = 0;
        self.order_len = 0;
        self.picked = 0;
    }

    /// During a distribution: the next trick's start as if the pickers had emptied the display,
    /// so that only this trick's cards are on display (the leader is the same whatever they
    /// pick).
    fn cleared(&self) -> State {
        let mut next = *self;
        next.display = 0;
        next.settle();
        next
    }

    /// The position after a legal move, and the points the mover took.
    pub fn apply(&self, mv: u8) -> (State, i32) {
        let mut s = *self;
        let mover = self.mover() as usize;
        let mut gain = 0;
        if mv >= PICK {
            let colour = (mv - PICK) as usize;
            gain = colour_points(s.display, colour);
            s.display &= !colour_mask(colour);
            s.picked += 1;
        } else {
            s.hands[mover] &= !(1 << mv);
            s.trick[s.trick_len as usize] = mv;
            s.trick_len += 1;
            if s.distributing() {
                s.set_order();
            }
        }
        s.settle();
        (s, gain)
    }

    /// Legal moves (unordered): the mover's cards, or the colours in the display.
    pub fn moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.distributing() {
            for colour in 0..self.players as usize {
                if self.display & colour_mask(colour) != 0 {
                    out.push(PICK + colour as u8);
                }
            }
        } else if !self.is_over() {
            let mut hand = self.hands[self.mover() as usize];
            while hand != 0 {
                out.push(hand.trailing_zeros() as u8);
                hand &= hand - 1;
            }
        }
    }

    pub fn is_legal(&self, mv: u8) -> bool {
        let mut moves = Vec::new();
        self.moves(&mut moves);
        moves.contains(&mv)
    }

    /// The most `focus` can still take (see the module notes): in the current distribution at
    /// most the largest colour of the display; in the later ones, one colour each of the cards
    /// that can still be taken, so at most the largest colour totals, one per later trick.
    pub fn upper_bound(&self, focus: u8) -> i32 {
        let n = self.players as usize;
        let (later, now) = if self.distributing() {
            let open = self.pickers().contains(&focus);
            (self.hands[0].count_ones() as usize, open)
        } else {
            // the next player to play has not played this trick: their hand counts it too
            (self.hands[self.mover() as usize].count_ones() as usize - 1, true)
        };
        let now = if now { (0..n).map(|c| colour_points(self.display, c)).max().unwrap_or(0) } else { 0 };
        if later == 0 {
            return now;
        }
        // every card that can still be taken; the last trick's cards (one per hand, at least
        // each hand's lowest) never are
        let mut takeable = self.display;
        let mut lowest = 0;
        for &card in &self.trick[..self.trick_len as usize] {
            takeable |= 1 << card;
        }
        for &hand in self.hands[..n].iter().filter(|&&h| h != 0) {
            takeable |= hand;
            lowest += lowest_value(hand);
        }
        let colours = Ranked::new(takeable).totals;
        let later_best: i32 = colours[..later.min(n)].iter().sum();
        (points(takeable) - lowest).min(now + later_best)
    }

    pub fn key(&self, focus: u8, cooperative: bool) -> Key {
        self.finish_key(self.cards_key(), focus, cooperative, 0)
    }

    /// The exact key (of the search of a guarantee) and the key of the question "does `focus`
    /// take at least `need` more?" (a search in the window need - 1..need against the others;
    /// `need` 1..=4), which share the hands' and the trick's codes, worked out once.
    ///
    /// The question's answer depends on the
    /// display only through its colours' totals capped at `need`: picks take whole colours, so a
    /// colour holding `need` already settles the question whenever it is taken, and only an
    /// empty display ends a distribution early. So the display is keyed by those capped totals:
    /// its cards as if taken, and for each colour it holds with at least three cards out of the
    /// hands and the trick, those three lowest coded 15 and then 14 or 15 for each bit of the
    /// capped total less one (other colours as in an exact key); and `need` in the top bits
    /// left free. Each key stands for one set of capped totals (tested: a first draft that coded
    /// the total as 1..4 met a hand's code and merged two different positions).
    pub fn keys(&self, focus: u8, need: i32) -> (Key, Key) {
        let cards = self.cards_key();
        (self.finish_key(cards, focus, false, 0), self.finish_key(cards, focus, false, need))
    }

    /// A key's codes of the cards in the hands and the trick, and the trick's cards.
    fn cards_key(&self) -> (Key, u64) {
        let mut key = [0u64; 4];
        for p in 0..self.players as usize {
            put_code(&mut key, self.hands[p], p as u64 + 1);
        }
        let mut trick = 0u64;
        for i in 0..self.trick_len as usize {
            let player = (self.leader as usize + i) % self.players as usize;
            put_code(&mut key, 1 << self.trick[i], player as u64 + 7);
            trick |= 1 << self.trick[i];
        }
        (key, trick)
    }

    /// `cards_key`'s key completed with the display (exact, or seen through `need` when it is
    /// above 0) and the top bits.
    fn finish_key(&self, (mut key, trick): (Key, u64), focus: u8, cooperative: bool, need: i32) -> Key {
        debug_assert!((0..=NEED_KEYED).contains(&need), "need {need}: the key codes 1..={NEED_KEYED}");
        let mut put = |cards: u64, code: u64| put_code(&mut key, cards, code);
        if need > 0 {
            // codes 14 and 15 only, which no card in a hand or the trick has: with the hands and
            // the trick, the key still tells which cards are out, and so what each colour holds
            let out = !(self.held() | trick);
            for colour in (0..self.players as usize).filter(|&c| self.display & colour_mask(c) != 0) {
                let mut cards = out & colour_mask(colour);
                if cards.count_ones() < 3 {
                    put(self.display & colour_mask(colour), 13); // too few out cards to say more
                    continue;
                }
                // the lowest out card 15, the next two the bits of the capped total less one
                let total = colour_points(self.display, colour).min(need) as u64 - 1;
                for code in [15, 14 + (total & 1), 14 + (total >> 1 & 1)] {
                    put(1 << cards.trailing_zeros(), code);
                    cards &= cards - 1;
                }
            }
        } else {
            put(self.display, 13);
        }
        key[0] |= (self.picked as u64) << 60;
        key[1] |= (self.leader as u64) << 60;
        key[2] |= (focus as u64) << 60;
        key[3] |= (self.players as u64) << 61 | (cooperative as u64) << 60;
        // `need` (1..=4) in three bits no exact key sets: the top bit of the picks, leader, focus
        let need = need as u64;
        key[0] |= (need & 1) << 63;
        key[1] |= (need >> 1 & 1) << 63;
        key[2] |= (need >> 2 & 1) << 63;
        key
    }
}

/// Codes each of `cards` in `key` with `code` (four bits a card, fifteen cards a word).
#[inline]
fn put_code(key: &mut Key, mut cards: u64, code: u64) {
    while cards != 0 {
        let card = cards.trailing_zeros() as usize;
        cards &= cards - 1;
        key[card / 15] |= code << (4 * (card % 15));
    }
}

/// Runs of picks, and the endgame: from the distribution before the last trick on, every play
/// is forced and only the picks of that distribution branch, so it is searched without the
/// table.
impl State {
    /// Picks in a row by players other than the focus player leave the same position in any
    /// order, so in such a run the colours are taken in increasing order only. For the mover's
    /// pick of `colour`: the least colour the next picker may take (0 outside a run), or None
    /// when only smaller colours would be left to them (that set of picks is tried in
    /// increasing order instead).
    #[inline]
    fn next_floor(&self, focus: u8, colour: usize) -> Option<usize> {
        let next = self.pickers().get(1);
        let left = self.display & !colour_mask(colour);
        if self.mover() == focus || next.is_none_or(|&p| p == focus) || left == 0 {
            Some(0)
        } else if left >> ((colour + 1) * TOP as usize) == 0 {
            None
        } else {
            Some(colour + 1)
        }
    }

    /// Whether `endgame` values this position: the last trick or the distribution before it.
    #[inline]
    fn in_endgame(&self) -> bool {
        let held = self.held().count_ones() as u8;
        if self.distributing() {
            held == 0 || held == self.players
        } else {
            held + self.trick_len <= self.players
        }
    }

    /// Whether the trick under way (or starting) is the one before the last.
    #[inline]
    fn before_last_trick(&self) -> bool {
        self.held().count_ones() as usize + self.trick_len as usize == 2 * self.players as usize
    }

    /// Whether `trick_before_last` values this position: the trick before the last, under way,
    /// with at most `TABLE_FREE_CARDS` of its cards left.
    #[inline]
    fn in_trick_before_last(&self) -> bool {
        !self.distributing()
            && self.trick_len > 0
            && self.trick_len + TABLE_FREE_CARDS >= self.players
            && self.held().count_ones() as u8 + self.trick_len == 2 * self.players
    }

    /// What `focus` still takes from the trick before the last, under way (see
    /// `in_trick_before_last`): fail-soft alpha-beta in `alpha`..`beta` over its cards left, two
    /// in each hand, the maximiser's higher first and the minimisers' lower, and then `endgame`.
    fn trick_before_last(&self, focus: u8, cooperative: bool, alpha: i32, beta: i32) -> i32 {
        let mover = self.mover();
        let maximise = cooperative || mover == focus;
        let mut window = Window::new(maximise, alpha, beta);
        let hand = self.hands[mover as usize];
        let (low, high) = (hand.trailing_zeros() as u8, 63 - hand.leading_zeros() as u8);
        let (low, high) = if value(low) <= value(high) { (low, high) } else { (high, low) };
        for card in if maximise { [high, low] } else { [low, high] } {
            let child = self.apply(card).0;
            let v = if child.in_endgame() {
                child.endgame(focus, cooperative, window.alpha, window.beta)
            } else {
                child.trick_before_last(focus, cooperative, window.alpha, window.beta)
            };
            if window.take(v) {
                break;
            }
        }
        window.best
    }

    /// What `focus` still takes from an endgame position (see `in_endgame`): fail-soft in the
    /// window `alpha`..`beta`.
    fn endgame(&self, focus: u8, cooperative: bool, alpha: i32, beta: i32) -> i32 {
        if self.is_over() {
            return 0;
        }
        if !self.distributing() {
            let mut s = *self;
            while !s.distributing() {
                s = s.apply(s.hands[s.mover() as usize].trailing_zeros() as u8).0;
                if s.trick_len == 0 {
                    return 0; // a tie at the top or an empty display: nobody picks, and it is over
                }
            }
            return s.endgame(focus, cooperative, alpha, beta);
        }
        if self.held() == 0 {
            return sure_pick(self.display, self.pickers(), focus, cooperative);
        }
        // the last trick's order follows from the cards left, whoever leads it
        let n = self.players as usize;
        let mut last = [0; MAX_PLAYERS];
        for p in 0..n {
            last[(p + n - self.leader as usize) % n] = self.hands[p].trailing_zeros() as u8;
        }
        let trick = self.cleared().display;
        let ending = Ending {
            players: n,
            order: self.order,
            order_len: self.order_len as usize,
            focus,
            cooperative,
            before_last: pickers_before(&last[..n], self.leader, focus),
            shown: std::array::from_fn(|colour| colour_points(self.display, colour)),
            played: std::array::from_fn(|colour| colour_points(trick, colour)),
        };
        ending.value(self.display, self.picked as usize, alpha, beta, 0)
    }
}

/// The distribution before the last trick, whose picks `State::endgame` searches, and the last
/// distribution, which has a closed form: this trick's cards join what the pickers leave, and
/// the last trick's pickers (known from the cards left) take from that.
struct Ending {
    players: usize,
    /// This distribution's pickers in order.
    order: [u8; MAX_PLAYERS],
    order_len: usize,
    focus: u8,
    cooperative: bool,
    /// How many pick before the focus player in the last distribution (None: they pick nothing).
    before_last: Option<usize>,
    /// Each colour's total in the display and in this trick's cards.
    shown: [i32; MAX_PLAYERS],
    played: [i32; MAX_PLAYERS],
}

impl Ending {
    /// What the focus player still takes when `picked` players have picked and left `display`:
    /// fail-soft alpha-beta over the picks (in runs, increasing colours only, as
    /// `State::next_floor` rules), then the last distribution.
    fn value(&self, display: u64, picked: usize, alpha: i32, beta: i32, floor: usize) -> i32 {
        if picked >= self.order_len || display == 0 {
            return self.last_pick(display);
        }
        let mover = self.order[picked];
        let next = (picked + 1 < self.order_len).then(|| self.order[picked + 1]);
        let mut window = Window::new(self.cooperative || mover == self.focus, alpha, beta);
        for colour in floor..self.players {
            if display & colour_mask(colour) == 0 {
                continue;
            }
            let left = display & !colour_mask(colour);
            let next_floor = if mover == self.focus || next.is_none_or(|p| p == self.focus) || left == 0 {
                0
            } else if left >> ((colour + 1) * TOP as usize) == 0 {
                continue;
            } else {
                colour + 1
            };
            let gain = if mover == self.focus { self.shown[colour] } else { 0 };
            let v = gain + self.value(left, picked + 1, window.alpha - gain, window.beta - gain, next_floor);
            if window.take(v) {
                break;
            }
        }
        window.best
    }

    /// What the focus player takes in the last distribution when this one leaves `display`.
    fn last_pick(&self, display: u64) -> i32 {
        let Some(before) = self.before_last else { return 0 };
        let totals = std::array::from_fn(|colour| {
            self.played[colour] + if display & colour_mask(colour) != 0 { self.shown[colour] } else { 0 }
        });
        Ranked::of_totals(totals).sure_pick(before, self.cooperative)
    }
}

/// What `focus` is sure to take in a distribution from `display`, `pickers` picking in that
/// order: against the others, who can take the largest colours before them, the colour ranked
/// one below those; helped, the largest colour, if any is left when their turn comes. In the
/// game's last distribution that is exactly what they take.
fn sure_pick(display: u64, pickers: &[u8], focus: u8, cooperative: bool) -> i32 {
    let Some(before) = pickers.iter().position(|&p| p == focus) else { return 0 };
    Ranked::new(display).sure_pick(before, cooperative)
}

/// The display's colour totals, largest first.
#[derive(Clone, Copy)]
struct Ranked {
    totals: [i32; MAX_PLAYERS],
    /// How many colours the display holds.
    present: usize,
}

impl Ranked {
    fn new(display: u64) -> Self {
        Ranked::of_totals(std::array::from_fn(|colour| colour_points(display, colour)))
    }

    /// Colour totals (0 for a colour not present) ranked, by a sorting network (the insertion
    /// sort it replaces was 8% of the time).
    fn of_totals(mut totals: [i32; MAX_PLAYERS]) -> Self {
        const _: () = assert!(MAX_PLAYERS == 6, "the network sorts six totals");
        const LAYERS: [(usize, usize); 12] = [(0, 5), (1, 3), (2, 4), (1, 2), (3, 4), (0, 3), (2, 5), (0, 1), (2, 3), (4, 5), (1, 2), (3, 4)];
        for (i, j) in LAYERS {
            let (high, low) = (totals[i].max(totals[j]), totals[i].min(totals[j]));
            totals[i] = high;
            totals[j] = low;
        }
        Ranked { totals, present: totals.iter().filter(|&&total| total > 0).count() }
    }

    /// `sure_pick` for a player with `before` pickers before them.
    #[inline]
    fn sure_pick(&self, before: usize, cooperative: bool) -> i32 {
        match (before < self.present, cooperative) {
            (false, _) => 0,
            (true, true) => self.totals[0],
            (true, false) => self.totals[before],
        }
    }
}

/// A hash of key words, for the table's buckets and the places' slots.
#[inline]
fn hash_words(words: impl IntoIterator<Item = u64>) -> u64 {
    let h = words.into_iter().fold(0u64, |h, w| (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29));
    (h ^ (h >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// The set of `cards` (a bit per card).
#[inline]
fn card_set(cards: &[u8]) -> u64 {
    cards.iter().fold(0, |set, &card| set | 1 << card)
}

/// Each colour's strength in a trick, the sum of its cards' values: a byte a colour (strengths
/// stay below 64) in one word, so that adding a card stays in a register. (As an array of bytes,
/// the byte written for a card and the whole array read back for the next call could not be
/// forwarded from the store: over a quarter of the trick floor's time.)
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Strengths(u64);

impl Strengths {
    /// The strengths of the cards `trick`.
    #[inline]
    fn of(trick: &[u8]) -> Self {
        trick.iter().fold(Strengths::default(), |strength, &card| strength.with(card))
    }

    /// The strengths of the set of cards `cards`.
    #[inline]
    fn of_set(cards: u64) -> Self {
        Strengths((0..MAX_PLAYERS).fold(0, |word, colour| word | (colour_points(cards, colour) as u64) << (8 * colour)))
    }

    /// The strengths once `card` joins the trick.
    #[inline]
    fn with(self, card: u8) -> Self {
        Strengths(self.0 + (((card % TOP + 1) as u64) << (8 * (card / TOP) as u32)))
    }

    /// The strength of `colour`.
    #[inline]
    fn get(self, colour: usize) -> u8 {
        (self.0 >> (8 * colour)) as u8
    }
}

/// Each card a player of a trick whose strengths are `strength` can play from `hand`, with the
/// strengths once it is played (the trick floor's searches add a trick's cards one by one).
#[inline]
fn plays(mut hand: u64, strength: Strengths) -> impl Iterator<Item = (u8, Strengths)> {
    std::iter::from_fn(move || {
        (hand != 0).then(|| {
            let card = hand.trailing_zeros() as u8;
            hand &= hand - 1;
            (card, strength.with(card))
        })
    })
}

/// How many players pick before `focus` in the distribution of a complete trick (`trick` in
/// play order from `leader`), or None when `focus` picks nothing (their colour ties, or ranks
/// below a tie). The rule of `State::set_order`, for one player and without building the order.
fn pickers_before(trick: &[u8], leader: u8, focus: u8) -> Option<usize> {
    let n = trick.len();
    let own = trick[(focus as usize + n - leader as usize) % n];
    let cards = card_set(trick);
    place(cards, Strengths::of(trick), own, n)
}

/// `pickers_before` for the player of `own` in the complete trick `cards` of `players` cards,
/// whose colours' strengths are `strength` (kept up as `Solver::trick_floor` adds cards).
#[inline]
fn place(cards: u64, strength: Strengths, own: u8, players: usize) -> Option<usize> {
    let colour = (own / TOP) as usize;
    // the higher cards of the focus player's colour, and the colours at least as strong as
    // theirs, pick before them, unless two of those colours (theirs among them) are equally
    // strong: strengths are below 64, so a bit set finds a repeat
    let mut before = (cards & colour_mask(colour) & !((2u64 << own) - 1)).count_ones() as usize;
    let level = strength.get(colour);
    let mut strengths_seen = 1u64 << level;
    for c in (0..players).filter(|&c| c != colour && strength.get(c) >= level) {
        let bit = 1u64 << strength.get(c);
        if strengths_seen & bit != 0 {
            return None; // a tie at or above the focus player's colour
        }
        strengths_seen |= bit;
        before += (cards & colour_mask(c)).count_ones() as usize;
    }
    Some(before)
}

/// A place no player has: the focus player picks nothing (`place` is None).
const NO_PLACE: u8 = MAX_PLAYERS as u8;
/// Places remembered by each search (`Solver::placed_within`): 4 MiB (2 MiB was 3% slower, 8 MiB
/// no faster).
const PLACE_ENTRIES: usize = 1 << 16;

/// The rest of a trick as the focus player's place in its distribution depends on it, which
/// does not involve the display: the hands of the players still to play, from the mover on
/// (`slots[..players - len]`), the trick's cards so far as a set (`slots[players - len]`), and
/// the focus player's card once played (else `u8::MAX`). Different players' having played the
/// same cards share a key. It names the focus player and the number of players, so that the
/// memory can serve every later search (see `BoundTable::spare_places`).
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct PlaceKey {
    slots: [u64; MAX_PLAYERS],
    leader: u8,
    len: u8,
    own: u8,
    focus: u8,
    players: u8,
    /// 0 for the place; else `need << 8 | holding` of the question `next_trick_floor` asks
    /// of the trick before the last, whose answer is kept as a place of 0 (sure of the need)
    /// or `NO_PLACE` (not sure).
    question: u32,
}

impl PlaceKey {
    fn slot(&self) -> usize {
        let header = (self.leader as u64) | (self.len as u64) << 8 | (self.own as u64) << 16 | (self.focus as u64) << 24
            | (self.players as u64) << 28 | (self.question as u64) << 32;
        (hash_words(std::iter::once(header).chain(self.slots)) >> (64 - PLACE_ENTRIES.trailing_zeros())) as usize
    }
}

/// Proven bounds on the focus player's best place (`NO_PLACE` for none) in a trick's rest.
#[derive(Clone, Copy)]
struct PlaceEntry {
    key: PlaceKey,
    lower: u8,
    upper: u8,
}

impl Default for PlaceEntry {
    /// Bounds that say nothing, so that an entry never stored matches harmlessly.
    fn default() -> Self {
        PlaceEntry { key: PlaceKey::default(), lower: 0, upper: NO_PLACE }
    }
}

/// One table entry: proven bounds on what the focus player still takes, and the best move found.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: Key,
    lower: i16,
    upper: i16,
    best: u8,
    /// Cards still in the hands: how much search the entry stands for.
    work: u8,
    used: bool,
}

const WAYS: usize = 3;
const NO_MOVE: u8 = u8::MAX;

/// Three entries and their lock on a 128-byte boundary: a probe reads two adjacent cache lines,
/// which the processor fetches together (four 40-byte entries spanned three lines or four). The
/// lock (a word beside the 120 bytes of entries, in the same lines) lets searches in several
/// threads share the table; uncontended, it costs one atomic operation on a line the probe
/// reads anyway.
#[derive(Default)]
#[repr(align(128))]
struct Bucket(Mutex<[Entry; WAYS]>);

/// `mutex` locked. No thread panics while holding one of this module's locks, so a poisoned
/// lock is only a formality.
#[inline]
fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Bucket {
    /// The bucket's entries, locked.
    #[inline]
    fn entries(&self) -> MutexGuard<'_, [Entry; WAYS]> {
        locked(&self.0)
    }
}

/// A size-capped table of bounds with exact keys, shared by searches in any number of threads;
/// 3-way buckets, a full bucket's entry that stands for the least search (fewest cards in the
/// hands) is replaced.
pub struct BoundTable {
    buckets: Vec<Bucket>,
    mask: usize,
    /// The places memories of searches that ended (`Solver::places`), for the next searches:
    /// what they proved stays true (their keys name everything it depends on), and making a
    /// new one for every search cost more than a short search.
    spare_places: Mutex<Vec<Vec<PlaceEntry>>>,
}

impl BoundTable {
    /// A table of about `entries` entries (a power of two of buckets, three entries each).
    /// Err where the memory cannot be had.
    pub fn new(entries: usize) -> Result<Self, String> {
        let size = table_slots(entries / WAYS, 1024)?;
        Ok(BoundTable { buckets: table_memory(size, Bucket::default)?, mask: size - 1, spare_places: Mutex::default() })
    }

    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    #[inline]
    fn bucket(&self, key: &Key) -> usize {
        ((hash_words(key.iter().copied()) >> 20) as usize) & self.mask
    }

    /// Asks the processor to fetch `key`'s bucket, ahead of a `get` or `put`.
    #[inline]
    fn prefetch(&self, key: &Key) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket = &self.buckets[self.bucket(key)] as *const Bucket as *const i8;
            // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 processor has; it is a hint
            // that reads nothing into the program and cannot fault, and both addresses lie
            // inside this bucket (128 bytes) anyway.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(bucket);
                _mm_prefetch::<_MM_HINT_T0>(bucket.wrapping_add(64));
            }
        }
    }

    fn get(&self, key: &Key) -> Option<(i32, i32, u8)> {
        self.buckets[self.bucket(key)]
            .entries()
            .iter()
            .find(|e| e.used && e.key == *key)
            .map(|e| (e.lower as i32, e.upper as i32, e.best))
    }

    fn put(&self, key: Key, lower: i32, upper: i32, best: u8, work: u8) {
        let mut bucket = self.buckets[self.bucket(&key)].entries();
        let slot = bucket
            .iter()
            .position(|e| e.used && e.key == key)
            .or_else(|| bucket.iter().position(|e| !e.used))
            .unwrap_or_else(|| (0..WAYS).min_by_key(|&i| bucket[i].work).unwrap());
        bucket[slot] = Entry { key, lower: lower as i16, upper: upper as i16, best, work, used: true };
    }
}

/// What one search reports: proven bounds on what the focus player still takes from the root,
/// and when they meet a line realising it (empty when the budget ran out first).
#[derive(Clone, Debug, Default)]
pub struct Answer {
    pub lower: i32,
    pub upper: i32,
    pub line: Vec<u8>,
    pub nodes: u64,
    pub seconds: f64,
    pub interrupted: bool,
}

const INF: i32 = 1 << 20;

/// A node of the small table-free alpha-beta searches (`Ending::value`,
/// `Solver::trick_floor`): the best of its children so far and its window, fail-soft.
struct Window {
    maximise: bool,
    best: i32,
    alpha: i32,
    beta: i32,
}

impl Window {
    fn new(maximise: bool, alpha: i32, beta: i32) -> Self {
        Window { maximise, best: if maximise { -INF } else { INF }, alpha, beta }
    }

    /// Takes a child's value; true when the node's other children can be cut.
    #[inline]
    fn take(&mut self, v: i32) -> bool {
        if self.maximise {
            self.best = self.best.max(v);
            self.alpha = self.alpha.max(v);
        } else {
            self.best = self.best.min(v);
            self.beta = self.beta.min(v);
        }
        self.alpha >= self.beta
    }
}
/// The upper bound stored for "at least need" under a need key (see `State::keys`).
const ANY_AMOUNT: i32 = i16::MAX as i32;
/// Null-window searches that need at most this much more for the focus player use need keys
/// (`State::keys`) beside the exact ones (at most 4: two bits of code for the capped
/// totals). Measured against none, nodes: 5 players from the 5th trick 0.75 times, 6 players from the 6th 0.22
/// times, 4 players from the 4th 0.76 times, 3 players from the 3rd 0.92 times; a cap of 2
/// did less, 8 as much.
const NEED_KEYED: i32 = 4;
const _: () = assert!(NEED_KEYED <= 4, "need keys code a capped total less one in two bits");
/// The nodes the middle root test may take before the low one has a turn (see `solve`). In the
/// search of a guarantee some two seconds, so that most tests of a position decided within a
/// usual budget halve alone (turns from 65,536 nodes on took 1.1 to 1.2 times the nodes with 5
/// and 6 players from the 5th trick; from 4M nodes on, the same time as from 16M). In the
/// cooperative search, where a test below the value needs only one line, turns from 65,536
/// nodes on took the same nodes (4 players from the 5th trick) and prove far more on a full
/// deal in a short time.
const FIRST_ALLOWANCE: u64 = 1 << 22;
const FIRST_ALLOWANCE_COOPERATIVE: u64 = 1 << 16;
/// The low root test's turn is this part of the middle one's.
const LOW_TEST_SHARE: u64 = 4;
/// In the trick before the last, positions with at most this many of its cards left are
/// searched without the table (`State::trick_before_last`). Measured against none, with the
/// endgame's window: 6 players from the 6th trick and 5 from the 5th 10-15% faster; with 5
/// or 4 cards left, 6 players were slower than with none.
const TABLE_FREE_CARDS: u8 = 3;
/// `order` ranks by `trick_floor` the cards of this many last places of a trick (3 was slower).
const ORDER_CARDS: u8 = 2;

pub struct Solver<'a> {
    table: &'a BoundTable,
    watch: Watch,
    focus: u8,
    cooperative: bool,
    buffers: Vec<Vec<u8>>,
    /// Set in a helper of another search of the same root (`solve_together`): it searches the
    /// moves of the others (the minimisers) after the first in reverse order, and its watch
    /// stops it when that search ends. (Reversing every node's moves took 1.1 to 1.3 times the
    /// nodes: the maximiser's first moves mostly cut.)
    reverse_others: bool,
    /// Direct-mapped: what `placed_within` proved (made on first use, see `places`).
    places: Vec<PlaceEntry>,
}

impl Drop for Solver<'_> {
    /// Leaves the places memory to the next search.
    fn drop(&mut self) {
        if !self.places.is_empty() {
            let places = std::mem::take(&mut self.places);
            locked(&self.table.spare_places).push(places);
        }
    }
}

impl<'a> Solver<'a> {
    pub fn new(table: &'a BoundTable, budget: Budget, focus: u8, cooperative: bool) -> Self {
        Solver {
            table,
            watch: Watch::new(budget),
            focus,
            cooperative,
            buffers: Vec::new(),
            reverse_others: false,
            places: Vec::new(),
        }
    }

    /// The places proven so far, on first use taken from an ended search or made: a
    /// cooperative search never asks, and many searches are too short to be worth making 4 MiB.
    #[inline]
    fn places(&mut self) -> &mut [PlaceEntry] {
        if self.places.is_empty() {
            let spare = locked(&self.table.spare_places).pop();
            self.places = spare.unwrap_or_else(|| vec![PlaceEntry::default(); PLACE_ENTRIES]);
        }
        &mut self.places
    }

    #[inline]
    fn maximises(&self, s: &State) -> bool {
        self.cooperative || s.mover() == self.focus
    }

    /// What the focus player is sure to take (`sure_pick`) in the distribution of the trick
    /// under way in `s`, after its cards `trick[..len]` (those of `s` and maybe more), with the
    /// rest of the trick played best for each side: fail-soft alpha-beta in the window `alpha`,
    /// `beta` over the cards still to be played (the display is as the distribution finds it);
    /// in the trick before the last, with what they are then sure of in the last trick
    /// (`last_trick_floor`). A lower bound on what the focus player still takes, and a
    /// move-ordering key.
    fn trick_floor(&self, s: &State, ranked: &Ranked, trick: &mut [u8; MAX_PLAYERS], len: usize, alpha: i32, beta: i32) -> i32 {
        let played = card_set(&trick[..len]);
        let held = if s.before_last_trick() { s.held() } else { 0 };
        self.floor_from(s, ranked, trick, len, played, Strengths::of(&trick[..len]), held, alpha, beta)
    }

    /// `trick_floor` with the trick's cards so far as a set, `played`, and their colours'
    /// strengths, kept up card by card (working them out at every complete trick was a third of
    /// the time); in the trick before the last, `held` is the cards in the hands (else 0).
    #[allow(clippy::too_many_arguments)]
    fn floor_from(&self, s: &State, ranked: &Ranked, trick: &mut [u8; MAX_PLAYERS], len: usize, played: u64,
                  strength: Strengths, held: u64, alpha: i32, beta: i32) -> i32 {
        let n = s.players as usize;
        if len == n {
            let own = trick[(self.focus as usize + n - s.leader as usize) % n];
            let now = place(played, strength, own, n).map_or(0, |before| ranked.sure_pick(before, self.cooperative));
            // (fail-soft: at or above `beta`, a lower bound is all the caller asks)
            return if held == 0 || now >= beta { now } else { now + self.last_trick_floor(s, held & !played, strength) };
        }
        let mover = ((s.leader as usize + len) % n) as u8;
        let mut window = Window::new(self.cooperative || mover == self.focus, alpha, beta);
        for (card, more) in plays(s.hands[mover as usize], strength) {
            trick[len] = card;
            let v = self.floor_from(s, ranked, trick, len + 1, played | 1 << card, more, held, window.alpha, window.beta);
            if window.take(v) {
                break;
            }
        }
        window.best
    }

    /// In the trick before the last, once its cards are played and `last` (one card a player)
    /// is left in the hands: what the focus player is sure to take in the last trick's
    /// distribution. This trick's cards, whose colours' totals are its `strength`, will be in the
    /// display then (with what its pickers leave, which can only add to the colours' totals).
    #[inline]
    fn last_trick_floor(&self, s: &State, last: u64, strength: Strengths) -> i32 {
        let n = s.players as usize;
        let own = (s.hands[self.focus as usize] & last).trailing_zeros() as u8;
        place(last, Strengths::of_set(last), own, n).map_or(0, |before| {
            Ranked::of_totals(std::array::from_fn(|colour| strength.get(colour) as i32)).sure_pick(before, self.cooperative)
        })
    }

    /// The trick floor of `s` when it is at least `beta` (a cut), else 0: a fail-soft value
    /// below `beta` only bounds the floor from above.
    ///
    /// Outside the trick before the last, the floor is the display's colour ranked at the focus
    /// player's best place (the later the place, the less it gives), so it is a question about
    /// the place alone (`placed_within`), whose answers do not depend on the display.
    fn floor_cut(&mut self, s: &State, beta: i32) -> i32 {
        let mut trick = s.trick;
        let ranked = Ranked::new(s.display);
        let len = s.trick_len as usize;
        let floor = if s.before_last_trick() {
            self.trick_floor(s, &ranked, &mut trick, len, beta - 1, beta)
        } else {
            // the last place from which the focus player takes at least `beta`
            let Some(place) = (0..ranked.present).rev().find(|&place| ranked.totals[place] >= beta) else { return 0 };
            let played = card_set(&trick[..len]);
            let strength = Strengths::of(&trick[..len]);
            if self.placed_within(s, &mut trick, len, played, strength, place as u8) {
                ranked.totals[place]
            } else {
                0
            }
        };
        if floor >= beta {
            floor
        } else {
            0
        }
    }

    /// Whether the focus player can make sure of a place at most `within` in the distribution
    /// of the trick under way in `s` after its cards `trick[..len]` (as a set, `played`, with
    /// their colours' strengths), the focus player playing to come early and the others to
    /// push them back: alpha-beta with only that answer. The answers are kept in `places` as
    /// bounds on the best place (not for the last card, whose answers come at once).
    #[allow(clippy::too_many_arguments)]
    fn placed_within(&mut self, s: &State, trick: &mut [u8; MAX_PLAYERS], len: usize, played: u64,
                     strength: Strengths, within: u8) -> bool {
        let n = s.players as usize;
        let turn = (self.focus as usize + n - s.leader as usize) % n; // the focus player's in the trick
        if len == n {
            return place(played, strength, trick[turn], n).is_some_and(|before| before <= within as usize);
        }
        let mover = (s.leader as usize + len) % n;
        let keyed = (len + 1 < n).then(|| {
            let mut slots = [0u64; MAX_PLAYERS];
            for (i, slot) in slots[..n - len].iter_mut().enumerate() {
                *slot = s.hands[(mover + i) % n];
            }
            if len > 0 {
                slots[n - len] = played;
            }
            let own = if turn < len { trick[turn] } else { u8::MAX };
            let key = PlaceKey { slots, leader: s.leader, len: len as u8, own, focus: self.focus, players: s.players, question: 0 };
            (key, key.slot())
        });
        if let Some((key, slot)) = keyed {
            let entry = self.places()[slot];
            if entry.key == key {
                if entry.upper <= within {
                    return true;
                }
                if entry.lower > within {
                    return false;
                }
            }
        }
        // the focus player needs one card that makes sure of it, against every card of another
        let focus_moves = mover == self.focus as usize;
        let mut answer = !focus_moves;
        for (card, more) in plays(s.hands[mover], strength) {
            trick[len] = card;
            if self.placed_within(s, trick, len + 1, played | 1 << card, more, within) == focus_moves {
                answer = focus_moves;
                break;
            }
        }
        if let Some((key, slot)) = keyed {
            let entry = &mut self.places()[slot];
            if entry.key != key {
                *entry = PlaceEntry { key, ..PlaceEntry::default() };
            }
            if answer {
                entry.upper = entry.upper.min(within);
            } else {
                entry.lower = entry.lower.max(within + 1);
            }
        }
        answer
    }

    /// During a distribution in `s`: whether the focus player is sure of `need` in the next
    /// trick's distribution whatever is picked in this one; `need` if so, else 0.
    ///
    /// The next trick's floor (`trick_floor`) asks only how many colours of its display hold
    /// `need` (`sure_pick` is at least `need` when more such colours than pickers before the
    /// focus player). The display will be this trick's cards and what the pickers leave: every
    /// colour whose trick cards hold `need` counts, and of those that need the display's cards
    /// too, as many as the pickers (one colour each) cannot take.
    fn next_trick_floor(&mut self, s: &State, need: i32) -> i32 {
        let n = s.players as usize;
        if s.hands[0] == 0 {
            return 0; // the last trick's distribution
        }
        let next = s.cleared();
        let (mut sure, mut takeable, mut present) = (0, 0, 0);
        for colour in 0..n {
            let (played, shown) = (colour_points(next.display, colour), colour_points(s.display, colour));
            present += (shown > 0) as usize;
            if played >= need {
                sure += 1;
            } else if played + shown >= need {
                takeable += 1;
            }
        }
        let taken = s.pickers().len().min(present);
        let holding = sure + takeable - takeable.min(taken);
        let mut cards = [0; MAX_PLAYERS];
        let sure_of_need = if next.before_last_trick() {
            let mut slots = [0u64; MAX_PLAYERS];
            slots[..n].copy_from_slice(&next.hands[..n]);
            let question = (need as u32) << 8 | holding as u32;
            let key = PlaceKey { slots, leader: next.leader, len: 0, own: u8::MAX, focus: self.focus, players: next.players, question };
            let slot = key.slot();
            match self.places()[slot] {
                entry if entry.key == key => entry.upper == 0,
                _ => {
                    let ranked = Ranked { totals: [need; MAX_PLAYERS], present: holding };
                    let sure = self.trick_floor(&next, &ranked, &mut cards, 0, need - 1, need) >= need;
                    let place = if sure { 0 } else { NO_PLACE };
                    self.places()[slot] = PlaceEntry { key, lower: place, upper: place };
                    sure
                }
            }
        } else {
            holding > 0 && self.placed_within(&next, &mut cards, 0, 0, Strengths::default(), holding as u8 - 1)
        };
        if sure_of_need {
            need
        } else {
            0
        }
    }

    /// During a distribution in `s`: at least `beta` (a cut) when the focus player is sure of
    /// it with the display's cards thrown away (their sure pick now, `now`, then the rest of the
    /// game from the next trick with only this trick's cards on display), else 0. A lower bound
    /// because more cards on display never hurt the focus player: whatever the others pick
    /// from a larger display leaves a display at least as large as some pick from the smaller
    /// one would, and the focus player's picks only grow; the leader does not depend on it.
    fn cleared_cut(&mut self, s: &State, now: i32, beta: i32, depth: usize) -> i32 {
        if s.hands[0] == 0 {
            return 0;
        }
        let v = now + self.search(&s.cleared(), beta - now - 1, beta - now, depth + 1, 0);
        if v >= beta && !self.watch.stopped {
            v
        } else {
            0
        }
    }

    /// Orders `moves` best first for the mover: the table's move; then, against the others, the
    /// last two cards of a trick by their `trick_floor` (most for the maximiser, least for the
    /// minimisers; measured: half the nodes with 5 players from the 6th trick, and from the 5th
    /// a third fewer again); then the maximiser's high cards and the minimisers' low ones, and
    /// large colours (the smallest first for a helper who is not the focus player).
    fn order(&self, s: &State, moves: &mut [u8], first: u8) {
        let helper = self.cooperative && s.mover() != self.focus;
        let maximise = self.maximises(s);
        // (in the cooperative search this was measured to order no better, at a cost)
        let late = s.trick_len + ORDER_CARDS >= s.players && !self.cooperative;
        // (not the table's move, trick floor, fallback), smallest first; a hand
        // holds at most 9 cards and the display at most 6 colours
        let mut keyed = [((false, 0, 0), 0u8); 16];
        let ranked = late.then(|| Ranked::new(s.display));
        let mut trick = s.trick;
        for (slot, &mv) in keyed.iter_mut().zip(moves.iter()) {
            let (sure, fallback) = if mv >= PICK {
                let taken = colour_points(s.display, (mv - PICK) as usize);
                (0, if helper { taken } else { -taken })
            } else {
                let sure = ranked.as_ref().map_or(0, |ranked| {
                    trick[s.trick_len as usize] = mv;
                    self.trick_floor(s, ranked, &mut trick, s.trick_len as usize + 1, -INF, INF)
                });
                if maximise {
                    (-sure, -value(mv))
                } else {
                    (sure, value(mv))
                }
            };
            *slot = ((mv != first, sure, fallback), mv);
        }
        let keyed = &mut keyed[..moves.len()];
        keyed.sort_unstable();
        for (mv, &(_, ordered)) in moves.iter_mut().zip(keyed.iter()) {
            *mv = ordered;
        }
        if self.reverse_others && !maximise && moves.len() > 2 {
            moves[1..].reverse();
        }
    }

    /// Fail-soft alpha-beta: what the focus player still takes from `s`, exact when strictly
    /// inside (alpha, beta), an upper bound when <= alpha, a lower bound when >= beta.
    ///
    /// `floor` is the least colour a pick may take in a run of others' picks (see
    /// `State::next_floor`); such a restricted node's value need not be the position's, so
    /// only nodes without a floor use the table. Its bounds and endgame values are the
    /// unrestricted position's: each lies between the run's first node's value (the others
    /// could reach that position in any order) and the restricted node's own, so the run's
    /// first node, the one the table keeps, still gets its own value.
    fn search(&mut self, s: &State, mut alpha: i32, mut beta: i32, depth: usize, floor: usize) -> i32 {
        if s.is_over() || beta <= 0 {
            return 0;
        }
        if self.watch.tick() {
            return 0;
        }
        if s.in_endgame() {
            return s.endgame(self.focus, self.cooperative, alpha, beta);
        }
        if s.in_trick_before_last() {
            return s.trick_before_last(self.focus, self.cooperative, alpha, beta);
        }
        // whether the focus player takes at least `need` more: a question about the display's
        // capped colour totals, which has a need key beside the exact one
        let need = if !self.cooperative && alpha + 1 == beta && (1..=NEED_KEYED).contains(&beta) { beta } else { 0 };
        let (key, need_key) = match (floor, need) {
            (0, 0) => (Some(s.key(self.focus, self.cooperative)), None),
            (0, _) => {
                let (key, need_key) = s.keys(self.focus, need);
                (Some(key), Some(need_key))
            }
            _ => (None, None),
        };
        // the table's buckets are fetched from memory while the bounds are worked out
        for key in key.iter().chain(need_key.iter()) {
            self.table.prefetch(key);
        }
        let mut upper = s.upper_bound(self.focus);
        if upper == 0 || upper <= alpha {
            return upper;
        }
        // what the focus player is sure of in the distribution under way
        let now = if s.distributing() { sure_pick(s.display, s.pickers(), self.focus, self.cooperative) } else { 0 };
        let mut lower = if s.distributing() {
            if !self.cooperative && s.picked == 0 && now < beta {
                now + self.next_trick_floor(s, beta - now)
            } else {
                now
            }
        } else if !self.cooperative && s.trick_len > 0 {
            self.floor_cut(s, beta)
        } else {
            0
        };
        if lower >= beta {
            return lower;
        }
        let mut first = NO_MOVE;
        for key in key.iter().chain(need_key.iter()) {
            if let Some((lo, hi, best)) = self.table.get(key) {
                lower = lower.max(lo);
                upper = upper.min(hi);
                if first == NO_MOVE {
                    first = best;
                }
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
            }
        }
        if !self.cooperative && !s.distributing() && s.trick_len == 0 {
            lower = lower.max(self.floor_cut(s, beta));
            if lower >= beta {
                return lower;
            }
        }
        if !self.cooperative && s.distributing() && s.picked == 0 {
            lower = lower.max(self.cleared_cut(s, now, beta, depth));
            if lower >= beta {
                return lower;
            }
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        let (alpha0, beta0) = (alpha, beta);
        // (a cleared-display search at depth + 1 may come before this node's buffer exists)
        while self.buffers.len() <= depth {
            self.buffers.push(Vec::with_capacity(16));
        }
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        s.moves(&mut moves);
        moves.retain(|&mv| mv < PICK || (mv - PICK) as usize >= floor);
        self.order(s, &mut moves, first);
        let maximise = self.maximises(s);
        let mut best = if maximise { -INF } else { INF };
        let mut best_move = NO_MOVE;
        for &mv in moves.iter() {
            let child_floor = if mv >= PICK { s.next_floor(self.focus, (mv - PICK) as usize) } else { Some(0) };
            let Some(child_floor) = child_floor else { continue };
            let (child, mut gain) = s.apply(mv);
            if s.mover() != self.focus {
                gain = 0;
            }
            let v = gain + self.search(&child, alpha - gain, beta - gain, depth + 1, child_floor);
            if self.watch.stopped {
                break;
            }
            if maximise {
                if v > best {
                    best = v;
                    best_move = mv;
                }
                alpha = alpha.max(best);
            } else {
                if v < best {
                    best = v;
                    best_move = mv;
                }
                beta = beta.min(best);
            }
            if alpha >= beta {
                break;
            }
        }
        self.buffers[depth] = moves;
        if self.watch.stopped {
            return 0;
        }
        let Some(key) = key else { return best };
        let work = s.held().count_ones() as u8;
        if let Some(need_key) = need_key {
            // the same capped totals may stand for other cards: only the answer carries over
            let (lo, hi) = if best < need { (0, need - 1) } else { (need, ANY_AMOUNT) };
            self.table.put(need_key, lo, hi, best_move, work);
        }
        let (lo, hi) = if best <= alpha0 {
            (lower, best)
        } else if best >= beta0 {
            (best, upper)
        } else {
            (best, best)
        };
        self.table.put(key, lo, hi.max(lo), best_move, work);
        best
    }

    /// Bounds on what the focus player still takes from `root`, narrowed by null-window tests
    /// until they meet or the budget runs out; with the exact value, a line realising it.
    ///
    /// The interval starts from what the table holds for `root`, so a search resumed with more
    /// budget goes on where the last one stopped. Tests halve the interval; but a test far above
    /// the value can cost a thousand times one below it (a full 3-player deal: 65M nodes to show
    /// that a player takes under 20, 0.1M to show that they take nothing), so once a middle test
    /// has run `FIRST_ALLOWANCE` nodes, a test just above the proven lower bound (1, 2, 4, ...
    /// above it while such tests succeed) takes turns with it, each turn's allowance doubling
    /// (the table keeps what an unfinished turn proved). On full 3-player deals with 60 s, the
    /// guarantees left open were proven to be at least 1 to 16; with halving alone, nearly all
    /// at least 0.
    pub fn solve(&mut self, root: &State) -> Answer {
        // what earlier searches of this position proved (an earlier pass with a smaller budget)
        let proven = self.table.get(&root.key(self.focus, self.cooperative));
        let mut lower = proven.map_or(0, |(lo, _, _)| lo.max(0));
        let mut upper = proven.map_or(INF, |(_, hi, _)| hi).min(root.upper_bound(self.focus));
        let mut step = 1;
        let mut allowance = if self.cooperative { FIRST_ALLOWANCE_COOPERATIVE } else { FIRST_ALLOWANCE };
        'narrowing: while lower < upper && !self.watch.stopped {
            let middle = (lower + upper + 1) / 2;
            let low = (lower + step).min(middle);
            let tests: &[i32] = if low < middle { &[middle, low] } else { &[middle] };
            let (test, v) = 'turns: loop {
                for &test in tests {
                    self.watch.pause_after(if test == middle { allowance } else { allowance / LOW_TEST_SHARE });
                    let v = self.search(root, test - 1, test, 0, 0);
                    let finished = !self.watch.stopped;
                    let budget_left = self.watch.resume();
                    if finished {
                        break 'turns (test, v);
                    }
                    if !budget_left {
                        break 'narrowing;
                    }
                }
                allowance = allowance.saturating_mul(2);
            };
            if v >= test {
                lower = v;
                if test == low {
                    step *= 2;
                }
            } else {
                upper = v;
            }
        }
        let mut line = Vec::new();
        if lower == upper {
            line = self.line(root, lower);
        }
        Answer {
            lower,
            upper,
            line,
            nodes: self.watch.nodes,
            seconds: self.watch.seconds(),
            interrupted: self.watch.interrupted,
        }
    }

    /// A line from `root` (whose value is `value`) along which every move keeps that value:
    /// the maximiser's best moves and the minimisers' most damaging ones. Empty if the budget
    /// runs out on the way.
    fn line(&mut self, root: &State, value: i32) -> Vec<u8> {
        let mut line = Vec::new();
        let mut s = *root;
        let mut value = value;
        let mut moves = Vec::new();
        while !s.is_over() {
            s.moves(&mut moves);
            let first = self.table.get(&s.key(self.focus, self.cooperative)).map_or(NO_MOVE, |e| e.2);
            self.order(&s, &mut moves, first);
            let maximise = self.maximises(&s);
            let mut chosen = None;
            for &mv in &moves {
                let (child, mut gain) = s.apply(mv);
                if s.mover() != self.focus {
                    gain = 0;
                }
                let need = value - gain;
                let keeps = if maximise {
                    self.search(&child, need - 1, need, 0, 0) >= need
                } else {
                    self.search(&child, need, need + 1, 0, 0) <= need
                };
                if self.watch.stopped {
                    return Vec::new();
                }
                if keeps {
                    chosen = Some((mv, child, need));
                    break;
                }
            }
            let Some((mv, child, need)) = chosen else {
                return Vec::new(); // no move keeps the value: impossible for an exact value
            };
            line.push(mv);
            s = child;
            value = need;
        }
        line
    }
}

/// `solve` with `helpers` more threads searching the same root on the same table, each in
/// another order (see `Solver::reverse_others`): the table carries what any of them proves to
/// the others, and the first search's answer is the one reported (its nodes count every
/// thread's).
pub fn solve_together(table: &BoundTable, budget: Budget, focus: u8, cooperative: bool, root: &State, helpers: usize) -> Answer {
    let done = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..helpers)
            .map(|_| {
                let done = Arc::clone(&done);
                scope.spawn(move || help_search(table, budget, focus, cooperative, root, done))
            })
            .collect();
        let stop = Stop(&done);
        let mut answer = Solver::new(table, budget, focus, cooperative).solve(root);
        drop(stop);
        for thread in threads {
            // a helper's panic is a bug: it reaches the caller as the first search's would
            answer.nodes += thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        }
        answer
    })
}

/// Sets the flag when dropped: a search's helpers stop even if the search panics.
struct Stop<'a>(&'a AtomicBool);

impl Drop for Stop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// One helper of the search of `root` (see `Solver::reverse_others`), until `done` is set or
/// `budget` is spent; the nodes it searched.
fn help_search(table: &BoundTable, budget: Budget, focus: u8, cooperative: bool, root: &State, done: Arc<AtomicBool>) -> u64 {
    let mut helper = Solver::new(table, budget, focus, cooperative);
    helper.watch = Watch::stopped_by(budget, done);
    helper.reverse_others = true;
    helper.solve(root).nodes
}

/// A search under way that a thread with nothing else to do may join.
struct Running {
    root: State,
    focus: u8,
    cooperative: bool,
    /// Set when the search has returned: its late helpers stop.
    done: Arc<AtomicBool>,
    /// Under a node limit: no late helper joins it (see `Searches::solve`).
    limited: bool,
    /// Late helpers that joined it, those still searching, and the nodes of those finished.
    joined: usize,
    searching: usize,
    helped: u64,
}

/// The searches under way on one table, so that a thread left idle (its own searches done
/// while another still runs) can help one (`help`) instead of waiting: with six guarantees on
/// two cores, one of them often takes nearly all the time.
#[derive(Default)]
pub struct Searches(Mutex<Vec<Running>>);

impl Searches {
    fn running(&self) -> MutexGuard<'_, Vec<Running>> {
        locked(&self.0)
    }

    /// `solve_together`, open to late helpers for as long as it runs; its nodes count theirs.
    /// Under a node limit it runs alone, with neither helpers nor late helpers: each of them
    /// would spend the whole limit again (they stop when the search ends, not at its count),
    /// so the search would count nodes past its limit.
    pub fn solve(&self, table: &BoundTable, budget: Budget, focus: u8, cooperative: bool, root: &State, helpers: usize) -> Answer {
        /// Ends the search's entry, even if the search panics.
        struct Leave<'a>(&'a Searches, Arc<AtomicBool>);
        impl Drop for Leave<'_> {
            fn drop(&mut self) {
                self.0.running().retain(|search| !Arc::ptr_eq(&search.done, &self.1));
            }
        }
        let limited = budget.node_limit != 0;
        let helpers = if limited { 0 } else { helpers };
        let done = Arc::new(AtomicBool::new(false));
        let entry = Running { root: *root, focus, cooperative, done: Arc::clone(&done), limited, joined: 0, searching: 0, helped: 0 };
        self.running().push(entry);
        let _leave = Leave(self, Arc::clone(&done));
        let stop = Stop(&done);
        let mut answer = match helpers {
            0 => Solver::new(table, budget, focus, cooperative).solve(root),
            helpers => solve_together(table, budget, focus, cooperative, root, helpers),
        };
        drop(stop);
        // late helpers ask the flag at every node, so they are done within moments
        loop {
            match self.running().iter().find(|search| Arc::ptr_eq(&search.done, &done)) {
                Some(search) if search.searching > 0 => {}
                found => {
                    answer.nodes += found.map_or(0, |search| search.helped);
                    break answer;
                }
            }
            std::thread::yield_now();
        }
    }

    /// Helps the search under way with the fewest helpers until it ends (or `budget` is
    /// spent); the nodes searched, 0 when no search is under way (or only ones under a node
    /// limit).
    pub fn help(&self, table: &BoundTable, budget: Budget) -> u64 {
        let joined = self.running().iter_mut().filter(|search| !search.limited && !search.done.load(Ordering::Relaxed))
            .min_by_key(|search| search.joined)
            .map(|search| {
                search.joined += 1;
                search.searching += 1;
                (search.root, search.focus, search.cooperative, Arc::clone(&search.done))
            });
        let Some((root, focus, cooperative, done)) = joined else { return 0 };
        /// Counts the helper out of its search even if it panics.
        struct Finish<'a>(&'a Searches, Arc<AtomicBool>, u64);
        impl Drop for Finish<'_> {
            fn drop(&mut self) {
                if let Some(search) = self.0.running().iter_mut().find(|search| Arc::ptr_eq(&search.done, &self.1)) {
                    search.searching -= 1;
                    search.helped += self.2;
                }
            }
        }
        let mut finish = Finish(self, Arc::clone(&done), 0);
        finish.2 = help_search(table, budget, focus, cooperative, &root, done);
        finish.2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seeded deal as card ids: the display then each hand (see `puzzles/etalage.py`).
    pub fn deal(seed: u64, players: usize, values: u8) -> (Vec<u8>, Vec<Vec<u8>>) {
        let mut deck: Vec<u8> = (0..players as u8).flat_map(|c| (0..values).map(move |v| c * TOP + v)).collect();
        crate::search::rng::shuffle(&mut deck, seed);
        let size = values as usize - 1;
        let display = deck[..players].to_vec();
        let hands = (0..players).map(|p| deck[players + size * p..players + size * (p + 1)].to_vec()).collect();
        (display, hands)
    }

    fn solve(s: &State, focus: u8, cooperative: bool) -> Answer {
        let table = BoundTable::new(1 << 16).unwrap();
        let mut solver = Solver::new(&table, Budget::default(), focus, cooperative);
        solver.solve(s)
    }

    #[test]
    fn the_seeds_worked_example_distributes_as_the_rules_say() {
        // display 7Y 4Y 8R 1R 6G 4B; Anna..Frank play 7G 2G 9Y 5R 10B 6R
        let c = |v: u8, colour: u8| colour * TOP + v - 1;
        let (r, y, g, b) = (0, 1, 2, 3);
        let display = [c(7, y), c(4, y), c(8, r), c(1, r), c(6, g), c(4, b)];
        let hands: Vec<Vec<u8>> = [c(7, g), c(2, g), c(9, y), c(5, r), c(10, b), c(6, r)].iter().map(|&x| vec![x]).collect();
        let mut s = State::new(&display, &hands, 0, &[], 0).unwrap();
        for p in 0..6 {
            s = s.apply(hands[p][0]).0;
        }
        assert_eq!(&s.order[..s.order_len as usize], &[5, 3, 4]);
        let (s, frank) = s.apply(PICK + y);
        let (s, dora) = s.apply(PICK + r);
        let (s, emiel) = s.apply(PICK + g);
        assert_eq!((frank, dora, emiel), (11, 9, 6));
        assert!(s.is_over() && s.leader == 5 && s.display.count_ones() == 7);
    }

    #[test]
    fn the_best_place_and_its_memory_cut_where_the_trick_floor_does() {
        // the trick floor is the display's colour at the focus player's best place, so asking
        // about the place (remembered across displays, and across searches: each search here
        // takes the memory the last one left) must cut exactly where the floor does
        let table = BoundTable::new(1 << 10).unwrap();
        let mut cuts = 0;
        for seed in 0..200u64 {
            let players = 3 + (seed % 4) as usize;
            let (display, hands) = deal(seed, players, 6 + (seed % 5) as u8);
            let mut s = State::new(&display, &hands, (seed / 4) as usize % players, &[], 0).unwrap();
            for _ in 0..seed % players as u64 {
                s = s.apply(s.hands[s.mover() as usize].trailing_zeros() as u8).0; // a few cards in
            }
            for focus in 0..players as u8 {
                let mut solver = Solver::new(&table, Budget::default(), focus, false);
                for beta in 1..=25 {
                    let mut trick = s.trick;
                    let floor = solver.trick_floor(&s, &Ranked::new(s.display), &mut trick, s.trick_len as usize, beta - 1, beta);
                    let cut = solver.floor_cut(&s, beta);
                    assert_eq!(cut >= beta, floor >= beta, "seed {seed} focus {focus} beta {beta}");
                    cuts += (cut >= beta) as usize;
                }
            }
        }
        assert!(cuts > 500, "only {cuts} cuts: the positions test too little");
        assert_eq!(table.spare_places.lock().unwrap().len(), 1, "every search made its own memory");
    }

    #[test]
    fn the_focus_player_is_sure_of_the_colour_ranked_below_the_others_picks() {
        let c = |v: u8, colour: u8| 1u64 << (colour * TOP + v - 1);
        // red 10 (4 + 6), yellow 6, green 3
        let display = c(4, 0) | c(6, 0) | c(6, 1) | c(3, 2);
        assert_eq!(sure_pick(display, &[1, 2, 0], 0, false), 3);
        assert_eq!(sure_pick(display, &[1, 0, 2], 0, false), 6);
        assert_eq!(sure_pick(display, &[1, 2, 0], 0, true), 10);
        assert_eq!(sure_pick(display, &[1, 2], 0, false), 0);
        // two colours, two others before: the display is empty when the focus player's turn comes
        assert_eq!(sure_pick(c(4, 0) | c(6, 1), &[1, 2, 0], 0, true), 0);
    }

    #[test]
    fn colour_totals_are_ranked_largest_first() {
        let mut rng = crate::search::rng::SplitMix64::new(7);
        for _ in 0..10_000 {
            let totals: [i32; MAX_PLAYERS] = std::array::from_fn(|_| (rng.next_u64() % 4) as i32 * (rng.next_u64() % 30) as i32);
            let mut sorted = totals;
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            let ranked = Ranked::of_totals(totals);
            assert_eq!(ranked.totals, sorted, "{totals:?}");
            assert_eq!(ranked.present, totals.iter().filter(|&&t| t > 0).count());
        }
    }

    #[test]
    fn pickers_before_agrees_with_the_distribution_order() {
        let mut shut_out = 0;
        for seed in 0..3000u64 {
            let players = 3 + (seed % 4) as usize;
            let (_, hands) = deal(seed, players, TOP);
            let trick: Vec<u8> = hands.iter().map(|hand| hand[0]).collect();
            let leader = (seed / 4 % players as u64) as u8;
            let mut s = State::new(&[], &vec![vec![]; players], leader as usize, &[], 0).unwrap();
            s.trick[..players].copy_from_slice(&trick);
            s.trick_len = players as u8;
            s.set_order();
            for focus in 0..players as u8 {
                let before = pickers_before(&trick, leader, focus);
                assert_eq!(before, s.pickers().iter().position(|&p| p == focus), "{trick:?}");
                shut_out += before.is_none() as usize;
            }
        }
        assert!(shut_out > 1000, "ties left out only {shut_out} times: the deals test too little");
    }

    #[test]
    fn an_exact_key_codes_every_cards_place() {
        let mut rng = crate::search::rng::SplitMix64::new(7);
        let mut moves = Vec::new();
        for seed in 0..200u64 {
            let players = 3 + (seed % 4) as usize;
            let (display, hands) = deal(seed, players, TOP);
            let mut s = State::new(&display, &hands, 0, &[], 0).unwrap();
            for _ in 0..rng.next_u64() % 40 {
                s.moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                s = s.apply(moves[(rng.next_u64() % moves.len() as u64) as usize]).0;
            }
            let key = s.key(1, false);
            for card in 0..(players * TOP as usize) as u8 {
                let bit = 1u64 << card;
                let trick = s.trick[..s.trick_len as usize].iter().position(|&c| c == card);
                let expected = if let Some(p) = s.hands.iter().position(|&hand| hand & bit != 0) {
                    p as u64 + 1
                } else if let Some(i) = trick {
                    (s.leader as u64 + i as u64) % players as u64 + 7
                } else if s.display & bit != 0 {
                    13
                } else {
                    0
                };
                let card = card as usize;
                assert_eq!(key[card / 15] >> (4 * (card % 15)) & 15, expected, "card {card} in {s:?}");
            }
        }
    }

    #[test]
    fn need_keys_see_the_display_through_its_capped_colour_totals() {
        let c = |v: u8, colour: u8| colour * TOP + v - 1;
        let hands = vec![vec![c(1, 0)], vec![c(2, 1)], vec![c(3, 2)]];
        let at = |display: &[u8]| State::new(display, &hands, 0, &[], 0).unwrap();
        let need_key = |s: &State, need: i32| s.keys(0, need).1;
        // red 9 or red 4 + 5: other cards, the same capped total; red 5 or 6: the same capped
        // at 4; red 2 or 3: the same capped at 2, not at 4 (needs stay within 1..=NEED_KEYED)
        let (nine, four_five) = (at(&[c(9, 0)]), at(&[c(4, 0), c(5, 0)]));
        let (five, six) = (at(&[c(5, 0), c(7, 1)]), at(&[c(6, 0), c(7, 1)]));
        let (two, three) = (at(&[c(2, 0), c(7, 1)]), at(&[c(3, 0), c(7, 1)]));
        assert_eq!(need_key(&five, 4), need_key(&six, 4));
        assert_eq!(need_key(&two, 2), need_key(&three, 2));
        assert_ne!(need_key(&two, 4), need_key(&three, 4));
        assert_ne!(need_key(&five, 4), need_key(&five, 3));
        assert_ne!(need_key(&nine, 4), need_key(&five, 4)); // yellow is in one display only
        assert_eq!(need_key(&nine, 4), need_key(&four_five, 4));
        assert_ne!(nine.key(0, false), four_five.key(0, false));
        assert_ne!(need_key(&nine, 1), nine.key(0, false));
        // 2Y in hand and 3Y out, or the other way round: different positions, whatever the need
        // (a first draft coded a capped total 1 on the next card out, as player 1's hand code)
        let other = |hand: u8| State::new(&[c(1, 1)], &[vec![c(hand, 1)], vec![c(4, 0)], vec![c(5, 0)]], 0, &[], 0).unwrap();
        for need in 1..=NEED_KEYED {
            assert_ne!(need_key(&other(2), need), need_key(&other(3), need));
        }
    }

    #[test]
    fn helpers_leave_every_value_and_line_as_one_thread_finds_them() {
        for seed in 0..4 {
            let (display, hands) = deal(seed, 3 + seed as usize % 2, 4);
            let root = State::new(&display, &hands, 0, &[], 0).unwrap();
            for focus in 0..root.players {
                for cooperative in [false, true] {
                    let alone = solve(&root, focus, cooperative);
                    for helpers in [1, 3] {
                        let table = BoundTable::new(1 << 16).unwrap();
                        let together = solve_together(&table, Budget::default(), focus, cooperative, &root, helpers);
                        assert_eq!((together.lower, together.upper), (alone.lower, alone.upper));
                        assert_eq!(together.lower, together.upper);
                        assert!(!together.line.is_empty() && !together.interrupted);
                    }
                }
            }
        }
    }

    #[test]
    fn a_bucket_and_its_lock_fill_two_cache_lines() {
        assert_eq!(std::mem::size_of::<Bucket>(), 128);
    }

    #[test]
    fn a_hands_lowest_value_is_found_across_colours() {
        // 4Y (id 13) has a lower id than 2G (id 21) but a higher value
        assert_eq!(lowest_value(1 << 13 | 1 << 21), 2);
        assert_eq!(lowest_value(1 << 59), 10);
    }

    #[test]
    fn bad_positions_are_errors_not_panics() {
        assert!(State::new(&[0], &[vec![1], vec![2]], 0, &[], 0).is_err());
        assert!(State::new(&[0], &[vec![1], vec![2], vec![45]], 0, &[], 0).is_err());
        assert!(State::new(&[0], &[vec![1], vec![1], vec![3]], 0, &[], 0).is_err());
        assert!(State::new(&[0], &[vec![1], vec![2], vec![3]], 0, &[4, 5, 6], 9).is_err());
    }

    #[test]
    fn guarantee_never_exceeds_the_cooperative_best_and_both_have_lines() {
        for seed in 0..5 {
            let (display, hands) = deal(seed, 3, 4);
            let root = State::new(&display, &hands, 0, &[], 0).unwrap();
            for focus in 0..3 {
                let paranoid = solve(&root, focus, false);
                let cooperative = solve(&root, focus, true);
                assert_eq!(paranoid.lower, paranoid.upper);
                assert_eq!(cooperative.lower, cooperative.upper);
                assert!(paranoid.lower <= cooperative.lower);
                assert!(!paranoid.line.is_empty());
            }
        }
    }
}
