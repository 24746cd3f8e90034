//! Imported records as the history they are: played on after a repetition
//! or a perpetual chase, their results kept as written, their trees kept
//! whole, the same record never kept or counted twice, and files in the
//! encodings players have (GBK, Big5), on SQLite and PostgreSQL.

mod common;

use common::{Client, Db, on_both_databases, server};
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn upload(c: &Client, bytes: impl Into<Vec<u8>>, query: &str) -> (StatusCode, Value) {
    let res = c.upload_with(bytes, query).await;
    let status = res.status();
    (status, serde_json::from_str(&res.text().await.unwrap()).unwrap_or(Value::Null))
}

/// Both horses out and back three times (the start comes round a third time
/// at ply 8), then the game goes on, as the players did.
const REPEATED: &str = "[Event \"a\"]\n[Red \"Hu\"]\n[Black \"Liu\"]\n[Result \"1-0\"]\n\n\
    1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 5. h0g2 h9g7 6. g2h0 g7h9 7. h2e2 h7e7 1-0\n";

/// Red's rook chases an unprotected horse back and forth: the asian rules
/// would have given Black the game at ply 9. The players went on.
const CHASED: &str = "[Event \"b\"]\n[Red \"Chaser\"]\n[Black \"Horse\"]\n[Result \"1-0\"]\n\
    [FEN \"5k3/9/9/2n6/9/9/9/R8/9/4K4 w - - 0 1\"]\n\n\
    1. a2c2 c6e7 2. c2e2 e7c6 3. e2c2 c6e7 4. c2e2 e7c6 5. e2c2 c6d8 6. e0d0 1-0\n";

/// No result tag: the result is unknown, not made up.
const UNFINISHED: &str = "[Event \"c\"]\n[Red \"U\"]\n[Black \"V\"]\n\n1. c3c4 c6c5 2. b2e2\n";

/// A result in words, and a tree with a variation and comments.
const ANNOTATED: &str = "[Event \"d\"]\n[Red \"W\"]\n[Black \"X\"]\n[Result \"红胜\"]\n\n\
    {a quiet start} 1. h2e2 {the central cannon} (1. c3c4 {the pawn}) h9g7 2. h0g2 红胜\n";

