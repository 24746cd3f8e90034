//! Compact moves for the transposition table, and the move orderer's memory:
//! the history heuristic for quiet moves and for captures.

use xiangqi::{Cell, Color, Move, Piece, Role};

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

/// Where the last moves went, as continuation history sees them: the piece that
/// moved and its target cell (`None` before the root and after a null move).
pub type Context = Option<u16>;

/// The context of a move by `piece` (its [`xiangqi::Piece::index`]) to `to`.
#[inline]
pub fn context(piece: usize, to: Cell) -> Context {
    Some((piece * CELLS + to.index()) as u16)
}

const ROLES: usize = Role::ALL.len();
const PIECES: usize = Color::ALL.len() * ROLES;

/// How often each quiet move caused a cutoff recently, weighted by depth and
/// bounded by the "gravity" update so it adapts over a game: by side, from and
/// to, and (continuation history) by the piece and target of the move one and
/// two plies before, so that answers to a particular move are remembered; and
/// the same for captures, by capturing piece, cell and victim.
pub struct History {
    table: Vec<i32>,
    /// Kept in 16 bits (scores stay within ±[`HISTORY_MAX`]) so that more of it fits in cache.
    continuation: Vec<i16>,
    /// By capturing piece, target cell and victim role; 16 bits as above.
    capture: Vec<i16>,
}

pub const HISTORY_MAX: i32 = 16_384;

impl Default for History {
    fn default() -> Self {
        let size = (PIECES * CELLS) * (PIECES * CELLS);
        let mut continuation = Vec::with_capacity(size);
        crate::huge_pages::advise(&continuation);
        continuation.resize(size, 0);
        History { table: vec![0; 2 * CELLS * CELLS], continuation, capture: vec![0; PIECES * CELLS * ROLES] }
    }
}

#[inline]
fn gravity(e: &mut i32, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *e += b - *e * b.abs() / HISTORY_MAX;
}

/// [`gravity`] on an entry kept in 16 bits.
#[inline]
fn gravity16(e: &mut i16, bonus: i32) {
    let mut v = i32::from(*e);
    gravity(&mut v, bonus);
    *e = v as i16;
}

impl History {
    #[inline]
    fn index(side: usize, m: Move) -> usize {
        (side * CELLS + m.from.index()) * CELLS + m.to.index()
    }

    #[inline]
    fn continuation_index(ctx: u16, piece: usize, m: Move) -> usize {
        usize::from(ctx) * (PIECES * CELLS) + piece * CELLS + m.to.index()
    }

    #[inline]
    pub fn get(&self, side: usize, m: Move) -> i32 {
        self.table[Self::index(side, m)]
    }

    /// The ordering score of a quiet move by `piece`: its own history plus its
    /// continuation histories after the moves of `contexts`.
    #[inline]
    pub fn quiet_score(&self, side: usize, piece: usize, m: Move, contexts: &[Context; 2]) -> i32 {
        let mut s = self.get(side, m);
        for c in contexts.iter().flatten() {
            s += i32::from(self.continuation[Self::continuation_index(*c, piece, m)]);
        }
        s
    }

    /// Rewards (positive bonus) or punishes a move, keeping it within ±[`HISTORY_MAX`].
    #[inline]
    fn update(&mut self, side: usize, m: Move, bonus: i32) {
        gravity(&mut self.table[Self::index(side, m)], bonus);
    }

    /// As [`History::update`], for the continuation histories as well.
    #[inline]
    pub fn update_quiet(&mut self, side: usize, piece: usize, m: Move, contexts: &[Context; 2], bonus: i32) {
        self.update(side, m, bonus);
        for c in contexts.iter().flatten() {
            gravity16(&mut self.continuation[Self::continuation_index(*c, piece, m)], bonus);
        }
    }

    #[inline]
    fn capture_index(piece: Piece, to: Cell, victim: Role) -> usize {
        (piece.index() * CELLS + to.index()) * ROLES + victim.index()
    }

    /// The history of a capture of `victim` on `to` by `piece`.
    #[inline]
    pub fn capture_score(&self, piece: Piece, to: Cell, victim: Role) -> i32 {
        i32::from(self.capture[Self::capture_index(piece, to, victim)])
    }

    /// Rewards (positive bonus) or punishes a capture.
    #[inline]
    pub fn update_capture(&mut self, piece: Piece, to: Cell, victim: Role, bonus: i32) {
        gravity16(&mut self.capture[Self::capture_index(piece, to, victim)], bonus);
    }

    /// Shrinks every score, so that the next search trusts the last one less.
    pub fn age(&mut self) {
        for e in &mut self.table {
            *e /= 2;
        }
        // One loop a table: a chained iterator keeps the compiler from
        // vectorising, and halving the continuation history one entry at a
        // time cost short searches more than their search.
        for e in &mut self.continuation {
            *e /= 2;
        }
        for e in &mut self.capture {
            *e /= 2;
        }
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
        self.continuation.fill(0);
        self.capture.fill(0);
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
