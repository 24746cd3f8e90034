//! The training data generator: the engine plays itself from the opening file
//! (on the hex board, from each legal first move), each start followed by a few random plies, at a fixed node budget a move, and
//! keeps the quiet positions (not in check, the chosen move not a capture, the
//! score not a mate) with the search's score and the game's result.
//!
//! Games are adjudicated to save time: won when one side's score stays beyond
//! [`WIN_SCORE`] for [`WIN_PLIES`] plies in a row, drawn at [`MAX_PLIES`].

use std::sync::{
    atomic::{AtomicBool, AtomicU64, Ordering},
    mpsc,
};

use xiangqi::{Color, Game, Geometry, Move, Position, Standard, Variant, rng::Rng};
use xiangqi_engine::{Control, Engine, Limits, Options, Root, eval::Params, is_decisive, nnue::Nets};

use super::data::{Outcome, Record};
use crate::tune::OPENINGS;

/// A score this far beyond zero for both sides' searches, [`WIN_PLIES`] plies running, ends the game.
pub const WIN_SCORE: i32 = 1500;
pub const WIN_PLIES: usize = 6;
/// Games still running at this ply are drawn.
pub const MAX_PLIES: usize = 300;

/// How to generate.
#[derive(Clone, Debug)]
pub struct Config {
    /// Nodes searched for each move.
    pub nodes: u64,
    /// Games played at once, one search thread each.
    pub threads: usize,
    /// Random plies after the opening line: each game draws a number from half this to this.
    pub random_plies: usize,
    pub seed: u64,
    /// The number of the first game (a resumed run continues the numbering, so that it plays new games).
    pub first_game: u64,
    /// Stop after this many games (`None`: until `stop` is set or `positions` reached).
    pub games: Option<u64>,
    /// Stop once this many positions have been written.
    pub positions: Option<u64>,
    /// Transposition table of each game's engine, in megabytes.
    pub hash_mb: usize,
    /// The evaluation's weights the engine plays with.
    pub params: Params,
    /// A net that evaluates instead of the weights: each generation of nets
    /// learns from games the one before played (`None`: the classical evaluation).
    pub nnue: Nets,
}

/// A finished game's quiet positions, each with the search's score for the side to move.
pub struct GameRecords<G: Geometry = Standard> {
    pub number: u64,
    pub positions: Vec<(Position<G>, i16)>,
    pub outcome: Outcome,
    pub plies: usize,
}

impl<G: Geometry> GameRecords<G> {
    /// The positions as training records.
    pub fn records(&self) -> Vec<Record> {
        self.positions.iter().map(|(p, s)| Record::new(p, *s, self.outcome)).collect()
    }
}

