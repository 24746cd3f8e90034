//! The site's news: administrators write it; everyone reads it, newest first.

use super::{Services, accounts::new_id};
use crate::{
    error::{ApiError, ApiResult},
    store::{NewsRow, Written},
};

impl Services {
    /// An administrator, or a refusal.
    async fn admin(&self, name: &str) -> ApiResult<()> {
        if self.user(name).await?.admin {
            Ok(())
        } else {
            Err(ApiError::forbidden("only administrators write news"))
        }
    }

    pub async fn post_news(&self, author: &str, title: &str, body: &str, now: i64) -> ApiResult<NewsRow> {
        self.admin(author).await?;
        let (title, body) = (title.trim(), body.trim());
        if title.is_empty() || title.chars().count() > 200 {
            return Err(ApiError::bad_request("a title is 1 to 200 characters"));
        }
        if body.is_empty() || body.chars().count() > 10_000 {
            return Err(ApiError::bad_request("news is 1 to 10,000 characters"));
        }
        let row = NewsRow {
            id: new_id(),
            author: author.to_string(),
            title: title.to_string(),
            body: body.to_string(),
            created_ms: now,
        };
        self.store.insert_news(&row).await?;
        Ok(row)
    }

    pub async fn delete_news(&self, user: &str, id: &str) -> ApiResult<()> {
        self.admin(user).await?;
        match self.store.delete_news(id).await? {
            Written::Done => Ok(()),
            Written::Stale => Err(ApiError::not_found(format!("no news {id:?}"))),
        }
    }
}
