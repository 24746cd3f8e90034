//! HTTP: the JSON API under `/api/v1`, its WebSocket, and the browser UI.

mod api;
pub mod auth;
pub mod client;
pub mod inputs;
pub mod listen;
mod metrics;
pub mod reference;
mod wasm;
mod web;
mod ws;

use std::{
    collections::HashMap,
    net::SocketAddr,
    sync::{Arc, Mutex},
};

use axum::handler::Handler;
use axum::{
    Router,
    extract::{ConnectInfo, DefaultBodyLimit, MatchedPath, Request, State},
    http::{HeaderValue, StatusCode, header},
    middleware,
    routing::get,
};
use tokio_util::{sync::CancellationToken, task::TaskTracker};
use tower_http::{
    catch_panic::CatchPanicLayer,
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    set_header::SetResponseHeaderLayer,
    timeout::RequestBodyTimeoutLayer,
    trace::{DefaultOnFailure, DefaultOnResponse, TraceLayer},
};
use tracing::Level;

use crate::domain::Services;

/// The largest request body accepted (but an import's): the record limits'
/// bytes per request.
pub const BODY_LIMIT: usize = xiangqi::notation::limits::Limits::SITE.request_bytes;

pub struct AppState {
    pub services: Arc<Services>,
    /// The live channels open sockets watch.
    pub hub: Arc<crate::live::Hub>,
    /// Requests come through a TLS-terminating proxy: the client's address is
    /// the one the proxy appends to `X-Forwarded-For`, and cookies are `Secure`.
    pub behind_proxy: bool,
    /// Cancelled when the server stops: open WebSockets close (going away).
    pub shutdown: CancellationToken,
    /// The open WebSockets, which a stop waits for.
    pub sockets: TaskTracker,
    /// How long a request's body may pause (a connection's idle time).
    idle: std::time::Duration,
    /// When each user was last recorded as seen, to write that at most once a minute.
    seen: Mutex<HashMap<String, i64>>,
    /// For tests only (see `Config::test_faults`): serves `GET
    /// /api/v1/test/panic`, a handler that panics. Off unless a test sets it.
    pub test_faults: bool,
}

impl AppState {
    pub fn new(
        services: Arc<Services>,
        hub: Arc<crate::live::Hub>,
        behind_proxy: bool,
        idle: std::time::Duration,
    ) -> Self {
        AppState {
            services,
            hub,
            behind_proxy,
            idle,
            shutdown: CancellationToken::new(),
            sockets: TaskTracker::new(),
            seen: Mutex::new(HashMap::new()),
            test_faults: false,
        }
    }

    /// How long a connection may stay silent (see [`listen::ConnectionLimits::idle`]).
    pub fn idle(&self) -> std::time::Duration {
        self.idle
    }

    async fn seen(&self, name: &str, now: i64) {
        let due = {
            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            let last = seen.get(name).copied().unwrap_or(0);
            if now - last > 60_000 {
                seen.insert(name.to_string(), now);
                true
            } else {
                false
            }
        };
        if due && let Err(e) = self.services.accounts.touch(name, now).await {
            tracing::warn!("cannot record that {name} was seen: {e}");
        }
    }
}

/// The OpenAPI 3.1 document of the JSON API, as served at `/api/v1/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    api_routes().1
}

/// The API's routes and document, put together on a thread of their own with
/// a large stack: the schemas the derive writes (the refusals' above all) are
/// built in single functions whose frames, in a debug build, outgrow the 2 MiB
/// that a test's thread (or a worker thread of the runtime) has.
fn api_routes() -> (axum::Router<Arc<AppState>>, utoipa::openapi::OpenApi) {
    std::thread::Builder::new()
        .name("api-routes".into())
        .stack_size(64 << 20)
        .spawn(api::routes)
        .and_then(|t| t.join().map_err(|_| std::io::Error::other("building the API's routes panicked")))
        .unwrap_or_else(|e| panic!("the API's routes: {e}"))
}

