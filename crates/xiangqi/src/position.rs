//! A position: what a FEN says (placement, side to move, counters), plus its hash.
//!
//! ```
//! use xiangqi::{Position, Standard};
//!
//! let mut pos = Position::<Standard>::startpos();
//! assert_eq!(pos.legal_moves().len(), 44);
//! let m = pos.parse_move("h2e2").unwrap();
//! let undo = pos.play_unchecked(m);
//! assert_eq!(pos.to_fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
//! pos.undo(m, undo);
//! assert_eq!(pos, Position::startpos());
//! ```

use std::{fmt, marker::PhantomData};

use thiserror::Error;

use crate::{
    bitboard::Bitboard,
    geometry::{Geometry, MAX_CELLS, MAX_DIRS, Standard, Tables},
    types::{Cell, Color, Move, Piece, Role},
    zobrist,
};

/// A placement that has not been checked yet: the input to [`Position::from_setup`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup<G: Geometry = Standard> {
    /// The piece on each cell, by [`Cell::index`](crate::Cell::index); cells past the board's stay empty.
    pub board: [Option<Piece>; MAX_CELLS],
    /// The side to move.
    pub turn: Color,
    /// Plies since the last capture.
    pub halfmoves: u32,
    /// The move number, from 1, counting a move of each side as one.
    pub fullmoves: u32,
    _geometry: PhantomData<G>,
}

impl<G: Geometry> Default for Setup<G> {
    fn default() -> Self {
        Setup::empty()
    }
}

impl<G: Geometry> Setup<G> {
    /// An empty board, Red to move.
    pub fn empty() -> Self {
        Setup {
            board: [None; MAX_CELLS],
            turn: Color::Red,
            halfmoves: 0,
            fullmoves: 1,
            _geometry: PhantomData,
        }
    }

    /// The standard setup of the geometry.
    pub fn start() -> Self {
        let mut s = Setup::empty();
        for c in 0..G::TABLES.cells {
            s.board[c] = G::TABLES.start_piece(c);
        }
        s
    }
}

/// Why a setup is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A side without a general.
    #[error("{color} has no general")]
    MissingGeneral {
        /// The side.
        color: Color,
    },
    /// More pieces of one kind than a side has at the start.
    #[error("too many {} {}s: {count} (at most {})", .piece.color, .piece.role.name(), .piece.role.max_count())]
    TooMany {
        /// The piece.
        piece: Piece,
        /// How many there are.
        count: usize,
    },
    /// A piece on a cell it can never reach.
    #[error("a {} {} can never stand on {cell}", .piece.color, .piece.role.name())]
    Unreachable {
        /// The piece.
        piece: Piece,
        /// The cell, by name.
        cell: String,
    },
    /// The generals face each other with nothing between them.
    #[error("the generals face each other on an open file")]
    GeneralsFacing,
    /// The side that just moved is in check.
    #[error("{color} is in check but it is {}'s turn", !*.color)]
    OppositeCheck {
        /// The side in check.
        color: Color,
    },
}

/// A legal position on geometry `G`. Only [`Position::from_setup`] (and so the FEN
/// parser) makes one from outside data, so a `Position` that exists is legal.
#[derive(Clone)]
pub struct Position<G: Geometry = Standard> {
    pub(crate) board: [u8; MAX_CELLS],
    pub(crate) by_color: [u128; 2],
    pub(crate) by_role: [u128; 7],
    pub(crate) turn: Color,
    pub(crate) hash: u64,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    _geometry: PhantomData<G>,
}

impl<G: Geometry> PartialEq for Position<G> {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
    }
}

impl<G: Geometry> Eq for Position<G> {}

impl<G: Geometry> std::hash::Hash for Position<G> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl<G: Geometry> Default for Position<G> {
    fn default() -> Self {
        Self::startpos()
    }
}

