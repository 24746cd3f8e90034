//! Ladders: positions per category, the moves a result makes, and their log.

use sqlx::{Row, any::AnyRow};

use super::{FromRow, Keyset, Store, Written, get, named, unique_violation};
use crate::model::challenges::ChallengeRecord;
use crate::model::page::{Page, Paged};
use crate::model::{Named, ratings::Category};

/// A player's place on a ladder (1 is the top).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RungRow {
    pub category: Category,
    pub user: String,
    pub position: i64,
    pub joined_ms: i64,
}

impl FromRow for RungRow {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(RungRow {
            category: named(r, "category")?,
            user: get(r, "user_name")?,
            position: get(r, "position")?,
            joined_ms: get(r, "joined_ms")?,
        })
    }
}

/// What happened between a challenger and a defender.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderResultRow {
    pub challenger: String,
    pub defender: String,
    pub challenger_won: bool,
    /// The game it was decided by; none when the defender let the challenge lapse.
    pub game: Option<String>,
    pub at_ms: i64,
}

impl FromRow for LadderResultRow {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(LadderResultRow {
            challenger: get(r, "challenger")?,
            defender: get(r, "defender")?,
            challenger_won: get::<i64>(r, "challenger_won")? != 0,
            game: get(r, "game_id")?,
            at_ms: get(r, "at_ms")?,
        })
    }
}

type Tx<'a> = sqlx::Transaction<'a, sqlx::Any>;

async fn position(tx: &mut Tx<'_>, category: Category, user: &str) -> Result<Option<i64>, sqlx::Error> {
    let row = sqlx::query("SELECT position FROM ladder_rungs WHERE category = $1 AND user_name = $2")
        .bind(category.name())
        .bind(user)
        .fetch_optional(&mut **tx)
        .await?;
    row.map(|r| r.try_get("position")).transpose()
}

