//! The transposition table: a fixed-size array shared by all search threads without locks.
//!
//! Each entry is two atomics, the key XORed with the data and the data, so a torn write (two
//! threads storing at once) reads back as a key mismatch instead of as wrong data. Entries keep a
//! lower and an upper bound on the value, so a chance node's cut-offs in either direction are
//! remembered. Four entries make a 64-byte cluster, aligned to a cache line.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// No best turn stored.
pub const NO_TURN: u16 = u16::MAX;

/// What a probe finds.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct TtHit {
    /// The best turn's index among the node's turns, or [`NO_TURN`].
    pub best: u16,
    pub lower: i32,
    pub upper: i32,
    pub depth: i32,
}

impl TtHit {
    /// The value this entry settles for a node searched `depth` deep with window `(alpha,
    /// beta)`, if it does: an exact value, or a bound outside the window.
    #[inline]
    pub fn cutoff(&self, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
        if self.depth < depth {
            return None;
        }
        if self.lower >= beta || self.lower == self.upper {
            Some(self.lower)
        } else if self.upper <= alpha {
            Some(self.upper)
        } else {
            None
        }
    }
}

/// Atomics per cluster: four entries of two words.
const CLUSTER_WORDS: usize = 8;
const CLUSTER_BYTES: usize = CLUSTER_WORDS * 8;

fn pack(best: u16, lower: i32, upper: i32, depth: i32, generation: u8) -> u64 {
    let lower = lower.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16;
    let upper = upper.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16;
    u64::from(best)
        | u64::from(lower) << 16
        | u64::from(upper) << 32
        | u64::from(depth.clamp(0, 255) as u8) << 48
        | u64::from(generation) << 56
}

fn unpack(data: u64) -> (TtHit, u8) {
    let hit = TtHit {
        best: data as u16,
        lower: i32::from((data >> 16) as u16 as i16),
        upper: i32::from((data >> 32) as u16 as i16),
        depth: i32::from((data >> 48) as u8),
    };
    (hit, (data >> 56) as u8)
}

/// The shared table.
pub struct TranspositionTable {
    /// Clusters of [`CLUSTER_WORDS`] words, from `offset` on (a cache-line boundary).
    words: Box<[AtomicU64]>,
    offset: usize,
    clusters: usize,
    generation: AtomicU8,
}

/// The table's size in MiB where nobody chose one: the protocol's default `Hash`, and the tables
/// of matches, datagen and the web page's engine.
pub const DEFAULT_MIB: usize = 16;

