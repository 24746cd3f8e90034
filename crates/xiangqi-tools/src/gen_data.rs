//! `xiangqi gen-data`: self-play games at a fixed node budget, written as NNUE
//! training records (the tools crate's `nnue::data` format). An existing file is
//! appended to, and the game numbering continues where it stopped, so a run that
//! was interrupted is resumed by running the same command again.

use std::{
    fs::OpenOptions,
    io::{Seek, SeekFrom, Write},
    path::PathBuf,
    process::ExitCode,
    sync::atomic::AtomicBool,
    time::Instant,
};

use crate::nnue::{
    data::{Outcome, RECORD_SIZE},
    selfplay::{self, Config},
};
use xiangqi_engine::eval::Params;

#[derive(clap::Args)]
pub struct Args {
    /// The file to write (appended to when it exists).
    output: PathBuf,
    /// Nodes searched for each move.
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// Games played at once (one search thread each); defaults to every core.
    #[arg(long)]
    threads: Option<usize>,
    /// Stop after this many games.
    #[arg(long)]
    games: Option<u64>,
    /// Stop once this many new positions are written.
    #[arg(long)]
    positions: Option<u64>,
    /// Random plies after each opening line (each game draws from half this to this).
    #[arg(long, default_value_t = 6)]
    random_plies: usize,
    /// Seed of the random plies (a game's number is mixed in).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The number of the first game; defaults to one past the games already in the file
    /// (counted from a side file `OUTPUT.games`).
    #[arg(long)]
    first_game: Option<u64>,
}

pub fn run(args: Args) -> ExitCode {
    match generate(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xiangqi gen-data: {e}");
            ExitCode::FAILURE
        }
    }
}

fn generate(args: &Args) -> Result<(), String> {
    if args.nodes == 0 {
        return Err("--nodes must be at least 1".into());
    }
    if args.games.is_none() && args.positions.is_none() {
        return Err("say when to stop: --games N or --positions N".into());
    }
    let path = &args.output;
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let len = file.metadata().map_err(|e| format!("{}: {e}", path.display()))?.len();
    let torn = len % RECORD_SIZE as u64;
    if torn != 0 {
        // An interrupted write left part of a record: cut it off before appending.
        file.set_len(len - torn).map_err(|e| format!("{}: {e}", path.display()))?;
        file.seek(SeekFrom::End(0)).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("{}: cut off a torn record of {torn} bytes", path.display());
    }
    let existing = (len - torn) / RECORD_SIZE as u64;
    let counter = games_file(path);
    let first_game = match args.first_game {
        Some(n) => n,
        None => match std::fs::read_to_string(&counter) {
            Ok(text) => text.trim().parse::<u64>().map_err(|_| {
                format!(
                    "{}: expected the number of the next game, found {:?}",
                    counter.display(),
                    text.trim()
                )
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
            Err(e) => return Err(format!("{}: {e}", counter.display())),
        },
    };
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = Config {
        nodes: args.nodes,
        threads: threads.max(1),
        random_plies: args.random_plies,
        seed: args.seed,
        first_game,
        games: args.games,
        positions: args.positions,
        hash_mb: 16,
        params: Params::default(),
    };
    eprintln!(
        "{}: {existing} positions already; games from number {first_game}, {} nodes a move, {} threads",
        path.display(),
        config.nodes,
        config.threads
    );
    let start = Instant::now();
    let (mut positions, mut games, mut plies) = (0u64, 0u64, 0u64);
    let mut results = [0u64; 3];
    let mut next_game = first_game;
    let mut last_report = Instant::now();
    let stop = AtomicBool::new(false);
    selfplay::generate::<String>(&config, &stop, &mut |game| {
        let records = game.records();
        let mut bytes = Vec::with_capacity(records.len() * RECORD_SIZE);
        for r in &records {
            bytes.extend_from_slice(&r.0);
        }
        file.write_all(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        positions += records.len() as u64;
        games += 1;
        plies += game.plies as u64;
        results[game.outcome as usize] += 1;
        next_game = next_game.max(game.number + 1);
        std::fs::write(&counter, format!("{next_game}\n"))
            .map_err(|e| format!("{}: {e}", counter.display()))?;
        if last_report.elapsed().as_secs() >= 10 {
            last_report = Instant::now();
            report(positions, games, plies, results, start);
        }
        Ok(())
    })?;
    file.flush().map_err(|e| format!("{}: {e}", path.display()))?;
    report(positions, games, plies, results, start);
    eprintln!("{}: {} positions in all", path.display(), existing + positions);
    Ok(())
}

/// The side file that keeps the number of the next game to play.
fn games_file(path: &std::path::Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".games");
    PathBuf::from(name)
}

fn report(positions: u64, games: u64, plies: u64, results: [u64; 3], start: Instant) {
    let secs = start.elapsed().as_secs_f64().max(1e-3);
    eprintln!(
        "{positions} positions from {games} games ({:.0} plies a game; Red +{} ={} -{}) in {secs:.0} s: {:.0} positions/s",
        plies as f64 / games.max(1) as f64,
        results[Outcome::RedWins as usize],
        results[Outcome::Draw as usize],
        results[Outcome::BlackWins as usize],
        positions as f64 / secs,
    );
}
