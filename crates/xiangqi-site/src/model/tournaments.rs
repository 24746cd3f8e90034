//! What the site keeps of a tournament.

use super::{TournamentFormat, TournamentStatus, clock::ClockSpec, ratings::Category};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRecord {
    pub id: String,
    pub name: String,
    pub creator: String,
    pub category: Category,
    pub rules: xiangqi::RuleSet,
    pub clock: ClockSpec,
    pub format: TournamentFormat,
    /// Swiss: as stated; round-robin: 0 until the start fixes it.
    pub rounds: i64,
    pub min_players: i64,
    pub max_players: i64,
    /// None: it starts when full.
    pub starts_ms: Option<i64>,
    pub status: TournamentStatus,
    /// The round being played (0 before the start).
    pub round: i64,
    pub version: i64,
    pub created_ms: i64,
    pub started_ms: Option<i64>,
    pub finished_ms: Option<i64>,
    /// Entrants, withdrawn ones included.
    pub players: i64,
}
