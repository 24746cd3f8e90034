//! Account rules: names, passwords (argon2), session tokens.

use std::sync::{
    Arc, LazyLock,
    atomic::{AtomicU64, Ordering},
};

use argon2::{
    Argon2,
    password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng},
};
use rand::Rng;
use sha2::{Digest, Sha256};

use super::{
    limits::{Quotas, too_often},
    people::Invitations,
    refusal::{Act, Error, Refusal, Result, Window},
};
use crate::model::accounts::UserRecord;
use crate::model::preferences::Preferences;
use crate::store::{Store, Tally};

/// How long a session lasts without logging in again.
pub const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;
/// Failed log-ins for a name within [`FAILURE_WINDOW_MS`] before each further
/// try must wait.
pub const FREE_FAILURES: i64 = 5;
pub const FAILURE_WINDOW_MS: i64 = 15 * 60 * 1000;
const _: () = assert!(FAILURE_WINDOW_MS == 15 * 60 * 1000, "the refusal names a quarter of an hour");
/// Failed log-ins one network address may have within [`FAILURE_WINDOW_MS`],
/// over every name: what one address can make the server keep is bounded.
pub const ADDRESS_FAILURES: u32 = 50;
/// The longest wait between tries: guessing stays slow, and the account's owner
/// is never locked out for longer.
pub const MAX_WAIT_MS: i64 = 60_000;

/// How long after the latest failure the next try must wait: nothing for the
/// first few failures, then one second, doubling with each failure up to a minute.
pub fn login_wait_ms(failures: i64) -> i64 {
    if failures < FREE_FAILURES {
        0
    } else {
        (1000i64 << (failures - FREE_FAILURES).min(16)).min(MAX_WAIT_MS)
    }
}

pub fn check_name(name: &str) -> Result<(), Refusal> {
    let ok_chars = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !(3..=20).contains(&name.len()) || !ok_chars {
        return Err(Refusal::NameShape { min: 3, max: 20 });
    }
    Ok(())
}

pub fn check_password(password: &str) -> Result<(), Refusal> {
    if !(8..=200).contains(&password.chars().count()) {
        return Err(Refusal::PasswordLength { min: 8, max: 200 });
    }
    Ok(())
}

pub fn hash_password(password: &str) -> Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| Error::broken(format!("password hashing failed: {e}")))
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
}

/// What a log-in with a name no account has checks its password against: the
/// hash of a random password, made as [`hash_password`] makes every account's
/// (the same algorithm and cost), so that such a log-in takes as long as one
/// with a wrong password and its answer's time tells no one which names
/// exist. Made once per process (the server makes it as it starts); no
/// password matches it.
pub fn stand_in_hash() -> &'static str {
    static STAND_IN: LazyLock<String> = LazyLock::new(|| {
        hash_password(&new_token()).unwrap_or_else(|e| {
            tracing::error!("cannot make the stand-in password hash: {e}");
            String::new()
        })
    });
    &STAND_IN
}

/// Password checks made against [`stand_in_hash`] since the process started.
static STAND_IN_CHECKS: AtomicU64 = AtomicU64::new(0);

/// How many log-ins of unknown names have had their password checked (against
/// [`stand_in_hash`]) since the process started.
pub fn stand_in_checks() -> u64 {
    STAND_IN_CHECKS.load(Ordering::Relaxed)
}

/// Password hashes computed at once: each takes a core for tens of
/// milliseconds and megabytes of memory, on purpose, so a burst of sign-ups
/// and log-ins waits its turn on blocking threads, never on the threads that
/// serve every other request.
fn hashing() -> &'static tokio::sync::Semaphore {
    static HASHING: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    HASHING.get_or_init(|| {
        tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
    })
}

/// Runs a password hash's work in its turn (see [`hashing`]).
async fn in_hashing_turn<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T> {
    let _turn = hashing().acquire().await.map_err(|e| Error::broken(e.to_string()))?;
    tokio::task::spawn_blocking(work).await.map_err(|e| Error::broken(format!("password hashing: {e}")))
}

async fn hashed(password: &str) -> Result<String> {
    let password = password.to_string();
    in_hashing_turn(move || hash_password(&password)).await?
}

async fn verified(password: &str, hash: &str) -> Result<bool> {
    let (password, hash) = (password.to_string(), hash.to_string());
    in_hashing_turn(move || verify_password(&password, &hash)).await
}

/// The check of a log-in's password for a name no account has: against
/// [`stand_in_hash`], in a turn of the same pool as every other check, so
/// that it costs what a wrong password costs. (No password is right.)
async fn verified_against_stand_in(password: &str) -> Result<()> {
    let password = password.to_string();
    in_hashing_turn(move || {
        std::hint::black_box(verify_password(&password, stand_in_hash()));
        STAND_IN_CHECKS.fetch_add(1, Ordering::Relaxed);
    })
    .await
}

/// A new random session token (what the client keeps).
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What the database keeps of a token: a leaked table reveals no live sessions.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// What ids of games and challenges are made of: letters and digits that
/// cannot be mistaken for each other.
const ID_ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyz23456789";
const ID_LENGTH: usize = 12;

