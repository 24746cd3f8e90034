//! What the rate limits count: acts of one user (or one network address) that
//! other people see, read from the rows those acts wrote.

use sqlx::Row;

use super::Store;

/// A kind of act that is limited, and whose acts count.
#[derive(Clone, Copy, Debug)]
pub enum Tally<'a> {
    /// Accounts made from a network address.
    Signups(&'a str),
    /// Challenges a user created (named, open, auto-match, rematch, ladder).
    Challenges(&'a str),
    /// Private messages a user sent.
    Messages(&'a str),
    /// Lines a user wrote in any game's chat.
    Chat(&'a str),
}

impl Tally<'_> {
    /// The table, the column naming who acted, the column of when, and who.
    fn source(&self) -> (&'static str, &'static str, &'static str, &str) {
        match *self {
            Tally::Signups(who) => ("signups", "address", "at_ms", who),
            Tally::Challenges(who) => ("challenges", "creator", "created_ms", who),
            Tally::Messages(who) => ("messages", "sender", "created_ms", who),
            Tally::Chat(who) => ("chat", "author", "created_ms", who),
        }
    }
}

impl Store {
    /// How many acts there were after `since`.
    pub async fn tally_since(&self, tally: Tally<'_>, since: i64) -> Result<i64, sqlx::Error> {
        let (table, who_column, at_column, who) = tally.source();
        let sql = format!("SELECT COUNT(*) AS n FROM {table} WHERE {who_column} = $1 AND {at_column} > $2");
        let row = sqlx::query(&sql).bind(who).bind(since).fetch_one(&self.pool).await?;
        row.try_get("n")
    }

    /// When the `n`-th latest act after `since` was, if there were at least `n`
    /// (`n` from 1). Once that moment leaves a window, fewer than `n` acts remain in it.
    pub async fn nth_latest(&self, tally: Tally<'_>, since: i64, n: u32) -> Result<Option<i64>, sqlx::Error> {
        if n == 0 {
            return Ok(Some(since));
        }
        let (table, who_column, at_column, who) = tally.source();
        let sql = format!(
            "SELECT {at_column} AS at_ms FROM {table} WHERE {who_column} = $1 AND {at_column} > $2 \
             ORDER BY {at_column} DESC LIMIT 1 OFFSET $3"
        );
        let row =
            sqlx::query(&sql).bind(who).bind(since).bind(i64::from(n) - 1).fetch_optional(&self.pool).await?;
        row.map(|r| r.try_get("at_ms")).transpose()
    }

    /// How many challenges of a user are open (waiting for someone to accept).
    pub async fn open_challenges_of(&self, creator: &str) -> Result<i64, sqlx::Error> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM challenges WHERE creator = $1 AND status = 'open'")
            .bind(creator)
            .fetch_one(&self.pool)
            .await?;
        row.try_get("n")
    }
}
