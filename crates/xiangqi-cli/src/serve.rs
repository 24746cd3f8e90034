//! `xiangqi serve` (also what `xiangqi` alone does): the play server.

use std::{net::SocketAddr, process::ExitCode};

pub const DEFAULT_DATABASE: &str = "sqlite://xiangqi.db?mode=rwc";

#[derive(clap::Args)]
pub struct Args {
    /// The database: a SQLite file (created and migrated on first start) or a
    /// PostgreSQL URL (postgres://user:password@host/database).
    #[arg(long, default_value = DEFAULT_DATABASE)]
    database: String,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port to listen on.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Accounts one network address may make in an hour.
    #[arg(long, default_value_t = 10)]
    signups_per_hour: u32,
}

impl Default for Args {
    fn default() -> Self {
        Args {
            database: DEFAULT_DATABASE.to_string(),
            host: "127.0.0.1".to_string(),
            port: 8080,
            signups_per_hour: 10,
        }
    }
}

pub fn run(args: Args) -> ExitCode {
    let bind: SocketAddr = match format!("{}:{}", args.host, args.port).parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("xiangqi serve: bad address {}:{}: {e}", args.host, args.port);
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("xiangqi serve: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let mut config = xiangqi_server::Config::new(&args.database, bind);
        config.limits.signups_per_hour = args.signups_per_hour;
        let running = match xiangqi_server::start(config).await {
            Ok(r) => r,
            Err(e) => {
                eprintln!("xiangqi serve: {e}");
                return ExitCode::FAILURE;
            }
        };
        println!("xiangqi play server: open {}/ in a browser (database {})", running.url(), args.database);
        println!("Ctrl-C stops it");
        if let Err(e) = tokio::signal::ctrl_c().await {
            eprintln!("xiangqi serve: {e}");
        }
        println!("stopping");
        running.stop().await;
        ExitCode::SUCCESS
    })
}
