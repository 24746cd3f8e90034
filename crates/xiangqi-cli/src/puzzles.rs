//! `xiangqi puzzles generate`: finds puzzles for the play site, in its
//! finished games (as the server does in the background), the Masters
//! collection and the imported games of users who agreed, or, for a new
//! site, in the engine's games against itself.

use std::{process::ExitCode, sync::Arc, time::Instant};

use xiangqi::Variant;
use xiangqi_server::{
    domain::{
        Setup,
        events::Nobody,
        puzzles::{Scanned, find::Budget, new_puzzles},
    },
    engines::EnginePool,
    model::{
        Named,
        puzzles::{GameSource, Origin},
    },
    store::Store,
};
use xiangqi_tools::puzzles::{Plan, generate};

use crate::serve::DEFAULT_DATABASE;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Find puzzles and store them in the site's database.
    Generate(Generate),
}

#[derive(clap::Args)]
struct Generate {
    /// The play site's database [default: sqlite://xiangqi.db?mode=rwc].
    #[arg(long, env = "XIANGQI_DATABASE")]
    database: Option<String>,
    /// Play this many games of the engine against itself and search them,
    /// rather than the site's games.
    #[arg(long, conflicts_with = "source")]
    self_play: Option<u64>,
    /// Where to look, in this order: the site's finished games, the Masters
    /// collection, the imported games of users who agreed. Each goes on from
    /// where the last run stopped.
    #[arg(long, value_delimiter = ',', value_parser = GameSource::parse, default_value = "site,masters,imports")]
    source: Vec<GameSource>,
    /// The board of the self-play games.
    #[arg(long, default_value = "standard")]
    variant: Variant,
    /// Stop once this many new puzzles are stored.
    #[arg(long)]
    count: Option<u64>,
    /// Searches at once; every core if left out.
    #[arg(long)]
    threads: Option<usize>,
    /// Nodes for each move of a self-play game.
    #[arg(long, default_value_t = 2_000)]
    move_nodes: u64,
    /// One move in this many of a self-play game (after its opening) is random.
    #[arg(long, default_value_t = 6)]
    blunder_every: usize,
    /// Nodes for the first look at each position of a game.
    #[arg(long, default_value_t = Budget::SITE.scan_nodes)]
    scan_nodes: u64,
    /// Nodes for each search that decides a puzzle (the server's background
    /// search takes twice as many: it has the time).
    #[arg(long, default_value_t = Budget::SITE.verify_nodes / 2)]
    verify_nodes: u64,
    /// Another seed plays other self-play games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: Args) -> ExitCode {
    let Command::Generate(g) = args.command;
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("xiangqi puzzles: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let database = g.database.clone().unwrap_or_else(|| DEFAULT_DATABASE.to_string());
    let store = match runtime.block_on(Store::open(&database)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("xiangqi puzzles: database {database}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let threads = g.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let budget = Budget { scan_nodes: g.scan_nodes, verify_nodes: g.verify_nodes };
    let started = Instant::now();
    match g.self_play {
        Some(games) => {
            let plan = Plan {
                variant: g.variant,
                games,
                threads,
                move_nodes: g.move_nodes,
                blunder_every: g.blunder_every,
                budget,
                seed: g.seed,
            };
            match self_play(&runtime, &store, &plan, g.count) {
                Ok((games, puzzles)) => {
                    report(Scanned { games, puzzles }, started.elapsed().as_secs_f64());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("xiangqi puzzles: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        None => {
            let setup = Setup { engines: Arc::new(EnginePool::new(threads)), ..Setup::default() };
            let services = setup.services(store, Arc::new(Nobody));
            let mut shown = 0;
            let mut progress = |source: GameSource, so_far: Scanned| {
                if so_far.puzzles >= shown + 100 {
                    shown = so_far.puzzles;
                    eprintln!(
                        "{}: {} puzzles so far from {} games",
                        source.name(),
                        so_far.puzzles,
                        so_far.games
                    );
                }
            };
            let done = runtime.block_on(services.puzzles.generate_puzzles(
                &g.source,
                budget,
                g.count,
                &mut progress,
            ));
            match done {
                Ok(done) => {
                    let mut total = Scanned::default();
                    for (source, scanned) in done {
                        println!(
                            "{}: {} new puzzles from {} games",
                            source.name(),
                            scanned.puzzles,
                            scanned.games
                        );
                        total.games += scanned.games;
                        total.puzzles += scanned.puzzles;
                    }
                    report(total, started.elapsed().as_secs_f64());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("xiangqi puzzles: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// What the run gave, and how fast.
fn report(scanned: Scanned, seconds: f64) {
    println!(
        "{} new puzzles from {} games in {seconds:.1} s ({:.1} puzzles a minute)",
        scanned.puzzles,
        scanned.games,
        scanned.puzzles as f64 * 60.0 / seconds.max(0.001)
    );
}

fn self_play(
    runtime: &tokio::runtime::Runtime,
    store: &Store,
    plan: &Plan,
    count: Option<u64>,
) -> Result<(u64, u64), String> {
    let mut stored = 0;
    let mut failure = None;
    let tally = generate(plan, &mut |found| {
        let rows = new_puzzles(plan.variant, &Origin::Engine, &found, xiangqi_server::domain::now_ms());
        match runtime.block_on(store.insert_puzzles(&rows)) {
            Ok(n) => stored += n,
            Err(e) => failure = Some(e.to_string()),
        }
        if stored > 0 && stored % 100 < rows.len() as u64 {
            eprintln!("{stored} puzzles so far");
        }
        failure.is_none() && count.is_none_or(|c| stored < c)
    });
    match failure {
        Some(e) => Err(e),
        None => Ok((tally.games, stored)),
    }
}
