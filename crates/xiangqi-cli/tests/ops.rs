//! The `xiangqi` binary as an operator runs it: settings from flags, the
//! environment and a file; a stop on SIGTERM; an online backup; and a crash
//! (kill -9) under load that loses no acknowledged move, on SQLite and on
//! PostgreSQL (an ignored test, which fails without the database that
//! `XIANGQI_TEST_POSTGRES_URL` names).

use std::{
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use serde_json::{Value, json};

/// A folder of its own under the system's temporary folder, removed at the end.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let dir = std::env::temp_dir().join(format!("xiangqi-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }

    fn sqlite(&self, file: &str) -> String {
        format!("sqlite://{}?mode=rwc", self.0.join(file).display())
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A running `xiangqi serve`, what it printed first, and its log lines so far.
struct Serve {
    child: Child,
    url: String,
    lines: Vec<String>,
    log: Arc<Mutex<Vec<String>>>,
}

/// Starts `xiangqi serve` with `args` and `env` on a free port and waits for its
/// first lines (the URL, the metrics address if any).
fn serve(args: &[&str], env: &[(&str, &str)]) -> Serve {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_xiangqi"));
    cmd.arg("serve").args(["--port", "0", "--signups-per-hour", "100000"]).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the binary runs");
    // The log is read as it comes, so that the server never blocks on a full pipe.
    let log = Arc::new(Mutex::new(Vec::new()));
    let err = BufReader::new(child.stderr.take().unwrap());
    let keep = log.clone();
    std::thread::spawn(move || {
        for line in err.lines().map_while(Result::ok) {
            keep.lock().unwrap().push(line);
        }
    });
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 {
            std::thread::sleep(Duration::from_millis(200));
            panic!("the server stopped before it was ready: {lines:?} {:?}", log.lock().unwrap());
        }
        let done = line.starts_with("Ctrl-C");
        lines.push(line.trim_end().to_string());
        if done {
            break;
        }
    }
    std::thread::spawn(move || for _ in out.lines() {});
    let url = lines[0].split("open ").nth(1).unwrap().split('/').take(3).collect::<Vec<_>>().join("/");
    Serve { child, url, lines, log }
}

fn terminate(child: &Child) {
    let ok = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success();
    assert!(ok, "kill -TERM");
}

fn api(url: &str, path: &str) -> String {
    format!("{url}/api/v1{path}")
}

/// Registers a user: their bearer token (none if the server is gone).
async fn register(http: &reqwest::Client, url: &str, name: &str) -> Option<String> {
    let r =
        http.post(api(url, "/users")).json(&json!({"name": name, "password": "secret-pass"})).send().await;
    let r = r.ok()?;
    assert_eq!(r.status(), 201);
    Some(r.json::<Value>().await.ok()?["token"].as_str()?.to_string())
}

/// A user id no other test or earlier run took.
fn fresh_name(prefix: &str) -> String {
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    format!("{prefix}{}{n}x{}", std::process::id() % 1000, nanos % 100_000)
}

async fn call(
    http: &reqwest::Client,
    token: &str,
    method: reqwest::Method,
    url: String,
    body: Value,
) -> reqwest::Result<(u16, Value)> {
    let r = http.request(method, url).bearer_auth(token).json(&body).send().await?;
    let status = r.status().as_u16();
    Ok((status, r.json().await.unwrap_or(Value::Null)))
}

/// A game between two new players (Red first): its id and both tokens (none
/// if the server is gone).
async fn new_game(http: &reqwest::Client, url: &str, prefix: &str) -> Option<(String, String, String)> {
    let (red_name, black_name) = (fresh_name(prefix), fresh_name(prefix));
    let red = register(http, url, &red_name).await?;
    let black = register(http, url, &black_name).await?;
    let terms = json!({"opponent": black_name, "rules": "casual", "color": "red", "clock": {"kind": "correspondence", "hours": 72}});
    let (st, v) = call(http, &red, reqwest::Method::POST, api(url, "/challenges"), terms).await.ok()?;
    assert_eq!(st, 201, "{v}");
    let id = v["challenge"]["id"].as_str().unwrap();
    let accept = api(url, &format!("/challenges/{id}/accept"));
    let (st, v) = call(http, &black, reqwest::Method::POST, accept, json!({})).await.ok()?;
    assert_eq!(st, 201, "{v}");
    Some((v["game"]["id"].as_str().unwrap().to_string(), red, black))
}

/// A game of the engine against itself (Red mates at the end): enough moves to keep playing.
const MOVES: &str = "b0c2 b9c7 h0g2 a9a8 i0i1 a8f8 a0a1 h7h4 g3g4 h4h5 h2h9 h5e5 c0e2 i9h9 e3e4 e5a5 i1h1 a5h5 \
    h1f1 h5f5 b2b5 h9h3 e4e5 f5f2 d0e1 f2f3 e5d5 h3h2 f1g1 f3g3 g2e3 f8f3 e3f5 g3c3 g4g5 c6c5 f5d4 f3f4 a1d1 c5c4 \
    b5b4 c4b4 d1d3 b4c4 d4f5 h2h4 f5d6 b7b1 d3d1 b1b8 d1b1 c4b4 b1d1 b8d8 g5f5 f4f5 c2e3 f5f3 e3c2 c7d5 g1g6 d5f4 \
    d6c8 g9e7 g6g8 f4d3 g8d8 h4h3 d8f8";

/// Plays games as fast as the server answers, recording each move it acknowledged,
/// until the server is gone.
async fn keep_playing(url: String, prefix: String, acked: Arc<Mutex<Vec<(String, usize, String)>>>) {
    let http = reqwest::Client::new();
    loop {
        let Some((game, red, black)) = new_game(&http, &url, &prefix).await else { return };
        for (ply, mv) in MOVES.split_whitespace().enumerate() {
            let token = if ply % 2 == 0 { &red } else { &black };
            let body = json!({"ply": ply, "move": mv});
            match call(&http, token, reqwest::Method::POST, api(&url, &format!("/games/{game}/moves")), body)
                .await
            {
                Ok((200, _)) => acked.lock().unwrap().push((game.clone(), ply + 1, mv.to_string())),
                Ok((st, v)) => panic!("{game} ply {ply}: {st} {v}"),
                Err(_) => return,
            }
        }
    }
}

fn crash_and_check(database: &str, prefix: &str) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut first = serve(&["--database", database], &[]);
    let acked = Arc::new(Mutex::new(Vec::new()));
    let players: Vec<_> = (0..6)
        .map(|i| runtime.spawn(keep_playing(first.url.clone(), format!("{prefix}{i}"), acked.clone())))
        .collect();
    // Under load for a while, then killed at once.
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(2) || acked.lock().unwrap().len() < 20 {
        assert!(started.elapsed() < Duration::from_secs(120), "no moves were acknowledged");
        std::thread::sleep(Duration::from_millis(100));
    }
    first.child.kill().unwrap();
    first.child.wait().unwrap();
    runtime.block_on(async {
        for p in players {
            p.await.unwrap();
        }
    });
    let acked = acked.lock().unwrap().clone();

    let mut second = serve(&["--database", database], &[]);
    let http = reqwest::Client::new();
    let mut games: std::collections::BTreeMap<String, Vec<(usize, String)>> = Default::default();
    for (game, ply, mv) in &acked {
        games.entry(game.clone()).or_default().push((*ply, mv.clone()));
    }
    runtime.block_on(async {
        for (game, moves) in &games {
            let v: Value = http
                .get(api(&second.url, &format!("/games/{game}")))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let kept: Vec<&str> =
                v["game"]["moves"].as_array().unwrap().iter().map(|m| m["iccs"].as_str().unwrap()).collect();
            for (ply, mv) in moves {
                assert_eq!(
                    kept.get(ply - 1).copied(),
                    Some(mv.as_str()),
                    "{game}: acknowledged move {ply} is kept"
                );
            }
        }
    });
    eprintln!("{} acknowledged moves in {} games, all present after kill -9", acked.len(), games.len());
    terminate(&second.child);
    assert!(second.child.wait().unwrap().success());
}

