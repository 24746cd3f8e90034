//! The games database, the opening explorer, PGN imports and a player's
//! archive, on SQLite and PostgreSQL.
//! The PostgreSQL database is shared with earlier runs, so the explorer's
//! counts are compared before and after, under a rule set no other test here
//! plays.

mod common;

use common::{Client, Db, MATING_GAME, new_game, on_both_databases, server};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Plays moves in turn from `ply`, Red's (`a`) and Black's (`b`).
async fn play_line(a: &Client, b: &Client, game: &str, from: i64, moves: &str) {
    for (i, mv) in moves.split_whitespace().enumerate() {
        let ply = from + i as i64;
        let who = if ply % 2 == 0 { a } else { b };
        let (s, v) = who.play(game, ply, mv).await;
        assert_eq!(s, StatusCode::OK, "{mv} at {ply}: {v}");
    }
}

fn ids(v: &Value) -> Vec<String> {
    v["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()).collect()
}

on_both_databases!(finished_games_are_found_by_every_filter_a_page_at_a_time);
async fn finished_games_are_found_by_every_filter_a_page_at_a_time(db: Db) {
    let s = server(&db).await;
    let a = Client::register(&s, "dba").await;
    let b = Client::register(&s, "dbb").await;
    let mated = new_game(&a, &b, "asian").await;
    play_line(&a, &b, &mated, 0, MATING_GAME).await;
    let resigned = new_game(&b, &a, "asian").await;
    play_line(&b, &a, &resigned, 0, "c3c4 g6g5").await;
    assert_eq!(b.post(&format!("/games/{resigned}/resign"), json!({})).await.0, StatusCode::OK);
    let playing = new_game(&a, &b, "asian").await;

    let find = |q: String| {
        let a = &a;
        async move {
            let (st, v) = a.get(&format!("/database/games?{q}")).await;
            assert_eq!(st, StatusCode::OK, "{q}: {v}");
            v
        }
    };
    let (pa, pb) = (&a.name, &b.name);
    let all = ids(&find(format!("player={pa}")).await);
    assert_eq!(all, [resigned.as_str(), mated.as_str()], "newest first, finished only");
    assert!(!all.contains(&playing));
    assert_eq!(ids(&find(format!("player={pa}&opponent={pb}")).await).len(), 2);
    assert_eq!(ids(&find(format!("opponent={pb}")).await).len(), 2, "an opponent alone is a player");
    assert_eq!(ids(&find(format!("player={pa}&result=red")).await), [mated.as_str()]);
    assert_eq!(ids(&find(format!("player={pa}&result=black")).await), [resigned.as_str()]);
    assert!(ids(&find(format!("player={pa}&result=draw")).await).is_empty());
    assert_eq!(ids(&find(format!("player={pa}&reason=checkmate")).await), [mated.as_str()]);
    assert_eq!(ids(&find(format!("player={pa}&reason=resignation")).await), [resigned.as_str()]);
    assert!(ids(&find(format!("player={pa}&rules=casual")).await).is_empty());
    assert_eq!(ids(&find(format!("player={pa}&rules=asian&variant=standard")).await).len(), 2);
    assert_eq!(ids(&find(format!("player={pa}&speed=correspondence")).await).len(), 2);
    assert!(ids(&find(format!("player={pa}&speed=blitz")).await).is_empty());
    assert_eq!(ids(&find(format!("player={pa}&rated=true")).await).len(), 2);
    assert!(ids(&find(format!("player={pa}&rated=false")).await).is_empty());
    assert!(ids(&find(format!("player={pa}&since=99999999999999")).await).is_empty());
    assert_eq!(ids(&find(format!("player={pa}&until=99999999999999&since=1")).await).len(), 2);
    // By the moves from the start, and by the position they reach.
    assert_eq!(ids(&find(format!("player={pa}&moves=c3c4%20g6g5")).await), [resigned.as_str()]);
    assert_eq!(ids(&find(format!("player={pa}&moves=P7%2B1")).await), [resigned.as_str()], "any notation");
    assert_eq!(ids(&find(format!("player={pa}&moves=b0c2%20b9c7%20h0g2")).await), [mated.as_str()]);
    let found = ids(&find("moves=c3c4%20g6g5&reason=resignation&limit=100".into()).await);
    assert!(found.contains(&resigned), "without a player too");
    let fen = "rnbakabnr/9/1c5c1/p1p1p3p/6p2/2P6/P3P1P1P/1C5C1/9/RNBAKABNR w - - 0 2";
    let q = format!("player={pa}&fen={}", urlencode(fen));
    assert_eq!(ids(&find(q).await), [resigned.as_str()]);
    // Keyset pages.
    let first = find(format!("player={pa}&limit=1")).await;
    assert_eq!(ids(&first), [resigned.as_str()]);
    let next = first["next"].as_str().unwrap();
    let second = find(format!("player={pa}&limit=1&after={next}")).await;
    assert_eq!(ids(&second), [mated.as_str()]);
    assert!(second["next"].is_null());
    // Bad input is refused, each with its reason.
    let (st, v) = a.get("/database/games?moves=h2e2%20a0a5").await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["reason"], "illegal_move");
    assert_eq!(v["params"]["number"], 2);
    let (st, v) = a.get("/database/games?fen=nonsense").await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["reason"], "bad_position");
    let (st, v) = a.get("/database/games?result=won").await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");

    // The archive: every finished game of the player as one PGN file.
    let res = a.http.get(format!("{}/users/{pa}/games.pgn", a.base)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers()["content-type"].to_str().unwrap().starts_with("application/x-chess-pgn"));
    let text = res.text().await.unwrap();
    assert_eq!(text.matches("[Game \"Chinese Chess\"]").count(), 2, "{text}");
    assert!(text.contains(&format!("game {mated}")) && text.contains(&format!("game {resigned}")));
    assert!(text.contains("[Termination \"checkmate\"]"), "{text}");
    let (st, _) = a.get("/users/nobody-here-at-all/games.pgn").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    s.stop().await;
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The explorer's line for a move from a position (zeros if none).
async fn explorer_move(c: &Client, moves: &str, query: &str, mv: &str) -> [i64; 4] {
    let (st, v) = c.get(&format!("/explorer?moves={}&{query}", urlencode(moves))).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["plies"], 40);
    let found = v["moves"].as_array().unwrap().iter().find(|m| m["iccs"] == mv).cloned();
    found.map_or([0; 4], |m| ["games", "red_wins", "draws", "black_wins"].map(|k| m[k].as_i64().unwrap()))
}

