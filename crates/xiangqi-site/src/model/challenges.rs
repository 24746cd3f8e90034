//! What the site keeps of a challenge.

use xiangqi::RuleSet;

use super::{ChallengeStatus, SideChoice, clock::ClockSpec, ratings::Category};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRecord {
    pub id: String,
    pub creator: String,
    pub opponent: Option<String>,
    pub rules: RuleSet,
    pub color: SideChoice,
    pub clock: ClockSpec,
    pub auto: bool,
    pub status: ChallengeStatus,
    pub game_id: Option<String>,
    /// The game this challenge offers a rematch of.
    pub rematch_of: Option<String>,
    /// Whether its game will be rated.
    pub rated: bool,
    /// The ladder it climbs, for a ladder challenge.
    pub ladder: Option<Category>,
    /// When a ladder challenge lapses if not accepted.
    pub expires_ms: Option<i64>,
    pub created_ms: i64,
}
