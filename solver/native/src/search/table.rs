//! A transposition table of proven-lost positions with a fixed size cap, generic over the key.
//!
//! Only positions whose every continuation was searched to the end are stored, so a hit is a
//! proof. The table is lossy: when a bucket is full an old entry is overwritten, which costs
//! time, never correctness. Clearing is O(1): each slot carries the generation it was written
//! in (in the top byte of its key's first word, which keys leave free), and a slot of an older
//! generation counts as empty.
//!
//! Most searches are small, so each generation starts using only the first `INITIAL_SLOTS`
//! slots and doubles that region as it fills, up to the cap: small searches then probe memory
//! that stays in cache instead of random lines of the whole table.

const WAYS: usize = 4;
/// Keys use the low 56 bits of their first word; the generation the top 8.
const KEY_BITS: u32 = 56;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
/// Slots in use when a generation starts (256 KiB of u64 keys).
const INITIAL_SLOTS: usize = 1 << 15;
/// Fibonacci hashing's multiplier: spreads compact keys over the table.
const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

/// Memory for a table of `len` slots, each made by `fill`. Where the system has transparent huge
/// pages on request (Linux's `madvise` setting), the allocation asks for them before it is first
/// written: a table probe is one random memory access, and with 2 MiB pages it no longer also
/// misses the TLB (measured: Etalage's search 1.36 times as fast).
/// Err, never a panic or an abort, when the memory cannot be had: the size comes from Python.
pub fn table_memory<T>(len: usize, fill: impl FnMut() -> T) -> Result<Vec<T>, String> {
    let mut slots = Vec::new();
    slots.try_reserve_exact(len).map_err(|_| {
        format!("a table of {len} slots of {} bytes does not fit in this machine's memory", std::mem::size_of::<T>())
    })?;
    #[cfg(target_os = "linux")]
    {
        extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
        }
        const MADV_HUGEPAGE: i32 = 14;
        const HUGE_PAGE: usize = 1 << 21;
        let start = slots.as_mut_ptr() as usize;
        let end = start + len * std::mem::size_of::<T>();
        let (first, last) = ((start + HUGE_PAGE - 1) & !(HUGE_PAGE - 1), end & !(HUGE_PAGE - 1));
        if first < last {
            // SAFETY: [first, last) lies inside the allocation `slots` owns: the reservation of
            // `len` slots succeeded, so `len * size_of::<T>()` bytes from `start` are allocated
            // (and their count did not overflow), and the bounds are rounded inwards to whole
            // huge pages, so the address is page-aligned as madvise requires.
            // MADV_HUGEPAGE only tells the kernel how to back those pages; it changes neither
            // their contents nor who may use them, and a refusal (an error return) is harmless.
            unsafe { madvise(first as *mut std::ffi::c_void, last - first, MADV_HUGEPAGE) };
        }
    }
    slots.resize_with(len, fill);
    Ok(slots)
}

/// The slots of a table asked for `entries` (at least `least`): the power of two at or above,
/// or Err where none fits in a `usize`.
pub fn table_slots(entries: usize, least: usize) -> Result<usize, String> {
    entries.max(least).checked_next_power_of_two().ok_or_else(|| format!("a table of {entries} entries is too large"))
}

/// A position key the table can store: exact (a hit compares the whole key), with the top byte
/// of its first word free for the generation tag.
pub trait TableKey: Copy + Eq {
    /// A slot never written (generation 0, which no table generation equals).
    const EMPTY: Self;
    /// The key as a slot of `generation` (1..=255) holds it.
    fn tagged(self, generation: u64) -> Self;
    /// The generation a slot was written in.
    fn generation(&self) -> u64;
    /// The key a slot holds, without its tag.
    fn untagged(self) -> Self;
    /// Well-mixed bits; the table takes the bucket from them.
    fn hash(&self) -> usize;
    /// Which way of a full bucket the key overwrites.
    fn victim(&self) -> usize;
}

/// The compact keys of most games: below 2^56 - 1 (stored plus one).
impl TableKey for u64 {
    const EMPTY: Self = 0;

    #[inline]
    fn tagged(self, generation: u64) -> Self {
        debug_assert!(self < KEY_MASK, "table keys must fit in 56 bits");
        generation << KEY_BITS | (self + 1)
    }

    #[inline]
    fn generation(&self) -> u64 {
        self >> KEY_BITS
    }

    #[inline]
    fn untagged(self) -> Self {
        (self & KEY_MASK) - 1
    }

    #[inline]
    fn hash(&self) -> usize {
        (self.wrapping_mul(SPREAD) >> 20) as usize
    }

    #[inline]
    fn victim(&self) -> usize {
        (*self as usize >> 3) % WAYS
    }
}

/// Keys of positions that do not fit one word (Sir Tommy's rows): five words, the first below
/// 2^56.
impl TableKey for [u64; 5] {
    const EMPTY: Self = [0; 5];

