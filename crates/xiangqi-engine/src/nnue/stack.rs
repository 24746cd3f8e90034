//! The accumulators of the positions on the search's current line.
//!
//! A move's accumulator is written whole from the one before it (or, for a
//! general's step between buckets, from the refresh cache), so the stack keeps
//! its slots between moves and never copies an accumulator only to overwrite it:
//! at some 2.6 million moves a second, a kilobyte copied per move is a
//! measurable part of the search's time.

use xiangqi::{Geometry, Move, Piece, Position};

use super::{Accumulator, Network, RefreshCache};

/// One search thread's accumulators for one net, root first, and its refresh cache.
pub struct AccumulatorStack<'a> {
    net: &'a Network,
    /// Slots reused from line to line; those from `len` on hold stale values.
    slots: Vec<Accumulator>,
    len: usize,
    cache: RefreshCache,
}

impl<'a> AccumulatorStack<'a> {
    /// A stack of `net` holding `root`'s accumulator, with room for `depth` moves before it grows.
    pub fn new<G: Geometry>(net: &'a Network, root: &Position<G>, depth: usize) -> AccumulatorStack<'a> {
        // Only the root's slot is filled: a deeper one is added when the line
        // first reaches it, where copying the root into every slot up front cost
        // a short search (self-play's) 2% of its time.
        let mut slots = Vec::with_capacity(depth + 1);
        slots.push(net.refresh(root));
        AccumulatorStack { net, slots, len: 1, cache: RefreshCache::new(net) }
    }

    /// The net whose accumulators these are.
    #[inline]
    pub fn net(&self) -> &'a Network {
        self.net
    }

    /// The accumulator of the position at the end of the line.
    #[inline]
    pub fn top(&self) -> &Accumulator {
        &self.slots[self.len - 1]
    }

    /// Adds the accumulator of `after`, the position that `m` (capturing
    /// `captured`) led to from the top one.
    #[inline]
    pub fn push<G: Geometry>(&mut self, after: &Position<G>, m: Move, captured: Option<Piece>) {
        if self.len == self.slots.len() {
            self.slots.push(self.slots[self.len - 1]);
        }
        let (before, next) = self.slots.split_at_mut(self.len);
        self.net.update(&before[self.len - 1], &mut next[0], after, m, captured, &mut self.cache);
        self.len += 1;
    }

    /// Takes back the last move's accumulator.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.len > 1, "the root's accumulator stays");
        self.len -= 1;
    }
}
