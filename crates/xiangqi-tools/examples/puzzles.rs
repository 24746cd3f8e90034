//! Puzzle benchmark on a database filled by `xiangqi fill`: many concurrent
//! clients, each logged in as one of the fill's puzzle solvers, ask for their
//! next puzzle (near their rating, past the ones they tried) and answer its
//! first move, right a little more than half the time, which ends or opens
//! their attempt, so that the next request must step over it. Reports
//! requests per second and p50/p99/max latency of both.
//!
//! ```sh
//! cargo run --release -p xiangqi-tools --example puzzles -- DATABASE_URL [CLIENTS] [SECONDS] [SEED]
//! ```
//! The fill's `--accounts` and `--puzzlers` must be the defaults (3,000,000
//! and 200,000), or be given as `ACCOUNTS` and `PUZZLERS` in the environment.

mod load;

use std::time::{Duration, Instant};

use load::{Args, Latencies, log_in};
use serde_json::{Value, json};
use xiangqi::{AnyGame, RuleSet, Variant, rng::Rng};
use xiangqi_tools::fill::{account_name, puzzler_account};

const KINDS: &[&str] = &["next puzzle", "first move"];

#[tokio::main]
async fn main() {
    let Args { database, clients, seconds, seed } = Args::read("puzzles", 16);
    let clients = clients as u64;
    let number =
        |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (accounts, puzzlers) = (number("ACCOUNTS", 3_000_000), number("PUZZLERS", 200_000));

    let mut config = xiangqi_server::Config::for_tests(&database);
    config.computer_moves = false;
    let server = xiangqi_server::start(config).await.expect("server starts");
    let base = format!("{}/api/v1", server.url());
    println!("{clients} clients for {seconds} s against {base}");

    let mut tasks = Vec::new();
    let start = Instant::now();
    let until = start + Duration::from_secs(seconds);
    for c in 0..clients {
        let base = base.clone();
        // Solvers spread over the fill's, each a different one.
        let account = puzzler_account(accounts, puzzlers, c * (puzzlers / clients.max(1)).max(1));
        let name = account_name(seed, account);
        tasks.push(tokio::spawn(async move {
            let http = reqwest::Client::new();
            let token = log_in(&http, &base, &name).await;
            let mut seen = Latencies::new(KINDS);
            let mut rng = Rng(c + 1);
            while Instant::now() < until {
                let t = Instant::now();
                let r = http.get(format!("{base}/puzzles/next")).bearer_auth(&token).send().await.unwrap();
                let status = r.status();
                let p: Value = r.json().await.unwrap_or(Value::Null);
                seen.record(0, t.elapsed());
                assert!(status.is_success(), "next puzzle: {status} {p}");
                let id = p["id"].as_str().unwrap().to_string();
                let first = answer(&p, rng.below(100) < 55);
                let t = Instant::now();
                let r = http
                    .post(format!("{base}/puzzles/{id}/moves"))
                    .bearer_auth(&token)
                    .header("X-Xiangqi", "1")
                    .json(&json!({ "moves": [first] }))
                    .send()
                    .await
                    .unwrap();
                seen.record(1, t.elapsed());
                assert!(r.status().is_success(), "a move: {}", r.status());
            }
            seen
        }));
    }
    let mut all = Latencies::new(KINDS);
    for t in tasks {
        all.add(t.await.unwrap());
    }
    all.print(start.elapsed().as_secs_f64());
    server.stop().await;
}

/// A first move for a puzzle: its solution's, or another legal move.
fn answer(p: &Value, right: bool) -> String {
    let fen = p["fen"].as_str().unwrap_or("");
    let solution = first_move(fen);
    if right {
        return solution.to_string();
    }
    let variant: Variant = p["variant"].as_str().unwrap_or("standard").parse().unwrap_or(Variant::Standard);
    let rules = if variant == Variant::Hex { RuleSet::Hex } else { RuleSet::Asian };
    let mut game = AnyGame::new(variant, fen, rules).expect("a puzzle's position");
    game.play_str(p["setup"].as_str().unwrap_or("")).expect("its setup move");
    game.legal_names().into_iter().find(|m| m != solution).unwrap_or_else(|| solution.to_string())
}

/// The solver's first move of the fill's puzzle lines, found by their
/// position (the fill makes its puzzles from a few real lines).
fn first_move(fen: &str) -> &'static str {
    const FIRST: &[(&str, &str)] = &[
        ("2bak4/2c1a4/9/2n1p4/P8/6P2/8P/4rR3/3NA4/4KA1N1 b", "f2e2"),
        ("r1b1ka1r1/3Ra4/n3b1nC1/p1p1p3p/6p2/1cP4R1/P5P1P/4B1N1C/4A4/2BAK4 w", "b4h4"),
        ("4ka3/4a4/4b3n/6p2/c5b2/3N5/Cr7/n3BA3/3RA4/4K1B2 b", "d4b3"),
        ("2ba1kb2/4a4/8n/P5p2/2R3r1p/4C4/2P1n3P/N7N/4A4/2B1KA3 w", "g5f5"),
        ("1n1C2b2/1R7/4bk3/p1p1p4/2c6/9/P3Pr3/2N1B4/4N4/3AKAB2 w", "f3f0"),
        ("4k1b2/4a4/5a3/P8/4n2P1/5N3/9/9/4A4/3K5 b", "f4g6"),
        ("2R6/3kc2R1/c4r3/8p/p5p2/9/4r3P/4B4/4A4/2BAK4 w", "d8e8"),
    ];
    FIRST.iter().find(|(f, _)| fen.starts_with(f)).map_or("a0a1", |(_, m)| m)
}
