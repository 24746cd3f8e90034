//! The browser UI: four static files, embedded in the binary.

use std::sync::Arc;

use axum::{Router, http::header, response::IntoResponse, routing::get};

use super::AppState;

const INDEX: &str = include_str!("../../web/index.html");
const APP: &str = include_str!("../../web/app.js");
const BOARD: &str = include_str!("../../web/board.js");
const STYLE: &str = include_str!("../../web/style.css");

fn asset(body: &'static str, kind: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")], body)
}

pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(|| async { asset(INDEX, "text/html; charset=utf-8") }))
        .route("/app.js", get(|| async { asset(APP, "text/javascript; charset=utf-8") }))
        .route("/board.js", get(|| async { asset(BOARD, "text/javascript; charset=utf-8") }))
        .route("/style.css", get(|| async { asset(STYLE, "text/css; charset=utf-8") }))
}
