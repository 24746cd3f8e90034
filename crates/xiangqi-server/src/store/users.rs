//! Users: accounts, profiles, when they were last seen, their results.

use sqlx::any::AnyRow;
use xiangqi::{Color, RuleSet};

use super::{FromRow, Page, Paged, Store, get, optional_named, unique_violation};
use crate::domain::clock::ClockSpec;

#[derive(Clone, Debug)]
pub struct UserRow {
    pub name: String,
    pub password_hash: String,
    pub bio: String,
    pub rating: i64,
    pub created_ms: i64,
    pub seen_ms: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
    pub location: String,
    /// Languages the user reads, as they listed them.
    pub languages: Vec<String>,
    pub preferred_rules: Option<RuleSet>,
    pub preferred_clock: Option<ClockSpec>,
}

/// What a user may say about themselves.
#[derive(Clone, Debug, Default)]
pub struct ProfileFields {
    pub bio: String,
    pub location: String,
    pub languages: Vec<String>,
    pub preferred_rules: Option<RuleSet>,
    pub preferred_clock: Option<ClockSpec>,
}

/// A search of user profiles; every part is optional.
#[derive(Clone, Debug, Default)]
pub struct UserSearch {
    /// Names that start with this (ignoring case).
    pub prefix: Option<String>,
    /// Names that contain this anywhere (ignoring case).
    pub contains: Option<String>,
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    /// Only those seen since this moment.
    pub seen_since: Option<i64>,
}

/// A LIKE pattern matching `text` literally (`_` and `%` escaped with `\`).
fn like_literal(text: &str) -> String {
    text.chars().fold(String::new(), |mut s, c| {
        if matches!(c, '_' | '%' | '\\') {
            s.push('\\');
        }
        s.push(c);
        s
    })
}

impl FromRow for UserRow {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(UserRow {
            name: get(r, "name")?,
            password_hash: get(r, "password_hash")?,
            bio: get(r, "bio")?,
            rating: get(r, "rating")?,
            created_ms: get(r, "created_ms")?,
            seen_ms: get(r, "seen_ms")?,
            wins: get(r, "wins")?,
            losses: get(r, "losses")?,
            draws: get(r, "draws")?,
            location: get(r, "location")?,
            languages: get::<String>(r, "languages")?
                .split(',')
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect(),
            preferred_rules: optional_named(r, "preferred_rules")?,
            preferred_clock: get::<Option<String>>(r, "preferred_clock")?
                .map(|json| {
                    serde_json::from_str(&json).map_err(|e| super::corrupt("preferred_clock", e.to_string()))
                })
                .transpose()?,
        })
    }
}

/// The end of a rated game for both players: new ratings and one more result each.
pub struct RatedResult {
    pub red: String,
    pub black: String,
    pub red_rating: i64,
    pub black_rating: i64,
    pub winner: Option<Color>,
}

