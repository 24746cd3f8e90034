//! CCBridge files built here byte by byte from the format's layout (CBR and
//! CBL) or written out as text (CBF), and read back.

use std::io::Read;

use xiangqi::{Color, Position, Standard};
use xiangqi_records::{Game, Limit, Limits, MoveTree, PgnError, RecordError, ccbridge};

// Where a CBR record keeps what, in bytes from its start.
const TITLE: usize = 180; // 128 bytes of UTF-16LE
const EVENT: usize = 692; // 64
const ROUND: usize = 756; // 64
const DATE: usize = 884; // 64
const SITE: usize = 948; // 64
const RED: usize = 1076; // 64
const RED_TEAM: usize = 1140; // 64
const BLACK: usize = 1300; // 64
const RESULT: usize = 2076; // 1: 0 unknown, 1 Red wins, 2 Black wins, 3 draw
const SIDE: usize = 2112; // 1: 1 Red, 2 Black
const FIRST_NUMBER: usize = 2116; // 2, little-endian
const BOARD: usize = 2120; // 90, rows from Black's side, 0x1n Red, 0x2n Black
const MOVES: usize = 2214; // the opening step, then the moves

// Where a CBL library keeps what.
const LIBRARY_SLOTS: usize = 60; // 4, little-endian
const LIBRARY_NAME: usize = 64; // 512 of UTF-16LE
const LIBRARY_INDEX: usize = 66_624; // 276 bytes a slot
const BLOCK: usize = 4096;

// Step flags.
const END: u8 = 1;
const ALT: u8 = 2;
const NOTE: u8 = 4;

/// Writes UTF-16LE text, NUL-terminated, at a field.
fn put_text(bytes: &mut [u8], at: usize, width: usize, text: &str) {
    let units: Vec<u16> = text.encode_utf16().collect();
    assert!(units.len() * 2 < width, "{text} does not fit");
    for (i, u) in units.iter().enumerate() {
        bytes[at + 2 * i..at + 2 * i + 2].copy_from_slice(&u.to_le_bytes());
    }
}

/// The board index of an ICCS point: `a9` is 0, `i0` is 89.
fn point(name: &str) -> u8 {
    let file = name.as_bytes()[0] - b'a';
    let rank: u8 = name[1..].parse().unwrap();
    (9 - rank) * 9 + file
}

