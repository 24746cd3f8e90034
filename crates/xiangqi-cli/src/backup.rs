//! `xiangqi backup OUT.db`: a consistent copy of the play server's SQLite
//! database, taken while the server runs.

use std::{path::PathBuf, process::ExitCode};

use xiangqi_server::backup::BackupError;

use crate::serve::DEFAULT_DATABASE;

#[derive(clap::Args)]
pub struct Args {
    /// The server's database (as `xiangqi serve --database`): a SQLite URL.
    /// PostgreSQL is backed up with its own tools (pg_dump).
    #[arg(long, env = "XIANGQI_DATABASE", default_value = DEFAULT_DATABASE)]
    database: String,
    /// The file to write; it must not exist yet.
    out: PathBuf,
}

pub fn run(args: Args) -> ExitCode {
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("xiangqi backup: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(xiangqi_server::backup::backup(&args.database, &args.out)) {
        Ok(copy) => {
            println!(
                "backed up {} users and {} games ({} bytes) to {}",
                copy.users,
                copy.games,
                copy.bytes,
                args.out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e @ (BackupError::Postgres | BackupError::Exists(_) | BackupError::NoDatabase(_))) => {
            eprintln!("xiangqi backup: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("xiangqi backup: {e}");
            ExitCode::FAILURE
        }
    }
}
