//! The Game with every hand and the draw pile open: the fewest cards left, exactly.
//!
//! A position is the four pile tops (up1 up2 down1 down2), each player's hand as a bit set of
//! card values, how far the fixed draw pile has been drawn, whose turn it is and how many cards
//! they have played this turn. Moves are single plays and "end turn" (which draws back up to
//! the hand size and passes to the next player holding cards), as in `puzzles/the_game.py`.
//!
//! The solver first runs a beam search over whole turns for a good line (most solo deals are
//! won by it at once), then proves or improves it by depth-first searches that ask "is there a
//! line leaving at most k cards?", with k the proven lower bound (a failure raises it) or one
//! below the best line (a success improves it), taking turns (see [`Solver::solve`]). Lower
//! bounds of positions are kept in a size-capped table keyed exactly (no hashes stand in for
//! positions).
//!
//! Pruning, each safe:
//! - Dead cards (see [`dead_cards`]): a card no pile can ever take again stays to the end.
//! - A clogged hand (solo, see [`cards_left_bound`]): once a full hand must hold enough of those
//!   cards to fall short of the turn's minimum, the game ends with the rest of the draw pile.
//! - Plays within a turn on different piles commute (a pile's legality never depends on another
//!   pile), so a turn is searched with its plays in non-decreasing pile order only: every line
//!   has a reordering of each turn that reaches the same position after every whole turn. The
//!   key holds the lowest pile still allowed, so table entries stay exact for the restricted
//!   search (see [`State::key`]).
//! - The two ascending piles are interchangeable, as are the two descending: equal tops are
//!   played on once, and keys sort each pair when the allowed piles are symmetric.
//!
//! **The Game: Extreme** (`puzzles/the_game_extreme.py`) is the same search with instruction
//! marks in [`Rules::marks`] and the turn so far (its pile, a three, a stop) in the state.
//! Marks never move: a covered card is hidden for good, so a fixed table of marks per card
//! read at the pile tops gives what shows. Instructions break the two prunings above (plays on
//! different piles stop commuting once a no-backwards or same-pile card can show, and the turn
//! state names piles), so an Extreme search plays in any pile order and keys keep the piles as
//! they are. The dead-card bound stays sound: instructions forbid plays and end turns, they never
//! let a pile take a card it would not take; Extreme's bound also counts the skulls nothing could
//! cover ([`never_played`]). A play is legal when the turn can still be
//! completed after it ([`State::can_finish`], the reference's `_can_finish`).
//!
//! Extreme's beam is less sure of finding a win, so it runs more passes (`Rules::beam_widths`),
//! each breaking ties differently, and after each pass that falls short exact searches with a
//! node cap try to mend the end of its line (`Solver::mend`).

use crate::search::table::{table_memory, table_slots};
use crate::search::{Budget, Watch};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};

pub const MAX_PLAYERS: usize = 5;
/// Pile numbers: 0, 1 ascending; 2, 3 descending.
pub const PILES: usize = 4;
/// A value no line reaches (a restricted line that cannot complete its turn).
pub const NONE: u8 = u8::MAX;

/// The largest hand the search takes: a turn's moves, its plays and its end, fit in a `Turn`,
/// and the owners of the cards in five such hands fit in a key (5^55 < 2^128).
pub const MAX_HAND: usize = 11;
/// The highest card id: the draw pile's cards and the pile tops are bits of a `u128`.
pub const MAX_CARD: u8 = 120;

/// Instruction marks (`Rules::marks`), in the order of the reference's `KINDS` from 1; 0 is none.
pub const STOP: u8 = 1;
pub const SKULL: u8 = 2;
pub const THREE: u8 = 3;
pub const NO_BACKWARDS: u8 = 5;
pub const SAME_PILE: u8 = 6;
pub const DRAW_ONE: u8 = 7;
/// `State::turn_pile` before the turn's first play, and once its plays lie on two piles.
pub const NO_PILE: u8 = 5;
pub const MIXED: u8 = 4;

#[inline]
fn bit(card: u8) -> u128 {
    1u128 << card
}

/// Cards strictly above `t`.
#[inline]
fn above(t: u8) -> u128 {
    if t >= 127 {
        0
    } else {
        !0u128 << (t + 1)
    }
}

/// Cards strictly below `t`.
#[inline]
fn below(t: u8) -> u128 {
    (1u128 << t) - 1
}

/// Cards pile `pile` with top `t` takes now: beyond the top, or exactly 10 back.
#[inline]
fn takes(pile: usize, t: u8) -> u128 {
    (if pile < 2 { above(t) } else { below(t) }) | backwards_trick(pile, t)
}

/// The card pile `pile` with top `t` takes as a backwards trick (exactly 10 back), if any.
#[inline]
fn backwards_trick(pile: usize, t: u8) -> u128 {
    if pile < 2 {
        if t >= 12 { bit(t - 10) } else { 0 }
    } else if t <= 117 {
        bit(t + 10)
    } else {
        0
    }
}

#[inline]
pub fn accepts(pile: usize, t: u8, card: u8) -> bool {
    takes(pile, t) & bit(card) != 0
}

/// How far a play moves its pile: the gap for a forward play, -10 for a backwards trick.
#[inline]
fn gap(pile: usize, t: u8, card: u8) -> i32 {
    if pile < 2 {
        card as i32 - t as i32
    } else {
        t as i32 - card as i32
    }
}

/// The cards among `rem` that no pile with these tops can ever take again, whoever holds them
/// and in whatever order they come.
///
/// Proof: an ascending pile can only reach a top that is a card it takes. Starting from the two
/// ascending tops, it takes every remaining card above the lowest top reached so far, and from
/// any top x (a card it took, or its current top) card x-10 if that is remaining. So the lowest
/// top it can ever show is the fixpoint `m` of: m = min(m, lowest card reachable by chains of
/// exact -10 steps from the tops or from any remaining card above m). Every card it can ever
/// take is then above m or in those chains, which are all >= m. The descending piles mirror
/// this. A card below both ascending fixpoints and above both descending ones is never played.
pub fn dead_cards(piles: &[u8; PILES], rem: u128) -> u128 {
    let (lo, hi) = reach(piles, rem);
    beyond_reach(rem, lo, hi)
}

/// The cards of `rem` below `lo` and above `hi`: no pile takes them (the ascending piles take
/// only cards >= lo, the top itself not being in `rem`, and the descending only cards <= hi).
fn beyond_reach(rem: u128, lo: u8, hi: u8) -> u128 {
    rem & below(lo) & above(hi)
}

/// The lowest top the ascending piles can ever show and the highest the descending can, given
/// the cards `rem` still to play (the fixpoints of [`dead_cards`]' proof).
fn reach(piles: &[u8; PILES], rem: u128) -> (u8, u8) {
    let mut lo = piles[0].min(piles[1]);
    let mut seed = rem & ((bit(piles[0]) | bit(piles[1])) >> 10);
    loop {
        let mut reach = (rem & above(lo)) | seed;
        loop {
            let next = reach | ((reach >> 10) & rem);
            if next == reach {
                break;
            }
            reach = next;
        }
        let lowest = if reach == 0 { lo } else { (reach.trailing_zeros() as u8).min(lo) };
        if lowest == lo {
            break;
        }
        lo = lowest;
        seed |= reach;
    }
    let mut hi = piles[2].max(piles[3]);
    let mut seed = rem & ((bit(piles[2]) | bit(piles[3])) << 10);
    loop {
        let mut reach = (rem & below(hi)) | seed;
        loop {
            let next = reach | ((reach << 10) & rem);
            if next == reach {
                break;
            }
            reach = next;
        }
        let highest = if reach == 0 { hi } else { (127 - reach.leading_zeros() as u8).max(hi) };
        if highest == hi {
            break;
        }
        hi = highest;
        seed |= reach;
    }
    (lo, hi)
}

/// The cards among those still to play in `s` that can never be played: the dead cards and,
/// in Extreme, the skulls nothing could cover, to a fixed point (a card never played neither
/// covers a skull nor links a pile's backwards chain). The search's lower bound is their number.
///
/// Proof for a skull k: a turn may not end with a skull showing, and a play after which the
/// turn cannot be completed is illegal, so k is played only if the same player covers it in
/// the same turn with a card the pile takes on k (`takes(pile, k)`). An ascending pile takes k
/// only if k >= lo (every card it can ever take is, by [`dead_cards`]' proof), a descending
/// one only if k <= hi. The cover must be a card that can itself be played and that k's
/// player can get: their hand and the draw pile, or any hand and the draw pile while k is
/// still in the draw pile. If no such card exists for either kind of pile, k is never played.
/// `dead_cards`' proof holds over any set of cards that contains every card still playable,
/// so each round may leave out the cards found so far.
pub fn never_played(rules: &Rules, s: &State) -> u128 {
    let rem = s.remaining(rules);
    if !rules.extreme {
        return dead_cards(&s.piles, rem);
    }
    let draw = rules.draw_rest[s.drawn as usize];
    let mut never = 0;
    loop {
        let live = rem & !never;
        let (lo, hi) = reach(&s.piles, live);
        let mut found = never | beyond_reach(live, lo, hi);
        let mut skulls = live & !found & rules.marked[SKULL as usize];
        while skulls != 0 {
            let skull = skulls.trailing_zeros() as u8;
            skulls &= skulls - 1;
            let pool = match s.hands.iter().find(|&&h| h & bit(skull) != 0) {
                Some(&hand) => hand | draw,
                None => rem,
            } & !found & !bit(skull);
            let up = if skull >= lo { takes(0, skull) } else { 0 };
            let down = if skull <= hi { takes(2, skull) } else { 0 };
            if pool & (up | down) == 0 {
                found |= bit(skull);
            }
        }
        if found == never {
            return never;
        }
        never = found;
    }
}