fn judged(game: &Value) -> Vec<(i64, String, String)> {
    game["judged"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            (
                j["ply"].as_i64().unwrap(),
                j["judgement"].as_str().unwrap().to_string(),
                j["outcome"]["reason"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

on_both_databases!(a_record_played_on_after_a_verdict_is_kept_with_the_verdict_noted);
async fn a_record_played_on_after_a_verdict_is_kept_with_the_verdict_noted(db: Db) {
    let s = server(&db).await;
    let c = Client::register(&s, "hist").await;
    let file = format!("{REPEATED}\n{CHASED}\n{UNFINISHED}\n{ANNOTATED}");
    let (st, v) = upload(&c, file.clone(), "").await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(v["refused"], serde_json::json!([]), "every move was legal: {v}");
    let kept = v["kept"].as_array().unwrap();
    let plies: Vec<i64> = kept.iter().map(|g| g["ply"].as_i64().unwrap()).collect();
    assert_eq!(plies, [14, 11, 3, 3], "every record whole: {v}");

    let game = |i: usize| {
        let id = kept[i]["id"].as_str().unwrap().to_string();
        let c = &c;
        async move { c.get(&format!("/imports/{id}")).await.1 }
    };
    let repeated = game(0).await;
    assert_eq!(judged(&repeated), [(8, "ended".to_string(), "repetition".to_string())]);
    assert_eq!(repeated["game"]["result"], "1-0", "the result as written, not the verdict");
    let chased = game(1).await;
    assert_eq!(judged(&chased), [(9, "ended".to_string(), "perpetual_chase".to_string())]);
    assert_eq!(chased["judged"][0]["outcome"]["winner"], "black");
    assert_eq!(chased["game"]["start_fen"], "5k3/9/9/2n6/9/9/9/R8/9/4K4 w - - 0 1");

    let unfinished = game(2).await;
    assert_eq!(
        (unfinished["game"]["result"].as_str(), &unfinished["game"]["winner"]),
        (Some("*"), &Value::Null)
    );
    let annotated = game(3).await;
    assert_eq!(
        (annotated["game"]["result"].as_str(), annotated["game"]["winner"].as_str()),
        (Some("红胜"), Some("red"))
    );
    let record = annotated["record"].as_str().unwrap();
    for part in ["{a quiet start}", "{the central cannon}", "(1. c3c4 {the pawn})", "h0g2"] {
        assert!(record.contains(part), "{part} is kept in {record}");
    }
    assert_eq!(annotated["moves"], serde_json::json!(["h2e2", "h9g7", "h0g2"]), "the main line");
    // The tree for the board: each position after its parent, the main line
    // before its variation, comments after their moves.
    let tree: Vec<(Value, Value, Value)> = annotated["tree"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["parent"].clone(), n["position"]["played"]["iccs"].clone(), n["comment"].clone()))
        .collect();
    assert_eq!(
        tree,
        [
            (Value::Null, Value::Null, json!("a quiet start")),
            (json!(0), json!("h2e2"), json!("the central cannon")),
            (json!(1), json!("h9g7"), json!("")),
            (json!(2), json!("h0g2"), json!("")),
            (json!(0), json!("c3c4"), json!("the pawn")),
        ],
        "{annotated}"
    );
    assert_eq!(annotated["tree"][4]["position"]["turn"], "black");
    assert_eq!(annotated["tree_cut"], false);

    // The same file again: nothing new kept, nothing counted twice.
    let before = c.get("/explorer?source=mine").await.1;
    let (st, again) = upload(&c, file, "").await;
    assert_eq!(st, StatusCode::CREATED, "{again}");
    assert_eq!((again["kept"].as_array().unwrap().len(), again["duplicates"].as_u64()), (0, Some(4)));
    assert_eq!(c.get("/explorer?source=mine").await.1, before);
    assert_eq!(c.get("/imports").await.1["games"].as_array().unwrap().len(), 4);
    // Twice in one file: kept once.
    let (_, twice) =
        upload(&c, format!("{UNFINISHED}\n\n[Event \"e\"]\n\n1. a3a4 *\n\n[Event \"e\"]\n\n1. a3a4 *\n"), "")
            .await;
    assert_eq!(
        (twice["kept"].as_array().unwrap().len(), twice["duplicates"].as_u64()),
        (1, Some(2)),
        "{twice}"
    );
    s.stop().await;
}

fn encoded(text: &str, codec: &'static encoding_rs::Encoding) -> Vec<u8> {
    let (bytes, _, unmappable) = codec.encode(text);
    assert!(!unmappable);
    bytes.into_owned()
}

on_both_databases!(gbk_and_big5_files_are_read_in_their_encodings);
async fn gbk_and_big5_files_are_read_in_their_encodings(db: Db) {
    let s = server(&db).await;
    let c = Client::register(&s, "enc").await;
    let simplified = "[Event \"全国象棋个人赛\"]\n[Red \"胡荣华\"]\n[Black \"柳大华\"]\n[Result \"1-0\"]\n\n\
        1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1-0\n";
    let (st, v) = upload(&c, encoded(simplified, encoding_rs::GBK), "").await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!((v["encoding"].as_str(), v["kept"][0]["red"].as_str()), (Some("gb18030"), Some("胡荣华")));
    assert_eq!(v["kept"][0]["ply"], 4);

    let traditional = "[Event \"全國象棋個人賽\"]\n[Red \"呂欽\"]\n[Black \"許銀川\"]\n\n\
        1. 炮二平五 馬８進７ 2. 馬二進三 車９平８\n";
    let (st, v) = upload(&c, encoded(traditional, encoding_rs::BIG5), "").await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!((v["encoding"].as_str(), v["kept"][0]["red"].as_str()), (Some("big5"), Some("呂欽")));

    // Full-width WXF with Red's and Black's moves run together.
    let wide = "[Red \"F\"]\n[Black \"G\"]\n\n1. Ｃ２＝５Ｈ８＋７ 2. Ｈ２＋３Ｒ９＝８ *\n";
    let (st, v) = upload(&c, wide, "").await;
    assert_eq!((st, v["kept"][0]["ply"].as_i64()), (StatusCode::CREATED, Some(4)), "{v}");

    // A chosen encoding is used as chosen; an unknown one is refused.
    let short = encoded("[Red \"甲\"]\n\n1. 炮二平五 *\n", encoding_rs::GBK);
    let (st, v) = upload(&c, short.clone(), "?encoding=gbk").await;
    assert_eq!(
        (st, v["encoding"].as_str(), v["kept"][0]["red"].as_str()),
        (StatusCode::CREATED, Some("gb18030"), Some("甲"))
    );
    let (st, v) = upload(&c, short, "?encoding=shift_jis").await;
    assert_eq!((st, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")), "{v}");
    s.stop().await;
}

on_both_databases!(empty_files_and_records_without_moves_get_a_clear_answer);
async fn empty_files_and_records_without_moves_get_a_clear_answer(db: Db) {
    let s = server(&db).await;
    let c = Client::register(&s, "emp").await;
    let (st, v) = upload(&c, "  \n\n", "").await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::BAD_REQUEST, Some("no_records")), "{v}");
    let (st, v) = upload(&c, "[Event \"nothing\"]\n[Red \"A\"]\n\n*\n\n[Red \"B\"]\n\n1. h2e2 *\n", "").await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(v["kept"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(
        (v["refused"][0]["number"].as_u64(), v["refused"][0]["problem"].as_str()),
        (Some(1), Some("empty"))
    );
    assert_eq!(v["refused"][0]["red"], "A");
    // An illegal first move keeps nothing of its record, and says so.
    let (_, v) = upload(&c, "[Red \"C\"]\n\n1. a0a5 *\n", "").await;
    assert_eq!((v["kept"].as_array().unwrap().len(), v["refused"][0]["ply"].as_u64()), (0, Some(1)), "{v}");
    s.stop().await;
}

/// The explorer's counts of a move from the start, from a source.
async fn counted(c: &Client, source: &str, mv: &str) -> i64 {
    let (_, v) = c.get(&format!("/explorer?source={source}")).await;
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["iccs"] == mv)
        .map_or(0, |m| m["games"].as_i64().unwrap())
}

on_both_databases!(administrators_load_masters_games_apart_from_the_site_and_each_only_once);
async fn administrators_load_masters_games_apart_from_the_site_and_each_only_once(db: Db) {
    let s = server(&db).await;
    let (admin, player) = (Client::register(&s, "mst").await, Client::register(&s, "mpl").await);
    // Names of this run, since a PostgreSQL database is shared with earlier runs.
    let hu = format!("Hu {}", admin.name);
    let collection = format!(
        "[Red \"{hu}\"]\n[Black \"Liu\"]\n[Result \"1-0\"]\n\n1. b2e2 h9g7 2. h0g2 1-0\n\n\
         [Red \"Lü\"]\n[Black \"{hu}\"]\n[Result \"0-1\"]\n\n1. b2e2 b9c7 0-1\n"
    );
    let (st, v) = upload_to(&admin, "/masters", collection.clone()).await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::FORBIDDEN, Some("administrators_only")), "{v}");
    assert!(xiangqi_server::set_admin(&db.url, &admin.name, true).await.unwrap());
    let before = counted(&admin, "masters", "b2e2").await;
    let (st, v) = upload_to(&admin, "/masters", collection.clone()).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(v["kept"].as_array().unwrap().len(), 2);
    assert_eq!(counted(&player, "masters", "b2e2").await, before + 2, "everyone sees the masters");

    // Found by player, on either side, and opened with the whole record.
    let (st, found) = player.get(&format!("/masters?player={}", hu.replace(' ', "%20"))).await;
    assert_eq!(st, StatusCode::OK, "{found}");
    let games = found["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{found}");
    let (st, game) = player.get(&format!("/masters/{}", games[0]["id"].as_str().unwrap())).await;
    assert_eq!((st, game["record"].as_str().map(|r| r.contains("b2e2"))), (StatusCode::OK, Some(true)));

    // An overlapping collection, from the command line: the known game is kept once.
    let dir = std::env::temp_dir().join(format!("xiangqi-masters-{}", admin.name));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("more.pgn");
    let more =
        format!("{collection}\n[Red \"{hu}\"]\n[Black \"Xu\"]\n[Result \"1/2-1/2\"]\n\n1. b2e2 1/2-1/2\n");
    std::fs::write(&file, more).unwrap();
    let mut refused = 0;
    let loaded = xiangqi_server::import_masters(&db.url, std::slice::from_ref(&file), |_, _| refused += 1)
        .await
        .unwrap();
    let loaded = loaded[0].as_ref().unwrap();
    assert_eq!((loaded.kept, loaded.duplicates, loaded.refused, refused), (1, 2, 0, 0));
    assert_eq!(counted(&player, "masters", "b2e2").await, before + 3);
    std::fs::remove_dir_all(&dir).ok();

    // A player's own imports stay theirs, and the site's games are another source.
    let site = counted(&player, "site", "b2e2").await;
    let (st, _) = upload(&player, collection.replace("1-0", "0-1"), "").await;
    assert_eq!(st, StatusCode::CREATED);
    assert_eq!(counted(&player, "masters", "b2e2").await, before + 3);
    assert_eq!(counted(&player, "site", "b2e2").await, site);
    assert_eq!(counted(&player, "mine", "b2e2").await, 2);
    s.stop().await;
}

async fn upload_to(c: &Client, path: &str, bytes: impl Into<Vec<u8>>) -> (StatusCode, Value) {
    let res = c.post_bytes(path, bytes.into()).await;
    let status = res.status();
    (status, serde_json::from_str(&res.text().await.unwrap()).unwrap_or(Value::Null))
}

on_both_databases!(openings_are_named_on_imports_in_the_explorer_and_by_the_table);
async fn openings_are_named_on_imports_in_the_explorer_and_by_the_table(db: Db) {
    let s = server(&db).await;
    let c = Client::register(&s, "eco").await;
    let (st, table) = c.get("/openings").await;
    assert_eq!(st, StatusCode::OK);
    let table = table["openings"].as_array().unwrap();
    assert_eq!(table.len(), 260, "every code the classification assigns");
    let name_of = |code: &str| table.iter().find(|o| o["code"] == code).cloned().unwrap();
    // Imported in the book's order and by a transposition: one name.
    let file = "[Red \"A\"]\n\n1. h2e2 h9g7 2. h0g2 b9c7 *\n\n[Red \"B\"]\n\n1. h2e2 b9c7 2. h0g2 h9g7 *\n\n\
                [Red \"C\"]\n[FEN \"4k4/9/9/9/9/9/9/9/4A4/3RK4 w - - 0 1\"]\n\n1. d0d9 *\n";
    let (st, v) = upload(&c, file, "").await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let kept = v["kept"].as_array().unwrap();
    let code = kept[0]["opening"].as_str().unwrap().to_string();
    assert_eq!(kept[1]["opening"].as_str(), Some(code.as_str()));
    assert!(kept[2]["opening"].is_null(), "a set-up position has no opening");
    assert!(name_of(&code)["simplified"].as_str().unwrap().contains("中炮"), "{}", name_of(&code));
    // The explorer names the position shown, when it is one of the table's.
    let (_, at) = c.get("/explorer?moves=h2e2%20h9g7").await;
    let named = at["opening"].as_str().unwrap().to_string();
    assert!(name_of(&named)["simplified"].as_str().unwrap().contains("中炮"));
    let (_, at) = c.get("/explorer?moves=b2e2%20b9c7").await;
    assert_eq!(at["opening"].as_str(), Some(named.as_str()), "the mirror image, the same name");
    let (st, mine) = c.get(&format!("/users/{}/openings", c.name)).await;
    assert_eq!(
        (st, mine["openings"].as_array().map(Vec::len)),
        (StatusCode::OK, Some(0)),
        "no game played here"
    );
    s.stop().await;
}

on_both_databases!(a_record_file_becomes_a_study_with_a_chapter_per_game_and_every_variation);
async fn a_record_file_becomes_a_study_with_a_chapter_per_game_and_every_variation(db: Db) {
    let s = server(&db).await;
    let c = Client::register(&s, "stu").await;
    let file = format!("{REPEATED}\n{ANNOTATED}");
    let res = c.post_bytes("/studies/import?title=Two%20games", file.into_bytes()).await;
    let status = res.status();
    let v: Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let chapters = v["study"]["chapters"].as_array().unwrap();
    assert_eq!(chapters.len(), 2);
    assert_eq!(chapters[0]["title"], "Hu – Liu");
    assert_eq!(
        chapters[0]["nodes"].as_array().unwrap().len(),
        15,
        "the start and 14 moves, played on after the repetition"
    );
    assert_eq!(
        chapters[1]["nodes"].as_array().unwrap().len(),
        5,
        "the start, the main line and the variation"
    );
    let text = chapters[1].to_string();
    assert!(text.contains("the central cannon") && text.contains("the pawn"), "comments kept: {text}");

    // Too many games for a study, or none, get a clear answer.
    let many = "1. h2e2 *\n\n".repeat(33);
    let res = c.post_bytes("/studies/import?title=Many", many.into_bytes()).await;
    let status = res.status();
    let v: Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    assert_eq!((status, v["reason"].as_str()), (StatusCode::CONFLICT, Some("study_chapters")), "{v}");
    let res = c.post_bytes("/studies/import?title=None", b"\n".to_vec()).await;
    let status = res.status();
    let v: Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    assert_eq!((status, v["reason"].as_str()), (StatusCode::BAD_REQUEST, Some("no_records")));
    s.stop().await;
}

on_both_databases!(an_import_answers_as_it_goes_with_its_progress_then_the_answer);
async fn an_import_answers_as_it_goes_with_its_progress_then_the_answer(db: Db) {
    let s = server(&db).await;
    let c = Client::register(&s, "prg").await;
    let file = (0..400).map(|i| format!("[Round \"{i}\"]\n\n1. h2e2 h9g7 2. h0g2 *\n\n")).collect::<String>();
    let res = c.upload_with(file, "?progress=true").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/x-ndjson");
    let text = res.text().await.unwrap();
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let (last, before) = lines.split_last().unwrap();
    assert_eq!(last["answer"]["kept"].as_array().map(Vec::len), Some(400), "{text}");
    for l in before {
        let p = &l["progress"];
        assert!(p["checked"].as_u64() <= p["total"].as_u64(), "{l}");
        assert!(p["total"] == 0 || p["total"] == 400, "{l}");
    }
    // A refusal comes as the last line too.
    let res = c.upload_with("\n", "?progress=true").await;
    let text = res.text().await.unwrap();
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["error"]["reason"], "no_records", "{text}");
    s.stop().await;
}
