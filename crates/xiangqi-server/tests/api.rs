//! The play server through its JSON API on a loopback port, on SQLite and
//! PostgreSQL: most tests are declared once for both (`on_both_databases!`,
//! whose PostgreSQL half runs when asked for, as `.ci/run` does).

mod common;

use std::time::Duration;

use common::{Client, Db, MATING_GAME, new_game, on_both_databases, server, sqlite, unique};
use reqwest::StatusCode;
use serde_json::{Value, json};
use xiangqi_server::Running;

on_both_databases!(accounts_register_log_in_out_and_change_password);
async fn accounts_register_log_in_out_and_change_password(db: Db) {
    let s = server(&db).await;
    let a = Client::register(&s, "acct").await;
    assert_eq!(a.get("/session").await.1["user"]["name"], a.name.as_str());
    // The same name in another case is taken.
    let other = Client::new(&s, "x");
    let (st, v) =
        other.post("/users", json!({"name": a.name.to_uppercase(), "password": "another-pass"})).await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");
    assert_eq!(
        other.post("/users", json!({"name": "no spaces allowed", "password": "another-pass"})).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        other.post("/users", json!({"name": "shortpw", "password": "short"})).await.0,
        StatusCode::BAD_REQUEST
    );
    // Log out, log in with the wrong and the right password.
    assert_eq!(a.delete("/session").await.0, StatusCode::NO_CONTENT);
    assert_eq!(a.get("/session").await.0, StatusCode::UNAUTHORIZED);
    let (st, v) = a.post("/session", json!({"name": a.name, "password": "wrong-pass"})).await;
    assert_eq!((st, v["error"].as_str()), (StatusCode::UNAUTHORIZED, Some("unauthorized")));
    assert_eq!(
        a.post("/session", json!({"name": a.name, "password": "secret-pass"})).await.0,
        StatusCode::OK
    );
    // Change the password: a second session of the same user ends.
    let second = Client::new(&s, &a.name);
    assert_eq!(
        second.post("/session", json!({"name": a.name, "password": "secret-pass"})).await.0,
        StatusCode::OK
    );
    assert_eq!(
        a.post("/me/password", json!({"old": "wrong-pass", "new": "new-secret-1"})).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        a.post("/me/password", json!({"old": "secret-pass", "new": "new-secret-1"})).await.0,
        StatusCode::NO_CONTENT
    );
    assert_eq!(second.get("/session").await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(a.get("/session").await.0, StatusCode::OK);
    // Profile with bio, join date and record.
    let (st, v) = a.send(reqwest::Method::PUT, "/me/profile", Some(json!({"bio": "I like cannons"}))).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (_, v) = other.get(&format!("/users/{}", a.name)).await;
    assert_eq!(v["user"]["bio"], "I like cannons");
    assert!(v["user"]["joined"].as_i64().unwrap() > 0);
    assert_eq!(v["user"]["record"], json!({"wins": 0, "losses": 0, "draws": 0}));
    s.stop().await;
}

on_both_databases!(log_in_attempts_are_rate_limited);
async fn log_in_attempts_are_rate_limited(db: Db) {
    let s = server(&db).await;
    let a = Client::register(&s, "rate").await;
    for _ in 0..5 {
        assert_eq!(
            a.post("/session", json!({"name": a.name, "password": "bad-guess"})).await.0,
            StatusCode::UNAUTHORIZED
        );
    }
    let (st, v) = a.post("/session", json!({"name": a.name, "password": "secret-pass"})).await;
    assert_eq!(st, StatusCode::TOO_MANY_REQUESTS, "{v}");
    s.stop().await;
}

on_both_databases!(a_challenged_game_is_played_to_checkmate);
async fn a_challenged_game_is_played_to_checkmate(db: Db) {
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "red").await, Client::register(&s, "blk").await);
    let game = new_game(&a, &b, "asian").await;
    let (_, v) = a.get("/games").await;
    assert_eq!(v["my_turn"][0]["id"], game.as_str());
    assert_eq!(b.get("/games").await.1["their_turn"][0]["id"], game.as_str());
    let mut last = Value::Null;
    for (ply, mv) in MATING_GAME.split_whitespace().enumerate() {
        let player = if ply % 2 == 0 { &a } else { &b };
        let (st, v) = player.play(&game, ply as i64, mv).await;
        assert_eq!(st, StatusCode::OK, "ply {ply} {mv}: {v}");
        last = v;
    }
    let g = &last["game"];
    assert_eq!(g["status"], "finished");
    assert_eq!(g["outcome"], json!({"winner": "red", "reason": "checkmate", "text": "Red wins: checkmate"}));
    assert_eq!(g["legal"], json!([]));
    assert_eq!(g["moves"].as_array().unwrap().len(), 69);
    assert_eq!(
        g["moves"][0],
        json!({"iccs": "b0c2", "wxf": "H8+7", "chinese": "马八进七", "at": g["moves"][0]["at"]})
    );
    // The record and the ratings follow.
    let (_, v) = a.get(&format!("/users/{}", a.name)).await;
    assert_eq!(v["user"]["record"]["wins"], 1);
    assert!(v["user"]["rating"].as_i64().unwrap() > 1500);
    assert_eq!(b.get("/games").await.1["finished"][0]["id"], game.as_str());
    let pgn =
        reqwest::get(format!("{}/api/v1/games/{game}/pgn", s.url())).await.unwrap().text().await.unwrap();
    assert!(
        pgn.starts_with("[Game \"Chinese Chess\"]")
            && pgn.contains("[Result \"1-0\"]")
            && pgn.contains("1. H8+7"),
        "{pgn}"
    );
    // No move after the end.
    assert_eq!(b.play(&game, 69, "a9a8").await.0, StatusCode::CONFLICT);
    s.stop().await;
}

