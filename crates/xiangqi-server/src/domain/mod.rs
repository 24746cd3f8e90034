//! The play site's rules of conduct: accounts, the lobby (challenges, waiting
//! room, auto-match) and games. Handlers call these services; the services own
//! the invariants and talk to the store.

pub mod accounts;
pub mod clock;
pub mod games;
pub mod lobby;

use std::sync::Arc;

use crate::{live::Hub, store::Store};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

pub struct Services {
    pub store: Store,
    pub hub: Arc<Hub>,
    cache: games::GameCache,
}

impl Services {
    pub fn new(store: Store, hub: Arc<Hub>) -> Self {
        Services { store, hub, cache: games::GameCache::default() }
    }

    /// Sends the current state of a game to everyone watching it (on every
    /// server instance when the store is shared).
    pub async fn publish_game(&self, id: &str) {
        match self.load_game(id).await {
            Ok(loaded) => self.hub.game_changed(&self.store, id, loaded.to_json(true)).await,
            Err(e) => tracing::warn!("cannot publish game {id}: {}", e.message),
        }
    }

    /// A short notice for a user's open pages.
    pub async fn notify(&self, user: &str, text: &str, game: Option<&str>) {
        let notice = serde_json::json!({ "type": "notice", "text": text, "game": game });
        self.hub.notify(&self.store, user, notice).await;
    }
}
