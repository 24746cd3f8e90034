//! What the browser test files share: chromedriver and a headless Chromium per
//! person, waiting for what a page shows, clicking, screenshots, and calling the
//! API from a page with its session.
#![allow(dead_code)]

use std::{
    process::{Child, Command, Stdio},
    time::Duration,
};

pub mod ax;

use fantoccini::{Client, Locator, elements::Element, error::CmdError};
use serde_json::{Value, json};

/// chromedriver, stopped when dropped together with every process it started:
/// a test that fails never closes its browser sessions, and the Chromium of a
/// chromedriver killed alone runs on (and keeps a core busy) after the test ends.
pub struct Driver(Child);

impl Drop for Driver {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // The tree is read before anything dies: an orphan's parent becomes
        // init, and the walk would no longer find it.
        for pid in descendants(self.0.id()) {
            // SAFETY: kill(2) sends a signal; it touches no memory of ours.
            unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The processes below `root`, nearest first, read from /proc (none where
/// there is no /proc).
fn descendants(root: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // "pid (name) state ppid ...": the name may hold spaces and parentheses.
            let parent = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
            Some((pid, parent))
        })
        .collect();
    let mut tree = vec![root];
    let mut next = 0;
    while let Some(&parent) = tree.get(next) {
        tree.extend(parents.iter().filter(|&&(_, p)| p == parent).map(|&(pid, _)| pid));
        next += 1;
    }
    tree.split_off(1)
}

/// The chromedriver to use, or None (outside CI) to skip a browser test.
pub fn chromedriver() -> String {
    std::env::var("XIANGQI_TEST_CHROMEDRIVER").unwrap_or_else(|_| {
        panic!("XIANGQI_TEST_CHROMEDRIVER is not set: browser tests need ChromeDriver (.ci/run sets it)")
    })
}

/// Starts chromedriver on a free port; answers it and its URL.
pub async fn start_driver(chromedriver: &str) -> (Driver, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let driver = Driver(
        Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    tokio::time::sleep(Duration::from_millis(800)).await;
    (driver, format!("http://127.0.0.1:{port}"))
}

/// The element a selector finds, once it appears (at most 15 s); else the test
/// fails saying what the page showed instead.
pub async fn css(c: &Client, selector: &str) -> Element {
    match c.wait().at_most(Duration::from_secs(15)).for_element(Locator::Css(selector)).await {
        Ok(e) => e,
        Err(e) => {
            let shown = match c.find(Locator::Css("body")).await {
                Ok(body) => body.text().await.unwrap_or_default(),
                Err(_) => String::new(),
            };
            panic!("{selector} did not appear: {e}\nthe page read:\n{shown}")
        }
    }
}

/// Clicks what the selector finds, as a person would: brought to the middle of
/// the window first (WebDriver alone scrolls it to the bottom edge, under the
/// floating message line), and found again if a live update redrew it between
/// finding and clicking. Fails with the last refusal.
pub async fn click(c: &Client, selector: &str) {
    let mut last = None;
    for _ in 0..40 {
        let element = css(c, selector).await;
        let _ = scroll_into_view(c, &element, "center").await;
        match element.click().await {
            Ok(_) => return,
            Err(e) => last = Some(e),
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("{selector} could not be clicked: {last:?}");
}

/// Scrolls what the selector finds to the top of the window, once it is there:
/// a page drawn again after a reload may not have it yet.
pub async fn scroll_to(c: &Client, selector: &str) {
    let element = css(c, selector).await;
    scroll_into_view(c, &element, "start").await.unwrap();
}

/// Scrolls an element to the `block` edge ("start", "center") of the window.
async fn scroll_into_view(c: &Client, element: &Element, block: &str) -> Result<(), CmdError> {
    let script = format!("arguments[0].scrollIntoView({{ block: '{block}', inline: 'nearest' }});");
    c.execute(&script, vec![serde_json::to_value(element).unwrap()]).await.map(drop)
}

pub async fn count(c: &Client, selector: &str) -> usize {
    c.find_all(Locator::Css(selector)).await.unwrap().len()
}

/// The text of what a selector finds, once it contains `needle` (at most 15 s).
pub async fn wait_text(c: &Client, selector: &str, needle: &str) -> String {
    let mut last = String::new();
    for _ in 0..60 {
        if let Ok(e) = c.find(Locator::Css(selector)).await {
            last = e.text().await.unwrap_or_default();
            if last.contains(needle) {
                return last;
            }
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    // What the page told the user instead (a refusal, a note) says why, more often than not.
    let alerts = c
        .execute(
            "return [...document.querySelectorAll('[role=alert]')].map((e) => e.textContent).join(' | ');",
            vec![],
        )
        .await
        .unwrap_or_default();
    panic!("{selector} never said {needle:?}; it says {last:?}; the page's alerts: {alerts}");
}

/// Saves a screenshot under `$XIANGQI_ARTIFACTS` (default `target/artifacts`).
pub async fn shot(c: &Client, name: &str) {
    let dir = std::env::var("XIANGQI_ARTIFACTS").map(std::path::PathBuf::from).unwrap_or_else(|_| {
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/artifacts")
    });
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), c.screenshot().await.unwrap()).unwrap();
}

/// Calls the JSON API from a page, with its session; answers `{status, body}`.
pub async fn api(c: &Client, method: &str, path: &str, body: Value) -> Value {
    let script = "const [method, path, body, done] = arguments;\
        const init = { method, headers: { 'X-Xiangqi': '1', 'Content-Type': 'application/json' } };\
        if (body !== null) init.body = JSON.stringify(body);\
        fetch('/api/v1' + path, init).then(async (r) => done({ status: r.status, body: await r.json().catch(() => null) }));";
    c.execute_async(script, vec![json!(method), json!(path), body]).await.unwrap()
}

/// Registers through the API and loads the page logged in.
pub async fn register_quick(c: &Client, url: &str, name: &str) {
    c.goto(url).await.unwrap();
    let r = api(c, "POST", "/users", json!({ "name": name, "password": "secret-pass" })).await;
    assert_eq!(r["status"], 201, "{name} registers: {r}");
    c.goto(url).await.unwrap();
    css(c, "#nav a[href='#/new']").await;
}

/// The window a browser session shows pages in.
#[derive(Clone, Copy, Debug)]
pub enum Window {
    /// A desktop window of this size (the page is a little smaller: the frame).
    Desktop(u32, u32),
    /// A touch screen of this size (Chromium's mobile emulation).
    Phone(u32, u32),
}

/// A headless Chromium session whose own language is `language` (what the UI
/// starts in), with its own profile folder.
pub async fn launch(driver_url: &str, profile: &std::path::Path, language: &str, window: Window) -> Client {
    let chromium = std::env::var("XIANGQI_TEST_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let (width, height) = match window {
        Window::Desktop(w, h) => (w, h),
        Window::Phone(..) => (1280, 900),
    };
    let args = [
        "--headless".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-quic".into(),
        "--no-first-run".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        format!("--window-size={width},{height}"),
        format!("--lang={language}"),
        format!("--user-data-dir={}", profile.display()),
    ];
    let mut options =
        json!({ "binary": chromium, "args": args, "prefs": { "intl.accept_languages": language } });
    if let Window::Phone(width, height) = window {
        options["mobileEmulation"] = json!({
            "deviceMetrics": { "width": width, "height": height, "pixelRatio": 2.0, "touch": true },
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36",
        });
    }
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), options);
    fantoccini::ClientBuilder::rustls()
        .expect("tls")
        .capabilities(caps)
        .connect(driver_url)
        .await
        .expect("a browser session")
}

/// Sends a command of Chromium's developer tools protocol to the session's
/// page, through ChromeDriver (`Network.emulateNetworkConditions`, say).
pub async fn devtools(c: &Client, driver_url: &str, cmd: &str, params: Value) {
    let session = c.session_id().await.unwrap().expect("a session");
    let r = reqwest::Client::new()
        .post(format!("{driver_url}/session/{session}/goog/cdp/execute"))
        .json(&json!({ "cmd": cmd, "params": params }))
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "{cmd}: {}", r.text().await.unwrap_or_default());
}

/// Clicks the piece on a cell of the board.
pub async fn click_cell(c: &Client, cell: &str) {
    css(c, &format!("g.piece[data-cell={cell}]")).await.click().await.unwrap();
}

/// Clicks a legal target of the chosen piece. A capture's ring lies under the
/// piece it surrounds, so there a person taps that piece, and so does this.
pub async fn click_target(c: &Client, cell: &str) {
    let ring = css(c, &format!("circle.target[data-target={cell}]")).await;
    let capture = ring.attr("class").await.unwrap().is_some_and(|class| class.contains("capture"));
    if capture {
        css(c, &format!("g.piece[data-cell={cell}]")).await.click().await.unwrap();
    } else {
        ring.click().await.unwrap();
    }
}

/// Plays a move by clicking its piece, then its target.
pub async fn play_move(c: &Client, from: &str, to: &str) {
    click_cell(c, from).await;
    click_target(c, to).await;
}

/// Waits until a script run in the page answers `true` (at most 15 s).
pub async fn until(c: &Client, what: &str, script: &str) {
    for _ in 0..60 {
        if c.execute(script, vec![]).await.unwrap() == json!(true) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("{what}: never true: {script}");
}

/// Shoots the page at desktop and phone size (`{prefix}-{name}-{size}.png`);
/// on the phone it must not scroll sideways.
pub async fn shots_at_both_sizes(c: &Client, prefix: &str, name: &str) {
    let dir = std::env::var("XIANGQI_ARTIFACTS").map(std::path::PathBuf::from).unwrap_or_else(|_| {
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/artifacts")
    });
    std::fs::create_dir_all(&dir).unwrap();
    for (w, h, size) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        c.set_window_size(w, h).await.unwrap();
        until(c, &format!("{name} at {w}px"), "return innerWidth <= 400 || innerWidth > 1000;").await;
        let fits =
            c.execute("return document.documentElement.scrollWidth <= innerWidth;", vec![]).await.unwrap();
        assert_eq!(fits, json!(true), "{name} at {size} size scrolls sideways");
        std::fs::write(dir.join(format!("{prefix}-{name}-{size}.png")), c.screenshot().await.unwrap())
            .unwrap();
    }
    c.set_window_size(1280, 800).await.unwrap();
}

/// Makes the page's user wait for Submit in games of these paces (`blitz`,
/// `rapid`, ...), as the settings page would, and reloads the page.
pub async fn confirm_moves(c: &Client, speeds: &[&str]) {
    let mut prefs = api(c, "GET", "/me/preferences", Value::Null).await["body"]["preferences"].clone();
    for speed in speeds {
        prefs["confirm_moves"][*speed] = json!(true);
    }
    let r = api(c, "PUT", "/me/preferences", prefs).await;
    assert_eq!(r["status"], 200, "{r}");
    c.refresh().await.unwrap();
}