on_both_databases!(moves_out_of_turn_illegal_or_in_others_games_are_refused_and_change_nothing);
async fn moves_out_of_turn_illegal_or_in_others_games_are_refused_and_change_nothing(db: Db) {
    let s = server(&db).await;
    let (a, b, c) = (
        Client::register(&s, "ra").await,
        Client::register(&s, "bl").await,
        Client::register(&s, "ot").await,
    );
    let game = new_game(&a, &b, "itsyourturn").await;
    let (st, v) = b.play(&game, 0, "h7e7").await;
    assert_eq!((st, v["error"].as_str()), (StatusCode::FORBIDDEN, Some("forbidden")), "out of turn: {v}");
    let (st, v) = a.play(&game, 0, "h2h8").await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["error"], "illegal_move");
    assert!(v["message"].as_str().unwrap().contains("cannot move that way"), "{v}");
    let (st, v) = a.play(&game, 0, "nonsense").await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(c.play(&game, 0, "h2e2").await.0, StatusCode::FORBIDDEN, "not a player");
    assert_eq!(c.post(&format!("/games/{game}/resign"), json!({})).await.0, StatusCode::FORBIDDEN);
    let (_, v) = c.get(&format!("/games/{game}")).await;
    assert_eq!(
        (v["game"]["ply"].as_i64(), v["game"]["version"].as_i64()),
        (Some(0), Some(1)),
        "nothing changed"
    );
    // Moves in WXF and Chinese are accepted too.
    assert_eq!(a.play(&game, 0, "C2=5").await.0, StatusCode::OK);
    assert_eq!(b.play(&game, 1, "马8进7").await.0, StatusCode::OK);
    let (_, v) = c.get(&format!("/games/{game}")).await;
    assert_eq!(v["game"]["last_move"], "h9g7");
    s.stop().await;
}

on_both_databases!(a_double_submit_is_a_conflict_and_a_race_has_one_winner);
async fn a_double_submit_is_a_conflict_and_a_race_has_one_winner(db: Db) {
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "dbl").await, Client::register(&s, "sub").await);
    let game = new_game(&a, &b, "casual").await;
    assert_eq!(a.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    let (st, v) = a.play(&game, 0, "h2e2").await;
    assert_eq!((st, v["error"].as_str()), (StatusCode::CONFLICT, Some("conflict")), "{v}");
    // Two submits of Black's first move at once, from two sessions of the same player.
    let b2 = Client::new(&s, &b.name);
    assert_eq!(
        b2.post("/session", json!({"name": b.name, "password": "secret-pass"})).await.0,
        StatusCode::OK
    );
    let (r1, r2) = tokio::join!(b.play(&game, 1, "h9g7"), b2.play(&game, 1, "b9c7"));
    let statuses = [r1.0, r2.0];
    assert!(statuses.contains(&StatusCode::OK) && statuses.contains(&StatusCode::CONFLICT), "{r1:?} {r2:?}");
    let (_, v) = a.get(&format!("/games/{game}")).await;
    assert_eq!(v["game"]["ply"], 2);
    assert_eq!(v["game"]["moves"].as_array().unwrap().len(), 2);
    s.stop().await;
}

on_both_databases!(resignation_and_draw_offers);
async fn resignation_and_draw_offers(db: Db) {
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "rs").await, Client::register(&s, "dr").await);
    let game = new_game(&a, &b, "asian").await;
    let (st, v) = b.post(&format!("/games/{game}/resign"), json!({})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["game"]["outcome"]["text"], "Red wins: resignation");
    assert_eq!(a.post(&format!("/games/{game}/resign"), json!({})).await.0, StatusCode::CONFLICT);

    let game = new_game(&a, &b, "asian").await;
    let draw = format!("/games/{game}/draw");
    assert_eq!(b.post(&draw, json!({"action": "accept"})).await.0, StatusCode::CONFLICT, "no offer yet");
    let (_, v) = a.post(&draw, json!({"action": "offer"})).await;
    assert_eq!(v["game"]["draw_offer"], "red");
    assert_eq!(a.post(&draw, json!({"action": "offer"})).await.0, StatusCode::CONFLICT, "offered already");
    let (_, v) = b.post(&draw, json!({"action": "decline"})).await;
    assert_eq!(v["game"]["draw_offer"], Value::Null);
    a.post(&draw, json!({"action": "offer"})).await;
    // A move cancels a standing offer.
    assert_eq!(a.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    assert_eq!(a.get(&format!("/games/{game}")).await.1["game"]["draw_offer"], Value::Null);
    b.post(&draw, json!({"action": "offer"})).await;
    let (_, v) = a.post(&draw, json!({"action": "accept"})).await;
    assert_eq!(
        v["game"]["outcome"],
        json!({"winner": null, "reason": "agreement", "text": "Draw: agreement"})
    );
    assert_eq!(b.post(&draw, json!({"action": "offer"})).await.0, StatusCode::CONFLICT, "the game is over");
    // An action that does not exist is refused before anything is looked at.
    let (st, v) = b.post(&draw, json!({"action": "bogus"})).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["message"].as_str().unwrap().contains("bogus"), "{v}");
    s.stop().await;
}

