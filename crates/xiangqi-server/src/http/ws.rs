//! One WebSocket per page: the client names the games it shows (`{"watch": id}`)
//! and receives every new state of them, and notices for its user. When the
//! server stops, every socket is closed with code 1001 (going away), which
//! tells the page to reconnect to another instance or after the restart.

use std::{collections::HashMap, sync::Arc, time::Duration};

use axum::{
    Extension,
    extract::{
        State,
        ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code},
    },
    http::{HeaderMap, header},
    response::{IntoResponse, Response},
};
use futures_util::{SinkExt, StreamExt};
use tokio::{sync::mpsc, task::JoinHandle};
use tokio_util::sync::CancellationToken;

use super::{AppState, auth::MaybeUser, listen::Place};
use crate::{
    api::events::{ClientMessage, Event},
    domain::accounts::is_id,
    error::{ApiError, Refusal},
    live::{GameWire, StudyWire, Watch, Wire},
    telemetry,
};

/// What a socket reads into at first: a client's messages are short (at most
/// 4 KiB), and tens of thousands of sockets each with the library's 128 KiB
/// would take gigabytes.
const READ_BUFFER: usize = 4096;
/// What one socket may have waiting to be written before it counts as dead: a
/// client that reads nothing is dropped rather than buffered for without end.
const MAX_WRITE_BUFFER: usize = 256 * 1024;

/// How long a stopping server waits for a socket's close frame to go out.
const CLOSE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Whether a browser's `Origin` (if it sent one) is this site: a page on another
/// site must not read a user's notices through their cookie.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else { return true };
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
    origin.split_once("://").is_some_and(|(_, rest)| rest == host)
}

pub async fn upgrade(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    user: MaybeUser,
    place: Option<Extension<Place>>,
    ws: WebSocketUpgrade,
) -> Response {
    if !same_origin(&headers) {
        return ApiError(Refusal::ForeignOrigin {}).into_response();
    }
    if state.shutdown.is_cancelled() {
        return ApiError(Refusal::Stopping {}).into_response();
    }
    let name = user.0.map(|u| u.name);
    let sockets = state.sockets.clone();
    ws.max_message_size(4096)
        .read_buffer_size(READ_BUFFER)
        // Each event is written out at once (one frame, one write), not gathered.
        .write_buffer_size(0)
        .max_write_buffer_size(MAX_WRITE_BUFFER)
        .on_upgrade(move |socket| {
            sockets.track_future(async move {
                // The socket holds its connection's place until it closes.
                let _place = place;
                serve(socket, state, name).await;
            })
        })
}

/// Forwards a broadcast channel into this socket's outbox until either closes.
fn forward(mut rx: Watch<Wire>, out: mpsc::Sender<Wire>) -> JoinHandle<()> {
    crate::supervise::spawn_logged("a WebSocket's feed", async move {
        loop {
            match rx.recv().await {
                Ok(msg) => {
                    if out.send(msg).await.is_err() {
                        break;
                    }
                }
                // A slow client missed some states; the next one carries the whole game.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
            }
        }
    })
}

/// The version of a game's state this socket sent last: states go out in
/// order, each once, whether they come from the game's channel or from the
/// state read when the watching began (a move made between the two would
/// otherwise show twice, or an older state after a newer one).
type Sent = Arc<tokio::sync::Mutex<i64>>;

/// Sends a game's state unless this socket sent it, or a newer one, already.
async fn send_state(sent: &Sent, version: i64, message: Wire, out: &mpsc::Sender<Wire>) -> bool {
    let mut last = sent.lock().await;
    if version <= *last {
        return true;
    }
    *last = version;
    out.send(message).await.is_ok()
}

/// Forwards a game's channel into this socket's outbox until either closes.
fn forward_game(mut rx: Watch<GameWire>, out: mpsc::Sender<Wire>, sent: Sent) -> JoinHandle<()> {
    crate::supervise::spawn_logged("a WebSocket's feed", async move {
        loop {
            let open = match rx.recv().await {
                Ok(GameWire { version: Some(v), wire }) => send_state(&sent, v, wire, &out).await,
                Ok(GameWire { version: None, wire }) => out.send(wire).await.is_ok(),
                // A slow client missed some states; the next one carries the whole game.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => true,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => false,
            };
            if !open {
                break;
            }
        }
    })
}

/// Forwards a study's channel into this socket's outbox, each state once and
/// in order, until either closes or the study is no longer one the socket's
/// user may see (made private, or the user removed from it).
fn forward_study(
    mut rx: Watch<StudyWire>,
    out: mpsc::Sender<Wire>,
    sent: Sent,
    user: Option<String>,
) -> JoinHandle<()> {
    crate::supervise::spawn_logged("a WebSocket's feed", async move {
        loop {
            let open = match rx.recv().await {
                Ok(w) if !w.for_user(user.as_deref()) => false,
                Ok(w) => send_state(&sent, w.version, w.wire, &out).await,
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => true,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => false,
            };
            if !open {
                break;
            }
        }
    })
}

