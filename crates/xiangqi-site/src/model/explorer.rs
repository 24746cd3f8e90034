//! The games database's and the explorer's words: how fast a game was
//! played, how the games of a move went, and a search of finished games.

use xiangqi::{Color, Reason, RuleSet, Variant};

use crate::model::{clock::ClockSpec, named_enum};

named_enum! {
    /// How fast a game is played: a live clock by its base time and 40
    /// increments (bullet under 3 minutes, blitz under 10, rapid under 30,
    /// classical beyond), or correspondence; `other` for imported games.
    "a pace" Speed {
        Bullet = "bullet",
        Blitz = "blitz",
        Rapid = "rapid",
        Classical = "classical",
        Correspondence = "correspondence",
        Other = "other",
    }
}

impl Speed {
    pub fn of(clock: ClockSpec) -> Speed {
        match clock {
            ClockSpec::Correspondence { .. } => Speed::Correspondence,
            ClockSpec::Live { base, increment } => match base + 40 * increment {
                t if t < 180_000 => Speed::Bullet,
                t if t < 600_000 => Speed::Blitz,
                t if t < 1_800_000 => Speed::Rapid,
                _ => Speed::Classical,
            },
        }
    }
}

/// How the games of a move (or a position) went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    pub games: i64,
    pub red_wins: i64,
    pub draws: i64,
    pub black_wins: i64,
}

/// A search of finished games; every field left out matches all.
#[derive(Clone, Debug, Default)]
pub struct GameSearch {
    /// Played either side.
    pub player: Option<String>,
    /// Played against `player` (or, without one, either side).
    pub opponent: Option<String>,
    /// `Some(None)` for draws.
    pub winner: Option<Option<Color>>,
    pub reason: Option<Reason>,
    pub rules: Option<RuleSet>,
    pub variant: Option<Variant>,
    pub speed: Option<Speed>,
    pub rated: Option<bool>,
    /// Ended at or after, at or before (milliseconds).
    pub since_ms: Option<i64>,
    pub until_ms: Option<i64>,
    /// Reached this position in the plies the explorer counts.
    pub pos_key: Option<i64>,
    /// Its opening is one of these ECCO codes.
    pub openings: Option<Vec<String>>,
}

/// An imported game as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedRecord {
    pub id: String,
    pub owner: String,
    pub red: String,
    pub black: String,
    pub event: String,
    pub date: String,
    pub rules: RuleSet,
    pub start_fen: String,
    pub winner: Option<Color>,
    pub result: String,
    /// ICCS, separated by spaces.
    pub moves: String,
    pub ply: i64,
    /// The players' average rating, where the record gave both.
    pub rating: Option<i64>,
    /// The whole record as PGN (tags, variations, comments); empty for a
    /// game imported before records were kept whole.
    pub record: String,
    /// What the rule set would have judged on the way (`imports::Noted`'s form).
    pub judged: String,
    /// The digest that tells the same record imported again.
    pub digest: Option<String>,
    /// Its opening's ECCO code, `""` for none, `None` until named.
    pub ecco: Option<String>,
    pub created_ms: i64,
}