/// Plays games on `config.threads` threads and hands each finished game to `sink`
/// (on the calling thread, in the order they finish) until a limit is reached,
/// `stop` is set, or `sink` returns an error.
///
/// # Errors
/// The first error `sink` returns.
pub fn generate<G: Geometry, E>(
    config: &Config,
    stop: &AtomicBool,
    sink: &mut dyn FnMut(GameRecords<G>) -> Result<(), E>,
) -> Result<(), E> {
    let openings = openings::<G>();
    let next = AtomicU64::new(config.first_game);
    let last = config.games.map(|g| config.first_game + g);
    let halt = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<GameRecords<G>>();
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            let tx = tx.clone();
            let (openings, next, halt) = (&openings, &next, &halt);
            scope.spawn(move || {
                let mut engine = Engine::new(Options {
                    hash_mb: config.hash_mb,
                    threads: 1,
                    params: config.params.clone(),
                    nnue: config.nnue.clone(),
                });
                loop {
                    if halt.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let number = next.fetch_add(1, Ordering::Relaxed);
                    if last.is_some_and(|l| number >= l) {
                        break;
                    }
                    let opening = &openings[(number % openings.len() as u64) as usize];
                    if let Some(game) = play_game(&mut engine, opening, number, config, halt, stop)
                        && tx.send(game).is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut written = 0u64;
        let mut result = Ok(());
        for game in rx {
            if result.is_err() {
                continue;
            }
            written += game.positions.len() as u64;
            result = sink(game);
            if result.is_err() || config.positions.is_some_and(|p| written >= p) {
                halt.store(true, Ordering::Relaxed);
            }
        }
        result
    })
}

/// The lines games start from: the opening file's on the standard board, each
/// legal first move on the hex board (which has no opening theory to draw on).
fn openings<G: Geometry>() -> Vec<Vec<String>> {
    if G::VARIANT == Variant::Standard {
        OPENINGS
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter(|l| !l.is_empty())
            .map(|l| l.split_whitespace().map(str::to_owned).collect())
            .collect()
    } else {
        let start = Position::<G>::startpos();
        start.legal_moves().iter().map(|&m| vec![start.move_name(m)]).collect()
    }
}

/// The score a position is kept with for training, if it is kept: quiet
/// (not in check, the move from it not a capture) and not a mate score,
/// whose size says nothing about the position's value.
pub(crate) fn training_score<G: Geometry>(pos: &Position<G>, m: Move, value: i32) -> Option<i16> {
    let quiet = !pos.is_check() && pos.piece_at(m.to).is_none();
    (quiet && !is_decisive(value)).then(|| value.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16)
}

fn play_game<G: Geometry>(
    engine: &mut Engine,
    opening: &[String],
    number: u64,
    config: &Config,
    halt: &AtomicBool,
    stop: &AtomicBool,
) -> Option<GameRecords<G>> {
    let mut rng = Rng(config.seed ^ number.wrapping_mul(0xd6e8_feb8_6659_fd93));
    let mut game = Game::new(Position::<G>::startpos(), G::VARIANT.default_rules());
    for m in opening {
        game.play_str(m).ok()?;
    }
    let random = config.random_plies / 2 + rng.below(config.random_plies - config.random_plies / 2 + 1);
    for _ in 0..random {
        let moves = game.legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            return None;
        }
        game.play(moves[rng.below(moves.len())]).ok()?;
    }
    engine.clear();
    let mut kept: Vec<(Position<G>, i16)> = Vec::new();
    // Plies in a row with the mover's score beyond the win line, and for whom.
    let mut winning: Option<(Color, usize)> = None;
    let mut adjudicated = None;
    while game.outcome().is_none() && game.ply_count() < MAX_PLIES {
        if halt.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
            return None;
        }
        let root = Root::from_game(&game);
        let result = engine.search(&root, &Limits::nodes(config.nodes), &Control::new(), &mut |_| {});
        let best = result.best?;
        let pos = game.position();
        let turn = pos.turn();
        if let Some(score) = training_score(pos, best, result.value()) {
            kept.push((pos.clone(), score));
        }
        let ahead = if result.value() >= WIN_SCORE {
            Some(turn)
        } else if result.value() <= -WIN_SCORE {
            Some(!turn)
        } else {
            None
        };
        winning = match (ahead, winning) {
            (Some(a), Some((w, n))) if a == w => Some((w, n + 1)),
            (Some(a), _) => Some((a, 1)),
            (None, _) => None,
        };
        if let Some((w, n)) = winning
            && n >= WIN_PLIES
        {
            adjudicated = Some(Some(w));
            break;
        }
        game.play(best).ok()?;
    }
    let winner = match adjudicated {
        Some(w) => w,
        None => game.outcome().and_then(|o| o.winner),
    };
    let outcome = Outcome::from_winner(winner);
    Some(GameRecords { number, positions: kept, outcome, plies: game.ply_count() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_run_writes_decodable_quiet_positions() {
        let config = Config {
            nodes: 300,
            threads: 2,
            random_plies: 4,
            seed: 3,
            first_game: 0,
            games: Some(2),
            positions: None,
            hash_mb: 1,
            params: Params::default(),
            nnue: Nets::default(),
        };
        let mut games = Vec::new();
        generate::<Standard, ()>(&config, &AtomicBool::new(false), &mut |g| {
            games.push(g);
            Ok(())
        })
        .unwrap();
        assert_eq!(games.len(), 2);
        let mut numbers: Vec<u64> = games.iter().map(|g| g.number).collect();
        numbers.sort_unstable();
        assert_eq!(numbers, vec![0, 1]);
        for g in &games {
            assert!(!g.positions.is_empty());
            for r in &g.records() {
                let s = r.decode().unwrap();
                assert_eq!(s.outcome, g.outcome);
                assert!(i32::from(s.score).abs() < xiangqi_engine::MATE_BOUND);
            }
        }
    }

    #[test]
    fn hex_games_start_from_each_first_move_and_write_hex_records() {
        let config = Config {
            nodes: 300,
            threads: 1,
            random_plies: 2,
            seed: 4,
            first_game: 5,
            games: Some(1),
            positions: None,
            hash_mb: 1,
            params: Params::default(),
            nnue: Nets::default(),
        };
        let mut games = Vec::new();
        generate::<xiangqi::Hex, ()>(&config, &AtomicBool::new(false), &mut |g| {
            games.push(g);
            Ok(())
        })
        .unwrap();
        let game = games.pop().unwrap();
        assert_eq!(game.number, 5);
        assert!(!game.positions.is_empty());
        for r in &game.records() {
            let s = r.decode().unwrap();
            assert_eq!((s.variant, s.outcome), (Variant::Hex, game.outcome));
        }
        let lines = openings::<xiangqi::Hex>();
        assert_eq!(lines.len(), Position::<xiangqi::Hex>::startpos().legal_moves().len());
        assert!(lines.iter().all(|l| l.len() == 1));
    }

    #[test]
    fn a_net_plays_the_games_when_given() {
        let config = |nnue| Config {
            nodes: 200,
            threads: 1,
            random_plies: 2,
            seed: 5,
            first_game: 0,
            games: Some(1),
            positions: None,
            hash_mb: 1,
            params: Params::default(),
            nnue,
        };
        let play = |config: &Config| {
            let mut games = Vec::new();
            generate::<Standard, ()>(config, &AtomicBool::new(false), &mut |g| {
                games.push(g);
                Ok(())
            })
            .unwrap();
            games.pop().unwrap()
        };
        let classical = play(&config(Nets::default()));
        let with_net = play(&config(Nets::embedded()));
        // One thread and a node budget make a run repeatable, so the same games
        // with the same scores would mean the net was never asked.
        let scores = |g: &GameRecords| g.positions.iter().map(|p| p.1).collect::<Vec<_>>();
        assert_eq!(scores(&with_net), scores(&play(&config(Nets::embedded()))));
        assert_ne!(scores(&classical), scores(&with_net));
    }
}
