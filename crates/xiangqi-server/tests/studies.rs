//! Studies over the API: a study edited by two members and seen live by a
//! third on the WebSocket, stale edits refused, who may see and edit what,
//! chapters from a position and from a game record, and the PGN export.

mod common;

use common::{Client, Db, on_both_databases, server};
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};
use xiangqi_server::Running;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket logged in as `c` (a session of its own).
async fn socket_of(s: &Running, c: &Client) -> Socket {
    let (st, v) = c.post("/session", json!({"name": c.name, "password": "secret-pass"})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let token = v["token"].as_str().unwrap();
    let mut req = format!("ws://{}/api/v1/ws", s.addr()).into_client_request().unwrap();
    req.headers_mut().insert("Cookie", format!("xiangqi_session={token}").parse().unwrap());
    tokio_tungstenite::connect_async(req).await.expect("websocket").0
}

/// The next study state on a socket, skipping other events.
async fn next_study(socket: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(std::time::Duration::from_secs(10), socket.next())
            .await
            .expect("a study event in time");
        if let Some(Ok(Message::Text(t))) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "study" {
                return v["study"].clone();
            }
        }
    }
}

fn version(study: &Value) -> i64 {
    study["version"].as_i64().unwrap()
}

fn node(study: &Value, chapter: usize, id: u64) -> &Value {
    study["chapters"][chapter]["nodes"].as_array().unwrap().iter().find(|n| n["id"] == id).unwrap()
}

