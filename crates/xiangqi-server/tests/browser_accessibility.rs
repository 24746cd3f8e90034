//! Accessibility, in headless Chromium: axe-core (the web folder's pinned
//! devDependency) finds no serious or critical problem on any page of the menu
//! in any of the four languages; and a player who cannot see the board turns
//! the screen-reader mode on from the link at the top of the page and mates
//! the computer from a set-up position, finding every control by its role and
//! name in the accessibility tree and hearing the computer's moves only from
//! the live region.

mod browsing;

use std::time::Duration;

use browsing::{Window, api, ax, chromedriver, launch, shots_at_both_sizes, start_driver, until};
use fantoccini::Client;
use serde_json::{Value, json};

/// Red mates in two whatever Black answers: a chariot closes the eighth rank,
/// the other checks on the ninth.
const MATE_IN_TWO: &str = "4k4/9/9/R8/8R/9/9/2p6/9/3K5 w - - 0 1";

/// The pages of the menu that take no argument, by route.
const ROUTES: [&str; 27] = [
    "status",
    "new",
    "room",
    "people",
    "position",
    "analysis",
    "puzzles",
    "database",
    "import",
    "masters",
    "messages",
    "search",
    "edit-profile",
    "password",
    "buddies",
    "ignored",
    "invite",
    "settings",
    "rules",
    "help",
    "tips",
    "news",
    "leaders",
    "ratings",
    "ladder",
    "tournaments",
    "studies",
];

/// What a visitor who has not logged in reaches (a page that needs a session shows the log-in form).
const OPEN_ROUTES: [&str; 6] = ["status", "join", "rules", "room", "settings", "new"];

const LANGUAGES: [&str; 4] = ["en", "zh-Hans", "zh-Hant", "vi"];

/// axe-core as npm installed it; the test fails without it rather than check nothing.
fn axe_source() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("{} is missing ({e}): run `npm ci` in crates/xiangqi-server/web", path.display())
    })
}

/// Opens a route, waits until the page has drawn itself, and answers axe's
/// serious and critical findings there, one line each.
async fn audit(c: &Client, url: &str, route: &str, language: &str, axe: &str) -> Vec<String> {
    c.goto(&format!("{url}#/{route}")).await.unwrap();
    until(
        c,
        &format!("{route} drawn"),
        "return !!document.querySelector('main > .view') && !document.querySelector('main .loading');",
    )
    .await;
    // Parts that a page fetches after its first drawing (lists, counts) come in.
    tokio::time::sleep(Duration::from_millis(400)).await;
    if c.execute("return typeof window.axe === 'object';", vec![]).await.unwrap() != json!(true) {
        c.execute(&format!("{axe}\nreturn true;"), vec![]).await.unwrap();
    }
    let script = "const done = arguments[arguments.length - 1];\
        axe.run(document, { resultTypes: ['violations'] }).then((r) => done(r.violations\
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')\
          .map((v) => `${v.impact} ${v.id} (${v.help}): ` + v.nodes.slice(0, 4)\
            .map((n) => n.target.join(' ') + ' ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 160)).join(' | '))))\
        .catch((e) => done(['axe failed: ' + e]));";
    let found = c.execute_async(script, vec![]).await.unwrap();
    found
        .as_array()
        .unwrap()
        .iter()
        .map(|v| format!("[{language}] #/{route}: {}", v.as_str().unwrap_or_default()))
        .collect()
}

/// The preferences with some fields changed, saved, and the page loaded again in them.
async fn set_prefs(c: &Client, change: Value) {
    let mut prefs = api(c, "GET", "/me/preferences", Value::Null).await["body"]["preferences"].clone();
    for (k, v) in change.as_object().unwrap() {
        prefs[k] = v.clone();
    }
    let r = api(c, "PUT", "/me/preferences", prefs).await;
    assert_eq!(r["status"], 200, "{r}");
    c.refresh().await.unwrap();
}

async fn register(c: &Client, url: &str, name: &str) {
    c.goto(url).await.unwrap();
    let r = api(c, "POST", "/users", json!({ "name": name, "password": "secret-pass" })).await;
    assert_eq!(r["status"], 201, "{name} registers: {r}");
    c.goto(url).await.unwrap();
}