/// The 90 board bytes of a FEN placement.
fn board(fen: &str) -> [u8; 90] {
    let mut out = [0u8; 90];
    for (row, text) in fen.split(' ').next().unwrap().split('/').enumerate() {
        let mut col = 0;
        for c in text.chars() {
            if let Some(n) = c.to_digit(10) {
                col += n as usize;
                continue;
            }
            let kind = match c.to_ascii_lowercase() {
                'r' => 1,
                'n' => 2,
                'b' => 3,
                'a' => 4,
                'k' => 5,
                'c' => 6,
                'p' => 7,
                other => panic!("{other}"),
            };
            out[row * 9 + col] = if c.is_ascii_uppercase() { 0x10 } else { 0x20 } | kind;
            col += 1;
        }
    }
    out
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

/// One step of a move stream: flags, two ICCS points, a comment.
fn step(out: &mut Vec<u8>, flags: u8, from: &str, to: &str, comment: &str) {
    let flags = if comment.is_empty() { flags } else { flags | NOTE };
    out.extend([flags, 0, point(from), point(to)]);
    if !comment.is_empty() {
        let text: Vec<u8> = comment.encode_utf16().chain([0]).flat_map(u16::to_le_bytes).collect();
        out.extend((text.len() as u32).to_le_bytes());
        out.extend(text);
    }
}

/// The opening step: no move, the comment before the first one.
fn opening(out: &mut Vec<u8>, comment: &str) {
    if comment.is_empty() {
        out.extend([0, 0, 0, 0]);
    } else {
        step(out, 0, "a9", "a9", comment);
    }
}

/// A record's header of 2214 bytes.
fn header(fen: &str, side: u8, first_number: u16, result: u8, texts: &[(usize, usize, &str)]) -> Vec<u8> {
    let mut bytes = vec![0u8; MOVES];
    bytes[..16].copy_from_slice(b"CCBridge Record\0");
    bytes[19] = 2;
    for &(at, width, text) in texts {
        put_text(&mut bytes, at, width, text);
    }
    bytes[RESULT] = result;
    bytes[SIDE] = side;
    bytes[FIRST_NUMBER..FIRST_NUMBER + 2].copy_from_slice(&first_number.to_le_bytes());
    bytes[BOARD..BOARD + 90].copy_from_slice(&board(fen));
    bytes[2210..2214].copy_from_slice(&[0xff; 4]);
    bytes
}

/// A record from the usual start with the given moves (ICCS, one line).
fn simple(title: &str, moves: &[&str]) -> Vec<u8> {
    let mut bytes = header(START, 1, 1, 0, &[(TITLE, 128, title)]);
    opening(&mut bytes, "");
    for (i, m) in moves.iter().enumerate() {
        step(&mut bytes, if i + 1 == moves.len() { END } else { 0 }, &m[..2], &m[2..], "");
    }
    bytes
}

/// Plays ICCS moves after a node of a tree; the last node.
fn line(tree: &mut MoveTree, start: &Position<Standard>, from: usize, moves: &[&str]) -> usize {
    let mut pos = start.clone();
    for m in tree.path(from) {
        pos.play_unchecked(m);
    }
    let mut at = from;
    for text in moves {
        let m = pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.play_unchecked(m);
        at = tree.add(at, m);
    }
    at
}

fn tag<'a>(game: &'a Game, name: &str) -> Option<&'a str> {
    game.record.tag(name)
}

#[test]
fn a_record_gives_its_header_tags_start_and_moves() {
    let mut bytes = header(
        START,
        1,
        1,
        1,
        &[
            (TITLE, 128, "胡荣华 先胜 杨官璘"),
            (EVENT, 64, "全国个人赛"),
            (ROUND, 64, "第3轮"),
            (DATE, 64, "1960-10-01"),
            (SITE, 64, "北京"),
            (RED, 64, "胡荣华"),
            (RED_TEAM, 64, "上海"),
            (BLACK, 64, "杨官璘"),
        ],
    );
    opening(&mut bytes, "");
    step(&mut bytes, 0, "h2", "e2", "");
    step(&mut bytes, END, "h9", "g7", "");
    let game = ccbridge::read_cbr(&bytes, &Limits::SITE).unwrap();
    let tags: Vec<(&str, &str)> = game.record.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        tags,
        [
            ("Event", "全国个人赛"),
            ("Site", "北京"),
            ("Date", "1960-10-01"),
            ("Round", "第3轮"),
            ("Red", "胡荣华"),
            ("RedTeam", "上海"),
            ("Black", "杨官璘"),
            ("Result", "1-0"),
            ("Title", "胡荣华 先胜 杨官璘"),
        ]
    );
    assert_eq!(game.record.start, Position::startpos());
    let start = Position::startpos();
    let mut want = MoveTree::new();
    line(&mut want, &start, MoveTree::ROOT, &["h2e2", "h9g7"]);
    assert_eq!(game.tree, want);
}

#[test]
fn a_result_the_record_does_not_state_is_left_out() {
    for code in [0, 4, 9] {
        let mut bytes = header(START, 1, 1, code, &[]);
        opening(&mut bytes, "");
        let game = ccbridge::read_cbr(&bytes, &Limits::SITE).unwrap();
        assert_eq!(tag(&game, "Result"), None, "{code}");
    }
}