on_both_databases!(a_study_edited_by_two_members_is_seen_live_by_a_third);
async fn a_study_edited_by_two_members_is_seen_live_by_a_third(db: Db) {
    let s = server(&db).await;
    let (owner, editor, viewer, stranger) = (
        Client::register(&s, "sto").await,
        Client::register(&s, "ste").await,
        Client::register(&s, "stv").await,
        Client::register(&s, "sts").await,
    );
    let (st, v) = owner.post("/studies", json!({"title": "中炮对屏风马"})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let study = v["study"].clone();
    let id = study["id"].as_str().unwrap().to_string();
    let chapter = study["chapters"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(study["visibility"], "private");
    // Private: nobody else sees it, not even that it exists.
    assert_eq!(stranger.get(&format!("/studies/{id}")).await.0, StatusCode::NOT_FOUND);
    let base = format!("/studies/{id}");
    let (st, v) = owner
        .post(&format!("{base}/members"), json!({"version": 1, "name": editor.name, "role": "edit"}))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (st, v) = owner
        .post(&format!("{base}/members"), json!({"version": 2, "name": viewer.name, "role": "view"}))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(version(&v["study"]), 3);
    assert_eq!(v["study"]["members"].as_array().unwrap().len(), 2);

    // The viewer watches; the stranger's watch is refused silently.
    let mut watching = socket_of(&s, &viewer).await;
    watching.send(Message::Text(json!({"watch_study": id}).to_string().into())).await.unwrap();
    assert_eq!(version(&next_study(&mut watching).await), 3, "the state at once");

    // The owner and the editor take turns, each on the version they saw.
    let moves = format!("{base}/chapters/{chapter}/moves");
    let (st, v) = owner.post(&moves, json!({"version": 3, "node": 0, "move": "炮二平五"})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (st, v) = editor.post(&moves, json!({"version": 4, "node": 1, "move": "H8+7"})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    // An edit on a version that has moved on is refused, and says the version now.
    let (st, v) = owner.post(&moves, json!({"version": 4, "node": 1, "move": "c6c5"})).await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");
    assert_eq!((v["reason"].as_str(), v["params"]["version"].as_i64()), (Some("study_stale"), Some(5)));
    // A variation beside the main line, a comment, arrows and a mark.
    let (st, v) = owner.post(&moves, json!({"version": 5, "node": 1, "move": "炮8平5"})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let nodes = format!("{base}/chapters/{chapter}/nodes");
    let (st, v) = editor
        .post(
            &format!("{nodes}/1"),
            json!({"version": 6, "comment": "The central cannon {aims at the centre}"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let shapes = json!({"version": 7, "arrows": [{"from": "h9", "to": "g7", "brush": "green"}],
        "marks": [{"at": "e6", "brush": "red"}]});
    let (st, v) = owner.post(&format!("{nodes}/2"), shapes).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    // The viewer may not edit; an illegal move and a point off the board are refused.
    let (st, v) = viewer.post(&moves, json!({"version": 8, "node": 0, "move": "h0g2"})).await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::FORBIDDEN, Some("study_read_only")), "{v}");
    let (st, v) = editor.post(&moves, json!({"version": 8, "node": 0, "move": "e0e2"})).await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("illegal_move")), "{v}");
    let bad = json!({"version": 8, "marks": [{"at": "z11", "brush": "red"}]});
    assert_eq!(editor.post(&format!("{nodes}/2"), bad).await.0, StatusCode::BAD_REQUEST);

    // The viewer saw every edit, in order, each once.
    let mut seen = vec![];
    let last = loop {
        let study = next_study(&mut watching).await;
        seen.push(version(&study));
        if version(&study) == 8 {
            break study;
        }
    };
    assert_eq!(seen, [4, 5, 6, 7, 8]);
    let start = node(&last, 0, 0);
    assert_eq!(start["children"], json!([1]));
    let cannon = node(&last, 0, 1);
    assert_eq!(cannon["move"]["chinese"], "炮二平五");
    assert_eq!(cannon["comment"], "The central cannon {aims at the centre}");
    assert_eq!(cannon["children"].as_array().unwrap().len(), 2, "the main line and a variation");
    let horse = node(&last, 0, 2);
    assert_eq!((horse["move"]["iccs"].as_str(), horse["ply"].as_i64()), (Some("h9g7"), Some(2)));
    assert_eq!(horse["arrows"], json!([{"from": "h9", "to": "g7", "brush": "green"}]));
    assert_eq!(horse["marks"], json!([{"at": "e6", "brush": "red"}]));

    // A chapter from a game record in Chinese, and one from a position.
    let record = "[Event \"全国象棋个人赛\"]\n[Red \"胡荣华\"]\n[Black \"杨官璘\"]\n\n1. 炮二平五 馬８進７ 2. 傌二進三 車9平8 *\n";
    let (st, v) = editor.post(&format!("{base}/chapters"), json!({"version": 8, "pgn": record})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let game = &v["study"]["chapters"][1];
    assert_eq!(
        (game["title"].as_str(), game["nodes"].as_array().unwrap().len()),
        (Some("胡荣华 – 杨官璘"), 5)
    );
    let (st, v) = editor
        .post(
            &format!("{base}/chapters"),
            json!({"version": 9, "title": "Endgame", "fen": "4k4/9/9/9/9/9/9/9/3R5/3K5 w"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (st, v) = editor.post(&format!("{base}/chapters"), json!({"version": 10, "fen": "nonsense"})).await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_position")), "{v}");
    assert_eq!(version(&next_study(&mut watching).await), 9);
    assert_eq!(version(&next_study(&mut watching).await), 10);

    // The export: every chapter, comments and variations, read back.
    let res = stranger.raw(reqwest::Method::GET, &format!("{base}/pgn"), None).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND, "private");
    let res = viewer.raw(reqwest::Method::GET, &format!("{base}/pgn"), None).await;
    assert_eq!(res.status(), StatusCode::OK);
    let text = res.text().await.unwrap();
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("1. C2=5 {The central cannon (aims at the centre)} 1... H8+7"), "{text}");
    assert!(words.contains("{[%csl Re6] [%cal Gh9g7]} (1... C8=5) *"), "{text}");
    assert!(text.contains("[Red \"?\"]") && text.contains("[Round \"Endgame\"]"), "{text}");
    let games = xiangqi::notation::pgn::read_all(&text);
    assert_eq!(games.len(), 3, "{text}");
    assert_eq!(games[0].as_ref().unwrap().moves.len(), 2);
    assert_eq!(games[1].as_ref().unwrap().moves.len(), 4);

    // The export read back as a chapter keeps its variation, comment and shapes.
    let first_game = text.split("\n\n[Game").next().unwrap();
    let (st, v) = editor.post(&format!("{base}/chapters"), json!({"version": 10, "pgn": first_game})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let copy = &v["study"]["chapters"][3];
    assert_eq!(copy["nodes"].as_array().unwrap().len(), 4, "{copy}");
    let (cannon, horse) = (node(&v["study"], 3, 1), node(&v["study"], 3, 2));
    assert_eq!(cannon["comment"], "The central cannon (aims at the centre)");
    assert_eq!(cannon["children"].as_array().unwrap().len(), 2);
    assert_eq!(
        (horse["arrows"].clone(), horse["marks"].clone()),
        (json!([{"from": "h9", "to": "g7", "brush": "green"}]), json!([{"at": "e6", "brush": "red"}]))
    );
    assert_eq!(horse["comment"], "");
    let (st, v) =
        editor.delete(&format!("{base}/chapters/{}?version=11", copy["id"].as_str().unwrap())).await;
    assert_eq!(st, StatusCode::OK, "{v}");

    // Made public: anyone sees it and finds it listed; only members edit.
    let (st, v) =
        owner.post(&format!("{base}/settings"), json!({"version": 12, "visibility": "public"})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(stranger.get(&format!("/studies/{id}")).await.0, StatusCode::OK);
    let (_, v) = stranger.get("/studies").await;
    assert!(v["studies"].as_array().unwrap().iter().any(|x| x["id"] == id.as_str()), "{v}");
    let (_, v) = viewer.get("/studies?shelf=mine").await;
    assert_eq!(v["studies"][0]["id"], id.as_str());
    let (st, v) = stranger.post(&moves, json!({"version": 13, "node": 0, "move": "h0g2"})).await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::FORBIDDEN, Some("study_read_only")), "{v}");
    let (st, v) = editor.post(&format!("{base}/settings"), json!({"version": 13, "title": "mine"})).await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::FORBIDDEN, Some("study_owner_only")), "{v}");

    // Someone who ignores the owner cannot be made a member.
    assert_eq!(
        stranger.send(reqwest::Method::PUT, &format!("/me/ignored/{}", owner.name), None).await.0,
        StatusCode::NO_CONTENT
    );
    let (st, v) = owner
        .post(&format!("{base}/members"), json!({"version": 13, "name": stranger.name, "role": "view"}))
        .await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::FORBIDDEN, Some("ignored")), "{v}");

    // Deleting a node takes what follows with it; the start stays.
    let (st, v) = editor.delete(&format!("{nodes}/1?version=13")).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["study"]["chapters"][0]["nodes"].as_array().unwrap().len(), 1);
    assert_eq!(editor.delete(&format!("{nodes}/0?version=14")).await.0, StatusCode::NOT_FOUND);
    s.stop().await;
}

on_both_databases!(what_one_user_can_make_a_study_hold_is_bounded);
async fn what_one_user_can_make_a_study_hold_is_bounded(db: Db) {
    let s = server(&db).await;
    let owner = Client::register(&s, "stb").await;
    let (_, v) = owner.post("/studies", json!({"title": "bounds", "visibility": "public"})).await;
    let id = v["study"]["id"].as_str().unwrap().to_string();
    let chapter = v["study"]["chapters"][0]["id"].as_str().unwrap().to_string();
    let long = "x".repeat(2001);
    let (st, v) = owner
        .post(&format!("/studies/{id}/chapters/{chapter}/nodes/0"), json!({"version": 1, "comment": long}))
        .await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::BAD_REQUEST, Some("text_length")), "{v}");
    let arrows: Vec<Value> =
        (0..33).map(|i| json!({"from": format!("a{}", i % 10), "to": "e5", "brush": "blue"})).collect();
    let (st, v) = owner
        .post(&format!("/studies/{id}/chapters/{chapter}/nodes/0"), json!({"version": 1, "arrows": arrows}))
        .await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::CONFLICT, Some("study_shapes")), "{v}");
    let mut version = 1;
    for _ in 1..32 {
        let (st, v) = owner.post(&format!("/studies/{id}/chapters"), json!({"version": version})).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        version = v["study"]["version"].as_i64().unwrap();
    }
    let (st, v) = owner.post(&format!("/studies/{id}/chapters"), json!({"version": version})).await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::CONFLICT, Some("study_chapters")), "{v}");
    // A chapter on the hex board plays by its own rules and cell names.
    let last = v["params"]["allowed"].as_i64().unwrap() as usize - 1;
    let (_, study) = owner.get(&format!("/studies/{id}")).await;
    let doomed = study["study"]["chapters"][last]["id"].as_str().unwrap().to_string();
    let (st, v) = owner.delete(&format!("/studies/{id}/chapters/{doomed}?version={version}")).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (st, v) = owner
        .post(&format!("/studies/{id}/chapters"), json!({"version": version + 1, "variant": "hex"}))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let hex = v["study"]["chapters"][last].clone();
    assert_eq!((hex["variant"].as_str(), hex["rules"].as_str()), (Some("hex"), Some("hex")));
    let (_, line) = owner.post("/positions", json!({"variant": "hex", "fen": hex["start_fen"]})).await;
    let first = line["positions"][0]["legal"][0].as_str().unwrap().to_string();
    let hex_id = hex["id"].as_str().unwrap();
    let (st, v) = owner
        .post(
            &format!("/studies/{id}/chapters/{hex_id}/moves"),
            json!({"version": version + 2, "node": 0, "move": first}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["study"]["chapters"][last]["nodes"][1]["move"]["iccs"], first.as_str());
    let version = version + 3;
    assert_eq!(owner.delete(&format!("/studies/{id}?version={version}")).await.0, StatusCode::NO_CONTENT);
    assert_eq!(owner.get(&format!("/studies/{id}")).await.0, StatusCode::NOT_FOUND);
    s.stop().await;
}

