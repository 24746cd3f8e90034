//! Running the server in production: metrics on their own listener, request
//! ids, a graceful stop, the client's address and cookies behind a proxy, and
//! the limits on what one user may do that others see (SQLite and PostgreSQL).

mod common;

use std::time::Duration;

use common::{Client, Db, new_game, on_both_databases, sqlite, unique};
use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::{Message, protocol::frame::coding::CloseCode};
use xiangqi_server::{Config, store::Tally};

/// The value of a metric line `name{labels} value` (or `name value`), if present.
fn metric(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.trim().parse().ok())
}

on_both_databases!(
    metrics_are_served_on_their_own_listener_by_route_template,
    flavor = "multi_thread",
    worker_threads = 2
);
async fn metrics_are_served_on_their_own_listener_by_route_template(db: Db) {
    let mut config = Config::for_tests(&db.url);
    config.metrics_bind = Some("127.0.0.1:0".parse().unwrap());
    let s = xiangqi_server::start(config).await.unwrap();
    let metrics_url = format!("http://{}/metrics", s.metrics_addr().unwrap());
    let (a, b) = (Client::register(&s, "mta").await, Client::register(&s, "mtb").await);
    let game = new_game(&a, &b, "casual").await;
    assert_eq!(a.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    assert_eq!(b.play(&game, 1, "h9g7").await.0, StatusCode::OK);
    let (socket, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/v1/ws", s.addr())).await.unwrap();

    let http = reqwest::Client::new();
    assert_eq!(
        http.get(format!("{}/metrics", s.url())).send().await.unwrap().status(),
        StatusCode::NOT_FOUND,
        "not on the public port"
    );
    let answer = http.get(&metrics_url).send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(answer.headers()["content-type"].to_str().unwrap().starts_with("text/plain; version=0.0.4"));
    let text = answer.text().await.unwrap();
    let moves = r#"xiangqi_http_requests_total{method="POST",route="/api/v1/games/{id}/moves",status="200"}"#;
    assert!(metric(&text, moves).unwrap() >= 2.0, "{text}");
    assert!(metric(&text, "xiangqi_moves_total").unwrap() >= 2.0);
    assert_eq!(metric(&text, "xiangqi_websockets"), Some(1.0), "this server's one socket");
    assert!(metric(&text, "xiangqi_websockets_opened_total").unwrap() >= 1.0);
    assert!(metric(&text, "xiangqi_active_games").unwrap() >= 1.0);
    assert!(metric(&text, "xiangqi_db_pool_connections").unwrap() >= 1.0);
    assert!(metric(&text, "xiangqi_db_pool_idle_connections").is_some());
    let bucket = r#"xiangqi_http_request_duration_seconds_bucket{method="POST",route="/api/v1/games/{id}/moves",le="+Inf"}"#;
    assert!(metric(&text, bucket).unwrap() >= 2.0, "latencies are histograms");
    assert!(!text.contains(&game), "ids never become labels");
    assert!(text.contains("# HELP xiangqi_moves_total"), "described");
    drop(socket);
    s.stop().await;
}

#[tokio::test]
async fn every_answer_carries_a_request_id_and_keeps_the_one_given() {
    let db = sqlite();
    let s = common::server(&db).await;
    let http = reqwest::Client::new();
    let mut seen = Vec::new();
    for path in ["/healthz", "/api/v1/users", "/api/v1/nothing", "/"] {
        let r = http.get(format!("{}{path}", s.url())).send().await.unwrap();
        let id = r.headers()["x-request-id"].to_str().unwrap().to_string();
        assert_eq!(id.len(), 36, "a UUID: {id}");
        assert!(!seen.contains(&id), "each request its own");
        seen.push(id);
    }
    let r = http.get(format!("{}/api/v1/users", s.url())).header("x-request-id", "from-the-proxy-42").send();
    assert_eq!(r.await.unwrap().headers()["x-request-id"], "from-the-proxy-42");
    s.stop().await;
}

on_both_databases!(
    a_stop_finishes_requests_closes_sockets_going_away_and_closes_the_database,
    flavor = "multi_thread",
    worker_threads = 2
);
async fn a_stop_finishes_requests_closes_sockets_going_away_and_closes_the_database(db: Db) {
    let s = common::server(&db).await;
    let url = s.url();
    let watcher = Client::register(&s, "stw").await;
    let game = new_game(&watcher, &Client::register(&s, "stx").await, "casual").await;
    let mut sockets = Vec::new();
    for _ in 0..2 {
        let (mut ws, _) =
            tokio_tungstenite::connect_async(format!("ws://{}/api/v1/ws", s.addr())).await.unwrap();
        futures_util::SinkExt::send(&mut ws, Message::Text(json!({"watch": game}).to_string().into()))
            .await
            .unwrap();
        // The game's state comes at once: the socket is being served. (A
        // notice of the lobby, sent in a batch after the game began, may
        // come first.)
        let mut first = ws.next().await.unwrap().unwrap();
        if first.to_text().unwrap().contains(r#""type":"lobby""#) {
            first = ws.next().await.unwrap().unwrap();
        }
        assert!(first.to_text().unwrap().contains(&game), "{first:?}");
        sockets.push(ws);
    }
    // A registration (a slow password hash) is under way when the stop begins.
    let late = Client::new(&s, &unique("late"));
    let name = late.name.clone();
    let under_way = tokio::spawn(async move {
        late.post("/users", json!({"name": late.name, "password": "secret-pass"})).await.0
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stopped = s.stop().await;
    assert_eq!(under_way.await.unwrap(), StatusCode::CREATED, "the request under way finished");
    assert_eq!(stopped.sockets_closed, 2);
    assert!(!stopped.cut_short);
    for mut ws in sockets {
        let mut close = None;
        while let Some(Ok(m)) = ws.next().await {
            if let Message::Close(frame) = m {
                close = frame;
                break;
            }
        }
        let frame = close.expect("a close frame");
        assert_eq!(frame.code, CloseCode::Away);
    }
    assert!(reqwest::get(format!("{url}/healthz")).await.is_err(), "no longer listening");
    if let Some(path) = db.url.strip_prefix("sqlite://").and_then(|p| p.split('?').next()) {
        // The pool is closed: SQLite folded its write-ahead log into the file and removed it.
        assert!(!std::path::Path::new(&format!("{path}-wal")).exists(), "the pool was closed");
    }
    // Nothing acknowledged was lost.
    let again = common::server(&db).await;
    let anon = Client::new(&again, "anon");
    assert_eq!(anon.get(&format!("/users/{name}")).await.0, StatusCode::OK);
    again.stop().await;
}

/// An address no earlier run used, for counting sign-ups by address on a
/// shared database, written as the server writes it.
fn fresh_address(last: u16) -> String {
    let n = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let ip = format!(
        "2001:db8:{:x}:{:x}:{:x}::{last:x}",
        (n >> 40) & 0xffff,
        (n >> 24) & 0xffff,
        (n >> 8) & 0xffff
    );
    ip.parse::<std::net::IpAddr>().unwrap().to_string()
}

async fn sign_up(http: &reqwest::Client, s: &xiangqi_server::Running, forwarded: &str) -> reqwest::Response {
    let name = unique("px");
    http.post(format!("{}/api/v1/users", s.url()))
        .header("X-Forwarded-For", forwarded)
        .json(&json!({"name": name, "password": "secret-pass"}))
        .send()
        .await
        .unwrap()
}

on_both_databases!(behind_a_proxy_its_address_counts_and_the_cookie_is_secure);
async fn behind_a_proxy_its_address_counts_and_the_cookie_is_secure(db: Db) {
    let mut config = Config::for_tests(&db.url);
    config.behind_proxy = true;
    config.limits.signups_per_hour = 1;
    let s = xiangqi_server::start(config).await.unwrap();
    let http = reqwest::Client::new();
    let (one, two) = (fresh_address(1), fresh_address(2));
    let r = sign_up(&http, &s, &one).await;
    assert_eq!(r.status(), StatusCode::CREATED);
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.contains("; Secure"), "{cookie}");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "{cookie}");
    // The proxy's own entry is the right-most: what the client put before it is not believed.
    let r = sign_up(&http, &s, &format!("{two}, {one}")).await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS, "the same client address");
    assert!(r.headers().contains_key("retry-after"));
    assert_eq!(sign_up(&http, &s, &format!("{one}, {two}")).await.status(), StatusCode::CREATED);
    let store = xiangqi_server::store::Store::open(&db.url).await.unwrap();
    for address in [&one, &two] {
        assert_eq!(store.tally_since(Tally::Signups(address), 0).await.unwrap(), 1, "{address}");
    }
    s.stop().await;

    // Without the flag the header is anyone's word and is ignored: the sign-up
    // counts for the peer, 127.0.0.1. (Other tests sign up from 127.0.0.1 at the
    // same time, so the count is compared, not a limit reached.)
    let earlier = store.tally_since(Tally::Signups("127.0.0.1"), 0).await.unwrap();
    let s = xiangqi_server::start(Config::for_tests(&db.url)).await.unwrap();
    let claimed = fresh_address(3);
    let r = sign_up(&http, &s, &claimed).await;
    assert_eq!(r.status(), StatusCode::CREATED);
    assert!(!r.headers()["set-cookie"].to_str().unwrap().contains("Secure"));
    assert_eq!(
        store.tally_since(Tally::Signups(&claimed), 0).await.unwrap(),
        0,
        "the header is not believed"
    );
    assert!(store.tally_since(Tally::Signups("127.0.0.1"), 0).await.unwrap() > earlier, "the peer counts");
    s.stop().await;
}

/// A refusal by a rate limit: 429, the reason, and when to try again (header and body agree).
async fn assert_limited(r: reqwest::Response, words: &str, at_most_s: u64) {
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    let header: u64 = r.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"], "too_many_requests");
    assert!(v["message"].as_str().unwrap().contains(words), "{v}");
    assert_eq!(v["retry_after"].as_u64(), Some(header), "{v}");
    assert!((1..=at_most_s).contains(&header), "{header}");
}

on_both_databases!(challenges_messages_and_chat_are_limited_per_user_and_say_when_to_try_again);
async fn challenges_messages_and_chat_are_limited_per_user_and_say_when_to_try_again(db: Db) {
    let mut config = Config::for_tests(&db.url);
    config.limits.open_challenges = 2;
    config.limits.challenges_per_hour = 3;
    config.limits.messages_per_minute = 2;
    config.limits.chat_per_minute = 2;
    let s = xiangqi_server::start(config).await.unwrap();
    let (a, b) = (Client::register(&s, "lima").await, Client::register(&s, "limb").await);
    let terms = |days: i64| json!({"rules": "casual", "color": "red", "clock": {"kind": "correspondence", "hours": days * 24}});
    let mut ids = Vec::new();
    for days in [1, 2] {
        let (st, v) = a.post("/challenges", terms(days)).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        ids.push(v["challenge"]["id"].as_str().unwrap().to_string());
    }
    let (st, v) = a.post("/challenges", terms(3)).await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");
    assert!(v["message"].as_str().unwrap().contains("2 open challenges"), "{v}");
    let auto = json!({"rules": "casual", "clock": {"kind": "correspondence", "hours": 120}});
    assert_eq!(a.post("/automatch", auto.clone()).await.0, StatusCode::CONFLICT, "auto-match too");
    assert_eq!(a.delete(&format!("/challenges/{}", ids[0])).await.0, StatusCode::NO_CONTENT);
    assert_eq!(a.post("/challenges", terms(3)).await.0, StatusCode::CREATED, "one was closed");
    assert_eq!(a.delete(&format!("/challenges/{}", ids[1])).await.0, StatusCode::NO_CONTENT);
    // Three made this hour: the fourth waits, though only one is open.
    assert_limited(a.raw(Method::POST, "/challenges", Some(terms(4))).await, "new challenges", 3600).await;
    assert_limited(a.raw(Method::POST, "/automatch", Some(auto)).await, "new challenges", 3600).await;
    let (_, lobby) = a.get("/challenges").await;
    assert_eq!(lobby["outgoing"].as_array().unwrap().len(), 1, "nothing was made: {lobby}");
    // Another user is not held back by a's limits.
    assert_eq!(b.post("/challenges", terms(4)).await.0, StatusCode::CREATED);

    for i in 0..2 {
        assert_eq!(
            a.post("/messages", json!({"to": b.name, "body": format!("m{i}")})).await.0,
            StatusCode::CREATED
        );
    }
    let r = a.raw(Method::POST, "/messages", Some(json!({"to": b.name, "body": "m2"}))).await;
    assert_limited(r, "messages", 60).await;
    let (_, inbox) = b.get("/messages").await;
    assert_eq!(inbox["messages"].as_array().unwrap().len(), 2, "the third was not kept");

    let game = new_game(&b, &a, "casual").await;
    let chat = format!("/games/{game}/chat");
    for i in 0..2 {
        assert_eq!(a.post(&chat, json!({"body": format!("c{i}")})).await.0, StatusCode::CREATED);
    }
    assert_limited(a.raw(Method::POST, &chat, Some(json!({"body": "c2"}))).await, "chat lines", 60).await;
    assert_eq!(b.post(&chat, json!({"body": "b's turn"})).await.0, StatusCode::CREATED);
    let (_, lines) = b.get(&chat).await;
    assert_eq!(lines["lines"].as_array().unwrap().len(), 3, "{lines}");
    s.stop().await;
}
