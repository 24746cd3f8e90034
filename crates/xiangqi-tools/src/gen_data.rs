//! `xiangqi gen-data`: self-play games at a fixed node budget, written as NNUE
//! training records (the tools crate's `nnue::data` format). An existing file is
//! appended to, and the game numbering continues where it stopped, so a run that
//! was interrupted is resumed by running the same command again.

use std::{
    fs::OpenOptions,
    io::{Seek, SeekFrom, Write},
    path::PathBuf,
    process::ExitCode,
    sync::{Arc, atomic::AtomicBool},
    time::Instant,
};

use crate::nnue::{
    data::{Outcome, RECORD_SIZE},
    selfplay::{self, Config, GameRecords},
    site::{self, Cursor},
};
use xiangqi::{Geometry, Variant, with_geometry};
use xiangqi_engine::{
    Options,
    eval::Params,
    nnue::{Nets, Network},
};
use xiangqi_site::store::Store;

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
    /// The board the games are played on: standard or hex (records name their board).
    #[arg(long, default_value = "standard")]
    variant: Variant,
    /// Play with the embedded NNUE net instead of the classical evaluation.
    #[arg(long)]
    nnue: bool,
    /// Play with the NNUE net in this file (a net learns from the games of the one before it).
    #[arg(long, conflicts_with = "nnue")]
    eval_file: Option<PathBuf>,
    /// Score the quiet positions of this play site's finished standard games
    /// (its database URL) instead of playing new games; a side file
    /// `OUTPUT.site` keeps the last game read, so running again adds only newer games.
    #[arg(long, value_name = "DATABASE_URL", conflicts_with_all = ["first_game", "random_plies", "seed"])]
    from_site: Option<String>,
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
    if args.from_site.is_some() && args.variant != Variant::Standard {
        return Err("--from-site reads the site's standard games; it takes no --variant".into());
    }
    if args.from_site.is_none() && args.games.is_none() && args.positions.is_none() {
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
    let threads =
        args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let nnue = match (&args.eval_file, args.nnue) {
        (Some(path), _) => {
            let net = Network::load(path)?;
            if net.variant() != args.variant {
                return Err(format!(
                    "{}: a net for the {} board, and the games are on the {} board",
                    path.display(),
                    net.variant().name(),
                    args.variant.name()
                ));
            }
            Nets::default().with(Arc::new(net))
        }
        (None, true) => Nets::embedded(),
        (None, false) => Nets::default(),
    };
    let players = Players { threads, nnue, variant: args.variant };
    let mut out = Written {
        file,
        path: path.clone(),
        existing,
        start: Instant::now(),
        positions: 0,
        games: 0,
        plies: 0,
        results: [0; 3],
    };
    match &args.from_site {
        Some(database) => from_site(args, database, &players, &mut out)?,
        None => from_self_play(args, &players, &mut out)?,
    }
    out.file.flush().map_err(|e| format!("{}: {e}", path.display()))?;
    out.report();
    eprintln!("{}: {} positions in all", path.display(), existing + out.positions);
    Ok(())
}

/// The engines that play or score the games: one a thread, each with the net or without.
struct Players {
    threads: usize,
    variant: Variant,
    nnue: Nets,
}

impl Players {
    fn evaluation(&self) -> String {
        self.nnue
            .get(self.variant)
            .map_or("the classical evaluation".into(), |n| format!("net {:016x}", n.hash()))
    }
}

/// The output file and what has been written to it this run.
struct Written {
    file: std::fs::File,
    path: PathBuf,
    /// Positions in the file before this run.
    existing: u64,
    start: Instant,
    positions: u64,
    games: u64,
    plies: u64,
    results: [u64; 3],
}

