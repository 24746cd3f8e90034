//! Farming puzzle ratings and streaks, tried as an attacker did, on SQLite and
//! PostgreSQL. A visitor's wrong move shows a puzzle's whole line and stores
//! nothing; the same person, logged in, then plays the line. Each way gains
//! nothing: a puzzle opened by its id is not rated, nor one tried from the
//! player's address without logging in, nor one handed out after that; a
//! running streak's puzzle is answered in the streak alone, and a streak never
//! stands on a puzzle tried from the streaker's address. Attempts sent at once
//! count once, and a visitor's moves stop at the hour's limit.

use std::collections::HashSet;

use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::{Value, json};
use xiangqi::Variant;
use xiangqi_server::{
    Running,
    domain::puzzles::VISITOR_MOVES_PER_HOUR,
    model::puzzles::{Origin, PuzzleTheme},
    store::{Store, Tally},
};

use crate::common::{Client, Db, fresh_address, on_both_databases, server, unique, wrong_move};
use xiangqi_server::model::puzzles::NewPuzzle;

/// Black's chariot steps in front of red's, which takes it.
const CAPTURE: (&str, &[&str]) = ("4k4/9/9/9/9/9/2r6/9/3R5/3K5 b", &["c3d3", "d1d3"]);
/// A mate in three: black's horse shuts its general in.
const MATE: (&str, &[&str]) =
    ("5k3/6n2/9/9/9/9/2r6/4K4/3R5/9 b", &["g8e9", "d1f1", "c3f3", "f1f3", "e9f7", "f3f7"]);

