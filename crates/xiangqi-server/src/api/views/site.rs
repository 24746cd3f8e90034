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

impl From<&crate::model::news::NewsRecord> for NewsItem {
    fn from(n: &crate::model::news::NewsRecord) -> Self {
        NewsItem {
            id: n.id.clone(),
            title: n.title.clone(),
            body: n.body.clone(),
            author: n.author.clone(),
            posted: n.created_ms,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct NewsAnswer {
    pub news: NewsItem,
}

#[derive(Serialize, ToSchema)]
pub struct PreferencesAnswer {
    pub preferences: crate::model::preferences::Preferences,
}

super::page::listings! {
    /// News, newest first.
    NewsPage = News of NewsItem as "news": "News, newest first.";
    /// Games being played, the most recently moved first.
    LiveGames = Live of GameSummary as "games": "Games being played, the most recently moved first.";
}
