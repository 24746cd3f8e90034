//! `xiangqi admin grant NAME` / `xiangqi admin revoke NAME`: who administers the
//! play server (administrators write the site's news).

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
}

pub fn run(args: Args) -> ExitCode {
    let (name, admin) = match &args.action {
        Action::Grant { name } => (name, true),
        Action::Revoke { name } => (name, false),
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("xiangqi admin: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
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
