//! Limits on what one user (or one network address) may do that others see:
//! new accounts, challenges, private messages, chat lines and tournaments, each
//! counted over a window of time from the rows the acts wrote, and the number
//! of challenges one user may keep open. A limited act is written in the
//! actor's turn ([`Counting`]), which the count that allows it took: requests
//! sent at once are counted one after another. A refusal says which limit and
//! when to try again.

use super::refusal::{Act, Refusal, Result, Window};
use crate::store::{Counting, Store, Tally};

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
    /// Tournaments one user may create in a day.
    pub tournaments_per_day: u32,
    /// Timed puzzle streaks one user may start in an hour, and in a day.
    pub streaks_per_hour: u32,
    pub streaks_per_day: u32,
    /// How long a live game waits for each side's first move (from the pairing
    /// for Red, from Red's first move for Black) before it is aborted, in
    /// milliseconds. The clocks start only once both sides have moved.
    pub first_move_ms: i64,
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
            tournaments_per_day: 5,
            streaks_per_hour: 30,
            streaks_per_day: 200,
            first_move_ms: 30_000,
        }
    }
}

/// Seconds from `now` until an act at `at` leaves a window, rounded up.
pub fn seconds_until_free(at: i64, window_ms: i64, now: i64) -> u64 {
    u64::try_from((at + window_ms - now + 999).div_euclid(1000)).unwrap_or(0).max(1)
}

/// The refusal when the `allowed`-th latest act in the window ending `now` was at `at`.
pub(super) fn too_often(act: Act, allowed: u32, per: Window, at: i64, now: i64) -> Refusal {
    Refusal::TooOften { act, allowed, per, seconds: seconds_until_free(at, per.ms(), now) }
}

/// Allows the act unless the `allowed`-th latest act in the window was at `nth`.
fn verdict(nth: Option<i64>, act: Act, allowed: u32, per: Window, now: i64) -> Result<()> {
    match nth {
        None => Ok(()),
        Some(at) => Err(too_often(act, allowed, per, at, now).into()),
    }
}

/// The acts each user may do so often (see [`Limits`]), counted in the store
/// so that every instance counts them together.
pub struct Quotas {
    store: Store,
    limits: Limits,
}

impl Quotas {
    pub fn new(store: Store, limits: Limits) -> Self {
        Quotas { store, limits }
    }

    /// Refuses the next act if `allowed` acts of the tally already fell in the
    /// window ending now, counted in the actor's turn; `act` names the acts
    /// for the refusal.
    async fn within(
        &self,
        turn: &mut Counting,
        tally: Tally<'_>,
        allowed: u32,
        per: Window,
        now: i64,
        act: Act,
    ) -> Result<()> {
        let nth = turn.nth_latest(tally, now - per.ms(), allowed).await?;
        verdict(nth, act, allowed, per, now)
    }

    /// The same look without the turn, to turn a flood away before it costs
    /// more (a password's hash, say); the look that decides is [`Self::within`].
    async fn glance(&self, tally: Tally<'_>, allowed: u32, per: Window, now: i64, act: Act) -> Result<()> {
        let nth = self.store.nth_latest(tally, now - per.ms(), allowed).await?;
        verdict(nth, act, allowed, per, now)
    }

    /// Whether a network address may make another account now, at a glance.
    pub async fn may_sign_up(&self, address: &str, now: i64) -> Result<()> {
        self.glance(Tally::Signups(address), self.limits.signups_per_hour, Window::Hour, now, Act::Signups)
            .await
    }

    /// The turn in which a network address makes another account, if it may now.
    pub(super) async fn sign_up_turn(&self, address: &str, now: i64) -> Result<Counting> {
        let tally = Tally::Signups(address);
        let mut turn = self.store.counting(tally).await?;
        self.within(&mut turn, tally, self.limits.signups_per_hour, Window::Hour, now, Act::Signups).await?;
        Ok(turn)
    }

    /// Whether a user may make another challenge (or auto-match request) now,
    /// at a glance: fewer than the open limit are open, and the hour's
    /// allowance is not used up.
    pub async fn may_challenge(&self, user: &str, now: i64) -> Result<()> {
        let open = self.store.open_challenges_of(user).await?;
        self.open_challenges_below_limit(open)?;
        self.glance(
            Tally::Challenges(user),
            self.limits.challenges_per_hour,
            Window::Hour,
            now,
            Act::Challenges,
        )
        .await
    }

    fn open_challenges_below_limit(&self, open: i64) -> Result<()> {
        let allowed = self.limits.open_challenges;
        if open >= i64::from(allowed) {
            return Err(Refusal::OpenChallenges { open, allowed }.into());
        }
        Ok(())
    }

    /// The turn in which a user makes a challenge, if they may now.
    pub(super) async fn challenge_turn(&self, user: &str, now: i64) -> Result<Counting> {
        let tally = Tally::Challenges(user);
        let mut turn = self.store.counting(tally).await?;
        let open = turn.open_challenges_of(user).await?;
        self.open_challenges_below_limit(open)?;
        self.within(&mut turn, tally, self.limits.challenges_per_hour, Window::Hour, now, Act::Challenges)
            .await?;
        Ok(turn)
    }

    /// The turn in which a user sends a private message, if they may now.
    pub(super) async fn message_turn(&self, user: &str, now: i64) -> Result<Counting> {
        let (tally, limits) = (Tally::Messages(user), &self.limits);
        let mut turn = self.store.counting(tally).await?;
        self.within(&mut turn, tally, limits.messages_per_minute, Window::Minute, now, Act::Messages).await?;
        self.within(&mut turn, tally, limits.messages_per_day, Window::Day, now, Act::Messages).await?;
        Ok(turn)
    }

    /// The turn in which a user writes a chat line, if they may now.
    pub(super) async fn chat_turn(&self, user: &str, now: i64) -> Result<Counting> {
        let tally = Tally::Chat(user);
        let mut turn = self.store.counting(tally).await?;
        self.within(&mut turn, tally, self.limits.chat_per_minute, Window::Minute, now, Act::ChatLines)
            .await?;
        Ok(turn)
    }

    /// The turn in which a user creates a tournament, if they may now.
    pub(super) async fn tournament_turn(&self, user: &str, now: i64) -> Result<Counting> {
        let tally = Tally::Tournaments(user);
        let mut turn = self.store.counting(tally).await?;
        self.within(&mut turn, tally, self.limits.tournaments_per_day, Window::Day, now, Act::Tournaments)
            .await?;
        Ok(turn)
    }

    /// The turn in which a user starts a puzzle streak, if they may now.
    pub(super) async fn streak_turn(&self, user: &str, now: i64) -> Result<Counting> {
        let (tally, limits) = (Tally::Streaks(user), &self.limits);
        let mut turn = self.store.counting(tally).await?;
        self.within(&mut turn, tally, limits.streaks_per_hour, Window::Hour, now, Act::Streaks).await?;
        self.within(&mut turn, tally, limits.streaks_per_day, Window::Day, now, Act::Streaks).await?;
        Ok(turn)
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
    }
}
