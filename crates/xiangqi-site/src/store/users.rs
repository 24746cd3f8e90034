//! Users: accounts, profiles, when they were last seen, their results.

use sqlx::any::AnyRow;
use xiangqi::RuleSet;

use super::{Counting, FromRow, Keyset, Store, get, named, optional_named, unique_violation};
use crate::model::accounts::{ProfileFields, UserRecord, UserSearch};
use crate::model::page::{Page, Paged};
use crate::model::preferences::Preferences;

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

impl FromRow for UserRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(UserRecord {
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
            preferences: get::<Option<String>>(r, "preferences")?
                .map(|json| {
                    Preferences::from_stored(&json).map_err(|e| super::corrupt("preferences", e.to_string()))
                })
                .transpose()?
                .unwrap_or_default(),
            admin: get::<i64>(r, "admin")? != 0,
            shown_category: named(r, "shown_category")?,
            rated_by_default: get::<i64>(r, "rated_by_default")? != 0,
            computer: get::<Option<i64>>(r, "computer_level")?.and_then(|l| u8::try_from(l).ok()),
        })
    }
}

impl Store {
    /// Creates a user, counted in the turn of the address that signs up (and
    /// recorded as its sign-up); `false` if the name is taken (ignoring case).
    pub async fn create_user(
        &self,
        on: &mut Counting,
        address: &str,
        name: &str,
        hash: &str,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        let q = sqlx::query(
            "INSERT INTO users (name, name_key, password_hash, bio, rating, created_ms, seen_ms) \
             VALUES ($1, $2, $3, '', 1500, $4, $4)",
        )
        .bind(name)
        .bind(name.to_lowercase())
        .bind(hash)
        .bind(now);
        match q.execute(on.connection()).await {
            Ok(_) => {}
            Err(e) if unique_violation(&e) => return Ok(false),
            Err(e) => return Err(e),
        }
        let signup =
            sqlx::query("INSERT INTO signups (address, at_ms) VALUES ($1, $2)").bind(address).bind(now);
        signup.execute(on.connection()).await?;
        Ok(true)
    }

    /// A user by name, ignoring case.
    pub async fn user(&self, name: &str) -> Result<Option<UserRecord>, sqlx::Error> {
        self.one(sqlx::query("SELECT * FROM users WHERE name_key = $1").bind(name.to_lowercase())).await
    }

    /// Everyone, by name.
    pub async fn users(&self, page: &Page) -> Result<Paged<UserRecord>, sqlx::Error> {
        let after = page.after.as_deref().unwrap_or("").to_lowercase();
        let name = self.name_order();
        let sql = format!("SELECT * FROM users WHERE {name} > $1 ORDER BY {name} LIMIT $2");
        let rows = self.all(sqlx::query(&sql).bind(after).bind(page.probe())).await?;
        Ok(page.cut(rows, |u: &UserRecord| u.name.to_lowercase()))
    }

    /// Who has been seen since a moment, most recently seen first, a page at a
    /// time: the key is `seen_ms.name_key`.
    pub async fn seen_since_page(&self, since: i64, page: &Page) -> Result<Paged<UserRecord>, sqlx::Error> {
        let (before_ms, after_name) = match page.after.as_deref().and_then(|k| k.split_once('.')) {
            Some((ms, name)) => (ms.parse::<i64>().unwrap_or(i64::MAX), name.to_lowercase()),
            None => (i64::MAX, String::new()),
        };
        let q = sqlx::query(
            "SELECT * FROM users WHERE seen_ms > $1 AND (seen_ms < $2 OR (seen_ms = $2 AND name_key > $3)) \
             ORDER BY seen_ms DESC, name_key LIMIT $4",
        )
        .bind(since)
        .bind(before_ms)
        .bind(after_name)
        .bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, |u: &UserRecord| format!("{}.{}", u.seen_ms, u.name.to_lowercase())))
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

    pub async fn set_preferences(&self, name: &str, p: &Preferences) -> Result<(), sqlx::Error> {
        let json = serde_json::to_string(p).unwrap_or_default();
        self.run(sqlx::query("UPDATE users SET preferences = $1 WHERE name = $2").bind(json).bind(name))
            .await?;
        Ok(())
    }

    /// Makes a user an administrator or not; whether the user exists.
    pub async fn set_admin(&self, name: &str, admin: bool) -> Result<bool, sqlx::Error> {
        let q = sqlx::query("UPDATE users SET admin = $1 WHERE name_key = $2")
            .bind(i64::from(admin))
            .bind(name.to_lowercase());
        Ok(self.run(q).await? == 1)
    }

    /// Users matching a search, by name. Only the parts asked for become
    /// conditions, so the database plans each search for what it is: a name
    /// prefix walks the name index from the prefix, a part uses trigrams on
    /// PostgreSQL, and rating or presence alone walk the names in order.
    pub async fn search_users(&self, s: &UserSearch, page: &Page) -> Result<Paged<UserRecord>, sqlx::Error> {
        enum Arg {
            Text(String),
            Int(i64),
        }
        let name = self.name_order();
        let mut conditions = Vec::new();
        let mut args = Vec::new();
        let mut condition = |sql: &str, arg: Arg| {
            args.push(arg);
            conditions.push(sql.replace('?', &format!("${}", args.len())));
        };
        if let Some(after) = &page.after {
            condition(&format!("{name} > ?"), Arg::Text(after.to_lowercase()));
        }
        if let Some(prefix) = s.prefix.as_deref().filter(|p| !p.is_empty()) {
            condition(
                &format!("{name} LIKE ? ESCAPE '\\'"),
                Arg::Text(format!("{}%", like_literal(&prefix.to_lowercase()))),
            );
        }
        if let Some(part) = s.contains.as_deref().filter(|p| !p.is_empty()) {
            condition(
                "name_key LIKE ? ESCAPE '\\'",
                Arg::Text(format!("%{}%", like_literal(&part.to_lowercase()))),
            );
        }
        if let Some(min) = s.min_rating {
            condition("rating >= ?", Arg::Int(min));
        }
        if let Some(max) = s.max_rating {
            condition("rating <= ?", Arg::Int(max));
        }
        if let Some(since) = s.seen_since {
            condition("seen_ms > ?", Arg::Int(since));
        }
        let filter =
            if conditions.is_empty() { String::new() } else { format!("WHERE {}", conditions.join(" AND ")) };
        let sql = format!("SELECT * FROM users {filter} ORDER BY {name} LIMIT ${}", args.len() + 1);
        let mut q = sqlx::query(&sql);
        for arg in args {
            q = match arg {
                Arg::Text(t) => q.bind(t),
                Arg::Int(n) => q.bind(n),
            };
        }
        let q = q.bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, |u: &UserRecord| u.name.to_lowercase()))
    }

    pub async fn touch(&self, name: &str, now: i64) -> Result<(), sqlx::Error> {
        self.run(sqlx::query("UPDATE users SET seen_ms = $1 WHERE name = $2").bind(now).bind(name)).await?;
        Ok(())
    }
}
