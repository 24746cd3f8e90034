//! The ladders in headless Chromium: two players join a ladder (the first on
//! top, the second below), the second challenges the first with the page's
//! Challenge button, the first accepts in the waiting room and then resigns,
//! and the ladder shows the places swapped and the result. A refusal shows the
//! server's message; a player in 2 open challenges, or one challenging a
//! player who is, finds the Challenge button disabled with the reason. The ladder pages fit
//! a phone without sideways scrolling; screenshots (`ladder-*.png`) go to
//! `$XIANGQI_ARTIFACTS` (default `target/artifacts`).
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER` (outside CI, without it the test says so and
//! does nothing).

mod browsing;

use browsing::{
    Window, api, chromedriver, click, css, launch, register_quick, shots_at_both_sizes, start_driver, until,
    wait_text,
};

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

/// A desktop browser in English with its own profile.
async fn browser(driver_url: &str, profile: &std::path::Path) -> Client {
    launch(driver_url, profile, "en-US", Window::Desktop(1280, 800)).await
}

/// Shoots the page at desktop and phone size; on the phone it must not scroll sideways.
async fn shots(c: &Client, name: &str) {
    shots_at_both_sizes(c, "ladder", name).await;
}

/// The row of a ladder's place.
fn rung(name: &str, position: u32) -> String {
    format!("li.rung[data-user={name}][data-position='{position}']")
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn a_challenger_who_wins_takes_the_place_on_the_ladder_page() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-ladders-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let top = browser(&driver_url, &tmp.join("top")).await;
    let low = browser(&driver_url, &tmp.join("low")).await;

    // A visitor reads the choice of ladders, the hex board's among them.
    top.goto(&format!("{url}#/ladder")).await.unwrap();
    wait_text(&top, "main h1", "Ladders").await;
    wait_text(&top, "li[data-category=hex_live] a", "Hex").await;
    css(&top, "li[data-category=standard_correspondence] a").await;
    shots(&top, "choose").await;

    // The first joins on top through the menu's link; the second joins below.
    register_quick(&top, &url, "ladtop").await;
    register_quick(&low, &url, "ladlow").await;
    click(&top, "#people-menu summary").await;
    click(&top, "#people-menu a[href='#/ladder']").await;
    click(&top, "li[data-category=standard_live] a").await;
    wait_text(&top, "main h1", "Standard · live").await;
    wait_text(&top, "main .card", "Nobody is on this ladder yet.").await;
    click(&top, "button[data-action=join]").await;
    css(&top, &rung("ladtop", 1)).await;
    wait_text(&top, "#message", "You joined the ladder at place 1.").await;
    wait_text(&top, ".ladder-standing", "top of this ladder").await;
    assert!(top.find(Locator::Css("button[data-action=challenge]")).await.is_err(), "nobody above the top");

    // The second joins by the API while their ladder page is open: the page
    // hears of it and redraws by itself, without a reload.
    low.goto(&format!("{url}#/ladder/standard_live")).await.unwrap();
    css(&low, &rung("ladtop", 1)).await;
    css(&low, "button[data-action=join]").await;
    let joined = api(&low, "POST", "/ladders/standard_live/join", json!({})).await;
    assert_eq!(joined["body"]["position"], 2, "{joined}");
    css(&low, &rung("ladlow", 2)).await;
    wait_text(&low, ".ladder-standing", "place 2").await;
    shots(&low, "joined").await;

    // The second challenges the first with the row's button.
    click(&low, &format!("{} button[data-action=challenge]", rung("ladtop", 1))).await;
    wait_text(&low, "#message", "You challenged ladtop").await;
    let line = wait_text(&low, "ul.ladder-challenges li", "ladlow challenged ladtop").await;
    assert!(line.contains("ladtop must accept by"), "{line}");
    wait_text(&low, &rung("ladtop", 1), "open challenge").await;
    // The first sees it arrive on the ladder page without a reload.
    wait_text(&top, "ul.ladder-challenges li", "ladlow challenged ladtop").await;
    css(&top, "ul.ladder-challenges button[data-action=accept]").await;
    shots(&low, "challenged").await;

    // Two more join below; the fourth challenges the first and the third, so the
    // first and the fourth are each in 2 open challenges: the buttons that would
    // break that rule are disabled and say why.
    let more = browser(&driver_url, &tmp.join("more")).await;
    more.goto(&url).await.unwrap();
    for (name, position) in [("ladthree", 3), ("ladfour", 4)] {
        let r = api(&more, "POST", "/users", json!({ "name": name, "password": "secret-pass" })).await;
        assert_eq!(r["status"], 201, "{name} registers: {r}");
        let r = api(&more, "POST", "/ladders/standard_live/join", json!({})).await;
        assert_eq!(r["body"]["position"], position, "{r}");
    }
    for up in ["ladtop", "ladthree"] {
        let r = api(&more, "POST", "/ladders/standard_live/challenges", json!({ "opponent": up })).await;
        assert_eq!(r["status"], 201, "ladfour challenges {up}: {r}");
    }
    more.goto(&format!("{url}#/ladder/standard_live")).await.unwrap();
    more.refresh().await.unwrap();
    wait_text(&more, ".ladder-full", "You are in 2 open challenges").await;
    css(&more, &format!("{} button[data-action=challenge][disabled]", rung("ladlow", 2))).await;
    let why = css(&more, &format!("{} button[data-action=challenge]", rung("ladlow", 2))).await;
    let why = why.attr("title").await.unwrap().unwrap_or_default();
    assert!(why.starts_with("You are in 2 open challenges"), "{why}");
    shots(&more, "full").await;
    let r = api(&more, "POST", "/session", json!({ "name": "ladthree", "password": "secret-pass" })).await;
    assert_eq!(r["status"], 200, "{r}");
    more.refresh().await.unwrap();
    css(&more, &format!("{} button[data-action=challenge][disabled]", rung("ladtop", 1))).await;
    wait_text(&more, &rung("ladtop", 1), "ladtop is in 2 open challenges").await;
    css(&more, &format!("{} button[data-action=challenge]:not([disabled])", rung("ladlow", 2))).await;
    shots(&more, "blocked").await;
    more.close().await.unwrap();

    // It arrives as an incoming challenge: the first accepts in the waiting room.
    let ladder = api(&low, "GET", "/ladders/standard_live", Value::Null).await;
    let id = ladder["body"]["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["challenge"]["creator"] == "ladlow")
        .and_then(|c| c["challenge"]["id"].as_str())
        .expect("ladlow's challenge")
        .to_string();
    top.goto(&format!("{url}#/room")).await.unwrap();
    click(&top, &format!("li[data-challenge='{id}'] button[data-action=accept]")).await;
    until(&top, "the game opens", "return location.hash.startsWith('#/game/');").await;
    let hash = top.current_url().await.unwrap().fragment().unwrap_or_default().to_string();
    let game = hash.trim_start_matches("/game/").to_string();
    let r = api(&top, "POST", &format!("/games/{game}/resign"), json!({})).await;
    assert_eq!(r["status"], 200, "the first resigns: {r}");

    // The places are swapped, and the result says so.
    low.refresh().await.unwrap();
    css(&low, &rung("ladlow", 1)).await;
    css(&low, &rung("ladtop", 2)).await;
    css(&low, &rung("ladfour", 4)).await;
    wait_text(&low, "ul.ladder-results li", "ladlow took ladtop's place").await;
    css(&low, &format!("ul.ladder-results a[href='#/game/{game}']")).await;
    wait_text(&low, "ul.ladder-challenges", "ladfour challenged ladtop").await;
    wait_text(&low, ".ladder-standing", "top of this ladder").await;
    shots(&low, "after").await;
    top.goto(&format!("{url}#/ladder/standard_live")).await.unwrap();
    css(&top, &rung("ladtop", 2)).await;
    css(&top, &format!("{} button[data-action=challenge]", rung("ladlow", 1))).await;

    // In Chinese.
    low.execute("localStorage.setItem('xiangqi.lang', 'zh');", vec![]).await.unwrap();
    low.refresh().await.unwrap();
    wait_text(&low, "main h1", "象棋·即时").await;
    wait_text(&low, "ul.ladder-results li", "取得了").await;
    shots(&low, "zh").await;

    top.close().await.unwrap();
    low.close().await.unwrap();
    server.stop().await;
    let _ = std::fs::remove_dir_all(&tmp);
}
