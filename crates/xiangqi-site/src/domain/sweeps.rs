//! The background sweep: what the site does by itself as time passes, by the
//! services' clock. Live clocks flag; ladder challenges lapse; tournaments
//! start, move to their next round and finish; openings are named; expired
//! sessions and old failed log-ins are purged; and, on a slower beat of its
//! own, finished games are searched for puzzles. With several instances on one
//! database, one of them at a time does a round (the others skip it); each
//! change is also a version-checked write, so it happens once whatever runs it.

use std::sync::Arc;

use super::{
    Clock, accounts::Accounts, games::Games, ladders::Ladders, openings::Openings, puzzles::Puzzles,
    refusal::Result, tournaments::Tournaments,
};
use crate::{engines::EnginePool, store::Store};

/// The lock whose holder does a round of the sweep.
const BACKGROUND_LOCK: &str = "xiangqi:background";
/// The lock whose holder does a round of the puzzle search.
const PUZZLE_LOCK: &str = "xiangqi:puzzles";

pub struct Sweeps {
    store: Store,
    clock: Clock,
    engines: Arc<EnginePool>,
    games: Arc<Games>,
    ladders: Arc<Ladders>,
    tournaments: Arc<Tournaments>,
    openings: Arc<Openings>,
    accounts: Arc<Accounts>,
    puzzles: Arc<Puzzles>,
}

impl Sweeps {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        store: Store,
        clock: Clock,
        engines: Arc<EnginePool>,
        games: Arc<Games>,
        ladders: Arc<Ladders>,
        tournaments: Arc<Tournaments>,
        openings: Arc<Openings>,
        accounts: Arc<Accounts>,
        puzzles: Arc<Puzzles>,
    ) -> Self {
        Sweeps { store, clock, engines, games, ladders, tournaments, openings, accounts, puzzles }
    }

    /// Round `round` of the sweep (counted from 0) unless another instance is
    /// doing one now: whether this one did it.
    pub async fn try_round(&self, round: u64) -> bool {
        let held = match self.store.try_lock(BACKGROUND_LOCK).await {
            Ok(Some(held)) => held,
            Ok(None) => return false,
            Err(e) => {
                tracing::warn!("cannot take the background lock: {e}");
                return false;
            }
        };
        self.round(round).await;
        held.release().await;
        true
    }

    /// A first round of the sweep now, after any round under way on an
    /// instance of the same database.
    ///
    /// # Errors
    /// The database cannot be locked.
    pub async fn round_now(&self) -> Result<(), sqlx::Error> {
        let held = self.store.lock(BACKGROUND_LOCK).await?;
        self.round(0).await;
        held.release().await;
        Ok(())
    }

    /// Round `round` of the sweep (counted from 0), by the one holding
    /// [`BACKGROUND_LOCK`]. Purging runs at the first round and then once a
    /// minute (a round every half second).
    async fn round(&self, round: u64) {
        if let Err(e) = self.games.flag_games(self.clock.now_ms()).await {
            tracing::warn!("clock check failed: {}", e);
        }
        if let Err(e) = self.ladders.lapse_ladder_challenges(self.clock.now_ms()).await {
            tracing::warn!("ladder check failed: {}", e);
        }
        if let Err(e) = self.tournaments.advance_tournaments(self.clock.now_ms()).await {
            tracing::warn!("tournament check failed: {}", e);
        }
        // Openings are named a batch at a time every five seconds: games
        // finished meanwhile, and any stored before names existed.
        if round % 10 == 5 {
            if let Err(e) = self.openings.name_openings().await {
                tracing::warn!("naming openings failed: {}", e);
            }
        }
        if round % 120 == 0 {
            match self.purge(self.clock.now_ms()).await {
                Ok(0) => {}
                Ok(n) => {
                    tracing::debug!("purged {n} expired sessions, old failed log-ins and old puzzle probes")
                }
                Err(e) => tracing::warn!("purge failed: {}", e),
            }
        }
    }

    /// Purges what no rule reads any more: failed log-ins older than their
    /// window, expired sessions, and visitors' puzzle moves past the time
    /// they make a solver's attempt at those puzzles unrated.
    pub async fn purge(&self, now: i64) -> Result<u64> {
        Ok(self.accounts.purge_sessions(now).await? + self.puzzles.forget_old_probes(now).await?)
    }

    /// A round of the search of finished games for puzzles, by one instance
    /// at a time, unless the engines are all busy.
    pub async fn puzzle_round(&self) {
        if self.engines.waiting() > 0 {
            return;
        }
        let Ok(Some(held)) = self.store.try_lock(PUZZLE_LOCK).await else { return };
        match self.puzzles.scan_for_puzzles(super::puzzles::find::Budget::SITE).await {
            Ok(s) if s.puzzles == 0 => {}
            Ok(s) => tracing::info!("{} new puzzles from {} finished games", s.puzzles, s.games),
            Err(e) => tracing::warn!("puzzle search failed: {e}"),
        }
        held.release().await;
    }
}
