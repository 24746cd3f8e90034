//! Who is asking: the session from the cookie or a bearer token; the guard
//! against cross-site writes; JSON bodies with clear errors.

use std::sync::Arc;

use axum::{
    extract::{FromRequest, FromRequestParts, Request, rejection::JsonRejection},
    http::{HeaderMap, Method, StatusCode, header, request::Parts},
    middleware::Next,
    response::Response,
};
use serde::de::DeserializeOwned;

use super::AppState;
use crate::{
    domain::{accounts::token_hash, now_ms},
    error::ApiError,
};

pub const COOKIE: &str = "xiangqi_session";
/// The header a browser cannot add to a cross-site request without a preflight.
pub const CSRF_HEADER: &str = "x-xiangqi";

/// The session token a request carries, if any.
pub fn token(headers: &HeaderMap) -> Option<String> {
    if let Some(bearer) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    {
        return Some(bearer.trim().to_string());
    }
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_string())
}

fn has_bearer(headers: &HeaderMap) -> bool {
    headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("Bearer "))
}

fn has_session_cookie(headers: &HeaderMap) -> bool {
    !has_bearer(headers) && token(headers).is_some()
}

/// Refuses writes that could come from another site: a write that a browser's
/// cookie would authenticate must carry the `X-Xiangqi` header, which a page on
/// another site cannot add without a preflight the server never grants. Writes
/// with a bearer token, or with no credentials at all (registering, logging in),
/// need no header: a browser never adds those by itself.
pub async fn csrf_guard(req: Request, next: Next) -> Result<Response, ApiError> {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe && has_session_cookie(req.headers()) && !req.headers().contains_key(CSRF_HEADER) {
        return Err(ApiError::forbidden(
            "writes made with the session cookie need the X-Xiangqi header (cross-site requests are refused)",
        ));
    }
    Ok(next.run(req).await)
}

/// The logged-in user, or 401.
pub struct User {
    pub name: String,
    pub token_hash: String,
}

impl FromRequestParts<Arc<AppState>> for User {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<AppState>) -> Result<Self, ApiError> {
        let token = token(&parts.headers).ok_or_else(|| ApiError::unauthorized("log in first"))?;
        let hash = token_hash(&token);
        let now = now_ms();
        let name = state
            .services
            .store
            .session_user(&hash, now)
            .await?
            .ok_or_else(|| ApiError::unauthorized("your session has ended; log in again"))?;
        state.seen(&name, now).await;
        Ok(User { name, token_hash: hash })
    }
}

/// The logged-in user if there is one.
pub struct MaybeUser(pub Option<User>);

impl FromRequestParts<Arc<AppState>> for MaybeUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<AppState>) -> Result<Self, ApiError> {
        match User::from_request_parts(parts, state).await {
            Ok(u) => Ok(MaybeUser(Some(u))),
            Err(e) if e.status == StatusCode::UNAUTHORIZED => Ok(MaybeUser(None)),
            Err(e) => Err(e),
        }
    }
}

/// A query string whose problems (unknown or malformed parameters) come back as API errors.
pub struct Params<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(Params(v)),
            Err(e) => Err(ApiError::bad_request(format!("bad query string: {}", e.body_text()))),
        }
    }
}

/// A JSON body whose problems come back as API errors.
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(Body(v)),
            Err(JsonRejection::BytesRejection(e)) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(ApiError::payload_too_large("the body is larger than 64 KiB"))
            }
            Err(e) => Err(ApiError::bad_request(format!("bad JSON body: {}", e.body_text()))),
        }
    }
}