/// A lower bound on the cards left from `s`, given cards `never` that are never played: their
/// number, or more in a solo game whose hand clogs with them before the draw pile runs out.
///
/// Proof of the clog part (The Game, one player): while the draw pile holds cards, every turn
/// starts with a full hand of `H` cards and must play `m`, so a turn start whose hand holds
/// `H - m + 1` never-played cards ends the game with `H` plus the draw pile left. Such cards
/// never leave the hand, so with `D(n)` the never-played cards held once `n` cards are drawn
/// (those in hand now and those among the draw pile's cards up to `n`), let `n*` be the first
/// `n` with `D(n) >= H - m + 1`. A turn starting at `n` plays at most the `H - D(n)` cards that
/// can be played and so draws at most that many; `n + H - D(n)` never decreases as `n` grows,
/// so a turn starting before `n*` ends with at most `n* - 1 + H - (H - m) = n* + m - 1` drawn,
/// and a turn starting at `n*` or later is the last. Every turn start is therefore at most
/// `N = n* + m - 1`, and if `N` is short of the draw pile the game ends with at least
/// `H + (draw length - N)` cards left. (With more players a clogged hand passes the turn to
/// another, and Extreme's draw-one leaves hands short, so the clog part is for solo games of
/// The Game only.)
pub fn cards_left_bound(rules: &Rules, s: &State, never: u128) -> u8 {
    let dead = never.count_ones() as u8;
    if rules.extreme || rules.players != 1 {
        return dead;
    }
    let hand_size = rules.hand_size;
    let minimum = rules.minimum_while_drawing() as usize;
    let clogged = (hand_size + 1).saturating_sub(minimum);
    if (dead as usize) < clogged {
        return dead; // (every never-played card is in the hand or the draw pile)
    }
    let mut held = (s.hand() & never).count_ones() as usize;
    let mut drawn = s.drawn as usize;
    while held < clogged {
        if drawn == rules.draw.len() {
            return dead;
        }
        held += (never & bit(rules.draw[drawn]) != 0) as usize;
        drawn += 1;
    }
    let last_start = drawn + minimum - 1;
    if last_start >= rules.draw.len() {
        return dead;
    }
    dead.max((hand_size + rules.draw.len() - last_start) as u8)
}

/// The fixed facts of a search: the draw pile in order and the variant.
#[derive(Clone, Debug)]
pub struct Rules {
    pub draw: Vec<u8>,
    pub players: usize,
    pub hand_size: usize,
    pub expert: bool,
    /// The highest card of the deck (99; less for reduced test decks).
    pub top: u8,
    /// `draw_rest[i]`: the cards of `draw[i..]`.
    draw_rest: Vec<u128>,
    /// Extreme's instruction of each card (0: none); all 0 in The Game.
    pub marks: [u8; 128],
    /// `marked[kind]`: the cards carrying instruction `kind`.
    marked: [u128; DRAW_ONE as usize + 1],
    /// Whether any card carries an instruction: the Extreme rules apply.
    pub extreme: bool,
}

impl Rules {
    pub fn new(draw: Vec<u8>, players: usize, hand_size: usize, expert: bool, top: u8) -> Self {
        let mut draw_rest = vec![0u128; draw.len() + 1];
        for i in (0..draw.len()).rev() {
            draw_rest[i] = draw_rest[i + 1] | bit(draw[i]);
        }
        Rules { draw, players, hand_size, expert, top, draw_rest, marks: [0; 128], marked: [0; DRAW_ONE as usize + 1], extreme: false }
    }

    /// Err unless the search can take `root`, made from `hands`, under these rules: `hand_size`
    /// at most `MAX_HAND` and hands of at most `hand_size` cards, the mover's less the cards
    /// played this turn (a hand then never grows past `MAX_HAND`, Extreme's draw-one included);
    /// Extreme's turn state only once a card is played; the cards of the hands and the draw pile
    /// 2..=`MAX_CARD`, each once; pile tops below 128; the top card 2..=`MAX_CARD`; beam
    /// widths of 1 or more. Outside these the search overflowed its turns (a panic), its sets,
    /// its keys or its counts (wrong answers).
    pub fn check(&self, hands: &[Vec<u8>], root: &State, beam_widths: &[usize]) -> Result<(), String> {
        if self.hand_size > MAX_HAND {
            return Err(format!("hand size {}: at most {MAX_HAND}", self.hand_size));
        }
        if !(2..=MAX_CARD).contains(&self.top) {
            return Err(format!("top card {}: 2 to {MAX_CARD}", self.top));
        }
        if root.played as usize > self.hand_size {
            return Err(format!("{} cards played this turn from a hand of {}", root.played, self.hand_size));
        }
        if root.played == 0 && (root.turn_pile != NO_PILE || root.three || root.stopped) {
            return Err("a turn with a pile, a three or a stop but no card played".into());
        }
        for (p, hand) in hands.iter().enumerate() {
            let full = self.hand_size - if p == root.mover as usize { root.played as usize } else { 0 };
            if hand.len() > full {
                return Err(format!("hand {p} holds {} cards; at most {full}", hand.len()));
            }
        }
        let mut seen = 0u128;
        for &card in hands.iter().flatten().chain(&self.draw) {
            if !(2..=MAX_CARD).contains(&card) || seen & bit(card) != 0 {
                return Err(format!("card {card} is out of range 2..={MAX_CARD} or given twice"));
            }
            seen |= bit(card);
        }
        if let Some(pile) = root.piles.iter().find(|&&t| t >= 128) {
            return Err(format!("pile top {pile} is out of range 0..128"));
        }
        if beam_widths.contains(&0) {
            return Err("a beam of width 0".into());
        }
        Ok(())
    }

    /// The Extreme rules with these (card, instruction) marks.
    pub fn with_marks(mut self, marks: &[(u8, u8)]) -> Result<Self, String> {
        for &(card, kind) in marks {
            if !(2..128).contains(&card) || !(STOP..=DRAW_ONE).contains(&kind) {
                return Err(format!("mark {kind} on card {card} is out of range"));
            }
            self.marks[card as usize] = kind;
        }
        for card in 2..128u8 {
            self.marked[self.marks[card as usize] as usize] |= bit(card);
        }
        self.extreme = true;
        Ok(self)
    }

    /// The beam passes `Solver::solve` makes before its exact search, by default. The Game's
    /// beam wins almost every winnable deal at once, with its plain passes. Extreme's beam is
    /// much less sure of a deal, and its exact search cannot prove a fresh deal lost in useful
    /// time, so it gets many tie-break passes: widths growing fourfold, each tried with several
    /// tie-breaks (see `score`), since another tie-break wins other deals about as often as a
    /// wider beam does, and each line that falls short mended (`Solver::mend`). The Game gets
    /// them too, after its plain passes and a 65536-wide tie-break pass, for the deals those
    /// bring within [`NEAR_MISS`] cards.
    pub fn beam_widths(&self) -> &'static [usize] {
        if self.extreme {
            EXTREME_WIDTHS
        } else {
            THE_GAME_WIDTHS
        }
    }

    /// Whether `s` is a deal not yet played: every pile at its start.
    fn is_deal(&self, s: &State) -> bool {
        s.piles == [1, 1, self.top + 1, self.top + 1]
    }

    /// Cards a turn must play while the draw pile lasts (1 after).
    #[inline]
    pub fn minimum_while_drawing(&self) -> u8 {
        if self.expert {
            3
        } else {
            2
        }
    }

    /// For a beam pass that breaks ties pseudo-randomly and has its line mended, its number
    /// among those passes (every pass of Extreme's, The Game's after its plain ones).
    fn tie_break(&self, pass: usize) -> Option<u64> {
        let number = if self.extreme { Some(pass) } else { pass.checked_sub(PLAIN_PASSES) };
        number.map(|n| n as u64)
    }

    /// Whether a card marked `kind` shows on a pile top.
    #[inline]
    fn shows(&self, piles: &[u8; PILES], kind: u8) -> bool {
        piles.iter().any(|&t| self.marks[t as usize & 127] == kind)
    }
}

/// A move: `card` onto `pile`, or the end of the turn (`card == 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub card: u8,
    pub pile: u8,
}

pub const END_TURN: Move = Move { card: 0, pile: 0 };

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub hands: [u128; MAX_PLAYERS],
    pub piles: [u8; PILES],
    /// Cards drawn so far from `Rules::draw`.
    pub drawn: u8,
    pub mover: u8,
    pub played: u8,
    /// The lowest pile the rest of this turn may play on (plays go in pile order).
    pub from: u8,
    /// Extreme's turn so far: the pile of its plays (`NO_PILE`, 0-3 or `MIXED`), whether a three
    /// was played and whether a stop ended it.
    pub turn_pile: u8,
    pub three: bool,
    pub stopped: bool,
}

/// Steps of `State::can_finish`'s plain search before it starts again with a memo.
const QUICK_FINISH_STEPS: u32 = 256;

/// `State::can_finish`'s memo: (hand, tops, turn) to whether the turn can be completed.
type FinishMemo = HashMap<(u128, [u8; PILES], TurnSoFar), bool, BuildHasherDefault<FinishHasher>>;

/// A multiply-rotate hasher (as Firefox's FxHash) for `FinishMemo`'s small keys: the standard
/// SipHash took a sixth of a hard Extreme deal's time. Memo keys are not chosen by an adversary.
#[derive(Default)]
struct FinishHasher(u64);

