//! Legal move generation, written once for every geometry.
//!
//! Moves are produced as a source cell and a set of targets (cozy-chess style), so
//! counting them at the leaves of a perft is a popcount. Legality is tested move
//! by move only where it can fail: when the general is in check, when the general
//! moves, and when a pinned piece moves (see [`guard`]). Every other pseudo-legal
//! move is legal once the cells where it would become a cannon's screen are taken
//! out of its targets.

mod guard;

use arrayvec::ArrayVec;

use crate::{
    bitboard::Bitboard,
    geometry::Geometry,
    position::{Dirs, Position, bit, first_along},
    types::{Cell, Color, Move, Piece, Role},
};

/// Room for every legal move of any position on either board.
pub type MoveList = ArrayVec<Move, 256>;

trait Sink {
    /// Moves from `from` to every cell of `targets`, all legal.
    fn many(&mut self, from: Cell, targets: u128);
    fn one(&mut self, m: Move);
}

struct Counter(u64);

impl Sink for Counter {
    #[inline(always)]
    fn many(&mut self, _: Cell, targets: u128) {
        self.0 += targets.count_ones() as u64;
    }
    #[inline(always)]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
}

impl Sink for MoveList {
    #[inline(always)]
    fn many(&mut self, from: Cell, targets: u128) {
        for to in Bitboard(targets) {
            self.push(Move::new(from, to));
        }
    }
    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

/// The cells of a set, lowest first, scanned a `u64` half at a time (a scan of
/// a whole `u128` costs a branch or two more).
struct Cells {
    lo: u64,
    hi: u64,
}

#[inline(always)]
fn cells(b: u128) -> Cells {
    Cells { lo: b as u64, hi: (b >> 64) as u64 }
}

impl Iterator for Cells {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.lo != 0 {
            let i = self.lo.trailing_zeros() as usize;
            self.lo &= self.lo - 1;
            Some(i)
        } else if self.hi != 0 {
            let i = self.hi.trailing_zeros() as usize;
            self.hi &= self.hi - 1;
            Some(64 + i)
        } else {
            None
        }
    }
}

#[inline(always)]
fn slide<G: Geometry>(from: usize, occ: u128) -> u128 {
    let t = G::TABLES;
    let mut a = 0;
    for d in 0..Dirs::<G>::N {
        let ray = t.ray[d][from];
        let b = ray & occ;
        a |= if b == 0 { ray } else { ray ^ t.ray[d][first_along::<G>(d, b)] };
    }
    a
}

#[inline(always)]
fn cannon<G: Geometry>(from: usize, occ: u128, enemy: u128) -> u128 {
    let t = G::TABLES;
    let mut a = 0;
    for d in 0..Dirs::<G>::N {
        let ray = t.ray[d][from];
        let b = ray & occ;
        if b == 0 {
            a |= ray;
            continue;
        }
        let screen = first_along::<G>(d, b);
        a |= (ray ^ t.ray[d][screen]) & !bit(screen);
        let beyond = t.ray[d][screen] & occ;
        if beyond != 0 {
            a |= bit(first_along::<G>(d, beyond)) & enemy;
        }
    }
    a
}

#[inline(always)]
fn stepped(steps: &[crate::geometry::Step], occ: u128) -> u128 {
    let mut a = 0;
    for st in steps {
        if occ & st.via == 0 {
            a |= st.to;
        }
    }
    a
}

impl<G: Geometry> Position<G> {
    /// Cells the piece on `from` could move to or capture on, ignoring whether its
    /// own general is left in check (empty if the cell is empty).
    pub fn pseudo_targets(&self, from: Cell) -> Bitboard {
        match self.piece_at(from) {
            Some(p) => self.targets_of(p, from),
            None => Bitboard::EMPTY,
        }
    }

    /// As [`Position::pseudo_targets`], for a piece the caller knows stands on
    /// `from` (an evaluation walking the pieces of one role saves the lookup).
    #[inline]
    pub fn targets_of(&self, p: Piece, from: Cell) -> Bitboard {
        debug_assert_eq!(self.piece_at(from), Some(p));
        let own = self.by_color[p.color.index()];
        let enemy = self.by_color[(!p.color).index()];
        Bitboard(self.targets(p.role, p.color, from.index(), own | enemy, enemy) & !own)
    }

    /// The cells a piece on `from` attacks (could capture on, if an enemy stood
    /// there), with the current occupancy. For a cannon: the cells just beyond a screen.
    pub fn attacks_from(&self, from: Cell) -> Bitboard {
        let Some(p) = self.piece_at(from) else {
            return Bitboard::EMPTY;
        };
        let occ = self.occupied().0;
        let t = G::TABLES;
        if p.role == Role::Cannon {
            let mut a = 0;
            for d in 0..Dirs::<G>::N {
                let b = t.ray[d][from.index()] & occ;
                if b == 0 {
                    continue;
                }
                let beyond = t.ray[d][first_along::<G>(d, b)] & occ;
                if beyond != 0 {
                    a |= 1 << first_along::<G>(d, beyond);
                }
            }
            return Bitboard(a);
        }
        Bitboard(self.targets(p.role, p.color, from.index(), occ, occ))
    }

    #[inline(always)]
    fn targets(&self, role: Role, color: Color, from: usize, occ: u128, enemy: u128) -> u128 {
        let t = G::TABLES;
        let c = color.index();
        match role {
            Role::General => t.king[c][from],
            Role::Advisor => t.advisor[c][from],
            Role::Elephant => stepped(&t.elephant[c][from][..t.elephant_n[c][from] as usize], occ),
            Role::Horse => stepped(&t.horse[from][..t.horse_n[from] as usize], occ),
            Role::Chariot => slide::<G>(from, occ),
            Role::Cannon => cannon::<G>(from, occ, enemy),
            Role::Soldier => t.soldier[c][from],
        }
    }

