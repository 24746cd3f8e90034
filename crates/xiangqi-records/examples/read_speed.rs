//! Times the crate's readers on the files `make_corpus` writes: games per
//! second, and the process's peak memory.
//!
//! ```sh
//! cargo run --release -p xiangqi-records --example read_speed -- pgn|xqf|sample [DIR] [--runs N]
//! ```
//!
//! - `pgn`: `DIR/games.pgn` through `read_file` with `Limits::ARCHIVE`, as
//!   `xiangqi convert` reads it: the file is read into memory first, and the
//!   time is that of `read_file`, which holds every game at once;
//! - `xqf`: each file of `DIR/xqf` read from disk and through `xqf::read`;
//! - `sample`: the files of `DIR/sample` one at a time, each read from disk,
//!   the `.xqf` ones through `xqf::read`, the `.pgn` ones through
//!   `read_file`: the same files `cchess_speed.py` gives cchess.
//!
//! Each is run `--runs` times (3) in one process, and the best run is
//! reported beside every run's figure: the machine these numbers come from is
//! shared, so the fastest run is the one least disturbed. Peak memory is the
//! process's high-water mark of resident memory (`VmHWM`), over all the runs.

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use xiangqi_records::{Game, Limits, ReadOptions, RecordError, xqf};

fn fail(why: &str) -> ! {
    eprintln!("read_speed: {why}");
    std::process::exit(2)
}

fn main() {
    let mut positional = Vec::new();
    let mut runs = 3usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--runs" {
            let value = args.next().unwrap_or_else(|| fail("--runs needs a number"));
            runs = value.parse().unwrap_or_else(|_| fail(&format!("--runs: {value:?} is no number")));
        } else {
            positional.push(arg);
        }
    }
    let dir = positional.get(1).map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/records-bench"),
        PathBuf::from,
    );
    match positional.first().map(String::as_str) {
        Some("pgn") => one_file(&dir.join("games.pgn"), runs),
        Some("xqf") => files(&dir.join("xqf"), runs),
        Some("sample") => files(&dir.join("sample"), runs),
        _ => fail("usage: read_speed pgn|xqf|sample [DIR] [--runs N]"),
    }
    println!("peak memory: {:.1} MiB", peak_rss_kib() as f64 / 1024.0);
}

/// What one run read: games kept and refused, and the moves of every game
/// kept (those of a game cut short counted too).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Count {
    games: usize,
    refused: usize,
    moves: usize,
}

impl Count {
    fn add(&mut self, game: &Result<Game, RecordError>) {
        let kept = match game {
            Ok(game) => Some(game),
            Err(e) => {
                self.refused += 1;
                e.kept()
            }
        };
        self.games += 1;
        self.moves += kept.map_or(0, |g| g.tree.len() - 1);
    }
}

/// Prints each run and the best, in games per second (and bytes per second
/// where `bytes` is given).
fn report(what: &str, times: &[Duration], count: Count, bytes: Option<usize>) {
    let rate = |t: &Duration| count.games as f64 / t.as_secs_f64();
    let each: Vec<String> = times.iter().map(|t| format!("{:.3} s", t.as_secs_f64())).collect();
    let Some(best) = times.iter().min() else { return };
    let speed = bytes.map_or(String::new(), |b| {
        format!(", {:.1} MiB/s", b as f64 / (1024.0 * 1024.0) / best.as_secs_f64())
    });
    println!(
        "{what}: {} games ({} refused), {} moves; runs {}; best {:.3} s: {:.0} games/s{speed}",
        count.games,
        count.refused,
        count.moves,
        each.join(", "),
        best.as_secs_f64(),
        rate(best),
    );
}

/// One file of many games, through `read_file`.
fn one_file(path: &Path, runs: usize) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
    let options = ReadOptions { encoding: None, limits: Limits::ARCHIVE };
    let mut times = Vec::new();
    let mut count = Count::default();
    for _ in 0..runs {
        let started = Instant::now();
        let read = xiangqi_records::read_file(&bytes, &options)
            .unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
        times.push(started.elapsed());
        count = Count::default();
        read.games.iter().for_each(|g| count.add(g));
        // The games are dropped here, outside the time, before the next run.
    }
    report(&path.display().to_string(), &times, count, Some(bytes.len()));
}

/// A folder of files, one game each, by their extensions.
fn files(dir: &Path, runs: usize) {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| fail(&format!("{}: {e}", dir.display())))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    for extension in ["xqf", "pgn"] {
        let chosen: Vec<&PathBuf> = paths
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case(extension)))
            .collect();
        if chosen.is_empty() {
            continue;
        }
        let mut times = Vec::new();
        let mut count = Count::default();
        for _ in 0..runs {
            count = Count::default();
            let started = Instant::now();
            for path in &chosen {
                let bytes = std::fs::read(path).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
                if extension == "xqf" {
                    count.add(&xqf::read(&bytes, &Limits::ARCHIVE));
                } else {
                    let options = ReadOptions { encoding: None, limits: Limits::ARCHIVE };
                    let read = xiangqi_records::read_file(&bytes, &options)
                        .unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
                    read.games.iter().for_each(|g| count.add(g));
                }
            }
            times.push(started.elapsed());
        }
        report(&format!("{} (.{extension} files)", dir.display()), &times, count, None);
    }
}

/// The process's peak resident memory in KiB, as Linux counts it; 0 where
/// `/proc` does not say.
fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
