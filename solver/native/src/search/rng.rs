//! The seeded deals of docs/rules.md: SplitMix64 and a Fisher–Yates shuffle from the end.
//! Python's `puzzles.cards` implements the same two functions; tests pin both to fixed deals.

/// SplitMix64, exactly as docs/rules.md states it (all arithmetic mod 2^64).
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Shuffles `items` in place: for i from n-1 down to 1, swap item i with item `next() % (i+1)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

/// Shuffles `items` in place with a new generator seeded `seed` (see `SplitMix64::shuffle`).
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    SplitMix64::new(seed).shuffle(items);
}

/// The 52-card deck (card id = suit * 13 + rank - 1, suits S H D C) shuffled by `seed`.
pub fn shuffled_deck(seed: u64) -> Vec<u8> {
    let mut deck: Vec<u8> = (0..52).collect();
    shuffle(&mut deck, seed);
    deck
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // First outputs for seed 0, as published with SplitMix64.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
