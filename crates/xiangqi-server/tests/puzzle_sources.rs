//! Puzzles from games played away from the site, as `xiangqi puzzles
//! generate` finds them, on SQLite and PostgreSQL: from the Masters
//! collection, and from the imported games of users who agreed and of no one
//! else; a second run finds nothing new; a puzzle never shows whose imported
//! game it came from; deleting the game, or taking the agreement back,
//! removes its puzzles that nobody tried and leaves the others without a
//! source; agreeing again searches only games not searched before.

mod common;

use std::sync::Arc;

use common::{Client, Db, on_both_databases, server, unique, wrong_move};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use xiangqi::{Position, Standard, notation};
use xiangqi_server::{
    domain::{
        Services, Setup,
        events::Nobody,
        puzzles::{Scanned, find::Budget},
    },
    engines::EnginePool,
    model::puzzles::{GameSource, Origin},
    store::Store,
};

/// Enough for a chariot left hanging, and quick in a test build.
const BUDGET: Budget = Budget { scan_nodes: 20_000, verify_nodes: 60_000 };

/// Games from the start where one side leaves a chariot to be taken for
/// nothing on the d or f file; each ends in its own position, and each
/// line's last move sets the puzzle its two moves name.
const MASTERS_GAME: (&str, [&str; 2]) = ("b0c2 b9c7 h0g2 h9g7 a0a1 a9a8 a1d1 a8d8", ["a8d8", "d1d8"]);
const TRIED: (&str, [&str; 2]) = ("h0g2 h9g7 b0c2 b9c7 i0i1 i9i8 i1f1 i8f8", ["i8f8", "f1f8"]);
const DELETED: (&str, [&str; 2]) = ("b0c2 b9c7 h0g2 h9g7 c3c4 a9a8 a0a1 a8d8 a1d1", ["a1d1", "d8d1"]);
const UNTRIED: (&str, [&str; 2]) = ("b0c2 b9c7 h0g2 h9g7 i3i4 a6a5 a0a1 a9a8 a1d1 a8d8", ["a8d8", "d1d8"]);
const PRIVATE: (&str, [&str; 2]) = ("h0g2 h9g7 b0c2 b9c7 g3g4 i9i8 i0i1 i8f8 i1f1", ["i1f1", "f8f1"]);
const LATER: (&str, [&str; 2]) = ("h0g2 h9g7 b0c2 b9c7 a3a4 i9i8 i0i1 i8f8 i1f1", ["i1f1", "f8f1"]);

/// A PGN file of games (ICCS moves) under an event name of this run, which
/// makes each record new to the collection it goes to.
fn pgn(event: &str, games: &[&str]) -> String {
    games
        .iter()
        .map(|moves| {
            let numbered: Vec<String> = moves
                .split(' ')
                .collect::<Vec<_>>()
                .chunks(2)
                .enumerate()
                .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
                .collect();
            format!(
                "[Event \"{event}\"]\n[Red \"Red\"]\n[Black \"Black\"]\n[Result \"*\"]\n\n{} *\n\n",
                numbered.join(" ")
            )
        })
        .collect()
}

/// Posts a record file: the ids of the games kept, in the file's order.
async fn upload(c: &Client, path: &str, text: String) -> Vec<String> {
    let res = c.post_bytes(path, text.into_bytes()).await;
    let status = res.status();
    let v: Value = serde_json::from_str(&res.text().await.unwrap()).unwrap_or(Value::Null);
    assert_eq!(status, StatusCode::CREATED, "{v}");
    v["kept"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()).collect()
}

async fn share(c: &Client, on: bool) {
    let (s, v) = c.send(Method::PUT, "/me/puzzle-sharing", Some(json!({ "imports": on }))).await;
    assert_eq!((s, v["imports"].as_bool()), (StatusCode::OK, Some(on)), "{v}");
}

/// The ids of the puzzles stored from a game (of whichever collection).
async fn puzzles_of(store: &Store, game: &str) -> Vec<String> {
    sqlx::query_scalar("SELECT id FROM puzzles WHERE game_id = $1 ORDER BY id")
        .bind(game)
        .fetch_all(store.pool())
        .await
        .unwrap()
}

async fn count(store: &Store, sql: &str, arg: &str) -> i64 {
    sqlx::query_scalar(sql).bind(arg).fetch_one(store.pool()).await.unwrap()
}

/// The one puzzle of a game, which must be the one its line sets.
async fn the_puzzle(
    store: &Store,
    game: &str,
    line: [&str; 2],
) -> xiangqi_server::model::puzzles::PuzzleRecord {
    let ids = puzzles_of(store, game).await;
    assert_eq!(ids.len(), 1, "one puzzle from game {game}: {ids:?}");
    let p = store.puzzle(&ids[0]).await.unwrap().unwrap();
    assert_eq!(p.moves, line, "{p:?}");
    p
}

