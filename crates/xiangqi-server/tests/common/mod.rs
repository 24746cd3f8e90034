//! What the API test files share: a database per test (a fresh SQLite file, or
//! the PostgreSQL test database that `XIANGQI_TEST_POSTGRES_URL` names), tests
//! declared once for both ([`on_both_databases!`]), a server on it, and
//! clients with their own cookie jars.
#![allow(dead_code)]

use std::sync::atomic::{AtomicU32, Ordering};

use reqwest::StatusCode;
use serde_json::{Value, json};
use xiangqi_server::{Clock, Config, Running};

/// A database for one test: a fresh SQLite file, or the shared PostgreSQL test
/// database (tests there keep apart by using their own user names).
pub struct Db {
    pub url: String,
    _dir: Option<TempDir>,
}

struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

pub fn unique(prefix: &str) -> String {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    format!("{prefix}{}{n}{}", std::process::id() % 1000, nanos % 10_000)
}

/// A fresh SQLite database, removed with the [`Db`].
pub fn sqlite() -> Db {
    let dir = std::env::temp_dir().join(unique("xiangqi-test-"));
    std::fs::create_dir_all(&dir).unwrap();
    Db { url: format!("sqlite://{}/t.db?mode=rwc", dir.display()), _dir: Some(TempDir(dir)) }
}

/// The PostgreSQL test database, for a test that is `#[ignore]`d because it
/// needs one (it fails rather than passes without one).
pub fn postgres() -> Db {
    let url = std::env::var("XIANGQI_TEST_POSTGRES_URL").unwrap_or_else(|_| {
        panic!("XIANGQI_TEST_POSTGRES_URL is not set: this test needs PostgreSQL (.ci/run sets it)")
    });
    Db { url, _dir: None }
}

impl Db {
    /// This database, or in place of the shared PostgreSQL test database a
    /// fresh one of its own beside it, named after it and `name` (dropped
    /// and made again at each run). For a test whose servers go by a clock
    /// that it moves forward: their sweeps would end other tests' live games
    /// by that clock, and what they write would be dated ahead of every other
    /// test's rows.
    pub async fn apart(self, name: &str) -> Db {
        use sqlx::{Connection, Executor};
        if !self.url.starts_with("postgres") {
            return self;
        }
        let (base, rest) = self.url.rsplit_once('/').expect("a database in the URL");
        let (shared, query) = rest.split_at(rest.find('?').unwrap_or(rest.len()));
        let own = format!("{shared}_{name}");
        let mut admin = sqlx::PgConnection::connect(&self.url).await.expect("the test database");
        admin.execute(format!("DROP DATABASE IF EXISTS {own} WITH (FORCE)").as_str()).await.unwrap();
        admin.execute(format!("CREATE DATABASE {own}").as_str()).await.unwrap();
        admin.close().await.unwrap();
        Db { url: format!("{base}/{own}{query}"), _dir: None }
    }
}

