//! Downloads in a real (headless Chromium) browser: the database page's
//! "Download these games" for the search shown, a profile's archive, a
//! study's file and a game's record on the analysis board (the site's and an
//! imported one), each with its choice of format. At desktop (1280x800) and
//! phone (390x844) size each link is clicked, its address follows the format
//! chosen, and what it answers is the file asked for; every page is shot at
//! both sizes under `$XIANGQI_ARTIFACTS` (default `target/artifacts`).
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER` (CI sets it; without it, and outside CI,
//! the tests say so and do nothing).

mod browsing;

use browsing::{Window, api, chromedriver, css, launch, register_quick, start_driver, until};
use fantoccini::Client;
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

/// `red` challenges `black`, `black` accepts, they play `moves` and Black
/// resigns: the game's id.
async fn finished_game(red: &Player, black: &Player, black_name: &str, moves: &[&str]) -> String {
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
    let v = black.post(&format!("/games/{game}/resign"), json!({})).await;
    assert_eq!(v["game"]["status"], "finished", "{v}");
    game
}

/// What a link of the page answers when the page fetches its address with
/// its session: status, media type, disposition and the body as text (its
/// length for a binary file). A refusal for now (429, the download the click
/// began still holding the client's place) is asked again after its
/// `Retry-After`, as a browser's user would.
async fn answer_of(c: &Client, selector: &str) -> Value {
    let script = "const [selector, done] = arguments;\
        const href = document.querySelector(selector).href;\
        const ask = (tries) => fetch(href).then(async (r) => {\
          const wait = Number(r.headers.get('retry-after') || 0);\
          if (r.status === 429 && tries > 0) return setTimeout(() => ask(tries - 1), wait * 1000);\
          const type = r.headers.get('content-type') || '';\
          const body = type.startsWith('application/octet-stream') ? (await r.arrayBuffer()).byteLength : await r.text();\
          done({ status: r.status, type, disposition: r.headers.get('content-disposition'), body, href });\
        });\
        ask(3);";
    c.execute_async(script, vec![json!(selector)]).await.unwrap()
}

/// At desktop and at phone size: chooses `format` for the download `id`, checks
/// that its link follows, clicks it, and answers what it downloads.
async fn download_at_both_sizes(c: &Client, id: &str, format: &str) -> Value {
    let mut last = Value::Null;
    for (w, h) in [(1280, 800), (390, 844)] {
        c.set_window_size(w, h).await.unwrap();
        until(c, "the window's size", "return innerWidth <= 400 || innerWidth > 1000;").await;
        c.execute(
            "document.querySelector(arguments[0]).scrollIntoView({ block: 'center' });",
            vec![json!(format!("#{id}"))],
        )
        .await
        .unwrap();
        css(c, &format!("#{id}-format")).await.select_by_value(format).await.unwrap();
        let href = css(c, &format!("#{id}")).await.attr("href").await.unwrap().unwrap();
        assert!(href.ends_with(&format!("format={format}")), "{id} at {w}px: {href}");
        let answer = answer_of(c, &format!("#{id}")).await;
        css(c, &format!("#{id}")).await.click().await.unwrap();
        assert_eq!(answer["status"], 200, "{id} at {w}px: {answer}");
        assert!(answer["disposition"].as_str().unwrap().starts_with("attachment; filename="), "{answer}");
        if let Value::Object(_) = last {
            assert_eq!(answer["body"], last["body"], "the same file at either size");
        }
        last = answer;
    }
    c.set_window_size(1280, 800).await.unwrap();
    last
}

/// Shoots the page at desktop and phone size (`exports-{name}-{size}.png`)
/// with `selector` in the middle of the window; on the phone it must not
/// scroll sideways.
async fn shots_of(c: &Client, name: &str, selector: &str) {
    let dir = std::env::var("XIANGQI_ARTIFACTS").map(std::path::PathBuf::from).unwrap_or_else(|_| {
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/artifacts")
    });
    std::fs::create_dir_all(&dir).unwrap();
    for (w, h, size) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        c.set_window_size(w, h).await.unwrap();
        until(c, &format!("{name} at {w}px"), "return innerWidth <= 400 || innerWidth > 1000;").await;
        let script = "document.querySelector(arguments[0]).scrollIntoView({ block: 'center' });\
            return document.documentElement.scrollWidth <= innerWidth;";
        let fits = c.execute(script, vec![json!(selector)]).await.unwrap();
        assert_eq!(fits, json!(true), "{name} at {size} size scrolls sideways");
        std::fs::write(dir.join(format!("exports-{name}-{size}.png")), c.screenshot().await.unwrap())
            .unwrap();
    }
    c.set_window_size(1280, 800).await.unwrap();
}

const IMPORTED: &str = "[Game \"Chinese Chess\"]\n[Event \"Club\"]\n[Red \"Hu\"]\n[Black \"Liu\"]\n[Result \"1-0\"]\n\n\
    1. h2e2 {the central cannon} (1. c3c4 g6g5) h9g7 2. h0g2 i9h9 1-0\n";

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn every_download_link_follows_its_format_and_downloads_that_file() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-exports-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let base = server.url().to_string();
    let (red, black) = (Player::register(&base, "hu_rong").await, Player::register(&base, "lu_qin").await);
    let first = finished_game(&red, &black, "lu_qin", &["h2e2", "h9g7", "h0g2"]).await;
    finished_game(&red, &black, "lu_qin", &["c3c4", "g6g5", "b0c2"]).await;
    finished_game(&red, &black, "lu_qin", &["h2e2", "b9c7", "b0c2"]).await;

    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let c = launch(&driver_url, &tmp.join("viewer"), "en-US", Window::Desktop(1280, 800)).await;
    let url = |hash: &str| format!("{base}/{hash}");
    register_quick(&c, &url(""), "viewer").await;

    // The database: the search shown, as one file in the dialect chosen.
    c.goto(&url("#/database")).await.unwrap();
    css(&c, "#db-form input[name=player]").await.send_keys("hu_rong").await.unwrap();
    css(&c, "#db-form input[name=moves]").await.send_keys("h2e2").await.unwrap();
    css(&c, "#db-form button[type=submit]").await.click().await.unwrap();
    until(&c, "two games found", "return document.querySelectorAll('.found-game').length === 2;").await;
    let found = download_at_both_sizes(&c, "db-download-link", "pgn-chinese").await;
    let href = found["href"].as_str().unwrap();
    assert!(
        href.contains("/api/v1/database/games.pgn?player=hu_rong&moves=h2e2&format=pgn-chinese"),
        "{href}"
    );
    assert!(!href.contains("limit="), "the search, not its page: {href}");
    assert_eq!(found["type"], "application/x-chess-pgn; charset=utf-8");
    assert_eq!(found["disposition"], "attachment; filename=\"xiangqi-database-hu_rong.pgn\"");
    let text = found["body"].as_str().unwrap();
    assert_eq!(text.matches("[Format \"Chinese\"]").count(), 2, "{text}");
    assert!(text.contains("炮二平五") && !text.contains("兵七进一"), "{text}");
    shots_of(&c, "database", "#db-download").await;

    // A profile's archive.
    c.goto(&url("#/user/hu_rong")).await.unwrap();
    css(&c, "#archive").await;
    let archive = download_at_both_sizes(&c, "archive", "pgn").await;
    let text = archive["body"].as_str().unwrap();
    assert_eq!(text.matches("[Format \"ICCS\"]").count(), 3, "{text}");
    assert!(text.contains("1. h2e2 h9g7"), "{text}");
    shots_of(&c, "profile", "#archive").await;

    // A site game on the analysis board, as XQF.
    c.goto(&url(&format!("#/analysis/game/{first}/3"))).await.unwrap();
    css(&c, "#record-download").await;
    let options = c
        .execute(
            "return [...document.querySelectorAll('#record-download-format option')].map((o) => o.value);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(options, json!(["pgn-wxf", "pgn", "pgn-chinese", "xqf"]));
    let xqf = download_at_both_sizes(&c, "record-download", "xqf").await;
    assert_eq!(xqf["type"], "application/octet-stream");
    assert_eq!(xqf["disposition"], format!("attachment; filename=\"xiangqi-{first}.xqf\""));
    assert!(xqf["body"].as_u64().unwrap() > 1024, "a header and three moves: {xqf}");
    shots_of(&c, "analysis-game", "#game-record").await;

    // An imported game, with its variation and comment in the file.
    c.goto(&url("#/import")).await.unwrap();
    css(&c, "#import-text").await.send_keys(IMPORTED).await.unwrap();
    css(&c, "#import-form button[type=submit]").await.click().await.unwrap();
    until(&c, "the collection lists it", "return document.querySelectorAll('.imported-game').length === 1;")
        .await;
    css(&c, ".imported-game a").await.click().await.unwrap();
    until(
        &c,
        "the record under the board",
        "return !!document.querySelector('#imported-record #record-download');",
    )
    .await;
    let imported = download_at_both_sizes(&c, "record-download", "pgn-wxf").await;
    let text = imported["body"].as_str().unwrap();
    assert!(text.contains("C2=5 {the central cannon} (1. P7+1"), "{text}");
    shots_of(&c, "analysis-imported", "#record-download").await;

    // A study's file.
    let study = api(&c, "POST", "/studies", json!({"title": "Cannons"})).await;
    let id = study["body"]["study"]["id"].as_str().unwrap().to_string();
    let chapter = json!({"version": 1, "pgn": "1. h2e2 {central} (1. b2e2) h9g7 *"});
    let added = api(&c, "POST", &format!("/studies/{id}/chapters"), chapter).await;
    assert_eq!(added["status"], 200, "{added}");
    c.goto(&url(&format!("#/study/{id}"))).await.unwrap();
    css(&c, "#export").await;
    let options = c
        .execute(
            "return [...document.querySelectorAll('#export-format option')].map((o) => o.value);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(options, json!(["pgn-wxf", "pgn", "pgn-chinese"]), "no XQF for a file of chapters");
    let file = download_at_both_sizes(&c, "export", "pgn-chinese").await;
    let text = file["body"].as_str().unwrap();
    assert!(text.contains("炮二平五 {central} (1. 炮八平五)"), "{text}");
    shots_of(&c, "study", "#export").await;

    c.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}
