//! Ratings per category, their history, and the results that change them.

use std::collections::HashMap;

use sqlx::{Row, any::AnyRow};
use xiangqi::{Color, Variant};

use super::{FromRow, Keyset, Store, games::clock, get, named, optional_named, unique_violation};
use crate::model::page::{Page, Paged};
use crate::model::ratings::RatingRecord;
use crate::model::{
    Named,
    ratings::{Category, PROVISIONAL_DEVIATION, Rating, rate},
};

impl FromRow for RatingRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(RatingRecord {
            user: get(r, "user_name")?,
            category: named(r, "category")?,
            rating: Rating {
                rating: get(r, "rating")?,
                deviation: get(r, "deviation")?,
                volatility: get(r, "volatility")?,
                games: get(r, "games")?,
            },
        })
    }
}

/// A point of a player's rating history: after which game, and when.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPoint {
    pub game: String,
    pub rating: f64,
    pub deviation: f64,
    pub at_ms: i64,
}

/// The end of a game for both players' records and, if it was rated, ratings.
pub struct GameResult<'a> {
    pub game: &'a str,
    pub red: &'a str,
    pub black: &'a str,
    pub winner: Option<Color>,
    /// The category and both new ratings, for a rated game.
    pub rated: Option<(Category, Rating, Rating)>,
    pub at_ms: i64,
}

type Tx<'a> = sqlx::Transaction<'a, sqlx::Any>;

pub(super) async fn count_result(
    tx: &mut Tx<'_>,
    red: &str,
    black: &str,
    winner: Option<Color>,
) -> Result<(), sqlx::Error> {
    for (name, color) in [(red, Color::Red), (black, Color::Black)] {
        let column = match winner {
            None => "draws",
            Some(w) if w == color => "wins",
            Some(_) => "losses",
        };
        let sql = format!("UPDATE users SET {column} = {column} + 1 WHERE name = $1");
        sqlx::query(&sql).bind(name).execute(&mut **tx).await?;
    }
    Ok(())
}

/// Writes a player's new rating in a category, its point of history, and the
/// shown rating when that is the category the player shows.
pub(super) async fn write_rating(
    tx: &mut Tx<'_>,
    user: &str,
    category: Category,
    rating: &Rating,
    game: &str,
    at_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO ratings (user_name, category, rating, deviation, volatility, games, updated_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_name, category) DO UPDATE SET \
         rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, \
         games = excluded.games, updated_ms = excluded.updated_ms",
    )
    .bind(user)
    .bind(category.name())
    .bind(rating.rating)
    .bind(rating.deviation)
    .bind(rating.volatility)
    .bind(rating.games)
    .bind(at_ms)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO rating_history (user_name, category, game_id, rating, deviation, at_ms) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(user)
    .bind(category.name())
    .bind(game)
    .bind(rating.rating)
    .bind(rating.deviation)
    .bind(at_ms)
    .execute(&mut **tx)
    .await?;
    sqlx::query("UPDATE users SET rating = $1 WHERE name = $2 AND shown_category = $3")
        .bind(rating.rating.round() as i64)
        .bind(user)
        .bind(category.name())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The leaderboard's order: the key is the rating's bits and the name.
fn leader_key(r: &RatingRecord) -> String {
    format!("{}.{}", r.rating.rating.to_bits(), r.user)
}

impl Store {
    /// Counts a finished game in both players' records and, if rated, writes
    /// their new ratings: all together.
    pub async fn record_result(&self, r: &GameResult<'_>) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        count_result(&mut tx, r.red, r.black, r.winner).await?;
        if let Some((category, red, black)) = &r.rated {
            write_rating(&mut tx, r.red, *category, red, r.game, r.at_ms).await?;
            write_rating(&mut tx, r.black, *category, black, r.game, r.at_ms).await?;
        }
        tx.commit().await
    }

    /// A player's rating in a category (a newcomer's if they have none).
    pub async fn rating(&self, user: &str, category: Category) -> Result<Rating, sqlx::Error> {
        let q = sqlx::query("SELECT * FROM ratings WHERE user_name = $1 AND category = $2")
            .bind(user)
            .bind(category.name());
        Ok(self.one::<RatingRecord>(q).await?.map(|r| r.rating).unwrap_or_default())
    }

