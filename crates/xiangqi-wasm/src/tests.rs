use serde_json::{Value, json};

use super::handle;

fn ask(request: Value) -> (Value, Vec<Value>) {
    let mut infos = Vec::new();
    let answer = handle(&request.to_string(), &mut |t| infos.push(serde_json::from_str(t).unwrap()));
    (serde_json::from_str(&answer).unwrap(), infos)
}

#[test]
fn a_line_answers_every_position_as_the_server_does() {
    let (v, _) = ask(json!({"op": "line", "moves": ["h2e2", "H8+7", "马二进三"]}));
    assert_eq!((v["variant"].as_str(), v["rules"].as_str()), (Some("standard"), Some("asian")));
    let p = v["positions"].as_array().unwrap();
    assert_eq!(p.len(), 4);
    assert_eq!(p[0]["legal"].as_array().unwrap().len(), 44);
    assert_eq!(p[0]["played"], Value::Null);
    assert_eq!(p[1]["played"], json!({"iccs": "h2e2", "wxf": "C2=5", "chinese": "炮二平五"}));
    assert_eq!(p[2]["played"]["iccs"], "h9g7");
    assert_eq!(p[3]["played"]["iccs"], "h0g2");
    assert_eq!(p[3]["turn"], "black");
    assert_eq!(p[3]["check"], false);
}

#[test]
fn bad_requests_are_refused_with_a_reason() {
    for (request, reason) in [
        (json!({"op": "line", "moves": ["h2h8"]}), "illegal_move"),
        (json!({"op": "line", "fen": "nonsense"}), "bad_position"),
        (json!({"op": "line", "variant": "hex", "rules": "asian"}), "rules_mismatch"),
        (json!({"op": "line", "rules": "nope"}), "bad_rules"),
        (json!({"op": "fly"}), "malformed"),
        (json!({"op": "search", "depth": 0}), "depth"),
        (json!({"op": "search"}), "no_limit"),
        (json!({"op": "search", "depth": 2, "lines": 9}), "lines"),
        (json!({"op": "perft", "depth": 7}), "depth"),
    ] {
        let (v, _) = ask(request.clone());
        assert_eq!(v["error"]["reason"], reason, "{request}: {v}");
    }
    let (v, _) = ask(json!({"op": "line", "moves": vec!["h2e2"; super::MAX_LINE + 1]}));
    assert_eq!(v["error"]["reason"], "line_length");
}

#[test]
fn perft_counts_both_boards() {
    assert_eq!(ask(json!({"op": "perft", "depth": 3})).0["nodes"], 79_666);
    let hex = ask(json!({"op": "perft", "variant": "hex", "depth": 1})).0;
    assert!(hex["nodes"].as_u64().unwrap() > 0, "{hex}");
}

#[test]
fn a_search_reports_each_depth_and_answers_its_lines() {
    let (v, infos) = ask(json!({"op": "search", "depth": 4, "lines": 2}));
    assert!(v["best"].as_str().is_some(), "{v}");
    assert_eq!(v["lines"].as_array().unwrap().len(), 2);
    assert_eq!(infos.iter().filter(|i| i["line"] == 1).count(), 4, "a report per depth: {infos:?}");
    assert!(infos.iter().any(|i| i["line"] == 2));
    let last = infos.iter().rev().find(|i| i["line"] == 1).unwrap();
    assert_eq!(last["pv"][0]["iccs"], v["best"]);
    // Mate in one is found and said so.
    let (v, _) = ask(json!({"op": "search", "fen": "4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1", "depth": 3}));
    assert_eq!(v["lines"][0]["score"], json!({"kind": "mate", "value": 1}), "{v}");
}

#[test]
fn pgn_is_written_and_read_back() {
    let (v, _) = ask(
        json!({"op": "pgn_write", "moves": ["h2e2", "h9g7"], "tags": [["Red", "Lu"]], "notation": "wxf"}),
    );
    let text = v["text"].as_str().unwrap();
    assert!(text.contains("[Red \"Lu\"]") && text.contains("C2=5"), "{text}");
    let (v, _) = ask(json!({"op": "pgn_read", "text": text}));
    let game = &v.as_array().unwrap()[0];
    let moves: Vec<&str> =
        game["moves"].as_array().unwrap().iter().map(|m| m["iccs"].as_str().unwrap()).collect();
    assert_eq!(moves, ["h2e2", "h9g7"]);
    let (v, _) = ask(json!({"op": "pgn_read", "text": "1. h2h8 *"}));
    assert!(v[0]["error"].is_string(), "{v}");
}

#[test]
fn the_computer_answers_at_every_level_and_keeps_to_its_seed() {
    for level in 1..=8 {
        let (v, _) = ask(json!({"op": "computer_move", "moves": ["h2e2"], "level": level, "seed": 7}));
        assert!(v["move"]["iccs"].is_string(), "level {level}: {v}");
    }
    let once = ask(json!({"op": "computer_move", "level": 3, "seed": 11})).0;
    ask(json!({"op": "new_game"}));
    assert_eq!(ask(json!({"op": "computer_move", "level": 3, "seed": 11})).0, once);
    assert_eq!(ask(json!({"op": "computer_move", "level": 9})).0["error"]["reason"], "level");
    let over = json!({"op": "computer_move", "fen": "4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1", "moves": ["a0a9"], "level": 1});
    assert_eq!(ask(over).0["error"]["reason"], "game_over");
    let hex = ask(json!({"op": "computer_move", "variant": "hex", "level": 2})).0;
    assert!(hex["move"]["iccs"].is_string(), "{hex}");
}