fn from_self_play(args: &Args, players: &Players, out: &mut Written) -> Result<(), String> {
    let counter = side_file(&args.output, "games");
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
    let config = Config {
        nodes: args.nodes,
        threads: players.threads,
        random_plies: args.random_plies,
        seed: args.seed,
        first_game,
        games: args.games,
        positions: args.positions,
        hash_mb: 16,
        params: Params::default(),
        nnue: players.nnue.clone(),
    };
    eprintln!(
        "{}: {} positions already; {} games from number {first_game}, {} nodes a move, {} threads, {}",
        args.output.display(),
        out.existing,
        args.variant.name(),
        config.nodes,
        players.threads,
        players.evaluation(),
    );
    let mut next_game = first_game;
    let mut last_report = Instant::now();
    let stop = AtomicBool::new(false);
    with_geometry!(args.variant, G => selfplay::generate::<G, String>(&config, &stop, &mut |game| {
        out.write(&game)?;
        next_game = next_game.max(game.number + 1);
        std::fs::write(&counter, format!("{next_game}\n"))
            .map_err(|e| format!("{}: {e}", counter.display()))?;
        if last_report.elapsed().as_secs() >= 10 {
            last_report = Instant::now();
            out.report();
        }
        Ok(())
    }))
}

/// Games read from the site's database at a time, a few for each thread.
const SITE_PAGE: i64 = 64;

fn from_site(args: &Args, database: &str, players: &Players, out: &mut Written) -> Result<(), String> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start the runtime: {e}"))?;
    let store = runtime.block_on(Store::open(database)).map_err(|e| format!("{database}: {e}"))?;
    let cursor_file = side_file(&args.output, "site");
    let mut cursor = match std::fs::read_to_string(&cursor_file) {
        Ok(text) => Cursor::parse(&text).map_err(|e| format!("{}: {e}", cursor_file.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Cursor::default(),
        Err(e) => return Err(format!("{}: {e}", cursor_file.display())),
    };
    eprintln!(
        "{}: {} positions already; the site's finished games after {:?}, {} nodes a position, {} threads, {}",
        args.output.display(),
        out.existing,
        cursor.after_id,
        args.nodes,
        players.threads,
        players.evaluation(),
    );
    let options = Options { hash_mb: 16, threads: 1, nnue: players.nnue.clone(), ..Options::default() };
    let mut last_report = Instant::now();
    loop {
        let limit = match args.games {
            Some(g) => SITE_PAGE.min(g.saturating_sub(out.games) as i64),
            None => SITE_PAGE,
        };
        if limit == 0 || args.positions.is_some_and(|p| out.positions >= p) {
            break;
        }
        let (games, next) = runtime.block_on(site::next_games(&store, &cursor, limit))?;
        if next == cursor {
            break;
        }
        // A page's records and the cursor past it are written together, so a
        // stopped run resumes without writing a game twice.
        for game in site::score_all(&games, &options, players.threads, args.nodes)? {
            out.write(&game)?;
        }
        out.file.flush().map_err(|e| format!("{}: {e}", out.path.display()))?;
        std::fs::write(&cursor_file, next.to_text())
            .map_err(|e| format!("{}: {e}", cursor_file.display()))?;
        cursor = next;
        if last_report.elapsed().as_secs() >= 10 {
            last_report = Instant::now();
            out.report();
        }
    }
    Ok(())
}

impl Written {
    fn write<G: Geometry>(&mut self, game: &GameRecords<G>) -> Result<(), String> {
        let records = game.records();
        let mut bytes = Vec::with_capacity(records.len() * RECORD_SIZE);
        for r in &records {
            bytes.extend_from_slice(&r.0);
        }
        self.file.write_all(&bytes).map_err(|e| format!("{}: {e}", self.path.display()))?;
        self.positions += records.len() as u64;
        self.games += 1;
        self.plies += game.plies as u64;
        self.results[game.outcome as usize] += 1;
        Ok(())
    }

    fn report(&self) {
        let secs = self.start.elapsed().as_secs_f64().max(1e-3);
        eprintln!(
            "{} positions from {} games ({:.0} plies a game; Red +{} ={} -{}) in {secs:.0} s: {:.0} positions/s",
            self.positions,
            self.games,
            self.plies as f64 / self.games.max(1) as f64,
            self.results[Outcome::RedWins as usize],
            self.results[Outcome::Draw as usize],
            self.results[Outcome::BlackWins as usize],
            self.positions as f64 / secs,
        );
    }
}

/// A side file beside the output: `OUTPUT.games` keeps the number of the next
/// self-play game, `OUTPUT.site` the last site game read.
fn side_file(path: &std::path::Path, what: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".");
    name.push(what);
    PathBuf::from(name)
}
