//! What one client can make the server hold or spend, tried as an attacker
//! would, on SQLite and PostgreSQL: each is bounded, and the server keeps
//! answering everyone else.

use std::{
    net::{IpAddr, SocketAddr},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use futures_util::{SinkExt, StreamExt, future::join_all};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::Row;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpSocket, TcpStream},
};
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;
use xiangqi_server::{Config, ConnectionLimits, Running};

use crate::common::{Client, Db, fresh_address, new_game, on_both_databases, sqlite, unique};

/// A raw connection to the server from `from`.
async fn connect_from(from: IpAddr, to: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    socket.connect(to).await.unwrap()
}

/// Whether the server closes the connection within `within` (whatever it
/// sends first is read and dropped).
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 4096];
    tokio::time::timeout(within, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await
    .is_ok()
}

/// A WebSocket from `from`, upgraded by hand, that then says nothing (and
/// answers no ping).
async fn websocket_from(from: IpAddr, to: SocketAddr) -> TcpStream {
    let mut c = connect_from(from, to).await;
    let upgrade = format!(
        "GET /api/v1/ws HTTP/1.1\r\nHost: {to}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    c.write_all(upgrade.as_bytes()).await.unwrap();
    let mut answer = [0u8; 512];
    let n = c.read(&mut answer).await.unwrap();
    assert!(String::from_utf8_lossy(&answer[..n]).starts_with("HTTP/1.1 101"));
    c
}

fn tight_connections(db: &str) -> Config {
    Config {
        connections: ConnectionLimits { per_address: 20, idle: Duration::from_secs(1) },
        ..Config::for_tests(db)
    }
}

on_both_databases!(idle_half_sent_and_silent_connections_are_closed_and_one_address_holds_few);
async fn idle_half_sent_and_silent_connections_are_closed_and_one_address_holds_few(db: Db) {
    let s = xiangqi_server::start(tight_connections(&db.url)).await.unwrap();
    let attacker = fresh_address();
    let mut held = Vec::new();
    for i in 0..20 {
        let mut c = connect_from(attacker, s.addr()).await;
        if i % 2 == 1 {
            // Headers begun and never finished.
            c.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: a").await.unwrap();
        }
        held.push(c);
    }
    // The address holds its most: one more is closed at once.
    let mut extra = connect_from(attacker, s.addr()).await;
    assert!(closed_within(&mut extra, Duration::from_millis(500)).await, "the 21st is closed");
    // Everyone else is served meanwhile.
    let started = Instant::now();
    let r = reqwest::get(format!("{}/healthz", s.url())).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(started.elapsed() < Duration::from_secs(1));
    // Within the idle time and a margin, all of them are closed.
    for (i, c) in held.iter_mut().enumerate() {
        assert!(closed_within(c, Duration::from_secs(3)).await, "connection {i} is still open");
    }
    // A connection kept alive after its answer is closed once idle.
    let mut alive = connect_from(attacker, s.addr()).await;
    alive.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let mut answer = [0u8; 512];
    let n = alive.read(&mut answer).await.unwrap();
    assert!(String::from_utf8_lossy(&answer[..n]).starts_with("HTTP/1.1 200"));
    assert!(closed_within(&mut alive, Duration::from_secs(3)).await, "an idle kept-alive connection");
    // WebSockets keep their place among the address's connections.
    let mut sockets = Vec::new();
    for _ in 0..20 {
        sockets.push(websocket_from(attacker, s.addr()).await);
    }
    let mut extra = connect_from(attacker, s.addr()).await;
    assert!(closed_within(&mut extra, Duration::from_millis(500)).await, "20 sockets are the address's most");
    drop(sockets);
    tokio::time::sleep(Duration::from_millis(200)).await;
    // A WebSocket whose peer never answers a ping is closed after three idle times.
    let mut silent = websocket_from(attacker, s.addr()).await;
    assert!(closed_within(&mut silent, Duration::from_secs(6)).await, "a silent WebSocket");
    s.stop().await;
}

#[tokio::test]
async fn oversized_headers_and_request_ids_are_refused_and_private_answers_are_not_cached() {
    let db = sqlite();
    let s = crate::common::server(&db).await;
    let http = reqwest::Client::new();
    let big = "a".repeat(64 * 1024);
    let r = http.get(format!("{}/healthz", s.url())).header("X-Big", &big).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);

    let long_id = "b".repeat(2_000);
    let r = http.get(format!("{}/healthz", s.url())).header("X-Request-Id", &long_id).send().await.unwrap();
    let id = r.headers()["x-request-id"].to_str().unwrap();
    assert_eq!(id.len(), 36, "a new id, not the client's: {id}");
    let r =
        http.get(format!("{}/healthz", s.url())).header("X-Request-Id", "abc-123.4").send().await.unwrap();
    assert_eq!(r.headers()["x-request-id"], "abc-123.4", "a plain id is kept");
    let r = http.get(format!("{}/healthz", s.url())).header("X-Request-Id", "a\"b").send().await.unwrap();
    assert_ne!(r.headers()["x-request-id"], "a\"b");

    let a = Client::register(&s, "nst").await;
    let r = a
        .raw(reqwest::Method::POST, "/session", Some(json!({"name": a.name, "password": "secret-pass"})))
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["cache-control"], "no-store", "the log-in's answer holds the token");
    for path in ["/session", "/games", "/messages", "/users"] {
        let r = a.raw(reqwest::Method::GET, path, None).await;
        assert_eq!(r.headers()["cache-control"], "no-store", "{path}");
    }
    s.stop().await;
}

