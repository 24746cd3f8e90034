//! The site's people: profiles, private messages, the chat beside each game,
//! buddy and ignore lists, who is here, profile search, and invitations.
//!
//! An ignored user cannot message the one who ignores them, challenge them,
//! be paired with them, or chat in their games; they are told so in neutral
//! words, and nothing they tried to send is kept.

use std::sync::Arc;

use super::{
    accounts::{self, new_id},
    events::Events,
    games::Games,
    glance::Glances,
    limits::Quotas,
    lobby::{Lobby, Terms},
    refusal::{Refusal, Result, TextField},
};

use crate::model::accounts::{ProfileFields, UserRecord, UserSearch};
use crate::model::games::ChatRecord;
use crate::model::page::{Page, Paged};
use crate::model::people::{Conversation, InvitationRecord, InvitedGame, Mailbox, MessageRecord};
use crate::model::{
    NoticeKind, Relation,
    ratings::{Category, RatingRecord},
};
use crate::store::{HistoryPoint, Store, Written};

pub const MAX_MESSAGE_CHARS: usize = 2000;
pub const MAX_CHAT_CHARS: usize = 500;
/// The most chat lines read at once.
pub const CHAT_PAGE: u32 = 200;
/// How recently a user must have been seen to count as here.
pub const HERE_MS: i64 = 5 * 60 * 1000;
pub const MAX_BUDDIES: u32 = 200;
/// The most invitations one user makes.
pub const MAX_INVITATIONS: i64 = 100;

/// A text a person typed: trimmed at the ends, not empty, at most `max` characters.
fn text(body: &str, field: TextField, max: usize) -> Result<String, Refusal> {
    let body = body.trim();
    if body.is_empty() || body.chars().count() > max {
        return Err(Refusal::TextLength { field, min: 1, max: max as u32 });
    }
    Ok(body.to_string())
}

/// Checks what a user says about themselves.
pub fn check_profile(p: &ProfileFields) -> Result<(), Refusal> {
    if p.bio.chars().count() > 500 {
        return Err(Refusal::TextLength { field: TextField::Bio, min: 0, max: 500 });
    }
    if p.location.chars().count() > 100 {
        return Err(Refusal::TextLength { field: TextField::Location, min: 0, max: 100 });
    }
    if p.languages.len() > 8
        || p.languages.iter().any(|l| l.is_empty() || l.chars().count() > 30 || l.contains(','))
    {
        return Err(Refusal::Languages { most: 8, longest: 30 });
    }
    if let Some(clock) = p.preferred_clock {
        clock.check()?;
    }
    Ok(())
}

/// A player's profile as anyone sees it; `relation` is the viewer's to them.
pub struct Profile {
    pub user: UserRecord,
    pub recent: Vec<super::glance::Glance>,
    pub relation: Option<Relation>,
    pub records: Vec<crate::model::games::RuleSetRecord>,
    pub buddies: i64,
    pub ratings: Vec<crate::model::ratings::RatingRecord>,
}

/// A player as lists of people show them: whether the viewer keeps them as a
/// buddy, and the games they are playing (the latest ten).
pub struct Person {
    pub user: UserRecord,
    pub buddy: bool,
    pub games: Vec<super::glance::Glance>,
}

/// What waits for a user: games where it is their move, challenges to them,
/// and unread messages.
pub struct Waiting {
    pub my_turn: i64,
    pub challenges: i64,
    pub unread_messages: i64,
}

/// The site's people: profiles, ratings, messages, chat and lists.
pub struct People {
    store: Store,
    events: Events,
    quotas: Arc<Quotas>,
    games: Arc<Games>,
    glances: Arc<Glances>,
}

impl People {
    pub fn new(
        store: Store,
        events: Events,
        quotas: Arc<Quotas>,
        games: Arc<Games>,
        glances: Arc<Glances>,
    ) -> Self {
        People { store, events, quotas, games, glances }
    }

    pub async fn leaders(&self, category: Category, page: &Page) -> Result<Paged<RatingRecord>> {
        Ok(self.store.leaders(category, page).await?)
    }

    pub async fn set_rating_settings(&self, user: &str, shown: Category, rated: bool) -> Result<()> {
        Ok(self.store.set_rating_settings(user, shown, rated).await?)
    }

