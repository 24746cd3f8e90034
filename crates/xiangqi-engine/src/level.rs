//! Playing strength levels 1 to 8 for people to play against.
//!
//! A level's budget is counted in nodes or plies, never in time, so that a level
//! is as strong on a slow or busy machine as on a fast one and every game can be
//! replayed. The upper levels search with a node budget and play the best move
//! they find. The lower levels score every root move with a shallow search and
//! draw one at random, each move weighted by `exp((score - best) / temperature)`:
//! a hotter level plays worse moves more often, and a move that loses a piece is
//! drawn far less often than one that loses a soldier. A forced win that the
//! shallow search sees is always played, so every level takes a mate in one.
//!
//! The strength of each level ([`Level::elo`]) was measured by matches between
//! neighbouring levels; the engine's README lists them and the commands.
//!
//! ```
//! use xiangqi::{Position, RuleSet, Standard};
//! use xiangqi_engine::{Control, Engine, Level, Root};
//!
//! let level = Level::new(3).unwrap();
//! let mut engine = Engine::new(level.engine_options());
//! let root = Root::from_position(Position::<Standard>::startpos(), RuleSet::Asian.rules());
//! let mv = level.choose_move(&mut engine, &root, &Control::new(), 7).unwrap();
//! assert!(root.position().is_legal(mv));
//! assert!(Level::new(9).is_err());
//! ```

use std::{fmt, str::FromStr};

use xiangqi::{Geometry, Move};

use crate::{
    Analysis, Control, Engine, Info, Limits, Line, Options, Root,
    clock::Instant,
    score::{MATE_BOUND, Value},
};

/// How one level plays: its budget and how much chance it leaves to. Any style
/// can be played (UCI options `Level Depth`, `Level Nodes` and `Level
/// Temperature` change a level's for measuring new ones); [`Level::style`] gives
/// the calibrated ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Plies searched for each root move (levels that choose at random), or for
    /// the whole search.
    pub depth: Option<i32>,
    /// Nodes for the whole move (shared equally by the root moves of a style
    /// that chooses at random).
    pub nodes: u64,
    /// The temperature of the random choice among root moves, in centipawns;
    /// 0 plays the best move found.
    pub temperature: Value,
}

const STYLES: [Style; 8] = [
    Style { depth: Some(1), nodes: 50_000, temperature: 120 },
    Style { depth: Some(2), nodes: 50_000, temperature: 60 },
    Style { depth: Some(4), nodes: 200_000, temperature: 10 },
    Style { depth: None, nodes: 1_500, temperature: 0 },
    Style { depth: None, nodes: 6_000, temperature: 0 },
    Style { depth: None, nodes: 30_000, temperature: 0 },
    Style { depth: None, nodes: 150_000, temperature: 0 },
    Style { depth: None, nodes: 1_000_000, temperature: 0 },
];

/// Elo of each level above level 1 on the standard board with the embedded net
/// `34f8b49519e5dc9e`, the sums of the steps measured between neighbours (74 games
/// each, 296 where the lower level chooses at random; 95% bars of ±45 to ±136 a
/// step; the README lists the matches and the commands), rounded to tens.
const ELO: [i32; 8] = [0, 190, 430, 1030, 1330, 1730, 1950, 2190];

/// A number that is not a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError(pub String);

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {} is not a level from {} to {}", self.0, Level::MIN, Level::MAX)
    }
}

impl std::error::Error for LevelError {}

/// A playing strength from 1 (a beginner can win) to 8 (the engine at about a
/// second a move), the same on either board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: u8 = 1;
    /// The strongest level.
    pub const MAX: u8 = 8;

    /// The level numbered `n`.
    ///
    /// # Errors
    /// When `n` is not from 1 to 8.
    pub fn new(n: u8) -> Result<Level, LevelError> {
        if (Self::MIN..=Self::MAX).contains(&n) { Ok(Level(n)) } else { Err(LevelError(n.to_string())) }
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (Self::MIN..=Self::MAX).map(Level)
    }

    /// The level's number, from [`Level::MIN`] to [`Level::MAX`].
    pub fn number(self) -> u8 {
        self.0
    }

    /// How the level plays.
    pub fn style(self) -> Style {
        STYLES[usize::from(self.0 - 1)]
    }

    /// The level's strength in Elo above level 1, as measured (see the README).
    pub fn elo(self) -> i32 {
        ELO[usize::from(self.0 - 1)]
    }

    /// Engine settings that suit the level: one thread (node counts are only
    /// repeatable on one), a table sized to the budget, and the embedded net,
    /// which [`Level::elo`] was measured with and the site's computer plays with.
    pub fn engine_options(self) -> Options {
        let mb = (self.style().nodes / 40_000).next_power_of_two().clamp(1, 32) as usize;
        Options { hash_mb: mb, threads: 1, ..Options::default() }.with_embedded_net()
    }

    /// The limits of the level's search, bounded in time by `time` (its
    /// `move_time`, `clock` and `move_overhead`; its depth and nodes are ignored).
    pub fn limits(self, time: &Limits) -> Limits {
        self.style().limits(time)
    }

    /// The level's move in `root` (`None` only when there is none), with no limit
    /// on time. The same engine state, position and `seed` give the same move; the
    /// position is mixed into the seed, so one seed can serve a whole game.
    pub fn choose_move<G: Geometry>(
        self,
        engine: &mut Engine,
        root: &Root<G>,
        control: &Control,
        seed: u64,
    ) -> Option<Move> {
        self.play(engine, root, &Limits::default(), control, seed, &mut |_| {}).best
    }

    /// The level's move in `root`, within the time that `time` allows (see
    /// [`Level::limits`]); see [`Style::play`].
    pub fn play<G: Geometry>(
        self,
        engine: &mut Engine,
        root: &Root<G>,
        time: &Limits,
        control: &Control,
        seed: u64,
        on_info: &mut dyn FnMut(&Info),
    ) -> Analysis {
        self.style().play(engine, root, time, control, seed, on_info)
    }
}

