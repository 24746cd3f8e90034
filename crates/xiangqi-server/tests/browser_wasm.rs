//! The rules and the engine in the browser (the WebAssembly module the server
//! embeds), in headless Chromium: the module's engine in a worker matches the
//! native engine node for node (the benchmark's signature, and one search's
//! best move, score and nodes); the analysis board gets its positions and its
//! engine lines from the page, with no request for either reaching the
//! server; and where WebAssembly is switched off, the board falls back to the
//! server. The module's speed in Chromium against the native engine's is
//! printed for the README.
//!
//! With the server gone, the analysis board and a game against the computer
//! (the page's own, unrated) go on from the service worker's copy.
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER`, and a server built with the module
//! (`.ci/run` builds it first; see `crates/xiangqi-server/build.rs`).

mod browsing;

use std::time::Duration;

use browsing::{
    Window, chromedriver, click, css, devtools, launch, play_move, register_quick, start_driver, until,
    wait_text,
};
use fantoccini::Client;
use serde_json::{Value, json};
use xiangqi::{Position, RuleSet, Standard};
use xiangqi_engine::{Control, Engine, Limits, Options, Root, bench, nnue::Nets};

/// The hash the page's engine searches with (`xiangqi_wasm::HASH_MB`).
const PAGE_HASH_MB: usize = 32;
const MIDDLE_GAME: &str = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R w - - 4 3";

/// Sends a request to the module in a worker from the page; its answer.
async fn in_worker(c: &Client, request: Value) -> Value {
    let script = "const [request, done] = arguments;\
        import('/wasm/xiangqi.js').then((m) => m.startWorker('/wasm/worker.js', '/wasm/xiangqi_wasm.wasm').ask(request))\
          .then((answer) => done({ answer }), (e) => done({ error: String(e) }));";
    let v = c.execute_async(script, vec![request]).await.unwrap();
    assert!(v.get("error").is_none(), "{v}");
    v["answer"].clone()
}

/// What the page has fetched since [`analyse`] began watching, by path.
async fn fetched(c: &Client) -> Vec<String> {
    let script = "return window.fetchedPaths;";
    serde_json::from_value(c.execute(script, vec![]).await.unwrap()).unwrap()
}

/// Goes to the analysis board (in the same page, watching what it fetches
/// from then on), starts its engine on a position and waits for depth 6.
async fn analyse(c: &Client) {
    let watch = "window.fetchedPaths = []; const plain = window.fetch.bind(window);\
        window.fetch = (what, init) => { window.fetchedPaths.push(new URL(String(what instanceof Request ? what.url : what), location.href).pathname); return plain(what, init); };\
        location.hash = arguments[0]; return true;";
    let hash = format!("#/analysis/standard/{}", MIDDLE_GAME.replace(' ', "%20"));
    c.execute(watch, vec![json!(hash)]).await.unwrap();
    wait_text(c, "#position-status", "Red to move").await;
    click(c, "#engine-toggle").await;
    for _ in 0..120 {
        let depth = css(c, "#eval").await.attr("data-depth").await.unwrap();
        if depth.and_then(|d| d.parse::<i32>().ok()).is_some_and(|d| d >= 6) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("the engine never reached depth 6");
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn the_page_s_module_matches_the_native_engine_and_spares_the_server() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-wasm-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let url = format!("{}/", server.url());
    let module = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(format!("{url}wasm/xiangqi_wasm.wasm"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        module.status(),
        reqwest::StatusCode::TEMPORARY_REDIRECT,
        "a server built with the WebAssembly module (build crates/xiangqi-wasm first, as .ci/run does)"
    );
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = launch(&driver_url, &tmp.join("a"), "en-US", Window::Desktop(1280, 900)).await;
    register_quick(&a, &url, "local").await;

    // The benchmark's signature, position by position, at a depth quick enough here.
    const DEPTH: i32 = 10;
    let page = in_worker(&a, json!({"op": "bench", "depth": DEPTH})).await;
    let mut native = Vec::new();
    bench::run(DEPTH, 16, 1, Nets::embedded(), &mut |_, _, n| native.push(n)).unwrap();
    assert_eq!(page["per_position"], json!(native), "the search, node for node: {page}");
    assert_eq!(page["kernel"], "Simd128");

    // One search: the same best move, score and nodes.
    let searched = in_worker(&a, json!({"op": "search", "fen": MIDDLE_GAME, "depth": 9})).await;
    let mut engine = Engine::new(Options { hash_mb: PAGE_HASH_MB, ..Options::default() }.with_embedded_net());
    let root =
        Root::from_position(MIDDLE_GAME.parse::<Position<Standard>>().unwrap(), RuleSet::Asian.rules());
    let mine = engine.search(&root, &Limits::depth(9), &Control::new(), &mut |_| {});
    let best = xiangqi::notation::iccs::write(Position::<Standard>::tables(), mine.best.unwrap());
    assert_eq!(searched["best"], best.as_str(), "{searched}");
    assert_eq!(searched["nodes"], mine.nodes, "{searched}");
    let score = match mine.lines[0].score {
        xiangqi_engine::Score::Cp(v) => json!({"kind": "cp", "value": v}),
        xiangqi_engine::Score::Mate(v) => json!({"kind": "mate", "value": v}),
    };
    assert_eq!(searched["lines"][0]["score"], score);

    // Speed, for the README: the same benchmark in Chromium and natively.
    let timed = in_worker(&a, json!({"op": "bench", "depth": 13})).await;
    let native = bench::run(13, 16, 1, Nets::embedded(), &mut |_, _, _| {}).unwrap();
    eprintln!(
        "bench 13 (nnue): {} nodes; Chromium {} nps, native (this test build) {} nps",
        timed["nodes"],
        timed["nps"],
        native.nps()
    );

    // The analysis board: positions and engine lines from the page alone.
    analyse(&a).await;
    let paths = fetched(&a).await;
    assert!(
        !paths.iter().any(|p| p == "/api/v1/positions" || p == "/api/v1/analysis"),
        "no position or analysis asked of the server: {paths:?}"
    );
    browsing::shots_at_both_sizes(&a, "wasm", "analysis").await;
    a.close().await.ok();

    // A browser without WebAssembly: the same board asks the server.
    let b = launch(&driver_url, &tmp.join("b"), "en-US", Window::Desktop(1280, 900)).await;
    let source = json!({ "source": "delete globalThis.WebAssembly;" });
    devtools(&b, &driver_url, "Page.addScriptToEvaluateOnNewDocument", source).await;
    register_quick(&b, &url, "remote").await;
    assert_eq!(b.execute("return typeof WebAssembly;", vec![]).await.unwrap(), json!("undefined"));
    analyse(&b).await;
    let paths = fetched(&b).await;
    assert!(paths.iter().any(|p| p == "/api/v1/positions"), "{paths:?}");
    assert!(paths.iter().any(|p| p == "/api/v1/analysis"), "{paths:?}");
    b.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

/// The moves of the page's own game, as it lists them.
async fn local_moves(c: &Client) -> usize {
    css(c, "#local-moves").await.text().await.unwrap().split_whitespace().count()
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn the_computer_and_the_analysis_board_work_with_the_server_gone() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-wasm-offline-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let c = launch(&driver_url, &tmp.join("c"), "en-US", Window::Desktop(1280, 900)).await;
    c.goto(&url).await.unwrap();
    until(&c, "the service worker controls the page", "return !!navigator.serviceWorker.controller;").await;
    let ready = "const done = arguments[0]; navigator.serviceWorker.ready.then(() => done(true));";
    assert_eq!(c.execute_async(ready, vec![]).await.unwrap(), json!(true));

    // A game on this device, reached from the new-game page (no account needed).
    c.goto(&format!("{url}#/local")).await.unwrap();
    wait_text(&c, "#local-note", "not rated").await;
    c.execute("document.getElementById('local-level').value = '2'; return true;", vec![]).await.unwrap();
    click(&c, "#local-new button[type=submit]").await;
    wait_text(&c, "#local-status", "Your move").await;
    play_move(&c, "h2", "e2").await;
    until(
        &c,
        "the computer answers",
        "return document.querySelector('#local-moves').textContent.split(' ').length === 2;",
    )
    .await;
    wait_text(&c, "#local-status", "Your move").await;

    // The server goes: the page reloads from the worker's copy and the game goes on.
    server.stop().await;
    c.refresh().await.unwrap();
    wait_text(&c, "#local-status", "Your move").await;
    assert_eq!(local_moves(&c).await, 2, "the game was kept");
    play_move(&c, "h0", "g2").await;
    until(
        &c,
        "the computer answers offline",
        "return document.querySelector('#local-moves').textContent.split(' ').length === 4;",
    )
    .await;
    browsing::shots_at_both_sizes(&c, "wasm", "local-game-offline").await;

    // The analysis board too: its positions and its engine are the page's.
    c.goto(&format!("{url}#/analysis")).await.unwrap();
    wait_text(&c, "#position-status", "Red to move").await;
    play_move(&c, "h2", "e2").await;
    wait_text(&c, "#position-status", "Black to move").await;
    click(&c, "#engine-toggle").await;
    for _ in 0..120 {
        let depth = css(&c, "#eval").await.attr("data-depth").await.unwrap();
        if depth.and_then(|d| d.parse::<i32>().ok()).is_some_and(|d| d >= 5) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let depth = css(&c, "#eval").await.attr("data-depth").await.unwrap();
    let said = c.execute("return document.querySelector('.engine').textContent;", vec![]).await.unwrap();
    assert!(
        depth.and_then(|d| d.parse::<i32>().ok()).is_some_and(|d| d >= 5),
        "the engine thinks offline: {said}"
    );
    browsing::shots_at_both_sizes(&c, "wasm", "analysis-offline").await;
    c.close().await.ok();
    std::fs::remove_dir_all(&tmp).ok();
}
