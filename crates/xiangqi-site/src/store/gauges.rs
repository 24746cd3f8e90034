//! What the metrics read from the database when they are scraped.

use sqlx::Row;

use super::Store;

impl Store {
    /// Games being played, on every instance that shares the database.
    pub async fn active_game_count(&self) -> Result<i64, sqlx::Error> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM games WHERE status = 'active'")
            .fetch_one(&self.pool)
            .await?;
        row.try_get("n")
    }
}
