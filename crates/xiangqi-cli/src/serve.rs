//! `xiangqi serve` (also what `xiangqi` alone does): the play server.
//!
//! Every setting comes from, in this order of precedence: a flag, an
//! environment variable (`XIANGQI_` and the flag's name in capitals, `-` as
//! `_`), a TOML file named by `--config` (keys as the flags' names), or the
//! default.

use std::{
    net::{IpAddr, SocketAddr},
    path::{Path, PathBuf},
    process::ExitCode,
    time::Duration,
};

use clap::builder::BoolishValueParser;
use serde::Deserialize;
use xiangqi_server::{Config, ConnectionLimits, Limits};

pub const DEFAULT_DATABASE: &str = "sqlite://xiangqi.db?mode=rwc";

/// How log lines are written (to standard error).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// One line of words per event, for people.
    #[default]
    Text,
    /// One JSON object per event, for log collectors.
    Json,
}

/// The settings, each optional: what is not given comes from the next source.
/// The same fields are the flags and the configuration file's keys.
#[derive(clap::Args, Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Args {
    /// A TOML file of settings, keys named as these flags (`port = 8080`,
    /// `behind-proxy = true`). Flags and environment variables override it.
    #[arg(long, env = "XIANGQI_CONFIG", value_name = "FILE")]
    #[serde(skip)]
    pub config: Option<PathBuf>,
    /// The database: a SQLite file (created and migrated on first start) or a
    /// PostgreSQL URL (postgres://user:password@host/database).
    /// [default: sqlite://xiangqi.db?mode=rwc]
    #[arg(long, env = "XIANGQI_DATABASE")]
    pub database: Option<String>,
    /// The address to listen on. [default: 127.0.0.1]
    #[arg(long, env = "XIANGQI_HOST")]
    pub host: Option<String>,
    /// The port to listen on. [default: 8080]
    #[arg(long, env = "XIANGQI_PORT")]
    pub port: Option<u16>,
    /// Serve Prometheus metrics at /metrics on this address (ADDRESS:PORT), a
    /// listener of its own that should not be reachable from outside (a
    /// loopback or private address). [default: no metrics]
    #[arg(long, env = "XIANGQI_METRICS_BIND", value_name = "ADDRESS:PORT")]
    pub metrics_bind: Option<String>,
    /// The server is reached through a TLS-terminating proxy that appends the
    /// client's address to X-Forwarded-For: that address counts (for limits and
    /// logs) and the session cookie is Secure. Without it X-Forwarded-For is
    /// ignored. [default: false]
    #[arg(long, env = "XIANGQI_BEHIND_PROXY", num_args = 0..=1, default_missing_value = "true",
        value_parser = BoolishValueParser::new(), value_name = "BOOL")]
    pub behind_proxy: Option<bool>,
    /// How log lines look. [default: text]
    #[arg(long, env = "XIANGQI_LOG_FORMAT", value_enum)]
    pub log_format: Option<LogFormat>,
    /// Which log lines are written, as tracing's filter directives
    /// (`info`, `warn,xiangqi_site=debug`). [default: info]
    #[arg(long, env = "XIANGQI_LOG", value_name = "FILTER")]
    pub log: Option<String>,
    /// On stopping (Ctrl-C or SIGTERM), how long requests under way and open
    /// WebSockets may take before they are cut off. [default: 10]
    #[arg(long, env = "XIANGQI_DRAIN_SECONDS", value_name = "SECONDS")]
    pub drain_seconds: Option<u64>,
    /// Accounts one network address may make in an hour. [default: 10]
    #[arg(long, env = "XIANGQI_SIGNUPS_PER_HOUR", value_name = "N")]
    pub signups_per_hour: Option<u32>,
    /// Challenges (and auto-match requests) one user may make in an hour. [default: 60]
    #[arg(long, env = "XIANGQI_CHALLENGES_PER_HOUR", value_name = "N")]
    pub challenges_per_hour: Option<u32>,
    /// Challenges one user may have open at once. [default: 20]
    #[arg(long, env = "XIANGQI_OPEN_CHALLENGES", value_name = "N")]
    pub open_challenges: Option<u32>,
    /// Private messages one user may send in a minute. [default: 10]
    #[arg(long, env = "XIANGQI_MESSAGES_PER_MINUTE", value_name = "N")]
    pub messages_per_minute: Option<u32>,
    /// Private messages one user may send in a day. [default: 200]
    #[arg(long, env = "XIANGQI_MESSAGES_PER_DAY", value_name = "N")]
    pub messages_per_day: Option<u32>,
    /// Chat lines one user may write in a minute, over all games. [default: 20]
    #[arg(long, env = "XIANGQI_CHAT_PER_MINUTE", value_name = "N")]
    pub chat_per_minute: Option<u32>,
    /// Engine analyses one user may start in a minute (engine time is shared). [default: 60]
    #[arg(long, env = "XIANGQI_ANALYSES_PER_MINUTE", value_name = "N")]
    pub analyses_per_minute: Option<u32>,
    /// Tournaments one user may create in a day. [default: 5]
    #[arg(long, env = "XIANGQI_TOURNAMENTS_PER_DAY", value_name = "N")]
    pub tournaments_per_day: Option<u32>,
    /// Timed puzzle streaks one user may start in an hour. [default: 30]
    #[arg(long, env = "XIANGQI_STREAKS_PER_HOUR", value_name = "N")]
    pub streaks_per_hour: Option<u32>,
    /// Timed puzzle streaks one user may start in a day. [default: 200]
    #[arg(long, env = "XIANGQI_STREAKS_PER_DAY", value_name = "N")]
    pub streaks_per_day: Option<u32>,
    /// Connections one network address (an IPv6 /64) may hold open at once; not
    /// applied with --behind-proxy (the proxy keeps its own). [default: 128]
    #[arg(long, env = "XIANGQI_CONNECTIONS_PER_ADDRESS", value_name = "N")]
    pub connections_per_address: Option<usize>,
    /// How long a connection may take to send a request's headers or stay idle
    /// between requests before it is closed; a WebSocket is pinged this often
    /// and closed after three such times without a word. [default: 20]
    #[arg(long, env = "XIANGQI_IDLE_SECONDS", value_name = "SECONDS")]
    pub idle_seconds: Option<u64>,
    /// Engine searches that may run at once, one thread each: the computer's
    /// moves, analyses and reviews. [default: half the cores]
    #[arg(long, env = "XIANGQI_ENGINES", value_name = "N")]
    pub engines: Option<usize>,
    /// Leave the computer's moves to other instances on the same database.
    /// [default: false]
    #[arg(long, env = "XIANGQI_NO_COMPUTER", num_args = 0..=1, default_missing_value = "true",
        value_parser = BoolishValueParser::new(), value_name = "BOOL")]
    pub no_computer: Option<bool>,
}

