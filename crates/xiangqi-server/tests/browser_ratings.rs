//! Ratings in headless Chromium: a rated game played to its end moves the
//! winner's rating above 1500, shown with its provisional mark and a history
//! chart on the profile; a casual game changes nothing; Edit ratings switches
//! the rating shown next to the name; leaderboards list established ratings.
//! Screenshots at 1280x800 and 390x844 go to `$XIANGQI_ARTIFACTS` (default
//! `target/artifacts`) as `ratings-*.png`.
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER` (outside CI, without it the test says so
//! and does nothing).

mod browsing;

use browsing::{Window, api, chromedriver, count, css, launch, scroll_to, shot, start_driver, wait_text};

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

/// An English browser: a desktop one, or a touch phone of the given size.
async fn browser(driver_url: &str, profile: &std::path::Path, phone: Option<(u32, u32)>) -> Client {
    let window = phone.map_or(Window::Desktop(1280, 900), |(w, h)| Window::Phone(w, h));
    let c = launch(driver_url, profile, "en-US", window).await;
    if phone.is_none() {
        // A 1280x800 page: the window is as much larger as its frame takes.
        let frame =
            c.execute("return [outerWidth - innerWidth, outerHeight - innerHeight];", vec![]).await.unwrap();
        let (w, h) = (frame[0].as_u64().unwrap_or(0), frame[1].as_u64().unwrap_or(0));
        c.set_window_size(1280 + w as u32, 800 + h as u32).await.unwrap();
    }
    c
}

async fn enter(c: &Client, url: &str, name: &str, path: &str) {
    c.goto(url).await.unwrap();
    let r = api(c, "POST", path, json!({ "name": name, "password": "secret-pass" })).await;
    assert!(r["status"] == 201 || r["status"] == 200, "{name} at {path}: {r}");
    c.goto(url).await.unwrap();
    css(c, "#nav a.me").await;
}

async fn open(c: &Client, url: &str, hash: &str) {
    c.goto(&format!("{url}{hash}")).await.unwrap();
}

/// The page is no wider than the screen.
async fn fits(c: &Client, what: &str) {
    let script = "const width = document.documentElement.clientWidth;\
        const over = [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > width + 1);\
        return [document.documentElement.scrollWidth, width, innerWidth, over.slice(0, 5).map((e) => e.outerHTML.slice(0, 80))];";
    let sizes = c.execute(script, vec![]).await.unwrap();
    assert!(sizes[0].as_i64() <= sizes[1].as_i64(), "{what} scrolls sideways: {sizes}");
    assert_eq!(sizes[1], json!(390), "a 390 px wide page");
    assert_eq!(sizes[3], json!([]), "{what}: these stick out on the right");
}

/// A rating as the ratings table shows it: the number, and whether it is marked provisional.
async fn table_rating(c: &Client, category: &str) -> (i64, bool) {
    let cell = css(c, &format!("#ratings tr[data-category={category}] .rating")).await;
    let text = cell.text().await.unwrap();
    let number: String = text.chars().take_while(|ch| ch.is_ascii_digit()).collect();
    let provisional = cell.find(Locator::Css("abbr.provisional[title]")).await.is_ok();
    (number.parse().unwrap_or_else(|_| panic!("a rating: {text:?}")), provisional)
}

/// A casual game between the two, resigned by the second: its id.
async fn casual_game(a: &Client, b: &Client) -> String {
    let terms = json!({ "opponent": "loser", "rules": "asian", "color": "red", "rated": false,
                        "clock": { "kind": "live", "base": 600_000, "increment": 5_000 } });
    let ch = api(a, "POST", "/challenges", terms).await;
    let id =
        ch["body"]["challenge"]["id"].as_str().unwrap_or_else(|| panic!("a challenge: {ch}")).to_string();
    let g = api(b, "POST", &format!("/challenges/{id}/accept"), Value::Null).await;
    let game = g["body"]["game"]["id"].as_str().unwrap_or_else(|| panic!("a game: {g}")).to_string();
    assert_eq!(api(b, "POST", &format!("/games/{game}/resign"), Value::Null).await["status"], 200);
    game
}

async fn nav_rating(c: &Client) -> String {
    css(c, "#nav a.me .nav-rating").await.text().await.unwrap()
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn rated_games_move_ratings_casual_ones_do_not_and_each_player_chooses_the_one_shown() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-ratings-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = browser(&driver_url, &tmp.join("a"), None).await;
    let b = browser(&driver_url, &tmp.join("b"), None).await;
    enter(&a, &url, "winner", "/users").await;
    enter(&b, &url, "loser", "/users").await;
    assert_eq!(nav_rating(&a).await, "corr. 1500", "a new player's rating by their name, with its category");

    // A rated challenge from the new-game form: rated is the default.
    open(&a, &url, "#/new").await;
    let rated = css(&a, "form:has(input[name=opponent]) input[name=rated]").await;
    assert_eq!(rated.prop("checked").await.unwrap().as_deref(), Some("true"), "rated by default");
    css(&a, "input[name=opponent]").await.send_keys("loser").await.unwrap();
    css(&a, "form:has(input[name=opponent]) button[type=submit]").await.click().await.unwrap();
    wait_text(&a, "main h1", "Waiting room").await;
    wait_text(&a, ".challenge .tag", "Rated").await;

    // The loser sees it rated in the waiting room, accepts, and resigns.
    open(&b, &url, "#/room").await;
    wait_text(&b, ".challenge .tag.rated", "Rated").await;
    shot(&b, "ratings-room-desktop.png").await;
    css(&b, ".challenge button[data-action=accept]").await.click().await.unwrap();
    wait_text(&b, ".game-info", "Rated").await;
    let game = b.current_url().await.unwrap().fragment().unwrap().trim_start_matches("/game/").to_string();
    let r = api(&b, "POST", &format!("/games/{game}/resign"), Value::Null).await;
    assert_eq!(r["status"], 200, "resigns: {r}");

    // The winner's profile: above 1500, provisional, a chart with one point.
    open(&a, &url, "#/user/winner").await;
    let (after_rated, provisional) = table_rating(&a, "standard_correspondence").await;
    assert!(after_rated > 1500, "the winner gains: {after_rated}");
    assert!(provisional, "one game: provisional");
    css(&a, "#ratings svg.rating-chart[role=img] title").await;
    assert_eq!(count(&a, "#ratings svg.rating-chart circle.dot").await, 1, "a point for the game");
    assert!(count(&a, "#ratings svg.rating-chart .band").await == 1, "the deviation shaded");
    assert!(count(&a, "#ratings .history-numbers tbody tr").await == 1, "the numbers as a table");
    a.refresh().await.unwrap();
    wait_text(&a, "#nav a.me", &after_rated.to_string()).await;
    scroll_to(&a, "#ratings").await;
    shot(&a, "ratings-profile-desktop.png").await;
    open(&b, &url, "#/user/loser").await;
    let (after_loss, _) = table_rating(&b, "standard_correspondence").await;
    assert!(after_loss < 1500, "the loser drops: {after_loss}");

    // A casual game changes nothing.
    let ch = api(
        &a,
        "POST",
        "/challenges",
        json!({ "opponent": "loser", "rules": "asian", "color": "red", "rated": false,
                "clock": { "kind": "correspondence", "hours": 72 } }),
    )
    .await;
    assert_eq!(ch["body"]["challenge"]["rated"], false, "{ch}");
    open(&b, &url, "#/room").await;
    wait_text(&b, ".challenge .tag.casual", "Casual").await;
    let id = ch["body"]["challenge"]["id"].as_str().unwrap();
    let g = api(&b, "POST", &format!("/challenges/{id}/accept"), Value::Null).await;
    let casual = g["body"]["game"]["id"].as_str().unwrap().to_string();
    open(&b, &url, &format!("#/game/{casual}")).await;
    wait_text(&b, ".game-info", "Casual").await;
    assert_eq!(api(&b, "POST", &format!("/games/{casual}/resign"), Value::Null).await["status"], 200);
    open(&a, &url, "#/user/winner").await;
    css(&a, "#ratings svg.rating-chart").await;
    assert_eq!(table_rating(&a, "standard_correspondence").await, (after_rated, true), "casual: unchanged");
    assert_eq!(count(&a, "#ratings svg.rating-chart circle.dot").await, 1, "no point for a casual game");

    // Established hex live ratings, written as if after many games over some
    // weeks: a history with a line to draw, and a leaderboard.
    let store = xiangqi_server::store::Store::open(&db).await.unwrap();
    let rating = |rating: f64, deviation: f64, games: i64| xiangqi_server::model::ratings::Rating {
        rating,
        deviation,
        volatility: 0.06,
        games,
    };
    let climb =
        [(1610.0, 240.0), (1702.0, 180.0), (1688.0, 140.0), (1765.0, 110.0), (1741.0, 90.0), (1822.0, 75.0)];
    for (i, (r, d)) in climb.iter().chain([(1873.0, 60.0)].iter()).enumerate() {
        let game = casual_game(&a, &b).await;
        let result = xiangqi_server::store::GameResult {
            game: &game,
            red: "winner",
            black: "loser",
            winner: None,
            rated: Some((
                xiangqi_server::model::ratings::Category::HexLive,
                rating(*r, *d, 34 + i as i64),
                rating(1641.0 - 10.0 * (6 - i) as f64, *d, 34 + i as i64),
            )),
            at_ms: 1_700_000_000_000 + i as i64 * 9 * 86_400_000,
        };
        store.record_result(&result).await.unwrap();
    }

    // Edit ratings: show the hex live rating; the header and who is here follow.
    open(&a, &url, "#/ratings").await;
    wait_text(&a, "main h1", "Edit ratings").await;
    css(&a, "input[name=shown][value=hex_live]").await.click().await.unwrap();
    shot(&a, "ratings-edit-desktop.png").await;
    css(&a, ".ratings-form button[type=submit]").await.click().await.unwrap();
    wait_text(&a, "#message", "Saved").await;
    assert_eq!(nav_rating(&a).await, "hex live 1873", "the header shows the chosen rating, named");
    open(&a, &url, "#/people").await;
    wait_text(&a, "li.person[data-user=winner]", "1873").await;
    let settings = api(&a, "GET", "/me/rating-settings", Value::Null).await;
    assert_eq!(settings["body"]["shown"], "hex_live");

    // The profile has both categories now: the tabs switch the chart.
    open(&a, &url, "#/user/winner").await;
    assert_eq!(table_rating(&a, "hex_live").await, (1873, false), "established: no mark");
    css(&a, "#ratings .history[data-category=hex_live] svg.rating-chart polyline.line").await;
    assert_eq!(count(&a, "#ratings svg.rating-chart circle.dot").await, 7, "a point for each game");
    scroll_to(&a, "#ratings").await;
    shot(&a, "ratings-profile-line-desktop.png").await;
    css(&a, "#ratings button.tab[data-category=standard_correspondence]").await.click().await.unwrap();
    css(&a, "#ratings .history[data-category=standard_correspondence] svg.rating-chart").await;
    scroll_to(&a, "#ratings").await;
    shot(&a, "ratings-profile-both-desktop.png").await;

    // Leaderboards, open to visitors, reached from the header.
    open(&a, &url, "#/leaders/hex_live").await;
    wait_text(&a, "table.leaders tbody", "winner").await;
    let rows = a.find_all(Locator::Css("table.leaders tbody tr")).await.unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows[1].text().await.unwrap().contains("1641"), "the loser second");
    assert!(rows[0].text().await.unwrap().contains("1873"), "highest first");
    css(&a, "table.leaders tbody tr a[href='#/user/winner']").await;
    shot(&a, "ratings-leaders-desktop.png").await;
    open(&a, &url, "#/leaders/standard_live").await;
    wait_text(&a, "main .card", "Nobody").await;

    let v = browser(&driver_url, &tmp.join("v"), None).await;
    open(&v, &url, "#/rules").await;
    css(&v, "#nav a[href='#/leaders']").await.click().await.unwrap();
    wait_text(&v, "main h1", "Leaderboards").await;
    css(&v, "a.tab[href='#/leaders/hex_live']").await.click().await.unwrap();
    wait_text(&v, "table.leaders tbody", "loser").await;

    // A phone: the same pages, no sideways scroll.
    let p = browser(&driver_url, &tmp.join("p"), Some((390, 844))).await;
    enter(&p, &url, "winner", "/session").await;
    for (hash, name, ready) in [
        ("#/user/winner", "ratings-profile-phone.png", "#ratings .history svg.rating-chart"),
        ("#/leaders/hex_live", "ratings-leaders-phone.png", "table.leaders tbody tr"),
        ("#/ratings", "ratings-edit-phone.png", ".ratings-form"),
        ("#/new", "ratings-new-phone.png", "input[name=rated]"),
    ] {
        open(&p, &url, hash).await;
        css(&p, ready).await;
        fits(&p, hash).await;
        shot(&p, name).await;
    }
    open(&p, &url, "#/user/winner").await;
    css(&p, "#ratings .history[data-category=hex_live] svg.rating-chart polyline.line").await;
    scroll_to(&p, "#ratings h3").await;
    shot(&p, "ratings-profile-line-phone.png").await;
    css(&p, "#ratings button.tab[data-category=standard_correspondence]").await.click().await.unwrap();
    css(&p, "#ratings .history[data-category=standard_correspondence] svg.rating-chart").await;
    fits(&p, "the profile's chart").await;
    scroll_to(&p, "#ratings h3").await;
    shot(&p, "ratings-profile-chart-phone.png").await;

    for c in [a, b, v, p] {
        c.close().await.unwrap();
    }
    server.stop().await;
}
