//! Coordinate moves: ICCS (`h2e2`) on the standard board, cell names (`e4e5`,
//! `b2xb8`) on the hex board.
//!
//! Files are letters from Red's left; on the standard board ranks count 0-9 from
//! Red's side, as UCI engines such as Pikafish use them. Upper case, and a `-` or
//! `x` between the two cells (`H2-E2`, old ICCS style), are accepted on input.

use thiserror::Error;

use crate::{
    geometry::{Geometry, Tables},
    position::{IllegalMove, Position},
    types::{Cell, Move},
};

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Text that does not read as a move.
    #[error("{0:?} is not a move in this notation")]
    Syntax(String),
    /// Text that names several legal moves.
    #[error("{text:?} is ambiguous: it could be {candidates}")]
    Ambiguous {
        /// The move as written.
        text: String,
        /// The moves it could be, by name.
        candidates: String,
    },
    /// A move that reads but is not legal.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

/// Reads a coordinate move on a board, without checking legality.
pub fn parse(t: &Tables, text: &str) -> Option<Move> {
    let (from, rest) = cell_prefix(t, text.trim())?;
    let rest = rest.strip_prefix(['-', 'x', 'X']).unwrap_or(rest);
    let (to, rest) = cell_prefix(t, rest)?;
    rest.is_empty().then_some(Move::new(from, to))
}

/// A cell name (a letter and one or two digits) at the start of `s`, and the rest.
fn cell_prefix<'a>(t: &Tables, s: &'a str) -> Option<(Cell, &'a str)> {
    let digits = s.bytes().skip(1).take_while(u8::is_ascii_digit).count();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic()) || digits == 0 {
        return None;
    }
    let (name, rest) = s.split_at(1 + digits);
    Some((t.parse_cell(name)?, rest))
}

/// Writes a coordinate move (`h2e2`).
pub fn write(t: &Tables, m: Move) -> String {
    format!("{}{}", t.cell_name(m.from), t.cell_name(m.to))
}

impl<G: Geometry> Position<G> {
    /// Reads a coordinate move and checks that it is legal here.
    ///
    /// # Errors
    /// [`MoveError::Syntax`] for text that names no cells, [`MoveError::Illegal`]
    /// with the reason for a move the rules refuse.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = parse(G::TABLES, text).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
        match self.why_illegal(m) {
            None => Ok(m),
            Some(reason) => Err(MoveError::Illegal(IllegalMove { notation: write(G::TABLES, m), reason })),
        }
    }
}
