//! The site made one's own, in headless Chromium: board and piece preferences
//! change every board at once and stay changed across reloads (in the browser for
//! a visitor, on the server once logged in), the UI in both languages, a
//! visitor's first screen, the rules with their diagrams, watching a game without
//! an account, and news by administrators. Screenshots of every piece set and
//! theme in both languages go to `$XIANGQI_ARTIFACTS` (default `target/artifacts`).
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER` (outside CI, without it the tests say so and
//! do nothing).

mod browsing;

use browsing::{
    Window, api, chromedriver, click, count, css, launch, register_quick, scroll_to, shot,
    shots_at_both_sizes, start_driver, until, wait_text,
};
use std::time::Duration;

use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use xiangqi_server::model::page::Page;
use xiangqi_server::model::puzzles::NewPuzzle;

/// A server on a fresh database; answers it, its folder and the database's URL.
async fn start_server(name: &str) -> (xiangqi_server::Running, std::path::PathBuf, String) {
    let tmp = std::env::temp_dir().join(format!("xiangqi-site-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    (xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap(), tmp, db)
}

/// A desktop browser whose own language is `language` (what the UI starts in).
async fn browser(driver_url: &str, profile: &std::path::Path, language: &str) -> Client {
    launch(driver_url, profile, language, Window::Desktop(1280, 900)).await
}

/// A challenge from `a` (Red) to `opponent`, accepted by `b`: the game's id.
async fn start_game(a: &Client, b: &Client, opponent: &str, clock: Value) -> String {
    let c = api(
        a,
        "POST",
        "/challenges",
        json!({ "opponent": opponent, "rules": "asian", "color": "red", "clock": clock }),
    )
    .await;
    let id = c["body"]["challenge"]["id"].as_str().unwrap_or_else(|| panic!("a challenge: {c}")).to_string();
    let g = api(b, "POST", &format!("/challenges/{id}/accept"), Value::Null).await;
    g["body"]["game"]["id"].as_str().unwrap_or_else(|| panic!("a game: {g}")).to_string()
}

async fn play(c: &Client, id: &str, ply: u32, mv: &str) {
    let r = api(c, "POST", &format!("/games/{id}/moves"), json!({ "ply": ply, "move": mv })).await;
    assert_eq!(r["status"], 200, "{mv}: {r}");
}

/// Picks a radio button of the settings page.
async fn choose(c: &Client, name: &str, value: &str) {
    css(c, &format!("input[name={name}][value={value}]")).await.click().await.unwrap();
}

/// The text on the red general of the first board.
async fn general_text(c: &Client) -> String {
    css(c, "svg.board g.piece[data-piece=K] text").await.text().await.unwrap()
}

/// Every piece set on every theme, on the settings page's board: checks the
/// board follows each choice, and saves a screenshot of each.
async fn every_set_and_theme(c: &Client, language: &str) {
    for theme in ["wood", "paper", "contrast"] {
        choose(c, "theme", theme).await;
        css(c, &format!("html[data-theme={theme}]")).await;
        for (set, general) in [("traditional", "帥"), ("simplified", "帅"), ("beginner", "K")] {
            choose(c, "pieces", set).await;
            css(c, &format!("svg.board[data-pieces={set}]")).await;
            assert_eq!(general_text(c).await, general, "{set}");
            if set == "beginner" {
                assert!(count(c, "svg.board g.piece .sign").await >= 32, "every piece has its sign");
            }
            shot(c, &format!("site-{language}-{set}-{theme}.png")).await;
        }
    }
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn preferences_change_every_board_at_once_and_stay_changed_in_both_languages() {
    let chromedriver = chromedriver();
    let (server, tmp, _db) = start_server("prefs").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let c = browser(&driver_url, &tmp.join("v"), "en-US").await;

    // A visitor: the settings page, with a board that shows each choice.
    c.goto(&format!("{url}#/settings")).await.unwrap();
    css(&c, "html[lang=en]").await;
    wait_text(&c, "main h1", "Settings").await;
    assert_eq!(general_text(&c).await, "帥", "traditional glyphs by default");
    every_set_and_theme(&c, "en").await;

    // Coordinates: WXF numbers each side's files from its right; none; ICCS.
    choose(&c, "coordinates", "wxf").await;
    css(&c, "svg.board .coords.wxf").await;
    assert_eq!(count(&c, "svg.board .coords text").await, 18);
    let near = css(&c, "svg.board .coords text.near").await.text().await.unwrap();
    assert_eq!(near, "9", "Red's file 9 is at its left");
    choose(&c, "coordinates", "off").await;
    css(&c, "svg.board .coords.off").await;
    assert_eq!(count(&c, "svg.board .coords text").await, 0);

    // Piece size and the rest; then a reload keeps them all.
    c.execute(
        "const r = document.querySelector('input[name=piece_size]'); r.value = '120';\
         r.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .unwrap();
    css(&c, "svg.board g.piece > g[transform*='scale(1.14)']").await;
    choose(&c, "notation", "chinese").await;
    // Moves: live ones go on the click by default; Submit for blitz as well as correspondence.
    click(&c, "input[name=confirm_moves][value=blitz]").await;
    scroll_to(&c, "fieldset[data-pref=confirm_moves]").await;
    shot(&c, "site-settings-confirm-desktop.png").await;
    click(&c, "input[name=sound]").await;
    click(&c, "input[name=animation]").await;
    c.refresh().await.unwrap();
    css(&c, "html[data-theme=contrast]").await;
    css(&c, "svg.board[data-pieces=beginner][data-coordinates=off]").await;
    css(&c, "svg.board g.piece > g[transform*='scale(1.14)']").await;
    for checked in ["notation][value=chinese", "confirm_moves][value=blitz", "theme][value=contrast"] {
        assert_eq!(
            css(&c, &format!("input[name={checked}]")).await.prop("checked").await.unwrap().as_deref(),
            Some("true")
        );
    }
    assert_eq!(css(&c, "input[name=sound]").await.prop("checked").await.unwrap().as_deref(), Some("true"));
    assert_eq!(
        css(&c, "input[name=animation]").await.prop("checked").await.unwrap().as_deref(),
        Some("false")
    );
    // Other boards follow too: the position page and the rules' diagrams.
    c.goto(&format!("{url}#/position/hex")).await.unwrap();
    css(&c, "svg.board.hex[data-pieces=beginner]").await;
    c.goto(&format!("{url}#/settings")).await.unwrap();

    // Chinese, chosen in the settings: the page reloads in it and stays in it.
    css(&c, "select[name=language]").await.select_by_value("zh-Hans").await.unwrap();
    css(&c, "html[lang=zh]").await;
    wait_text(&c, "main h1", "设置").await;
    c.refresh().await.unwrap();
    css(&c, "html[lang=zh]").await;
    wait_text(&c, "main legend", "棋子").await;
    wait_text(&c, "#nav", "游戏规则").await;
    every_set_and_theme(&c, "zh").await;
    choose(&c, "pieces", "beginner").await;
    choose(&c, "theme", "paper").await;

    // Registering keeps what the visitor chose: the browser's changes go to the server once.
    let r = api(&c, "POST", "/users", json!({ "name": "alice", "password": "secret-pass" })).await;
    assert_eq!(r["status"], 201);
    c.refresh().await.unwrap();
    css(&c, "#nav a[href='#/new']").await;
    let mut saved = Value::Null;
    for _ in 0..40 {
        saved = api(&c, "GET", "/me/preferences", Value::Null).await["body"]["preferences"].clone();
        if saved["theme"] == "paper" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert_eq!(saved["theme"], "paper", "{saved}");
    assert_eq!(saved["pieces"], "beginner");
    assert_eq!(saved["language"], "zh-Hans");
    assert_eq!(saved["piece_size"], 120);
    assert_eq!(saved["notation"], "chinese");

    // Logged in, a change goes to the server; a browser that forgot everything gets it back.
    c.goto(&format!("{url}#/settings")).await.unwrap();
    choose(&c, "pieces", "simplified").await;
    css(&c, "svg.board[data-pieces=simplified]").await;
    for _ in 0..40 {
        let p = api(&c, "GET", "/me/preferences", Value::Null).await;
        if p["body"]["preferences"]["pieces"] == "simplified" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    c.execute("localStorage.clear();", vec![]).await.unwrap();
    c.refresh().await.unwrap();
    css(&c, "html[lang=zh]").await;
    css(&c, "html[data-theme=paper]").await;
    css(&c, "svg.board[data-pieces=simplified]").await;
    shot(&c, "site-zh-settings-logged-in.png").await;

    // A game: moves in Chinese, a refusal in Chinese, the move sound, and a live
    // move sent without Submit.
    let b = browser(&driver_url, &tmp.join("b"), "en-US").await;
    register_quick(&b, &url, "bob").await;
    let live = json!({ "kind": "live", "base": 600000, "increment": 5000 });
    let id = start_game(&c, &b, "bob", live).await;
    c.goto(&format!("{url}#/game/{id}")).await.unwrap();
    click(&c, "g.piece.movable[data-cell=h2]").await;
    click(&c, "circle.target[data-target=e2]").await;
    wait_text(&c, ".moves", "炮二平五").await;
    assert!(c.find(Locator::Css("#submit")).await.is_err(), "no Submit in a live game sent at once");
    play(&b, &id, 1, "h9g7").await;
    wait_text(&c, ".moves", "马8进7").await;
    let beeps = c.execute("return document.documentElement.dataset.beeps;", vec![]).await.unwrap();
    assert!(beeps.as_str().is_some_and(|n| n.parse::<u32>().unwrap() >= 2), "a sound for each move: {beeps}");
    let typed = css(&c, "#move-text").await;
    typed.send_keys("R9+5\n").await.unwrap();
    wait_text(&c, "#move-entry .form-error", "这步棋在此不合规则").await;
    shot(&c, "site-zh-game.png").await;

    // Bob (English, animation on) sees the move glide; his list is in WXF.
    b.goto(&format!("{url}#/game/{id}")).await.unwrap();
    css(&b, "svg.board g.piece[data-cell=g7]").await;
    wait_text(&b, ".moves", "C2=5").await;
    play(&c, &id, 2, "h0g2").await;
    css(&b, "svg.board[data-animated=h0g2]").await;

    b.close().await.ok();
    c.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn a_visitor_sees_what_the_site_is_reads_the_rules_and_watches_a_game() {
    let chromedriver = chromedriver();
    let (server, tmp, _db) = start_server("visitor").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = browser(&driver_url, &tmp.join("a"), "en-US").await;
    let b = browser(&driver_url, &tmp.join("b"), "en-US").await;
    register_quick(&a, &url, "alice").await;
    register_quick(&b, &url, "bob").await;
    let id = start_game(&a, &b, "bob", json!({ "kind": "correspondence", "hours": 72 })).await;
    play(&a, &id, 0, "h2e2").await;

    // The first screen, in Chinese for a browser that speaks it.
    let v = browser(&driver_url, &tmp.join("v"), "zh-CN").await;
    v.goto(&url).await.unwrap();
    css(&v, "html[lang=zh]").await;
    wait_text(&v, "main h1", "在线象棋").await;
    wait_text(&v, "main", "alice（红方）对 bob（黑方）").await;
    css(&v, "section:nth-of-type(2) form input[name=name]").await;
    shot(&v, "site-zh-first-screen.png").await;

    // In English: what the site is, the rules, a game to watch, how to register.
    css(&v, "#nav select.language").await.select_by_value("en").await.unwrap();
    css(&v, "html[lang=en]").await;
    wait_text(&v, "main .lead", "Play Xiangqi against people").await;
    wait_text(&v, "main", "How to play here").await;
    css(&v, "main a[href='#/rules']").await;
    css(&v, "section:nth-of-type(1) form input[name=password]").await;
    css(&v, "section:nth-of-type(2) form input[name=password]").await;
    shot(&v, "site-en-first-screen.png").await;

    // The rules: every piece, every rule set, with live diagrams.
    click(&v, "main a[href='#/rules']").await;
    wait_text(&v, "main h1", "Game rules").await;
    for part in [
        "general",
        "advisor",
        "elephant",
        "horse",
        "chariot",
        "cannon",
        "soldier",
        "asian",
        "itsyourturn",
        "casual",
        "hex",
    ] {
        css(&v, &format!("#rules-{part} h2")).await;
    }
    assert!(count(&v, "figure.diagram svg.board").await >= 14, "the diagrams are drawn");
    assert_eq!(count(&v, "#rules-hex svg.board polygon.hex").await, 79);
    assert_eq!(count(&v, "#rules-horse [data-dot]").await, 6, "the horse's six open moves");
    assert_eq!(count(&v, "#rules-cannon circle.hint.capture").await, 1, "the cannon's capture");
    shot(&v, "site-en-rules.png").await;
    click(&v, "#rules-horse").await;
    scroll_to(&v, "#rules-horse").await;
    shot(&v, "site-en-rules-horse.png").await;
    v.goto(&format!("{url}#/help")).await.unwrap();
    wait_text(&v, "main h1", "How to play here").await;
    wait_text(&v, "main", "Submit").await;
    v.goto(&format!("{url}#/tips")).await.unwrap();
    wait_text(&v, "main h1", "Features and tips").await;

    // Watching: the game from the first screen, and Bob's reply arriving live.
    v.goto(&url).await.unwrap();
    click(&v, "ul.live-games a").await;
    css(&v, "svg.board g.piece[data-cell=e2]").await;
    wait_text(&v, "#status", "Black (bob) to move").await;
    play(&b, &id, 1, "h9g7").await;
    css(&v, "svg.board g.piece[data-cell=g7]").await;
    wait_text(&v, ".moves", "H8+7").await;
    assert!(v.find(Locator::Css("#actions button")).await.is_err(), "a visitor has no buttons to play");
    shot(&v, "site-en-watching.png").await;

    // The rules in Chinese.
    css(&v, "#nav select.language").await.select_by_value("zh").await.unwrap();
    css(&v, "html[lang=zh]").await;
    v.goto(&format!("{url}#/rules")).await.unwrap();
    wait_text(&v, "main h1", "游戏规则").await;
    scroll_to(&v, "#rules-cannon").await;
    shot(&v, "site-zh-rules-cannon.png").await;

    for c in [a, b, v] {
        c.close().await.ok();
    }
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn administrators_post_news_that_shows_on_the_main_screen_newest_first() {
    let chromedriver = chromedriver();
    let (server, tmp, db) = start_server("news").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = browser(&driver_url, &tmp.join("a"), "en-US").await;
    let b = browser(&driver_url, &tmp.join("b"), "en-US").await;
    register_quick(&a, &url, "alice").await;
    register_quick(&b, &url, "bob").await;
    wait_text(&b, "#news", "No news yet").await;
    assert!(b.find(Locator::Css("#news form")).await.is_err(), "no form for a player");

    assert!(xiangqi_server::set_admin(&db, "alice", true).await.unwrap());
    a.refresh().await.unwrap();
    for (title, body) in [("Welcome", "The site is open."), ("Xiang Hex", "Hexagonal games are here.")] {
        css(&a, "#news form input[name=title]").await.send_keys(title).await.unwrap();
        css(&a, "#news form textarea[name=body]").await.send_keys(body).await.unwrap();
        click(&a, "#news form button[type=submit]").await;
        wait_text(&a, "#news .news-list", title).await;
    }
    shot(&a, "site-en-news-admin.png").await;

    // Bob sees both, newest first, after logging in, and no delete button.
    b.refresh().await.unwrap();
    wait_text(&b, "#news", "Hexagonal games are here.").await;
    let titles = b
        .execute(
            "return [...document.querySelectorAll('#news .news-item h3')].map((e) => e.textContent);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(titles, json!(["Xiang Hex", "Welcome"]));
    assert_eq!(count(&b, "#news [data-action=delete-news]").await, 0);

    // Alice deletes one; it goes.
    click(&a, "#news .news-item:first-child [data-action=delete-news]").await;
    for _ in 0..40 {
        if count(&a, "#news .news-item").await == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert_eq!(count(&a, "#news .news-item").await, 1);
    b.goto(&format!("{url}#/news")).await.unwrap();
    wait_text(&b, "main", "Welcome").await;
    assert_eq!(count(&b, ".news-item").await, 1);

    a.close().await.ok();
    b.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

/// The height of the header and of the smallest link or button a phone shows in it.
async fn header_sizes(c: &Client) -> Value {
    let script = "const top = document.querySelector('header.top').getBoundingClientRect().height;\
        const shown = [...document.querySelectorAll('header.top a, header.top button, header.top summary, header.top select')]\
          .filter((e) => e.getClientRects().length > 0);\
        const smallest = Math.min(...shown.map((e) => e.getBoundingClientRect().height));\
        return [top, smallest, shown.length];";
    c.execute(script, vec![]).await.unwrap()
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn on_a_phone_the_header_is_one_row_with_a_menu_and_the_site_has_an_icon() {
    let chromedriver = chromedriver();
    let (server, tmp, _) = start_server("header").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let p = launch(&driver_url, &tmp.join("p"), "en-US", Window::Phone(390, 844)).await;
    register_quick(&p, &url, "phoebe").await;

    // One row: the brand, the badges and the menu button; the links wait behind the button.
    css(&p, "#nav-toggle[aria-expanded=false]").await;
    let [top, smallest, _] = <[f64; 3]>::try_from(
        header_sizes(&p).await.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect::<Vec<_>>(),
    )
    .unwrap();
    assert!(top <= 60.0, "the phone's header is {top} px tall");
    assert!(smallest >= 44.0, "a tap target of {smallest} px in the header");
    assert!(
        !css(&p, "#nav a[href='#/new']").await.is_displayed().await.unwrap(),
        "the links are behind the menu"
    );
    shot(&p, "site-phone-header.png").await;

    // Opened by touch: every entry is a big enough target, and a page opened from it closes it.
    click(&p, "#nav-toggle").await;
    css(&p, "#nav-toggle[aria-expanded=true]").await;
    let sizes = header_sizes(&p).await;
    assert!(sizes[1].as_f64().unwrap() >= 44.0, "a tap target in the open menu: {sizes}");
    assert!(sizes[2].as_i64().unwrap() >= 8, "the open menu shows the links: {sizes}");
    shot(&p, "site-phone-menu.png").await;
    click(&p, "#nav a[href='#/new']").await;
    css(&p, "#computer form").await;
    css(&p, "#nav-toggle[aria-expanded=false]").await;

    // By keyboard: Enter opens it, Tab reaches its first link, Escape closes it and
    // gives the focus back to the button.
    css(&p, "#nav-toggle").await.send_keys("\u{E007}").await.unwrap();
    css(&p, "#nav-toggle[aria-expanded=true]").await;
    p.active_element().await.unwrap().send_keys("\u{E004}").await.unwrap();
    let focused = p.execute("return document.activeElement.getAttribute('href');", vec![]).await.unwrap();
    assert_eq!(focused, json!("#/status"), "Tab goes from the button into the menu");
    p.active_element().await.unwrap().send_keys("\u{E00C}").await.unwrap();
    css(&p, "#nav-toggle[aria-expanded=false]").await;
    let back = p.execute("return document.activeElement.id;", vec![]).await.unwrap();
    assert_eq!(back, json!("nav-toggle"), "Escape gives the focus back");

    // The icon and the manifest a home screen reads.
    let found = p
        .execute_async(
            "const done = arguments[0];\
             const icon = document.querySelector('link[rel=icon]').href;\
             const manifest = document.querySelector('link[rel=manifest]').href;\
             Promise.all([fetch(icon), fetch('/favicon.ico'), fetch(manifest)]).then(async ([i, ico, m]) =>\
               done([i.status, i.headers.get('content-type'), ico.status, m.status, await m.json()]));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(found[0], 200, "the icon: {found}");
    assert_eq!(found[1], "image/svg+xml");
    assert_eq!(found[2], 200, "/favicon.ico");
    assert_eq!(found[3], 200, "the manifest");
    assert_eq!(found[4]["start_url"], "/");
    assert_eq!(found[4]["icons"][0]["src"], "/favicon.svg");

    // At desktop size the links are in the header and the button is not.
    p.close().await.ok();
    let d = launch(&driver_url, &tmp.join("d"), "en-US", Window::Desktop(1280, 800)).await;
    register_quick(&d, &url, "desmond").await;
    assert!(css(&d, "#nav a[href='#/new']").await.is_displayed().await.unwrap());
    assert!(!css(&d, "#nav-toggle").await.is_displayed().await.unwrap());
    d.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

/// The page's width and the window's, once `selector` is on the page.
async fn widths(c: &Client, selector: &str) -> (i64, i64) {
    css(c, selector).await;
    let r = c.execute("return [document.documentElement.scrollWidth, innerWidth];", vec![]).await.unwrap();
    (r[0].as_i64().unwrap(), r[1].as_i64().unwrap())
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn a_word_of_ten_thousand_letters_does_not_widen_any_page() {
    let chromedriver = chromedriver();
    let (server, tmp, db) = start_server("longword").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = browser(&driver_url, &tmp.join("a"), "en-US").await;
    register_quick(&a, &url, "alice").await;
    assert!(xiangqi_server::set_admin(&db, "alice", true).await.unwrap());
    let word = "长".repeat(20) + &"x".repeat(9_980);
    let title = "T".repeat(200);
    let r = api(&a, "POST", "/news", json!({ "title": title, "body": word })).await;
    assert_eq!(r["status"], 201, "{r}");

    for (w, h, size) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        a.set_window_size(w, h).await.unwrap();
        for (hash, ready) in
            [("#/status", "#news .news-item"), ("#/news", ".news-item"), ("#/user/alice", "main h1")]
        {
            a.goto(&format!("{url}{hash}")).await.unwrap();
            let (page, window) = widths(&a, ready).await;
            assert!(page <= window, "{hash} at {size} size is {page} px wide in a {window} px window");
        }
        a.goto(&format!("{url}#/status")).await.unwrap();
        css(&a, "#news .news-item").await;
        shot(&a, &format!("site-long-word-{size}.png")).await;
    }
    a.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn a_visitor_looks_around_the_waiting_room_who_is_here_tournaments_and_ladders() {
    let chromedriver = chromedriver();
    let (server, tmp, _db) = start_server("lookaround").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = browser(&driver_url, &tmp.join("a"), "en-US").await;
    register_quick(&a, &url, "alice").await;
    let open =
        json!({ "rules": "asian", "color": "red", "clock": { "kind": "correspondence", "hours": 72 } });
    let r = api(&a, "POST", "/challenges", open).await;
    assert_eq!(r["status"], 201, "{r}");

    for (window, size) in [(Window::Desktop(1280, 800), "desktop"), (Window::Phone(390, 844), "phone")] {
        let v = launch(&driver_url, &tmp.join(format!("v-{size}")), "en-US", window).await;
        v.goto(&url).await.unwrap();
        // The first screen and the header lead to every list a visitor may read.
        for hash in ["#/room", "#/people", "#/tournaments", "#/ladder", "#/leaders"] {
            css(&v, &format!("#look-around a[href='{hash}']")).await;
            css(&v, &format!("#nav a[href='{hash}']")).await;
        }
        shot(&v, &format!("site-visitor-home-{size}.png")).await;

        // The waiting room: alice's challenge, nothing to accept, a word on why.
        v.goto(&format!("{url}#/room")).await.unwrap();
        wait_text(&v, "main h1", "Waiting room").await;
        wait_text(&v, "li.challenge", "alice").await;
        css(&v, "#room-visitor a[href='#/']").await;
        assert_eq!(count(&v, "li.challenge button").await, 0, "a visitor accepts nothing");
        assert_eq!(count(&v, "main input[name=password]").await, 0, "no log-in form");
        shot(&v, &format!("site-visitor-room-{size}.png")).await;

        // Who is here: alice, without buttons.
        v.goto(&format!("{url}#/people")).await.unwrap();
        wait_text(&v, "main h1", "Who is here?").await;
        wait_text(&v, "#here-others", "alice").await;
        assert_eq!(count(&v, "#here-others button").await, 0, "nothing to press as a visitor");
        assert_eq!(count(&v, "#here-buddies").await, 0, "a visitor has no buddies");
        assert_eq!(count(&v, "main input[name=password]").await, 0, "no log-in form");
        shot(&v, &format!("site-visitor-people-{size}.png")).await;

        // The tournaments and the ladders, read-only.
        v.goto(&format!("{url}#/tournaments")).await.unwrap();
        wait_text(&v, "main h1", "Tournaments").await;
        css(&v, ".tournament-lists").await;
        assert_eq!(count(&v, "main input[name=password]").await, 0, "no log-in form");
        v.goto(&format!("{url}#/ladder")).await.unwrap();
        css(&v, ".ladder-list").await;
        assert_eq!(count(&v, "main input[name=password]").await, 0, "no log-in form");
        v.close().await.ok();
    }
    a.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

/// A correspondence challenge from the page's user to `opponent`, who plays
/// `color`'s other side: its id.
async fn challenge(from: &Client, opponent: &str, color: &str) -> String {
    let terms = json!({ "opponent": opponent, "rules": "asian", "color": color,
        "clock": { "kind": "correspondence", "hours": 72 } });
    let r = api(from, "POST", "/challenges", terms).await;
    assert_eq!(r["status"], 201, "{r}");
    r["body"]["challenge"]["id"].as_str().unwrap().to_string()
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn challenges_wait_on_game_status_and_in_the_header_and_one_made_while_away_is_told_on_return() {
    let chromedriver = chromedriver();
    let (server, tmp, _db) = start_server("challenges").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let (a, b) = (
        browser(&driver_url, &tmp.join("a"), "en-US").await,
        browser(&driver_url, &tmp.join("b"), "en-US").await,
    );
    register_quick(&a, &url, "alice").await;
    register_quick(&b, &url, "bob").await;

    // Bob is away (no page of the site open) when alice challenges him.
    b.goto("about:blank").await.unwrap();
    let first = challenge(&a, "bob", "red").await;
    b.goto(&url).await.unwrap();
    wait_text(&b, "#message", "A challenge waits for your answer.").await;
    wait_text(&b, "#badge-turn", "1").await;
    let title = css(&b, "#badge-turn").await.attr("title").await.unwrap().unwrap_or_default();
    assert_eq!(title, "1 challenge waits for your answer");
    shot(&b, "challenges-told-on-return-desktop.png").await;

    // The notice leads to Game status, where the challenge is answered in place.
    click(&b, "#message a[href='#/status']").await;
    wait_text(&b, "main h1", "Game status").await;
    wait_text(&b, "main", "Challenges to me (1)").await;
    let row = format!("li.challenge[data-challenge='{first}']");
    css(&b, &format!("{row} [data-action=accept]")).await;
    css(&b, &format!("{row} [data-action=close]")).await;
    // Alice sees hers under Game status too, with a way to cancel it.
    a.goto(&format!("{url}#/status")).await.unwrap();
    wait_text(&a, "main", "My challenges (1)").await;
    css(&a, &format!("{row} [data-action=close]")).await;
    shot(&a, "challenges-mine-on-status-desktop.png").await;

    // A second challenge shows on bob's open page and in his badge without a reload.
    let second = challenge(&a, "bob", "black").await;
    wait_text(&b, "main", "Challenges to me (2)").await;
    wait_text(&b, "#badge-turn", "2").await;
    shots_at_both_sizes(&b, "challenges", "status").await;
    // Declined: it leaves both pages and the badge.
    click(&b, &format!("li.challenge[data-challenge='{second}'] [data-action=close]")).await;
    wait_text(&b, "main", "Challenges to me (1)").await;
    wait_text(&b, "#badge-turn", "1").await;
    wait_text(&a, "main", "My challenges (1)").await;
    // Accepted: bob is taken to the game; the challenge is gone and the game waits on alice.
    click(&b, &format!("{row} [data-action=accept]")).await;
    until(&b, "the game opens", "return location.hash.startsWith('#/game/');").await;
    until(&a, "alice's challenge list empties", "return !document.querySelector('li.challenge');").await;
    wait_text(&a, "main", "My turn (1)").await;
    wait_text(&a, "#badge-turn", "1").await;

    // Cancelled by its creator: it leaves the challenged player's list.
    let third = challenge(&a, "bob", "red").await;
    b.goto(&format!("{url}#/status")).await.unwrap();
    css(&b, &format!("li.challenge[data-challenge='{third}']")).await;
    click(&a, &format!("li.challenge[data-challenge='{third}'] [data-action=close]")).await;
    until(&b, "bob's challenge list empties", "return !document.querySelector('li.challenge');").await;

    // In another language: carol, away, is told in Chinese when she comes back.
    let c = browser(&driver_url, &tmp.join("c"), "zh-CN").await;
    register_quick(&c, &url, "carol").await;
    c.goto("about:blank").await.unwrap();
    challenge(&a, "carol", "red").await;
    challenge(&b, "carol", "red").await;
    c.goto(&url).await.unwrap();
    wait_text(&c, "#message", "有 2 个挑战等你回应。").await;
    wait_text(&c, "#badge-turn", "2").await;
    shot(&c, "challenges-told-on-return-zh-desktop.png").await;
    for browser in [a, b, c] {
        browser.close().await.ok();
    }
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn the_account_menu_changes_the_password() {
    let chromedriver = chromedriver();
    let (server, tmp, _db) = start_server("password").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = browser(&driver_url, &tmp.join("a"), "en-US").await;
    register_quick(&a, &url, "alice").await;

    click(&a, "#people-menu summary").await;
    click(&a, "#people-menu a[href='#/password']").await;
    wait_text(&a, "main h1", "Change password").await;
    css(&a, "main input[name=old]").await.send_keys("secret-pass").await.unwrap();
    css(&a, "main input[name=new]").await.send_keys("another-pass").await.unwrap();
    shot(&a, "site-password-page.png").await;
    click(&a, "main form button[type=submit]").await;
    wait_text(&a, "#message", "Password changed").await;

    api(&a, "DELETE", "/session", Value::Null).await;
    let r = api(&a, "POST", "/session", json!({ "name": "alice", "password": "another-pass" })).await;
    assert_eq!(r["status"], 200, "the new password works: {r}");
    a.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn a_language_chosen_as_a_visitor_stays_after_logging_in() {
    let chromedriver = chromedriver();
    let (server, tmp, _db) = start_server("keeplang").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = browser(&driver_url, &tmp.join("a"), "en-US").await;
    // An account that changed its pieces once but never chose a language.
    register_quick(&a, &url, "alice").await;
    let mut prefs = api(&a, "GET", "/me/preferences", Value::Null).await["body"]["preferences"].clone();
    prefs["pieces"] = json!("simplified");
    let r = api(&a, "PUT", "/me/preferences", prefs).await;
    assert_eq!(r["status"], 200, "{r}");
    api(&a, "DELETE", "/session", Value::Null).await;

    // As a visitor, in an English browser, she picks Chinese, then logs in.
    a.goto(&url).await.unwrap();
    css(&a, "html[lang=en]").await;
    css(&a, "#nav select.language").await.select_by_value("zh").await.unwrap();
    css(&a, "html[lang=zh]").await;
    let form = "section:nth-of-type(1) form";
    css(&a, &format!("{form} input[name=name]")).await.send_keys("alice").await.unwrap();
    css(&a, &format!("{form} input[name=password]")).await.send_keys("secret-pass").await.unwrap();
    click(&a, &format!("{form} button[type=submit]")).await;
    css(&a, "#nav a[href='#/new']").await;

    // Still Chinese, now on the account too, and the pieces the account chose.
    let mut saved = Value::Null;
    for _ in 0..40 {
        saved = api(&a, "GET", "/me/preferences", Value::Null).await["body"]["preferences"].clone();
        if saved["language"] == "zh-Hans" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert_eq!(saved["language"], "zh-Hans", "the account keeps the visitor's language: {saved}");
    assert_eq!(saved["pieces"], "simplified", "and its own pieces: {saved}");
    a.refresh().await.unwrap();
    css(&a, "#nav a[href='#/new']").await;
    css(&a, "html[lang=zh]").await;
    wait_text(&a, "#nav", "新对局").await;
    shot(&a, "site-zh-after-login.png").await;
    a.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn four_languages_are_chosen_in_the_header_and_a_traditional_chinese_browser_starts_in_its_own() {
    let chromedriver = chromedriver();
    let (server, tmp, _db) = start_server("languages").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;

    // A browser set to Taiwanese Chinese starts in traditional characters.
    let v = browser(&driver_url, &tmp.join("v"), "zh-TW").await;
    v.goto(&url).await.unwrap();
    css(&v, "html[lang=zh-Hant]").await;
    wait_text(&v, "main h1", "線上象棋").await;
    v.close().await.ok();

    let a = browser(&driver_url, &tmp.join("a"), "en-US").await;
    let b = browser(&driver_url, &tmp.join("b"), "en-US").await;
    register_quick(&a, &url, "alice").await;
    register_quick(&b, &url, "bob").await;
    let id = start_game(&a, &b, "bob", json!({ "kind": "correspondence", "hours": 72 })).await;
    play(&a, &id, 0, "h2e2").await;
    play(&b, &id, 1, "h9g7").await;

    let options = a
        .execute(
            "return [...document.querySelectorAll('#nav select.language option')].map((o) => o.value);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(options, json!(["en", "zh", "zh-Hant", "vi"]));
    for (code, new_game, your_move) in [
        ("zh-Hant", "新對局", "輪到你走"),
        ("vi", "Ván mới", "Đến lượt bạn"),
        ("zh", "新对局", "轮到你走"),
        ("en", "New game", "Your move"),
    ] {
        a.goto(&format!("{url}#/status")).await.unwrap();
        css(&a, "#nav select.language").await.select_by_value(code).await.unwrap();
        css(&a, &format!("html[lang={code}]")).await;
        wait_text(&a, "#nav", new_game).await;
        css(&a, "#news").await;
        browsing::shots_at_both_sizes(&a, "lang", &format!("{code}-main")).await;
        a.goto(&format!("{url}#/game/{id}")).await.unwrap();
        wait_text(&a, "#status", your_move).await;
        browsing::shots_at_both_sizes(&a, "lang", &format!("{code}-game")).await;
    }
    // The choice is the account's.
    let saved = api(&a, "GET", "/me/preferences", Value::Null).await["body"]["preferences"].clone();
    assert_eq!(saved["language"], "en", "{saved}");
    a.close().await.ok();
    b.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn puzzles_from_imported_games_are_each_account_s_own_choice_and_a_masters_puzzle_links_its_game() {
    use xiangqi_server::{
        model::puzzles::{Origin, PuzzleTheme},
        store::Store,
    };
    let chromedriver = chromedriver();
    let (server, tmp, db) = start_server("sharing").await;
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let c = browser(&driver_url, &tmp.join("c"), "en-US").await;
    let sharing = "input[name=puzzle_sharing]";
    let shared = |c: &Client| {
        let c = c.clone();
        async move { api(&c, "GET", "/me/puzzle-sharing", Value::Null).await["body"]["imports"].clone() }
    };

    // A visitor has no imported games, and no such choice.
    c.goto(&format!("{url}#/settings")).await.unwrap();
    wait_text(&c, "main h1", "Settings").await;
    assert_eq!(count(&c, sharing).await, 0);

    // Off until the account turns it on; the box says what the server holds.
    register_quick(&c, &url, "carol").await;
    c.goto(&format!("{url}#/settings")).await.unwrap();
    let enabled = format!("{sharing}:not([disabled])");
    css(&c, &enabled).await;
    assert_eq!(css(&c, sharing).await.prop("checked").await.unwrap().as_deref(), Some("false"));
    wait_text(&c, "fieldset[data-pref=puzzle_sharing]", "never your game or your name").await;
    click(&c, sharing).await;
    for _ in 0..40 {
        if shared(&c).await == json!(true) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert_eq!(shared(&c).await, json!(true));
    // Another preference changed, and a reload: the box keeps the account's choice.
    choose(&c, "theme", "paper").await;
    css(&c, "html[data-theme=paper]").await;
    assert_eq!(css(&c, sharing).await.prop("checked").await.unwrap().as_deref(), Some("true"));
    c.refresh().await.unwrap();
    css(&c, &format!("{enabled}:checked")).await;
    browsing::shots_at_both_sizes(&c, "site", "settings-sharing").await;
    // The same, scrolled down to the choice, at both sizes.
    for (w, h, size) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        c.set_window_size(w, h).await.unwrap();
        let bottom =
            "document.querySelector('fieldset[data-pref=puzzle_sharing]').scrollIntoView({ block: 'end' });";
        c.execute(bottom, vec![]).await.unwrap();
        shot(&c, &format!("site-settings-sharing-choice-{size}.png")).await;
    }
    c.set_window_size(1280, 800).await.unwrap();

    // Another account in the same browser keeps the board preferences this
    // browser holds, but not the first account's agreement.
    assert_eq!(api(&c, "DELETE", "/session", Value::Null).await["status"], 204);
    register_quick(&c, &url, "dave").await;
    c.goto(&format!("{url}#/settings")).await.unwrap();
    css(&c, &enabled).await;
    assert_eq!(css(&c, sharing).await.prop("checked").await.unwrap().as_deref(), Some("false"));
    assert_eq!(shared(&c).await, json!(false));

    // A puzzle from the Masters collection links its game; one from an
    // imported game links nothing.
    let file = tmp.join("masters.pgn");
    std::fs::write(&file, "[Red \"Hu\"]\n[Black \"Liu\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 2. h0g2 1-0\n")
        .unwrap();
    xiangqi_server::import_masters(&db, &[file], |_, _| {}).await.unwrap();
    let store = Store::open(&db).await.unwrap();
    let game = store.masters_games(None, &Page::first(1)).await.unwrap().items[0].id.clone();
    let puzzle = |id: &str, key: u64, origin: Origin| NewPuzzle {
        id: id.to_string(),
        variant: xiangqi::Variant::Standard,
        fen: "4k4/9/9/9/9/9/2r6/9/3R5/3K5 b".to_string(),
        moves: vec!["c3d3".to_string(), "d1d3".to_string()],
        key,
        themes: vec![PuzzleTheme::Capture],
        mate: false,
        origin,
        rating: 1500.0,
        created_ms: 0,
    };
    let imported = Origin::Imported { game: "private-game".into(), owner: "carol".into() };
    let rows = [puzzle("pm", 1, Origin::Masters { game: game.clone() }), puzzle("pi", 2, imported)];
    assert_eq!(store.insert_puzzles(&rows).await.unwrap(), 2);
    c.goto(&format!("{url}#/puzzles/p/pm")).await.unwrap();
    let link = format!("a[href='#/analysis/masters/{game}']");
    wait_text(&c, &link, "The master game it comes from").await;
    browsing::shots_at_both_sizes(&c, "site", "puzzle-from-masters").await;
    c.goto(&format!("{url}#/puzzles/p/pi")).await.unwrap();
    css(&c, ".puzzle-facts").await;
    let page = css(&c, "main").await.html(false).await.unwrap();
    assert!(
        !page.contains("private-game") && !page.contains("carol") && !page.contains("#/analysis/masters")
    );
    assert!(!page.contains("#/game/"), "no game to open");
    c.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}
