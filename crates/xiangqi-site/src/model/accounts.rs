//! What the site keeps of an account, and how a profile is edited and users are searched.

use xiangqi::RuleSet;

use super::{clock::ClockSpec, preferences::Preferences, ratings::Category};

#[derive(Clone, Debug)]
pub struct UserRecord {
    pub name: String,
    pub password_hash: String,
    pub bio: String,
    pub rating: i64,
    pub created_ms: i64,
    pub seen_ms: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
    pub location: String,
    /// Languages the user reads, as they listed them.
    pub languages: Vec<String>,
    pub preferred_rules: Option<RuleSet>,
    pub preferred_clock: Option<ClockSpec>,
    pub preferences: Preferences,
    pub admin: bool,
    /// The category whose rating shows next to the name (and in `rating`).
    pub shown_category: Category,
    /// Whether new challenges are rated unless said otherwise.
    pub rated_by_default: bool,
    /// The level a computer opponent plays at; `None` for people.
    pub computer: Option<u8>,
}

/// What a user may say about themselves.
#[derive(Clone, Debug, Default)]
pub struct ProfileFields {
    pub bio: String,
    pub location: String,
    pub languages: Vec<String>,
    pub preferred_rules: Option<RuleSet>,
    pub preferred_clock: Option<ClockSpec>,
}

/// A search of user profiles; every part is optional.
#[derive(Clone, Debug, Default)]
pub struct UserSearch {
    /// Names that start with this (ignoring case).
    pub prefix: Option<String>,
    /// Names that contain this anywhere (ignoring case).
    pub contains: Option<String>,
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    /// Only those seen since this moment.
    pub seen_since: Option<i64>,
}
