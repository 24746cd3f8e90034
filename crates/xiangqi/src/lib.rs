//! Xiangqi (Chinese chess) rules: positions, legal moves, notations, rule sets and
//! games, on the standard 9x10 board and on the hexagonal Xiang Hex board
//! ([`AnyGame`] holds a game on a board chosen at run time).
//!
//! ```
//! use xiangqi::{Position, Standard};
//!
//! let pos = Position::<Standard>::startpos();
//! assert_eq!(pos.perft(3), 79_666);
//! ```

mod any_game;
pub mod bitboard;
pub mod game;
pub mod geometry;
pub mod history;
mod movegen;
pub mod notation;
mod position;
pub mod rng;
pub mod rules;
pub mod types;
mod zobrist;

pub use any_game::AnyGame;
pub use bitboard::Bitboard;
pub use game::{Checked, Game, GameError};
pub use geometry::{Geometry, Hex, Standard, Tables, Variant};
pub use movegen::MoveList;
pub use notation::{fen::FenError, iccs::MoveError};
pub use position::{Forbidden, IllegalMove, IllegalReason, Position, PositionError, Setup, Undo};
pub use rules::{Outcome, Reason, Repetition, RuleSet, Rules};
pub use types::{ByColor, Cell, Color, Move, Piece, Role};
