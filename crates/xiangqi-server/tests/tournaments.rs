//! Tournaments through the JSON API on SQLite and PostgreSQL: a 6-player round-robin and a
//! 9-player 4-round Swiss played to the end, their standings and tie-breaks
//! checked exactly; and, on PostgreSQL, two server instances that start and
//! advance one tournament exactly once, one of them stopped on the way.

mod common;

use std::{collections::HashMap, time::Duration};

use common::{Client, Db, on_both_databases, server, server_on};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Ends a game as `result` says ("red", "black" or "draw"): the loser resigns,
/// or red offers a draw and black accepts.
async fn end_game(players: &HashMap<String, Client>, game: &str, red: &str, black: &str, result: &str) {
    let (st, v) = match result {
        "red" => players[black].post(&format!("/games/{game}/resign"), json!({})).await,
        "black" => players[red].post(&format!("/games/{game}/resign"), json!({})).await,
        _ => {
            let (st, v) = players[red].post(&format!("/games/{game}/draw"), json!({"action": "offer"})).await;
            assert_eq!(st, StatusCode::OK, "{v}");
            players[black].post(&format!("/games/{game}/draw"), json!({"action": "accept"})).await
        }
    };
    assert_eq!(st, StatusCode::OK, "{v}");
}

async fn detail(c: &Client, id: &str) -> Value {
    let (st, v) = c.get(&format!("/tournaments/{id}")).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    v["tournament"].clone()
}

/// Each entrant's seed, by name.
fn seeds(t: &Value) -> HashMap<String, i64> {
    t["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap().to_string(), e["seed"].as_i64().unwrap()))
        .collect()
}

/// Plays every game of the current round as `decide(red seed, black seed)` says,
/// and checks that the next round (or the end) follows at once.
async fn play_round(players: &HashMap<String, Client>, id: &str, decide: impl Fn(i64, i64) -> &'static str) {
    let any = players.values().next().unwrap();
    let t = detail(any, id).await;
    let round = t["round"].as_i64().unwrap();
    let seed = seeds(&t);
    let pairings = t["schedule"][(round - 1) as usize]["pairings"].as_array().unwrap().clone();
    for p in &pairings {
        let Some(game) = p["game"].as_str() else { continue };
        if !p["result"].is_null() {
            continue;
        }
        let (red, black) = (p["red"].as_str().unwrap(), p["black"].as_str().unwrap());
        // The game is the players' own, rated in the category, and knows its round.
        let (_, g) = players[red].get(&format!("/games/{game}")).await;
        assert_eq!((g["game"]["red"].as_str(), g["game"]["black"].as_str()), (Some(red), Some(black)));
        assert_eq!(g["game"]["tournament"], json!({"id": id, "round": round}));
        assert_eq!(g["game"]["rated"], true);
        end_game(players, game, red, black, decide(seed[red], seed[black])).await;
    }
    let after = detail(any, id).await;
    if round < after["rounds"].as_i64().unwrap() {
        assert_eq!(after["round"], round + 1, "the next round follows the last game: {after}");
        let next = &after["schedule"][round as usize]["pairings"];
        for p in next.as_array().unwrap() {
            assert!(
                p["game"].is_string() || !p["result"].is_null(),
                "every board has a game or a result: {p}"
            );
        }
    } else {
        assert_eq!(after["status"], "finished", "{after}");
    }
}

async fn create(c: &Client, plan: Value) -> String {
    let (st, v) = c.post("/tournaments", plan).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(v["tournament"]["status"], "signup");
    v["tournament"]["id"].as_str().unwrap().to_string()
}

async fn sign_up(players: &[Client], id: &str) -> HashMap<String, Client> {
    let mut by_name = HashMap::new();
    for p in players {
        let (st, v) = p.post(&format!("/tournaments/{id}/join"), json!({})).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
    }
    for p in players {
        by_name.insert(
            p.name.clone(),
            Client { http: p.http.clone(), base: p.base.clone(), name: p.name.clone() },
        );
    }
    by_name
}

/// The round-robin's results by seed: mostly the higher seed wins, with
/// upsets and draws that make two ties on points, each broken by
/// Sonneborn-Berger (one of them against the seeds' order).
fn round_robin_result(red: i64, black: i64) -> &'static str {
    let (a, b) = (red.min(black), red.max(black));
    let upper_wins = match (a, b) {
        (1, 2) | (3, 4) => None,
        (1, 6) | (2, 4) | (4, 5) | (5, 6) => Some(false),
        _ => Some(true),
    };
    match upper_wins {
        None => "draw",
        Some(upper) => {
            let winner = if upper { a } else { b };
            if winner == red { "red" } else { "black" }
        }
    }
}

