//! The engine's benchmark without the `xiangqi` command: fixed positions searched
//! to a fixed depth, printing the node signature and the speed.
//!
//! ```sh
//! cargo run --release -p xiangqi-engine --example bench -- 15
//! cargo run --release -p xiangqi-engine --example bench -- 15 2   # two search threads
//! ```
//!
//! With more than one thread the node count varies from run to run; the speed
//! is what to compare.

use xiangqi_engine::{bench, nnue::Nets};

fn main() {
    let depth =
        std::env::args().nth(1).map_or(bench::DEFAULT_DEPTH, |d| d.parse().expect("a depth in plies"));
    let threads = std::env::args().nth(2).map_or(1, |t| t.parse().expect("a number of threads"));
    let report = bench::run(depth, 16, threads, Nets::default(), &mut |i, fen, nodes| {
        eprintln!("position {:>2}: {nodes:>10} nodes  {fen}", i + 1);
    })
    .expect("the benchmark positions parse");
    println!("time: {} ms", report.time.as_millis());
    println!("nodes: {}", report.nodes);
    println!("nps: {}", report.nps());
}
