//! HTTP: the JSON API under `/api/v1`, its WebSocket, and the browser UI.

mod api;
pub mod auth;
pub mod reference;
mod web;
mod ws;

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::{
    Router,
    extract::{DefaultBodyLimit, State},
    http::{HeaderValue, StatusCode, header},
    middleware,
    routing::get,
};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::domain::Services;

/// The largest request body accepted.
pub const BODY_LIMIT: usize = 64 * 1024;

pub struct AppState {
    pub services: Arc<Services>,
    /// When each user was last recorded as seen, to write that at most once a minute.
    seen: Mutex<HashMap<String, i64>>,
}

impl AppState {
    pub fn new(services: Arc<Services>) -> Self {
        AppState { services, seen: Mutex::new(HashMap::new()) }
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
        if due && let Err(e) = self.services.store.touch(name, now).await {
            tracing::warn!("cannot record that {name} was seen: {e}");
        }
    }
}

/// The OpenAPI 3.1 document of the JSON API, as served at `/api/v1/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    api::routes().1
}

pub fn router(state: Arc<AppState>) -> Router {
    let (api, doc) = api::routes();
    let doc: Arc<str> = Arc::from(doc.to_pretty_json().unwrap_or_default());
    let api = api
        .route(
            "/openapi.json",
            get(move || {
                let doc = doc.clone();
                async move { ([(header::CONTENT_TYPE, "application/json")], doc.to_string()) }
            }),
        )
        .route("/ws", get(ws::upgrade))
        .fallback(api::not_found)
        .layer(middleware::from_fn(auth::csrf_guard))
        .layer(DefaultBodyLimit::max(BODY_LIMIT));
    // Headers every answer carries unless it set its own: the page sets a CSP
    // that lets its own scripts run; everything else may run nothing, and
    // nothing may be framed.
    let header = |name, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    Router::new()
        .nest("/api/v1", api)
        .merge(web::routes())
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(ready))
        .with_state(state)
        .layer(header(header::CONTENT_SECURITY_POLICY, "default-src 'none'; frame-ancestors 'none'"))
        .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(header::REFERRER_POLICY, "same-origin"))
        .layer(header(header::X_FRAME_OPTIONS, "DENY"))
}

/// Ready when the database answers: a load balancer sends no traffic before.
async fn ready(State(state): State<Arc<AppState>>) -> (StatusCode, &'static str) {
    match state.services.store.ping().await {
        Ok(()) => (StatusCode::OK, "ready"),
        Err(e) => {
            tracing::warn!("not ready: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, "the database does not answer")
        }
    }
}
