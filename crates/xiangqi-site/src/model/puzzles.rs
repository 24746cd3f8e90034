//! The puzzles' words: where attempts stand, where puzzles are handed out
//! and come from, and what they are about.

use xiangqi::Variant;

use crate::model::{named_enum, ratings::Rating};

named_enum! {
    /// Where a user's first attempt at a puzzle stands.
    "a puzzle attempt's result" AttemptResult {
        /// Begun (a move made or a hint shown), not yet ended.
        Open = "open",
        Solved = "solved",
        Failed = "failed",
    }
}

named_enum! {
    /// Where the site hands a logged-in user a puzzle that their first attempt
    /// is rated on. Each place holds one: handing another replaces it.
    "where a puzzle was handed out" Handout {
        /// The next puzzle (`/puzzles/next`), one on each board.
        Next = "next",
        /// The puzzle of the day.
        Daily = "daily",
    }
}

named_enum! {
    /// Why an ended attempt changed no rating.
    "why a puzzle attempt is not rated" Unrated {
        /// Not logged in: there is no rating to change.
        Visitor = "visitor",
        /// Part of a timed streak, which counts puzzles solved instead.
        Streak = "streak",
        /// A hint was shown.
        Hinted = "hinted",
        /// The site had not handed this puzzle to the player when the attempt
        /// began (it was opened by its id, say).
        Opened = "opened",
        /// The puzzle was tried without logging in from the player's network address.
        Seen = "seen",
        /// The player's first attempt at this puzzle had ended before.
        Repeat = "repeat",
    }
}

named_enum! {
    /// Where `xiangqi puzzles generate` looks for puzzles.
    "a source of puzzles" GameSource {
        /// The site's finished games.
        Site = "site",
        /// The Masters collection.
        Masters = "masters",
        /// Imported games whose owners let the site search them.
        Imports = "imports",
    }
}

named_enum! {
    /// The kind of game a puzzle comes from, as it is stored.
    "a puzzle's origin" OriginKind {
        /// A game of the engine against itself, not kept.
        Engine = "engine",
        Site = "site",
        Masters = "masters",
        Imported = "imported",
        /// An imported game whose owner took it back after the puzzle was tried.
        Withdrawn = "withdrawn",
    }
}

/// Where a puzzle comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A game of the engine against itself, not kept.
    Engine,
    /// One of the site's games, which anyone may open.
    Site { game: String },
    /// A game of the Masters collection, which anyone may open.
    Masters { game: String },
    /// One of `owner`'s imported games, which only its owner sees.
    Imported { game: String, owner: String },
    /// It came from an imported game whose owner took it back after someone
    /// had tried the puzzle: which game, and whose, is forgotten.
    Withdrawn,
}

impl Origin {
    pub fn kind(&self) -> OriginKind {
        match self {
            Origin::Engine => OriginKind::Engine,
            Origin::Site { .. } => OriginKind::Site,
            Origin::Masters { .. } => OriginKind::Masters,
            Origin::Imported { .. } => OriginKind::Imported,
            Origin::Withdrawn => OriginKind::Withdrawn,
        }
    }

    /// The game, of whichever collection.
    pub fn game(&self) -> Option<&str> {
        match self {
            Origin::Site { game } | Origin::Masters { game } | Origin::Imported { game, .. } => Some(game),
            Origin::Engine | Origin::Withdrawn => None,
        }
    }

    /// The owner of an imported game.
    pub fn owner(&self) -> Option<&str> {
        match self {
            Origin::Imported { owner, .. } => Some(owner),
            _ => None,
        }
    }

    /// The stored parts together again, or why they do not fit.
    pub fn from_parts(
        kind: OriginKind,
        game: Option<String>,
        owner: Option<String>,
    ) -> std::result::Result<Origin, String> {
        match (kind, game, owner) {
            (OriginKind::Engine, None, None) => Ok(Origin::Engine),
            (OriginKind::Withdrawn, None, None) => Ok(Origin::Withdrawn),
            (OriginKind::Site, Some(game), None) => Ok(Origin::Site { game }),
            (OriginKind::Masters, Some(game), None) => Ok(Origin::Masters { game }),
            (OriginKind::Imported, Some(game), Some(owner)) => Ok(Origin::Imported { game, owner }),
            (kind, game, owner) => {
                Err(format!("a puzzle from {kind:?} with game {game:?} and owner {owner:?}"))
            }
        }
    }
}

