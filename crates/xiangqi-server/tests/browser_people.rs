//! The site's people in real (headless Chromium) browsers: two users message
//! each other and watch the unread badge change live; players chat beside the
//! board while a spectator only reads; a buddy comes first on Who is here?; an
//! ignored user's challenge is refused with the server's reason; markup typed
//! in a message, a chat line or a bio shows as those characters; an invitation
//! link registers a friend. Every page is shot at desktop (1280x800) and phone
//! (390x844) size under `$XIANGQI_ARTIFACTS` (default `target/artifacts`) and
//! must not scroll sideways on the phone.
//!
//! Needs `XIANGQI_TEST_CHROMEDRIVER` (CI sets it; without it, and outside CI,
//! the tests say so and do nothing).

mod browsing;

use browsing::{Driver, Window, chromedriver, count, css, launch, start_driver};
use std::time::Duration;

use fantoccini::Client;
use serde_json::{Value, json};

/// A server on a fresh database, chromedriver beside it, and a temporary folder.
struct Site {
    server: xiangqi_server::Running,
    tmp: std::path::PathBuf,
    driver_url: String,
    _driver: Driver,
}

impl Site {
    async fn start(name: &str, chromedriver: &str) -> Site {
        Site::start_with(name, chromedriver, |_| {}).await
    }

