//! What the domain tells of as it happens. The domain does not know who
//! listens or how they are told: the edge (`crate::live`) turns each into the
//! messages open pages get, on this instance and on the others.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::games::Loaded;

use crate::model::games::ChatRecord;
use crate::model::{ComputerState, NoticeKind};

/// Something that happened, for whoever listens.
pub enum Happening<'a> {
    /// A game's state changed: a move, its end, a draw offer.
    Game(&'a Loaded),
    /// A study changed: an edit of its chapters, members or settings.
    Study(&'a super::studies::Study),
    /// A new line in a game's chat.
    Chat(&'a ChatRecord),
    /// A short notice for one user's open pages.
    Notice(Notice),
    /// Lists of challenges (and ladders) are stale.
    Lobby,
    /// A tournament changed.
    Tournament(&'a str),
    /// The computer's progress on its move in a game, for this instance's
    /// watchers (the instance searching is the one they are connected to or
    /// they hear the move itself).
    Computer { game: &'a str, state: ComputerState, ahead: usize },
    /// A computer's move is wanted from an instance that searches them.
    ComputerWanted(&'a str),
}

/// A notice to a user: what happened, from whom, in which game or study.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notice {
    pub user: String,
    pub kind: NoticeKind,
    pub from: Option<String>,
    pub game: Option<String>,
    #[serde(default)]
    pub study: Option<String>,
}

/// Whoever hears what happens.
pub trait Listener: Send + Sync {
    fn hear(&self, what: Happening<'_>);
}

/// No one listens: services run offline (a command line tool, the domain's tests).
pub struct Nobody;

impl Listener for Nobody {
    fn hear(&self, _: Happening<'_>) {}
}

/// What the services tell of: each happening goes to the one listener (the
/// live updates of open pages, or nobody).
#[derive(Clone)]
pub struct Events {
    listener: Arc<dyn Listener>,
}

impl Events {
    pub fn new(listener: Arc<dyn Listener>) -> Self {
        Events { listener }
    }

    /// Tells the listener of something that happened.
    pub fn hear(&self, what: Happening<'_>) {
        self.listener.hear(what);
    }

    /// Tells everyone watching a game of its new state.
    pub async fn publish_game(&self, game: &Loaded) {
        self.listener.hear(Happening::Game(game));
    }

    /// A new line of a game's chat, to everyone watching the game.
    pub async fn publish_chat(&self, line: &crate::model::games::ChatRecord) {
        self.listener.hear(Happening::Chat(line));
    }

    /// A short notice for a user's open pages: what happened, from whom, in which game.
    pub async fn notify(&self, user: &str, kind: NoticeKind, from: Option<&str>, game: Option<&str>) {
        self.listener.hear(Happening::Notice(Notice {
            user: user.to_string(),
            kind,
            from: from.map(str::to_string),
            game: game.map(str::to_string),
            study: None,
        }));
    }

    /// A short notice for a user's open pages about a study, from whom.
    pub fn notify_of_study(&self, user: &str, kind: NoticeKind, from: &str, study: &str) {
        self.listener.hear(Happening::Notice(Notice {
            user: user.to_string(),
            kind,
            from: Some(from.to_string()),
            game: None,
            study: Some(study.to_string()),
        }));
    }

    /// Lists of challenges are stale: every open page reloads its lobby.
    pub async fn lobby_changed(&self) {
        self.listener.hear(Happening::Lobby);
    }
}
