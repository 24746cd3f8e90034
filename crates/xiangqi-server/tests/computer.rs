//! The computer as an opponent, through the API: games played to the end in
//! both colours and on both boards, a restart in the middle, and the limits.

mod common;

use std::time::Duration;

use common::{Client, Db, on_both_databases, server, unique};
use reqwest::StatusCode;
use serde_json::{Value, json};
use xiangqi::{Game, Position, RuleSet, Standard};
use xiangqi_engine::{Control, Engine, Level, Options, Root};
use xiangqi_server::Config;

fn days_3() -> Value {
    json!({"kind": "correspondence", "hours": 72})
}

/// Waits until the game has moved past `ply` or is over; its state then. The
/// wait is long: a level-8 search on a machine busy with other work is slow.
async fn after(c: &Client, id: &str, ply: i64) -> Value {
    for _ in 0..2_400 {
        let (_, v) = c.get(&format!("/games/{id}")).await;
        if v["game"]["ply"].as_i64() > Some(ply) || v["game"]["status"] != "active" {
            return v["game"].clone();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the computer did not move in game {id} after ply {ply}");
}

/// The person's move: what the engine at level 6 would play in the game so far.
fn strong_move(game: &Value, engine: &mut Engine) -> String {
    let start = Position::<Standard>::from_fen(game["start_fen"].as_str().unwrap()).unwrap();
    let mut g = Game::new(start, RuleSet::Asian);
    for m in game["moves"].as_array().unwrap() {
        g.play_str(m["iccs"].as_str().unwrap()).unwrap();
    }
    let root = Root::from_game(&g);
    let m = Level::new(6).unwrap().choose_move(engine, &root, &Control::new(), 1).unwrap();
    g.position().move_name(m)
}

on_both_databases!(a_level_one_game_is_played_to_the_end_in_both_colours);
async fn a_level_one_game_is_played_to_the_end_in_both_colours(db: Db) {
    let s = server(&db).await;
    let me = Client::register(&s, "vscpu").await;
    let mut engine = Engine::new(Options { hash_mb: 16, ..Options::default() });
    for color in ["red", "black"] {
        let (st, v) = me
            .post("/computer-games", json!({"level": 1, "rules": "asian", "color": color, "clock": days_3()}))
            .await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        let id = v["game"]["id"].as_str().unwrap().to_string();
        assert_eq!(v["game"][color], me.name.as_str());
        assert_eq!(v["game"]["rated"], false, "games against the computer are casual");
        let computer = if color == "red" { "black" } else { "red" };
        assert_eq!(v["game"][computer], "computer.1");
        let mut game = v["game"].clone();
        if color == "black" {
            game = after(&me, &id, 0).await;
        }
        while game["status"] == "active" {
            let ply = game["ply"].as_i64().unwrap();
            assert!(ply < 400, "level 1 lasts this long against level 6: {game}");
            let mv = strong_move(&game, &mut engine);
            let (st, v) = me.play(&id, ply, &mv).await;
            assert_eq!(st, StatusCode::OK, "{mv}: {v}");
            game = after(&me, &id, ply + 1).await;
        }
        assert_eq!(game["status"], "finished", "{game}");
        assert_eq!(game["outcome"]["winner"], color, "level 6 beats level 1: {game}");
    }
}

on_both_databases!(the_computer_plays_the_hex_board_and_answers_at_every_level);
async fn the_computer_plays_the_hex_board_and_answers_at_every_level(db: Db) {
    let s = server(&db).await;
    let me = Client::register(&s, "hexcpu").await;
    let (st, v) = me.get("/computer/levels").await;
    assert_eq!(st, StatusCode::OK);
    let levels = v["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 8);
    assert_eq!((levels[0]["level"].as_i64(), levels[0]["elo"].as_i64()), (Some(1), Some(0)));
    assert!(levels.windows(2).all(|w| w[0]["elo"].as_i64() < w[1]["elo"].as_i64()), "{v}");

    let (st, v) = me
        .post("/computer-games", json!({"level": 2, "rules": "hex", "color": "black", "clock": days_3()}))
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let id = v["game"]["id"].as_str().unwrap().to_string();
    let game = after(&me, &id, 0).await;
    assert_eq!(game["variant"], "hex");
    let reply = game["legal"][0].as_str().unwrap().to_string();
    let (st, v) = me.play(&id, 1, &reply).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let game = after(&me, &id, 2).await;
    assert_eq!(game["ply"], 3, "{game}");
    assert!(game["moves"][2]["wxf"].as_str().unwrap().contains('-'), "hex names: {game}");
}

#[tokio::test]
async fn a_computer_game_goes_on_after_a_restart() {
    let dir = std::env::temp_dir().join(unique("restart-cpu"));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}/t.db?mode=rwc", dir.display());
    // The first instance leaves the computer's moves to others, as when it
    // stops before the computer has moved.
    let first =
        xiangqi_server::start(Config { computer_moves: false, ..Config::for_tests(&url) }).await.unwrap();
    let me = Client::register(&first, "restart").await;
    let (st, v) = me
        .post("/computer-games", json!({"level": 3, "rules": "asian", "color": "black", "clock": days_3()}))
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let id = v["game"]["id"].as_str().unwrap().to_string();
    // Stopped, the first instance has made no move and can make none.
    first.stop().await;
    let store = xiangqi_server::store::Store::open(&url).await.unwrap();
    assert_eq!(store.game(&id).await.unwrap().expect("the game").ply, 0);
    store.close().await;

    let second = xiangqi_server::start(Config::for_tests(&url)).await.unwrap();
    let again = Client::new(&second, &me.name);
    let (st, _) = again.post("/session", json!({"name": me.name, "password": "secret-pass"})).await;
    assert_eq!(st, StatusCode::OK);
    let game = after(&again, &id, 0).await;
    assert_eq!((game["ply"].as_i64(), game["status"].as_str()), (Some(1), Some("active")), "{game}");
    second.stop().await;
    std::fs::remove_dir_all(&dir).ok();
}

on_both_databases!(the_computer_takes_no_challenges_answers_draws_and_rematches_and_games_are_limited);
async fn the_computer_takes_no_challenges_answers_draws_and_rematches_and_games_are_limited(db: Db) {
    let s = server(&db).await;
    let me = Client::register(&s, "limits").await;
    let clock = days_3();
    let (st, v) = me
        .post(
            "/challenges",
            json!({"opponent": "computer.4", "rules": "asian", "color": "red", "clock": clock}),
        )
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["message"].as_str().unwrap().contains("computer-games"), "{v}");
    for bad in [
        json!({"level": 0, "rules": "asian", "color": "red", "clock": clock}),
        json!({"level": 9, "rules": "asian", "color": "red", "clock": clock}),
        json!({"level": 3, "rules": "hex", "variant": "standard", "color": "red", "clock": clock}),
        json!({"level": 3, "rules": "asian", "color": "red", "clock": clock, "speed": 1}),
    ] {
        let (st, v) = me.post("/computer-games", bad.clone()).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (st, v) = me
            .post("/computer-games", json!({"level": 5, "rules": "asian", "color": "red", "clock": clock}))
            .await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        ids.push(v["game"]["id"].as_str().unwrap().to_string());
    }
    let (st, v) = me
        .post("/computer-games", json!({"level": 5, "rules": "asian", "color": "red", "clock": clock}))
        .await;
    assert_eq!(st, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(v["message"].as_str().unwrap().contains("finish one"), "{v}");

    // An even position: the computer declines a draw.
    let id = &ids[0];
    let (st, v) = me.play(id, 0, "h2e2").await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let game = after(&me, id, 1).await;
    let (st, v) = me.post(&format!("/games/{id}/draw"), json!({"action": "offer"})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let mut answered = false;
    for _ in 0..200 {
        let (_, v) = me.get(&format!("/games/{id}")).await;
        if v["game"]["draw_offer"].is_null() {
            answered = v["game"]["status"] == "active";
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(answered, "the computer declined: {game}");

    // Resign; the rematch starts at once with colours swapped.
    let (st, _) = me.post(&format!("/games/{id}/resign"), json!({})).await;
    assert_eq!(st, StatusCode::OK);
    let (st, v) = me.post(&format!("/games/{id}/rematch"), json!({})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(
        (v["game"]["red"].as_str(), v["game"]["black"].as_str()),
        (Some("computer.5"), Some(me.name.as_str()))
    );

    // The computer's profile says what it is.
    let (_, v) = me.get("/users/computer.5").await;
    assert_eq!(v["user"]["computer"], 5, "{v}");
    let (st, _) =
        Client::new(&s, "computer.5").post("/session", json!({"name": "computer.5", "password": "!"})).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED, "nobody logs in as the computer");
}

#[tokio::test]
async fn a_computer_move_that_finds_every_engine_busy_says_it_waits() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let dir = std::env::temp_dir().join(unique("queued-cpu"));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}/t.db?mode=rwc", dir.display());
    let s = xiangqi_server::start(Config { engines: Some(1), ..Config::for_tests(&url) }).await.unwrap();
    let a = Client::register(&s, "qa").await;
    let (st, v) = a
        .post("/computer-games", json!({"level": 8, "rules": "asian", "color": "red", "clock": days_3()}))
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let id = v["game"]["id"].as_str().unwrap().to_string();
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/v1/ws", s.addr())).await.unwrap();
    socket.send(Message::text(json!({"watch": id}).to_string())).await.unwrap();
    // The only engine is kept busy until the test lets it go, so the
    // computer's search must wait, however fast the machine.
    let (release, held) = std::sync::mpsc::channel::<()>();
    let (busy_tx, busy) = tokio::sync::oneshot::channel();
    let engines = s.engines().clone();
    let holder = tokio::spawn(async move {
        engines
            .run(move |_| {
                busy_tx.send(()).unwrap();
                held.recv().ok();
            })
            .await
    });
    busy.await.unwrap();
    assert!(s.engines().is_full());
    // The watcher has subscribed once the game's current state has come.
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(60), socket.next()).await.expect("in time");
        if let Some(Ok(Message::Text(t))) = msg {
            if serde_json::from_str::<Value>(&t).unwrap()["type"] == "game" {
                break;
            }
        }
    }
    assert_eq!(a.play(&id, 0, "h2e2").await.0, StatusCode::OK);
    let mut states = Vec::new();
    while states.last().map(|(s, _): &(String, i64)| s.as_str()) != Some("queued") {
        let msg = tokio::time::timeout(Duration::from_secs(60), socket.next()).await.expect("in time");
        if let Some(Ok(Message::Text(t))) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "computer" {
                assert_eq!(v["game"], id.as_str());
                states.push((v["state"].as_str().unwrap().to_string(), v["ahead"].as_i64().unwrap()));
            }
        }
    }
    assert_eq!(states.last(), Some(&("queued".to_string(), 1)));
    assert_eq!(s.engines().waiting(), 1);
    // Once the engine is free, the game gets its answer.
    release.send(()).unwrap();
    holder.await.unwrap().unwrap();
    assert_eq!(after(&a, &id, 1).await["ply"], 2);
    s.stop().await;
    std::fs::remove_dir_all(&dir).ok();
}

