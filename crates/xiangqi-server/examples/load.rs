//! Load benchmark: games submitting moves over the API on loopback. Reports
//! moves per second and the latency of a submit (p50, p99, max).
//!
//! ```sh
//! cargo run --release -p xiangqi-server --example load -- [DATABASE_URL] [GAMES] [PLIES] [options]
//! ```
//! Without a URL it uses a fresh SQLite file; give `postgres://...` for PostgreSQL.
//!
//! Closed loop (the default): `GAMES` games each submit their next move as soon
//! as the last one is answered, for `--rounds` games one after another.
//!
//! Open loop (`--rate N`): moves are offered at N a second whatever the answers
//! do, spread over the games that are waiting for their next move; a move's
//! latency counts from when it was due, so a server that falls behind shows it.
//!
//! An `http://host:port` in place of the database URL (or `--url`) sends the
//! load to a server that is already running (behind a load balancer, say)
//! instead of starting one in this process; that one must allow the sign-ups
//! (`xiangqi serve --signups-per-hour`).

mod bench;

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use bench::{Api, Player, percentiles};
use serde_json::json;
use tokio::sync::mpsc;

struct Options {
    database: Option<String>,
    url: Option<String>,
    games: usize,
    plies: usize,
    rounds: usize,
    rate: Option<f64>,
    /// Other processes whose CPU time during the moves is reported: a label
    /// and their ids (`--cpu-of postgres=12,13`).
    watched: Vec<(String, Vec<u32>)>,
}

impl Options {
    fn parse() -> Options {
        let mut positional = Vec::new();
        let mut options = Options {
            database: None,
            url: None,
            games: 50,
            plies: 60,
            rounds: 4,
            rate: None,
            watched: Vec::new(),
        };
        let mut args = std::env::args().skip(1);
        while let Some(a) = args.next() {
            let mut value = |name: &str| args.next().unwrap_or_else(|| panic!("{name} needs a value"));
            match a.as_str() {
                "--rounds" => options.rounds = value("--rounds").parse().expect("--rounds: a count"),
                "--rate" => options.rate = Some(value("--rate").parse().expect("--rate: moves a second")),
                "--url" => options.url = Some(value("--url")),
                "--cpu-of" => {
                    let spec = value("--cpu-of");
                    let (label, pids) = spec.split_once('=').expect("--cpu-of LABEL=PID[,PID...]");
                    let pids =
                        pids.split(',').filter(|p| !p.is_empty()).map(|p| p.parse().expect("a process id"));
                    options.watched.push((label.to_string(), pids.collect()));
                }
                _ => positional.push(a),
            }
        }
        let mut positional = positional.into_iter();
        options.database = positional.next().filter(|d| d != "-");
        if options.database.as_deref().is_some_and(|d| d.starts_with("http://") || d.starts_with("https://"))
        {
            options.url = options.database.take();
        }
        if let Some(g) = positional.next() {
            options.games = g.parse().expect("GAMES: a count");
        }
        if let Some(p) = positional.next() {
            options.plies = p.parse().expect("PLIES: a count");
        }
        options.plies = options.plies.clamp(1, bench::moves().len());
        options.rounds = options.rounds.max(1);
        options
    }
}

/// Submits the move at `ply` of the list; the time it took. The answer is
/// read whole, and parsed only to say what went wrong.
async fn submit(api: &Api, game: &Game, ply: usize) -> Duration {
    let token = if ply % 2 == 0 { &game.red } else { &game.black };
    let mv = bench::moves()[ply];
    let t = Instant::now();
    let res = api
        .http
        .post(format!("{}/games/{}/moves", api.base, game.id))
        .header("X-Xiangqi", "1")
        .bearer_auth(token)
        .json(&json!({"ply": ply, "move": mv}))
        .send()
        .await
        .expect("request");
    let status = res.status();
    let body = res.bytes().await.expect("answer");
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    t.elapsed()
}

struct Game {
    id: String,
    red: String,
    black: String,
}

