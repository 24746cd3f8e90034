//! Game reviews: the claim on computing one, and its evaluated positions.

use sqlx::any::AnyRow;

use super::{FromRow, Store, Written, get, named, unique_violation};
use crate::model::eval::Eval;
use crate::model::reviews::{ReviewPositionRecord, ReviewRecord};

impl FromRow for ReviewRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(ReviewRecord {
            game_id: get(r, "game_id")?,
            status: named(r, "status")?,
            requested_by: get(r, "requested_by")?,
            claimed_by: get(r, "claimed_by")?,
            claimed_ms: get(r, "claimed_ms")?,
            total: get(r, "total")?,
            nodes: get(r, "nodes")?,
            created_ms: get(r, "created_ms")?,
            done_ms: get(r, "done_ms")?,
        })
    }
}

impl FromRow for ReviewPositionRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        let kind: String = get(r, "score_kind")?;
        Ok(ReviewPositionRecord {
            ply: get(r, "ply")?,
            eval: Eval::from_columns(&kind, get(r, "score")?)
                .map_err(|why| super::corrupt("score_kind", why))?,
            best: get(r, "best")?,
            depth: get(r, "depth")?,
            played: match (get::<Option<String>>(r, "played_kind")?, get::<Option<i64>>(r, "played_score")?) {
                (Some(kind), Some(score)) => {
                    Some(Eval::from_columns(&kind, score).map_err(|why| super::corrupt("played_kind", why))?)
                }
                _ => None,
            },
        })
    }
}

/// What asking for a review found.
#[derive(Debug, PartialEq, Eq)]
pub enum Claim {
    /// There was none: the asker computes it.
    New,
    /// One was pending under a claim quiet since before the staleness limit:
    /// the asker takes it over (and resumes it).
    TakenOver,
    /// One is pending under a live claim, or done: nothing to do.
    Exists,
}

/// A claim being made.
pub struct ClaimRequest<'a> {
    pub game_id: &'a str,
    pub user: &'a str,
    pub token: &'a str,
    pub total: i64,
    pub nodes: i64,
    pub now: i64,
    /// Claims last heard of before this are stale.
    pub stale_before: i64,
}

impl Store {
    pub async fn review(&self, game_id: &str) -> Result<Option<ReviewRecord>, sqlx::Error> {
        self.one(sqlx::query("SELECT * FROM reviews WHERE game_id = $1").bind(game_id)).await
    }

    /// The evaluated positions of a review, in order.
    pub async fn review_positions(&self, game_id: &str) -> Result<Vec<ReviewPositionRecord>, sqlx::Error> {
        self.all(sqlx::query("SELECT * FROM review_positions WHERE game_id = $1 ORDER BY ply").bind(game_id))
            .await
    }

    /// Claims the work of a review: exactly one of any number of concurrent
    /// askers (on any instance) gets [`Claim::New`] or [`Claim::TakenOver`].
    pub async fn claim_review(&self, c: &ClaimRequest<'_>) -> Result<Claim, sqlx::Error> {
        let inserted = self
            .run(
                sqlx::query(
                    "INSERT INTO reviews (game_id, status, requested_by, claimed_by, claimed_ms, total, nodes, created_ms) \
                     VALUES ($1, 'pending', $2, $3, $4, $5, $6, $4)",
                )
                .bind(c.game_id)
                .bind(c.user)
                .bind(c.token)
                .bind(c.now)
                .bind(c.total)
                .bind(c.nodes),
            )
            .await;
        match inserted {
            Ok(_) => return Ok(Claim::New),
            Err(e) if unique_violation(&e) => {}
            Err(e) => return Err(e),
        }
        let taken = self
            .run(
                sqlx::query(
                    "UPDATE reviews SET claimed_by = $2, claimed_ms = $3 \
                     WHERE game_id = $1 AND status = 'pending' AND claimed_ms < $4",
                )
                .bind(c.game_id)
                .bind(c.token)
                .bind(c.now)
                .bind(c.stale_before),
            )
            .await?;
        Ok(if taken == 1 { Claim::TakenOver } else { Claim::Exists })
    }

    /// Stores one evaluated position and renews the claim; [`Written::Stale`]
    /// (and nothing stored) if the claim was taken over meanwhile.
    pub async fn save_review_position(
        &self,
        game_id: &str,
        token: &str,
        p: &ReviewPositionRecord,
        now: i64,
    ) -> Result<Written, sqlx::Error> {
        let renewed = self
            .run(
                sqlx::query("UPDATE reviews SET claimed_ms = $3 WHERE game_id = $1 AND claimed_by = $2")
                    .bind(game_id)
                    .bind(token)
                    .bind(now),
            )
            .await?;
        if renewed != 1 {
            return Ok(Written::Stale);
        }
        let (kind, score) = p.eval.to_columns();
        let played = p.played.map(Eval::to_columns);
        self.run(
            sqlx::query(
                "INSERT INTO review_positions (game_id, ply, score_kind, score, best, depth, played_kind, played_score) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (game_id, ply) DO NOTHING",
            )
            .bind(game_id)
            .bind(p.ply)
            .bind(kind)
            .bind(score)
            .bind(p.best.clone())
            .bind(p.depth)
            .bind(played.map(|(k, _)| k))
            .bind(played.map(|(_, s)| s)),
        )
        .await?;
        Ok(Written::Done)
    }

    /// Marks a review done, if this claim still holds it.
    pub async fn finish_review(&self, game_id: &str, token: &str, now: i64) -> Result<Written, sqlx::Error> {
        let q = sqlx::query(
            "UPDATE reviews SET status = 'done', done_ms = $3, claimed_ms = $3 \
             WHERE game_id = $1 AND claimed_by = $2 AND status = 'pending'",
        )
        .bind(game_id)
        .bind(token)
        .bind(now);
        Ok(Written::from_count(self.run(q).await?))
    }
}
