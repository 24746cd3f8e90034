//! Ladders through the JSON API on SQLite and PostgreSQL: join at the bottom, challenge up, and a challenger who
//! wins takes the defender's place while everyone between moves down one.

mod common;

use common::{Client, Db, on_both_databases, server};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The ladder's names from the top.
async fn order(c: &Client, category: &str) -> Vec<String> {
    let (_, v) = c.get(&format!("/ladders/{category}?limit=100")).await;
    v["rungs"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap().to_string()).collect()
}

on_both_databases!(a_challenger_who_wins_takes_the_place_and_those_between_move_down);
async fn a_challenger_who_wins_takes_the_place_and_those_between_move_down(db: Db) {
    let s = server(&db).await;
    // On the shared PostgreSQL test database others may be on the same ladder:
    // the order is compared among this test's players only.
    let cat = "standard_live";
    let players = [
        Client::register(&s, "lda").await,
        Client::register(&s, "ldb").await,
        Client::register(&s, "ldc").await,
        Client::register(&s, "ldd").await,
    ];
    for p in &players {
        let (st, v) = p.post(&format!("/ladders/{cat}/join"), json!({})).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
    }
    assert_eq!(players[0].post(&format!("/ladders/{cat}/join"), json!({})).await.0, StatusCode::CONFLICT);
    let mine = |all: &[String]| -> Vec<String> {
        all.iter().filter(|n| players.iter().any(|p| &p.name == *n)).cloned().collect()
    };
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    assert_eq!(mine(&order(&players[0], cat).await), names);
    // Down, or oneself, is refused; so is an unknown category.
    let path = format!("/ladders/{cat}/challenges");
    let up = |from: usize, to: usize| players[from].post(&path, json!({"opponent": players[to].name}));
    assert_eq!(up(0, 1).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(players[0].post("/ladders/blitz/join", json!({})).await.0, StatusCode::BAD_REQUEST);
    // The fourth challenges the first; the first accepts and loses.
    let (st, v) = up(3, 0).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(v["challenge"]["ladder"], cat);
    let id = v["challenge"]["id"].as_str().unwrap().to_string();
    let (_, ladder) = players[0].get(&format!("/ladders/{cat}")).await;
    assert!(ladder["challenges"].as_array().unwrap().iter().any(|c| c["challenge"]["id"] == id.as_str()));
    // At most two open challenges per player: the fourth may make one more, not two.
    let (st, v) = up(3, 1).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let second = v["challenge"]["id"].as_str().unwrap().to_string();
    assert_eq!(up(3, 2).await.0, StatusCode::CONFLICT);
    // The ladder's challenges, walked one at a time: each once, oldest first.
    let (mut walked, mut after) = (Vec::new(), None::<String>);
    loop {
        let url = match &after {
            Some(a) => format!("{path}?limit=1&after={a}"),
            None => format!("{path}?limit=1"),
        };
        let (st, v) = players[1].get(&url).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert!(v["challenges"].as_array().unwrap().len() <= 1, "{v}");
        walked.extend(
            v["challenges"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["challenge"]["id"].as_str().unwrap().to_string()),
        );
        match v["next"].as_str() {
            Some(n) => after = Some(n.to_string()),
            None => break,
        }
    }
    let ours: Vec<&String> = walked.iter().filter(|c| **c == id || **c == second).collect();
    assert_eq!(ours, [&id, &second]);
    let (st, v) = players[0].post(&format!("/challenges/{id}/accept"), json!({})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let game = v["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(players[0].post(&format!("/games/{game}/resign"), json!({})).await.0, StatusCode::OK);
    let after = mine(&order(&players[0], cat).await);
    assert_eq!(after, [names[3].clone(), names[0].clone(), names[1].clone(), names[2].clone()]);
    let (_, ladder) = players[1].get(&format!("/ladders/{cat}")).await;
    let latest: &Value = &ladder["results"][0];
    assert_eq!(
        (latest["challenger"].as_str(), latest["challenger_won"].as_bool()),
        (Some(names[3].as_str()), Some(true))
    );
    assert_eq!(latest["game"], game.as_str());
    s.stop().await;
}
