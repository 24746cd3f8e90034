//! Every parser that a request's untrusted bytes reach before a handler's own
//! rules, in one call: JSON bodies into each request type, query strings into
//! each query type, path segments into the names they stand for, WebSocket
//! messages, a move's text, the session token in cookies and headers, the
//! client's address behind a proxy, and the NUL guard. The fuzz target
//! (`crates/xiangqi-server/fuzz`) and the hostile-input test call it: nothing
//! may panic, and what parses keeps the bounds the handlers rely on.

use axum::{
    extract::Query,
    http::{HeaderMap, HeaderValue, Uri, header},
};
use serde::de::DeserializeOwned;
use xiangqi::{Position, Standard, notation};

use super::{auth, client};
use crate::model::accounts::ProfileFields;
use crate::model::page::Page;
use crate::{
    api::{
        events::ClientMessage,
        requests::{
            AutoMatch, ChatQuery, Credentials, DrawRequest, MailboxQuery, NewChallenge, NewChatLine,
            NewInvitation, NewLadderChallenge, NewMessage, NewNews, PageQuery, PasswordChange, ProfileEdit,
            PuzzleSharing, RatingSettings, SearchQuery, Submit,
        },
    },
    domain::{accounts, people::check_profile},
    model::{Named, preferences::Preferences, ratings::Category},
};

/// How many of the parsers accepted the input (the rest refused it cleanly).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Accepted {
    pub bodies: usize,
    pub queries: usize,
    pub names: usize,
}

fn body<T: DeserializeOwned>(data: &[u8], accepted: &mut usize) -> Option<T> {
    let parsed = serde_json::from_slice::<T>(data).ok();
    *accepted += usize::from(parsed.is_some());
    parsed
}

fn query<T: DeserializeOwned>(uri: &Uri, accepted: &mut usize) -> Option<T> {
    let parsed = Query::<T>::try_from_uri(uri).ok().map(|Query(q)| q);
    *accepted += usize::from(parsed.is_some());
    parsed
}

/// Feeds `data` to every parser: as a JSON body, as a query string, as a path
/// segment, as a WebSocket message, as a move, and as header values.
///
/// # Panics
/// When a parser breaks its own contract (which is what the callers look for).
pub fn parse_everything(data: &[u8]) -> Accepted {
    let mut a = Accepted::default();
    let text = String::from_utf8_lossy(data);

    // Bodies, and what the handlers do with them before any database.
    let _ = body::<Credentials>(data, &mut a.bodies).map(|c| {
        let _ = (accounts::check_name(&c.name), accounts::check_password(&c.password));
    });
    let _ = body::<PasswordChange>(data, &mut a.bodies);
    if let Some(p) = body::<ProfileEdit>(data, &mut a.bodies) {
        let _ = check_profile(&ProfileFields::from(p));
    }
    let _ = body::<NewMessage>(data, &mut a.bodies);
    let _ = body::<NewChatLine>(data, &mut a.bodies);
    let _ = body::<NewInvitation>(data, &mut a.bodies);
    if let Some(c) = body::<NewChallenge>(data, &mut a.bodies) {
        let _ = c.clock.check();
    }
    if let Some(m) = body::<AutoMatch>(data, &mut a.bodies) {
        let _ = m.clock.check();
    }
    let _ = body::<Submit>(data, &mut a.bodies);
    let _ = body::<DrawRequest>(data, &mut a.bodies);
    let _ = body::<NewNews>(data, &mut a.bodies);
    let _ = body::<RatingSettings>(data, &mut a.bodies);
    let _ = body::<PuzzleSharing>(data, &mut a.bodies);
    let _ = body::<NewLadderChallenge>(data, &mut a.bodies);
    if let Some(p) = body::<Preferences>(data, &mut a.bodies) {
        let _ = p.check();
    }
    let _ = serde_json::from_slice::<ClientMessage>(data);
    let _ = auth::json_has_nul(data);

    // Query strings, as a request line would carry them.
    if let Ok(uri) = format!("/api/v1/x?{}", text.trim()).parse::<Uri>() {
        let _ = auth::uri_has_nul(&uri);
        let _ = query::<PageQuery>(&uri, &mut a.queries).map(Page::from);
        let _ = query::<ChatQuery>(&uri, &mut a.queries);
        let _ = query::<MailboxQuery>(&uri, &mut a.queries);
        let _ = query::<SearchQuery>(&uri, &mut a.queries);
    }

    // Path segments that name something.
    a.names += usize::from(Category::parse(&text).is_ok());
    a.names += usize::from(accounts::check_name(&text).is_ok());

    // A move's text, on the starting position (the handler parses against the game's).
    let start = Position::<Standard>::startpos();
    if let Ok(m) = notation::parse_any(&start, &text) {
        assert!(start.legal_moves().contains(&m), "a parsed move is legal: {text:?}");
    }

    // Header values: the session cookie, a bearer token, X-Forwarded-For.
    if let Ok(value) = HeaderValue::from_bytes(data) {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, value.clone());
        headers.insert(client::FORWARDED_FOR, value.clone());
        let _ = auth::token(&headers);
        let _ = client::address(&headers, None, true);
        headers.insert(header::AUTHORIZATION, value);
        let _ = auth::token(&headers);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_inputs_are_accepted() {
        assert!(parse_everything(br#"{"ply": 0, "move": "h2e2"}"#).bodies >= 1);
        assert!(parse_everything(b"after=abc&limit=5").queries >= 1);
        assert_eq!(parse_everything(b"standard_live").names, 2, "a category, and a valid user id");
        assert_eq!(parse_everything(b"h2e2"), Accepted { bodies: 0, queries: 0, names: 1 });
    }
}