    pub async fn users(&self, page: &Page) -> Result<Paged<UserRecord>> {
        Ok(self.store.users(page).await?)
    }

    pub async fn search_users(&self, s: &UserSearch, page: &Page) -> Result<Paged<UserRecord>> {
        Ok(self.store.search_users(s, page).await?)
    }

    pub async fn related_users(&self, owner: &str, kind: Relation, page: &Page) -> Result<Paged<UserRecord>> {
        Ok(self.store.related_users(owner, kind, page).await?)
    }

    pub async fn mailbox(&self, user: &str, which: Mailbox, page: &Page) -> Result<Paged<MessageRecord>> {
        Ok(self.store.mailbox(user, which, page).await?)
    }

    pub async fn conversations(&self, user: &str, page: &Page) -> Result<Paged<Conversation>> {
        Ok(self.store.conversations(user, page).await?)
    }

    /// A player's rating history in a category, by the player's name in any case.
    pub async fn rating_history(&self, name: &str, category: Category) -> Result<Vec<HistoryPoint>> {
        let user = accounts::user(&self.store, name).await?;
        Ok(self.store.rating_history(&user.name, category).await?)
    }

    /// The people of a list, each with the games they are playing.
    async fn persons(&self, users: Vec<(UserRecord, bool)>) -> Result<Vec<Person>> {
        let names: Vec<String> = users.iter().map(|(u, _)| u.name.clone()).collect();
        let mut games = self.store.active_games_of_each(&names, 10).await?;
        let (mut whose, mut rows) = (Vec::new(), Vec::new());
        for (i, name) in names.iter().enumerate() {
            for g in games.remove(name).unwrap_or_default() {
                whose.push(i);
                rows.push(g);
            }
        }
        let mut people: Vec<Person> =
            users.into_iter().map(|(user, buddy)| Person { user, buddy, games: Vec::new() }).collect();
        for (i, g) in whose.into_iter().zip(self.glances.glances(rows).await?) {
            people[i].games.push(g);
        }
        Ok(people)
    }

    /// A page of a user's buddies (by name), those here now first.
    pub async fn buddies_page(&self, user: &str, page: &Page, now: i64) -> Result<Paged<Person>> {
        let page = self.store.related_users(user, Relation::Buddy, page).await?;
        let mut people = self.persons(page.items.into_iter().map(|u| (u, true)).collect()).await?;
        // Stable: by name within each group, as the page came.
        people.sort_by_key(|p| !Self::is_here(&p.user, now));
        Ok(Paged { items: people, next: page.next })
    }

    /// Who is here: a page of users seen lately, the most recently seen first,
    /// the viewer's buddies first within it.
    pub async fn here(&self, viewer: Option<&str>, page: &Page, now: i64) -> Result<Paged<Person>> {
        let buddies: Vec<String> = match viewer {
            Some(me) => self
                .store
                .relations(me, Relation::Buddy, MAX_BUDDIES)
                .await?
                .into_iter()
                .map(|r| r.other)
                .collect(),
            None => Vec::new(),
        };
        let page = self.store.seen_since_page(now - HERE_MS, page).await?;
        let users = page.items.into_iter().map(|u| {
            let buddy = buddies.contains(&u.name);
            (u, buddy)
        });
        let mut people = self.persons(users.collect()).await?;
        people.sort_by_key(|p| !p.buddy);
        Ok(Paged { items: people, next: page.next })
    }

    /// What waits for a user.
    pub async fn waiting(&self, user: &str) -> Result<Waiting> {
        let (my_turn, challenges, unread_messages) = tokio::try_join!(
            self.my_turn_count(user),
            async { Ok(self.store.incoming_count(user).await?) },
            async { Ok(self.store.unread_messages(user).await?) }
        )?;
        Ok(Waiting { my_turn, challenges, unread_messages })
    }

    /// The messages between `user` and the user named `with` (any case).
    pub async fn conversation(&self, user: &str, with: &str, page: &Page) -> Result<Paged<MessageRecord>> {
        let other = accounts::user(&self.store, with).await?;
        Ok(self.store.conversation(user, &other.name, page).await?)
    }