impl FinishHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
}

impl Hasher for FinishHasher {
    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.add(b as u64));
    }

    fn write_u8(&mut self, n: u8) {
        self.add(n as u64);
    }

    fn write_u128(&mut self, n: u128) {
        self.add(n as u64);
        self.add((n >> 64) as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Extreme's turn so far (see `State::turn_pile`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnSoFar {
    pub played: u8,
    pub pile: u8,
    pub three: bool,
    pub stopped: bool,
}

/// An exact key: the remaining cards, who holds each hand card (base-`players` digits over the
/// hand cards in ascending order), and the piles, draw count, mover, played count and the
/// allowed piles packed into one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Key {
    rem: u128,
    owners: u128,
    misc: u64,
}

impl Key {
    /// A well-mixed hash of the key, a different one for each `salt`.
    #[inline]
    fn hash(&self, salt: u64) -> u64 {
        let h = (self.rem as u64)
            ^ ((self.rem >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (self.owners as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ ((self.owners >> 64) as u64).rotate_left(17)
            ^ self.misc.wrapping_mul(0x1656_67B1_9E37_79F9)
            ^ salt.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9)
    }
}

impl State {
    #[inline]
    pub fn draw_left(&self, rules: &Rules) -> usize {
        rules.draw.len() - self.drawn as usize
    }

    #[inline]
    pub fn held(&self) -> u128 {
        self.hands.iter().fold(0, |a, &h| a | h)
    }

    #[inline]
    pub fn remaining(&self, rules: &Rules) -> u128 {
        self.held() | rules.draw_rest[self.drawn as usize]
    }

    #[inline]
    pub fn cards_left(&self, rules: &Rules) -> u8 {
        (self.held().count_ones() as usize + self.draw_left(rules)) as u8
    }

    /// Cards the player to move must play this turn.
    #[inline]
    pub fn minimum(&self, rules: &Rules) -> u8 {
        if self.draw_left(rules) > 0 {
            rules.minimum_while_drawing()
        } else {
            1
        }
    }

    #[inline]
    pub fn hand(&self) -> u128 {
        self.hands[self.mover as usize]
    }

    /// At the start of a turn: the game is over (all played, or no complete turn can be made).
    pub fn is_over(&self, rules: &Rules) -> bool {
        if self.cards_left(rules) == 0 {
            return true;
        }
        if rules.extreme {
            return self.played == 0 && !self.can_finish(rules, self.hand(), self.piles, self.turn());
        }
        self.played == 0 && !can_play(self.hand(), &self.piles, self.minimum(rules) as u32, 0)
    }

    /// Extreme's turn so far: (played, turn pile, three, stopped).
    #[inline]
    fn turn(&self) -> TurnSoFar {
        TurnSoFar { played: self.played, pile: self.turn_pile, three: self.three, stopped: self.stopped }
    }

    /// Extreme: may the turn end here? Stopped, or exactly three cards after a three, or the
    /// minimum; and no skull showing (one must be covered in its turn).
    fn may_end(&self, rules: &Rules, piles: &[u8; PILES], turn: TurnSoFar) -> bool {
        let enough = turn.stopped || if turn.three { turn.played == 3 } else { turn.played >= self.minimum(rules) };
        enough && !rules.shows(piles, SKULL)
    }

    /// Extreme: the cards of `hand` the instructions allow on each pile now (the reference's
    /// `_allowed` for a set of cards at once; whether the turn can still be completed after a
    /// play is separate).
    fn allowed_cards(rules: &Rules, hand: u128, piles: &[u8; PILES], turn: TurnSoFar) -> [u128; PILES] {
        let mut out = [0; PILES];
        if turn.stopped || (turn.three && turn.played >= 3) {
            return out;
        }
        let mut barred = 0;
        if turn.played >= 3 {
            barred |= rules.marked[THREE as usize];
        }
        if turn.three && turn.played != 2 {
            barred |= rules.marked[STOP as usize];
        }
        let no_backwards = rules.shows(piles, NO_BACKWARDS);
        let same_pile = rules.shows(piles, SAME_PILE);
        for (pile, cards) in out.iter_mut().enumerate() {
            let t = piles[pile];
            let same = turn.pile == NO_PILE || turn.pile == pile as u8;
            if !same && same_pile {
                continue;
            }
            *cards = hand & takes(pile, t) & !barred;
            if no_backwards {
                *cards &= if pile < 2 { above(t) } else { below(t) };
            }
            // A play onto a second pile may not leave a same-pile showing either; none shows
            // before it, so only the card itself could.
            if !same {
                *cards &= !rules.marked[SAME_PILE as usize];
            }
        }
        out
    }

    /// Extreme: the turn after `card` on `pile`, or None where the instructions forbid the play.
    fn allowed(rules: &Rules, piles: &[u8; PILES], turn: TurnSoFar, card: u8, pile: usize) -> Option<TurnSoFar> {
        (Self::allowed_cards(rules, bit(card), piles, turn)[pile] != 0).then(|| Self::after_play(rules, turn, card, pile))
    }

    /// Extreme: the turn after an allowed play of `card` on `pile`.
    #[inline]
    fn after_play(rules: &Rules, turn: TurnSoFar, card: u8, pile: usize) -> TurnSoFar {
        let kind = rules.marks[card as usize];
        let same = turn.pile == NO_PILE || turn.pile == pile as u8;
        TurnSoFar {
            played: turn.played + 1,
            pile: if same { pile as u8 } else { MIXED },
            three: turn.three || kind == THREE,
            stopped: kind == STOP,
        }
    }

    /// Extreme: can the turn be completed by the rules from here, with `hand` and `piles`?
    /// A plain depth-first search answers almost every call in a few steps; where it runs
    /// long (a skull nothing in hand can cover, with many other cards playable, makes it try
    /// every order of them) the search starts again with a memo of the states it has settled,
    /// which collapses the orders that reach the same hand, tops and turn.
    pub fn can_finish(&self, rules: &Rules, hand: u128, piles: [u8; PILES], turn: TurnSoFar) -> bool {
        let mut steps = 0;
        self.finish_quickly(rules, hand, piles, turn, &mut steps)
            .unwrap_or_else(|| self.finish_with_memo(rules, hand, piles, turn, &mut FinishMemo::default()))
    }

    /// `can_finish` by plain search, or None after `QUICK_FINISH_STEPS` steps.
    fn finish_quickly(&self, rules: &Rules, hand: u128, piles: [u8; PILES], turn: TurnSoFar, steps: &mut u32) -> Option<bool> {
        *steps += 1;
        if *steps > QUICK_FINISH_STEPS {
            return None;
        }
        if self.may_end(rules, &piles, turn) {
            return Some(true);
        }
        if Self::hopeless(rules, hand, &piles, turn) {
            return Some(false);
        }
        for (card, _, next, after) in Self::turn_plays(rules, hand, piles, turn) {
            if self.finish_quickly(rules, hand & !bit(card), next, after, steps)? {
                return Some(true);
            }
        }
        Some(false)
    }

    fn finish_with_memo(&self, rules: &Rules, hand: u128, piles: [u8; PILES], turn: TurnSoFar, seen: &mut FinishMemo) -> bool {
        if self.may_end(rules, &piles, turn) {
            return true;
        }
        if Self::hopeless(rules, hand, &piles, turn) {
            return false;
        }
        if let Some(&answer) = seen.get(&(hand, piles, turn)) {
            return answer;
        }
        let answer = Self::turn_plays(rules, hand, piles, turn)
            .any(|(card, _, next, after)| self.finish_with_memo(rules, hand & !bit(card), next, after, seen));
        seen.insert((hand, piles, turn), answer);
        answer
    }

    /// Extreme: a turn that may not end here and plainly cannot be completed: a skull shows on
    /// a pile that takes no card of the hand (its top stays the skull until a card goes on
    /// it, so nothing ever covers it), a three needs more cards than the hand holds, or a stop
    /// was played (no play may follow it).
    fn hopeless(rules: &Rules, hand: u128, piles: &[u8; PILES], turn: TurnSoFar) -> bool {
        let uncoverable = (0..PILES).any(|p| rules.marks[piles[p] as usize & 127] == SKULL && hand & takes(p, piles[p]) == 0);
        let short = turn.three && (hand.count_ones() as u8) < 3u8.saturating_sub(turn.played);
        uncoverable || short || turn.stopped
    }

    /// Extreme: the plays the instructions allow from `hand` onto `piles` now, as (card, pile,
    /// the tops after it, the turn after it).
    fn turn_plays(rules: &Rules, hand: u128, piles: [u8; PILES], turn: TurnSoFar) -> impl Iterator<Item = (u8, usize, [u8; PILES], TurnSoFar)> + '_ {
        let allowed = Self::allowed_cards(rules, hand, &piles, turn);
        let (mut pile, mut cards) = (0, allowed[0]);
        std::iter::from_fn(move || loop {
            if cards != 0 {
                let card = cards.trailing_zeros() as u8;
                cards &= cards - 1;
                let mut next = piles;
                next[pile] = card;
                return Some((card, pile, next, Self::after_play(rules, turn, card, pile)));
            }
            if pile + 1 >= PILES {
                return None;
            }
            pile += 1;
            cards = allowed[pile];
        })
    }

    /// Extreme's legal moves: every play after which the turn can still be completed, and the
    /// end of the turn where it may end; ordered as `moves`.
    fn extreme_moves(&self, rules: &Rules, out: &mut Vec<(i32, Move)>) {
        let hand = self.hand();
        let turn = self.turn();
        for (card, pile, piles, after) in Self::turn_plays(rules, hand, self.piles, turn) {
            if self.can_finish(rules, hand & !bit(card), piles, after) {
                out.push((2 * gap(pile, self.piles[pile], card), Move { card, pile: pile as u8 }));
            }
        }
        if self.may_end(rules, &self.piles, turn) {
            out.push((7, END_TURN));
        }
        out.sort_by_key(|&(cost, _)| cost);
    }

    /// Extreme's plays the instructions allow now, with their gap costs as in `moves`, whether
    /// or not the turn can be completed after them, and the end of the turn where it may end;
    /// none where the turn plainly cannot be completed. Unsorted.
    fn turn_moves(&self, rules: &Rules, out: &mut Vec<(i32, Move)>) {
        out.clear();
        let (hand, turn) = (self.hand(), self.turn());
        if self.may_end(rules, &self.piles, turn) {
            out.push((7, END_TURN));
        }
        if Self::hopeless(rules, hand, &self.piles, turn) {
            return;
        }
        for (card, pile, _, _) in Self::turn_plays(rules, hand, self.piles, turn) {
            out.push((2 * gap(pile, self.piles[pile], card), Move { card, pile: pile as u8 }));
        }
    }

    pub fn key(&self, rules: &Rules) -> Key {
        let mut piles = self.piles;
        // Swapping a pair of piles keeps the allowed piles the same unless exactly one of the
        // pair is allowed (from == 1 for the ascending pair, from == 3 for the descending).
        // Extreme's turn state names piles: its keys keep them as they are.
        if !rules.extreme && self.from != 1 && piles[0] > piles[1] {
            piles.swap(0, 1);
        }
        if !rules.extreme && self.from != 3 && piles[2] > piles[3] {
            piles.swap(2, 3);
        }
        let mut owners = 0u128;
        if rules.players > 1 {
            let mut held = self.held();
            while held != 0 {
                let card = held.trailing_zeros();
                held &= held - 1;
                let owner = self.hands.iter().position(|h| h & (1u128 << card) != 0).unwrap();
                owners = owners * rules.players as u128 + owner as u128;
            }
        }
        let misc = piles.iter().fold(0u64, |a, &p| a << 7 | p as u64)
            | (self.drawn as u64) << 28
            | (self.mover as u64) << 35
            | (self.played as u64) << 38
            | (self.from as u64) << 46
            | (self.turn_pile as u64) << 49
            | (self.three as u64) << 52
            | (self.stopped as u64) << 53;
        Key { rem: self.remaining(rules), owners, misc }
    }

    /// Applies a move known to be legal.
    pub fn apply(&self, rules: &Rules, mv: Move) -> State {
        let mut s = *self;
        if mv.card != 0 {
            if rules.extreme {
                let turn = State::allowed(rules, &self.piles, self.turn(), mv.card, mv.pile as usize)
                    .expect("apply: a play the instructions forbid");
                s.turn_pile = turn.pile;
                s.three = turn.three;
                s.stopped = turn.stopped;
            } else {
                s.from = mv.pile;
            }
            s.hands[s.mover as usize] &= !bit(mv.card);
            s.piles[mv.pile as usize] = mv.card;
            s.played += 1;
            return s;
        }
        // Extreme's draw-one showing at the end of a turn draws exactly one card.
        let fill = if rules.extreme && rules.shows(&s.piles, DRAW_ONE) {
            s.hands[s.mover as usize].count_ones() as usize + 1
        } else {
            rules.hand_size
        };
        let hand = &mut s.hands[s.mover as usize];
        while (hand.count_ones() as usize) < fill && (s.drawn as usize) < rules.draw.len() {
            *hand |= bit(rules.draw[s.drawn as usize]);
            s.drawn += 1;
        }
        let players = rules.players as u8;
        s.mover = (1..=players)
            .map(|k| (s.mover + k) % players)
            .find(|&p| s.hands[p as usize] != 0)
            .unwrap_or(s.mover);
        s.played = 0;
        s.from = 0;
        s.turn_pile = NO_PILE;
        s.three = false;
        s.stopped = false;
        s
    }

    /// Legal moves of the restricted search (pile order within a turn, one of two equal piles),
    /// ordered for finding good lines first: backwards tricks, then small gaps, with "end turn"
    /// among plays that move a pile by 3 or less.
    pub fn moves(&self, rules: &Rules, out: &mut Vec<(i32, Move)>) {
        self.moves_within(rules, i32::MAX, out);
    }

    /// `moves` of a cost at most `max_cost` (The Game; Extreme's are all given): the beam's
    /// turns skip the others, so they need not be checked for a completion.
    fn moves_within(&self, rules: &Rules, max_cost: i32, out: &mut Vec<(i32, Move)>) {
        out.clear();
        if self.cards_left(rules) == 0 {
            return;
        }
        if rules.extreme {
            return self.extreme_moves(rules, out);
        }
        let minimum = self.minimum(rules);
        let need = minimum.saturating_sub(self.played + 1) as u32;
        let hand = self.hand();
        for pile in self.from as usize..PILES {
            if (pile == 1 || pile == 3) && self.piles[pile] == self.piles[pile - 1] && (self.from as usize) < pile {
                continue;
            }
            let t = self.piles[pile];
            let mut cards = hand & takes(pile, t);
            while cards != 0 {
                let card = cards.trailing_zeros() as u8;
                cards &= cards - 1;
                let cost = 2 * gap(pile, t, card);
                let mut piles = self.piles;
                piles[pile] = card;
                if cost > max_cost || (need > 0 && !can_play(hand & !bit(card), &piles, need, pile)) {
                    continue;
                }
                out.push((cost, Move { card, pile: pile as u8 }));
            }
        }
        if self.played >= minimum {
            out.push((7, END_TURN));
        }
        out.sort_by_key(|&(cost, _)| cost);
    }
}

/// Whether `need` cards of `hand` can be played one after another on piles `from..4`.
pub fn can_play(hand: u128, piles: &[u8; PILES], need: u32, from: usize) -> bool {
    if need == 0 {
        return true;
    }
    if hand.count_ones() < need {
        return false;
    }
    for pile in from..PILES {
        let mut cards = hand & takes(pile, piles[pile]);
        if need == 1 && cards != 0 {
            return true;
        }
        while cards != 0 {
            let card = cards.trailing_zeros() as u8;
            cards &= cards - 1;
            let mut next = *piles;
            next[pile] = card;
            if can_play(hand & !bit(card), &next, need - 1, pile) {
                return true;
            }
        }
    }
    false
}

/// One exact table entry: a proven lower bound on the fewest cards left from a position.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: Key,
    bound: u8,
    /// The table generation it was written in; older entries count as empty.
    generation: u8,
}