pub fn router(state: Arc<AppState>) -> Router {
    let (api, doc) = api_routes();
    let doc: Arc<str> = Arc::from(doc.to_pretty_json().unwrap_or_default());
    let mut api = api
        .route(
            "/openapi.json",
            get(move || {
                let doc = doc.clone();
                async move { ([(header::CONTENT_TYPE, "application/json")], doc.to_string()) }
            }),
        )
        .route("/ws", get(ws::upgrade))
        // A write to no endpoint is read (and refused) as a JSON one would be.
        .fallback(
            api::not_found.layer(middleware::from_fn_with_state(auth::BodyLimit::JSON, auth::limit_body)),
        );
    if state.test_faults {
        api = api.route("/test/panic", get(panic_for_tests));
    }
    let api = api
        .layer(middleware::from_fn(auth::csrf_guard))
        .layer(middleware::from_fn(auth::refuse_nul))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        // A body that stops coming is not waited for longer than an idle connection.
        .layer(RequestBodyTimeoutLayer::new(state.idle))
        // Answers of the API are one person's (the log-in's holds the token): no
        // cache on the way may keep them.
        .layer(header_layer(header::CACHE_CONTROL, "no-store"));
    // Headers every answer carries unless it set its own: the page sets a CSP
    // that lets its own scripts run; everything else may run nothing, and
    // nothing may be framed.
    let header = header_layer;
    let behind_proxy = state.behind_proxy;
    // Each request gets an id (kept from `X-Request-Id` if the client or proxy
    // sent one), which its log lines carry and its answer repeats.
    let trace = TraceLayer::new_for_http()
        .make_span_with(move |req: &Request| {
            let id = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("");
            let route = req.extensions().get::<MatchedPath>().map_or("unmatched", MatchedPath::as_str);
            let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0);
            let client = client::address(req.headers(), peer, behind_proxy).map(|ip| ip.to_string());
            tracing::info_span!(
                "request",
                id,
                method = %req.method(),
                route,
                path = req.uri().path(),
                client = client.as_deref().unwrap_or(""),
            )
        })
        .on_request(())
        .on_response(DefaultOnResponse::new().level(Level::INFO))
        .on_failure(DefaultOnFailure::new().level(Level::ERROR));
    Router::new()
        .nest("/api/v1", api)
        .merge(web::routes())
        .merge(wasm::routes())
        .route("/healthz", get(health))
        .route("/readyz", get(ready))
        .with_state(state)
        // A handler that panics answers 500 (the API's refusal) and is logged
        // once; the server goes on.
        .layer(CatchPanicLayer::custom(answer_panic))
        .layer(header(header::CONTENT_SECURITY_POLICY, "default-src 'none'; frame-ancestors 'none'"))
        .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(header::REFERRER_POLICY, "same-origin"))
        .layer(header(header::X_FRAME_OPTIONS, "DENY"))
        .layer(middleware::from_fn(metrics::track))
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(trace)
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .layer(middleware::map_request(keep_only_plain_request_ids))
}

/// The longest request id taken from a client or proxy.
const MAX_REQUEST_ID: usize = 64;

/// A client's `X-Request-Id` is logged and repeated in the answer: one that is
/// long or holds anything but letters, digits, `-`, `_` and `.` is replaced by
/// a new id, so that a client can neither bloat the logs nor forge their lines.
async fn keep_only_plain_request_ids(mut req: Request) -> Request {
    let plain = |v: &HeaderValue| {
        let b = v.as_bytes();
        !b.is_empty()
            && b.len() <= MAX_REQUEST_ID
            && b.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
    };
    let headers = req.headers_mut();
    let ids = headers.get_all("x-request-id");
    if ids.iter().count() > 1 || ids.iter().any(|v| !plain(v)) {
        headers.remove("x-request-id");
    }
    req
}

/// The metrics listener's routes: `/metrics` in Prometheus' text format, and
/// `/healthz`. It is meant for a private address (see `Config::metrics_bind`).
pub fn metrics_router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(health))
        .with_state(state)
        .layer(CatchPanicLayer::custom(answer_panic))
        .layer(header_layer(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
}

fn header_layer(name: header::HeaderName, value: &'static str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
}

async fn metrics(State(state): State<Arc<AppState>>) -> axum::response::Response {
    use axum::response::IntoResponse;
    match state.services.site.metrics(state.sockets.len()).await {
        Some(text) => {
            ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], text).into_response()
        }
        None => (StatusCode::SERVICE_UNAVAILABLE, "metrics are off: another recorder is installed")
            .into_response(),
    }
}

/// The answer to a request whose handler panicked: the API's refusal of a
/// fault (500), which nobody may cache; the panic is logged here, once.
fn answer_panic(panic: Box<dyn std::any::Any + Send + 'static>) -> axum::response::Response {
    use axum::response::IntoResponse;
    tracing::error!("a request's handler panicked: {}", crate::supervise::panic_message(panic.as_ref()));
    let mut answer = crate::error::ApiError(crate::error::Refusal::Internal {}).into_response();
    answer.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    answer
}

/// For tests only (see [`AppState::test_faults`]): a handler that panics.
async fn panic_for_tests() -> &'static str {
    panic!("a panic a test asked for")
}

/// Alive while the process serves and the moves it is given can be written:
/// a writer of moves that failed and waits to start again makes it 503.
async fn health(State(state): State<Arc<AppState>>) -> (StatusCode, &'static str) {
    if state.services.site.moves_writable() {
        (StatusCode::OK, "ok")
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "the writer of moves is down; it starts again in a moment")
    }
}

/// Ready when moves can be written and the database answers: a load
/// balancer sends no traffic before.
async fn ready(State(state): State<Arc<AppState>>) -> (StatusCode, &'static str) {
    if !state.services.site.moves_writable() {
        tracing::warn!("not ready: the writer of moves is down");
        return (StatusCode::SERVICE_UNAVAILABLE, "the writer of moves is down");
    }
    match state.services.site.ping().await {
        Ok(()) => (StatusCode::OK, "ready"),
        Err(e) => {
            tracing::warn!("not ready: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, "the database does not answer")
        }
    }
}
