//! What exports read beyond the searches and pages they walk: the moves of a
//! page of games, in one statement rather than one per game.

use std::collections::HashMap;

use super::{Store, get};

impl Store {
    /// The moves (ICCS, in order) of each of `ids` that has any, by game:
    /// one walk of the moves' key per game, in a single statement.
    pub async fn moves_of_games(&self, ids: &[String]) -> Result<HashMap<String, Vec<String>>, sqlx::Error> {
        let mut by_game: HashMap<String, Vec<String>> = HashMap::with_capacity(ids.len());
        if ids.is_empty() {
            return Ok(by_game);
        }
        let marks: Vec<String> = (1..=ids.len()).map(|n| format!("${n}")).collect();
        let sql = format!(
            "SELECT game_id, iccs FROM moves WHERE game_id IN ({}) ORDER BY game_id, ply",
            marks.join(", ")
        );
        let mut q = sqlx::query(&sql);
        for id in ids {
            q = q.bind(id);
        }
        for row in q.fetch_all(&self.pool).await? {
            by_game.entry(get(&row, "game_id")?).or_default().push(get(&row, "iccs")?);
        }
        Ok(by_game)
    }
}