on_both_databases!(waiting_room_and_auto_match);
async fn waiting_room_and_auto_match(db: Db) {
    let s = server(&db).await;
    let (a, b, c) = (
        Client::register(&s, "wa").await,
        Client::register(&s, "wb").await,
        Client::register(&s, "wc").await,
    );
    let terms = json!({"rules": "asian", "color": "black", "clock": {"kind": "live", "base": 600000, "increment": 5000}});
    let (st, v) = a.post("/challenges", terms).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let id = v["challenge"]["id"].as_str().unwrap().to_string();
    assert!(b.get("/challenges").await.1["open"].as_array().unwrap().iter().any(|x| x["id"] == id.as_str()));
    assert!(
        a.get("/challenges").await.1["outgoing"].as_array().unwrap().iter().any(|x| x["id"] == id.as_str())
    );
    assert_eq!(
        a.post(&format!("/challenges/{id}/accept"), json!({})).await.0,
        StatusCode::FORBIDDEN,
        "own challenge"
    );
    let (st, v) = b.post(&format!("/challenges/{id}/accept"), json!({})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(
        (v["game"]["black"].as_str(), v["game"]["red"].as_str()),
        (Some(a.name.as_str()), Some(b.name.as_str()))
    );
    assert_eq!(v["game"]["clocks"]["red"], 600000);
    assert_eq!(c.post(&format!("/challenges/{id}/accept"), json!({})).await.0, StatusCode::CONFLICT, "taken");
    // A cancelled challenge cannot be accepted.
    let (_, v) = a
        .post(
            "/challenges",
            json!({"rules": "casual", "color": "random", "clock": {"kind": "correspondence", "hours": 48}}),
        )
        .await;
    let id = v["challenge"]["id"].as_str().unwrap().to_string();
    assert_eq!(c.delete(&format!("/challenges/{id}")).await.0, StatusCode::FORBIDDEN);
    assert_eq!(a.delete(&format!("/challenges/{id}")).await.0, StatusCode::NO_CONTENT);
    assert_eq!(c.post(&format!("/challenges/{id}/accept"), json!({})).await.0, StatusCode::CONFLICT);
    // Auto-match: the first waits, the second with the same settings is paired.
    // A clock no other test (or earlier run on a kept database) asks for.
    let base = 60_000
        + i64::from(
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_micros(),
        );
    let want = json!({"rules": "itsyourturn", "clock": {"kind": "live", "base": base, "increment": 1000}});
    let (st, v) = b.post("/automatch", want.clone()).await;
    assert_eq!(st, StatusCode::ACCEPTED, "{v}");
    let (st, _) = b.post("/automatch", want.clone()).await;
    assert_eq!(st, StatusCode::ACCEPTED, "asking again keeps one place in the queue");
    let other = json!({"rules": "asian", "clock": {"kind": "live", "base": base, "increment": 1000}});
    assert_eq!(c.post("/automatch", other).await.0, StatusCode::ACCEPTED, "different settings do not pair");
    let (st, v) = c.post("/automatch", want).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let players = [v["game"]["red"].as_str().unwrap(), v["game"]["black"].as_str().unwrap()];
    assert!(players.contains(&b.name.as_str()) && players.contains(&c.name.as_str()));
    s.stop().await;
}

on_both_databases!(bad_requests_get_clear_errors_and_change_nothing);
async fn bad_requests_get_clear_errors_and_change_nothing(db: Db) {
    let s = server(&db).await;
    let a = Client::register(&s, "bad").await;
    let url = format!("{}/api/v1/challenges", s.url());
    let raw = |body: String| {
        a.http.post(&url).header("X-Xiangqi", "1").header("Content-Type", "application/json").body(body)
    };
    let r = raw("{not json".into()).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "bad_request");
    let r = raw(format!("{{\"bio\": \"{}\"}}", "x".repeat(100_000))).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let (st, _) = a
        .post(
            "/challenges",
            json!({"rules": "chess", "color": "red", "clock": {"kind": "correspondence", "hours": 24}}),
        )
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let (st, _) = a
        .post(
            "/challenges",
            json!({"rules": "asian", "color": "red", "clock": {"kind": "live", "base": 5, "increment": 0}}),
        )
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(a.get("/games/doesnotexist").await.0, StatusCode::NOT_FOUND);
    assert_eq!(a.get("/users/nobody-here").await.0, StatusCode::NOT_FOUND);
    assert_eq!(a.post("/challenges/nope/accept", json!({})).await.0, StatusCode::NOT_FOUND);
    assert_eq!(a.get("/no/such/thing").await.0, StatusCode::NOT_FOUND);
    // A write without the anti-forgery header is refused even with a valid session.
    let r = a
        .http
        .post(&url)
        .json(&json!({"rules": "asian", "color": "red", "clock": {"kind": "correspondence", "hours": 24}}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert_eq!(a.get("/challenges").await.1["outgoing"], json!([]), "nothing was created");
    // An unknown or expired token is unauthorized; a bearer token works without the header.
    let anon = reqwest::Client::new();
    let r = anon.get(format!("{}/api/v1/session", s.url())).bearer_auth("0000").send().await.unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let fresh = Client::new(&s, &a.name);
    let (_, v) = fresh.post("/session", json!({"name": a.name, "password": "secret-pass"})).await;
    let token = v["token"].as_str().unwrap();
    let r = anon
        .post(&url)
        .bearer_auth(token)
        .json(&json!({"rules": "asian", "color": "red", "clock": {"kind": "correspondence", "hours": 24}}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    s.stop().await;
}

on_both_databases!(a_restart_loses_nothing);
async fn a_restart_loses_nothing(db: Db) {
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "rst").await, Client::register(&s, "art").await);
    let game = new_game(&a, &b, "asian").await;
    for (ply, mv) in ["h2e2", "h9g7", "h0g2"].iter().enumerate() {
        let p = if ply % 2 == 0 { &a } else { &b };
        assert_eq!(p.play(&game, ply as i64, mv).await.0, StatusCode::OK);
    }
    let before = a.get(&format!("/games/{game}")).await.1;
    s.stop().await;
    let s = server(&db).await;
    let a = Client::new(&s, &a.name);
    assert_eq!(
        a.post("/session", json!({"name": a.name, "password": "secret-pass"})).await.0,
        StatusCode::OK
    );
    let after = a.get(&format!("/games/{game}")).await.1;
    assert_eq!(after, before);
    let b = Client::new(&s, &b.name);
    b.post("/session", json!({"name": b.name, "password": "secret-pass"})).await;
    assert_eq!(b.play(&game, 3, "i9h9").await.0, StatusCode::OK);
    s.stop().await;
}

on_both_databases!(watchers_get_each_move_live_over_the_websocket);
async fn watchers_get_each_move_live_over_the_websocket(db: Db) {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "ws").await, Client::register(&s, "wt").await);
    let game = new_game(&a, &b, "asian").await;
    let ws_url = format!("ws://{}/api/v1/ws", s.addr());
    let (mut socket, _) = tokio_tungstenite::connect_async(ws_url).await.expect("websocket");
    socket.send(Message::Text(json!({"watch": game}).to_string().into())).await.unwrap();
    let mut next_game = async || loop {
        let msg = tokio::time::timeout(std::time::Duration::from_secs(10), socket.next())
            .await
            .expect("an update in time");
        if let Some(Ok(Message::Text(t))) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "game" {
                return v["game"].clone();
            }
        }
    };
    let first = next_game().await;
    assert_eq!(first["ply"], 0, "the current state on watching");
    assert_eq!(a.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    // Earlier changes may still be on their way (through the database with
    // PostgreSQL); states only move forward.
    let update = loop {
        let g = next_game().await;
        assert!(g["version"].as_i64() >= first["version"].as_i64());
        if g["ply"] == 1 {
            break g;
        }
    };
    assert_eq!(update["last_move"], "h2e2");
    assert_eq!(update["version"].as_i64(), Some(first["version"].as_i64().unwrap() + 1));
    s.stop().await;
}

