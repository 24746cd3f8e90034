//! Finding puzzles in a game: a position where the side to move has one move
//! that wins decisively and no other comes close, followed while each of the
//! solver's moves stays the only one.
//!
//! Every position of the game is first searched briefly; a position where the
//! side to move now wins but did not before the other side's last move is a
//! candidate. A deeper search then finds its best move, and a second search
//! of every other move says whether one comes close. The opponent's replies
//! in the line are the engine's best defence, so a line never wins only
//! because the opponent blunders again.

use xiangqi::{Game, Geometry, Move, Outcome, Position};
use xiangqi_engine::{Analysis, Control, Engine, Limits, Root};

use super::themes::themes_of;
use crate::domain::board::Board;
use crate::model::eval::Eval;
use crate::model::puzzles::PuzzleTheme;

/// How hard the finder looks.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Nodes for the first look at every position of a game.
    pub scan_nodes: u64,
    /// Nodes for each search that decides a puzzle: its best move, whether
    /// another comes close, the opponent's replies.
    pub verify_nodes: u64,
}

impl Budget {
    /// The site's: a puzzle's moves are judged by about a third of a second
    /// of one engine each.
    pub const SITE: Budget = Budget { scan_nodes: 30_000, verify_nodes: 300_000 };
}

/// The solver's expected score (Win%) from which a move wins decisively:
/// about a horse ahead, or a forced mate.
pub const WIN_PCT: f64 = 85.0;
/// No second move may reach this: it would leave the solver a choice.
pub const SECOND_PCT: f64 = 70.0;
/// Before the opponent's last move the solver had less than this: the
/// position was not already won.
pub const BEFORE_PCT: f64 = 70.0;
/// The first look marks a candidate from this much (a first look is rough).
const CANDIDATE_PCT: f64 = 75.0;
/// Puzzles start this many moves into a game from the usual setup at the
/// earliest: the openings' first moves are known, not found.
const FIRST_PLY: usize = 6;
/// A line stops after this many of the solver's moves unless it mates.
const LONGEST_WIN: usize = 4;
/// A mating line stops after this many of the solver's moves.
const LONGEST_MATE: usize = 8;

/// A puzzle found in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Moves of the game before the opponent's move that sets the puzzle.
    pub ply: usize,
    /// The position before that move, as FEN.
    pub fen: String,
    /// The opponent's move, then the solver's and the opponent's in turn,
    /// ending with the solver's; written as the board writes stored moves.
    pub moves: Vec<String>,
    /// The position the solver starts in, by its hash: one puzzle each.
    pub key: u64,
    pub mate: bool,
    pub themes: Vec<PuzzleTheme>,
}

impl Found {
    /// The solver's moves in the line.
    pub fn solver_moves(&self) -> usize {
        self.moves.len() / 2
    }
}

/// The search was stopped (a game needed the engine): nothing was decided.
#[derive(Debug, PartialEq, Eq)]
pub struct Interrupted;

/// The puzzles of a finished or unfinished game, in the order they arise;
/// [`Interrupted`] if `stop` was set meanwhile.
pub fn find_in(
    board: &Board,
    engine: &mut Engine,
    budget: Budget,
    stop: &Control,
) -> Result<Vec<Found>, Interrupted> {
    find_in_looked(board, None, engine, budget, stop)
}

/// [`find_in`], where the first look at every position was taken already
/// (`looks[k]`: the position after `k` moves, for its side to move), as a
/// game the engine plays against itself takes it while choosing its moves.
pub fn find_in_looked(
    board: &Board,
    looks: Option<&[Eval]>,
    engine: &mut Engine,
    budget: Budget,
    stop: &Control,
) -> Result<Vec<Found>, Interrupted> {
    let mut searcher = Searcher { engine, stop };
    let found = crate::domain::board::each!(board, g => find_in_game(g, looks, &mut searcher, budget));
    if stop.is_stopped() { Err(Interrupted) } else { Ok(found) }
}

