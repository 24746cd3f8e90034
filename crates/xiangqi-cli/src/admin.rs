//! `xiangqi admin grant NAME` / `xiangqi admin revoke NAME`: who administers the
//! play server (administrators write the site's news);
//! `xiangqi admin import-masters FILE...`: real games into the site's Masters
//! collection, files of any size and format.

use std::process::ExitCode;

use crate::serve::DEFAULT_DATABASE;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
    /// The server's database (as `xiangqi serve --database`).
    #[arg(long, global = true, default_value = DEFAULT_DATABASE)]
    database: String,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Make a user an administrator.
    Grant { name: String },
    /// Make a user an ordinary player again.
    Revoke { name: String },
    /// Load record files (PGN, XQF, DhtmlXQ, CBF, CBR, CBL; any size) into the
    /// site's Masters collection; a record loaded before is kept once.
    ImportMasters {
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
}

pub fn run(args: Args) -> ExitCode {
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("xiangqi admin: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (name, admin) = match &args.action {
        Action::Grant { name } => (name, true),
        Action::Revoke { name } => (name, false),
        Action::ImportMasters { files } => return import_masters(&runtime, &args.database, files),
    };
    match runtime.block_on(xiangqi_server::set_admin(&args.database, name, admin)) {
        Ok(true) => {
            println!("{name} is {}", if admin { "an administrator" } else { "no longer an administrator" });
            ExitCode::SUCCESS
        }
        Ok(false) => {
            eprintln!("xiangqi admin: no user {name:?} in {}", args.database);
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("xiangqi admin: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Loads each file into the Masters collection, reporting each record left
/// out and what each file gave.
fn import_masters(
    runtime: &tokio::runtime::Runtime,
    database: &str,
    files: &[std::path::PathBuf],
) -> ExitCode {
    let report = |path: &std::path::Path, r: &xiangqi_server::domain::imports::Refused| {
        eprintln!("{}: record {} ({} – {}): {}", path.display(), r.number, r.red, r.black, r.detail);
    };
    match runtime.block_on(xiangqi_server::import_masters(database, files, report)) {
        Ok(loaded) => {
            let mut failed = false;
            for (path, result) in files.iter().zip(loaded) {
                match result {
                    Ok(l) => println!(
                        "{}: {} kept, {} already in the collection, {} refused",
                        path.display(),
                        l.kept,
                        l.duplicates,
                        l.refused
                    ),
                    Err(e) => {
                        eprintln!("xiangqi admin: {e}");
                        failed = true;
                    }
                }
            }
            if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
        }
        Err(e) => {
            eprintln!("xiangqi admin: {e}");
            ExitCode::FAILURE
        }
    }
}