    #[inline]
    fn tagged(mut self, generation: u64) -> Self {
        debug_assert!(self[0] >> KEY_BITS == 0, "a key's first word must fit in 56 bits");
        self[0] |= generation << KEY_BITS;
        self
    }

    #[inline]
    fn generation(&self) -> u64 {
        self[0] >> KEY_BITS
    }

    #[inline]
    fn untagged(mut self) -> Self {
        self[0] &= KEY_MASK;
        self
    }

    #[inline]
    fn hash(&self) -> usize {
        self.iter().fold(0u64, |h, &w| (h ^ w).wrapping_mul(SPREAD).rotate_left(29)) as usize
    }

    #[inline]
    fn victim(&self) -> usize {
        (self[0] ^ self[1]) as usize % WAYS
    }
}

pub struct LostTable<K = u64> {
    slots: Vec<K>,
    /// The slots in use this generation are `slots[..=mask]`.
    mask: usize,
    generation: u64,
    pub stored: u64,
}

impl<K: TableKey> LostTable<K> {
    /// A table of at least `entries` slots (rounded up to a power of two, minimum 1024).
    /// Memory is one key a slot. Err where that memory cannot be had.
    pub fn new(entries: usize) -> Result<Self, String> {
        let size = table_slots(entries, 1024)?;
        Ok(LostTable { slots: table_memory(size, || K::EMPTY)?, mask: size.min(INITIAL_SLOTS) - 1, generation: 1, stored: 0 })
    }

    /// Doubles the slots in use, moving this generation's entries to their new buckets.
    /// Rare, and kept out of line so that `insert` stays small enough to inline in the search.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let used = self.mask + 1;
        let generation = self.generation;
        let mut entries = Vec::with_capacity(self.stored as usize);
        for slot in &mut self.slots[..used] {
            if slot.generation() == generation {
                entries.push(slot.untagged());
            }
            *slot = K::EMPTY;
        }
        self.mask = 2 * used - 1;
        for slot in &mut self.slots[used..2 * used] {
            *slot = K::EMPTY;
        }
        self.stored = 0;
        for key in entries {
            self.insert(key);
        }
    }

    /// Bytes held by the slots.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<K>()
    }

    #[inline]
    fn bucket(&self, key: &K) -> usize {
        key.hash() & self.mask & !(WAYS - 1)
    }

    #[inline]
    pub fn contains(&self, key: K) -> bool {
        let start = self.bucket(&key);
        self.slots[start..start + WAYS].contains(&key.tagged(self.generation))
    }

    #[inline]
    pub fn insert(&mut self, key: K) {
        let start = self.bucket(&key);
        let (tagged, generation) = (key.tagged(self.generation), self.generation);
        let bucket = &mut self.slots[start..start + WAYS];
        let free = bucket.iter().position(|s| s.generation() != generation);
        let slot = free.unwrap_or(key.victim());
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
            self.slots.fill(K::EMPTY);
            self.generation = 1;
        }
        self.stored = 0;
        self.mask = self.slots.len().min(INITIAL_SLOTS) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::{LostTable, TableKey};

    /// Each test runs over the compact keys and over wide keys that share their first word, so
    /// only a comparison of the whole key tells them apart.
    fn wide(i: u64) -> [u64; 5] {
        [3, 0, i, 0, 1]
    }

    fn clearing_forgets_entries_across_many_generations<K: TableKey>(key: fn(u64) -> K) {
        let mut table = LostTable::new(1024).unwrap();
        for round in 0..600u64 {
            assert!(!table.contains(key(round)), "round {round} sees an entry from an earlier one");
            table.insert(key(round));
            table.insert(key(round + 1_000_000));
            assert!(table.contains(key(round)) && table.contains(key(round + 1_000_000)));
            table.clear();
        }
    }

    fn growing_keeps_every_entry_it_has_room_for<K: TableKey>(key: fn(u64) -> K, least_kept: usize) {
        let mut table = LostTable::new(1 << 20).unwrap();
        let keys: Vec<K> = (0..100_000u64).map(|i| key(i * 7919 + 3)).collect();
        for &k in &keys {
            table.insert(k);
        }
        let kept = keys.iter().filter(|&&k| table.contains(k)).count();
        assert!(kept >= least_kept, "kept {kept} of 100000 (a full 4-way bucket overwrites)");
        assert!(!table.contains(key(5)) && !table.contains(key(2)));
        table.clear();
        assert!(keys.iter().all(|&k| !table.contains(k)));
    }

    #[test]
    fn clearing_forgets_compact_and_wide_keys() {
        clearing_forgets_entries_across_many_generations(|i| i);
        clearing_forgets_entries_across_many_generations(wide);
    }

    #[test]
    fn growing_keeps_compact_and_wide_keys() {
        // Fibonacci hashing spreads these evenly spaced compact keys better than chance; the wide
        // keys' hash does as well as chance, which loses about 5% in full buckets (most of them
        // at load 1/2, just before a growth).
        growing_keeps_every_entry_it_has_room_for(|i| i, 97_000);
        growing_keeps_every_entry_it_has_room_for(wide, 94_000);
    }
}