impl<G: Geometry> fmt::Debug for Position<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl<G: Geometry> Position<G> {
    /// The geometry's tables.
    #[inline]
    pub fn tables() -> &'static Tables {
        G::TABLES
    }

    /// The start position.
    pub fn startpos() -> Self {
        Self::from_setup(&Setup::start()).expect("the start position is legal")
    }

    /// Checks a setup and makes it a position.
    ///
    /// # Errors
    /// A [`PositionError`] naming the first problem found: a missing general, too
    /// many pieces of a kind, a piece on a cell it could never reach (an advisor
    /// outside its palace, an elephant across the river, a soldier behind its
    /// start), generals facing each other, or the side not to move in check.
    pub fn from_setup(setup: &Setup<G>) -> Result<Self, PositionError> {
        let t = G::TABLES;
        let mut pos = Position {
            board: [0; MAX_CELLS],
            by_color: [0; 2],
            by_role: [0; 7],
            turn: setup.turn,
            hash: 0,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            _geometry: PhantomData,
        };
        let mut counts = [0usize; Piece::COUNT];
        for c in 0..t.cells {
            let Some(p) = setup.board[c] else { continue };
            let cell = Cell::new(c);
            counts[p.index()] += 1;
            if counts[p.index()] > p.role.max_count() {
                return Err(PositionError::TooMany { piece: p, count: counts[p.index()] });
            }
            if !t.reachable(p).contains(cell) {
                return Err(PositionError::Unreachable { piece: p, cell: t.cell_name(cell) });
            }
            pos.put(p, cell);
        }
        if setup.turn == Color::Black {
            pos.hash ^= zobrist::black_to_move();
        }
        for color in Color::ALL {
            if counts[Piece::new(color, Role::General).index()] == 0 {
                return Err(PositionError::MissingGeneral { color });
            }
        }
        if pos.generals_facing() {
            return Err(PositionError::GeneralsFacing);
        }
        let waiting = !pos.turn;
        if pos.is_attacked(pos.general(waiting), pos.turn) {
            return Err(PositionError::OppositeCheck { color: waiting });
        }
        Ok(pos)
    }

    /// The unchecked form of this position.
    pub fn to_setup(&self) -> Setup<G> {
        let mut s = Setup::empty();
        for c in 0..G::TABLES.cells {
            s.board[c] = self.piece_at(Cell::new(c));
        }
        s.turn = self.turn;
        s.halfmoves = self.halfmoves;
        s.fullmoves = self.fullmoves;
        s
    }

    #[inline]
    fn put(&mut self, p: Piece, c: Cell) {
        self.board[c.index()] = p.index() as u8 + 1;
        let b = bit(c.index());
        self.by_color[p.color.index()] |= b;
        self.by_role[p.role.index()] |= b;
        self.hash ^= zobrist::piece(p, c);
    }

    #[inline]
    fn remove(&mut self, p: Piece, c: Cell) {
        self.board[c.index()] = 0;
        let b = !bit(c.index());
        self.by_color[p.color.index()] &= b;
        self.by_role[p.role.index()] &= b;
        self.hash ^= zobrist::piece(p, c);
    }

    /// The piece on a cell.
    #[inline]
    pub fn piece_at(&self, c: Cell) -> Option<Piece> {
        match self.board[c.index()] {
            0 => None,
            i => Some(Piece::from_index(i as usize - 1)),
        }
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The Zobrist hash of placement and side to move (not of the counters).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plies since the last capture.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number, starting at 1 and growing after each Black move.
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The cells that hold a piece.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0] | self.by_color[1])
    }

    /// The cells of side `c`'s pieces.
    #[inline]
    pub fn by_color(&self, c: Color) -> Bitboard {
        Bitboard(self.by_color[c.index()])
    }

    /// The cells of the pieces of role `r`, both sides'.
    #[inline]
    pub fn by_role(&self, r: Role) -> Bitboard {
        Bitboard(self.by_role[r.index()])
    }

    /// The cells of piece `p`.
    #[inline]
    pub fn pieces(&self, p: Piece) -> Bitboard {
        Bitboard(self.by_color[p.color.index()] & self.by_role[p.role.index()])
    }

    /// The cell of a side's general (every legal position has one).
    #[inline]
    pub fn general(&self, c: Color) -> Cell {
        let b = self.by_color[c.index()] & self.by_role[Role::General.index()];
        Cell(b.trailing_zeros() as u8)
    }

    /// The name of a cell on this geometry (`e0`, `e11`).
    pub fn cell_name(&self, c: Cell) -> String {
        G::TABLES.cell_name(c)
    }

    /// Whether the two generals stand on one line with nothing between them.
    pub fn generals_facing(&self) -> bool {
        let t = G::TABLES;
        let red = self.general(Color::Red);
        let black = self.general(Color::Black);
        let occ = self.occupied().0;
        (0..Dirs::<G>::N).any(|d| {
            let b = t.ray[d][red.index()] & occ;
            b != 0 && first_along::<G>(d, b) == black.index()
        })
    }

    /// Whether a cell is attacked by the pieces of `by` (with the general counted
    /// as attacking along open lines: the flying-general rule).
    #[inline]
    pub fn is_attacked(&self, c: Cell, by: Color) -> bool {
        self.attacked_with(c, by, self.occupied().0, u128::MAX)
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.is_attacked(self.general(self.turn), !self.turn)
    }

    /// The pieces of `by` that attack a cell.
    pub fn attackers(&self, c: Cell, by: Color) -> Bitboard {
        let t = G::TABLES;
        let occ = self.occupied().0;
        let enemy = self.by_color[by.index()];
        let sq = c.index();
        let mut out = 0u128;
        let rooks = enemy & (self.by_role[Role::Chariot.index()] | self.by_role[Role::General.index()]);
        let cannons = enemy & self.by_role[Role::Cannon.index()];
        for d in 0..Dirs::<G>::N {
            let b = t.ray[d][sq] & occ;
            if b == 0 {
                continue;
            }
            let s = first_along::<G>(d, b);
            out |= rooks & (1 << s);
            let b2 = t.ray[d][s] & occ;
            if b2 != 0 {
                out |= cannons & (1 << first_along::<G>(d, b2));
            }
        }
        let horses = enemy & self.by_role[Role::Horse.index()];
        for st in &t.horse_rev[sq][..t.horse_rev_n[sq] as usize] {
            if occ & st.via == 0 {
                out |= st.to & horses;
            }
        }
        out |= t.soldier_rev[by.index()][sq] & enemy & self.by_role[Role::Soldier.index()];
        Bitboard(out)
    }

    /// The pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        self.attackers(self.general(self.turn), !self.turn)
    }

    /// Whether `c` would be attacked by `by` with occupancy `occ`, counting only the
    /// attackers inside `keep` (a capture removes one).
    #[inline]
    pub(crate) fn attacked_with(&self, c: Cell, by: Color, occ: u128, keep: u128) -> bool {
        let t = G::TABLES;
        let sq = c.index();
        let enemy = self.by_color[by.index()] & keep;
        let rooks = enemy & (self.by_role[Role::Chariot.index()] | self.by_role[Role::General.index()]);
        let cannons = enemy & self.by_role[Role::Cannon.index()];
        if t.lines[sq] & (rooks | cannons) != 0 {
            for d in 0..Dirs::<G>::N {
                let ray = t.ray[d][sq];
                if ray & (rooks | cannons) == 0 {
                    continue;
                }
                let b = ray & occ;
                let s = first_along::<G>(d, b);
                if rooks & bit(s) != 0 {
                    return true;
                }
                let b2 = t.ray[d][s] & occ;
                if b2 != 0 && cannons & bit(first_along::<G>(d, b2)) != 0 {
                    return true;
                }
            }
        }
        let horses = enemy & self.by_role[Role::Horse.index()];
        if horses != 0 {
            for st in &t.horse_rev[sq][..t.horse_rev_n[sq] as usize] {
                if st.to & horses != 0 && occ & st.via == 0 {
                    return true;
                }
            }
        }
        t.soldier_rev[by.index()][sq] & enemy & self.by_role[Role::Soldier.index()] != 0
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]) and returns
    /// what [`Position::undo`] needs to take it back.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> Undo {
        let mover = self.piece_at(m.from).expect("a move starts on a piece");
        let captured = self.piece_at(m.to);
        let undo = Undo { captured, halfmoves: self.halfmoves };
        if let Some(c) = captured {
            self.remove(c, m.to);
            self.halfmoves = 0;
        } else {
            self.halfmoves += 1;
        }
        self.remove(mover, m.from);
        self.put(mover, m.to);
        if self.turn == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::black_to_move();
        undo
    }

    /// Takes back a move made with [`Position::play_unchecked`].
    #[inline]
    pub fn undo(&mut self, m: Move, undo: Undo) {
        let mover = self.piece_at(m.to).expect("an undone move ends on a piece");
        self.turn = !self.turn;
        self.hash ^= zobrist::black_to_move();
        if self.turn == Color::Black {
            self.fullmoves -= 1;
        }
        self.remove(mover, m.to);
        self.put(mover, m.from);
        if let Some(c) = undo.captured {
            self.put(c, m.to);
        }
        self.halfmoves = undo.halfmoves;
    }

    /// Plays a move if it is legal.
    ///
    /// # Errors
    /// [`IllegalMove`] if the move is not among the legal moves.
    pub fn play(&mut self, m: Move) -> Result<Undo, IllegalMove> {
        if let Some(reason) = self.why_illegal(m) {
            return Err(IllegalMove { notation: self.move_name(m), reason });
        }
        Ok(self.play_unchecked(m))
    }

    /// The position after a move, if it is legal.
    ///
    /// # Errors
    /// [`IllegalMove`] if the move is not among the legal moves.
    pub fn after(&self, m: Move) -> Result<Self, IllegalMove> {
        let mut p = self.clone();
        p.play(m)?;
        Ok(p)
    }

    /// Plays a null move (the engine's null-move pruning). Only valid when not in check.
    pub fn play_null(&mut self) {
        self.turn = !self.turn;
        self.hash ^= zobrist::black_to_move();
    }

    /// Why a move is refused, or `None` if it is legal.
    pub fn why_illegal(&self, m: Move) -> Option<IllegalReason> {
        let t = G::TABLES;
        if m.from.index() >= t.cells || m.to.index() >= t.cells {
            return Some(IllegalReason::OffBoard);
        }
        let Some(p) = self.piece_at(m.from) else {
            return Some(IllegalReason::NoPiece);
        };
        if p.color != self.turn {
            return Some(IllegalReason::NotYourPiece);
        }
        if self.piece_at(m.to).is_some_and(|q| q.color == p.color) {
            return Some(IllegalReason::OwnPiece);
        }
        if !self.pseudo_targets(m.from).contains(m.to) {
            return Some(IllegalReason::NotAMove(p.role));
        }
        if !self.is_safe(m) {
            let mut after = self.clone();
            after.play_unchecked(m);
            return Some(if after.generals_facing() {
                IllegalReason::GeneralsFace
            } else {
                IllegalReason::LeavesGeneralInCheck
            });
        }
        None
    }

    /// Whether a move is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.why_illegal(m).is_none()
    }

    /// Whether a pseudo-legal move keeps the mover's general safe.
    #[inline]
    pub(crate) fn is_safe(&self, m: Move) -> bool {
        let us = self.turn;
        let from = bit(m.from.index());
        let to = bit(m.to.index());
        let occ = (self.occupied().0 & !from) | to;
        let general = if self.by_role[Role::General.index()] & from != 0 { m.to } else { self.general(us) };
        !self.attacked_with(general, !us, occ, !to)
    }

    /// A move's ICCS name on the standard board, or its cell names on another.
    pub fn move_name(&self, m: Move) -> String {
        format!("{}{}", self.cell_name(m.from), self.cell_name(m.to))
    }

    /// Whether neither side has a piece that can ever cross the river (only
    /// generals, advisors and elephants are left): a dead draw.
    pub fn no_attackers(&self) -> bool {
        let crossers = [Role::Horse, Role::Chariot, Role::Cannon, Role::Soldier];
        crossers.iter().all(|r| self.by_role[r.index()] == 0)
    }
}