/// An engine whose searches all end when `stop` is set.
struct Searcher<'a> {
    engine: &'a mut Engine,
    stop: &'a Control,
}

/// A position's evaluation for its side to move, after a search of `nodes`.
fn look<G: Geometry>(game: &Game<G>, engine: &mut Searcher<'_>, nodes: u64) -> (Eval, Option<Move>) {
    if let Some(outcome) = game.outcome() {
        return (Eval::over(outcome, game.turn()), None);
    }
    let found = search(engine, &Root::from_game(game), nodes);
    (Eval::from_score(found.score()), found.best)
}

fn search<G: Geometry>(s: &mut Searcher<'_>, root: &Root<G>, nodes: u64) -> Analysis {
    if s.stop.is_stopped() {
        // Every later search would end at once: say nothing wins.
        return Analysis { best: None, ..s.engine.search(root, &Limits::depth(1), s.stop, &mut |_| {}) };
    }
    s.engine.search(root, &Limits::nodes(nodes), s.stop, &mut |_| {})
}

/// The best move of the side to move and whether it is the only good one:
/// it wins decisively and every other move falls short of [`SECOND_PCT`].
fn only_win<G: Geometry>(game: &Game<G>, engine: &mut Searcher<'_>, nodes: u64) -> Option<(Move, Eval)> {
    let (eval, best) = look(game, engine, nodes);
    let best = best?;
    if eval.win_percent() < WIN_PCT {
        return None;
    }
    let others: Vec<Move> = game.legal_moves().into_iter().filter(|&m| m != best).collect();
    if !others.is_empty() {
        let mut root = Root::from_game(game);
        root.search_only(others);
        let second = Eval::from_score(search(engine, &root, nodes).score());
        if second.win_percent() >= SECOND_PCT {
            return None;
        }
    }
    Some((best, eval))
}

/// Whether the side that just moved mated (or otherwise won on the board).
fn won_by_last_move<G: Geometry>(game: &Game<G>) -> bool {
    game.outcome().is_some_and(|o: Outcome| o.winner == Some(!game.turn()))
}

/// A mating move of the side to move, if it has one.
fn mate_in_one<G: Geometry>(game: &Game<G>) -> Option<Move> {
    game.legal_moves().into_iter().find(|&m| {
        let mut next = game.clone();
        next.play(m).is_ok() && won_by_last_move(&next)
    })
}

fn find_in_game<G: Geometry>(
    game: &Game<G>,
    looked: Option<&[Eval]>,
    engine: &mut Searcher<'_>,
    budget: Budget,
) -> Vec<Found> {
    let moves = game.moves();
    let first = if *game.start() == Position::startpos() { FIRST_PLY } else { 1 };
    let looks: Vec<Eval> = match looked {
        Some(l) if l.len() == moves.len() + 1 => l.to_vec(),
        _ => (0..=moves.len())
            .map(|k| {
                if k + 1 < first {
                    Eval::Cp(0)
                } else {
                    look(&game.replay_to(k), engine, budget.scan_nodes).0
                }
            })
            .collect(),
    };
    let mut found = Vec::new();
    let mut k = first;
    while k <= moves.len() && !engine.stop.is_stopped() {
        let solver_before = looks[k - 1].flip().win_percent();
        if solver_before >= BEFORE_PCT || looks[k].win_percent() < CANDIDATE_PCT {
            k += 1;
            continue;
        }
        let at = game.replay_to(k);
        match follow(&at, engine, budget.verify_nodes) {
            Some((line, mate)) => {
                let before = game.replay_to(k - 1);
                let written = written(&before, &moves[k - 1..k], &line);
                found.push(Found {
                    ply: k - 1,
                    fen: before.position().to_fen(),
                    themes: themes_of(at.position(), &line, k, mate),
                    key: at.position().hash(),
                    moves: written,
                    mate,
                });
                k += line.len() + 1;
            }
            None => k += 1,
        }
    }
    found
}

