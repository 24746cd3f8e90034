//! The play site's rules of conduct: accounts, the lobby (challenges, waiting
//! room, auto-match) and games. Handlers call these services; the services own
//! the invariants and talk to the store.

pub mod accounts;
pub mod analysis;
pub mod board;
pub mod computer;
pub mod events;
pub mod explorer;
pub mod exports;
pub mod games;
pub mod glance;
pub mod imports;
pub mod ladders;
pub mod limits;
pub mod lobby;
pub mod masters;
pub mod news;
pub mod openings;
pub mod people;
pub mod puzzles;
mod reads;
pub mod refusal;
pub mod review;
pub mod studies;
#[cfg(test)]
mod tests;
pub mod tournaments;

use std::sync::Arc;

use self::{
    events::{Happening, Listener, Notice},
    refusal::Result,
};
use crate::{engines::EnginePool, model::NoticeKind, parsing::ParsePool, store::Store};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// The calendar date (UTC) a moment in milliseconds since the Unix epoch
/// falls on: year, month and day (Howard Hinnant's civil-from-days).
pub fn civil_date(ms: i64) -> (i64, i64, i64) {
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// The time a server goes by: the system's clock plus an offset, zero unless
/// [`Clock::advance`] moved it. Clones share the offset, so several instances
/// given one clock keep one time. Tests move it forward rather than wait for
/// clocks and deadlines to run out.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    offset_ms: Arc<std::sync::atomic::AtomicI64>,
}

impl Clock {
    /// Milliseconds since the Unix epoch, by this clock.
    pub fn now_ms(&self) -> i64 {
        now_ms() + self.offset_ms.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Moves this clock and its clones forward by `by`.
    pub fn advance(&self, by: std::time::Duration) {
        let by = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.offset_ms.fetch_add(by, std::sync::atomic::Ordering::Relaxed);
    }
}

pub struct Services {
    /// The services' own: handlers and tasks reach the store through them.
    store: Store,
    /// Who hears what happens (the live updates of open pages).
    listener: Arc<dyn Listener>,
    /// How much of what others see one user may do (see [`limits`]).
    pub limits: limits::Limits,
    /// Where the computer's moves, analyses and reviews are searched.
    pub engines: Arc<EnginePool>,
    /// Where heavy parsing (PGN files and records) runs, bounded per client.
    pub parsing: Arc<ParsePool>,
    /// The limits on downloads of many games, and the places those being sent hold.
    pub exports: exports::Exports,
    computer: computer::Jobs,
    /// The analyses running now and each user's limits on starting more.
    pub analysis: Arc<analysis::Analyses>,
    cache: games::GameCache,
    /// Auto-match requests are paired one at a time (see [`Services::automatch`]).
    pairing: tokio::sync::Mutex<()>,
    /// What "now" is for requests and background tasks.
    pub clock: Clock,
    /// Each user's edits of studies, counted on this instance.
    study_edits: analysis::RateLimit,
}

impl Services {
    pub fn new(store: Store, listener: Arc<dyn Listener>) -> Self {
        Services {
            store,
            listener,
            limits: limits::Limits::default(),
            engines: Arc::new(EnginePool::for_this_machine()),
            parsing: Arc::new(ParsePool::for_this_machine()),
            exports: exports::Exports::default(),
            computer: computer::Jobs::default(),
            analysis: Arc::new(analysis::Analyses::new(analysis::ANALYSES_PER_MINUTE)),
            cache: games::GameCache::default(),
            pairing: tokio::sync::Mutex::new(()),
            clock: Clock::default(),
            study_edits: analysis::RateLimit::new(studies::EDITS_PER_MINUTE, limits::MINUTE_MS),
        }
    }

    /// Whether moves can be written: the group commit's writers all run
    /// (none is waiting to be started again after a fault).
    pub fn moves_writable(&self) -> bool {
        self.store.writer_up()
    }

    /// Milliseconds since the Unix epoch, by [`Services::clock`].
    pub fn now(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Tells everyone watching a game of its new state.
    /// Purges what no rule reads any more: failed log-ins older than their
    /// window, expired sessions, and visitors' puzzle moves past the time
    /// they make a solver's attempt at those puzzles unrated.
    pub async fn purge(&self, now: i64) -> Result<u64> {
        Ok(self.purge_sessions(now).await? + self.forget_old_probes(now).await?)
    }

    pub async fn publish_game(&self, game: &games::Loaded) {
        self.listener.hear(Happening::Game(game));
    }

    /// A new line of a game's chat, to everyone watching the game.
    pub async fn publish_chat(&self, line: &crate::model::games::ChatRecord) {
        self.listener.hear(Happening::Chat(line));
    }

    /// A short notice for a user's open pages: what happened, from whom, in which game.
    pub async fn notify(&self, user: &str, kind: NoticeKind, from: Option<&str>, game: Option<&str>) {
        self.listener.hear(Happening::Notice(Notice {
            user: user.to_string(),
            kind,
            from: from.map(str::to_string),
            game: game.map(str::to_string),
            study: None,
        }));
    }

    /// A short notice for a user's open pages about a study, from whom.
    pub fn notify_of_study(&self, user: &str, kind: NoticeKind, from: &str, study: &str) {
        self.listener.hear(Happening::Notice(Notice {
            user: user.to_string(),
            kind,
            from: Some(from.to_string()),
            game: None,
            study: Some(study.to_string()),
        }));
    }

    /// Lists of challenges are stale: every open page reloads its lobby.
    async fn lobby_changed(&self) {
        self.listener.hear(Happening::Lobby);
    }
}
