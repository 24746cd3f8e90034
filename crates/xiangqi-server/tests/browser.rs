//! Real (headless Chromium) browser sessions against the play server: two people
//! register, post and accept a challenge, and play with the click-then-submit
//! flow, each seeing the other's moves appear live; the position page draws both
//! boards at desktop and phone sizes. The play flow as a new player meets it:
//! check told to the side in check, a game played with the keyboard alone, a
//! rematch, an auto-match pairing noticed right after logging in, the waiting
//! room and game lists updating by themselves, messages that belong to their
//! page, phones (touch, 390 and 360 px wide), and no dead ends. Screenshots are
//! saved under `$XIANGQI_ARTIFACTS` (default `target/artifacts`).
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER` (CI sets it; without it, and outside CI,
//! the browser tests say so and do nothing).

mod browsing;

use browsing::{
    Driver, Window, api, chromedriver, click, click_cell, click_target, confirm_moves, count, css, launch,
    play_move, register_quick, shot, shots_at_both_sizes, start_driver, until, wait_text,
};
use std::time::Duration;

use fantoccini::{Client, Locator, key::Key};
use serde_json::{Value, json};

async fn browser(driver_url: &str, profile: &std::path::Path) -> Client {
    browser_as(driver_url, profile, None).await
}

/// A browser session; `phone` makes it a touch screen of that size (Chromium's
/// mobile emulation), else it is a desktop window.
async fn browser_as(driver_url: &str, profile: &std::path::Path, phone: Option<(u32, u32)>) -> Client {
    let window = phone.map_or(Window::Desktop(1280, 900), |(w, h)| Window::Phone(w, h));
    launch(driver_url, profile, "en-US", window).await
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

/// A server on a fresh SQLite database in a temporary folder.
async fn start_server(name: &str) -> (xiangqi_server::Running, std::path::PathBuf) {
    let tmp = std::env::temp_dir().join(format!("xiangqi-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    (xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap(), tmp)
}

/// A server, chromedriver, and two desktop browsers in which alice and bob have
/// registered: what most tests here start from.
struct AliceAndBob {
    server: xiangqi_server::Running,
    tmp: std::path::PathBuf,
    driver: Driver,
    url: String,
    a: Client,
    b: Client,
}

async fn alice_and_bob(chromedriver: &str, name: &str) -> AliceAndBob {
    let (server, tmp) = start_server(name).await;
    let url = format!("{}/", server.url());
    let (driver, driver_url) = start_driver(chromedriver).await;
    let a = browser(&driver_url, &tmp.join("a")).await;
    let b = browser(&driver_url, &tmp.join("b")).await;
    register_quick(&a, &url, "alice").await;
    register_quick(&b, &url, "bob").await;
    AliceAndBob { server, tmp, driver, url, a, b }
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn two_players_play_live_with_click_then_submit() {
    let chromedriver = chromedriver();
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
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn the_position_page_draws_both_boards_on_desktop_and_phone() {
    let chromedriver = chromedriver();
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
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn the_hex_board_shows_a_pieces_targets_and_reports_the_chosen_move() {
    let chromedriver = chromedriver();
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

    // The keyboard walks the hex cells too: from the general up its file and back.
    c.execute("document.querySelector('#play svg').focus();", vec![]).await.unwrap();
    let cursor = || async {
        c.execute("return document.querySelector('#play [data-mark=cursor]').dataset.cell;", vec![])
            .await
            .unwrap()
    };
    assert_eq!(cursor().await, json!("e1"), "the cursor starts on the general");
    press(&c, &[Key::Up, Key::Up]).await;
    assert_eq!(cursor().await, json!("e3"));
    press(&c, &[Key::Right]).await;
    let right = cursor().await;
    assert!(right.as_str().is_some_and(|s| s.starts_with('f')), "right goes to the next file: {right}");
    press(&c, &[Key::Left, Key::Down, Key::Down]).await;
    assert_eq!(cursor().await, json!("e1"));

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

// ---------------------------------------------------------------------------
// The play flow as a new player meets it.

/// A correspondence challenge from `a` to `opponent`, accepted by `b`: the game's id.
async fn start_game(a: &Client, b: &Client, opponent: &str, color: &str, clock: Value) -> String {
    let c = api(
        a,
        "POST",
        "/challenges",
        json!({ "opponent": opponent, "rules": "asian", "color": color, "clock": clock }),
    )
    .await;
    let id = c["body"]["challenge"]["id"].as_str().unwrap_or_else(|| panic!("a challenge: {c}")).to_string();
    let g = api(b, "POST", &format!("/challenges/{id}/accept"), Value::Null).await;
    g["body"]["game"]["id"].as_str().unwrap_or_else(|| panic!("a game: {g}")).to_string()
}

fn days(n: u32) -> Value {
    json!({ "kind": "correspondence", "hours": n * 24 })
}

/// What a live region said last (visually hidden text is not in `text()`).
async fn said(c: &Client, needle: &str) {
    let mut last = Value::Null;
    for _ in 0..60 {
        last = c
            .execute("return document.querySelector('.board-box [aria-live]').textContent;", vec![])
            .await
            .unwrap();
        if last.as_str().is_some_and(|s| s.contains(needle)) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the board never said {needle:?}; it said {last}");
}

/// Presses keys, one after the other, on whatever has the focus.
async fn press(c: &Client, keys: &[Key]) {
    for &k in keys {
        c.active_element().await.unwrap().send_keys(&char::from(k).to_string()).await.unwrap();
    }
}

/// Presses Tab until the element `selector` names has the focus.
async fn tab_to(c: &Client, selector: &str) {
    for _ in 0..60 {
        let here = c
            .execute(
                "return !!document.activeElement && document.activeElement.matches(arguments[0]);",
                vec![json!(selector)],
            )
            .await
            .unwrap();
        if here == json!(true) {
            return;
        }
        press(c, &[Key::Tab]).await;
    }
    panic!("Tab never reached {selector}");
}

/// No sideways scrolling on this page.
async fn fits_width(c: &Client, what: &str) {
    let r = c
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth, document.body.scrollWidth];",
            vec![],
        )
        .await
        .unwrap();
    let (scroll, inner) = (r[0].as_i64().unwrap(), r[1].as_i64().unwrap());
    assert!(scroll <= inner, "{what} scrolls sideways: {r}");
}

/// Goes to a page by its link in the navigation, without reloading.
async fn nav(c: &Client, hash: &str) {
    css(c, &format!("#nav a[href='{hash}']")).await.click().await.unwrap();
}

async fn current_hash(c: &Client) -> String {
    c.execute("return location.hash;", vec![]).await.unwrap().as_str().unwrap_or("").to_string()
}

async fn wait_hash(c: &Client, wanted: &str) {
    for _ in 0..60 {
        if current_hash(c).await == wanted {
            return;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("never went to {wanted}; at {}", current_hash(c).await);
}

/// The id of the game a page shows.
async fn game_id(c: &Client) -> String {
    current_hash(c).await.trim_start_matches("#/game/").to_string()
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn a_game_is_played_with_the_keyboard_alone_check_is_told_to_the_one_in_check_and_a_rematch_follows() {
    use Key::{Down, Enter, Left, Right, Up};
    let chromedriver = chromedriver();
    let AliceAndBob { server, tmp, driver: _driver, url, a, b } =
        alice_and_bob(&chromedriver, "keyboard").await;
    let id = start_game(&a, &b, "bob", "red", days(3)).await;
    a.goto(&format!("{url}#/game/{id}")).await.unwrap();
    b.goto(&format!("{url}#/game/{id}")).await.unwrap();
    css(&a, "g.piece.movable").await;
    css(&b, "svg.board g.piece").await;

    // Alice (Red) tabs to the board: the cursor starts on her general.
    tab_to(&a, "svg.board").await;
    said(&a, "e0, Red general").await;
    press(&a, &[Up, Up, Right, Right, Right, Enter]).await;
    said(&a, "Red cannon on h2 picked up").await;
    css(&a, "[data-mark=selected][data-cell=h2]").await;
    press(&a, &[Left, Left, Left, Down, Up, Enter]).await;
    said(&a, "Moved: h2e2").await;
    wait_text(&a, "#status", "Submit your move").await;
    tab_to(&a, "#submit").await;
    press(&a, &[Enter]).await;

    // Bob (Black, his board flipped: his general at the bottom) answers f9e8.
    css(&b, "g.piece.movable").await;
    tab_to(&b, "svg.board").await;
    said(&b, "e9, Black general").await;
    press(&b, &[Left, Enter]).await;
    said(&b, "Black advisor on f9 picked up").await;
    press(&b, &[Up, Right, Enter]).await;
    said(&b, "Moved: f9e8").await;
    tab_to(&b, "#submit").await;
    press(&b, &[Enter]).await;

    // Alice's focus went back to the board, its cursor where she left it (e2):
    // the cannon takes the centre pawn and gives check through the advisor.
    css(&a, "g.piece[data-cell=e8]").await;
    css(&a, "g.piece.movable").await;
    let focused = a.execute("return document.activeElement.matches('svg.board');", vec![]).await.unwrap();
    assert_eq!(focused, json!(true), "the focus is back on the board after submitting");
    press(&a, &[Enter, Up, Up, Up, Up, Enter]).await;
    said(&a, "Moved: e2e6").await;
    tab_to(&a, "#submit").await;
    press(&a, &[Enter]).await;

    // Bob, in check, is told so, and his general is marked; Alice sees it too.
    let status = wait_text(&b, "#status", "Check!").await;
    assert!(status.contains("Your move"), "{status}");
    css(&b, "[data-mark=check][data-cell=e9]").await;
    wait_text(&a, "#status", "check").await;
    css(&a, "[data-mark=check][data-cell=e9]").await;
    let last = wait_text(&b, "#last-move", "e2e6").await;
    assert!(last.contains("2. Red"), "the last move in words: {last}");
    let listed = css(&b, ".moves table").await.text().await.unwrap();
    assert!(listed.contains("C5+4") || listed.contains("e2e6"), "the move list as text: {listed}");
    shot(&b, "check-black.png").await;

    // Bob resigns, by keyboard: Resign, then Yes (the confirmation takes the focus).
    tab_to(&b, "#resign").await;
    press(&b, &[Enter]).await;
    css(&b, "#resign-yes:focus").await;
    press(&b, &[Enter]).await;
    wait_text(&b, "#status", "Red wins: resignation").await;
    wait_text(&a, "#status", "Red wins: resignation").await;

    // A finished game offers a rematch and a new game; Bob asks, Alice accepts.
    css(&b, "#new-game").await;
    tab_to(&b, "#rematch").await;
    press(&b, &[Enter]).await;
    wait_text(&b, "#rematch-sent", "Rematch offered to alice").await;
    wait_text(&a, "#rematch", "Accept rematch").await;
    shot(&a, "rematch-offered.png").await;
    tab_to(&a, "#rematch").await;
    press(&a, &[Enter]).await;
    // Alice is taken to the new game (the old one's board is there until then).
    let mut rematch = game_id(&a).await;
    for _ in 0..60 {
        if rematch != id {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
        rematch = game_id(&a).await;
    }
    assert_ne!(rematch, id, "Alice is on the new game");
    css(&a, "svg.board g.piece").await;
    // Bob, who asked, is taken there too; colours are swapped: Bob is Red now.
    wait_hash(&b, &format!("#/game/{rematch}")).await;
    wait_text(&b, "#status", "Your move").await;
    wait_text(&a, "#status", "Red (bob) to move").await;
    // Before both sides have moved, a game can be aborted rather than resigned.
    css(&b, "#abort").await;
    assert!(b.find(Locator::Css("#resign")).await.is_err(), "no Resign before both sides moved");

    a.close().await.ok();
    b.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn a_player_in_the_auto_match_queue_is_taken_to_the_game_right_after_logging_in() {
    let chromedriver = chromedriver();
    let (server, tmp) = start_server("automatch").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = browser(&driver_url, &tmp.join("a")).await;
    let b = browser(&driver_url, &tmp.join("b")).await;
    register_quick(&a, &url, "alice").await;

    // Bob's page opens logged out (its socket with it), then he logs in.
    b.goto(&url).await.unwrap();
    assert_eq!(
        api(&b, "POST", "/users", json!({ "name": "bob", "password": "secret-pass" })).await["status"],
        201
    );
    api(&b, "DELETE", "/session", Value::Null).await;
    b.goto(&url).await.unwrap();
    let login = "section:nth-of-type(1) form";
    css(&b, &format!("{login} input[name=name]")).await.send_keys("bob").await.unwrap();
    css(&b, &format!("{login} input[name=password]")).await.send_keys("secret-pass").await.unwrap();
    css(&b, &format!("{login} button")).await.click().await.unwrap();

    // Without reloading, Bob asks for a live auto-match and waits in the queue.
    nav(&b, "#/new").await;
    let auto = "section:nth-of-type(2) form";
    css(&b, &format!("{auto} select[name=time]")).await.select_by_value("l10+5").await.unwrap();
    css(&b, &format!("{auto} button[type=submit]")).await.click().await.unwrap();
    wait_text(&b, ".queued", "auto-match queue").await;

    // Alice asks for the same: both are in the game, Bob without a reload.
    nav(&a, "#/new").await;
    css(&a, &format!("{auto} select[name=time]")).await.select_by_value("l10+5").await.unwrap();
    css(&a, &format!("{auto} button[type=submit]")).await.click().await.unwrap();
    css(&a, "svg.board g.piece").await;
    let id = game_id(&a).await;
    wait_hash(&b, &format!("#/game/{id}")).await;
    css(&b, "svg.board g.piece").await;
    wait_text(&b, ".player-bottom .clock", ":").await;
    wait_text(&b, ".player-top .clock", ":").await;
    wait_text(&b, "#message", "Paired with alice").await;
    let unloaded =
        b.execute("return performance.getEntriesByType('navigation').length;", vec![]).await.unwrap();
    assert_eq!(unloaded, json!(1), "one page load: no reload happened");
    shot(&b, "automatch-paired.png").await;

    a.close().await.ok();
    b.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn the_waiting_room_and_game_lists_update_by_themselves() {
    let chromedriver = chromedriver();
    let AliceAndBob { server, tmp, driver: _driver, url: _, a, b } =
        alice_and_bob(&chromedriver, "lobby").await;

    nav(&a, "#/room").await;
    wait_text(&a, "main", "Nobody is waiting").await;
    let post = |d: u32| json!({ "rules": "asian", "color": "random", "clock": days(d) });
    let first = api(&b, "POST", "/challenges", post(3)).await["body"]["challenge"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    css(&a, &format!("li[data-challenge='{first}']")).await;

    // Alice has the focus on its Accept button when another challenge comes: she keeps it.
    tab_to(&a, &format!("li[data-challenge='{first}'] button")).await;
    let second = api(&b, "POST", "/challenges", post(7)).await["body"]["challenge"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    css(&a, &format!("li[data-challenge='{second}']")).await;
    let kept = a
        .execute("return document.activeElement.closest('li') && document.activeElement.closest('li').dataset.challenge;", vec![])
        .await
        .unwrap();
    assert_eq!(kept, json!(first), "the focus stays on the first challenge's button");

    // Bob withdraws the first: it goes from Alice's page.
    assert_eq!(api(&b, "DELETE", &format!("/challenges/{first}"), Value::Null).await["status"], 204);
    gone(&a, &format!("li[data-challenge='{first}']")).await;
    shot(&a, "room-live.png").await;

    // The same challenge twice is refused, with the server's words, in the form.
    nav(&b, "#/new").await;
    css(&b, "form select[name=time]").await.select_by_value("c168").await.unwrap();
    css(&b, "form button[type=submit]").await.click().await.unwrap();
    wait_text(&b, "form .form-error", "already have an open challenge").await;
    shot(&b, "duplicate-challenge.png").await;

    // Alice's game status fills when a game starts, without a reload.
    nav(&a, "#/status").await;
    wait_text(&a, "main", "No game is waiting for you").await;
    api(
        &b,
        "POST",
        "/challenges",
        json!({ "opponent": "alice", "rules": "asian", "color": "black", "clock": days(3) }),
    )
    .await;
    let incoming = api(&a, "GET", "/challenges", Value::Null).await;
    let id = incoming["body"]["incoming"][0]["id"].as_str().unwrap().to_string();
    api(&a, "POST", &format!("/challenges/{id}/accept"), Value::Null).await;
    wait_text(&a, "main", "vs bob").await;
    wait_text(&a, "main", "My turn (1)").await;

    a.close().await.ok();
    b.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn messages_belong_to_the_page_and_action_they_came_from() {
    let chromedriver = chromedriver();
    let (server, tmp) = start_server("messages").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = browser(&driver_url, &tmp.join("a")).await;
    let c = browser(&driver_url, &tmp.join("c")).await;
    c.set_window_size(1280, 800).await.unwrap();
    register_quick(&a, &url, "alice").await;

    // A taken user id is said in the register form, not above every later page.
    c.goto(&url).await.unwrap();
    let form = "section:nth-of-type(2) form";
    css(&c, &format!("{form} input[name=name]")).await.send_keys("alice").await.unwrap();
    css(&c, &format!("{form} input[name=password]")).await.send_keys("secret-pass").await.unwrap();
    css(&c, &format!("{form} button")).await.click().await.unwrap();
    wait_text(&c, &format!("{form} .form-error"), "is taken").await;
    let name = css(&c, &format!("{form} input[name=name]")).await;
    name.clear().await.unwrap();
    name.send_keys("carol").await.unwrap();
    css(&c, &format!("{form} button")).await.click().await.unwrap();
    css(&c, "#nav a[href='#/new']").await;
    let body = css(&c, "body").await.text().await.unwrap();
    assert!(!body.contains("is taken"), "the register form's error is gone: {body}");

    // A notice (a challenge) shows on the page Carol is on, with a link to Game
    // status, where it is answered; the next page is clear of it.
    c.goto(&format!("{url}#/people")).await.unwrap();
    css(&c, "#here-others").await;
    api(
        &a,
        "POST",
        "/challenges",
        json!({ "opponent": "carol", "rules": "asian", "color": "red", "clock": days(3) }),
    )
    .await;
    wait_text(&c, "#message", "alice challenges you").await;
    css(&c, "#message a[href='#/status']").await.click().await.unwrap();
    css(&c, "li.challenge button").await;
    assert!(!css(&c, "#message").await.is_displayed().await.unwrap(), "the notice went with its page");
    css(&c, "li.challenge button").await.click().await.unwrap();

    // On the game page nothing stale pushes the board down: all of it is in the window.
    css(&c, "svg.board g.piece").await;
    let fits = c
        .execute(
            "const r = document.querySelector('svg.board').getBoundingClientRect();\
             return [r.top, r.bottom, window.innerHeight, document.querySelector('#message').hidden];",
            vec![],
        )
        .await
        .unwrap();
    assert!(fits[1].as_f64().unwrap() <= fits[2].as_f64().unwrap(), "the board is in the window: {fits}");
    assert_eq!(fits[3], json!(true), "no message over the game: {fits}");
    shot(&c, "messages-game.png").await;

    a.close().await.ok();
    c.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

/// The page at `hash` (reached by its address) fits the width; answers nothing.
async fn visit_fits(c: &Client, url: &str, hash: &str, wait_for: &str) {
    c.goto(&format!("{url}{hash}")).await.unwrap();
    css(c, wait_for).await;
    fits_width(c, hash).await;
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn on_a_phone_every_page_fits_and_the_clocks_and_buttons_stay_with_the_board() {
    let chromedriver = chromedriver();
    let (server, tmp) = start_server("phone").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = browser(&driver_url, &tmp.join("a")).await;
    let p = browser_as(&driver_url, &tmp.join("p"), Some((390, 844))).await;
    register_quick(&a, &url, "alice").await;

    // The log-in page, then registering by touch.
    p.goto(&url).await.unwrap();
    css(&p, "section:nth-of-type(2) form").await;
    fits_width(&p, "log-in page").await;
    shot(&p, "phone-login.png").await;
    register(&p, &url, "phoebe").await;
    let touch = p.execute("return navigator.maxTouchPoints > 0 && window.innerWidth;", vec![]).await.unwrap();
    assert_eq!(touch, json!(390), "a 390 px touch screen");

    // Alice challenges Phoebe to a live game (10+5, rapid); Phoebe accepts in
    // the waiting room. She has asked for Submit in rapid games.
    confirm_moves(&p, &["rapid"]).await;
    let live = json!({ "kind": "live", "base": 600000, "increment": 5000 });
    api(
        &a,
        "POST",
        "/challenges",
        json!({ "opponent": "phoebe", "rules": "asian", "color": "black", "clock": live }),
    )
    .await;
    visit_fits(&p, &url, "#/status", "main h1").await;
    visit_fits(&p, &url, "#/new", "main form").await;
    visit_fits(&p, &url, "#/room", "li.challenge button").await;
    shot(&p, "phone-room.png").await;
    css(&p, "li.challenge button").await.click().await.unwrap();
    css(&p, "g.piece.movable").await;
    fits_width(&p, "game page").await;

    // A move chosen by touch: both clocks, Submit and Take back are on screen with the board.
    click_cell(&p, "h2").await;
    click_target(&p, "e2").await;
    css(&p, "#submit").await;
    let on_screen = p
        .execute(
            "document.querySelector('.player-top').scrollIntoView({ block: 'start' });\
             const parts = ['.player-top .clock', 'svg.board', '.player-bottom .clock', '#submit', '#takeback'];\
             const out = parts.filter((s) => { const r = document.querySelector(s).getBoundingClientRect();\
               return r.top < 0 || r.bottom > window.innerHeight || r.left < 0 || r.right > window.innerWidth; });\
             return out;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(on_screen, json!([]), "these are off screen at 390x844");
    shot(&p, "phone-game.png").await;
    css(&p, "#submit").await.click().await.unwrap();
    let game = current_hash(&p).await;
    a.goto(&format!("{url}{game}")).await.unwrap();
    css(&a, "g.piece[data-cell=e2]").await;

    visit_fits(&p, &url, "#/people", "#here-others").await;
    visit_fits(&p, &url, "#/user/phoebe", "main input[name=old]").await;
    visit_fits(&p, &url, "#/edit-profile", "main textarea[name=bio]").await;
    visit_fits(&p, &url, "#/position/hex", "svg.board g.piece").await;
    visit_fits(&p, &url, "#/game/nope", ".message.error").await;
    p.close().await.ok();

    // 360 px wide: the same pages, watching the game.
    let n = browser_as(&driver_url, &tmp.join("n"), Some((360, 740))).await;
    register_quick(&n, &url, "nina").await;
    for (hash, wait_for) in [
        ("#/status", "main h1"),
        ("#/new", "main form"),
        ("#/room", "main h1"),
        ("#/people", "#here-others"),
        ("#/user/nina", "main input[name=old]"),
        ("#/edit-profile", "main textarea[name=bio]"),
        ("#/position/standard", "svg.board g.piece"),
        (game.as_str(), "svg.board g.piece"),
    ] {
        visit_fits(&n, &url, hash, wait_for).await;
    }
    shot(&n, "phone-360-game.png").await;
    n.goto(&url).await.unwrap();
    api(&n, "DELETE", "/session", Value::Null).await;
    visit_fits(&n, &url, "", "section:nth-of-type(2) form").await;

    a.close().await.ok();
    n.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn no_dead_ends_abort_draw_offers_and_small_things() {
    let chromedriver = chromedriver();
    let AliceAndBob { server, tmp, driver: _driver, url, a, b } =
        alice_and_bob(&chromedriver, "deadends").await;

    // An unknown game or user says so.
    a.goto(&format!("{url}#/game/nope")).await.unwrap();
    wait_text(&a, "main", "There is no game nope.").await;
    a.goto(&format!("{url}#/user/nobody")).await.unwrap();
    wait_text(&a, "main", "There is no user nobody.").await;
    assert!(a.find(Locator::Css(".loading")).await.is_err(), "no endless Loading…");

    // A game aborted before both sides moved ends with no result, unrated.
    let id = start_game(&a, &b, "bob", "red", days(3)).await;
    a.goto(&format!("{url}#/game/{id}")).await.unwrap();
    b.goto(&format!("{url}#/game/{id}")).await.unwrap();
    css(&a, "g.piece.movable").await;
    assert!(a.find(Locator::Css("#resign")).await.is_err(), "Abort, not Resign, before both moved");
    css(&a, "#abort").await.click().await.unwrap();
    wait_text(&a, "#status", "Game aborted").await;
    wait_text(&b, "#status", "Game aborted").await;
    wait_text(&a, ".game-info", "not rated").await;
    css(&a, "#rematch").await;
    css(&a, "#new-game").await;
    let alice = api(&a, "GET", "/users/alice", Value::Null).await;
    assert_eq!(alice["body"]["user"]["rating"], 1500, "{alice}");
    assert_eq!(alice["body"]["user"]["record"], json!({ "wins": 0, "losses": 0, "draws": 0 }));

    // Draw offers show next to the buttons; a declined one is told to the one who offered.
    let id = start_game(&a, &b, "bob", "red", days(3)).await;
    a.goto(&format!("{url}#/game/{id}")).await.unwrap();
    // Each state of the game is drawn once on bob's page (the same document: only
    // the address's fragment changes), however often it arrives: the answer to
    // the page's watch repeats the state the page read. Drawn twice, the buttons
    // are swapped under a press already begun, and the press is lost.
    b.execute(
        "window.actionsDrawn = 0;\
         new MutationObserver((records) => { for (const r of records) for (const n of r.addedNodes)\
           if (n instanceof Element && (n.id === 'actions' || n.querySelector('#actions'))) window.actionsDrawn++; })\
           .observe(document.querySelector('main'), { childList: true, subtree: true });",
        vec![],
    )
    .await
    .unwrap();
    b.goto(&format!("{url}#/game/{id}")).await.unwrap();
    css(&b, "#actions #offer-draw").await;
    click_cell(&a, "h2").await;
    click_target(&a, "e2").await;
    css(&a, "#submit").await.click().await.unwrap();
    css(&b, "g.piece.movable").await;
    let drawn = b.execute("return window.actionsDrawn;", vec![]).await.unwrap();
    // The page's frame, the game as read, alice's move.
    assert_eq!(drawn, json!(3), "bob's buttons were drawn {drawn} times");
    css(&b, "#offer-draw").await.click().await.unwrap();
    wait_text(&b, "#actions #draw-offer", "You offered a draw").await;
    wait_text(&a, "#actions #draw-offer", "bob offers a draw").await;
    shot(&a, "draw-offered.png").await;
    css(&a, "#decline-draw").await.click().await.unwrap();
    wait_text(&b, "#actions #game-note", "alice declined your draw offer").await;
    // News, not a refusal: it reads as news and leaves with its cause (below).
    let kind = css(&b, "#game-note").await.attr("class").await.unwrap().unwrap_or_default();
    assert_eq!(kind, "note info", "a declined offer is not an error");
    shot(&b, "draw-declined.png").await;

    // Typed moves: a move is a few characters and the box takes no more than a
    // slip's worth, so a pasted page of text neither goes out nor widens the page.
    let typed = css(&b, "#move-text").await;
    typed.send_keys(&"h".repeat(2_000)).await.unwrap();
    let kept = typed.prop("value").await.unwrap().unwrap_or_default();
    assert!(kept.len() <= 16, "the box kept {} characters", kept.len());
    typed.send_keys("\n").await.unwrap();
    css(&b, "#move-entry .form-error").await;
    let fits = b.execute("return document.documentElement.scrollWidth <= innerWidth;", vec![]).await.unwrap();
    assert_eq!(fits, json!(true), "a long typed move widens the page");
    typed.clear().await.unwrap();
    // An illegal ICCS move is caught at once; WXF goes to the server.
    typed.send_keys("h9h5\n").await.unwrap();
    wait_text(&b, "#move-entry .form-error", "h9h5 is not a legal move").await;
    typed.clear().await.unwrap();
    typed.send_keys("H8+7\n").await.unwrap();
    css(&b, "g.piece[data-cell=g7]").await;
    css(&a, "g.piece[data-cell=g7]").await;
    assert_eq!(typed.prop("value").await.unwrap().as_deref(), Some(""), "the box is emptied");
    assert_eq!(count(&b, "#game-note").await, 0, "the declined offer's word left with the next move");

    // After both moved: Resign, confirmed; the loser's record reads "1 loss".
    css(&a, "#resign").await.click().await.unwrap();
    css(&a, "#resign-yes").await.click().await.unwrap();
    wait_text(&b, "#status", "Black wins: resignation").await;
    a.goto(&format!("{url}#/user/alice")).await.unwrap();
    wait_text(&a, "main", "0 wins, 1 loss, 0 draws").await;

    // The bio box holds the current bio; password fields are emptied after a change.
    a.goto(&format!("{url}#/edit-profile")).await.unwrap();
    let bio = css(&a, "main textarea[name=bio]").await;
    bio.send_keys("Cannon player.").await.unwrap();
    css(&a, "main form.profile-form button[type=submit]").await.click().await.unwrap();
    wait_text(&a, "main .bio", "Cannon player.").await;
    a.goto(&format!("{url}#/edit-profile")).await.unwrap();
    a.refresh().await.unwrap();
    let kept = css(&a, "main textarea[name=bio]").await.prop("value").await.unwrap();
    assert_eq!(kept.as_deref(), Some("Cannon player."));
    a.goto(&format!("{url}#/user/alice")).await.unwrap();
    css(&a, "main input[name=old]").await.send_keys("secret-pass").await.unwrap();
    css(&a, "main input[name=new]").await.send_keys("another-pass").await.unwrap();
    css(&a, "main form:has(input[name=old]) button").await.click().await.unwrap();
    wait_text(&a, "#message", "Password changed").await;
    for field in ["old", "new"] {
        let v = css(&a, &format!("main input[name={field}]")).await.prop("value").await.unwrap();
        assert_eq!(v.as_deref(), Some(""), "the {field} password field is emptied");
    }

    // Log-in lock-out: after failures, the next try is told how long to wait.
    css(&b, "#nav a[href='#']").await.click().await.unwrap();
    let login = "section:nth-of-type(1) form";
    css(&b, &format!("{login} input[name=name]")).await.send_keys("alice").await.unwrap();
    css(&b, &format!("{login} input[name=password]")).await.send_keys("wrong-pass").await.unwrap();
    // Fail until the server makes the next try wait two seconds or more (a failure
    // is dated when its try began, and a debug build checks passwords slowly).
    let locked = b
        .execute_async(
            "const done = arguments[arguments.length - 1];\
             (async () => {\
               for (let i = 0; i < 40; i++) {\
                 const r = await fetch('/api/v1/session', { method: 'POST', headers: { 'Content-Type': 'application/json' },\
                   body: JSON.stringify({ name: 'alice', password: 'wrong-pass' }) });\
                 const m = (await r.json()).message;\
                 if (r.status === 429 && Number(/in (\\d+) s/.exec(m)[1]) >= 2) return m;\
                 if (r.status === 429) await new Promise((wake) => setTimeout(wake, 200));\
               }\
               return null;\
             })().then(done);",
            vec![],
        )
        .await
        .unwrap();
    assert!(locked.as_str().is_some_and(|m| m.contains("try again")), "{locked}");
    css(&b, &format!("{login} button")).await.click().await.unwrap();
    wait_text(&b, &format!("{login} .form-error"), "try again in").await;
    shot(&b, "login-locked.png").await;

    a.close().await.ok();
    b.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

/// The pieces on the board as `cell=letter`, sorted.
async fn pieces(c: &Client) -> Vec<String> {
    let v = c
        .execute(
            "return [...document.querySelectorAll('svg.board g.piece')].map((g) => g.dataset.cell + '=' + g.dataset.piece).sort();",
            vec![],
        )
        .await
        .unwrap();
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn the_move_list_shows_earlier_positions_during_a_game_and_moves_are_made_on_the_live_one() {
    let chromedriver = chromedriver();
    let AliceAndBob { server, tmp, driver: _driver, url, a, b } =
        alice_and_bob(&chromedriver, "lookback").await;
    let id = start_game(&a, &b, "bob", "red", days(3)).await;
    for (ply, mv, who) in [(0, "h2e2", &a), (1, "h9g7", &b), (2, "b0c2", &a)] {
        let r = api(who, "POST", &format!("/games/{id}/moves"), json!({ "ply": ply, "move": mv })).await;
        assert_eq!(r["status"], 200, "{mv}: {r}");
    }
    b.goto(&format!("{url}#/game/{id}")).await.unwrap();
    css(&b, "svg.board g.piece.movable").await;
    let live = pieces(&b).await;

    // Bob, to move, clicks Red's first move: the board goes back to it, nothing moves there.
    css(&b, ".moves td[data-ply='1'] button.step").await.click().await.unwrap();
    css(&b, ".moves td[data-ply='1'] button.step.current").await;
    css(&b, "svg.board g.piece[data-cell=h9]").await;
    assert_ne!(pieces(&b).await, live, "an earlier position is shown");
    assert_eq!(count(&b, "svg.board g.piece.movable").await, 0, "no move on an earlier position");
    assert!(css(&b, "#back-to-live").await.is_displayed().await.unwrap(), "a way back to the game");
    assert!(!css(&b, "#move-entry").await.is_displayed().await.unwrap(), "no typed move either");
    shot(&b, "game-looking-back.png").await;

    let status = css(&b, "#status").await.text().await.unwrap();
    assert!(status.contains("go back to the game"), "the status says how to move: {status}");

    // Back to the game: the position as it stands, Bob moves again.
    click(&b, "#back-to-live").await;
    css(&b, "svg.board g.piece.movable").await;
    assert_eq!(pieces(&b).await, live, "the live position again");
    assert!(!css(&b, "#back-to-live").await.is_displayed().await.unwrap());
    click_cell(&b, "b7").await;
    click_target(&b, "e7").await;
    css(&b, "#submit").await.click().await.unwrap();
    wait_text(&b, "#status", "alice").await;

    // The last move in the list is the live position too; by keyboard as well.
    css(&b, ".moves td[data-ply='2'] button.step").await.send_keys("\u{E007}").await.unwrap();
    css(&b, ".moves td[data-ply='2'] button.step.current").await;
    css(&b, ".moves td[data-ply='4'] button.step").await.send_keys("\u{E007}").await.unwrap();
    css(&b, ".moves td[data-ply='4'] button.step.current").await;
    assert!(!css(&b, "#back-to-live").await.is_displayed().await.unwrap(), "the last move is the game now");

    a.close().await.ok();
    b.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn an_aborted_game_is_listed_as_aborted_and_moves_count_a_red_and_a_black_ply_as_one() {
    let chromedriver = chromedriver();
    let AliceAndBob { server, tmp, driver: _driver, url, a, b } =
        alice_and_bob(&chromedriver, "counting").await;

    // Aborted before a move was made: under Finished, and nobody's move.
    let aborted = start_game(&a, &b, "bob", "red", days(3)).await;
    let r = api(&a, "POST", &format!("/games/{aborted}/abort"), Value::Null).await;
    assert_eq!(r["status"], 200, "{r}");
    b.goto(&format!("{url}#/status")).await.unwrap();
    let row = wait_text(&b, &format!("li.game-row[data-key='{aborted}']"), "aborted").await;
    assert!(!row.contains("your move"), "{row}");
    shot(&b, "status-aborted.png").await;

    // Five plies are three moves (Red's and Black's reply make one).
    let id = start_game(&a, &b, "bob", "red", days(3)).await;
    for (ply, mv, who) in
        [(0, "h2e2", &a), (1, "h9g7", &b), (2, "b0c2", &a), (3, "b9c7", &b), (4, "h0g2", &a)]
    {
        let r = api(who, "POST", &format!("/games/{id}/moves"), json!({ "ply": ply, "move": mv })).await;
        assert_eq!(r["status"], 200, "{mv}: {r}");
    }
    b.goto(&format!("{url}#/status")).await.unwrap();
    wait_text(&b, &format!("li.game-row[data-key='{id}']"), "3 moves").await;
    b.goto(&format!("{url}#/game/{id}")).await.unwrap();
    wait_text(&b, "#last-move", "Last move: 3. Red").await;
    // The fourth ply is Black's second move, the one the list marks.
    css(&b, ".moves td[data-ply='4'] button.step").await.click().await.unwrap();
    css(&b, ".moves td[data-ply='4'] button.step.current").await;
    let row = css(&b, ".moves tr:has(button.step.current) td.num").await.text().await.unwrap();
    assert_eq!(row, "2");
    let viewing = wait_text(&b, "#last-move", "move 2").await;
    assert!(viewing.contains("of 3"), "{viewing}");
    assert!(viewing.contains("Black"), "{viewing}");

    a.close().await.ok();
    b.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

/// A game between two fixed-depth searches ending in Red's checkmate (as in `tests/api.rs`).
const MATING_GAME: &str = "b0c2 b9c7 h0g2 a9a8 i0i1 a8f8 a0a1 h7h4 g3g4 h4h5 h2h9 h5e5 c0e2 i9h9 e3e4 e5a5 i1h1 a5h5 \
    h1f1 h5f5 b2b5 h9h3 e4e5 f5f2 d0e1 f2f3 e5d5 h3h2 f1g1 f3g3 g2e3 f8f3 e3f5 g3c3 g4g5 c6c5 f5d4 f3f4 a1d1 c5c4 \
    b5b4 c4b4 d1d3 b4c4 d4f5 h2h4 f5d6 b7b1 d3d1 b1b8 d1b1 c4b4 b1d1 b8d8 g5f5 f4f5 c2e3 f5f3 e3c2 c7d5 g1g6 d5f4 \
    d6c8 g9e7 g6g8 f4d3 g8d8 h4h3 d8f8";

/// A short mate on the hex board (as in `tests/hex.rs`).
const HEX_MATE: [&str; 5] = ["b1d4", "b8d7", "d4b5", "d7e10", "b5c8"];

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn the_checkmated_general_is_ringed_on_both_boards() {
    let chromedriver = chromedriver();
    let AliceAndBob { server, tmp, driver: _driver, url, a, b } = alice_and_bob(&chromedriver, "mated").await;
    for (rules, moves) in
        [("asian", MATING_GAME.split_whitespace().collect::<Vec<_>>()), ("hex", HEX_MATE.to_vec())]
    {
        let c = api(
            &a,
            "POST",
            "/challenges",
            json!({ "opponent": "bob", "rules": rules, "color": "red", "clock": days(3) }),
        )
        .await;
        let challenge = c["body"]["challenge"]["id"].as_str().unwrap_or_else(|| panic!("{c}")).to_string();
        let g = api(&b, "POST", &format!("/challenges/{challenge}/accept"), Value::Null).await;
        let id = g["body"]["game"]["id"].as_str().unwrap().to_string();
        for (ply, mv) in moves.iter().enumerate() {
            let who = if ply % 2 == 0 { &a } else { &b };
            let r = api(who, "POST", &format!("/games/{id}/moves"), json!({ "ply": ply, "move": mv })).await;
            assert_eq!(r["status"], 200, "{mv}: {r}");
        }
        for (c, side) in [(&a, "red"), (&b, "black")] {
            c.goto(&format!("{url}#/game/{id}")).await.unwrap();
            wait_text(c, "#status", "checkmate").await;
            // One ring, round Black's general.
            // Read in one step: the board may be drawn again between finding
            // the ring and asking it (the rematch offer arriving, say).
            css(c, "svg.board circle.mated").await;
            let cell = c
                .execute(
                    "return document.querySelector('svg.board circle.mated').getAttribute('data-mated');",
                    vec![],
                )
                .await
                .unwrap();
            let cell = cell.as_str().unwrap().to_string();
            css(c, &format!("svg.board g.piece[data-cell='{cell}'][data-piece=k]")).await;
            assert_eq!(count(c, "svg.board circle.mated").await, 1);
            browsing::shots_at_both_sizes(c, "mated", &format!("{rules}-{side}")).await;
        }
        // An earlier position has no ring; the last has it again.
        css(&a, ".moves td[data-ply='1'] button.step").await.click().await.unwrap();
        css(&a, ".moves td[data-ply='1'] button.step.current").await;
        assert_eq!(count(&a, "svg.board circle.mated").await, 0, "no ring before the mate");
    }
    a.close().await.ok();
    b.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn blitz_moves_go_on_the_click_and_a_premove_is_played_with_the_opponent_s_move() {
    let chromedriver = chromedriver();
    let (server, tmp) = start_server("premove").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = browser(&driver_url, &tmp.join("a")).await;
    let b = browser(&driver_url, &tmp.join("b")).await;
    register_quick(&a, &url, "alice").await;
    register_quick(&b, &url, "bob").await;
    // 3+2: blitz, where a move goes on the click (the default).
    let blitz = json!({ "kind": "live", "base": 180000, "increment": 2000 });
    let id = start_game(&a, &b, "bob", "red", blitz).await;
    a.goto(&format!("{url}#/game/{id}")).await.unwrap();
    b.goto(&format!("{url}#/game/{id}")).await.unwrap();
    play_move(&a, "h2", "e2").await;
    css(&b, "g.piece[data-cell=e2]").await;
    assert_eq!(count(&a, "#submit").await, 0, "no Submit in blitz");

    // Bob to move: alice queues a reply, sees it, takes it back, queues another.
    play_move(&a, "h0", "g2").await;
    wait_text(&a, "#premove", "Premove h0g2").await;
    css(&a, "g.arrow.premove[data-arrow=h0g2]").await;
    shots_at_both_sizes(&a, "game", "premove").await;
    click(&a, "#cancel-premove").await;
    until(&a, "the premove is gone", "return !document.querySelector('#premove, g.arrow.premove');").await;
    play_move(&a, "b0", "c2").await;
    wait_text(&a, "#premove", "Premove b0c2").await;
    assert!(
        !api(&b, "GET", &format!("/games/{id}"), Value::Null).await.to_string().contains("b0c2"),
        "bob cannot see it"
    );

    // Bob's move brings alice's reply at once; both pages show it, and bob is to move again.
    play_move(&b, "h9", "g7").await;
    css(&a, "g.piece[data-cell=c2]").await;
    css(&b, "g.piece[data-cell=c2]").await;
    wait_text(&b, "#status", "Your move").await;
    assert_eq!(count(&a, "#premove").await, 0, "played, so gone");
    let g = api(&a, "GET", &format!("/games/{id}"), Value::Null).await;
    assert_eq!(g["body"]["game"]["ply"], 3, "{g}");
    shot(&b, "game-premove-played.png").await;
    a.close().await.ok();
    b.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn conditional_moves_are_made_on_the_analysis_board_and_answer_the_opponent_at_once() {
    let AliceAndBob { server, tmp, driver: _driver, url, a, b } =
        alice_and_bob(&chromedriver(), "conditionals").await;
    let id = start_game(&a, &b, "bob", "red", json!({ "kind": "correspondence", "hours": 72 })).await;
    let moved = api(&a, "POST", &format!("/games/{id}/moves"), json!({ "ply": 0, "move": "h2e2" })).await;
    assert_eq!(moved["status"], 200, "{moved}");

    // Bob to move: alice goes from her game to its analysis board.
    a.goto(&format!("{url}#/game/{id}")).await.unwrap();
    click(&a, "#conditionals-link").await;
    wait_text(&a, "#conditionals", "Conditional moves").await;
    wait_text(&a, "#conditional-status", "then your answer").await;
    // Bob's possible move alone is not a line yet; with her answer it is.
    play_move(&a, "h9", "g7").await;
    wait_text(&a, "#conditional-status", "End the line with your answer").await;
    assert!(css(&a, "#conditional-add").await.attr("disabled").await.unwrap().is_some(), "not a line yet");
    play_move(&a, "h0", "g2").await;
    wait_text(&a, "#conditional-status", "2 moves").await;
    click(&a, "#conditional-add").await;
    wait_text(&a, "#conditional-lines li", "H2+3").await;
    // A second line, from the game's position again: bob's cannon, alice's horse.
    for _ in 0..2 {
        click(&a, "#nav-back").await;
    }
    play_move(&a, "b7", "e7").await;
    play_move(&a, "b0", "c2").await;
    click(&a, "#conditional-add").await;
    until(&a, "two lines", "return document.querySelectorAll('#conditional-lines li').length === 2;").await;
    shots_at_both_sizes(&a, "analysis", "conditionals").await;
    // Removed and added again: what the server keeps is what shows.
    click(&a, "#conditional-lines li[data-line='1'] button").await;
    until(&a, "one line", "return document.querySelectorAll('#conditional-lines li').length === 1;").await;
    click(&a, "#conditional-add").await;
    until(&a, "two lines again", "return document.querySelectorAll('#conditional-lines li').length === 2;")
        .await;
    let kept = api(&a, "GET", &format!("/games/{id}/conditionals"), Value::Null).await;
    assert_eq!(kept["body"]["lines"].as_array().map(Vec::len), Some(2), "{kept}");
    assert!(
        !api(&b, "GET", &format!("/games/{id}"), Value::Null).await.to_string().contains("b0c2"),
        "bob cannot see them"
    );

    // Bob's cannon move brings alice's horse at once, on both pages.
    b.goto(&format!("{url}#/game/{id}")).await.unwrap();
    a.goto(&format!("{url}#/game/{id}")).await.unwrap();
    let answered = api(&b, "POST", &format!("/games/{id}/moves"), json!({ "ply": 1, "move": "b7e7" })).await;
    assert_eq!(answered["body"]["game"]["ply"], 3, "{answered}");
    css(&a, "g.piece[data-cell=c2]").await;
    css(&b, "g.piece[data-cell=c2]").await;
    wait_text(&b, "#status", "Your move").await;
    assert!(
        api(&a, "GET", &format!("/games/{id}/conditionals"), Value::Null).await["body"]["lines"]
            .as_array()
            .is_some_and(Vec::is_empty)
    );
    shot(&b, "game-conditional-answered.png").await;
    a.close().await.ok();
    b.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}
