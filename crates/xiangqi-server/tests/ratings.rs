//! Glicko-2 ratings through the JSON API on SQLite and PostgreSQL: rated and casual games, the
//! rating a player shows, history, leaderboards, and the replay of the games
//! played before Glicko-2.

mod common;

use common::{Client, Db, new_game, on_both_databases, server, sqlite};
use reqwest::StatusCode;
use serde_json::{Value, json};

fn rating(v: &Value, category: &str) -> Option<Value> {
    v["ratings"].as_array()?.iter().find(|r| r["category"] == category).cloned()
}

on_both_databases!(a_rated_game_moves_both_glicko2_ratings_and_a_casual_one_does_not);
async fn a_rated_game_moves_both_glicko2_ratings_and_a_casual_one_does_not(db: Db) {
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "gla").await, Client::register(&s, "glb").await);
    let game = new_game(&a, &b, "asian").await;
    assert_eq!(a.get(&format!("/games/{game}")).await.1["game"]["rated"], true, "rated by default");
    assert_eq!(b.post(&format!("/games/{game}/resign"), json!({})).await.0, StatusCode::OK);
    let (_, pa) = b.get(&format!("/users/{}", a.name)).await;
    let (_, pb) = a.get(&format!("/users/{}", b.name)).await;
    let (ra, rb) =
        (rating(&pa, "standard_correspondence").unwrap(), rating(&pb, "standard_correspondence").unwrap());
    // Two newcomers (1500, RD 350): Glicko-2 gives the winner about 1662 and the loser about 1338.
    assert!((1655..=1670).contains(&ra["rating"].as_i64().unwrap()), "{ra}");
    assert_eq!(ra["rating"].as_i64().unwrap() - 1500, 1500 - rb["rating"].as_i64().unwrap(), "symmetric");
    assert_eq!((ra["provisional"].as_bool(), ra["games"].as_i64()), (Some(true), Some(1)));
    assert!(ra["deviation"].as_i64().unwrap() < 350);
    assert_eq!(pa["user"]["rating"], ra["rating"], "the shown rating is that category's");
    let (_, h) = a.get(&format!("/users/{}/ratings/standard_correspondence", a.name)).await;
    assert_eq!(
        (h["points"][0]["game"].as_str(), &h["points"][0]["rating"]),
        (Some(game.as_str()), &ra["rating"])
    );
    // A casual game counts in the record, not the rating.
    let terms = json!({"opponent": b.name, "rules": "casual", "color": "red", "rated": false, "clock": {"kind": "correspondence", "hours": 48}});
    let (_, v) = a.post("/challenges", terms).await;
    assert_eq!(v["challenge"]["rated"], false);
    let id = v["challenge"]["id"].as_str().unwrap();
    let (_, v) = b.post(&format!("/challenges/{id}/accept"), json!({})).await;
    let casual = v["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(v["game"]["rated"], false);
    assert_eq!(a.post(&format!("/games/{casual}/resign"), json!({})).await.0, StatusCode::OK);
    let (_, after) = b.get(&format!("/users/{}", a.name)).await;
    assert_eq!(rating(&after, "standard_correspondence").unwrap(), ra);
    assert_eq!(after["user"]["record"], json!({"wins": 1, "losses": 1, "draws": 0}));
    assert_eq!(a.get("/users/x/ratings/chess").await.0, StatusCode::BAD_REQUEST);
    s.stop().await;
}

on_both_databases!(a_player_chooses_the_rating_shown_and_whether_challenges_are_rated);
async fn a_player_chooses_the_rating_shown_and_whether_challenges_are_rated(db: Db) {
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "sha").await, Client::register(&s, "shb").await);
    let game = new_game(&a, &b, "asian").await;
    b.post(&format!("/games/{game}/resign"), json!({})).await;
    let (_, v) = a.get("/me/rating-settings").await;
    assert_eq!(v, json!({"shown": "standard_correspondence", "rated_by_default": true}));
    let put = |body: Value| a.send(reqwest::Method::PUT, "/me/rating-settings", Some(body));
    assert_eq!(put(json!({"shown": "standard_live", "rated_by_default": false})).await.0, StatusCode::OK);
    let (_, me) = a.get("/session").await;
    assert_eq!(
        (me["user"]["rating"].as_i64(), me["user"]["shown_category"].as_str()),
        (Some(1500), Some("standard_live"))
    );
    assert_eq!(put(json!({"shown": "blitz", "rated_by_default": false})).await.0, StatusCode::BAD_REQUEST);
    let terms = json!({"opponent": b.name, "rules": "casual", "color": "red", "clock": {"kind": "correspondence", "hours": 96}});
    assert_eq!(a.post("/challenges", terms).await.1["challenge"]["rated"], false, "casual by my default");
    put(json!({"shown": "standard_correspondence", "rated_by_default": true})).await;
    assert!(a.get("/session").await.1["user"]["rating"].as_i64().unwrap() > 1600);
    s.stop().await;
}

