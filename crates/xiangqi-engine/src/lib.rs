//! A Xiangqi engine for the standard and the hexagonal board: iterative deepening
//! principal-variation search with a shared transposition table (lazy SMP), a
//! tuned evaluation or an NNUE net (one for each board is embedded), repetition
//! judged by the game's rule set, and the UCI and UCCI protocols. [`Level`]
//! plays at a calibrated strength from 1 to 8 for people to play against.
//!
//! The API is one call: [`Engine::search`] takes a [`Root`] (a position and the
//! game before it) and [`Limits`], and answers an [`Analysis`]: the best move,
//! one [`Line`] for each root move asked for (moves, score, depth, seldepth),
//! the nodes searched and the time taken. A [`Control`] stops it from another
//! thread, and a callback sees each line of each depth as an [`Info`].
//!
//! ```
//! use xiangqi::{Position, RuleSet, Standard};
//! use xiangqi_engine::{Control, Engine, Limits, Options, Root};
//!
//! let pos: Position<Standard> = Position::startpos();
//! let mut engine = Engine::new(Options { hash_mb: 4, ..Options::default() });
//! let root = Root::from_position(pos, RuleSet::Asian.rules());
//! let analysis = engine.search(&root, &Limits::depth(5), &Control::new(), &mut |info| {
//!     println!("depth {} score {} pv {:?}", info.depth, info.score, info.pv);
//! });
//! assert!(root.position().is_legal(analysis.best.unwrap()));
//! assert_eq!(analysis.depth(), 5);
//! ```
//!
//! # Several lines (MultiPV)
//!
//! [`Limits::multi_pv`] asks for the best few root moves, each with its own
//! line, best first:
//!
//! ```
//! use xiangqi::{Position, RuleSet, Standard};
//! use xiangqi_engine::{Control, Engine, Limits, Options, Root};
//!
//! let mut engine = Engine::new(Options { hash_mb: 4, ..Options::default() });
//! let root = Root::from_position(Position::<Standard>::startpos(), RuleSet::Asian.rules());
//! let analysis = engine.search(&root, &Limits::depth(4).with_multi_pv(3), &Control::new(), &mut |_| {});
//! assert_eq!(analysis.lines.len(), 3);
//! assert!(analysis.lines.windows(2).all(|w| w[0].value >= w[1].value));
//! assert_eq!(analysis.best, Some(analysis.lines[0].moves[0]));
//! ```
//!
//! # A game in progress
//!
//! [`Root::from_game`] carries a game's history, so that the search judges
//! repetitions over the whole game and never plays a move its rule set forbids:
//!
//! ```
//! use xiangqi::{Game, RuleSet, Standard};
//! use xiangqi_engine::{Control, Engine, Limits, Options, Root};
//!
//! let mut game = Game::<Standard>::startpos(RuleSet::Asian);
//! game.play_str("h2e2").unwrap();
//! let mut engine = Engine::new(Options { hash_mb: 4, ..Options::default() }.with_embedded_net());
//! let analysis = engine.search(&Root::from_game(&game), &Limits::nodes(5_000), &Control::new(), &mut |_| {});
//! game.play(analysis.best.unwrap()).unwrap();
//! ```
//!
//! [`protocol::run`] speaks UCI or UCCI over any reader and writer.
//!
//! # Stability
//!
//! The crate follows semantic versioning: while the version is 0.x, a release
//! that raises x may break the public API, and a release that raises only the
//! last number does not. The rust-version in `Cargo.toml` rises only with a
//! release that raises x. What the API promises is what its documentation
//! says. The moves and scores a search finds, the node counts of
//! [`bench`](mod@bench), the embedded nets and the evaluation's weights are not part of
//! it: any release may make the engine play differently (and, it is hoped,
//! better).

#![deny(missing_docs)]

pub mod bench;
pub mod clock;
mod correction;
mod engine;
pub mod eval;
mod huge_pages;
mod level;
mod limits;
mod moves;
pub mod nnue;
mod picker;
pub mod protocol;
mod root;
mod score;
mod search;
mod see;
mod tt;

pub use engine::{Analysis, Engine, Info, Line, Options};
pub use level::{Level, LevelError, Style};
pub use limits::{Clock, Control, Limits};
pub use root::Root;
pub use score::{MATE, MATE_BOUND, Score, Value, is_decisive};
