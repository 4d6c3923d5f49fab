//! Columns of face-up cards where only the top card of each column can be taken: the layout of
//! Stapelen, All in a Row and Black Hole. Cards are ids 0..52 (suit * 13 + rank - 1).

/// `C` columns of at most `D` cards, bottom card first.
#[derive(Clone)]
pub struct Tableau<const C: usize, const D: usize> {
    cards: [[u8; D]; C],
    heights: [u8; C],
    remaining: u8,
    /// The heights read as a number in base D+1, kept up to date by pop and unpop.
    heights_key: u64,
}

/// The seeded tableau of docs/rules.md: card k of the shuffled `deck` goes to column k % `columns`,
/// depth k / `columns` (bottom card first).
pub fn seeded_columns(deck: &[u8], columns: usize) -> Vec<Vec<u8>> {
    (0..columns).map(|c| deck[c..].iter().step_by(columns).copied().collect()).collect()
}

pub fn rank(card: u8) -> u8 {
    card % 13 + 1
}

impl<const C: usize, const D: usize> Tableau<C, D> {
    /// Checks the shape and that no card id is invalid or repeated.
    pub fn new(columns: &[Vec<u8>]) -> Result<Self, String> {
        if columns.len() != C {
            return Err(format!("expected {C} columns, got {}", columns.len()));
        }
        let mut tableau = Tableau { cards: [[0; D]; C], heights: [0; C], remaining: 0, heights_key: 0 };
        let mut seen = 0u64;
        for (c, column) in columns.iter().enumerate() {
            if column.len() > D {
                return Err(format!("column {} holds {} cards; at most {D}", c + 1, column.len()));
            }
            for (d, &card) in column.iter().enumerate() {
                if card >= 52 || seen & (1 << card) != 0 {
                    return Err(format!("card id {card} is invalid or repeated"));
                }
                seen |= 1 << card;
                tableau.cards[c][d] = card;
            }
            tableau.heights[c] = column.len() as u8;
            tableau.remaining += column.len() as u8;
            tableau.heights_key += column.len() as u64 * Self::place(c);
        }
        Ok(tableau)
    }

    #[inline]
    pub fn remaining(&self) -> u8 {
        self.remaining
    }

    #[inline]
    pub fn height(&self, column: usize) -> usize {
        self.heights[column] as usize
    }

    #[inline]
    pub fn top(&self, column: usize) -> Option<u8> {
        let h = self.heights[column] as usize;
        (h > 0).then(|| self.cards[column][h - 1])
    }

    /// The cards of a column that are still there, bottom first.
    #[inline]
    pub fn column(&self, column: usize) -> &[u8] {
        &self.cards[column][..self.heights[column] as usize]
    }

    /// The place value of a column's height in the key: column 0 is the most significant.
    #[inline]
    fn place(column: usize) -> u64 {
        (D as u64 + 1).pow((C - 1 - column) as u32)
    }

    #[inline]
    pub fn pop(&mut self, column: usize) {
        self.heights[column] -= 1;
        self.remaining -= 1;
        self.heights_key -= Self::place(column);
    }

    /// Puts back the card last popped from `column`.
    #[inline]
    pub fn unpop(&mut self, column: usize) {
        self.heights[column] += 1;
        self.remaining += 1;
        self.heights_key += Self::place(column);
    }

    /// The heights packed in base D+1: a compact key of which cards remain.
    #[inline]
    pub fn heights_key(&self) -> u64 {
        self.heights_key
    }
}
