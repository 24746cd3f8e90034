//! News, preferences and the live games a visitor can watch.

use super::*;

/// A piece of site news. Title and body are text as written: show them as text.
#[derive(Serialize, ToSchema)]
pub struct NewsItem {
    pub id: String,
    pub title: String,
    pub body: String,
    pub author: String,
    pub posted: i64,
}

impl From<&crate::store::NewsRow> for NewsItem {
    fn from(n: &crate::store::NewsRow) -> Self {
        NewsItem {
            id: n.id.clone(),
            title: n.title.clone(),
            body: n.body.clone(),
            author: n.author.clone(),
            posted: n.created_ms,
        }
    }
}

/// News, newest first.
#[derive(Serialize, ToSchema)]
pub struct NewsPage {
    pub news: Vec<NewsItem>,
    pub next: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct NewsAnswer {
    pub news: NewsItem,
}

#[derive(Serialize, ToSchema)]
pub struct PreferencesAnswer {
    pub preferences: crate::domain::preferences::Preferences,
}

/// Games being played, the most recently moved first.
#[derive(Serialize, ToSchema)]
pub struct LiveGames {
    pub games: Vec<GameSummary>,
    /// The `after` of the next page; null on the last.
    pub next: Option<String>,
}
