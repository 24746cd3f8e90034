//! The xiangqi play server: turn-based and live Xiangqi between registered
//! players, as the play-site seed describes it, over a JSON API (`docs/API.md`),
//! WebSockets and a browser UI. SQLite by default; PostgreSQL for several
//! stateless instances on one database.

mod admin;
pub mod api;
mod error;
pub mod http;
pub mod live;

pub use xiangqi_site::{backup, domain, engines, model, parsing, store, supervise, telemetry};

use std::{net::SocketAddr, sync::Arc, time::Duration};

use tokio::{net::TcpListener, task::JoinHandle};
use tokio_util::{sync::CancellationToken, task::TaskTracker};

pub use crate::{
    admin::{import_masters, set_admin},
    domain::{Clock, limits::Limits},
    error::ApiError,
    http::listen::ConnectionLimits,
};
use crate::{domain::Services, http::AppState, live::Hub, store::Store};

/// How to run a server.
#[derive(Clone, Debug)]
pub struct Config {
    /// `sqlite://xiangqi.db?mode=rwc` or `postgres://user@host/db`.
    pub database: String,
    pub bind: SocketAddr,
    /// Where `/metrics` (Prometheus) is served, on a listener of its own; not at
    /// all if `None`. Its own address keeps the metrics off the public port even
    /// behind a proxy on the same machine, where every public request arrives
    /// from a loopback address.
    pub metrics_bind: Option<SocketAddr>,
    /// Requests come through a TLS-terminating proxy that appends the client's
    /// address to `X-Forwarded-For`: that address counts, and the session cookie
    /// is `Secure`. Without it the header is ignored.
    pub behind_proxy: bool,
    /// How much of what others see one user may do.
    pub limits: Limits,
    /// What one network address may hold open, and for how long.
    pub connections: ConnectionLimits,
    /// How long a stop waits for requests under way and open WebSockets.
    pub drain: Duration,
    /// Whether this instance searches the computer's moves (with several
    /// instances on one database, some may leave it to others).
    pub computer_moves: bool,
    /// Engine analyses one user may start in a minute.
    pub analyses_per_minute: u32,
    /// Searches that may run at once (each on one thread); `None`: half the cores.
    pub engines: Option<usize>,
    /// What "now" is: the system's time, unless a test moves it forward.
    pub clock: domain::Clock,
    /// How often the site's finished games are searched for new puzzles
    /// (a few games a round, on the engine pool at a study's priority);
    /// never if `None`.
    pub puzzle_search: Option<Duration>,
    /// How downloads of many games are bounded: games per file, the page
    /// they are read in, and how many are sent at once (in all, and to one
    /// client).
    pub exports: domain::exports::ExportLimits,
    /// For tests only: serves `GET /api/v1/test/panic`, whose handler panics,
    /// lets [`Running::fail_move_writer`] make the move writer panic and
    /// [`Running::sweep`] run the background sweep at once.
    /// Off unless a test sets it; no flag or setting of `xiangqi serve` does.
    pub test_faults: bool,
}

impl Config {
    /// A server with the site's defaults.
    pub fn new(database: &str, bind: SocketAddr) -> Config {
        Config {
            database: database.to_string(),
            bind,
            metrics_bind: None,
            behind_proxy: false,
            limits: Limits::default(),
            connections: ConnectionLimits::default(),
            drain: Duration::from_secs(10),
            computer_moves: true,
            analyses_per_minute: domain::analysis::ANALYSES_PER_MINUTE,
            clock: domain::Clock::default(),
            engines: None,
            puzzle_search: Some(Duration::from_secs(60)),
            exports: domain::exports::ExportLimits::default(),
            test_faults: false,
        }
    }

    /// A server on a free loopback port, with no limit on new accounts or
    /// connections from one address (tests and benchmarks are many clients on
    /// one address) or on tournaments.
    pub fn for_tests(database: &str) -> Config {
        let mut config = Config::new(database, SocketAddr::from(([127, 0, 0, 1], 0)));
        config.limits.signups_per_hour = 1_000_000;
        config.limits.tournaments_per_day = 1_000_000;
        config.connections.per_address = 1_000_000;
        config.analyses_per_minute = 1_000_000;
        config.puzzle_search = None;
        config
    }
}

/// Why a server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("database {url}: {source}")]
    Database { url: String, source: sqlx::Error },
    #[error("cannot listen on {addr}: {source}")]
    Listen { addr: SocketAddr, source: std::io::Error },
}

/// A running server.
pub struct Running {
    addr: SocketAddr,
    metrics_addr: Option<SocketAddr>,
    shutdown: CancellationToken,
    server: JoinHandle<()>,
    metrics: Option<JoinHandle<()>>,
    sockets: TaskTracker,
    background: TaskTracker,
    store: Store,
    services: Arc<Services>,
    hub: Arc<Hub>,
    parsing: Arc<parsing::ParsePool>,
    exports: Arc<parsing::ParsePool>,
    engines: Arc<engines::EnginePool>,
    drain: Duration,
    test_faults: bool,
}

