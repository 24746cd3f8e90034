//! Puzzles through the API, on SQLite and PostgreSQL: solving and failing,
//! hints, first attempts rating both sides once, only puzzles the site handed
//! out rated, streaks, the day's puzzle, and every bad request refused with
//! its reason. (Farming ratings and streaks is tried in `attacks/farming.rs`.)

mod common;

use common::{Client, Db, fresh_address, on_both_databases, server, unique, wrong_move};
use reqwest::StatusCode;
use serde_json::{Value, json};
use xiangqi::Variant;
use xiangqi_server::model::puzzles::NewPuzzle;
use xiangqi_server::{
    Config,
    model::puzzles::{Handout, Origin, PuzzleTheme},
    store::Store,
};

/// The mate in three of the finder's tests: black's horse shuts its general in.
const MATE: (&str, &[&str]) =
    ("5k3/6n2/9/9/9/9/2r6/4K4/3R5/9 b", &["g8e9", "d1f1", "c3f3", "f1f3", "e9f7", "f3f7"]);
/// Black's chariot steps in front of red's, which takes it.
const CAPTURE: (&str, &[&str]) = ("4k4/9/9/9/9/9/2r6/9/3R5/3K5 b", &["c3d3", "d1d3"]);
/// The same capture on the f-file: no red piece on d1.
const CAPTURE_F: (&str, &[&str]) = ("4k4/9/9/9/9/9/6r2/9/5R3/3K5 b", &["g3f3", "f1f3"]);

/// Stores puzzles of these lines under fresh position keys: their ids.
async fn seed(url: &str, lines: &[(&str, &[&str])], rating: f64) -> Vec<String> {
    let store = Store::open(url).await.unwrap();
    let rows: Vec<NewPuzzle> = lines
        .iter()
        .map(|(fen, moves)| NewPuzzle {
            id: unique("pz"),
            variant: Variant::Standard,
            fen: fen.to_string(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            key: rand_key(),
            themes: vec![PuzzleTheme::Capture, PuzzleTheme::Endgame],
            mate: moves.len() > 2,
            origin: Origin::Engine,
            rating,
            created_ms: 0,
        })
        .collect();
    assert_eq!(store.insert_puzzles(&rows).await.unwrap(), rows.len() as u64);
    rows.into_iter().map(|r| r.id).collect()
}

fn rand_key() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(unique("k"))
}

/// The solver's moves of a stored puzzle.
async fn solution(url: &str, id: &str) -> Vec<String> {
    let p = Store::open(url).await.unwrap().puzzle(id).await.unwrap().unwrap();
    p.moves.iter().skip(1).step_by(2).cloned().collect()
}

async fn moves(c: &Client, id: &str, moves: &[&str]) -> (StatusCode, Value) {
    c.post(&format!("/puzzles/{id}/moves"), json!({ "moves": moves })).await
}

/// Plays a stored puzzle's whole line at once: the answer, which says solved.
async fn solve(url: &str, c: &Client, id: &str) -> Value {
    let line = solution(url, id).await;
    let line: Vec<&str> = line.iter().map(String::as_str).collect();
    let (s, v) = moves(c, id, &line).await;
    assert_eq!((s, v["step"].as_str()), (StatusCode::OK, Some("solved")), "{v}");
    v
}

/// Hands a puzzle to a user as `/puzzles/next` does (in place of the one
/// handed before), so that a first attempt begun now is rated.
async fn hand(url: &str, c: &Client, id: &str) {
    let store = Store::open(url).await.unwrap();
    store.hand_out(&c.name, Handout::Next, Variant::Standard, id, "127.0.0.1", 0).await.unwrap();
}