/// How far from a limit each step of a test on an injected clock stays: the
/// system's clock, which it goes by too, moves on while the test runs.
const MARGIN: Duration = Duration::from_secs(5);

/// A game as `c` reads it.
async fn game_state(c: &Client, game: &str) -> Value {
    let (st, v) = c.get(&format!("/games/{game}")).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    v["game"].clone()
}

/// A live game between `a` (Red) and `b`, 60 s and 1 s a move: its id.
async fn live_game(a: &Client, b: &Client) -> String {
    let terms = json!({"opponent": b.name, "rules": "asian", "color": "red",
        "clock": {"kind": "live", "base": 60000, "increment": 1000}});
    let (_, v) = a.post("/challenges", terms).await;
    let id = v["challenge"]["id"].as_str().unwrap().to_string();
    let (_, v) = b.post(&format!("/challenges/{id}/accept"), json!({})).await;
    v["game"]["id"].as_str().unwrap().to_string()
}

/// Queues `c`'s premove in `game`.
async fn premove(c: &Client, game: &str, ply: i64, mv: &str) -> (StatusCode, Value) {
    c.send(reqwest::Method::PUT, &format!("/games/{game}/premove"), Some(json!({"ply": ply, "move": mv})))
        .await
}

on_both_databases!(a_premove_is_played_with_the_opponent_s_move_and_costs_no_time);
async fn a_premove_is_played_with_the_opponent_s_move_and_costs_no_time(db: Db) {
    let db = db.apart("premove").await;
    let clock = xiangqi_server::Clock::default();
    let s = common::server_on(&db, &clock).await;
    let (a, b, c) = (
        Client::register(&s, "pma").await,
        Client::register(&s, "pmb").await,
        Client::register(&s, "pmc").await,
    );
    let game = live_game(&a, &b).await;
    assert_eq!(a.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    assert_eq!(b.play(&game, 1, "h9g7").await.0, StatusCode::OK);
    clock.advance(Duration::from_secs(3));
    assert_eq!(a.play(&game, 2, "b0c2").await.0, StatusCode::OK);

    // Black to move: Red queues a reply. Refusals first, each naming why.
    for (who, ply, mv, status) in [
        (&a, 2, "h0g2", StatusCode::CONFLICT),    // the game is past that count
        (&b, 3, "h7h0", StatusCode::CONFLICT),    // it is Black's own move: play it
        (&a, 3, "h9h8", StatusCode::BAD_REQUEST), // not one of Red's pieces
        (&a, 3, "zz", StatusCode::BAD_REQUEST),
        (&c, 3, "h0g2", StatusCode::FORBIDDEN), // not playing here
    ] {
        let (st, v) = premove(who, &game, ply, mv).await;
        assert_eq!(st, status, "{mv}: {v}");
    }
    let (st, v) = premove(&a, &game, 3, "i0i1").await;
    assert_eq!((st, &v["premove"]), (StatusCode::OK, &json!("i0i1")), "{v}");
    let (st, v) = premove(&a, &game, 3, "h0g2").await;
    assert_eq!((st, &v["premove"]), (StatusCode::OK, &json!("h0g2")), "one a side: the new one replaces it");
    assert_eq!(a.get(&format!("/games/{game}/premove")).await.1["premove"], "h0g2");
    assert_eq!(
        b.get(&format!("/games/{game}/premove")).await.1["premove"],
        Value::Null,
        "only its player sees it"
    );
    let seen = game_state(&b, &game).await;
    assert!(!seen.to_string().contains("h0g2"), "the game's state tells nobody: {seen}");
    let red_before = seen["clocks"]["red"].as_i64().unwrap();

    // Black's move brings Red's reply in the same write, at no cost to Red's clock.
    clock.advance(Duration::from_secs(4));
    let (st, v) = b.play(&game, 3, "b9c7").await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let g = &v["game"];
    assert_eq!(g["ply"], 5, "{g}");
    let moves: Vec<&str> =
        g["moves"].as_array().unwrap().iter().map(|m| m["iccs"].as_str().unwrap()).collect();
    assert_eq!(moves[3..], ["b9c7", "h0g2"]);
    assert_eq!(
        g["clocks"]["red"].as_i64().unwrap(),
        red_before + 1000,
        "no time taken, the increment gained"
    );
    assert_eq!(g["clocks"]["running"], "black");
    assert_eq!(a.get(&format!("/games/{game}/premove")).await.1["premove"], Value::Null, "played, so gone");
    assert_eq!(game_state(&a, &game).await["moves"].as_array().unwrap().len(), 5, "as stored");
    s.stop().await;
}

on_both_databases!(a_premove_that_became_illegal_or_was_taken_back_is_dropped_never_played);
async fn a_premove_that_became_illegal_or_was_taken_back_is_dropped_never_played(db: Db) {
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "pia").await, Client::register(&s, "pib").await);
    let game = live_game(&a, &b).await;
    assert_eq!(a.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    // Red's cannon on e2 cannot move through its own soldier on e3 (without
    // taking): kept, then dropped.
    assert_eq!(premove(&a, &game, 1, "e2e4").await.0, StatusCode::OK);
    let (st, v) = b.play(&game, 1, "h9g7").await;
    assert_eq!((st, &v["game"]["ply"]), (StatusCode::OK, &json!(2)), "{v}");
    assert_eq!(a.get(&format!("/games/{game}/premove")).await.1["premove"], Value::Null, "dropped");
    assert_eq!(a.play(&game, 2, "h0g2").await.0, StatusCode::OK);
    // Queued, taken back: Black's move is alone.
    assert_eq!(premove(&a, &game, 3, "i0h0").await.0, StatusCode::OK);
    let (st, v) = a.delete(&format!("/games/{game}/premove")).await;
    assert_eq!((st, &v["premove"]), (StatusCode::OK, &Value::Null), "{v}");
    let (st, v) = b.play(&game, 3, "i9h9").await;
    assert_eq!((st, &v["game"]["ply"]), (StatusCode::OK, &json!(4)), "{v}");
    // Correspondence games take none.
    let slow = common::new_game(&a, &b, "asian").await;
    assert_eq!(a.play(&slow, 0, "h2e2").await.0, StatusCode::OK);
    let (st, v) = premove(&a, &slow, 1, "h0g2").await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");
    assert!(v["message"].as_str().unwrap().contains("live"), "{v}");
    s.stop().await;
}