named_enum! {
    /// A tactical motif or stage of the game a puzzle shows.
    "a puzzle theme" PuzzleTheme {
        /// The line mates in one move.
        MateIn1 = "mate_in1",
        MateIn2 = "mate_in2",
        MateIn3 = "mate_in3",
        /// The line mates in four moves or more.
        LongMate = "long_mate",
        /// The first move takes a piece.
        Capture = "capture",
        /// One move attacks two pieces (or the general and a piece) at once.
        Fork = "fork",
        /// A move leaves a piece of the other side unable to move without
        /// exposing its general.
        Pin = "pin",
        /// A piece moves out of the way and another behind it attacks.
        DiscoveredAttack = "discovered_attack",
        /// A cannon attacks over a screen made or cleared by the move.
        CannonScreen = "cannon_screen",
        /// A horse's leg is cleared so that it attacks, or blocked so that it cannot.
        HorseLeg = "horse_leg",
        /// The generals may not face each other: the rule takes squares or moves away.
        FlyingGeneral = "flying_general",
        /// The first move answers a threat rather than making one.
        DefensiveMove = "defensive_move",
        Opening = "opening",
        Middlegame = "middlegame",
        Endgame = "endgame",
    }
}

impl PuzzleTheme {
    /// The bit of this theme in a set of themes as the store keeps it.
    pub fn bit(self) -> i64 {
        1 << (self as u32)
    }

    /// The themes of a stored set.
    pub fn from_bits(bits: i64) -> Vec<PuzzleTheme> {
        <PuzzleTheme as crate::model::Named>::all().iter().copied().filter(|t| bits & t.bit() != 0).collect()
    }

    /// A set of themes as the store keeps it.
    pub fn to_bits(themes: &[PuzzleTheme]) -> i64 {
        themes.iter().fold(0, |bits, t| bits | t.bit())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Named;

    #[test]
    fn an_origin_is_stored_in_parts_that_fit_together_only_one_way() {
        let all = [
            Origin::Engine,
            Origin::Site { game: "g".into() },
            Origin::Masters { game: "m".into() },
            Origin::Imported { game: "i".into(), owner: "o".into() },
            Origin::Withdrawn,
        ];
        for o in all {
            let parts = (o.kind(), o.game().map(str::to_string), o.owner().map(str::to_string));
            assert_eq!(Origin::from_parts(parts.0, parts.1, parts.2), Ok(o));
        }
        assert!(Origin::from_parts(OriginKind::Imported, Some("i".into()), None).is_err());
        assert!(Origin::from_parts(OriginKind::Withdrawn, Some("i".into()), None).is_err());
        assert!(Origin::from_parts(OriginKind::Site, None, None).is_err());
    }

    #[test]
    fn names_are_the_stored_and_written_ones() {
        for s in GameSource::all() {
            assert_eq!(serde_json::to_value(s).unwrap(), s.name());
            assert_eq!(GameSource::parse(s.name()), Ok(*s));
        }
        for k in OriginKind::all() {
            assert_eq!(serde_json::to_value(k).unwrap(), k.name());
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRecord {
    pub id: String,
    pub variant: Variant,
    pub fen: String,
    pub moves: Vec<String>,
    pub themes: Vec<PuzzleTheme>,
    pub mate: bool,
    pub origin: Origin,
    pub rating: Rating,
    pub plays: i64,
    pub solves: i64,
}

/// A user's puzzle rating on one board.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzlePlayerRecord {
    pub user: String,
    pub rating: Rating,
    pub attempts: i64,
    pub solved: i64,
    pub best_streak: i64,
}

/// A user's first attempt at a puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptRecord {
    pub puzzle_id: String,
    pub result: AttemptResult,
    pub hinted: bool,
    pub rated: bool,
    /// The user's puzzle rating after it, if it was rated.
    pub rating: Option<f64>,
    pub at_ms: i64,
    /// The puzzle's rating now and its themes.
    pub puzzle_rating: f64,
    pub themes: Vec<PuzzleTheme>,
}

/// A timed streak.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreakRecord {
    pub id: String,
    pub user: String,
    pub variant: Variant,
    pub started_ms: i64,
    pub ends_ms: i64,
    pub solved: i64,
    pub current: Option<String>,
    pub over: bool,
}

/// A puzzle to store.
#[derive(Clone, Debug)]
pub struct NewPuzzle {
    pub id: String,
    pub variant: Variant,
    pub fen: String,
    pub moves: Vec<String>,
    pub key: u64,
    pub themes: Vec<PuzzleTheme>,
    pub mate: bool,
    pub origin: Origin,
    pub rating: f64,
    pub created_ms: i64,
}
