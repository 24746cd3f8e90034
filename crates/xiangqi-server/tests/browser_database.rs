//! The games database, the opening explorer and the import page in a real
//! (headless Chromium) browser: finished games are found by player; the
//! analysis board's explorer lists the moves played from the start and plays
//! one when clicked; a PGN file pasted in is imported with its bad game named.
//! Every page is shot at desktop (1280x800) and phone (390x844) size under
//! `$XIANGQI_ARTIFACTS` (default `target/artifacts`) and must not scroll
//! sideways on the phone.
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER` (CI sets it; without it, and outside CI,
//! the tests say so and do nothing).

mod browsing;

use browsing::{
    Window, chromedriver, count, css, launch, register_quick, shots_at_both_sizes, start_driver, until,
};
use serde_json::{Value, json};

/// A player of the API beside the browser, with its own cookies.
struct Player {
    http: reqwest::Client,
    api: String,
}

impl Player {
    async fn register(base: &str, name: &str) -> Player {
        let http = reqwest::Client::builder().cookie_store(true).build().unwrap();
        let p = Player { http, api: format!("{base}/api/v1") };
        let v = p.post("/users", json!({"name": name, "password": "secret-pass"})).await;
        assert_eq!(v["user"]["name"], name, "{v}");
        p
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        let res = self
            .http
            .post(format!("{}{path}", self.api))
            .header("X-Xiangqi", "1")
            .json(&body)
            .send()
            .await
            .unwrap();
        res.json().await.unwrap()
    }
}

/// `red` challenges `black` by name, `black` accepts, they play `moves` and
/// the side to move resigns.
async fn finished_game(red: &Player, black: &Player, black_name: &str, moves: &[&str]) {
    let terms = json!({"opponent": black_name, "rules": "asian", "color": "red",
        "clock": {"kind": "correspondence", "hours": 48}});
    let c = red.post("/challenges", terms).await;
    let id = c["challenge"]["id"].as_str().unwrap().to_string();
    let g = black.post(&format!("/challenges/{id}/accept"), json!({})).await;
    let game = g["game"]["id"].as_str().unwrap().to_string();
    for (ply, mv) in moves.iter().enumerate() {
        let who = if ply % 2 == 0 { red } else { black };
        let v = who.post(&format!("/games/{game}/moves"), json!({"ply": ply, "move": mv})).await;
        assert_eq!(v["game"]["ply"], ply + 1, "{v}");
    }
    let loser = if moves.len() % 2 == 0 { red } else { black };
    let v = loser.post(&format!("/games/{game}/resign"), json!({})).await;
    assert_eq!(v["game"]["status"], "finished", "{v}");
}

const PGN: &str = "[Game \"Chinese Chess\"]\n[Event \"Club\"]\n[Red \"Hu\"]\n[Black \"Liu\"]\n[Result \"1-0\"]\n\n\
    1. h2e2 h9g7 2. h0g2 i9h9 1-0\n\n[Game \"Chinese Chess\"]\n[Red \"Wang\"]\n[Black \"Zhao\"]\n[Result \"0-1\"]\n\n\
    1. a0a5 h9g7 0-1\n";

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn the_database_the_explorer_and_the_import_page_work_in_a_browser() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-database-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let base = server.url().to_string();
    let (red, black) = (Player::register(&base, "hu_rong").await, Player::register(&base, "lu_qin").await);
    finished_game(&red, &black, "lu_qin", &["h2e2", "h9g7", "h0g2", "i9h9"]).await;
    finished_game(&red, &black, "lu_qin", &["h2e2", "b9c7", "b0c2"]).await;
    finished_game(&red, &black, "lu_qin", &["c3c4", "g6g5"]).await;

    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let c = launch(&driver_url, &tmp.join("viewer"), "en-US", Window::Desktop(1280, 800)).await;
    let url = |hash: &str| format!("{base}/{hash}");
    register_quick(&c, &url(""), "viewer").await;

    // The database: a player's finished games, newest first.
    c.goto(&url("#/database")).await.unwrap();
    css(&c, "#db-form input[name=player]").await.send_keys("hu_rong").await.unwrap();
    css(&c, "#db-form button[type=submit]").await.click().await.unwrap();
    until(&c, "three games found", "return document.querySelectorAll('.found-game').length === 3;").await;
    css(&c, "#db-form input[name=moves]").await.send_keys("h2e2").await.unwrap();
    css(&c, "#db-form button[type=submit]").await.click().await.unwrap();
    until(&c, "two games open h2e2", "return document.querySelectorAll('.found-game').length === 2;").await;
    shots_at_both_sizes(&c, "database", "search").await;

    // The explorer on the analysis board: from the start, h2e2 twice, c3c4 once.
    c.goto(&url("#/analysis")).await.unwrap();
    until(
        &c,
        "the explorer lists the moves from the start",
        "const r = document.querySelector('#explorer-moves tr[data-move=h2e2] td:nth-child(2)'); return !!r && r.textContent === '2';",
    )
    .await;
    assert_eq!(count(&c, "#explorer-moves tbody tr").await, 2);
    shots_at_both_sizes(&c, "database", "explorer-start").await;
    css(&c, "#explorer-moves tr[data-move=h2e2] button").await.click().await.unwrap();
    until(
        &c,
        "the explorer follows the move played",
        "return !!document.querySelector('#explorer-moves tr[data-move=h9g7]') && !!document.querySelector('#explorer-moves tr[data-move=b9c7]');",
    )
    .await;
    let link = css(&c, "#explorer-games").await.attr("href").await.unwrap().unwrap();
    assert!(link.starts_with("#/database/standard/"), "{link}");
    shots_at_both_sizes(&c, "database", "explorer-after-move").await;
    // The games with the position shown, from the explorer's link.
    c.goto(&url(&link)).await.unwrap();
    until(&c, "the position's games", "return document.querySelectorAll('.found-game').length === 2;").await;

    // The import page: a good game kept, a bad one named with its move.
    c.goto(&url("#/import")).await.unwrap();
    css(&c, "#import-text").await.send_keys(PGN).await.unwrap();
    css(&c, "#import-form button[type=submit]").await.click().await.unwrap();
    until(&c, "the report", "return !!document.querySelector('.refused-games li');").await;
    let refused = css(&c, ".refused-games li").await.text().await.unwrap();
    assert!(refused.contains("Game 2 (Wang – Zhao)") && refused.contains("move 1. (a0a5)"), "{refused}");
    until(
        &c,
        "the collection lists the kept game",
        "return document.querySelectorAll('.imported-game').length === 1;",
    )
    .await;
    shots_at_both_sizes(&c, "database", "import").await;
    // An imported game opens on the analysis board, where my own explorer shows it.
    css(&c, ".imported-game a").await.click().await.unwrap();
    until(&c, "the imported game's moves", "return document.querySelectorAll('#tree .move, #tree [data-ply]').length >= 4 || location.hash.startsWith('#/analysis/imported/');").await;
    until(&c, "the record under the board", "return !!document.querySelector('#imported-record pre');").await;
    css(&c, "#explorer-source").await.select_by_value("mine").await.unwrap();
    css(&c, "#nav-first").await.click().await.unwrap();
    until(
        &c,
        "my explorer from the start",
        "const r = document.querySelector('#explorer-moves tr[data-move=h2e2] td:nth-child(2)'); return !!r && r.textContent === '1';",
    )
    .await;
    shots_at_both_sizes(&c, "database", "explorer-mine").await;

    // Deleting the imported game empties my collection and my explorer.
    c.goto(&url("#/import")).await.unwrap();
    until(&c, "my collection", "return document.querySelectorAll('.imported-game').length === 1;").await;
    c.execute("document.querySelector('#imported').scrollIntoView();", vec![]).await.unwrap();
    shots_at_both_sizes(&c, "database", "import-list").await;
    c.execute("window.confirm = () => true;", vec![]).await.unwrap();
    css(&c, ".imported-game button.delete").await.click().await.unwrap();
    until(&c, "the game gone", "return document.querySelectorAll('.imported-game').length === 0;").await;
    shots_at_both_sizes(&c, "database", "import-deleted").await;
    c.goto(&url("#/analysis")).await.unwrap();
    css(&c, "#explorer-source").await.select_by_value("mine").await.unwrap();
    until(
        &c,
        "my explorer empty",
        "const b = document.querySelector('#explorer-moves'); return !!b && !b.querySelector('tr') && !!b.querySelector('p.muted');",
    )
    .await;

    c.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn an_administrator_loads_an_xqf_file_into_the_masters_collection_that_everyone_browses() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-masters-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let base = server.url().to_string();
    // An XQF file written from a record with a variation and a comment, in GBK names.
    let pgn = "[Event \"全国象棋个人赛\"]\n[Red \"胡荣华\"]\n[Black \"柳大华\"]\n[Result \"1-0\"]\n\n\
        1. h2e2 {中炮} (1. c3c4) h9g7 2. h0g2 i9h9 1-0\n";
    let (record, tree) = xiangqi::notation::pgn::read_tree(pgn).unwrap();
    let file = tmp.join("hu-liu.xqf");
    std::fs::write(&file, xiangqi_records::xqf::write(&xiangqi_records::Game::new(record, tree))).unwrap();

    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let c = launch(&driver_url, &tmp.join("admin"), "zh-CN", Window::Desktop(1280, 800)).await;
    let url = |hash: &str| format!("{base}/{hash}");
    register_quick(&c, &url(""), "curator").await;
    assert!(xiangqi_server::set_admin(&db, "curator", true).await.unwrap());
    c.goto(&url("#/import")).await.unwrap();
    c.refresh().await.unwrap();
    css(&c, "#import-masters").await.click().await.unwrap();
    css(&c, "#import-file").await.send_keys(file.to_str().unwrap()).await.unwrap();
    css(&c, "#import-form button[type=submit]").await.click().await.unwrap();
    until(&c, "the file's report", "return !!document.querySelector('.import-file .message.info');").await;
    let report = css(&c, ".import-file .message.info").await.text().await.unwrap();
    assert!(report.contains("hu-liu.xqf") && report.contains("XQF"), "{report}");
    shots_at_both_sizes(&c, "database", "masters-import").await;

    // Everyone browses the collection; a game opens with its record, and the
    // explorer's Masters source counts it.
    c.goto(&url("#/masters")).await.unwrap();
    until(&c, "the masters list", "return document.querySelectorAll('.masters-game').length === 1;").await;
    let row = css(&c, ".masters-game").await.text().await.unwrap();
    assert!(row.contains("胡荣华 – 柳大华"), "{row}");
    shots_at_both_sizes(&c, "database", "masters").await;
    css(&c, ".masters-game a").await.click().await.unwrap();
    until(&c, "the record under the board", "return !!document.querySelector('#imported-record pre');").await;
    // The whole tree is on the board: the variation in brackets, the comment
    // after its move, the end of the main line shown.
    until(
        &c,
        "the record's tree",
        "return !!document.querySelector('#tree .variation [data-move=c3c4]') \
            && document.querySelector('#tree .comment')?.textContent === '中炮' \
            && document.querySelector('#tree .node.current')?.dataset.move === 'i9h9';",
    )
    .await;
    css(&c, "#tree .variation [data-move=c3c4]").await.click().await.unwrap();
    until(
        &c,
        "the variation's position",
        "return document.querySelector('#tree .node.current')?.dataset.move === 'c3c4';",
    )
    .await;
    shots_at_both_sizes(&c, "database", "masters-tree").await;
    css(&c, "#imported-record summary").await.click().await.unwrap();
    let text = css(&c, "#imported-record pre").await.text().await.unwrap();
    assert!(text.contains("{中炮}") && text.contains("(1. c3c4)"), "{text}");
    until(&c, "the opening named in Chinese", "const o = document.querySelector('#record-opening .opening'); return !!o && /^[A-E][0-9][0-9] .*中炮/.test(o.textContent);").await;
    css(&c, "#explorer-source").await.select_by_value("masters").await.unwrap();
    css(&c, "#nav-first").await.click().await.unwrap();
    until(
        &c,
        "the masters explorer from the start",
        "const r = document.querySelector('#explorer-moves tr[data-move=h2e2] td:nth-child(2)'); return !!r && r.textContent === '1';",
    )
    .await;
    c.execute("document.querySelector('#imported-record').scrollIntoView();", vec![]).await.unwrap();
    shots_at_both_sizes(&c, "database", "masters-game").await;

    // The same file as a study: a chapter with its variation and comment.
    c.goto(&url("#/studies")).await.unwrap();
    css(&c, "#study-import-file").await.send_keys(file.to_str().unwrap()).await.unwrap();
    css(&c, "#study-import-title").await.send_keys("胡柳之战").await.unwrap();
    shots_at_both_sizes(&c, "database", "study-import").await;
    css(&c, "#study-import button[type=submit]").await.click().await.unwrap();
    until(
        &c,
        "the new study with its chapter",
        "return location.hash.startsWith('#/study/') && document.body.textContent.includes('胡荣华 – 柳大华');",
    )
    .await;
    shots_at_both_sizes(&c, "database", "study-imported").await;
    c.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}