/// Stores puzzles of these lines under fresh position keys: their ids.
async fn seed(url: &str, lines: &[(&str, &[&str])], rating: f64) -> Vec<String> {
    use std::hash::{BuildHasher, RandomState};
    let store = Store::open(url).await.unwrap();
    let rows: Vec<NewPuzzle> = lines
        .iter()
        .map(|(fen, moves)| NewPuzzle {
            id: unique("fz"),
            variant: Variant::Standard,
            fen: fen.to_string(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            key: RandomState::new().hash_one(unique("k")),
            themes: vec![PuzzleTheme::Capture],
            mate: moves.len() > 2,
            origin: Origin::Engine,
            rating,
            created_ms: 0,
        })
        .collect();
    assert_eq!(store.insert_puzzles(&rows).await.unwrap(), rows.len() as u64);
    rows.into_iter().map(|r| r.id).collect()
}

async fn moves(c: &Client, id: &str, moves: &[String]) -> (StatusCode, Value) {
    c.post(&format!("/puzzles/{id}/moves"), json!({ "moves": moves })).await
}

/// What a visitor learns by trial: a wrong first move, answered with the
/// whole line; the solver's moves of it.
async fn learn(visitor: &Client, url: &str, id: &str) -> Vec<String> {
    let (s, v) = moves(visitor, id, &[wrong_move(url, id).await]).await;
    assert_eq!((s, v["step"].as_str()), (StatusCode::OK, Some("wrong")), "{v}");
    let line: Vec<String> =
        v["solution"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
    line.into_iter().skip(1).step_by(2).collect()
}

/// A new user, signed up (and so logged in) from `address`.
async fn register_from(s: &Running, prefix: &str, address: std::net::IpAddr) -> Client {
    let c = Client::from_address(s, &unique(prefix), address);
    let (st, v) = c.post("/users", json!({"name": c.name, "password": "secret-pass"})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    c
}

/// A user's puzzle rating on the standard board (1500 before any attempt
/// ended) and how many of their attempts were rated.
async fn standing(c: &Client) -> (i64, usize) {
    let (s, v) = c.get(&format!("/users/{}/puzzles", c.name)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let rating = v["ratings"].as_array().unwrap().first().map_or(1500, |r| r["rating"].as_i64().unwrap());
    let rated = v["attempts"].as_array().unwrap().iter().filter(|a| a["rated"] == true).count();
    (rating, rated)
}

fn is_sqlite(url: &str) -> bool {
    url.starts_with("sqlite")
}

on_both_databases!(lines_found_by_trial_as_a_visitor_gain_nothing_once_logged_in);
async fn lines_found_by_trial_as_a_visitor_gain_nothing_once_logged_in(db: Db) {
    let s = server(&db).await;
    let ids = seed(&db.url, &[CAPTURE, CAPTURE, MATE, CAPTURE], 1500.0).await;
    let home = fresh_address();
    let visitor = Client::from_address(&s, "visitor", home);
    let mut lines = Vec::new();
    for id in &ids {
        lines.push(learn(&visitor, &db.url, id).await);
    }

    // Logged in, the attacker plays each line as a first attempt: solved, not rated.
    let attacker = register_from(&s, "fma", home).await;
    for (id, line) in ids.iter().zip(&lines) {
        let (st, v) = moves(&attacker, id, line).await;
        assert_eq!((st, v["step"].as_str()), (StatusCode::OK, Some("solved")), "{v}");
        assert!(v["rating"].is_null(), "a line learned as a visitor is not rated: {v}");
        assert_eq!(v["unrated"], "opened", "{v}");
    }
    assert_eq!(standing(&attacker).await, (1500, 0), "the rating did not move");

    // Another account at the same address is never handed those puzzles.
    let second = register_from(&s, "fmb", home).await;
    for _ in 0..6 {
        let (st, v) = second.get("/puzzles/next").await;
        if is_sqlite(&db.url) {
            assert_eq!((st, v["reason"].as_str()), (StatusCode::NOT_FOUND, Some("no_puzzle_left")), "{v}");
        } else {
            assert_eq!(st, StatusCode::OK, "{v}");
            assert!(!ids.iter().any(|id| v["id"] == id.as_str()), "{v}");
        }
    }

    // A puzzle handed out, then tried at the same address without logging in: not rated either.
    let fresh = seed(&db.url, &[CAPTURE], 1500.0).await;
    let (st, p) = second.get("/puzzles/next").await;
    assert_eq!(st, StatusCode::OK, "{p}");
    let handed = p["id"].as_str().unwrap().to_string();
    if is_sqlite(&db.url) {
        assert_eq!(handed, fresh[0], "the one puzzle not tried at this address");
    }
    let line = learn(&visitor, &db.url, &handed).await;
    let (_, v) = moves(&second, &handed, &line).await;
    assert_eq!(v["step"], "solved", "{v}");
    assert!(v["rating"].is_null(), "{v}");
    assert_eq!(v["unrated"], "seen", "{v}");
    assert_eq!(standing(&second).await, (1500, 0));

    // Elsewhere, the same puzzle handed out and solved unprepared is rated.
    let honest = register_from(&s, "fmh", fresh_address()).await;
    let (_, p) = honest.get("/puzzles/next").await;
    let id = p["id"].as_str().unwrap().to_string();
    let line = Store::open(&db.url).await.unwrap().puzzle(&id).await.unwrap().unwrap().moves;
    let line: Vec<String> = line.into_iter().skip(1).step_by(2).collect();
    let (_, v) = moves(&honest, &id, &line).await;
    assert_eq!(v["step"], "solved", "{v}");
    assert!(v["rating"]["after"].as_i64().unwrap() > 1500, "{v}");
    assert!(v["unrated"].is_null(), "{v}");
    s.stop().await;
}

on_both_databases!(a_running_streaks_puzzle_cannot_be_learned_elsewhere_and_gains_nothing);
async fn a_running_streaks_puzzle_cannot_be_learned_elsewhere_and_gains_nothing(db: Db) {
    let s = server(&db).await;
    let ids = seed(&db.url, &[CAPTURE, CAPTURE, CAPTURE, MATE, CAPTURE, MATE], 800.0).await;
    let home = fresh_address();
    let attacker = register_from(&s, "fsa", home).await;
    let visitor = Client::from_address(&s, "visitor", home);
    let elsewhere = Client::from_address(&s, "visitor", fresh_address());
    let alt = register_from(&s, "fsb", fresh_address()).await;

    // The attack: each streak puzzle probed as a visitor (or another
    // account, or the streaker without naming the streak), then its line
    // played in the streak. Nothing is learned, so the streak ends at once.
    let (st, v) = attacker.post("/puzzles/streaks", json!({})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let streak = v["id"].as_str().unwrap().to_string();
    let current = v["puzzle"]["id"].as_str().unwrap().to_string();
    let wrong = wrong_move(&db.url, &current).await;
    for c in [&visitor, &elsewhere, &alt, &attacker] {
        let (st, v) = moves(c, &current, std::slice::from_ref(&wrong)).await;
        assert_eq!((st, v["reason"].as_str()), (StatusCode::CONFLICT, Some("puzzle_in_streak")), "{v}");
        assert!(v.get("solution").is_none(), "{v}");
        let (st, v) = c.post(&format!("/puzzles/{current}/hint"), json!({ "moves": [] })).await;
        assert_eq!((st, v["reason"].as_str()), (StatusCode::CONFLICT, Some("puzzle_in_streak")), "{v}");
    }
    // A visitor cannot name the streak either.
    let (st, v) = visitor
        .post(&format!("/puzzles/{current}/moves"), json!({ "moves": [wrong], "streak": streak }))
        .await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::UNAUTHORIZED, Some("log_in_first")), "{v}");
    // The streaker may ask for a hint in the streak itself, and misses.
    let (st, v) =
        attacker.post(&format!("/puzzles/{current}/hint"), json!({ "moves": [], "streak": streak })).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (st, v) = attacker
        .post(&format!("/puzzles/{current}/moves"), json!({ "moves": [wrong], "streak": streak }))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!((v["streak"]["over"].as_bool(), v["streak"]["solved"].as_i64()), (Some(true), Some(0)));
    assert_eq!(v["unrated"], "streak", "{v}");
    if is_sqlite(&db.url) {
        // Over, the puzzle is anyone's to try (on a shared database
        // another test's streak may stand on it).
        let (st, v) = moves(&elsewhere, &current, std::slice::from_ref(&wrong)).await;
        assert_eq!((st, v["step"].as_str()), (StatusCode::OK, Some("wrong")), "{v}");
    }

    // Lines learned at the address first: no streak there stands on those puzzles.
    let mut probed = HashSet::new();
    for id in &ids {
        if *id != current {
            learn(&visitor, &db.url, id).await;
            probed.insert(id.clone());
        }
    }
    let extra = seed(&db.url, &[CAPTURE], 800.0).await;
    let (st, v) = attacker.post("/puzzles/streaks", json!({})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let first = v["puzzle"]["id"].as_str().unwrap().to_string();
    assert!(!probed.contains(&first), "{first} was tried at the streaker's address");
    if is_sqlite(&db.url) {
        assert_eq!(first, extra[0], "the one puzzle neither tried by the streaker nor at the address");
    }
    let streak = v["id"].as_str().unwrap().to_string();
    let wrong = wrong_move(&db.url, &first).await;
    let (_, v) = attacker
        .post(&format!("/puzzles/{first}/moves"), json!({ "moves": [wrong], "streak": streak }))
        .await;
    assert_eq!(v["streak"]["over"], true, "{v}");
    let (_, v) = attacker.get(&format!("/users/{}/puzzles", attacker.name)).await;
    assert_eq!(v["ratings"][0]["best_streak"], 0, "{v}");
    s.stop().await;
}

on_both_databases!(first_attempts_sent_at_once_count_once);
async fn first_attempts_sent_at_once_count_once(db: Db) {
    let s = server(&db).await;
    seed(&db.url, &[CAPTURE, MATE], 1500.0).await;
    let racer = register_from(&s, "frc", fresh_address()).await;
    let (st, p) = racer.get("/puzzles/next").await;
    assert_eq!(st, StatusCode::OK, "{p}");
    let id = p["id"].as_str().unwrap().to_string();
    let line = Store::open(&db.url).await.unwrap().puzzle(&id).await.unwrap().unwrap().moves;
    let line: Vec<String> = line.into_iter().skip(1).step_by(2).collect();
    let answers = join_all((0..12).map(|_| moves(&racer, &id, &line))).await;
    let mut changes = Vec::new();
    for (st, v) in &answers {
        assert_eq!((*st, v["step"].as_str()), (StatusCode::OK, Some("solved")), "{v}");
        match v["rating"]["after"].as_i64() {
            Some(after) => changes.push(after),
            None => assert_eq!(v["unrated"], "repeat", "{v}"),
        }
    }
    assert_eq!(changes.len(), 1, "{answers:?}");
    let (_, v) = racer.get(&format!("/users/{}/puzzles", racer.name)).await;
    assert_eq!(
        (v["ratings"][0]["attempts"].as_i64(), v["ratings"][0]["rating"].as_i64()),
        (Some(1), Some(changes[0])),
        "{v}"
    );
    assert_eq!(v["attempts"].as_array().map(Vec::len), Some(1), "{v}");
    s.stop().await;
}

on_both_databases!(a_visitors_moves_and_hints_stop_at_the_hours_limit);
async fn a_visitors_moves_and_hints_stop_at_the_hours_limit(db: Db) {
    let s = server(&db).await;
    let ids = seed(&db.url, &[CAPTURE], 1500.0).await;
    let id = &ids[0];
    let address = fresh_address();
    let visitor = &Client::from_address(&s, "visitor", address);
    let allowed = VISITOR_MOVES_PER_HOUR as usize;
    let tries = allowed + 20;
    let mut answers = Vec::new();
    for batch in (0..tries).collect::<Vec<_>>().chunks(40) {
        answers.extend(
            join_all(batch.iter().map(|i| async move {
                if i % 10 == 0 {
                    visitor.post(&format!("/puzzles/{id}/hint"), json!({ "moves": [] })).await
                } else {
                    moves(visitor, id, &["d1d2".to_string()]).await
                }
            }))
            .await,
        );
    }
    let ok = answers.iter().filter(|(st, _)| *st == StatusCode::OK).count();
    assert_eq!(ok, allowed, "{:?}", answers.iter().map(|a| a.0).collect::<Vec<_>>());
    for (st, v) in answers.iter().filter(|(st, _)| *st != StatusCode::OK) {
        assert_eq!((*st, v["reason"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_often")), "{v}");
        assert_eq!(
            (v["params"]["act"].as_str(), v["params"]["per"].as_str()),
            (Some("puzzle_moves"), Some("hour"))
        );
        assert!(v.get("solution").is_none(), "{v}");
    }
    let store = Store::open(&db.url).await.unwrap();
    let kept = store.tally_since(Tally::PuzzleProbes(&address.to_string()), 0).await.unwrap();
    assert_eq!(kept, allowed as i64, "one row for each move allowed");
    // Another address, and a logged-in user at this one, are not held back.
    let (st, v) = moves(&Client::from_address(&s, "visitor", fresh_address()), id, &["d1d2".into()]).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let user = register_from(&s, "fvl", address).await;
    let (st, v) = moves(&user, id, &["d1d2".into()]).await;
    assert_eq!((st, v["unrated"].as_str()), (StatusCode::OK, Some("opened")), "{v}");
    s.stop().await;
}
