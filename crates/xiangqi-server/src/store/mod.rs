//! The only SQL in the server: sqlx over SQLite (the default, one file) or
//! PostgreSQL (for several server instances on one database), with one set of
//! portable migrations. Placeholders are `$n`, which both understand.

mod rows;

use std::time::Duration;

use sqlx::{
    AnyPool, Executor, Row,
    any::{AnyPoolOptions, AnyRow},
};

pub use self::rows::{ChallengeRow, GameRow, MoveRow, UserRow};

/// Which database a store talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
}

/// The outcome of a conditional write.
#[derive(Debug, PartialEq, Eq)]
pub enum Written {
    Done,
    /// The row had changed meanwhile (another request won the race).
    Stale,
}

fn unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

impl Store {
    /// Connects and brings the schema up to date.
    ///
    /// # Errors
    /// A connection or migration error.
    pub async fn open(url: &str) -> Result<Store, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("postgres") { Backend::Postgres } else { Backend::Sqlite };
        let options = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite { 8 } else { 16 })
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL lets readers run beside the writer; a writer waits for the lock
                        // instead of failing at once.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA busy_timeout = 10000").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                    }
                    Ok(())
                })
            });
        let pool = options.connect(url).await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(Store { pool, backend })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    // Users.

    /// Creates a user; `false` if the name is taken (ignoring case).
    pub async fn create_user(&self, name: &str, hash: &str, now: i64) -> Result<bool, sqlx::Error> {
        let r = sqlx::query(
            "INSERT INTO users (name, name_key, password_hash, bio, rating, created_ms, seen_ms) \
             VALUES ($1, $2, $3, '', 1500, $4, $4)",
        )
        .bind(name)
        .bind(name.to_lowercase())
        .bind(hash)
        .bind(now)
        .execute(&self.pool)
        .await;
        match r {
            Ok(_) => Ok(true),
            Err(e) if unique_violation(&e) => Ok(false),
            Err(e) => Err(e),
        }
    }

    pub async fn user(&self, name: &str) -> Result<Option<UserRow>, sqlx::Error> {
        let row = sqlx::query("SELECT * FROM users WHERE name_key = $1")
            .bind(name.to_lowercase())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| UserRow::from_row(&r)).transpose()
    }

    pub async fn users(&self) -> Result<Vec<UserRow>, sqlx::Error> {
        let rows = sqlx::query("SELECT * FROM users ORDER BY name_key").fetch_all(&self.pool).await?;
        rows.iter().map(UserRow::from_row).collect()
    }

    pub async fn set_password(&self, name: &str, hash: &str) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE users SET password_hash = $1 WHERE name = $2")
            .bind(hash)
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn set_bio(&self, name: &str, bio: &str) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE users SET bio = $1 WHERE name = $2")
            .bind(bio)
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn set_rating(&self, name: &str, rating: i64) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE users SET rating = $1 WHERE name = $2")
            .bind(rating)
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn touch(&self, name: &str, now: i64) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE users SET seen_ms = $1 WHERE name = $2")
            .bind(now)
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Wins, losses and draws of a user's finished games.
    pub async fn record(&self, name: &str) -> Result<(i64, i64, i64), sqlx::Error> {
        let row = sqlx::query(
            "SELECT \
               SUM(CASE WHEN (winner = 'red' AND red = $1) OR (winner = 'black' AND black = $1) THEN 1 ELSE 0 END) AS wins, \
               SUM(CASE WHEN (winner = 'red' AND black = $1) OR (winner = 'black' AND red = $1) THEN 1 ELSE 0 END) AS losses, \
               SUM(CASE WHEN winner IS NULL THEN 1 ELSE 0 END) AS draws \
             FROM games WHERE status = 'finished' AND (red = $1 OR black = $1)",
        )
        .bind(name)
        .fetch_one(&self.pool)
        .await?;
        let get = |c: &str| row.try_get::<Option<i64>, _>(c).map(Option::unwrap_or_default);
        Ok((get("wins")?, get("losses")?, get("draws")?))
    }

    // Sessions and log-in attempts.

    pub async fn create_session(
        &self,
        token_hash: &str,
        name: &str,
        now: i64,
        expires: i64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, user_name, created_ms, expires_ms) VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash)
        .bind(name)
        .bind(now)
        .bind(expires)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn session_user(&self, token_hash: &str, now: i64) -> Result<Option<String>, sqlx::Error> {
        let row = sqlx::query("SELECT user_name FROM sessions WHERE token_hash = $1 AND expires_ms > $2")
            .bind(token_hash)
            .bind(now)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| r.try_get("user_name")).transpose()
    }

    pub async fn delete_session(&self, token_hash: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn delete_other_sessions(&self, name: &str, keep: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM sessions WHERE user_name = $1 AND token_hash <> $2")
            .bind(name)
            .bind(keep)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn login_failures(&self, name_key: &str, since: i64) -> Result<i64, sqlx::Error> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM login_failures WHERE name_key = $1 AND at_ms > $2")
            .bind(name_key)
            .bind(since)
            .fetch_one(&self.pool)
            .await?;
        row.try_get("n")
    }

    pub async fn add_login_failure(&self, name_key: &str, now: i64) -> Result<(), sqlx::Error> {
        sqlx::query("INSERT INTO login_failures (name_key, at_ms) VALUES ($1, $2)")
            .bind(name_key)
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn clear_login_failures(&self, name_key: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM login_failures WHERE name_key = $1")
            .bind(name_key)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    // Challenges.

    pub async fn insert_challenge(&self, c: &ChallengeRow) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO challenges (id, creator, opponent, rules, color, clock_kind, days, base_ms, increment_ms, \
             auto, status, game_id, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(&c.id)
        .bind(&c.creator)
        .bind(&c.opponent)
        .bind(&c.rules)
        .bind(&c.color)
        .bind(&c.clock_kind)
        .bind(c.days)
        .bind(c.base_ms)
        .bind(c.increment_ms)
        .bind(i64::from(c.auto))
        .bind(&c.status)
        .bind(&c.game_id)
        .bind(c.created_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, sqlx::Error> {
        let row =
            sqlx::query("SELECT * FROM challenges WHERE id = $1").bind(id).fetch_optional(&self.pool).await?;
        row.map(|r| ChallengeRow::from_row(&r)).transpose()
    }

    pub async fn open_challenges(&self) -> Result<Vec<ChallengeRow>, sqlx::Error> {
        let rows = sqlx::query("SELECT * FROM challenges WHERE status = 'open' ORDER BY created_ms")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(ChallengeRow::from_row).collect()
    }

    /// The oldest waiting auto-match request with these settings from someone else.
    pub async fn auto_partner(&self, c: &ChallengeRow) -> Result<Option<ChallengeRow>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT * FROM challenges WHERE status = 'open' AND auto = 1 AND creator <> $1 AND rules = $2 \
             AND clock_kind = $3 AND days = $4 AND base_ms = $5 AND increment_ms = $6 ORDER BY created_ms LIMIT 1",
        )
        .bind(&c.creator)
        .bind(&c.rules)
        .bind(&c.clock_kind)
        .bind(c.days)
        .bind(c.base_ms)
        .bind(c.increment_ms)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| ChallengeRow::from_row(&r)).transpose()
    }

    /// Closes an open challenge (cancelled); stale if it was no longer open.
    pub async fn close_challenge(&self, id: &str) -> Result<Written, sqlx::Error> {
        let r = sqlx::query("UPDATE challenges SET status = 'cancelled' WHERE id = $1 AND status = 'open'")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(if r.rows_affected() == 1 { Written::Done } else { Written::Stale })
    }

    /// Takes an open challenge and starts its game, in one transaction: of two
    /// accepting at once, one gets the game and the other a stale answer.
    pub async fn accept_challenge(&self, id: &str, game: &GameRow) -> Result<Written, sqlx::Error> {
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

    // Games.

    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, sqlx::Error> {
        let row =
            sqlx::query("SELECT * FROM games WHERE id = $1").bind(id).fetch_optional(&self.pool).await?;
        row.map(|r| GameRow::from_row(&r)).transpose()
    }

    pub async fn moves(&self, id: &str) -> Result<Vec<MoveRow>, sqlx::Error> {
        let rows = sqlx::query("SELECT * FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(MoveRow::from_row).collect()
    }

    pub async fn games_of(&self, name: &str) -> Result<Vec<GameRow>, sqlx::Error> {
        let rows = sqlx::query("SELECT * FROM games WHERE red = $1 OR black = $1 ORDER BY updated_ms DESC")
            .bind(name)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(GameRow::from_row).collect()
    }

    pub async fn active_live_games(&self) -> Result<Vec<GameRow>, sqlx::Error> {
        let rows = sqlx::query("SELECT * FROM games WHERE status = 'active' AND clock_kind = 'live'")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(GameRow::from_row).collect()
    }

    /// Records a move and the game's new state, if the game is still at the ply
    /// and version the move was made against. The move is committed before this
    /// returns.
    pub async fn record_move(
        &self,
        before: &GameRow,
        after: &GameRow,
        m: &MoveRow,
    ) -> Result<Written, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        if update_game(&mut tx, before, after).await? == Written::Stale {
            tx.rollback().await?;
            return Ok(Written::Stale);
        }
        let inserted =
            sqlx::query("INSERT INTO moves (game_id, ply, iccs, wxf, at_ms) VALUES ($1, $2, $3, $4, $5)")
                .bind(&m.game_id)
                .bind(m.ply)
                .bind(&m.iccs)
                .bind(&m.wxf)
                .bind(m.at_ms)
                .execute(&mut *tx)
                .await;
        match inserted {
            Ok(_) => {}
            Err(e) if unique_violation(&e) => {
                tx.rollback().await?;
                return Ok(Written::Stale);
            }
            Err(e) => return Err(e),
        }
        tx.commit().await?;
        Ok(Written::Done)
    }

    /// Writes a game's new state if it is still at the version it was read at.
    pub async fn update_game(&self, before: &GameRow, after: &GameRow) -> Result<Written, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let w = update_game(&mut tx, before, after).await?;
        tx.commit().await?;
        Ok(w)
    }
}

async fn insert_game(tx: &mut sqlx::Transaction<'_, sqlx::Any>, g: &GameRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO games (id, red, black, rules, start_fen, clock_kind, days, base_ms, increment_ms, ply, version, \
         fen, status, winner, reason, red_ms, black_ms, turn_started_ms, draw_offer, created_ms, updated_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)",
    )
    .bind(&g.id)
    .bind(&g.red)
    .bind(&g.black)
    .bind(&g.rules)
    .bind(&g.start_fen)
    .bind(&g.clock_kind)
    .bind(g.days)
    .bind(g.base_ms)
    .bind(g.increment_ms)
    .bind(g.ply)
    .bind(g.version)
    .bind(&g.fen)
    .bind(&g.status)
    .bind(&g.winner)
    .bind(&g.reason)
    .bind(g.red_ms)
    .bind(g.black_ms)
    .bind(g.turn_started_ms)
    .bind(&g.draw_offer)
    .bind(g.created_ms)
    .bind(g.updated_ms)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn update_game(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    before: &GameRow,
    g: &GameRow,
) -> Result<Written, sqlx::Error> {
    let r = sqlx::query(
        "UPDATE games SET ply = $1, version = $2, fen = $3, status = $4, winner = $5, reason = $6, red_ms = $7, \
         black_ms = $8, turn_started_ms = $9, draw_offer = $10, updated_ms = $11 \
         WHERE id = $12 AND version = $13",
    )
    .bind(g.ply)
    .bind(g.version)
    .bind(&g.fen)
    .bind(&g.status)
    .bind(&g.winner)
    .bind(&g.reason)
    .bind(g.red_ms)
    .bind(g.black_ms)
    .bind(g.turn_started_ms)
    .bind(&g.draw_offer)
    .bind(g.updated_ms)
    .bind(&g.id)
    .bind(before.version)
    .execute(&mut **tx)
    .await?;
    Ok(if r.rows_affected() == 1 { Written::Done } else { Written::Stale })
}

pub(crate) fn get<T>(row: &AnyRow, column: &str) -> Result<T, sqlx::Error>
where
    T: for<'r> sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any>,
{
    row.try_get(column)
}
