//! Puzzles in headless Chromium: one solved move by move (the opponent's
//! answers played for the solver), one failed after a hint with the solution
//! shown, a timed streak solved once and then missed, the day's puzzle from
//! the main screen on a phone in Chinese, and the puzzle card of a profile.
//! Screenshots at 1280x800 and 390x844 go to `$XIANGQI_ARTIFACTS` (default
//! `target/artifacts`) as `puzzles-*.png`.
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER` (outside CI, without it the test says so
//! and does nothing).

mod browsing;

use browsing::{
    Window, chromedriver, click, count, css, launch, play_move, register_quick, shot, shots_at_both_sizes,
    start_driver, wait_text,
};
use fantoccini::Client;
use xiangqi::Variant;
use xiangqi_server::model::puzzles::NewPuzzle;
use xiangqi_server::{
    model::puzzles::{Handout, Origin, PuzzleTheme},
    store::Store,
};

/// The finder's mate in three: black's horse shuts its general in.
const MATE: (&str, &[&str]) =
    ("5k3/6n2/9/9/9/9/2r6/4K4/3R5/9 b", &["g8e9", "d1f1", "c3f3", "f1f3", "e9f7", "f3f7"]);
/// Black's chariot steps in front of red's, which takes it.
const CAPTURE: (&str, &[&str]) = ("4k4/9/9/9/9/9/2r6/9/3R5/3K5 b", &["c3d3", "d1d3"]);

/// The id of the puzzle on the page (its link).
async fn shown_puzzle(c: &Client) -> String {
    css(c, ".puzzle-info a[href^='#/puzzles/p/']").await;
    let script =
        "return document.querySelector(\".puzzle-info a[href^='#/puzzles/p/']\").getAttribute('href');";
    let href = c.execute(script, vec![]).await.unwrap();
    href.as_str().unwrap().trim_start_matches("#/puzzles/p/").to_string()
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn puzzles_are_solved_failed_streaked_and_found_on_the_main_screen() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-puzzles-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let store = Store::open(&db).await.unwrap();
    let lines = [MATE, CAPTURE, CAPTURE, MATE, CAPTURE, CAPTURE];
    let rows: Vec<NewPuzzle> = lines
        .iter()
        .enumerate()
        .map(|(i, (fen, moves))| NewPuzzle {
            id: format!("puzzle{i}"),
            variant: Variant::Standard,
            fen: fen.to_string(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            key: 1000 + i as u64,
            themes: if moves.len() > 2 {
                vec![PuzzleTheme::MateIn3, PuzzleTheme::FlyingGeneral, PuzzleTheme::Endgame]
            } else {
                vec![PuzzleTheme::Capture, PuzzleTheme::Endgame]
            },
            mate: moves.len() > 2,
            origin: Origin::Engine,
            rating: 1200.0 + 100.0 * i as f64,
            created_ms: 0,
        })
        .collect();
    store.insert_puzzles(&rows).await.unwrap();
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;

    // Solved move by move: each right move is answered on the board.
    let a = launch(&driver_url, &tmp.join("a"), "en-US", Window::Desktop(1280, 900)).await;
    register_quick(&a, &url, "solver").await;
    // As `/puzzles/next` would: only a puzzle the site handed its solver is rated.
    store.hand_out("solver", Handout::Next, Variant::Standard, "puzzle0", "127.0.0.1", 0).await.unwrap();
    a.goto(&format!("{url}#/puzzles/p/puzzle0")).await.unwrap();
    wait_text(&a, ".puzzle-status", "Red to move: find the winning move (3 moves to find)").await;
    wait_text(&a, ".puzzle-themes", "Mate in 3").await;
    css(&a, "g.piece[data-cell=e9][data-piece=n]").await;
    play_move(&a, "d1", "f1").await;
    css(&a, "g.piece[data-cell=f3][data-piece=r]").await;
    play_move(&a, "f1", "f3").await;
    css(&a, "g.piece[data-cell=f7][data-piece=n]").await;
    shot(&a, "puzzles-progress-desktop.png").await;
    play_move(&a, "f3", "f7").await;
    wait_text(&a, ".puzzle-status", "Solved!").await;
    wait_text(&a, ".puzzle-after", "Your puzzle rating: 1500 →").await;
    css(&a, "circle.mated").await;
    shots_at_both_sizes(&a, "puzzles", "solved").await;

    // A hint marks the piece; a wrong move shows the solution, and the attempt is not rated.
    click(&a, ".puzzle-after button").await;
    let next = shown_puzzle(&a).await;
    assert_ne!(next, "puzzle0", "the next puzzle is one not tried");
    a.goto(&format!("{url}#/puzzles/p/puzzle1")).await.unwrap();
    wait_text(&a, ".puzzle-status", "find the winning move").await;
    click(&a, ".puzzle-controls button").await;
    css(&a, "circle.hint[data-dot=d1]").await;
    wait_text(&a, ".puzzle-status", "Move the marked piece").await;
    play_move(&a, "d1", "d2").await;
    wait_text(&a, ".puzzle-status", "Not the move").await;
    wait_text(&a, ".puzzle-after", "Not rated").await;
    let solution = css(&a, ".puzzle-solution").await.text().await.unwrap();
    assert!(
        solution.contains("R6+2") || solution.contains("d1d3"),
        "the solution in the chosen notation: {solution}"
    );
    shots_at_both_sizes(&a, "puzzles", "failed").await;

    // With the keyboard alone: the cursor starts on the general; up to the
    // chariot, pick it up, up twice, put it down.
    a.goto(&format!("{url}#/puzzles/p/puzzle2")).await.unwrap();
    wait_text(&a, ".puzzle-status", "find the winning move").await;
    css(&a, "svg.board:focus").await;
    for key in ["\u{E013}", "\u{E007}", "\u{E013}", "\u{E013}", "\u{E007}"] {
        a.active_element().await.unwrap().send_keys(key).await.unwrap();
    }
    wait_text(&a, ".puzzle-status", "Solved!").await;

    // A timed streak: it waits for Start (its clock starts there, not on
    // arrival); then solve one, miss the next.
    a.goto(&format!("{url}#/puzzles/streak")).await.unwrap();
    css(&a, "#streak-start").await;
    assert_eq!(count(&a, ".puzzle-clock").await, 0, "no clock before Start");
    shots_at_both_sizes(&a, "puzzles", "streak-start").await;
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    click(&a, "#streak-start").await;
    let left = wait_text(&a, ".puzzle-clock", "s left").await;
    let seconds: i64 = left.split_whitespace().next().unwrap().parse().unwrap();
    assert!(seconds >= 179, "the clock started at Start, 3 s after arrival: {left}");
    wait_text(&a, ".puzzle-status", "find the winning move").await;
    let first = shown_puzzle(&a).await;
    let line = store.puzzle(&first).await.unwrap().unwrap().moves;
    for (i, m) in line.iter().enumerate().skip(1).step_by(2) {
        if i > 1 {
            css(&a, &format!("g.piece[data-cell={}]", &line[i - 1][2..])).await;
        }
        play_move(&a, &m[..2], &m[2..]).await;
    }
    wait_text(&a, ".puzzle-streak", "Solved in this streak: 1").await;
    for _ in 0..40 {
        if shown_puzzle(&a).await != first {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    wait_text(&a, ".puzzle-status", "find the winning move").await;
    shots_at_both_sizes(&a, "puzzles", "streak").await;
    play_move(&a, "d1", "d2").await;
    wait_text(&a, ".puzzle-status", "The streak is over: 1 solved").await;

    // The profile's puzzle card.
    a.goto(&format!("{url}#/user/solver")).await.unwrap();
    wait_text(&a, "main", "best streak 1").await;
    shots_at_both_sizes(&a, "puzzles", "profile").await;

    // A visitor on a phone, in Chinese: the day's puzzle on the main screen.
    let b = launch(&driver_url, &tmp.join("b"), "zh-CN", Window::Phone(390, 844)).await;
    b.goto(&url).await.unwrap();
    wait_text(&b, ".daily-puzzle", "每日一题").await;
    shot(&b, "puzzles-daily-home-phone.png").await;
    click(&b, ".daily-puzzle a.button-link").await;
    wait_text(&b, ".puzzle-status", "找出制胜的一着").await;
    shot(&b, "puzzles-daily-phone.png").await;
    let fits = b.execute("return document.documentElement.scrollWidth <= innerWidth;", vec![]).await.unwrap();
    assert_eq!(fits, serde_json::json!(true), "the puzzle page fits a phone");

    a.close().await.unwrap();
    b.close().await.unwrap();
    server.stop().await;
    let _ = std::fs::remove_dir_all(&tmp);
}
