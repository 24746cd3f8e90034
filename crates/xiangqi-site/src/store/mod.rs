//! The only SQL in the server: sqlx over SQLite (the default, one file) or
//! PostgreSQL (for several server instances on one database), with one set of
//! portable migrations. Placeholders are `$n`, which both understand.
//!
//! One module per concept; rows come out typed (text columns parsed into the
//! domain's enums here, once) and every list is bounded and paged by key.

mod challenges;
mod chat;
mod computers;
mod explorer;
mod exports;
mod finish;
mod games;
mod gauges;
mod group_commit;
mod invitations;
mod ladders;
mod limits;
mod locks;
mod messages;
mod news;
mod notices;
mod openings;
mod puzzles;
mod ratings;
mod relations;
mod reviews;
mod sessions;
mod studies;
mod tournaments;
mod users;

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use sqlx::{
    AnyPool, Executor, Row,
    any::{AnyArguments, AnyPoolOptions, AnyRow},
};

pub(crate) use self::{
    challenges::Lobby,
    explorer::{Explored, ExplorerAsk, ExplorerRow, MASTERS},
    finish::Finish,
    ladders::{LadderResultRow, RungRow},
    limits::Counting,
    locks::{Exclusive, Held},
    openings::{Named as NamedRows, OpeningCount, Unnamed},
    puzzles::{Ended, Ending, Wanted},
    ratings::HistoryPoint,
    reviews::{Claim, ClaimRequest},
    studies::{ChapterRow, MemberRow, StudyChange},
    tournaments::{EntrantRow, PairingRow, SignUp, Start, TournamentStep},
};
// What the server's edge and the tools reach: the rest of the store's types
// are the domain's to use, and rows stay here.
pub use self::{
    explorer::{TOTALS, band_of},
    limits::Tally,
    notices::payloads,
    ratings::GameResult,
    sessions::SESSION_CHANNEL,
};

use crate::model::{
    Named,
    page::{Page, Paged},
};

/// Which database a store talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The placeholders of `rows` rows of `columns` values each, bound in order:
/// `(?, ?), (?, ?)` on SQLite, `($1, $2), ($3, $4)` on PostgreSQL. SQLite
/// finds a numbered parameter's name by walking the statement's list of
/// names, so a statement of n numbered parameters binds in n² steps (most
/// of a large import's time, measured); anonymous ones are bound by their
/// place alone.
pub(super) fn value_rows(db: &sqlx::AnyConnection, rows: usize, columns: usize) -> String {
    let numbered = db.backend_name() != "SQLite";
    let row = |r: usize| {
        let marks: Vec<String> = (1..=columns)
            .map(|c| if numbered { format!("${}", r * columns + c) } else { "?".into() })
            .collect();
        format!("({})", marks.join(", "))
    };
    (0..rows).map(row).collect::<Vec<_>>().join(", ")
}

#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// SQLite takes one writer at a time; the moves of this server's games
    /// queue here for it rather than in SQLite's busy handler, which sleeps
    /// between tries.
    game_writes: Arc<tokio::sync::Mutex<()>>,
    /// Locks by name within this process (see `limits` and `locks`).
    turns: Arc<limits::Turns>,
    /// Sessions read once (see `session_user`): every session that ends on
    /// this instance goes through this store, which forgets it here at once.
    sessions: Arc<Mutex<SessionCache>>,
    /// Where moves queue for their group commit (none in the writer's own copy).
    writer: Option<group_commit::GroupCommit>,
    /// Notices to the other instances on PostgreSQL (none on SQLite).
    notices: Option<notices::Notices>,
}

/// Live sessions by token hash: the user and until when the session is
/// trusted without being read again.
/// `generation` moves on with every session that ends, so a read that began
/// before an end does not put the ended session back.
#[derive(Default)]
struct SessionCache {
    users: HashMap<String, (String, i64)>,
    generation: u64,
}

/// The outcome of a conditional write.
#[derive(Debug, PartialEq, Eq)]
pub enum Written {
    Done,
    /// The row had changed meanwhile (another request won the race).
    Stale,
}

impl Written {
    fn from_count(rows_affected: u64) -> Written {
        if rows_affected == 1 { Written::Done } else { Written::Stale }
    }
}

