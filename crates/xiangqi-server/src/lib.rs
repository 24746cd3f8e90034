//! The xiangqi play server: turn-based and live Xiangqi between registered
//! players, as the play-site seed describes it, over a JSON API (`docs/API.md`),
//! WebSockets and a browser UI. SQLite by default; PostgreSQL for several
//! stateless instances on one database.

pub mod api;
pub mod domain;
pub mod engines;
mod error;
pub mod http;
pub mod live;
pub mod store;

use std::{net::SocketAddr, sync::Arc, time::Duration};

use tokio::{net::TcpListener, sync::oneshot, task::JoinHandle};

pub use crate::error::ApiError;
use crate::{domain::Services, http::AppState, live::Hub, store::Store};

/// How to run a server.
#[derive(Clone, Debug)]
pub struct Config {
    /// `sqlite://xiangqi.db?mode=rwc` or `postgres://user@host/db`.
    pub database: String,
    pub bind: SocketAddr,
    /// Accounts one network address may make in an hour.
    pub signups_per_hour: u32,
    /// Whether this instance searches the computer's moves (with several
    /// instances on one database, some may leave it to others).
    pub computer_moves: bool,
    /// Engine analyses one user may start in a minute.
    pub analyses_per_minute: u32,
    /// Searches that may run at once (each on one thread); `None`: half the cores.
    pub engines: Option<usize>,
}

impl Config {
    /// A server on a free loopback port.
    pub fn for_tests(database: &str) -> Config {
        Config {
            database: database.to_string(),
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
            signups_per_hour: 1_000_000,
            computer_moves: true,
            analyses_per_minute: 1_000_000,
            engines: None,
        }
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
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
    background: Vec<JoinHandle<()>>,
}

impl Running {
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The base URL, like `http://127.0.0.1:8080`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops accepting requests, finishes the ones under way, and returns.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        for b in &self.background {
            b.abort();
        }
        let _ = (&mut self.task).await;
    }

    /// Waits until the server stops.
    pub async fn wait(self) {
        let _ = self.task.await;
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
    match store.replay_earlier_games(domain::now_ms()).await {
        Ok(0) => {}
        Ok(n) => tracing::info!("rated {n} earlier games with Glicko-2"),
        Err(e) => tracing::warn!("cannot replay earlier games into ratings: {e}"),
    }
    let hub = Arc::new(Hub::default());
    let mut services = Services::new(store.clone(), hub.clone());
    services.signups_per_hour = config.signups_per_hour;
    services.analysis = Arc::new(domain::analysis::Analyses::new(config.analyses_per_minute));
    if let Some(n) = config.engines {
        services.engines = Arc::new(engines::EnginePool::new(n));
    }
    let services = Arc::new(services);
    let state = Arc::new(AppState::new(services.clone()));
    let listener = TcpListener::bind(config.bind)
        .await
        .map_err(|source| StartError::Listen { addr: config.bind, source })?;
    let addr = listener.local_addr().map_err(|source| StartError::Listen { addr: config.bind, source })?;
    let (stop_tx, stop_rx) = oneshot::channel::<()>();
    let app = http::router(state);
    let task = tokio::spawn(async move {
        let served = axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
            .with_graceful_shutdown(async {
                let _ = stop_rx.await;
            });
        if let Err(e) = served.await {
            tracing::error!("server stopped: {e}");
        }
    });
    let mut background = vec![tokio::spawn(flag_loop(services.clone()))];
    if config.computer_moves {
        match services.resume_computer_games().await {
            Ok(0) => {}
            Ok(n) => tracing::info!("the computer resumes {n} games"),
            Err(e) => tracing::warn!("cannot find the computer's games: {}", e.message),
        }
        background.push(tokio::spawn(services.clone().run_computer()));
    }
    if store.backend() == store::Backend::Postgres {
        background.push(tokio::spawn(listen_loop(config.database.clone(), services)));
    }
    Ok(Running { addr, stop: Some(stop_tx), task, background })
}

/// Makes a user an administrator of the site (or, with `admin` false, no longer
/// one), in the database directly: the server need not run. Whether the user exists.
///
/// # Errors
/// [`StartError::Database`] if the database cannot be opened.
pub async fn set_admin(database: &str, name: &str, admin: bool) -> Result<bool, StartError> {
    let failed = |source| StartError::Database { url: database.to_string(), source };
    let store = Store::open(database).await.map_err(failed)?;
    store.set_admin(name, admin).await.map_err(failed)
}

/// Live clocks flag by themselves; ladder challenges lapse; tournaments start,
/// move to their next round and finish.
async fn flag_loop(services: Arc<Services>) {
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    loop {
        tick.tick().await;
        if let Err(e) = services.flag_games(domain::now_ms()).await {
            tracing::warn!("clock check failed: {}", e.message);
        }
        if let Err(e) = services.lapse_ladder_challenges(domain::now_ms()).await {
            tracing::warn!("ladder check failed: {}", e.message);
        }
        if let Err(e) = services.advance_tournaments(domain::now_ms()).await {
            tracing::warn!("tournament check failed: {}", e.message);
        }
    }
}

/// With PostgreSQL, changes made through any instance reach this one's sockets.
async fn listen_loop(url: String, services: Arc<Services>) {
    loop {
        match sqlx::postgres::PgListener::connect(&url).await {
            Ok(mut listener) => {
                if let Err(e) = listener
                    .listen_all([
                        live::GAME_CHANNEL,
                        live::USER_CHANNEL,
                        live::LOBBY_CHANNEL,
                        live::CHAT_CHANNEL,
                        live::TOURNAMENT_CHANNEL,
                    ])
                    .await
                {
                    tracing::warn!("cannot listen for changes: {e}");
                } else {
                    while let Ok(n) = listener.recv().await {
                        relay(&services, n.channel(), n.payload()).await;
                    }
                }
            }
            Err(e) => tracing::warn!("cannot connect the change listener: {e}"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

async fn relay(services: &Services, channel: &str, payload: &str) {
    match channel {
        live::GAME_CHANNEL => {
            if let Ok(loaded) = services.load_game(payload).await {
                let event = api::events::Event::Game { game: Box::new(api::views::GameView::from(&loaded)) };
                services.hub.publish_local_game(payload, &event);
            }
        }
        live::USER_CHANNEL => match serde_json::from_str::<live::UserNote>(payload) {
            Ok(note) => services.hub.publish_local_user(note),
            Err(e) => tracing::warn!("unreadable notice from another instance: {e}"),
        },
        live::LOBBY_CHANNEL => services.hub.publish_local_lobby(),
        live::TOURNAMENT_CHANNEL => services.hub.publish_local_tournament(payload),
        live::CHAT_CHANNEL => {
            let Some((seq, game)) = payload.split_once(':') else { return };
            let seq: i64 = seq.parse().unwrap_or(0);
            if let Ok(lines) = services.store.chat(game, seq - 1, 1).await
                && let Some(line) = lines.first()
            {
                let event = api::events::Event::Chat {
                    game: game.to_string(),
                    line: api::views::ChatLine::from(line),
                };
                services.hub.publish_local_game(game, &event);
            }
        }
        _ => {}
    }
}
