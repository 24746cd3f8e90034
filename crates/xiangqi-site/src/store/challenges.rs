//! Challenges: to a named player, open in the waiting room, or waiting in the
//! auto-match queue.

use sqlx::any::AnyRow;
use xiangqi::RuleSet;

use super::{
    Counting, FromRow, Keyset, Page, Paged, Store, Written,
    games::{clock, insert_game},
    get, named, optional_named,
};
use crate::model::challenges::ChallengeRecord;
use crate::model::games::GameRecord;
use crate::model::{Named, clock::ClockSpec};

impl FromRow for ChallengeRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(ChallengeRecord {
            id: get(r, "id")?,
            creator: get(r, "creator")?,
            opponent: get(r, "opponent")?,
            rules: named(r, "rules")?,
            color: named(r, "color")?,
            clock: clock(r)?,
            auto: get::<i64>(r, "auto")? != 0,
            status: named(r, "status")?,
            game_id: get(r, "game_id")?,
            rematch_of: get(r, "rematch_of")?,
            rated: get::<i64>(r, "rated")? != 0,
            ladder: optional_named(r, "ladder")?,
            expires_ms: get(r, "expires_ms")?,
            created_ms: get(r, "created_ms")?,
        })
    }
}

/// Which challenges of a user's lobby to list.
#[derive(Clone, Copy, Debug)]
pub enum Lobby {
    /// Others' open challenges to anyone: the waiting room.
    Room,
    /// Open challenges naming the user.
    Incoming,
    /// The user's own open challenges (auto-match requests included).
    Outgoing,
}

/// A challenge's key in the waiting room's order (oldest first).
pub(super) fn room_key(c: &ChallengeRecord) -> String {
    format!("{:015}.{}", c.created_ms, c.id)
}

impl Store {
    /// Writes a challenge, counted in its creator's turn.
    pub async fn insert_challenge(&self, on: &mut Counting, c: &ChallengeRecord) -> Result<(), sqlx::Error> {
        let (kind, hours, base, increment) = c.clock.columns();
        let q = sqlx::query(
            "INSERT INTO challenges (id, creator, opponent, rules, color, clock_kind, hours, base_ms, increment_ms, \
             auto, status, game_id, rematch_of, created_ms, rated, ladder, expires_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
        )
        .bind(&c.id)
        .bind(&c.creator)
        .bind(&c.opponent)
        .bind(c.rules.name())
        .bind(c.color.name())
        .bind(kind)
        .bind(hours)
        .bind(base)
        .bind(increment)
        .bind(i64::from(c.auto))
        .bind(c.status.name())
        .bind(&c.game_id)
        .bind(&c.rematch_of)
        .bind(c.created_ms)
        .bind(i64::from(c.rated))
        .bind(c.ladder.map(Named::name))
        .bind(c.expires_ms);
        q.execute(on.connection()).await?;
        Ok(())
    }

    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRecord>, sqlx::Error> {
        self.one(sqlx::query("SELECT * FROM challenges WHERE id = $1").bind(id)).await
    }

    /// How many open challenges name the user: what waits for their answer.
    pub async fn incoming_count(&self, user: &str) -> Result<i64, sqlx::Error> {
        let q = sqlx::query("SELECT COUNT(*) AS n FROM challenges WHERE opponent = $1 AND status = 'open'")
            .bind(user);
        sqlx::Row::try_get::<i64, _>(&q.fetch_one(&self.pool).await?, "n")
    }

    /// Open challenges in a user's lobby, oldest first.
    pub async fn lobby(
        &self,
        user: &str,
        which: Lobby,
        page: &Page,
    ) -> Result<Paged<ChallengeRecord>, sqlx::Error> {
        let filter = match which {
            Lobby::Room => {
                "opponent IS NULL AND creator <> $1 AND NOT EXISTS (SELECT 1 FROM relations r \
                WHERE r.kind = 'ignore' AND ((r.owner = $1 AND r.other = creator) OR (r.owner = creator AND r.other = $1)))"
            }
            Lobby::Incoming => "opponent = $1",
            Lobby::Outgoing => "creator = $1",
        };
        let (after_ms, after_id) = page.since();
        let sql = format!(
            "SELECT * FROM challenges WHERE status = 'open' AND {filter} \
             AND (created_ms > $2 OR (created_ms = $2 AND id > $3)) ORDER BY created_ms, id LIMIT $4"
        );
        let rows =
            self.all(sqlx::query(&sql).bind(user).bind(after_ms).bind(after_id).bind(page.probe())).await?;
        Ok(page.cut(rows, room_key))
    }