#[test]
fn a_crash_under_load_loses_no_acknowledged_move() {
    let dir = Dir::new("crash");
    crash_and_check(&dir.sqlite("crash.db"), "cs");
}

#[test]
#[ignore = "needs PostgreSQL (XIANGQI_TEST_POSTGRES_URL); .ci/run sets it"]
fn a_crash_under_load_loses_no_acknowledged_move_on_postgresql() {
    let url = std::env::var("XIANGQI_TEST_POSTGRES_URL").unwrap_or_else(|_| {
        panic!("XIANGQI_TEST_POSTGRES_URL is not set: this test needs PostgreSQL (.ci/run sets it)")
    });
    crash_and_check(&url, "cp");
}

/// The database line `serve` printed.
fn database_of(s: &Serve) -> &str {
    s.lines[0].split("(database ").nth(1).unwrap().trim_end_matches(')')
}

#[test]
fn settings_come_from_flags_then_environment_then_file_and_sigterm_stops_gracefully() {
    let dir = Dir::new("config");
    let file = dir.0.join("xiangqi.toml");
    let (in_file, in_env, in_flag) = (dir.sqlite("file.db"), dir.sqlite("env.db"), dir.sqlite("flag.db"));
    std::fs::write(&file, format!("database = {in_file:?}\nmetrics-bind = \"127.0.0.1:0\"\n")).unwrap();
    let config = file.to_str().unwrap();

    let s = serve(&["--config", config], &[]);
    assert_eq!(database_of(&s), in_file, "from the file");
    assert!(s.lines.iter().any(|l| l.starts_with("metrics: http://127.0.0.1:")), "{:?}", s.lines);
    stop(s);
    let s = serve(
        &[],
        &[("XIANGQI_CONFIG", config), ("XIANGQI_DATABASE", &in_env), ("XIANGQI_LOG_FORMAT", "json")],
    );
    assert_eq!(database_of(&s), in_env, "the environment over the file");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let status =
        runtime.block_on(async { reqwest::get(format!("{}/healthz", s.url)).await.unwrap().status() });
    assert_eq!(status, 200);
    let waited = Instant::now();
    while s.log.lock().unwrap().is_empty() {
        assert!(waited.elapsed() < Duration::from_secs(30), "the request was never logged");
        std::thread::sleep(Duration::from_millis(50));
    }
    let log = s.log.lock().unwrap().clone();
    assert!(log.iter().any(|l| l.contains("/healthz") && l.contains("\"id\"")), "{log:?}");
    for line in &log {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(v["timestamp"].is_string() && v["level"].is_string(), "{line}");
    }
    assert!(s.lines.iter().any(|l| l.starts_with("metrics: ")), "the file still counts for the rest");
    stop(s);
    let s = serve(&["--database", &in_flag], &[("XIANGQI_CONFIG", config), ("XIANGQI_DATABASE", &in_env)]);
    assert_eq!(database_of(&s), in_flag, "the flag over both");
    stop(s);

    // A misspelt key is named, and nothing starts.
    std::fs::write(&file, "databse = \"x\"\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_xiangqi")).args(["serve", "--config", config]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("databse"));
}

