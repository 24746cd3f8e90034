//! Sessions (by the hash of their token) and failed log-ins.

use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::{Backend, SessionCache, Store};

/// Where instances on one PostgreSQL database tell each other of sessions
/// that ended, so that none keeps one in memory.
pub const SESSION_CHANNEL: &str = "xiangqi_session";

/// How long, at most, a session is trusted from memory on PostgreSQL before it
/// is read again: the bound on a notice that went astray.
const RECHECK_MS: i64 = 60_000;

/// Sessions that ended, as told to the other instances.
#[derive(Serialize, Deserialize)]
enum Ended {
    /// One session (logging out).
    Session { token_hash: String },
    /// Every session of a user but one (a new password).
    AllBut { user: String, keep: String },
}

impl SessionCache {
    const MOST: usize = 100_000;

    fn user(&self, token_hash: &str, now: i64) -> Option<String> {
        self.users.get(token_hash).filter(|(_, expires)| *expires > now).map(|(name, _)| name.clone())
    }

    fn keep(&mut self, generation: u64, token_hash: &str, name: &str, expires: i64) {
        if generation != self.generation {
            return;
        }
        if self.users.len() >= Self::MOST {
            self.users.clear();
        }
        self.users.insert(token_hash.to_string(), (name.to_string(), expires));
    }

    fn ended(&mut self, ends: impl Fn(&str, &str) -> bool) {
        self.generation += 1;
        self.users.retain(|hash, (name, _)| !ends(hash, name));
    }
}

/// The most sessions one user keeps: logging in once more ends the oldest.
pub const MOST_SESSIONS: i64 = 20;

