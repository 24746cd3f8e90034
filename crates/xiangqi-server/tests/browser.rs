//! Real (headless Chromium) browser sessions against the play server: two people
//! register, post and accept a challenge, and play with the click-then-submit
//! flow, each seeing the other's moves appear live; the position page draws both
//! boards at desktop and phone sizes. Screenshots are saved under
//! `$XIANGQI_ARTIFACTS` (default `target/artifacts`).
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER` (CI sets it; without it, and outside CI,
//! the browser tests say so and do nothing).

use std::{
    process::{Child, Command, Stdio},
    time::Duration,
};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn browser(driver_url: &str, profile: &std::path::Path) -> Client {
    let chromium = std::env::var("XIANGQI_TEST_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
        &format!("--user-data-dir={}", profile.display()),
    ];
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), json!({ "binary": chromium, "args": args }));
    ClientBuilder::rustls()
        .expect("tls")
        .capabilities(caps)
        .connect(driver_url)
        .await
        .expect("a browser session")
}

async fn css(c: &Client, selector: &str) -> fantoccini::elements::Element {
    c.wait()
        .at_most(Duration::from_secs(15))
        .for_element(Locator::Css(selector))
        .await
        .unwrap_or_else(|e| panic!("{selector} did not appear: {e}"))
}

async fn gone(c: &Client, selector: &str) {
    for _ in 0..60 {
        if c.find(Locator::Css(selector)).await.is_err() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("{selector} did not go away");
}

async fn register(c: &Client, url: &str, name: &str) {
    c.goto(url).await.unwrap();
    let form = "section:nth-of-type(2) form";
    css(c, &format!("{form} input[name=name]")).await.send_keys(name).await.unwrap();
    css(c, &format!("{form} input[name=password]")).await.send_keys("secret-pass").await.unwrap();
    css(c, &format!("{form} button")).await.click().await.unwrap();
    css(c, "#nav a[href='#/new']").await;
}

async fn click_cell(c: &Client, cell: &str) {
    css(c, &format!("g.piece[data-cell={cell}]")).await.click().await.unwrap();
}

async fn click_target(c: &Client, cell: &str) {
    css(c, &format!("circle.target[data-target={cell}]")).await.click().await.unwrap();
}

async fn shot(c: &Client, name: &str) {
    let dir = std::env::var("XIANGQI_ARTIFACTS").map(std::path::PathBuf::from).unwrap_or_else(|_| {
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/artifacts")
    });
    std::fs::create_dir_all(&dir).unwrap();
    let png = c.screenshot().await.unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

/// The chromedriver to use, or None (outside CI) to skip a browser test.
fn chromedriver() -> Option<String> {
    let found = std::env::var("XIANGQI_TEST_CHROMEDRIVER").ok();
    if found.is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI must set XIANGQI_TEST_CHROMEDRIVER");
        eprintln!("XIANGQI_TEST_CHROMEDRIVER is not set: browser test skipped");
    }
    found
}

/// Starts chromedriver on a free port; answers its URL.
async fn start_driver(chromedriver: &str) -> (Driver, String) {
    let port = free_port();
    let driver = Driver(
        Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    tokio::time::sleep(Duration::from_millis(800)).await;
    (driver, format!("http://127.0.0.1:{port}"))
}

/// A server on a fresh SQLite database in a temporary folder.
async fn start_server(name: &str) -> (xiangqi_server::Running, std::path::PathBuf) {
    let tmp = std::env::temp_dir().join(format!("xiangqi-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    (xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap(), tmp)
}

#[tokio::test]
async fn two_players_play_live_with_click_then_submit() {
    let Some(chromedriver) = chromedriver() else { return };
    let (server, tmp) = start_server("browser").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = browser(&driver_url, &tmp.join("a")).await;
    let b = browser(&driver_url, &tmp.join("b")).await;

    register(&a, &url, "alice").await;
    register(&b, &url, "bob").await;

    // Alice posts an open challenge, playing red; Bob accepts it in the waiting room.
    a.goto(&format!("{url}#/new")).await.unwrap();
    css(&a, "form select[name=color]").await.select_by_value("red").await.unwrap();
    css(&a, "form button[type=submit]").await.click().await.unwrap();
    css(&a, "li.challenge").await;
    b.goto(&format!("{url}#/room")).await.unwrap();
    css(&b, "li.challenge button").await.click().await.unwrap();
    css(&b, "svg.board g.piece").await;

    a.goto(&format!("{url}#/status")).await.unwrap();
    css(&a, "ul.games a").await.click().await.unwrap();
    css(&a, "svg.board g.piece.movable").await;

    // Click a piece: its legal targets appear. Click one: the move is pending.
    click_cell(&a, "h2").await;
    assert!(
        a.find_all(Locator::Css("circle.target")).await.unwrap().len() >= 10,
        "the cannon's targets are shown"
    );
    click_target(&a, "e2").await;
    css(&a, "g.piece[data-cell=e2]").await;
    css(&a, "#takeback").await.click().await.unwrap();
    css(&a, "g.piece[data-cell=h2]").await;
    gone(&a, "g.piece[data-cell=e2]").await;
    assert_eq!(reqwest_like_ply(&server, &b).await, 0, "taking back before submitting sends nothing");

    // Now for real: move, submit, and Bob sees it without reloading.
    click_cell(&a, "h2").await;
    click_target(&a, "e2").await;
    css(&a, "#submit").await.click().await.unwrap();
    css(&b, "g.piece[data-cell=e2]").await;
    css(&b, "rect.last[data-cell=e2]").await;

    // Bob replies the same way; Alice sees it live.
    click_cell(&b, "h9").await;
    click_target(&b, "g7").await;
    css(&b, "#submit").await.click().await.unwrap();
    css(&a, "g.piece[data-cell=g7]").await;
    let status = css(&a, "#status").await.text().await.unwrap();
    assert!(status.contains("Your move"), "{status}");

    shot(&a, "game-red.png").await;
    shot(&b, "game-black.png").await;
    a.close().await.ok();
    b.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

/// The game's move count as the server has it, read through Bob's page.
async fn reqwest_like_ply(_server: &xiangqi_server::Running, b: &Client) -> i64 {
    let v = b
        .execute_async(
            "const done = arguments[arguments.length - 1];\
             fetch('/api/v1/games').then(r => r.json()).then(g => done([...g.my_turn, ...g.their_turn][0].ply));",
            vec![],
        )
        .await
        .unwrap();
    v.as_i64().unwrap_or(-1)
}

/// Opens a position page at a window size and checks what it draws.
async fn check_position(c: &Client, url: &str, size: (u32, u32), cells: usize, shot_name: &str) {
    c.set_window_size(size.0, size.1).await.unwrap();
    c.goto(url).await.unwrap();
    css(c, "svg.board g.piece").await;
    let pieces = c.find_all(Locator::Css("svg.board g.piece")).await.unwrap().len();
    assert_eq!(pieces, 32, "{url}: every piece of the start position is drawn");
    if cells > 0 {
        let drawn = c.find_all(Locator::Css("svg.board polygon.hex")).await.unwrap().len();
        assert_eq!(drawn, cells, "{url}: the hex board's cells");
        assert_eq!(c.find_all(Locator::Css("polygon.hex.river")).await.unwrap().len(), 5, "river cells");
        assert_eq!(c.find_all(Locator::Css("polygon.hex.palace")).await.unwrap().len(), 14, "palace cells");
    }
    // The board fits the window: no sideways scrolling on a phone.
    let fits =
        c.execute("return document.documentElement.scrollWidth <= window.innerWidth;", vec![]).await.unwrap();
    assert_eq!(fits, json!(true), "{url} at {size:?} scrolls sideways");
    shot(c, shot_name).await;
}

#[tokio::test]
async fn the_position_page_draws_both_boards_on_desktop_and_phone() {
    let Some(chromedriver) = chromedriver() else { return };
    let (server, tmp) = start_server("position").await;
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let c = browser(&driver_url, &tmp.join("p")).await;
    let base = server.url();

    let hex = format!("{base}/#/position/hex");
    check_position(&c, &hex, (1280, 800), 79, "position-hex-desktop.png").await;
    check_position(&c, &hex, (390, 844), 79, "position-hex-phone.png").await;
    let hex_red = css(&c, "g.piece[data-cell=e1]").await.attr("data-piece").await.unwrap();
    assert_eq!(hex_red.as_deref(), Some("K"), "the red general stands on e1");
    let black_general = css(&c, "g.piece[data-cell=e11]").await.attr("data-piece").await.unwrap();
    assert_eq!(black_general.as_deref(), Some("k"), "the black general stands on e11");

    let standard = format!("{base}/#/position/standard");
    check_position(&c, &standard, (1280, 800), 0, "position-standard-desktop.png").await;
    check_position(&c, &standard, (390, 844), 0, "position-standard-phone.png").await;

    // A FEN in the address: after 1. h2e2 on the standard board, Black to move.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let link = format!("{base}/#/position/standard/{}", fen.replace('/', "%2F").replace(' ', "%20"));
    c.set_window_size(1280, 800).await.unwrap();
    c.goto(&link).await.unwrap();
    css(&c, "g.piece[data-cell=e2]").await;
    gone(&c, "g.piece[data-cell=h2]").await;
    let status = css(&c, "#status").await.text().await.unwrap();
    assert!(status.contains("Black"), "{status}");

    // The language choice is remembered: the page reads in Chinese after choosing it.
    css(&c, "#nav select.language").await.select_by_value("zh").await.unwrap();
    css(&c, "html[lang=zh]").await;
    let status = css(&c, "#status").await.text().await.unwrap();
    assert_eq!(status, "黑方走棋");
    c.refresh().await.unwrap();
    css(&c, "html[lang=zh]").await;
    css(&c, "#nav select.language").await.select_by_value("en").await.unwrap();
    css(&c, "html[lang=en]").await;

    // The hex board flipped for Black keeps every cell and puts e11 at the bottom.
    c.goto(&hex).await.unwrap();
    let e1 = css(&c, "g.piece[data-cell=e1] circle").await.attr("cy").await.unwrap().unwrap();
    css(&c, ".game-side a[href='#']").await.click().await.unwrap();
    let e1_flipped = css(&c, "g.piece[data-cell=e1] circle").await.attr("cy").await.unwrap().unwrap();
    assert!(e1_flipped.parse::<f64>().unwrap() < e1.parse::<f64>().unwrap(), "flipping moves e1 to the top");
    shot(&c, "position-hex-flipped.png").await;

    c.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
async fn the_page_is_served_with_a_strict_content_security_policy() {
    let (server, tmp) = start_server("csp").await;
    let page = reqwest::get(format!("{}/", server.url())).await.unwrap();
    let csp = page.headers()["content-security-policy"].to_str().unwrap().to_string();
    assert!(csp.contains("script-src 'self'") && csp.contains("style-src 'self'"), "{csp}");
    assert!(!csp.contains("unsafe-inline"), "{csp}");
    let module = reqwest::get(format!("{}/js/main.js", server.url())).await.unwrap();
    assert_eq!(module.headers()["content-type"], "text/javascript; charset=utf-8");
    assert_eq!(module.headers()["x-content-type-options"], "nosniff");
    let missing = reqwest::get(format!("{}/js/missing.js", server.url())).await.unwrap();
    assert_eq!(missing.status(), 404);
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

/// Puts a playable hex board (the start position, with the given legal moves for
/// `mine`) on the position page; the move the player picks lands in `window.chosen`.
async fn playable_hex_board(c: &Client, legal: &[&str], mine: &str, flipped: bool) {
    let script = "const [legal, mine, flipped, done] = arguments;\
        Promise.all([import('/js/components/board.js'), import('/js/components/board-hex.js')]).then(([b, g]) => {\
          const box = document.createElement('div'); box.id = 'play'; document.querySelector('#main').prepend(box);\
          const board = new b.Board(box, g.hex, 'test', (m) => { window.chosen = m; });\
          board.show({ fen: g.hex.startFen, legal, mine, flipped }); done(true); });";
    c.execute_async(script, vec![json!(legal), json!(mine), json!(flipped)]).await.unwrap();
}

#[tokio::test]
async fn the_hex_board_shows_a_pieces_targets_and_reports_the_chosen_move() {
    let Some(chromedriver) = chromedriver() else { return };
    let (server, tmp) = start_server("hexplay").await;
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let c = browser(&driver_url, &tmp.join("p")).await;
    c.goto(&format!("{}/#/position/hex", server.url())).await.unwrap();
    css(&c, "svg.board g.piece").await;

    // Red's cannon on h2, with its eight moves in the start position (xiangqi-cli status --variant hex).
    let cannon = ["h2e2", "h2f2", "h2g2", "h2h3", "h2h4", "h2h5", "h2h6", "h2h8", "e4e5"];
    playable_hex_board(&c, &cannon, "red", false).await;
    css(&c, "#play g.piece.movable[data-cell=h2]").await.click().await.unwrap();
    css(&c, "#play [data-mark=selected][data-cell=h2]").await;
    assert_eq!(
        c.find_all(Locator::Css("#play circle.target")).await.unwrap().len(),
        8,
        "the cannon's targets"
    );
    shot(&c, "hex-selected.png").await;
    // h8 holds Black's horse: the capture ring lies under it, so the player clicks the piece.
    css(&c, "#play circle.target.capture[data-target=h8]").await;
    css(&c, "#play g.piece[data-cell=h8]").await.click().await.unwrap();
    let chosen = c.execute("return window.chosen;", vec![]).await.unwrap();
    assert_eq!(chosen, json!("h2h8"));

    // Black, board flipped: a move between two-digit cells.
    c.refresh().await.unwrap();
    css(&c, "svg.board g.piece").await;
    playable_hex_board(&c, &["e11e10"], "black", true).await;
    css(&c, "#play g.piece.movable[data-cell=e11]").await.click().await.unwrap();
    css(&c, "#play circle.target[data-target=e10]").await.click().await.unwrap();
    let chosen = c.execute("return window.chosen;", vec![]).await.unwrap();
    assert_eq!(chosen, json!("e11e10"));

    c.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}
