//! What the site keeps of a game's review by the engine.

use super::{ReviewStatus, eval::Eval};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRecord {
    pub game_id: String,
    pub status: ReviewStatus,
    pub requested_by: String,
    pub claimed_by: String,
    pub claimed_ms: i64,
    /// Positions to evaluate: one more than the moves.
    pub total: i64,
    /// Nodes searched per position.
    pub nodes: i64,
    pub created_ms: i64,
    pub done_ms: Option<i64>,
}

/// One evaluated position of a review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewPositionRecord {
    pub ply: i64,
    /// From the side to move's view.
    pub eval: Eval,
    /// The engine's move, in ICCS.
    pub best: Option<String>,
    pub depth: i64,
    /// The move played here in the game, from its mover's view, searched to
    /// `depth` like the engine's own; `None` where the game ended here, where
    /// it is the engine's move, or in reviews stored before it was kept.
    pub played: Option<Eval>,
}