#[tokio::main]
async fn main() {
    let o = Options::parse();
    let tmp = std::env::temp_dir().join(format!("xiangqi-load-{}", std::process::id()));
    let mut server = None;
    let (base, database) = match &o.url {
        Some(url) => (url.clone(), format!("the server at {url}")),
        None => {
            std::fs::create_dir_all(&tmp).expect("temporary folder");
            let database =
                o.database.clone().unwrap_or_else(|| format!("sqlite://{}/load.db?mode=rwc", tmp.display()));
            let running =
                xiangqi_server::start(xiangqi_server::Config::for_tests(&database)).await.expect("server");
            let base = running.url();
            server = Some(running);
            let kind = if database.starts_with("postgres") { "PostgreSQL" } else { "SQLite" };
            (base, kind.to_string())
        }
    };
    let api = Api::new(&base);

    // Two players per game slot; each slot plays its rounds' games in turn.
    let run = bench::run_id();
    let mut slots = Vec::new();
    for g in 0..o.games {
        let red: Player = api.register(&format!("ld{run}r{g}")).await;
        let black = api.register(&format!("ld{run}b{g}")).await;
        let mut games = Vec::new();
        for _ in 0..o.rounds {
            let id = api.new_game(&red, &black).await;
            games.push(Game { id, red: red.token.clone(), black: black.token.clone() });
        }
        slots.push(games);
    }
    println!("database: {database}");
    let moves = o.games * o.rounds * o.plies;
    let cpu_before = cpu_time();
    let watched_before: Vec<f64> = o.watched.iter().map(|(_, pids)| cpu_of(pids)).collect();
    let machine_before = machine_ticks();
    let (wall, mut latencies) = match o.rate {
        None => {
            println!(
                "closed loop: {} concurrent games, {} rounds of {} moves each ({moves} moves)",
                o.games, o.rounds, o.plies
            );
            closed_loop(&api, slots, o.plies).await
        }
        Some(rate) => {
            println!("open loop: {rate} moves/s offered over {} games ({moves} moves)", o.games);
            open_loop(&api, slots, o.plies, rate).await
        }
    };
    let cpu = cpu_time().zip(cpu_before).map(|(after, before)| after - before);
    if !o.watched.is_empty() {
        let mut busy: Vec<String> = o
            .watched
            .iter()
            .zip(&watched_before)
            .map(|((label, pids), before)| {
                format!("{label} {:.2}", (cpu_of(pids) - before) / wall.as_secs_f64())
            })
            .collect();
        if let Some(cpu) = cpu {
            busy.push(format!("load {:.2}", cpu / wall.as_secs_f64()));
        }
        if let Some(((busy0, all0, cores), (busy1, all1, _))) = machine_before.zip(machine_ticks()) {
            let share = (busy1 - busy0) as f64 / (all1 - all0).max(1) as f64;
            busy.push(format!("machine {:.2}", share * cores as f64));
        }
        println!("cores busy during the moves: {}", busy.join(", "));
    }
    println!(
        "moves: {} in {:.2} s: {:.0} moves/s",
        latencies.len(),
        wall.as_secs_f64(),
        latencies.len() as f64 / wall.as_secs_f64()
    );
    println!("submit latency: {}", percentiles(&mut latencies));
    if let Some(cpu) = cpu {
        println!(
            "this process's CPU time: {:.2} s, {:.0} µs a move",
            cpu,
            cpu * 1e6 / latencies.len() as f64
        );
    }
    if let Some(s) = server {
        s.stop().await;
    }
    std::fs::remove_dir_all(&tmp).ok();
}

/// Every slot plays its games one after another, each move sent when the last
/// is answered.
async fn closed_loop(api: &Api, slots: Vec<Vec<Game>>, plies: usize) -> (Duration, Vec<Duration>) {
    let start = Instant::now();
    let tasks: Vec<_> = slots
        .into_iter()
        .map(|games| {
            let api = api.clone();
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                for game in &games {
                    for ply in 0..plies {
                        latencies.push(submit(&api, game, ply).await);
                    }
                }
                latencies
            })
        })
        .collect();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.expect("a slot's task"));
    }
    (start.elapsed(), all)
}

/// Moves fall due at `rate` a second; each goes to a game waiting for its next
/// move (or waits for one), and its latency counts from when it fell due.
async fn open_loop(api: &Api, slots: Vec<Vec<Game>>, plies: usize, rate: f64) -> (Duration, Vec<Duration>) {
    let total: usize = slots.iter().map(|s| s.len()).sum::<usize>() * plies;
    // Games waiting for their next move: (slot, game in the slot, ply).
    let (ready_tx, mut ready_rx) = mpsc::unbounded_channel::<(usize, usize, usize)>();
    for s in 0..slots.len() {
        ready_tx.send((s, 0, 0)).expect("queue");
    }
    let slots = Arc::new(slots);
    let (done_tx, mut done_rx) = mpsc::unbounded_channel::<Duration>();
    let interval = Duration::from_secs_f64(1.0 / rate);
    let start = Instant::now();
    for n in 0..total {
        let due = start + interval.mul_f64(n as f64);
        tokio::time::sleep_until(due.into()).await;
        let Some((s, g, ply)) = ready_rx.recv().await else { break };
        let (api, slots, ready_tx, done_tx) = (api.clone(), slots.clone(), ready_tx.clone(), done_tx.clone());
        tokio::spawn(async move {
            submit(&api, &slots[s][g], ply).await;
            let _ = done_tx.send(due.elapsed());
            let next = if ply + 1 < plies {
                Some((s, g, ply + 1))
            } else {
                (g + 1 < slots[s].len()).then_some((s, g + 1, 0))
            };
            if let Some(next) = next {
                let _ = ready_tx.send(next);
            }
        });
    }
    drop(done_tx);
    let mut all = Vec::with_capacity(total);
    while let Some(d) = done_rx.recv().await {
        all.push(d);
    }
    (start.elapsed(), all)
}

/// User and system CPU seconds this process has used (Linux), which say what
/// a move costs whatever else the machine runs.
/// The whole machine's busy and total time in clock ticks (the kernel's
/// included: it carries loopback networking), and its number of cores.
fn machine_ticks() -> Option<(u64, u64, usize)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let mut lines = stat.lines();
    let ticks: Vec<u64> = lines.next()?.split_whitespace().skip(1).filter_map(|t| t.parse().ok()).collect();
    // user nice system idle iowait irq softirq steal
    let [user, nice, system, idle, iowait, irq, softirq, steal, ..] = ticks[..] else { return None };
    let busy = user + nice + system + irq + softirq + steal;
    let cores = lines.filter(|l| l.starts_with("cpu")).count();
    Some((busy, busy + idle + iowait, cores))
}

fn cpu_time() -> Option<f64> {
    process_cpu("self")
}

/// CPU seconds of a process (Linux), by id or `self`.
fn process_cpu(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// CPU seconds of several processes together (those gone count nothing).
fn cpu_of(pids: &[u32]) -> f64 {
    pids.iter().filter_map(|p| process_cpu(&p.to_string())).sum()
}
