//! `tune`: fits the evaluation weights to self-play results (Texel's method).
//!
//! ```text
//! tune selfplay --games 2000 --nodes 2000 --threads 2 --seed 1 > samples.txt
//! tune fit samples.txt --passes 20 [--scale K] [--freeze NAME,...] [--start weights.txt] > weights.txt
//! ```
//!
//! The fitted weights are `name = value` lines; copy them into the defaults of
//! `crates/xiangqi-engine/src/eval/params.rs`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use xiangqi_engine::eval::{Params, params::NAMES};
use xiangqi_tools::tune;

/// Fits the evaluation weights to game results (Texel's method).
#[derive(Parser)]
#[command(name = "tune")]
struct Args {
    #[command(subcommand)]
    command: Command,
    /// Weights to start from (`name = value` lines), else the engine's defaults.
    #[arg(long, global = true)]
    start: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Self-play games; prints their quiet positions as `FEN;result` lines.
    Selfplay {
        #[arg(long, default_value_t = 1000)]
        games: usize,
        #[arg(long, default_value_t = 2000)]
        nodes: u64,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Fits the weights to a samples file; prints them as `name = value` lines.
    Fit {
        samples: String,
        #[arg(long, default_value_t = 20)]
        passes: usize,
        /// The logistic scale K; 0 fits it. Labels from another engine's scores
        /// (`xiangqi label`) are already on its centipawn scale: `--scale 1`
        /// fits the weights to that scale instead of ours.
        #[arg(long, default_value_t = 0.0)]
        scale: f64,
        /// Weights kept as they are, e.g. the material values set by matches.
        #[arg(long, default_value = "")]
        freeze: String,
    },
}

fn run(args: Args) -> Result<(), String> {
    let start = match &args.start {
        Some(path) => Params::parse(&std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?)?,
        None => Params::default(),
    };
    match args.command {
        Command::Selfplay { games, nodes, threads, seed } => {
            for line in tune::selfplay(games, nodes, threads, seed, &start) {
                println!("{line}");
            }
            Ok(())
        }
        Command::Fit { samples: path, passes, scale, freeze } => {
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
            let samples = tune::parse_samples(&text)?;
            let k = if scale > 0.0 { scale } else { tune::fit_scale(&samples, &start) };
            eprintln!(
                "{} samples, scale K = {k:.3}, error {:.6}",
                samples.len(),
                tune::error(&samples, &start, k)
            );
            let frozen: Vec<&str> = freeze.split(',').filter(|n| !n.is_empty()).collect();
            if let Some(unknown) = frozen.iter().find(|n| !NAMES.contains(n)) {
                return Err(format!("--freeze: no weight is named {unknown}"));
            }
            let tuned = tune::tune(&samples, &start, k, passes, &frozen, &mut |pass, err, _| {
                eprintln!("pass {pass}: error {err:.6}");
            });
            print!("{}", tuned.write());
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune: {e}");
            ExitCode::from(2)
        }
    }
}