/// Only the serve settings, for `xiangqi` without a command (so that the
/// environment still counts).
#[derive(clap::Parser)]
struct Alone {
    #[command(flatten)]
    args: Args,
}

impl Args {
    /// The settings of `xiangqi` alone: from the environment only.
    pub fn from_env() -> Args {
        <Alone as clap::Parser>::parse_from(["xiangqi"]).args
    }

    /// Each setting from `self`, else from `other`.
    fn or(self, other: Args) -> Args {
        macro_rules! either {
            ($($field:ident),*) => { Args { $($field: self.$field.or(other.$field)),* } };
        }
        either!(
            config,
            database,
            host,
            port,
            metrics_bind,
            behind_proxy,
            log_format,
            log,
            drain_seconds,
            signups_per_hour,
            challenges_per_hour,
            open_challenges,
            messages_per_minute,
            messages_per_day,
            chat_per_minute,
            analyses_per_minute,
            tournaments_per_day,
            streaks_per_hour,
            streaks_per_day,
            connections_per_address,
            idle_seconds,
            engines,
            no_computer
        )
    }
}

/// Reads a configuration file.
fn read_file(path: &Path) -> Result<Args, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn parse_file(text: &str) -> Result<Args, String> {
    toml::from_str::<Args>(text).map_err(|e| e.to_string())
}

