//! Attacks on the API, on SQLite and PostgreSQL: each is refused with the right
//! status, and nothing changes. Cross-site writes without the header, WebSockets
//! from other sites, markup in every text field, SQL metacharacters in every
//! field and path, acts in others' games and challenges, and tokens replayed
//! after logging out or a password change.
//!
//! The endpoints come from the OpenAPI document, so a new endpoint is attacked
//! as soon as it exists.
//!
//! `exhaustion` tries what one client can make the server hold or spend:
//! connections, live channels, rows past every rate limit, failed log-ins,
//! engine time, and requests while the database is down.

#[path = "../common/mod.rs"]
mod common;
mod exhaustion;
mod farming;
mod limits;
mod records;

use common::{Client, Db, new_game, on_both_databases, unique};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use xiangqi_server::{Config, Running, domain::accounts::token_hash};

/// Every operation of the API: method and path template, as documented.
fn operations() -> Vec<(Method, String)> {
    let doc = serde_json::to_value(xiangqi_server::http::openapi()).unwrap();
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            if let Ok(m) = method.to_uppercase().parse::<Method>() {
                ops.push((m, path.clone()));
            }
        }
    }
    assert!(ops.len() > 50, "the document lists the API: {}", ops.len());
    ops
}

fn is_write(m: &Method) -> bool {
    !matches!(*m, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// A path template with each `{param}` replaced by `value(param)`, percent-encoded.
fn fill(template: &str, value: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        let end = rest[start..].find('}').unwrap() + start;
        out.push_str(&rest[..start]);
        out.push_str(&encode(&value(&rest[start + 1..end])));
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// A body the operation would take, so that a refusal is not merely a missing body.
fn body_for(template: &str) -> Value {
    match template {
        "/games/{id}/moves" => json!({"ply": 0, "move": "h2e2"}),
        "/games/{id}/chat" => json!({"body": "hello"}),
        "/games/{id}/draw" => json!({"action": "offer"}),
        "/ladders/{category}/challenges" => json!({"opponent": "nobody"}),
        "/messages" => json!({"to": "nobody", "body": "hello"}),
        "/me/profile" => json!({"bio": "changed"}),
        "/news" => json!({"title": "t", "body": "b"}),
        _ => json!({}),
    }
}

/// Removes what changes by itself (when a user was last seen) from a view.
fn steady(mut v: Value) -> Value {
    match &mut v {
        Value::Object(map) => {
            map.remove("seen");
            map.remove("online");
            for x in map.values_mut() {
                *x = steady(x.take());
            }
        }
        Value::Array(items) => {
            for x in items.iter_mut() {
                *x = steady(x.take());
            }
        }
        _ => {}
    }
    v
}

/// What the users see of their own state and of the games: all that an attack could change.
async fn world(users: &[&Client], games: &[&str]) -> Value {
    let mut out = Vec::new();
    for c in users {
        let mut mine = Vec::new();
        for path in [
            "/session".to_string(),
            format!("/users/{}", c.name),
            "/messages".to_string(),
            "/messages?box=sent".to_string(),
            "/messages/conversations".to_string(),
            "/games".to_string(),
            "/me/buddies".to_string(),
            "/me/ignored".to_string(),
            "/me/invitations".to_string(),
            "/me/preferences".to_string(),
            "/me/rating-settings".to_string(),
            "/me/counts".to_string(),
        ] {
            let (st, v) = c.get(&path).await;
            assert_eq!(st, StatusCode::OK, "{} {path}: {v}", c.name);
            mine.push(v);
        }
        let (_, lobby) = c.get("/challenges").await;
        mine.push(json!({"incoming": lobby["incoming"], "outgoing": lobby["outgoing"]}));
        out.push(Value::Array(mine));
    }
    for g in games {
        out.push(users[0].get(&format!("/games/{g}")).await.1);
        out.push(users[0].get(&format!("/games/{g}/chat")).await.1);
    }
    steady(Value::Array(out))
}

/// A server whose limits no attack here reaches, so a refusal is never a limit's.
async fn roomy_server(url: &str) -> Running {
    let mut config = Config::for_tests(url);
    config.limits.messages_per_minute = 1000;
    config.limits.messages_per_day = 1000;
    config.limits.chat_per_minute = 1000;
    config.limits.challenges_per_hour = 1000;
    xiangqi_server::start(config).await.unwrap()
}

/// Two players with a game, a message, an open challenge, an invitation and news.
struct Scene {
    a: Client,
    b: Client,
    game: String,
    challenge: String,
    message: String,
    invitation: String,
}

async fn scene(s: &Running, db_url: &str) -> Scene {
    let (a, b) = (Client::register(s, "ata").await, Client::register(s, "atb").await);
    let game = new_game(&a, &b, "casual").await;
    assert_eq!(a.play(&game, 0, "h2e2").await.0, StatusCode::OK);
    let (_, v) = b.post("/messages", json!({"to": a.name, "body": "hello a"})).await;
    let message = v["message"]["id"].as_str().unwrap().to_string();
    let terms = json!({"opponent": b.name, "rules": "asian", "color": "black", "clock": {"kind": "correspondence", "hours": 120}});
    let (_, v) = a.post("/challenges", terms).await;
    let challenge = v["challenge"]["id"].as_str().unwrap().to_string();
    let (_, v) = a.post("/me/invitations", json!({})).await;
    let invitation = v["invitation"]["code"].as_str().unwrap_or_default().to_string();
    assert!(!invitation.is_empty(), "{v}");
    assert!(xiangqi_server::set_admin(db_url, &a.name, true).await.unwrap());
    Scene { a, b, game, challenge, message, invitation }
}

impl Scene {
    /// A real value for each path parameter, so that the attack reaches a real row.
    fn param(&self, template: &str, name: &str) -> String {
        match name {
            "id" if template.starts_with("/games") => self.game.clone(),
            "id" if template.starts_with("/challenges") => self.challenge.clone(),
            "id" if template.starts_with("/messages") => self.message.clone(),
            "name" => self.b.name.clone(),
            "category" => "standard_correspondence".to_string(),
            "code" => self.invitation.clone(),
            _ => "1".to_string(),
        }
    }
}

on_both_databases!(writes_with_the_session_cookie_but_without_the_header_are_refused);
async fn writes_with_the_session_cookie_but_without_the_header_are_refused(db: Db) {
    let s = roomy_server(&db.url).await;
    let sc = scene(&s, &db.url).await;
    let before = world(&[&sc.a, &sc.b], &[&sc.game]).await;
    let mut tried = 0;
    for (method, template) in operations().into_iter().filter(|(m, _)| is_write(m)) {
        let path = fill(&template, |p| sc.param(&template, p));
        let url = format!("{}{path}", sc.a.base);
        // As a form on another site would send it, and as a script there would (no header either way).
        for form in [false, true] {
            let req = sc.a.http.request(method.clone(), &url);
            let req = if form {
                req.header("Content-Type", "application/x-www-form-urlencoded").body("bio=changed")
            } else {
                req.json(&body_for(&template))
            };
            let r = req.send().await.unwrap();
            assert_eq!(r.status(), StatusCode::FORBIDDEN, "{method} {path}");
            let v: Value = r.json().await.unwrap();
            assert!(v["message"].as_str().unwrap().contains("X-Xiangqi"), "{method} {path}: {v}");
            tried += 1;
        }
    }
    assert!(tried >= 50, "{tried}");
    assert_eq!(world(&[&sc.a, &sc.b], &[&sc.game]).await, before, "nothing changed");
    s.stop().await;
}

on_both_databases!(websockets_from_other_sites_are_refused_even_with_a_session);
async fn websockets_from_other_sites_are_refused_even_with_a_session(db: Db) {
    use tokio_tungstenite::tungstenite::{Error, client::IntoClientRequest};
    let s = roomy_server(&db.url).await;
    let a = Client::register(&s, "wsa").await;
    let (_, v) = a.post("/session", json!({"name": a.name, "password": "secret-pass"})).await;
    let token = v["token"].as_str().unwrap().to_string();
    let host = s.addr().to_string();
    for origin in [
        "http://evil.example".to_string(),
        "null".to_string(),
        format!("http://{host}.evil.example"),
        format!("http://evil.example/{host}"),
        format!("http://evil{host}"),
        format!("ws://{}:1", s.addr().ip()),
    ] {
        let mut req = format!("ws://{host}/api/v1/ws").into_client_request().unwrap();
        req.headers_mut().insert("Origin", origin.parse().unwrap());
        req.headers_mut().insert("Cookie", format!("xiangqi_session={token}").parse().unwrap());
        match tokio_tungstenite::connect_async(req).await {
            Err(Error::Http(answer)) => assert_eq!(answer.status(), StatusCode::FORBIDDEN, "{origin}"),
            other => panic!("{origin}: {:?}", other.map(|_| "connected")),
        }
    }
    let mut req = format!("ws://{host}/api/v1/ws").into_client_request().unwrap();
    req.headers_mut().insert("Origin", format!("http://{host}").parse().unwrap());
    req.headers_mut().insert("Cookie", format!("xiangqi_session={token}").parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_ok(), "this site's own page connects");
    s.stop().await;
}

const MARKUP: [&str; 4] = [
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    "</textarea><svg/onload=alert(1)>",
];

/// An answer that a browser will not run: not a document or script type (JSON,
/// plain text, PGN), not sniffed, under a policy that runs nothing.
fn assert_inert(r: &reqwest::Response, what: &str) {
    let h = r.headers();
    let kind = h["content-type"].to_str().unwrap();
    assert!(
        !kind.contains("html") && !kind.contains("javascript") && !kind.contains("xml"),
        "{what}: {kind}"
    );
    assert_eq!(h["x-content-type-options"], "nosniff", "{what}");
    assert!(h["content-security-policy"].to_str().unwrap().starts_with("default-src 'none'"), "{what}");
}

on_both_databases!(script_in_every_text_field_comes_back_as_inert_data);
async fn script_in_every_text_field_comes_back_as_inert_data(db: Db) {
    let s = roomy_server(&db.url).await;
    let sc = scene(&s, &db.url).await;
    let (a, b) = (&sc.a, &sc.b);
    let chat = format!("/games/{}/chat", sc.game);
    for (i, m) in MARKUP.iter().enumerate() {
        let profile = json!({"bio": m, "location": m, "languages": [m.chars().take(30).collect::<String>()]});
        let (st, v) = a.send(Method::PUT, "/me/profile", Some(profile)).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert_eq!(b.post("/messages", json!({"to": a.name, "body": m})).await.0, StatusCode::CREATED);
        assert_eq!(b.post(&chat, json!({"body": m})).await.0, StatusCode::CREATED);
        let (st, v) = a.post("/news", json!({"title": m, "body": m})).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        // Names carry no markup at all.
        let (st, _) =
            Client::new(&s, "x").post("/users", json!({"name": m, "password": "secret-pass"})).await;
        assert_eq!(st, StatusCode::BAD_REQUEST);

        // Every view that shows them gives them back as written, as data.
        for (reader, path) in [
            (b, format!("/users/{}", a.name)),
            (a, "/session".to_string()),
            (a, "/messages".to_string()),
            (a, format!("/messages/with/{}", b.name)),
            (a, "/messages/conversations".to_string()),
            (b, chat.clone()),
            (b, "/news".to_string()),
        ] {
            let r = reader.raw(Method::GET, &path, None).await;
            assert_eq!(r.status(), StatusCode::OK, "{path}");
            assert_inert(&r, &path);
            let v: Value = r.json().await.unwrap();
            let text = v.to_string();
            let expected = serde_json::to_string(m).unwrap();
            assert!(text.contains(expected.trim_matches('"')), "{path} ({i}) gives it back verbatim: {text}");
        }
    }
    // Echoes of a hostile path, and the record of a game, are not HTML either.
    for path in [format!("/users/{}", encode(MARKUP[0])), format!("/games/{}/pgn", sc.game)] {
        let r = a.raw(Method::GET, &path, None).await;
        assert_inert(&r, &path);
    }
    let r = reqwest::get(format!("{}/js/{}", s.url(), encode(MARKUP[1]))).await.unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    assert!(r.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
    // The page itself is the same for everyone and holds no one's words.
    let page = reqwest::get(s.url()).await.unwrap().text().await.unwrap();
    assert!(MARKUP.iter().all(|m| !page.contains(m)));
    s.stop().await;
}

const SQL: [&str; 9] = [
    "' OR '1'='1",
    "x'; DROP TABLE users; --",
    "\" OR \"\"=\"",
    "1 UNION SELECT password_hash FROM users --",
    "%",
    "_",
    "\\",
    "$1",
    "a\u{0}b",
];

on_both_databases!(sql_metacharacters_in_every_path_and_query_are_only_data);
async fn sql_metacharacters_in_every_path_and_query_are_only_data(db: Db) {
    let s = roomy_server(&db.url).await;
    let sc = scene(&s, &db.url).await;
    let (a, b) = (&sc.a, &sc.b);
    let before = world(&[a, b], &[&sc.game]).await;
    for (method, template) in operations() {
        if !template.contains('{') {
            continue;
        }
        for attack in SQL {
            let path = fill(&template, |_| attack.to_string());
            let body = is_write(&method).then(|| body_for(&template));
            let (st, v) = a.send(method.clone(), &path, body).await;
            assert!(
                st.is_client_error() || (st.is_success() && !is_write(&method)),
                "{method} {path}: {st} {v}"
            );
            if st.is_client_error() {
                assert!(v["error"].is_string() && v["message"].is_string(), "{method} {path}: {v}");
            }
        }
    }
    for attack in SQL {
        let q = encode(attack);
        for path in [
            format!("/users?after={q}"),
            format!("/games?after={q}"),
            format!("/messages?after={q}"),
            format!("/messages?box={q}"),
            format!("/messages/conversations?after={q}"),
            format!("/users/search?name={q}"),
            format!("/users/search?contains={q}"),
            format!("/ratings/standard_correspondence/leaders?after={q}"),
            format!("/games/{}/chat?after={q}", sc.game),
        ] {
            let (st, v) = a.get(&path).await;
            assert!(st == StatusCode::OK || st == StatusCode::BAD_REQUEST, "{path}: {st} {v}");
            if path.starts_with("/users/search") && st == StatusCode::OK {
                // A wildcard is a character to look for, not "anything".
                let names: Vec<&str> =
                    v["users"].as_array().unwrap().iter().filter_map(|u| u["name"].as_str()).collect();
                assert!(names.iter().all(|n| n.contains(attack)), "{path}: {names:?}");
            }
        }
    }
    assert_eq!(world(&[a, b], &[&sc.game]).await, before, "nothing changed");
    s.stop().await;
}

on_both_databases!(sql_metacharacters_in_every_field_are_refused_or_kept_as_written);
async fn sql_metacharacters_in_every_field_are_refused_or_kept_as_written(db: Db) {
    let s = roomy_server(&db.url).await;
    let sc = scene(&s, &db.url).await;
    let (a, b) = (&sc.a, &sc.b);
    let chat = format!("/games/{}/chat", sc.game);
    let before = world(&[a, b], &[&sc.game]).await;
    let stranger = Client::new(&s, "x");
    for attack in SQL {
        // Fields that name something: refused, nothing made.
        for (c, path, body, expected) in [
            (
                &stranger,
                "/users",
                json!({"name": attack, "password": "secret-pass"}),
                StatusCode::BAD_REQUEST,
            ),
            (
                &stranger,
                "/users",
                json!({"name": unique("sq"), "password": "secret-pass", "invite": attack}),
                StatusCode::BAD_REQUEST,
            ),
            (&stranger, "/session", json!({"name": attack, "password": attack}), StatusCode::UNAUTHORIZED),
            (a, "/messages", json!({"to": attack, "body": "hello"}), StatusCode::NOT_FOUND),
            (
                a,
                "/challenges",
                json!({"opponent": attack, "rules": "casual", "color": "red", "clock": {"kind": "correspondence", "hours": 48}}),
                StatusCode::NOT_FOUND,
            ),
            (
                a,
                "/challenges",
                json!({"rules": attack, "color": "red", "clock": {"kind": "correspondence", "hours": 48}}),
                StatusCode::BAD_REQUEST,
            ),
            (
                a,
                "/ladders/standard_correspondence/challenges",
                json!({"opponent": attack}),
                StatusCode::NOT_FOUND,
            ),
            (a, "/games/x/moves", json!({"ply": 0, "move": attack}), StatusCode::NOT_FOUND),
            (
                b,
                &format!("/games/{}/moves", sc.game),
                json!({"ply": 1, "move": attack}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (a, "/me/password", json!({"old": attack, "new": "another-pass"}), StatusCode::UNAUTHORIZED),
        ] {
            // A NUL character is refused wherever it is, before anything reads the field.
            let expected = if attack.contains('\u{0}') { StatusCode::BAD_REQUEST } else { expected };
            let (st, v) = c.post(path, body.clone()).await;
            assert_eq!(st, expected, "{path} {body}: {v}");
        }
    }
    assert_eq!(world(&[a, b], &[&sc.game]).await, before, "nothing changed");
    // Fields of free text: kept exactly as written, whatever they hold.
    for attack in SQL.iter().filter(|t| !t.contains('\u{0}')) {
        let (st, v) = b.post("/messages", json!({"to": a.name, "body": attack})).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        assert_eq!(v["message"]["body"], *attack);
        let (st, v) = a.post(&chat, json!({"body": attack})).await;
        assert_eq!((st, v["line"]["body"].as_str()), (StatusCode::CREATED, Some(*attack)), "{v}");
        let (st, v) =
            a.send(Method::PUT, "/me/profile", Some(json!({"bio": attack, "location": attack}))).await;
        assert_eq!((st, v["user"]["bio"].as_str()), (StatusCode::OK, Some(*attack)), "{v}");
        let (_, v) = b.get(&format!("/users/{}", a.name)).await;
        assert_eq!(v["user"]["location"], *attack);
    }
    let (_, inbox) = a.get("/messages?limit=100").await;
    let bodies: Vec<&str> =
        inbox["messages"].as_array().unwrap().iter().filter_map(|m| m["body"].as_str()).collect();
    for attack in SQL.iter().filter(|t| !t.contains('\u{0}')) {
        assert!(bodies.contains(attack), "{attack} kept");
    }
    // The tables are all there and the accounts work.
    assert_eq!(stranger.get("/users").await.0, StatusCode::OK);
    let again = Client::new(&s, &a.name);
    assert_eq!(
        again.post("/session", json!({"name": a.name, "password": "secret-pass"})).await.0,
        StatusCode::OK
    );
    s.stop().await;
}

on_both_databases!(nobody_acts_in_games_challenges_or_mail_that_are_not_theirs);
async fn nobody_acts_in_games_challenges_or_mail_that_are_not_theirs(db: Db) {
    let s = roomy_server(&db.url).await;
    let sc = scene(&s, &db.url).await;
    let (a, b) = (&sc.a, &sc.b);
    let c = Client::register(&s, "atc").await;
    // A finished game of a and b too, for rematches.
    let over = new_game(a, b, "casual").await;
    assert_eq!(b.post(&format!("/games/{over}/resign"), json!({})).await.0, StatusCode::OK);
    let before = world(&[a, b], &[&sc.game, &over]).await;
    let g = &sc.game;
    for (method, path, body, expected) in [
        (Method::POST, format!("/games/{g}/moves"), json!({"ply": 1, "move": "h9g7"}), StatusCode::FORBIDDEN),
        (Method::POST, format!("/games/{g}/resign"), json!({}), StatusCode::FORBIDDEN),
        (Method::POST, format!("/games/{g}/abort"), json!({}), StatusCode::FORBIDDEN),
        (Method::POST, format!("/games/{g}/claim"), json!({}), StatusCode::FORBIDDEN),
        (Method::POST, format!("/games/{g}/draw"), json!({"action": "offer"}), StatusCode::FORBIDDEN),
        (Method::POST, format!("/games/{g}/chat"), json!({"body": "hi"}), StatusCode::FORBIDDEN),
        (Method::POST, format!("/games/{over}/rematch"), json!({}), StatusCode::FORBIDDEN),
        (Method::POST, format!("/challenges/{}/accept", sc.challenge), json!({}), StatusCode::FORBIDDEN),
        (Method::DELETE, format!("/challenges/{}", sc.challenge), json!({}), StatusCode::FORBIDDEN),
        (Method::DELETE, format!("/messages/{}", sc.message), json!({}), StatusCode::NOT_FOUND),
    ] {
        let (st, v) = c.send(method.clone(), &path, Some(body)).await;
        assert_eq!(st, expected, "{method} {path}: {v}");
    }
    // a's own challenge is not a's to accept; b's turn is not a's.
    assert_eq!(
        a.post(&format!("/challenges/{}/accept", sc.challenge), json!({})).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(a.play(g, 1, "h9g7").await.0, StatusCode::FORBIDDEN);
    assert_eq!(world(&[a, b], &[&sc.game, &over]).await, before, "nothing changed");
    s.stop().await;
}

/// A client that presents a token as a bearer, without cookies.
fn bearer(token: &str) -> reqwest::Client {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(reqwest::header::AUTHORIZATION, format!("Bearer {token}").parse().unwrap());
    reqwest::Client::builder().default_headers(headers).build().unwrap()
}

/// What a token gets: reading who it is, and sending a message to `to`.
async fn try_token(s: &Running, token: &str, to: &str) -> (StatusCode, StatusCode, StatusCode) {
    let base = format!("{}/api/v1", s.url());
    let by_bearer = bearer(token);
    let read = by_bearer.get(format!("{base}/session")).send().await.unwrap().status();
    let write = by_bearer
        .post(format!("{base}/messages"))
        .json(&json!({"to": to, "body": "replayed"}))
        .send()
        .await
        .unwrap()
        .status();
    let by_cookie = reqwest::Client::new()
        .post(format!("{base}/messages"))
        .header("Cookie", format!("xiangqi_session={token}"))
        .header("X-Xiangqi", "1")
        .json(&json!({"to": to, "body": "replayed"}))
        .send()
        .await
        .unwrap()
        .status();
    (read, write, by_cookie)
}

async fn log_in(s: &Running, name: &str, password: &str) -> String {
    let c = Client::new(s, name);
    let (st, v) = c.post("/session", json!({"name": name, "password": password})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    v["token"].as_str().unwrap().to_string()
}

on_both_databases!(tokens_are_dead_after_logging_out_or_a_password_change);
async fn tokens_are_dead_after_logging_out_or_a_password_change(db: Db) {
    let s = roomy_server(&db.url).await;
    let (a, b) = (Client::register(&s, "tka").await, Client::register(&s, "tkb").await);
    let dead = (StatusCode::UNAUTHORIZED, StatusCode::UNAUTHORIZED, StatusCode::UNAUTHORIZED);
    let alive = (StatusCode::OK, StatusCode::CREATED, StatusCode::CREATED);
    let before = world(&[&b], &[]).await;

    let first = log_in(&s, &a.name, "secret-pass").await;
    let second = log_in(&s, &a.name, "secret-pass").await;
    let out = bearer(&first).delete(format!("{}/api/v1/session", s.url())).send().await.unwrap();
    assert_eq!(out.status(), StatusCode::NO_CONTENT);
    assert_eq!(try_token(&s, &first, &b.name).await, dead, "logged out");
    // Near misses and what the database keeps are no tokens either.
    for forged in [
        String::new(),
        "x".to_string(),
        first.to_uppercase(),
        format!("{second}0"),
        second[1..].to_string(),
        token_hash(&second),
        format!("{second}' OR '1'='1"),
    ] {
        assert_eq!(try_token(&s, &forged, &b.name).await, dead, "{forged:?}");
    }
    assert_eq!(world(&[&b], &[]).await, before, "nothing arrived");

    // A password change ends every other session, at once.
    let third = log_in(&s, &a.name, "secret-pass").await;
    let changer = Client::new(&s, &a.name);
    let (st, v) = changer.post("/session", json!({"name": a.name, "password": "secret-pass"})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(
        changer.post("/me/password", json!({"old": "secret-pass", "new": "brand-new-pass"})).await.0,
        StatusCode::NO_CONTENT
    );
    for token in [&second, &third] {
        assert_eq!(try_token(&s, token, &b.name).await, dead, "ended by the change");
    }
    assert_eq!(a.get("/session").await.0, StatusCode::UNAUTHORIZED, "the cookie session too");
    assert_eq!(world(&[&b], &[]).await, before, "nothing arrived");
    let (st, _) =
        Client::new(&s, &a.name).post("/session", json!({"name": a.name, "password": "secret-pass"})).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED, "the old password is gone");
    let fresh = log_in(&s, &a.name, "brand-new-pass").await;
    assert_eq!(try_token(&s, &fresh, &b.name).await, alive, "the new password works");
    assert_eq!(changer.get("/session").await.0, StatusCode::OK, "the changing session goes on");
    s.stop().await;
}
