//! Ratings, leaderboards and a rating's history.

use super::*;

/// A Glicko-2 rating in one category.
#[derive(Serialize, ToSchema)]
pub struct RatingView {
    pub category: Category,
    /// Rounded to a whole number.
    pub rating: i64,
    /// The rating deviation, rounded: how uncertain the rating is.
    pub deviation: i64,
    /// The deviation is above 110: too few games to trust the rating.
    pub provisional: bool,
    /// Rated games played in the category.
    pub games: i64,
}

impl From<&crate::model::ratings::RatingRecord> for RatingView {
    fn from(r: &crate::model::ratings::RatingRecord) -> Self {
        RatingView {
            category: r.category,
            rating: r.rating.rating.round() as i64,
            deviation: r.rating.deviation.round() as i64,
            provisional: r.rating.provisional(),
            games: r.rating.games,
        }
    }
}

/// A leaderboard row.
#[derive(Serialize, ToSchema)]
pub struct LeaderView {
    pub name: String,
    pub rating: i64,
    pub deviation: i64,
    pub games: i64,
}

/// Which category a page of leaders is of.
#[derive(Serialize, ToSchema)]
pub struct LeadersOf {
    pub category: Category,
}

super::page::listings! {
    /// The best established ratings of a category, highest first.
    LeadersPage = Leaders of LeaderView as "leaders" with LeadersOf:
        "The best established ratings of a category, highest first.";
}

/// A player's rating after a rated game.
#[derive(Serialize, ToSchema)]
pub struct HistoryPointView {
    pub at: i64,
    pub rating: i64,
    pub deviation: i64,
    pub game: String,
}

/// A player's rating history in a category, oldest first (the latest 500 games).
#[derive(Serialize, ToSchema)]
pub struct HistoryAnswer {
    pub category: Category,
    pub points: Vec<HistoryPointView>,
}
