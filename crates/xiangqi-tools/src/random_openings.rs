//! `xiangqi openings`: random opening lines filtered to balanced positions, for
//! matches whose result should not lean on one hand-picked opening file.
//!
//! Each candidate is a few uniformly random legal moves from the start, drawn
//! from its own seeded generator (the run's seed mixed with the candidate's
//! number), so a line depends only on the seed and its number, not on how
//! many were kept before it. A candidate is kept when the game goes on, its
//! position has not been kept already (two move orders can reach one
//! position), and the engine's own evaluation, searched to a fixed depth with
//! the embedded net, is within the margin. The output is an opening file for
//! `xiangqi match --openings`.

use std::{collections::HashSet, io::Write, process::ExitCode};

use xiangqi::{Game, Geometry, Position, Variant, rng::Rng, with_geometry};
use xiangqi_engine::{Control, Engine, Limits, Options, Root};

/// Candidates tried per opening asked for before giving up: a margin so narrow
/// that almost nothing passes must end with an error, not run forever.
const TRIES_PER_OPENING: u64 = 200;

#[derive(clap::Args)]
pub struct Args {
    /// Random plies from the start position in each line.
    #[arg(long, default_value_t = 4)]
    plies: usize,
    /// Openings to write.
    #[arg(long, default_value_t = 200)]
    count: usize,
    /// Keep a line only when the search's score is within this many centipawns of level.
    #[arg(long, default_value_t = 50)]
    within: i32,
    /// The depth each candidate is searched to.
    #[arg(long, default_value_t = 8)]
    depth: i32,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The board: standard or hex.
    #[arg(long, default_value = "standard")]
    variant: Variant,
}

/// What to draw and what to keep.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub plies: usize,
    pub count: usize,
    pub within: i32,
    pub depth: i32,
    pub seed: u64,
    /// Candidates drawn at most.
    pub tries: u64,
}

/// A kept line: its moves in ICCS (cells on the hex board) and Red's score in centipawns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub moves: Vec<String>,
    pub red_score: i32,
}

impl Line {
    /// The line as a row of an opening file, its score as a comment.
    pub fn text(&self) -> String {
        format!("{}  # {:+}\n", self.moves.join(" "), self.red_score)
    }
}

