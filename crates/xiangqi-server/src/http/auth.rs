//! Who is asking: the session from the cookie or a bearer token; the guard
//! against cross-site writes; JSON bodies with clear errors.

use std::sync::Arc;

use axum::{
    extract::{FromRequest, FromRequestParts, Request, State, rejection::JsonRejection},
    http::{HeaderMap, Method, StatusCode, header, request::Parts},
    middleware::Next,
    response::Response,
};
use serde::de::DeserializeOwned;

use super::AppState;
use crate::{
    domain::accounts::token_hash,
    error::{ApiError, Refusal},
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
        return Err(Refusal::CrossSite {}.into());
    }
    Ok(next.run(req).await)
}

/// Whether JSON text holds the escape of a NUL character (`\u0000`, not an
/// escaped backslash before `u0000`). A raw NUL is not valid JSON anyway.
pub fn json_has_nul(body: &[u8]) -> bool {
    let mut backslashes = 0;
    for (i, &b) in body.iter().enumerate() {
        if b == b'\\' {
            backslashes += 1;
            continue;
        }
        if backslashes % 2 == 1 && b == b'u' && body.get(i + 1..i + 5) == Some(b"0000") {
            return true;
        }
        backslashes = 0;
    }
    false
}

/// Whether a path or query string holds an encoded NUL character.
pub fn uri_has_nul(uri: &axum::http::Uri) -> bool {
    uri.path_and_query().is_some_and(|pq| pq.as_str().to_ascii_lowercase().contains("%00"))
}

/// The refusal of a body over [`super::BODY_LIMIT`].
fn too_large() -> ApiError {
    Refusal::BodyTooLarge { max_kib: (super::BODY_LIMIT / 1024) as u32 }.into()
}

/// Refuses a NUL character in a request's path or query: no name or id holds
/// one, and PostgreSQL cannot store one in text. (A JSON body's are refused
/// by [`limit_body`].)
pub async fn refuse_nul(req: Request, next: Next) -> Result<Response, ApiError> {
    if uri_has_nul(req.uri()) {
        return Err(Refusal::NulCharacter {}.into());
    }
    Ok(next.run(req).await)
}

/// What a route's request body may be. Each route of the API has one, set on
/// the route ([`BodyLimit::JSON`] for all but the import of PGN files).
#[derive(Clone, Copy, Debug)]
pub struct BodyLimit {
    /// The most bytes.
    pub max: usize,
    /// The refusal of a larger body.
    pub too_large: fn() -> Refusal,
    /// Whether the body is JSON, whose text may escape no NUL character.
    pub json: bool,
}

impl BodyLimit {
    /// A JSON body: at most [`super::BODY_LIMIT`].
    pub const JSON: BodyLimit = BodyLimit {
        max: super::BODY_LIMIT,
        too_large: || Refusal::BodyTooLarge { max_kib: (super::BODY_LIMIT / 1024) as u32 },
        json: true,
    };
    /// A PGN file to import (`POST /imports`): at most its own larger limit.
    pub const IMPORT: BodyLimit = BodyLimit {
        max: crate::domain::imports::MAX_BYTES,
        too_large: crate::domain::imports::too_large,
        json: false,
    };
}

/// Reads a write's body up to its route's [`BodyLimit`] before the handler
/// runs: a body over it is refused (413) without being read further, at once
/// if its `Content-Length` says so, and a JSON body that escapes a NUL
/// character is refused (400). A body that stops coming is cut off by the
/// body timeout, and refused the same way.
pub async fn limit_body(
    State(limit): State<BodyLimit>,
    req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return Ok(next.run(req).await);
    }
    let refused = || ApiError::from((limit.too_large)());
    let declared =
        req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit.max as u64) {
        return Err(refused());
    }
    let (parts, body) = req.into_parts();
    let bytes = axum::body::to_bytes(body, limit.max).await.map_err(|_| refused())?;
    if limit.json && json_has_nul(&bytes) {
        return Err(Refusal::NulCharacter {}.into());
    }
    Ok(next.run(Request::from_parts(parts, axum::body::Body::from(bytes))).await)
}

/// The logged-in user, or 401.
pub struct User {
    pub name: String,
    pub token_hash: String,
}

impl FromRequestParts<Arc<AppState>> for User {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<AppState>) -> Result<Self, ApiError> {
        let token = token(&parts.headers).ok_or(Refusal::LogInFirst {})?;
        let hash = token_hash(&token);
        let now = state.services.clock.now_ms();
        let name = state.services.accounts.session_user(&hash, now).await?.ok_or(Refusal::SessionEnded {})?;
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
            Err(e) if e.status() == StatusCode::UNAUTHORIZED => Ok(MaybeUser(None)),
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
            Err(e) => {
                Err(Refusal::Malformed { detail: format!("bad query string: {}", e.body_text()) }.into())
            }
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
                Err(too_large())
            }
            Err(e) => Err(Refusal::Malformed { detail: format!("bad JSON body: {}", e.body_text()) }.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_characters_are_found_in_json_and_uris() {
        assert!(json_has_nul(br#"{"body": "a\u0000b"}"#));
        assert!(json_has_nul(br#"{"body": "\\\u0000"}"#), "an escaped backslash, then the escape");
        assert!(!json_has_nul(br#"{"body": "\\u0000"}"#), "a backslash, then the letters u0000");
        assert!(!json_has_nul(br#"{"body": "u0000 \u0041"}"#));
        assert!(uri_has_nul(&"/api/v1/users/a%00b".parse().unwrap()));
        assert!(uri_has_nul(&"/api/v1/users?after=%00".parse().unwrap()));
        assert!(!uri_has_nul(&"/api/v1/users/a%200".parse().unwrap()));
    }
}