/// A short random id for games and challenges.
pub fn new_id() -> String {
    let mut rng = rand::rng();
    (0..ID_LENGTH).map(|_| ID_ALPHABET[rng.random_range(0..ID_ALPHABET.len())] as char).collect()
}

/// Whether `s` could be an id [`new_id`] made: anything else names nothing,
/// and need not be looked for.
pub fn is_id(s: &str) -> bool {
    s.len() == ID_LENGTH && s.bytes().all(|b| ID_ALPHABET.contains(&b))
}

/// A new session: the token for the client, and the user.
pub struct NewSession {
    pub token: String,
    pub user: UserRecord,
}

/// Accounts and their sessions: sign-up (through an invitation or not),
/// log-in, passwords, preferences.
pub struct Accounts {
    store: Store,
    quotas: Arc<Quotas>,
    invitations: Arc<Invitations>,
}

impl Accounts {
    pub fn new(store: Store, quotas: Arc<Quotas>, invitations: Arc<Invitations>) -> Self {
        Accounts { store, quotas, invitations }
    }

    /// The user a live session belongs to.
    pub async fn session_user(&self, token_hash: &str, now: i64) -> Result<Option<String>> {
        Ok(self.store.session_user(token_hash, now).await?)
    }

    /// Ends a session (logging out).
    pub async fn delete_session(&self, token_hash: &str) -> Result<()> {
        Ok(self.store.delete_session(token_hash).await?)
    }

    /// Marks a user as seen now.
    pub async fn touch(&self, name: &str, now: i64) -> Result<()> {
        Ok(self.store.touch(name, now).await?)
    }

    pub async fn set_preferences(&self, name: &str, p: &Preferences) -> Result<()> {
        Ok(self.store.set_preferences(name, p).await?)
    }

    /// Sessions ended on another instance (by their notice) are forgotten here.
    pub fn sessions_ended_elsewhere(&self, payload: &str) {
        self.store.sessions_ended_elsewhere(payload);
    }

    /// Every session read is forgotten (the notices from other instances may
    /// have been missed).
    pub fn forget_sessions(&self) {
        self.store.forget_sessions();
    }

    /// Registers a user from a network address, who may have followed a
    /// friend's invitation. One address makes a limited number of accounts an
    /// hour ([`super::limits::Limits::signups_per_hour`]).
    pub async fn register(
        &self,
        name: &str,
        password: &str,
        invite: Option<&str>,
        address: &str,
        now: i64,
    ) -> Result<NewSession> {
        check_name(name)?;
        check_password(password)?;
        self.quotas.may_sign_up(address, now).await?;
        let invitation = match invite {
            Some(code) => Some(self.invitations.invitation(code).await?),
            None => None,
        };
        let hash = hashed(password).await?;
        let mut turn = self.quotas.sign_up_turn(address, now).await?;
        if !self.store.create_user(&mut turn, address, name, &hash, now).await? {
            return Err(Refusal::NameTaken { name: name.to_string() }.into());
        }
        turn.done().await?;
        let user = self.store.user(name).await?.ok_or_else(|| Error::broken("the new user vanished"))?;
        if let Some(i) = invitation {
            self.invitations.welcome(&user.name, &i, now).await?;
        }
        self.start_session(user, now).await
    }

    /// Logs in from a network address. Failures for a name from an address
    /// slow down further tries of that name from that address (see
    /// [`login_wait_ms`]), so a stranger who guesses cannot keep the owner
    /// out; an address fails at most [`ADDRESS_FAILURES`] times in the window
    /// over every name. An address's log-ins are checked one at a time on each
    /// instance, holding no database connection while the password is.
    pub async fn login(&self, name: &str, password: &str, address: &str, now: i64) -> Result<NewSession> {
        let wrong = || Error::from(Refusal::WrongCredentials {});
        // No account has such a name: nothing to check, nothing to keep.
        if check_name(name).is_err() {
            return Err(wrong());
        }
        let key = name.to_lowercase();
        let _turn = self.store.turn(&format!("login:{address}")).await;
        let tally = Tally::LoginFailures(address);
        if let Some(at) = self.store.nth_latest(tally, now - FAILURE_WINDOW_MS, ADDRESS_FAILURES).await? {
            return Err(too_often(Act::FailedLogins, ADDRESS_FAILURES, Window::QuarterHour, at, now).into());
        }
        let (failures, latest) = self.store.login_failures(&key, address, now - FAILURE_WINDOW_MS).await?;
        let ready_at = latest.unwrap_or(0) + login_wait_ms(failures);
        if now < ready_at {
            let seconds = (ready_at - now + 999) / 1000;
            return Err(Refusal::LogInWait { seconds: u64::try_from(seconds).unwrap_or(1) }.into());
        }
        let checking = std::time::Instant::now();
        let user = self.store.user(name).await?;
        let right = match &user {
            Some(u) => verified(password, &u.password_hash).await?,
            // A name no account has costs the same check as a wrong password:
            // the time of the answer tells nothing.
            None => {
                verified_against_stand_in(password).await?;
                false
            }
        };
        match user {
            Some(u) if right => {
                self.store.clear_login_failures(&key, address).await?;
                self.start_session(u, now).await
            }
            _ => {
                // The wait runs from when the refusal is given, not from when the
                // (slow, on purpose) password check began.
                let failed_at = now + checking.elapsed().as_millis() as i64;
                self.store.add_login_failure(&key, address, failed_at).await?;
                Err(wrong())
            }
        }
    }

