//! Read-load benchmark on a database filled by `xiangqi fill`: many concurrent
//! clients, each logged in as a filled account, read the pages a site's
//! visitors read most (their games, a game being played, who is here, a name
//! search, the waiting room, a profile). Reports requests per second and
//! p50/p99/max latency per endpoint.
//!
//! ```sh
//! cargo run --release -p xiangqi-tools --example reads -- DATABASE_URL [CLIENTS] [SECONDS] [SEED]
//! ```
//! `SEED` is the fill's (1 unless `--seed` was given). The server runs in this
//! process on loopback. Before it starts, the 2,000 accounts seen last (those
//! the fill left "here") are marked seen within the last four minutes, so that
//! who is here lists them as it would on a live site.

mod load;

use std::time::{Duration, Instant};

use load::{Args, Latencies, log_in};
use sqlx::{Connection, PgConnection, Row};
use xiangqi::rng::Rng;
use xiangqi_tools::fill::account_name;

/// Accounts here while the benchmark runs (the fill's default `--online`).
const HERE: i64 = 2000;

const ENDPOINTS: &[&str] =
    &["game status", "game page", "who is here", "profile search", "waiting room", "profile"];

#[tokio::main]
async fn main() {
    let Args { database, clients, seconds, seed } = Args::read("reads", 32);

    let mut db = PgConnection::connect(&database).await.expect("database");
    let accounts: i64 = sqlx::query("SELECT COUNT(*) AS n FROM users WHERE computer_level IS NULL")
        .fetch_one(&mut db)
        .await
        .and_then(|r| r.try_get("n"))
        .expect("count accounts");
    assert!(accounts >= 1000, "the database holds {accounts} accounts: fill it first (xiangqi fill)");
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    // Those seen last (the fill's "here" and earlier runs' clients) are here now,
    // within the last four minutes, as many as the fill makes by default.
    let here = sqlx::query(
        "UPDATE users SET seen_ms = $1 - CAST(random() * 240000 AS BIGINT) \
         WHERE name IN (SELECT name FROM users ORDER BY seen_ms DESC LIMIT $2)",
    )
    .bind(now)
    .bind(HERE)
    .execute(&mut db)
    .await
    .expect("bring presence up to now");
    println!("{} accounts are here", here.rows_affected());
    // Games being played from all over the table, with their moves.
    let games: Vec<String> = sqlx::query(
        "SELECT id FROM games TABLESAMPLE SYSTEM (0.1) WHERE status = 'active' AND ply >= 40 LIMIT 2000",
    )
    .fetch_all(&mut db)
    .await
    .expect("sample games")
    .iter()
    .map(|r| r.try_get("id").unwrap())
    .collect();
    assert!(!games.is_empty(), "no game being played with 40 moves or more");
    db.close().await.ok();

    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&database)).await.expect("server");
    let api = format!("{}/api/v1", server.url());
    let http = reqwest::Client::builder().pool_max_idle_per_host(clients).build().unwrap();

    // The clients' accounts: a quarter among the earliest (who have played
    // thousands of games), the rest from anywhere.
    let mut rng = Rng(seed ^ 0x5eed);
    let picks: Vec<u64> = (0..clients)
        .map(|c| if c % 4 == 0 { rng.below(1000) as u64 } else { rng.below(accounts as usize) as u64 })
        .collect();
    let mut logins = Vec::new();
    for chunk in picks.chunks(8) {
        let tasks: Vec<_> = chunk
            .iter()
            .map(|&i| {
                let (http, api) = (http.clone(), api.clone());
                let name = account_name(seed, i);
                tokio::spawn(async move {
                    let token = log_in(&http, &api, &name).await;
                    (name, token)
                })
            })
            .collect();
        for t in tasks {
            logins.push(t.await.unwrap());
        }
    }
    println!(
        "database: PostgreSQL, {accounts} accounts; {clients} clients for {seconds} s, each logged in; {} sampled games",
        games.len()
    );

    let start = Instant::now();
    let until = start + Duration::from_secs(seconds);
    let tasks: Vec<_> = logins
        .into_iter()
        .enumerate()
        .map(|(c, (name, token))| {
            let (http, api, games) = (http.clone(), api.clone(), games.clone());
            tokio::spawn(async move {
                let mut rng = Rng(seed.wrapping_mul(31).wrapping_add(c as u64 + 1));
                let mut seen = Latencies::new(ENDPOINTS);
                let mut turn = c;
                while Instant::now() < until {
                    turn += 1;
                    let which = turn % ENDPOINTS.len();
                    let url = match which {
                        0 => format!("{api}/games"),
                        1 => format!("{api}/games/{}", games[rng.below(games.len())]),
                        2 => format!("{api}/users/online"),
                        3 => {
                            let other = account_name(seed, rng.below(accounts as usize) as u64);
                            let prefix: String = other.chars().take(2 + rng.below(3)).collect();
                            format!("{api}/users/search?name={prefix}")
                        }
                        4 => format!("{api}/challenges"),
                        _ => {
                            format!("{api}/users/{}", account_name(seed, rng.below(accounts as usize) as u64))
                        }
                    };
                    let t = Instant::now();
                    let res = http.get(&url).bearer_auth(&token).send().await.expect("request");
                    let status = res.status().as_u16();
                    let body = res.bytes().await.expect("body");
                    let took = t.elapsed();
                    assert_eq!(status, 200, "{url} as {name}: {}", String::from_utf8_lossy(&body));
                    seen.record(which, took);
                }
                seen
            })
        })
        .collect();
    let mut all = Latencies::new(ENDPOINTS);
    for t in tasks {
        all.add(t.await.unwrap());
    }
    all.print(start.elapsed().as_secs_f64());
    server.stop().await;
}