const WAYS: usize = 4;

/// A size-capped table of proven lower bounds with exact keys; 4-way buckets, the entry with the
/// weakest bound is replaced when a bucket is full; O(1) clearing by generation.
pub struct BoundTable {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl BoundTable {
    /// Err where the memory cannot be had.
    pub fn new(entries: usize) -> Result<Self, String> {
        let size = table_slots(entries, 1024)?;
        Ok(BoundTable { entries: table_memory(size, Entry::default)?, mask: size - 1, generation: 1 })
    }

    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.entries.fill(Entry::default());
            self.generation = 1;
        }
    }

    #[inline]
    fn bucket(&self, key: &Key) -> usize {
        ((key.hash(0) >> 20) as usize) & self.mask & !(WAYS - 1)
    }

    pub fn get(&self, key: &Key) -> u8 {
        let start = self.bucket(key);
        self.entries[start..start + WAYS]
            .iter()
            .find(|e| e.generation == self.generation && e.key == *key)
            .map_or(0, |e| e.bound)
    }

    pub fn put(&mut self, key: Key, bound: u8) {
        let start = self.bucket(&key);
        let generation = self.generation;
        let bucket = &mut self.entries[start..start + WAYS];
        let slot = bucket
            .iter()
            .position(|e| e.generation == generation && e.key == key)
            .or_else(|| bucket.iter().position(|e| e.generation != generation))
            .unwrap_or_else(|| (0..WAYS).min_by_key(|&i| bucket[i].bound).unwrap());
        bucket[slot] = Entry { key, bound, generation };
    }
}

/// What one search reports.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    /// Fewest cards left found, with the line reaching it.
    pub best: u8,
    pub line: Vec<Move>,
    /// Proven: no line leaves fewer than this.
    pub lower_bound: u8,
    pub nodes: u64,
    pub seconds: f64,
    pub interrupted: bool,
    /// Fewest cards left the beam search found before the exact search.
    pub beam_best: u8,
}

impl Answer {
    pub fn optimal(&self) -> bool {
        self.lower_bound >= self.best
    }
}

/// The node cap of `Solver::solve`'s first upward search (about 0.05 s), and how many times
/// that each downward search gets: downward searches decide more of the positions left open.
const FIRST_PHASE_NODES: u64 = 100_000;
const DOWNWARD_SHARE: u64 = 3;

/// `mend`'s node cap per turn start: this much per unit of the beam's width, at most
/// `MEND_NODES_MAX`. On solo seeds 1-100 at 10 s mending won 99 deals (median 0.064 s) where
/// the beams alone won 97 (0.107 s); caps of 200 or 1000 on the last 6 to 20 turns won 98 or
/// 99. Mending takes several times as long as its beam (exact search is slower per node than
/// the beam per turn); the cap keeps the widest passes' mending to about a second, and won as
/// many of solo seeds 1-200 (197) as no cap.
const MEND_NODES_PER_WIDTH: u64 = 100;
const MEND_NODES_MAX: u64 = 25_000;

