//! `xiangqi bench`: fixed positions searched to a fixed depth. The last lines are a
//! contract: `nodes: <N>` (a deterministic signature of the search at one thread)
//! and `nps: <N>`.

use std::process::ExitCode;

use xiangqi::Variant;
use xiangqi_engine::{
    bench,
    nnue::{Nets, Network},
};

#[derive(clap::Args)]
pub struct Args {
    /// Search depth in plies.
    #[arg(default_value_t = bench::DEFAULT_DEPTH)]
    depth: i32,
    /// Transposition table size in megabytes.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Search threads (more than one makes the node count vary between runs).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Evaluate with the embedded NNUE nets (one for each board).
    #[arg(long)]
    nnue: bool,
    /// Evaluate the positions of this net's board with the NNUE net in this file.
    #[arg(long)]
    eval_file: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    if !(1..=100).contains(&args.depth) {
        eprintln!("xiangqi bench: depth must be from 1 to 100");
        return ExitCode::from(2);
    }
    let nets = match (&args.eval_file, args.nnue) {
        (Some(path), _) => match Network::load(path) {
            Ok(net) => Nets::default().with(std::sync::Arc::new(net)),
            Err(e) => {
                eprintln!("xiangqi bench: {e}");
                return ExitCode::from(2);
            }
        },
        (None, true) => Nets::embedded(),
        (None, false) => Nets::default(),
    };
    for variant in Variant::ALL {
        if let Some(net) = nets.get(variant) {
            eprintln!("{} board: NNUE net {:016x} ({:?} kernel)", variant.name(), net.hash(), net.kernel());
        }
    }
    let report = bench::run(args.depth, args.hash.max(1), args.threads.max(1), nets, &mut |i, fen, nodes| {
        eprintln!("position {:>2}: {nodes:>10} nodes  {fen}", i + 1);
    });
    match report {
        Ok(r) => {
            println!("time: {} ms", r.time.as_millis());
            println!("nodes: {}", r.nodes);
            println!("nps: {}", r.nps());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("xiangqi bench: {e}");
            ExitCode::FAILURE
        }
    }
}