/// Reads socket messages until the game's state arrives.
async fn until_state<S>(socket: &mut S, game: &str)
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        let msg =
            tokio::time::timeout(Duration::from_secs(20), socket.next()).await.expect("the state in time");
        if let Some(Ok(Message::Text(t))) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "game" && v["game"]["id"] == game {
                return;
            }
        }
    }
}

/// A made-up game id: 64 hex digits (as an attacker sent them), or one of
/// the shape the server's ids have, which it must look up to know it is none.
fn made_up(n: usize, well_formed: bool) -> String {
    let x = (n as u128 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835);
    if !well_formed {
        return format!("{x:064x}");
    }
    const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyz23456789";
    (0..12).map(|i| ALPHABET[((x >> (i * 5)) % 33) as usize] as char).collect()
}

on_both_databases!(
    watching_a_hundred_thousand_made_up_games_holds_nothing,
    flavor = "multi_thread",
    worker_threads = 2
);
async fn watching_a_hundred_thousand_made_up_games_holds_nothing(db: Db) {
    const HEX: usize = 100_000;
    const WELL_FORMED: usize = 5_000;
    const WORKERS: usize = 16;
    const PER_SOCKET: usize = 60;
    let s = crate::common::server(&db).await;
    let (a, b) = (Client::register(&s, "wma").await, Client::register(&s, "wmb").await);
    let real = new_game(&a, &b, "casual").await;
    let url = format!("ws://{}/api/v1/ws", s.addr());
    let ids: Arc<Vec<String>> = Arc::new(
        (0..HEX).map(|n| made_up(n, false)).chain((0..WELL_FORMED).map(|n| made_up(n, true))).collect(),
    );
    let workers = (0..WORKERS).map(|w| {
        let (url, real, ids) = (url.clone(), real.clone(), ids.clone());
        tokio::spawn(async move {
            let mine: Vec<&String> = ids.iter().skip(w).step_by(WORKERS).collect();
            for chunk in mine.chunks(PER_SOCKET) {
                let (mut socket, _) = tokio_tungstenite::connect_async(url.as_str()).await.unwrap();
                // A socket's allowance at once: the made-up ids, then the real
                // game, whose state says the server read them all.
                for id in chunk {
                    socket.send(Message::text(json!({"watch": id}).to_string())).await.unwrap();
                }
                socket.send(Message::text(json!({"watch": real}).to_string())).await.unwrap();
                until_state(&mut socket, &real).await;
                socket.close(None).await.ok();
            }
        })
    });
    // While one socket watches the real game, that game is the one channel.
    let (mut watcher, _) = tokio_tungstenite::connect_async(url.as_str()).await.unwrap();
    watcher.send(Message::text(json!({"watch": real}).to_string())).await.unwrap();
    until_state(&mut watcher, &real).await;
    for w in join_all(workers).await {
        w.unwrap();
    }
    assert_eq!(s.live_channels(), 1, "only the real game, which a socket still watches");
    watcher.close(None).await.ok();
    drop(watcher);
    let deadline = Instant::now() + Duration::from_secs(5);
    while s.live_channels() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(s.live_channels(), 0, "the last watcher took the channel with it");
    s.stop().await;
}