    /// A site whose configuration `adjust` changes first.
    async fn start_with(
        name: &str,
        chromedriver: &str,
        adjust: impl FnOnce(&mut xiangqi_server::Config),
    ) -> Site {
        let tmp = std::env::temp_dir().join(format!("xiangqi-people-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&tmp).unwrap();
        let db = format!("sqlite://{}/t.db?mode=rwc", tmp.display());
        let mut config = xiangqi_server::Config::for_tests(&db);
        adjust(&mut config);
        let server = xiangqi_server::start(config).await.unwrap();
        let (driver, driver_url) = start_driver(chromedriver).await;
        Site { server, tmp, driver_url, _driver: driver }
    }

    fn url(&self, hash: &str) -> String {
        format!("{}/{hash}", self.server.url())
    }

    /// A browser with its own profile (its own cookies), at desktop size.
    async fn browser(&self, profile: &str) -> Client {
        launch(&self.driver_url, &self.tmp.join(profile), "en-US", Window::Desktop(1280, 800)).await
    }

    /// A browser in which `name` has just registered.
    async fn user(&self, name: &str) -> Client {
        let c = self.browser(name).await;
        c.goto(&self.url("")).await.unwrap();
        let form = "section:nth-of-type(2) form";
        css(&c, &format!("{form} input[name=name]")).await.send_keys(name).await.unwrap();
        css(&c, &format!("{form} input[name=password]")).await.send_keys("secret-pass").await.unwrap();
        css(&c, &format!("{form} button")).await.click().await.unwrap();
        css(&c, "#nav a[href='#/new']").await;
        c
    }

    async fn stop(self, clients: Vec<Client>) {
        for c in clients {
            c.close().await.ok();
        }
        self.server.stop().await;
        std::fs::remove_dir_all(&self.tmp).ok();
    }
}

/// Waits until a script (returning a boolean) holds.
async fn until(c: &Client, what: &str, script: &str) {
    for _ in 0..60 {
        if c.execute(script, vec![]).await.unwrap() == json!(true) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("{what}: never true: {script}");
}

/// The text of the first element a selector names, once it appears.
async fn text(c: &Client, selector: &str) -> String {
    css(c, selector).await.text().await.unwrap()
}

/// Waits until an element's text is `want` (`hidden` elements read as "").
async fn until_text(c: &Client, selector: &str, want: &str) {
    let script = format!(
        "const e = document.querySelector({sel}); return !!e && (e.hidden ? '' : e.textContent.trim()) === {want};",
        sel = json!(selector),
        want = json!(want)
    );
    until(c, &format!("{selector} reads {want:?}"), &script).await;
}

/// Calls the JSON API from the page, as its own session.
async fn api(c: &Client, method: &str, path: &str, body: Value) -> Value {
    let script = "const [method, path, body, done] = arguments;\
        const init = { method, headers: { 'X-Xiangqi': '1', 'Content-Type': 'application/json' } };\
        if (body !== null) init.body = JSON.stringify(body);\
        fetch('/api/v1' + path, init).then(r => r.status === 204 ? null : r.json()).then(done);";
    c.execute_async(script, vec![json!(method), json!(path), body]).await.unwrap()
}

/// Whoever is logged in at `a` challenges `opponent`, who accepts at `b`: the game's id.
async fn new_game(a: &Client, b: &Client, opponent: &str, days: u32) -> String {
    let terms = json!({"opponent": opponent, "rules": "asian", "color": "red",
        "clock": {"kind": "correspondence", "hours": days * 24}});
    let c = api(a, "POST", "/challenges", terms).await;
    let id = c["challenge"]["id"].as_str().unwrap().to_string();
    let g = api(b, "POST", &format!("/challenges/{id}/accept"), Value::Null).await;
    g["game"]["id"].as_str().unwrap().to_string()
}

/// Shoots the page at desktop and phone size; on the phone it must not scroll sideways.
async fn shots(c: &Client, name: &str, ready: &str) {
    let dir = std::env::var("XIANGQI_ARTIFACTS").map(std::path::PathBuf::from).unwrap_or_else(|_| {
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/artifacts")
    });
    std::fs::create_dir_all(&dir).unwrap();
    for (w, h, size) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        c.set_window_size(w, h).await.unwrap();
        let shown = css(c, ready).await;
        c.execute(
            "arguments[0].scrollIntoView({ block: 'center' });",
            vec![serde_json::to_value(shown).unwrap()],
        )
        .await
        .unwrap();
        until(c, &format!("{name} at {w}px fits"), "return innerWidth <= 400 || innerWidth > 1000;").await;
        let fits =
            c.execute("return document.documentElement.scrollWidth <= innerWidth;", vec![]).await.unwrap();
        assert_eq!(fits, json!(true), "{name} at {size} size scrolls sideways");
        std::fs::write(dir.join(format!("people-{name}-{size}.png")), c.screenshot().await.unwrap()).unwrap();
    }
    c.set_window_size(1280, 800).await.unwrap();
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn two_users_message_each_other_and_see_the_unread_badge_change_live() {
    let chromedriver = chromedriver();
    let site = Site::start("messages", &chromedriver).await;
    let a = site.user("alice").await;
    let b = site.user("bob").await;
    b.goto(&site.url("#/status")).await.unwrap();
    css(&b, "#badge-unread[hidden]").await;

    // Alice writes to Bob from his profile.
    a.goto(&site.url("#/user/bob")).await.unwrap();
    css(&a, ".actions a[href='#/send/bob']").await.click().await.unwrap();
    css(&a, ".message-form textarea").await.send_keys("Hello Bob, a game later?").await.unwrap();
    css(&a, ".message-form button[type=submit]").await.click().await.unwrap();
    css(&a, "li.message-item.mine").await;
    assert!(a.current_url().await.unwrap().as_str().ends_with("#/with/bob"));

    // Bob's badge shows it without reloading; the conversation is marked and opened.
    until_text(&b, "#badge-unread", "1").await;
    css(&b, "#badge-unread").await.click().await.unwrap();
    css(&b, "li.conversation.unread[data-with=alice]").await;
    let third = site.user("carol").await;
    api(&third, "POST", "/messages", json!({"to": "bob", "body": "Welcome from carol"})).await;
    until_text(&b, "#badge-unread", "2").await;
    css(&b, "li.conversation[data-with=carol]").await;
    let first = css(&b, "ul.conversations li").await.attr("data-with").await.unwrap();
    assert_eq!(first.as_deref(), Some("carol"), "the latest conversation first");
    shots(&b, "messages", "li.conversation").await;
    css(&b, "li.conversation[data-with=carol] button.mark-read").await.click().await.unwrap();
    until_text(&b, "#badge-unread", "1").await;
    until(&b, "carol's read", "return !document.querySelector('li.conversation.unread[data-with=carol]');")
        .await;
    css(&b, "li.conversation[data-with=alice] a.with").await.click().await.unwrap();
    assert_eq!(text(&b, "li.message-item .message-body").await, "Hello Bob, a game later?");
    until_text(&b, "#badge-unread", "").await;

    // Bob replies; Alice, on her conversation page, sees it arrive and her badge stays clear.
    css(&b, ".message-form textarea").await.send_keys("Yes, tonight").await.unwrap();
    css(&b, ".message-form button[type=submit]").await.click().await.unwrap();
    until(
        &a,
        "the reply shows",
        "return [...document.querySelectorAll('.message-body')].some(e => e.textContent === 'Yes, tonight');",
    )
    .await;
    until_text(&a, "#badge-unread", "").await;
    shots(&a, "conversation", "li.message-item").await;

    // Deleting is for oneself: Alice's copy goes, Bob keeps his.
    a.execute("window.confirm = () => true;", vec![]).await.unwrap();
    let before = count(&a, "li.message-item").await;
    css(&a, "li.message-item.mine button.delete").await.click().await.unwrap();
    until(
        &a,
        "a message deleted",
        &format!("return document.querySelectorAll('li.message-item').length === {};", before - 1),
    )
    .await;
    let kept = api(&b, "GET", "/messages/with/alice", Value::Null).await;
    assert_eq!(kept["messages"].as_array().unwrap().len(), 2);

    // The send page on its own, with the recipient typed in.
    b.goto(&site.url("#/send")).await.unwrap();
    shots(&b, "send", ".message-form input[name=to]").await;
    site.stop(vec![a, b, third]).await;
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn players_chat_beside_the_board_spectators_read_and_moves_count_live() {
    let chromedriver = chromedriver();
    let site = Site::start("chat", &chromedriver).await;
    let a = site.user("alice").await;
    let b = site.user("bob").await;
    let c = site.user("carol").await;
    let game = new_game(&a, &b, "bob", 3).await;

    // Red to move: Alice's badge and tab title count the game; Bob's do not.
    a.goto(&site.url("#/status")).await.unwrap();
    until_text(&a, "#badge-turn", "1").await;
    assert!(a.title().await.unwrap().starts_with("(1) "), "the tab title counts it");
    b.goto(&site.url("#/status")).await.unwrap();
    css(&b, "#badge-turn[hidden]").await;

    for p in [&a, &b, &c] {
        p.goto(&site.url(&format!("#/game/{game}"))).await.unwrap();
        css(p, "#chat").await;
    }
    assert_eq!(text(&a, "#chat h2").await, "Conversation", "a correspondence game's chat is a conversation");
    css(&a, "#chat textarea").await.send_keys("Good luck!\n").await.unwrap();
    css(&a, "#chat li.chat-line.mine").await;
    until(
        &b,
        "Bob sees it live",
        "return document.querySelector('#chat .chat-body')?.textContent === 'Good luck!';",
    )
    .await;
    until(
        &c,
        "Carol sees it live",
        "return document.querySelector('#chat .chat-body')?.textContent === 'Good luck!';",
    )
    .await;
    css(&b, "#chat textarea").await.send_keys("You too").await.unwrap();
    css(&b, "#chat button[type=submit]").await.click().await.unwrap();
    until(
        &a,
        "Alice sees the answer",
        "return document.querySelectorAll('#chat li.chat-line').length === 2;",
    )
    .await;

    // Carol watches: she reads, is told why she cannot write, and has no box to write in.
    assert!(text(&c, "#chat .chat-readonly").await.contains("spectators read"));
    assert_eq!(count(&c, "#chat textarea").await, 0);
    until(&c, "both lines", "return document.querySelectorAll('#chat li.chat-line').length === 2;").await;

    // Alice moves: Bob's badge shows the game waiting for him, without a reload,
    // in room the header kept for it, so the board does not move under his pointer.
    let header = "return document.querySelector('header.top').getBoundingClientRect().height;";
    let before = b.execute(header, vec![]).await.unwrap();
    api(&a, "POST", &format!("/games/{game}/moves"), json!({"ply": 0, "move": "h2e2"})).await;
    until_text(&b, "#badge-turn", "1").await;
    assert_eq!(
        b.execute(header, vec![]).await.unwrap(),
        before,
        "the header keeps its height as the badge shows"
    );
    until_text(&a, "#badge-turn", "").await;
    shots(&a, "game-chat", "#chat li.chat-line").await;
    shots(&c, "game-spectator", "#chat .chat-readonly").await;
    site.stop(vec![a, b, c]).await;
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn a_buddy_comes_first_and_an_ignored_users_challenge_is_refused_with_the_reason() {
    let chromedriver = chromedriver();
    let site = Site::start("buddies", &chromedriver).await;
    let a = site.user("alice").await;
    let b = site.user("bob").await;
    let c = site.user("zoe").await;
    let game = new_game(&c, &b, "bob", 2).await;

    // Everyone is here; Alice adds Zoe as a buddy: Zoe comes first, with her game to watch.
    a.goto(&site.url("#/people")).await.unwrap();
    css(&a, "#here-others li.person[data-user=zoe]").await;
    css(&a, "#here-others li.person[data-user=bob]").await;
    css(&a, "li.person[data-user=zoe] button.buddy").await.click().await.unwrap();
    css(&a, "#here-buddies li.person.is-buddy[data-user=zoe]").await;
    let first = css(&a, "li.person").await.attr("data-user").await.unwrap();
    assert_eq!(first.as_deref(), Some("zoe"), "a buddy first");
    css(&a, &format!("li.person[data-user=zoe] a.watch[href='#/game/{game}']")).await;
    css(&a, "li.person[data-user=zoe] .presence.online").await;
    shots(&a, "who-is-here", "#here-buddies li.person").await;

    // The game status page shows buddies too, with a one-click challenge.
    a.goto(&site.url("#/status")).await.unwrap();
    css(&a, "#buddies li.person[data-user=zoe]").await;
    css(&a, "#buddies li.person[data-user=zoe] button.challenge-one").await.click().await.unwrap();
    until(
        &a,
        "the challenge is confirmed",
        "return /Challenge sent to zoe/.test(document.querySelector('#message').textContent);",
    )
    .await;
    let lobby = api(&c, "GET", "/challenges", Value::Null).await;
    assert_eq!(lobby["incoming"][0]["creator"], "alice");
    shots(&a, "status-buddies", "#buddies li.person").await;

    // Alice ignores Bob from his profile; the list is hers alone.
    a.goto(&site.url("#/user/bob")).await.unwrap();
    css(&a, ".actions button.ignore").await.click().await.unwrap();
    css(&a, ".actions button.unignore").await;
    a.goto(&site.url("#/ignored")).await.unwrap();
    css(&a, "ul.ignored-list li[data-user=bob]").await;
    shots(&a, "ignore-list", "ul.ignored-list li").await;
    assert_eq!(api(&b, "GET", "/me/ignored", Value::Null).await["users"], json!([]));

    // Bob's challenge is refused in his page with the server's neutral reason.
    b.goto(&site.url("#/user/alice")).await.unwrap();
    css(&b, ".actions button.challenge-one").await.click().await.unwrap();
    css(&b, "#message.error").await;
    let said = text(&b, "#message.error").await;
    assert!(
        said.contains("Challenge to alice refused") && said.contains("cannot challenge this user"),
        "{said}"
    );
    shots(&b, "profile-refused", "#message.error").await;
    // And so is his message.
    b.goto(&site.url("#/send/alice")).await.unwrap();
    css(&b, ".message-form textarea").await.send_keys("why?").await.unwrap();
    css(&b, ".message-form button[type=submit]").await.click().await.unwrap();
    until(
        &b,
        "the refusal shows",
        "return /does not accept/.test(document.querySelector('#message.error')?.textContent ?? '');",
    )
    .await;

    // The buddy list page: remove Zoe.
    a.goto(&site.url("#/buddies")).await.unwrap();
    shots(&a, "buddy-list", "li.person[data-user=zoe]").await;
    css(&a, "li.person[data-user=zoe] button.unbuddy").await.click().await.unwrap();
    css(&a, "section.card p.muted").await;
    assert_eq!(count(&a, "li.person[data-user=zoe]").await, 0);
    site.stop(vec![a, b, c]).await;
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn markup_typed_in_a_message_a_chat_line_or_a_bio_shows_as_those_characters() {
    let chromedriver = chromedriver();
    let site = Site::start("markup", &chromedriver).await;
    let a = site.user("alice").await;
    let b = site.user("bob").await;
    let markup = "<b>x</b> <img src=x onerror=\"window.hacked=1\">";

    // A bio, through the edit page, with the other fields.
    a.goto(&site.url("#/edit-profile")).await.unwrap();
    css(&a, ".profile-form textarea[name=bio]").await.send_keys(markup).await.unwrap();
    css(&a, ".profile-form input[name=location]").await.send_keys("Taipei").await.unwrap();
    css(&a, ".profile-form input[name=languages]").await.send_keys("zh-TW, en").await.unwrap();
    css(&a, ".profile-form select[name=rules]").await.select_by_value("casual").await.unwrap();
    css(&a, ".profile-form select[name=time]").await.select_by_value("l10+5").await.unwrap();
    shots(&a, "edit-profile", ".profile-form").await;
    css(&a, ".profile-form button[type=submit]").await.click().await.unwrap();
    css(&a, ".profile .bio").await;
    assert_eq!(text(&a, ".profile .bio").await, markup);
    assert_eq!(count(&a, ".profile .bio b, .profile .bio img").await, 0, "no element made from the bio");
    let facts = text(&a, ".profile .facts").await;
    assert!(
        facts.contains("Taipei")
            && facts.contains("zh-TW, en")
            && facts.contains("Casual")
            && facts.contains("10+5"),
        "{facts}"
    );
    shots(&a, "profile-own", ".profile .bio").await;

    // A message.
    b.goto(&site.url("#/send/alice")).await.unwrap();
    css(&b, ".message-form textarea").await.send_keys(markup).await.unwrap();
    css(&b, ".message-form button[type=submit]").await.click().await.unwrap();
    a.goto(&site.url("#/messages/inbox")).await.unwrap();
    assert_eq!(text(&a, "li.message-item .message-body").await, markup);
    assert_eq!(count(&a, ".message-body b, .message-body img").await, 0, "no element made from the message");
    shots(&a, "inbox", "li.message-item").await;

    // A chat line.
    let game = new_game(&a, &b, "bob", 3).await;
    a.goto(&site.url(&format!("#/game/{game}"))).await.unwrap();
    css(&a, "#chat textarea").await.send_keys(markup).await.unwrap();
    css(&a, "#chat button[type=submit]").await.click().await.unwrap();
    b.goto(&site.url(&format!("#/game/{game}"))).await.unwrap();
    assert_eq!(text(&b, "#chat .chat-body").await, markup);
    assert_eq!(count(&b, "#chat .chat-body b, #chat img").await, 0, "no element made from the chat");
    assert_eq!(b.execute("return window.hacked ?? null;", vec![]).await.unwrap(), Value::Null);
    assert_eq!(a.execute("return window.hacked ?? null;", vec![]).await.unwrap(), Value::Null);
    site.stop(vec![a, b]).await;
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn an_invitation_link_registers_a_friend_as_a_buddy_with_a_challenge_waiting() {
    let chromedriver = chromedriver();
    let site = Site::start("invite", &chromedriver).await;
    let a = site.user("alice").await;

    a.goto(&site.url("#/invite")).await.unwrap();
    css(&a, ".invite-form input[name=attach]").await.click().await.unwrap();
    css(&a, ".invite-form select[name=rules]").await.select_by_value("casual").await.unwrap();
    css(&a, ".invite-form button[type=submit]").await.click().await.unwrap();
    let link = css(&a, "li.invitation input.link").await.prop("value").await.unwrap().unwrap();
    assert!(link.contains("/#/join/"), "{link}");
    shots(&a, "invite", "li.invitation").await;

    // The friend opens the link: who invites, to what, and the registration form.
    let f = site.browser("friend").await;
    f.goto(&link).await.unwrap();
    assert!(text(&f, ".invited").await.contains("alice invites you"));
    shots(&f, "join", ".invited").await;
    css(&f, "form input[name=name]").await.send_keys("friend").await.unwrap();
    css(&f, "form input[name=password]").await.send_keys("secret-pass").await.unwrap();
    css(&f, "form button[type=submit]").await.click().await.unwrap();
    css(&f, "li.challenge").await;
    let incoming = api(&f, "GET", "/challenges", Value::Null).await;
    assert_eq!(incoming["incoming"][0]["creator"], "alice");
    let buddies = api(&f, "GET", "/me/buddies", Value::Null).await;
    assert_eq!(buddies["users"][0]["name"], "alice");

    // Search finds the friend; the people menu reaches every page.
    a.goto(&site.url("#/search")).await.unwrap();
    css(&a, ".search-form input[name=name]").await.send_keys("fri").await.unwrap();
    css(&a, ".search-form button[type=submit]").await.click().await.unwrap();
    css(&a, "li.result[data-user=friend]").await;
    assert_eq!(count(&a, "li.result").await, 1);
    shots(&a, "search", "li.result").await;
    css(&a, "#people-menu summary").await.click().await.unwrap();
    shots(&a, "menu", "#people-menu[open] .menu-panel").await;
    css(&a, "#people-menu a[href='#/people']").await.click().await.unwrap();
    css(&a, "#here-others li.person[data-user=friend]").await;
    assert_eq!(count(&a, "#people-menu[open]").await, 0, "the menu closes on the way");
    site.stop(vec![a, f]).await;
}

#[tokio::test]
#[ignore = "needs Chromium and ChromeDriver (XIANGQI_TEST_CHROMEDRIVER); .ci/run sets them"]
async fn long_game_lists_show_a_page_and_more_on_request() {
    let chromedriver = chromedriver();
    let site = Site::start_with("more", &chromedriver, |c| c.limits.challenges_per_hour = 10_000).await;
    let a = site.user("alice").await;
    let b = site.user("bob").await;
    // 152 games: Alice resigns 51, so 101 are being played (all hers to move)
    // and 51 are over: one more than a first page of each.
    let mut games = Vec::new();
    for _ in 0..152 {
        games.push(new_game(&a, &b, "bob", 3).await);
    }
    for id in &games[..51] {
        let r = api(&a, "POST", &format!("/games/{id}/resign"), Value::Null).await;
        assert_eq!(r["game"]["status"], "finished", "{r}");
    }
    // Registering left Alice on the status page: open it afresh.
    a.refresh().await.unwrap();
    let lists = ".lists > section.card";
    until_text(&a, &format!("{lists}:nth-of-type(1) h2"), "My turn (100)").await;
    until_text(&a, &format!("{lists}:nth-of-type(3) h2"), "Finished (50)").await;
    shots(&a, "status-more", "[data-action=more-playing]").await;
    css(&a, "[data-action=more-playing]").await.click().await.unwrap();
    until_text(&a, &format!("{lists}:nth-of-type(1) h2"), "My turn (101)").await;
    assert_eq!(count(&a, "[data-action=more-playing]").await, 0, "the last page has no more");
    css(&a, "[data-action=more-finished]").await.click().await.unwrap();
    until_text(&a, &format!("{lists}:nth-of-type(3) h2"), "Finished (51)").await;
    assert_eq!(count(&a, "[data-action=more-finished]").await, 0);
    let ids: Vec<Value> = a
        .execute("return [...document.querySelectorAll('li.game-row')].map(e => e.dataset.key);", vec![])
        .await
        .unwrap()
        .as_array()
        .unwrap()
        .clone();
    let unique: std::collections::HashSet<&str> = ids.iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!((ids.len(), unique.len()), (152, 152), "every game once");
    site.stop(vec![a, b]).await;
}
