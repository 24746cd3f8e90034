//! `xiangqi fill --database postgres://...`: an empty PostgreSQL database
//! filled with a site's worth of accounts, games, messages and challenges, to
//! measure the play server at that size.

use std::{process::ExitCode, time::Instant};

use xiangqi_tools::fill::{DEFAULT_PASSWORD, FillError, Plan};

#[derive(clap::Args)]
pub struct Args {
    /// An empty PostgreSQL database (`postgres://user@host/db`); the schema is made first.
    #[arg(long, env = "XIANGQI_DATABASE")]
    database: String,
    #[arg(long, default_value_t = 3_000_000)]
    accounts: u64,
    /// Correspondence games being played, with all their moves.
    #[arg(long, default_value_t = 1_000_000)]
    open_games: u64,
    /// Finished games, with their moves, the positions they reached and the explorer's counts.
    #[arg(long, default_value_t = 2_000_000)]
    finished_games: u64,
    #[arg(long, default_value_t = 5_000_000)]
    messages: u64,
    /// Challenges: open ones in the waiting room and to a player, and past ones.
    #[arg(long, default_value_t = 200_000)]
    challenges: u64,
    /// Buddy and ignore list entries (about).
    #[arg(long, default_value_t = 2_000_000)]
    relations: u64,
    /// Accounts seen in the last minutes (about): who is here.
    #[arg(long, default_value_t = 2_000)]
    online: u64,
    /// Puzzles (a few real lines under made-up positions).
    #[arg(long, default_value_t = 1_000_000)]
    puzzles: u64,
    /// Accounts with a puzzle rating and first attempts.
    #[arg(long, default_value_t = 200_000)]
    puzzlers: u64,
    /// Lines of play the games follow on the standard board (a tenth as many on the hex
    /// board): the engine plays each, leaving its first choice as players do.
    #[arg(long, default_value_t = 2_000)]
    lines: usize,
    /// Engines playing the lines at once (default: one a core).
    #[arg(long)]
    threads: Option<usize>,
    /// The password of every account.
    #[arg(long, default_value = DEFAULT_PASSWORD)]
    password: String,
    /// Another seed makes other (equally consistent) data.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: Args) -> ExitCode {
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("xiangqi fill: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let plan = Plan {
        accounts: args.accounts,
        open_games: args.open_games,
        finished_games: args.finished_games,
        messages: args.messages,
        challenges: args.challenges,
        relations: args.relations,
        online: args.online,
        puzzles: args.puzzles,
        puzzlers: args.puzzlers,
        lines: args.lines,
        threads: args.threads.unwrap_or(Plan::default().threads),
        password: args.password,
        seed: args.seed,
    };
    let started = Instant::now();
    let say = move |line: &str| println!("[{:7.1} s] {line}", started.elapsed().as_secs_f64());
    match runtime.block_on(xiangqi_tools::fill::fill(&args.database, &plan, &say)) {
        Ok(filled) => {
            let rows = filled.rows();
            let secs = filled.elapsed.as_secs_f64();
            println!(
                "filled {rows} rows in {secs:.0} s ({:.0} rows/s overall; keys and indexes {:.0} s, analyze {:.0} s)",
                rows as f64 / secs,
                filled.indexing.as_secs_f64(),
                filled.analyzing.as_secs_f64()
            );
            for t in &filled.tables {
                println!(
                    "  {:<22} {:>11} rows {:>7.1} s {:>9.0} rows/s",
                    t.table,
                    t.rows,
                    t.elapsed.as_secs_f64(),
                    t.rows as f64 / t.elapsed.as_secs_f64().max(1e-9)
                );
            }
            println!("every account's password: {}", plan.password);
            ExitCode::SUCCESS
        }
        Err(e @ (FillError::NotPostgres | FillError::NotEmpty(_) | FillError::Plan(_))) => {
            eprintln!("xiangqi fill: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("xiangqi fill: {e} (nothing was written)");
            ExitCode::FAILURE
        }
    }
}
