//! What the site keeps of messages between players and of invitations to play.

use xiangqi::RuleSet;

use super::{SideChoice, clock::ClockSpec};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageRecord {
    pub id: String,
    pub sender: String,
    pub recipient: String,
    pub body: String,
    pub created_ms: i64,
    pub read_ms: Option<i64>,
}

/// One person a user has exchanged messages with: the latest message and how
/// many of theirs are unread.
#[derive(Clone, Debug)]
pub struct Conversation {
    pub with: String,
    pub last: MessageRecord,
    pub unread: i64,
}

/// Which messages of a user's to list.
#[derive(Clone, Copy, Debug)]
pub enum Mailbox {
    Inbox,
    Sent,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvitationRecord {
    pub code: String,
    pub inviter: String,
    pub game: Option<InvitedGame>,
    pub created_ms: i64,
    /// How many have registered through it.
    pub uses: i64,
}

/// The challenge an invitation carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvitedGame {
    pub rules: RuleSet,
    /// The inviter's side.
    pub color: SideChoice,
    pub clock: ClockSpec,
}
