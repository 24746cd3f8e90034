//! Downloads: a search of the games database, a player's archive and a study
//! as one PGN file in each move dialect, one game (the site's, an imported
//! one, a Masters game) as PGN or XQF; files of many games streamed a small
//! page at a time and arriving whole; a bad format refused with its reason;
//! and the places downloads hold, per client, when many ask at once. On
//! SQLite and PostgreSQL.

mod common;

use std::net::IpAddr;

use common::{Client, Db, fresh_address, new_game, on_both_databases, unique};
use reqwest::StatusCode;
use serde_json::{Value, json};
use xiangqi::notation::{
    limits::Limits,
    pgn::{self, Record},
    tree::MoveTree,
};
use xiangqi_server::{Config, Running};

/// The openings the games of a test follow, one after another, before Black resigns.
const LINES: [&str; 4] = ["h2e2 h9g7", "c3c4 g6g5", "b0c2 b9c7", "h2e2 h7e7"];

/// How many finished games the big export holds: many pages of the small size.
const GAMES: usize = 230;

async fn start(db: &common::Db, tune: impl FnOnce(&mut Config)) -> Running {
    let mut config = Config::for_tests(&db.url);
    config.limits.challenges_per_hour = 100_000;
    tune(&mut config);
    xiangqi_server::start(config).await.expect("server starts")
}

