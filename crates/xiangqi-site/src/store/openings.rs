//! Each game's opening code (ECCO), written by the background pass that
//! names games not yet named, and a player's games counted by opening.

use xiangqi::{Color, Variant};

use super::{FromRow, Store, get, named};

/// A game, or an imported record, waiting for its opening's name.
#[derive(Clone, Debug)]
pub struct Unnamed {
    pub id: String,
    pub variant: Variant,
    pub start_fen: String,
    /// Its first moves in ICCS, separated by spaces (filled in for games of
    /// the site from their moves table).
    pub moves: String,
}

/// Where games that get named are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Named {
    Games,
    Imported,
    Masters,
}

impl Named {
    fn table(self) -> &'static str {
        match self {
            Named::Games => "games",
            Named::Imported => "imported_games",
            Named::Masters => "masters_games",
        }
    }
}

/// How a player's games with one opening went, on one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningCount {
    pub ecco: String,
    pub color: Color,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
}

impl FromRow for OpeningCount {
    fn from_row(r: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        Ok(OpeningCount {
            ecco: get(r, "ecco")?,
            color: named(r, "side")?,
            games: get(r, "games")?,
            wins: get(r, "wins")?,
            draws: get(r, "draws")?,
        })
    }
}

impl FromRow for Unnamed {
    fn from_row(r: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Unnamed {
            id: get(r, "id")?,
            variant: named(r, "variant")?,
            start_fen: get(r, "start_fen")?,
            moves: get(r, "moves")?,
        })
    }
}

impl Store {
    /// Up to `limit` finished games or records of `kind` with no opening
    /// name yet, with their first `plies` moves.
    pub async fn unnamed(&self, kind: Named, limit: i64, plies: i64) -> Result<Vec<Unnamed>, sqlx::Error> {
        let mut rows: Vec<Unnamed> = match kind {
            Named::Games => {
                let q = sqlx::query(
                    "SELECT id, variant, start_fen, '' AS moves FROM games \
                     WHERE ecco IS NULL AND status = 'finished' LIMIT $1",
                );
                self.all(q.bind(limit)).await?
            }
            _ => {
                let sql = format!(
                    "SELECT id, 'standard' AS variant, start_fen, moves FROM {} WHERE ecco IS NULL LIMIT $1",
                    kind.table()
                );
                self.all(sqlx::query(&sql).bind(limit)).await?
            }
        };
        if kind == Named::Games && !rows.is_empty() {
            let marks: Vec<String> = (0..rows.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "SELECT game_id, iccs FROM moves WHERE ply <= $1 AND game_id IN ({}) ORDER BY game_id, ply",
                marks.join(", ")
            );
            let mut q = sqlx::query(&sql).bind(plies);
            for r in &rows {
                q = q.bind(r.id.clone());
            }
            for m in q.fetch_all(&self.pool).await? {
                let (id, iccs): (String, String) = (get(&m, "game_id")?, get(&m, "iccs")?);
                if let Some(r) = rows.iter_mut().find(|r| r.id == id) {
                    if !r.moves.is_empty() {
                        r.moves.push(' ');
                    }
                    r.moves.push_str(&iccs);
                }
            }
        }
        Ok(rows)
    }

    /// Writes the opening codes of games or records (`''` for none), each
    /// only if it is still unnamed: two instances naming at once write once.
    pub async fn name(&self, kind: Named, named: &[(String, String)]) -> Result<(), sqlx::Error> {
        if named.is_empty() {
            return Ok(());
        }
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        let sql = format!("UPDATE {} SET ecco = $1 WHERE id = $2 AND ecco IS NULL", kind.table());
        for (id, ecco) in named {
            sqlx::query(&sql).bind(ecco).bind(id).execute(&mut *tx).await?;
        }
        tx.commit().await
    }

    /// A player's finished games counted by opening and side, the most played first.
    pub async fn player_openings(&self, player: &str, limit: i64) -> Result<Vec<OpeningCount>, sqlx::Error> {
        let q = sqlx::query(
            "SELECT ecco, side, CAST(COUNT(*) AS BIGINT) AS games, \
             CAST(SUM(CASE WHEN winner = side THEN 1 ELSE 0 END) AS BIGINT) AS wins, \
             CAST(SUM(CASE WHEN winner IS NULL THEN 1 ELSE 0 END) AS BIGINT) AS draws FROM ( \
               SELECT ecco, 'red' AS side, winner FROM games WHERE red = $1 AND status = 'finished' AND ecco <> '' \
               UNION ALL \
               SELECT ecco, 'black' AS side, winner FROM games WHERE black = $1 AND status = 'finished' AND ecco <> '' \
             ) AS played GROUP BY ecco, side ORDER BY games DESC, ecco LIMIT $2",
        );
        self.all(q.bind(player).bind(limit)).await
    }
}
