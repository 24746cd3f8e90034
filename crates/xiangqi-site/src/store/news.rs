//! The site's news, written by administrators.

use sqlx::any::AnyRow;

use super::{FromRow, Keyset, Store, Written, get};
use crate::model::news::NewsRecord;
use crate::model::page::{Page, Paged};

impl FromRow for NewsRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(NewsRecord {
            id: get(r, "id")?,
            author: get(r, "author")?,
            title: get(r, "title")?,
            body: get(r, "body")?,
            created_ms: get(r, "created_ms")?,
        })
    }
}

impl Store {
    pub async fn insert_news(&self, n: &NewsRecord) -> Result<(), sqlx::Error> {
        let q =
            sqlx::query("INSERT INTO news (id, author, title, body, created_ms) VALUES ($1, $2, $3, $4, $5)")
                .bind(&n.id)
                .bind(&n.author)
                .bind(&n.title)
                .bind(&n.body)
                .bind(n.created_ms);
        self.run(q).await?;
        Ok(())
    }

    /// News, newest first: the key is `created_ms.id`.
    pub async fn news(&self, page: &Page) -> Result<Paged<NewsRecord>, sqlx::Error> {
        let (ms, id) = page.before();
        let q = sqlx::query(
            "SELECT * FROM news WHERE created_ms < $1 OR (created_ms = $1 AND id < $2) \
             ORDER BY created_ms DESC, id DESC LIMIT $3",
        )
        .bind(ms)
        .bind(id)
        .bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, |n: &NewsRecord| format!("{}.{}", n.created_ms, n.id)))
    }

    pub async fn delete_news(&self, id: &str) -> Result<Written, sqlx::Error> {
        Ok(Written::from_count(self.run(sqlx::query("DELETE FROM news WHERE id = $1").bind(id)).await?))
    }
}