impl Style {
    /// The limits of the style's search, bounded in time by `time` (its
    /// `move_time`, `clock` and `move_overhead`; its depth and nodes are ignored).
    pub fn limits(self, time: &Limits) -> Limits {
        Limits {
            depth: self.depth,
            nodes: Some(self.nodes),
            move_time: time.move_time,
            clock: time.clock,
            mate: None,
            move_overhead: time.move_overhead,
            multi_pv: 1,
        }
    }

    /// The style's move in `root`, within the time that `time` allows, reporting
    /// the first search as [`Engine::search`] does. The answer's `best` is the
    /// move chosen (`None` only when there is none) and its one line starts
    /// with that move and carries its score. The engine searches on one thread
    /// whatever its setting. The same engine state, position and `seed` give the
    /// same move.
    pub fn play<G: Geometry>(
        self,
        engine: &mut Engine,
        root: &Root<G>,
        time: &Limits,
        control: &Control,
        seed: u64,
        on_info: &mut dyn FnMut(&Info),
    ) -> Analysis {
        let threads = engine.threads();
        engine.set_threads(1);
        let result = self.play_on_one_thread(engine, root, time, control, seed, on_info);
        engine.set_threads(threads);
        result
    }

    fn play_on_one_thread<G: Geometry>(
        self,
        engine: &mut Engine,
        root: &Root<G>,
        time: &Limits,
        control: &Control,
        seed: u64,
        on_info: &mut dyn FnMut(&Info),
    ) -> Analysis {
        let style = self;
        let limits = style.limits(time);
        let started = Instant::now();
        let moves = root.moves();
        let first = if style.temperature == 0 {
            engine.search(root, &limits, control, on_info)
        } else {
            // The first search is one root move's share of the budget, like the others.
            let share = style.nodes / moves.len().max(1) as u64;
            engine.search(root, &Limits { nodes: Some(share.max(1)), ..limits.clone() }, control, on_info)
        };
        let Some(best) = first.best else { return first };
        if style.temperature == 0 || moves.len() < 2 || first.value() >= MATE_BOUND {
            return first;
        }
        // Score every other root move alone, sharing what is left of the budget.
        let mut scored: Vec<(Move, Value)> = vec![(best, first.value())];
        let mut nodes = first.nodes;
        let deadline = limits.budget().map(|(_, maximum)| maximum);
        let others: Vec<Move> = moves.into_iter().filter(|&m| m != best).collect();
        for (i, &m) in others.iter().enumerate() {
            let left = style.nodes.saturating_sub(nodes);
            let elapsed = started.elapsed();
            if control.is_stopped() || left == 0 || deadline.is_some_and(|d| elapsed >= d) {
                break;
            }
            let mut one = root.clone();
            one.only = vec![m];
            let share = (left / (others.len() - i) as u64).max(1);
            let within = Limits {
                depth: style.depth,
                nodes: Some(share),
                move_time: deadline.map(|d| d - elapsed),
                ..Limits::default()
            };
            let r = engine.search_from(&one, &within, control, &mut |_| {}, false);
            nodes += r.nodes;
            if r.best == Some(m) && r.depth() >= 1 {
                scored.push((m, r.value()));
            }
        }
        let (mv, value) = draw(&scored, style.temperature, seed ^ root.position().hash());
        let line = if mv == best {
            Line::new(first.pv().to_vec(), value, first.depth(), first.line().and_then(|l| l.seldepth))
        } else {
            Line::new(vec![mv], value, first.depth(), None)
        };
        Analysis { best: Some(mv), ponder: None, lines: vec![line], nodes, time: started.elapsed() }
    }
}

/// Draws one of `scored` (the best first) at random, each weighted by
/// `exp((score - best) / temperature)`.
fn draw(scored: &[(Move, Value)], temperature: Value, seed: u64) -> (Move, Value) {
    let top = scored.iter().map(|&(_, v)| v).max().expect("at least one move");
    // Far below the best, a move's weight is nil anyway; the floor keeps mates finite.
    let weight = |v: Value| (f64::from((v - top).max(-20 * temperature)) / f64::from(temperature)).exp();
    let total: f64 = scored.iter().map(|&(_, v)| weight(v)).sum();
    let mut target = unit(seed) * total;
    for &(m, v) in scored {
        target -= weight(v);
        if target < 0.0 {
            return (m, v);
        }
    }
    scored[0]
}

/// A number in [0, 1) from `seed` (the first draw of the seeded generator).
fn unit(seed: u64) -> f64 {
    xiangqi::rng::Rng(seed).fraction()
}

impl TryFrom<u8> for Level {
    type Error = LevelError;
    fn try_from(n: u8) -> Result<Level, LevelError> {
        Level::new(n)
    }
}

impl FromStr for Level {
    type Err = LevelError;
    fn from_str(s: &str) -> Result<Level, LevelError> {
        s.trim().parse::<u8>().map_err(|_| LevelError(format!("{s:?}"))).and_then(Level::new)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