/// `n` requests sent at once; the statuses of their answers.
async fn at_once<F, Fut>(n: usize, request: F) -> Vec<StatusCode>
where
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = (StatusCode, Value)>,
{
    join_all((0..n).map(request)).await.into_iter().map(|(status, _)| status).collect()
}

fn count(statuses: &[StatusCode], status: StatusCode) -> usize {
    statuses.iter().filter(|s| **s == status).count()
}

/// A new user, signed up from an address of its own (the sign-up limit is low here).
async fn register_from(s: &Running, prefix: &str) -> Client {
    let c = Client::from_address(s, &unique(prefix), fresh_address());
    let (st, v) = c.post("/users", json!({"name": c.name, "password": "secret-pass"})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    c
}

/// Cancels a user's open challenges, so that the waiting room of a shared
/// database is left as it was found.
async fn cancel_challenges(c: &Client) {
    let (_, v) = c.get("/challenges").await;
    for challenge in v["outgoing"].as_array().into_iter().flatten() {
        let id = challenge["id"].as_str().unwrap();
        assert_eq!(c.delete(&format!("/challenges/{id}")).await.0, StatusCode::NO_CONTENT);
    }
}

fn room_terms(hours: usize) -> Value {
    json!({"rules": "asian", "color": "red", "clock": {"kind": "correspondence", "hours": 24 + hours}})
}

on_both_databases!(every_limit_holds_when_a_hundred_requests_arrive_at_once);
async fn every_limit_holds_when_a_hundred_requests_arrive_at_once(db: Db) {
    let mut config = Config::for_tests(&db.url);
    config.limits.signups_per_hour = 10;
    config.limits.open_challenges = 20;
    config.limits.challenges_per_hour = 1000;
    config.limits.messages_per_minute = 10;
    config.limits.messages_per_day = 1000;
    config.limits.chat_per_minute = 20;
    config.limits.tournaments_per_day = 5;
    config.analyses_per_minute = 10;
    let s = xiangqi_server::start(config.clone()).await.unwrap();

    // New accounts from one address.
    let address = fresh_address();
    let signups = at_once(100, |_| {
        let c = Client::from_address(&s, &unique("sgn"), address);
        async move { c.post("/users", json!({"name": c.name, "password": "secret-pass"})).await }
    })
    .await;
    assert_eq!(count(&signups, StatusCode::CREATED), 10, "{signups:?}");
    assert_eq!(count(&signups, StatusCode::TOO_MANY_REQUESTS), 90, "{signups:?}");

    let (a, c) = (register_from(&s, "lma").await, register_from(&s, "lmc").await);
    // Open challenges at once (each with other terms, so none is a repeat).
    let open = at_once(100, |i| a.post("/challenges", room_terms(i))).await;
    assert_eq!(count(&open, StatusCode::CREATED), 20, "{open:?}");
    assert_eq!(count(&open, StatusCode::CONFLICT), 80, "{open:?}");
    cancel_challenges(&a).await;

    // Private messages in a minute.
    let sent =
        at_once(100, |i| a.post("/messages", json!({"to": c.name, "body": format!("hello {i}")}))).await;
    assert_eq!(count(&sent, StatusCode::CREATED), 10, "{sent:?}");
    assert_eq!(count(&sent, StatusCode::TOO_MANY_REQUESTS), 90, "{sent:?}");

    // Chat lines in a minute, while the other player writes too.
    let game = new_game(&c, &a, "casual").await;
    let path = format!("/games/{game}/chat");
    let (mine, theirs) = tokio::join!(
        at_once(100, |i| a.post(&path, json!({"body": format!("line {i}")}))),
        at_once(10, |i| c.post(&path, json!({"body": format!("reply {i}")}))),
    );
    assert_eq!(count(&mine, StatusCode::CREATED), 20, "{mine:?}");
    assert_eq!(count(&theirs, StatusCode::CREATED), 10, "the other player's lines all go in: {theirs:?}");
    let (_, v) = a.get(&path).await;
    assert_eq!(v["lines"].as_array().map(Vec::len), Some(30), "{v}");

    // Tournaments in a day.
    let plan = |i: usize| {
        json!({"name": format!("Cup {i}"), "category": "standard_correspondence", "rules": "asian",
            "clock": {"kind": "correspondence", "hours": 48}, "format": "round_robin",
            "min_players": 4, "max_players": 6})
    };
    let made = at_once(100, |i| c.post("/tournaments", plan(i))).await;
    assert_eq!(count(&made, StatusCode::CREATED), 5, "{made:?}");
    assert_eq!(count(&made, StatusCode::TOO_MANY_REQUESTS), 95, "{made:?}");

    // Analyses in a minute (each replaces the one before: the engine is not held).
    let answers = join_all((0..100).map(|_| async {
        let r = c.http.get(format!("{}/analysis?depth=1", c.base)).send().await.unwrap();
        (r.status(), r.headers().contains_key("retry-after"))
    }))
    .await;
    let analyses: Vec<StatusCode> = answers.iter().map(|(status, _)| *status).collect();
    assert!(
        answers.iter().all(|(status, retry)| *status != StatusCode::TOO_MANY_REQUESTS || *retry),
        "every refusal says when to try again"
    );
    assert_eq!(count(&analyses, StatusCode::OK), 10, "{analyses:?}");
    assert_eq!(count(&analyses, StatusCode::TOO_MANY_REQUESTS), 90, "{analyses:?}");

    // Games against the computer at once.
    let games = at_once(100, |_| {
        c.post(
            "/computer-games",
            json!({"level": 1, "rules": "asian", "color": "red", "clock": {"kind": "correspondence", "hours": 72}}),
        )
    })
    .await;
    assert_eq!(count(&games, StatusCode::CREATED), 3, "{games:?}");
    s.stop().await;

    // Challenges in an hour, on a server that allows fewer than the open limit.
    config.limits.challenges_per_hour = 15;
    let s = xiangqi_server::start(config).await.unwrap();
    let b = register_from(&s, "lmb").await;
    let hourly = at_once(100, |i| b.post("/challenges", room_terms(i))).await;
    assert_eq!(count(&hourly, StatusCode::CREATED), 15, "{hourly:?}");
    assert_eq!(count(&hourly, StatusCode::TOO_MANY_REQUESTS), 85, "{hourly:?}");
    cancel_challenges(&b).await;
    s.stop().await;
}

async fn rows(db: &str, sql: &str) -> i64 {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(db).await.unwrap();
    let n: i64 = sqlx::query(sql).fetch_one(&pool).await.unwrap().try_get(0).unwrap();
    pool.close().await;
    n
}

async fn execute(db: &str, sql: &str) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(db).await.unwrap();
    sqlx::query(sql).execute(&pool).await.unwrap();
    pool.close().await;
}

