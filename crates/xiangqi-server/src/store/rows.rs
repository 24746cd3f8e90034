//! Rows as the database holds them.

use sqlx::any::AnyRow;

use super::get;

#[derive(Clone, Debug)]
pub struct UserRow {
    pub name: String,
    pub password_hash: String,
    pub bio: String,
    pub rating: i64,
    pub created_ms: i64,
    pub seen_ms: i64,
}

impl UserRow {
    pub(crate) fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(UserRow {
            name: get(r, "name")?,
            password_hash: get(r, "password_hash")?,
            bio: get(r, "bio")?,
            rating: get(r, "rating")?,
            created_ms: get(r, "created_ms")?,
            seen_ms: get(r, "seen_ms")?,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: String,
    pub creator: String,
    pub opponent: Option<String>,
    pub rules: String,
    pub color: String,
    pub clock_kind: String,
    pub days: i64,
    pub base_ms: i64,
    pub increment_ms: i64,
    pub auto: bool,
    pub status: String,
    pub game_id: Option<String>,
    pub created_ms: i64,
}

impl ChallengeRow {
    pub(crate) fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(ChallengeRow {
            id: get(r, "id")?,
            creator: get(r, "creator")?,
            opponent: get(r, "opponent")?,
            rules: get(r, "rules")?,
            color: get(r, "color")?,
            clock_kind: get(r, "clock_kind")?,
            days: get(r, "days")?,
            base_ms: get(r, "base_ms")?,
            increment_ms: get(r, "increment_ms")?,
            auto: get::<i64>(r, "auto")? != 0,
            status: get(r, "status")?,
            game_id: get(r, "game_id")?,
            created_ms: get(r, "created_ms")?,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub red: String,
    pub black: String,
    pub rules: String,
    pub start_fen: String,
    pub clock_kind: String,
    pub days: i64,
    pub base_ms: i64,
    pub increment_ms: i64,
    pub ply: i64,
    pub version: i64,
    pub fen: String,
    pub status: String,
    pub winner: Option<String>,
    pub reason: Option<String>,
    pub red_ms: i64,
    pub black_ms: i64,
    pub turn_started_ms: i64,
    pub draw_offer: Option<String>,
    pub created_ms: i64,
    pub updated_ms: i64,
}

impl GameRow {
    pub(crate) fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(GameRow {
            id: get(r, "id")?,
            red: get(r, "red")?,
            black: get(r, "black")?,
            rules: get(r, "rules")?,
            start_fen: get(r, "start_fen")?,
            clock_kind: get(r, "clock_kind")?,
            days: get(r, "days")?,
            base_ms: get(r, "base_ms")?,
            increment_ms: get(r, "increment_ms")?,
            ply: get(r, "ply")?,
            version: get(r, "version")?,
            fen: get(r, "fen")?,
            status: get(r, "status")?,
            winner: get(r, "winner")?,
            reason: get(r, "reason")?,
            red_ms: get(r, "red_ms")?,
            black_ms: get(r, "black_ms")?,
            turn_started_ms: get(r, "turn_started_ms")?,
            draw_offer: get(r, "draw_offer")?,
            created_ms: get(r, "created_ms")?,
            updated_ms: get(r, "updated_ms")?,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    pub game_id: String,
    pub ply: i64,
    pub iccs: String,
    pub wxf: String,
    pub at_ms: i64,
}

impl MoveRow {
    pub(crate) fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(MoveRow {
            game_id: get(r, "game_id")?,
            ply: get(r, "ply")?,
            iccs: get(r, "iccs")?,
            wxf: get(r, "wxf")?,
            at_ms: get(r, "at_ms")?,
        })
    }
}