/// The stream of a tree with nested variations and comments:
///
/// ```text
/// {start} h2e2 ( c3c4 {quiet} ) h9g7 ( b9c7 b2c2 ( h0g2 ) ) h0g2 {develops}
/// ```
fn tree_record() -> Vec<u8> {
    let mut bytes = header(START, 1, 1, 3, &[]);
    opening(&mut bytes, "start");
    step(&mut bytes, ALT, "h2", "e2", ""); // c3c4 comes after this line
    step(&mut bytes, ALT, "h9", "g7", ""); // b9c7 comes after this line
    step(&mut bytes, END, "h0", "g2", "develops"); // back to h2e2's position
    step(&mut bytes, 0, "b9", "c7", "");
    step(&mut bytes, ALT | END, "b2", "c2", ""); // h0g2 comes next, beside it
    step(&mut bytes, END, "h0", "g2", ""); // back to the start
    step(&mut bytes, END, "c3", "c4", "quiet"); // nothing promised: the end
    bytes
}

fn tree_want() -> MoveTree {
    let start = Position::startpos();
    let mut want = MoveTree::new();
    want.set_comment(MoveTree::ROOT, "start");
    let a = line(&mut want, &start, MoveTree::ROOT, &["h2e2"]);
    let c4 = line(&mut want, &start, MoveTree::ROOT, &["c3c4"]);
    want.set_comment(c4, "quiet");
    let b = line(&mut want, &start, a, &["h9g7"]);
    let g2 = line(&mut want, &start, b, &["h0g2"]);
    want.set_comment(g2, "develops");
    let alt = line(&mut want, &start, a, &["b9c7"]);
    line(&mut want, &start, alt, &["b2c2"]);
    line(&mut want, &start, alt, &["h0g2"]);
    want
}

#[test]
fn the_moves_are_the_tree_in_preorder_with_alternatives_after_their_line() {
    let game = ccbridge::read_cbr(&tree_record(), &Limits::SITE).unwrap();
    assert_eq!(game.tree, tree_want());
    assert_eq!(tag(&game, "Result"), Some("1/2-1/2"));
    assert_eq!(game.record.moves.len(), 3);
}

#[test]
fn a_setup_keeps_its_side_to_move_and_first_move_number() {
    let fen = "3k5/4a4/9/9/9/9/9/4C4/4A4/3AK4";
    let mut bytes = header(fen, 2, 30, 0, &[]);
    opening(&mut bytes, "");
    step(&mut bytes, END, "d9", "d8", "");
    let game = ccbridge::read_cbr(&bytes, &Limits::SITE).unwrap();
    assert_eq!(game.record.start.to_fen(), format!("{fen} b - - 0 30"));
    assert_eq!(game.record.start.turn(), Color::Black);
    assert_eq!(game.record.moves.len(), 1);
}

#[test]
fn a_side_byte_that_says_nothing_takes_the_first_moves_side() {
    let fen = "3k5/4a4/9/9/9/9/9/4C4/4A4/3AK4";
    let mut bytes = header(fen, 0, 1, 0, &[]);
    opening(&mut bytes, "note");
    step(&mut bytes, END, "d9", "d8", "");
    let game = ccbridge::read_cbr(&bytes, &Limits::SITE).unwrap();
    assert_eq!(game.record.start.turn(), Color::Black);
    assert_eq!(game.tree.comment(MoveTree::ROOT), "note");
}

#[test]
fn a_record_without_moves_is_a_start_position() {
    let bytes = header(START, 1, 1, 0, &[]);
    let mut with_opening = bytes.clone();
    opening(&mut with_opening, "");
    let game = ccbridge::read_cbr(&with_opening, &Limits::SITE).unwrap();
    assert!(game.tree.is_empty());
    with_opening.extend([0u8; 100]);
    assert!(ccbridge::read_cbr(&with_opening, &Limits::SITE).unwrap().tree.is_empty());
    // The opening step is part of the header.
    assert!(matches!(ccbridge::read_cbr(&bytes, &Limits::SITE), Err(RecordError::Layout { .. })));
}

fn layout_error(result: Result<Game, RecordError>) -> (usize, String) {
    match result {
        Err(RecordError::Layout { offset, what }) => (offset, what),
        other => panic!("expected a layout error, got {other:?}"),
    }
}