/// What [`Position::undo`] needs to take a move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The piece the move captured.
    pub captured: Option<Piece>,
    halfmoves: u32,
}

/// The one-cell set of cell index `i`, read from a table: with `i` unknown at
/// compile time, `1u128 << i` takes several instructions (a `u128` is two
/// registers), a load one.
#[inline(always)]
pub(crate) fn bit(i: usize) -> u128 {
    BITS[i]
}

static BITS: [u128; 128] = {
    let mut b = [0; 128];
    let mut i = 0;
    while i < 128 {
        b[i] = 1 << i;
        i += 1;
    }
    b
};

/// A geometry's direction count and ray senses as constants, so that loops
/// over the directions unroll and each ray's scan (lowest or highest bit) is
/// chosen at compile time: loads from the tables are not folded.
pub(crate) struct Dirs<G>(PhantomData<G>);

impl<G: Geometry> Dirs<G> {
    /// The number of orthogonal directions.
    pub(crate) const N: usize = G::TABLES.dirs;
    /// Whether ray `d` runs towards higher indices.
    pub(crate) const UP: [bool; MAX_DIRS] = G::TABLES.up;
}

/// The first occupied cell of `b` along direction `d` (b is a subset of a ray in `d`).
#[inline(always)]
pub(crate) fn first_along<G: Geometry>(d: usize, b: u128) -> usize {
    if Dirs::<G>::UP[d] { b.trailing_zeros() as usize } else { 127 - b.leading_zeros() as usize }
}

