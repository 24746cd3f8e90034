//! Analysis through the API, on each database: positions along a line (and the
//! rules' reasons for a refused position or move), the engine's live analysis
//! as Server-Sent Events with its per-user limits, and game reviews computed
//! once and served.

mod common;

use std::time::Duration;

use common::{Client, Db, new_game, on_both_databases, server};
use reqwest::StatusCode;
use serde_json::{Value, json};
use xiangqi_server::Config;

/// A short mate on the hex board (as in `tests/hex.rs`).
const HEX_MATE: [&str; 5] = ["b1d4", "b8d7", "d4b5", "d7e10", "b5c8"];

/// An open analysis stream, read an event at a time.
struct Stream {
    res: reqwest::Response,
    buffer: String,
}

impl Stream {
    /// The next event's name and data, or None once the stream has ended.
    async fn next(&mut self) -> Option<(String, Value)> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let (mut name, mut data) = (String::new(), String::new());
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        name = v.trim().to_string();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push_str(v.trim_start());
                    }
                }
                // Keep-alive comments carry neither.
                if name.is_empty() && data.is_empty() {
                    continue;
                }
                return Some((name, serde_json::from_str(&data).expect("an event's data is JSON")));
            }
            let chunk = tokio::time::timeout(Duration::from_secs(60), self.res.chunk())
                .await
                .expect("the stream says something within a minute")
                .expect("the stream reads");
            self.buffer.push_str(std::str::from_utf8(&chunk?).unwrap());
        }
    }

    /// Every event up to the end of the stream.
    async fn rest(&mut self) -> Vec<(String, Value)> {
        let mut all = Vec::new();
        while let Some(e) = self.next().await {
            all.push(e);
        }
        all
    }
}

/// Opens an analysis; a refusal comes back as its status and JSON body.
async fn analyse(c: &Client, query: &[(&str, &str)]) -> Result<Stream, (StatusCode, Value)> {
    let res = c.http.get(format!("{}/analysis", c.base)).query(query).send().await.unwrap();
    if res.status() != StatusCode::OK {
        let status = res.status();
        return Err((status, res.json().await.unwrap_or(Value::Null)));
    }
    let kind = res.headers()["content-type"].to_str().unwrap().to_string();
    assert!(kind.starts_with("text/event-stream"), "{kind}");
    Ok(Stream { res, buffer: String::new() })
}

/// Whether every move of a line can be played from `fen`, asking the server.
async fn legal_line(c: &Client, variant: &str, fen: &str, line: &[Value]) -> bool {
    let moves: Vec<&str> = line.iter().map(|m| m["iccs"].as_str().unwrap()).collect();
    let (s, _) = c.post("/positions", json!({"variant": variant, "fen": fen, "moves": moves})).await;
    s == StatusCode::OK
}