impl TranspositionTable {
    /// A table of about `mib` MiB (at least one cluster).
    ///
    /// # Panics
    /// If the memory cannot be had; [`TranspositionTable::try_new`] reports that instead.
    pub fn new(mib: usize) -> TranspositionTable {
        TranspositionTable::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mib` MiB, or why not. The memory comes zeroed from the allocator (all
    /// zero is an empty table) with a word's alignment, which the allocator serves from fresh
    /// pages without writing them: memory is touched only as the search writes entries.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, TableTooLarge> {
        let clusters = (mib.max(1) * 1024 * 1024 / CLUSTER_BYTES).max(1);
        let len = clusters * CLUSTER_WORDS + CLUSTER_WORDS;
        let layout = std::alloc::Layout::array::<AtomicU64>(len).map_err(|_| TableTooLarge { mib })?;
        // SAFETY: the layout has non-zero size; all-zero bits are a valid AtomicU64; the pointer is
        // checked and given to a Box of the same element type and length (so the same layout).
        let words = unsafe {
            let ptr = std::alloc::alloc_zeroed(layout) as *mut AtomicU64;
            if ptr.is_null() {
                return Err(TableTooLarge { mib });
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len))
        };
        let misalign = words.as_ptr() as usize % CLUSTER_BYTES;
        let offset = if misalign == 0 { 0 } else { (CLUSTER_BYTES - misalign) / 8 };
        Ok(TranspositionTable { words, offset, clusters, generation: AtomicU8::new(0) })
    }

    /// Size in bytes (of the clusters).
    pub fn bytes(&self) -> usize {
        self.clusters * CLUSTER_BYTES
    }

    /// Forgets everything (writing every word: for a fresh table of the same size without
    /// touching memory, make a new one).
    pub fn clear(&mut self) {
        for w in self.words.iter_mut() {
            *w.get_mut() = 0;
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// The index in `words` of the key's cluster's first word.
    #[inline]
    fn cluster_start(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the table without a modulo.
        let index = ((u128::from(key) * self.clusters as u128) >> 64) as usize;
        self.offset + index * CLUSTER_WORDS
    }

    /// The four entries (key XOR data, data) of the key's cluster.
    #[inline]
    fn cluster(&self, key: u64) -> impl Iterator<Item = (&AtomicU64, &AtomicU64)> {
        let start = self.cluster_start(key);
        self.words[start..start + CLUSTER_WORDS].chunks_exact(2).map(|pair| (&pair[0], &pair[1]))
    }

    /// Asks the processor to bring `key`'s cluster into the cache, so that a probe made after
    /// other work (the evaluation) does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let cluster = self.words[self.cluster_start(key)..].as_ptr();
            // SAFETY: a prefetch is a hint that reads nothing a program can see; the address is
            // that of a cluster inside the table (SSE is part of every x86_64 processor).
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(cluster as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for (key_xor_data, data) in self.cluster(key) {
            let data = data.load(Ordering::Relaxed);
            if key_xor_data.load(Ordering::Relaxed) ^ data == key && data != 0 {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Stores what a search with window `(alpha, beta)` returned: a lower bound when it failed
    /// high, an upper bound when it failed low, the exact value in between.
    pub fn store_result(&self, key: u64, depth: i32, value: i32, alpha: i32, beta: i32, best: u16) {
        let win = crate::search::WIN;
        let (lower, upper) = if value >= beta {
            (value, win)
        } else if value <= alpha {
            (-win, value)
        } else {
            (value, value)
        };
        self.store(key, depth, lower, upper, best);
    }

    /// Stores bounds found at `depth`. Bounds from the same depth merge with what is there;
    /// a deeper result replaces a shallower one; a shallower one never replaces a deeper one of
    /// the same key (but may update its best turn when it had none).
    pub fn store(&self, key: u64, depth: i32, lower: i32, upper: i32, best: u16) {
        let generation = self.generation.load(Ordering::Relaxed);
        let mut victim = None;
        let mut victim_worth = i32::MAX;
        for (key_xor_data, data_word) in self.cluster(key) {
            let data = data_word.load(Ordering::Relaxed);
            if data != 0 && key_xor_data.load(Ordering::Relaxed) ^ data == key {
                let (old, _) = unpack(data);
                let new = if depth == old.depth {
                    let (lo, hi) = (lower.max(old.lower), upper.min(old.upper));
                    let best = if best == NO_TURN { old.best } else { best };
                    if lo <= hi {
                        pack(best, lo, hi, depth, generation)
                    } else {
                        pack(best, lower, upper, depth, generation)
                    }
                } else if depth > old.depth {
                    pack(if best == NO_TURN { old.best } else { best }, lower, upper, depth, generation)
                } else if old.best == NO_TURN && best != NO_TURN {
                    pack(best, old.lower, old.upper, old.depth, generation)
                } else {
                    return;
                };
                data_word.store(new, Ordering::Relaxed);
                key_xor_data.store(key ^ new, Ordering::Relaxed);
                return;
            }
            let (old, old_generation) = unpack(data);
            // Empty slots first, then the shallowest, with entries of past searches worth less.
            let age = i32::from(generation.wrapping_sub(old_generation));
            let worth = if data == 0 { i32::MIN } else { old.depth - 4 * age };
            if worth < victim_worth {
                victim = Some((key_xor_data, data_word));
                victim_worth = worth;
            }
        }
        let (key_xor_data, data_word) = victim.expect("a cluster has entries");
        let data = pack(best, lower, upper, depth, generation);
        data_word.store(data, Ordering::Relaxed);
        key_xor_data.store(key ^ data, Ordering::Relaxed);
    }

    /// Per mille of a sample of entries written in this search (UCI's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.clusters.min(250);
        let mut used = 0;
        for i in 0..sample {
            let start = self.offset + i * CLUSTER_WORDS;
            for pair in self.words[start..start + CLUSTER_WORDS].chunks_exact(2) {
                let data = pair[1].load(Ordering::Relaxed);
                if data != 0 && unpack(data).1 == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

/// A table the machine would not give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {mib} MiB table")]
pub struct TableTooLarge {
    pub mib: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_probes_merges_and_replaces() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.probe(42), None);
        tt.store(42, 3, 10, 4000, 7);
        assert_eq!(tt.probe(42), Some(TtHit { best: 7, lower: 10, upper: 4000, depth: 3 }));
        // Same depth: bounds merge.
        tt.store(42, 3, -4000, 50, NO_TURN);
        assert_eq!(tt.probe(42), Some(TtHit { best: 7, lower: 10, upper: 50, depth: 3 }));
        // Shallower: kept out.
        tt.store(42, 2, 0, 0, 1);
        assert_eq!(tt.probe(42).unwrap().depth, 3);
        // Deeper: replaces.
        tt.store(42, 5, -7, -7, 2);
        assert_eq!(tt.probe(42), Some(TtHit { best: 2, lower: -7, upper: -7, depth: 5 }));
        // Negative scores survive packing.
        tt.store(43, 1, -3999, -12, NO_TURN);
        assert_eq!(tt.probe(43), Some(TtHit { best: NO_TURN, lower: -3999, upper: -12, depth: 1 }));
    }

    #[test]
    fn size_follows_the_option() {
        assert_eq!(TranspositionTable::new(1).bytes(), 1024 * 1024);
        assert_eq!(TranspositionTable::new(16).bytes(), 16 * 1024 * 1024);
    }
}