/// Puzzles an earlier run stored from these games' positions (a PostgreSQL
/// database is shared with earlier runs, and a position gives one puzzle)
/// are taken away with all that refers to them.
async fn forget_earlier_runs(store: &Store, games: &[&str]) {
    let mut keys = Vec::new();
    for moves in games {
        let mut pos = Position::<Standard>::startpos();
        for m in moves.split(' ') {
            let mv = notation::parse_any(&pos, m).unwrap();
            pos.play_unchecked(mv);
            keys.push(pos.hash() as i64);
        }
    }
    let of = "SELECT id FROM puzzles WHERE variant = 'standard' AND position_key = $1";
    for key in keys {
        for sql in [
            format!("DELETE FROM puzzle_attempts WHERE puzzle_id IN ({of})"),
            format!("DELETE FROM puzzle_themes WHERE puzzle_id IN ({of})"),
            format!("DELETE FROM puzzle_days WHERE puzzle_id IN ({of})"),
            format!("UPDATE puzzle_streaks SET current_id = NULL, over = 1 WHERE current_id IN ({of})"),
            "DELETE FROM puzzles WHERE variant = 'standard' AND position_key = $1".to_string(),
        ] {
            sqlx::query(&sql).bind(key).execute(store.pool()).await.unwrap();
        }
    }
}

/// A run of the generator over these sources: what each gave.
async fn generate(services: &Services, sources: &[GameSource]) -> Vec<Scanned> {
    let done = services.puzzles.generate_puzzles(sources, BUDGET, None, &mut |_, _| {}).await.unwrap();
    done.into_iter().map(|(_, s)| s).collect()
}