impl Store {
    /// Creates a user; `false` if the name is taken (ignoring case).
    pub async fn create_user(&self, name: &str, hash: &str, now: i64) -> Result<bool, sqlx::Error> {
        let q = sqlx::query(
            "INSERT INTO users (name, name_key, password_hash, bio, rating, created_ms, seen_ms) \
             VALUES ($1, $2, $3, '', 1500, $4, $4)",
        )
        .bind(name)
        .bind(name.to_lowercase())
        .bind(hash)
        .bind(now);
        match self.run(q).await {
            Ok(_) => Ok(true),
            Err(e) if unique_violation(&e) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// A user by name, ignoring case.
    pub async fn user(&self, name: &str) -> Result<Option<UserRow>, sqlx::Error> {
        self.one(sqlx::query("SELECT * FROM users WHERE name_key = $1").bind(name.to_lowercase())).await
    }

    /// Everyone, by name.
    pub async fn users(&self, page: &Page) -> Result<Paged<UserRow>, sqlx::Error> {
        let after = page.after.as_deref().unwrap_or("").to_lowercase();
        let rows = self
            .all(
                sqlx::query("SELECT * FROM users WHERE name_key > $1 ORDER BY name_key LIMIT $2")
                    .bind(after)
                    .bind(page.probe()),
            )
            .await?;
        Ok(page.cut(rows, |u: &UserRow| u.name.to_lowercase()))
    }

    /// Who has been seen since a moment, most recently seen first (at most `limit`).
    pub async fn seen_since(&self, since: i64, limit: u32) -> Result<Vec<UserRow>, sqlx::Error> {
        self.all(
            sqlx::query("SELECT * FROM users WHERE seen_ms > $1 ORDER BY seen_ms DESC LIMIT $2")
                .bind(since)
                .bind(i64::from(limit)),
        )
        .await
    }

    pub async fn set_password(&self, name: &str, hash: &str) -> Result<(), sqlx::Error> {
        self.run(sqlx::query("UPDATE users SET password_hash = $1 WHERE name = $2").bind(hash).bind(name))
            .await?;
        Ok(())
    }

    pub async fn set_profile(&self, name: &str, p: &ProfileFields) -> Result<(), sqlx::Error> {
        let q = sqlx::query(
            "UPDATE users SET bio = $1, location = $2, languages = $3, preferred_rules = $4, preferred_clock = $5 \
             WHERE name = $6",
        )
        .bind(&p.bio)
        .bind(&p.location)
        .bind(p.languages.join(","))
        .bind(p.preferred_rules.map(RuleSet::name))
        .bind(p.preferred_clock.map(|c| serde_json::to_string(&c).unwrap_or_default()))
        .bind(name);
        self.run(q).await?;
        Ok(())
    }

    /// Users matching a search, by name.
    pub async fn search_users(&self, s: &UserSearch, page: &Page) -> Result<Paged<UserRow>, sqlx::Error> {
        // On PostgreSQL a text_pattern_ops index serves the prefix and a trigram
        // index the part (see `Store::open`); `_` in names is escaped for LIKE.
        let prefix = like_literal(&s.prefix.as_deref().unwrap_or("").to_lowercase());
        let part = like_literal(&s.contains.as_deref().unwrap_or("").to_lowercase());
        let q = sqlx::query(
            "SELECT * FROM users WHERE name_key > $1 AND name_key LIKE $2 ESCAPE '\\' \
             AND name_key LIKE $3 ESCAPE '\\' AND rating >= $4 AND rating <= $5 AND seen_ms > $6 \
             ORDER BY name_key LIMIT $7",
        )
        .bind(page.after.as_deref().unwrap_or("").to_lowercase())
        .bind(format!("{prefix}%"))
        .bind(format!("%{part}%"))
        .bind(s.min_rating.unwrap_or(i64::MIN))
        .bind(s.max_rating.unwrap_or(i64::MAX))
        .bind(s.seen_since.unwrap_or(i64::MIN))
        .bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, |u: &UserRow| u.name.to_lowercase()))
    }

    pub async fn touch(&self, name: &str, now: i64) -> Result<(), sqlx::Error> {
        self.run(sqlx::query("UPDATE users SET seen_ms = $1 WHERE name = $2").bind(now).bind(name)).await?;
        Ok(())
    }

    /// Writes both players' new ratings and counts the result, together.
    pub async fn record_result(&self, r: &RatedResult) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        for (name, rating, color) in
            [(&r.red, r.red_rating, Color::Red), (&r.black, r.black_rating, Color::Black)]
        {
            let column = match r.winner {
                None => "draws",
                Some(w) if w == color => "wins",
                Some(_) => "losses",
            };
            let sql = format!("UPDATE users SET rating = $1, {column} = {column} + 1 WHERE name = $2");
            sqlx::query(&sql).bind(rating).bind(name).execute(&mut *tx).await?;
        }
        tx.commit().await
    }
}