/// Everything `serve` needs, every setting decided.
#[derive(Debug)]
pub struct Settings {
    pub server: Config,
    pub log_format: LogFormat,
    pub log: String,
}

/// Decides every setting: flags and environment (both in `given`, as clap
/// merged them), then the file `given` names, then the defaults.
fn settings(given: Args) -> Result<Settings, String> {
    let file = match &given.config {
        Some(path) => read_file(path)?,
        None => Args::default(),
    };
    resolve(given.or(file))
}

fn resolve(a: Args) -> Result<Settings, String> {
    let database = a.database.unwrap_or_else(|| DEFAULT_DATABASE.to_string());
    let host = a.host.unwrap_or_else(|| "127.0.0.1".to_string());
    let port = a.port.unwrap_or(8080);
    let ip: IpAddr = host.parse().map_err(|e| format!("bad host {host:?}: {e} (an IP address)"))?;
    let metrics_bind = match a.metrics_bind {
        Some(at) => Some(
            at.parse::<SocketAddr>().map_err(|e| format!("bad metrics-bind {at:?}: {e} (ADDRESS:PORT)"))?,
        ),
        None => None,
    };
    let defaults = Limits::default();
    let limits = Limits {
        signups_per_hour: a.signups_per_hour.unwrap_or(defaults.signups_per_hour),
        challenges_per_hour: a.challenges_per_hour.unwrap_or(defaults.challenges_per_hour),
        open_challenges: a.open_challenges.unwrap_or(defaults.open_challenges),
        messages_per_minute: a.messages_per_minute.unwrap_or(defaults.messages_per_minute),
        messages_per_day: a.messages_per_day.unwrap_or(defaults.messages_per_day),
        chat_per_minute: a.chat_per_minute.unwrap_or(defaults.chat_per_minute),
        tournaments_per_day: a.tournaments_per_day.unwrap_or(defaults.tournaments_per_day),
        streaks_per_hour: a.streaks_per_hour.unwrap_or(defaults.streaks_per_hour),
        streaks_per_day: a.streaks_per_day.unwrap_or(defaults.streaks_per_day),
        first_move_ms: defaults.first_move_ms,
    };
    let connections = ConnectionLimits::default();
    let connections = ConnectionLimits {
        per_address: a.connections_per_address.unwrap_or(connections.per_address).max(1),
        idle: a.idle_seconds.map_or(connections.idle, |s| Duration::from_secs(s.max(1))),
    };
    let mut server = Config::new(&database, SocketAddr::new(ip, port));
    server.metrics_bind = metrics_bind;
    server.behind_proxy = a.behind_proxy.unwrap_or(false);
    server.limits = limits;
    server.connections = connections;
    server.drain = Duration::from_secs(a.drain_seconds.unwrap_or(10));
    server.analyses_per_minute = a.analyses_per_minute.unwrap_or(server.analyses_per_minute);
    server.engines = a.engines.or(server.engines);
    server.computer_moves = !a.no_computer.unwrap_or(false);
    Ok(Settings {
        server,
        log_format: a.log_format.unwrap_or_default(),
        log: a.log.unwrap_or_else(|| "info".to_string()),
    })
}

/// Log lines to standard error, each with the request's span (its id, route and
/// client) when it belongs to one.
fn start_logging(format: LogFormat, filter: &str) -> Result<(), String> {
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .map_err(|e| format!("bad log filter {filter:?}: {e}"))?;
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let installed = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().with_current_span(true).with_span_list(false).try_init(),
    };
    installed.map_err(|e| format!("cannot start logging: {e}"))
}