on_both_databases!(positions_along_a_line_and_what_is_wrong_with_a_position_or_a_move);
async fn positions_along_a_line_and_what_is_wrong_with_a_position_or_a_move(db: Db) {
    let s = server(&db).await;
    let visitor = Client::new(&s, "visitor");

    let (st, v) = visitor.post("/positions", json!({"moves": ["C2=5", "马8进7", "h0g2"]})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!((v["variant"].as_str(), v["rules"].as_str()), (Some("standard"), Some("asian")));
    let positions = v["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 4);
    assert!(positions[0]["played"].is_null());
    assert_eq!(positions[1]["played"]["iccs"], "h2e2");
    assert_eq!(positions[2]["played"]["wxf"], "H8+7");
    assert_eq!(positions[3]["played"]["chinese"], "马二进三");
    assert_eq!(positions[3]["turn"], "black");
    assert!(positions[3]["legal"].as_array().unwrap().iter().any(|m| m == "i9h9"), "{v}");
    assert!(positions[3]["outcome"].is_null());

    // A position set up by hand that the rules refuse says why.
    let cases = [
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "too many red generals"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", "generals face each other"),
        ("3k5/9/9/9/9/9/9/9/B8/4K4 w", "can never stand on a1"),
        ("4k4/9/9/9/9/9/9/9/9/9 w", "red has no general"),
        ("3k5/9/9/9/9/9/9/9/9/3RK4 w", "black is in check but it is red's turn"),
        ("rnbakabnr/9", "rows"),
    ];
    for (fen, says) in cases {
        let (st, v) = visitor.post("/positions", json!({"fen": fen})).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{fen}: {v}");
        assert_eq!(v["error"], "bad_request");
        assert!(v["message"].as_str().unwrap().contains(says), "{fen}: {v}");
    }

    // An illegal move names itself, its number and why; a game over takes no more.
    let (st, v) = visitor.post("/positions", json!({"moves": ["h2e2", "h9g7", "e2e9"]})).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let message = v["message"].as_str().unwrap();
    assert!(message.starts_with("move 3 (e2e9)"), "{v}");
    let (st, v) = visitor.post("/positions", json!({"variant": "hex", "moves": HEX_MATE})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let last = &v["positions"][5];
    assert_eq!(last["outcome"]["reason"], "checkmate", "{v}");
    assert_eq!(last["legal"], json!([]));
    assert_eq!(v["positions"][1]["played"]["wxf"], "Nb1-d4");
    let mut longer: Vec<&str> = HEX_MATE.to_vec();
    longer.push("e10e9");
    let (st, v) = visitor.post("/positions", json!({"variant": "hex", "moves": longer})).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["message"].as_str().unwrap().contains("already over"), "{v}");

    // Rules of the other board, and fields it does not know, are refused.
    let (st, v) = visitor.post("/positions", json!({"variant": "hex", "rules": "asian"})).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    let (st, _) = visitor.post("/positions", json!({"position": "x"})).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    s.stop().await;
}

on_both_databases!(an_analysis_of_a_fen_streams_depths_with_a_legal_principal_variation);
async fn an_analysis_of_a_fen_streams_depths_with_a_legal_principal_variation(db: Db) {
    let s = server(&db).await;
    let visitor = Client::new(&s, "visitor");
    let err = analyse(&visitor, &[("depth", "3")]).await.err().unwrap();
    assert_eq!(err.0, StatusCode::UNAUTHORIZED, "analysis needs a log-in: {err:?}");

    let user = Client::register(&s, "ana").await;
    let (_, v) = user.post("/positions", json!({"moves": ["h2e2", "h9g7"]})).await;
    let fen = v["positions"][2]["fen"].as_str().unwrap().to_string();
    let mut stream = analyse(&user, &[("fen", &fen), ("depth", "6")]).await.unwrap();
    let events = stream.rest().await;
    let infos: Vec<&Value> = events.iter().filter(|(n, _)| n == "info").map(|(_, d)| d).collect();
    assert!(!infos.is_empty(), "{events:?}");
    let mut depth = 0;
    for info in &infos {
        assert_eq!(info["type"], "info");
        assert!(info["depth"].as_i64().unwrap() > depth, "depths grow: {info}");
        depth = info["depth"].as_i64().unwrap();
        let pv = info["pv"].as_array().unwrap();
        assert!(!pv.is_empty(), "{info}");
        assert!(legal_line(&user, "standard", &fen, pv).await, "the principal variation is legal: {info}");
        assert!(pv[0]["wxf"].as_str().is_some() && pv[0]["chinese"].as_str().is_some(), "{info}");
        assert!(info["nodes"].as_u64().unwrap() > 0);
        // Red is to move: both views agree.
        assert_eq!(info["score"], info["red"], "{info}");
        assert!(["cp", "mate"].contains(&info["score"]["kind"].as_str().unwrap()), "{info}");
    }
    assert_eq!(depth, 6);
    let (name, done) = events.last().unwrap();
    assert_eq!(name, "done", "{events:?}");
    assert_eq!(done["reason"], "limit");
    assert_eq!(done["depth"], 6);
    assert!(done["best"]["iccs"].as_str().is_some(), "{done}");

    // From Black's side the two views are opposite.
    let (_, v) = user.post("/positions", json!({"moves": ["h2e2"]})).await;
    let fen = v["positions"][1]["fen"].as_str().unwrap().to_string();
    let mut stream = analyse(&user, &[("fen", &fen), ("depth", "4")]).await.unwrap();
    let (_, info) = stream.next().await.unwrap();
    let (side, red) = (&info["score"], &info["red"]);
    if side["kind"] == "cp" {
        assert_eq!(side["value"].as_i64().unwrap(), -red["value"].as_i64().unwrap(), "{info}");
    }
    stream.rest().await;

    // The hex board, by its moves from the start; a finished position has nothing to search.
    let mut stream =
        analyse(&user, &[("variant", "hex"), ("moves", "b1d4 b8d7"), ("depth", "3")]).await.unwrap();
    let events = stream.rest().await;
    let (_, v) = user.post("/positions", json!({"variant": "hex", "moves": ["b1d4", "b8d7"]})).await;
    let hex_fen = v["positions"][2]["fen"].as_str().unwrap().to_string();
    let info = &events.iter().find(|(n, _)| n == "info").expect("an info").1;
    assert!(legal_line(&user, "hex", &hex_fen, info["pv"].as_array().unwrap()).await, "{info}");
    let mut stream = analyse(&user, &[("variant", "hex"), ("moves", &HEX_MATE.join(","))]).await.unwrap();
    let events = stream.rest().await;
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].1["reason"], "over");

    // Bad requests say what is wrong before any stream.
    let (st, v) = analyse(&user, &[("fen", "4k4/9/9/9/9/9/9/9/9/4K4 w")]).await.err().unwrap();
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(v["message"].as_str().unwrap().contains("face each other"), "{v}");
    let (st, v) = analyse(&user, &[("moves", "h2e2 h2e2")]).await.err().unwrap();
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let (st, v) = analyse(&user, &[("time", "60000")]).await.err().unwrap();
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["message"].as_str().unwrap().contains("20000"), "{v}");
    let (st, _) = analyse(&user, &[("ponder", "1")]).await.err().unwrap();
    assert_eq!(st, StatusCode::BAD_REQUEST);
    s.stop().await;
}

