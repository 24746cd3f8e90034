//! The computer opponents' accounts and the games waiting for their moves.

use super::{Keyset, Store, games::insert_game};
use crate::model::games::GameRecord;
use crate::model::page::{Page, Paged};

impl Store {
    /// The account that plays at `level`, if there is one.
    pub async fn computer(&self, level: u8) -> Result<Option<String>, sqlx::Error> {
        let row: Option<(String,)> = sqlx::query_as("SELECT name FROM users WHERE computer_level = $1")
            .bind(i64::from(level))
            .fetch_optional(self.pool())
            .await?;
        Ok(row.map(|(name,)| name))
    }

    /// Active games where a computer is to move (from the standard start, Red
    /// moves at even plies), by id.
    pub async fn computer_turns(&self, page: &Page) -> Result<Paged<GameRecord>, sqlx::Error> {
        let q = sqlx::query(
            "SELECT g.* FROM games g JOIN users u ON u.name = CASE WHEN g.ply % 2 = 0 THEN g.red ELSE g.black END \
             WHERE g.status = 'active' AND u.computer_level IS NOT NULL AND g.id > $1 ORDER BY g.id LIMIT $2",
        )
        .bind(page.after.clone().unwrap_or_default())
        .bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, |g: &GameRecord| g.id.clone()))
    }

    /// How many games `user` is playing against the computer now.
    pub async fn computer_games_of(&self, user: &str) -> Result<i64, sqlx::Error> {
        let (n,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM games g JOIN users u ON u.name = CASE WHEN g.red = $1 THEN g.black ELSE g.red END \
             WHERE (g.red = $1 OR g.black = $1) AND g.status = 'active' AND u.computer_level IS NOT NULL",
        )
        .bind(user)
        .fetch_one(self.pool())
        .await?;
        Ok(n)
    }

    /// Starts a game that no challenge led to (a game against the computer).
    pub async fn start_game(&self, game: &GameRecord) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        insert_game(&mut tx, game).await?;
        tx.commit().await
    }
}
