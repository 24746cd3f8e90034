//! Prometheus metrics: HTTP requests by route template, method and status with
//! their latencies, moves played, WebSocket connections, active games and the
//! database pool. Counters and histograms are recorded as things happen; gauges
//! are read when the metrics are scraped, so they are true of this instance at
//! that moment.
//!
//! The recorder is the process's global one: every server started in one
//! process (tests start many) adds to the same counters. Nothing here knows
//! HTTP: the edge times its requests in `http::metrics`.

use std::sync::OnceLock;

use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::store::Store;

pub const HTTP_REQUESTS: &str = "xiangqi_http_requests_total";
pub const HTTP_DURATION: &str = "xiangqi_http_request_duration_seconds";
pub const MOVES: &str = "xiangqi_moves_total";
pub const WEBSOCKETS: &str = "xiangqi_websockets";
pub const WEBSOCKETS_OPENED: &str = "xiangqi_websockets_opened_total";
pub const ACTIVE_GAMES: &str = "xiangqi_active_games";
pub const DB_POOL_SIZE: &str = "xiangqi_db_pool_connections";
pub const DB_POOL_IDLE: &str = "xiangqi_db_pool_idle_connections";
pub const SCRAPE_ERRORS: &str = "xiangqi_metrics_database_errors_total";
pub const CONNECTIONS_REFUSED: &str = "xiangqi_connections_refused_total";

/// Upper bounds of the latency buckets, in seconds.
const LATENCY_BUCKETS: [f64; 13] =
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

static RECORDER: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// The process's recorder, installed on first use; `None` if another recorder
/// was installed first (by a program that embeds the server), so that this
/// one's metrics cannot be rendered.
pub fn recorder() -> Option<&'static PrometheusHandle> {
    RECORDER
        .get_or_init(|| {
            let installed = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Full(HTTP_DURATION.to_string()), &LATENCY_BUCKETS)
                .and_then(PrometheusBuilder::install_recorder);
            match installed {
                Ok(handle) => {
                    describe();
                    Some(handle)
                }
                Err(e) => {
                    tracing::warn!("metrics are off: {e}");
                    None
                }
            }
        })
        .as_ref()
}

fn describe() {
    describe_counter!(HTTP_REQUESTS, "HTTP requests answered, by method, route template and status");
    describe_histogram!(
        HTTP_DURATION,
        metrics::Unit::Seconds,
        "Time to answer an HTTP request, by method and route template"
    );
    describe_counter!(MOVES, "Moves accepted");
    describe_gauge!(WEBSOCKETS, "WebSocket connections open on this instance");
    describe_counter!(WEBSOCKETS_OPENED, "WebSocket connections opened");
    describe_gauge!(ACTIVE_GAMES, "Games being played (in the database, all instances)");
    describe_gauge!(DB_POOL_SIZE, "Database connections this instance holds");
    describe_gauge!(DB_POOL_IDLE, "Database connections this instance holds that are idle");
    describe_counter!(SCRAPE_ERRORS, "Scrapes whose database gauges could not be read");
    describe_counter!(CONNECTIONS_REFUSED, "Connections closed at once: their address held its most already");
}

pub fn move_played() {
    counter!(MOVES).increment(1);
}

pub fn connection_refused() {
    counter!(CONNECTIONS_REFUSED).increment(1);
}

pub fn websocket_opened() {
    counter!(WEBSOCKETS_OPENED).increment(1);
}

/// The metrics in Prometheus' text format, with the gauges read now.
pub async fn render(store: &Store, websockets: usize) -> Option<String> {
    let handle = recorder()?;
    gauge!(WEBSOCKETS).set(websockets as f64);
    let pool = store.pool();
    gauge!(DB_POOL_SIZE).set(f64::from(pool.size()));
    gauge!(DB_POOL_IDLE).set(pool.num_idle() as f64);
    match store.active_game_count().await {
        Ok(n) => gauge!(ACTIVE_GAMES).set(n as f64),
        Err(e) => {
            tracing::warn!("metrics: cannot count active games: {e}");
            counter!(SCRAPE_ERRORS).increment(1);
        }
    }
    handle.run_upkeep();
    Some(handle.render())
}
