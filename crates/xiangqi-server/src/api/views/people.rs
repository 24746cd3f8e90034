//! Messages, conversations, chat, who is here, buddies, ignores, search and invitations.

use super::*;
use crate::model::games::ChatRecord;
use crate::model::people::{Conversation, InvitationRecord, MessageRecord};

/// A private message. `body` is the text as typed: show it as text.
#[derive(Serialize, ToSchema)]
pub struct MessageView {
    pub id: String,
    pub from: String,
    pub to: String,
    pub body: String,
    pub sent: i64,
    /// When the recipient read it; null while unread.
    pub read: Option<i64>,
}

impl From<&MessageRecord> for MessageView {
    fn from(m: &MessageRecord) -> Self {
        MessageView {
            id: m.id.clone(),
            from: m.sender.clone(),
            to: m.recipient.clone(),
            body: m.body.clone(),
            sent: m.created_ms,
            read: m.read_ms,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct MessageAnswer {
    pub message: MessageView,
}

/// The messages with one person: the latest, and how many of theirs are unread.
#[derive(Serialize, ToSchema)]
pub struct ConversationView {
    pub with: String,
    pub last: MessageView,
    pub unread: i64,
}

impl From<&Conversation> for ConversationView {
    fn from(c: &Conversation) -> Self {
        ConversationView { with: c.with.clone(), last: MessageView::from(&c.last), unread: c.unread }
    }
}

/// What waits for the logged-in user: for the page header and the tab title.
#[derive(Serialize, ToSchema)]
pub struct Counts {
    /// Games waiting for my move.
    pub my_turn: i64,
    /// Open challenges to me, waiting for my answer.
    pub challenges: i64,
    pub unread_messages: i64,
}

/// A line of a game's chat. `body` is the text as typed: show it as text.
#[derive(Serialize, ToSchema)]
pub struct ChatLine {
    /// 1, 2, 3, ... within the game.
    pub seq: i64,
    pub author: String,
    pub body: String,
    pub at: i64,
}

impl From<&ChatRecord> for ChatLine {
    fn from(c: &ChatRecord) -> Self {
        ChatLine { seq: c.seq, author: c.author.clone(), body: c.body.clone(), at: c.created_ms }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ChatAnswer {
    /// Oldest first.
    pub lines: Vec<ChatLine>,
}

#[derive(Serialize, ToSchema)]
pub struct ChatLineAnswer {
    pub line: ChatLine,
}

/// Someone on a list or on the site, with what they are doing now.
#[derive(Serialize, ToSchema)]
pub struct PersonView {
    pub name: String,
    pub rating: i64,
    /// Seen in the last 5 minutes.
    pub online: bool,
    pub seen: i64,
    /// On the asking user's buddy list.
    pub buddy: bool,
    /// Games they are playing now (at most 10), to watch.
    pub games: Vec<GameSummary>,
}

/// An invitation to hand to a friend.
#[derive(Serialize, ToSchema)]
pub struct InvitationView {
    pub code: String,
    /// The address to share, relative to the site (`/#/join/{code}`).
    pub link: String,
    /// The challenge waiting for whoever registers through it, if any.
    pub challenge: Option<InvitedGameView>,
    pub created: i64,
    /// How many have registered through it.
    pub uses: i64,
}

#[derive(Serialize, ToSchema)]
pub struct InvitedGameView {
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    /// The inviter's side.
    pub color: SideChoice,
    pub clock: ClockSpec,
}

impl From<&InvitationRecord> for InvitationView {
    fn from(i: &InvitationRecord) -> Self {
        InvitationView {
            code: i.code.clone(),
            link: format!("/#/join/{}", i.code),
            challenge: i.game.map(|g| InvitedGameView { rules: g.rules, color: g.color, clock: g.clock }),
            created: i.created_ms,
            uses: i.uses,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct InvitationAnswer {
    pub invitation: InvitationView,
}

/// What an invitation link shows before registering: who invites.
#[derive(Serialize, ToSchema)]
pub struct InvitationPreview {
    pub inviter: String,
    pub challenge: Option<InvitedGameView>,
}

super::page::listings! {
    /// A page of messages, newest first.
    MessagesPage = Messages of MessageView as "messages": "A page of messages, newest first.";
    /// Conversations, the latest first.
    ConversationsPage = Conversations of ConversationView as "conversations": "Conversations, the latest first.";
    /// A page of my buddies by name, those online first within it.
    PeopleAnswer = Buddies of PersonView as "users": "A page of my buddies by name, those online first within it.";
    /// Who is here, a page at a time: the most recently seen first, my buddies first within the page.
    HerePage = HereNow of PersonView as "users": "Who is here, a page at a time: the most recently seen first, my buddies first within the page.";
    /// A page of search results, by name.
    SearchPage = Found of UserView as "users": "A page of search results, by name.";
    /// My invitations, newest first.
    InvitationsAnswer = Invitations of InvitationView as "invitations": "My invitations, newest first.";
}

/// The names on my ignore list: plain names, not views.
pub struct Ignored;

impl super::page::Listing for Ignored {
    type Item = String;
    const FIELD: &'static str = "users";
    const NAME: &'static str = "IgnoredAnswer";
    const ABOUT: &'static str = "A page of the names on my ignore list, by name.";

    fn item() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        <String as utoipa::PartialSchema>::schema()
    }
}

/// A page of the names on my ignore list, by name.
pub type IgnoredAnswer = super::page::Page<Ignored>;