/// A level-1 computer game from the mate in two on this clock, the player Red; answers its id.
async fn practice_game(c: &Client, clock: Value) -> String {
    let body = json!({ "level": 1, "rules": "asian", "color": "red", "fen": MATE_IN_TWO, "clock": clock });
    let r = api(c, "POST", "/computer-games", body).await;
    assert_eq!(r["status"], 201, "{r}");
    r["body"]["game"]["id"].as_str().unwrap().to_string()
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn no_page_has_a_serious_accessibility_problem_in_any_language() {
    let axe = axe_source();
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-axe-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let c = launch(&driver_url, &tmp.join("a"), "en-US", Window::Desktop(1280, 800)).await;
    register(&c, &url, "auditor").await;
    let game = practice_game(&c, json!({ "kind": "correspondence", "hours": 72 })).await;
    let me = "user/auditor".to_string();
    let played = format!("game/{game}");

    let mut problems = Vec::new();
    for language in LANGUAGES {
        set_prefs(&c, json!({ "language": language, "screen_reader": true })).await;
        for route in ROUTES.iter().copied().chain([me.as_str(), played.as_str()]) {
            problems.extend(audit(&c, &url, route, language, &axe).await);
        }
    }
    // A visitor's pages, in each language the visitor picks (kept in the browser).
    let r = api(&c, "DELETE", "/session", Value::Null).await;
    assert!(r["status"] == 200 || r["status"] == 204, "{r}");
    for language in LANGUAGES {
        let keep = format!(
            "localStorage.setItem('xiangqi.prefs', JSON.stringify({{ language: '{language}' }})); return true;"
        );
        c.execute(&keep, vec![]).await.unwrap();
        c.refresh().await.unwrap();
        for route in OPEN_ROUTES {
            problems.extend(audit(&c, &url, route, language, &axe).await);
        }
    }
    assert!(problems.is_empty(), "{} serious or critical findings:\n{}", problems.len(), problems.join("\n"));
    c.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

/// Waits until the live region named "Announcements" reads `wanted`; answers all it reads.
async fn heard(c: &Client, wanted: &str) -> String {
    let mut last = String::new();
    for _ in 0..120 {
        let nodes = ax::tree(c).await;
        if let Some(log) = nodes.iter().find(|n| ax::role(n) == "log" && ax::name(n) == "Announcements") {
            last = ax::text_under(&nodes, log);
            if last.contains(wanted) {
                return last;
            }
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("the announcements never said {wanted:?}; they say {last:?}");
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn a_blind_player_mates_the_computer_through_the_accessibility_tree() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-blind-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let c = launch(&driver_url, &tmp.join("a"), "en-US", Window::Desktop(1280, 800)).await;
    register(&c, &url, "listener").await;
    // A headless window never has the system's focus: without this, focus
    // events (which the board speaks on) would not fire.
    ax::cdp(&c, "Emulation.setFocusEmulationEnabled", json!({ "enabled": true })).await;

    // The first link of the page leads to the setting; the mode goes on.
    ax::find_starting(&c, "link", "Screen-reader mode").await;
    let first = ax::tree(&c).await.into_iter().find(|n| ax::role(n) == "link").expect("a link on the page");
    assert_eq!(ax::name(&first), "Screen-reader mode (off): turn it on in the settings");
    // Out of sight until the keyboard reaches it.
    ax::focus(&c, &first).await;
    browsing::shot(&c, "screen-reader-link-focused.png").await;
    ax::press(&c, &first).await;
    let mode = ax::find(&c, "checkbox", "Screen-reader mode on the game page").await;
    assert_eq!(ax::property(&mode, "focused"), json!(true), "the link lands on the setting");
    browsing::shot(&c, "screen-reader-setting.png").await;
    ax::press(&c, &mode).await;
    ax::find(&c, "link", "Screen-reader mode (on): settings").await;
    let saved = api(&c, "GET", "/me/preferences", Value::Null).await;
    assert_eq!(saved["body"]["preferences"]["screen_reader"], true, "{saved}");

    // The practice game: the position in words, by side and piece, in WXF files.
    // A short live clock: under a minute left, once it runs, is warned of.
    let id = practice_game(&c, json!({ "kind": "live", "base": 50_000, "increment": 0 })).await;
    c.goto(&format!("{url}#/game/{id}")).await.unwrap();
    ax::find(&c, "heading", "Game for screen readers").await;
    let red = "Red (3): general on file 6 (d0), chariot on file 9 (a6), chariot on file 1 (i5).";
    let black = "Black (2): general on file 5 (e9), soldier on file 3 (c2).";
    for line in [red, black, "Red to move."] {
        assert!(ax::says(&c, line).await, "the position reads {line:?}");
    }

    // The arrow keys go from point to point on the board, which says each.
    let board = ax::find(&c, "application", "Xiangqi board").await;
    ax::focus(&c, &board).await;
    for _ in 0..40 {
        if ax::says(&c, "d0, Red general").await {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(ax::says(&c, "d0, Red general").await, "the board names the point it starts on");
    ax::key(&c, "ArrowUp").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(ax::says(&c, "d1, empty").await, "the board names the point the arrow reached");

    // The first move typed in WXF; the computer's answer heard from the live region.
    let typed = ax::find(&c, "textbox", "Type a move").await;
    ax::type_into(&c, &typed, "R9+2").await;
    ax::press(&c, &ax::find(&c, "button", "Play").await).await;
    heard(&c, "You (Red) played R9+2.").await;
    let said = heard(&c, "Black played ").await;
    let reply = said.split("Black played ").nth(1).unwrap().split('.').next().unwrap().to_string();
    assert!(["K5=6", "P3+1", "P3=2", "P3=4"].contains(&reply.as_str()), "a legal answer: {said}");
    // Both sides have moved: my clock runs, with less than a minute on it.
    heard(&c, "Clock warning: 0:").await;

    // The mate picked from the list of legal moves, with the arrow keys.
    let list = ax::find(&c, "combobox", "Legal moves").await;
    ax::focus(&c, &list).await;
    let mut chosen = String::new();
    for _ in 0..80 {
        chosen = ax::value(&ax::find(&c, "combobox", "Legal moves").await);
        if chosen.starts_with("R1+4") {
            break;
        }
        ax::key(&c, "ArrowDown").await;
    }
    assert_eq!(chosen, "R1+4 · i5i9");
    ax::press(&c, &ax::find(&c, "button", "Play the chosen move").await).await;
    let end = heard(&c, "Red wins: checkmate").await;
    assert!(end.contains("You (Red) played R1+4."), "{end}");
    let game = api(&c, "GET", &format!("/games/{id}"), Value::Null).await["body"]["game"].clone();
    assert_eq!(
        (game["status"].as_str(), game["outcome"]["winner"].as_str()),
        (Some("finished"), Some("red"))
    );
    shots_at_both_sizes(&c, "screen-reader", "mated").await;

    c.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}
