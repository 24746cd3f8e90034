//! `xiangqi perft`: leaf counts of the legal move tree, for one position or a file of them.
//!
//! The output is a contract other tools read: with `--divide` one `move: count` line per
//! root move, then always `nodes: <N>` and a line with the time and speed. With `--epd`
//! each failure is printed with its FEN and depth, and the last line is
//! `<P> passed, <F> failed`.

use std::{
    path::PathBuf,
    process::ExitCode,
    sync::atomic::{AtomicUsize, Ordering},
    time::Instant,
};

use xiangqi::{Geometry, Position, Variant, with_geometry};

use xiangqi_tools::progress;

#[derive(clap::Args)]
pub struct Args {
    /// Depth in plies (with --epd: the deepest depth to check; default all).
    depth: Option<u32>,
    /// Start from this FEN instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Print the leaf count under each root move.
    #[arg(long)]
    divide: bool,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Check every line of a file of `FEN;D1 n;D2 n;...` lines.
    #[arg(long, value_name = "FILE")]
    epd: Option<PathBuf>,
    /// The board: standard or hex.
    #[arg(long, default_value = "standard")]
    variant: Variant,
}

pub fn run(args: Args) -> ExitCode {
    with_geometry!(args.variant, G => run_on::<G>(&args))
}

fn run_on<G: Geometry>(args: &Args) -> ExitCode {
    let result = match &args.epd {
        Some(path) => check_file::<G>(path, args.depth, args.threads.max(1)),
        None => count::<G>(args),
    };
    result.unwrap_or_else(|e| {
        eprintln!("xiangqi perft: {e}");
        ExitCode::from(2)
    })
}

fn count<G: Geometry>(args: &Args) -> Result<ExitCode, String> {
    let depth = args.depth.ok_or("give a depth, e.g. `xiangqi perft 5`")?;
    let pos = match &args.fen {
        Some(fen) => Position::<G>::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::startpos(),
    };
    let start = Instant::now();
    let per_move = divide_parallel(&pos, depth, args.threads.max(1));
    let elapsed = start.elapsed();
    let nodes: u64 = per_move.iter().map(|(_, n)| n).sum();
    if args.divide {
        let mut lines: Vec<_> = per_move.iter().map(|(m, n)| (m.clone(), *n)).collect();
        lines.sort();
        for (m, n) in lines {
            println!("{m}: {n}");
        }
    }
    let nodes = if depth == 0 { 1 } else { nodes };
    println!("nodes: {nodes}");
    let secs = elapsed.as_secs_f64();
    println!("time: {:.3} s, {:.0} nodes/s", secs, nodes as f64 / secs.max(1e-9));
    Ok(ExitCode::SUCCESS)
}

/// Leaf counts under each root move, the root moves shared out among `threads` workers.
fn divide_parallel<G: Geometry>(pos: &Position<G>, depth: u32, threads: usize) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    let next = AtomicUsize::new(0);
    let mut results: Vec<(String, u64)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.min(moves.len()).max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&m) = moves.get(i) else { break };
                        let mut child = pos.clone();
                        child.play_unchecked(m);
                        out.push((pos.move_name(m), child.perft(depth - 1)));
                    }
                    out
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap_or_default()).collect()
    });
    results.sort();
    results
}

struct Case {
    line: usize,
    fen: String,
    depths: Vec<(u32, u64)>,
}

fn parse_file(text: &str) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim().to_string();
        let mut depths = Vec::new();
        for p in parts {
            let p = p.trim();
            let parsed = p
                .strip_prefix('D')
                .and_then(|r| r.split_once(' '))
                .and_then(|(d, n)| Some((d.parse().ok()?, n.trim().parse().ok()?)));
            depths.push(parsed.ok_or_else(|| format!("line {}: {p:?} is not `D<depth> <nodes>`", i + 1))?);
        }
        cases.push(Case { line: i + 1, fen, depths });
    }
    Ok(cases)
}

fn check_file<G: Geometry>(
    path: &PathBuf,
    max_depth: Option<u32>,
    threads: usize,
) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let cases = parse_file(&text)?;
    let bar = progress::bar(cases.len() as u64, "perft");
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    let outcomes: Vec<(usize, Vec<String>, u32, u64)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(case) = cases.get(i) else { break };
                        out.push(check_case::<G>(case, max_depth));
                        bar.inc(1);
                    }
                    out
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap_or_default()).collect()
    });
    bar.finish_and_clear();
    let mut outcomes = outcomes;
    outcomes.sort_by_key(|o| o.0);
    let (mut passed, mut failed, mut nodes) = (0u32, 0u32, 0u64);
    for (_, failures, ok, n) in &outcomes {
        for f in failures {
            println!("{f}");
        }
        passed += ok;
        failed += failures.len() as u32;
        nodes += n;
    }
    let secs = start.elapsed().as_secs_f64();
    println!("nodes: {nodes}");
    println!("time: {:.3} s, {:.0} nodes/s", secs, nodes as f64 / secs.max(1e-9));
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Checks one line: (line number, failure messages, depths passed, nodes counted).
fn check_case<G: Geometry>(case: &Case, max_depth: Option<u32>) -> (usize, Vec<String>, u32, u64) {
    let pos = match Position::<G>::from_fen(&case.fen) {
        Ok(p) => p,
        Err(e) => {
            return (case.line, vec![format!("FAIL line {}: {}: bad FEN: {e}", case.line, case.fen)], 0, 0);
        }
    };
    let mut failures = Vec::new();
    let (mut passed, mut nodes) = (0, 0);
    for &(depth, expected) in case.depths.iter().filter(|(d, _)| max_depth.is_none_or(|m| *d <= m)) {
        let got = pos.perft(depth);
        nodes += got;
        if got == expected {
            passed += 1;
        } else {
            failures.push(format!(
                "FAIL line {}: {} depth {depth}: got {got}, expected {expected}",
                case.line, case.fen
            ));
        }
    }
    (case.line, failures, passed, nodes)
}
