//! The transposition table: shared by every search thread without locks.
//!
//! Each entry is two atomic words, the data and the key xor-ed with the data
//! (the "lockless hashing" of Hyatt and Mann): a write torn between two threads
//! leaves a key that no longer matches, so a reader sees a miss, never a
//! corrupt hit. Entries come in pairs; a new result replaces the shallower or
//! older of the two.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::{
    huge_pages,
    moves::PackedMove,
    score::{Value, from_tt},
};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (no move reached alpha).
    Upper = 1,
    /// The true value is at least the score (a move reached beta).
    Lower = 2,
    Exact = 3,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: PackedMove,
    pub value: Value,
    pub eval: Value,
    pub depth: i32,
    pub bound: Bound,
}

impl Entry {
    /// The value that ends a search of `depth` plies with the window
    /// (`alpha`, `beta`) at `ply` without searching, when this entry is deep
    /// enough and its bound settles the window: an exact score, a lower bound at
    /// or above beta, or an upper bound at or below alpha. The main search and
    /// the quiescence search (depth 0, which every entry reaches) both ask here.
    #[inline]
    pub fn cutoff(&self, depth: i32, alpha: Value, beta: Value, ply: usize) -> Option<Value> {
        if self.depth < depth {
            return None;
        }
        let v = from_tt(self.value, ply);
        let cut = match self.bound {
            Bound::Exact => true,
            Bound::Lower => v >= beta,
            Bound::Upper => v <= alpha,
        };
        cut.then_some(v)
    }
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 2;

/// A fixed-size table of search results keyed by position hash.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    buckets: usize,
    generation: AtomicU64,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Self {
        let bytes = mb.max(1) * 1024 * 1024;
        let buckets = (bytes / (BUCKET * std::mem::size_of::<Slot>())).max(1);
        let mut slots = Vec::with_capacity(buckets * BUCKET);
        huge_pages::advise(&slots);
        slots.extend(std::iter::repeat_with(Slot::default).take(buckets * BUCKET));
        TranspositionTable { slots, buckets, generation: AtomicU64::new(0) }
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u64 {
        self.generation.load(Ordering::Relaxed) & 0x3f
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key as u128 * self.buckets as u128) >> 64) as usize * BUCKET
    }

    /// Starts loading a position's bucket into the cache, so that the probe a
    /// little later does not wait for memory.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot: *const Slot = &self.slots[self.bucket(key)];
            // SAFETY: SSE is part of the x86_64 baseline, and a prefetch only hints
            // the cache: it never faults and reads nothing into the program.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for a position, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for slot in &self.slots[b..b + BUCKET] {
            let data = slot.data.load(Ordering::Relaxed);
            if data != 0 && slot.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a result, keeping the old move if the new result has none.
    #[inline]
    pub fn store(&self, key: u64, mut entry: Entry) {
        let b = self.bucket(key);
        let generation = self.generation();
        let bucket = &self.slots[b..b + BUCKET];
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            if data == 0 || slot.check.load(Ordering::Relaxed) ^ data == key {
                if let Some(old) = unpack(data) {
                    // A shallower result without a move keeps the one found before.
                    if entry.mv.is_none() {
                        entry.mv = old.mv;
                    }
                    if entry.bound != Bound::Exact && old.depth > entry.depth + 3 && data >> 58 == generation
                    {
                        return;
                    }
                }
                victim = i;
                break;
            }
            let age = ((generation + 64 - (data >> 58)) & 0x3f) as i32;
            let worth = (data >> 48 & 0xff) as i32 - 8 * age;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let data = pack(&entry, generation);
        let slot = &bucket[victim];
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Per mille of sampled entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = self.slots.len().min(2000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && d >> 58 == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

fn pack(e: &Entry, generation: u64) -> u64 {
    let depth = e.depth.clamp(0, 255) as u64;
    u64::from(e.mv.0)
        | u64::from(e.value as i16 as u16) << 16
        | u64::from(e.eval as i16 as u16) << 32
        | depth << 48
        | (e.bound as u64) << 56
        | generation << 58
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match data >> 56 & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(Entry {
        mv: PackedMove(data as u16),
        value: Value::from((data >> 16) as u16 as i16),
        eval: Value::from((data >> 32) as u16 as i16),
        depth: (data >> 48 & 0xff) as i32,
        bound,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entries_come_back_intact() {
        let tt = TranspositionTable::new(1);
        let e = Entry { mv: PackedMove(0x1234), value: -29_990, eval: 57, depth: 12, bound: Bound::Lower };
        tt.store(0xdead_beef_0000_0001, e);
        assert_eq!(tt.probe(0xdead_beef_0000_0001), Some(e));
        assert_eq!(tt.probe(0xdead_beef_0000_0002), None);
    }

    #[test]
    fn an_entry_cuts_off_when_deep_enough_and_its_bound_settles_the_window() {
        let at = |bound, value| Entry { mv: PackedMove::NONE, value, eval: 0, depth: 6, bound };
        assert_eq!(at(Bound::Exact, 40).cutoff(6, -10, 10, 3), Some(40));
        assert_eq!(at(Bound::Exact, 40).cutoff(7, -10, 10, 3), None, "too shallow");
        assert_eq!(at(Bound::Exact, 40).cutoff(0, -10, 10, 3), Some(40), "quiescence takes any depth");
        assert_eq!(at(Bound::Lower, 10).cutoff(6, -10, 10, 3), Some(10));
        assert_eq!(at(Bound::Lower, 9).cutoff(6, -10, 10, 3), None);
        assert_eq!(at(Bound::Upper, -10).cutoff(6, -10, 10, 3), Some(-10));
        assert_eq!(at(Bound::Upper, -9).cutoff(6, -10, 10, 3), None);
        // Mate scores are stored from the node and come back from the root.
        let mate = crate::score::mate_in(5);
        let stored = crate::score::to_tt(mate, 3);
        assert_eq!(at(Bound::Lower, stored).cutoff(6, -10, 10, 3), Some(mate));
    }

    #[test]
    fn a_result_without_a_move_keeps_the_known_move() {
        let tt = TranspositionTable::new(1);
        let key = 42;
        tt.store(key, Entry { mv: PackedMove(77), value: 10, eval: 0, depth: 3, bound: Bound::Exact });
        tt.store(key, Entry { mv: PackedMove::NONE, value: 5, eval: 0, depth: 4, bound: Bound::Upper });
        assert_eq!(tt.probe(key).map(|e| e.mv), Some(PackedMove(77)));
    }
}