/// The line from a position where the solver moves: each solver move the
/// only one that wins, each reply the engine's best; and whether it mates.
fn follow<G: Geometry>(start: &Game<G>, engine: &mut Searcher<'_>, nodes: u64) -> Option<(Vec<Move>, bool)> {
    let (first, _) = only_win(start, engine, nodes)?;
    let mut game = start.clone();
    game.play(first).ok()?;
    let mut line = vec![first];
    loop {
        if won_by_last_move(&game) {
            return Some((line, true));
        }
        let solver_moves = line.len().div_ceil(2);
        if game.outcome().is_some() || solver_moves >= LONGEST_MATE {
            return Some((line, false));
        }
        let (_, reply) = look(&game, engine, nodes);
        let reply = reply?;
        let mut next = game.clone();
        next.play(reply).ok()?;
        if next.outcome().is_some() {
            return Some((line, false));
        }
        // A mate in one ends the line whichever mating move is played.
        let answer = match mate_in_one(&next) {
            Some(m) => m,
            None => match only_win(&next, engine, nodes) {
                Some((m, eval)) if solver_moves < LONGEST_WIN || matches!(eval, Eval::Mate(_)) => m,
                _ => return Some((line, false)),
            },
        };
        next.play(answer).ok()?;
        line.extend([reply, answer]);
        game = next;
    }
}

