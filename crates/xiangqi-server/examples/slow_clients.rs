//! Slow-client benchmark: thousands of connections that send nothing, or
//! begin a request's headers and never finish them, against one server with
//! the site's default limits, while a well-behaved client keeps asking.
//!
//! ```sh
//! cargo run --release -p xiangqi-server --example slow_clients -- [IDLE] [HALF_SENT] [FROM_ONE_ADDRESS]
//! ```
//! (defaults 3,000, 3,000 and 1,000). The server runs in this process on a
//! fresh SQLite file. The idle and half-sent connections come from many
//! loopback addresses (127.0.x.y, 100 each), as from many clients, so that
//! the per-address limit does not stop them; FROM_ONE_ADDRESS more come from
//! a single address, of which the server keeps its per-address limit. It
//! reports how long the server takes to close them (its idle time), and the
//! latency of `/healthz` and of an API read (`GET /api/v1/users`) before,
//! while and after they are held.

mod bench;

use std::{
    net::{IpAddr, SocketAddr},
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use bench::percentiles;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
};
use xiangqi_server::{Config, ConnectionLimits};

const PER_ADDRESS: usize = 100;

fn arg(n: usize, default: usize) -> usize {
    std::env::args().nth(n).map_or(default, |a| a.parse().expect("a count"))
}

/// The `n`-th client address: 127.0.x.y, never 127.0.0.1 (the measuring client's).
fn address(n: usize) -> IpAddr {
    let n = n + 2;
    IpAddr::from([127, 0, (n / 250) as u8, (n % 250 + 2) as u8])
}

async fn connect_from(from: IpAddr, to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from, 0))?;
    socket.connect(to).await
}

/// Waits until the server closes the connection; how long that took from `opened`.
async fn until_closed(mut stream: TcpStream, opened: Instant) -> Duration {
    let mut buf = [0u8; 1024];
    loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return opened.elapsed(),
            Ok(_) => {}
        }
    }
}

/// Latencies of `count` requests to each of `/healthz` and `/api/v1/users`.
async fn latencies(base: &str, count: usize) -> (String, String) {
    let http = reqwest::Client::new();
    let mut health = Vec::new();
    let mut users = Vec::new();
    for _ in 0..count {
        for (path, into) in [("/healthz", &mut health), ("/api/v1/users", &mut users)] {
            let started = Instant::now();
            let r = http.get(format!("{base}{path}")).send().await.expect("the server answers");
            assert!(r.status().is_success(), "{path}: {}", r.status());
            r.bytes().await.expect("a body");
            into.push(started.elapsed());
        }
    }
    (percentiles(&mut health), percentiles(&mut users))
}

fn resident_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

#[tokio::main]
async fn main() {
    let (idle, half_sent, from_one) = (arg(1, 3_000), arg(2, 3_000), arg(3, 1_000));
    let dir = std::env::temp_dir().join(format!("xiangqi-slow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let database = format!("sqlite://{}/slow.db?mode=rwc", dir.display());
    let config = Config::new(&database, SocketAddr::from(([127, 0, 0, 1], 0)));
    let ConnectionLimits { per_address, idle: idle_time } = config.connections;
    let server = xiangqi_server::start(config).await.expect("server");
    let (base, at) = (server.url(), server.addr());
    println!(
        "server limits: {per_address} connections an address, {idle_time:?} to send headers or stay idle"
    );

    let (health, users) = latencies(&base, 200).await;
    println!("before:   /healthz {health}; /api/v1/users {users}");
    let rss_before = resident_mib();

    let opening = Instant::now();
    let mut waits = Vec::new();
    let refused = Arc::new(AtomicUsize::new(0));
    for n in 0..idle + half_sent {
        let stream = connect_from(address(n / PER_ADDRESS), at).await;
        let Ok(mut stream) = stream else {
            refused.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        if n >= idle {
            stream.write_all(b"GET /api/v1/users HTTP/1.1\r\nHost: x\r\nX-Slow: ").await.ok();
        }
        waits.push(tokio::spawn(until_closed(stream, Instant::now())));
    }
    println!(
        "opened {} idle and {} half-sent connections from {} addresses in {:.2} s ({} not connected)",
        idle,
        half_sent,
        (idle + half_sent).div_ceil(PER_ADDRESS),
        opening.elapsed().as_secs_f64(),
        refused.load(Ordering::Relaxed)
    );

    // One address tries for many more than its share.
    let one = IpAddr::from([127, 0, 250, 250]);
    let mut mine = Vec::new();
    for _ in 0..from_one {
        if let Ok(stream) = connect_from(one, at).await {
            mine.push(tokio::spawn(until_closed(stream, Instant::now())));
        }
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let still_open = mine.iter().filter(|t| !t.is_finished()).count();
    println!("one address opened {from_one}: {still_open} still open after 0.5 s (its limit: {per_address})");

    let (health, users) = latencies(&base, 200).await;
    println!("while held: /healthz {health}; /api/v1/users {users}");
    println!(
        "process resident memory {:.1} -> {:.1} MiB (server and clients together)",
        rss_before,
        resident_mib()
    );

    for w in mine {
        w.await.expect("a waiter");
    }
    let mut closed = Vec::new();
    for w in waits {
        closed.push(w.await.expect("a waiter"));
    }
    closed.sort();
    println!(
        "all {} idle and half-sent connections closed by the server: after {:.1} s (first), {:.1} s (median), {:.1} s (last)",
        closed.len(),
        closed.first().map_or(0.0, Duration::as_secs_f64),
        closed[closed.len() / 2].as_secs_f64(),
        closed.last().map_or(0.0, Duration::as_secs_f64)
    );
    let (health, users) = latencies(&base, 200).await;
    println!("after:    /healthz {health}; /api/v1/users {users}");
    server.stop().await;
    std::fs::remove_dir_all(&dir).ok();
}
