//! What the HTTP layer may read (and the few plain writes it may make) without
//! a rule of the site's own beyond what the store keeps: each is named here, so
//! that handlers go through the services alone and the store stays theirs.
//! Anything with a rule (who may see, who may write) is a service of its own
//! in its concept's module.

use super::{Services, refusal::Result};

use crate::model::accounts::{UserRecord, UserSearch};
use crate::model::challenges::ChallengeRecord;
use crate::model::news::NewsRecord;
use crate::model::page::{Page, Paged};
use crate::model::people::{Conversation, InvitationRecord, Mailbox, MessageRecord};
use crate::model::ratings::RatingRecord;
use crate::model::tournaments::TournamentRecord;
use crate::model::{
    preferences::Preferences,
    ratings::Category,
    {Relation, TournamentStatus},
};
use crate::store::{Held, HistoryPoint};

/// Services that pass a store call through as it is.
macro_rules! pass_through {
    ($($(#[$doc:meta])* fn $name:ident(&self $(, $arg:ident: $ty:ty)*) -> $ret:ty;)+) => {
        impl Services {
            $(
                $(#[$doc])*
                pub async fn $name(&self $(, $arg: $ty)*) -> Result<$ret> {
                    Ok(self.store.$name($($arg),*).await?)
                }
            )+
        }
    };
}

pass_through! {
    /// The user a live session belongs to.
    fn session_user(&self, token_hash: &str, now: i64) -> Option<String>;
    /// Ends a session (logging out).
    fn delete_session(&self, token_hash: &str) -> ();
    /// Marks a user as seen now.
    fn touch(&self, name: &str, now: i64) -> ();
    /// Whether the database answers.
    fn ping(&self) -> ();
    /// A lock held by one instance at a time, if free now.
    fn try_lock(&self, name: &str) -> Option<Held>;
    fn leaders(&self, category: Category, page: &Page) -> Paged<RatingRecord>;
    fn set_rating_settings(&self, user: &str, shown: Category, rated: bool) -> ();
    fn set_preferences(&self, name: &str, p: &Preferences) -> ();
    fn users(&self, page: &Page) -> Paged<UserRecord>;
    fn search_users(&self, s: &UserSearch, page: &Page) -> Paged<UserRecord>;
    fn related_users(&self, owner: &str, kind: Relation, page: &Page) -> Paged<UserRecord>;
    fn open_ladder_challenges(&self, category: Category, page: &Page) -> Paged<ChallengeRecord>;
    fn news(&self, page: &Page) -> Paged<NewsRecord>;
    fn mailbox(&self, user: &str, which: Mailbox, page: &Page) -> Paged<MessageRecord>;
    fn conversations(&self, user: &str, page: &Page) -> Paged<Conversation>;
    fn invitations_of(&self, inviter: &str, page: &Page) -> Paged<InvitationRecord>;
    fn tournaments(&self, statuses: &[TournamentStatus], page: &Page) -> Paged<TournamentRecord>;
}

impl Services {
    /// A player's rating history in a category, by the player's name in any case.
    pub async fn rating_history(&self, name: &str, category: Category) -> Result<Vec<HistoryPoint>> {
        let user = self.user(name).await?;
        Ok(self.store.rating_history(&user.name, category).await?)
    }

    /// Sessions ended on another instance (by their notice) are forgotten here.
    pub fn sessions_ended_elsewhere(&self, payload: &str) {
        self.store.sessions_ended_elsewhere(payload);
    }

    /// Every session read is forgotten (the notices from other instances may
    /// have been missed).
    pub fn forget_sessions(&self) {
        self.store.forget_sessions();
    }

    /// The server's gauges for the metrics page.
    pub async fn metrics(&self, websockets: usize) -> Option<String> {
        crate::telemetry::render(&self.store, websockets).await
    }
}