on_both_databases!(a_first_attempt_rates_player_and_puzzle_once_and_a_hint_makes_it_unrated);
async fn a_first_attempt_rates_player_and_puzzle_once_and_a_hint_makes_it_unrated(db: Db) {
    let server = server(&db).await;
    let ids = seed(&db.url, &[MATE, CAPTURE, CAPTURE, CAPTURE], 1500.0).await;
    let (mate, hinted, failed, raced) = (&ids[0], &ids[1], &ids[2], &ids[3]);
    let alice = Client::register(&server, "pza").await;

    let (s, v) = alice.get(&format!("/puzzles/{mate}")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["setup"].as_str(), v["solver"].as_str(), v["moves"].as_u64()),
        (Some("g8e9"), Some("red"), Some(3))
    );
    assert!(
        v.get("solution").is_none() && !v.to_string().contains("f3f7"),
        "the solution stays on the server: {v}"
    );

    // Right, right, and any mate at the end.
    hand(&db.url, &alice, mate).await;
    let (s, v) = moves(&alice, mate, &["d1f1"]).await;
    assert_eq!(
        (s, v["step"].as_str(), v["reply"].as_str()),
        (StatusCode::OK, Some("right"), Some("c3f3")),
        "{v}"
    );
    assert!(v["solution"].is_null() && v["rating"].is_null());
    let (_, v) = moves(&alice, mate, &["d1f1", "f1f3"]).await;
    assert_eq!(v["reply"], "e9f7");
    let (s, v) = moves(&alice, mate, &["d1f1", "f1f3", "f3f7"]).await;
    assert_eq!((s, v["step"].as_str()), (StatusCode::OK, Some("solved")), "{v}");
    assert_eq!(v["solution"].as_array().unwrap().len(), 6);
    let (before, after) = (v["rating"]["before"].as_i64().unwrap(), v["rating"]["after"].as_i64().unwrap());
    assert_eq!(before, 1500);
    assert!(after > before, "{v}");
    assert!(v["unrated"].is_null(), "{v}");
    let (_, p) = alice.get(&format!("/puzzles/{mate}")).await;
    assert!(p["rating"].as_i64().unwrap() < 1500, "solved, the puzzle drops: {p}");
    assert_eq!((p["plays"].as_i64(), p["solved_percent"].as_u64()), (Some(1), Some(100)));
    // Solving it again changes nothing.
    let (_, v) = moves(&alice, mate, &["d1f1", "f1f3", "f3f7"]).await;
    assert_eq!(v["step"], "solved");
    assert!(v["rating"].is_null(), "only the first attempt counts: {v}");
    assert_eq!(v["unrated"], "repeat", "{v}");
    let (_, p) = alice.get(&format!("/puzzles/{mate}")).await;
    assert_eq!(p["plays"], 1);

    // A hint shows the piece; the attempt is then not rated.
    hand(&db.url, &alice, hinted).await;
    let (s, v) = alice.post(&format!("/puzzles/{hinted}/hint"), json!({ "moves": [] })).await;
    assert_eq!((s, v["cell"].as_str()), (StatusCode::OK, Some("d1")), "{v}");
    let (_, v) = moves(&alice, hinted, &["d1d2"]).await;
    assert_eq!(v["step"], "wrong");
    assert_eq!(v["solution"], json!(["c3d3", "d1d3"]));
    assert!(v["rating"].is_null(), "{v}");
    assert_eq!(v["unrated"], "hinted", "{v}");

    // A wrong first move fails a rated attempt.
    hand(&db.url, &alice, failed).await;
    let (_, v) = moves(&alice, failed, &["d1d2"]).await;
    assert_eq!(v["step"], "wrong");
    assert!(v["rating"]["after"].as_i64().unwrap() < v["rating"]["before"].as_i64().unwrap(), "{v}");

    // The same last move sent twice at once: one of them ends the attempt.
    let bob = Client::register(&server, "pzb").await;
    hand(&db.url, &bob, raced).await;
    let (a, b) = tokio::join!(moves(&bob, raced, &["d1d3"]), moves(&bob, raced, &["d1d3"]));
    assert_eq!(
        (a.1["step"].as_str(), b.1["step"].as_str()),
        (Some("solved"), Some("solved")),
        "{} / {}",
        a.1,
        b.1
    );
    let rated = [&a.1, &b.1].iter().filter(|v| !v["rating"].is_null()).count();
    assert_eq!(rated, 1, "{} / {}", a.1, b.1);
    let (_, p) = bob.get(&format!("/puzzles/{raced}")).await;
    assert_eq!(p["plays"], 1);

    // Several players solving one puzzle at once each count once, and it drops for each.
    let crowd = seed(&db.url, &[CAPTURE], 1500.0).await;
    let mut solvers = Vec::new();
    for _ in 0..6 {
        let c = Client::register(&server, "pzq").await;
        hand(&db.url, &c, &crowd[0]).await;
        solvers.push(c);
    }
    let answers =
        futures_util::future::join_all(solvers.iter().map(|c| moves(c, &crowd[0], &["d1d3"]))).await;
    for (s, v) in &answers {
        assert_eq!((*s, v["step"].as_str()), (StatusCode::OK, Some("solved")), "{v}");
        assert!(!v["rating"].is_null(), "{v}");
    }
    // Each of them has the one rated attempt (other tests on a shared
    // database may meet the same puzzle too, so its tally is at least six).
    for c in &solvers {
        let (_, v) = c.get(&format!("/users/{}/puzzles", c.name)).await;
        assert_eq!(v["attempts"].as_array().map(Vec::len), Some(1), "{v}");
        assert_eq!(v["attempts"][0]["rated"], true, "{v}");
    }
    let (_, p) = bob.get(&format!("/puzzles/{}", crowd[0])).await;
    assert!(p["plays"].as_i64().unwrap() >= 6, "{p}");

    // Alice's standing: three attempts, one rated solve and one rated miss.
    let (s, v) = alice.get(&format!("/users/{}/puzzles", alice.name)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let standard = &v["ratings"][0];
    assert_eq!(
        (standard["variant"].as_str(), standard["attempts"].as_i64(), standard["solved"].as_i64()),
        (Some("standard"), Some(3), Some(1))
    );
    let attempts = v["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 3);
    assert_eq!(attempts.iter().filter(|a| a["rated"] == true).count(), 2);
    assert!(attempts.iter().any(|a| a["hinted"] == true && a["result"] == "failed"));
    server.stop().await;
}

on_both_databases!(bad_puzzle_requests_are_refused_with_their_reason_and_change_nothing);
async fn bad_puzzle_requests_are_refused_with_their_reason_and_change_nothing(db: Db) {
    let server = server(&db).await;
    let ids = seed(&db.url, &[MATE], 1500.0).await;
    let id = &ids[0];
    let carol = Client::register(&server, "pzc").await;
    for (body, status, reason) in [
        (json!({ "moves": [] }), StatusCode::BAD_REQUEST, "puzzle_line"),
        (json!({ "moves": ["d1f1", "f1f3", "f3f7", "f7f8"] }), StatusCode::BAD_REQUEST, "puzzle_line"),
        (json!({ "moves": ["zz"] }), StatusCode::UNPROCESSABLE_ENTITY, "illegal_move"),
        (json!({ "moves": ["d1e2"] }), StatusCode::UNPROCESSABLE_ENTITY, "illegal_move"),
        (json!({ "moves": "d1f1" }), StatusCode::BAD_REQUEST, "malformed"),
        (json!({ "moves": ["d1f1"], "streak": "nope" }), StatusCode::NOT_FOUND, "no_streak"),
    ] {
        let (s, v) = carol.post(&format!("/puzzles/{id}/moves"), body.clone()).await;
        assert_eq!((s, v["reason"].as_str()), (status, Some(reason)), "{body}: {v}");
    }
    let (s, v) = carol.get("/puzzles/no-such-puzzle").await;
    assert_eq!((s, v["reason"].as_str()), (StatusCode::NOT_FOUND, Some("no_puzzle")));
    let (s, v) = carol.get("/puzzles/next?theme=brilliancy").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    // Nothing was counted.
    let (_, p) = carol.get(&format!("/puzzles/{id}")).await;
    assert_eq!(p["plays"], 0);
    // A visitor may solve puzzles, without a rating; a streak needs a log-in.
    let visitor = Client::from_address(&server, "visitor", fresh_address());
    let (s, v) = moves(&visitor, id, &["d1f1"]).await;
    assert_eq!((s, v["step"].as_str()), (StatusCode::OK, Some("right")), "{v}");
    let (s, v) = visitor.post("/puzzles/streaks", json!({})).await;
    assert_eq!((s, v["reason"].as_str()), (StatusCode::UNAUTHORIZED, Some("log_in_first")));
    server.stop().await;
}

on_both_databases!(the_next_puzzle_is_one_not_tried_a_streak_runs_until_a_miss_and_the_day_has_one_puzzle);
async fn the_next_puzzle_is_one_not_tried_a_streak_runs_until_a_miss_and_the_day_has_one_puzzle(db: Db) {
    let server = server(&db).await;
    seed(&db.url, &[MATE, CAPTURE_F, CAPTURE, MATE, CAPTURE_F, MATE, CAPTURE, CAPTURE_F], 900.0).await;
    let dave = Client::register(&server, "pzd").await;
    let mut seen = std::collections::HashSet::new();
    for _ in 0..4 {
        let (s, v) = dave.get("/puzzles/next").await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        assert!(seen.insert(id.clone()), "{id} came twice");
        // A wrong move ends the attempt, rated: the puzzle is tried.
        let wrong = wrong_move(&db.url, &id).await;
        let (_, v) = moves(&dave, &id, &[&wrong]).await;
        assert_eq!(v["step"], "wrong", "{v}");
        assert!(v["rating"]["after"].as_i64().is_some(), "the next puzzle is rated: {v}");
    }

    // A streak: solve the first, miss the second.
    let (s, v) = dave.post("/puzzles/streaks", json!({ "variant": "standard" })).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let streak = v["id"].as_str().unwrap().to_string();
    let first = v["puzzle"]["id"].as_str().unwrap().to_string();
    let line = solution(&db.url, &first).await;
    let mut played: Vec<&str> = Vec::new();
    let mut last = Value::Null;
    for m in &line {
        played.push(m);
        let (s, v) =
            dave.post(&format!("/puzzles/{first}/moves"), json!({ "moves": played, "streak": streak })).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        last = v;
    }
    assert_eq!(last["step"], "solved", "{last}");
    assert!(last["rating"].is_null(), "a streak is not rated");
    assert_eq!(
        (last["streak"]["solved"].as_i64(), last["streak"]["over"].as_bool()),
        (Some(1), Some(false)),
        "{last}"
    );
    let second = last["streak"]["next"]["id"].as_str().unwrap().to_string();
    // The solved puzzle is no longer the streak's.
    let (s, v) =
        dave.post(&format!("/puzzles/{first}/moves"), json!({ "moves": [line[0]], "streak": streak })).await;
    assert_eq!((s, v["reason"].as_str()), (StatusCode::CONFLICT, Some("streak_over")), "{v}");
    let wrong = wrong_move(&db.url, &second).await;
    let (_, v) =
        dave.post(&format!("/puzzles/{second}/moves"), json!({ "moves": [wrong], "streak": streak })).await;
    assert_eq!(
        (v["step"].as_str(), v["streak"]["over"].as_bool(), v["streak"]["solved"].as_i64()),
        (Some("wrong"), Some(true), Some(1)),
        "{v}"
    );
    let (_, v) = dave.get(&format!("/users/{}/puzzles", dave.name)).await;
    assert_eq!(v["ratings"][0]["best_streak"], 1, "{v}");

    // The day's puzzle is one, whoever asks.
    let (s, a) = dave.get("/puzzles/daily").await;
    assert_eq!(s, StatusCode::OK, "{a}");
    let (_, b) = Client::from_address(&server, "visitor", fresh_address()).get("/puzzles/daily").await;
    assert_eq!((a["id"].clone(), a["variant"].as_str()), (b["id"].clone(), Some("standard")));
    let (s, v) = dave.get("/puzzles/leaders?variant=hex").await;
    assert_eq!((s, v["variant"].as_str()), (StatusCode::OK, Some("hex")), "{v}");
    server.stop().await;
}

on_both_databases!(streaks_started_at_once_stop_at_the_hours_limit_and_leave_no_more_rows);
async fn streaks_started_at_once_stop_at_the_hours_limit_and_leave_no_more_rows(db: Db) {
    let mut config = Config::for_tests(&db.url);
    config.limits.streaks_per_hour = 3;
    let server = xiangqi_server::start(config).await.unwrap();
    seed(&db.url, &[CAPTURE, MATE], 900.0).await;
    let erin = Client::register(&server, "pzs").await;
    let starts = (0..12).map(|_| erin.post("/puzzles/streaks", json!({})));
    let answers = futures_util::future::join_all(starts).await;
    let created = answers.iter().filter(|(s, _)| *s == StatusCode::CREATED).count();
    assert_eq!(created, 3, "{answers:?}");
    for (s, v) in answers.iter().filter(|(s, _)| *s != StatusCode::CREATED) {
        assert_eq!((*s, v["reason"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_often")), "{v}");
        assert_eq!(v["params"]["act"], "streaks", "{v}");
    }
    let store = Store::open(&db.url).await.unwrap();
    let since = store.tally_since(xiangqi_server::store::Tally::Streaks(&erin.name), 0).await.unwrap();
    assert_eq!(since, 3, "one row for each streak allowed");
    server.stop().await;
}

on_both_databases!(only_a_puzzle_the_site_handed_out_is_rated);
async fn only_a_puzzle_the_site_handed_out_is_rated(db: Db) {
    let server = server(&db).await;
    let ids = seed(&db.url, &[CAPTURE, CAPTURE_F, CAPTURE, MATE, CAPTURE_F], 1500.0).await;
    let fay = Client::register(&server, "pzf").await;

    // Opened by its id: played, not rated, and the answer says why.
    let v = solve(&db.url, &fay, &ids[0]).await;
    assert!(v["rating"].is_null(), "{v}");
    assert_eq!(v["unrated"], "opened", "{v}");
    let (_, standing) = fay.get(&format!("/users/{}/puzzles", fay.name)).await;
    assert_eq!(standing["attempts"][0]["rated"], false, "{standing}");

    // The next puzzle is rated; on each board, only the last one handed out.
    let (s, first) = fay.get("/puzzles/next").await;
    assert_eq!(s, StatusCode::OK, "{first}");
    let first = first["id"].as_str().unwrap().to_string();
    let mut last = first.clone();
    for _ in 0..40 {
        let (_, p) = fay.get("/puzzles/next").await;
        last = p["id"].as_str().unwrap().to_string();
        if last != first {
            break;
        }
    }
    assert_ne!(last, first, "the next puzzle is drawn from several");
    let v = solve(&db.url, &fay, &first).await;
    assert_eq!(v["unrated"], "opened", "handed out and then replaced: {v}");
    let v = solve(&db.url, &fay, &last).await;
    assert!(v["rating"]["after"].as_i64().unwrap() > v["rating"]["before"].as_i64().unwrap(), "{v}");

    // The day's puzzle, handed out by asking for it, is rated too.
    let gus = Client::register(&server, "pzg").await;
    let (s, daily) = gus.get("/puzzles/daily").await;
    assert_eq!(s, StatusCode::OK, "{daily}");
    let v = solve(&db.url, &gus, daily["id"].as_str().unwrap()).await;
    assert!(v["rating"]["after"].is_i64(), "{v}");
    server.stop().await;
}
