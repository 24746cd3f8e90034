//! The app offline, in headless Chromium: the service worker keeps the app, so
//! with the server gone a reload still shows it, says it is offline, and reads
//! the rules, the help and the user's own recent games; when the server is
//! back the open game's socket comes back without a reload and the opponent's
//! move arrives; a log-out drops the user's kept games. The home-screen icons
//! are drawings, not blanks. Screenshots go to `$XIANGQI_ARTIFACTS`.
//!
//! "Offline" here is the server stopped (the same address answers nothing),
//! then started again on the same address and database.
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER`.

mod browsing;
mod common;

use std::time::Duration;

use browsing::{
    Window, api, chromedriver, css, launch, register_quick, shots_at_both_sizes, start_driver, until,
    wait_text,
};
use fantoccini::Client;
use serde_json::{Value, json};

/// The names of the browser's caches.
async fn cache_names(c: &Client) -> Vec<String> {
    let names =
        c.execute_async("const done = arguments[0]; caches.keys().then(done);", vec![]).await.unwrap();
    serde_json::from_value(names).unwrap()
}

/// Switches the browser's network off or on, as its developer tools would
/// (Chromium's `Network.emulateNetworkConditions`, through ChromeDriver).
async fn network(c: &Client, driver_url: &str, on: bool) {
    let params = json!({ "offline": !on, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1 });
    browsing::devtools(c, driver_url, "Network.emulateNetworkConditions", params).await;
}

/// Waits until the offline notice is hidden (`gone`) or shown (at most 30 s:
/// the socket's backoff may be at its longest when the network comes back).
async fn notice(c: &Client, gone: bool) {
    for _ in 0..120 {
        let hidden = c.execute("return document.getElementById('offline').hidden;", vec![]).await.unwrap();
        if hidden == json!(gone) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("the offline notice never {}", if gone { "went" } else { "showed" });
}

/// The number of distinct colours of an image the page loads, and its width.
async fn colours(c: &Client, src: &str) -> Value {
    let script = "const [src, done] = arguments; const img = new Image();\
        img.onload = () => { const canvas = document.createElement('canvas');\
          canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;\
          const g = canvas.getContext('2d'); g.drawImage(img, 0, 0);\
          const px = g.getImageData(0, 0, canvas.width, canvas.height).data; const seen = new Set();\
          for (let i = 0; i < px.length; i += 4) seen.add((px[i] << 24) | (px[i + 1] << 16) | (px[i + 2] << 8) | px[i + 3]);\
          done({ width: img.naturalWidth, colours: seen.size }); };\
        img.onerror = () => done(null); img.src = src;";
    c.execute_async(script, vec![json!(src)]).await.unwrap()
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn the_app_reads_offline_and_its_live_game_resumes_when_the_server_is_back() {
    let db = common::sqlite();
    let server = common::server(&db).await;
    let addr = server.addr();
    let url = server.url();
    let bob = common::Client::register(&server, "bob").await;
    let (_driver, driver_url) = start_driver(&chromedriver()).await;
    let profile = std::env::temp_dir().join(common::unique("xiangqi-offline-profile-"));
    let c = launch(&driver_url, &profile, "en", Window::Desktop(1280, 900)).await;

    let alice = common::unique("alice");
    register_quick(&c, &url, &alice).await;
    let terms = json!({ "opponent": alice, "rules": "asian", "color": "red", "clock": { "kind": "correspondence", "hours": 72 } });
    let (_, challenge) = bob.post("/challenges", terms).await;
    let challenge =
        challenge["challenge"]["id"].as_str().unwrap_or_else(|| panic!("{challenge}")).to_string();
    let game = api(&c, "POST", &format!("/challenges/{challenge}/accept"), Value::Null).await;
    let id = game["body"]["game"]["id"].as_str().unwrap_or_else(|| panic!("{game}")).to_string();

    // Online: the worker takes the page over and keeps the shell; at the next
    // visit it reads who is logged in, and then keeps the game Alice opens,
    // and her games' list, for her.
    until(&c, "the service worker controls the page", "return !!navigator.serviceWorker.controller;").await;
    c.refresh().await.unwrap();
    css(&c, "#nav a[href='#/new']").await;
    c.goto(&format!("{url}#/game/{id}")).await.unwrap();
    wait_text(&c, "#status", &format!("Red ({}) to move", bob.name)).await;
    c.goto(&format!("{url}#/status")).await.unwrap();
    css(&c, &format!("li.game-row[data-key='{id}']")).await;
    let names = cache_names(&c).await;
    assert!(names.iter().any(|n| n.starts_with("xiangqi-shell-")), "{names:?}");
    let own = format!("xiangqi-user-{alice}");
    assert!(names.contains(&own), "Alice's games have a cache of her own: {names:?}");
    let kept = c
        .execute_async(
            "const [name, done] = arguments; caches.open(name).then((c) => c.keys())\
               .then((keys) => done(keys.map((k) => new URL(k.url).pathname)));",
            vec![json!(own)],
        )
        .await
        .unwrap();
    assert!(kept.as_array().unwrap().contains(&json!(format!("/api/v1/games/{id}"))), "{kept}");
    assert!(!kept.as_array().unwrap().iter().any(|p| p.as_str().unwrap().contains("challenges")), "{kept}");

    // The icons, as a home screen would load them: drawn, at their sizes.
    for (src, width) in
        [("/icons/icon-192.png", 192), ("/icons/icon-512.png", 512), ("/icons/icon-maskable-512.png", 512)]
    {
        let seen = colours(&c, src).await;
        assert_eq!(seen["width"], width, "{src}: {seen}");
        assert!(seen["colours"].as_u64().unwrap() > 20, "{src} is next to blank: {seen}");
    }

    // The server goes away; opening the site again still shows the app,
    // saying it is offline. The document opened last before (the health
    // check) is not the app's, and did not take the page's place in the
    // worker's cache.
    c.goto(&format!("{url}/healthz")).await.unwrap();
    server.stop().await;
    c.goto(&format!("{url}#/status")).await.unwrap();
    wait_text(&c, "#offline", "You are offline").await;
    css(&c, &format!("li.game-row[data-key='{id}']")).await;
    shots_at_both_sizes(&c, "offline", "status").await;
    c.goto(&format!("{url}#/rules")).await.unwrap();
    wait_text(&c, "main h1", "Game rules").await;
    css(&c, "#rules-horse svg.board").await;
    shots_at_both_sizes(&c, "offline", "rules").await;
    c.goto(&format!("{url}#/help")).await.unwrap();
    wait_text(&c, "main h1", "How to play here").await;
    c.goto(&format!("{url}#/game/{id}")).await.unwrap();
    wait_text(&c, "#status", &format!("Red ({}) to move", bob.name)).await;
    css(&c, "#offline:not([hidden])").await;
    shots_at_both_sizes(&c, "offline", "game").await;

    // The server is back on the same address: the socket finds it, the notice
    // goes, and Bob's move shows on the page that was never reloaded.
    c.execute("window.notReloaded = true;", vec![]).await.unwrap();
    let mut config = xiangqi_server::Config::for_tests(&db.url);
    config.bind = addr;
    let server = xiangqi_server::start(config).await.expect("the server starts again");
    notice(&c, true).await;
    let (status, moved) = bob.play(&id, 0, "h2e2").await;
    assert!(status.is_success(), "{moved}");
    css(&c, "svg.board g.piece[data-cell=e2]").await;
    wait_text(&c, "#status", "Your move").await;
    assert_eq!(c.execute("return window.notReloaded === true;", vec![]).await.unwrap(), json!(true));
    shots_at_both_sizes(&c, "offline", "back").await;

    // The browser's own network switched off and on (the worker's requests
    // are not the page's and go on, so the server stopping above stands for
    // a reload offline): the page says so at once, and once the network is
    // back the notice goes and Bob's next move comes in without a reload.
    let r = api(&c, "POST", &format!("/games/{id}/moves"), json!({ "ply": 1, "move": "h7e7" })).await;
    assert_eq!(r["status"], 200, "{r}");
    wait_text(&c, "#status", &format!("Red ({}) to move", bob.name)).await;
    network(&c, &driver_url, false).await;
    notice(&c, false).await;
    network(&c, &driver_url, true).await;
    notice(&c, true).await;
    let (status, moved) = bob.play(&id, 2, "h0g2").await;
    assert!(status.is_success(), "{moved}");
    css(&c, "svg.board g.piece[data-cell=g2]").await;
    assert_eq!(c.execute("return window.notReloaded === true;", vec![]).await.unwrap(), json!(true));

    // Logging out drops what was kept for Alice; the shell stays.
    c.execute(
        "[...document.querySelectorAll('#nav a')].find((a) => a.textContent === 'Log out').click();",
        vec![],
    )
    .await
    .unwrap();
    until(&c, "logged out", "return !!document.querySelector(\"#nav a[href='#/']\");").await;
    let mut names = cache_names(&c).await;
    for _ in 0..20 {
        if !names.iter().any(|n| n.starts_with("xiangqi-user-")) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
        names = cache_names(&c).await;
    }
    assert!(!names.iter().any(|n| n.starts_with("xiangqi-user-")), "{names:?}");
    assert!(names.iter().any(|n| n.starts_with("xiangqi-shell-")), "{names:?}");

    c.close().await.unwrap();
    server.stop().await;
    let _ = std::fs::remove_dir_all(&profile);
}
