//! `xiangqi puzzles generate`: puzzles for a site that has no finished games
//! of its own yet, from the engine's games against itself. The engine plays
//! quickly (a few thousand nodes a move) from a few random opening moves and
//! now and then plays a random move, as people blunder; the play site's own
//! finder ([`xiangqi_site::domain::puzzles::find`]) then looks for puzzles
//! in each game exactly as it does in the site's games.

use std::sync::{
    Arc,
    atomic::{AtomicBool, AtomicU64, Ordering},
    mpsc,
};

use xiangqi::{Variant, rng::Rng};
use xiangqi_engine::{Control, Engine, Limits, Options};
use xiangqi_site::{
    domain::{
        board::{Board, default_rules},
        puzzles::find::{Budget, Found, find_in_looked},
    },
    model::eval::Eval,
};

/// How the games are played.
#[derive(Clone, Debug)]
pub struct Plan {
    pub variant: Variant,
    /// Games to play at most.
    pub games: u64,
    /// Games played at once, one engine each.
    pub threads: usize,
    /// Nodes the engine searches for each move of its games.
    pub move_nodes: u64,
    /// One move in this many (after the opening) is random.
    pub blunder_every: usize,
    pub budget: Budget,
    pub seed: u64,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            variant: Variant::Standard,
            games: 1_000,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            move_nodes: 2_000,
            blunder_every: 6,
            budget: Budget::SITE,
            seed: 1,
        }
    }
}

/// Random moves at the start of each game: from half this to this.
const RANDOM_OPENING: usize = 8;
/// A game still going at this ply ends there.
const LONGEST_GAME: usize = 200;

/// One game of the engine against itself, made again from the same seed,
/// with the evaluation of every position for its side to move (the search
/// that chose the move there, made before a random move too).
pub fn self_play(plan: &Plan, engine: &mut Engine, number: u64) -> (Board, Vec<Eval>) {
    let mut rng = Rng(plan.seed.wrapping_mul(0x9e37_79b9).wrapping_add(number));
    let mut board = Board::startpos(plan.variant, default_rules(plan.variant)).expect("a board's own rules");
    let opening = RANDOM_OPENING / 2 + rng.below(RANDOM_OPENING / 2 + 1);
    engine.clear();
    let mut looks = Vec::new();
    while board.outcome().is_none() && board.ply_count() < LONGEST_GAME {
        let legal = board.legal_moves();
        if legal.is_empty() {
            break;
        }
        let found = board.search(engine, &Limits::nodes(plan.move_nodes), &Control::new(), &mut |_| {});
        looks.push(Eval::from_score(found.score()));
        let random = board.ply_count() < opening || rng.below(plan.blunder_every.max(1)) == 0;
        let m = match found.best {
            Some(_) if random => legal[rng.below(legal.len())],
            Some(best) => best,
            None => break,
        };
        if board.play(m).is_err() {
            break;
        }
    }
    looks.push(match board.outcome() {
        Some(outcome) => Eval::over(outcome, board.turn()),
        None => Eval::from_score(
            board.search(engine, &Limits::nodes(plan.move_nodes), &Control::new(), &mut |_| {}).score(),
        ),
    });
    (board, looks)
}

/// What a run found.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    pub games: u64,
    pub puzzles: u64,
}

/// Plays the plan's games on its threads and hands each game's puzzles to
/// `found` as they come (on the calling thread); stops early when `found`
/// says so. Every game's number picks its seed, whatever thread plays it.
pub fn generate(plan: &Plan, found: &mut dyn FnMut(Vec<Found>) -> bool) -> Tally {
    let next = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (send, receive) = mpsc::channel();
    let mut tally = Tally::default();
    std::thread::scope(|scope| {
        for _ in 0..plan.threads.max(1) {
            let (next, stop, send) = (next.clone(), stop.clone(), send.clone());
            scope.spawn(move || {
                let mut engine =
                    Engine::new(Options { hash_mb: 16, ..Options::default() }.with_embedded_net());
                while !stop.load(Ordering::Relaxed) {
                    let number = next.fetch_add(1, Ordering::Relaxed);
                    if number >= plan.games {
                        break;
                    }
                    let (game, looks) = self_play(plan, &mut engine, number);
                    let puzzles =
                        find_in_looked(&game, Some(&looks), &mut engine, plan.budget, &Control::new())
                            .unwrap_or_default();
                    if send.send(puzzles).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        for puzzles in receive {
            tally.games += 1;
            tally.puzzles += puzzles.len() as u64;
            if !found(puzzles) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    tally
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_self_play_game_is_made_again_from_its_seed_and_is_legal_to_its_end() {
        let plan = Plan { move_nodes: 200, variant: Variant::Hex, ..Plan::default() };
        let mut engine = Engine::new(Options { hash_mb: 1, ..Options::default() });
        let (a, looks) = self_play(&plan, &mut engine, 3);
        let (b, _) = self_play(&plan, &mut engine, 3);
        assert_eq!(a.moves(), b.moves());
        assert_eq!(looks.len(), a.ply_count() + 1, "one evaluation per position");
        assert!(a.ply_count() > RANDOM_OPENING);
        let mut replay = Board::startpos(Variant::Hex, default_rules(Variant::Hex)).unwrap();
        for m in a.moves() {
            replay.play(m).unwrap();
        }
        assert_eq!(replay.fen(), a.fen());
    }
}
