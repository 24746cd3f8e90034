//! Locks shared by every instance on one database, for work that one of them
//! should do at a time (a background sweep, the computer's search in one game,
//! pairing auto-match requests). With PostgreSQL they are advisory locks held
//! by a transaction, so an instance that dies lets go of its locks with its
//! connection; with SQLite there is one server, and the lock is its own.

use sha2::{Digest, Sha256};

use super::{Backend, Store};

/// A lock held until this is dropped (or [`Held::release`]d).
pub struct Held(Option<sqlx::Transaction<'static, sqlx::Any>>);

impl Held {
    /// Lets go of the lock now, rather than when dropped.
    pub async fn release(self) {
        if let Some(tx) = self.0 {
            let _ = tx.rollback().await;
        }
    }
}

/// The advisory lock's number for a name.
pub(super) fn key(name: &str) -> i64 {
    let digest = Sha256::digest(name.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    i64::from_be_bytes(first)
}

impl Store {
    /// The lock named `name`, if no other holds it now (on any instance).
    /// SQLite: always (the caller keeps its own work apart within the one server).
    pub async fn try_lock(&self, name: &str) -> Result<Option<Held>, sqlx::Error> {
        if self.backend() != Backend::Postgres {
            return Ok(Some(Held(None)));
        }
        let mut tx = self.pool().begin().await?;
        let got: bool = sqlx::query_scalar("SELECT pg_try_advisory_xact_lock($1)")
            .bind(key(name))
            .fetch_one(&mut *tx)
            .await?;
        Ok(got.then_some(Held(Some(tx))))
    }

    /// The lock named `name`, waiting while another holds it.
    pub async fn lock(&self, name: &str) -> Result<Held, sqlx::Error> {
        if self.backend() != Backend::Postgres {
            return Ok(Held(None));
        }
        let mut tx = self.pool().begin().await?;
        sqlx::query("SELECT 1 FROM (SELECT pg_advisory_xact_lock($1)) l")
            .bind(key(name))
            .execute(&mut *tx)
            .await?;
        Ok(Held(Some(tx)))
    }
}

/// Work that one request at a time does, on every instance: the turn of its
/// name here, then (PostgreSQL) the advisory lock every instance respects.
pub struct Exclusive {
    _turn: super::limits::Turn,
    held: Held,
}

impl Exclusive {
    pub async fn release(self) {
        self.held.release().await;
    }
}

/// Work that one request of this instance at a time does (see [`Store::turn`]).
pub struct Turn {
    _held: super::limits::Turn,
}

impl Store {
    /// Waits until no other request of this instance holds `name`: for work
    /// whose bound may be kept per instance, and that must not hold a
    /// database connection while it waits or works.
    pub async fn turn(&self, name: &str) -> Turn {
        Turn { _held: self.turns.take(name.to_string()).await }
    }

    /// Waits until no other request, here or on another instance, holds `name`.
    /// The turn here comes first, so that requests of this instance wait for
    /// each other without holding a database connection.
    pub async fn exclusive(&self, name: &str) -> Result<Exclusive, sqlx::Error> {
        let turn = self.turns.take(name.to_string()).await;
        let held = self.lock(name).await?;
        Ok(Exclusive { _turn: turn, held })
    }
}
