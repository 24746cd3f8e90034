//! One WebSocket per page: the client names the games it shows (`{"watch": id}`)
//! and receives every new state of them, and notices for its user.

use std::{collections::HashMap, sync::Arc};

use axum::{
    extract::{
        State,
        ws::{Message, WebSocket, WebSocketUpgrade},
    },
    http::{HeaderMap, header},
    response::{IntoResponse, Response},
};
use futures_util::{SinkExt, StreamExt};
use tokio::{sync::mpsc, task::JoinHandle};

use super::{AppState, auth::MaybeUser};
use crate::{
    api::{
        events::{ClientMessage, Event},
        views::GameView,
    },
    error::ApiError,
    live::Wire,
};

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
    ws: WebSocketUpgrade,
) -> Response {
    if !same_origin(&headers) {
        return ApiError::forbidden("WebSocket from another site").into_response();
    }
    let name = user.0.map(|u| u.name);
    ws.max_message_size(4096).on_upgrade(move |socket| serve(socket, state, name))
}

/// Forwards a broadcast channel into this socket's outbox until either closes.
fn forward(mut rx: tokio::sync::broadcast::Receiver<Wire>, out: mpsc::Sender<Wire>) -> JoinHandle<()> {
    tokio::spawn(async move {
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

async fn serve(socket: WebSocket, state: Arc<AppState>, user: Option<String>) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut outbox) = mpsc::channel::<Wire>(64);
    let mut watching: HashMap<String, JoinHandle<()>> = HashMap::new();
    let user_task = user.as_ref().map(|name| forward(state.services.hub.watch_user(name), out.clone()));
    let lobby_task = forward(state.services.hub.watch_lobby(), out.clone());
    let tournament_task = forward(state.services.hub.watch_tournaments(), out.clone());
    let writer = tokio::spawn(async move {
        while let Some(msg) = outbox.recv().await {
            if sink.send(Message::Text(msg.as_ref().into())).await.is_err() {
                break;
            }
        }
    });
    while let Some(Ok(msg)) = stream.next().await {
        let Message::Text(text) = msg else { continue };
        let Ok(m) = serde_json::from_str::<ClientMessage>(&text) else { continue };
        if let Some(id) = m.watch.filter(|id| id.len() <= 64 && !watching.contains_key(id)) {
            if watching.len() >= 32 {
                continue;
            }
            let task = forward(state.services.hub.watch_game(&id), out.clone());
            // Send the current state at once, so a page that reconnects catches up.
            if let Ok(loaded) = state.services.load_game(&id).await {
                let event = Event::Game { game: Box::new(GameView::from(&loaded)) };
                let _ = out.send(Arc::from(serde_json::to_string(&event).unwrap_or_default())).await;
            }
            watching.insert(id, task);
        }
        if let Some(id) = m.unwatch
            && let Some(task) = watching.remove(&id)
        {
            task.abort();
        }
    }
    for (_, task) in watching {
        task.abort();
    }
    if let Some(t) = user_task {
        t.abort();
    }
    lobby_task.abort();
    tournament_task.abort();
    writer.abort();
}
