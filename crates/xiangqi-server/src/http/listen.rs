//! Accepting connections. What one client can make the server hold here is
//! bounded: a network address keeps at most so many connections open, a
//! request's headers must arrive whole within the idle time and in at most
//! [`MAX_HEADER_BYTES`], and a connection that sends nothing for that long is
//! closed. (WebSockets, once upgraded, keep their place among their
//! address's connections, and their own watch on silence: see `ws`.)

use std::{
    collections::HashMap,
    convert::Infallible,
    net::{IpAddr, SocketAddr},
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{Router, body::Body, extract::ConnectInfo};
use hyper::{body::Incoming, server::conn::http1, service::service_fn};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::{sync::CancellationToken, task::TaskTracker};

use crate::model::client::client_key;
use tower::Service;

/// The most a request's line and headers may take: far above what a browser
/// sends (cookies included), far below what would let a client make each
/// connection cost much memory. A larger one is answered 431 and closed.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;
/// The most header fields a request may have.
const MAX_HEADERS: usize = 64;

/// What one client may hold open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Connections one network address (an IPv6 /64) may have open at once;
    /// more are closed as soon as they are accepted. Not applied behind a
    /// proxy, where every connection comes from the proxy (which then keeps
    /// its own per-client limit).
    pub per_address: usize,
    /// How long a connection may take to send a request's headers, or stay
    /// idle between requests, before it is closed; also how long a request's
    /// body may pause.
    pub idle: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits { per_address: 128, idle: Duration::from_secs(20) }
    }
}

/// Open connections by client.
#[derive(Default)]
struct OpenConnections {
    by_client: Mutex<HashMap<IpAddr, usize>>,
}

/// One admitted connection: counted until dropped.
struct Slot {
    open: Arc<OpenConnections>,
    key: IpAddr,
}

/// The place a connection holds among its address's, in every request's
/// extensions: a connection upgraded to a WebSocket outlives its HTTP
/// serving, and the socket keeps the place until it closes.
#[derive(Clone)]
pub struct Place {
    _slot: Arc<Slot>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut by_client = self.open.by_client.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = by_client.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                by_client.remove(&self.key);
            }
        }
    }
}

impl OpenConnections {
    /// Counts a new connection from `ip`, unless its client holds `most` already.
    fn admit(self: &Arc<Self>, ip: IpAddr, most: usize) -> Option<Slot> {
        let key = client_key(ip);
        let mut by_client = self.by_client.lock().unwrap_or_else(|e| e.into_inner());
        let n = by_client.entry(key).or_default();
        if *n >= most {
            return None;
        }
        *n += 1;
        Some(Slot { open: self.clone(), key })
    }
}

/// Errors of `accept` that concern one connection only (it was reset before
/// it was taken); any other (out of file descriptors, say) is the listener's,
/// and waiting a moment lets connections close before the next try.
fn one_connection_only(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    matches!(e.kind(), ConnectionRefused | ConnectionAborted | ConnectionReset)
}

/// Serves `app` on `listener` until `stop` is cancelled, then lets the requests
/// under way finish and returns when every connection has closed. Upgraded
/// connections (WebSockets) are no longer this loop's once upgraded.
pub async fn serve(
    listener: Arc<TcpListener>,
    app: Router,
    limits: ConnectionLimits,
    per_address: bool,
    stop: CancellationToken,
    what: &'static str,
) {
    let open = Arc::new(OpenConnections::default());
    let connections = TaskTracker::new();
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = stop.cancelled() => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) if one_connection_only(&e) => continue,
            Err(e) => {
                tracing::warn!("{what}: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let most = if per_address { limits.per_address } else { usize::MAX };
        let Some(slot) = open.admit(peer.ip(), most) else {
            crate::telemetry::connection_refused();
            tracing::debug!("{what}: {peer} holds {most} connections already: closed");
            continue;
        };
        let serving = connection(stream, peer, slot, app.clone(), limits.idle, stop.clone());
        connections.spawn(crate::supervise::logged("a connection", serving));
    }
    connections.close();
    connections.wait().await;
}

async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    slot: Slot,
    app: Router,
    idle: Duration,
    stop: CancellationToken,
) {
    let place = Place { _slot: Arc::new(slot) };
    let _ = stream.set_nodelay(true);
    let service = service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        request.extensions_mut().insert(place.clone());
        let mut app = app.clone();
        async move { Ok::<_, Infallible>(app.call(request.map(Body::new)).await.unwrap_or_else(|e| match e {})) }
    });
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(idle)
        .max_buf_size(MAX_HEADER_BYTES)
        .max_headers(MAX_HEADERS);
    let conn = builder.serve_connection(TokioIo::new(stream), service).with_upgrades();
    tokio::pin!(conn);
    tokio::select! {
        served = conn.as_mut() => {
            if let Err(e) = served {
                tracing::debug!("connection from {peer}: {e}");
            }
        }
        () = stop.cancelled() => {
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_client_holds_at_most_its_share_and_gets_it_back_as_connections_close() {
        let open = Arc::new(OpenConnections::default());
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let first = open.admit(a, 2).unwrap();
        let _second = open.admit(a, 2).unwrap();
        assert!(open.admit(a, 2).is_none(), "a third from the same address");
        assert!(open.admit(b, 2).is_some(), "another address is not affected");
        drop(first);
        assert!(open.admit(a, 2).is_some(), "a closed connection frees its place");
    }
}
