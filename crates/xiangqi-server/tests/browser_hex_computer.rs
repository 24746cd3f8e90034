//! Xiang Hex between two people and a game against the computer, in headless
//! Chromium, with screenshots of both boards at desktop and phone sizes.

mod browsing;

use browsing::{
    Window, api, chromedriver, click, click_cell, click_target, css, launch, register_quick, shot,
    start_driver, wait_text,
};
use fantoccini::Client;
use serde_json::json;

async fn ply(c: &Client, id: &str) -> i64 {
    api(c, "GET", &format!("/games/{id}"), json!(null)).await["body"]["game"]["ply"].as_i64().unwrap()
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn two_people_play_hex_with_click_then_submit_and_see_each_move_live() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-hex-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let a = launch(&driver_url, &tmp.join("a"), "en-US", Window::Desktop(1280, 800)).await;
    let b = launch(&driver_url, &tmp.join("b"), "en-US", Window::Phone(390, 844)).await;
    register_quick(&a, &url, "hexred").await;
    register_quick(&b, &url, "hexblack").await;

    // Red posts a hex challenge from the new-game page; Black takes it in the waiting room.
    a.goto(&format!("{url}#/new")).await.unwrap();
    let form = "section:first-of-type form";
    css(&a, &format!("{form} select[name=rules]")).await.select_by_value("hex").await.unwrap();
    css(&a, &format!("{form} select[name=color]")).await.select_by_value("red").await.unwrap();
    click(&a, &format!("{form} button[type=submit]")).await;
    b.goto(&format!("{url}#/room")).await.unwrap();
    click(&b, "li.challenge button").await;
    css(&b, "svg.board polygon.hex").await;
    let id = b.current_url().await.unwrap().fragment().unwrap().trim_start_matches("/game/").to_string();
    a.goto(&format!("{url}#/game/{id}")).await.unwrap();
    css(&a, "svg.board g.piece.movable").await;
    assert_eq!(browsing::count(&a, "svg.board polygon.hex").await, 79, "the hex board's cells");

    // Red's horse: choose it, see its targets, choose one, submit; Black sees it at once.
    click_cell(&a, "b1").await;
    assert!(browsing::count(&a, "circle.target").await >= 1, "the horse's targets are shown");
    click_target(&a, "d4").await;
    click(&a, "#submit").await;
    css(&b, "g.piece[data-cell=d4]").await;
    wait_text(&b, "#status", "Your move").await;
    assert_eq!(ply(&a, &id).await, 1);

    // Black answers by touch on the phone; Red sees it live, and the move list names cells.
    click_cell(&b, "b8").await;
    click_target(&b, "d7").await;
    click(&b, "#submit").await;
    css(&a, "g.piece[data-cell=d7]").await;
    wait_text(&a, "#status", "Your move").await;
    wait_text(&a, ".moves", "b8-d7").await;
    shot(&a, "hex-game-red-desktop.png").await;
    shot(&b, "hex-game-black-phone.png").await;

    a.close().await.ok();
    b.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn a_person_plays_the_computer_from_the_new_game_page() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-cpu-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    for (window, name, lang) in
        [(Window::Desktop(1280, 800), "desktop", "en-US"), (Window::Phone(390, 844), "phone", "zh-CN")]
    {
        let c = launch(&driver_url, &tmp.join(name), lang, window).await;
        register_quick(&c, &url, &format!("cpu{name}")).await;
        c.goto(&format!("{url}#/new")).await.unwrap();
        let form = "#computer form";
        // Every level states its measured strength.
        css(&c, &format!("{form} select[name=level] option[value='8']")).await;
        assert_eq!(browsing::count(&c, &format!("{form} select[name=level] option")).await, 8);
        css(&c, &format!("{form} select[name=level]")).await.select_by_value("1").await.unwrap();
        css(&c, &format!("{form} select[name=color]")).await.select_by_value("red").await.unwrap();
        shot(&c, &format!("computer-form-{name}.png")).await;
        click(&c, &format!("{form} button[type=submit]")).await;
        css(&c, "svg.board g.piece.movable").await;
        let computer = if lang == "zh-CN" { "电脑 · 1级" } else { "Computer · level 1" };
        wait_text(&c, ".player-top", computer).await;

        click_cell(&c, "h2").await;
        click_target(&c, "e2").await;
        click(&c, "#submit").await;
        // The computer answers by itself; the page shows its move live.
        let mine = if lang == "zh-CN" { "轮到你走" } else { "Your move" };
        wait_text(&c, "#status", mine).await;
        let id = c.current_url().await.unwrap().fragment().unwrap().trim_start_matches("/game/").to_string();
        assert_eq!(ply(&c, &id).await, 2, "the computer has answered");
        // Nobody to talk to: no chat, no private message to the computer.
        assert_eq!(browsing::count(&c, ".chat").await, 0, "no chat with the computer");
        assert_eq!(browsing::count(&c, "main a[href^='#/send']").await, 0, "no message to the computer");
        shot(&c, &format!("computer-game-{name}.png")).await;
        // Its profile offers no message or challenge either.
        c.goto(&format!("{url}#/user/computer.1")).await.unwrap();
        css(&c, "main .facts").await;
        assert_eq!(browsing::count(&c, "main .actions").await, 0, "no actions on the computer's profile");
        c.close().await.ok();
    }
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}

