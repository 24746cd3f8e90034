//! Account rules: names, passwords (argon2), session tokens.

use argon2::{
    Argon2,
    password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng},
};
use rand::Rng;
use sha2::{Digest, Sha256};

use crate::error::{ApiError, ApiResult};

/// How long a session lasts without logging in again.
pub const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;
/// Failed log-ins allowed per name within [`FAILURE_WINDOW_MS`].
pub const MAX_FAILURES: i64 = 5;
pub const FAILURE_WINDOW_MS: i64 = 5 * 60 * 1000;

pub fn check_name(name: &str) -> ApiResult<()> {
    let ok_chars = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !(3..=20).contains(&name.len()) || !ok_chars {
        return Err(ApiError::bad_request("a user id is 3 to 20 letters, digits, '_' or '-'"));
    }
    Ok(())
}

pub fn check_password(password: &str) -> ApiResult<()> {
    if !(8..=200).contains(&password.chars().count()) {
        return Err(ApiError::bad_request("a password is 8 to 200 characters"));
    }
    Ok(())
}

pub fn hash_password(password: &str) -> ApiResult<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::internal(format!("password hashing failed: {e}")))
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
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

/// A short random id for games and challenges.
pub fn new_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..12).map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_verify_only_against_their_own_hash() {
        let h = hash_password("correct horse").unwrap();
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("wrong horse!", &h));
        assert!(!verify_password("correct horse", "not a hash"));
    }

    #[test]
    fn names_and_passwords_are_checked() {
        assert!(check_name("alice_1").is_ok());
        assert!(check_name("al").is_err());
        assert!(check_name("bad name").is_err());
        assert!(check_password("short").is_err());
        assert!(check_password("long enough").is_ok());
    }
}
