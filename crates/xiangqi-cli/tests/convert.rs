//! `xiangqi convert`: records between PGN, XQF and DhtmlXQ with every
//! variation and comment kept, and each record it cannot read named with
//! its place and why.

use std::{path::Path, process::Command};

use xiangqi::notation::pgn;

const RECORD: &str = "[Event \"全国赛\"]\n[Red \"胡荣华\"]\n[Black \"柳大华\"]\n[Result \"1-0\"]\n\n\
    {开局} 1. h2e2 {中炮} (1. c3c4 {仙人指路} h9g7 (1... g6g5) 2. b0c2) h9g7 2. h0g2 (2. b0c2 i9h9) i9h9 1-0\n";

fn convert(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi")).arg("convert").args(args).output().expect("xiangqi runs")
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-convert-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn tree_of(path: &Path) -> (pgn::Record, xiangqi::notation::tree::MoveTree) {
    pgn::read_tree(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn pgn_to_xqf_and_back_keeps_every_move_variation_and_comment() {
    let dir = scratch("xqf");
    let source = dir.join("game.pgn");
    std::fs::write(&source, RECORD).unwrap();
    let xqf = dir.join("game.xqf");
    let out = convert(&[source.to_str().unwrap(), "--to", "xqf", "--out", xqf.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(&std::fs::read(&xqf).unwrap()[..2], b"XQ");
    let back = dir.join("back.pgn");
    let out = convert(&[xqf.to_str().unwrap(), "--to", "pgn", "--out", back.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (original, original_tree) = pgn::read_tree(RECORD).unwrap();
    let (record, tree) = tree_of(&back);
    assert_eq!(tree, original_tree, "the same moves, variations and comments");
    assert_eq!(record.tag("Red"), Some("胡荣华"));
    assert_eq!(record.tag("Result"), original.tag("Result"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn dhtmlxq_and_chinese_pgn_round_trip_too() {
    let dir = scratch("dhtml");
    let source = dir.join("game.pgn");
    std::fs::write(&source, RECORD).unwrap();
    let text = dir.join("game.txt");
    let out = convert(&[source.to_str().unwrap(), "--to", "dhtmlxq", "--out", text.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read_to_string(&text).unwrap().contains("[DhtmlXQ_movelist]"));
    let chinese = dir.join("chinese.pgn");
    let out = convert(&[text.to_str().unwrap(), "--to", "pgn-chinese", "--out", chinese.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let written = std::fs::read_to_string(&chinese).unwrap();
    assert!(written.contains("炮二平五"), "{written}");
    assert_eq!(tree_of(&chinese).1, pgn::read_tree(RECORD).unwrap().1);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_record_that_cannot_be_read_is_named_and_the_others_converted() {
    let dir = scratch("bad");
    let source = dir.join("games.pgn");
    // GBK, as files from mainland sites are; the second game's third move is illegal.
    let text = format!(
        "{RECORD}\n[Red \"王\"]\n\n1. h2e2 h9g7 2. a0a5 *\n\n[Red \"李\"]\n[FEN \"bad\"]\n\n1. h2e2 *\n"
    );
    std::fs::write(&source, encoding_rs::GBK.encode(&text).0).unwrap();
    let out = convert(&[source.to_str().unwrap(), "--to", "pgn-wxf"]);
    assert_eq!(out.status.code(), Some(1), "some records were refused");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stdout.contains("[Red \"胡荣华\"]") && stdout.contains("C2=5"), "{stdout}");
    assert!(stdout.contains("[Red \"王\"]"), "the moves before the bad one are kept: {stdout}");
    assert!(stderr.contains("record 2: move 2 (a0a5)"), "{stderr}");
    assert!(stderr.contains("record 3: bad FEN tag"), "{stderr}");
    assert!(stderr.contains("records written, 2 refused"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}
