//! Access to the reference data in `tests/data`, produced by an independent
//! implementation (see `tests/data/README.md`).

#![allow(dead_code)]

use std::path::PathBuf;

use xiangqi::{Geometry, Position};

/// The reference-data folder: `$XIANGQI_TESTDATA` (to check other files of the same
/// formats), or the copies kept in this crate's `tests/data`.
pub fn testdata_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("XIANGQI_TESTDATA") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// The non-comment lines of a reference file.
pub fn data_lines(name: &str) -> Vec<String> {
    let path = testdata_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("reference data {} is missing ({e}); set XIANGQI_TESTDATA", path.display())
    });
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect()
}

/// One perft line: the FEN and `(depth, nodes)` pairs.
pub fn perft_cases() -> Vec<(String, Vec<(u32, u64)>)> {
    data_lines("perft.epd")
        .into_iter()
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let depths = parts
                .map(|p| {
                    let (d, n) = p.trim().split_once(' ').expect("D<depth> <nodes>");
                    (d.trim_start_matches('D').parse().unwrap(), n.parse().unwrap())
                })
                .collect();
            (fen, depths)
        })
        .collect()
}

/// The positions of a random game, its moves chosen by the given indices (it
/// stops early at a position without moves).
pub fn playout<G: Geometry>(choices: &[u16]) -> Vec<Position<G>> {
    let mut pos = Position::<G>::startpos();
    let mut seen = vec![pos.clone()];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[c as usize % moves.len()]);
        seen.push(pos.clone());
    }
    seen
}
