//! What the WebSocket carries, both ways.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::views::{ChatLine, GameView};
use crate::domain::model::{ComputerState, NoticeKind};

/// A message from the server.
#[derive(Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Event {
    /// A watched game's new state.
    Game { game: Box<GameView> },
    /// Something for the logged-in user: a challenge came, a game needs them.
    Notice {
        kind: NoticeKind,
        /// The player it comes from, if any.
        from: Option<String>,
        /// The game it is about, if any.
        game: Option<String>,
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
}

/// A message from the client: start or stop watching a game.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClientMessage {
    pub watch: Option<String>,
    pub unwatch: Option<String>,
}
