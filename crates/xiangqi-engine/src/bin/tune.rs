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

use xiangqi_engine::{
    eval::{Params, params::NAMES},
    tune,
};

fn value<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> Result<T, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(default),
        Some(i) => {
            args.get(i + 1).and_then(|v| v.parse().ok()).ok_or_else(|| format!("{name} needs a value"))
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let start = match args.iter().position(|a| a == "--start") {
        Some(i) => {
            let path = args.get(i + 1).ok_or("--start needs a file")?;
            Params::parse(&std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?)?
        }
        None => Params::default(),
    };
    match args.first().map(String::as_str) {
        Some("selfplay") => {
            let games = value(args, "--games", 1000usize)?;
            let nodes = value(args, "--nodes", 2000u64)?;
            let threads = value(args, "--threads", 1usize)?;
            let seed = value(args, "--seed", 1u64)?;
            for line in tune::selfplay(games, nodes, threads, seed, &start) {
                println!("{line}");
            }
            Ok(())
        }
        Some("fit") => {
            let path = args.get(1).filter(|a| !a.starts_with("--")).ok_or("fit needs a samples file")?;
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            let samples = tune::parse_samples(&text)?;
            let passes = value(args, "--passes", 20usize)?;
            // Labels from another engine's scores (`xiangqi label`) are already on its
            // centipawn scale: `--scale 1` fits the weights to that scale instead of ours.
            let k = match value(args, "--scale", 0.0f64)? {
                k if k > 0.0 => k,
                _ => tune::fit_scale(&samples, &start),
            };
            eprintln!("{} samples, scale K = {k:.3}, error {:.6}", samples.len(), tune::error(&samples, &start, k));
            // Weights kept as they are, e.g. the material values set by matches.
            let frozen = value(args, "--freeze", String::new())?;
            let frozen: Vec<&str> = frozen.split(',').filter(|n| !n.is_empty()).collect();
            if let Some(unknown) = frozen.iter().find(|n| !NAMES.contains(n)) {
                return Err(format!("--freeze: no weight is named {unknown}"));
            }
            let tuned = tune::tune(&samples, &start, k, passes, &frozen, &mut |pass, err, _| {
                eprintln!("pass {pass}: error {err:.6}");
            });
            print!("{}", tuned.write());
            Ok(())
        }
        _ => Err("usage: tune selfplay [--games N] [--nodes N] [--threads N] [--seed N] [--start FILE]\n       tune fit SAMPLES [--passes N] [--scale K] [--freeze NAME,...] [--start FILE]".into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune: {e}");
            ExitCode::from(2)
        }
    }
}
