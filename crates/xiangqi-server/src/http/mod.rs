//! HTTP: the JSON API under `/api/v1`, its WebSocket, and the browser UI.

mod api;
pub mod auth;
mod web;
mod ws;

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::{
    Router,
    extract::DefaultBodyLimit,
    middleware,
    routing::{delete, get, post, put},
};

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

pub fn router(state: Arc<AppState>) -> Router {
    let api = Router::new()
        .route("/users", post(api::register).get(api::users))
        .route("/users/{name}", get(api::profile))
        .route("/session", post(api::login).get(api::whoami).delete(api::logout))
        .route("/me/password", post(api::change_password))
        .route("/me/profile", put(api::set_profile))
        .route("/challenges", post(api::create_challenge).get(api::challenges))
        .route("/challenges/{id}", delete(api::close_challenge))
        .route("/challenges/{id}/accept", post(api::accept_challenge))
        .route("/automatch", post(api::automatch))
        .route("/games", get(api::my_games))
        .route("/games/{id}", get(api::game))
        .route("/games/{id}/moves", post(api::submit))
        .route("/games/{id}/resign", post(api::resign))
        .route("/games/{id}/draw", post(api::draw))
        .route("/games/{id}/claim", post(api::claim))
        .route("/games/{id}/pgn", get(api::pgn))
        .route("/ws", get(ws::upgrade))
        .fallback(api::not_found)
        .layer(middleware::from_fn(auth::csrf_guard))
        .layer(DefaultBodyLimit::max(BODY_LIMIT));
    Router::new().nest("/api/v1", api).merge(web::routes()).with_state(state)
}