/// The moves of a puzzle as the board writes stored moves: the setup move
/// from `before`, then the line.
fn written<G: Geometry>(before: &Game<G>, setup: &[Move], line: &[Move]) -> Vec<String> {
    let mut pos: Position<G> = before.position().clone();
    setup
        .iter()
        .chain(line)
        .map(|&m| {
            let name = pos.move_name(m);
            pos.play_unchecked(m);
            name
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use xiangqi::Variant;
    use xiangqi_engine::Options;

    use super::*;
    use crate::domain::board::default_rules;

    /// Enough for the hand-picked positions, and quick in a test build.
    const TEST: Budget = Budget { scan_nodes: 20_000, verify_nodes: 60_000 };

    fn engine() -> Engine {
        Engine::new(Options { hash_mb: 4, ..Default::default() }.with_embedded_net())
    }

    /// A game from `fen` through `moves` (names the board reads).
    fn game(variant: Variant, fen: &str, moves: &[&str]) -> Board {
        let mut b = Board::from_fen(variant, fen, default_rules(variant)).unwrap();
        for m in moves {
            b.play_name(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        b
    }

    #[test]
    fn a_single_winning_capture_is_found_and_two_wins_are_refused() {
        // Black's chariot steps onto the d file in front of the red chariot,
        // which takes it for nothing: the only move that wins.
        let board = game(Variant::Standard, "4k4/9/9/9/9/9/2r6/9/3R5/3K5 b", &["c3d3"]);
        let mut engine = engine();
        let found = find_in(&board, &mut engine, TEST, &Control::new()).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        let p = &found[0];
        assert_eq!((p.ply, p.fen.as_str()), (0, "4k4/9/9/9/9/9/2r6/9/3R5/3K5 b - - 0 1"));
        assert_eq!(p.moves, ["c3d3", "d1d3"], "the opponent's move, then the solver's");
        assert!(p.themes.contains(&PuzzleTheme::Capture), "{:?}", p.themes);
        assert!(!p.mate);

        // A red horse can take it too: two winning moves make no puzzle.
        let two = game(Variant::Standard, "n3k4/9/9/9/4H4/9/2r6/9/3R5/3K5 b", &["c3d3"]);
        assert_eq!(find_in(&two, &mut engine, TEST, &Control::new()).unwrap(), []);
    }

    #[test]
    fn a_mate_line_is_followed_to_its_end() {
        // The horse shuts its own general in: the chariot checks on the f
        // file, black puts its chariot and its horse in the way, and both are
        // taken, the second with mate (the general may not step to e9, which
        // faces the red general).
        let fen = "5k3/6n2/9/9/9/9/2r6/4K4/3R5/9 b";
        let board = game(Variant::Standard, fen, &["g8e9"]);
        let found = find_in(&board, &mut engine(), TEST, &Control::new()).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        let p = &found[0];
        assert_eq!(p.moves, ["g8e9", "d1f1", "c3f3", "f1f3", "e9f7", "f3f7"]);
        assert!(p.mate);
        assert_eq!(p.solver_moves(), 3);
        assert!(
            p.themes.contains(&PuzzleTheme::MateIn3) && p.themes.contains(&PuzzleTheme::FlyingGeneral),
            "{:?}",
            p.themes
        );
    }

    #[test]
    fn on_the_hex_board_a_real_win_is_found_followed_and_two_wins_refused() {
        let mut engine = engine();
        // From a self-play game: Black's horse takes a soldier, and the red
        // cannon mates at once.
        let fen = "3ak/R5/b1p1a2/8/4b4/P2N2p1p/2R6/-3C4/--B1A1n2/---4rP/----KA3 w - - 3 25";
        let found = find_in(&game(Variant::Hex, fen, &["e4b4"]), &mut engine, TEST, &Control::new()).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].moves, ["e4b4", "h2e2"]);
        assert!(found[0].mate && found[0].themes.contains(&PuzzleTheme::MateIn1), "{:?}", found[0]);

        // Another: the general steps aside, the horse moves off the file (the
        // red general now faces the line), and again.
        let fen = "3a1/4ka/6b/3N4/9/9/8b/-8/--1KA4/---6/----1A3 b - - 40 85";
        let found =
            find_in(&game(Variant::Hex, fen, &["e10e9"]), &mut engine, TEST, &Control::new()).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[0].moves,
            ["e10e9", "d7b8", "e9f9", "b8d7"],
            "followed while each move is the only win"
        );
        assert!(found[0].themes.contains(&PuzzleTheme::Endgame), "{:?}", found[0].themes);

        // A mate in two from a self-play game: Black's chariot steps to d9,
        // Red's takes it, and after the engine's best defence (Black's other
        // chariot to e5) mates on e10.
        let fen = "2bak/p4a/2N3b/3rp3/P5p2/8p/2PRB3r/-8/--1KA4/---5P/----1A3 b - - 0 24";
        let found = find_in(&game(Variant::Hex, fen, &["d7d9"]), &mut engine, TEST, &Control::new()).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].moves, ["d7d9", "d4d9", "i5e5", "d9e10"], "followed to the mate");
        assert!(found[0].mate && found[0].themes.contains(&PuzzleTheme::MateIn2), "{:?}", found[0]);

        // After Red's chariot goes to b7, Black has two moves that win: no puzzle.
        let fen = "1nbak/p2cca/6b/4p3/6p1r/P5n1p/2P1Nr3/-R2P1N2/--B1C1P2/---A4P/----KAB1R w - - 7 9";
        let board = game(Variant::Hex, fen, &["b1b7"]);
        let stop = Control::new();
        let mut s = Searcher { engine: &mut engine, stop: &stop };
        crate::domain::board::each!(&board, g => {
            let (eval, best) = look(g, &mut s, TEST.verify_nodes);
            let others: Vec<Move> = g.legal_moves().into_iter().filter(|&x| Some(x) != best).collect();
            let mut root = Root::from_game(g);
            root.search_only(others);
            let second = Eval::from_score(search(&mut s, &root, TEST.verify_nodes).score());
            assert!(eval.win_percent() >= WIN_PCT && second.win_percent() >= SECOND_PCT, "{eval:?} {second:?}");
        });
        assert_eq!(find_in(&board, &mut engine, TEST, &Control::new()).unwrap(), []);
    }
}
