//! The fuzz target's seeds (`fuzz/seeds/requests/`), and mutations of them,
//! through the same parsers the fuzz target calls, and then as bodies and
//! query strings of every documented endpoint of a running server: no panic,
//! no 5xx, a clear error for whatever is refused (SQLite and PostgreSQL).

mod common;

use common::{Client, Db, on_both_databases};
use reqwest::{Method, StatusCode};
use serde_json::Value;
use xiangqi_server::http::inputs::parse_everything;

fn seeds() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/requests");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            (path.file_name().unwrap().to_string_lossy().to_string(), std::fs::read(&path).unwrap())
        })
        .collect();
    out.sort();
    assert!(out.len() >= 30, "the seeds are there: {}", out.len());
    out
}

/// Each seed, each of its prefixes, and each with one byte flipped to a
/// character that matters to a parser.
fn mutations(seed: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![seed.to_vec()];
    let step = (seed.len() / 64).max(1);
    for cut in (0..seed.len()).step_by(step) {
        out.push(seed[..cut].to_vec());
        for b in [b'"', b'\\', b'{', b'%', 0, 0xff] {
            let mut m = seed.to_vec();
            m[cut] = b;
            out.push(m);
        }
    }
    out
}

#[test]
fn the_seeds_and_their_mutations_never_panic_a_parser() {
    let mut tried = 0;
    let mut accepted = 0;
    for (name, seed) in seeds() {
        for input in mutations(&seed) {
            let a = std::panic::catch_unwind(|| parse_everything(&input))
                .unwrap_or_else(|_| panic!("{name}: {:?}", String::from_utf8_lossy(&input)));
            accepted += a.bodies + a.queries;
            tried += 1;
        }
    }
    assert!(tried > 1000, "{tried}");
    assert!(accepted > 10, "some inputs are valid requests: {accepted}");
}

on_both_databases!(every_endpoint_answers_hostile_bodies_and_queries_with_clear_errors);
async fn every_endpoint_answers_hostile_bodies_and_queries_with_clear_errors(db: Db) {
    let doc = serde_json::to_value(xiangqi_server::http::openapi()).unwrap();
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            ops.push((method.to_uppercase().parse::<Method>().unwrap(), path.replace(['{', '}'], "")));
        }
    }
    let s = common::server(&db).await;
    let c = Client::register(&s, "hos").await;
    for (name, seed) in seeds() {
        // Logging out is the one write that would end the test's own session.
        for (method, path) in ops.iter().filter(|(m, p)| !(*m == Method::DELETE && p == "/session")) {
            let url = format!("{}{path}", c.base);
            let req = if *method == Method::GET {
                c.http.get(format!("{url}?{}", String::from_utf8_lossy(&seed).trim()))
            } else {
                c.http
                    .request(method.clone(), &url)
                    .header("Content-Type", "application/json")
                    .body(seed.clone())
            };
            let r = req.header("X-Xiangqi", "1").send().await;
            // A query that is no URL at all never leaves the client.
            let Ok(r) = r else { continue };
            let status = r.status();
            assert!(!status.is_server_error(), "{method} {path} with {name}: {status}");
            if status.is_client_error() && status != StatusCode::METHOD_NOT_ALLOWED {
                let v: Value = r.json().await.unwrap_or(Value::Null);
                assert!(
                    v["error"].is_string() && v["message"].is_string(),
                    "{method} {path} with {name}: {v}"
                );
            }
        }
    }
    // The session survived all of it.
    assert_eq!(c.get("/session").await.0, StatusCode::OK);
    s.stop().await;
}