on_both_databases!(the_leaderboard_lists_established_ratings_highest_first_in_pages);
async fn the_leaderboard_lists_established_ratings_highest_first_in_pages(db: Db) {
    let s = server(&db).await;
    let store = xiangqi_server::store::Store::open(&db.url).await.unwrap();
    let players: Vec<Client> =
        futures_util::future::join_all((0..3).map(|i| Client::register(&s, ["lda", "ldb", "ldc"][i]))).await;
    // Established ratings written as a result of casual games between them.
    let ratings = [2950.0, 2960.0, 2955.0];
    for (i, p) in players.iter().enumerate() {
        let other = &players[(i + 1) % 3];
        let terms = json!({"opponent": other.name, "rules": "casual", "color": "red", "rated": false, "clock": {"kind": "correspondence", "hours": 48}});
        let (_, v) = p.post("/challenges", terms).await;
        let (_, v) = other
            .post(&format!("/challenges/{}/accept", v["challenge"]["id"].as_str().unwrap()), json!({}))
            .await;
        let game = v["game"]["id"].as_str().unwrap().to_string();
        let established = xiangqi_server::model::ratings::Rating {
            rating: ratings[i],
            deviation: 60.0,
            volatility: 0.06,
            games: 40,
        };
        // The opponent keeps their own established rating too.
        let theirs = xiangqi_server::model::ratings::Rating { rating: ratings[(i + 1) % 3], ..established };
        let cat = xiangqi_server::model::ratings::Category::HexLive;
        let result = xiangqi_server::store::GameResult {
            game: &game,
            red: &p.name,
            black: &other.name,
            winner: None,
            rated: Some((cat, established, theirs)),
            at_ms: 1,
        };
        store.record_result(&result).await.unwrap();
    }
    let anon = Client::new(&s, "anon");
    // Walk the whole board two at a time (a kept database may hold earlier runs'
    // players too): this test's three come in rating order, all established.
    let mut seen = Vec::new();
    let mut after = String::new();
    loop {
        let (st, v) = anon.get(&format!("/ratings/hex_live/leaders?limit=2&after={after}")).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        for l in v["leaders"].as_array().unwrap() {
            assert!(l["deviation"].as_i64() <= Some(110), "no provisional ratings: {l}");
            seen.push(l["name"].as_str().unwrap().to_string());
        }
        match v["next"].as_str() {
            Some(next) => after = next.to_string(),
            None => break,
        }
    }
    let mine: Vec<&str> =
        seen.iter().map(String::as_str).filter(|n| players.iter().any(|p| p.name == *n)).collect();
    assert_eq!(mine, [players[1].name.as_str(), players[2].name.as_str(), players[0].name.as_str()]);
    assert_eq!(seen.len(), seen.iter().collect::<std::collections::HashSet<_>>().len(), "no one twice");
    assert_eq!(anon.get("/ratings/chess/leaders").await.0, StatusCode::BAD_REQUEST);
    s.stop().await;
}

#[tokio::test]
async fn games_played_before_glicko2_are_replayed_into_ratings_once() {
    let db = sqlite();
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "rpa").await, Client::register(&s, "rpb").await);
    let game = new_game(&a, &b, "asian").await;
    b.post(&format!("/games/{game}/resign"), json!({})).await;
    let before = rating(&b.get(&format!("/users/{}", a.name)).await.1, "standard_correspondence").unwrap();
    s.stop().await;
    // As a database of the Elo era looks: no ratings, no replay yet.
    let store = xiangqi_server::store::Store::open(&db.url).await.unwrap();
    for sql in ["DELETE FROM rating_history", "DELETE FROM ratings", "DELETE FROM rating_replays"] {
        sqlx::query(sql).execute(store.pool()).await.unwrap();
    }
    let s = server(&db).await;
    let viewer = Client::new(&s, "viewer");
    let after =
        rating(&viewer.get(&format!("/users/{}", a.name)).await.1, "standard_correspondence").unwrap();
    assert_eq!(after, before, "the replay gives the same rating the live update did");
    s.stop().await;
    let s = server(&db).await;
    let viewer = Client::new(&s, "viewer");
    let (_, h) = viewer.get(&format!("/users/{}/ratings/standard_correspondence", a.name)).await;
    assert_eq!(h["points"].as_array().unwrap().len(), 1, "replayed once, not again on the next start");
    s.stop().await;
}
