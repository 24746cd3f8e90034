//! Compact moves for the transposition table, and the move orderer's memory:
//! killer moves and the history heuristic.

use xiangqi::{Cell, Move};

/// A move in 16 bits (two 7-bit cell indices); 0 is "no move", which no legal
/// move packs to since its two cells differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PackedMove(pub u16);

impl PackedMove {
    pub const NONE: PackedMove = PackedMove(0);

    #[inline]
    pub fn new(m: Move) -> PackedMove {
        PackedMove(m.from.index() as u16 | (m.to.index() as u16) << 7)
    }

    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The move, if any (not checked for legality: compare with a legal move list).
    #[inline]
    pub fn unpack(self) -> Option<Move> {
        (!self.is_none())
            .then(|| Move::new(Cell::new(usize::from(self.0 & 0x7f)), Cell::new(usize::from(self.0 >> 7))))
    }
}

const CELLS: usize = 90;

/// How often each quiet move (by side, from, to) caused a cutoff recently,
/// weighted by depth; bounded by the "gravity" update so it adapts over a game.
pub struct History {
    table: Vec<i32>,
}

pub const HISTORY_MAX: i32 = 16_384;

impl Default for History {
    fn default() -> Self {
        History { table: vec![0; 2 * CELLS * CELLS] }
    }
}

impl History {
    #[inline]
    fn index(side: usize, m: Move) -> usize {
        (side * CELLS + m.from.index()) * CELLS + m.to.index()
    }

    #[inline]
    pub fn get(&self, side: usize, m: Move) -> i32 {
        self.table[Self::index(side, m)]
    }

    /// Rewards (positive bonus) or punishes a move, keeping it within ±[`HISTORY_MAX`].
    #[inline]
    pub fn update(&mut self, side: usize, m: Move, bonus: i32) {
        let e = &mut self.table[Self::index(side, m)];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *e += b - *e * b.abs() / HISTORY_MAX;
    }

    /// Shrinks every score, so that the next search trusts the last one less.
    pub fn age(&mut self) {
        for e in &mut self.table {
            *e /= 2;
        }
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
    }
}

/// The bonus for a quiet move that caused a cutoff at `depth`.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (depth * depth * 16 + depth * 32).min(HISTORY_MAX / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_moves_round_trip_and_none_is_distinct() {
        let m = Move::new(Cell::new(89), Cell::new(3));
        assert_eq!(PackedMove::new(m).unpack(), Some(m));
        assert_eq!(PackedMove::NONE.unpack(), None);
    }

    #[test]
    fn history_stays_bounded() {
        let mut h = History::default();
        let m = Move::new(Cell::new(10), Cell::new(19));
        for _ in 0..1000 {
            h.update(0, m, history_bonus(20));
        }
        assert!(h.get(0, m) <= HISTORY_MAX);
        assert!(h.get(0, m) > HISTORY_MAX / 2);
    }
}
