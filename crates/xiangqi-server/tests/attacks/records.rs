//! Records of hostile shape, to every endpoint that takes a game or a tree of
//! moves: a main line of thousands of moves, variations nested thousands
//! deep, a file of one 100,000-ply game, a file of more moves than a file may
//! hold, move lists past every line limit and JSON nested past the parser's.
//! Each answers a clear refusal (or a report that refuses the record) and the
//! server, which runs in this test's process, still answers afterwards: a
//! stack overflow anywhere would end the test run itself.

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::common::{Client, Db, on_both_databases, server};

/// Horses out and back: the `i`-th move of a line that is legal for ever.
fn shuffle(i: usize) -> &'static str {
    ["h0g2", "h9g7", "g2h0", "g7h9"][i % 4]
}

/// A record whose main line has `plies` moves.
fn long_game(plies: usize) -> String {
    let moves: Vec<&str> = (0..plies).map(shuffle).collect();
    format!("[Event \"long\"]\n\n{} *\n", moves.join(" "))
}

/// A record whose moves each open a variation inside the one before,
/// `depth` deep: `c3c4 (h0g2 c7c6 (h9g7 ...`.
fn nested_game(depth: usize) -> String {
    let mut text = String::from("[Event \"nested\"]\n\n");
    for i in 0..depth {
        // Each side's pawn push is the main move, the horse its variation.
        let main = if i % 2 == 0 { "c3c4" } else { "c6c5" };
        text.push_str(&format!("{main} ({} ", shuffle(i)));
    }
    text.push_str(&")".repeat(depth));
    text.push_str(" *\n");
    text
}

async fn alive(url: &str) {
    let r = reqwest::get(format!("{url}/healthz")).await.expect("the server answers");
    assert_eq!(r.status(), StatusCode::OK);
}

fn refused(status: StatusCode, body: &Value) {
    assert!(status.is_client_error(), "{status} {body}");
    assert!(body["reason"].is_string() && body["message"].is_string(), "a clear refusal: {body}");
}

on_both_databases!(hostile_records_are_refused_and_the_server_lives);
async fn hostile_records_are_refused_and_the_server_lives(db: Db) {
    let s = server(&db).await;
    let owner = Client::register(&s, "rec").await;
    let (st, v) = owner.post("/studies", json!({"title": "shapes"})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let chapters = format!("/studies/{}/chapters", v["study"]["id"].as_str().unwrap());
    let version = v["study"]["version"].as_i64().unwrap();

    // The report's case: a 6,500-move main line, about 33 kB.
    let game = long_game(6_500);
    assert!(game.len() < 64 * 1024, "{}", game.len());
    let (st, v) = owner.post(&chapters, json!({"version": version, "pgn": game})).await;
    refused(st, &v);
    assert_eq!(st, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert_eq!(v["reason"], "record_limit", "{v}");
    alive(&s.url()).await;

    // Variations nested 3,000 deep, under the body limit.
    let nested = nested_game(3_000);
    assert!(nested.len() < 64 * 1024, "{}", nested.len());
    let (st, v) = owner.post(&chapters, json!({"version": version, "pgn": nested})).await;
    refused(st, &v);
    assert_eq!(
        (v["reason"].as_str(), v["params"]["limit"].as_str()),
        (Some("record_limit"), Some("variation_depth")),
        "{v}"
    );
    alive(&s.url()).await;

    // Nothing was added: the study is as it was.
    let (_, study) = owner.get(&chapters.replace("/chapters", "")).await;
    assert_eq!(study["study"]["version"].as_i64(), Some(version), "{study}");
    assert_eq!(study["study"]["chapters"].as_array().map(Vec::len), Some(1));

    // JSON nested deeper than any request: refused by the parser, not a stack.
    let deep_json = format!("{}1{}", "[".repeat(20_000), "]".repeat(20_000));
    let r = owner
        .http
        .post(format!("{}{chapters}", owner.base))
        .header("X-Xiangqi", "1")
        .header("Content-Type", "application/json")
        .body(deep_json)
        .send()
        .await
        .unwrap();
    assert!(r.status().is_client_error(), "{}", r.status());
    alive(&s.url()).await;

    // One 100,000-ply game in a file: the file is taken, the record refused on its own.
    let file = format!("{}\n[Event \"short\"]\n\nh2e2 h9g7 h0g2 i9h9 *\n", long_game(100_000));
    assert!(file.len() < 2 * 1024 * 1024, "{}", file.len());
    let r = owner.upload(file).await;
    let st = r.status();
    let report: Value = r.json().await.unwrap();
    assert_eq!(st, StatusCode::CREATED, "{report}");
    assert_eq!(report["kept"].as_array().map(Vec::len), Some(1), "{report}");
    let refused_game = &report["refused"][0];
    assert_eq!(
        (refused_game["number"].as_i64(), refused_game["problem"].as_str()),
        (Some(1), Some("limit")),
        "{report}"
    );
    alive(&s.url()).await;

    // A file holding more moves than a file may: 413 before any is read.
    let moves: Vec<&str> = (0..400_001).map(shuffle).collect();
    let file = moves.join(" ");
    assert!(file.len() < 2 * 1024 * 1024, "{}", file.len());
    let r = owner.upload(file).await;
    let st = r.status();
    let v: Value = r.json().await.unwrap();
    assert_eq!(
        (st, v["params"]["limit"].as_str()),
        (StatusCode::PAYLOAD_TOO_LARGE, Some("nodes_per_file")),
        "{v}"
    );

    // Move lists past every line limit: positions, analysis and puzzles.
    let many: Vec<&str> = (0..10_000).map(shuffle).collect();
    let (st, v) = owner.post("/positions", json!({"moves": many})).await;
    refused(st, &v);
    let (st, v) = owner.get(&format!("/analysis?moves={}&depth=1", many[..3_000].join(","))).await;
    refused(st, &v);
    let (st, v) = owner.post("/puzzles/none/moves", json!({"moves": many})).await;
    assert!(st.is_client_error(), "{st} {v}");
    alive(&s.url()).await;
    s.stop().await;
}
