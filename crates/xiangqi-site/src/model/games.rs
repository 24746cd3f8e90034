//! What the site keeps of a game: the game, its moves, its rule set's record and its chat.

use xiangqi::{Color, Outcome, RuleSet, Variant};

use super::{GameStatus, clock::ClockSpec, ratings::Category};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: String,
    pub red: String,
    pub black: String,
    pub variant: Variant,
    pub rules: RuleSet,
    pub start_fen: String,
    pub clock: ClockSpec,
    /// Moves played.
    pub ply: i64,
    /// Grows by one with every change of the row.
    pub version: i64,
    pub fen: String,
    pub status: GameStatus,
    pub outcome: Option<Outcome>,
    /// Live clocks: each side's time left when the running clock started.
    pub red_ms: i64,
    pub black_ms: i64,
    /// When the side to move began its turn.
    pub turn_started_ms: i64,
    pub draw_offer: Option<Color>,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// The ladder a ladder game climbs, and who challenged.
    pub ladder: Option<(Category, String)>,
    /// The tournament a tournament game is played in, and its round.
    pub tournament: Option<(String, i64)>,
    pub created_ms: i64,
    pub updated_ms: i64,
    /// Each side's premove (ICCS, or a hex move's cells): queued while the
    /// other side is to move, played with that side's move if still legal.
    /// Only its player sees it.
    pub premoves: [Option<String>; 2],
}

impl GameRecord {
    /// A side's premove.
    pub fn premove(&self, side: Color) -> Option<&str> {
        self.premoves[side.index()].as_deref()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    pub game_id: String,
    pub ply: i64,
    pub iccs: String,
    pub wxf: String,
    pub at_ms: i64,
}

/// A player's results under one rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSetRecord {
    pub rules: RuleSet,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRecord {
    pub game_id: String,
    /// 1, 2, 3, ... within the game.
    pub seq: i64,
    pub author: String,
    pub body: String,
    pub created_ms: i64,
}
