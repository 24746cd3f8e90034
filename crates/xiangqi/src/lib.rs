//! Xiangqi (Chinese chess) rules: positions, legal moves, notations, rule sets and
//! games, on the standard 9x10 board and on the hexagonal Xiang Hex board
//! ([`AnyGame`] holds a game on a board chosen at run time). No I/O, no
//! `unsafe`, no async.
//!
//! A [`Position`] is always legal (FEN and [`Setup`] are checked on the way
//! in) and knows its legal moves; a [`Game`] adds the moves that led to it and a
//! [`RuleSet`], which judges repetitions, perpetual check and chase, and the
//! other ways a game ends.
//!
//! # Legal moves
//!
//! ```
//! use xiangqi::{Position, Standard};
//!
//! let pos = Position::<Standard>::startpos();
//! assert_eq!(pos.legal_moves().len(), 44);
//! assert_eq!(pos.perft(3), 79_666);
//! let central_cannon = pos.parse_move("h2e2").unwrap();
//! assert!(pos.is_legal(central_cannon));
//! ```
//!
//! # A game under a rule set
//!
//! ```
//! use xiangqi::{Color, Game, GameError, Outcome, Position, Reason, RuleSet, Standard};
//!
//! // Black's general alone against two chariots: a mate in one.
//! let start: Position<Standard> = "3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1".parse().unwrap();
//! let mut game = Game::new(start, RuleSet::Asian);
//! game.play_str("i0i9").unwrap();
//! assert_eq!(game.outcome(), Some(Outcome::win(Color::Red, Reason::Checkmate)));
//! assert!(matches!(game.play_str("d9d8"), Err(GameError::Over(_))));
//! ```
//!
//! # PGN in and out
//!
//! ```
//! use xiangqi::{Game, RuleSet, Standard, notation::pgn};
//!
//! let mut game = Game::<Standard>::startpos(RuleSet::Asian);
//! for m in ["h2e2", "h9g7", "h0g2"] {
//!     game.play_str(m).unwrap();
//! }
//! let mut record = pgn::Record::from_game(&game);
//! record.set_tag("Red", "Lü Qin");
//! let text = pgn::write(&record, pgn::Format::Wxf);
//! assert!(text.contains("C2=5"));
//!
//! let read = pgn::read(&text).unwrap();
//! assert_eq!(read.tag("Red"), Some("Lü Qin"));
//! assert_eq!(read.to_game(None).unwrap().moves(), game.moves());
//! ```
//!
//! # Stability
//!
//! The crate follows semantic versioning: while the version is 0.x, a release
//! that raises x may break the public API, and a release that raises only the
//! last number does not. The rust-version in `Cargo.toml` rises only with a
//! release that raises x. What the API promises is what its documentation
//! says; the hash values, the order of a [`MoveList`], and the text of error
//! messages may change in any release.

#![deny(missing_docs)]

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