on_both_databases!(a_member_removed_from_a_private_study_hears_no_more_of_it);
async fn a_member_removed_from_a_private_study_hears_no_more_of_it(db: Db) {
    let s = server(&db).await;
    let (owner, member) = (Client::register(&s, "str").await, Client::register(&s, "stm").await);
    let (_, v) = owner.post("/studies", json!({"title": "secret"})).await;
    let id = v["study"]["id"].as_str().unwrap().to_string();
    let chapter = v["study"]["chapters"][0]["id"].as_str().unwrap().to_string();
    let (st, v) = owner
        .post(&format!("/studies/{id}/members"), json!({"version": 1, "name": member.name, "role": "view"}))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let mut socket = socket_of(&s, &member).await;
    socket.send(Message::Text(json!({"watch_study": id}).to_string().into())).await.unwrap();
    assert_eq!(version(&next_study(&mut socket).await), 2);
    let (st, v) = owner.delete(&format!("/studies/{id}/members/{}?version=2", member.name)).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let moves = format!("/studies/{id}/chapters/{chapter}/moves");
    assert_eq!(owner.post(&moves, json!({"version": 3, "node": 0, "move": "h2e2"})).await.0, StatusCode::OK);
    let heard = tokio::time::timeout(std::time::Duration::from_millis(1500), async {
        loop {
            match socket.next().await {
                Some(Ok(Message::Text(t))) if t.contains("\"study\"") => return t.to_string(),
                Some(Ok(_)) => continue,
                _ => return String::new(),
            }
        }
    })
    .await;
    assert!(heard.is_err() || heard.as_deref() == Ok(""), "the removed member heard {heard:?}");
    assert_eq!(member.get(&format!("/studies/{id}")).await.0, StatusCode::NOT_FOUND);
    s.stop().await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL (XIANGQI_TEST_POSTGRES_URL); .ci/run sets it"]
async fn an_edit_through_one_instance_reaches_watchers_on_another_once() {
    // Two instances on one PostgreSQL database.
    let db = common::postgres();
    let (a, b) = (server(&db).await, server(&db).await);
    let owner = Client::register(&a, "sti").await;
    let (_, v) = owner.post("/studies", json!({"title": "across", "visibility": "public"})).await;
    let id = v["study"]["id"].as_str().unwrap().to_string();
    let chapter = v["study"]["chapters"][0]["id"].as_str().unwrap().to_string();
    // A visitor's socket on the other instance: a public study is everyone's to watch.
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/v1/ws", b.addr())).await.unwrap();
    socket.send(Message::Text(json!({"watch_study": id}).to_string().into())).await.unwrap();
    assert_eq!(version(&next_study(&mut socket).await), 1);
    let moves = format!("/studies/{id}/chapters/{chapter}/moves");
    assert_eq!(owner.post(&moves, json!({"version": 1, "node": 0, "move": "C2=5"})).await.0, StatusCode::OK);
    let heard = next_study(&mut socket).await;
    assert_eq!((version(&heard), node(&heard, 0, 1)["move"]["iccs"].as_str()), (2, Some("h2e2")));
    let again = tokio::time::timeout(std::time::Duration::from_millis(800), async {
        loop {
            match socket.next().await {
                Some(Ok(Message::Text(t))) if t.contains("\"study\"") => return t.to_string(),
                Some(Ok(_)) => continue,
                _ => return String::new(),
            }
        }
    })
    .await;
    assert!(again.is_err(), "heard once: {again:?}");
    a.stop().await;
    b.stop().await;
}

on_both_databases!(edits_are_limited_per_minute);
async fn edits_are_limited_per_minute(db: Db) {
    let s = server(&db).await;
    let owner = Client::register(&s, "stl").await;
    let (_, v) = owner.post("/studies", json!({"title": "busy"})).await;
    let id = v["study"]["id"].as_str().unwrap().to_string();
    let chapter = v["study"]["chapters"][0]["id"].as_str().unwrap().to_string();
    let path = format!("/studies/{id}/chapters/{chapter}/nodes/0");
    for version in 1..=120 {
        let (st, v) =
            owner.post(&path, json!({"version": version, "comment": format!("take {version}")})).await;
        assert_eq!(st, StatusCode::OK, "{v}");
    }
    let (st, v) = owner.post(&path, json!({"version": 121, "comment": "one more"})).await;
    assert_eq!(st, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!((v["reason"].as_str(), v["params"]["act"].as_str()), (Some("too_often"), Some("study_edits")));
    s.stop().await;
}

/// The next notice on a socket, skipping other events.
async fn next_notice(socket: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(std::time::Duration::from_secs(10), socket.next())
            .await
            .expect("a notice in time");
        if let Some(Ok(Message::Text(t))) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "notice" {
                return v;
            }
        }
    }
}

