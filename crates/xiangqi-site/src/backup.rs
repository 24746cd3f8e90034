//! Online backup of a SQLite database: `VACUUM INTO` writes a consistent copy
//! (one read transaction, so a snapshot of one moment) while the server goes on
//! writing beside it in WAL mode. The copy is written under a temporary name,
//! checked, and only then given its name, so a file by that name is always whole.

use std::{
    path::{Path, PathBuf},
    str::FromStr,
    time::Duration,
};

use sqlx::{
    ConnectOptions, Connection, Row,
    sqlite::{SqliteConnectOptions, SqliteConnection},
};

/// Why a backup was not made.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error(
        "this is a PostgreSQL database: back it up with PostgreSQL's own tools, \
         e.g. pg_dump --format=custom --file=xiangqi.dump DATABASE_URL"
    )]
    Postgres,
    #[error("{0} exists already; name a new file")]
    Exists(PathBuf),
    #[error("there is no database file {0}")]
    NoDatabase(PathBuf),
    #[error("{0}")]
    Database(#[from] sqlx::Error),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("the copy failed its check: {0}")]
    Check(String),
}

/// What a backup copied.
#[derive(Debug)]
pub struct Copy {
    pub bytes: u64,
    pub users: i64,
    pub games: i64,
}

/// Copies the SQLite database at `database` (a `sqlite:` URL, as the server
/// takes it) to the new file `out`.
///
/// # Errors
/// [`BackupError`]: a PostgreSQL URL, an existing `out`, a missing database,
/// or a failure to read, write or check.
pub async fn backup(database: &str, out: &Path) -> Result<Copy, BackupError> {
    if database.starts_with("postgres:") || database.starts_with("postgresql:") {
        return Err(BackupError::Postgres);
    }
    if out.exists() {
        return Err(BackupError::Exists(out.to_path_buf()));
    }
    let options = SqliteConnectOptions::from_str(database)?
        .create_if_missing(false)
        .busy_timeout(Duration::from_secs(30));
    let source = options.get_filename().to_path_buf();
    if !source.exists() {
        return Err(BackupError::NoDatabase(source));
    }
    let partial = partial_name(out);
    if partial.exists() {
        std::fs::remove_file(&partial)?;
    }
    let target = partial.to_str().ok_or_else(|| BackupError::Check("the file name is not UTF-8".into()))?;
    let mut conn = options.connect().await?;
    let copied = sqlx::query("VACUUM INTO $1").bind(target).execute(&mut conn).await;
    conn.close().await?;
    let checked = match copied {
        Ok(_) => check(&partial).await,
        Err(e) => Err(e.into()),
    };
    match checked {
        Ok((users, games)) => {
            std::fs::rename(&partial, out)?;
            Ok(Copy { bytes: std::fs::metadata(out)?.len(), users, games })
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(e)
        }
    }
}

/// `OUT.partial` beside `OUT`.
fn partial_name(out: &Path) -> PathBuf {
    let mut name = out.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".partial");
    out.with_file_name(name)
}

/// Opens the copy on its own, checks its integrity, and counts what it holds.
async fn check(copy: &Path) -> Result<(i64, i64), BackupError> {
    let mut conn = SqliteConnectOptions::new().filename(copy).read_only(true).connect().await?;
    let verdict: String = sqlx::query("PRAGMA integrity_check").fetch_one(&mut conn).await?.try_get(0)?;
    if verdict != "ok" {
        return Err(BackupError::Check(verdict));
    }
    let users = count(&mut conn, "users").await?;
    let games = count(&mut conn, "games").await?;
    conn.close().await?;
    Ok((users, games))
}

async fn count(conn: &mut SqliteConnection, table: &str) -> Result<i64, BackupError> {
    let sql = format!("SELECT COUNT(*) FROM {table}");
    match sqlx::query(&sql).fetch_one(conn).await {
        Ok(row) => Ok(row.try_get(0)?),
        Err(e) => Err(BackupError::Check(format!("not a xiangqi server database ({table}: {e})"))),
    }
}