/// Declares the test `name` twice, as the module `name` with the tests
/// `sqlite` and `postgres`, both running `async fn name(db: Db)`, which
/// follows the declaration as an ordinary function (so that it is formatted
/// and read like any other). `name::postgres` is ignored unless asked for
/// (`--include-ignored`, as `.ci/run` does) and fails without PostgreSQL, so
/// a run that skips it says so. Arguments after the name go to
/// `#[tokio::test]`: `on_both_databases!(name, flavor = "multi_thread")`.
// Some test files declare no such test (unused there, like the rest of this module).
#[allow(unused_macros)]
macro_rules! on_both_databases {
    ($name:ident $(, $($runtime:tt)+)?) => {
        mod $name {
            #[tokio::test$(($($runtime)+))?]
            async fn sqlite() {
                super::$name(crate::common::sqlite()).await;
            }

            #[tokio::test$(($($runtime)+))?]
            #[ignore = "needs PostgreSQL (XIANGQI_TEST_POSTGRES_URL); .ci/run sets it"]
            async fn postgres() {
                super::$name(crate::common::postgres()).await;
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use on_both_databases;

/// A loopback address of its own for one test run (127.a.b.c), so that what
/// counts by address on a shared database starts from nothing.
pub fn fresh_address() -> std::net::IpAddr {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    let n =
        nanos ^ (COUNTER.fetch_add(1, Ordering::Relaxed).wrapping_mul(2_654_435_761)) ^ std::process::id();
    let [_, a, b, c] = n.to_be_bytes();
    std::net::IpAddr::from([127, a.max(1), b, c.max(2)])
}

pub async fn server(db: &Db) -> Running {
    xiangqi_server::start(Config::for_tests(&db.url)).await.expect("server starts")
}

/// A server that goes by `clock`, which the test moves forward rather than
/// wait, and sweeps when the test says ([`Running::sweep`]). Such a test
/// keeps to a database apart ([`Db::apart`]).
pub async fn server_on(db: &Db, clock: &Clock) -> Running {
    let mut config = Config::for_tests(&db.url);
    config.clock = clock.clone();
    config.test_faults = true;
    xiangqi_server::start(config).await.expect("server starts")
}

/// A client with its own cookie jar, like one browser.
pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
    pub name: String,
}

impl Client {
    pub fn new(server: &Running, name: &str) -> Client {
        let http = reqwest::Client::builder().cookie_store(true).build().unwrap();
        Client { http, base: format!("{}/api/v1", server.url()), name: name.to_string() }
    }

    /// A client whose connections come from `address` (any of 127.0.0.0/8 on
    /// this machine): to the server, another network address.
    pub fn from_address(server: &Running, name: &str, address: std::net::IpAddr) -> Client {
        let http = reqwest::Client::builder().cookie_store(true).local_address(address).build().unwrap();
        Client { http, base: format!("{}/api/v1", server.url()), name: name.to_string() }
    }

    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = self.http.request(method, format!("{}{path}", self.base)).header("X-Xiangqi", "1");
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.expect("request");
        let status = res.status();
        let text = res.text().await.unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }

    /// A request as the browser would send it, answered whole (status, headers, body).
    pub async fn raw(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> reqwest::Response {
        let mut req = self.http.request(method, format!("{}{path}", self.base)).header("X-Xiangqi", "1");
        if let Some(b) = body {
            req = req.json(&b);
        }
        req.send().await.expect("request")
    }

    /// A PGN file posted to the import route as the import page sends it, answered whole.
    /// Uploads a record file (its bytes as they are) to `/imports`, with a query string.
    pub async fn upload_with(&self, bytes: impl Into<Vec<u8>>, query: &str) -> reqwest::Response {
        let req = self.http.post(format!("{}/imports{query}", self.base)).header("X-Xiangqi", "1");
        let req = req.header("Content-Type", "application/octet-stream").body(bytes.into());
        req.send().await.expect("request")
    }

    /// Posts raw bytes to an API path.
    pub async fn post_bytes(&self, path: &str, bytes: Vec<u8>) -> reqwest::Response {
        let req = self.http.post(format!("{}{path}", self.base)).header("X-Xiangqi", "1");
        req.header("Content-Type", "application/octet-stream").body(bytes).send().await.expect("request")
    }

    pub async fn upload(&self, bytes: impl Into<Vec<u8>>) -> reqwest::Response {
        let req = self.http.post(format!("{}/imports", self.base)).header("X-Xiangqi", "1");
        let req = req.header("Content-Type", "application/x-chess-pgn").body(bytes.into());
        req.send().await.expect("request")
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.send(reqwest::Method::GET, path, None).await
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.send(reqwest::Method::POST, path, Some(body)).await
    }

    pub async fn delete(&self, path: &str) -> (StatusCode, Value) {
        self.send(reqwest::Method::DELETE, path, None).await
    }

    pub async fn register(server: &Running, prefix: &str) -> Client {
        let c = Client::new(server, &unique(prefix));
        let (s, v) = c.post("/users", json!({"name": c.name, "password": "secret-pass"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        c
    }

    pub async fn play(&self, game: &str, ply: i64, mv: &str) -> (StatusCode, Value) {
        self.post(&format!("/games/{game}/moves"), json!({"ply": ply, "move": mv})).await
    }
}

/// Red (`a`) challenges Black (`b`) by name and `b` accepts: the game's id.
/// A game between two fixed-depth searches ending in Red's checkmate.
pub const MATING_GAME: &str = "b0c2 b9c7 h0g2 a9a8 i0i1 a8f8 a0a1 h7h4 g3g4 h4h5 h2h9 h5e5 c0e2 i9h9 e3e4 e5a5 i1h1 a5h5 \
    h1f1 h5f5 b2b5 h9h3 e4e5 f5f2 d0e1 f2f3 e5d5 h3h2 f1g1 f3g3 g2e3 f8f3 e3f5 g3c3 g4g5 c6c5 f5d4 f3f4 a1d1 c5c4 \
    b5b4 c4b4 d1d3 b4c4 d4f5 h2h4 f5d6 b7b1 d3d1 b1b8 d1b1 c4b4 b1d1 b8d8 g5f5 f4f5 c2e3 f5f3 e3c2 c7d5 g1g6 d5f4 \
    d6c8 g9e7 g6g8 f4d3 g8d8 h4h3 d8f8";

pub async fn new_game(a: &Client, b: &Client, rules: &str) -> String {
    let terms = json!({"opponent": b.name, "rules": rules, "color": "red", "clock": {"kind": "correspondence", "hours": 72}});
    let (s, v) = a.post("/challenges", terms).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["challenge"]["id"].as_str().unwrap().to_string();
    let (s, v) = b.get("/challenges").await;
    assert_eq!(s, StatusCode::OK);
    assert!(v["incoming"].as_array().unwrap().iter().any(|c| c["id"] == id.as_str()), "{v}");
    let (s, v) = b.post(&format!("/challenges/{id}/accept"), json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["game"]["red"], a.name.as_str());
    v["game"]["id"].as_str().unwrap().to_string()
}

/// A legal first move for the solver of a stored puzzle that is neither the
/// line's nor a mate: always wrong. Read from the puzzle itself because a
/// shared database may offer puzzles other tests stored.
pub async fn wrong_move(url: &str, id: &str) -> String {
    let p = xiangqi_server::store::Store::open(url).await.unwrap().puzzle(id).await.unwrap().unwrap();
    let mut game = xiangqi::AnyGame::new(p.variant, &p.fen, p.variant.default_rules()).unwrap();
    game.play(game.parse_move(&p.moves[0]).unwrap()).unwrap();
    game.legal_moves()
        .iter()
        .map(|m| game.move_name(*m))
        .find(|name| {
            let mut after = game.clone();
            *name != p.moves[1]
                && after.play(after.parse_move(name).unwrap()).is_ok()
                && after.outcome().is_none()
        })
        .expect("a puzzle with a wrong move")
}