/// Red to move mates in two whatever Black does: a chariot closes the eighth
/// rank, the other checks on the ninth.
const MATE_IN_TWO: &str = "4k4/9/9/R8/8R/9/9/2p6/9/3K5 w - - 0 1";

on_both_databases!(a_game_against_the_computer_starts_from_a_set_up_position);
async fn a_game_against_the_computer_starts_from_a_set_up_position(db: Db) {
    let s = server(&db).await;
    let me = Client::register(&s, "setup").await;
    let clock = days_3();
    let mated = "4k3R/R8/9/9/9/9/9/2p6/9/3K5 b - - 0 1";
    for bad in ["not a position", "9/9/9/9/9/9/9/9/9/9 w - - 0 1", mated] {
        let (st, v) = me
            .post(
                "/computer-games",
                json!({"level": 1, "rules": "asian", "color": "red", "clock": clock, "fen": bad}),
            )
            .await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    let (st, v) = me
        .post(
            "/computer-games",
            json!({"level": 1, "rules": "asian", "color": "red", "clock": clock, "fen": MATE_IN_TWO}),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let id = v["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(v["game"]["start_fen"], MATE_IN_TWO);
    assert_eq!(v["game"]["turn"], "red");
    let (st, v) = me.play(&id, 0, "a6a8").await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let game = after(&me, &id, 1).await;
    assert_eq!(game["ply"], 2, "the computer answers from the set-up position: {game}");
    let (st, v) = me.play(&id, 2, "i5i9").await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["game"]["outcome"]["reason"], "checkmate", "{v}");
    assert_eq!(v["game"]["outcome"]["winner"], "red", "{v}");
}
