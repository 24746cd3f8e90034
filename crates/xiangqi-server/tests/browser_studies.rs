//! Studies in headless Chromium: Ann starts a public study from the list page
//! (reached through the menu), plays the central cannon on its board and
//! invites Bob to edit; Bob, on his own page, answers with a horse move, which
//! Ann's page shows at once; Ann comments on it and draws an arrow in the
//! drawing mode (the keyboard and touch way), which Bob's page shows at once
//! too. The pages fit a phone without sideways scrolling; screenshots
//! (`study-*.png`) go to `$XIANGQI_ARTIFACTS` (default `target/artifacts`).
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER` (outside CI, without it the test says so and
//! does nothing).

mod browsing;

use browsing::{
    Window, chromedriver, click, click_cell, click_target, css, launch, register_quick, scroll_to, shot,
    shots_at_both_sizes, start_driver, until, wait_text,
};
use fantoccini::Client;

async fn fill(c: &Client, selector: &str, text: &str) {
    let input = css(c, selector).await;
    input.clear().await.unwrap();
    input.send_keys(text).await.unwrap();
}

#[tokio::test]
#[ignore = "needs chromedriver and chromium"]
async fn two_members_edit_a_study_and_each_sees_the_other_live() {
    let Some(chromedriver) = chromedriver() else { return };
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

    // Bob opens the study, goes to the cannon's move and answers with a horse.
    bob.goto(&address).await.unwrap();
    wait_text(&bob, "main h1", "Central cannon").await;
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

    // Bob's page shows both at once, where he stands.
    css(&bob, "g.arrow.green[data-arrow=g7g3]").await;
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
