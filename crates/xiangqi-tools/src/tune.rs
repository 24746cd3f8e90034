//! Tuning the evaluation weights from game results (Texel's method).
//!
//! 1. [`selfplay`] plays fast games from the opening file (each start spiced with
//!    one or two random plies) and keeps the quiet positions (side to move not in
//!    check, the engine's choice not a capture), each labelled with the game's
//!    result; it is the NNUE data's self-play ([`crate::nnue::selfplay`]).
//! 2. [`fit_scale`] finds the scale `K` that best maps evaluations to results by
//!    the logistic curve `1 / (1 + 10^(-K * eval / 400))`.
//! 3. [`tune`] moves every weight by a step while the mean squared error between
//!    predicted and actual results falls (coordinate descent), halving the step
//!    when no weight improves.
//!
//! The `tune` binary drives the three steps; its output is a `name = value` file
//! that [`Params::parse`](xiangqi_engine::eval::Params::parse) reads and whose values become the defaults in
//! `eval/params.rs`.

use std::sync::atomic::AtomicBool;

use xiangqi::{Color, Position, Standard};
use xiangqi_engine::eval::{Evaluator, Params, params::NAMES};

use crate::nnue::selfplay;

/// The openings self-play starts from.
pub const OPENINGS: &str = include_str!("../../xiangqi-engine/openings/openings.txt");

/// A quiet position and the result of its game from Red's view (1, 0.5 or 0).
#[derive(Clone, Debug)]
pub struct Sample {
    pub pos: Position<Standard>,
    pub result: f64,
}

/// Reads `FEN;result` lines.
///
/// # Errors
/// The first line that is not a FEN, a `;` and a number from 0 to 1.
pub fn parse_samples(text: &str) -> Result<Vec<Sample>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, line)| {
            let (fen, result) =
                line.rsplit_once(';').ok_or_else(|| format!("line {}: expected FEN;result", n + 1))?;
            let pos = fen.parse().map_err(|e| format!("line {}: {e}", n + 1))?;
            let result: f64 =
                result.trim().parse().map_err(|_| format!("line {}: bad result {result:?}", n + 1))?;
            if !(0.0..=1.0).contains(&result) {
                return Err(format!("line {}: result {result} is not within 0..1", n + 1));
            }
            Ok(Sample { pos, result })
        })
        .collect()
}

/// Plays `games` games at `nodes` nodes a move on `threads` threads, by the
/// self-play of the NNUE data ([`crate::nnue::selfplay`]: one or two random plies
/// after the opening line), and returns its quiet positions labelled with their
/// game's result, as `FEN;result` lines in the order of the games.
pub fn selfplay(games: usize, nodes: u64, threads: usize, seed: u64, params: &Params) -> Vec<String> {
    let config = selfplay::Config {
        nodes,
        threads,
        random_plies: 2,
        seed,
        first_game: 0,
        games: Some(games as u64),
        positions: None,
        hash_mb: 4,
        params: params.clone(),
        // The weights being tuned play, so that the positions are their own.
        nnue: Default::default(),
    };
    let mut played = Vec::new();
    let kept = selfplay::generate::<xiangqi::Standard, ()>(&config, &AtomicBool::new(false), &mut |game| {
        played.push(game);
        Ok(())
    });
    debug_assert!(kept.is_ok());
    played.sort_by_key(|g| g.number);
    played
        .iter()
        .flat_map(|game| {
            let result = game.outcome.score_for(Color::Red);
            game.positions.iter().map(move |(pos, _)| format!("{};{result}", pos.to_fen()))
        })
        .collect()
}

/// Evaluations from Red's view for every sample, with the given weights.
fn red_evals(samples: &[Sample], params: &Params) -> Vec<f64> {
    let eval = Evaluator::<Standard>::new(params.clone());
    let chunk = samples.len().div_ceil(2).max(1);
    std::thread::scope(|scope| {
        let parts: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                let eval = &eval;
                scope.spawn(move || {
                    part.iter()
                        .map(|s| {
                            let v = f64::from(eval.evaluate(&s.pos));
                            if s.pos.turn() == Color::Red { v } else { -v }
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        parts.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    })
}

/// The expected result for the side an evaluation favours, by the logistic curve
/// `1 / (1 + 10^(-k * eval / 400))`: 0.5 at 0, about 0.91 at `400 / k` centipawns.
pub fn expected(k: f64, eval: f64) -> f64 {
    crate::sigmoid(k * eval * std::f64::consts::LN_10 / 400.0)
}

fn mse(samples: &[Sample], evals: &[f64], k: f64) -> f64 {
    let sum: f64 = samples.iter().zip(evals).map(|(s, e)| (s.result - expected(k, *e)).powi(2)).sum();
    sum / samples.len().max(1) as f64
}

/// The error of a set of weights on the samples.
pub fn error(samples: &[Sample], params: &Params, k: f64) -> f64 {
    mse(samples, &red_evals(samples, params), k)
}

/// The logistic scale that best fits the samples with the given weights.
pub fn fit_scale(samples: &[Sample], params: &Params) -> f64 {
    let evals = red_evals(samples, params);
    let (mut lo, mut hi) = (0.05f64, 4.0f64);
    // The error is unimodal in K: a ternary search finds its minimum.
    for _ in 0..60 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if mse(samples, &evals, a) < mse(samples, &evals, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Coordinate descent from `start`; `report(pass, error)` is called after each pass.
/// Weights named in `frozen` keep their values.
pub fn tune(
    samples: &[Sample],
    start: &Params,
    k: f64,
    passes: usize,
    frozen: &[&str],
    report: &mut dyn FnMut(usize, f64, &Params),
) -> Params {
    let mut best = start.clone();
    let mut best_err = error(samples, &best, k);
    let mut step = 8;
    for pass in 1..=passes {
        let mut improved = false;
        for (i, name) in NAMES.iter().enumerate() {
            if frozen.contains(name) {
                continue;
            }
            for delta in [step, -step] {
                let mut trial = best.clone();
                trial.0[i] += delta;
                let e = error(samples, &trial, k);
                if e < best_err {
                    best = trial;
                    best_err = e;
                    improved = true;
                    break;
                }
            }
        }
        report(pass, best_err, &best);
        if !improved {
            if step == 1 {
                break;
            }
            step /= 2;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_parse_and_bad_lines_are_errors() {
        let s = parse_samples("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1;0.5\n")
            .unwrap();
        assert_eq!(s.len(), 1);
        assert!(parse_samples("nonsense;1").is_err());
        assert!(
            parse_samples("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1;2").is_err()
        );
    }

    #[test]
    fn tuning_moves_a_weight_towards_the_results() {
        // Red a chariot up and winning every game: a larger chariot value fits better.
        let fen = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let samples = parse_samples(&format!("{fen};1\n")).unwrap();
        let mut start = Params::default();
        let chariot = NAMES.iter().position(|n| *n == "chariot_mg").unwrap();
        start.0[chariot] = 100;
        let frozen: Vec<&str> = NAMES.iter().copied().filter(|n| !n.starts_with("chariot_")).collect();
        let tuned = tune(&samples, &start, 1.0, 3, &frozen, &mut |_, _, _| {});
        assert!(tuned.0[chariot] > 100);
        assert!(error(&samples, &tuned, 1.0) < error(&samples, &start, 1.0));
    }

    #[test]
    fn selfplay_labels_quiet_positions() {
        let lines = selfplay(1, 200, 1, 7, &Params::default());
        assert!(!lines.is_empty());
        assert!(parse_samples(&lines.join("\n")).is_ok());
    }
}
