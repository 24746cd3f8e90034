//! Load benchmark: many concurrent games submitting moves over the API on
//! loopback. Reports moves per second and the latency of a submit.
//!
//! ```sh
//! cargo run --release -p xiangqi-server --example load -- [DATABASE_URL | SERVER_URL] [GAMES] [PLIES]
//! ```
//! Without a URL it starts a server in this process on a fresh SQLite file;
//! give `postgres://...` for PostgreSQL, or `http://host:port` to load a server
//! (or a load balancer in front of several) that runs already: that one must
//! allow the sign-ups (`xiangqi serve --signups-per-hour`).

mod bench;

use std::time::{Duration, Instant};

use bench::{Api, percentiles};

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tmp = std::env::temp_dir().join(format!("xiangqi-load-{}", std::process::id()));
    let target =
        args.first().cloned().unwrap_or_else(|| format!("sqlite://{}/load.db?mode=rwc", tmp.display()));
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(50);
    let plies: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(40).min(bench::moves().len());
    let (server, base) = if target.starts_with("http://") || target.starts_with("https://") {
        (None, target.clone())
    } else {
        std::fs::create_dir_all(&tmp).unwrap();
        let s = xiangqi_server::start(xiangqi_server::Config::for_tests(&target)).await.expect("server");
        let url = s.url();
        (Some(s), url)
    };
    let api = Api::new(&base);
    let run = bench::run_id();

    // Players and games.
    let mut pairs = Vec::new();
    for g in 0..games {
        let red = api.register(&format!("ld{run}r{g}")).await;
        let black = api.register(&format!("ld{run}b{g}")).await;
        let id = api.new_game(&red, &black).await;
        pairs.push((id, red, black));
    }
    let what = match &server {
        Some(_) if target.starts_with("postgres") => "PostgreSQL, server in this process".to_string(),
        Some(_) => "SQLite, server in this process".to_string(),
        None => format!("the server at {base}"),
    };
    println!("{what}: {games} concurrent games, {plies} moves each");

    let start = Instant::now();
    let tasks: Vec<_> = pairs
        .into_iter()
        .map(|(game, red, black)| {
            let api = api.clone();
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                for (ply, mv) in bench::moves().into_iter().take(plies).enumerate() {
                    let player = if ply % 2 == 0 { &red } else { &black };
                    let t = Instant::now();
                    api.play(player, &game, ply, mv).await;
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
    println!(
        "moves: {} in {:.2} s: {:.0} moves/s",
        all.len(),
        wall.as_secs_f64(),
        all.len() as f64 / wall.as_secs_f64()
    );
    println!("submit latency: {}", percentiles(&mut all));
    if let Some(s) = server {
        s.stop().await;
    }
    std::fs::remove_dir_all(&tmp).ok();
}
