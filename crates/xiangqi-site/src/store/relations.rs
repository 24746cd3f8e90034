//! Buddy and ignore lists: one relation per ordered pair of users, private to
//! its owner.

use sqlx::{Row, any::AnyRow};

use super::{FromRow, Keyset, Store, get, named};
use crate::model::accounts::UserRecord;
use crate::model::page::{Page, Paged};
use crate::model::{Named, Relation};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelationRow {
    pub owner: String,
    pub other: String,
    pub kind: Relation,
    pub created_ms: i64,
}

impl FromRow for RelationRow {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(RelationRow {
            owner: get(r, "owner")?,
            other: get(r, "other")?,
            kind: named(r, "kind")?,
            created_ms: get(r, "created_ms")?,
        })
    }
}

impl Store {
    /// Sets how `owner` regards `other` (a buddy or ignored), replacing what was.
    pub async fn set_relation(
        &self,
        owner: &str,
        other: &str,
        kind: Relation,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM relations WHERE owner = $1 AND other = $2")
            .bind(owner)
            .bind(other)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO relations (owner, other, kind, created_ms) VALUES ($1, $2, $3, $4)")
            .bind(owner)
            .bind(other)
            .bind(kind.name())
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await
    }

    /// Removes `other` from `owner`'s list of that kind; whether it was there.
    pub async fn remove_relation(
        &self,
        owner: &str,
        other: &str,
        kind: Relation,
    ) -> Result<bool, sqlx::Error> {
        let q = sqlx::query("DELETE FROM relations WHERE owner = $1 AND other = $2 AND kind = $3")
            .bind(owner)
            .bind(other)
            .bind(kind.name());
        Ok(self.run(q).await? == 1)
    }

    /// A user's list of one kind, by name (at most `limit`).
    pub async fn relations(
        &self,
        owner: &str,
        kind: Relation,
        limit: u32,
    ) -> Result<Vec<RelationRow>, sqlx::Error> {
        let q = sqlx::query("SELECT * FROM relations WHERE owner = $1 AND kind = $2 ORDER BY other LIMIT $3")
            .bind(owner)
            .bind(kind.name())
            .bind(i64::from(limit));
        self.all(q).await
    }

    /// The users on a page of `owner`'s list of one kind, by name (the key).
    pub async fn related_users(
        &self,
        owner: &str,
        kind: Relation,
        page: &Page,
    ) -> Result<Paged<UserRecord>, sqlx::Error> {
        let q = sqlx::query(
            "SELECT u.* FROM relations r JOIN users u ON u.name = r.other \
             WHERE r.owner = $1 AND r.kind = $2 AND r.other > $3 ORDER BY r.other LIMIT $4",
        )
        .bind(owner)
        .bind(kind.name())
        .bind(page.after.clone().unwrap_or_default())
        .bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, |u: &UserRecord| u.name.clone()))
    }

    /// How many users are on `owner`'s list of one kind.
    pub async fn relation_count(&self, owner: &str, kind: Relation) -> Result<i64, sqlx::Error> {
        let q = sqlx::query("SELECT COUNT(*) AS n FROM relations WHERE owner = $1 AND kind = $2")
            .bind(owner)
            .bind(kind.name());
        q.fetch_one(&self.pool).await?.try_get("n")
    }

    /// How `owner` regards `other`, if at all.
    pub async fn relation(&self, owner: &str, other: &str) -> Result<Option<Relation>, sqlx::Error> {
        let row = sqlx::query("SELECT kind FROM relations WHERE owner = $1 AND other = $2")
            .bind(owner)
            .bind(other)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            let text: String = r.try_get("kind")?;
            Relation::parse(&text).map_err(|why| super::corrupt("kind", why))
        })
        .transpose()
    }

    /// Whether either of two users ignores the other.
    pub async fn ignoring(&self, a: &str, b: &str) -> Result<bool, sqlx::Error> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM relations WHERE kind = 'ignore' \
             AND ((owner = $1 AND other = $2) OR (owner = $2 AND other = $1))",
        )
        .bind(a)
        .bind(b)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? > 0)
    }

    /// How many keep `user` as a buddy, and how many `user` keeps.
    pub async fn buddy_count(&self, user: &str) -> Result<i64, sqlx::Error> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM relations WHERE owner = $1 AND kind = 'buddy'")
            .bind(user)
            .fetch_one(&self.pool)
            .await?;
        row.try_get("n")
    }
}
