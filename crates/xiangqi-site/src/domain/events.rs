//! What the domain tells of as it happens. The domain does not know who
//! listens or how they are told: the edge (`crate::live`) turns each into the
//! messages open pages get, on this instance and on the others.

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