pub fn run(args: Args) -> ExitCode {
    let plan = Plan {
        plies: args.plies,
        count: args.count,
        within: args.within,
        depth: args.depth,
        seed: args.seed,
        tries: TRIES_PER_OPENING.saturating_mul(args.count as u64),
    };
    let lines = with_geometry!(args.variant, G => balanced::<G>(&plan, |kept, tried| {
        eprint!("\r{kept}/{} kept of {tried} tried", plan.count);
    }));
    eprintln!();
    match lines {
        Ok(lines) => {
            let mut out = std::io::stdout().lock();
            let header = format!(
                "# xiangqi openings --variant {} --plies {} --count {} --within {} --depth {} --seed {}\n\
                 # {} random lines whose position the engine scores within ±{} cp at depth {}; the comment is Red's score\n",
                args.variant.name(),
                plan.plies,
                plan.count,
                plan.within,
                plan.depth,
                plan.seed,
                lines.len(),
                plan.within,
                plan.depth
            );
            let text: String = std::iter::once(header).chain(lines.iter().map(Line::text)).collect();
            match out.write_all(text.as_bytes()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("xiangqi openings: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(e) => {
            eprintln!("xiangqi openings: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Draws candidates until `plan.count` are kept; `progress` hears the kept and tried counts.
///
/// # Errors
/// When a plan cannot be met: no plies or depth, or too few candidates pass.
pub fn balanced<G: Geometry>(plan: &Plan, mut progress: impl FnMut(usize, u64)) -> Result<Vec<Line>, String> {
    if plan.plies == 0 || plan.depth < 1 || plan.count == 0 {
        return Err("--plies, --depth and --count must each be at least 1".into());
    }
    if plan.within < 0 {
        return Err("--within is a margin in centipawns, at least 0".into());
    }
    let mut engine = Engine::new(Options::default().with_embedded_net());
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    for number in 0..plan.tries {
        if kept.len() == plan.count {
            break;
        }
        progress(kept.len(), number);
        let Some((game, moves)) = random_line::<G>(plan.plies, plan.seed, number) else { continue };
        if !seen.insert(game.position().hash()) {
            continue;
        }
        engine.clear();
        let result =
            engine.search(&Root::from_game(&game), &Limits::depth(plan.depth), &Control::new(), &mut |_| {});
        let score = result.value();
        if score.abs() > plan.within {
            continue;
        }
        let red_score = if game.position().turn() == xiangqi::Color::Red { score } else { -score };
        kept.push(Line { moves, red_score });
    }
    if kept.len() < plan.count {
        return Err(format!(
            "only {} of {} candidates were within ±{} cp; widen --within or ask for fewer",
            kept.len(),
            plan.tries,
            plan.within
        ));
    }
    Ok(kept)
}

/// The candidate of this number and its moves' names: `plies` random legal
/// moves from the start, or none where the game ends before they are played out.
fn random_line<G: Geometry>(plies: usize, seed: u64, number: u64) -> Option<(Game<G>, Vec<String>)> {
    let mut rng = Rng(seed ^ number.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut game = Game::new(Position::<G>::startpos(), G::VARIANT.default_rules());
    let mut names = Vec::with_capacity(plies);
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            return None;
        }
        let m = moves[rng.below(moves.len())];
        names.push(game.position().move_name(m));
        game.play(m).ok()?;
    }
    game.outcome().is_none().then_some((game, names))
}

#[cfg(test)]
mod tests {
    use xiangqi::{Hex, RuleSet, Standard};

    use super::*;
    use crate::matches::openings;

    fn plan(count: usize, within: i32) -> Plan {
        Plan { plies: 4, count, within, depth: 3, seed: 7, tries: 200 * count as u64 }
    }

    #[test]
    fn lines_are_reproducible_distinct_legal_and_within_the_margin() {
        let first = balanced::<Standard>(&plan(6, 40), |_, _| {}).unwrap();
        assert_eq!(first, balanced::<Standard>(&plan(6, 40), |_, _| {}).unwrap());
        assert_eq!(first.len(), 6);
        let text: String = first.iter().map(Line::text).collect();
        let read = openings::parse::<Standard>(&text).unwrap();
        let positions: HashSet<String> =
            read.iter().map(|o| o.game(Variant::Standard, RuleSet::Asian).fen()).collect();
        assert_eq!(positions.len(), 6, "two lines reach one position: {first:?}");
        for line in &first {
            assert_eq!(line.moves.len(), 4);
            assert!(line.red_score.abs() <= 40, "{line:?}");
        }
        // Another seed draws other lines.
        let other = balanced::<Standard>(&Plan { seed: 8, ..plan(6, 40) }, |_, _| {}).unwrap();
        assert_ne!(first, other);
    }

    #[test]
    fn a_plan_that_cannot_be_met_is_refused() {
        // Two openings from one candidate cannot be had.
        let e = balanced::<Standard>(&Plan { tries: 1, ..plan(2, 50) }, |_, _| {}).unwrap_err();
        assert!(e.contains("of 1 candidates"), "{e}");
        assert!(balanced::<Standard>(&Plan { plies: 0, ..plan(1, 50) }, |_, _| {}).is_err());
        assert!(balanced::<Standard>(&Plan { within: -1, ..plan(1, 50) }, |_, _| {}).is_err());
    }

    #[test]
    fn the_hex_board_has_balanced_lines_too() {
        let lines = balanced::<Hex>(&Plan { plies: 2, ..plan(3, 60) }, |_, _| {}).unwrap();
        let text: String = lines.iter().map(Line::text).collect();
        assert_eq!(openings::parse::<Hex>(&text).unwrap().len(), 3);
    }
}