fn delta(after: [i64; 4], before: [i64; 4]) -> [i64; 4] {
    [0, 1, 2, 3].map(|i| after[i] - before[i])
}

on_both_databases!(the_explorer_counts_finished_games_by_position_once_per_game);
async fn the_explorer_counts_finished_games_by_position_once_per_game(db: Db) {
    let s = server(&db).await;
    let a = Client::register(&s, "exa").await;
    let b = Client::register(&s, "exb").await;
    const CASUAL: &str = "rules=casual";
    let p = "h2e2 h9g7 b0c2";
    let before_p = explorer_move(&a, p, CASUAL, "b9c7").await;
    let before_start = explorer_move(&a, "", CASUAL, "h2e2").await;
    let before_start_b = explorer_move(&a, "", CASUAL, "b0c2").await;

    // A: reaches P by h2e2 h9g7 b0c2, Red resigns.
    let ga = new_game(&a, &b, "casual").await;
    play_line(&a, &b, &ga, 0, "h2e2 h9g7 b0c2 b9c7").await;
    let unchanged = explorer_move(&a, p, CASUAL, "b9c7").await;
    assert_eq!(unchanged, before_p, "a game counts once it is over");
    assert_eq!(a.post(&format!("/games/{ga}/resign"), json!({})).await.0, StatusCode::OK);
    // B: reaches P by another order (a transposition), Black resigns.
    let gb = new_game(&a, &b, "casual").await;
    play_line(&a, &b, &gb, 0, "b0c2 h9g7 h2e2 b9c7").await;
    assert_eq!(b.post(&format!("/games/{gb}/resign"), json!({})).await.0, StatusCode::OK);
    // C: comes back to the start (h2e2 twice from it, counted once), then P; a draw.
    let gc = new_game(&a, &b, "casual").await;
    play_line(&a, &b, &gc, 0, "h2e2 h9g7 e2h2 g7h9 h2e2 h9g7 b0c2 b9c7").await;
    assert_eq!(a.post(&format!("/games/{gc}/draw"), json!({"action": "offer"})).await.0, StatusCode::OK);
    assert_eq!(b.post(&format!("/games/{gc}/draw"), json!({"action": "accept"})).await.0, StatusCode::OK);

    let after_p = explorer_move(&a, p, CASUAL, "b9c7").await;
    assert_eq!(delta(after_p, before_p), [3, 1, 1, 1], "three games through P, one each way");
    let transposed = explorer_move(&a, "b0c2 h9g7 h2e2", CASUAL, "b9c7").await;
    assert_eq!(transposed, after_p, "the same position by another order");
    let after_start = explorer_move(&a, "", CASUAL, "h2e2").await;
    assert_eq!(delta(after_start, before_start), [2, 0, 1, 1], "C's repeated start counts once");
    assert_eq!(delta(explorer_move(&a, "", CASUAL, "b0c2").await, before_start_b), [1, 1, 0, 0]);
    // Filters: another rule set or pace has none of these; the ratings are a newcomer's.
    assert_eq!(explorer_move(&a, p, "rules=itsyourturn&speed=bullet", "b9c7").await, [0; 4]);
    let (_, v) = a.get(&format!("/explorer?moves={}&{CASUAL}&speed=correspondence", urlencode(p))).await;
    let line = v["moves"].as_array().unwrap().iter().find(|m| m["iccs"] == "b9c7").unwrap().clone();
    assert!(line["average_rating"].as_i64().unwrap() > 1000, "{line}");
    assert!(!line["wxf"].as_str().unwrap().is_empty() && !line["chinese"].as_str().unwrap().is_empty());
    let (_, v) = a.get(&format!("/explorer?moves={}&{CASUAL}&min_rating=3000", urlencode(p))).await;
    assert!(v["moves"].as_array().unwrap().is_empty(), "{v}");
    // Bad input; a visitor may look, but has no collection of their own.
    let (st, v) = a.get("/explorer?fen=xyz").await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_position")));
    let visitor = Client::new(&s, "visitor");
    assert_eq!(visitor.get("/explorer").await.0, StatusCode::OK);
    let (st, v) = visitor.get("/explorer?variant=hex").await;
    assert_eq!((st, v["variant"].as_str()), (StatusCode::OK, Some("hex")), "{v}");
    assert_eq!(visitor.get("/explorer?source=mine").await.0, StatusCode::UNAUTHORIZED);
    s.stop().await;
}