on_both_databases!(failed_log_ins_are_bounded_in_size_number_and_age);
async fn failed_log_ins_are_bounded_in_size_number_and_age(db: Db) {
    let s = crate::common::server(&db).await;
    let attacker = fresh_address();
    let guesser = Client::from_address(&s, "guesser", attacker);
    // Names no account can have are refused without a trace.
    let long = "n".repeat(60_000);
    let answers =
        at_once(100, |_| guesser.post("/session", json!({"name": long, "password": "whatever-1"}))).await;
    assert_eq!(count(&answers, StatusCode::UNAUTHORIZED), 100, "{answers:?}");
    let stored =
        rows(&db.url, &format!("SELECT COUNT(*) FROM login_failures WHERE address = '{attacker}'")).await;
    assert_eq!(stored, 0);
    // Guesses over many names from one address: at most 50 are kept.
    let answers = at_once(100, |i| {
        guesser.post("/session", json!({"name": format!("nobody{i}"), "password": "whatever-1"}))
    })
    .await;
    assert_eq!(count(&answers, StatusCode::UNAUTHORIZED), 50, "{answers:?}");
    assert_eq!(count(&answers, StatusCode::TOO_MANY_REQUESTS), 50, "{answers:?}");
    let stored =
        rows(&db.url, &format!("SELECT COUNT(*) FROM login_failures WHERE address = '{attacker}'")).await;
    assert_eq!(stored, 50);
    s.stop().await;

    // Failures older than their window and expired sessions are purged by
    // the server (at its start, then once a minute).
    let ancient = unique("ancient");
    execute(
        &db.url,
        &format!("INSERT INTO login_failures (name_key, address, at_ms) VALUES ('{ancient}', 'x', 1)"),
    )
    .await;
    let s = crate::common::server(&db).await;
    let owner = Client::register(&s, "exp").await;
    execute(
        &db.url,
        &format!(
            "INSERT INTO sessions (token_hash, user_name, created_ms, expires_ms) VALUES ('{}', '{}', 1, 2)",
            unique("expired"),
            owner.name
        ),
    )
    .await;
    s.stop().await;
    let s = crate::common::server(&db).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    let left = || async {
        rows(&db.url, &format!("SELECT COUNT(*) FROM login_failures WHERE name_key = '{ancient}'")).await
            + rows(&db.url, "SELECT COUNT(*) FROM sessions WHERE expires_ms <= 2").await
    };
    while left().await > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(left().await, 0, "old failures and expired sessions are purged");
    s.stop().await;
}

