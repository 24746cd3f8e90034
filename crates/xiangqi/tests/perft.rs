//! Every line of the reference perft file, against leaf counts from an independent
//! implementation. Depths up to 3 run always; depth 4 runs with `--ignored`
//! (CI runs it in release).

mod common;

use xiangqi::{Position, Standard};

fn check(max_depth: u32) {
    let mut failures = Vec::new();
    let cases = common::perft_cases();
    assert!(cases.len() > 100, "the reference file looks truncated");
    for (fen, depths) in &cases {
        let pos: Position<Standard> = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        for &(depth, expected) in depths.iter().filter(|(d, _)| *d <= max_depth) {
            let got = pos.perft(depth);
            if got != expected {
                failures.push(format!("{fen} depth {depth}: got {got}, expected {expected}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn reference_perft_to_depth_3() {
    check(3);
}

#[test]
#[ignore = "deep: run with --ignored in release"]
fn reference_perft_depth_4() {
    check(4);
}

#[test]
fn start_position_perft() {
    let pos = Position::<Standard>::startpos();
    assert_eq!((1..=4).map(|d| pos.perft(d)).collect::<Vec<_>>(), [44, 1_920, 79_666, 3_290_240]);
}
