//! What the WebSocket carries, both ways.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::views::{AnalysisInfo, ChatLine, GameView, MoveNamesView, StudyView};
use crate::domain::analysis::Progress;
use crate::model::{AnalysisEnd, ComputerState, NoticeKind};

/// A message from the server.
#[derive(Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Event {
    /// A watched game's new state.
    Game {
        #[schema(value_type = GameView)]
        game: std::sync::Arc<GameView>,
    },
    /// Something for the logged-in user: a challenge came, a game needs them.
    Notice {
        kind: NoticeKind,
        /// The player it comes from, if any.
        from: Option<String>,
        /// The game it is about, if any.
        game: Option<String>,
        /// The study it is about, if any.
        study: Option<String>,
        /// The notice in English words, for clients that do not translate `kind`.
        text: String,
    },
    /// The waiting room or someone's challenges changed: lists of challenges are stale.
    Lobby,
    /// A new line in the chat of a watched game.
    Chat { game: String, line: ChatLine },
    /// The computer's progress on its move in a watched game (from the server
    /// instance that searches it).
    Computer {
        game: String,
        state: ComputerState,
        /// Searches ahead of it in the queue (0 while it thinks).
        ahead: usize,
    },
    /// A tournament changed (an entry, a withdrawal, a round, its end): pages
    /// showing it, or lists of tournaments, load it again.
    Tournament { id: String },
    /// A watched study's new state, after an edit by anyone.
    Study {
        #[schema(value_type = StudyView)]
        study: std::sync::Arc<StudyView>,
    },
}

/// A message from the client: start or stop watching a game or a study (one
/// its user may see).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClientMessage {
    pub watch: Option<String>,
    pub unwatch: Option<String>,
    pub watch_study: Option<String>,
    pub unwatch_study: Option<String>,
}

/// What an analysis stream (`GET /analysis`, Server-Sent Events) carries: each
/// event's `event:` field is its `type`, and its `data:` is this object as JSON.
#[derive(Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum AnalysisEvent {
    /// Every engine is busy: the search waits behind `waiting` others (this one included).
    Queued { waiting: usize },
    /// A depth completed: the evaluation and the best line so far.
    Info(AnalysisInfo),
    /// The search has ended (the stream closes after this): why, and its best move.
    Done {
        reason: AnalysisEnd,
        /// Null when the position is over.
        best: Option<MoveNamesView>,
        depth: i32,
        nodes: u64,
    },
    /// The search could not run (the server is stopping).
    Error { message: String },
}

impl From<Progress> for AnalysisEvent {
    fn from(p: Progress) -> Self {
        match p {
            Progress::Queued { waiting } => AnalysisEvent::Queued { waiting },
            Progress::Depth(report) => AnalysisEvent::Info(AnalysisInfo::from(report)),
            Progress::Done { reason, best, depth, nodes } => {
                AnalysisEvent::Done { reason, best: best.map(MoveNamesView::from), depth, nodes }
            }
            Progress::Failed { message } => AnalysisEvent::Error { message },
        }
    }
}

impl AnalysisEvent {
    /// The event's `type`, which is also its SSE event name.
    pub fn name(&self) -> &'static str {
        match self {
            AnalysisEvent::Queued { .. } => "queued",
            AnalysisEvent::Info(_) => "info",
            AnalysisEvent::Done { .. } => "done",
            AnalysisEvent::Error { .. } => "error",
        }
    }
}