/// Red (`a`) challenges Black (`b`), `b` accepts, they play `line`, and Black resigns.
async fn finished_game(a: &Client, b: &Client, line: &str) -> String {
    let terms = json!({"opponent": b.name, "rules": "asian", "color": "red", "clock": {"kind": "correspondence", "hours": 72}});
    let (s, v) = a.post("/challenges", terms).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let challenge = v["challenge"]["id"].as_str().unwrap().to_string();
    let (s, v) = b.post(&format!("/challenges/{challenge}/accept"), json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let game = v["game"]["id"].as_str().unwrap().to_string();
    for (ply, mv) in line.split_whitespace().enumerate() {
        let who = if ply % 2 == 0 { a } else { b };
        let (s, v) = who.play(&game, ply as i64, mv).await;
        assert_eq!(s, StatusCode::OK, "{mv}: {v}");
    }
    assert_eq!(b.post(&format!("/games/{game}/resign"), json!({})).await.0, StatusCode::OK);
    game
}

/// A GET answered whole: status, headers and body.
async fn fetch(c: &Client, path: &str) -> (StatusCode, reqwest::header::HeaderMap, Vec<u8>) {
    let res = c.http.get(format!("{}{path}", c.base)).send().await.expect("request");
    let (status, headers) = (res.status(), res.headers().clone());
    (status, headers, res.bytes().await.unwrap().to_vec())
}

fn header(headers: &reqwest::header::HeaderMap, name: &str) -> String {
    headers.get(name).map(|v| v.to_str().unwrap().to_string()).unwrap_or_default()
}

/// The games a PGN file holds, each read back (every one must read).
fn games_of(bytes: &[u8]) -> Vec<Record> {
    let text = std::str::from_utf8(bytes).expect("UTF-8");
    pgn::read_all(text).into_iter().map(|g| g.expect("every game reads back")).collect()
}

/// The site's id of a game written by the server (its `Site` tag, `game {id}`).
fn site_id(r: &Record) -> String {
    r.tag("Site").and_then(|s| s.strip_prefix("game ")).expect("a Site tag").to_string()
}

/// The ICCS names of a record's main line.
fn iccs(r: &Record) -> String {
    let mut pos = r.start.clone();
    let mut names = Vec::new();
    for &m in &r.moves {
        names.push(pos.move_name(m));
        pos.play_unchecked(m);
    }
    names.join(" ")
}

/// A player's finished games as the search lists them, newest first, a page of 100 at a time.
async fn searched(c: &Client, player: &str) -> Vec<String> {
    let (mut ids, mut after) = (Vec::new(), String::new());
    loop {
        let (s, v) = c.get(&format!("/database/games?player={player}&limit=100{after}")).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        ids.extend(v["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()));
        match v["next"].as_str() {
            Some(next) => after = format!("&after={next}"),
            None => return ids,
        }
    }
}

on_both_databases!(a_search_arrives_whole_in_each_dialect_a_small_page_at_a_time);
async fn a_search_arrives_whole_in_each_dialect_a_small_page_at_a_time(db: Db) {
    let s = start(&db, |c| c.exports.page = 7).await;
    let a = Client::register(&s, "exa").await;
    // Opponents enough to challenge at once (one open challenge of the
    // same terms each), so that the games are made a batch at a time.
    let mut opponents = Vec::new();
    for _ in 0..10 {
        opponents.push(Client::register(&s, "exb").await);
    }
    let mut played = std::collections::HashMap::new();
    for round in 0..GAMES.div_ceil(opponents.len()) {
        let batch = opponents.iter().enumerate().map(|(i, b)| (round * opponents.len() + i, b));
        let games = futures_util::future::join_all(batch.filter(|(n, _)| *n < GAMES).map(|(n, b)| {
            let (a, line) = (&a, LINES[n % LINES.len()]);
            async move { (finished_game(a, b, line).await, (line, b.name.clone())) }
        }))
        .await;
        played.extend(games);
    }
    let newest_first = searched(&a, &a.name).await;
    assert_eq!(newest_first.len(), GAMES);

    for (format, tag) in [("pgn", "ICCS"), ("pgn-wxf", "WXF"), ("pgn-chinese", "Chinese")] {
        let (st, headers, body) =
            fetch(&a, &format!("/database/games.pgn?player={}&format={format}", a.name)).await;
        assert_eq!(st, StatusCode::OK, "{format}");
        assert_eq!(header(&headers, "content-type"), "application/x-chess-pgn; charset=utf-8");
        assert_eq!(
            header(&headers, "content-disposition"),
            format!("attachment; filename=\"xiangqi-database-{}.pgn\"", a.name)
        );
        let text = String::from_utf8(body.clone()).unwrap();
        assert_eq!(text.matches(&format!("[Format \"{tag}\"]")).count(), GAMES, "{format}");
        let games = games_of(&body);
        let ids: Vec<String> = games.iter().map(site_id).collect();
        assert_eq!(ids, newest_first, "{format}: every game the search finds, in its order, once");
        for g in &games {
            let (line, black) = &played[&site_id(g)];
            assert_eq!(iccs(g), *line, "{format}: the moves played");
            assert_eq!((g.tag("Result"), g.tag("Termination")), (Some("1-0"), Some("resignation")));
            assert_eq!((g.tag("Red"), g.tag("Black")), (Some(a.name.as_str()), Some(black.as_str())));
        }
    }
    // The search's other filters hold, and `after` starts after a page's key.
    let (_, _, body) =
        fetch(&a, &format!("/database/games.pgn?player={}&moves=c3c4&format=pgn", a.name)).await;
    let lines: Vec<String> = games_of(&body).iter().map(iccs).collect();
    assert_eq!(lines.len(), (0..GAMES).filter(|n| n % LINES.len() == 1).count());
    assert!(lines.iter().all(|l| l == LINES[1]), "{lines:?}");
    let (_, first) = a.get(&format!("/database/games?player={}&limit=100", a.name)).await;
    let next = first["next"].as_str().unwrap();
    let (_, _, body) =
        fetch(&a, &format!("/database/games.pgn?player={}&after={next}&limit=5", a.name)).await;
    let rest: Vec<String> = games_of(&body).iter().map(site_id).collect();
    assert_eq!(rest, newest_first[100..], "from the key on; a page's limit does not bound a download");

    // The archive: the same games oldest first, in the dialect asked for.
    let b = &opponents[0];
    let (st, headers, body) = fetch(b, &format!("/users/{}/games.pgn?format=pgn-chinese", a.name)).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(
        header(&headers, "content-disposition"),
        format!("attachment; filename=\"xiangqi-{}.pgn\"", a.name)
    );
    let text = String::from_utf8(body.clone()).unwrap();
    assert!(text.contains("炮二平五"), "Chinese moves");
    let oldest_first: Vec<String> = games_of(&body).iter().map(site_id).collect();
    assert_eq!(oldest_first, newest_first.iter().rev().cloned().collect::<Vec<_>>());
    let (_, _, body) = fetch(b, &format!("/users/{}/games.pgn", a.name)).await;
    assert!(String::from_utf8(body).unwrap().contains("[Format \"WXF\"]"), "WXF unless asked otherwise");

    // A file holds at most the limit's games: the newest of a search.
    let capped = start(&db, |c| {
        c.exports.page = 7;
        c.exports.max_games = 50;
    })
    .await;
    let viewer = Client::new(&capped, "viewer");
    let (_, _, body) = fetch(&viewer, &format!("/database/games.pgn?player={}", a.name)).await;
    let ids: Vec<String> = games_of(&body).iter().map(site_id).collect();
    assert_eq!(ids, newest_first[..50]);
    capped.stop().await;

    // Many downloads at once from one client: each is whole or refused
    // with when to try again, and every place comes back.
    let tight = start(&db, |c| {
        c.exports.page = 1;
        c.exports.per_client = 2;
    })
    .await;
    let one = Client::from_address(&tight, "one", fresh_address());
    let path = format!("/database/games.pgn?player={}", a.name);
    let answers = futures_util::future::join_all((0..12).map(|_| fetch(&one, &path))).await;
    let mut whole = 0;
    for (st, headers, body) in &answers {
        match *st {
            StatusCode::OK => {
                assert_eq!(games_of(body).len(), GAMES);
                whole += 1;
            }
            StatusCode::TOO_MANY_REQUESTS => {
                assert!(header(headers, "retry-after").parse::<u64>().unwrap() >= 1);
                let v: Value = serde_json::from_slice(body).unwrap();
                assert_eq!(v["reason"], "exports_busy", "{v}");
            }
            other => panic!("{other}: {}", String::from_utf8_lossy(body)),
        }
    }
    assert!(whole >= 1 && whole < answers.len(), "{whole} of {} whole", answers.len());
    assert_eq!(tight.exports().busy(), 0, "every place came back");
    tight.stop().await;
    s.stop().await;
}

on_both_databases!(a_client_over_its_share_waits_and_others_do_not);
async fn a_client_over_its_share_waits_and_others_do_not(db: Db) {
    let s = start(&db, |c| c.exports.per_client = 2).await;
    let a = Client::register(&s, "exs").await;
    let b = Client::register(&s, "ext").await;
    finished_game(&a, &b, LINES[0]).await;
    let address: IpAddr = fresh_address();
    let one = Client::from_address(&s, "one", address);
    let places = [s.exports().admit(address).unwrap(), s.exports().admit(address).unwrap()];
    let search = format!("/database/games.pgn?player={}", a.name);
    let archive = format!("/users/{}/games.pgn", a.name);
    let answers = futures_util::future::join_all((0..20).map(|i| {
        let path = if i % 2 == 0 { &search } else { &archive };
        fetch(&one, path)
    }))
    .await;
    for (st, headers, body) in &answers {
        assert_eq!(*st, StatusCode::TOO_MANY_REQUESTS, "{}", String::from_utf8_lossy(body));
        assert_eq!(header(headers, "retry-after"), "5");
        let v: Value = serde_json::from_slice(body).unwrap();
        assert_eq!((v["reason"].as_str(), v["params"]["seconds"].as_u64()), (Some("exports_busy"), Some(5)));
    }
    let other = Client::from_address(&s, "other", fresh_address());
    let (st, _, body) = fetch(&other, &search).await;
    assert_eq!((st, games_of(&body).len()), (StatusCode::OK, 1), "another client is not held back");
    drop(places);
    let (st, _, body) = fetch(&one, &archive).await;
    assert_eq!((st, games_of(&body).len()), (StatusCode::OK, 1), "a place given back is taken again");
    // A single game's record holds no place.
    let (st, _, _) = fetch(&one, &format!("/games/{}/record", searched(&a, &a.name).await[0])).await;
    assert_eq!(st, StatusCode::OK);
    s.stop().await;
}

on_both_databases!(one_game_downloads_as_pgn_in_each_dialect_or_as_xqf);
async fn one_game_downloads_as_pgn_in_each_dialect_or_as_xqf(db: Db) {
    let s = start(&db, |_| {}).await;
    let a = Client::register(&s, "exg").await;
    let b = Client::register(&s, "exh").await;
    let game = finished_game(&a, &b, "h2e2 h9g7 h0g2").await;
    let (st, headers, body) = fetch(&b, &format!("/games/{game}/record?format=xqf")).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(header(&headers, "content-type"), "application/octet-stream");
    assert_eq!(
        header(&headers, "content-disposition"),
        format!("attachment; filename=\"xiangqi-{game}.xqf\"")
    );
    let back = xiangqi_records::xqf::read(&body, &Limits::SITE).unwrap();
    assert_eq!(iccs(&back.record), "h2e2 h9g7 h0g2");
    assert_eq!((back.record.tag("Red"), back.record.tag("Result")), (Some(a.name.as_str()), Some("1-0")));
    for (format, word) in [("pgn", "h2e2"), ("pgn-wxf", "C2=5"), ("pgn-chinese", "炮二平五")] {
        let (st, headers, body) = fetch(&b, &format!("/games/{game}/record?format={format}")).await;
        assert_eq!(st, StatusCode::OK);
        assert_eq!(
            header(&headers, "content-disposition"),
            format!("attachment; filename=\"xiangqi-{game}.pgn\"")
        );
        assert!(String::from_utf8(body.clone()).unwrap().contains(word), "{format}");
        assert_eq!(iccs(&games_of(&body)[0]), "h2e2 h9g7 h0g2");
    }

    // An imported game keeps its variations and comments in every format.
    let record = format!(
        "[Event \"{}\"]\n[Red \"甲\"]\n[Black \"乙\"]\n[Result \"1-0\"]\n\n\
         1. h2e2 {{the central cannon}} (1. c3c4 g6g5) h9g7 2. h0g2 (2. b0c2 {{quieter}}) i9h9 1-0\n",
        unique("exported ")
    );
    let res = a.upload(record.clone().into_bytes()).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let v: Value = res.json().await.unwrap();
    let id = v["kept"][0]["id"].as_str().unwrap().to_string();
    let (_, tree) = pgn::read_tree(&record).unwrap();
    let (st, _, body) = fetch(&a, &format!("/imports/{id}/record?format=xqf")).await;
    assert_eq!(st, StatusCode::OK);
    let back = xiangqi_records::xqf::read(&body, &Limits::SITE).unwrap();
    assert_eq!(back.tree, tree, "the whole tree, comments and all");
    assert_eq!(back.record.tag("Red"), Some("甲"));
    for format in ["pgn", "pgn-wxf", "pgn-chinese"] {
        let (st, _, body) = fetch(&a, &format!("/imports/{id}/record?format={format}")).await;
        assert_eq!(st, StatusCode::OK);
        let (_, read) = pgn::read_tree(std::str::from_utf8(&body).unwrap()).unwrap();
        assert_eq!(read, tree, "{format}");
    }
    assert_eq!(fetch(&b, &format!("/imports/{id}/record")).await.0, StatusCode::NOT_FOUND, "mine only");
    assert_eq!(
        fetch(&Client::new(&s, "x"), &format!("/imports/{id}/record")).await.0,
        StatusCode::UNAUTHORIZED
    );

    // A Masters game, loaded as an administrator's command does.
    let dir = std::env::temp_dir().join(unique("xiangqi-masters-"));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("m.pgn");
    let master = unique("master");
    std::fs::write(&file, format!("[Red \"{master}\"]\n[Black \"b\"]\n1. h2e2 {{x}} (1. b2e2) h9g7 *\n"))
        .unwrap();
    let store = xiangqi_server::store::Store::open(&db.url).await.unwrap();
    let loaded = xiangqi_server::domain::masters::load_file(&store, &file, 0, |_| {}).await.unwrap();
    assert_eq!(loaded.kept, 1);
    let _ = std::fs::remove_dir_all(&dir);
    let (_, v) = a.get(&format!("/masters?player={master}")).await;
    let id = v["games"][0]["id"].as_str().unwrap().to_string();
    let (st, headers, body) =
        fetch(&Client::new(&s, "anyone"), &format!("/masters/{id}/record?format=xqf")).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(
        header(&headers, "content-disposition"),
        format!("attachment; filename=\"xiangqi-masters-{id}.xqf\"")
    );
    let back = xiangqi_records::xqf::read(&body, &Limits::SITE).unwrap();
    assert_eq!(back.tree.len(), 4, "the main line, its variation and the start");
    assert_eq!(back.tree.comment(back.tree.children(MoveTree::ROOT)[0]), "x");
    s.stop().await;
}

on_both_databases!(a_bad_format_is_refused_with_its_reason);
async fn a_bad_format_is_refused_with_its_reason(db: Db) {
    let s = start(&db, |_| {}).await;
    let a = Client::register(&s, "exf").await;
    let b = Client::register(&s, "exk").await;
    let game = finished_game(&a, &b, LINES[1]).await;
    let hex = new_game(&a, &b, "hex").await;
    let (st, v) = a.post("/studies", json!({"title": "exports"})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let study = v["study"]["id"].as_str().unwrap().to_string();
    let record = "1. h2e2 {the cannon} (1. c3c4) h9g7 *";
    let (st, v) = a.post(&format!("/studies/{study}/chapters"), json!({"version": 1, "pgn": record})).await;
    assert_eq!(st, StatusCode::OK, "{v}");

    for path in [
        format!("/games/{game}/record?format=xml"),
        format!("/database/games.pgn?player={}&format=PGN", a.name),
        format!("/users/{}/games.pgn?format=", a.name),
        format!("/studies/{study}/pgn?format=chinese"),
    ] {
        let (st, v) = a.get(&path).await;
        assert_eq!((st, v["reason"].as_str()), (StatusCode::BAD_REQUEST, Some("malformed")), "{path}: {v}");
        assert!(v["message"].as_str().unwrap().contains("pgn-chinese"), "the formats are named: {path}: {v}");
    }
    for path in [
        format!("/database/games.pgn?player={}&format=xqf", a.name),
        format!("/users/{}/games.pgn?format=xqf", a.name),
        format!("/studies/{study}/pgn?format=xqf"),
        format!("/games/{hex}/record?format=xqf"),
    ] {
        let (st, v) = a.get(&path).await;
        assert_eq!(
            (st, v["reason"].as_str()),
            (StatusCode::BAD_REQUEST, Some("xqf_one_game")),
            "{path}: {v}"
        );
    }
    let (st, v) = a.get(&format!("/database/games.pgn?player={}&colour=red", a.name)).await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::BAD_REQUEST, Some("malformed")), "{v}");
    assert_eq!(a.get("/games/no-such-game/record").await.0, StatusCode::NOT_FOUND);

    // What each does take: a hex game as PGN with its cells; a study in
    // Chinese with its comments and variations.
    let (st, _, body) = fetch(&a, &format!("/games/{hex}/record?format=pgn-chinese")).await;
    assert_eq!(st, StatusCode::OK);
    assert!(String::from_utf8(body).unwrap().contains("[Variant \"hex\"]"));
    let (st, headers, body) = fetch(&a, &format!("/studies/{study}/pgn?format=pgn-chinese")).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(
        header(&headers, "content-disposition"),
        format!("attachment; filename=\"study-{study}.pgn\"")
    );
    let text = String::from_utf8(body).unwrap();
    assert!(text.contains("炮二平五 {the cannon} (1. 兵七进一)"), "{text}");
    let chapter = &text[text.rfind("[Game").unwrap()..];
    let (_, tree) = pgn::read_tree(chapter).unwrap();
    assert_eq!(tree.len(), 4, "{chapter}");
    let (_, _, body) = fetch(&a, &format!("/studies/{study}/pgn")).await;
    assert!(String::from_utf8(body).unwrap().contains("C2=5 {the cannon}"), "WXF unless asked otherwise");
    s.stop().await;
}