on_both_databases!(a_stranger_guessing_a_name_does_not_keep_its_owner_out);
async fn a_stranger_guessing_a_name_does_not_keep_its_owner_out(db: Db) {
    let s = crate::common::server(&db).await;
    let owner = Client::register(&s, "own").await;
    let stranger = Client::from_address(&s, "stranger", fresh_address());
    let stop = Arc::new(AtomicBool::new(false));
    let hammering = {
        let (stop, name) = (stop.clone(), owner.name.clone());
        async move {
            let mut refused = 0;
            while !stop.load(Ordering::Relaxed) {
                let (st, _) =
                    stranger.post("/session", json!({"name": name, "password": "guess-guess"})).await;
                refused += usize::from(st == StatusCode::TOO_MANY_REQUESTS);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            refused
        }
    };
    let owning = async {
        let mut answers = Vec::new();
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        for _ in 0..8 {
            let c = Client::new(&s, &owner.name);
            answers.push(c.post("/session", json!({"name": owner.name, "password": "secret-pass"})).await.0);
            tokio::time::sleep(Duration::from_millis(400)).await;
        }
        stop.store(true, Ordering::Relaxed);
        answers
    };
    let (refused, answers) = tokio::join!(hammering, owning);
    assert!(refused > 0, "the stranger is slowed down");
    assert!(answers.iter().all(|s| *s == StatusCode::OK), "the owner always logs in: {answers:?}");
    s.stop().await;
}

on_both_databases!(sessions_per_user_are_bounded_and_the_oldest_ends);
async fn sessions_per_user_are_bounded_and_the_oldest_ends(db: Db) {
    let s = crate::common::server(&db).await;
    let owner = Client::register(&s, "many").await;
    let mut clients = Vec::new();
    for _ in 0..25 {
        let c = Client::new(&s, &owner.name);
        assert_eq!(
            c.post("/session", json!({"name": owner.name, "password": "secret-pass"})).await.0,
            StatusCode::OK
        );
        clients.push(c);
    }
    let kept =
        rows(&db.url, &format!("SELECT COUNT(*) FROM sessions WHERE user_name = '{}'", owner.name)).await;
    assert_eq!(kept, 20);
    assert_eq!(owner.get("/session").await.0, StatusCode::UNAUTHORIZED, "the registration's session ended");
    assert_eq!(clients[3].get("/session").await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(clients[24].get("/session").await.0, StatusCode::OK);
    assert_eq!(clients[5].get("/session").await.0, StatusCode::OK);
    s.stop().await;
}

on_both_databases!(both_players_asking_for_a_rematch_at_once_meet_in_one_game);
async fn both_players_asking_for_a_rematch_at_once_meet_in_one_game(db: Db) {
    let s = crate::common::server(&db).await;
    let (a, b) = (Client::register(&s, "rma").await, Client::register(&s, "rmb").await);
    let game = new_game(&a, &b, "casual").await;
    assert_eq!(a.post(&format!("/games/{game}/resign"), json!({})).await.0, StatusCode::OK);
    let path = format!("/games/{game}/rematch");
    let (x, y) = tokio::join!(a.post(&path, json!({})), b.post(&path, json!({})));
    let mut statuses = [x.0, y.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::CREATED, StatusCode::ACCEPTED], "{x:?} {y:?}");
    let (_, v) = a.get("/challenges").await;
    assert_eq!(v["outgoing"].as_array().map(Vec::len), Some(0), "no offer is left crossing: {v}");
    assert_eq!(v["incoming"].as_array().map(Vec::len), Some(0), "{v}");
    s.stop().await;
}

/// Keeps an analysis of the start position running for `who` until `stop`.
async fn analyse_until(c: &Client, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::Relaxed) {
        let url = format!("{}/analysis?time=20000", c.base);
        let Ok(mut res) = c.http.get(url).send().await else { return };
        while !stop.load(Ordering::Relaxed) {
            match tokio::time::timeout(Duration::from_millis(200), res.chunk()).await {
                Ok(Ok(Some(_))) | Err(_) => {}
                Ok(_) => break,
            }
        }
    }
}