impl Store {
    /// Puts a user at the bottom of a ladder; their position, or `None` if they
    /// were on it already. Two joining at once take the next places in turn.
    pub async fn join_ladder(
        &self,
        category: Category,
        user: &str,
        now: i64,
    ) -> Result<Option<i64>, sqlx::Error> {
        for _ in 0..5 {
            let mut tx = self.pool.begin().await?;
            if position(&mut tx, category, user).await?.is_some() {
                return Ok(None);
            }
            let row = sqlx::query("SELECT MAX(position) AS last FROM ladder_rungs WHERE category = $1")
                .bind(category.name())
                .fetch_one(&mut *tx)
                .await?;
            let next = row.try_get::<Option<i64>, _>("last")?.unwrap_or(0) + 1;
            let inserted = sqlx::query(
                "INSERT INTO ladder_rungs (category, user_name, position, joined_ms) VALUES ($1, $2, $3, $4)",
            )
            .bind(category.name())
            .bind(user)
            .bind(next)
            .bind(now)
            .execute(&mut *tx)
            .await;
            match inserted {
                Ok(_) => {
                    tx.commit().await?;
                    return Ok(Some(next));
                }
                Err(e) if unique_violation(&e) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(sqlx::Error::Protocol("the ladder is busy; try again".into()))
    }

    /// A user's position on a ladder.
    pub async fn ladder_position(&self, category: Category, user: &str) -> Result<Option<i64>, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let p = position(&mut tx, category, user).await?;
        tx.commit().await?;
        Ok(p)
    }

    /// A ladder from the top, a page at a time (the key is the position).
    pub async fn ladder(&self, category: Category, page: &Page) -> Result<Paged<RungRow>, sqlx::Error> {
        let after: i64 = page.after.as_deref().and_then(|a| a.parse().ok()).unwrap_or(0);
        let q = sqlx::query(
            "SELECT * FROM ladder_rungs WHERE category = $1 AND position > $2 ORDER BY position LIMIT $3",
        )
        .bind(category.name())
        .bind(after)
        .bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, |r: &RungRow| r.position.to_string()))
    }

    /// Open ladder challenges of a ladder, oldest first, a page at a time (the
    /// waiting room's key).
    pub async fn open_ladder_challenges(
        &self,
        category: Category,
        page: &Page,
    ) -> Result<Paged<ChallengeRecord>, sqlx::Error> {
        let (after_ms, after_id) = page.since();
        let q = sqlx::query(
            "SELECT * FROM challenges WHERE ladder = $1 AND status = 'open' \
             AND (created_ms > $2 OR (created_ms = $2 AND id > $3)) ORDER BY created_ms, id LIMIT $4",
        )
        .bind(category.name())
        .bind(after_ms)
        .bind(after_id)
        .bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, super::challenges::room_key))
    }

    /// How many open challenges of a ladder a user is in, either side.
    pub async fn open_ladder_challenges_of(
        &self,
        category: Category,
        user: &str,
    ) -> Result<i64, sqlx::Error> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM challenges WHERE status = 'open' AND ladder = $1 AND (creator = $2 OR opponent = $2)",
        )
        .bind(category.name())
        .bind(user)
        .fetch_one(&self.pool)
        .await?;
        row.try_get("n")
    }

    /// Ladder challenges that were not accepted in time, oldest first (at most 100).
    pub async fn lapsed_ladder_challenges(&self, now: i64) -> Result<Vec<ChallengeRecord>, sqlx::Error> {
        let q = sqlx::query(
            "SELECT * FROM challenges WHERE status = 'open' AND ladder IS NOT NULL AND expires_ms < $1 \
             ORDER BY expires_ms LIMIT 100",
        )
        .bind(now);
        self.all(q).await
    }

    /// The latest results of a ladder, newest first (at most `limit`).
    pub async fn ladder_results(
        &self,
        category: Category,
        limit: u32,
    ) -> Result<Vec<LadderResultRow>, sqlx::Error> {
        let q = sqlx::query("SELECT * FROM ladder_results WHERE category = $1 ORDER BY at_ms DESC LIMIT $2")
            .bind(category.name())
            .bind(i64::from(limit));
        self.all(q).await
    }

    /// Records a ladder result and, if the challenger won from below, moves them
    /// into the defender's place and everyone between down one. `lapsed`: the
    /// challenge (by id) must still be open, and is closed here, so that of
    /// several instances exactly one applies it; stale otherwise.
    pub async fn ladder_result(
        &self,
        category: Category,
        result: &LadderResultRow,
        lapsed: Option<&str>,
    ) -> Result<Written, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        if let Some(id) = lapsed {
            let claimed =
                sqlx::query("UPDATE challenges SET status = 'lapsed' WHERE id = $1 AND status = 'open'")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            if claimed.rows_affected() != 1 {
                tx.rollback().await?;
                return Ok(Written::Stale);
            }
        }
        apply_ladder_result(&mut tx, category, result, lapsed.is_some()).await?;
        tx.commit().await?;
        Ok(Written::Done)
    }
}

/// Records a ladder result (`lapsed`: a challenge let lapse, else a game's)
/// and, if the challenger won from below, moves them into the defender's
/// place and everyone between down one.
pub(super) async fn apply_ladder_result(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    category: Category,
    result: &LadderResultRow,
    lapsed: bool,
) -> Result<(), sqlx::Error> {
    let (c, d) =
        (position(tx, category, &result.challenger).await?, position(tx, category, &result.defender).await?);
    if result.challenger_won
        && let (Some(c), Some(d)) = (c, d)
        && c > d
    {
        // Through negative places, so no two players ever share one.
        let cat = category.name();
        sqlx::query(
                "UPDATE ladder_rungs SET position = -(position + 1) WHERE category = $1 AND position >= $2 AND position < $3",
            )
            .bind(cat)
            .bind(d)
            .bind(c)
            .execute(&mut **tx)
            .await?;
        sqlx::query("UPDATE ladder_rungs SET position = $1 WHERE category = $2 AND user_name = $3")
            .bind(d)
            .bind(cat)
            .bind(&result.challenger)
            .execute(&mut **tx)
            .await?;
        sqlx::query("UPDATE ladder_rungs SET position = -position WHERE category = $1 AND position < 0")
            .bind(cat)
            .execute(&mut **tx)
            .await?;
    }
    sqlx::query(
        "INSERT INTO ladder_results (category, challenger, defender, challenger_won, how, game_id, at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(category.name())
    .bind(&result.challenger)
    .bind(&result.defender)
    .bind(i64::from(result.challenger_won))
    .bind(if lapsed { "lapsed" } else { "game" })
    .bind(&result.game)
    .bind(result.at_ms)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