/// The cells an ICCS move goes from and to ("h2e2" -> "h2", "e2"; hex cells go to 11).
fn cells(iccs: &str) -> (String, String) {
    let split = iccs[1..].find(|c: char| c.is_ascii_alphabetic()).unwrap() + 1;
    (iccs[..split].to_string(), iccs[split..].to_string())
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn every_reply_of_the_computer_appears_without_a_reload() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-cpu-replies-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let c = launch(&driver_url, &tmp.join("a"), "en-US", Window::Desktop(1280, 800)).await;
    register_quick(&c, &url, "replies").await;

    // New game, play the computer: level 1, Asian rules, red, a day a move.
    c.goto(&format!("{url}#/new")).await.unwrap();
    let form = "#computer form";
    css(&c, &format!("{form} select[name=level] option[value='1']")).await;
    css(&c, &format!("{form} select[name=level]")).await.select_by_value("1").await.unwrap();
    css(&c, &format!("{form} select[name=rules]")).await.select_by_value("asian").await.unwrap();
    css(&c, &format!("{form} select[name=color]")).await.select_by_value("red").await.unwrap();
    css(&c, &format!("{form} select[name=time]")).await.select_by_value("c24").await.unwrap();
    click(&c, &format!("{form} button[type=submit]")).await;
    css(&c, "svg.board g.piece.movable").await;
    let id = c.current_url().await.unwrap().fragment().unwrap().trim_start_matches("/game/").to_string();
    // A slow network: the answer to a move arrives well after the socket has
    // brought the computer's reply (as it does on a distant server with a quick level).
    let slow = "const plain = window.fetch;\
        window.fetch = async (url, init) => {\
          const answer = await plain(url, init);\
          if (init && init.method === 'POST' && String(url).endsWith('/moves')) {\
            await new Promise((r) => setTimeout(r, 2000));\
            window.slowAnswers = (window.slowAnswers || 0) + 1;\
          }\
          return answer;\
        };";
    c.execute(slow, vec![]).await.unwrap();

    // Quiet developing moves while they are legal, else the first legal move.
    let wanted = ["h2e2", "h0g2", "b0c2", "i0h0", "a0b0", "g3g4", "c3c4", "b2b4", "h0h4", "b0b4"];
    for round in 0..8 {
        let state = api(&c, "GET", &format!("/games/{id}"), json!(null)).await["body"]["game"].clone();
        if state["status"] != "active" {
            break;
        }
        assert_eq!(state["ply"], round * 2, "the page offers a move only once the computer has answered");
        let legal: Vec<String> =
            state["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
        let mine =
            wanted.iter().find(|m| legal.iter().any(|l| l == *m)).map_or(legal[0].clone(), |m| m.to_string());
        let (from, to) = cells(&mine);
        click_cell(&c, &from).await;
        click_target(&c, &to).await;
        click(&c, "#submit").await;

        // The server answers; the page shows that reply by itself, and the board is movable again.
        let mut reply = None;
        for _ in 0..120 {
            let now = api(&c, "GET", &format!("/games/{id}"), json!(null)).await["body"]["game"].clone();
            if now["ply"] == round * 2 + 2 || now["status"] != "active" {
                reply = Some(now);
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        }
        let reply = reply.expect("the computer replies");
        if reply["status"] != "active" {
            break;
        }
        let last = reply["last_move"].as_str().unwrap().to_string();
        let (_, landed) = cells(&last);
        css(&c, &format!("rect.last[data-cell={landed}]")).await;
        // Still there once the slow answer to my move has come in after it.
        for _ in 0..100 {
            let answered = c.execute("return window.slowAnswers || 0;", vec![]).await.unwrap();
            if answered.as_i64() >= Some(round + 1) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        // The page has had a moment to handle the answer it was given.
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        let status = css(&c, "#status").await.text().await.unwrap();
        assert!(status.contains("Your move"), "move {}: the page says {status:?}", round + 1);
        assert_eq!(
            browsing::count(&c, &format!("rect.last[data-cell={landed}]")).await,
            1,
            "the reply {last}"
        );
        assert!(browsing::count(&c, "svg.board g.piece.movable").await > 0, "my pieces move again");
    }
    shot(&c, "computer-replies.png").await;
    c.close().await.ok();
    server.stop().await;
    std::fs::remove_dir_all(&tmp).ok();
}
