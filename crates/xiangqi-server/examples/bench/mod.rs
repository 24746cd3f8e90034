//! What the benchmark examples share: a client of the JSON API (accounts,
//! games, moves), a real game's moves to play, and latency summaries.
#![allow(dead_code)]

use std::time::Duration;

use serde_json::{Value, json};

/// A real game's opening moves (from a game between two fixed-depth searches).
pub const MOVES: &str = "b0c2 b9c7 h0g2 a9a8 i0i1 a8f8 a0a1 h7h4 g3g4 h4h5 h2h9 h5e5 c0e2 i9h9 e3e4 e5a5 i1h1 a5h5 \
    h1f1 h5f5 b2b5 h9h3 e4e5 f5f2 d0e1 f2f3 e5d5 h3h2 f1g1 f3g3 g2e3 f8f3 e3f5 g3c3 g4g5 c6c5 f5d4 f3f4 a1d1 c5c4 \
    b5b4 c4b4 d1d3 b4c4 d4f5 h2h4 f5d6 b7b1 d3d1 b1b8 d1b1 c4b4 b1d1 b8d8 g5f5 f4f5 c2e3 f5f3 e3c2 c7d5 g1g6 d5f4";

/// The moves of [`MOVES`], in order.
pub fn moves() -> Vec<&'static str> {
    MOVES.split_whitespace().collect()
}

/// The API of a server at `base` (`http://host:port`).
#[derive(Clone)]
pub struct Api {
    pub http: reqwest::Client,
    pub base: String,
}

/// A registered player: name and bearer token.
#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub token: String,
}

impl Api {
    pub fn new(base: &str) -> Api {
        let http = reqwest::Client::builder().pool_max_idle_per_host(1024).build().expect("HTTP client");
        Api { http, base: format!("{}/api/v1", base.trim_end_matches('/')) }
    }

    /// POSTs `body` to `path` (under `/api/v1`): the status and the JSON answer.
    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        let mut req = self.http.post(format!("{}{path}", self.base)).header("X-Xiangqi", "1").json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().await.expect("request");
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    pub async fn register(&self, name: &str) -> Player {
        let (s, v) = self.post("/users", None, json!({"name": name, "password": "load-test-pw"})).await;
        assert_eq!(s, 201, "signing up {name}: {v}");
        Player { name: name.to_string(), token: v["token"].as_str().expect("token").to_string() }
    }

    /// A correspondence game between `red` and `black` (a challenge and its
    /// acceptance): its id.
    pub async fn new_game(&self, red: &Player, black: &Player) -> String {
        let terms = json!({"opponent": black.name, "rules": "asian", "color": "red",
            "clock": {"kind": "correspondence", "hours": 72}});
        let (s, v) = self.post("/challenges", Some(&red.token), terms).await;
        assert_eq!(s, 201, "{v}");
        let id = v["challenge"]["id"].as_str().expect("challenge id").to_string();
        let (s, v) = self.post(&format!("/challenges/{id}/accept"), Some(&black.token), json!({})).await;
        assert_eq!(s, 201, "{v}");
        v["game"]["id"].as_str().expect("game id").to_string()
    }

    /// Plays `mv` at `ply` in `game` as `player`; panics unless it is taken.
    pub async fn play(&self, player: &Player, game: &str, ply: usize, mv: &str) {
        let (s, v) = self
            .post(&format!("/games/{game}/moves"), Some(&player.token), json!({"ply": ply, "move": mv}))
            .await;
        assert_eq!(s, 200, "{v}");
    }
}

/// A short tag that keeps this run's user names apart from earlier runs' on
/// the same database.
pub fn run_id() -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    format!("{:x}", now.as_millis() % 0xfff_ffff)
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// `p50 .. ms, p99 .. ms, max .. ms` of `samples` (sorted here).
pub fn percentiles(samples: &mut [Duration]) -> String {
    if samples.is_empty() {
        return "no samples".to_string();
    }
    samples.sort();
    let at = |p: f64| samples[((samples.len() as f64 * p) as usize).min(samples.len() - 1)];
    format!("p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms", ms(at(0.50)), ms(at(0.99)), ms(at(1.0)))
}