/// The store's side of a [`Page`]: how its key bounds a query and how a
/// query's rows become a [`Paged`].
trait Keyset {
    fn limit(&self) -> i64;
    /// Asks for one row more than the page holds: whether it came says if there is a next page.
    fn probe(&self) -> i64;
    /// The bounds of a newest-first page keyed `moment.id`: strictly before the key.
    fn before(&self) -> (i64, String);
    /// The bounds of an oldest-first page keyed `moment.id`: strictly after the key.
    fn since(&self) -> (i64, String);
    /// Cuts a probe's rows to the page and names the key of the next page, if any.
    fn cut<T>(&self, rows: Vec<T>, key: impl Fn(&T) -> String) -> Paged<T>;
}

impl Keyset for Page {
    fn limit(&self) -> i64 {
        i64::from(self.rows())
    }

    fn probe(&self) -> i64 {
        self.limit() + 1
    }

    fn before(&self) -> (i64, String) {
        match self.after.as_deref().and_then(|k| k.split_once('.')) {
            Some((ms, id)) => (ms.parse().unwrap_or(i64::MAX), id.to_string()),
            None => (i64::MAX, char::MAX.to_string()),
        }
    }

    fn since(&self) -> (i64, String) {
        match self.after.as_deref().and_then(|k| k.split_once('.')) {
            Some((ms, id)) => (ms.parse().unwrap_or(i64::MIN), id.to_string()),
            None => (i64::MIN, String::new()),
        }
    }

    fn cut<T>(&self, mut rows: Vec<T>, key: impl Fn(&T) -> String) -> Paged<T> {
        let limit = self.limit() as usize;
        let next = (rows.len() > limit).then(|| {
            rows.truncate(limit);
            rows.last().map(&key).unwrap_or_default()
        });
        Paged { items: rows, next }
    }
}

type Query<'q> = sqlx::query::Query<'q, sqlx::Any, AnyArguments<'q>>;

/// A row type the store reads.
trait FromRow: Sized {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error>;
}

/// Whether an error says the database cannot be reached now (rather than
/// that a statement failed): the request may succeed when it is back.
pub fn unreachable(e: &sqlx::Error) -> bool {
    matches!(
        e,
        sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::Protocol(_)
            | sqlx::Error::WorkerCrashed
    )
}

/// How long a request waits for a PostgreSQL connection. While the database
/// is down every request fails after this wait (503), rather than hanging.
/// (A SQLite file does not go away: its connections are waited for longer,
/// as its single writer may keep them busy in a burst of writes.)
const CONNECTION_WAIT: Duration = Duration::from_millis(600);
const SQLITE_CONNECTION_WAIT: Duration = Duration::from_secs(10);

fn unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

fn get<T>(row: &AnyRow, column: &str) -> Result<T, sqlx::Error>
where
    T: for<'r> sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any>,
{
    row.try_get(column)
}

fn corrupt(column: &str, why: String) -> sqlx::Error {
    sqlx::Error::ColumnDecode { index: column.to_string(), source: why.into() }
}

/// A text column holding one of an enum's names.
fn named<T: Named>(row: &AnyRow, column: &str) -> Result<T, sqlx::Error> {
    T::parse(&get::<String>(row, column)?).map_err(|why| corrupt(column, why))
}

fn optional_named<T: Named>(row: &AnyRow, column: &str) -> Result<Option<T>, sqlx::Error> {
    get::<Option<String>>(row, column)?.map(|s| T::parse(&s).map_err(|why| corrupt(column, why))).transpose()
}

/// Indexes only PostgreSQL has, for lists and searches of names: names in byte
/// order (which serves a prefix whatever the database's collation), and any part
/// of a name (trigrams). A database where they cannot be made (no pg_trgm) gives
/// the same answers, more slowly.
async fn postgres_search_indexes(pool: &AnyPool) {
    for sql in [
        r#"CREATE INDEX IF NOT EXISTS users_name_bytes ON users ((name_key COLLATE "C"))"#,
        "CREATE EXTENSION IF NOT EXISTS pg_trgm",
        "CREATE INDEX IF NOT EXISTS users_name_part ON users USING gin (name_key gin_trgm_ops)",
    ] {
        if let Err(e) = pool.execute(sql).await {
            tracing::warn!("user search runs without an index ({sql}): {e}");
        }
    }
}

