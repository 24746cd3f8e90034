//! The WebAssembly module against the native crates, run by Node.js through
//! `npm/stdio.mjs`: the rules' reference files (perft counts and legal moves
//! from an independent implementation) and positions of Xiang Hex from random
//! games, move for move; and the engine's benchmark, node for node, which no
//! difference in move generation, evaluation (the SIMD128 kernels included)
//! or search would leave equal.

use std::{
    io::{BufRead, BufReader, Write},
    path::PathBuf,
    process::{Command, Stdio},
};

use serde_json::{Value, json};
use xiangqi::{AnyGame, RuleSet, Variant};

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The module: `$XIANGQI_WASM`, or the release build's.
fn module() -> PathBuf {
    let path = std::env::var_os("XIANGQI_WASM")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target/wasm32-unknown-unknown/release/xiangqi_wasm.wasm"));
    assert!(
        path.exists(),
        "no module at {}: build it with `cargo build -p xiangqi-wasm --target wasm32-unknown-unknown --release`",
        path.display()
    );
    path
}

/// Sends every request to the module at once and answers its answers, in order.
fn ask_all(requests: &[Value]) -> Vec<Value> {
    let mut node = Command::new("node")
        .arg(workspace().join("crates/xiangqi-wasm/npm/stdio.mjs"))
        .arg(module())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("Node.js (`node`) runs the module");
    let mut input = node.stdin.take().unwrap();
    let text: String = requests.iter().map(|r| format!("{r}\n")).collect();
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()).unwrap());
    let answers: Vec<Value> = BufReader::new(node.stdout.take().unwrap())
        .lines()
        .map(|l| serde_json::from_str::<Value>(&l.unwrap()).unwrap())
        .filter(|v| v.get("info").is_none())
        .collect();
    writer.join().unwrap();
    assert!(node.wait().unwrap().success());
    assert_eq!(answers.len(), requests.len(), "an answer for every request");
    answers
}

fn data(name: &str) -> String {
    std::fs::read_to_string(workspace().join("crates/xiangqi/tests/data").join(name)).unwrap()
}

fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
}

/// Positions of Xiang Hex along seeded random games, with the native crate's legal moves.
fn hex_positions() -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    for _ in 0..20 {
        let mut game = AnyGame::startpos(Variant::Hex, RuleSet::Hex);
        for _ in 0..40 {
            let fen = game.fen();
            let fresh = AnyGame::new(Variant::Hex, &fen, RuleSet::Hex).unwrap();
            out.push((fen, fresh.legal_names()));
            let moves = game.legal_moves();
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let m = moves[(seed >> 33) as usize % moves.len()];
            if game.play(m).is_err() {
                break;
            }
        }
    }
    out
}

#[test]
#[ignore = "needs Node.js and the module built for wasm32 (XIANGQI_WASM); .ci/run builds both"]
fn the_module_agrees_with_the_rules_references_and_the_native_engine() {
    let mut requests = Vec::new();
    let mut expected = Vec::new();
    let perft = data("perft.epd");
    for line in lines(&perft) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        for part in parts {
            let (depth, nodes) = part.trim().split_once(' ').unwrap();
            let depth: u32 = depth.trim_start_matches('D').parse().unwrap();
            requests.push(json!({"op": "perft", "fen": fen, "depth": depth}));
            expected.push(json!({"nodes": nodes.parse::<u64>().unwrap()}));
        }
    }
    let perft_requests = requests.len();
    let legal = data("legal_moves.txt");
    let mut legal_expected = Vec::new();
    for line in lines(&legal) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        let mut moves: Vec<String> = parts.next().unwrap().split_whitespace().map(str::to_string).collect();
        moves.sort();
        let check = parts.next().unwrap().trim() == "check=1";
        requests.push(json!({"op": "line", "fen": fen}));
        legal_expected.push((moves, Some(check)));
    }
    for (fen, moves) in hex_positions() {
        requests.push(json!({"op": "line", "variant": "hex", "fen": fen}));
        legal_expected.push((moves, None));
    }
    const DEPTH: i32 = 10;
    requests.push(json!({"op": "bench", "depth": DEPTH}));

    let answers = ask_all(&requests);
    for (i, (answer, want)) in answers[..perft_requests].iter().zip(&expected).enumerate() {
        assert_eq!(&answer["answer"], want, "{}", requests[i]);
    }
    let legal_answers = &answers[perft_requests..answers.len() - 1];
    assert!(legal_answers.len() > 900, "the reference and the hex positions: {}", legal_answers.len());
    for (k, (answer, (moves, check))) in legal_answers.iter().zip(&legal_expected).enumerate() {
        let at = &answer["answer"]["positions"][0];
        let got: Vec<&str> = at["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        assert_eq!(got, *moves, "{}", requests[perft_requests + k]);
        if let Some(check) = check {
            assert_eq!(at["check"], *check, "{}", requests[perft_requests + k]);
        }
    }
    let mut native = Vec::new();
    let report =
        xiangqi_engine::bench::run(DEPTH, 16, 1, xiangqi_engine::nnue::Nets::embedded(), &mut |_, _, n| {
            native.push(n)
        })
        .unwrap();
    let bench = &answers.last().unwrap()["answer"];
    assert_eq!(bench["kernel"], "Simd128", "the module evaluates with WebAssembly SIMD");
    assert_eq!(bench["per_position"], json!(native), "the search, node for node");
    assert_eq!(bench["nodes"], report.nodes);
}
