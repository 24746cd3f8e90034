//! The HTTP edge's part of the metrics: every request counted and timed.

use std::time::Instant;

use axum::{
    extract::{MatchedPath, Request},
    middleware::Next,
    response::Response,
};
use metrics::{counter, histogram};

use crate::telemetry::{HTTP_DURATION, HTTP_REQUESTS};

/// Counts and times every request by its route template (`/api/v1/games/{id}`,
/// never the id itself, so the number of series stays bounded). Requests that
/// match no route count under `unmatched`.
pub async fn track(req: Request, next: Next) -> Response {
    let route = req.extensions().get::<MatchedPath>().map_or("unmatched", MatchedPath::as_str).to_string();
    let method = req.method().as_str().to_string();
    let started = Instant::now();
    let response = next.run(req).await;
    let status = response.status().as_u16().to_string();
    histogram!(HTTP_DURATION, "method" => method.clone(), "route" => route.clone())
        .record(started.elapsed().as_secs_f64());
    counter!(HTTP_REQUESTS, "method" => method, "route" => route, "status" => status).increment(1);
    response
}
