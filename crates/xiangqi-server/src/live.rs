//! Live updates: a channel per game and per user. With SQLite (one server) a
//! change is published here directly; with PostgreSQL every instance listens on
//! the database (LISTEN/NOTIFY) and publishes to its own sockets, so a move made
//! through one instance reaches watchers connected to another.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use serde_json::{Value, json};
use tokio::sync::broadcast;

use crate::store::{Backend, Store};

pub const GAME_CHANNEL: &str = "xiangqi_game";
pub const USER_CHANNEL: &str = "xiangqi_user";

type Channels = Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>;

#[derive(Default)]
pub struct Hub {
    games: Channels,
    users: Channels,
}

fn subscribe(channels: &Channels, key: &str) -> broadcast::Receiver<Arc<str>> {
    let mut map = channels.lock().unwrap_or_else(|e| e.into_inner());
    map.entry(key.to_string()).or_insert_with(|| broadcast::channel(64).0).subscribe()
}

fn send(channels: &Channels, key: &str, message: &Value) {
    let mut map = channels.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(tx) = map.get(key) {
        if tx.send(Arc::from(message.to_string())).is_err() {
            // Nobody listens any more.
            map.remove(key);
        }
    }
}

impl Hub {
    pub fn watch_game(&self, id: &str) -> broadcast::Receiver<Arc<str>> {
        subscribe(&self.games, id)
    }

    pub fn watch_user(&self, name: &str) -> broadcast::Receiver<Arc<str>> {
        subscribe(&self.users, name)
    }

    /// Sends a game's state to the watchers connected to this instance.
    pub fn publish_local_game(&self, id: &str, state: Value) {
        send(&self.games, id, &json!({ "type": "game", "game": state }));
    }

    pub fn publish_local_user(&self, name: &str, notice: &Value) {
        send(&self.users, name, notice);
    }

    pub async fn game_changed(&self, store: &Store, id: &str, state: Value) {
        if store.backend() == Backend::Postgres {
            let sent = sqlx::query("SELECT pg_notify($1, $2)")
                .bind(GAME_CHANNEL)
                .bind(id)
                .execute(store.pool())
                .await;
            if let Err(e) = sent {
                tracing::warn!("cannot notify other instances of game {id}: {e}");
                self.publish_local_game(id, state);
            }
        } else {
            self.publish_local_game(id, state);
        }
    }

    pub async fn notify(&self, store: &Store, user: &str, notice: Value) {
        if store.backend() == Backend::Postgres {
            let payload = json!({ "user": user, "notice": notice }).to_string();
            let sent = sqlx::query("SELECT pg_notify($1, $2)")
                .bind(USER_CHANNEL)
                .bind(payload)
                .execute(store.pool())
                .await;
            if sent.is_ok() {
                return;
            }
        }
        self.publish_local_user(user, &notice);
    }
}