/// Keeps `c`'s conditional moves in `game`.
async fn conditionals(c: &Client, game: &str, ply: i64, lines: Value) -> (StatusCode, Value) {
    c.send(
        reqwest::Method::PUT,
        &format!("/games/{game}/conditionals"),
        Some(json!({"ply": ply, "lines": lines})),
    )
    .await
}

/// The ICCS of every move of each line of a conditional moves' answer.
fn iccs_lines(v: &Value) -> Vec<Vec<String>> {
    let line =
        |l: &Value| l.as_array().unwrap().iter().map(|m| m["iccs"].as_str().unwrap().to_string()).collect();
    v["lines"].as_array().unwrap().iter().map(line).collect()
}

on_both_databases!(conditional_moves_answer_in_the_opponent_s_write_and_drop_at_the_first_mismatch);
async fn conditional_moves_answer_in_the_opponent_s_write_and_drop_at_the_first_mismatch(db: Db) {
    let s = server(&db).await;
    let (a, b, c) = (
        Client::register(&s, "cma").await,
        Client::register(&s, "cmb").await,
        Client::register(&s, "cmc").await,
    );
    let game = common::new_game(&a, &b, "asian").await;
    assert_eq!(a.play(&game, 0, "h2e2").await.0, StatusCode::OK);

    // Black to move: Red prepares answers. Refusals first, each naming why.
    for (who, ply, lines, status, reason) in [
        (&a, 0, json!([["h9g7", "h0g2"]]), StatusCode::CONFLICT, "moved_already"),
        (&b, 1, json!([["h9g7", "h0g2"]]), StatusCode::CONFLICT, "conditionals_on_your_turn"),
        (&c, 1, json!([["h9g7", "h0g2"]]), StatusCode::FORBIDDEN, "not_playing"),
        (&a, 1, json!([["h9g7"]]), StatusCode::BAD_REQUEST, "conditional_ends_with_theirs"),
        (&a, 1, json!([["h9g7", "h0g2"], ["h9g7", "h0h1"]]), StatusCode::BAD_REQUEST, "conditional_illegal"),
        (
            &a,
            1,
            json!([["h9g7", "h0g2"], ["h9g7", "b0c2"]]),
            StatusCode::BAD_REQUEST,
            "conditional_two_answers",
        ),
        (&a, 1, json!(vec![["h9g7", "h0g2"]; 501]), StatusCode::PAYLOAD_TOO_LARGE, "record_limit"),
    ] {
        let (st, v) = conditionals(who, &game, ply, lines).await;
        assert_eq!((st, v["reason"].as_str()), (status, Some(reason)), "{v}");
    }
    let (st, v) = conditionals(
        &a,
        &game,
        1,
        json!([["h9g7", "h0g2"], ["H8+7", "H2+3", "i9h9", "i0h0"], ["b9c7", "马二进三"]]),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(iccs_lines(&v), vec![vec!["h9g7", "h0g2", "i9h9", "i0h0"], vec!["b9c7", "h0g2"]]);
    assert_eq!(v["lines"][1][1]["wxf"], "H2+3", "every notation: {v}");
    assert_eq!(iccs_lines(&a.get(&format!("/games/{game}/conditionals")).await.1).len(), 2);
    assert!(
        iccs_lines(&b.get(&format!("/games/{game}/conditionals")).await.1).is_empty(),
        "only its player sees them"
    );
    let seen = game_state(&b, &game).await;
    assert!(!seen.to_string().contains("i0h0"), "the game's state tells nobody: {seen}");

    // Black's move begins a line: Red's answer comes in the same write.
    let (st, v) = b.play(&game, 1, "h9g7").await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let moves: Vec<&str> =
        v["game"]["moves"].as_array().unwrap().iter().map(|m| m["iccs"].as_str().unwrap()).collect();
    assert_eq!(moves, ["h2e2", "h9g7", "h0g2"]);
    assert_eq!(game_state(&a, &game).await["moves"].as_array().unwrap().len(), 3, "as stored");
    let rest = a.get(&format!("/games/{game}/conditionals")).await.1;
    assert_eq!(iccs_lines(&rest), [["i9h9", "i0h0"]], "the line goes on: {rest}");
    // A move no line begins with drops them all; nothing is played for Red.
    let (st, v) = b.play(&game, 3, "b9c7").await;
    assert_eq!((st, &v["game"]["ply"]), (StatusCode::OK, &json!(4)), "{v}");
    assert!(iccs_lines(&a.get(&format!("/games/{game}/conditionals")).await.1).is_empty(), "dropped");

    // Taken back with an empty list: Black's move is alone.
    assert_eq!(a.play(&game, 4, "i0h0").await.0, StatusCode::OK);
    assert_eq!(conditionals(&a, &game, 5, json!([["i9h9", "b0c2"]])).await.0, StatusCode::OK);
    let (st, v) = conditionals(&a, &game, 5, json!([])).await;
    assert_eq!((st, v["lines"].as_array().map(Vec::len)), (StatusCode::OK, Some(0)), "{v}");
    let (st, v) = b.play(&game, 5, "i9h9").await;
    assert_eq!((st, &v["game"]["ply"]), (StatusCode::OK, &json!(6)), "{v}");

    // Live games take premoves instead.
    let live = live_game(&a, &b).await;
    assert_eq!(a.play(&live, 0, "h2e2").await.0, StatusCode::OK);
    let (st, v) = conditionals(&a, &live, 1, json!([["h9g7", "h0g2"]])).await;
    assert_eq!(
        (st, v["reason"].as_str()),
        (StatusCode::CONFLICT, Some("conditionals_correspondence_only")),
        "{v}"
    );
    s.stop().await;
}

on_both_databases!(live_clocks_flag_by_themselves);
async fn live_clocks_flag_by_themselves(db: Db) {
    let db = db.apart("flag").await;
    let clock = xiangqi_server::Clock::default();
    let s = common::server_on(&db, &clock).await;
    let (a, b) = (Client::register(&s, "clk").await, Client::register(&s, "flg").await);
    let terms = json!({"opponent": b.name, "rules": "asian", "color": "red", "clock": {"kind": "live", "base": 10000, "increment": 0}});
    let (_, v) = a.post("/challenges", terms).await;
    let id = v["challenge"]["id"].as_str().unwrap().to_string();
    let (_, v) = b.post(&format!("/challenges/{id}/accept"), json!({})).await;
    let game = v["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(
        b.post(&format!("/games/{game}/claim"), json!({})).await.0,
        StatusCode::CONFLICT,
        "red still has time"
    );
    // The clocks start once both sides have made their first move; then
    // Red's ten seconds pass and the server's sweep flags the game, not before.
    assert_eq!(a.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    assert_eq!(b.play(&game, 1, "h9g7").await.0, StatusCode::OK);
    clock.advance(Duration::from_secs(10) - MARGIN);
    s.sweep().await;
    assert_eq!(game_state(&a, &game).await["status"], "active", "red has time left");
    clock.advance(MARGIN);
    s.sweep().await;
    let over = game_state(&a, &game).await;
    assert_eq!(over["status"], "finished", "{over}");
    assert_eq!(over["outcome"]["winner"], "black");
    assert_eq!(over["outcome"]["reason"], "time_forfeit");
    s.stop().await;
}

on_both_databases!(live_games_nobody_starts_are_aborted_not_lost_and_untimed_until_both_moved);
async fn live_games_nobody_starts_are_aborted_not_lost_and_untimed_until_both_moved(db: Db) {
    let db = db.apart("abort").await;
    let clock = xiangqi_server::Clock::default();
    let s = common::server_on(&db, &clock).await;
    let wait = Duration::from_millis(xiangqi_server::Limits::default().first_move_ms as u64);
    let (a, b) = (Client::register(&s, "abo").await, Client::register(&s, "rtd").await);
    let live = json!({"kind": "live", "base": 60000, "increment": 0});
    let start = |clock: Value| {
        let (a, b) = (&a, &b);
        async move {
            let terms = json!({"opponent": b.name, "rules": "asian", "color": "red", "clock": clock});
            let (_, v) = a.post("/challenges", terms).await;
            let id = v["challenge"]["id"].as_str().unwrap().to_string();
            let (_, v) = b.post(&format!("/challenges/{id}/accept"), json!({})).await;
            v["game"]["id"].as_str().unwrap().to_string()
        }
    };
    // Nobody moves: the game waits its time, then is aborted, with no result.
    let game = start(live.clone()).await;
    let v = game_state(&a, &game).await;
    assert_eq!(v["clocks"]["running"], Value::Null, "no clock runs before the first moves");
    clock.advance(wait - MARGIN);
    s.sweep().await;
    assert_eq!(game_state(&a, &game).await["status"], "active", "red's wait is not over");
    clock.advance(MARGIN);
    s.sweep().await;
    let over = game_state(&a, &game).await;
    assert_eq!(over["status"], "aborted", "{over}");
    assert_eq!(over["outcome"], Value::Null);
    // Red moves near the end of its wait, Black does not: aborted too, once
    // Black's own wait (from Red's move) is over; Red's first move cost nothing.
    let game = start(live.clone()).await;
    clock.advance(wait - MARGIN);
    let (st, v) = a.play(&game, 0, "h2e2").await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["game"]["clocks"]["red"], 60000, "{v}");
    assert_eq!(v["game"]["clocks"]["running"], Value::Null);
    clock.advance(wait - MARGIN);
    s.sweep().await;
    assert_eq!(game_state(&a, &game).await["status"], "active", "black's wait is not over");
    clock.advance(MARGIN);
    s.sweep().await;
    let over = game_state(&a, &game).await;
    assert_eq!(over["status"], "aborted", "{over}");
    // Both move in time: the game goes on past the wait and Red's clock runs.
    // Correspondence games have no such wait.
    let game = start(live.clone()).await;
    let slow = start(json!({"kind": "correspondence", "hours": 24})).await;
    assert_eq!(a.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    let (st, v) = b.play(&game, 1, "h9g7").await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["game"]["clocks"]["running"], "red");
    clock.advance(wait + MARGIN);
    s.sweep().await;
    let v = game_state(&a, &game).await;
    assert_eq!(v["status"], "active", "{v}");
    let v = game_state(&a, &slow).await;
    assert_eq!(v["status"], "active", "{v}");
    for c in [&a, &b] {
        let (_, v) = c.get(&format!("/users/{}", c.name)).await;
        assert_eq!(v["user"]["record"], json!({"wins": 0, "losses": 0, "draws": 0}), "{v}");
    }
    s.stop().await;
}

on_both_databases!(refusals_send_a_reason_and_its_particulars);
async fn refusals_send_a_reason_and_its_particulars(db: Db) {
    let s = server(&db).await;
    let a = Client::register(&s, "rsn").await;
    let b = Client::register(&s, "rsb").await;
    let visitor = Client::new(&s, &unique("rsv"));
    // Every refusal has a reason of its own, with its particulars.
    let (st, v) = visitor.get("/games/nonesuch").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert_eq!(
        (&v["error"], &v["reason"], &v["params"]),
        (&json!("not_found"), &json!("no_game"), &json!({"id": "nonesuch"})),
        "{v}"
    );
    let cases = [
        (
            visitor.post("/users", json!({"name": a.name, "password": "secret-pass"})).await,
            "name_taken",
            json!({"name": a.name}),
        ),
        (
            visitor.post("/users", json!({"name": unique("rss"), "password": "short"})).await,
            "password_length",
            json!({"min": 8, "max": 200}),
        ),
        (
            a.post("/me/password", json!({"old": "not-the-pass", "new": "another-pass"})).await,
            "old_password_wrong",
            json!({}),
        ),
        (
            visitor.post("/session", json!({"name": a.name, "password": "not-the-pass"})).await,
            "wrong_credentials",
            json!({}),
        ),
        (
            a.post("/messages", json!({"to": "nobody-here", "body": "hello"})).await,
            "no_user",
            json!({"name": "nobody-here"}),
        ),
    ];
    for ((st, v), reason, params) in cases {
        assert!(st.is_client_error(), "{v}");
        assert_eq!(v["reason"], reason, "{v}");
        assert_eq!(v["params"], params, "{v}");
        assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "the English words stay: {v}");
    }
    let game = new_game(&a, &b, "asian").await;
    let (_, v) = b.play(&game, 0, "h7e7").await;
    assert_eq!(v["reason"], "not_your_turn", "{v}");
    // A particular that is a name: why the move is illegal.
    let (st, v) = a.play(&game, 0, "a0a5").await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(
        (&v["reason"], &v["params"]),
        (&json!("illegal_move"), &json!({"text": "a0a5", "why": "not_a_move"})),
        "{v}"
    );
    s.stop().await;
}

