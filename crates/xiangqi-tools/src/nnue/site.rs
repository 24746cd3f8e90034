//! Training positions from the site's own finished games. People reach
//! positions that the engine's self-play seldom does (odd openings, long
//! defences, endgames a side should have avoided), so their games widen what a
//! net learns. Each quiet position of a finished standard game (not in check,
//! the move played not a capture) is scored by the engine's search and labelled
//! with the game's result, as self-play positions are.
//!
//! Only the site's games are read: imported collections belong to the people
//! who uploaded them and are kept apart, and aborted games have no result.

use std::sync::{
    Mutex,
    atomic::{AtomicUsize, Ordering},
};

use xiangqi::{Game, Position, RuleSet, Standard, Variant};
use xiangqi_engine::{Control, Engine, Limits, Options, Root};
use xiangqi_site::store::Store;

use super::{
    data::Outcome,
    selfplay::{GameRecords, training_score},
};

/// Where the reading of the site's games has got to: the last game read, in
/// the order games ended (the order a site's finished games never change).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    pub after_ms: i64,
    pub after_id: String,
}

impl Cursor {
    /// Reads a cursor written by [`Cursor::to_text`].
    ///
    /// # Errors
    /// When the text is not a time and a game id.
    pub fn parse(text: &str) -> Result<Cursor, String> {
        let mut parts = text.split_whitespace();
        let (Some(ms), id, None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(format!("expected the time and id of the last game read, found {text:?}"));
        };
        let after_ms = ms.parse().map_err(|_| format!("{ms:?} is not a time in milliseconds"))?;
        Ok(Cursor { after_ms, after_id: id.unwrap_or_default().to_string() })
    }

    pub fn to_text(&self) -> String {
        format!("{} {}\n", self.after_ms, self.after_id)
    }
}

/// A finished standard game of the site, ready to score.
#[derive(Clone, Debug)]
pub struct SiteGame {
    pub id: String,
    pub start: Position<Standard>,
    pub rules: RuleSet,
    pub moves: Vec<String>,
    pub outcome: Outcome,
}

/// The finished standard games that ended after `cursor` (at most `limit`
/// games read, of any board), and the cursor after the last one read.
///
/// # Errors
/// A database error, or a stored game that does not replay.
pub async fn next_games(
    store: &Store,
    cursor: &Cursor,
    limit: i64,
) -> Result<(Vec<SiteGame>, Cursor), String> {
    let rows = store
        .finished_games_after(cursor.after_ms, &cursor.after_id, 1, limit)
        .await
        .map_err(|e| format!("reading finished games: {e}"))?;
    let mut next = cursor.clone();
    let mut games = Vec::new();
    for row in rows {
        next = Cursor { after_ms: row.updated_ms, after_id: row.id.clone() };
        let Some(outcome) = row.outcome else { continue };
        if row.variant != Variant::Standard {
            continue;
        }
        let start =
            row.start_fen.parse().map_err(|e| format!("game {}: start {}: {e}", row.id, row.start_fen))?;
        let moves = store
            .moves(&row.id)
            .await
            .map_err(|e| format!("reading the moves of game {}: {e}", row.id))?
            .into_iter()
            .map(|m| m.iccs)
            .collect();
        games.push(SiteGame {
            id: row.id,
            start,
            rules: row.rules,
            moves,
            outcome: Outcome::from_winner(outcome.winner),
        });
    }
    Ok((games, next))
}

/// Scores a game's quiet positions, each by a search of `nodes` nodes.
///
/// # Errors
/// A stored move that is not legal where it was played.
pub fn score(engine: &mut Engine, game: &SiteGame, number: u64, nodes: u64) -> Result<GameRecords, String> {
    engine.clear();
    let mut replay = Game::new(game.start.clone(), game.rules);
    let mut positions = Vec::new();
    for text in &game.moves {
        let pos = replay.position();
        let m = pos.parse_move(text).map_err(|e| format!("game {}: {text}: {e}", game.id))?;
        // Only a quiet position is worth its search.
        if !pos.is_check() && pos.piece_at(m.to).is_none() {
            let root = Root::from_game(&replay);
            let result = engine.search(&root, &Limits::nodes(nodes), &Control::new(), &mut |_| {});
            if let Some(score) = training_score(pos, m, result.value()) {
                positions.push((pos.clone(), score));
            }
        }
        replay.play(m).map_err(|e| format!("game {}: {text}: {e}", game.id))?;
    }
    Ok(GameRecords { number, positions, outcome: game.outcome, plies: game.moves.len() })
}

/// Scores games on `threads` threads, each with an engine made from `options`,
/// and returns them in the order given.
///
/// # Errors
/// The first game that does not replay.
pub fn score_all(
    games: &[SiteGame],
    options: &Options,
    threads: usize,
    nodes: u64,
) -> Result<Vec<GameRecords>, String> {
    let next = AtomicUsize::new(0);
    let scored: Mutex<Vec<Option<Result<GameRecords, String>>>> =
        Mutex::new((0..games.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, games.len().max(1)) {
            scope.spawn(|| {
                let mut engine = Engine::new(options.clone());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = games.get(i) else { break };
                    let result = score(&mut engine, game, i as u64, nodes);
                    scored.lock().expect("no scorer panics")[i] = Some(result);
                }
            });
        }
    });
    scored
        .into_inner()
        .expect("no scorer panics")
        .into_iter()
        .map(|r| r.expect("every game scored"))
        .collect()
}
