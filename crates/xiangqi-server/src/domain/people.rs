//! The site's people: profiles, private messages, the chat beside each game,
//! buddy and ignore lists, who is here, profile search, and invitations.
//!
//! An ignored user cannot message the one who ignores them, challenge them,
//! be paired with them, or chat in their games; they are told so in neutral
//! words, and nothing they tried to send is kept.

use super::{
    Services,
    accounts::new_id,
    lobby::Terms,
    model::{NoticeKind, Relation},
    refusal::{Refusal, Result, TextField},
};
use crate::store::{ChatRow, InvitationRow, InvitedGame, MessageRow, ProfileFields, UserRow, Written};

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
    pub user: UserRow,
    pub recent: Vec<super::glance::Glance>,
    pub relation: Option<Relation>,
    pub records: Vec<crate::store::RuleSetRecord>,
    pub buddies: i64,
    pub ratings: Vec<crate::store::RatingRow>,
}

impl Services {
    /// A player's profile for `viewer` (a visitor: none); its parts are read
    /// side by side.
    pub async fn profile(&self, viewer: Option<&str>, name: &str) -> Result<Profile> {
        let user = self.user(name).await?;
        let store = &self.store;
        let recent = async {
            let finished = store.finished_games_of(&user.name, &crate::store::Page::first(10)).await?.items;
            self.glances(finished).await
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

    pub async fn set_profile(&self, name: &str, p: &ProfileFields) -> Result<UserRow> {
        check_profile(p)?;
        self.store.set_profile(name, p).await?;
        self.user(name).await
    }

    /// Refuses what `from` tries to do to `to` if `to` ignores them.
    async fn not_ignored_by(&self, to: &str, from: &str) -> Result<()> {
        if self.store.relation(to, from).await? == Some(Relation::Ignore) {
            return Err(Refusal::Ignored { name: to.to_string() }.into());
        }
        Ok(())
    }

    pub async fn send_message(&self, from: &str, to: &str, body: &str, now: i64) -> Result<MessageRow> {
        let body = text(body, TextField::Message, MAX_MESSAGE_CHARS)?;
        let recipient = self.user(to).await?;
        if recipient.name == from {
            return Err(Refusal::Yourself {}.into());
        }
        self.not_ignored_by(&recipient.name, from).await?;
        let mut turn = self.message_turn(from, now).await?;
        let store = &self.store;
        let m = MessageRow {
            id: new_id(),
            sender: from.to_string(),
            recipient: recipient.name.clone(),
            body,
            created_ms: now,
            read_ms: None,
        };
        store.insert_message(&mut turn, &m).await?;
        turn.done().await?;
        self.notify(&recipient.name, NoticeKind::Message, Some(from), None).await;
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
    pub async fn chat_lines(&self, game: &str, after: i64) -> Result<Vec<ChatRow>> {
        if self.store.game(game).await?.is_none() {
            return Err(Refusal::NoGame { id: game.to_string() }.into());
        }
        Ok(self.store.chat(game, after, CHAT_PAGE).await?)
    }

    /// Line `seq` of a game's chat, if it was written.
    pub async fn chat_line(&self, game: &str, seq: i64) -> Result<Option<ChatRow>> {
        Ok(self.store.chat(game, seq - 1, 1).await?.into_iter().next())
    }

    /// A line in a game's chat. The two players write; anyone may read.
    pub async fn chat(&self, user: &str, game: &str, body: &str, now: i64) -> Result<ChatRow> {
        let body = text(body, TextField::ChatLine, MAX_CHAT_CHARS)?;
        let loaded = self.load_game(game).await?;
        let me = loaded.color_of(user).ok_or(Refusal::PlayersChatOnly {})?;
        self.not_ignored_by(loaded.player(!me), user).await?;
        let mut turn = self.chat_turn(user, now).await?;
        // The two players' lines at once take the next numbers in turn.
        for _ in 0..5 {
            let line = ChatRow {
                game_id: game.to_string(),
                seq: self.store.last_chat_seq(&mut turn, game).await? + 1,
                author: user.to_string(),
                body: body.clone(),
                created_ms: now,
            };
            if self.store.insert_chat(&mut turn, &line).await? == Written::Done {
                turn.done().await?;
                self.publish_chat(&line).await;
                return Ok(line);
            }
        }
        Err(Refusal::ChatBusy {}.into())
    }

    /// Keeps `other` as a buddy or ignores them (one or the other).
    pub async fn relate(&self, owner: &str, other: &str, kind: Relation, now: i64) -> Result<UserRow> {
        let target = self.user(other).await?;
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
        let target = self.user(other).await?;
        if !self.store.remove_relation(owner, &target.name, kind).await? {
            return Err(Refusal::NotOnList { name: target.name }.into());
        }
        Ok(())
    }

    /// An invitation link's code, optionally with a challenge for whoever comes.
    pub async fn invite(&self, inviter: &str, game: Option<InvitedGame>, now: i64) -> Result<InvitationRow> {
        if let Some(g) = game {
            g.clock.check()?;
        }
        if self.store.invitation_count(inviter).await? >= MAX_INVITATIONS {
            return Err(Refusal::Invitations { allowed: MAX_INVITATIONS as u32 }.into());
        }
        let row =
            InvitationRow { code: new_id(), inviter: inviter.to_string(), game, created_ms: now, uses: 0 };
        self.store.insert_invitation(&row).await?;
        Ok(row)
    }

    /// A new user who came through an invitation: the inviter becomes their
    /// buddy, and the inviter's challenge (if any) waits for them.
    pub async fn welcome(&self, user: &str, invitation: &InvitationRow, now: i64) -> Result<()> {
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
            self.create_challenge(&invitation.inviter, terms, false, now).await?;
        }
        Ok(())
    }

    /// The invitation behind a code, or a clear refusal.
    pub async fn invitation(&self, code: &str) -> Result<InvitationRow> {
        self.store
            .invitation(code)
            .await?
            .ok_or_else(|| Refusal::NoInvitation { code: code.to_string() }.into())
    }

    /// How many of a user's games wait for their move.
    pub async fn my_turn_count(&self, user: &str) -> Result<i64> {
        Ok(self.store.my_turn_count(user).await?)
    }

    /// Whether `user` has been seen lately.
    pub fn is_here(user: &UserRow, now: i64) -> bool {
        user.seen_ms > now - HERE_MS
    }
}
