//! `xiangqi label`: scores positions by another engine's search, so that the
//! evaluation can be fitted to a stronger engine's judgement (`tune fit` reads
//! the output like game results).

use std::{
    fs,
    io::Write,
    path::PathBuf,
    process::ExitCode,
    sync::atomic::{AtomicUsize, Ordering},
    time::Duration,
};

use crate::tune::expected;
use xiangqi::{Color, Position, Standard};

use crate::{
    matches::player::{Player, Score, Spec},
    progress,
};

#[derive(clap::Args)]
pub struct Args {
    /// Positions, one per line: a FEN, optionally followed by `;` and anything (ignored).
    samples: PathBuf,
    /// The engine that judges, in the fields of `xiangqi match --engine`.
    #[arg(long)]
    engine: String,
    /// Nodes searched per position.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Engine processes run at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
}

/// How long one search of a few thousand nodes may take before the engine is given up.
const PATIENCE: Duration = Duration::from_secs(60);

/// Red's expected score for an engine's score: the tuner's logistic curve at scale 1
/// (so `tune fit --scale 1` reads the labels on the engine's own scale), and
/// certainty for a mate.
pub fn expected_for_red(score: Score, turn: Color) -> f64 {
    let mover = match score {
        Score::Centipawns(cp) => expected(1.0, f64::from(cp)),
        Score::Mate(n) => f64::from(u8::from(n > 0)),
    };
    if turn == Color::Red { mover } else { 1.0 - mover }
}

pub fn run(args: Args) -> ExitCode {
    match label(&args) {
        Ok(skipped) => {
            if skipped > 0 {
                eprintln!("xiangqi label: {skipped} positions had no score and were left out");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("xiangqi label: {e}");
            ExitCode::from(2)
        }
    }
}

/// Labels every position, in input order, and returns how many got no score.
fn label(args: &Args) -> Result<usize, String> {
    let spec = Spec::parse(&args.engine)?;
    let text = fs::read_to_string(&args.samples).map_err(|e| format!("{}: {e}", args.samples.display()))?;
    let positions = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, line)| {
            let fen = line.split(';').next().unwrap_or("").trim();
            let pos: Position<Standard> = fen.parse().map_err(|e| format!("line {}: {e}", n + 1))?;
            Ok((fen.to_string(), pos.turn()))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let next = AtomicUsize::new(0);
    let bar = progress::bar(positions.len() as u64, "labelling");
    // Each worker returns its (index, label) pairs; sorting restores input order.
    let mut labels: Vec<(usize, Option<f64>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..args.jobs.max(1))
            .map(|_| {
                scope.spawn(|| -> Result<Vec<(usize, Option<f64>)>, String> {
                    let mut engine = Player::start(&spec)?;
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((fen, turn)) = positions.get(i) else { return Ok(out) };
                        // A fresh hash table per position: a label must not depend on
                        // which positions the same process searched before it.
                        let score = engine
                            .new_game()
                            .and_then(|()| engine.analyse(fen, args.nodes, PATIENCE))
                            .map_err(|e| format!("{}: {e:?} on {fen}", spec.name))?;
                        out.push((i, score.map(|s| expected_for_red(s, *turn))));
                        bar.inc(1);
                    }
                })
            })
            .collect();
        workers.into_iter().try_fold(Vec::new(), |mut all, w| {
            all.extend(w.join().unwrap_or_else(|_| Err("a worker panicked".into()))?);
            Ok::<_, String>(all)
        })
    })?;
    bar.finish_and_clear();
    labels.sort_unstable_by_key(|&(i, _)| i);
    let mut out = std::io::stdout().lock();
    let mut skipped = 0;
    for (i, label) in labels {
        match label {
            Some(p) => writeln!(out, "{};{p:.4}", positions[i].0).map_err(|e| e.to_string())?,
            None => skipped += 1,
        }
    }
    Ok(skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_become_reds_expected_result() {
        assert!((expected_for_red(Score::Centipawns(0), Color::Red) - 0.5).abs() < 1e-9);
        let up = expected_for_red(Score::Centipawns(400), Color::Red);
        assert!((up - 10.0 / 11.0).abs() < 1e-9, "{up}");
        assert!((expected_for_red(Score::Centipawns(400), Color::Black) - 1.0 / 11.0).abs() < 1e-9);
        assert_eq!(expected_for_red(Score::Mate(3), Color::Black), 0.0);
        assert_eq!(expected_for_red(Score::Mate(-2), Color::Black), 1.0);
    }
}
