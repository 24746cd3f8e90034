//! Load benchmark of the games database and the opening explorer on a
//! database filled by `xiangqi fill`: many concurrent clients ask the explorer
//! about positions of finished games (the start, and positions up to 20 plies
//! in, with and without filters) and search the finished games (by player, by
//! player and result, by rule set and pace, by a position reached, by dates).
//! Reports requests per second and p50/p99/max latency per kind of request.
//!
//! ```sh
//! cargo run --release -p xiangqi-tools --example database -- DATABASE_URL [CLIENTS] [SECONDS] [SEED]
//! ```
//! The server runs in this process on loopback.

mod load;

use std::time::{Duration, Instant};

use load::{Args, Latencies};
use sqlx::{Connection, PgConnection, Row};
use xiangqi::rng::Rng;
use xiangqi_tools::fill::account_name;

const KINDS: &[&str] = &[
    "explorer start",
    "explorer line",
    "explorer filtered",
    "search player",
    "search player+result",
    "search rules+pace",
    "search position",
    "search dates",
];

#[tokio::main]
async fn main() {
    let Args { database, clients, seconds, seed } = Args::read("database", 16);

    let mut db = PgConnection::connect(&database).await.expect("database");
    let accounts: i64 = sqlx::query("SELECT COUNT(*) AS n FROM users WHERE computer_level IS NULL")
        .fetch_one(&mut db)
        .await
        .and_then(|r| r.try_get("n"))
        .expect("count accounts");
    let finished: i64 = sqlx::query("SELECT COUNT(*) AS n FROM games WHERE status = 'finished'")
        .fetch_one(&mut db)
        .await
        .and_then(|r| r.try_get("n"))
        .expect("count games");
    // Lines of finished standard games from all over the table: their first 20 moves.
    let ids: Vec<String> = sqlx::query(
        "SELECT id FROM games TABLESAMPLE SYSTEM (0.2) WHERE status = 'finished' AND variant = 'standard' \
         AND ply >= 20 LIMIT 500",
    )
    .fetch_all(&mut db)
    .await
    .expect("sample games")
    .iter()
    .map(|r| r.try_get("id").unwrap())
    .collect();
    let mut lines: Vec<Vec<String>> = Vec::new();
    for id in &ids {
        let moves: Vec<String> =
            sqlx::query("SELECT iccs FROM moves WHERE game_id = $1 AND ply <= 20 ORDER BY ply")
                .bind(id)
                .fetch_all(&mut db)
                .await
                .expect("moves")
                .iter()
                .map(|r| r.try_get("iccs").unwrap())
                .collect();
        lines.push(moves);
    }
    assert!(!lines.is_empty(), "no finished game with 20 moves: fill the database first (xiangqi fill)");
    let (first_ms, last_ms): (i64, i64) =
        sqlx::query("SELECT MIN(updated_ms) AS a, MAX(updated_ms) AS b FROM games WHERE status = 'finished'")
            .fetch_one(&mut db)
            .await
            .map(|r| (r.try_get("a").unwrap(), r.try_get("b").unwrap()))
            .expect("dates");
    db.close().await.ok();

    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&database)).await.expect("server");
    let api = format!("{}/api/v1", server.url());
    let http = reqwest::Client::builder().pool_max_idle_per_host(clients).build().unwrap();
    println!(
        "database: PostgreSQL, {accounts} accounts, {finished} finished games; {clients} clients for {seconds} s; \
         {} sampled lines",
        lines.len()
    );
    let lines = std::sync::Arc::new(lines);
    let start = Instant::now();
    let until = start + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..clients)
        .map(|c| {
            let (http, api, lines) = (http.clone(), api.clone(), lines.clone());
            tokio::spawn(async move {
                let mut rng = Rng(seed.wrapping_mul(31).wrapping_add(c as u64 + 1));
                let mut seen = Latencies::new(KINDS);
                let mut turn = c;
                while Instant::now() < until {
                    turn += 1;
                    let which = turn % KINDS.len();
                    let line = &lines[rng.below(lines.len())];
                    let prefix = |n: usize| line[..n.min(line.len())].join("%20");
                    // A player among the earliest accounts plays thousands of games; others a few.
                    let player = || {
                        let mut r = Rng(seed ^ turn as u64);
                        let i = if r.below(2) == 0 { r.below(1000) } else { r.below(accounts as usize) };
                        account_name(seed, i as u64)
                    };
                    let url = match which {
                        0 => format!("{api}/explorer"),
                        1 => format!("{api}/explorer?moves={}", prefix(1 + rng.below(20))),
                        2 => format!(
                            "{api}/explorer?moves={}&rules=asian&speed={}&min_rating=1400&max_rating=1800",
                            prefix(rng.below(12)),
                            ["blitz", "rapid", "correspondence"][rng.below(3)]
                        ),
                        3 => format!("{api}/database/games?player={}&limit=20", player()),
                        4 => format!(
                            "{api}/database/games?player={}&result={}&limit=20",
                            player(),
                            ["red", "black", "draw"][rng.below(3)]
                        ),
                        5 => format!(
                            "{api}/database/games?rules={}&speed={}&limit=20",
                            ["asian", "itsyourturn", "casual"][rng.below(3)],
                            ["blitz", "rapid", "correspondence"][rng.below(3)]
                        ),
                        6 => format!("{api}/database/games?moves={}&limit=20", prefix(4 + rng.below(17))),
                        _ => {
                            let span = (last_ms - first_ms).max(1);
                            let since = first_ms + (rng.below(1000) as i64) * span / 1000;
                            format!(
                                "{api}/database/games?since={since}&until={}&limit=20",
                                since + span / 100
                            )
                        }
                    };
                    let t = Instant::now();
                    let res = http.get(&url).send().await.expect("request");
                    let status = res.status().as_u16();
                    let body = res.bytes().await.expect("body");
                    let took = t.elapsed();
                    assert_eq!(status, 200, "{url}: {}", String::from_utf8_lossy(&body));
                    seen.record(which, took);
                }
                seen
            })
        })
        .collect();
    let mut all = Latencies::new(KINDS);
    for t in tasks {
        all.add(t.await.unwrap());
    }
    all.print(start.elapsed().as_secs_f64());
    server.stop().await;
}
