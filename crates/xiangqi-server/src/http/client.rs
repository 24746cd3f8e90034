//! Who is on the other end: the client's network address, directly or, behind
//! a trusted proxy, as the proxy reports it.

use std::{
    net::{IpAddr, SocketAddr},
    sync::Arc,
};

use axum::{
    extract::{ConnectInfo, FromRequestParts},
    http::{HeaderMap, request::Parts},
};

use super::AppState;
use crate::error::ApiError;

pub const FORWARDED_FOR: &str = "x-forwarded-for";

/// The client's address. Directly, it is the peer of the connection. Behind a
/// proxy (`behind_proxy`) it is the right-most address of `X-Forwarded-For`:
/// the one the proxy itself appended. Addresses to its left were sent by the
/// client and could be anything, so they are never used; without the flag the
/// header is ignored altogether, since anyone could send it.
pub fn address(headers: &HeaderMap, peer: Option<SocketAddr>, behind_proxy: bool) -> Option<IpAddr> {
    if behind_proxy && let Some(ip) = forwarded_for(headers) {
        return Some(ip);
    }
    peer.map(|p| p.ip())
}

/// The last address of all `X-Forwarded-For` headers taken in order, if it is one.
fn forwarded_for(headers: &HeaderMap) -> Option<IpAddr> {
    let last = headers
        .get_all(FORWARDED_FOR)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .rfind(|s| !s.is_empty())?;
    last.parse::<IpAddr>().ok().or_else(|| last.parse::<SocketAddr>().ok().map(|s| s.ip()))
}

/// The client's address as a handler argument.
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<Arc<AppState>> for ClientIp {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<AppState>) -> Result<Self, ApiError> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0);
        address(&parts.headers, peer, state.behind_proxy).map(ClientIp).ok_or_else(|| {
            crate::domain::refusal::Error::broken("the client's network address is unknown").into()
        })
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(values: &[&'static str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append(FORWARDED_FOR, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn behind_a_proxy_the_address_it_appended_counts() {
        let peer = Some(SocketAddr::from(([127, 0, 0, 1], 5000)));
        let ip = |s: &str| s.parse::<IpAddr>().ok();
        let h = headers(&["1.2.3.4, 10.0.0.1", "203.0.113.7"]);
        assert_eq!(address(&h, peer, true), ip("203.0.113.7"), "the last of the last header");
        assert_eq!(address(&h, peer, false), ip("127.0.0.1"), "ignored without the flag");
        assert_eq!(address(&headers(&["2001:db8::1"]), peer, true), ip("2001:db8::1"));
        assert_eq!(address(&headers(&["198.51.100.2:4711"]), peer, true), ip("198.51.100.2"));
        assert_eq!(address(&headers(&["evil, "]), peer, true), ip("127.0.0.1"), "garbage: the peer");
        assert_eq!(address(&headers(&["1.1.1.1, nonsense"]), peer, true), ip("127.0.0.1"));
        assert_eq!(address(&HeaderMap::new(), peer, true), ip("127.0.0.1"), "no header: the peer");
    }
}