#[tokio::test]
async fn websockets_from_another_site_are_refused() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let db = sqlite();
    let s = server(&db).await;
    let mut req = format!("ws://{}/api/v1/ws", s.addr()).into_client_request().unwrap();
    req.headers_mut().insert("Origin", "http://evil.example".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_err());
    let mut req = format!("ws://{}/api/v1/ws", s.addr()).into_client_request().unwrap();
    req.headers_mut().insert("Origin", format!("http://{}", s.addr()).parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_ok());
    s.stop().await;
}

on_both_databases!(requests_with_unknown_or_unsupported_fields_are_refused_naming_them);
async fn requests_with_unknown_or_unsupported_fields_are_refused_naming_them(db: Db) {
    let s = server(&db).await;
    let a = Client::register(&s, "unk").await;
    let clock = json!({"kind": "correspondence", "hours": 72});
    let (st, v) = a.post("/challenges", json!({"rules": "asian", "colour": "red", "clock": clock})).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["message"].as_str().unwrap().contains("colour"), "{v}");
    let (st, v) = a
        .post("/challenges", json!({"rules": "asian", "color": "red", "clock": clock, "variant": "hex"}))
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["message"].as_str().unwrap().contains("variant"), "{v}");
    let (st, v) = a.post("/automatch", json!({"rules": "asian", "clock": clock, "speed": "fast"})).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["message"].as_str().unwrap().contains("speed"), "{v}");
    let (st, v) = a.post("/challenges", json!({"rules": "asian", "color": "red", "clock": {"kind": "correspondence", "hours": 72, "minutes": 1}})).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["message"].as_str().unwrap().contains("minutes"), "{v}");
    let (st, v) = a.get("/users?page=2").await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["message"].as_str().unwrap().contains("page"), "{v}");
    assert_eq!(a.get("/challenges").await.1["outgoing"], json!([]), "nothing was created");
    s.stop().await;
}

