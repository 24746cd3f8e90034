//! What the load benchmarks share: their command line, logging a client in as
//! a filled account, and the table of latencies by kind of request.

// Each benchmark uses part of it.
#![allow(dead_code)]

use std::time::Duration;

use serde_json::{Value, json};
use xiangqi_tools::fill::DEFAULT_PASSWORD;

/// `DATABASE_URL [CLIENTS] [SECONDS] [SEED]`; `SEED` is the fill's (1 unless
/// `--seed` was given).
pub struct Args {
    pub database: String,
    pub clients: usize,
    pub seconds: u64,
    pub seed: u64,
}

impl Args {
    /// The command line of the example `name`; its usage, and an exit, if
    /// the first argument is not a PostgreSQL database.
    pub fn read(name: &str, clients: usize) -> Args {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let Some(database) = args.first().cloned().filter(|d| d.starts_with("postgres")) else {
            eprintln!(
                "usage: {name} postgres://... [CLIENTS] [SECONDS] [SEED] (a database filled by xiangqi fill)"
            );
            std::process::exit(2);
        };
        let number = |i: usize| args.get(i).and_then(|a| a.parse::<u64>().ok());
        Args {
            database,
            clients: number(1).map_or(clients, |n| n as usize),
            seconds: number(2).unwrap_or(30),
            seed: number(3).unwrap_or(1),
        }
    }
}

/// Logs in as a filled account: its session's token.
pub async fn log_in(http: &reqwest::Client, api: &str, name: &str) -> String {
    let res = http
        .post(format!("{api}/session"))
        .header("X-Xiangqi", "1")
        .json(&json!({"name": name, "password": DEFAULT_PASSWORD}))
        .send()
        .await
        .expect("log in");
    assert_eq!(res.status().as_u16(), 200, "log in as {name}");
    let v: Value = res.json().await.unwrap();
    v["token"].as_str().expect("token").to_string()
}

/// How long each request took, by kind.
pub struct Latencies {
    kinds: &'static [&'static str],
    seen: Vec<Vec<Duration>>,
}

impl Latencies {
    pub fn new(kinds: &'static [&'static str]) -> Latencies {
        Latencies { kinds, seen: vec![Vec::new(); kinds.len()] }
    }

    pub fn record(&mut self, kind: usize, took: Duration) {
        self.seen[kind].push(took);
    }

    pub fn add(&mut self, other: Latencies) {
        for (mine, theirs) in self.seen.iter_mut().zip(other.seen) {
            mine.extend(theirs);
        }
    }

    /// The table: requests, requests a second and p50/p99/max in ms of each
    /// kind, over `wall` seconds; then all of them.
    pub fn print(mut self, wall: f64) {
        let width = self.kinds.iter().map(|k| k.len()).max().unwrap_or(0).max(7) + 2;
        println!(
            "{:<width$} {:>9} {:>8} {:>8} {:>8} {:>8}",
            "request", "requests", "req/s", "p50 ms", "p99 ms", "max ms"
        );
        let mut total = 0;
        for (kind, times) in self.kinds.iter().zip(&mut self.seen) {
            if times.is_empty() {
                continue;
            }
            times.sort();
            let at =
                |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)].as_secs_f64() * 1e3;
            println!(
                "{kind:<width$} {:>9} {:>8.0} {:>8.1} {:>8.1} {:>8.1}",
                times.len(),
                times.len() as f64 / wall,
                at(0.50),
                at(0.99),
                at(1.0)
            );
            total += times.len();
        }
        println!("all: {total} requests in {wall:.1} s, {:.0} requests/s", total as f64 / wall);
    }
}