#[test]
fn a_record_cut_short_anywhere_is_refused_without_panic() {
    let bytes = tree_record();
    // Cut right after its opening step, a record is one without moves.
    let opening_end = MOVES + 8 + 2 * "start\0".len();
    for end in (0..bytes.len()).filter(|&end| end != opening_end) {
        assert!(ccbridge::read_cbr(&bytes[..end], &Limits::SITE).is_err(), "cut at {end}");
    }
    assert!(ccbridge::read_cbr(&bytes[..opening_end], &Limits::SITE).unwrap().tree.is_empty());
    let (offset, what) = layout_error(ccbridge::read_cbr(&bytes[..bytes.len() - 6], &Limits::SITE));
    assert!(what.contains("comment") || what.contains("ends"), "{what} at {offset}");
}

#[test]
fn a_comment_length_past_the_end_is_refused_where_it_stands() {
    let mut bytes = header(START, 1, 1, 0, &[]);
    opening(&mut bytes, "");
    bytes.extend([END | NOTE, 0, point("h2"), point("e2")]);
    bytes.extend(u32::MAX.to_le_bytes());
    bytes.extend([0x41, 0, 0, 0]);
    let (offset, what) = layout_error(ccbridge::read_cbr(&bytes, &Limits::SITE));
    assert_eq!(offset, MOVES + 8);
    assert!(what.contains("4294967295 bytes"), "{what}");
}

#[test]
fn a_board_byte_that_is_no_piece_is_refused() {
    let mut bytes = header(START, 1, 1, 0, &[]);
    opening(&mut bytes, "");
    bytes[BOARD + 40] = 0x35;
    let (offset, what) = layout_error(ccbridge::read_cbr(&bytes, &Limits::SITE));
    assert_eq!(offset, BOARD + 40);
    assert!(what.contains("0x35"), "{what}");
    bytes[BOARD + 40] = 0x18;
    assert!(matches!(ccbridge::read_cbr(&bytes, &Limits::SITE), Err(RecordError::Layout { .. })));
}

#[test]
fn a_board_that_is_no_position_is_refused() {
    let mut bytes = header("4k4/9/9/9/9/9/9/9/9/4K4", 1, 1, 0, &[]);
    opening(&mut bytes, "");
    assert!(matches!(ccbridge::read_cbr(&bytes, &Limits::SITE), Err(RecordError::Record(PgnError::Fen(_)))));
}

#[test]
fn a_point_off_the_board_is_refused() {
    let mut bytes = header(START, 1, 1, 0, &[]);
    opening(&mut bytes, "");
    bytes.extend([END, 0, point("h2"), 95]);
    let (offset, what) = layout_error(ccbridge::read_cbr(&bytes, &Limits::SITE));
    assert_eq!(offset, MOVES + 4);
    assert!(what.contains("95"), "{what}");
}

#[test]
fn moves_that_stop_in_the_middle_of_a_line_are_refused() {
    let mut bytes = header(START, 1, 1, 0, &[]);
    opening(&mut bytes, "");
    step(&mut bytes, ALT, "h2", "e2", "");
    step(&mut bytes, END, "h9", "g7", "");
    // The promised alternative to h2e2 never comes.
    let (_, what) = layout_error(ccbridge::read_cbr(&bytes, &Limits::SITE));
    assert!(what.contains("ends"), "{what}");
    bytes.extend([0u8; 8]);
    let (offset, _) = layout_error(ccbridge::read_cbr(&bytes, &Limits::SITE));
    assert_eq!(offset, bytes.len() - 8);
}

