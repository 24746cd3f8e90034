//! What the rate limits count: acts of one user (or one network address) that
//! other people see, read from the rows those acts wrote.
//!
//! A limit holds only if counting and writing the act are one step: requests
//! that arrive together must not all count the same rows and all pass. So an
//! act that a limit counts is written through a [`Counting`], which holds the
//! actor's turn from the count to the write: on this instance a lock by key
//! (SQLite has one server), and with PostgreSQL also an advisory lock of the
//! transaction the act is written in, which every instance respects.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use sqlx::{Any, AnyConnection, Executor, Row, pool::PoolConnection};
use tokio::sync::OwnedMutexGuard;

use super::{Backend, Store};

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
    /// Tournaments a user created.
    Tournaments(&'a str),
    /// Failed log-ins from a network address, over every name.
    LoginFailures(&'a str),
    /// Timed puzzle streaks a user started.
    Streaks(&'a str),
    /// Puzzle moves and hints asked for without logging in, from a network address.
    PuzzleProbes(&'a str),
}

impl Tally<'_> {
    /// The table, the column naming who acted, the column of when, and who.
    fn source(&self) -> (&'static str, &'static str, &'static str, &str) {
        match *self {
            Tally::Signups(who) => ("signups", "address", "at_ms", who),
            Tally::Challenges(who) => ("challenges", "creator", "created_ms", who),
            Tally::Messages(who) => ("messages", "sender", "created_ms", who),
            Tally::Chat(who) => ("chat", "author", "created_ms", who),
            Tally::Tournaments(who) => ("tournaments", "creator", "created_ms", who),
            Tally::LoginFailures(who) => ("login_failures", "address", "at_ms", who),
            Tally::Streaks(who) => ("puzzle_streaks", "user_name", "started_ms", who),
            Tally::PuzzleProbes(who) => ("puzzle_probes", "address", "at_ms", who),
        }
    }

    /// The key whose turn an act of this kind by this actor takes.
    fn turn_key(&self) -> String {
        let (table, _, _, who) = self.source();
        format!("limit:{table}:{who}")
    }
}

/// Locks by key within this process, each existing only while someone holds
/// or waits for it.
#[derive(Default)]
pub(super) struct Turns(Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>);

/// A key's turn, held until dropped.
pub(super) struct Turn {
    guard: Option<OwnedMutexGuard<()>>,
    turns: Arc<Turns>,
    key: String,
}

impl Turns {
    pub(super) async fn take(self: &Arc<Self>, key: String) -> Turn {
        let lock = {
            let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
            map.entry(key.clone()).or_default().clone()
        };
        let guard = lock.lock_owned().await;
        Turn { guard: Some(guard), turns: self.clone(), key }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        drop(self.guard.take());
        let mut map = self.turns.0.lock().unwrap_or_else(|e| e.into_inner());
        // Only the map's own handle left: nobody holds or waits for this key.
        if map.get(&self.key).is_some_and(|lock| Arc::strong_count(lock) == 1) {
            map.remove(&self.key);
        }
    }
}

enum Connection {
    /// SQLite: a connection of the pool; each write commits by itself.
    Plain(PoolConnection<Any>),
    /// PostgreSQL: a transaction holding the actor's advisory lock.
    Locked(sqlx::Transaction<'static, Any>),
}

/// The actor's turn to count acts of one kind and write one more: counts
/// read here see every act written before, and no other act of the kind by
/// the actor is written until this is done with (or dropped, which writes
/// nothing on PostgreSQL).
pub struct Counting {
    connection: Connection,
    _turn: Turn,
}

impl Counting {
    /// Where the counted act is written.
    pub fn connection(&mut self) -> &mut AnyConnection {
        match &mut self.connection {
            Connection::Plain(c) => c,
            Connection::Locked(tx) => tx,
        }
    }

    /// When the `n`-th latest act after `since` was, if there were at least `n`
    /// (`n` from 1). Once that moment leaves a window, fewer than `n` acts remain in it.
    pub async fn nth_latest(
        &mut self,
        tally: Tally<'_>,
        since: i64,
        n: u32,
    ) -> Result<Option<i64>, sqlx::Error> {
        nth_latest(self.connection(), tally, since, n).await
    }

    /// How many challenges of a user are open (waiting for someone to accept).
    pub async fn open_challenges_of(&mut self, creator: &str) -> Result<i64, sqlx::Error> {
        open_challenges_of(self.connection(), creator).await
    }

    /// Commits what was written (and lets the next act of the actor be counted).
    pub async fn done(self) -> Result<(), sqlx::Error> {
        match self.connection {
            Connection::Plain(_) => Ok(()),
            Connection::Locked(tx) => tx.commit().await,
        }
    }
}

async fn nth_latest<'e>(
    on: impl Executor<'e, Database = Any>,
    tally: Tally<'_>,
    since: i64,
    n: u32,
) -> Result<Option<i64>, sqlx::Error> {
    if n == 0 {
        return Ok(Some(since));
    }
    let (table, who_column, at_column, who) = tally.source();
    let sql = format!(
        "SELECT {at_column} AS at_ms FROM {table} WHERE {who_column} = $1 AND {at_column} > $2 \
         ORDER BY {at_column} DESC LIMIT 1 OFFSET $3"
    );
    let row = sqlx::query(&sql).bind(who).bind(since).bind(i64::from(n) - 1).fetch_optional(on).await?;
    row.map(|r| r.try_get("at_ms")).transpose()
}

async fn open_challenges_of<'e>(
    on: impl Executor<'e, Database = Any>,
    creator: &str,
) -> Result<i64, sqlx::Error> {
    let row = sqlx::query("SELECT COUNT(*) AS n FROM challenges WHERE creator = $1 AND status = 'open'")
        .bind(creator)
        .fetch_one(on)
        .await?;
    row.try_get("n")
}

impl Store {
    /// How many challenges of a user are open, at a glance (not in turn).
    pub async fn open_challenges_of(&self, creator: &str) -> Result<i64, sqlx::Error> {
        open_challenges_of(&self.pool, creator).await
    }

    /// Takes the actor's turn for acts of `tally`'s kind (see [`Counting`]).
    pub async fn counting(&self, tally: Tally<'_>) -> Result<Counting, sqlx::Error> {
        let key = tally.turn_key();
        let turn = self.turns.take(key.clone()).await;
        let connection = match self.backend {
            Backend::Sqlite => Connection::Plain(self.pool.acquire().await?),
            Backend::Postgres => {
                let mut tx = self.pool.begin().await?;
                sqlx::query("SELECT 1 FROM (SELECT pg_advisory_xact_lock($1)) l")
                    .bind(super::locks::key(&key))
                    .execute(&mut *tx)
                    .await?;
                Connection::Locked(tx)
            }
        };
        Ok(Counting { connection, _turn: turn })
    }

    /// How many acts there were after `since`.
    pub async fn tally_since(&self, tally: Tally<'_>, since: i64) -> Result<i64, sqlx::Error> {
        let (table, who_column, at_column, who) = tally.source();
        let sql = format!("SELECT COUNT(*) AS n FROM {table} WHERE {who_column} = $1 AND {at_column} > $2");
        let row = sqlx::query(&sql).bind(who).bind(since).fetch_one(&self.pool).await?;
        row.try_get("n")
    }

    /// [`Counting::nth_latest`] without taking the turn: a quick look that
    /// turns a flood away before it costs more (the count that decides is
    /// the one made in turn).
    pub async fn nth_latest(&self, tally: Tally<'_>, since: i64, n: u32) -> Result<Option<i64>, sqlx::Error> {
        nth_latest(&self.pool, tally, since, n).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_turn_is_held_by_one_at_a_time_and_leaves_nothing_behind() {
        let turns = Arc::new(Turns::default());
        let first = turns.take("k".into()).await;
        let waiting = {
            let turns = turns.clone();
            tokio::spawn(async move { turns.take("k".into()).await })
        };
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "the second waits for the first");
        let other = turns.take("other".into()).await;
        drop(first);
        let second = waiting.await.unwrap();
        drop((second, other));
        assert!(turns.0.lock().unwrap().is_empty());
    }
}
