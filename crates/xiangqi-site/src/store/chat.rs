//! The chat beside a game, kept with the game.

use sqlx::any::AnyRow;

use super::{Counting, FromRow, Store, Written, get};
use crate::model::games::ChatRecord;

impl FromRow for ChatRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(ChatRecord {
            game_id: get(r, "game_id")?,
            seq: get(r, "seq")?,
            author: get(r, "author")?,
            body: get(r, "body")?,
            created_ms: get(r, "created_ms")?,
        })
    }
}

impl Store {
    /// The latest `limit` lines of a game's chat after line `after`, oldest first.
    pub async fn chat(&self, game: &str, after: i64, limit: u32) -> Result<Vec<ChatRecord>, sqlx::Error> {
        let q = sqlx::query(
            "SELECT * FROM (SELECT * FROM chat WHERE game_id = $1 AND seq > $2 ORDER BY seq DESC LIMIT $3) AS latest \
             ORDER BY seq",
        )
        .bind(game)
        .bind(after)
        .bind(i64::from(limit));
        self.all(q).await
    }

    /// Appends a line as number `line.seq`, counted in the author's turn;
    /// stale if that number was taken meanwhile (by the other player). A
    /// taken number is no error, which would end the turn's transaction.
    pub async fn insert_chat(&self, on: &mut Counting, line: &ChatRecord) -> Result<Written, sqlx::Error> {
        let q = sqlx::query(
            "INSERT INTO chat (game_id, seq, author, body, created_ms) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (game_id, seq) DO NOTHING",
        )
        .bind(&line.game_id)
        .bind(line.seq)
        .bind(&line.author)
        .bind(&line.body)
        .bind(line.created_ms);
        Ok(Written::from_count(q.execute(on.connection()).await?.rows_affected()))
    }

    /// The number of the latest line of a game's chat (0 if none), read in
    /// the turn that writes the next.
    pub async fn last_chat_seq(&self, on: &mut Counting, game: &str) -> Result<i64, sqlx::Error> {
        use sqlx::Row;
        let row = sqlx::query("SELECT MAX(seq) AS n FROM chat WHERE game_id = $1")
            .bind(game)
            .fetch_one(on.connection())
            .await?;
        Ok(row.try_get::<Option<i64>, _>("n")?.unwrap_or(0))
    }
}