on_both_databases!(an_invited_member_is_told_at_once_and_finds_the_study_among_their_own);
async fn an_invited_member_is_told_at_once_and_finds_the_study_among_their_own(db: Db) {
    let s = server(&db).await;
    let (owner, guest) = (Client::register(&s, "sti").await, Client::register(&s, "stg").await);
    let mut socket = socket_of(&s, &guest).await;
    let (_, v) = owner.post("/studies", json!({"title": "残局"})).await;
    let id = v["study"]["id"].as_str().unwrap().to_string();
    let members = format!("/studies/{id}/members");
    let (st, v) = owner.post(&members, json!({"version": 1, "name": guest.name, "role": "view"})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let notice = next_notice(&mut socket).await;
    assert_eq!(
        (notice["kind"].as_str(), notice["from"].as_str(), notice["study"].as_str()),
        (Some("study_invite"), Some(owner.name.as_str()), Some(id.as_str())),
        "{notice}"
    );
    assert!(notice["game"].is_null(), "{notice}");
    let (_, shelf) = guest.get("/studies?shelf=mine").await;
    assert!(shelf["studies"].as_array().unwrap().iter().any(|x| x["id"] == id), "{shelf}");

    // A new role for a member is no new invitation.
    let (st, v) = owner.post(&members, json!({"version": 2, "name": guest.name, "role": "edit"})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let again = tokio::time::timeout(std::time::Duration::from_millis(1500), next_notice(&mut socket)).await;
    assert!(again.is_err(), "told twice: {again:?}");
    s.stop().await;
}

on_both_databases!(chapters_are_reordered_and_a_variation_made_the_main_line);
async fn chapters_are_reordered_and_a_variation_made_the_main_line(db: Db) {
    let s = server(&db).await;
    let (owner, viewer) = (Client::register(&s, "sto").await, Client::register(&s, "stv").await);
    let (_, v) = owner.post("/studies", json!({"title": "order"})).await;
    let id = v["study"]["id"].as_str().unwrap().to_string();
    let base = format!("/studies/{id}");
    let first = v["study"]["chapters"][0]["id"].as_str().unwrap().to_string();
    owner.post(&format!("{base}/chapters"), json!({"version": 1, "title": "two"})).await;
    let (_, v) = owner.post(&format!("{base}/chapters"), json!({"version": 2, "title": "three"})).await;
    let titles = |v: &Value| -> Vec<String> {
        v["study"]["chapters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["title"].as_str().unwrap().to_string())
            .collect()
    };
    let third = v["study"]["chapters"][2]["id"].as_str().unwrap().to_string();
    let (st, v) =
        owner.post(&format!("{base}/chapters/{third}/place"), json!({"version": 3, "place": 0})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(titles(&v), ["three", "Chapter 1", "two"]);
    // Past the end is the last place; the same place again changes nothing.
    let (_, v) =
        owner.post(&format!("{base}/chapters/{first}/place"), json!({"version": 4, "place": 99})).await;
    assert_eq!(titles(&v), ["three", "two", "Chapter 1"]);
    let (_, v) =
        owner.post(&format!("{base}/chapters/{first}/place"), json!({"version": 5, "place": 2})).await;
    assert_eq!(version(&v["study"]), 5, "nothing to write");
    // Only editors, on the version they saw.
    owner.post(&format!("{base}/members"), json!({"version": 5, "name": viewer.name, "role": "view"})).await;
    let (st, v) =
        viewer.post(&format!("{base}/chapters/{first}/place"), json!({"version": 6, "place": 0})).await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::FORBIDDEN, Some("study_read_only")), "{v}");
    let (st, v) =
        owner.post(&format!("{base}/chapters/{first}/place"), json!({"version": 5, "place": 0})).await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::CONFLICT, Some("study_stale")), "{v}");

    // The main line h2e2 h9g7, and c3c4 h9g7 beside it: made the main line,
    // both of its moves come first from where they are played.
    let moves = format!("{base}/chapters/{first}/moves");
    owner.post(&moves, json!({"version": 6, "node": 0, "move": "h2e2"})).await;
    owner.post(&moves, json!({"version": 7, "node": 1, "move": "h9g7"})).await;
    owner.post(&moves, json!({"version": 8, "node": 1, "move": "b9c7"})).await;
    owner.post(&moves, json!({"version": 9, "node": 0, "move": "c3c4"})).await;
    let (st, v) = owner.post(&moves, json!({"version": 10, "node": 4, "move": "h9g7"})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let chapter = |v: &Value| {
        v["study"]["chapters"].as_array().unwrap().iter().find(|c| c["id"] == first).unwrap().clone()
    };
    let children = |c: &Value, n: u64| -> Vec<u64> {
        c["nodes"].as_array().unwrap().iter().find(|x| x["id"] == n).unwrap()["children"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect()
    };
    assert_eq!(children(&chapter(&v), 0), [1, 4]);
    let (st, v) = owner.post(&format!("{base}/chapters/{first}/nodes/5/main"), json!({"version": 11})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(children(&chapter(&v), 0), [4, 1], "{v}");
    // Deeper: b9c7 after h2e2 becomes the first reply there, and the line to it first from the start.
    let (_, v) = owner.post(&format!("{base}/chapters/{first}/nodes/3/main"), json!({"version": 12})).await;
    let c = chapter(&v);
    assert_eq!((children(&c, 0), children(&c, 1)), (vec![1, 4], vec![3, 2]), "{v}");
    let pgn = owner.raw(reqwest::Method::GET, &format!("{base}/pgn"), None).await.text().await.unwrap();
    let game = &pgn[pgn.rfind("[Event").unwrap()..];
    assert!(game.contains("1. C2=5 (1. P7+1 H8+7) 1... H2+3 (1... H8+7) *"), "the main lines first: {game}");
    let (st, v) = owner.post(&format!("{base}/chapters/{first}/nodes/0/main"), json!({"version": 13})).await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::NOT_FOUND, Some("no_node")), "{v}");
    s.stop().await;
}