    /// Marks everything the user named `with` sent `user` as read.
    pub async fn mark_read(&self, user: &str, with: &str, now: i64) -> Result<()> {
        let other = accounts::user(&self.store, with).await?;
        self.store.mark_read(user, &other.name, now).await?;
        Ok(())
    }

    /// A player's profile for `viewer` (a visitor: none); its parts are read
    /// side by side.
    pub async fn profile(&self, viewer: Option<&str>, name: &str) -> Result<Profile> {
        let user = accounts::user(&self.store, name).await?;
        let store = &self.store;
        let recent = async {
            let finished =
                store.finished_games_of(&user.name, &crate::model::page::Page::first(10)).await?.items;
            self.glances.glances(finished).await
        };
        let relation = async {
            Ok(match viewer {
                Some(me) => store.relation(me, &user.name).await?,
                None => None,
            })
        };
        let (recent, relation, records, buddies, ratings) = tokio::try_join!(
            recent,
            relation,
            async { Ok::<_, super::refusal::Error>(store.records_by_rules(&user.name).await?) },
            async { Ok(store.buddy_count(&user.name).await?) },
            async { Ok(store.ratings_of(&user.name).await?) },
        )?;
        Ok(Profile { user, recent, relation, records, buddies, ratings })
    }

    pub async fn set_profile(&self, name: &str, p: &ProfileFields) -> Result<UserRecord> {
        check_profile(p)?;
        self.store.set_profile(name, p).await?;
        accounts::user(&self.store, name).await
    }

    /// Refuses what `from` tries to do to `to` if `to` ignores them.
    pub(super) async fn not_ignored_by(&self, to: &str, from: &str) -> Result<()> {
        if self.store.relation(to, from).await? == Some(Relation::Ignore) {
            return Err(Refusal::Ignored { name: to.to_string() }.into());
        }
        Ok(())
    }

    pub async fn send_message(&self, from: &str, to: &str, body: &str, now: i64) -> Result<MessageRecord> {
        let body = text(body, TextField::Message, MAX_MESSAGE_CHARS)?;
        let recipient = accounts::user(&self.store, to).await?;
        if recipient.name == from {
            return Err(Refusal::Yourself {}.into());
        }
        self.not_ignored_by(&recipient.name, from).await?;
        let mut turn = self.quotas.message_turn(from, now).await?;
        let store = &self.store;
        let m = MessageRecord {
            id: new_id(),
            sender: from.to_string(),
            recipient: recipient.name.clone(),
            body,
            created_ms: now,
            read_ms: None,
        };
        store.insert_message(&mut turn, &m).await?;
        turn.done().await?;
        self.events.notify(&recipient.name, NoticeKind::Message, Some(from), None).await;
        Ok(m)
    }

    /// Deletes a message for `user` alone.
    pub async fn delete_message(&self, user: &str, id: &str) -> Result<()> {
        match self.store.delete_message(user, id).await? {
            Written::Done => Ok(()),
            Written::Stale => Err(Refusal::NoMessage { id: id.to_string() }.into()),
        }
    }

    /// A game's chat after line `after`, at most [`CHAT_PAGE`] lines: anyone
    /// may read it, of a game that exists.
    pub async fn chat_lines(&self, game: &str, after: i64) -> Result<Vec<ChatRecord>> {
        if self.store.game(game).await?.is_none() {
            return Err(Refusal::NoGame { id: game.to_string() }.into());
        }
        Ok(self.store.chat(game, after, CHAT_PAGE).await?)
    }

    /// Line `seq` of a game's chat, if it was written.
    pub async fn chat_line(&self, game: &str, seq: i64) -> Result<Option<ChatRecord>> {
        Ok(self.store.chat(game, seq - 1, 1).await?.into_iter().next())
    }