/// Waits for Ctrl-C or SIGTERM (what a service manager or container runtime
/// sends). SIGTERM is watched from the call on, before the future is awaited:
/// one that arrives while the server announces itself still stops it gracefully.
fn stop_signal() -> impl std::future::Future<Output = &'static str> {
    #[cfg(unix)]
    let term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| eprintln!("xiangqi serve: cannot watch for SIGTERM: {e}"))
        .ok();
    async move {
        #[cfg(unix)]
        {
            let term = async move {
                match term {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                _ = tokio::signal::ctrl_c() => "interrupt",
                () = term => "SIGTERM",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "interrupt"
        }
    }
}

pub fn run(args: Args) -> ExitCode {
    let settings = match settings(args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("xiangqi serve: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = start_logging(settings.log_format, &settings.log) {
        eprintln!("xiangqi serve: {e}");
        return ExitCode::from(2);
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("xiangqi serve: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let stopping = stop_signal();
        let database = settings.server.database.clone();
        let running = match xiangqi_server::start(settings.server).await {
            Ok(r) => r,
            Err(e) => {
                eprintln!("xiangqi serve: {e}");
                return ExitCode::FAILURE;
            }
        };
        println!("xiangqi play server: open {}/ in a browser (database {database})", running.url());
        if let Some(at) = running.metrics_addr() {
            println!("metrics: http://{at}/metrics");
        }
        println!("Ctrl-C stops it");
        let why = stopping.await;
        println!("stopping ({why}): finishing requests, closing WebSockets");
        let stopped = running.stop().await;
        let cut = if stopped.cut_short { ", some cut off after the drain time" } else { "" };
        println!("stopped ({} WebSockets closed{cut})", stopped.sockets_closed);
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_win_over_the_file_and_the_file_over_defaults() {
        let file = parse_file(
            "database = \"sqlite://from-file.db\"\nport = 9000\nhost = \"0.0.0.0\"\nbehind-proxy = true\n\
             open-challenges = 5\nlog-format = \"json\"\nmetrics-bind = \"127.0.0.1:9100\"\n",
        )
        .unwrap();
        let flags = Args { port: Some(7000), open_challenges: Some(7), ..Args::default() };
        let s = resolve(flags.or(file)).unwrap();
        assert_eq!(s.server.bind, "0.0.0.0:7000".parse().unwrap());
        assert_eq!(s.server.database, "sqlite://from-file.db");
        assert!(s.server.behind_proxy);
        assert_eq!(s.server.limits.open_challenges, 7);
        assert_eq!(s.server.limits.chat_per_minute, Limits::default().chat_per_minute);
        assert_eq!(s.server.metrics_bind, Some("127.0.0.1:9100".parse().unwrap()));
        assert_eq!(s.log_format, LogFormat::Json);
        assert_eq!(s.log, "info");
    }

    #[test]
    fn nothing_given_is_the_defaults() {
        let s = resolve(Args::default()).unwrap();
        assert_eq!(s.server.database, DEFAULT_DATABASE);
        assert_eq!(s.server.bind, "127.0.0.1:8080".parse().unwrap());
        assert_eq!(s.server.metrics_bind, None);
        assert!(!s.server.behind_proxy);
        assert_eq!(s.server.limits, Limits::default());
        assert_eq!(s.server.drain, Duration::from_secs(10));
        assert_eq!(s.log_format, LogFormat::Text);
    }

    #[test]
    fn a_bad_file_or_value_is_refused_with_its_reason() {
        let e = parse_file("prot = 80\n").unwrap_err();
        assert!(e.contains("prot"), "{e}");
        assert!(parse_file("port = \"eighty\"\n").is_err());
        assert!(parse_file("config = \"other.toml\"\n").is_err(), "a file names no other file");
        let e = resolve(Args { host: Some("localhost:1".into()), ..Args::default() }).unwrap_err();
        assert!(e.contains("bad host"), "{e}");
        let e = resolve(Args { metrics_bind: Some("9100".into()), ..Args::default() }).unwrap_err();
        assert!(e.contains("metrics-bind"), "{e}");
        let e = read_file(Path::new("/nonexistent/xiangqi.toml")).unwrap_err();
        assert!(e.contains("cannot read"), "{e}");
    }
}
