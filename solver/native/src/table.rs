//! A transposition table of proven-lost positions with a fixed size cap.
//!
//! Only positions whose every continuation was searched to the end are stored, so a hit is a
//! proof. The table is lossy: when a bucket is full an old entry is overwritten, which costs
//! time, never correctness. Clearing is O(1): each slot carries the generation it was written
//! in, and a slot of an older generation counts as empty.

const WAYS: usize = 4;
/// Keys use the low 56 bits of a slot; the generation the top 8.
const KEY_BITS: u32 = 56;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;

pub struct LostTable {
    slots: Vec<u64>,
    mask: usize,
    generation: u64,
    pub stored: u64,
}

impl LostTable {
    /// A table of at least `entries` slots (rounded up to a power of two, minimum 1024).
    /// Memory is 8 bytes a slot.
    pub fn new(entries: usize) -> Self {
        let size = entries.max(1024).next_power_of_two();
        LostTable { slots: vec![0; size], mask: size - 1, generation: 1, stored: 0 }
    }

    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Fibonacci hashing spreads the compact keys over the table.
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h >> 20) as usize) & self.mask & !(WAYS - 1)
    }

    /// What a slot holds for `key` in this generation; keys must be below 2^56 - 1.
    #[inline]
    fn tagged(&self, key: u64) -> u64 {
        debug_assert!(key < KEY_MASK, "table keys must fit in 56 bits");
        self.generation << KEY_BITS | (key + 1)
    }

    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        let start = self.bucket(key);
        self.slots[start..start + WAYS].contains(&self.tagged(key))
    }

    #[inline]
    pub fn insert(&mut self, key: u64) {
        let start = self.bucket(key);
        let (tagged, generation) = (self.tagged(key), self.generation);
        let bucket = &mut self.slots[start..start + WAYS];
        let free = bucket.iter().position(|&s| s >> KEY_BITS != generation);
        let slot = free.unwrap_or((key as usize >> 3) % WAYS);
        bucket[slot] = tagged;
        self.stored += 1;
    }

    /// Forgets every entry: a new generation, and a real wipe once every 255 generations.
    pub fn clear(&mut self) {
        self.generation += 1;
        if self.generation > 0xFF {
            self.slots.fill(0);
            self.generation = 1;
        }
        self.stored = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::LostTable;

    #[test]
    fn clearing_forgets_entries_across_many_generations() {
        let mut table = LostTable::new(1024);
        for round in 0..600u64 {
            assert!(!table.contains(round), "round {round} sees an entry from an earlier one");
            table.insert(round);
            table.insert(round + 1_000_000);
            assert!(table.contains(round) && table.contains(round + 1_000_000));
            table.clear();
        }
    }
}