pub struct Solver<'a> {
    rules: &'a Rules,
    table: &'a mut BoundTable,
    /// The budget as spent; `decide_within`'s cap is a pause of it.
    watch: Watch,
    target: u8,
    path: Vec<Move>,
    found: Option<Vec<Move>>,
    buffers: Vec<Vec<(i32, Move)>>,
    /// The threads a wide beam layer is expanded by ([`beam_threads`] by default).
    pub beam_threads: usize,
}

impl<'a> Solver<'a> {
    pub fn new(rules: &'a Rules, table: &'a mut BoundTable, budget: Budget) -> Self {
        Solver {
            rules,
            table,
            watch: Watch::new(budget),
            target: 0,
            path: Vec::new(),
            found: None,
            buffers: Vec::new(),
            beam_threads: beam_threads(),
        }
    }

    /// A lower bound on the fewest cards left from `s` in the restricted search; when a line
    /// leaving at most `target` is found it is stored in `found` and the search unwinds.
    fn dfs(&mut self, s: &State, depth: usize) -> u8 {
        let rules = self.rules;
        let left = s.cards_left(rules);
        // Extreme asks whether the game is over through the moves below: at a turn start there
        // is no complete turn exactly when no play leaves the turn completable (the end of the
        // turn is not yet allowed), and the moves ask that of every play anyway.
        if left == 0 || (s.played == 0 && !rules.extreme && s.is_over(rules)) {
            return self.game_over(left);
        }
        if self.watch.tick() {
            return 0;
        }
        let mut bound = cards_left_bound(rules, s, never_played(rules, s));
        if bound > self.target {
            return bound;
        }
        let key = s.key(rules);
        bound = bound.max(self.table.get(&key));
        if bound > self.target {
            return bound;
        }
        if self.buffers.len() <= depth {
            self.buffers.push(Vec::with_capacity(48));
        }
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        s.moves(rules, &mut moves);
        if moves.is_empty() && s.played == 0 {
            self.buffers[depth] = moves;
            return self.game_over(left);
        }
        let mut best = NONE;
        for &(_, mv) in &moves {
            let child = s.apply(rules, mv);
            self.path.push(mv);
            let value = self.dfs(&child, depth + 1);
            self.path.pop();
            if self.found.is_some() || self.watch.stopped {
                break;
            }
            best = best.min(value);
        }
        self.buffers[depth] = moves;
        if self.found.is_some() || self.watch.stopped {
            return 0;
        }
        let bound = bound.max(best);
        self.table.put(key, bound);
        bound
    }

    /// Extreme: exact searches, each capped at `nodes_each` nodes, from the start of every turn
    /// of a beam line, latest first, for a line leaving at most `target` cards: the line with
    /// the search's ending, if one is found. A beam line that ends a card or two short mostly
    /// went wrong late, where an exact search is cheap. The searches share the table of proven
    /// bounds (exact for any root), so each later one skips what the earlier ones settled.
    fn mend(&mut self, root: &State, line: &[Move], target: u8, nodes_each: u64) -> Option<Vec<Move>> {
        let mut starts = vec![(0, *root)];
        let mut s = *root;
        for (i, &mv) in line.iter().enumerate() {
            s = s.apply(self.rules, mv);
            if mv == END_TURN {
                starts.push((i + 1, s));
            }
        }
        for &(before, start) in starts.iter().rev() {
            let (end, _, _) = self.decide_within(&start, target, nodes_each);
            if let Some(end) = end {
                return Some([&line[..before], &end[..]].concat());
            }
            if self.watch.stopped {
                break;
            }
        }
        None
    }

    /// `dfs` at the end of a game with `left` cards left: records the line if it is good enough.
    fn game_over(&mut self, left: u8) -> u8 {
        if left <= self.target {
            self.found = Some(self.path.clone());
        }
        left
    }

    /// Is there a line from `root` leaving at most `target` cards? Some(line) if so; None with
    /// `stopped` false proves every line leaves more, and the returned bound says how many.
    fn decide(&mut self, root: &State, target: u8) -> (Option<Vec<Move>>, u8) {
        self.target = target;
        self.found = None;
        self.path.clear();
        let bound = self.dfs(root, 0);
        (self.found.take(), bound)
    }

    /// `decide` within `nodes` more nodes: also whether that cap stopped it (then nothing is
    /// proven, and the search may go on; the budget's own stop stays).
    fn decide_within(&mut self, root: &State, target: u8, nodes: u64) -> (Option<Vec<Move>>, u8, bool) {
        self.watch.pause_after(nodes);
        let (line, bound) = self.decide(root, target);
        let stopped = self.watch.stopped;
        let capped = self.watch.resume() && stopped;
        (line, bound, capped)
    }

    /// The fewest cards left from `root`: beam search first, then exact searches in two kinds,
    /// taking turns under node caps that double every round. Upward searches ask for a line
    /// leaving no more than the proven bound: each failure raises the bound, a success is
    /// optimal. Downward searches ask for a line leaving fewer than the best found: each success
    /// improves it, a failure proves it optimal. Upward wins where the optimum is near the bound
    /// (fresh deals, mostly won), downward where a stuck position's optimum lies far above every
    /// bound (on solo positions cut 8 and 12 turns before a heuristic player got stuck, it proved
    /// optima of 21 and 28 that upward searches left at bounds 6 and 15 after 10 s). Both fill
    /// one table of proven bounds, exact for any target, so a capped search is not wasted.
    /// A deal left a few cards short gets very wide beam passes between the exact rounds
    /// ([`WIDENING_WIDTH`]), unless the caller asked for no beam.
    pub fn solve(&mut self, root: &State, beam_widths: &[usize]) -> Answer {
        let rules = self.rules;
        let mut answer = Answer { best: root.cards_left(rules), ..Answer::default() };
        answer.lower_bound = cards_left_bound(rules, root, never_played(rules, root));
        let near_miss_deal = |answer: &Answer| answer.best - answer.lower_bound <= NEAR_MISS && rules.is_deal(root);
        for (pass, &width) in beam_widths.iter().enumerate() {
            if answer.best <= answer.lower_bound || self.watch.stopped {
                break;
            }
            let draw = rules.tie_break(pass);
            if draw.is_some() && !rules.extreme && !near_miss_deal(&answer) {
                break;
            }
            self.beam_pass(root, width, draw, &mut answer);
        }
        answer.beam_best = answer.best;
        let mut cap = FIRST_PHASE_NODES;
        let mut descend = false;
        let mut widening_draw = 0;
        while answer.lower_bound < answer.best && !self.watch.stopped {
            let target = if descend { answer.best - 1 } else { answer.lower_bound };
            let (line, bound, capped) = self.decide_within(root, target, if descend { DOWNWARD_SHARE * cap } else { cap });
            if let Some(line) = line {
                answer.best = cards_left_after(rules, root, &line);
                answer.line = line;
            } else if !self.watch.stopped && !capped {
                let proven = if descend { answer.best } else { bound.max(answer.lower_bound + 1) };
                answer.lower_bound = proven.min(answer.best);
            }
            if descend {
                cap = cap.saturating_mul(2);
                let wide = cap >= WIDENING_FROM_CAP && !beam_widths.is_empty() && near_miss_deal(&answer);
                if wide && answer.lower_bound < answer.best && !self.watch.stopped {
                    self.beam_pass(root, WIDENING_WIDTH, Some(widening_draw), &mut answer);
                    widening_draw += 1;
                }
            }
            descend = !descend;
        }
        answer.nodes = self.watch.nodes;
        answer.seconds = self.watch.seconds();
        answer.interrupted = self.watch.interrupted;
        answer
    }

    /// One beam pass, with its line mended when it breaks ties (`draw`, see `score`) and falls
    /// short of the bound; keeps its line if it improves on the best found.
    fn beam_pass(&mut self, root: &State, width: usize, draw: Option<u64>, answer: &mut Answer) {
        let (mut best, mut line) = self.beam(root, width, draw);
        if draw.is_some() && best > answer.lower_bound && !self.watch.stopped {
            let each = (MEND_NODES_PER_WIDTH * width as u64).min(MEND_NODES_MAX);
            if let Some(mended) = self.mend(root, &line, answer.lower_bound, each) {
                best = answer.lower_bound;
                line = mended;
            }
        }
        if best < answer.best {
            answer.best = best;
            answer.line = line;
        }
    }
}

/// The cards left at the end of `line` from `root`.
fn cards_left_after(rules: &Rules, root: &State, line: &[Move]) -> u8 {
    line.iter().fold(*root, |s, &mv| s.apply(rules, mv)).cards_left(rules)
}

/// How promising a position at a turn boundary is for the beam: the room left on the piles,
/// 3 per card still to play, and a heavy cost per dead card. The Game adds the cost of the hand
/// to play next ([`hand_spread`]); Extreme a cost per same-pile or no-backwards showing (each
/// binds every turn until it is covered). In a tie-break pass (`draw`, numbered by
/// [`Rules::tie_break`]) a pseudo-random term below [`BEAM_NOISE`], drawn from the key and
/// `draw`, breaks the many near-ties differently in every pass: on Extreme's solo seeds 1-80
/// one 64-wide beam won 35 deals without it and about 50 with it, and passes with different
/// draws win different deals.
/// `cheap` is `cheap_score(rules, s)`, computed first for [`score_ceiling`].
fn score(rules: &Rules, s: &State, cheap: i32, key: &Key, draw: Option<u64>) -> i32 {
    let dead = dead_cards(&s.piles, s.remaining(rules)).count_ones() as i32;
    let value = cheap - 60 * dead;
    let noise = draw.map_or(0, |n| ((key.hash(n) >> 32) % BEAM_NOISE as u64) as i32);
    if !rules.extreme {
        return value + noise;
    }
    let binding: i32 = s.piles.iter().map(|&t| match rules.marks[t as usize & 127] {
        SAME_PILE => SAME_PILE_COST,
        NO_BACKWARDS => NO_BACKWARDS_COST,
        _ => 0,
    }).sum();
    value - binding + noise
}

