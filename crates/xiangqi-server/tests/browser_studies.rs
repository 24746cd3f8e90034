//! Studies in headless Chromium: Ann starts a public study from the list page
//! (reached through the menu), plays the central cannon on its board and
//! invites Bob to edit; Bob, told on the page he has open, answers with a horse move, which
//! Ann's page shows at once; Ann comments on it and draws an arrow in the
//! drawing mode (the keyboard and touch way) and with the right mouse button,
//! and marks a point, which Bob's page shows at once too. The pages fit a phone without sideways scrolling; screenshots
//! (`study-*.png`) go to `$XIANGQI_ARTIFACTS` (default `target/artifacts`).
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER` (outside CI, without it the test says so and
//! does nothing).

mod browsing;

use browsing::{
    Window, chromedriver, click, click_cell, click_target, css, launch, register_quick, scroll_to, shot,
    shots_at_both_sizes, start_driver, until, wait_text,
};
use fantoccini::{
    Client,
    actions::{InputSource, MOUSE_BUTTON_RIGHT, MouseActions, PointerAction},
};

async fn fill(c: &Client, selector: &str, text: &str) {
    let input = css(c, selector).await;
    input.clear().await.unwrap();
    input.send_keys(text).await.unwrap();
}

/// Drags with the right mouse button from one piece's point to another's
/// (the same piece: a right click on it).
async fn right_drag(c: &Client, from: &str, to: &str) {
    let a = css(c, &format!("g.piece[data-cell={from}]")).await;
    let b = css(c, &format!("g.piece[data-cell={to}]")).await;
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement { element: a, duration: None, x: 0.0, y: 0.0 })
        .then(PointerAction::Down { button: MOUSE_BUTTON_RIGHT })
        .then(PointerAction::MoveToElement {
            element: b,
            duration: Some(std::time::Duration::from_millis(150)),
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Up { button: MOUSE_BUTTON_RIGHT });
    c.perform_actions(mouse).await.unwrap();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn two_members_edit_a_study_and_each_sees_the_other_live() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-studies-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let ann = launch(&driver_url, &tmp.join("ann"), "en-US", Window::Desktop(1280, 800)).await;
    let bob = launch(&driver_url, &tmp.join("bob"), "en-US", Window::Desktop(1280, 800)).await;

    // A visitor sees the list and is asked to log in to start one.
    ann.goto(&format!("{url}#/studies")).await.unwrap();
    wait_text(&ann, "main h1", "Studies").await;
    wait_text(&ann, "main", "Log in to start studies").await;

    // Ann starts a public study from the list page, reached from the menu.
    register_quick(&ann, &url, "studyann").await;
    register_quick(&bob, &url, "studybob").await;
    click(&ann, "#people-menu summary").await;
    click(&ann, "#people-menu a[href='#/studies']").await;
    wait_text(&ann, "#new-study", "Create").await;
    fill(&ann, "#new-study input[name=title]", "Central cannon").await;
    css(&ann, "#new-study select[name=visibility] option[value=public]").await.click().await.unwrap();
    click(&ann, "#new-study button[type=submit]").await;
    wait_text(&ann, "main h1", "Central cannon").await;
    let address = ann.current_url().await.unwrap().to_string();
    assert!(address.contains("#/study/"), "{address}");

    // She plays the central cannon on the board and invites Bob to edit.
    wait_text(&ann, "#study-status", "Red to move").await;
    click_cell(&ann, "h2").await;
    click_target(&ann, "e2").await;
    css(&ann, "#study-tree button.node.current[data-move=h2e2]").await;
    fill(&ann, "#invite input[name=name]", "studybob").await;
    css(&ann, "#invite select[name=role] option[value=edit]").await.click().await.unwrap();
    click(&ann, "#invite button[type=submit]").await;
    wait_text(&ann, "#members", "studybob").await;

    // Bob is told on the page he has open, and follows the notice's link.
    wait_text(&bob, "#message", "studyann invited you to a study.").await;
    shots_at_both_sizes(&bob, "study", "invited").await;
    click(&bob, "#message a[href^='#/study/']").await;
    wait_text(&bob, "main h1", "Central cannon").await;
    assert_eq!(bob.current_url().await.unwrap().to_string(), address);
    // He goes to the cannon's move and answers with a horse.
    click(&bob, "#nav-last").await;
    wait_text(&bob, "#study-status", "Black to move").await;
    click_cell(&bob, "h9").await;
    click_target(&bob, "g7").await;
    css(&bob, "#study-tree button.node.current[data-move=h9g7]").await;
    // Ann sees it without reloading.
    css(&ann, "#study-tree button.node[data-move=h9g7]").await;
    wait_text(&ann, "#study-version", "version 4").await;

    // Ann comments on the horse's move and draws an arrow with the drawing
    // mode: the horse's point, then the soldier it eyes.
    click(&ann, "#study-tree button.node[data-move=h9g7]").await;
    fill(&ann, "#study-comment", "The screen horse guards the centre.").await;
    click(&ann, "#comment-form button[type=submit]").await;
    wait_text(&ann, "#study-version", "version 5").await;
    click(&ann, "#draw-mode").await;
    click_cell(&ann, "g7").await;
    click_cell(&ann, "g3").await;
    css(&ann, "g.arrow.green[data-arrow=g7g3]").await;
    click(&ann, "#draw-mode").await;
    // And with the mouse: a right drag draws an arrow, a right click marks a
    // point (in the colour chosen).
    right_drag(&ann, "e2", "e6").await;
    css(&ann, "g.arrow.green[data-arrow=e2e6]").await;
    css(&ann, "#brush option[value=red]").await.click().await.unwrap();
    right_drag(&ann, "e6", "e6").await;
    css(&ann, "circle.ring.red[data-ring=e6]").await;

    // Bob's page shows both at once, where he stands.
    css(&bob, "g.arrow.green[data-arrow=g7g3]").await;
    css(&bob, "circle.ring.red[data-ring=e6]").await;
    css(&bob, "#study-tree button.node.commented[data-move=h9g7]").await;
    until(
        &bob,
        "the comment arrives",
        "return document.querySelector('#study-comment').value.includes('screen horse');",
    )
    .await;
    // Bob adds a chapter from a game record in traditional Chinese; Ann's
    // chapter list shows it at once.
    css(&bob, "#chapter-kind option[value=pgn]").await.click().await.unwrap();
    fill(
        &bob,
        "#chapter-text",
        "[Red \"胡荣华\"]\n[Black \"杨官璘\"]\n\n1. 炮二平五 馬８進７ 2. 傌二進三 車9平8 *",
    )
    .await;
    click(&bob, "#add-chapter button[type=submit]").await;
    wait_text(&bob, "#chapters button.chapter.current", "胡荣华 – 杨官璘").await;
    until(
        &bob,
        "the record's moves",
        "return document.querySelectorAll('#study-tree button.node[data-move]').length === 4;",
    )
    .await;
    wait_text(&ann, "#chapters", "胡荣华 – 杨官璘").await;
    shots_at_both_sizes(&bob, "study", "record").await;
    click(&bob, "#chapters button.chapter").await;
    shots_at_both_sizes(&ann, "study", "page").await;

    // The engine on the study's board: its score and its best move as an
    // arrow over the study's own, following the node shown.
    click(&ann, "#engine-toggle").await;
    until(&ann, "the engine's depth", "return Number(document.querySelector('#eval').dataset.depth) >= 4;")
        .await;
    css(&ann, "g.arrow.best").await;
    css(&ann, "g.arrow.green[data-arrow=g7g3]").await;
    shots_at_both_sizes(&ann, "study", "engine").await;
    click(&ann, "#nav-first").await;
    until(
        &ann,
        "the engine on the start",
        "return document.querySelector('#study-tree .node.start.current') && Number(document.querySelector('#eval').dataset.depth) >= 4 && !document.querySelector('g.arrow.green');",
    )
    .await;
    click(&ann, "#engine-toggle").await;
    wait_text(&ann, "#engine-toggle", "Start").await;

    // Another answer to the cannon is a variation; Ann makes it the main line,
    // and moves the chapter down the list. Bob's page follows both.
    click(&ann, "#study-tree button.node[data-move=h2e2]").await;
    click_cell(&ann, "b9").await;
    click_target(&ann, "c7").await;
    css(&ann, "#study-tree .variation button.node.current[data-move=b9c7]").await;
    click(&ann, "#main-line").await;
    css(&ann, "#study-tree > button.node.current[data-move=b9c7]").await;
    css(&ann, "#study-tree .variation button.node[data-move=h9g7]").await;
    until(&ann, "no button on the main line", "return document.querySelector('#main-line').hidden;").await;
    click(&ann, "#chapters [data-action=chapter-down]").await;
    wait_text(&ann, "#chapters li:last-child button.chapter", "Chapter 1").await;
    wait_text(&bob, "#chapters li:first-child button.chapter", "胡荣华 – 杨官璘").await;
    wait_text(&bob, "#chapters button.chapter.current", "Chapter 1").await;
    css(&bob, "#study-tree > button.node[data-move=b9c7]").await;
    shots_at_both_sizes(&ann, "study", "main-line").await;

    // A chapter on the hex board: its own board, and a move played on it.
    css(&ann, "#chapter-kind option[value=hex]").await.click().await.unwrap();
    fill(&ann, "#add-chapter input[name=title]", "Xiang Hex").await;
    click(&ann, "#add-chapter button[type=submit]").await;
    wait_text(&ann, "#chapters button.chapter.current", "Xiang Hex").await;
    css(&ann, "svg.board.hex").await;
    wait_text(&ann, "#study-status", "Red to move").await;
    let first = ann
        .execute("return document.querySelector('svg.board g.piece.movable')?.dataset.cell ?? null;", vec![])
        .await
        .unwrap();
    let from = first.as_str().expect("a piece Red can move").to_string();
    click_cell(&ann, &from).await;
    let target = ann
        .execute("return document.querySelector('circle.target')?.dataset.target ?? null;", vec![])
        .await
        .unwrap();
    let to = target.as_str().expect("a target").to_string();
    click_target(&ann, &to).await;
    css(&ann, &format!("#study-tree button.node.current[data-move='{from}{to}']")).await;
    shots_at_both_sizes(&ann, "study", "hex").await;
    shots_at_both_sizes(&bob, "study", "member").await;
    scroll_to(&ann, "#members").await;
    shot(&ann, "study-members-desktop.png").await;
    ann.goto(&format!("{url}#/studies")).await.unwrap();
    wait_text(&ann, ".studies-mine", "Central cannon").await;
    shots_at_both_sizes(&ann, "study", "list").await;

    ann.close().await.unwrap();
    bob.close().await.unwrap();
    server.stop().await;
}