on_both_databases!(puzzles_come_from_masters_and_agreed_imports_and_go_with_the_agreement);
async fn puzzles_come_from_masters_and_agreed_imports_and_go_with_the_agreement(db: Db) {
    let s = server(&db).await;
    let store = Store::open(&db.url).await.unwrap();
    forget_earlier_runs(&store, &[MASTERS_GAME.0, TRIED.0, DELETED.0, UNTRIED.0, PRIVATE.0, LATER.0]).await;
    let admin = Client::register(&s, "psa").await;
    let agrees = Client::register(&s, "psy").await;
    let private = Client::register(&s, "psn").await;
    let event = unique("puzzle sources");

    // Off until the owner turns it on.
    let (st, v) = agrees.get("/me/puzzle-sharing").await;
    assert_eq!((st, v), (StatusCode::OK, json!({ "imports": false })));
    let (st, v) = agrees.send(Method::PUT, "/me/puzzle-sharing", Some(json!({ "imports": "yes" }))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    let (st, v) = agrees.send(Method::PUT, "/me/puzzle-sharing", Some(json!({}))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "a missing choice is refused, not taken as no: {v}");
    let (st, _) = Client::new(&s, "nobody").get("/me/puzzle-sharing").await;
    assert_eq!(st, StatusCode::UNAUTHORIZED);

    assert!(xiangqi_server::set_admin(&db.url, &admin.name, true).await.unwrap());
    let masters = upload(&admin, "/masters", pgn(&event, &[MASTERS_GAME.0])).await;
    // The collection is shared with earlier runs: this run searches its own game.
    let first = store.masters_game(&masters[0]).await.unwrap().unwrap();
    store.set_source_cursor(GameSource::Masters, "", first.created_ms - 1, "").await.unwrap();
    let theirs = upload(&agrees, "/imports", pgn(&event, &[TRIED.0, DELETED.0, UNTRIED.0])).await;
    let hidden = upload(&private, "/imports", pgn(&event, &[PRIVATE.0])).await;
    share(&agrees, true).await;

    let setup = Setup { engines: Arc::new(EnginePool::new(2)), ..Setup::default() };
    let services = setup.services(store.clone(), Arc::new(Nobody));
    let started = std::time::Instant::now();
    let first_run = generate(&services, &[GameSource::Masters, GameSource::Imports]).await;
    eprintln!("{first_run:?} in {:.1} s", started.elapsed().as_secs_f64());
    // (Other tests may load Masters games into a shared database meanwhile.)
    assert!(first_run[0].games >= 1, "{first_run:?}");
    assert!(first_run[1].games >= 3, "the agreeing owner's games: {first_run:?}");
    assert!(first_run.iter().all(|r| r.puzzles >= r.games), "{first_run:?}");

    let m = the_puzzle(&store, &masters[0], MASTERS_GAME.1).await;
    assert_eq!(m.origin, Origin::Masters { game: masters[0].clone() });
    let mut imported = Vec::new();
    for (game, line) in theirs.iter().zip([TRIED.1, DELETED.1, UNTRIED.1]) {
        let p = the_puzzle(&store, game, line).await;
        assert_eq!(p.origin, Origin::Imported { game: game.clone(), owner: agrees.name.clone() });
        imported.push(p.id);
    }
    assert_eq!(puzzles_of(&store, &hidden[0]).await, Vec::<String>::new(), "not without agreement");
    let by_owner = "SELECT COUNT(*) FROM puzzles WHERE source_owner = $1";
    assert_eq!(count(&store, by_owner, &private.name).await, 0);

    // A second run goes on from where the first stopped: nothing to do.
    let again = generate(&services, &[GameSource::Masters, GameSource::Imports]).await;
    assert_eq!((again[0].puzzles, again[1]), (0, Scanned::default()), "{again:?}");
    assert_eq!(puzzles_of(&store, &masters[0]).await, std::slice::from_ref(&m.id));
    assert_eq!(count(&store, by_owner, &agrees.name).await, 3);

    // What a solver sees: the masters game, but nothing of an imported one.
    let (st, v) = private.get(&format!("/puzzles/{}", m.id)).await;
    assert_eq!(
        (st, v["masters_game"].as_str(), &v["game"]),
        (StatusCode::OK, Some(&*masters[0]), &Value::Null)
    );
    for id in &imported {
        let (st, v) = private.get(&format!("/puzzles/{id}")).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert_eq!((&v["game"], &v["masters_game"]), (&Value::Null, &Value::Null), "{v}");
        let text = v.to_string();
        assert!(!text.contains(&agrees.name) && !theirs.iter().any(|g| text.contains(g.as_str())), "{text}");
    }
    // Nor may anyone else open the game itself.
    let (st, _) = private.get(&format!("/imports/{}", theirs[0])).await;
    assert_eq!(st, StatusCode::NOT_FOUND);

    // Someone tries the first; the owner deletes the second game: its
    // puzzle, untried, goes with it.
    let wrong = wrong_move(&db.url, &imported[0]).await;
    let (st, v) = private.post(&format!("/puzzles/{}/moves", imported[0]), json!({ "moves": [wrong] })).await;
    assert_eq!((st, v["step"].as_str()), (StatusCode::OK, Some("wrong")), "{v}");
    let (st, v) = agrees.delete(&format!("/imports/{}", theirs[1])).await;
    assert!(st.is_success(), "{st} {v}");
    assert!(store.puzzle(&imported[1]).await.unwrap().is_none(), "deleted with its game");
    assert!(store.puzzle(&imported[0]).await.unwrap().is_some());

    // The owner takes the agreement back: the untried puzzle goes, the
    // tried one stays (its attempt and rating with it) without a source.
    share(&agrees, false).await;
    let (_, v) = agrees.get("/me/puzzle-sharing").await;
    assert_eq!(v, json!({ "imports": false }));
    assert!(store.puzzle(&imported[2]).await.unwrap().is_none(), "untried: removed");
    let kept = store.puzzle(&imported[0]).await.unwrap().expect("tried: kept");
    assert_eq!((kept.origin, kept.plays), (Origin::Withdrawn, 1));
    assert_eq!(count(&store, by_owner, &agrees.name).await, 0);
    let themes = "SELECT COUNT(*) FROM puzzle_themes WHERE puzzle_id = $1";
    assert_eq!(count(&store, themes, &imported[2]).await, 0, "nothing refers to a removed puzzle");
    let (st, v) = private.get(&format!("/puzzles/{}", imported[2])).await;
    assert_eq!((st, v["reason"].as_str()), (StatusCode::NOT_FOUND, Some("no_puzzle")), "{v}");
    let (st, v) = agrees.get(&format!("/puzzles/{}", imported[0])).await;
    assert_eq!((st, &v["game"], &v["masters_game"]), (StatusCode::OK, &Value::Null, &Value::Null));
    let nothing = generate(&services, &[GameSource::Imports]).await;
    assert_eq!(nothing, [Scanned::default()], "withdrawn: not searched again");

    // The other user's game had a puzzle all along: agreeing lets it be found.
    share(&private, true).await;
    assert_eq!(generate(&services, &[GameSource::Imports]).await[0].games, 1);
    let p = the_puzzle(&store, &hidden[0], PRIVATE.1).await;
    assert_eq!(p.origin, Origin::Imported { game: hidden[0].clone(), owner: private.name.clone() });

    // Agreeing again searches only games imported since: each game is
    // searched once, however often the setting is turned off and on.
    share(&agrees, true).await;
    assert_eq!(generate(&services, &[GameSource::Imports]).await, [Scanned::default()]);
    let later = upload(&agrees, "/imports", pgn(&event, &[LATER.0])).await;
    assert_eq!(generate(&services, &[GameSource::Imports]).await[0].games, 1);
    let p = the_puzzle(&store, &later[0], LATER.1).await;
    assert_eq!(p.origin, Origin::Imported { game: later[0].clone(), owner: agrees.name.clone() });
    assert_eq!(store.puzzle(&imported[0]).await.unwrap().unwrap().origin, Origin::Withdrawn);
    share(&agrees, false).await;
    share(&private, false).await;
    s.stop().await;
}
