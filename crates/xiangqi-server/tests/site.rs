//! The site made one's own, through the JSON API on SQLite and PostgreSQL: preferences, news written by
//! administrators, the games a visitor can watch, moves in Chinese.

mod common;

use common::{Client, Db, new_game, on_both_databases, server};
use reqwest::StatusCode;
use serde_json::json;

on_both_databases!(preferences_start_at_defaults_are_replaced_whole_and_bad_values_are_named);
async fn preferences_start_at_defaults_are_replaced_whole_and_bad_values_are_named(db: Db) {
    let s = server(&db).await;
    let a = Client::register(&s, "prf").await;
    let (st, v) = a.get("/me/preferences").await;
    assert_eq!(st, StatusCode::OK);
    let mut prefs = v["preferences"].clone();
    assert_eq!(
        prefs,
        json!({"pieces": "traditional", "theme": "wood", "piece_size": 100, "coordinates": "iccs", "notation": "wxf",
               "animation": true, "sound": false, "language": null, "screen_reader": false,
               "confirm_moves": {"bullet": false, "blitz": false, "rapid": false, "classical": false,
                                 "correspondence": true}})
    );
    prefs["pieces"] = json!("beginner");
    prefs["theme"] = json!("contrast");
    prefs["language"] = json!("zh-Hans");
    prefs["piece_size"] = json!(120);
    prefs["screen_reader"] = json!(true);
    let (st, v) = a.send(reqwest::Method::PUT, "/me/preferences", Some(prefs.clone())).await;
    assert_eq!((st, &v["preferences"]), (StatusCode::OK, &prefs));
    for (field, bad) in [
        ("pieces", json!("emoji")),
        ("piece_size", json!(200)),
        ("language", json!("fr")),
        ("sound", json!("loud")),
        ("screen_reader", json!("yes")),
    ] {
        let mut wrong = prefs.clone();
        wrong[field] = bad.clone();
        let (st, v) = a.send(reqwest::Method::PUT, "/me/preferences", Some(wrong)).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{field}: {v}");
        let message = v["message"].as_str().unwrap();
        let said = bad.as_str().map_or(bad.to_string(), str::to_string);
        assert!(message.contains(field) || message.contains(&said), "names {field} or {said}: {message}");
    }
    let mut extra = prefs.clone();
    extra["colour"] = json!("red");
    let (st, v) = a.send(reqwest::Method::PUT, "/me/preferences", Some(extra)).await;
    assert!(st == StatusCode::BAD_REQUEST && v["message"].as_str().unwrap().contains("colour"), "{v}");
    assert_eq!(a.get("/me/preferences").await.1["preferences"], prefs, "refusals changed nothing");
    assert_eq!(Client::new(&s, "anon").get("/me/preferences").await.0, StatusCode::UNAUTHORIZED);
    s.stop().await;
}

on_both_databases!(administrators_write_news_that_everyone_reads_newest_first);
async fn administrators_write_news_that_everyone_reads_newest_first(db: Db) {
    let s = server(&db).await;
    let (editor, reader) = (Client::register(&s, "edt").await, Client::register(&s, "rdr").await);
    let item = json!({"title": "Welcome", "body": "<i>Play</i> well"});
    assert_eq!(editor.post("/news", item.clone()).await.0, StatusCode::FORBIDDEN, "not yet an administrator");
    assert!(xiangqi_server::set_admin(&db.url, &editor.name.to_uppercase(), true).await.unwrap());
    assert!(!xiangqi_server::set_admin(&db.url, "nobody-at-all", true).await.unwrap());
    assert_eq!(editor.get("/session").await.1["user"]["admin"], true);
    let (st, v) = editor.post("/news", item).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let first = v["news"]["id"].as_str().unwrap().to_string();
    let (_, v) = editor.post("/news", json!({"title": "Second", "body": "Tournaments soon"})).await;
    let second = v["news"]["id"].as_str().unwrap().to_string();
    assert_eq!(editor.post("/news", json!({"title": " ", "body": "x"})).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(reader.post("/news", json!({"title": "Me too", "body": "x"})).await.0, StatusCode::FORBIDDEN);
    let visitor = Client::new(&s, "visitor");
    let (st, v) = visitor.get("/news?limit=1").await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(v["news"][0]["id"], second.as_str(), "newest first");
    let (_, older) = visitor.get(&format!("/news?limit=1&after={}", v["next"].as_str().unwrap())).await;
    assert_eq!(
        (older["news"][0]["id"].as_str(), older["news"][0]["body"].as_str()),
        (Some(first.as_str()), Some("<i>Play</i> well"))
    );
    assert_eq!(reader.delete(&format!("/news/{first}")).await.0, StatusCode::FORBIDDEN);
    assert_eq!(editor.delete(&format!("/news/{first}")).await.0, StatusCode::NO_CONTENT);
    assert_eq!(editor.delete(&format!("/news/{first}")).await.0, StatusCode::NOT_FOUND);
    assert!(xiangqi_server::set_admin(&db.url, &editor.name, false).await.unwrap());
    assert_eq!(editor.delete(&format!("/news/{second}")).await.0, StatusCode::FORBIDDEN);
    s.stop().await;
}

on_both_databases!(a_visitor_finds_games_to_watch_with_moves_in_three_notations);
async fn a_visitor_finds_games_to_watch_with_moves_in_three_notations(db: Db) {
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "wla").await, Client::register(&s, "wlb").await);
    let game = new_game(&a, &b, "asian").await;
    assert_eq!(a.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    assert_eq!(b.play(&game, 1, "h9g7").await.0, StatusCode::OK);
    let visitor = Client::new(&s, "visitor");
    let (st, v) = visitor.get("/games/live?limit=5").await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(v["games"][0]["id"], game.as_str(), "the latest moved first: {v}");
    // The next page goes on from the first: an older game, never the same one.
    let older = new_game(&b, &a, "asian").await;
    assert_eq!(b.play(&older, 0, "h2e2").await.0, StatusCode::OK);
    assert_eq!(a.play(&game, 2, "h0g2").await.0, StatusCode::OK);
    // (Other tests' games may move meanwhile on a shared database: they
    // come to the front, not between these two.)
    let (mut seen, mut after) = (Vec::new(), None::<String>);
    while !seen.contains(&older) {
        let url = match &after {
            Some(a) => format!("/games/live?limit=1&after={a}"),
            None => "/games/live?limit=1".to_string(),
        };
        let (_, v) = visitor.get(&url).await;
        assert!(v["games"].as_array().unwrap().len() <= 1, "{v}");
        seen.extend(v["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()));
        after = v["next"].as_str().map(str::to_string);
        assert!(after.is_some() || seen.contains(&older), "the older game on a page: {seen:?}");
    }
    let at = |id: &String| seen.iter().position(|g| g == id);
    assert!(at(&game) < at(&older) && at(&game).is_some(), "{seen:?}");
    let (_, v) = visitor.get(&format!("/games/{game}")).await;
    let moves = &v["game"]["moves"];
    assert_eq!((moves[0]["wxf"].as_str(), moves[0]["chinese"].as_str()), (Some("C2=5"), Some("炮二平五")));
    assert_eq!((moves[1]["wxf"].as_str(), moves[1]["chinese"].as_str()), (Some("H8+7"), Some("马8进7")));
    assert_eq!(visitor.get("/games/live?limit=5&sort=old").await.0, StatusCode::BAD_REQUEST);
    s.stop().await;
}