on_both_databases!(a_user_runs_one_analysis_at_a_time_and_so_many_a_minute);
async fn a_user_runs_one_analysis_at_a_time_and_so_many_a_minute(db: Db) {
    let s =
        xiangqi_server::start(Config { analyses_per_minute: 3, ..Config::for_tests(&db.url) }).await.unwrap();
    let user = Client::register(&s, "lim").await;
    let other = Client::register(&s, "limo").await;

    // A long analysis is stopped by the same user's next one, and says so.
    let mut long = analyse(&user, &[("time", "20000")]).await.unwrap();
    let (name, _) = long.next().await.unwrap();
    assert!(name == "info" || name == "queued", "{name}");
    let started = std::time::Instant::now();
    let mut short = analyse(&user, &[("depth", "2")]).await.unwrap();
    let ended = long.rest().await;
    let (name, done) = ended.last().unwrap();
    assert_eq!((name.as_str(), done["reason"].as_str()), ("done", Some("replaced")), "{ended:?}");
    assert!(started.elapsed() < Duration::from_secs(10), "the first stopped at once");
    let events = short.rest().await;
    assert_eq!(events.last().unwrap().1["reason"], "limit", "{events:?}");
    analyse(&user, &[("depth", "1")]).await.unwrap().rest().await;

    // The fourth in a minute is refused with the reason and when to come back.
    let (st, v) = analyse(&user, &[("depth", "1")]).await.err().unwrap();
    assert_eq!(st, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["error"], "too_many_requests");
    let message = v["message"].as_str().unwrap();
    assert!(message.contains("3 analyses a minute") && message.contains("try again in"), "{message}");
    // Another user has their own allowance.
    let mut theirs = analyse(&other, &[("depth", "1")]).await.unwrap();
    theirs.rest().await;
    s.stop().await;
}

on_both_databases!(a_busy_engine_queues_the_next_analysis_and_a_closed_stream_frees_it);
async fn a_busy_engine_queues_the_next_analysis_and_a_closed_stream_frees_it(db: Db) {
    let s = xiangqi_server::start(Config { engines: Some(1), ..Config::for_tests(&db.url) }).await.unwrap();
    let first = Client::register(&s, "busy").await;
    let second = Client::register(&s, "wait").await;
    let mut long = analyse(&first, &[("time", "20000")]).await.unwrap();
    assert_eq!(long.next().await.unwrap().0, "info");
    let mut waiting = analyse(&second, &[("depth", "3")]).await.unwrap();
    let (name, queued) = waiting.next().await.unwrap();
    assert_eq!((name.as_str(), &queued["waiting"]), ("queued", &json!(1)), "{queued}");
    // Closing the first stream stops its search: the second runs at once,
    // not 20 s later.
    let closed = std::time::Instant::now();
    drop(long);
    let events = waiting.rest().await;
    assert_eq!(events.last().unwrap().1["reason"], "limit", "{events:?}");
    assert!(closed.elapsed() < Duration::from_secs(8), "{:?}", closed.elapsed());
    s.stop().await;
}