    #[inline(always)]
    fn generate<S: Sink>(&self, sink: &mut S, mask: u128, known_check: Option<bool>) {
        let us = self.turn;
        let own = self.by_color[us.index()];
        let general = self.general(us);
        debug_assert!(known_check.is_none_or(|c| c == self.is_check()));
        // The guard finds check on its way; a caller that knows the side is in
        // check saves it.
        let guard = if known_check == Some(true) { None } else { Some(self.guard()) };
        match guard {
            Some(guard) if !guard.check => {
                // Unpinned pieces: every target off the screen cells is legal.
                let free = own & !guard.pinned & !bit(general.index());
                let keep = !own & mask & !guard.screens;
                self.each_target(free, |from, targets| sink.many(from, targets & keep));
                // Pinned pieces, one move at a time.
                let pinned = own & guard.pinned & !bit(general.index());
                if pinned != 0 {
                    self.each_target(pinned, |from, targets| {
                        self.emit_safe(sink, from, targets & !own & mask)
                    });
                }
            }
            // In check, every move is tested.
            _ => self.each_target(own & !bit(general.index()), |from, targets| {
                self.emit_safe(sink, from, targets & !own & mask)
            }),
        }
        self.emit_safe(sink, general, G::TABLES.king[us.index()][general.index()] & !own & mask);
    }

    /// The moves to `targets` from `from` that keep the general safe, each tested.
    #[inline(always)]
    fn emit_safe<S: Sink>(&self, sink: &mut S, from: Cell, targets: u128) {
        for to in Bitboard(targets) {
            let m = Move::new(from, to);
            if self.is_safe(m) {
                sink.one(m);
            }
        }
    }

    /// Calls `f` with the pseudo-legal targets (own pieces not yet taken out) of
    /// each piece of the side to move on a cell of `pieces`, which must not hold
    /// the general. One loop per role, so that each computes its targets without
    /// a dispatch.
    #[inline(always)]
    fn each_target(&self, pieces: u128, mut f: impl FnMut(Cell, u128)) {
        let t = G::TABLES;
        let c = self.turn.index();
        let occ = self.by_color[0] | self.by_color[1];
        let enemy = self.by_color[(!self.turn).index()];
        let mine = |role: Role| pieces & self.by_role[role.index()];
        for i in cells(mine(Role::Chariot)) {
            f(Cell(i as u8), slide::<G>(i, occ));
        }
        for i in cells(mine(Role::Horse)) {
            f(Cell(i as u8), stepped(&t.horse[i][..t.horse_n[i] as usize], occ));
        }
        for i in cells(mine(Role::Cannon)) {
            f(Cell(i as u8), cannon::<G>(i, occ, enemy));
        }
        for i in cells(mine(Role::Soldier)) {
            f(Cell(i as u8), t.soldier[c][i]);
        }
        for i in cells(mine(Role::Advisor)) {
            f(Cell(i as u8), t.advisor[c][i]);
        }
        for i in cells(mine(Role::Elephant)) {
            f(Cell(i as u8), stepped(&t.elephant[c][i][..t.elephant_n[c][i] as usize], occ));
        }
    }

    /// The legal moves (under the rules of the board alone; a rule set's
    /// history-dependent limits are applied by [`crate::Game`]).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list, u128::MAX, None);
        list
    }

    /// The legal moves that land on a cell of `targets` (for example the enemy
    /// pieces: the captures, which a quiescence search wants alone).
    pub fn legal_moves_to(&self, targets: Bitboard) -> MoveList {
        self.generate_to(targets.0, None)
    }

    /// As [`Position::legal_moves_to`], for a caller that already knows whether
    /// the side to move is in check (a search keeps that with every position).
    pub fn legal_moves_to_with_check(&self, targets: Bitboard, in_check: bool) -> MoveList {
        self.generate_to(targets.0, Some(in_check))
    }

    fn generate_to(&self, targets: u128, known_check: Option<bool>) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list, targets, known_check);
        list
    }

    /// The legal captures.
    pub fn legal_captures(&self) -> MoveList {
        self.legal_moves_to(self.by_color(!self.turn))
    }

    /// The number of legal moves, without listing them.
    pub fn count_legal(&self) -> u64 {
        let mut c = Counter(0);
        self.generate(&mut c, u128::MAX, None);
        c.0
    }

    /// Whether a legal move gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let mut p = self.clone();
        p.play_unchecked(m);
        p.is_check()
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// Leaf nodes of the legal move tree to `depth` plies (bulk-counted at the last ply).
    pub fn perft(&self, depth: u32) -> u64 {
        let mut p = self.clone();
        p.perft_in_place(depth)
    }

    fn perft_in_place(&mut self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal(),
            _ => {
                let mut n = 0;
                for m in self.legal_moves() {
                    let u = self.play_unchecked(m);
                    n += self.perft_in_place(depth - 1);
                    self.undo(m, u);
                }
                n
            }
        }
    }

    /// Perft split by root move: `(move, leaves)` in generation order.
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        let depth = depth.max(1);
        self.legal_moves()
            .into_iter()
            .map(|m| {
                let mut p = self.clone();
                p.play_unchecked(m);
                (m, p.perft_in_place(depth - 1))
            })
            .collect()
    }
}