on_both_databases!(a_computer_move_comes_within_two_seconds_while_others_analyse);
async fn a_computer_move_comes_within_two_seconds_while_others_analyse(db: Db) {
    let s = xiangqi_server::start(Config { engines: Some(1), ..Config::for_tests(&db.url) }).await.unwrap();
    let player = Client::register(&s, "cpu").await;
    let stop = Arc::new(AtomicBool::new(false));
    let mut analysts = Vec::new();
    for _ in 0..3 {
        let c = Client::register(&s, "ana").await;
        let stop = stop.clone();
        analysts.push(tokio::spawn(async move { analyse_until(&c, stop).await }));
    }
    let (st, v) = player
        .post(
            "/computer-games",
            json!({"level": 1, "rules": "asian", "color": "red", "clock": {"kind": "correspondence", "hours": 72}}),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let id = v["game"]["id"].as_str().unwrap().to_string();
    // The analyses have the engine by now.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut waits = Vec::new();
    let mut ply = 0;
    for mv in ["h2e2", "h0g2", "i0h0"] {
        let started = Instant::now();
        let (st, v) = player.play(&id, ply, mv).await;
        if st != StatusCode::OK {
            break; // the computer's reply made this move illegal: enough moves were timed
        }
        ply = v["game"]["ply"].as_i64().unwrap();
        loop {
            let (_, v) = player.get(&format!("/games/{id}")).await;
            if v["game"]["ply"].as_i64() > Some(ply) {
                ply = v["game"]["ply"].as_i64().unwrap();
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "the computer never answered");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        waits.push(started.elapsed());
    }
    stop.store(true, Ordering::Relaxed);
    for a in analysts {
        a.await.unwrap();
    }
    assert!(!waits.is_empty());
    assert!(waits.iter().all(|w| *w < Duration::from_secs(2)), "computer answers took {waits:?}");
    s.stop().await;
}

/// A TCP relay in front of PostgreSQL that can be cut, so that the database
/// goes away for one server without stopping it for the other tests.
struct Relay {
    addr: SocketAddr,
    up: Arc<AtomicBool>,
    cut: Arc<Mutex<CancellationToken>>,
}

impl Relay {
    async fn to(target: String) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let up = Arc::new(AtomicBool::new(true));
        let cut = Arc::new(Mutex::new(CancellationToken::new()));
        let (up2, cut2) = (up.clone(), cut.clone());
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if !up2.load(Ordering::Relaxed) {
                    continue; // dropped: the database does not answer
                }
                let token = cut2.lock().unwrap().clone();
                let target = target.clone();
                tokio::spawn(async move {
                    let Ok(mut outbound) = TcpStream::connect(target).await else { return };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        () = token.cancelled() => {}
                    }
                });
            }
        });
        Relay { addr, up, cut }
    }

    fn down(&self) {
        self.up.store(false, Ordering::Relaxed);
        self.cut.lock().unwrap().cancel();
    }

    fn back(&self) {
        *self.cut.lock().unwrap() = CancellationToken::new();
        self.up.store(true, Ordering::Relaxed);
    }
}