/// Red and Black play `moves` in a new game, then Red resigns: the game's id.
async fn finished_game(red: &Client, black: &Client, moves: &[&str]) -> String {
    let id = new_game(red, black, "asian").await;
    for (ply, mv) in moves.iter().enumerate() {
        let mover = if ply % 2 == 0 { red } else { black };
        let (st, v) = mover.play(&id, ply as i64, mv).await;
        assert_eq!(st, StatusCode::OK, "{mv}: {v}");
    }
    let resigner = if moves.len() % 2 == 0 { red } else { black };
    let (st, v) = resigner.post(&format!("/games/{id}/resign"), json!({})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    id
}

on_both_databases!(a_review_of_a_finished_game_is_computed_once_stored_and_served);
async fn a_review_of_a_finished_game_is_computed_once_stored_and_served(db: Db) {
    let s = server(&db).await;
    let red = Client::register(&s, "revr").await;
    let black = Client::register(&s, "revb").await;
    let watcher = Client::register(&s, "revw").await;

    // Not while it is played.
    let active = new_game(&red, &black, "asian").await;
    let (st, v) = red.post(&format!("/games/{active}/review"), json!({})).await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");
    assert!(v["message"].as_str().unwrap().contains("still being played"), "{v}");

    let moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"];
    let id = finished_game(&red, &black, &moves).await;
    let path = format!("/games/{id}/review");
    let (st, v) = watcher.get(&path).await;
    assert_eq!((st, &v["review"]), (StatusCode::OK, &Value::Null), "none asked for yet: {v}");
    let visitor = Client::new(&s, "visitor");
    let (st, _) = visitor.post(&path, json!({})).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED);

    // Two asking at once: one computes, the other finds it under way.
    let ((a, va), (b, vb)) = tokio::join!(watcher.post(&path, json!({})), red.post(&path, json!({})));
    let mut statuses = [a, b];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::ACCEPTED], "{va} {vb}");
    assert_eq!(va["review"]["total"], 7, "{va}");

    // Up to 21 searches of 500,000 nodes on a machine busy with other
    // tests: wait minutes, not seconds, before calling the worker stuck.
    let mut review = Value::Null;
    for _ in 0..1200 {
        let (_, v) = black.get(&path).await;
        review = v["review"].clone();
        if review["status"] == "done" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert_eq!(review["status"], "done", "{review}");
    assert_eq!(review["done"], 7);
    let positions = review["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 7);
    for (ply, p) in positions.iter().enumerate() {
        assert_eq!(p["ply"], ply as i64);
        assert!(p["red_cp"].as_i64().unwrap().abs() <= 1000, "{p}");
        assert!(
            p["best"]["iccs"].as_str().is_some(),
            "a resigned game's positions all have a best move: {p}"
        );
    }
    let judged = review["moves"].as_array().unwrap();
    assert_eq!(judged.len(), moves.len(), "one judgement per move: {review}");
    for (i, m) in judged.iter().enumerate() {
        assert_eq!(m["ply"], i as i64 + 1);
        assert_eq!(m["played"]["iccs"], moves[i]);
        assert_eq!(m["color"], if i % 2 == 0 { "red" } else { "black" });
        assert!(["good", "inaccuracy", "mistake", "blunder"].contains(&m["class"].as_str().unwrap()), "{m}");
    }
    let count = |side: &str| -> i64 {
        ["good", "inaccuracy", "mistake", "blunder"].iter().map(|k| review[side][k].as_i64().unwrap()).sum()
    };
    assert_eq!((count("red"), count("black")), (3, 3), "{review}");
    assert_eq!(review["thresholds"]["blunder"], 25, "percentage points of expected score");

    // Asking again changes nothing; a new server on the same database serves it as stored.
    let (st, v) = black.post(&path, json!({})).await;
    assert_eq!((st, &v["review"]["status"]), (StatusCode::OK, &json!("done")));
    s.stop().await;
    let again = server(&db).await;
    let reader = Client::new(&again, "reader");
    let (st, v) = reader.get(&path).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(v["review"], review, "the stored review, unchanged");
    let (st, _) = reader.get("/games/nonesuch/review").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    again.stop().await;
}