const GOOD_ICCS: &str = r#"[Game "Chinese Chess"]
[Event "Club night"]
[Red "Hu"]
[Black "Liu"]
[RedElo "2400"]
[BlackElo "2200"]
[Result "1-0"]
[Format "ICCS"]

1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 1-0
"#;

const BAD_MOVE: &str = r#"[Game "Chinese Chess"]
[Red "Wang"]
[Black "Zhao"]
[Result "0-1"]

1. h2e2 h9g7 2. a0a5 b9c7 0-1
"#;

const GOOD_CHINESE: &str = r#"[Game "Chinese Chess"]
[Event "象棋"]
[Red "许"]
[Black "吕"]
[Result "1/2-1/2"]
[Format "Chinese"]

1. 炮二平五 馬８進７ 2. 馬二進三 车９平８ 1/2-1/2
"#;

async fn upload(c: &Client, text: &str) -> (StatusCode, Value) {
    let res = c.upload(text).await;
    let status = res.status();
    (status, serde_json::from_str(&res.text().await.unwrap()).unwrap_or(Value::Null))
}

on_both_databases!(an_imported_file_keeps_its_good_games_and_names_the_bad_ones);
async fn an_imported_file_keeps_its_good_games_and_names_the_bad_ones(db: Db) {
    let s = server(&db).await;
    let c = Client::register(&s, "imp").await;
    let file = format!("{GOOD_ICCS}\n{BAD_MOVE}\n{GOOD_CHINESE}");
    let (st, v) = upload(&c, &file).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let kept = v["kept"].as_array().unwrap();
    assert_eq!(kept.len(), 3, "{v}");
    assert_eq!(kept[0]["red"], "Hu");
    assert_eq!(kept[0]["result"], "1-0");
    assert_eq!(kept[0]["ply"], 6);
    assert_eq!(
        (kept[1]["red"].as_str(), kept[1]["ply"].as_i64()),
        (Some("Wang"), Some(2)),
        "cut at its bad move"
    );
    assert_eq!(kept[2]["red"], "许");
    assert_eq!(kept[2]["result"], "1/2-1/2");
    assert_eq!((v["format"].as_str(), v["encoding"].as_str()), (Some("pgn"), Some("utf-8")));
    let refused = v["refused"].as_array().unwrap();
    assert_eq!(refused.len(), 1, "{v}");
    assert_eq!(refused[0]["number"], 2);
    assert_eq!(refused[0]["problem"], "move");
    assert_eq!(refused[0]["ply"], 3);
    assert_eq!(refused[0]["text"], "a0a5");
    assert_eq!(refused[0]["move_number"], "2.");
    assert_eq!(refused[0]["cut"], true, "the moves before it are kept");
    assert_eq!((refused[0]["red"].as_str(), refused[0]["black"].as_str()), (Some("Wang"), Some("Zhao")));
    assert!(refused[0]["detail"].as_str().unwrap().contains("move 2 (a0a5)"), "{v}");

    // My collection, a game with its moves, and my own explorer.
    let (st, list) = c.get("/imports").await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(list["games"].as_array().unwrap().len(), 3);
    let id = kept[0]["id"].as_str().unwrap();
    let (st, game) = c.get(&format!("/imports/{id}")).await;
    assert_eq!(st, StatusCode::OK, "{game}");
    assert_eq!(game["moves"][0], "h2e2");
    assert_eq!(game["moves"].as_array().unwrap().len(), 6);
    let mine = explorer_move(&c, "", "source=mine", "h2e2").await;
    assert_eq!(mine, [3, 1, 1, 1], "the kept games open 炮二平五");
    let (_, v) = c.get("/explorer?source=mine").await;
    assert_eq!(v["moves"][0]["average_rating"], 2300, "{v}");
    let (_, v) = c.get("/explorer?source=mine&moves=h2e2").await;
    let replies: Vec<&str> =
        v["moves"].as_array().unwrap().iter().map(|m| m["iccs"].as_str().unwrap()).collect();
    assert_eq!(replies, ["h9g7"]);

    // Nobody else sees them.
    let other = Client::register(&s, "imq").await;
    assert_eq!(other.get(&format!("/imports/{id}")).await.0, StatusCode::NOT_FOUND);
    assert_eq!(explorer_move(&other, "", "source=mine", "h2e2").await, [0; 4]);

    // Deleting: only the owner, once, and the game leaves the explorer.
    assert_eq!(other.delete(&format!("/imports/{id}")).await.0, StatusCode::NOT_FOUND);
    let twice =
        futures_util::future::join(c.delete(&format!("/imports/{id}")), c.delete(&format!("/imports/{id}")))
            .await;
    let mut statuses = [twice.0.0, twice.1.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::NO_CONTENT, StatusCode::NOT_FOUND], "{twice:?}");
    assert_eq!(c.get(&format!("/imports/{id}")).await.0, StatusCode::NOT_FOUND);
    assert_eq!(explorer_move(&c, "", "source=mine", "h2e2").await, [2, 0, 1, 1], "taken back once");
    let (_, v) = c.get("/explorer?source=mine").await;
    assert!(v["moves"][0]["average_rating"].is_null(), "the rated game is gone: {v}");
    let (_, v) = c.get("/explorer?source=mine&moves=h2e2%20h9g7%20h0g2%20i9h9").await;
    assert_eq!(v["moves"], json!([]), "its own move from there is gone: {v}");
    assert_eq!(upload(&c, GOOD_ICCS).await.0, StatusCode::CREATED);
    let (st, v) = c.delete("/imports").await;
    assert_eq!((st, v["deleted"].as_i64()), (StatusCode::OK, Some(3)), "{v}");
    let (_, v) = c.get("/explorer?source=mine").await;
    assert_eq!(v["moves"], json!([]), "{v}");
    let (_, list) = c.get("/imports").await;
    assert_eq!(list["games"], json!([]));

    // Too large a file is refused whole, with the limits.
    let big = GOOD_ICCS.repeat(2 * 1024 * 1024 / GOOD_ICCS.len() + 1);
    let (st, v) = upload(&c, &big).await;
    assert_eq!(st, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert_eq!(v["reason"], "import_too_large");
    assert_eq!(v["params"]["max_games"], 2000);
    let many = GOOD_ICCS.repeat(2001);
    let (st, v) = upload(&c, &many).await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("import_too_large")));
    // A visitor imports nothing.
    let visitor = Client::new(&s, "visitor");
    assert_eq!(upload(&visitor, GOOD_ICCS).await.0, StatusCode::UNAUTHORIZED);
    s.stop().await;
}
