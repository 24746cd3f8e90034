//! The analysis board and game review in headless Chromium: a position from a
//! FEN, the engine's evaluation arriving and changing when a move is played, a
//! variation, a position set up with a mistake the server names, and a finished
//! game reviewed with its graph and marks. Screenshots at 1280x800 and 390x844
//! go to `$XIANGQI_ARTIFACTS` (default `target/artifacts`) as `analysis-*.png`.
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER` (outside CI, without it the test says so
//! and does nothing).

mod browsing;

use std::time::Duration;

use browsing::{
    Window, api, chromedriver, click, count, css, launch, play_move, register_quick, shot, start_driver,
    until, wait_text,
};
use fantoccini::Client;
use serde_json::{Value, json};

/// Black's chariot stands on e4 where Red's soldier can take it: Red is a
/// chariot up if it does, level if it does not.
const HANGING: &str = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/4r4/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The engine's evaluation as the page shows it (Red's view, clamped centipawns)
/// once it has searched at least to `depth`.
async fn evaluation(c: &Client, depth: i64) -> i64 {
    for _ in 0..120 {
        let e = css(c, "#eval").await;
        let (cp, d) = (e.attr("data-cp").await.unwrap(), e.attr("data-depth").await.unwrap());
        if let (Some(cp), Some(d)) = (cp, d)
            && d.parse::<i64>().unwrap_or(0) >= depth
        {
            return cp.parse().unwrap();
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let status = css(c, "#engine-status").await.text().await.unwrap_or_default();
    panic!("no evaluation at depth {depth}; the engine says {status:?}");
}

/// The page is no wider than the screen.
async fn fits(c: &Client, what: &str) {
    let script = "const width = document.documentElement.clientWidth;\
        const over = [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > width + 1);\
        return [document.documentElement.scrollWidth, width, over.slice(0, 5).map((e) => e.outerHTML.slice(0, 80))];";
    let sizes = c.execute(script, vec![]).await.unwrap();
    assert!(sizes[0].as_i64() <= sizes[1].as_i64(), "{what} scrolls sideways: {sizes}");
    assert_eq!(sizes[2], json!([]), "{what}: these stick out on the right");
}

/// A finished game between the page's user (Red) and `opponent`, resigned by
/// Black after `moves`: its id.
async fn finished_game(red: &Client, black: &Client, opponent: &str, moves: &[&str]) -> String {
    let terms = json!({ "opponent": opponent, "rules": "asian", "color": "red", "clock": { "kind": "correspondence", "hours": 72 } });
    let ch = api(red, "POST", "/challenges", terms).await;
    let id =
        ch["body"]["challenge"]["id"].as_str().unwrap_or_else(|| panic!("a challenge: {ch}")).to_string();
    let g = api(black, "POST", &format!("/challenges/{id}/accept"), Value::Null).await;
    let game = g["body"]["game"]["id"].as_str().unwrap_or_else(|| panic!("a game: {g}")).to_string();
    for (ply, mv) in moves.iter().enumerate() {
        let who = if ply % 2 == 0 { red } else { black };
        let r = api(who, "POST", &format!("/games/{game}/moves"), json!({ "ply": ply, "move": mv })).await;
        assert_eq!(r["status"], 200, "{mv}: {r}");
    }
    assert_eq!(api(black, "POST", &format!("/games/{game}/resign"), Value::Null).await["status"], 200);
    game
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn the_analysis_board_evaluates_sets_up_and_reviews() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-analysis-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = launch(&driver_url, &tmp.join("a"), "en-US", Window::Desktop(1280, 900)).await;
    let frame =
        a.execute("return [outerWidth - innerWidth, outerHeight - innerHeight];", vec![]).await.unwrap();
    let (w, h) = (frame[0].as_u64().unwrap_or(0) as u32, frame[1].as_u64().unwrap_or(0) as u32);
    a.set_window_size(1280 + w, 800 + h).await.unwrap();
    register_quick(&a, &url, "analyst").await;

    // From a FEN: the engine sees Red a chariot up.
    let fen = HANGING.replace(' ', "%20");
    a.goto(&format!("{url}#/analysis/standard/{fen}")).await.unwrap();
    wait_text(&a, "main h1", "Analysis board").await;
    wait_text(&a, "#position-status", "Red to move").await;
    assert_eq!(css(&a, "#eval").await.text().await.unwrap(), "—", "no evaluation before the engine runs");
    click(&a, "#engine-toggle").await;
    wait_text(&a, "#engine-toggle", "Stop engine").await;
    let before = evaluation(&a, 6).await;
    assert!(before >= 500, "Red can take a chariot: {before}");
    let pv = css(&a, "#pv").await.text().await.unwrap();
    assert!(pv.contains("P5+1"), "the best line takes the chariot, in WXF: {pv:?}");
    shot(&a, "analysis-engine-desktop.png").await;

    // Three lines: the next two best under the best, each with a first move of its own.
    let lines = |n: &str| {
        format!(
            "const s = document.querySelector('#engine-lines-choice'); s.value = '{n}'; \
             s.dispatchEvent(new Event('change')); return true;"
        )
    };
    a.execute(&lines("3"), vec![]).await.unwrap();
    // Read in one go, between two depths' updates: the first move of each line.
    let read = "const more = document.querySelectorAll('#engine-lines li .pv-move:first-of-type');\
        const best = document.querySelector('#pv .pv-move');\
        return more.length === 2 && best ? [best, ...more].map((e) => e.textContent) : null;";
    let mut firsts = Value::Null;
    for _ in 0..60 {
        firsts = a.execute(read, vec![]).await.unwrap();
        if !firsts.is_null() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(!firsts.is_null(), "no three lines after 15 s");
    let firsts: Vec<String> = serde_json::from_value(firsts).unwrap();
    assert!(firsts[0].contains("P5+1"), "the best line still takes the chariot: {firsts:?}");
    assert!(firsts[1] != firsts[0] && firsts[2] != firsts[0] && firsts[1] != firsts[2], "{firsts:?}");
    shot(&a, "analysis-lines-desktop.png").await;
    a.execute(&lines("1"), vec![]).await.unwrap();
    until(&a, "one line again", "return document.querySelectorAll('#engine-lines li').length === 0").await;

    // Red does not take: the evaluation follows the new position.
    play_move(&a, "a3", "a4").await;
    wait_text(&a, "#position-status", "Black to move").await;
    css(&a, "#tree button.node.current[data-move=a3a4]").await;
    let after = evaluation(&a, 6).await;
    assert!(after < before - 300, "the chance is gone: {before} then {after}");

    // Back one move and take instead: a variation beside the first move.
    click(&a, "#nav-back").await;
    wait_text(&a, "#position-status", "Red to move").await;
    play_move(&a, "e3", "e4").await;
    css(&a, "#tree .variation button.node.current[data-move=e3e4]").await;
    let taken = evaluation(&a, 6).await;
    assert!(taken >= 500, "a chariot up: {taken}");
    click(&a, "#tree button.node[data-move=a3a4]").await;
    css(&a, "#tree button.node.current[data-move=a3a4]").await;
    // The arrow keys step through the line.
    click(&a, "#tree-start").await;
    a.active_element().await.unwrap().send_keys("\u{E014}").await.unwrap();
    css(&a, "#tree button.node.current[data-move=a3a4]").await;
    shot(&a, "analysis-variation-desktop.png").await;
    click(&a, "#engine-toggle").await;
    wait_text(&a, "#engine-status", "stopped").await;

    // Setting up: a second red general is refused with the rules' words, then mended.
    click(&a, "#setup-start").await;
    css(&a, "#setup:not([hidden]) #palette").await;
    click(&a, "#palette button[data-piece=K]").await;
    click(&a, "g.piece[data-cell=d0]").await;
    css(&a, "g.piece[data-cell=d0][data-piece=K]").await;
    click(&a, "#setup-done").await;
    wait_text(&a, "#setup-error", "too many red generals").await;
    shot(&a, "analysis-setup-desktop.png").await;
    click(&a, "#palette button[data-piece=A]").await;
    click(&a, "g.piece[data-cell=d0]").await;
    css(&a, "g.piece[data-cell=d0][data-piece=A]").await;
    click(&a, "input[name=setup-turn][value=black]").await;
    click(&a, "#setup-done").await;
    wait_text(&a, "#position-status", "Black to move").await;
    assert!(
        css(&a, "#fen").await.prop("value").await.unwrap().unwrap().contains(" b "),
        "Black to move in the FEN"
    );

    // A FEN that cannot be read says why, and the position stays.
    let input = css(&a, "#fen").await;
    input.clear().await.unwrap();
    input.send_keys("4k4/9/9/9/9/9/9/9/9/4K4 w").await.unwrap();
    click(&a, "#fen-form button[type=submit]").await;
    wait_text(&a, "#fen-error", "generals face each other").await;

    // The hex board: its start position, a move by cell names.
    css(&a, "#board-choice").await.select_by_value("hex").await.unwrap();
    css(&a, "svg.board.hex").await;
    wait_text(&a, "#position-status", "Red to move").await;
    play_move(&a, "b1", "d4").await;
    css(&a, "#tree button.node.current[data-move=b1d4]").await;
    wait_text(&a, "#tree", "Nb1-d4").await;

    // A finished game: reviewed on request, with a graph over its moves and marks.
    let b = launch(&driver_url, &tmp.join("b"), "en-US", Window::Desktop(1280, 900)).await;
    register_quick(&b, &url, "opponent").await;
    // Black's third move puts a cannon where Red's chariot takes it.
    let moves = ["h2e2", "b9c7", "h0g2", "a9a8", "i0h0", "h7h3", "h0h3", "i6i5"];
    let game = finished_game(&a, &b, "opponent", &moves).await;
    a.goto(&format!("{url}#/game/{game}")).await.unwrap();
    wait_text(&a, "#status", "Red wins").await;
    click(&a, "#review-request").await;
    // Up to 4 minutes: this file's two tests each review a game of 500,000-node
    // searches at once, and a loaded two-core machine has taken over 90 s (and
    // over 15 s for the first position).
    for _ in 0..960 {
        if count(&a, "#eval-graph .graph-point").await == moves.len() + 1
            && count(&a, "#review-progress").await == 0
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    css(&a, "#eval-graph").await;
    wait_text(&a, "#review", "Blunders").await;
    let stored = api(&a, "GET", &format!("/games/{game}/review"), Value::Null).await;
    assert_eq!(
        count(&a, "#eval-graph .graph-point").await,
        moves.len() + 1,
        "a point per position: {stored}"
    );
    assert_eq!(count(&a, "#review-progress").await, 0, "the review is done");
    let marked = count(&a, ".moves td.marked").await;
    assert!(
        css(&a, ".moves td[data-ply='6']")
            .await
            .attr("class")
            .await
            .unwrap()
            .unwrap_or_default()
            .contains("blunder"),
        "the cannon left to be taken is a blunder"
    );
    let classed = count(&a, "#eval-graph .graph-point.inaccuracy, #eval-graph .graph-point.mistake, #eval-graph .graph-point.blunder").await;
    assert_eq!(marked, classed, "the move list and the graph mark the same moves");
    let counts = css(&a, "#review-counts").await.text().await.unwrap();
    assert!(counts.contains("Red") && counts.contains("Black"), "{counts}");
    // A point shows its move on the board.
    click(&a, "#eval-graph .graph-point[data-ply='4']").await;
    wait_text(&a, "#last-move", "after move 2 (Black) of 4").await;
    css(&a, "rect.last[data-cell=a8]").await;
    css(&a, "#review-move").await;
    assert!(
        css(&a, "#analyse-link").await.attr("href").await.unwrap().unwrap().ends_with(&format!("{game}/4"))
    );
    a.execute("document.querySelector('#review').scrollIntoView({ block: 'start' });", vec![]).await.unwrap();
    shot(&a, "analysis-review-desktop.png").await;

    // From the game to the analysis board at that move.
    click(&a, "#analyse-link").await;
    css(&a, "#tree button.node.current[data-move=a9a8]").await;
    assert_eq!(count(&a, "#tree button.node[data-move]").await, moves.len(), "the whole game in the tree");

    // A phone: the engine and a review fit the screen.
    let p = launch(&driver_url, &tmp.join("p"), "en-US", Window::Phone(390, 844)).await;
    register_quick(&p, &url, "pocket").await;
    p.goto(&format!("{url}#/analysis/standard/{fen}")).await.unwrap();
    click(&p, "#engine-toggle").await;
    let on_phone = evaluation(&p, 4).await;
    assert!(on_phone >= 500, "{on_phone}");
    fits(&p, "the analysis board").await;
    shot(&p, "analysis-engine-phone.png").await;
    click(&p, "#engine-toggle").await;
    p.goto(&format!("{url}#/game/{game}")).await.unwrap();
    css(&p, "#eval-graph").await;
    fits(&p, "a reviewed game").await;
    p.execute("document.querySelector('#review').scrollIntoView({ block: 'start' });", vec![]).await.unwrap();
    shot(&p, "analysis-review-phone.png").await;

    for c in [a, b, p] {
        c.close().await.unwrap();
    }
    server.stop().await;
    let _ = std::fs::remove_dir_all(&tmp);
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn arrows_show_the_engines_line_and_the_better_move_on_both_boards() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-arrows-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = launch(&driver_url, &tmp.join("a"), "en-US", Window::Desktop(1280, 900)).await;
    let frame =
        a.execute("return [outerWidth - innerWidth, outerHeight - innerHeight];", vec![]).await.unwrap();
    let (w, h) = (frame[0].as_u64().unwrap_or(0) as u32, frame[1].as_u64().unwrap_or(0) as u32);
    a.set_window_size(1280 + w, 800 + h).await.unwrap();
    register_quick(&a, &url, "archer").await;

    // The analysis board: the engine's best move (take the chariot) as the strong
    // arrow, two more moves of its line fainter.
    let fen = HANGING.replace(' ', "%20");
    a.goto(&format!("{url}#/analysis/standard/{fen}")).await.unwrap();
    wait_text(&a, "#position-status", "Red to move").await;
    assert_eq!(count(&a, "svg.board .arrows g.arrow").await, 0, "no arrows before the engine runs");
    click(&a, "#engine-toggle").await;
    evaluation(&a, 6).await;
    css(&a, "svg.board .arrows g.arrow.best[data-arrow=e3e4]").await;
    let arrows = count(&a, "svg.board .arrows g.arrow").await;
    assert!((1..=3).contains(&arrows), "the line's first moves: {arrows}");
    shot(&a, "arrows-analysis-desktop.png").await;
    click(&a, "#engine-toggle").await;
    wait_text(&a, "#engine-status", "stopped").await;

    // The hex board draws them too.
    css(&a, "#board-choice").await.select_by_value("hex").await.unwrap();
    css(&a, "svg.board.hex").await;
    click(&a, "#engine-toggle").await;
    css(&a, "svg.board.hex .arrows g.arrow.best").await;
    shot(&a, "arrows-hex-desktop.png").await;
    click(&a, "#engine-toggle").await;

    // A reviewed game: after the blunder, the move the engine preferred.
    let b = launch(&driver_url, &tmp.join("b"), "en-US", Window::Desktop(1280, 900)).await;
    register_quick(&b, &url, "target").await;
    let moves = ["h2e2", "b9c7", "h0g2", "a9a8", "i0h0", "h7h3", "h0h3", "i6i5"];
    let game = finished_game(&a, &b, "target", &moves).await;
    a.goto(&format!("{url}#/game/{game}")).await.unwrap();
    click(&a, "#review-request").await;
    let mut review = Value::Null;
    for _ in 0..960 {
        review = api(&a, "GET", &format!("/games/{game}/review"), Value::Null).await;
        if review["body"]["review"]["status"] == "done" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let blunder = &review["body"]["review"]["moves"][5];
    assert_eq!(blunder["class"], "blunder", "{review}");
    let preferred = blunder["best"]["iccs"].as_str().unwrap().to_string();
    css(&a, "#eval-graph .graph-point[data-ply='6']").await;
    click(&a, "#eval-graph .graph-point[data-ply='6']").await;
    css(&a, &format!("svg.board .arrows g.arrow.better[data-arrow={preferred}]")).await;
    // A good move has none.
    click(&a, "#eval-graph .graph-point[data-ply='1']").await;
    wait_text(&a, "#last-move", "after move 1 (Red)").await;
    assert_eq!(count(&a, "svg.board .arrows g.arrow").await, 0, "no arrow after a good move");
    click(&a, "#eval-graph .graph-point[data-ply='6']").await;
    css(&a, "svg.board .arrows g.arrow.better").await;
    a.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
    shot(&a, "arrows-review-desktop.png").await;

    // A phone.
    let p = launch(&driver_url, &tmp.join("p"), "en-US", Window::Phone(390, 844)).await;
    register_quick(&p, &url, "quiver").await;
    p.goto(&format!("{url}#/analysis/standard/{fen}")).await.unwrap();
    click(&p, "#engine-toggle").await;
    evaluation(&p, 4).await;
    css(&p, "svg.board .arrows g.arrow.best").await;
    shot(&p, "arrows-analysis-phone.png").await;
    click(&p, "#engine-toggle").await;
    p.goto(&format!("{url}#/game/{game}")).await.unwrap();
    css(&p, "#eval-graph .graph-point[data-ply='6']").await;
    click(&p, "#eval-graph .graph-point[data-ply='6']").await;
    css(&p, &format!("svg.board .arrows g.arrow.better[data-arrow={preferred}]")).await;
    p.execute("document.querySelector('svg.board').scrollIntoView({ block: 'start' });", vec![])
        .await
        .unwrap();
    shot(&p, "arrows-review-phone.png").await;

    for c in [a, b, p] {
        c.close().await.unwrap();
    }
    server.stop().await;
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Every soldier on a bank of the river, both sides.
const BANKS: &str = "rnbakabnr/9/1c5c1/9/p1p1p1p1p/P1P1P1P1P/9/1C5C1/9/RNBAKABNR w - - 0 1";

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn the_river_s_letters_lie_under_no_piece() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-river-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    // Every point of both banks, found from the soldiers standing on the even
    // files; a piece's disc around each; no letter's em square (where a Chinese
    // glyph is drawn) may reach into one.
    let clear = "const discs = [...document.querySelectorAll('svg.board g.piece circle.disc')];\
        const r = Number(discs[0].getAttribute('r'));\
        const at = discs.map((d) => [Number(d.getAttribute('cx')), Number(d.getAttribute('cy'))]);\
        const ys = [...new Set(at.map((p) => p[1]))].sort((a, b) => a - b);\
        const banks = [ys[3], ys[4]];\
        const xs = at.filter((p) => p[1] === banks[0]).map((p) => p[0]).sort((a, b) => a - b);\
        const step = (xs[4] - xs[0]) / 8;\
        const letters = [...document.querySelectorAll('svg.board text.river')];\
        if (letters.length !== 4 || xs.length !== 5) return 'the board: ' + letters.length + ' letters, ' + xs.length + ' soldiers a bank';\
        for (const text of letters) {\
          const size = parseFloat(getComputedStyle(text).fontSize);\
          const b = { x: Number(text.getAttribute('x')) - size / 2, y: Number(text.getAttribute('y')) - size / 2, width: size, height: size };\
          for (const y of banks) for (let f = 0; f <= 8; f++) {\
            const x = xs[0] + f * step;\
            const dx = Math.max(b.x - x, 0, x - (b.x + b.width)), dy = Math.max(b.y - y, 0, y - (b.y + b.height));\
            if (Math.hypot(dx, dy) < r) return text.textContent + ' lies under the piece at ' + [f, y];\
          }\
        }\
        return 'clear';";
    for (window, size) in [(Window::Desktop(1280, 800), "desktop"), (Window::Phone(390, 844), "phone")] {
        let c = launch(&driver_url, &tmp.join(size), "zh-CN", window).await;
        c.goto(&format!("{url}#/analysis/standard/{}", BANKS.replace(' ', "%20"))).await.unwrap();
        css(&c, "svg.board g.piece").await;
        until(
            &c,
            "every soldier drawn",
            "return document.querySelectorAll('svg.board g.piece').length === 32;",
        )
        .await;
        assert_eq!(c.execute(clear, vec![]).await.unwrap(), json!("clear"), "at {size} size");
        shot(&c, &format!("analysis-river-{size}.png")).await;
        c.close().await.ok();
    }
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}
