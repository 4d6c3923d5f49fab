//! A transposition table of proven-lost positions with a fixed size cap.
//!
//! Only positions whose every continuation was searched to the end are stored, so a hit is a
//! proof. The table is lossy: when a bucket is full an old entry is overwritten, which costs
//! time, never correctness. Clearing is O(1): each slot carries the generation it was written
//! in, and a slot of an older generation counts as empty.
//!
//! Most searches are small, so each generation starts using only the first `INITIAL_SLOTS`
//! slots and doubles that region as it fills, up to the cap: small searches then probe memory
//! that stays in cache instead of random lines of the whole table.

const WAYS: usize = 4;
/// Keys use the low 56 bits of a slot; the generation the top 8.
const KEY_BITS: u32 = 56;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
/// Slots in use when a generation starts (256 KiB).
const INITIAL_SLOTS: usize = 1 << 15;

pub struct LostTable {
    slots: Vec<u64>,
    /// The slots in use this generation are `slots[..=mask]`.
    mask: usize,
    generation: u64,
    pub stored: u64,
}

impl LostTable {
    /// A table of at least `entries` slots (rounded up to a power of two, minimum 1024).
    /// Memory is 8 bytes a slot.
    pub fn new(entries: usize) -> Self {
        let size = entries.max(1024).next_power_of_two();
        LostTable { slots: vec![0; size], mask: size.min(INITIAL_SLOTS) - 1, generation: 1, stored: 0 }
    }

    /// Doubles the slots in use, moving this generation's entries to their new buckets.
    fn grow(&mut self) {
        let used = self.mask + 1;
        let generation = self.generation;
        let mut entries = Vec::with_capacity(self.stored as usize);
        for slot in &mut self.slots[..used] {
            if *slot >> KEY_BITS == generation {
                entries.push((*slot & KEY_MASK) - 1);
            }
            *slot = 0;
        }
        self.mask = 2 * used - 1;
        for slot in &mut self.slots[used..2 * used] {
            *slot = 0;
        }
        self.stored = 0;
        for key in entries {
            self.insert(key);
        }
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
        if self.stored as usize > self.mask / 2 && self.mask + 1 < self.slots.len() {
            self.grow();
        }
    }

    /// Forgets every entry: a new generation, and a real wipe once every 255 generations.
    pub fn clear(&mut self) {
        self.generation += 1;
        if self.generation > 0xFF {
            self.slots.fill(0);
            self.generation = 1;
        }
        self.stored = 0;
        self.mask = self.slots.len().min(INITIAL_SLOTS) - 1;
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

    #[test]
    fn growing_keeps_every_entry_it_has_room_for() {
        let mut table = LostTable::new(1 << 20);
        let keys: Vec<u64> = (0..100_000u64).map(|i| i * 7919 + 3).collect();
        for &key in &keys {
            table.insert(key);
        }
        let kept = keys.iter().filter(|&&key| table.contains(key)).count();
        assert!(kept > 97_000, "kept {kept} of 100000 (a full 4-way bucket overwrites)");
        assert!(!table.contains(5) && !table.contains(2));
        table.clear();
        assert!(keys.iter().all(|&key| !table.contains(key)));
    }
}
