//! The relay of changes between instances on one PostgreSQL database: each
//! instance listens for the notices the others send (LISTEN/NOTIFY) and
//! passes what they tell of to its own sockets.

use std::{sync::Arc, time::Duration};

use tokio_util::sync::CancellationToken;

use super::{
    CHAT_CHANNEL, COMPUTER_CHANNEL, GAME_CHANNEL, Hub, LOBBY_CHANNEL, STUDY_CHANNEL, TOURNAMENT_CHANNEL,
    USER_CHANNEL,
};
use crate::{
    api::{events::Event, views::ChatLine},
    domain::{Services, events::Notice},
    store,
};

/// With PostgreSQL, changes made through any instance reach this one's sockets.
/// Until the server stops (which drops the listener's connection).
pub async fn listen_loop(url: String, services: Arc<Services>, hub: Arc<Hub>, stop: CancellationToken) {
    tokio::select! {
        () = listen_forever(&url, &services, &hub) => {}
        () = stop.cancelled() => {}
    }
}

async fn listen_forever(url: &str, services: &Services, hub: &Hub) {
    loop {
        match sqlx::postgres::PgListener::connect(url).await {
            Ok(mut listener) => {
                if let Err(e) = listener
                    .listen_all([
                        GAME_CHANNEL,
                        USER_CHANNEL,
                        LOBBY_CHANNEL,
                        CHAT_CHANNEL,
                        TOURNAMENT_CHANNEL,
                        STUDY_CHANNEL,
                        store::SESSION_CHANNEL,
                        COMPUTER_CHANNEL,
                    ])
                    .await
                {
                    tracing::warn!("cannot listen for changes: {e}");
                } else {
                    // Sessions may have ended unheard while no listener ran.
                    services.accounts.forget_sessions();
                    while let Ok(n) = listener.recv().await {
                        for payload in store::payloads(n.payload()) {
                            relay(services, hub, n.channel(), payload).await;
                        }
                    }
                }
            }
            Err(e) => tracing::warn!("cannot connect the change listener: {e}"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

async fn relay(services: &Services, hub: &Hub, channel: &str, payload: &str) {
    match channel {
        GAME_CHANNEL => {
            let Some((_, id)) = hub.from_elsewhere(payload) else { return };
            if hub.game_watched(id)
                && let Ok(loaded) = services.games.load_game(id).await
            {
                let event = Event::Game { game: hub.views.of(&loaded) };
                hub.publish_local_game(id, &event);
            }
        }
        USER_CHANNEL => match serde_json::from_str::<Notice>(payload) {
            Ok(note) => hub.publish_local_user(note),
            Err(e) => tracing::warn!("unreadable notice from another instance: {e}"),
        },
        LOBBY_CHANNEL => hub.publish_local_lobby(),
        TOURNAMENT_CHANNEL => hub.publish_local_tournament(payload),
        STUDY_CHANNEL => {
            let Some((_, id)) = hub.from_elsewhere(payload) else { return };
            if hub.study_watched(id)
                && let Ok(study) = services.studies.load_study(id).await
            {
                hub.publish_local_study(&study);
            }
        }
        store::SESSION_CHANNEL => services.accounts.sessions_ended_elsewhere(payload),
        COMPUTER_CHANNEL => services.computer_jobs.computer_job_from_elsewhere(payload),
        CHAT_CHANNEL => {
            let Some((seq, game)) = hub.from_elsewhere(payload) else { return };
            if let Ok(Some(line)) = services.people.chat_line(game, seq).await {
                let event = Event::Chat { game: game.to_string(), line: ChatLine::from(&line) };
                hub.publish_local_game(game, &event);
            }
        }
        _ => {}
    }
}
