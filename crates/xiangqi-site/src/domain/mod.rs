//! The play site's rules of conduct: accounts, the lobby (challenges, waiting
//! room, auto-match) and games. Handlers call these services; the services own
//! the invariants and talk to the store.
//!
//! Each concept is a service of its own in its module (`games::Games`,
//! `lobby::Lobby`, `studies::Studies`...), made with exactly what it uses:
//! the store, the events it tells of, the clock, the engines, and the other
//! services it calls. [`Setup::services`] puts them together.

pub mod accounts;
pub mod analysis;
pub mod board;
pub mod computer;
pub mod conditionals;
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
pub mod refusal;
pub mod review;
pub mod site;
pub mod studies;
pub mod sweeps;
#[cfg(test)]
mod tests;
pub mod tournaments;

use std::sync::Arc;

use self::{
    accounts::Accounts,
    analysis::{Analyser, Analyses},
    computer::{Computer, Jobs},
    events::{Events, Listener},
    explorer::Explorer,
    exports::{Downloads, ExportLimits, Exports},
    games::Games,
    glance::Glances,
    imports::Imports,
    ladders::Ladders,
    limits::{Limits, Quotas},
    lobby::Lobby,
    masters::Masters,
    news::News,
    openings::Openings,
    people::{Invitations, People},
    puzzles::Puzzles,
    review::Review,
    site::Site,
    studies::Studies,
    sweeps::Sweeps,
    tournaments::{Steps, Tournaments},
};
use crate::{engines::EnginePool, parsing::ParsePool, store::Store};

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

/// The site's services, one for each concept, each holding what it uses.
/// Handlers and background tasks name the one they call; they are put
/// together in one place, [`Setup::services`].
pub struct Services {
    /// What "now" is for requests and background tasks.
    pub clock: Clock,
    /// Where heavy parsing (PGN files and records) runs, bounded per client.
    pub parsing: Arc<ParsePool>,
    pub site: Site,
    pub accounts: Arc<Accounts>,
    pub invitations: Arc<Invitations>,
    pub people: Arc<People>,
    pub glances: Arc<Glances>,
    pub games: Arc<Games>,
    pub computer: Arc<Computer>,
    pub computer_jobs: Arc<Jobs>,
    pub lobby: Arc<Lobby>,
    pub ladders: Arc<Ladders>,
    pub tournaments: Arc<Tournaments>,
    pub studies: Arc<Studies>,
    pub puzzles: Arc<Puzzles>,
    pub analysis: Analyser,
    pub review: Arc<Review>,
    pub explorer: Explorer,
    pub openings: Arc<Openings>,
    pub imports: Arc<Imports>,
    pub masters: Arc<Masters>,
    pub exports: Exports,
    pub news: News,
    pub sweeps: Sweeps,
}

/// What the services are made with besides the store and the listener: the
/// site's defaults unless changed.
pub struct Setup {
    /// How much of what others see one user may do (see [`limits`]).
    pub limits: Limits,
    /// What "now" is: the system's time, unless a test moves it forward.
    pub clock: Clock,
    /// Where the computer's moves, analyses and reviews are searched.
    pub engines: Arc<EnginePool>,
    /// Where heavy parsing (PGN files and records) runs, bounded per client.
    pub parsing: Arc<ParsePool>,
    /// Engine analyses one user may start in a minute.
    pub analyses_per_minute: u32,
    /// The limits on downloads of many games.
    pub exports: ExportLimits,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            limits: Limits::default(),
            clock: Clock::default(),
            engines: Arc::new(EnginePool::for_this_machine()),
            parsing: Arc::new(ParsePool::for_this_machine()),
            analyses_per_minute: analysis::ANALYSES_PER_MINUTE,
            exports: ExportLimits::default(),
        }
    }
}

impl Setup {
    /// The services, on `store`, telling `listener` what happens.
    pub fn services(self, store: Store, listener: Arc<dyn Listener>) -> Services {
        let Setup { limits, clock, engines, parsing, analyses_per_minute, exports } = self;
        let events = Events::new(listener);
        let quotas = Arc::new(Quotas::new(store.clone(), limits.clone()));
        let analyses = Arc::new(Analyses::new(analyses_per_minute));
        let tournament_steps = Arc::new(Steps::new(store.clone(), events.clone()));
        let computer_jobs = Arc::new(Jobs::new(store.clone(), events.clone()));
        let games = Arc::new(Games::new(
            store.clone(),
            events.clone(),
            computer_jobs.clone(),
            tournament_steps.clone(),
            limits.first_move_ms,
        ));
        let computer = Arc::new(Computer::new(
            store.clone(),
            games.clone(),
            computer_jobs.clone(),
            engines.clone(),
            events.clone(),
            clock.clone(),
        ));
        let lobby = Arc::new(Lobby::new(
            store.clone(),
            events.clone(),
            quotas.clone(),
            games.clone(),
            computer.clone(),
        ));
        let invitations = Arc::new(Invitations::new(store.clone(), lobby.clone()));
        let accounts = Arc::new(Accounts::new(store.clone(), quotas.clone(), invitations.clone()));
        let glances = Arc::new(Glances::new(store.clone()));
        let people = Arc::new(People::new(
            store.clone(),
            events.clone(),
            quotas.clone(),
            games.clone(),
            glances.clone(),
        ));
        let ladders = Arc::new(Ladders::new(store.clone(), events.clone(), quotas.clone(), lobby.clone()));
        let tournaments = Arc::new(Tournaments::new(
            store.clone(),
            quotas.clone(),
            games.clone(),
            tournament_steps.clone(),
        ));
        let studies = Arc::new(Studies::new(store.clone(), events.clone(), parsing.clone(), people.clone()));
        let puzzles = Arc::new(Puzzles::new(
            store.clone(),
            games.clone(),
            quotas.clone(),
            engines.clone(),
            clock.clone(),
        ));
        let masters = Arc::new(Masters::new(store.clone(), parsing.clone()));
        let imports = Arc::new(Imports::new(store.clone(), parsing.clone(), masters.clone()));
        let openings = Arc::new(Openings::new(store.clone()));
        let sweeps = Sweeps::new(
            store.clone(),
            clock.clone(),
            engines.clone(),
            games.clone(),
            ladders.clone(),
            tournaments.clone(),
            openings.clone(),
            accounts.clone(),
            puzzles.clone(),
        );
        Services {
            site: Site::new(store.clone()),
            analysis: Analyser::new(analyses.clone(), engines.clone()),
            review: Arc::new(Review::new(
                store.clone(),
                games.clone(),
                analyses,
                engines.clone(),
                clock.clone(),
            )),
            explorer: Explorer::new(store.clone(), glances.clone()),
            exports: Exports::new(
                store.clone(),
                parsing.clone(),
                Downloads::new(exports),
                games.clone(),
                imports.clone(),
                masters.clone(),
                studies.clone(),
            ),
            news: News::new(store),
            clock,
            parsing,
            accounts,
            invitations,
            people,
            glances,
            games,
            computer,
            computer_jobs,
            lobby,
            ladders,
            tournaments,
            studies,
            puzzles,
            openings,
            imports,
            masters,
            sweeps,
        }
    }
}