on_both_databases!(a_client_without_cookies_or_the_header_registers_logs_in_and_plays_by_token);
async fn a_client_without_cookies_or_the_header_registers_logs_in_and_plays_by_token(db: Db) {
    let s = server(&db).await;
    let plain = reqwest::Client::new();
    let base = format!("{}/api/v1", s.url());
    let name = unique("bot");
    let r = plain
        .post(format!("{base}/users"))
        .json(&json!({"name": name, "password": "secret-pass"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let r = plain
        .post(format!("{base}/session"))
        .json(&json!({"name": name, "password": "secret-pass"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let token = r.json::<Value>().await.unwrap()["token"].as_str().unwrap().to_string();
    let r = plain
        .post(format!("{base}/challenges"))
        .bearer_auth(&token)
        .json(&json!({"rules": "asian", "color": "red", "clock": {"kind": "correspondence", "hours": 72}}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    // The cookie a browser sends by itself still needs the header.
    let r = plain
        .post(format!("{base}/challenges"))
        .header("Cookie", format!("xiangqi_session={token}"))
        .json(&json!({"rules": "casual", "color": "red", "clock": {"kind": "correspondence", "hours": 72}}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    s.stop().await;
}

on_both_databases!(user_lists_carry_records_and_come_in_pages);
async fn user_lists_carry_records_and_come_in_pages(db: Db) {
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "pga").await, Client::register(&s, "pgb").await);
    let game = new_game(&a, &b, "asian").await;
    assert_eq!(b.post(&format!("/games/{game}/resign"), json!({})).await.0, StatusCode::OK);
    // The page that starts just before `a` holds `a` with one win.
    let before = a.name[..a.name.len() - 1].to_string();
    let (st, v) = a.get(&format!("/users?after={before}&limit=1")).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["users"].as_array().unwrap().len(), 1);
    let first = &v["users"][0];
    assert_eq!(first["name"], a.name.as_str(), "{v}");
    assert_eq!(first["record"], json!({"wins": 1, "losses": 0, "draws": 0}));
    let next = v["next"].as_str().expect("a next page").to_string();
    let (_, v) = a.get(&format!("/users?after={next}&limit=100")).await;
    assert!(v["users"].as_array().unwrap().iter().all(|u| u["name"].as_str() > Some(a.name.as_str())));
    assert!(
        v["users"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u["name"] == b.name.as_str()
                && u["record"] == json!({"wins": 0, "losses": 1, "draws": 0}))
    );
    // Which of this page's players are here.
    assert!(v["online"].as_array().unwrap().iter().any(|n| n == b.name.as_str()));
    s.stop().await;
}

#[tokio::test]
async fn pgn_carries_the_date_and_time_control() {
    let db = sqlite();
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "pgn").await, Client::register(&s, "pgo").await);
    let game = new_game(&a, &b, "asian").await;
    assert_eq!(a.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    let r = a.http.get(format!("{}/games/{game}/pgn", a.base)).send().await.unwrap();
    let text = r.text().await.unwrap();
    let year = 1970
        + std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() / 31_556_952;
    assert!(text.contains(&format!("[Date \"{year}.")), "{text}");
    assert!(text.contains("[TimeControl \"1/259200\"]"), "{text}");
    s.stop().await;
}

#[tokio::test]
async fn the_openapi_document_is_served_and_describes_every_endpoint() {
    let db = sqlite();
    let s = server(&db).await;
    let a = Client::new(&s, "doc");
    let (st, doc) = a.get("/openapi.json").await;
    assert_eq!(st, StatusCode::OK);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"), "{doc}");
    for path in ["/users", "/session", "/challenges", "/automatch", "/games/{id}/moves", "/games/{id}/pgn"] {
        assert!(doc["paths"][path].is_object(), "{path} is documented");
    }
    let game = &doc["components"]["schemas"]["GameSummary"]["properties"];
    for field in ["last_move", "updated", "draw_offer", "deadline", "variant"] {
        assert!(game[field].is_object(), "GameSummary.{field} is documented");
    }
    s.stop().await;
}

on_both_databases!(every_open_page_hears_when_the_lobby_changes);
async fn every_open_page_hears_when_the_lobby_changes(db: Db) {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "lba").await, Client::register(&s, "lbb").await);
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/v1/ws", s.addr())).await.unwrap();
    let terms = json!({"rules": "asian", "color": "red", "clock": {"kind": "correspondence", "hours": 120}});
    let (_, v) = a.post("/challenges", terms).await;
    let id = v["challenge"]["id"].as_str().unwrap().to_string();
    let heard = async |socket: &mut tokio_tungstenite::WebSocketStream<_>| loop {
        let msg =
            tokio::time::timeout(std::time::Duration::from_secs(10), socket.next()).await.expect("in time");
        if let Some(Ok(Message::Text(t))) = msg
            && serde_json::from_str::<Value>(&t).unwrap()["type"] == "lobby"
        {
            return;
        }
    };
    heard(&mut socket).await;
    assert_eq!(b.post(&format!("/challenges/{id}/accept"), json!({})).await.0, StatusCode::CREATED);
    heard(&mut socket).await;
    s.stop().await;
}

/// A WebSocket logged in as the user of `token`.
async fn user_socket(
    s: &Running,
    token: &str,
) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{}/api/v1/ws", s.addr()).into_client_request().unwrap();
    req.headers_mut().insert("Cookie", format!("xiangqi_session={token}").parse().unwrap());
    tokio_tungstenite::connect_async(req).await.expect("websocket").0
}

/// The next notice on a socket, skipping other events.
async fn next_notice(
    socket: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
) -> Value {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    loop {
        let msg =
            tokio::time::timeout(std::time::Duration::from_secs(10), socket.next()).await.expect("in time");
        if let Some(Ok(Message::Text(t))) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "notice" {
                return v;
            }
        }
    }
}

on_both_databases!(aborts_rematches_and_declined_draws_reach_the_players);
async fn aborts_rematches_and_declined_draws_reach_the_players(db: Db) {
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "abr").await, Client::register(&s, "abs").await);
    let (_, v) = a.post("/session", json!({"name": a.name, "password": "secret-pass"})).await;
    let mut a_socket = user_socket(&s, v["token"].as_str().unwrap()).await;
    // Aborted before both sides moved: no result, nobody rated.
    let game = new_game(&a, &b, "asian").await;
    assert_eq!(a.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    let (st, v) = b.post(&format!("/games/{game}/abort"), json!({})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!((v["game"]["status"].as_str(), &v["game"]["outcome"]), (Some("aborted"), &Value::Null));
    let (_, me) = a.get("/session").await;
    assert_eq!(me["user"]["rating"], 1500);
    assert_eq!(me["user"]["record"], json!({"wins": 0, "losses": 0, "draws": 0}));
    let (_, mine) = a.get("/games").await;
    assert!(mine["finished"].as_array().unwrap().iter().any(|g| g["id"] == game.as_str()), "{mine}");
    // A rematch swaps colours; when both ask it starts.
    let (st, v) = b.post(&format!("/games/{game}/rematch"), json!({})).await;
    assert_eq!(st, StatusCode::ACCEPTED, "{v}");
    assert_eq!(v["challenge"]["rematch_of"], game.as_str());
    loop {
        let n = next_notice(&mut a_socket).await;
        if n["kind"] == "rematch" {
            assert_eq!(
                (n["from"].as_str(), n["game"].as_str()),
                (Some(b.name.as_str()), Some(game.as_str()))
            );
            break;
        }
    }
    let (st, v) = a.post(&format!("/games/{game}/rematch"), json!({})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(
        (v["game"]["red"].as_str(), v["game"]["black"].as_str()),
        (Some(b.name.as_str()), Some(a.name.as_str()))
    );
    // A declined draw offer is told to the one who offered it.
    let next = v["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(a.post(&format!("/games/{next}/draw"), json!({"action": "offer"})).await.0, StatusCode::OK);
    assert_eq!(b.post(&format!("/games/{next}/draw"), json!({"action": "decline"})).await.0, StatusCode::OK);
    loop {
        let n = next_notice(&mut a_socket).await;
        if n["kind"] == "draw_declined" {
            assert_eq!(
                (n["from"].as_str(), n["game"].as_str()),
                (Some(b.name.as_str()), Some(next.as_str()))
            );
            assert!(n["text"].as_str().unwrap().contains("declined your draw offer"), "{n}");
            break;
        }
    }
    s.stop().await;
}