/// What a stop did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Stopped {
    /// WebSockets that were open and were closed (going away).
    pub sockets_closed: usize,
    /// Whether requests or sockets were still busy when the drain time ran out.
    pub cut_short: bool,
}

impl Running {
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The base URL, like `http://127.0.0.1:8080`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// How many games' and users' live channels this instance holds: one for
    /// each game or user that a socket here watches, and no more.
    pub fn live_channels(&self) -> usize {
        self.hub.channels()
    }

    /// The metrics listener's address, if there is one.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_addr
    }

    /// The pool heavy parsing runs on (a test may take a client's share of it).
    pub fn parsing(&self) -> &Arc<parsing::ParsePool> {
        &self.parsing
    }

    /// The places downloads of many games hold while they are sent (a test
    /// may take a client's share of them).
    pub fn exports(&self) -> &Arc<parsing::ParsePool> {
        &self.exports
    }

    /// The engines the computer, analysis and reviews search with (a test may
    /// keep one busy).
    pub fn engines(&self) -> &Arc<engines::EnginePool> {
        &self.engines
    }

    /// For tests only (with [`Config::test_faults`]): the move writer panics
    /// `times` times in a row, once at the next move or at once if idle, then
    /// at each of its restarts, as a fault in it would. Meanwhile the
    /// instance reports itself not ready.
    ///
    /// # Panics
    /// Without [`Config::test_faults`].
    pub async fn fail_move_writer(&self, times: u32) {
        assert!(self.test_faults, "a server without Config::test_faults takes no injected faults");
        self.store.fail_move_writer(times).await;
    }

    /// For tests only (with [`Config::test_faults`]): a round of the
    /// background sweep now, by the clock's time, after any round under way
    /// on an instance of the same database. A test that moves the clock
    /// forward then knows that what the sweep does at that time is done, and
    /// that what is not done would not be.
    ///
    /// # Panics
    /// Without [`Config::test_faults`], or if the database cannot be locked.
    pub async fn sweep(&self) {
        assert!(self.test_faults, "a server without Config::test_faults sweeps only on its own");
        self.services.sweeps.round_now().await.expect("the background lock");
    }

    /// Stops gracefully: stops accepting connections, lets requests under way
    /// finish, closes every WebSocket with a close frame (going away), stops the
    /// background tasks, and closes the database pool. Requests and sockets that
    /// are still busy after the drain time are cut off.
    pub async fn stop(self) -> Stopped {
        let Running { shutdown, mut server, metrics, sockets, background, store, drain, .. } = self;
        let sockets_closed = sockets.len();
        shutdown.cancel();
        sockets.close();
        background.close();
        let deadline = tokio::time::Instant::now() + drain;
        let mut cut_short = false;
        if tokio::time::timeout_at(deadline, &mut server).await.is_err() {
            tracing::warn!("requests still under way after {drain:?}: cut off");
            server.abort();
            cut_short = true;
        }
        if tokio::time::timeout_at(deadline, sockets.wait()).await.is_err() {
            tracing::warn!("{} WebSockets still open after {drain:?}: cut off", sockets.len());
            cut_short = true;
        }
        if let Some(m) = metrics {
            let _ = m.await;
        }
        background.wait().await;
        store.close().await;
        Stopped { sockets_closed, cut_short }
    }

    /// Waits until the server stops by itself (it only does on an error).
    pub async fn wait(self) {
        let _ = self.server.await;
    }
}

