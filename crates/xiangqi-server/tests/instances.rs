//! Three server instances on one PostgreSQL database serve one site: what
//! happens through one is heard on the others once, and what the background
//! tasks do (a clock running out, pairing auto-match requests, the computer's
//! move) happens once. Each test needs the PostgreSQL test database that
//! `XIANGQI_TEST_POSTGRES_URL` names, so it is ignored unless asked for and
//! fails without one (a tournament's rounds on several instances:
//! tests/tournaments.rs).

mod common;

use std::time::Duration;

use common::{Client, Db, new_game};
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use xiangqi_server::{Clock, Config, Running};

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Three instances on the PostgreSQL test database; the first leaves the
/// computer's moves to the others.
async fn three() -> [Running; 3] {
    three_on(&common::postgres(), &Clock::default()).await
}

/// Three instances as [`three`] on `db`, all going by `clock` and sweeping
/// when the test says ([`Running::sweep`]).
async fn three_on(db: &Db, clock: &Clock) -> [Running; 3] {
    let mut first = Config::for_tests(&db.url);
    first.computer_moves = false;
    first.clock = clock.clone();
    first.test_faults = true;
    let a = xiangqi_server::start(first).await.expect("server");
    let b = common::server_on(db, clock).await;
    let c = common::server_on(db, clock).await;
    [a, b, c]
}

/// A socket on `s` that watches `game` (its current state comes first, and is read here).
async fn watching(s: &Running, game: &str) -> Socket {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/v1/ws", s.addr())).await.unwrap();
    ws.send(Message::text(json!({"watch": game}).to_string())).await.unwrap();
    assert_eq!(next_game(&mut ws, Duration::from_secs(10)).await.expect("the state at once")["id"], game);
    ws
}

/// The next game state on a socket within `wait`, skipping other events.
async fn next_game(ws: &mut Socket, wait: Duration) -> Option<Value> {
    let until = tokio::time::Instant::now() + wait;
    loop {
        let msg = tokio::time::timeout_at(until, ws.next()).await.ok()??;
        if let Ok(Message::Text(t)) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "game" {
                return Some(v["game"].clone());
            }
        }
    }
}

/// Every game state a socket gets in `wait`.
async fn games_within(ws: &mut Socket, wait: Duration) -> Vec<Value> {
    let until = tokio::time::Instant::now() + wait;
    let mut seen = Vec::new();
    while let Some(g) = next_game(ws, until.saturating_duration_since(tokio::time::Instant::now())).await {
        seen.push(g);
    }
    seen
}

async fn stop(servers: [Running; 3]) {
    for s in servers {
        s.stop().await;
    }
}

