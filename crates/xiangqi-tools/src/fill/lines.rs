//! The lines the filled games follow: openings as players choose them, so that
//! the opening explorer and a search by position meet what a real site holds.
//!
//! Each line is the engine's quick game against itself from the start (red's
//! first move on the standard board drawn as players choose it). In the
//! first moves, and now and then later, a side draws among the moves the
//! engine finds nearly as good instead of playing its best, as people keep
//! to a few main lines and leave them at different points. Lines that agree so far share their
//! positions, so the openings form a tree with well-trodden first moves and
//! transpositions, not a random fan. Every line is a pure function of the
//! seed and its number, whichever thread plays it, and is legal under every
//! rule set of its board, since a filled game may be played under any of them.

use std::sync::{
    Mutex,
    atomic::{AtomicU64, Ordering},
};

use xiangqi::{AnyGame, Game, Geometry, Move, RuleSet, Variant, rng::Rng};
use xiangqi_engine::{Control, Engine, Limits, Options, Root, Style};
use xiangqi_site::domain::board::Board;

use super::{Stream, rng_at};

/// Plies in each line: the longest filled game.
pub(super) const LINE_PLIES: usize = 80;
/// Nodes for the engine's best move elsewhere: quick, yet sound.
const MOVE_NODES: u64 = 500;
/// Plies at the start where every move is drawn among the good ones.
const VARIED_PLIES: usize = 10;
/// How the good moves are found and drawn: each scored to 3 plies, and a
/// move 25 centipawns worse than the best drawn a third as often (e^-1).
const CHOICE: Style = Style { depth: Some(3), nodes: 100_000, temperature: 25 };

/// Lines from the start of each board and the position after each move.
pub(super) struct Lines {
    standard: Vec<Line>,
    hex: Vec<Line>,
}

pub(super) struct Line {
    /// (ICCS, WXF) of each move.
    pub moves: Vec<(String, String)>,
    /// The position before each move and after the last.
    pub fens: Vec<String>,
    /// The key of each of those positions, as the games database keeps it.
    pub keys: Vec<i64>,
}

impl Lines {
    /// `standard` lines on the standard board and a tenth as many (at least
    /// one) on the hex board, played on `threads` engines.
    pub fn play(seed: u64, standard: usize, threads: usize) -> Lines {
        Lines {
            standard: play_many(seed, Variant::Standard, standard.max(1), threads),
            hex: play_many(seed, Variant::Hex, (standard / 10).max(1), threads),
        }
    }

    pub fn of(&self, variant: Variant) -> &[Line] {
        match variant {
            Variant::Standard => &self.standard,
            Variant::Hex => &self.hex,
        }
    }
}

/// The first `count` lines by number that last the full length (a game that
/// ends sooner, or that one of the board's rule sets forbids, is skipped):
/// numbers are played in rounds until enough have, so the result does not
/// depend on the threads.
fn play_many(seed: u64, variant: Variant, count: usize, threads: usize) -> Vec<Line> {
    let stream = match variant {
        Variant::Standard => 0,
        Variant::Hex => 1 << 40,
    };
    let mut lines = Vec::with_capacity(count);
    let mut first = 1;
    while lines.len() < count {
        let round = (count - lines.len()) as u64;
        let next = AtomicU64::new(first);
        let played = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    let mut engine =
                        Engine::new(Options { hash_mb: 4, ..Options::default() }.with_embedded_net());
                    loop {
                        let n = next.fetch_add(1, Ordering::Relaxed);
                        if n >= first + round {
                            break;
                        }
                        let line = Line::play(variant, &mut engine, rng_at(seed, Stream::Line, stream + n));
                        played.lock().expect("no thread panics holding it").push((n, line));
                    }
                });
            }
        });
        let mut played = played.into_inner().expect("no thread panicked holding it");
        played.sort_unstable_by_key(|(n, _)| *n);
        lines.extend(played.into_iter().filter_map(|(_, line)| line).take(count - lines.len()));
        first += round;
    }
    lines
}

impl Line {
    /// The engine's game against itself under the board's default rules,
    /// leaving its choice now and then; `None` if the game ends before
    /// [`LINE_PLIES`] or a move is illegal under another of the board's rule
    /// sets (say a chase the Asian rules allow and the seed site's forbid).
    fn play(variant: Variant, engine: &mut Engine, mut rng: Rng) -> Option<Line> {
        // The board the engine plays on comes first: the Asian rules on the
        // standard board.
        let mut sets: Vec<RuleSet> = RuleSet::ALL.into_iter().filter(|r| r.variant() == variant).collect();
        sets.sort_by_key(|r| *r != RuleSet::Asian);
        let mut boards =
            sets.into_iter().map(|r| Board::startpos(variant, r).ok()).collect::<Option<Vec<_>>>()?;
        let mut fens = vec![boards[0].fen()];
        let mut keys = vec![boards[0].position_key()];
        let limits = Limits::nodes(MOVE_NODES);
        engine.clear();
        for ply in 0..LINE_PLIES {
            let m = match first_move(ply, variant, &mut rng) {
                Some(first) => boards[0].parse_legal(first).ok()?,
                None if varies(ply, &mut rng) => drawn(&boards[0], engine, rng.next_u64())?,
                None => boards[0].search(engine, &limits, &Control::new(), &mut |_| {}).best?,
            };
            for board in &mut boards {
                board.play(m).ok()?;
                if board.outcome().is_some() {
                    return None;
                }
            }
            fens.push(boards[0].fen());
            keys.push(boards[0].position_key());
        }
        let moves = boards[0].all_names().into_iter().map(|n| (n.iccs, n.wxf)).collect();
        Some(Line { moves, fens, keys })
    }
}

