//! Users as others see them, a session, profiles and the lists of users.

use super::*;
use crate::model::accounts::UserRecord;
use crate::model::games::RuleSetRecord;

/// Finished games won, lost and drawn.
#[derive(Serialize, ToSchema)]
pub struct RecordView {
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

/// A player as everyone may see them.
#[derive(Serialize, ToSchema)]
pub struct UserView {
    pub name: String,
    /// As the user typed it; show it as text.
    pub bio: String,
    /// When the account was made.
    pub joined: i64,
    /// The rating of the category the user shows (`shown_category`), rounded.
    pub rating: i64,
    pub shown_category: Category,
    pub record: RecordView,
    /// When the user was last seen on the site (to the minute).
    pub seen: i64,
    pub location: String,
    /// Languages the user reads.
    pub languages: Vec<String>,
    /// The rule set the user prefers to play, if they said.
    #[serde(with = "wire::optional")]
    #[schema(schema_with = wire::nullable::<RuleSet>)]
    pub preferred_rules: Option<RuleSet>,
    /// The time control the user prefers, if they said.
    pub preferred_clock: Option<ClockSpec>,
    /// An administrator of the site (writes news).
    pub admin: bool,
    /// The level this player plays at, when the player is the computer.
    pub computer: Option<u8>,
}

impl From<&UserRecord> for UserView {
    fn from(u: &UserRecord) -> Self {
        UserView {
            name: u.name.clone(),
            bio: u.bio.clone(),
            joined: u.created_ms,
            rating: u.rating,
            shown_category: u.shown_category,
            record: RecordView { wins: u.wins, losses: u.losses, draws: u.draws },
            seen: u.seen_ms,
            location: u.location.clone(),
            languages: u.languages.clone(),
            preferred_rules: u.preferred_rules,
            preferred_clock: u.preferred_clock,
            admin: u.admin,
            computer: u.computer,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct UserAnswer {
    pub user: UserView,
}

/// A new session: the user, and the token a client without cookies sends as
/// `Authorization: Bearer <token>`.
#[derive(Serialize, ToSchema)]
pub struct SessionAnswer {
    pub user: UserView,
    pub token: String,
}

/// Who of a page of players is here now.
#[derive(Serialize, ToSchema)]
pub struct SeenLately {
    /// Which of this page's players were seen in the last 5 minutes (who is
    /// here, all of them, is `GET /users/online`).
    pub online: Vec<String>,
}

super::page::listings! {
    /// A page of players by name, and who is here now.
    UsersPage = Users of UserView as "users" with SeenLately,
        next "Pass as `after` for the next page; null on the last.": "A page of players by name, and who is here now.";
}

/// A profile page: the user, their results per rule set, their latest games,
/// and how the one asking regards them.
#[derive(Serialize, ToSchema)]
pub struct ProfileAnswer {
    pub user: UserView,
    /// Finished games per rule set.
    pub records: Vec<RuleSetRecordView>,
    /// The latest games that are over, newest first (at most 10).
    pub recent: Vec<GameSummary>,
    /// How many users this user keeps as buddies.
    pub buddies: i64,
    /// The user's rating in each category they have played rated games in.
    pub ratings: Vec<RatingView>,
    /// Whether the user has been seen in the last 5 minutes.
    pub online: bool,
    /// How the logged-in user regards this one: on their buddy list, ignored, or
    /// neither (null; always null for visitors).
    pub relation: Option<Relation>,
}

#[derive(Serialize, ToSchema)]
pub struct RuleSetRecordView {
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

impl From<&RuleSetRecord> for RuleSetRecordView {
    fn from(r: &RuleSetRecord) -> Self {
        RuleSetRecordView { rules: r.rules, wins: r.wins, losses: r.losses, draws: r.draws }
    }
}
