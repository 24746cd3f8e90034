//! The training data format: one 32-byte record per position, of either board.
//!
//! | bytes | what |
//! |---|---|
//! | 0-11 | occupancy: bit `c` (little endian) set when cell `c` (0-89, or 0-78 on the hex board) holds a piece |
//! | 12-27 | the pieces in cell order, one nibble each (piece index 0-13, red roles then black; low nibble first) |
//! | 28-29 | the search score for the side to move, centipawns, `i16` little endian |
//! | 30 | the game's result for Red: 0 lost, 1 drawn, 2 won |
//! | 31 | flags: bit 0 set when Black is to move, bit 1 set for the hex board; the other bits are zero |
//!
//! A file is a plain sequence of records, so files can be joined with `cat` and a
//! run that was interrupted is resumed by appending (a torn last record is cut off).
//! Each record names its board, so a file of both boards is found out, not
//! trained on as one.

use std::fmt;

use xiangqi::{Color, Geometry, Piece, Position, Variant};

/// The size of one record in bytes.
pub const RECORD_SIZE: usize = 32;
/// The most pieces a record holds (both full armies).
pub const MAX_PIECES: usize = 32;

/// A game's result from Red's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    BlackWins = 0,
    Draw = 1,
    RedWins = 2,
}

impl Outcome {
    /// From the winner of a game (`None` for a draw).
    pub fn from_winner(winner: Option<Color>) -> Self {
        match winner {
            Some(Color::Red) => Outcome::RedWins,
            Some(Color::Black) => Outcome::BlackWins,
            None => Outcome::Draw,
        }
    }

    /// The result for `side`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn score_for(self, side: Color) -> f32 {
        let red = f32::from(self as u8) / 2.0;
        if side == Color::Red { red } else { 1.0 - red }
    }
}

/// Why a record does not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// More than 32 cells are marked occupied.
    TooManyPieces(u32),
    /// A bit beyond the board's last cell is set.
    CellOutOfRange,
    /// A nibble names no piece (14 or 15).
    BadPiece(u8),
    /// The result byte is not 0, 1 or 2.
    BadResult(u8),
    /// Flag bits other than bits 0 and 1 are set.
    BadFlags(u8),
    /// A side has no general, or more than one.
    Generals,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::TooManyPieces(n) => write!(f, "{n} cells occupied, at most {MAX_PIECES} can be"),
            RecordError::CellOutOfRange => write!(f, "a cell beyond the board's last is occupied"),
            RecordError::BadPiece(p) => write!(f, "piece code {p} names no piece (0-13)"),
            RecordError::BadResult(r) => write!(f, "result byte {r} is not 0, 1 or 2"),
            RecordError::BadFlags(b) => write!(f, "flag byte {b:#04x} has unknown bits set"),
            RecordError::Generals => write!(f, "each side needs exactly one general"),
        }
    }
}

impl std::error::Error for RecordError {}

/// One training position: the pieces, the side to move, the search's score and the game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record(pub [u8; RECORD_SIZE]);

/// A decoded record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The board the position is on.
    pub variant: Variant,
    /// Pieces and their cells (0-89, or 0-78 on the hex board), in cell order.
    pub pieces: arrayvec::ArrayVec<(Piece, u8), MAX_PIECES>,
    pub turn: Color,
    /// Centipawns for the side to move.
    pub score: i16,
    pub outcome: Outcome,
}

impl Record {
    /// Packs a position (which must have at most 32 pieces, as every legal one does),
    /// its score for the side to move and its game's outcome.
    pub fn new<G: Geometry>(pos: &Position<G>, score: i16, outcome: Outcome) -> Self {
        let mut b = [0u8; RECORD_SIZE];
        let mut occupancy = 0u128;
        let mut k = 0;
        for c in 0..G::TABLES.cells() {
            if let Some(p) = pos.piece_at(xiangqi::Cell::new(c)) {
                occupancy |= 1 << c;
                let shift = if k % 2 == 0 { 0 } else { 4 };
                b[12 + k / 2] |= (p.index() as u8) << shift;
                k += 1;
            }
        }
        b[..12].copy_from_slice(&occupancy.to_le_bytes()[..12]);
        b[28..30].copy_from_slice(&score.to_le_bytes());
        b[30] = outcome as u8;
        b[31] = u8::from(pos.turn() == Color::Black) | (u8::from(G::VARIANT == Variant::Hex) << 1);
        Record(b)
    }

