//! Puzzles from games played away from the site: the Masters collection, and
//! the imported games of users who agreed (imported games are private, so a
//! user's are searched only once they turn the setting on).
//!
//! Each puzzle keeps its [`Origin`]. One from an imported game names the game
//! and its owner to the server alone: a solver sees the position and the line,
//! never the game or whose it was. When the owner takes the agreement back, or
//! deletes the game, its puzzles that nobody has tried go, and the others
//! forget where they came from (their ratings and attempts stay).
//!
//! Each source is searched in the order its games were stored, and where the
//! search got to is kept (the collection's place, and each owner's), so a
//! search stopped and run again goes on from there. A round searches as many
//! games at once as there are engines.

use std::sync::Arc;

use futures_util::future::join_all;
use xiangqi::Variant;

use super::{
    Puzzles, SCAN_LEAST_PLIES, Scanned,
    find::{Budget, Found},
    new_puzzles,
};
use crate::{
    domain::{
        board::Board,
        refusal::{Refusal, Result},
    },
    model::explorer::ImportedRecord,
    model::puzzles::{GameSource, Origin},
};

/// The owner name under which the Masters collection's place is kept.
const COLLECTION: &str = "";

impl Puzzles {
    /// One round of the search of a source: how many games it went through
    /// and how many new puzzles they gave. No games: the source is done for now
    /// (or a game's search interrupted the round's first).
    pub async fn scan_source_for_puzzles(&self, source: GameSource, budget: Budget) -> Result<Scanned> {
        match source {
            GameSource::Site => self.scan_for_puzzles(budget).await,
            GameSource::Masters => {
                let (after_ms, after_id) = self.store.source_cursor(source, COLLECTION).await?;
                let games = self.store.masters_games_after(after_ms, &after_id, self.round_width()).await?;
                self.scan_records(source, COLLECTION, &games, budget).await
            }
            GameSource::Imports => {
                let Some(owner) = self.store.next_sharing_owner().await? else {
                    return Ok(Scanned::default());
                };
                let (after_ms, after_id) = self.store.source_cursor(source, &owner).await?;
                let games =
                    self.store.imported_games_after(&owner, after_ms, &after_id, self.round_width()).await?;
                self.scan_records(source, &owner, &games, budget).await
            }
        }
    }

    /// Searches each source in turn until it is done or `count` new puzzles
    /// are stored, telling `progress` after every round: how far each went.
    pub async fn generate_puzzles(
        &self,
        sources: &[GameSource],
        budget: Budget,
        count: Option<u64>,
        progress: &mut dyn FnMut(GameSource, Scanned),
    ) -> Result<Vec<(GameSource, Scanned)>> {
        let mut done = Vec::new();
        let mut puzzles = 0;
        for &source in sources {
            let mut tally = Scanned::default();
            while count.is_none_or(|c| puzzles < c) {
                let round = self.scan_source_for_puzzles(source, budget).await?;
                tally.games += round.games;
                tally.puzzles += round.puzzles;
                puzzles += round.puzzles;
                progress(source, tally);
                if round.games == 0 {
                    break;
                }
            }
            done.push((source, tally));
        }
        Ok(done)
    }

    /// Whether `user` lets the site find puzzles in their imported games.
    pub async fn puzzle_sharing(&self, user: &str) -> Result<bool> {
        self.store
            .puzzle_sharing(user)
            .await?
            .ok_or_else(|| Refusal::NoUser { name: user.to_string() }.into())
    }

    /// Lets the site find puzzles in `user`'s imported games, or takes that
    /// back: then the puzzles from them that nobody has tried go and the
    /// others forget their game. Each game is searched once: agreeing again
    /// searches only the games not searched before (turning the setting off
    /// and on cannot set the engines to work on the same games again).
    pub async fn set_puzzle_sharing(&self, user: &str, on: bool) -> Result<()> {
        if self.store.set_puzzle_sharing(user, on).await? {
            Ok(())
        } else {
            Err(Refusal::NoUser { name: user.to_string() }.into())
        }
    }

    /// Games searched at once in a round: one per engine.
    fn round_width(&self) -> i64 {
        self.engines.size().max(1) as i64
    }

    /// Searches games of the Masters collection (`owner` is [`COLLECTION`])
    /// or of one owner's imports at once, then stores their puzzles in order, each game's with the
    /// source's place moved past it, up to the first game whose search a
    /// game on the site interrupted.
    async fn scan_records(
        &self,
        source: GameSource,
        owner: &str,
        games: &[ImportedRecord],
        budget: Budget,
    ) -> Result<Scanned> {
        let searched = join_all(games.iter().map(|g| self.puzzles_of_record(g, budget))).await;
        let mut scanned = Scanned::default();
        for (game, found) in games.iter().zip(searched) {
            let Some(found) = found? else { break };
            let origin = if owner == COLLECTION {
                Origin::Masters { game: game.id.clone() }
            } else {
                Origin::Imported { game: game.id.clone(), owner: owner.to_string() }
            };
            let rows = new_puzzles(Variant::Standard, &origin, &found, self.clock.now_ms());
            let stored = self.store.insert_source_puzzles(source, owner, game, &rows).await?;
            let Some(fresh) = stored else { break };
            scanned.puzzles += fresh;
            scanned.games += 1;
        }
        Ok(scanned)
    }

    /// The puzzles of a game of a collection (none if it is too short or
    /// cannot be replayed), or `None` if a game's search interrupted the work.
    async fn puzzles_of_record(&self, game: &ImportedRecord, budget: Budget) -> Result<Option<Vec<Found>>> {
        if game.ply < SCAN_LEAST_PLIES {
            return Ok(Some(Vec::new()));
        }
        let board = match replay(game) {
            Ok(board) => board,
            Err(why) => {
                tracing::warn!("puzzle search: game {} skipped: {why}", game.id);
                return Ok(Some(Vec::new()));
            }
        };
        self.search_board(Arc::new(board), budget).await
    }
}

/// A kept record's main line as history: the board refuses only what it
/// cannot play, as when it was imported.
fn replay(game: &ImportedRecord) -> std::result::Result<Board, String> {
    let mut board = Board::record_from_fen(Variant::Standard, &game.start_fen, game.rules)?;
    for m in game.moves.split_whitespace() {
        board.play_name(m)?;
    }
    Ok(board)
}
