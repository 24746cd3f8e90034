//! Tournaments in headless Chromium: Ann creates a three-player round-robin
//! with the page's form (through the menu's Compete group) and signs up; Bob
//! finds it in the list and signs up; Cat's entry fills it and it starts by
//! itself. Bob's page offers his round-1 game; he plays a move on the board,
//! Cat resigns, and the tournament page shows Bob first in the standings and
//! the crosstable, with round 2 begun. The pages fit a phone without sideways
//! scrolling; screenshots (`tournament-*.png`) go to `$XIANGQI_ARTIFACTS`
//! (default `target/artifacts`).
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER` (outside CI, without it the test says so and
//! does nothing).

mod browsing;

use browsing::{
    Window, api, chromedriver, click, css, launch, register_quick, shots_at_both_sizes, start_driver, until,
    wait_text,
};
use fantoccini::Client;
use serde_json::{Value, json};

async fn browser(driver_url: &str, profile: &std::path::Path) -> Client {
    launch(driver_url, profile, "en-US", Window::Desktop(1280, 800)).await
}

/// Shoots the page at desktop and phone size; on the phone it must not scroll sideways.
async fn shots(c: &Client, name: &str) {
    shots_at_both_sizes(c, "tournament", name).await;
}

async fn fill(c: &Client, selector: &str, text: &str) {
    let input = css(c, selector).await;
    input.clear().await.unwrap();
    input.send_keys(text).await.unwrap();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn players_sign_up_play_their_game_and_see_the_standings() {
    let chromedriver = chromedriver();
    let tmp = std::env::temp_dir().join(format!("xiangqi-tournaments-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&db)).await.unwrap();
    let url = format!("{}/", server.url());
    let (_driver, driver_url) = start_driver(&chromedriver).await;
    let ann = browser(&driver_url, &tmp.join("ann")).await;
    let bob = browser(&driver_url, &tmp.join("bob")).await;

    // A visitor reads the list but is asked to log in to take part.
    ann.goto(&format!("{url}#/tournaments")).await.unwrap();
    wait_text(&ann, "main h1", "Tournaments").await;
    wait_text(&ann, "[data-shelf=upcoming]", "No tournament is taking entries").await;
    wait_text(&ann, "main", "Log in to create tournaments").await;

    // Ann creates a round-robin for three with the form, reached from the menu.
    register_quick(&ann, &url, "tourann").await;
    register_quick(&bob, &url, "tourbob").await;
    click(&ann, "#people-menu summary").await;
    click(&ann, "#people-menu a[href='#/tournaments']").await;
    wait_text(&ann, "#new-tournament h2", "Create a tournament").await;
    fill(&ann, "#new-tournament input[name=name]", "Evening cup").await;
    let kinds = css(&ann, "#new-tournament select[name=time]").await.text().await.unwrap();
    assert!(kinds.contains("Main · 2 days/move") && kinds.contains("Fast · 28 hours/move"), "{kinds}");
    css(&ann, "#new-tournament input[name=rounds]").await;
    assert!(
        !css(&ann, "#new-tournament input[name=starts]").await.is_displayed().await.unwrap(),
        "when full by default"
    );
    click(&ann, "#new-tournament select[name=format] option[value=round_robin]").await;
    let rounds = css(&ann, "#new-tournament input[name=rounds]").await;
    assert!(!rounds.is_displayed().await.unwrap(), "a round-robin's rounds follow from its players");
    fill(&ann, "#new-tournament input[name=min_players]", "3").await;
    fill(&ann, "#new-tournament input[name=max_players]", "3").await;
    shots(&ann, "create").await;
    click(&ann, "#new-tournament button[type=submit]").await;
    until(&ann, "the new tournament opens", "return location.hash.startsWith('#/tournament/');").await;
    let hash = ann.current_url().await.unwrap().fragment().unwrap_or_default().to_string();
    let id = hash.trim_start_matches("/tournament/").to_string();
    wait_text(&ann, "main h1", "Evening cup").await;
    wait_text(&ann, ".tournament-facts", "Round-robin").await;
    wait_text(&ann, ".tournament-facts", "starts when full").await;
    click(&ann, "button[data-action=join]").await;
    wait_text(&ann, "#message", "You are signed up for Evening cup.").await;
    css(&ann, "li.entrant[data-user=tourann]").await;

    // Bob finds it among those taking entries and signs up.
    bob.goto(&format!("{url}#/tournaments")).await.unwrap();
    click(&bob, &format!("[data-shelf=upcoming] li[data-tournament='{id}'] a")).await;
    wait_text(&bob, ".tournament-facts", "1 signed up (3 to 3)").await;
    click(&bob, "button[data-action=join]").await;
    css(&bob, "li.entrant[data-user=tourbob]").await;
    // Ann's page hears of it.
    css(&ann, "li.entrant[data-user=tourbob]").await;
    shots(&bob, "signed-up").await;

    // Cat's entry fills it: it starts at once, and both pages redraw by themselves.
    let cat = browser(&driver_url, &tmp.join("cat")).await;
    register_quick(&cat, &url, "tourcat").await;
    let r = api(&cat, "POST", &format!("/tournaments/{id}/join"), json!({})).await;
    assert_eq!(r["status"], 201, "{r}");
    wait_text(&bob, ".tournament-facts", "round 1 of 3").await;
    // Ann is seeded first and rests in round 1 of the Berger table; Bob plays Cat.
    wait_text(&ann, ".tournament-standing", "You have no game this round.").await;
    wait_text(&bob, "section.round.current li.board", "tourcat").await;
    shots(&bob, "started").await;
    click(&bob, "a[data-action=play]").await;
    until(&bob, "the game opens", "return location.hash.startsWith('#/game/');").await;
    wait_text(&bob, "a[data-action=tournament]", "Tournament, round 1").await;
    css(&bob, "g.piece[data-cell=h2]").await.click().await.unwrap();
    css(&bob, "circle.target[data-target=e2]").await.click().await.unwrap();
    css(&bob, "#submit").await.click().await.unwrap();
    let game = bob
        .current_url()
        .await
        .unwrap()
        .fragment()
        .unwrap_or_default()
        .trim_start_matches("/game/")
        .to_string();
    until(&bob, "the move is sent", "return !!document.querySelector('rect.last[data-cell=e2]');").await;
    shots(&bob, "game").await;
    let r = api(&cat, "POST", &format!("/games/{game}/resign"), Value::Null).await;
    assert_eq!(r["status"], 200, "{r}");
    wait_text(&bob, "#status", "Red wins: resignation").await;

    // Back to the tournament from the game: Bob leads, round 2 is on.
    click(&bob, "a[data-action=tournament]").await;
    wait_text(&bob, ".tournament-facts", "round 2 of 3").await;
    let first = wait_text(&bob, "table.standings tbody tr:first-child", "tourbob").await;
    assert!(first.contains('1'), "{first}");
    wait_text(&bob, "table.standings thead", "S-B").await;
    let cross = wait_text(&bob, "table.crosstable tr[data-user=tourbob]", "tourbob").await;
    assert!(cross.contains('1') && cross.contains('■'), "{cross}");
    css(&bob, &format!("table.crosstable a[href='#/game/{game}']")).await;
    wait_text(&bob, "section.round[data-round='1'] li.board", "1–0").await;
    css(&bob, "section.round.current[data-round='2']").await;
    wait_text(&ann, ".tournament-standing", "Play your game").await;
    shots(&bob, "standings").await;
    bob.execute("document.querySelector('table.crosstable').scrollIntoView();", vec![]).await.unwrap();
    shots(&bob, "crosstable").await;

    // The list shows it among those being played.
    ann.goto(&format!("{url}#/tournaments")).await.unwrap();
    wait_text(&ann, &format!("[data-shelf=running] li[data-tournament='{id}']"), "round 2 of 3").await;
    shots(&ann, "list").await;

    // In Chinese.
    bob.execute("localStorage.setItem('xiangqi.lang', 'zh');", vec![]).await.unwrap();
    bob.refresh().await.unwrap();
    wait_text(&bob, ".tournament-facts", "第 2 轮，共 3 轮").await;
    wait_text(&bob, "main", "成绩表").await;
    shots(&bob, "zh").await;

    for c in [ann, bob, cat] {
        c.close().await.unwrap();
    }
    server.stop().await;
    let _ = std::fs::remove_dir_all(&tmp);
}
