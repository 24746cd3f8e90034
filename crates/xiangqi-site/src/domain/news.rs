//! The site's news: administrators write it; everyone reads it, newest first.

use super::{
    accounts::{self, new_id},
    refusal::{Refusal, Result, TextField},
};
use crate::model::news::NewsRecord;
use crate::model::page::{Page, Paged};
use crate::store::{Store, Written};

/// The site's news.
pub struct News {
    store: Store,
}

impl News {
    pub fn new(store: Store) -> Self {
        News { store }
    }

    pub async fn news(&self, page: &Page) -> Result<Paged<NewsRecord>> {
        Ok(self.store.news(page).await?)
    }

    pub async fn post_news(&self, author: &str, title: &str, body: &str, now: i64) -> Result<NewsRecord> {
        accounts::admin(&self.store, author).await?;
        let (title, body) = (title.trim(), body.trim());
        if title.is_empty() || title.chars().count() > 200 {
            return Err(Refusal::TextLength { field: TextField::Title, min: 1, max: 200 }.into());
        }
        if body.is_empty() || body.chars().count() > 10_000 {
            return Err(Refusal::TextLength { field: TextField::News, min: 1, max: 10_000 }.into());
        }
        let row = NewsRecord {
            id: new_id(),
            author: author.to_string(),
            title: title.to_string(),
            body: body.to_string(),
            created_ms: now,
        };
        self.store.insert_news(&row).await?;
        Ok(row)
    }

    pub async fn delete_news(&self, user: &str, id: &str) -> Result<()> {
        accounts::admin(&self.store, user).await?;
        match self.store.delete_news(id).await? {
            Written::Done => Ok(()),
            Written::Stale => Err(Refusal::NoNews { id: id.to_string() }.into()),
        }
    }
}
