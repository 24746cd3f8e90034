//! Moves under concurrency: many games at once (their moves share commits),
//! the same move sent twice at once, sockets that begin watching a game while
//! it is being played, and, on PostgreSQL, two instances that
//! each keep a game's state in memory while the other moves it, and a session
//! ended on one instance refused on the other.

mod common;

use std::time::Duration;

use common::{Client, Db, new_game, on_both_databases, server};
use reqwest::StatusCode;
use serde_json::json;
use xiangqi_server::{Config, Running};

const OPENING: [&str; 8] = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9"];

/// The same person on another instance: the same cookie jar, another address.
fn on(other: &Running, c: &Client) -> Client {
    Client { http: c.http.clone(), base: format!("{}/api/v1", other.url()), name: c.name.clone() }
}

async fn ply_of(c: &Client, game: &str) -> (i64, usize) {
    let (s, v) = c.get(&format!("/games/{game}")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    (v["game"]["ply"].as_i64().unwrap(), v["game"]["moves"].as_array().unwrap().len())
}

on_both_databases!(moves_of_many_games_at_once_are_each_kept_once);
async fn moves_of_many_games_at_once_are_each_kept_once(db: Db) {
    let s = server(&db).await;
    let mut games = Vec::new();
    for _ in 0..12 {
        let (red, black) = (Client::register(&s, "cr").await, Client::register(&s, "cb").await);
        let id = new_game(&red, &black, "asian").await;
        games.push((id, red, black));
    }
    let tasks: Vec<_> = games
        .into_iter()
        .map(|(id, red, black)| {
            tokio::spawn(async move {
                for (ply, mv) in OPENING.iter().enumerate() {
                    let player = if ply % 2 == 0 { &red } else { &black };
                    let (st, v) = player.play(&id, ply as i64, mv).await;
                    assert_eq!(st, StatusCode::OK, "{v}");
                }
                (id, red)
            })
        })
        .collect();
    for t in tasks {
        let (id, red) = t.await.unwrap();
        assert_eq!(ply_of(&red, &id).await, (8, 8), "every move once, none lost");
    }
    s.stop().await;
}

on_both_databases!(the_same_move_sent_twice_at_once_is_made_once);
async fn the_same_move_sent_twice_at_once_is_made_once(db: Db) {
    let s = server(&db).await;
    let (red, black) = (Client::register(&s, "tr").await, Client::register(&s, "tb").await);
    let id = new_game(&red, &black, "asian").await;
    let (first, second) = tokio::join!(red.play(&id, 0, "h2e2"), red.play(&id, 0, "h2e2"));
    let mut statuses = [first.0, second.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT], "{first:?} {second:?}");
    assert_eq!(ply_of(&red, &id).await, (1, 1));
    // Two different moves at once: one is made, the other hears why not.
    let (a, b) = tokio::join!(black.play(&id, 1, "h9g7"), black.play(&id, 1, "b9c7"));
    assert_eq!([a.0, b.0].iter().filter(|s| **s == StatusCode::OK).count(), 1, "{a:?} {b:?}");
    assert_eq!(ply_of(&red, &id).await, (2, 2));
    s.stop().await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL (XIANGQI_TEST_POSTGRES_URL); .ci/run sets it"]
async fn two_instances_moving_one_game_in_turn_never_refuse_a_good_move() {
    let db = common::postgres();
    let a = server(&db).await;
    let b = server(&db).await;
    let (red, black) = (Client::register(&a, "ir").await, Client::register(&a, "ib").await);
    let id = new_game(&red, &black, "asian").await;
    // Both instances read the game and keep it in memory; each move then goes
    // through the other one, so each finds its memory a move behind.
    assert_eq!(ply_of(&on(&a, &red), &id).await, (0, 0));
    assert_eq!(ply_of(&on(&b, &red), &id).await, (0, 0));
    for (ply, mv) in OPENING.iter().enumerate() {
        let who = if ply % 2 == 0 { &red } else { &black };
        let via = if ply % 2 == 0 { &a } else { &b };
        let (st, v) = on(via, who).play(&id, ply as i64, mv).await;
        assert_eq!(st, StatusCode::OK, "move {ply}: {v}");
    }
    // A repeat through the instance that remembers the game before it is a
    // conflict all the same.
    let (st, v) = on(&a, &black).play(&id, 7, OPENING[7]).await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");
    assert_eq!(ply_of(&on(&b, &red), &id).await, (8, 8));
    a.stop().await;
    b.stop().await;
}

/// A session's token, from logging in on `server`.
async fn log_in(server: &Running, name: &str, password: &str) -> String {
    let (st, v) =
        Client::new(server, name).post("/session", json!({"name": name, "password": password})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    v["token"].as_str().unwrap().to_string()
}

/// Who a token is on `server`: the status of reading the session with it.
async fn who(server: &Running, token: &str) -> StatusCode {
    let url = format!("{}/api/v1/session", server.url());
    reqwest::Client::new().get(url).bearer_auth(token).send().await.unwrap().status()
}

/// Waits (a while) for `server` to refuse a token.
async fn refused_on(server: &Running, token: &str) -> bool {
    for _ in 0..100 {
        if who(server, token).await == StatusCode::UNAUTHORIZED {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

#[tokio::test]
#[ignore = "needs PostgreSQL (XIANGQI_TEST_POSTGRES_URL); .ci/run sets it"]
async fn a_session_ended_on_one_instance_is_refused_on_another() {
    let db = common::postgres();
    let a = server(&db).await;
    let b = xiangqi_server::start(Config::for_tests(&db.url)).await.unwrap();
    let me = Client::register(&a, "so").await;
    let (first, second) =
        (log_in(&a, &me.name, "secret-pass").await, log_in(&a, &me.name, "secret-pass").await);
    // Instance b reads both sessions and keeps them.
    for token in [&first, &second] {
        assert_eq!(who(&b, token).await, StatusCode::OK);
        assert_eq!(who(&b, token).await, StatusCode::OK);
    }
    // Logging out on a.
    let url = format!("{}/api/v1/session", a.url());
    let out = reqwest::Client::new().delete(url).bearer_auth(&first).send().await.unwrap();
    assert_eq!(out.status(), StatusCode::NO_CONTENT);
    assert_eq!(who(&a, &first).await, StatusCode::UNAUTHORIZED, "refused at once where it ended");
    assert!(refused_on(&b, &first).await, "instance b still takes a session ended on a");
    assert_eq!(who(&b, &second).await, StatusCode::OK, "the other session lives");
    // A new password, set on b, ends the other sessions on a.
    let changer = Client::new(&b, &me.name);
    let (st, v) = changer.post("/session", json!({"name": me.name, "password": "secret-pass"})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(who(&a, &second).await, StatusCode::OK);
    let (st, v) = changer.post("/me/password", json!({"old": "secret-pass", "new": "brand-new-pass"})).await;
    assert_eq!(st, StatusCode::NO_CONTENT, "{v}");
    assert!(refused_on(&a, &second).await, "instance a still takes a session ended by a new password on b");
    assert_eq!(changer.get("/session").await.0, StatusCode::OK, "the changer's own session lives");
    a.stop().await;
    b.stop().await;
}

on_both_databases!(sockets_that_begin_watching_during_play_get_each_state_once_in_order);
async fn sockets_that_begin_watching_during_play_get_each_state_once_in_order(db: Db) {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let s = server(&db).await;
    let (red, black) = (Client::register(&s, "wor").await, Client::register(&s, "wob").await);
    let game = new_game(&red, &black, "asian").await;
    let moves = {
        let game = game.clone();
        tokio::spawn(async move {
            for (ply, mv) in OPENING.iter().enumerate() {
                let player = if ply % 2 == 0 { &red } else { &black };
                let (st, v) = player.play(&game, ply as i64, mv).await;
                assert_eq!(st, StatusCode::OK, "{v}");
                tokio::task::yield_now().await;
            }
        })
    };
    // Sockets join one after another while the moves are made; each reads
    // until the last state.
    let mut watchers = Vec::new();
    for _ in 0..8 {
        let (mut ws, _) =
            tokio_tungstenite::connect_async(format!("ws://{}/api/v1/ws", s.addr())).await.unwrap();
        ws.send(Message::text(json!({"watch": game}).to_string())).await.unwrap();
        watchers.push(tokio::spawn(async move {
            let mut versions = Vec::new();
            loop {
                let msg = tokio::time::timeout(Duration::from_secs(30), ws.next()).await;
                let Ok(Some(Ok(Message::Text(t)))) = msg else { panic!("the socket ended early: {msg:?}") };
                let v: serde_json::Value = serde_json::from_str(&t).unwrap();
                if v["type"] != "game" {
                    continue;
                }
                versions.push(v["game"]["version"].as_i64().unwrap());
                if v["game"]["ply"] == 8 {
                    return versions;
                }
            }
        }));
        tokio::task::yield_now().await;
    }
    moves.await.unwrap();
    for w in watchers {
        let versions = w.await.unwrap();
        assert!(versions.windows(2).all(|p| p[0] < p[1]), "each state once, in order: {versions:?}");
    }
    s.stop().await;
}