/// SIGTERM: the server says it stops, closes what is open and exits with success.
fn stop(mut s: Serve) {
    terminate(&s.child);
    let status = s.child.wait().unwrap();
    assert!(status.success(), "{status}");
}

#[test]
fn backup_copies_a_running_database_and_refuses_what_it_cannot_copy() {
    let dir = Dir::new("backup");
    let database = dir.sqlite("live.db");
    let mut s = serve(&["--database", &database, "--log-format", "json"], &[]);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let http = reqwest::Client::new();
    let (game, red, black) = runtime.block_on(new_game(&http, &s.url, "bk")).expect("a game");
    // Writes go on while the copy is taken.
    let writer = {
        let (url, red, game) = (s.url.clone(), red.clone(), game.clone());
        runtime.spawn(async move {
            let http = reqwest::Client::new();
            for i in 0..40 {
                let body = json!({"body": format!("line {i}")});
                let _ =
                    call(&http, &red, reqwest::Method::POST, api(&url, &format!("/games/{game}/chat")), body)
                        .await;
            }
        })
    };
    runtime.block_on(async {
        let (st, _) = call(
            &http,
            &red,
            reqwest::Method::POST,
            api(&s.url, &format!("/games/{game}/moves")),
            json!({"ply": 0, "move": "h2e2"}),
        )
        .await
        .unwrap();
        assert_eq!(st, 200);
    });
    let out = dir.0.join("copy.db");
    let o = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(["backup", "--database", &database, out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout).to_string();
    // Two people and the computer's eight accounts (one per level).
    assert!(said.starts_with("backed up 10 users and 1 games"), "{said}");
    assert!(!Path::new(&format!("{}.partial", out.display())).exists());
    runtime.block_on(writer).unwrap();
    terminate(&s.child);
    assert!(s.child.wait().unwrap().success());

    // The copy is a whole database the server runs on, with the move made before it.
    let copy = format!("sqlite://{}", out.display());
    let mut c = serve(&["--database", &copy], &[]);
    runtime.block_on(async {
        let (st, v) =
            call(&http, &black, reqwest::Method::GET, api(&c.url, &format!("/games/{game}")), Value::Null)
                .await
                .unwrap();
        assert_eq!(st, 200, "{v}");
        assert_eq!(v["game"]["moves"][0]["iccs"], "h2e2");
    });
    terminate(&c.child);
    assert!(c.child.wait().unwrap().success());

    let backup = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_xiangqi")).arg("backup").args(args).output().unwrap()
    };
    let o = backup(&["--database", &database, out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("exists already"));
    let o = backup(&["--database", "postgres://postgres@127.0.0.1:1/x", "other.db"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("pg_dump"));
    let missing = dir.sqlite("missing.db");
    let o = backup(&["--database", &missing, dir.0.join("m.db").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no database file"));
    assert!(!dir.0.join("missing.db").exists(), "a backup creates no database");
}
