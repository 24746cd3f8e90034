//! Download benchmark: every finished game of a database (at most the
//! export limit, 100,000) as one PGN file in each move dialect, against a
//! server in this process that runs nothing in the background (no computer,
//! no puzzle search), read as fast as it comes and thrown away.
//!
//! ```sh
//! cargo run --release -p xiangqi-server --example exports -- DATABASE_URL [QUERY]
//! ```
//! DATABASE_URL is a filled database (`xiangqi fill`); QUERY, a search's query
//! string (`player=...`), narrows what is downloaded. For each dialect it
//! reports the games and bytes, the time to the first byte and to the last,
//! and the process's resident memory before, at most while, and after the
//! file is sent (read from /proc every 50 ms).

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use xiangqi_server::Config;

/// This process's resident memory in KiB.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[tokio::main]
async fn main() {
    let url = std::env::args().nth(1).expect("a database URL");
    let query = std::env::args().nth(2).unwrap_or_default();
    let mut config = Config::for_tests(&url);
    config.computer_moves = false;
    let server = xiangqi_server::start(config).await.expect("server starts");
    let http = reqwest::Client::new();
    for format in ["pgn-wxf", "pgn", "pgn-chinese"] {
        let path = format!("{}/api/v1/database/games.pgn?{query}&format={format}", server.url());
        let (done, peak) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicU64::new(0)));
        let watch = {
            let (done, peak) = (done.clone(), peak.clone());
            tokio::spawn(async move {
                while !done.load(Ordering::Relaxed) {
                    peak.fetch_max(rss_kib(), Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            })
        };
        let before = rss_kib();
        let began = Instant::now();
        let mut res = http.get(&path).send().await.expect("request");
        assert!(res.status().is_success(), "{}", res.status());
        let (mut first, mut bytes, mut games) = (None, 0usize, 0usize);
        // A game starts with a line `[Game ...`: a line's first bytes are
        // gathered across the chunks' seams before they are looked at.
        const MARK: &[u8] = b"[Game ";
        let mut head: Vec<u8> = Vec::with_capacity(MARK.len());
        let mut looked = false;
        while let Some(chunk) = res.chunk().await.expect("a chunk") {
            first.get_or_insert_with(|| began.elapsed());
            bytes += chunk.len();
            for piece in chunk.split_inclusive(|&b| b == b'\n') {
                let wanted = MARK.len() - head.len();
                head.extend_from_slice(&piece[..wanted.min(piece.len())]);
                if !looked && (head.len() == MARK.len() || piece.ends_with(b"\n")) {
                    games += usize::from(head == MARK);
                    looked = true;
                }
                if piece.ends_with(b"\n") {
                    head.clear();
                    looked = false;
                }
            }
        }
        let total = began.elapsed();
        done.store(true, Ordering::Relaxed);
        watch.await.unwrap();
        println!(
            "{format}: {games} games, {:.1} MiB, first byte {:.0} ms, whole {:.1} s ({:.0} games/s); \
             memory {:.1} MiB before, at most {:.1}, {:.1} after",
            bytes as f64 / 1_048_576.0,
            first.unwrap_or_default().as_secs_f64() * 1000.0,
            total.as_secs_f64(),
            games as f64 / total.as_secs_f64(),
            before as f64 / 1024.0,
            peak.load(Ordering::Relaxed).max(before) as f64 / 1024.0,
            rss_kib() as f64 / 1024.0,
        );
    }
    server.stop().await;
}
