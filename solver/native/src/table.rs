//! A transposition table of proven-lost positions with a fixed size cap.
//!
//! Only positions whose every continuation was searched to the end are stored, so a hit is a
//! proof. The table is lossy: when a bucket is full an old entry is overwritten, which costs
//! time, never correctness.

const WAYS: usize = 4;

pub struct LostTable {
    slots: Vec<u64>,
    mask: usize,
    pub stored: u64,
    /// Buckets written since the last clear, while few enough that clearing just them is
    /// cheaper than clearing the whole table (many small solves in a row stay fast).
    touched: Vec<u32>,
}

impl LostTable {
    /// A table of at least `entries` slots (rounded up to a power of two, minimum 1024).
    /// Memory is 8 bytes a slot.
    pub fn new(entries: usize) -> Self {
        let size = entries.max(1024).next_power_of_two();
        LostTable { slots: vec![0; size], mask: size - 1, stored: 0, touched: Vec::new() }
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

    /// Stored value: key + 1, so that 0 means empty. Keys must be below u64::MAX.
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        let start = self.bucket(key);
        self.slots[start..start + WAYS].contains(&(key + 1))
    }

    #[inline]
    pub fn insert(&mut self, key: u64) {
        let start = self.bucket(key);
        let bucket = &mut self.slots[start..start + WAYS];
        let free = bucket.iter().position(|&s| s == 0);
        let slot = free.unwrap_or((key as usize >> 3) % WAYS);
        bucket[slot] = key + 1;
        self.stored += 1;
        if self.stored as usize <= self.max_touched() {
            self.touched.push(start as u32);
        }
    }

    fn max_touched(&self) -> usize {
        self.slots.len() / 64
    }

    pub fn clear(&mut self) {
        if self.stored as usize <= self.max_touched() {
            for &start in &self.touched {
                self.slots[start as usize..start as usize + WAYS].fill(0);
            }
        } else {
            self.slots.fill(0);
        }
        self.touched.clear();
        self.stored = 0;
    }
}