on_both_databases!(a_six_player_round_robin_runs_to_the_end_with_sonneborn_berger);
async fn a_six_player_round_robin_runs_to_the_end_with_sonneborn_berger(db: Db) {
    let s = server(&db).await;
    let mut players = Vec::new();
    for _ in 0..6 {
        players.push(Client::register(&s, "trr").await);
    }
    let host = &players[0];
    // Plans the site cannot run are refused with the reason.
    let good = json!({"name": "Spring round-robin", "category": "standard_correspondence", "rules": "asian",
        "clock": {"kind": "correspondence", "hours": 48}, "format": "round_robin",
        "min_players": 4, "max_players": 6});
    for (field, value, why) in [
        ("category", json!("hex_correspondence"), "hex"),
        ("category", json!("standard_live"), "category"),
        ("rounds", json!(3), "round-robin"),
        ("max_players", json!(30), "players"),
        ("colour", json!("red"), "colour"),
    ] {
        let mut plan = good.clone();
        plan[field] = value;
        let (st, v) = host.post("/tournaments", plan).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{field}: {v}");
        assert!(v["message"].as_str().unwrap().contains(why), "{field}: {v}");
    }
    let id = create(host, good).await;
    let (_, list) = host.get("/tournaments?status=upcoming&limit=100").await;
    assert!(list["tournaments"].as_array().unwrap().iter().any(|t| t["id"] == id.as_str()), "{list}");
    // Leaving before the start is free; coming back is too.
    let (st, _) = players[1].post(&format!("/tournaments/{id}/join"), json!({})).await;
    assert_eq!(st, StatusCode::CREATED);
    let (st, v) = players[1].post(&format!("/tournaments/{id}/withdraw"), json!({})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["tournament"]["players"], 0);
    let (st, _) = players[1].post(&format!("/tournaments/{id}/withdraw"), json!({})).await;
    assert_eq!(st, StatusCode::CONFLICT, "not in it any more");
    // The sixth entry fills it: it starts at once.
    let by_name = sign_up(&players, &id).await;
    let late = Client::register(&s, "trl").await;
    let (st, v) = late.post(&format!("/tournaments/{id}/join"), json!({})).await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");
    let t = detail(host, &id).await;
    assert_eq!(
        (t["status"].as_str(), t["round"].as_i64(), t["rounds"].as_i64()),
        (Some("running"), Some(1), Some(5))
    );
    assert_eq!(t["tiebreak"], "sonneborn_berger");
    let rounds = t["schedule"].as_array().unwrap();
    assert_eq!(rounds.len(), 5, "the whole schedule is drawn at the start");
    assert!(rounds.iter().all(|r| r["pairings"].as_array().unwrap().len() == 3));
    assert!(
        rounds[1]["pairings"].as_array().unwrap().iter().all(|p| p["game"].is_null()),
        "later games wait"
    );
    // Round 1 is the Berger table's: 1-6, 2-5, 3-4.
    let seed = seeds(&t);
    let mut first: Vec<(i64, i64)> = rounds[0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let (a, b) = (seed[p["red"].as_str().unwrap()], seed[p["black"].as_str().unwrap()]);
            (a.min(b), a.max(b))
        })
        .collect();
    first.sort();
    assert_eq!(first, [(1, 6), (2, 5), (3, 4)]);
    let (st, _) = players[0].post(&format!("/tournaments/{id}/join"), json!({})).await;
    assert_eq!(st, StatusCode::CONFLICT, "no entries once started");

    for _ in 0..5 {
        play_round(&by_name, &id, round_robin_result).await;
    }
    let t = detail(host, &id).await;
    assert_eq!(t["status"], "finished");
    let (_, list) = host.get("/tournaments?status=finished&limit=100").await;
    assert!(list["tournaments"].as_array().unwrap().iter().any(|x| x["id"] == id.as_str()));
    // By seed: points, Sonneborn-Berger, wins, worked out by hand.
    let expected: [(i64, f64, f64, i64); 6] = [
        (1, 3.5, 7.75, 3),
        (2, 3.5, 7.25, 3),
        (4, 2.5, 6.75, 2),
        (3, 2.5, 4.25, 2),
        (6, 2.0, 4.5, 2),
        (5, 1.0, 2.5, 1),
    ];
    let standings = t["standings"].as_array().unwrap();
    let got: Vec<(i64, f64, f64, i64)> = standings
        .iter()
        .map(|l| {
            (
                l["seed"].as_i64().unwrap(),
                l["points"].as_f64().unwrap(),
                l["tiebreak"].as_f64().unwrap(),
                l["wins"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, expected);
    // The crosstable: each line holds the five games with opponent, colour and result.
    for (i, line) in standings.iter().enumerate() {
        assert_eq!(line["rank"], i as i64 + 1);
        let cells = line["results"].as_array().unwrap();
        assert_eq!(cells.len(), 5);
        let me = line["seed"].as_i64().unwrap();
        for c in cells {
            let them = seed[c["opponent"].as_str().unwrap()];
            let (red, black) = if c["color"] == "red" { (me, them) } else { (them, me) };
            let outcome = round_robin_result(red, black);
            let want = match outcome {
                "draw" => "draw",
                w if w == c["color"] => "win",
                _ => "loss",
            };
            assert_eq!(c["result"], want, "{line}");
            assert!(c["game"].is_string());
        }
    }
    let (st, _) = players[2].post(&format!("/tournaments/{id}/withdraw"), json!({})).await;
    assert_eq!(st, StatusCode::CONFLICT, "over");
    s.stop().await;
}

/// The Swiss's results by seed: the higher seed wins, neighbours draw, and when
/// the seeds add up to a multiple of five the lower one wins.
fn swiss_result(red: i64, black: i64) -> &'static str {
    let (a, b) = (red.min(black), red.max(black));
    if b - a == 1 {
        return "draw";
    }
    let winner = if (a + b) % 5 == 0 { b } else { a };
    if winner == red { "red" } else { "black" }
}

on_both_databases!(a_nine_player_swiss_of_four_rounds_runs_to_the_end_with_buchholz);
async fn a_nine_player_swiss_of_four_rounds_runs_to_the_end_with_buchholz(db: Db) {
    let s = server(&db).await;
    let mut players = Vec::new();
    for _ in 0..9 {
        players.push(Client::register(&s, "tsw").await);
    }
    let plan = json!({"name": "Fast Swiss", "category": "standard_correspondence", "rules": "casual",
        "clock": {"kind": "correspondence", "hours": 28}, "format": "swiss", "rounds": 4,
        "min_players": 5, "max_players": 9});
    let id = create(&players[0], plan).await;
    let by_name = sign_up(&players, &id).await;
    let t = detail(&players[0], &id).await;
    assert_eq!(
        (t["status"].as_str(), t["rounds"].as_i64(), t["tiebreak"].as_str()),
        (Some("running"), Some(4), Some("buchholz"))
    );
    assert_eq!(t["clock"], json!({"kind": "correspondence", "hours": 28}));
    let seed = seeds(&t);
    // Round 1: the bye to the lowest seed, the upper half against the lower
    // half, colours alternating down the boards.
    let first: Vec<(i64, Option<i64>)> = t["schedule"][0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (seed[p["red"].as_str().unwrap()], p["black"].as_str().map(|b| seed[b])))
        .collect();
    assert_eq!(first, [(1, Some(5)), (6, Some(2)), (3, Some(7)), (8, Some(4)), (9, None)]);
    assert_eq!(t["schedule"][0]["pairings"][4]["result"], "bye");
    assert_eq!(t["schedule"].as_array().unwrap().len(), 1, "a Swiss pairs a round at a time");

    for _ in 0..4 {
        play_round(&by_name, &id, swiss_result).await;
    }
    let t = detail(&players[0], &id).await;
    assert_eq!(t["status"], "finished");
    // The rules held: no rematch, one bye a round to different players,
    // colours never three in a row nor two apart.
    let mut met = std::collections::HashSet::new();
    let mut byes = Vec::new();
    let mut colors: HashMap<String, Vec<char>> = HashMap::new();
    let mut points: HashMap<String, i64> = seed.keys().map(|n| (n.clone(), 0)).collect();
    let mut wins: HashMap<String, i64> = seed.keys().map(|n| (n.clone(), 0)).collect();
    let mut opponents: HashMap<String, Vec<String>> = HashMap::new();
    for round in t["schedule"].as_array().unwrap() {
        for p in round["pairings"].as_array().unwrap() {
            let red = p["red"].as_str().unwrap().to_string();
            let Some(black) = p["black"].as_str().map(str::to_string) else {
                byes.push(red.clone());
                *points.get_mut(&red).unwrap() += 2;
                continue;
            };
            assert!(
                met.insert((red.clone().min(black.clone()), red.clone().max(black.clone()))),
                "a rematch"
            );
            colors.entry(red.clone()).or_default().push('r');
            colors.entry(black.clone()).or_default().push('b');
            opponents.entry(red.clone()).or_default().push(black.clone());
            opponents.entry(black.clone()).or_default().push(red.clone());
            let result = swiss_result(seed[&red], seed[&black]);
            assert_eq!(p["result"], result);
            match result {
                "red" => {
                    *points.get_mut(&red).unwrap() += 2;
                    *wins.get_mut(&red).unwrap() += 1;
                }
                "black" => {
                    *points.get_mut(&black).unwrap() += 2;
                    *wins.get_mut(&black).unwrap() += 1;
                }
                _ => {
                    *points.get_mut(&red).unwrap() += 1;
                    *points.get_mut(&black).unwrap() += 1;
                }
            }
        }
    }
    assert_eq!(byes.len(), 4);
    assert_eq!(byes.iter().collect::<std::collections::HashSet<_>>().len(), 4, "a bye at most once each");
    for (name, c) in &colors {
        let text: String = c.iter().collect();
        assert!(!text.contains("rrr") && !text.contains("bbb"), "{name}: {text}");
        let balance =
            c.iter().filter(|&&x| x == 'r').count() as i64 - c.iter().filter(|&&x| x == 'b').count() as i64;
        assert!(balance.abs() <= 2, "{name}: {text}");
    }
    // The standings, worked out here from the games: points, Buchholz (the
    // opponents' points; a bye adds nothing), wins, seed.
    let buchholz = |n: &String| opponents.get(n).map_or(0, |o| o.iter().map(|x| points[x]).sum::<i64>());
    let mut order: Vec<String> = seed.keys().cloned().collect();
    order.sort_by_key(|n| (-points[n], -buchholz(n), -wins[n], seed[n]));
    let standings = t["standings"].as_array().unwrap();
    let names: Vec<String> = standings.iter().map(|l| l["name"].as_str().unwrap().to_string()).collect();
    assert_eq!(names, order);
    for l in standings {
        let n = l["name"].as_str().unwrap().to_string();
        assert_eq!(l["points"].as_f64().unwrap(), points[&n] as f64 / 2.0, "{l}");
        assert_eq!(l["tiebreak"].as_f64().unwrap(), buchholz(&n) as f64 / 2.0, "{l}");
        assert_eq!(l["wins"], wins[&n]);
        assert_eq!(l["results"].as_array().unwrap().len(), 4, "a cell for every round: {l}");
    }
    // Ties on points were broken by Buchholz somewhere, or this field tests nothing.
    assert!(
        standings
            .windows(2)
            .any(|w| w[0]["points"] == w[1]["points"] && w[0]["tiebreak"] != w[1]["tiebreak"]),
        "{standings:?}"
    );
    s.stop().await;
}

/// How many games each player has going.
async fn active_games(players: &[Client]) -> Vec<usize> {
    let mut counts = Vec::new();
    for p in players {
        let (_, v) = p.get("/games").await;
        counts.push(v["my_turn"].as_array().unwrap().len() + v["their_turn"].as_array().unwrap().len());
    }
    counts
}

#[tokio::test]
#[ignore = "needs PostgreSQL (XIANGQI_TEST_POSTGRES_URL); .ci/run sets it"]
async fn two_servers_on_one_postgresql_start_and_advance_a_tournament_exactly_once() {
    let db = common::postgres().apart("two_servers").await;
    // Every server goes by one clock, which the test moves forward.
    let clock = xiangqi_server::Clock::default();
    let a = server_on(&db, &clock).await;
    let b = server_on(&db, &clock).await;
    let mut players = Vec::new();
    for i in 0..4 {
        let on = if i % 2 == 0 { &a } else { &b };
        players.push(Client::register(on, "tpg").await);
    }
    // It starts at a time, which both servers' sweeps watch for.
    let plan = json!({"name": "Two servers", "category": "standard_live", "rules": "asian",
        "clock": {"kind": "live", "base": 600000, "increment": 5000}, "format": "round_robin",
        "min_players": 4, "max_players": 4, "starts": clock.now_ms() + 60_000});
    let id = create(&players[0], plan).await;
    let by_name = sign_up(&players, &id).await;
    assert_eq!(detail(&players[0], &id).await["status"], "signup", "full, but it waits for its time");
    // Each server sweeps (they take turns at the background lock), twice:
    // not before the time, and once at it.
    clock.advance(Duration::from_secs(50));
    tokio::join!(a.sweep(), b.sweep());
    assert_eq!(detail(&players[1], &id).await["status"], "signup", "its time has not come");
    clock.advance(Duration::from_secs(10));
    tokio::join!(a.sweep(), b.sweep());
    tokio::join!(a.sweep(), b.sweep());
    let t = detail(&players[1], &id).await;
    assert_eq!(t["status"], "running");
    assert_eq!(t["round"], 1);
    assert_eq!(active_games(&players).await, [1, 1, 1, 1], "one game each: started once");
    assert_eq!(t["schedule"][0]["pairings"].as_array().unwrap().len(), 2);

    // Round 1's games end through one server and the other: round 2 begins
    // once, and the sweeps that follow add nothing.
    play_round(&by_name, &id, |_, _| "red").await;
    tokio::join!(a.sweep(), b.sweep());
    assert_eq!(active_games(&players).await, [1, 1, 1, 1], "one game each in round 2");
    assert_eq!(detail(&players[2], &id).await["round"], 2);

    // One server goes away; a fresh one takes its place and carries on.
    a.stop().await;
    let c = server_on(&db, &clock).await;
    let on_c: HashMap<String, Client> = by_name.keys().map(|n| (n.clone(), Client::new(&c, n))).collect();
    for p in on_c.values() {
        let (st, v) = p.post("/session", json!({"name": p.name, "password": "secret-pass"})).await;
        assert_eq!(st, StatusCode::OK, "{v}");
    }
    play_round(&on_c, &id, |_, _| "black").await;
    b.stop().await;
    play_round(&on_c, &id, |_, _| "draw").await;
    let t = detail(on_c.values().next().unwrap(), &id).await;
    assert_eq!(t["status"], "finished");
    // Six games in all, each played once.
    let games: usize =
        t["schedule"].as_array().unwrap().iter().map(|r| r["pairings"].as_array().unwrap().len()).sum();
    assert_eq!(games, 6);
    let points: f64 = t["standings"].as_array().unwrap().iter().map(|l| l["points"].as_f64().unwrap()).sum();
    assert_eq!(points, 6.0);
    c.stop().await;
}

on_both_databases!(a_withdrawal_after_the_start_resigns_the_game_and_forfeits_or_leaves_the_rest);
async fn a_withdrawal_after_the_start_resigns_the_game_and_forfeits_or_leaves_the_rest(db: Db) {
    let s = server(&db).await;
    for format in ["round_robin", "swiss"] {
        let mut players = Vec::new();
        for _ in 0..5 {
            players.push(Client::register(&s, "twd").await);
        }
        let mut plan = json!({"name": "Withdrawals", "category": "standard_live", "rules": "asian",
            "clock": {"kind": "live", "base": 600000, "increment": 0}, "format": format,
            "min_players": 5, "max_players": 5});
        if format == "swiss" {
            plan["rounds"] = json!(3);
        }
        let id = create(&players[0], plan).await;
        let by_name = sign_up(&players, &id).await;
        let t = detail(&players[0], &id).await;
        // The one who leaves is playing in round 1.
        let board = &t["schedule"][0]["pairings"][0];
        let (leaver, stayer) =
            (board["red"].as_str().unwrap().to_string(), board["black"].as_str().unwrap().to_string());
        let (st, v) = by_name[&leaver].post(&format!("/tournaments/{id}/withdraw"), json!({})).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let t = &v["tournament"];
        assert_eq!(t["schedule"][0]["pairings"][0]["result"], "black", "{format}: the game is resigned");
        let game = t["schedule"][0]["pairings"][0]["game"].as_str().unwrap();
        let (_, g) = by_name[&stayer].get(&format!("/games/{game}")).await;
        assert_eq!(g["game"]["outcome"]["reason"], "resignation");
        let (st, _) = by_name[&leaver].post(&format!("/tournaments/{id}/withdraw"), json!({})).await;
        assert_eq!(st, StatusCode::CONFLICT, "once");
        let me = t["entrants"].as_array().unwrap().iter().find(|e| e["name"] == leaver.as_str()).unwrap();
        assert_eq!(me["withdrawn_round"], 1);
        let rest = without(&by_name, &leaver);
        while detail(&players[0], &id).await["status"] == "running" {
            play_round(&rest, &id, |_, _| "draw").await;
        }
        let t = detail(&players[0], &id).await;
        let later: Vec<&Value> = t["schedule"]
            .as_array()
            .unwrap()
            .iter()
            .skip(1)
            .flat_map(|r| r["pairings"].as_array().unwrap())
            .filter(|p| p["red"] == leaver.as_str() || p["black"] == leaver.as_str())
            .collect();
        if format == "round_robin" {
            // Every later game of theirs is a forfeit to the opponent, without a game.
            assert_eq!(later.len(), 3, "{t}");
            for p in later {
                assert!(p["game"].is_null());
                let want = if p["red"] == leaver.as_str() { "black_by_forfeit" } else { "red_by_forfeit" };
                assert_eq!(p["result"], want);
            }
        } else {
            assert!(later.is_empty(), "a Swiss pairs them no more: {later:?}");
        }
        let line = t["standings"].as_array().unwrap().iter().find(|l| l["name"] == leaver.as_str()).unwrap();
        assert_eq!(line["points"], 0.0);
        assert_eq!(line["withdrawn_round"], 1);
    }
    s.stop().await;
}

/// The players but one.
fn without(players: &HashMap<String, Client>, name: &str) -> HashMap<String, Client> {
    players
        .iter()
        .filter(|(n, _)| n.as_str() != name)
        .map(|(n, c)| {
            (n.clone(), Client { http: c.http.clone(), base: c.base.clone(), name: c.name.clone() })
        })
        .collect()
}
