//! Connection benchmark: many WebSockets on one `xiangqi serve` process, and one
//! game's moves fanned out to many spectators.
//!
//! ```sh
//! cargo build --release -p xiangqi-cli
//! cargo run --release -p xiangqi-server --example sockets -- [CONNECTIONS] [SPECTATORS] [MOVES] [DATABASE_URL]
//! ```
//! (`crates/xiangqi-server/bench/sockets.sh` does both, and raises `ulimit -n`.) It starts the release
//! `xiangqi` binary (or `$XIANGQI_BIN`) as a process of its own, on a fresh
//! SQLite file unless a database is given, and opens CONNECTIONS sockets
//! (10,000), each watching a game as a game page does (every socket also hears
//! the lobby and the tournaments). The server's resident memory before and
//! after gives the memory per connection. Then SPECTATORS (1,000) of them watch
//! one game in which MOVES (20) moves are played, one at a time: for each, the
//! time from the submit's answer (and from its sending) until the last
//! spectator has the new state.

mod bench;

use std::{
    net::{Ipv4Addr, SocketAddr},
    process::{Child, Command, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

use bench::{Api, percentiles};
use futures_util::{SinkExt, StreamExt};
use tokio::{net::TcpSocket, sync::mpsc};
use tokio_tungstenite::tungstenite::{Message, protocol::WebSocketConfig};

/// Sockets opened at once while connecting.
const OPENING: usize = 256;
/// Games the sockets that are not spectators of the measured game watch.
const OTHER_GAMES: usize = 20;
/// Client source addresses (127.0.0.1 up): each has its own ephemeral ports.
const SOURCES: u8 = 4;

/// The server process, stopped when this is dropped.
struct Server {
    child: Child,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The server's resident memory in KiB (`VmRSS` of /proc/PID/status).
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the server's /proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

/// Raises this process's open-file limit to its hard limit (the server started
/// from here inherits it): the soft limit.
#[allow(unsafe_code)]
fn raise_open_files() -> u64 {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit read and write the struct given, nothing else.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
            libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        }
    }
    limit.rlim_cur
}

fn binary() -> std::path::PathBuf {
    if let Some(bin) = std::env::var_os("XIANGQI_BIN") {
        return bin.into();
    }
    // target/release/examples/sockets -> target/release/xiangqi
    let exe = std::env::current_exe().expect("this program's path");
    let bin = exe.parent().and_then(|d| d.parent()).expect("target directory").join("xiangqi");
    assert!(
        bin.exists(),
        "{} is missing: build it with `cargo build --release -p xiangqi-cli`",
        bin.display()
    );
    bin
}

async fn start_server(database: &str) -> (Server, SocketAddr) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(binary())
        .args(["serve", "--database", database, "--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["--signups-per-hour", "1000", "--log", "warn", "--drain-seconds", "1"])
        // Its clients are thousands on a few addresses.
        .args(["--connections-per-address", "1000000"])
        .stdout(Stdio::null())
        .spawn()
        .expect("the server starts");
    let server = Server { child };
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let http = reqwest::Client::new();
    for _ in 0..300 {
        if http.get(format!("http://{addr}/readyz")).send().await.is_ok_and(|r| r.status().is_success()) {
            return (server, addr);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the server did not become ready on {addr}");
}

type Socket = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// A socket from source address `source` that watches `game`, once the game's
/// current state has come.
async fn watcher(server: SocketAddr, source: Ipv4Addr, game: &str) -> Socket {
    let tcp = TcpSocket::new_v4().expect("socket");
    tcp.bind(SocketAddr::from((source, 0))).expect("bind a source address");
    let stream = tcp.connect(server).await.expect("connect");
    let config = WebSocketConfig::default().read_buffer_size(4096).write_buffer_size(0);
    let url = format!("ws://{server}/api/v1/ws");
    let (mut ws, _) =
        tokio_tungstenite::client_async_with_config(url, stream, Some(config)).await.expect("WebSocket");
    ws.send(Message::text(format!(r#"{{"watch":"{game}"}}"#))).await.expect("watch");
    while let Some(msg) = ws.next().await {
        if let Message::Text(t) = msg.expect("message")
            && t.contains(r#""type":"game""#)
        {
            return ws;
        }
    }
    panic!("the socket closed before the game's state came");
}

/// The ply of a game event, if `text` is one.
fn ply_of(text: &str) -> Option<i64> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    (v["type"] == "game").then(|| v["game"]["ply"].as_i64()).flatten()
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let connections: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let spectators: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1_000).min(connections);
    let moves: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(20).min(bench::moves().len());
    let tmp = std::env::temp_dir().join(format!("xiangqi-sockets-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let database =
        args.get(3).cloned().unwrap_or_else(|| format!("sqlite://{}/sockets.db?mode=rwc", tmp.display()));
    let files = raise_open_files();
    assert!(
        files as usize > connections + 100,
        "{connections} sockets need more open files than the limit {files}: raise `ulimit -Hn`"
    );

    let (server, addr) = start_server(&database).await;
    let pid = server.child.id();
    let api = Api::new(&format!("http://{addr}"));
    let run = bench::run_id();
    let red = api.register(&format!("sk{run}r")).await;
    let black = api.register(&format!("sk{run}b")).await;
    let measured = api.new_game(&red, &black).await;
    let mut others = Vec::new();
    for _ in 0..OTHER_GAMES {
        others.push(api.new_game(&red, &black).await);
    }
    // One socket first, so that what every server keeps anyway is counted before.
    drop(watcher(addr, Ipv4Addr::LOCALHOST, &measured).await);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = rss_kib(pid);

    // Open every socket, a few hundred at a time.
    let (arrived_tx, mut arrived) = mpsc::unbounded_channel::<(i64, Instant)>();
    let started = Instant::now();
    let games = Arc::new((measured.clone(), others));
    let opened: Vec<(usize, Socket)> = futures_util::stream::iter(0..connections)
        .map(|i| {
            let games = games.clone();
            async move {
                let game = if i < spectators { &games.0 } else { &games.1[i % OTHER_GAMES] };
                let source = Ipv4Addr::new(127, 0, 0, 1 + (i % usize::from(SOURCES)) as u8);
                (i, watcher(addr, source, game).await)
            }
        })
        .buffer_unordered(OPENING)
        .collect()
        .await;
    let opening = started.elapsed();
    // Every socket is read from here on: spectators report the plies they see.
    for (i, ws) in opened {
        let tx = (i < spectators).then(|| arrived_tx.clone());
        tokio::spawn(async move {
            let (_sink, mut stream) = ws.split();
            while let Some(Ok(msg)) = stream.next().await {
                if let (Some(tx), Message::Text(t)) = (&tx, msg)
                    && let Some(ply) = ply_of(&t)
                {
                    let _ = tx.send((ply, Instant::now()));
                }
            }
        });
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = rss_kib(pid);
    println!(
        "{connections} WebSockets open in {:.1} s ({:.0} a second), each watching a game",
        opening.as_secs_f64(),
        connections as f64 / opening.as_secs_f64()
    );
    println!(
        "server memory: {:.1} MiB before, {:.1} MiB with them open: {:.1} KiB a connection",
        before as f64 / 1024.0,
        after as f64 / 1024.0,
        (after.saturating_sub(before)) as f64 / connections as f64
    );

    // One move at a time, and every spectator's copy of it.
    let (mut from_answer, mut from_sending) = (Vec::new(), Vec::new());
    for (ply, mv) in bench::moves().into_iter().take(moves).enumerate() {
        let player = if ply % 2 == 0 { &red } else { &black };
        let sent = Instant::now();
        api.play(player, &measured, ply, mv).await;
        let answered = Instant::now();
        let want = ply as i64 + 1;
        let mut seen = 0;
        let mut last = answered;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        while seen < spectators {
            match tokio::time::timeout_at(deadline, arrived.recv()).await {
                Ok(Some((p, at))) if p == want => {
                    seen += 1;
                    last = last.max(at);
                }
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => {
                    panic!("move {want}: only {seen} of {spectators} spectators heard of it")
                }
            }
        }
        from_answer.push(last.saturating_duration_since(answered));
        from_sending.push(last.saturating_duration_since(sent));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!("{moves} moves, each to {spectators} spectators: until the last one had it");
    println!("  from the submit's answer:  {}", percentiles(&mut from_answer));
    println!("  from the submit's sending: {}", percentiles(&mut from_sending));
    println!("server memory at the end: {:.1} MiB", rss_kib(pid) as f64 / 1024.0);
    drop(server);
    std::fs::remove_dir_all(&tmp).ok();
}