/// Opens the database (creating and migrating it), binds, and serves in the background.
///
/// # Errors
/// [`StartError`] if the database cannot be opened or the address bound.
pub async fn start(config: Config) -> Result<Running, StartError> {
    let store = Store::open(&config.database)
        .await
        .map_err(|source| StartError::Database { url: config.database.clone(), source })?;
    match store.replay_earlier_games(config.clock.now_ms()).await {
        Ok(0) => {}
        Ok(n) => tracing::info!("rated {n} earlier games with Glicko-2"),
        Err(e) => tracing::warn!("cannot replay earlier games into ratings: {e}"),
    }
    let hub = Arc::new(Hub::default());
    let mut setup = domain::Setup {
        limits: config.limits.clone(),
        clock: config.clock.clone(),
        analyses_per_minute: config.analyses_per_minute,
        exports: config.exports.clone(),
        ..domain::Setup::default()
    };
    if let Some(n) = config.engines {
        setup.engines = Arc::new(engines::EnginePool::new(n));
    }
    let engines = setup.engines.clone();
    let listener = Arc::new(live::Live::new(hub.clone(), store.clone()));
    let services = Arc::new(setup.services(store.clone(), listener));
    let parsing = services.parsing.clone();
    let exports = services.exports.downloads().places().clone();
    // The stand-in hash that log-ins of unknown names are checked against is
    // made now, not at the first such log-in (which would take twice as long).
    tokio::task::spawn_blocking(domain::accounts::stand_in_hash);
    let mut state =
        AppState::new(services.clone(), hub.clone(), config.behind_proxy, config.connections.idle);
    state.test_faults = config.test_faults;
    let state = Arc::new(state);
    let (listener, addr) = bind(config.bind).await?;
    let metrics_listener = match config.metrics_bind {
        Some(at) => {
            telemetry::recorder();
            Some(bind(at).await?)
        }
        None => None,
    };
    let shutdown = state.shutdown.clone();
    let sockets = state.sockets.clone();
    // Behind a proxy every connection comes from the proxy: the limit per
    // address is then the proxy's to keep.
    let per_address = !config.behind_proxy;
    let app = http::router(state.clone());
    let server =
        tokio::spawn(accepting(listener, app, config.connections, per_address, shutdown.clone(), "server"));
    let (metrics, metrics_addr) = match metrics_listener {
        Some((listener, at)) => {
            let router = http::metrics_router(state);
            let serving = accepting(listener, router, config.connections, false, shutdown.clone(), "metrics");
            (Some(tokio::spawn(serving)), Some(at))
        }
        None => (None, None),
    };
    // The tasks the site lives on start again after a fault (see `supervise`).
    let background = TaskTracker::new();
    keep_running(&background, "the clock sweep", &shutdown, {
        let (services, stop) = (services.clone(), shutdown.clone());
        move || sweep_loop(services.clone(), stop.clone())
    });
    if config.computer_moves {
        match services.computer_jobs.resume_computer_games().await {
            Ok(0) => {}
            Ok(n) => tracing::info!("the computer resumes {n} games"),
            Err(e) => tracing::warn!("cannot find the computer's games: {}", e),
        }
        keep_running(&background, "the computer's worker", &shutdown, {
            let (services, stop) = (services.clone(), shutdown.clone());
            move || services.computer.clone().run_computer(stop.clone())
        });
    }
    if let Some(every) = config.puzzle_search {
        keep_running(&background, "the puzzle search", &shutdown, {
            let (services, stop) = (services.clone(), shutdown.clone());
            move || puzzle_loop(services.clone(), every, stop.clone())
        });
    }
    if store.backend() == store::Backend::Postgres {
        keep_running(&background, "the change listener", &shutdown, {
            let (url, services, hub, stop) =
                (config.database.clone(), services.clone(), hub.clone(), shutdown.clone());
            move || live::relay::listen_loop(url.clone(), services.clone(), hub.clone(), stop.clone())
        });
    }
    Ok(Running {
        addr,
        metrics_addr,
        shutdown,
        server,
        metrics,
        sockets,
        background,
        store,
        services,
        hub,
        parsing,
        exports,
        engines,
        drain: config.drain,
        test_faults: config.test_faults,
    })
}

/// Runs the background task `start` makes until `stop`, starting it again
/// after a fault (see [`supervise::supervise`]).
fn keep_running<F, Fut>(background: &TaskTracker, what: &'static str, stop: &CancellationToken, start: F)
where
    F: FnMut() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    background.spawn(supervise::supervise(what, supervise::Ends::OnStop, stop.clone(), None, start));
}

/// Serves `app` on `listener` until `stop` (see [`http::listen::serve`]); an
/// accept loop that fails is started again on the same listener.
async fn accepting(
    listener: TcpListener,
    app: axum::Router,
    limits: ConnectionLimits,
    per_address: bool,
    stop: CancellationToken,
    what: &'static str,
) {
    let listener = Arc::new(listener);
    supervise::supervise(what, supervise::Ends::OnStop, stop.clone(), None, || {
        http::listen::serve(listener.clone(), app.clone(), limits, per_address, stop.clone(), what)
    })
    .await;
}

async fn bind(at: SocketAddr) -> Result<(TcpListener, SocketAddr), StartError> {
    let failed = |source| StartError::Listen { addr: at, source };
    let listener = TcpListener::bind(at).await.map_err(failed)?;
    let addr = listener.local_addr().map_err(failed)?;
    Ok((listener, addr))
}

/// A round of the sweep (see [`domain::sweeps`]) every half second until
/// `stop`, by one instance at a time.
async fn sweep_loop(services: Arc<Services>, stop: CancellationToken) {
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    let mut rounds: u64 = 0;
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            () = stop.cancelled() => return,
        }
        if services.sweeps.try_round(rounds).await {
            rounds += 1;
        }
    }
}

/// The search of finished games for puzzles: a round every `every` (see
/// [`domain::sweeps::Sweeps::puzzle_round`]) until `stop`.
async fn puzzle_loop(services: Arc<Services>, every: Duration, stop: CancellationToken) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            () = stop.cancelled() => return,
        }
        services.sweeps.puzzle_round().await;
    }
}