/// A move refused by [`Position::play`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{notation} is illegal: {reason}")]
pub struct IllegalMove {
    /// The move as it was given.
    pub notation: String,
    /// Why it is illegal.
    pub reason: IllegalReason,
}

/// A move that is legal on the board but that a rule set's history rules forbid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
pub enum Forbidden {
    /// The play site's rule: the same piece may not give check four turns in a row.
    #[error("the same piece may not give check four turns in a row")]
    FourthCheck,
    /// A piece may not chase an unprotected piece back and forth between two points.
    #[error("a piece may not chase an unprotected piece back and forth between two points")]
    TwoPointChase,
}

/// Why a move is illegal, in words a player understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalReason {
    /// A cell that is not on the board.
    #[error("a cell is off the board")]
    OffBoard,
    /// Nothing stands on the starting point.
    #[error("there is no piece on the starting point")]
    NoPiece,
    /// The piece is the side not to move's.
    #[error("that piece belongs to the other side")]
    NotYourPiece,
    /// The mover's own piece stands on the target.
    #[error("the target holds one of your own pieces")]
    OwnPiece,
    /// The piece does not move that way.
    #[error("a {} cannot move that way", .0.name())]
    NotAMove(Role),
    /// The move leaves the generals facing each other on an open file.
    #[error("it would leave the two generals facing each other")]
    GeneralsFace,
    /// The move leaves the mover in check.
    #[error("it would leave your general in check")]
    LeavesGeneralInCheck,
    /// The rule set forbids the move.
    #[error("the rule set forbids it: {0}")]
    Forbidden(Forbidden),
    /// A written move that fits no legal move.
    #[error("no piece of the side to move can make that move")]
    NoSuchMove,
}