/// The part of `score` that is cheap to compute: the room left on the piles less 3 per card
/// still to play, and in The Game the hand's spread.
#[inline]
fn cheap_score(rules: &Rules, s: &State) -> i32 {
    let top = rules.top as i32;
    let room = (top + 1 - s.piles[0] as i32) + (top + 1 - s.piles[1] as i32) + (s.piles[2] as i32 - 1) + (s.piles[3] as i32 - 1);
    let spread = if rules.extreme { 0 } else { SPREAD_COST_TENTHS * hand_spread(s) / 10 };
    room - 3 * s.cards_left(rules) as i32 - spread
}

/// The most `score` can give a position whose `cheap_score` is `cheap`: dead cards and
/// Extreme's showings only cost, the noise adds less than [`BEAM_NOISE`].
#[inline]
fn score_ceiling(cheap: i32) -> i32 {
    cheap + BEAM_NOISE - 1
}

/// How far the piles must move to take the cards of the hand to play next: for each card, the
/// least gap of a pile that takes it (0 for a backwards trick), [`UNPLAYABLE_GAP`] if none does
/// now, summed. A turn must play several cards, so a hand of cards that fit closely keeps room
/// that a hand of far-off cards spends.
fn hand_spread(s: &State) -> i32 {
    let backwards = (0..PILES).fold(0, |tricks, pile| tricks | backwards_trick(pile, s.piles[pile]));
    let [up1, up2, down1, down2] = s.piles.map(i32::from);
    let mut hand = s.hand() & !backwards;
    let mut spread = 0;
    while hand != 0 {
        let card = hand.trailing_zeros() as i32;
        hand &= hand - 1;
        let mut least = UNPLAYABLE_GAP;
        for gap in [card - up1, card - up2, down1 - card, down2 - card] {
            if gap > 0 && gap < least {
                least = gap;
            }
        }
        spread += least;
    }
    spread
}

/// The Game's beam cost of the hand's spread, in tenths of a point per point of gap, and the gap
/// a card no pile takes now counts as. Expert solo with the smaller hand, deals of seeds 1-200:
/// the plain passes up to 4096 wide won 196 with it and 192 without; of the 8 hard ones (seeds
/// 24, 33, 70, 108, 120, 122, 157 and 196), 16384-wide passes won 7 with it and 5 without
/// (costs of 2, 3 and 4 tenths won 6, 7 and 7), and a 65536-wide pass won seed 108, which
/// without it only a 262144-wide tie-break pass had won.
const SPREAD_COST_TENTHS: i32 = 3;
const UNPLAYABLE_GAP: i32 = 200;

/// The Game's beam passes (`Rules::beam_widths`): its `PLAIN_PASSES` plain ones, then a
/// 65536-wide tie-break pass and the tie-break passes that are all of Extreme's.
const THE_GAME_WIDTHS: &[usize] = &[8, 64, 512, 4096, 16384, 65536, 8, 64, 64, 64, 256, 256, 256, 1024, 1024, 4096, 4096, 16384, 16384];
const PLAIN_PASSES: usize = 5;
const EXTREME_WIDTHS: &[usize] = THE_GAME_WIDTHS.split_at(PLAIN_PASSES + 1).1;
/// The Game's tie-break passes run only for a deal its plain passes bring within this many
/// cards of its bound: they look for the last cards of a near win (expert solo with the smaller
/// hand: seed 108, left 1 card short by the plain passes, is won by the 65536-wide pass, in
/// 36 s in all; before the hand's spread was scored, the narrower passes won seeds 33, 70, 120
/// and 157, which the plain passes now win). On a deal the exact search proves nothing in
/// useful time; in mid-game it decides most positions, and there the tie-break passes took its
/// time (solo positions 12 turns before a heuristic player got stuck: 37 of 50 proven within
/// 10 s with them, 44 without).
const NEAR_MISS: u8 = 3;

/// Such a near-miss deal, once the exact search's node cap has reached `WIDENING_FROM_CAP`
/// (after about 12 M nodes of it), gets another tie-break pass `WIDENING_WIDTH` wide each time
/// the cap doubles, with draws 0, 1, 2, ... The exact search does not prove such a deal lost in
/// useful time, while a wider beam keeps finding wins: before the hand's spread was scored,
/// expert solo with the smaller hand, seeds 122 and 108 were won only by 65536- and
/// 262144-wide passes.
const WIDENING_FROM_CAP: u64 = 3_200_000;
const WIDENING_WIDTH: usize = 262_144;

/// Extreme's beam costs of a same-pile and a no-backwards showing, and the bound of its
/// tie-breaking noise, in score points (a point of room; 3 per card left): tuned on solo
/// seeds 1-80 with 64-wide beams (noise 3, 10, 20, 40 won 44, 49, 54, 40 deals).
const SAME_PILE_COST: i32 = 15;
const NO_BACKWARDS_COST: i32 = 20;
const BEAM_NOISE: i32 = 20;

/// The moves of one turn: at most a hand of plays and the end of the turn.
#[derive(Clone, Copy)]
struct Turn {
    len: u8,
    moves: [Move; MAX_HAND + 1],
}

impl Turn {
    const EMPTY: Turn = Turn { len: 0, moves: [END_TURN; MAX_HAND + 1] };

    fn push(&mut self, mv: Move) {
        self.moves[self.len as usize] = mv;
        self.len += 1;
    }

    fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
}

/// Every whole turn from `s` (plays in pile order; up to the minimum plays that move a pile by
/// at most `max_gap`, beyond it by at most `extra_gap`, backwards tricks always), as (position
/// after the turn, its moves). The Game's moves come in pile order already; Extreme's do not,
/// and `from` (Some(0) at the start of the turn) keeps only its turns in pile order: the beam
/// is a heuristic, so it may skip turns (a few exist only in another order), and enumerating
/// every order of the same plays made a 16384-wide Extreme beam take 40 s.
///
/// Extreme's turns grow from the plays the instructions allow ([`State::turn_moves`]) without
/// asking [`State::can_finish`] of each: only turns that reach a legal end are kept, so every
/// play in them is legal (the rest of the kept turn completes it), and the search for a
/// completion per play, which made most of the beam's time, is not needed.
#[allow(clippy::too_many_arguments)]
fn turns(
    rules: &Rules,
    s: &State,
    max_gap: i32,
    extra_gap: i32,
    from: Option<usize>,
    out: &mut Vec<(State, Turn)>,
    turn: &mut Turn,
    buffers: &mut Vec<Vec<(i32, Move)>>,
) {
    let depth = turn.len as usize;
    if buffers.len() <= depth {
        buffers.push(Vec::with_capacity(48));
    }
    let mut moves = std::mem::take(&mut buffers[depth]);
    let minimum = s.minimum(rules);
    let limit = if s.played >= minimum { extra_gap } else { max_gap };
    if rules.extreme {
        s.turn_moves(rules, &mut moves);
    } else {
        s.moves_within(rules, 2 * limit, &mut moves);
    }
    for &(cost, mv) in &moves {
        if mv != END_TURN && (cost > 2 * limit || from.is_some_and(|pile| (mv.pile as usize) < pile)) {
            continue;
        }
        let child = s.apply(rules, mv);
        turn.push(mv);
        if mv == END_TURN || child.cards_left(rules) == 0 {
            // Extreme's last card must leave a turn that may end (no skull showing).
            if !rules.extreme || mv == END_TURN || child.may_end(rules, &child.piles, child.turn()) {
                out.push((child, *turn));
            }
        } else {
            let from = from.map(|_| mv.pile as usize);
            turns(rules, &child, max_gap, extra_gap, from, out, turn, buffers);
        }
        turn.len -= 1;
    }
    buffers[depth] = moves;
}

/// The beam's turns play only cards that move a pile by at most this much, unless no turn
/// can be made that way (then any card).
const BEAM_MAX_GAP: i32 = 25;

/// The next layer of a beam as it grows: each child position, the step that made it (its
/// parent's index in the layer before, the turn's moves), and its rank (score, key, index of
/// the child). Only the ranks are sorted: they are a third of the size of a child with its step.
struct Children {
    states: Vec<State>,
    steps: Vec<(u32, Turn)>,
    ranks: Vec<(i32, Key, u32)>,
    /// Once `width` children with as many keys are kept, the lowest score among them: a child
    /// scoring less ranks below them all, so it need not be made.
    floor: i32,
}

impl Children {
    fn new() -> Self {
        Children { states: Vec::new(), steps: Vec::new(), ranks: Vec::new(), floor: i32::MIN }
    }

    fn push(&mut self, score: i32, key: Key, state: State, parent: usize, moves: Turn) {
        self.ranks.push((score, key, self.states.len() as u32));
        self.states.push(state);
        self.steps.push((parent as u32, moves));
    }

    /// Adds `later`'s children after these (their ranks' indices follow on).
    fn append(&mut self, later: Children) {
        let offset = self.states.len() as u32;
        self.ranks.extend(later.ranks.into_iter().map(|(score, key, index)| (score, key, index + offset)));
        self.states.extend(later.states);
        self.steps.extend(later.steps);
    }