impl Store {
    /// A new session; the user's oldest end while they have more than
    /// [`MOST_SESSIONS`].
    pub async fn create_session(
        &self,
        token_hash: &str,
        name: &str,
        now: i64,
        expires: i64,
    ) -> Result<(), sqlx::Error> {
        let q = sqlx::query(
            "INSERT INTO sessions (token_hash, user_name, created_ms, expires_ms) VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash)
        .bind(name)
        .bind(now)
        .bind(expires);
        self.run(q).await?;
        let surplus: Vec<String> = sqlx::query_scalar(
            "SELECT token_hash FROM sessions WHERE user_name = $1 \
             ORDER BY created_ms DESC, token_hash DESC LIMIT 1000 OFFSET $2",
        )
        .bind(name)
        .bind(MOST_SESSIONS)
        .fetch_all(&self.pool)
        .await?;
        for hash in surplus {
            self.delete_session(&hash).await?;
        }
        Ok(())
    }

    /// The user of a session that has not expired. A session read once is
    /// kept in memory: on SQLite this server is the only one and forgets a
    /// session as it ends it; on PostgreSQL an instance that ends a session
    /// tells the others (`SESSION_CHANNEL`), and a session is read again after
    /// `RECHECK_MS` whatever it heard.
    pub async fn session_user(&self, token_hash: &str, now: i64) -> Result<Option<String>, sqlx::Error> {
        let generation = {
            let sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(name) = sessions.user(token_hash, now) {
                return Ok(Some(name));
            }
            sessions.generation
        };
        let row = sqlx::query(
            "SELECT user_name, expires_ms FROM sessions WHERE token_hash = $1 AND expires_ms > $2",
        )
        .bind(token_hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let name: String = row.try_get("user_name")?;
        let mut trusted_until: i64 = row.try_get("expires_ms")?;
        if self.backend == Backend::Postgres {
            trusted_until = trusted_until.min(now + RECHECK_MS);
        }
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        sessions.keep(generation, token_hash, &name, trusted_until);
        Ok(Some(name))
    }

    pub async fn delete_session(&self, token_hash: &str) -> Result<(), sqlx::Error> {
        self.run(sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(token_hash)).await?;
        self.end_sessions(Ended::Session { token_hash: token_hash.to_string() });
        Ok(())
    }

    pub async fn delete_other_sessions(&self, name: &str, keep: &str) -> Result<(), sqlx::Error> {
        let q = sqlx::query("DELETE FROM sessions WHERE user_name = $1 AND token_hash <> $2")
            .bind(name)
            .bind(keep);
        self.run(q).await?;
        self.end_sessions(Ended::AllBut { user: name.to_string(), keep: keep.to_string() });
        Ok(())
    }

    /// Forgets ended sessions here, and tells the other instances to.
    fn end_sessions(&self, ended: Ended) {
        self.forget_ended(&ended);
        if let Ok(payload) = serde_json::to_string(&ended) {
            self.announce(SESSION_CHANNEL, payload);
        }
    }

    fn forget_ended(&self, ended: &Ended) {
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        match ended {
            Ended::Session { token_hash } => sessions.ended(|hash, _| hash == token_hash),
            Ended::AllBut { user, keep } => sessions.ended(|hash, name| name == user && hash != keep),
        }
    }

    /// Another instance ended sessions (a notice on `SESSION_CHANNEL`).
    pub fn sessions_ended_elsewhere(&self, payload: &str) {
        match serde_json::from_str::<Ended>(payload) {
            Ok(ended) => self.forget_ended(&ended),
            Err(e) => {
                tracing::warn!("unreadable notice of ended sessions ({e}): forgetting them all");
                self.forget_sessions();
            }
        }
    }

    /// Forgets every session kept in memory: each is read again when next used.
    pub fn forget_sessions(&self) {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner()).ended(|_, _| true);
    }

    /// Failed log-ins for a name from an address since a moment, and when the
    /// latest was.
    pub async fn login_failures(
        &self,
        name_key: &str,
        address: &str,
        since: i64,
    ) -> Result<(i64, Option<i64>), sqlx::Error> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, MAX(at_ms) AS latest FROM login_failures \
             WHERE name_key = $1 AND address = $2 AND at_ms > $3",
        )
        .bind(name_key)
        .bind(address)
        .bind(since)
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get("n")?, row.try_get("latest")?))
    }

    pub async fn add_login_failure(
        &self,
        name_key: &str,
        address: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        let q = sqlx::query("INSERT INTO login_failures (name_key, address, at_ms) VALUES ($1, $2, $3)")
            .bind(name_key)
            .bind(address)
            .bind(now);
        self.run(q).await?;
        Ok(())
    }

    pub async fn clear_login_failures(&self, name_key: &str, address: &str) -> Result<(), sqlx::Error> {
        let q = sqlx::query("DELETE FROM login_failures WHERE name_key = $1 AND address = $2")
            .bind(name_key)
            .bind(address);
        self.run(q).await?;
        Ok(())
    }

    /// Deletes failed log-ins from before `failures_since` and sessions that
    /// expired by `now`: what no rule reads any more. How many rows went.
    pub async fn purge(&self, failures_since: i64, now: i64) -> Result<u64, sqlx::Error> {
        let failures = self
            .run(sqlx::query("DELETE FROM login_failures WHERE at_ms <= $1").bind(failures_since))
            .await?;
        let sessions = self.run(sqlx::query("DELETE FROM sessions WHERE expires_ms <= $1").bind(now)).await?;
        Ok(failures + sessions)
    }
}

impl Store {
    /// Whether the database answers.
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        sqlx::query("SELECT 1").execute(&self.pool).await.map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::SessionCache;

    #[test]
    fn a_kept_session_ends_with_its_log_out_and_a_read_from_before_does_not_bring_it_back() {
        let mut c = SessionCache::default();
        let before = c.generation;
        c.keep(before, "h1", "ann", 1_000);
        c.keep(before, "h2", "ann", 1_000);
        c.keep(before, "h3", "bob", 1_000);
        assert_eq!(c.user("h1", 999).as_deref(), Some("ann"));
        assert_eq!(c.user("h1", 1_000), None, "an expired session is not a session");
        // Ann changes her password keeping h1: h2 ends, h1 and Bob's stay.
        c.ended(|hash, user| user == "ann" && hash != "h1");
        assert_eq!(c.user("h2", 0), None);
        assert_eq!(c.user("h1", 0).as_deref(), Some("ann"));
        assert_eq!(c.user("h3", 0).as_deref(), Some("bob"));
        // A read of h2 that began before the change finishes after it: not kept.
        c.keep(before, "h2", "ann", 1_000);
        assert_eq!(c.user("h2", 0), None);
        c.ended(|hash, _| hash == "h1");
        assert_eq!(c.user("h1", 0), None);
    }
}