    /// The oldest open auto-match request with these settings: someone else's to
    /// pair with (`mine` false), or the user's own already waiting (`mine` true).
    pub async fn auto_request(
        &self,
        user: &str,
        rules: RuleSet,
        clock: ClockSpec,
        rated: bool,
        mine: bool,
    ) -> Result<Option<ChallengeRecord>, sqlx::Error> {
        // Never pair two users when either ignores the other.
        let who = if mine {
            "creator = $1"
        } else {
            "creator <> $1 AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.kind = 'ignore' \
             AND ((r.owner = $1 AND r.other = creator) OR (r.owner = creator AND r.other = $1)))"
        };
        let sql = format!(
            "SELECT * FROM challenges WHERE status = 'open' AND auto = 1 AND {who} AND rules = $2 \
             AND clock_kind = $3 AND hours = $4 AND base_ms = $5 AND increment_ms = $6 AND rated = $7 \
             ORDER BY created_ms LIMIT 1"
        );
        let (kind, hours, base, increment) = clock.columns();
        let q = sqlx::query(&sql)
            .bind(user)
            .bind(rules.name())
            .bind(kind)
            .bind(hours)
            .bind(base)
            .bind(increment)
            .bind(i64::from(rated));
        self.one(q).await
    }

    /// An open challenge from `creator` to the same opponent (or the room) on the same terms.
    /// An open challenge of the same creator with the same terms, read in the
    /// creator's turn (so that two sent at once cannot both find none).
    pub async fn same_challenge(
        &self,
        on: &mut Counting,
        c: &ChallengeRecord,
    ) -> Result<Option<ChallengeRecord>, sqlx::Error> {
        let (kind, hours, base, increment) = c.clock.columns();
        let q = sqlx::query(
            "SELECT * FROM challenges WHERE status = 'open' AND auto = 0 AND creator = $1 \
             AND COALESCE(opponent, '') = $2 AND rules = $3 AND color = $4 AND clock_kind = $5 AND hours = $6 \
             AND base_ms = $7 AND increment_ms = $8 LIMIT 1",
        )
        .bind(&c.creator)
        .bind(c.opponent.clone().unwrap_or_default())
        .bind(c.rules.name())
        .bind(c.color.name())
        .bind(kind)
        .bind(hours)
        .bind(base)
        .bind(increment);
        q.fetch_optional(on.connection()).await?.map(|r| ChallengeRecord::from_row(&r)).transpose()
    }

    /// The open rematch challenge of a game from `creator`, if any.
    pub async fn rematch_from(
        &self,
        game: &str,
        creator: &str,
    ) -> Result<Option<ChallengeRecord>, sqlx::Error> {
        let q = sqlx::query(
            "SELECT * FROM challenges WHERE rematch_of = $1 AND creator = $2 AND status = 'open'",
        )
        .bind(game)
        .bind(creator);
        self.one(q).await
    }

    /// Closes an open challenge (cancelled); stale if it was no longer open.
    pub async fn close_challenge(&self, id: &str) -> Result<Written, sqlx::Error> {
        let q = sqlx::query("UPDATE challenges SET status = 'cancelled' WHERE id = $1 AND status = 'open'")
            .bind(id);
        Ok(Written::from_count(self.run(q).await?))
    }

    /// Takes an open challenge and starts its game, in one transaction: of two
    /// accepting at once, one gets the game and the other a stale answer.
    pub async fn accept_challenge(&self, id: &str, game: &GameRecord) -> Result<Written, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let r = sqlx::query(
            "UPDATE challenges SET status = 'accepted', game_id = $1 WHERE id = $2 AND status = 'open'",
        )
        .bind(&game.id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(Written::Stale);
        }
        insert_game(&mut tx, game).await?;
        tx.commit().await?;
        Ok(Written::Done)
    }
}