impl Store {
    /// Connects and brings the schema up to date.
    ///
    /// # Errors
    /// A connection or migration error.
    pub async fn open(url: &str) -> Result<Store, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("postgres") { Backend::Postgres } else { Backend::Sqlite };
        let options = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite { 8 } else { 16 })
            .acquire_timeout(if backend == Backend::Sqlite {
                SQLITE_CONNECTION_WAIT
            } else {
                CONNECTION_WAIT
            })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL lets readers run beside the writer; a writer waits for the lock
                        // instead of failing at once.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA busy_timeout = 10000").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        // Pages read through memory maps and kept in a larger cache: a
                        // move then reads no page with a system call.
                        conn.execute("PRAGMA mmap_size = 268435456").await?;
                        conn.execute("PRAGMA cache_size = -16384").await?;
                    }
                    Ok(())
                })
            });
        let pool = options.connect(url).await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        if backend == Backend::Postgres {
            postgres_search_indexes(&pool).await;
        }
        let notices = (backend == Backend::Postgres).then(|| notices::Notices::start(pool.clone()));
        let mut store = Store {
            pool,
            backend,
            game_writes: Arc::default(),
            turns: Arc::default(),
            sessions: Arc::default(),
            writer: None,
            notices,
        };
        store.writer = Some(group_commit::GroupCommit::start(&store));
        Ok(store)
    }

    /// This store without the sender of moves to the group commit: the copy the
    /// writer itself holds, so that it ends with the last store that sends.
    fn without_writer(&self) -> Store {
        Store { writer: None, ..self.clone() }
    }

    /// Whether moves can be written: no writer of the group commit is down
    /// (waiting to be started again after a fault).
    pub fn writer_up(&self) -> bool {
        self.writer.as_ref().is_none_or(group_commit::GroupCommit::is_up)
    }

    /// For tests: the move writer panics `times` times in a row (see
    /// `GroupCommit::inject_faults`).
    pub async fn fail_move_writer(&self, times: u32) {
        if let Some(w) = &self.writer {
            w.inject_faults(times).await;
        }
    }

    /// The turn to write on SQLite, for a game's state or any transaction
    /// that reads before it writes (none needed on PostgreSQL, whose rows are
    /// locked one by one): SQLite refuses a transaction whose snapshot another
    /// writer has overtaken, rather than waiting.
    async fn write_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        match self.backend {
            Backend::Sqlite => Some(self.game_writes.lock().await),
            Backend::Postgres => None,
        }
    }

    /// Queues a notice on `channel` for every instance on the database (this
    /// one included); false on SQLite, where this server is the only one.
    pub fn announce(&self, channel: &'static str, payload: String) -> bool {
        match &self.notices {
            Some(n) => {
                n.queue(channel, payload);
                true
            }
            None => false,
        }
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Names compared byte by byte, as SQLite does and as PostgreSQL's
    /// `users_name_bytes` index orders them: lists of users page by it.
    fn name_order(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite => "name_key",
            Backend::Postgres => r#"name_key COLLATE "C""#,
        }
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Closes every connection of the pool, waiting for those in use to be
    /// given back: the last step of stopping a server.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    async fn one<T: FromRow>(&self, q: Query<'_>) -> Result<Option<T>, sqlx::Error> {
        q.fetch_optional(&self.pool).await?.map(|r| T::from_row(&r)).transpose()
    }

    async fn all<T: FromRow>(&self, q: Query<'_>) -> Result<Vec<T>, sqlx::Error> {
        q.fetch_all(&self.pool).await?.iter().map(T::from_row).collect()
    }

    /// Runs a write; how many rows it touched.
    async fn run(&self, q: Query<'_>) -> Result<u64, sqlx::Error> {
        Ok(q.execute(&self.pool).await?.rows_affected())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_bounded_and_names_its_successor() {
        let p = Page { after: None, limit: Some(2) };
        let cut = p.cut(vec![1, 2, 3], |n| n.to_string());
        assert_eq!(cut.items, [1, 2]);
        assert_eq!(cut.next.as_deref(), Some("2"));
        assert!(p.cut(vec![1, 2], |n| n.to_string()).next.is_none());
        assert_eq!(Page { after: None, limit: Some(10_000) }.limit(), i64::from(Page::MAX));
        assert_eq!(Page::default().limit(), i64::from(Page::DEFAULT));
    }
}