async fn timed(
    s: &Running,
    c: &Client,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Option<String>, Duration) {
    let _ = s;
    let started = Instant::now();
    let r = c.raw(method, path, body).await;
    let retry = r.headers().get("retry-after").map(|v| v.to_str().unwrap().to_string());
    (r.status(), retry, started.elapsed())
}

#[tokio::test]
#[ignore = "needs PostgreSQL (XIANGQI_TEST_POSTGRES_URL); .ci/run sets it"]
async fn while_the_database_is_down_requests_answer_503_within_a_second() {
    let db = crate::common::postgres();
    // postgres://user@host:port/db, through the relay.
    let (head, rest) = db.url.split_once('@').unwrap();
    let (host, path) = rest.split_once('/').unwrap();
    let relay = Relay::to(host.to_string()).await;
    let url = format!("{head}@{}/{path}", relay.addr);
    let s = xiangqi_server::start(Config::for_tests(&url)).await.unwrap();
    let (a, b) = (Client::register(&s, "dba").await, Client::register(&s, "dbb").await);
    let game = new_game(&a, &b, "casual").await;
    relay.down();
    for (method, path, body) in [
        (reqwest::Method::GET, "/users".to_string(), None),
        (reqwest::Method::POST, format!("/games/{game}/moves"), Some(json!({"ply": 0, "move": "h2e2"}))),
        (reqwest::Method::POST, "/messages".to_string(), Some(json!({"to": b.name, "body": "hello"}))),
    ] {
        let (status, retry, took) = timed(&s, &a, method, &path, body).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{path}");
        assert!(retry.is_some(), "{path}: Retry-After");
        assert!(took < Duration::from_secs(1), "{path} took {took:?}");
    }
    let started = Instant::now();
    let r = reqwest::get(format!("{}/readyz", s.url())).await.unwrap();
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(started.elapsed() < Duration::from_secs(1), "readyz took {:?}", started.elapsed());
    assert_eq!(reqwest::get(format!("{}/healthz", s.url())).await.unwrap().status(), StatusCode::OK);
    // Back: the server recovers by itself, and the move refused before is played.
    relay.back();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (st, _) = a.play(&game, 0, "h2e2").await;
        if st == StatusCode::OK {
            break;
        }
        assert!(Instant::now() < deadline, "the server did not recover: {st}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    s.stop().await;
}
