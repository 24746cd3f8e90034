//! FEN: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! Rows run from Black's end to Red's. Letters `K A B N R C P` (upper case Red),
//! with `E`/`H` read as aliases of `B`/`N`; the side to move is `w` or `r` for Red,
//! `b` for Black; the castling and en-passant fields are always `-`; the last two
//! fields count plies since a capture and the move number. Missing trailing fields
//! take their start values.
//!
//! The hex board uses the same grammar over the Game Courier layout: eleven rows of
//! nine slots (global rank 11 down to 1, files a..i), `-` marking a slot that is off
//! the board, trailing off-board slots left out. Its start position is
//! `rnbak/pc3a/2p3b/4p2n/6pcr/P7p/RCP6/-N2P4/--B3P2/---A3CP/----KABNR w - - 0 1`.
//!
//! ```
//! use xiangqi::{Position, Standard};
//!
//! let pos: Position<Standard> = "3k5/9/9/9/9/9/9/9/9/4K4 w".parse().unwrap();
//! assert_eq!(pos.to_fen(), "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
//! assert!("3k5/9/9/9/9/9/9/9/9/4K4 x".parse::<Position<Standard>>().is_err());
//! // Generals facing on an open file is not a position.
//! assert!("4k4/9/9/9/9/9/9/9/9/4K4 w".parse::<Position<Standard>>().is_err());
//! ```

use std::str::FromStr;

use thiserror::Error;

use crate::{
    geometry::{Geometry, MAX_FILES},
    position::{Position, PositionError, Setup},
    types::{Cell, Color, Piece},
};

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    /// Nothing but white space.
    #[error("empty FEN")]
    Empty,
    /// A board of the wrong number of rows.
    #[error("the board has {found} rows; this board needs {expected}")]
    RowCount {
        /// The rows written.
        found: usize,
        /// The rows of the board.
        expected: usize,
    },
    /// A row that cannot be read.
    #[error("row {row} (from the top): {problem}")]
    Row {
        /// The row, from 1 at the top.
        row: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// A side to move other than `w`, `r` or `b`.
    #[error("side to move {0:?}: expected w, r or b")]
    Turn(String),
    /// A move counter that is not a number.
    #[error("{field} {value:?} is not a number")]
    Counter {
        /// Which counter.
        field: &'static str,
        /// Its text.
        value: String,
    },
    /// More fields than a FEN has.
    #[error("unexpected text after the move number: {0:?}")]
    Trailing(String),
    /// A board that reads but is not a legal position.
    #[error(transparent)]
    Position(#[from] PositionError),
}

impl<G: Geometry> Setup<G> {
    /// Reads a FEN without checking that the placement is legal.
    ///
    /// # Errors
    /// A [`FenError`] saying which field or row is malformed.
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        let t = G::TABLES;
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != t.n_rows {
            return Err(FenError::RowCount { found: rows.len(), expected: t.n_rows });
        }
        let mut setup = Setup::empty();
        for (r, text) in rows.iter().enumerate() {
            read_row::<G>(&mut setup, r, text).map_err(|problem| FenError::Row { row: r + 1, problem })?;
        }
        if let Some(turn) = fields.next() {
            setup.turn = match turn {
                "w" | "r" | "W" | "R" => Color::Red,
                "b" | "B" => Color::Black,
                other => return Err(FenError::Turn(other.to_string())),
            };
        }
        // Castling and en passant do not exist in xiangqi; the fields are placeholders.
        fields.next();
        fields.next();
        if let Some(h) = fields.next() {
            setup.halfmoves = h
                .parse()
                .map_err(|_| FenError::Counter { field: "the capture clock", value: h.to_string() })?;
        }
        if let Some(f) = fields.next() {
            setup.fullmoves = f
                .parse()
                .map_err(|_| FenError::Counter { field: "the move number", value: f.to_string() })?;
        }
        if let Some(extra) = fields.next() {
            return Err(FenError::Trailing(extra.to_string()));
        }
        Ok(setup)
    }
}

fn read_row<G: Geometry>(setup: &mut Setup<G>, r: usize, text: &str) -> Result<(), String> {
    let slots = &G::TABLES.rows[r][..MAX_FILES];
    let mut k = 0;
    let skip_off_board = |k: &mut usize| {
        while *k < MAX_FILES && slots[*k] < 0 {
            *k += 1;
        }
    };
    for ch in text.chars() {
        match ch {
            '-' => {
                if k >= MAX_FILES || slots[k] >= 0 {
                    return Err(format!("'-' marks slot {} as off the board, but it is a cell", k + 1));
                }
                k += 1;
            }
            '1'..='9' => {
                for _ in 0..ch.to_digit(10).unwrap_or(0) {
                    skip_off_board(&mut k);
                    if k >= MAX_FILES {
                        return Err(format!("{text:?} runs past the end of the row"));
                    }
                    k += 1;
                }
            }
            _ => {
                let p = Piece::from_char(ch).ok_or_else(|| format!("{ch:?} is not a piece letter"))?;
                skip_off_board(&mut k);
                if k >= MAX_FILES {
                    return Err(format!("{text:?} runs past the end of the row"));
                }
                setup.board[slots[k] as usize] = Some(p);
                k += 1;
            }
        }
    }
    skip_off_board(&mut k);
    if k < MAX_FILES {
        return Err(format!("{text:?} is too short for the row"));
    }
    Ok(())
}

impl<G: Geometry> Position<G> {
    /// Reads and checks a FEN.
    ///
    /// # Errors
    /// A [`FenError`]: malformed text, or a placement that is not a legal position.
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        Ok(Position::from_setup(&Setup::from_fen(fen)?)?)
    }

    /// Writes the position as FEN (xqbase letters, `w`/`b`).
    pub fn to_fen(&self) -> String {
        let t = G::TABLES;
        let mut out = String::with_capacity(96);
        for r in 0..t.n_rows {
            if r > 0 {
                out.push('/');
            }
            let mut empty = 0;
            for k in 0..t.row_len[r] as usize {
                let slot = t.rows[r][k];
                let piece = (slot >= 0).then(|| self.piece_at(Cell(slot as u8))).flatten();
                if slot >= 0 && piece.is_none() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push(char::from_digit(empty, 10).unwrap_or('?'));
                    empty = 0;
                }
                out.push(piece.map_or('-', Piece::char));
            }
            if empty > 0 {
                out.push(char::from_digit(empty, 10).unwrap_or('?'));
            }
        }
        let side = if self.turn == Color::Red { 'w' } else { 'b' };
        out.push_str(&format!(" {side} - - {} {}", self.halfmoves, self.fullmoves));
        out
    }
}

impl<G: Geometry> FromStr for Position<G> {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Self, FenError> {
        Position::from_fen(s)
    }
}
