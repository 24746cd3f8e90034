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
    /// A row (one context's entries) is aged only when it is next written, and read
    /// through [`halve`] until then: halving all 3 MB of it before every search took a
    /// short search (a few thousand nodes, as self-play and the lower levels run) longer
    /// than much of the search itself.
    continuation: Vec<i16>,
    /// The number of [`History::age`] calls each row of `continuation` has been halved for.
    row_ages: Vec<u32>,
    /// The number of [`History::age`] calls so far.
    ages: u32,
    /// By capturing piece, target cell and victim role; 16 bits as above.
    capture: Vec<i16>,
}

pub const HISTORY_MAX: i32 = 16_384;

impl Default for History {
    fn default() -> Self {
        let size = CONTEXTS * ROW;
        let mut continuation = Vec::with_capacity(size);
        crate::huge_pages::advise(&continuation);
        continuation.resize(size, 0);
        History {
            table: vec![0; 2 * CELLS * CELLS],
            continuation,
            row_ages: vec![0; CONTEXTS],
            ages: 0,
            capture: vec![0; PIECES * CELLS * ROLES],
        }
    }
}

/// `v` halved `times` times, each halving rounding towards zero as `/ 2` does:
/// the same as dividing once by `2^times`.
#[inline]
fn halve(v: i32, times: u32) -> i32 {
    let k = times.min(16);
    (v + ((v >> 31) & ((1 << k) - 1))) >> k
}

/// The number of distinct contexts: one per piece and target cell.
pub const CONTEXTS: usize = PIECES * CELLS;

/// The number of entries in one context's row of the continuation history (a
/// piece and its target, as a context is).
const ROW: usize = CONTEXTS;

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
        usize::from(ctx) * ROW + piece * CELLS + m.to.index()
    }

    /// The halvings the row of `ctx` has yet to apply.
    #[inline]
    fn pending(&self, ctx: u16) -> u32 {
        self.ages.wrapping_sub(self.row_ages[usize::from(ctx)])
    }

    /// The continuation history of a move by `piece` after the move `ctx`, aged.
    #[inline]
    fn continuation_score(&self, ctx: u16, piece: usize, m: Move) -> i32 {
        halve(i32::from(self.continuation[Self::continuation_index(ctx, piece, m)]), self.pending(ctx))
    }

    /// Applies the halvings the row of `ctx` has missed, before it is written.
    #[inline]
    fn age_row(&mut self, ctx: u16) {
        let pending = self.pending(ctx);
        if pending > 0 {
            let start = usize::from(ctx) * ROW;
            for e in &mut self.continuation[start..start + ROW] {
                *e = halve(i32::from(*e), pending) as i16;
            }
            self.row_ages[usize::from(ctx)] = self.ages;
        }
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
            s += self.continuation_score(*c, piece, m);
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
        for &c in contexts.iter().flatten() {
            self.age_row(c);
            gravity16(&mut self.continuation[Self::continuation_index(c, piece, m)], bonus);
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
        // One loop a table: a chained iterator keeps the compiler from vectorising.
        for e in &mut self.capture {
            *e /= 2;
        }
        self.ages = self.ages.wrapping_add(1);
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
        self.continuation.fill(0);
        self.row_ages.fill(self.ages);
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
    fn halving_at_once_equals_halving_one_step_at_a_time() {
        for v in [-HISTORY_MAX, -16_383, -4_097, -3, -2, -1, 0, 1, 2, 3, 4_097, 16_383, HISTORY_MAX] {
            let mut stepwise = v;
            for times in 0..20 {
                assert_eq!(halve(v, times), stepwise, "{v} halved {times} times");
                stepwise /= 2;
            }
        }
    }

    /// The continuation history as it was kept before rows were aged lazily: every
    /// entry halved at every age. The lazy table must score every move the same.
    #[test]
    fn lazily_aged_rows_score_as_if_every_entry_were_halved_at_once() {
        let mut rng = xiangqi::rng::Rng(7);
        let mut lazy = History::default();
        let mut eager = vec![0i16; ROW * ROW];
        let moves: Vec<Move> =
            (0..40).map(|_| Move::new(Cell::new(rng.below(CELLS)), Cell::new(rng.below(CELLS)))).collect();
        let any_context =
            |rng: &mut xiangqi::rng::Rng| context(rng.below(PIECES), Cell::new(rng.below(CELLS)));
        let contexts: Vec<[Context; 2]> = (0..12)
            .map(|_| [any_context(&mut rng), if rng.below(4) == 0 { None } else { any_context(&mut rng) }])
            .collect();
        for step in 0..5_000 {
            let (m, ctx, piece) =
                (moves[rng.below(moves.len())], contexts[rng.below(contexts.len())], rng.below(PIECES));
            match rng.below(50) {
                0 => {
                    lazy.age();
                    eager.iter_mut().for_each(|e| *e /= 2);
                }
                1 if step % 7 == 0 => {
                    lazy.clear();
                    eager.fill(0);
                }
                _ => {
                    let bonus = rng.below(2 * HISTORY_MAX as usize) as i32 - HISTORY_MAX;
                    lazy.update_quiet(0, piece, m, &ctx, bonus);
                    for c in ctx.iter().flatten() {
                        gravity16(&mut eager[History::continuation_index(*c, piece, m)], bonus);
                    }
                }
            }
            let expected: i32 = ctx
                .iter()
                .flatten()
                .map(|c| i32::from(eager[History::continuation_index(*c, piece, m)]))
                .sum::<i32>()
                + lazy.get(0, m);
            assert_eq!(lazy.quiet_score(0, piece, m, &ctx), expected, "step {step}");
        }
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
