//! Limits on what one user (or one network address) may do that others see:
//! new accounts, challenges, private messages and chat lines, each counted over
//! a window of time from the rows the acts wrote, and the number of challenges
//! one user may keep open. A refusal says which limit and when to try again.

use super::{Services, clock::DAY_MS};
use crate::{
    error::{ApiError, ApiResult},
    store::Tally,
};

pub const MINUTE_MS: i64 = 60 * 1000;
pub const HOUR_MS: i64 = 60 * MINUTE_MS;

/// How much of each limited act is allowed. The defaults are the site's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Accounts one network address may make in an hour.
    pub signups_per_hour: u32,
    /// Challenges (and auto-match requests) one user may make in an hour.
    pub challenges_per_hour: u32,
    /// Challenges one user may have open at once.
    pub open_challenges: u32,
    /// Private messages one user may send in a minute, and in a day.
    pub messages_per_minute: u32,
    pub messages_per_day: u32,
    /// Chat lines one user may write in a minute, over all games.
    pub chat_per_minute: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            signups_per_hour: 10,
            challenges_per_hour: 60,
            open_challenges: 20,
            messages_per_minute: 10,
            messages_per_day: 200,
            chat_per_minute: 20,
        }
    }
}

/// A window's name in a refusal.
fn per(window_ms: i64) -> &'static str {
    match window_ms {
        MINUTE_MS => "a minute",
        HOUR_MS => "an hour",
        DAY_MS => "a day",
        _ => "in the window",
    }
}

/// Seconds from `now` until an act at `at` leaves a window, rounded up.
pub fn seconds_until_free(at: i64, window_ms: i64, now: i64) -> u64 {
    u64::try_from((at + window_ms - now + 999).div_euclid(1000)).unwrap_or(0).max(1)
}

impl Services {
    /// Refuses the next act if `allowed` acts of the tally already fell in the
    /// window ending now; `what` names the acts ("messages") for the refusal.
    async fn within(
        &self,
        tally: Tally<'_>,
        allowed: u32,
        window_ms: i64,
        now: i64,
        what: &str,
    ) -> ApiResult<()> {
        match self.store.nth_latest(tally, now - window_ms, allowed).await? {
            None => Ok(()),
            Some(at) => {
                let wait = seconds_until_free(at, window_ms, now);
                Err(ApiError::rate_limited(
                    format!("{what}: at most {allowed} {}; try again in {wait} s", per(window_ms)),
                    wait,
                ))
            }
        }
    }

    /// Whether a network address may make another account now.
    pub async fn may_sign_up(&self, address: &str, now: i64) -> ApiResult<()> {
        let allowed = self.limits.signups_per_hour;
        self.within(Tally::Signups(address), allowed, HOUR_MS, now, "new accounts from your network address")
            .await
    }

    /// Whether a user may make another challenge (or auto-match request) now:
    /// fewer than the open limit are open, and the hour's allowance is not used up.
    pub async fn may_challenge(&self, user: &str, now: i64) -> ApiResult<()> {
        let open = self.store.open_challenges_of(user).await?;
        let allowed = self.limits.open_challenges;
        if open >= i64::from(allowed) {
            return Err(ApiError::conflict(format!(
                "you have {open} open challenges (at most {allowed}); cancel one or wait until one is answered"
            )));
        }
        self.within(Tally::Challenges(user), self.limits.challenges_per_hour, HOUR_MS, now, "new challenges")
            .await
    }

    /// Whether a user may send another private message now.
    pub async fn may_message(&self, user: &str, now: i64) -> ApiResult<()> {
        let limits = &self.limits;
        self.within(Tally::Messages(user), limits.messages_per_minute, MINUTE_MS, now, "messages").await?;
        self.within(Tally::Messages(user), limits.messages_per_day, DAY_MS, now, "messages").await
    }

    /// Whether a user may write another chat line now.
    pub async fn may_chat(&self, user: &str, now: i64) -> ApiResult<()> {
        self.within(Tally::Chat(user), self.limits.chat_per_minute, MINUTE_MS, now, "chat lines").await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_is_until_the_counted_act_leaves_the_window() {
        assert_eq!(seconds_until_free(0, MINUTE_MS, 59_000), 1);
        assert_eq!(seconds_until_free(0, MINUTE_MS, 30_000), 30);
        assert_eq!(seconds_until_free(0, MINUTE_MS, 30_001), 30);
        assert_eq!(seconds_until_free(0, MINUTE_MS, 29_999), 31);
        assert_eq!(seconds_until_free(0, MINUTE_MS, 60_000), 1, "never less than a second");
        assert_eq!(per(HOUR_MS), "an hour");
    }
}
