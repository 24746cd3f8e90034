//! What every answer carries and what keeps the server healthy: health and
//! readiness for a load balancer, security headers on every kind of answer, and
//! a limit on new accounts per network address (SQLite and PostgreSQL).

mod common;

use common::{Client, Db, on_both_databases, sqlite, unique};
use reqwest::StatusCode;
use serde_json::json;
use xiangqi_server::{Config, store::Tally};

#[tokio::test]
async fn health_readiness_and_security_headers_on_every_answer() {
    let db = sqlite();
    let s = common::server(&db).await;
    let http = reqwest::Client::new();
    for (path, status) in [
        ("/healthz", StatusCode::OK),
        ("/readyz", StatusCode::OK),
        ("/api/v1/users", StatusCode::OK),
        ("/api/v1/nothing", StatusCode::NOT_FOUND),
        ("/js/nothing.js", StatusCode::NOT_FOUND),
        ("/icons/icon-192.png", StatusCode::OK),
        ("/sw.js", StatusCode::OK),
        ("/", StatusCode::OK),
    ] {
        let r = http.get(format!("{}{path}", s.url())).send().await.unwrap();
        assert_eq!(r.status(), status, "{path}");
        let h = r.headers();
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["referrer-policy"], "same-origin", "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        if path == "/" {
            assert!(csp.contains("script-src 'self'"), "the page keeps its own policy: {csp}");
        } else {
            assert!(csp.starts_with("default-src 'none'"), "{path}: {csp}");
        }
    }
    s.stop().await;
}

on_both_databases!(one_address_makes_a_limited_number_of_accounts_an_hour);
async fn one_address_makes_a_limited_number_of_accounts_an_hour(db: Db) {
    // On a shared database earlier runs' sign-ups from this address within
    // the hour count too: the limit is set just above them.
    let store = xiangqi_server::store::Store::open(&db.url).await.unwrap();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    let earlier = store.tally_since(Tally::Signups("127.0.0.1"), now - 60 * 60 * 1000).await.unwrap();
    let mut config = Config::for_tests(&db.url);
    config.limits.signups_per_hour = u32::try_from(earlier).unwrap() + 2;
    let s = xiangqi_server::start(config).await.unwrap();
    let mut statuses = Vec::new();
    let mut names = Vec::new();
    for _ in 0..3 {
        let name = unique("lim");
        let c = Client::new(&s, &name);
        statuses.push(c.post("/users", json!({"name": name, "password": "secret-pass"})).await.0);
        names.push(name);
    }
    assert_eq!(statuses, [StatusCode::CREATED, StatusCode::CREATED, StatusCode::TOO_MANY_REQUESTS]);
    let anon = Client::new(&s, "anon");
    assert_eq!(
        anon.get(&format!("/users/{}", names[2])).await.0,
        StatusCode::NOT_FOUND,
        "nothing was created"
    );
    s.stop().await;
}