    /// A line in a game's chat. The two players write; anyone may read.
    pub async fn chat(&self, user: &str, game: &str, body: &str, now: i64) -> Result<ChatRecord> {
        let body = text(body, TextField::ChatLine, MAX_CHAT_CHARS)?;
        let loaded = self.games.load_game(game).await?;
        let me = loaded.color_of(user).ok_or(Refusal::PlayersChatOnly {})?;
        self.not_ignored_by(loaded.player(!me), user).await?;
        let mut turn = self.quotas.chat_turn(user, now).await?;
        // The two players' lines at once take the next numbers in turn.
        for _ in 0..5 {
            let line = ChatRecord {
                game_id: game.to_string(),
                seq: self.store.last_chat_seq(&mut turn, game).await? + 1,
                author: user.to_string(),
                body: body.clone(),
                created_ms: now,
            };
            if self.store.insert_chat(&mut turn, &line).await? == Written::Done {
                turn.done().await?;
                self.events.publish_chat(&line).await;
                return Ok(line);
            }
        }
        Err(Refusal::ChatBusy {}.into())
    }

    /// Keeps `other` as a buddy or ignores them (one or the other).
    pub async fn relate(&self, owner: &str, other: &str, kind: Relation, now: i64) -> Result<UserRecord> {
        let target = accounts::user(&self.store, other).await?;
        if target.name == owner {
            return Err(Refusal::Yourself {}.into());
        }
        if self.store.relation_count(owner, kind).await? >= i64::from(MAX_BUDDIES) {
            return Err(Refusal::ListFull { allowed: MAX_BUDDIES }.into());
        }
        self.store.set_relation(owner, &target.name, kind, now).await?;
        Ok(target)
    }

    pub async fn unrelate(&self, owner: &str, other: &str, kind: Relation) -> Result<()> {
        let target = accounts::user(&self.store, other).await?;
        if !self.store.remove_relation(owner, &target.name, kind).await? {
            return Err(Refusal::NotOnList { name: target.name }.into());
        }
        Ok(())
    }

    /// How many of a user's games wait for their move.
    pub async fn my_turn_count(&self, user: &str) -> Result<i64> {
        Ok(self.store.my_turn_count(user).await?)
    }

    /// Whether `user` has been seen lately.
    pub fn is_here(user: &UserRecord, now: i64) -> bool {
        user.seen_ms > now - HERE_MS
    }
}

/// Invitation links, and the welcome of those who come through one.
pub struct Invitations {
    store: Store,
    lobby: Arc<Lobby>,
}

impl Invitations {
    pub fn new(store: Store, lobby: Arc<Lobby>) -> Self {
        Invitations { store, lobby }
    }

    pub async fn invitations_of(&self, inviter: &str, page: &Page) -> Result<Paged<InvitationRecord>> {
        Ok(self.store.invitations_of(inviter, page).await?)
    }

    /// An invitation link's code, optionally with a challenge for whoever comes.
    pub async fn invite(
        &self,
        inviter: &str,
        game: Option<InvitedGame>,
        now: i64,
    ) -> Result<InvitationRecord> {
        if let Some(g) = game {
            g.clock.check()?;
        }
        if self.store.invitation_count(inviter).await? >= MAX_INVITATIONS {
            return Err(Refusal::Invitations { allowed: MAX_INVITATIONS as u32 }.into());
        }
        let row =
            InvitationRecord { code: new_id(), inviter: inviter.to_string(), game, created_ms: now, uses: 0 };
        self.store.insert_invitation(&row).await?;
        Ok(row)
    }

    /// A new user who came through an invitation: the inviter becomes their
    /// buddy, and the inviter's challenge (if any) waits for them.
    pub async fn welcome(&self, user: &str, invitation: &InvitationRecord, now: i64) -> Result<()> {
        self.store.set_relation(user, &invitation.inviter, Relation::Buddy, now).await?;
        self.store.count_invitation_use(&invitation.code).await?;
        if let Some(g) = invitation.game {
            let terms = Terms {
                opponent: Some(user.to_string()),
                variant: xiangqi::Variant::Standard,
                rules: g.rules,
                color: g.color,
                clock: g.clock,
                rematch_of: None,
                rated: true,
                ladder: None,
            };
            self.lobby.create_challenge(&invitation.inviter, terms, false, now).await?;
        }
        Ok(())
    }

    /// The invitation behind a code, or a clear refusal.
    pub async fn invitation(&self, code: &str) -> Result<InvitationRecord> {
        self.store
            .invitation(code)
            .await?
            .ok_or_else(|| Refusal::NoInvitation { code: code.to_string() }.into())
    }
}