    /// Keeps the `width` best children, one per key (the first made of those with the key).
    /// Equal keys have equal scores, so sorting by score and then key puts duplicates side by
    /// side; the order is total, so its first 2 × width found by selection and then sorted are
    /// the first 2 × width of the whole sorted list. Called whenever the children reach four
    /// times the width, which caps the beam's memory.
    fn keep_best(&mut self, width: usize) {
        let order = |a: &(i32, Key, u32), b: &(i32, Key, u32)| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2));
        // Mostly the first 2 × width hold `width` keys: then only they need sorting.
        let head = 2 * width;
        let mut sorted = false;
        if self.ranks.len() > head {
            self.ranks.select_nth_unstable_by(head, order);
            self.ranks[..head].sort_unstable_by(order);
            let keys = 1 + self.ranks[..head].windows(2).filter(|w| w[0].1 != w[1].1).count();
            if keys >= width {
                self.ranks.truncate(head);
                sorted = true;
            }
        }
        if !sorted {
            self.ranks.sort_unstable_by(order);
        }
        self.ranks.dedup_by(|a, b| a.1 == b.1);
        self.ranks.truncate(width);
        let states = self.ranks.iter().map(|r| self.states[r.2 as usize]).collect();
        let steps = self.ranks.iter().map(|r| self.steps[r.2 as usize]).collect();
        (self.states, self.steps) = (states, steps);
        for (i, rank) in self.ranks.iter_mut().enumerate() {
            rank.2 = i as u32;
        }
        if self.ranks.len() == width {
            self.floor = self.ranks[width - 1].0;
        }
    }
}

impl Solver<'_> {
    /// A beam search over whole turns: keeps the `width` best positions after each round of
    /// turns (one per key); returns the fewest cards left at any end of game it met, and
    /// its line. Stops early (keeping what it found) when the budget runs out. Only the last
    /// layer's positions are kept; of the earlier layers, the steps that lead to them.
    /// A wide layer is expanded by `beam_threads` threads, in shares of consecutive
    /// positions; the layer they make is the one a single thread makes (see [`Share`]). Under
    /// a node limit one thread expands every layer, so that the search stops at the same
    /// turn on every run and machine, and it counts no turn beyond the limit.
    pub fn beam(&mut self, root: &State, width: usize, draw: Option<u64>) -> (u8, Vec<Move>) {
        let rules = self.rules;
        let mut best = (root.cards_left(rules), Vec::new());
        let mut layer = vec![*root];
        let mut steps: Vec<Vec<(u32, Turn)>> = Vec::new();
        loop {
            let watch = LayerWatch { nodes: AtomicU64::new(0), stop: AtomicBool::new(false), won_at: AtomicUsize::new(usize::MAX) };
            let shares = self.expand(&layer, width, draw, &watch);
            self.watch.nodes += watch.nodes.load(Relaxed);
            for share in &shares {
                if let Some((left, index)) = share.ended {
                    if left < best.0 {
                        best = (left, line_of(&steps, index, Turn::EMPTY));
                    }
                }
            }
            if let Some((index, moves)) = shares.iter().filter_map(|share| share.won).min_by_key(|won| won.0) {
                return (0, line_of(&steps, index, moves));
            }
            if shares.iter().any(|share| share.stopped) {
                self.watch.stopped = true;
                return best;
            }
            let mut next = Children::new();
            for share in shares {
                next.append(share.children);
            }
            next.keep_best(width);
            if next.states.is_empty() {
                return best;
            }
            layer = next.states;
            steps.push(next.steps);
        }
    }

    /// The shares of `layer`'s expansion, in the layer's order: one per thread for a wide
    /// layer, the first expanded by this thread (the one that may ask Python about Ctrl-C).
    /// Under a node limit a single share, which counts no turn beyond the limit.
    fn expand(&mut self, layer: &[State], width: usize, draw: Option<u64>, watch: &LayerWatch) -> Vec<Share> {
        let rules = self.rules;
        let limited = self.watch.budget().node_limit != 0;
        let threads = if layer.len() >= PARALLEL_FROM && !limited { self.beam_threads } else { 1 };
        let room = if limited { self.watch.budget().node_limit.saturating_sub(self.watch.nodes) } else { u64::MAX };
        let size = layer.len().div_ceil(threads);
        let compact_at = (4 * width / threads).max(2 * width);
        let (budget, start, nodes) = (self.watch.budget(), self.watch.start(), self.watch.nodes);
        std::thread::scope(|scope| {
            let helpers: Vec<_> = layer
                .chunks(size)
                .enumerate()
                .skip(1)
                .map(|(i, part)| {
                    let spent = move || budget.spent(start, nodes + watch.nodes.load(Relaxed));
                    scope.spawn(move || expand_share(rules, part, i * size, width, compact_at, draw, watch, u64::MAX, spent))
                })
                .collect();
            let first = &layer[..size.min(layer.len())];
            let spent = || self.out_of_budget(watch.nodes.load(Relaxed));
            let mut shares = vec![expand_share(rules, first, 0, width, compact_at, draw, watch, room, spent)];
            // A helper panics only on a bug; its panic goes on here.
            shares.extend(helpers.into_iter().map(|helper| helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))));
            shares
        })
    }

    /// The budget check of the beam search, made once per expanded position, with `layer_nodes`
    /// counted in the current layer so far.
    fn out_of_budget(&mut self, layer_nodes: u64) -> bool {
        if self.watch.budget().spent(self.watch.start(), self.watch.nodes + layer_nodes) {
            self.watch.stopped = true;
        } else if self.watch.budget().interrupted.is_some_and(|f| f()) {
            self.watch.stopped = true;
            self.watch.interrupted = true;
        }
        self.watch.stopped
    }
}

/// A beam layer as wide as this or wider is expanded by several threads (a narrower one takes
/// a few milliseconds, about the cost of starting them).
const PARALLEL_FROM: usize = 256;
/// At most this many threads expand a beam layer (one per core up to it).
const MAX_BEAM_THREADS: usize = 8;

/// The threads a beam layer is expanded by on this machine.
pub fn beam_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_BEAM_THREADS)
}

/// What the threads expanding one beam layer share: the nodes counted, whether one ran out of
/// budget, and the lowest index of a position with a winning turn found so far (positions after
/// it need not be expanded: the first win in the layer's order is the one reported).
struct LayerWatch {
    nodes: AtomicU64,
    stop: AtomicBool,
    won_at: AtomicUsize,
}

/// The expansion of a share of a beam layer: positions `first..` of the layer, in order.
/// Its children are kept as [`Children::keep_best`] keeps them, so they hold every child of the
/// share that can be among the `width` best of the whole layer (a child ranked below `width`
/// others of its share is ranked below them in the layer), and, of equal keys, the first made.
/// The shares' children appended in the layer's order and kept once more are therefore what one
/// thread keeps from the whole layer: the same positions, made by the same steps.
struct Share {
    children: Children,
    /// The fewest cards left at a game's end among the share's positions, and the first
    /// position (its index in the layer) with that many.
    ended: Option<(u8, usize)>,
    /// The share's first position with a winning turn, and the turn.
    won: Option<(usize, Turn)>,
    /// Whether the budget ran out before the share was expanded.
    stopped: bool,
}

/// Expands the positions `part` of a beam layer (the first has index `first` in it) into their
/// children, compacting them whenever they reach `compact_at`; `spent` is the budget check.
/// Each turn found counts a node, and at most `room` are counted (the nodes a node limit
/// leaves the layer; only a share expanded alone may have one): the turns of the position at
/// which the limit falls are tried up to it, and the share stops there.
#[allow(clippy::too_many_arguments)]
fn expand_share(
    rules: &Rules,
    part: &[State],
    first: usize,
    width: usize,
    compact_at: usize,
    draw: Option<u64>,
    watch: &LayerWatch,
    room: u64,
    mut spent: impl FnMut() -> bool,
) -> Share {
    let mut share = Share { children: Children::new(), ended: None, won: None, stopped: false };
    let (mut found, mut buffers, mut turn) = (Vec::new(), Vec::new(), Turn::EMPTY);
    let ordered = if rules.extreme { Some(0) } else { None };
    'positions: for (index, s) in (first..).zip(part) {
        if s.is_over(rules) {
            let left = s.cards_left(rules);
            if share.ended.is_none_or(|(fewest, _)| left < fewest) {
                share.ended = Some((left, index));
            }
            continue;
        }
        if index > watch.won_at.load(Relaxed) {
            break;
        }
        if watch.stop.load(Relaxed) || spent() {
            watch.stop.store(true, Relaxed);
            share.stopped = true;
            break;
        }
        found.clear();
        turns(rules, s, BEAM_MAX_GAP, 3, ordered, &mut found, &mut turn, &mut buffers);
        if found.is_empty() {
            turns(rules, s, i32::MAX / 2, 3, ordered, &mut found, &mut turn, &mut buffers);
        }
        if found.is_empty() && ordered.is_some() {
            turns(rules, s, i32::MAX / 2, 3, None, &mut found, &mut turn, &mut buffers);
        }
        let fits = room.saturating_sub(watch.nodes.load(Relaxed));
        if found.len() as u64 > fits {
            found.truncate(fits as usize);
            watch.stop.store(true, Relaxed);
            share.stopped = true;
        }
        watch.nodes.fetch_add(found.len() as u64, Relaxed);
        let next = &mut share.children;
        for &(child, moves) in &found {
            if child.cards_left(rules) == 0 {
                share.won = Some((index, moves));
                watch.won_at.fetch_min(index, Relaxed);
                break 'positions;
            }
            let cheap = cheap_score(rules, &child);
            if score_ceiling(cheap) < next.floor {
                continue; // below `width` children already kept: never kept
            }
            let key = child.key(rules);
            next.push(score(rules, &child, cheap, &key, draw), key, child, index, moves);
        }
        if share.stopped {
            break;
        }
        if next.ranks.len() >= compact_at {
            next.keep_best(width);
        }
    }
    share
}