#[tokio::test]
#[ignore = "needs PostgreSQL (XIANGQI_TEST_POSTGRES_URL); .ci/run sets it"]
async fn a_move_through_one_instance_reaches_sockets_on_the_others_once() {
    let servers = three().await;
    let [a, b, c] = &servers;
    let (red, black) = (Client::register(a, "imr").await, Client::register(b, "imb").await);
    let game = new_game(&red, &black, "asian").await;
    let mut on_b = watching(b, &game).await;
    let mut on_c = watching(c, &game).await;
    let mut on_a = watching(a, &game).await;
    assert_eq!(red.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    for ws in [&mut on_a, &mut on_b, &mut on_c] {
        let seen = games_within(ws, Duration::from_secs(2)).await;
        // A socket sends each state of the game once, in order: the start's
        // notice, heard after the socket began to watch, is not sent again.
        let plies: Vec<i64> = seen.iter().map(|g| g["ply"].as_i64().unwrap()).collect();
        assert_eq!(plies, [1], "one state, after the move");
    }
    stop(servers).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL (XIANGQI_TEST_POSTGRES_URL); .ci/run sets it"]
async fn a_live_clock_that_runs_out_is_flagged_once() {
    let clock = Clock::default();
    let db = common::postgres().apart("flagged_once").await;
    let servers = three_on(&db, &clock).await;
    let [a, b, c] = &servers;
    let (red, black) = (Client::register(a, "ifr").await, Client::register(c, "ifb").await);
    let terms = json!({"opponent": black.name, "rules": "asian", "color": "red",
        "clock": {"kind": "live", "base": 10_000, "increment": 0}});
    let (st, v) = red.post("/challenges", terms).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let id = v["challenge"]["id"].as_str().unwrap();
    let (st, v) = black.post(&format!("/challenges/{id}/accept"), json!({})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let game = v["game"]["id"].as_str().unwrap().to_string();
    // The clocks start once both sides have made their first move.
    assert_eq!(red.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    assert_eq!(black.play(&game, 1, "h9g7").await.0, StatusCode::OK);
    let mut sockets = Vec::new();
    for s in &servers {
        sockets.push(watching(s, &game).await);
    }
    // Red does not move again: ten seconds pass at once, and every instance
    // sweeps after that (one after another, as they take turns at the
    // background lock): the first flags the game, the others find it over.
    clock.advance(Duration::from_secs(10));
    for s in &servers {
        s.sweep().await;
    }
    let heard =
        futures_util::future::join_all(sockets.iter_mut().map(|ws| games_within(ws, Duration::from_secs(2))))
            .await;
    for seen in heard {
        let ends: Vec<&Value> = seen.iter().filter(|g| g["status"] == "finished").collect();
        assert_eq!(ends.len(), 1, "one end heard: {seen:?}");
        assert_eq!(ends[0]["outcome"]["reason"], "time_forfeit", "{}", ends[0]);
    }
    let on_b = Client::new(b, "anyone");
    for (who, record) in [(&red.name, [0, 1]), (&black.name, [1, 0])] {
        let (_, v) = on_b.get(&format!("/users/{who}")).await;
        assert_eq!(v["user"]["record"], json!({"wins": record[0], "losses": record[1], "draws": 0}), "{v}");
        let games: i64 =
            v["ratings"].as_array().map_or(0, |r| r.iter().map(|r| r["games"].as_i64().unwrap_or(0)).sum());
        assert_eq!(games, 1, "rated once: {v}");
    }
    stop(servers).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL (XIANGQI_TEST_POSTGRES_URL); .ci/run sets it"]
async fn auto_match_requests_on_different_instances_pair_into_one_game() {
    let servers = three().await;
    for round in 0..5 {
        // Settings of this round alone, so that other tests' requests stay apart.
        let base = 600_000 + i64::from(std::process::id() % 1000) * 100 + round;
        let want = json!({"rules": "asian", "clock": {"kind": "live", "base": base, "increment": 0}});
        let x = Client::register(&servers[(round as usize) % 3], "iax").await;
        let y = Client::register(&servers[(round as usize + 1) % 3], "iay").await;
        let ((sx, vx), (sy, vy)) =
            tokio::join!(x.post("/automatch", want.clone()), y.post("/automatch", want));
        let mut codes = [sx, sy];
        codes.sort();
        assert_eq!(
            codes,
            [StatusCode::CREATED, StatusCode::ACCEPTED],
            "one waits, the other pairs: {vx} {vy}"
        );
        let game = if sx == StatusCode::CREATED { &vx } else { &vy };
        let players = [game["game"]["red"].as_str().unwrap(), game["game"]["black"].as_str().unwrap()];
        assert!(players.contains(&x.name.as_str()) && players.contains(&y.name.as_str()), "{game}");
        for p in [&x, &y] {
            let (_, v) = p.get("/games").await;
            let n = v["my_turn"].as_array().unwrap().len() + v["their_turn"].as_array().unwrap().len();
            assert_eq!(n, 1, "{}: one game: {v}", p.name);
        }
    }
    stop(servers).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL (XIANGQI_TEST_POSTGRES_URL); .ci/run sets it"]
async fn the_computer_moves_once_when_its_turn_comes_through_an_instance_without_it() {
    let servers = three().await;
    let [a, b, c] = &servers;
    let me = Client::register(a, "icm").await;
    let (st, v) = me
        .post(
            "/computer-games",
            json!({"level": 1, "rules": "asian", "color": "red",
            "clock": {"kind": "correspondence", "hours": 72}}),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let game = v["game"]["id"].as_str().unwrap().to_string();
    let mut on_b = watching(b, &game).await;
    let mut on_c = watching(c, &game).await;
    // The move is made through the first instance, which searches nothing.
    assert_eq!(me.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    for ws in [&mut on_b, &mut on_c] {
        // However long the search takes (a debug build on a busy machine): then
        // a moment more, for any second copy.
        let mut plies = Vec::new();
        while plies.last() != Some(&2) {
            let g = next_game(ws, Duration::from_secs(60)).await.expect("the computer moves");
            plies.push(g["ply"].as_i64().unwrap());
        }
        let more = games_within(ws, Duration::from_secs(2)).await;
        plies.extend(more.iter().map(|g| g["ply"].as_i64().unwrap()));
        assert_eq!(plies, [1, 2], "the person's move, then the computer's, once");
    }
    let (_, v) = me.get(&format!("/games/{game}")).await;
    assert_eq!(v["game"]["ply"], 2, "{v}");
    stop(servers).await;
}
