//! No single request takes an instance down, on SQLite and PostgreSQL: a body
//! is bounded by its route's own limit and refused before it is read; heavy
//! parsing has a share per client, past which it is refused with a time to
//! come back; a handler that panics answers 500 and the server goes on; a
//! writer of moves that fails is started again, and the instance says it is
//! not ready meanwhile.

use std::{
    net::IpAddr,
    time::{Duration, Instant},
};

use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
};
use xiangqi_server::{Config, Running};

use crate::common::{Client, Db, MATING_GAME, fresh_address, new_game, on_both_databases, server, unique};

/// A raw connection to the server from `from`.
async fn connect_from(from: IpAddr, to: std::net::SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(std::net::SocketAddr::new(from, 0)).unwrap();
    socket.connect(to).await.unwrap()
}

/// The status line and body of the answer on `stream`, if it comes within `within`.
async fn answer_within(stream: &mut TcpStream, within: Duration) -> Option<(String, String)> {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let read = tokio::time::timeout(within, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
            let text = String::from_utf8_lossy(&got);
            if let Some((head, body)) = text.split_once("\r\n\r\n")
                && let Some(length) = head.lines().find_map(|l| {
                    l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_string())
                })
                && body.len() >= length.parse::<usize>().unwrap_or(0)
            {
                return;
            }
        }
    })
    .await;
    let text = String::from_utf8_lossy(&got).to_string();
    let (head, body) = text.split_once("\r\n\r\n")?;
    (read.is_ok() || !body.is_empty())
        .then(|| (head.lines().next().unwrap_or("").to_string(), body.to_string()))
}

/// A client registered from `address`.
async fn register_from(s: &Running, prefix: &str, address: IpAddr) -> Client {
    let c = Client::from_address(s, &unique(prefix), address);
    let (st, v) = c.post("/users", json!({"name": c.name, "password": "secret-pass"})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    c
}

/// A file of real games (the same mating game, named apart, each with a
/// comment as annotated games have) of at least `bytes`.
fn file_of(bytes: usize) -> (String, usize) {
    let comment = "Red's horses and chariots close in on the general. ".repeat(10);
    let mut file = String::new();
    let mut games = 0;
    while file.len() < bytes {
        file.push_str(&format!(
            "[Event \"Limits {games}\"]\n[Red \"Red {games}\"]\n[Black \"Black {games}\"]\n[Result \"1-0\"]\n\
             [Format \"ICCS\"]\n\n{MATING_GAME} {{{comment}}} 1-0\n\n"
        ));
        games += 1;
    }
    (file, games)
}

on_both_databases!(a_body_past_its_route_s_limit_is_refused_before_it_is_read_and_only_the_import_takes_more);
async fn a_body_past_its_route_s_limit_is_refused_before_it_is_read_and_only_the_import_takes_more(db: Db) {
    let s = server(&db).await;
    // 65 KiB announced to a path that merely ends in /imports: refused at
    // once, after the headers and a first KiB, without waiting for the rest.
    for path in ["/api/v1/studies/x/imports", "/api/v1/users", "/api/v1/no/such/endpoint"] {
        let mut c = connect_from(fresh_address(), s.addr()).await;
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            65 * 1024
        );
        c.write_all(head.as_bytes()).await.unwrap();
        c.write_all(&[b' '; 1024]).await.unwrap();
        let (status, body) =
            answer_within(&mut c, Duration::from_secs(2)).await.expect("an answer before the body is sent");
        assert!(status.starts_with("HTTP/1.1 413"), "{path}: {status}");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            (v["reason"].as_str(), v["params"]["max_kib"].as_u64()),
            (Some("body_too_large"), Some(64)),
            "{path}: {v}"
        );
    }
    // Sent whole without a length (chunked), it is read only up to the limit.
    let mut c = connect_from(fresh_address(), s.addr()).await;
    let head = "POST /api/v1/studies/x/imports HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
    c.write_all(head.as_bytes()).await.unwrap();
    for _ in 0..65 {
        if c.write_all(format!("400\r\n{}\r\n", " ".repeat(1024)).as_bytes()).await.is_err() {
            break;
        }
    }
    let _ = c.write_all(b"0\r\n\r\n").await;
    let (status, _) = answer_within(&mut c, Duration::from_secs(2)).await.expect("an answer");
    assert!(status.starts_with("HTTP/1.1 413"), "chunked: {status}");
    // The route that takes files still takes one of a megabyte (and
    // refuses one past its own limit, also before reading it).
    let c = Client::register(&s, "lim").await;
    let (file, games) = file_of(1024 * 1024);
    assert!((1024 * 1024..2 * 1024 * 1024).contains(&file.len()) && games < 2_000, "{}", file.len());
    let r = c.upload(file).await;
    let st = r.status();
    let report: Value = r.json().await.unwrap();
    assert_eq!(st, StatusCode::CREATED, "{report}");
    assert_eq!(report["kept"].as_array().map(Vec::len), Some(games), "{}", report["refused"][0]);
    let r = c.upload(" ".repeat(2 * 1024 * 1024 + 1)).await;
    let st = r.status();
    let v: Value = r.json().await.unwrap();
    assert_eq!((st, v["reason"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("import_too_large")), "{v}");
    s.stop().await;
}