    /// Unpacks the record, checking every field.
    ///
    /// # Errors
    /// [`RecordError`] for a record that no position packs to.
    pub fn decode(&self) -> Result<Sample, RecordError> {
        let b = &self.0;
        let mut occ = [0u8; 16];
        occ[..12].copy_from_slice(&b[..12]);
        let occupancy = u128::from_le_bytes(occ);
        let n = occupancy.count_ones();
        if n as usize > MAX_PIECES {
            return Err(RecordError::TooManyPieces(n));
        }
        if b[31] > 3 {
            return Err(RecordError::BadFlags(b[31]));
        }
        let variant = if b[31] & 2 == 0 { Variant::Standard } else { Variant::Hex };
        if occupancy >> variant.tables().cells() != 0 {
            return Err(RecordError::CellOutOfRange);
        }
        let outcome = match b[30] {
            0 => Outcome::BlackWins,
            1 => Outcome::Draw,
            2 => Outcome::RedWins,
            r => return Err(RecordError::BadResult(r)),
        };
        let mut pieces = arrayvec::ArrayVec::new();
        let mut generals = [0; 2];
        let mut bits = occupancy;
        let mut k = 0;
        while bits != 0 {
            let c = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let code = (b[12 + k / 2] >> if k % 2 == 0 { 0 } else { 4 }) & 15;
            if code as usize >= Piece::COUNT {
                return Err(RecordError::BadPiece(code));
            }
            let piece = Piece::from_index(code as usize);
            if piece.role == xiangqi::Role::General {
                generals[piece.color.index()] += 1;
            }
            pieces.push((piece, c));
            k += 1;
        }
        if generals != [1, 1] {
            return Err(RecordError::Generals);
        }
        Ok(Sample {
            variant,
            pieces,
            turn: if b[31] & 1 == 1 { Color::Black } else { Color::Red },
            score: i16::from_le_bytes([b[28], b[29]]),
            outcome,
        })
    }
}

/// Splits a file's bytes into records; a torn tail (an interrupted write) is left out
/// and its length returned.
pub fn records(bytes: &[u8]) -> (Vec<Record>, usize) {
    let chunks = bytes.chunks_exact(RECORD_SIZE);
    let tail = chunks.remainder().len();
    let out = chunks.map(|c| Record(c.try_into().expect("chunks_exact gives whole records"))).collect();
    (out, tail)
}

#[cfg(test)]
mod tests {
    use xiangqi::{Hex, Standard};

    use super::*;

    #[test]
    fn a_record_keeps_every_piece_the_turn_the_score_and_the_result() {
        let fen = "2bak4/4a4/4b1n2/p3p1C1p/2p3p2/9/P1P1P3P/2N1B4/4A4/2BAK4 b - - 0 20";
        let pos: Position<Standard> = fen.parse().unwrap();
        let rec = Record::new(&pos, -312, Outcome::RedWins);
        let s = rec.decode().unwrap();
        assert_eq!(s.variant, Variant::Standard);
        assert_eq!(s.turn, Color::Black);
        assert_eq!(s.score, -312);
        assert_eq!(s.outcome, Outcome::RedWins);
        assert_eq!(s.outcome.score_for(Color::Black), 0.0);
        let mut expected = Vec::new();
        for c in 0..90 {
            if let Some(p) = pos.piece_at(xiangqi::Cell::new(c)) {
                expected.push((p, c as u8));
            }
        }
        assert_eq!(s.pieces.to_vec(), expected);
        let full = Record::new(&Position::<Standard>::startpos(), 0, Outcome::Draw).decode().unwrap();
        assert_eq!(full.pieces.len(), 32);
    }

    /// Moves the record's first piece to occupancy bit `bit`, keeping the piece count.
    fn move_first_piece_to(r: &mut Record, bit: usize) {
        let first = (0..96).find(|i| r.0[i / 8] >> (i % 8) & 1 == 1).unwrap();
        r.0[first / 8] &= !(1 << (first % 8));
        r.0[bit / 8] |= 1 << (bit % 8);
    }

    #[test]
    fn a_hex_record_names_its_board_and_keeps_its_cells() {
        let pos = Position::<Hex>::startpos();
        let s = Record::new(&pos, 17, Outcome::BlackWins).decode().unwrap();
        assert_eq!((s.variant, s.turn, s.score), (Variant::Hex, Color::Red, 17));
        let expected: Vec<(Piece, u8)> = (0..Hex::TABLES.cells())
            .filter_map(|c| pos.piece_at(xiangqi::Cell::new(c)).map(|p| (p, c as u8)))
            .collect();
        assert_eq!(s.pieces.to_vec(), expected);
        // A piece beyond the hex board's 79 cells is refused.
        let mut r = Record::new(&pos, 0, Outcome::Draw);
        move_first_piece_to(&mut r, 79);
        assert_eq!(r.decode(), Err(RecordError::CellOutOfRange));
    }

    #[test]
    fn damaged_records_are_refused() {
        let good = Record::new(&Position::<Standard>::startpos(), 5, Outcome::Draw);
        let mut r = good;
        r.0[30] = 3;
        assert_eq!(r.decode(), Err(RecordError::BadResult(3)));
        let mut r = good;
        r.0[31] = 4;
        assert_eq!(r.decode(), Err(RecordError::BadFlags(4)));
        // A standard record has no cell beyond 89.
        let mut r = good;
        move_first_piece_to(&mut r, 90);
        assert_eq!(r.decode(), Err(RecordError::CellOutOfRange));
        let mut r = good;
        r.0[11] |= 0x80;
        assert!(r.decode().is_err());
        let mut r = good;
        r.0[12] = 0xff;
        assert_eq!(r.decode(), Err(RecordError::BadPiece(15)));
        let (recs, tail) = records(&[good.0.as_slice(), &good.0[..7]].concat());
        assert_eq!((recs.len(), tail), (1, 7));
    }
}