    /// Purges failed log-ins older than their window and expired sessions.
    pub(crate) async fn purge_sessions(&self, now: i64) -> Result<u64> {
        Ok(self.store.purge(now - FAILURE_WINDOW_MS, now).await?)
    }

    async fn start_session(&self, user: UserRecord, now: i64) -> Result<NewSession> {
        let token = new_token();
        self.store.create_session(&token_hash(&token), &user.name, now, now + SESSION_MS).await?;
        Ok(NewSession { token, user })
    }

    /// Changes a password; every other session of the user ends.
    pub async fn change_password(&self, name: &str, session: &str, old: &str, new: &str) -> Result<()> {
        let u = self.user(name).await?;
        if !verified(old, &u.password_hash).await? {
            return Err(Refusal::OldPasswordWrong {}.into());
        }
        check_password(new)?;
        self.store.set_password(&u.name, &hashed(new).await?).await?;
        self.store.delete_other_sessions(&u.name, session).await?;
        Ok(())
    }

    /// A user who must exist.
    pub async fn user(&self, name: &str) -> Result<UserRecord> {
        user(&self.store, name).await
    }
}

/// A user who must exist.
pub async fn user(store: &Store, name: &str) -> Result<UserRecord> {
    store.user(name).await?.ok_or_else(|| no_user(name))
}

/// An administrator, or a refusal.
pub(crate) async fn admin(store: &Store, name: &str) -> Result<()> {
    if user(store, name).await?.admin { Ok(()) } else { Err(Refusal::AdministratorsOnly {}.into()) }
}

/// The refusal for a user id that names nobody.
pub fn no_user(name: &str) -> Error {
    Refusal::NoUser { name: name.to_string() }.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_recognised_by_their_shape() {
        assert!(is_id(&new_id()));
        assert!(!is_id("0123456789ab"), "0 and 1 are not used");
        assert!(!is_id("abc"));
        assert!(!is_id(&"a".repeat(64)));
    }

    #[test]
    fn passwords_verify_only_against_their_own_hash() {
        let h = hash_password("correct horse").unwrap();
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("wrong horse!", &h));
        assert!(!verify_password("correct horse", "not a hash"));
    }

    #[tokio::test]
    async fn a_log_in_with_an_unknown_name_checks_its_password_against_a_stand_in_of_the_same_cost() {
        let dir = std::env::temp_dir().join(format!("xiangqi-accounts-{}-{}", std::process::id(), new_id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store =
            crate::store::Store::open(&format!("sqlite://{}/t.db?mode=rwc", dir.display())).await.unwrap();
        let services =
            super::super::Setup::default().services(store, std::sync::Arc::new(super::super::events::Nobody));
        let now = 1_800_000_000_000;
        let alice =
            services.accounts.register("alice", "secret-pass", None, "10.0.0.1", now).await.unwrap().user;

        let (real, stand_in) =
            (PasswordHash::new(&alice.password_hash).unwrap(), PasswordHash::new(stand_in_hash()).unwrap());
        assert_eq!(
            (stand_in.algorithm, stand_in.version, stand_in.params.to_string()),
            (real.algorithm, real.version, real.params.to_string()),
            "the stand-in costs what a real hash costs"
        );
        assert!(!verify_password("secret-pass", stand_in_hash()));

        let before = stand_in_checks();
        let refused = services.accounts.login("nobody", "secret-pass", "10.0.0.2", now).await.err().unwrap();
        assert_eq!(refused.refusal(), Refusal::WrongCredentials {});
        assert!(stand_in_checks() > before, "the unknown name's password was checked, against the stand-in");
        assert!(services.accounts.login("alice", "secret-pass", "10.0.0.2", now).await.is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn names_and_passwords_are_checked() {
        assert!(check_name("alice_1").is_ok());
        assert!(check_name("al").is_err());
        assert!(check_name("bad name").is_err());
        assert!(check_password("short").is_err());
        assert!(check_password("long enough").is_ok());
    }

    #[test]
    fn failed_log_ins_slow_down_but_never_lock_out_for_long() {
        assert_eq!(login_wait_ms(4), 0);
        assert_eq!(login_wait_ms(5), 1000);
        assert_eq!(login_wait_ms(6), 2000);
        assert_eq!(login_wait_ms(12), MAX_WAIT_MS);
        assert_eq!(login_wait_ms(10_000), MAX_WAIT_MS);
    }
}