on_both_databases!(heavy_parsing_past_a_client_s_share_is_refused_with_a_time_to_come_back);
async fn heavy_parsing_past_a_client_s_share_is_refused_with_a_time_to_come_back(db: Db) {
    let s = server(&db).await;
    let address = fresh_address();
    let c = register_from(&s, "share", address).await;
    let (file, _) = file_of(1);
    // The client's share of the parsing pool is taken (as by its uploads under way).
    let held: Vec<_> = (0..s.parsing().share()).map(|_| s.parsing().admit(address).unwrap()).collect();
    let r = c.upload(file.clone()).await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry = r.headers().get("retry-after").map(|v| v.to_str().unwrap().to_string());
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["reason"], "busy", "{v}");
    assert_eq!(retry.as_deref(), Some("2"), "{v}");
    assert_eq!(v["retry_after"], 2, "{v}");
    // Another client is served meanwhile, where the pool has room for it.
    if s.parsing().size() > s.parsing().share() {
        let other = register_from(&s, "other", fresh_address()).await;
        assert_eq!(other.upload(file.clone()).await.status(), StatusCode::CREATED);
    }
    // With its share back, the client's next file is read.
    drop(held);
    assert_eq!(c.upload(file).await.status(), StatusCode::CREATED);
    assert_eq!(s.parsing().busy(), 0);
    s.stop().await;
}

fn with_test_faults(db: &str) -> Config {
    let mut config = Config::for_tests(db);
    config.test_faults = true;
    config
}

on_both_databases!(a_handler_that_panics_answers_500_and_the_server_goes_on);
async fn a_handler_that_panics_answers_500_and_the_server_goes_on(db: Db) {
    let s = xiangqi_server::start(with_test_faults(&db.url)).await.unwrap();
    let url = format!("{}/api/v1/test/panic", s.url());
    for _ in 0..3 {
        let r = reqwest::get(&url).await.unwrap();
        assert_eq!(r.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(r.headers()["cache-control"], "no-store");
        let v: Value = r.json().await.unwrap();
        assert_eq!((v["error"].as_str(), v["reason"].as_str()), (Some("internal"), Some("internal")), "{v}");
    }
    for path in ["/healthz", "/readyz"] {
        let r = reqwest::get(format!("{}{path}", s.url())).await.unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{path}");
    }
    let c = Client::register(&s, "alive").await;
    assert_eq!(c.get("/session").await.0, StatusCode::OK);
    s.stop().await;
    // The route is a test's alone: a server is built without it.
    let plain = server(&db).await;
    let r = reqwest::get(format!("{}/api/v1/test/panic", plain.url())).await.unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    plain.stop().await;
}

/// Polls `path` until it answers `wanted`, for at most `within`.
async fn until_status(s: &Running, path: &str, wanted: StatusCode, within: Duration) -> bool {
    let started = Instant::now();
    while started.elapsed() < within {
        if let Ok(r) = reqwest::get(format!("{}{path}", s.url())).await
            && r.status() == wanted
        {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    false
}

on_both_databases!(a_move_writer_that_fails_is_started_again_and_the_instance_is_not_ready_meanwhile);
async fn a_move_writer_that_fails_is_started_again_and_the_instance_is_not_ready_meanwhile(db: Db) {
    let s = xiangqi_server::start(with_test_faults(&db.url)).await.unwrap();
    let (a, b) = (Client::register(&s, "wra").await, Client::register(&s, "wrb").await);
    let game = new_game(&a, &b, "casual").await;
    assert_eq!(a.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    // Four panics in a row: down for 0.1 + 0.2 + 0.4 + 0.8 s of pauses.
    s.fail_move_writer(4).await;
    assert!(
        until_status(&s, "/healthz", StatusCode::SERVICE_UNAVAILABLE, Duration::from_secs(2)).await,
        "/healthz says the writer is down"
    );
    assert!(
        until_status(&s, "/readyz", StatusCode::SERVICE_UNAVAILABLE, Duration::from_secs(2)).await,
        "/readyz says the writer is down"
    );
    assert!(
        until_status(&s, "/readyz", StatusCode::OK, Duration::from_secs(15)).await,
        "ready again once the writer runs"
    );
    assert_eq!(reqwest::get(format!("{}/healthz", s.url())).await.unwrap().status(), StatusCode::OK);
    let (st, v) = b.play(&game, 1, "h9g7").await;
    assert_eq!(st, StatusCode::OK, "the writer writes again: {v}");
    let (_, v) = a.get(&format!("/games/{game}")).await;
    assert_eq!(v["game"]["ply"], 2, "{v}");
    s.stop().await;
}