/// Sends the outbox to the socket until it ends, or until the server stops:
/// then a close frame (going away) is the last thing sent. A ping goes out
/// every `ping` (a browser answers it by itself), so that a live page is
/// always heard from.
fn writer(
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut outbox: mpsc::Receiver<Wire>,
    stop: CancellationToken,
    ping: Duration,
) -> JoinHandle<()> {
    crate::supervise::spawn_logged("a WebSocket's writer", async move {
        let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + ping, ping);
        loop {
            tokio::select! {
                _ = pings.tick() => {
                    if sink.send(Message::Ping(axum::body::Bytes::new())).await.is_err() {
                        break;
                    }
                }
                msg = outbox.recv() => {
                    let Some(msg) = msg else { break };
                    if sink.send(Message::Text(msg)).await.is_err() {
                        break;
                    }
                }
                () = stop.cancelled() => {
                    let frame = CloseFrame { code: close_code::AWAY, reason: "the server is stopping".into() };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    break;
                }
            }
        }
    })
}

/// A socket's allowance of messages: `RATE` a second on average, up to `BURST`
/// at once. A page sends a few (what it shows); a client that sends more is
/// closed, since each watch costs the server a read.
struct Allowance {
    tokens: f64,
    at: tokio::time::Instant,
}

impl Allowance {
    const RATE: f64 = 20.0;
    const BURST: f64 = 64.0;

    fn new() -> Self {
        Allowance { tokens: Self::BURST, at: tokio::time::Instant::now() }
    }

    fn take(&mut self) -> bool {
        let now = tokio::time::Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * Self::RATE).min(Self::BURST);
        self.at = now;
        if self.tokens < 1.0 {
            return false;
        }
        self.tokens -= 1.0;
        true
    }
}

/// The games one socket may watch at once.
const MOST_WATCHED: usize = 32;

async fn serve(socket: WebSocket, state: Arc<AppState>, user: Option<String>) {
    telemetry::websocket_opened();
    let (sink, mut stream) = socket.split();
    let (out, outbox) = mpsc::channel::<Wire>(64);
    let mut watching: HashMap<String, JoinHandle<()>> = HashMap::new();
    let mut studying: HashMap<String, JoinHandle<()>> = HashMap::new();
    let user_task = user.as_ref().map(|name| forward(state.hub.watch_user(name), out.clone()));
    let lobby_task = forward(state.hub.watch_lobby(), out.clone());
    let tournament_task = forward(state.hub.watch_tournaments(), out.clone());
    let idle = state.idle();
    let mut writer = writer(sink, outbox, state.shutdown.clone(), idle);
    // A socket that answers no ping for three idle times is gone (its peer
    // vanished without closing): it is closed rather than kept for ever.
    let silence = idle * 3;
    let mut allowance = Allowance::new();
    loop {
        let msg = tokio::select! {
            msg = tokio::time::timeout(silence, stream.next()) => match msg {
                Ok(msg) => msg,
                Err(_) => break,
            },
            () = state.shutdown.cancelled() => break,
        };
        let Some(Ok(msg)) = msg else { break };
        let Message::Text(text) = msg else { continue };
        if !allowance.take() {
            tracing::debug!("a socket sent more than {} messages a second: closed", Allowance::RATE);
            break;
        }
        let Ok(m) = serde_json::from_str::<ClientMessage>(&text) else { continue };
        if let Some(id) = m.watch.filter(|id| is_id(id) && !watching.contains_key(id))
            && watching.len() < MOST_WATCHED
        {
            // Watching begins before the state is read, so that no move made in
            // between is missed; a game that does not exist is not watched (its
            // channel goes with the watch).
            let watch = state.hub.watch_game(&id);
            if let Ok(loaded) = state.services.games.load_game(&id).await {
                let sent = Sent::default();
                let task = forward_game(watch, out.clone(), sent.clone());
                // Send the current state at once, so a page that reconnects catches up.
                let event = Event::Game { game: state.hub.views.of(&loaded) };
                send_state(&sent, loaded.row.version, crate::live::wire(&event), &out).await;
                watching.insert(id, task);
            }
        }
        if let Some(id) = m.unwatch
            && let Some(task) = watching.remove(&id)
        {
            task.abort();
        }
        if let Some(id) = m.watch_study.filter(|id| is_id(id) && !studying.contains_key(id))
            && studying.len() < MOST_WATCHED
        {
            // As with games: watching begins before the study is read; a study
            // the user may not see is not watched.
            let watch = state.hub.watch_study(&id);
            if let Ok(study) = state.services.studies.study(user.as_deref(), &id).await {
                let sent = Sent::default();
                let task = forward_study(watch, out.clone(), sent.clone(), user.clone());
                let now = StudyWire::of(&study);
                send_state(&sent, now.version, now.wire, &out).await;
                studying.insert(id, task);
            }
        }
        if let Some(id) = m.unwatch_study
            && let Some(task) = studying.remove(&id)
        {
            task.abort();
        }
    }
    for (_, task) in watching.into_iter().chain(studying) {
        task.abort();
    }
    if let Some(t) = user_task {
        t.abort();
    }
    lobby_task.abort();
    tournament_task.abort();
    if state.shutdown.is_cancelled() {
        // The writer sends the close frame; give it the moment that takes.
        if tokio::time::timeout(CLOSE_WAIT, &mut writer).await.is_err() {
            writer.abort();
        }
    } else {
        writer.abort();
    }
}