/// The moves from the root to entry `index` of the beam's last layer, then the turn `last`
/// (empty to end there). `steps[i]` holds how each position of layer `i + 1` was made.
fn line_of(steps: &[Vec<(u32, Turn)>], index: usize, last: Turn) -> Vec<Move> {
    let mut turns = vec![last];
    let mut index = index;
    for layer in steps.iter().rev() {
        let (parent, moves) = layer[index];
        turns.push(moves);
        index = parent as usize;
    }
    turns.iter().rev().flat_map(|t| t.as_slice().iter().copied()).collect()
}

/// The root state from hands, pile tops, mover (0-based) and cards played this turn.
pub fn state(hands: &[Vec<u8>], piles: [u8; PILES], mover: usize, played: u8) -> Result<State, String> {
    if hands.is_empty() || hands.len() > MAX_PLAYERS {
        return Err(format!("{} hands; 1 to {MAX_PLAYERS} players", hands.len()));
    }
    if mover >= hands.len() {
        return Err(format!("player {mover} to move, but there are {} hands", hands.len()));
    }
    let mut s = State {
        hands: [0; MAX_PLAYERS],
        piles,
        drawn: 0,
        mover: mover as u8,
        played,
        from: 0,
        turn_pile: NO_PILE,
        three: false,
        stopped: false,
    };
    for (p, hand) in hands.iter().enumerate() {
        for &card in hand {
            if !(2..=MAX_CARD).contains(&card) {
                return Err(format!("card {card} is out of range"));
            }
            s.hands[p] |= bit(card);
        }
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keep_best_keeps_the_first_width_keys_of_the_whole_sorted_list() {
        let mut rng = crate::search::rng::SplitMix64::new(7);
        let root = state(&[vec![2, 3]], [1, 1, 100, 100], 0, 0).unwrap();
        for width in [1, 3, 8, 50] {
            let mut children = Children::new();
            // few distinct keys and scores, so duplicates and ties abound
            for made in 0..4 * width + 7 {
                let k = rng.next_u64() % (2 * width as u64 + 3);
                let key = Key { rem: k as u128, owners: 0, misc: 0 };
                children.push((k % 5) as i32, key, root, made, Turn::EMPTY);
            }
            let mut expected = children.ranks.clone();
            expected.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
            expected.dedup_by(|a, b| a.1 == b.1);
            expected.truncate(width);
            children.keep_best(width);
            let kept: Vec<_> = children.ranks.iter().zip(&children.steps).map(|(r, step)| (r.0, r.1, step.0)).collect();
            assert_eq!(kept, expected.iter().map(|r| (r.0, r.1, r.2)).collect::<Vec<_>>()); // the first made survives
            assert_eq!(children.floor, if kept.len() == width { kept[width - 1].0 } else { i32::MIN });
            assert_eq!(children.states.len(), kept.len());
        }
    }

    #[test]
    fn beams_expanded_by_several_threads_keep_what_one_thread_keeps() {
        for seed in 1..=4 {
            let mut deck: Vec<u8> = (2..=99).collect();
            crate::search::rng::shuffle(&mut deck, seed);
            let root = state(&[deck[..8].to_vec()], [1, 1, 100, 100], 0, 0).unwrap();
            let rules = Rules::new(deck[8..].to_vec(), 1, 8, true, 100);
            let beams: Vec<_> = [1, 2, 3]
                .iter()
                .map(|&threads| {
                    let mut table = BoundTable::new(1024).unwrap();
                    let mut solver = Solver::new(&rules, &mut table, Budget::default());
                    solver.beam_threads = threads;
                    let beam = solver.beam(&root, 1024, Some(seed));
                    (beam, solver.watch.nodes)
                })
                .collect();
            // (The node counts differ in a winning layer: other threads go on until they hear.)
            assert!(beams[0].1 > 100_000, "layers of {} nodes are too few to be shared", beams[0].1);
            assert_eq!(beams[1].0, beams[0].0);
            assert_eq!(beams[2].0, beams[0].0);
        }
    }

    #[test]
    fn a_node_limit_stops_the_beam_at_it() {
        // one position's turns used to be counted whole: 37 at a limit of 1 on this deal
        let mut deck: Vec<u8> = (2..=99).collect();
        crate::search::rng::shuffle(&mut deck, 7);
        let root = state(&[deck[..8].to_vec()], [1, 1, 100, 100], 0, 0).unwrap();
        let rules = Rules::new(deck[8..].to_vec(), 1, 8, false, 100);
        for limit in [1, 10, 1000, 100_000] {
            let mut table = BoundTable::new(1024).unwrap();
            let mut solver = Solver::new(&rules, &mut table, Budget { node_limit: limit, ..Budget::default() });
            let answer = solver.solve(&root, rules.beam_widths());
            assert!(answer.nodes <= limit, "{} nodes at a limit of {limit}", answer.nodes);
        }
    }

    #[test]
    fn hand_spread_sums_each_cards_least_gap() {
        // 3 goes on up1 (gap 2), 50 anywhere (49 up, 50 down), 95 on down1 (gap 5).
        let fresh = state(&[vec![3, 50, 95]], [1, 1, 100, 100], 0, 0).unwrap();
        assert_eq!(hand_spread(&fresh), 2 + 49 + 5);
        // 30 is a backwards trick on up1 (0), 36 is taken by no pile (tops 40, 45, 20, 25), 47
        // goes on up2 (gap 2).
        let late = state(&[vec![30, 36, 47]], [40, 45, 20, 25], 0, 0).unwrap();
        assert_eq!(hand_spread(&late), UNPLAYABLE_GAP + 2);
        // Against the rules' own `accepts` and `gap` on random positions.
        let mut rng = crate::search::rng::SplitMix64::new(3);
        for _ in 0..10_000 {
            let mut draw = || (2 + rng.next_u64() % 98) as u8;
            let piles = [draw(), draw(), draw(), draw()];
            let hand: Vec<u8> = (0..8).map(|_| draw()).filter(|card| !piles.contains(card)).collect();
            let s = state(&[hand.clone()], piles, 0, 0).unwrap();
            let least = |card: u8| (0..PILES).filter(|&pile| accepts(pile, piles[pile], card)).map(|pile| gap(pile, piles[pile], card).max(0)).min();
            let expected: i32 = hand.iter().collect::<std::collections::BTreeSet<_>>().iter().map(|&&card| least(card).unwrap_or(UNPLAYABLE_GAP)).sum();
            assert_eq!(hand_spread(&s), expected, "hand {hand:?}, piles {piles:?}");
        }
    }

    #[test]
    fn dead_cards_follow_backwards_chains() {
        let rem = bit(5) | bit(15) | bit(40) | bit(50) | bit(95);
        // Ascending at 30 and 60 reach 40 and 50 and come back 50 -> 40 -> ... no 30, so 15 and
        // 5 are dead for them; descending at 20 and 10 take 15 and 5.
        assert_eq!(dead_cards(&[30, 60, 20, 10], rem), 0);
        // Descending at 3 and 4 take nothing but their chains (13, 14 absent).
        assert_eq!(dead_cards(&[30, 60, 3, 4], rem), bit(5) | bit(15));
        // A chain 50 -> 40 -> 30 -> 20 -> 10 brings an ascending pile back below 15.
        let chain = bit(50) | bit(40) | bit(30) | bit(20) | bit(10) | bit(15);
        assert_eq!(dead_cards(&[45, 60, 3, 4], chain), 0);
    }

    #[test]
    fn can_play_respects_pile_order() {
        let hand = bit(60) | bit(20);
        // 20 only fits on a descending pile, 60 only on an ascending one.
        let piles = [30, 30, 40, 40];
        assert!(can_play(hand, &piles, 2, 0));
        assert!(!can_play(hand, &piles, 2, 2));
    }

    #[test]
    fn keys_swap_pile_pairs_only_when_the_allowed_piles_are_symmetric() {
        let rules = Rules::new(vec![2, 3], 1, 2, false, 99);
        let a = State {
            hands: [bit(50) | bit(60), 0, 0, 0, 0],
            piles: [30, 40, 90, 80],
            drawn: 0,
            mover: 0,
            played: 1,
            from: 0,
            turn_pile: NO_PILE,
            three: false,
            stopped: false,
        };
        let b = State { piles: [40, 30, 80, 90], ..a };
        // Every pile allowed, or only descending ones: mirrored positions are the same.
        assert_eq!(a.key(&rules), b.key(&rules));
        assert_eq!(State { from: 2, ..a }.key(&rules), State { from: 2, ..b }.key(&rules));
        // Only up2 of the ascending pair, or only down2 of the descending pair: they differ.
        assert_ne!(State { from: 1, ..a }.key(&rules), State { from: 1, ..b }.key(&rules));
        assert_ne!(State { from: 3, ..a }.key(&rules), State { from: 3, ..b }.key(&rules));
    }

    #[test]
    fn table_keeps_exact_keys_apart() {
        let mut table = BoundTable::new(1024).unwrap();
        let a = Key { rem: 1, owners: 0, misc: 7 };
        let b = Key { rem: 1, owners: 1, misc: 7 };
        table.put(a, 3);
        assert_eq!(table.get(&a), 3);
        assert_eq!(table.get(&b), 0);
        table.clear();
        assert_eq!(table.get(&a), 0);
    }
}