    /// A player's ratings in the categories they have played.
    pub async fn ratings_of(&self, user: &str) -> Result<Vec<RatingRecord>, sqlx::Error> {
        self.all(sqlx::query("SELECT * FROM ratings WHERE user_name = $1 ORDER BY category").bind(user)).await
    }

    /// The best established (not provisional) ratings of a category, highest first.
    pub async fn leaders(&self, category: Category, page: &Page) -> Result<Paged<RatingRecord>, sqlx::Error> {
        let (below, name) = match page.after.as_deref().and_then(|k| k.split_once('.')) {
            Some((bits, name)) => {
                (bits.parse::<u64>().map(f64::from_bits).unwrap_or(f64::MAX), name.to_string())
            }
            None => (f64::MAX, String::new()),
        };
        let q = sqlx::query(
            "SELECT * FROM ratings WHERE category = $1 AND deviation <= $2 \
             AND (rating < $3 OR (rating = $3 AND user_name > $4)) ORDER BY rating DESC, user_name LIMIT $5",
        )
        .bind(category.name())
        .bind(PROVISIONAL_DEVIATION)
        .bind(below)
        .bind(name)
        .bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, leader_key))
    }

    /// A player's rating after each rated game of a category, oldest first (the latest 500).
    pub async fn rating_history(
        &self,
        user: &str,
        category: Category,
    ) -> Result<Vec<HistoryPoint>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT * FROM (SELECT game_id, rating, deviation, at_ms FROM rating_history \
             WHERE user_name = $1 AND category = $2 ORDER BY at_ms DESC LIMIT 500) AS latest ORDER BY at_ms",
        )
        .bind(user)
        .bind(category.name())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(HistoryPoint {
                    game: r.try_get("game_id")?,
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                    at_ms: r.try_get("at_ms")?,
                })
            })
            .collect()
    }

    /// Which rating a player shows and whether their challenges are rated by
    /// default; the shown rating follows at once.
    pub async fn set_rating_settings(
        &self,
        user: &str,
        shown: Category,
        rated: bool,
    ) -> Result<(), sqlx::Error> {
        let rating = self.rating(user, shown).await?;
        let q = sqlx::query(
            "UPDATE users SET shown_category = $1, rated_by_default = $2, rating = $3 WHERE name = $4",
        )
        .bind(shown.name())
        .bind(i64::from(rated))
        .bind(rating.rating.round() as i64)
        .bind(user);
        self.run(q).await?;
        Ok(())
    }

    /// Once per database: the finished rated games played before Glicko-2 are
    /// replayed in the order they ended, so every player starts with the
    /// ratings and history those games earn. The claim row makes it happen once
    /// even with several instances starting together; a failure rolls it all back.
    pub async fn replay_earlier_games(&self, now: i64) -> Result<usize, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let claim = sqlx::query("INSERT INTO rating_replays (id, done_ms) VALUES (1, $1)")
            .bind(now)
            .execute(&mut *tx)
            .await;
        match claim {
            Ok(_) => {}
            Err(e) if unique_violation(&e) => return Ok(0),
            Err(e) => return Err(e),
        }
        let games = sqlx::query(
            "SELECT id, red, black, variant, winner, clock_kind, hours, base_ms, increment_ms, updated_ms FROM games \
             WHERE status = 'finished' AND rated = 1 ORDER BY updated_ms, id",
        )
        .fetch_all(&mut *tx)
        .await?;
        let mut current: HashMap<(String, Category), Rating> = HashMap::new();
        for g in &games {
            let (id, red, black): (String, String, String) =
                (get(g, "id")?, get(g, "red")?, get(g, "black")?);
            let variant: Variant = named(g, "variant")?;
            let category = Category::of(variant, clock(g)?);
            let winner: Option<Color> = optional_named(g, "winner")?;
            let at: i64 = get(g, "updated_ms")?;
            let before = |name: &String| current.get(&(name.clone(), category)).copied().unwrap_or_default();
            let (r, b) = rate(&before(&red), &before(&black), winner);
            write_rating(&mut tx, &red, category, &r, &id, at).await?;
            write_rating(&mut tx, &black, category, &b, &id, at).await?;
            current.insert((red, category), r);
            current.insert((black, category), b);
        }
        tx.commit().await?;
        Ok(games.len())
    }
}
