//! Xiang Hex online: challenges, auto-match and a game played to checkmate
//! through the API, on each database.

mod common;

use common::{Client, Db, new_game, on_both_databases, server};
use reqwest::StatusCode;
use serde_json::json;

/// A short mate on the hex board (found by searching every line from the start):
/// Red's horse goes round to c8 while Black's general walks into the net.
const MATE: [&str; 5] = ["b1d4", "b8d7", "d4b5", "d7e10", "b5c8"];

on_both_databases!(a_hex_game_is_played_to_checkmate_with_cell_names_in_its_moves_and_record);
async fn a_hex_game_is_played_to_checkmate_with_cell_names_in_its_moves_and_record(db: Db) {
    let s = server(&db).await;
    let red = Client::register(&s, "hexr").await;
    let black = Client::register(&s, "hexb").await;
    let id = new_game(&red, &black, "hex").await;
    let (_, v) = red.get(&format!("/games/{id}")).await;
    let game = &v["game"];
    assert_eq!((game["variant"].as_str(), game["rules"].as_str()), (Some("hex"), Some("hex")), "{v}");
    assert_eq!(game["fen"], game["start_fen"]);
    assert!(game["legal"].as_array().unwrap().iter().any(|m| m == "b1d4"), "{v}");

    // Standard notation means nothing on the hex board; a wrong move loses nothing.
    let (st, v) = red.play(&id, 0, "C2=5").await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let (st, v) = red.play(&id, 0, "b1b5").await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["message"].as_str().unwrap().contains("b1b5"), "{v}");

    for (ply, mv) in MATE.iter().enumerate() {
        let mover = if ply % 2 == 0 { &red } else { &black };
        let (st, v) = mover.play(&id, ply as i64, mv).await;
        assert_eq!(st, StatusCode::OK, "{mv}: {v}");
    }
    let (_, v) = black.get(&format!("/games/{id}")).await;
    let game = &v["game"];
    assert_eq!(game["status"], "finished", "{v}");
    assert_eq!(
        (game["outcome"]["winner"].as_str(), game["outcome"]["reason"].as_str()),
        (Some("red"), Some("checkmate"))
    );
    let first = &game["moves"][0];
    assert_eq!(
        (first["iccs"].as_str(), first["wxf"].as_str(), first["chinese"].as_str()),
        (Some("b1d4"), Some("Nb1-d4"), Some("傌b1-d4"))
    );
    assert_eq!(game["moves"][1]["chinese"], "馬b8-d7");

    let pgn = reqwest::get(format!("{}/api/v1/games/{id}/pgn", s.url())).await.unwrap().text().await.unwrap();
    assert!(pgn.contains("[Variant \"hex\"]") && pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("1. b1d4 b8d7 2. d4b5 d7e10 3. b5c8 1-0"), "{pgn}");

    // The game counts in the hex correspondence rating, not the standard one.
    let (_, v) = red.get(&format!("/users/{}", red.name)).await;
    let ratings = v["ratings"].as_array().unwrap();
    assert!(ratings.iter().any(|r| r["category"] == "hex_correspondence"), "{v}");
    assert!(!ratings.iter().any(|r| r["category"] == "standard_correspondence"), "{v}");
}

on_both_databases!(hex_is_offered_where_games_start_and_its_board_takes_only_its_rules);
async fn hex_is_offered_where_games_start_and_its_board_takes_only_its_rules(db: Db) {
    let s = server(&db).await;
    let a = Client::register(&s, "hexa").await;
    let b = Client::register(&s, "hexc").await;
    let live = json!({"kind": "live", "base": 300_000, "increment": 2_000});

    // The variant follows from the rules, and a mismatch is refused naming both.
    let (st, v) = a
        .post("/challenges", json!({"variant": "hex", "rules": "asian", "color": "red", "clock": live}))
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["message"].as_str().unwrap().contains("variant hex"), "{v}");
    let (st, v) = a
        .post("/challenges", json!({"variant": "standard", "rules": "hex", "color": "red", "clock": live}))
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");

    // The waiting room.
    let (st, v) = a.post("/challenges", json!({"rules": "hex", "color": "black", "clock": live})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let open = v["challenge"]["id"].as_str().unwrap().to_string();
    let (st, v) = b.post(&format!("/challenges/{open}/accept"), json!({})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(
        (v["game"]["variant"].as_str(), v["game"]["red"].as_str()),
        (Some("hex"), Some(b.name.as_str()))
    );
    assert!(v["game"]["clocks"].is_object(), "a live hex game has clocks: {v}");

    // Auto-match pairs hex requests with each other only.
    let (st, _) = a.post("/automatch", json!({"rules": "hex", "clock": live, "rated": false})).await;
    assert_eq!(st, StatusCode::ACCEPTED);
    let (st, v) = b.post("/automatch", json!({"rules": "asian", "clock": live, "rated": false})).await;
    assert_eq!(st, StatusCode::ACCEPTED, "a standard request does not take the hex one: {v}");
    let standard = v["challenge"]["id"].as_str().unwrap().to_string();
    let (st, v) =
        b.post("/automatch", json!({"variant": "hex", "rules": "hex", "clock": live, "rated": false})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(v["game"]["variant"], "hex");
    // The standard request waits still; it is withdrawn, leaving the shared database clean.
    assert_eq!(b.delete(&format!("/challenges/{standard}")).await.0, StatusCode::NO_CONTENT);

    // Ladders of the hex categories.
    let (st, v) = a.post("/ladders/hex_live/join", json!({})).await;
    // At the bottom of the hex ladder (others may be on it in a shared database).
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert!(v["position"].as_i64().is_some_and(|p| p >= 1), "{v}");
}