#[test]
fn an_illegal_move_is_refused_with_its_ply_and_the_rest_kept() {
    let mut bytes = header(START, 1, 1, 0, &[]);
    opening(&mut bytes, "");
    step(&mut bytes, ALT, "h2", "e2", "");
    step(&mut bytes, 0, "h9", "g7", "");
    step(&mut bytes, END, "h2", "e2", ""); // ply 3: h2 is empty now
    step(&mut bytes, END, "c3", "c4", "kept"); // the alternative to ply 1
    match ccbridge::read_cbr(&bytes, &Limits::SITE) {
        Err(RecordError::Cut { kept, error: PgnError::Move { ply, number, red, text, .. } }) => {
            assert_eq!((ply, number, red, text.as_str()), (3, 2, true, "h2e2"));
            assert_eq!(kept.record.moves.len(), 2);
            assert_eq!(kept.tree.len(), 4);
            assert_eq!(kept.tree.comment(3), "kept");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_limits_hold_while_reading_a_record() {
    let bytes = tree_record();
    let limits = Limits { variation_depth: 0, ..Limits::SITE };
    assert!(matches!(
        ccbridge::read_cbr(&bytes, &limits),
        Err(RecordError::Record(PgnError::OverLimit { limit: Limit::VariationDepth, .. }))
    ));
    let limits = Limits { nodes_per_tree: 4, ..Limits::SITE };
    assert!(matches!(
        ccbridge::read_cbr(&bytes, &limits),
        Err(RecordError::Record(PgnError::OverLimit { limit: Limit::NodesPerTree, .. }))
    ));
    let limits = Limits { plies_per_line: 2, ..Limits::SITE };
    assert!(matches!(
        ccbridge::read_cbr(&bytes, &limits),
        Err(RecordError::Record(PgnError::OverLimit { limit: Limit::PliesPerLine, .. }))
    ));
    let limits = Limits { file_bytes: 100, ..Limits::SITE };
    assert!(matches!(
        ccbridge::read_cbr(&bytes, &limits),
        Err(RecordError::Record(PgnError::OverLimit { limit: Limit::FileBytes, .. }))
    ));
}

/// A library of the given records, its index made for `slots` slots, each
/// record padded to whole blocks.
fn library(name: &str, slots: u32, records: &[Vec<u8>]) -> Vec<u8> {
    let first = LIBRARY_INDEX + slots as usize * 276;
    let mut bytes = vec![0u8; first];
    bytes[..16].copy_from_slice(b"CCBridgeLibrary\0");
    bytes[52..56].copy_from_slice(&[0xff, 0xff, 0xff, 0x7f]);
    bytes[LIBRARY_SLOTS..LIBRARY_SLOTS + 4].copy_from_slice(&slots.to_le_bytes());
    put_text(&mut bytes, LIBRARY_NAME, 512, name);
    for record in records {
        let mut record = record.clone();
        record.resize(record.len().div_ceil(BLOCK) * BLOCK, 0);
        bytes.extend(record);
    }
    bytes
}

/// A reader that gives a few bytes at a time and counts what it gave.
struct Trickle<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(7).min(self.bytes.len() - self.at);
        buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A record whose comment takes it past one block.
fn long_record() -> Vec<u8> {
    let mut bytes = header(START, 1, 1, 2, &[(TITLE, 128, "long")]);
    opening(&mut bytes, &"注".repeat(3000));
    step(&mut bytes, END, "h2", "e2", "after the long note");
    assert!(bytes.len() > BLOCK);
    bytes
}

#[test]
fn a_library_gives_its_records_one_at_a_time_and_a_bad_one_hides_none() {
    let mut bad = simple("bad", &["h2e2"]);
    bad[BOARD] = 0x99;
    let mut illegal = simple("illegal", &["h2e2", "h2e2"]);
    illegal[SIDE] = 1;
    let bytes = library(
        "测试库",
        5,
        &[simple("one", &["h2e2", "h9g7"]), long_record(), bad, illegal, tree_record(), simple("last", &[])],
    );
    let mut games = ccbridge::cbl_games(Trickle { bytes: &bytes, at: 0 }, Limits::SITE);
    let first = games.next().unwrap().unwrap();
    assert_eq!(tag(&first, "Title"), Some("one"));
    assert_eq!(games.header().unwrap().name, "测试库");
    assert_eq!(games.header().unwrap().slots, 5);
    let long = games.next().unwrap().unwrap();
    assert_eq!(long.tree.comment(MoveTree::ROOT).chars().count(), 3000);
    assert_eq!(long.tree.comment(1), "after the long note");
    let bad_record = LIBRARY_INDEX + 5 * 276 + BLOCK + long_record().len().div_ceil(BLOCK) * BLOCK;
    match games.next().unwrap() {
        Err(RecordError::Layout { offset, .. }) => assert_eq!(offset, bad_record + BOARD),
        other => panic!("{other:?}"),
    }
    match games.next().unwrap() {
        Err(RecordError::Cut { kept, error: PgnError::Move { ply: 2, .. } }) => {
            assert_eq!(kept.tree.len(), 2)
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(games.next().unwrap().unwrap().tree, tree_want());
    assert!(games.next().unwrap().unwrap().tree.is_empty());
    assert!(games.next().is_none());
    assert!(games.next().is_none());
}

#[test]
fn a_library_is_read_as_its_games_are_asked_for() {
    let records: Vec<Vec<u8>> = (0..20).map(|i| simple(&format!("game {i}"), &["h2e2"])).collect();
    let bytes = library("lazy", 128, &records);
    let mut trickle = Trickle { bytes: &bytes, at: 0 };
    let mut games = ccbridge::cbl_games(&mut trickle, Limits::SITE);
    assert_eq!(tag(&games.next().unwrap().unwrap(), "Title"), Some("game 0"));
    drop(games);
    // The header, the index, the first record and the block read ahead.
    assert_eq!(trickle.at, LIBRARY_INDEX + 128 * 276 + 2 * BLOCK);
    let all: Vec<_> = ccbridge::cbl_games(&bytes[..], Limits::SITE).collect();
    assert_eq!(all.len(), 20);
    assert!(all.iter().all(Result::is_ok));
}

#[test]
fn a_library_holds_to_the_limits_of_a_file() {
    let records: Vec<Vec<u8>> = (0..5).map(|i| simple(&format!("game {i}"), &["h2e2", "h9g7"])).collect();
    let bytes = library("limits", 8, &records);
    let limits = Limits { games_per_file: 3, ..Limits::SITE };
    let games: Vec<_> = ccbridge::cbl_games(&bytes[..], limits).collect();
    assert_eq!(games.len(), 4);
    assert!(matches!(
        &games[3],
        Err(RecordError::Record(PgnError::OverLimit { limit: Limit::GamesPerFile, .. }))
    ));
    let limits = Limits { nodes_per_file: 5, ..Limits::SITE };
    let games: Vec<_> = ccbridge::cbl_games(&bytes[..], limits).collect();
    assert_eq!(games.len(), 3);
    assert!(matches!(
        &games[2],
        Err(RecordError::Record(PgnError::OverLimit { limit: Limit::NodesPerFile, .. }))
    ));
    // A record longer than a file may be is refused, and the next one read.
    let bytes = library("long", 8, &[long_record(), simple("short", &["h2e2"])]);
    let limits = Limits { file_bytes: BLOCK, ..Limits::SITE };
    let games: Vec<_> = ccbridge::cbl_games(&bytes[..], limits).collect();
    assert_eq!(games.len(), 2);
    assert!(matches!(
        &games[0],
        Err(RecordError::Record(PgnError::OverLimit { limit: Limit::FileBytes, .. }))
    ));
    assert_eq!(tag(games[1].as_ref().unwrap(), "Title"), Some("short"));
}

#[test]
fn a_library_cut_short_or_claiming_too_many_slots_is_refused_without_panic() {
    let bytes = library("cut", 2, &[simple("one", &["h2e2"]), simple("two", &["h2e2"])]);
    for end in (0..bytes.len()).step_by(997).chain([10, 575, 576, 577, bytes.len() - 1]) {
        let games: Vec<_> = ccbridge::cbl_games(&bytes[..end], Limits::SITE).collect();
        assert!(games.len() <= 2, "cut at {end}");
    }
    let mut huge = bytes.clone();
    huge[LIBRARY_SLOTS..LIBRARY_SLOTS + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let games: Vec<_> = ccbridge::cbl_games(&huge[..], Limits::SITE).collect();
    assert_eq!(games.len(), 1);
    match &games[0] {
        Err(RecordError::Layout { what, .. }) => assert!(what.contains("4294967295 slots"), "{what}"),
        other => panic!("{other:?}"),
    }
    let games: Vec<_> = ccbridge::cbl_games(&b"CCBridge Record\0"[..], Limits::SITE).collect();
    assert!(matches!(&games[..], [Err(RecordError::Layout { offset: 0, .. })]));
}

#[test]
fn the_library_header_gives_its_name_and_slots() {
    let bytes = library("名库", 140, &[]);
    let header = ccbridge::library_header(&bytes[..ccbridge::LIBRARY_HEADER_BYTES]).unwrap();
    assert_eq!(header.name, "名库");
    assert_eq!(header.slots, 140);
    assert_eq!(header.first_record(), 105_264);
    assert!(ccbridge::library_header(&bytes[..100]).is_err());
}

const CBF_HEAD: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<ChineseChessRecord Version=\"1.0\">\r\n <Head>\r\n  <Name>胡荣华 先胜 杨官璘</Name>\r\n  <URL />\r\n  <From>书</From>\r\n  <ContestType />\r\n  <Contest>全国个人赛</Contest>\r\n  <Round>3</Round>\r\n  <Date>1960-10-01</Date>\r\n  <Site>北京</Site>\r\n  <Red>胡荣华</Red>\r\n  <RedTeam>上海</RedTeam>\r\n  <Black>杨官璘</Black>\r\n  <Commentator>某</Commentator>\r\n  <ECCO>C00</ECCO>\r\n  <RecordType>1</RecordType>\r\n  <RecordResult>1</RecordResult>\r\n  <Sponsor>某公司 &amp; 友</Sponsor>\r\n";

fn cbf(fen: &str, moves: &str) -> Vec<u8> {
    let text = format!(
        "\u{feff}{CBF_HEAD}  <FEN>{fen}</FEN>\r\n </Head>\r\n <MoveList>\r\n{moves} </MoveList>\r\n</ChineseChessRecord>\r\n"
    );
    text.into_bytes()
}

const FULL_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn a_cbf_record_gives_its_head_tags_start_and_moves() {
    let moves = "  <Move value=\"00-00\" />\r\n  <Move value=\"77-47\" />\r\n  <Move value=\"70-62\" end=\"1\" />\r\n";
    let bytes = cbf(FULL_START, moves);
    assert_eq!(ccbridge::kind(&bytes), Some(ccbridge::Kind::Cbf));
    let game = ccbridge::read_cbf(&bytes, &Limits::SITE).unwrap();
    let tags: Vec<(&str, &str)> = game.record.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        tags,
        [
            ("Title", "胡荣华 先胜 杨官璘"),
            ("Source", "书"),
            ("Event", "全国个人赛"),
            ("Round", "3"),
            ("Date", "1960-10-01"),
            ("Site", "北京"),
            ("Red", "胡荣华"),
            ("RedTeam", "上海"),
            ("Black", "杨官璘"),
            ("Annotator", "某"),
            ("ECCO", "C00"),
            ("Result", "1-0"),
            ("Sponsor", "某公司 & 友"),
        ]
    );
    let start = Position::startpos();
    let mut want = MoveTree::new();
    line(&mut want, &start, MoveTree::ROOT, &["h2e2", "h9g7"]);
    assert_eq!(game.tree, want);
}

#[test]
fn a_cbf_tree_follows_the_order_and_flags_of_a_cbr_one() {
    let moves = "  <Move value=\"00-00\" comment=\"start\" />\r\n\
                 <Move value=\"77-47\" variation=\"1\" />\r\n\
                 <Move value=\"70-62\" variation=\"1\" />\r\n\
                 <Move value=\"79-67\" end=\"1\" comment=\"develops\" />\r\n\
                 <Move value=\"10-22\" />\r\n\
                 <Move value=\"17-27\" variation=\"1\" end=\"1\" />\r\n\
                 <Move value=\"79-67\" end=\"1\" />\r\n\
                 <Move value=\"26-25\" end=\"1\">quiet</Move>\r\n";
    let game = ccbridge::read_cbf(&cbf(FULL_START, moves), &Limits::SITE).unwrap();
    assert_eq!(game.tree, tree_want());
}

#[test]
fn a_cbf_setup_is_its_fen() {
    let fen = "3k5/4a4/9/9/9/9/9/4C4/4A4/3AK4 b - - 0 30";
    let moves = "<Move value=\"00-00\" /><Move value=\"30-31\" end=\"1\" />";
    let game = ccbridge::read_cbf(&cbf(fen, moves), &Limits::SITE).unwrap();
    assert_eq!(game.record.start.to_fen(), fen);
    assert_eq!(game.record.moves.len(), 1);
}

#[test]
fn a_malformed_cbf_is_refused_clearly() {
    let ok = "<Move value=\"00-00\" /><Move value=\"77-47\" end=\"1\" />";
    let refuse = |bytes: &[u8], says: &str| match ccbridge::read_cbf(bytes, &Limits::SITE) {
        Err(RecordError::Layout { what, .. }) => assert!(what.contains(says), "{what} lacks {says}"),
        other => panic!("{other:?}"),
    };
    let mut latin1 = cbf(FULL_START, ok);
    latin1.push(0xff);
    refuse(&latin1, "UTF-8");
    refuse(b"<Record><Head/></Record>", "<Record>");
    refuse(&cbf(FULL_START, "<Move value=\"00-00\"><Move>")[..], "XML");
    refuse(&cbf(FULL_START, "<Move value=\"00-00\" /><Move value=\"97-47\" end=\"1\" />"), "\"97-47\"");
    refuse(&cbf(FULL_START, "<Move value=\"00-00\" /><Move value=\"7747\" end=\"1\" />"), "\"7747\"");
    refuse(
        &cbf(
            FULL_START,
            "<Move value=\"00-00\" /><Move value=\"77-47\" end=\"1\" /><Move value=\"70-62\" />",
        ),
        "end of the last line",
    );
    assert!(matches!(
        ccbridge::read_cbf(&cbf("rnbakabnr/9 w", ok), &Limits::SITE),
        Err(RecordError::Record(PgnError::Fen(_)))
    ));
    match ccbridge::read_cbf(
        &cbf(
            FULL_START,
            "<Move value=\"00-00\" /><Move value=\"77-47\" /><Move value=\"77-47\" end=\"1\" />",
        ),
        &Limits::SITE,
    ) {
        Err(RecordError::Cut { kept, error: PgnError::Move { ply: 2, .. } }) => {
            assert_eq!(kept.tree.len(), 2)
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn no_cut_of_a_cbf_makes_the_reader_panic() {
    let moves = "<Move value=\"00-00\" comment=\"a &lt; b\" /><Move value=\"77-47\" variation=\"1\" />\
                 <Move value=\"70-62\" end=\"1\" /><Move value=\"26-25\" end=\"1\">x</Move>";
    let bytes = cbf(FULL_START, moves);
    assert!(ccbridge::read_cbf(&bytes, &Limits::SITE).is_ok());
    for end in 0..bytes.len() {
        let _ = ccbridge::read_cbf(&bytes[..end], &Limits::SITE);
    }
}

#[test]
fn the_kind_of_a_file_is_read_from_its_content() {
    assert_eq!(ccbridge::kind(&simple("x", &[])), Some(ccbridge::Kind::Cbr));
    assert_eq!(ccbridge::kind(&library("x", 1, &[])), Some(ccbridge::Kind::Cbl));
    assert_eq!(ccbridge::kind(b"[Game \"Chinese Chess\"]"), None);
    assert_eq!(ccbridge::kind(b"CCBridge"), None);
}
