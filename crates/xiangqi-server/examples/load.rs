//! Load benchmark: many concurrent games submitting moves over the API on
//! loopback. Reports moves per second and the latency of a submit.
//!
//! ```sh
//! cargo run --release -p xiangqi-server --example load -- [DATABASE_URL] [GAMES] [PLIES]
//! ```
//! Without a URL it uses a fresh SQLite file; give `postgres://...` for PostgreSQL.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A real game's opening moves (from a game between two fixed-depth searches).
const MOVES: &str = "b0c2 b9c7 h0g2 a9a8 i0i1 a8f8 a0a1 h7h4 g3g4 h4h5 h2h9 h5e5 c0e2 i9h9 e3e4 e5a5 i1h1 a5h5 \
    h1f1 h5f5 b2b5 h9h3 e4e5 f5f2 d0e1 f2f3 e5d5 h3h2 f1g1 f3g3 g2e3 f8f3 e3f5 g3c3 g4g5 c6c5 f5d4 f3f4 a1d1 c5c4 \
    b5b4 c4b4 d1d3 b4c4 d4f5 h2h4 f5d6 b7b1 d3d1 b1b8 d1b1 c4b4 b1d1 b8d8 g5f5 f4f5 c2e3 f5f3 e3c2 c7d5 g1g6 d5f4";

async fn post(http: &reqwest::Client, url: String, token: Option<&str>, body: Value) -> (u16, Value) {
    let mut req = http.post(url).header("X-Xiangqi", "1").json(&body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.expect("request");
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tmp = std::env::temp_dir().join(format!("xiangqi-load-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let database =
        args.first().cloned().unwrap_or_else(|| format!("sqlite://{}/load.db?mode=rwc", tmp.display()));
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(50);
    let plies: usize =
        args.get(2).and_then(|a| a.parse().ok()).unwrap_or(40).min(MOVES.split_whitespace().count());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&database)).await.expect("server");
    let api = format!("{}/api/v1", server.url());
    let http = reqwest::Client::new();
    let run = std::process::id();

    // Players and games.
    let mut pairs = Vec::new();
    for g in 0..games {
        let mut tokens = Vec::new();
        for side in ["r", "b"] {
            let name = format!("ld{run}{side}{g}");
            let (s, v) =
                post(&http, format!("{api}/users"), None, json!({"name": name, "password": "load-test-pw"}))
                    .await;
            assert_eq!(s, 201, "{v}");
            tokens.push((name, v["token"].as_str().unwrap().to_string()));
        }
        let terms = json!({"opponent": tokens[1].0, "rules": "asian", "color": "red", "clock": {"kind": "correspondence", "hours": 72}});
        let (_, v) = post(&http, format!("{api}/challenges"), Some(&tokens[0].1), terms).await;
        let id = v["challenge"]["id"].as_str().unwrap().to_string();
        let (_, v) =
            post(&http, format!("{api}/challenges/{id}/accept"), Some(&tokens[1].1), json!({})).await;
        pairs.push((v["game"]["id"].as_str().unwrap().to_string(), tokens[0].1.clone(), tokens[1].1.clone()));
    }
    println!("database: {}", if database.starts_with("postgres") { "PostgreSQL" } else { "SQLite" });
    println!("{games} concurrent games, {plies} moves each");

    let start = Instant::now();
    let tasks: Vec<_> = pairs
        .into_iter()
        .map(|(game, red, black)| {
            let http = http.clone();
            let api = api.clone();
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                for (ply, mv) in MOVES.split_whitespace().take(plies).enumerate() {
                    let token = if ply % 2 == 0 { &red } else { &black };
                    let t = Instant::now();
                    let (s, v) = post(
                        &http,
                        format!("{api}/games/{game}/moves"),
                        Some(token),
                        json!({"ply": ply, "move": mv}),
                    )
                    .await;
                    assert_eq!(s, 200, "{v}");
                    latencies.push(t.elapsed());
                }
                latencies
            })
        })
        .collect();
    let mut all: Vec<Duration> = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    let wall = start.elapsed();
    all.sort();
    let pct = |p: f64| all[((all.len() as f64 * p) as usize).min(all.len() - 1)];
    println!(
        "moves: {} in {:.2} s: {:.0} moves/s",
        all.len(),
        wall.as_secs_f64(),
        all.len() as f64 / wall.as_secs_f64()
    );
    println!(
        "submit latency: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        ms(pct(0.50)),
        ms(pct(0.99)),
        ms(pct(1.0))
    );
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
