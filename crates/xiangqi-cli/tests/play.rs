//! `xiangqi play --plain` driven through stdin and stdout, as a person at a
//! keyboard (or a script) would.

use std::{
    io::Write,
    process::{Command, Stdio},
};

fn play(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .arg("play")
        .arg("--plain")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Two chariots against a bare general: Red mates in two.
const MATE_IN_TWO: &str = "4k4/9/1R7/9/9/9/9/9/R8/3K5 w - - 0 1";

#[test]
fn a_scripted_game_ends_in_checkmate_with_the_reason_in_words() {
    let out = play(&["--two-players", "--fen", MATE_IN_TWO], "b7b8\ne9f9\na1a9\n");
    assert!(out.contains("Game over. Red wins: checkmate."), "{out}");
    assert!(out.contains("game over: Red wins: checkmate"));
}

#[test]
fn a_whole_game_from_the_start_to_checkmate() {
    // A game between two fixed-depth searches, replayed move by move.
    let game = "b0c2 b9c7 h0g2 a9a8 i0i1 a8f8 a0a1 h7h4 g3g4 h4h5 h2h9 h5e5 c0e2 i9h9 e3e4 e5a5 i1h1 a5h5 \
                h1f1 h5f5 b2b5 h9h3 e4e5 f5f2 d0e1 f2f3 e5d5 h3h2 f1g1 f3g3 g2e3 f8f3 e3f5 g3c3 g4g5 c6c5 \
                f5d4 f3f4 a1d1 c5c4 b5b4 c4b4 d1d3 b4c4 d4f5 h2h4 f5d6 b7b1 d3d1 b1b8 d1b1 c4b4 b1d1 b8d8 \
                g5f5 f4f5 c2e3 f5f3 e3c2 c7d5 g1g6 d5f4 d6c8 g9e7 g6g8 f4d3 g8d8 h4h3 d8f8";
    let input: String = game.split_whitespace().map(|m| format!("{m}\n")).collect();
    let out = play(&["--two-players"], &input);
    assert!(!out.contains("refused"), "{out}");
    assert!(out.contains("35. R+=4\nGame over. Red wins: checkmate."), "{out}");
}

#[test]
fn illegal_and_malformed_moves_are_refused_with_the_reason() {
    let out = play(&["--two-players"], "h2h9x\ne0e2\nh0h2\nh2e2\n");
    assert!(out.contains("refused: \"h2h9x\" is not a move"), "{out}");
    assert!(out.contains("refused: e0e2 is illegal: a general cannot move that way"), "{out}");
    assert!(out.contains("refused: h0h2 is illegal: the target holds one of your own pieces"), "{out}");
    assert!(out.contains("1. C2=5"), "the legal move is played and named in WXF: {out}");
}

#[test]
fn take_back_restores_the_previous_position() {
    let out = play(&["--two-players"], "h2e2\nundo\nmoves\n");
    assert!(out.contains("Taken back."));
    let last_prompt = out.rsplit("red> ").nth(1).unwrap_or_default();
    assert!(last_prompt.contains("h2e2"), "red to move again with the cannon move available");
    let out = play(&["--two-players"], "undo\n");
    assert!(out.contains("refused: no move to take back"));
}

#[test]
fn against_the_engine_its_replies_follow_each_move() {
    let out = play(&["--level", "1"], "h2e2\nh0g2\nquit\n");
    assert_eq!(out.matches("engine plays").count(), 2, "{out}");
    let out = play(&["--level", "1", "--color", "black"], "quit\n");
    assert!(out.contains("engine plays 1."), "the engine opens as Red: {out}");
}

#[test]
fn a_saved_game_loads_back_as_pgn() {
    let dir = std::env::temp_dir().join(format!("xiangqi-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.pgn");
    let path = file.to_str().unwrap();
    let out = play(&["--two-players"], &format!("h2e2\nh9g7\nh0g2\nsave {path}\n"));
    assert!(out.contains("Saved to"), "{out}");
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert!(pgn.starts_with("[Game \"Chinese Chess\"]"), "{pgn}");
    let out = play(&["--two-players"], &format!("load {path}\nmoves\n"));
    assert!(out.contains("Loaded 3 moves"), "{out}");
    assert!(out.contains("black to move") || out.contains("black>"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn levels_are_one_to_eight_and_a_seed_repeats_the_games_replies() {
    for bad in ["0", "9", "ten"] {
        let out = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
            .args(["play", "--plain", "--level", bad])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "level {bad} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("is not a level from 1 to 8"), "{err}");
    }
    let moves = "h2e2\nh0g2\ni0h0\ng3g4\nquit\n";
    let first = play(&["--level", "1", "--seed", "42"], moves);
    assert!(first.contains("engine plays"), "{first}");
    assert_eq!(play(&["--level", "1", "--seed", "42"], moves), first);
    assert_ne!(play(&["--level", "1", "--seed", "43"], moves), first, "another seed, other replies");
}
