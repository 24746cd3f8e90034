//! A Xiangqi engine for the standard and the hexagonal board: iterative deepening
//! principal-variation search with a shared transposition table (lazy SMP), a
//! tuned evaluation, repetition judged by the game's rule set, and the UCI and
//! UCCI protocols. [`Level`] plays at a calibrated strength from 1 to 8 for
//! people to play against.
//!
//! ```
//! use xiangqi::{Position, RuleSet, Standard};
//! use xiangqi_engine::{Control, Engine, Limits, Options, Root};
//!
//! let pos: Position<Standard> = Position::startpos();
//! let mut engine = Engine::new(Options { hash_mb: 4, ..Options::default() });
//! let root = Root::from_position(pos, RuleSet::Asian.rules());
//! let result = engine.search(&root, &Limits::depth(5), &Control::new(), &mut |info| {
//!     println!("depth {} score {} pv {:?}", info.depth, info.score, info.pv);
//! });
//! assert!(root.position().is_legal(result.best.unwrap()));
//! ```

pub mod bench;
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

pub use engine::{Engine, Info, Options, SearchResult};
pub use level::{Level, LevelError, Style};
pub use limits::{Clock, Control, Limits};
pub use root::Root;
pub use score::{MATE, MATE_BOUND, Score, Value, is_decisive};