/// Red's first move on the standard board (`ply` 0), about as players choose
/// it: the central cannon most, then the pawn, elephant and horse openings;
/// `None` elsewhere and one game in twenty leaves it to the engine.
fn first_move(ply: usize, variant: Variant, rng: &mut Rng) -> Option<&'static str> {
    if ply != 0 || variant != Variant::Standard {
        return None;
    }
    const FIRST: [(&str, usize); 9] = [
        ("h2e2", 45), // central cannon
        ("c3c4", 15), // pawn (the immortal's guide)
        ("g0e2", 14), // elephant
        ("h0g2", 8),  // horse
        ("b2e2", 5),  // central cannon, the other one
        ("g3g4", 3),
        ("c0e2", 3),
        ("b0c2", 2),
        ("", 5),
    ];
    let mut pick = rng.below(FIRST.iter().map(|(_, w)| w).sum());
    let (first, _) = FIRST.iter().find(|(_, w)| {
        let here = pick < *w;
        pick = pick.saturating_sub(*w);
        here
    })?;
    (!first.is_empty()).then_some(*first)
}

/// Whether the move at `ply` is drawn among the good ones rather than the
/// engine's best: always in the first moves, where players vary most, and
/// one move in ten later, as they leave the main line.
fn varies(ply: usize, rng: &mut Rng) -> bool {
    ply < VARIED_PLIES || rng.below(10) == 0
}

/// A move drawn among the good ones: every move scored by a shallow search
/// and drawn with the weight the site's lower levels give it
/// ([`xiangqi_engine::Style`]), so a move a few centipawns worse is played
/// nearly as often as the best and a blunder almost never.
fn drawn(board: &Board, engine: &mut Engine, seed: u64) -> Option<Move> {
    fn draw<G: Geometry>(game: &Game<G>, engine: &mut Engine, seed: u64) -> Option<Move> {
        let root = Root::from_game(game);
        CHOICE.play(engine, &root, &Limits::default(), &Control::new(), seed, &mut |_| {}).best
    }
    match &**board {
        AnyGame::Standard(g) => draw(g, engine, seed),
        AnyGame::Hex(g) => draw(g, engine, seed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_legal_their_positions_follow_and_they_share_openings() {
        let lines = Lines::play(3, 12, 2);
        assert_eq!(lines.of(Variant::Standard).len(), 12);
        assert_eq!(lines.of(Variant::Hex).len(), 1);
        // Whatever rules a filled game has, its line is legal and goes on.
        for rules in RuleSet::ALL {
            let variant = rules.variant();
            for line in lines.of(variant) {
                assert_eq!(line.moves.len(), LINE_PLIES);
                let mut board = Board::startpos(variant, rules).unwrap();
                for (p, (iccs, _)) in line.moves.iter().enumerate() {
                    assert_eq!(board.fen(), line.fens[p]);
                    assert_eq!(board.position_key(), line.keys[p]);
                    board.play_name(iccs).unwrap_or_else(|e| panic!("{rules:?}, ply {p}: {e}"));
                    assert!(board.outcome().is_none(), "{rules:?}, ply {p}");
                }
                assert_eq!(board.fen(), line.fens[LINE_PLIES]);
            }
        }
        // The engine's choices repeat where no side left them: openings are
        // a tree, not one line each.
        let standard = lines.of(Variant::Standard);
        let firsts: std::collections::HashSet<&str> =
            standard.iter().map(|l| l.moves[0].0.as_str()).collect();
        assert!(firsts.len() < standard.len(), "{firsts:?}");
        // And they leave it: not every line is the same.
        let whole: std::collections::HashSet<&Vec<(String, String)>> =
            standard.iter().map(|l| &l.moves).collect();
        assert!(whole.len() > 1);
    }

    #[test]
    fn the_same_seed_plays_the_same_lines_on_any_number_of_threads() {
        let one = Lines::play(5, 6, 1);
        let two = Lines::play(5, 6, 2);
        let moves = |l: &Lines| l.of(Variant::Standard).iter().map(|l| l.moves.clone()).collect::<Vec<_>>();
        assert_eq!(moves(&one), moves(&two));
    }
}
