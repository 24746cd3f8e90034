//! The CCBridge readers checked against cchess, a Python library that reads
//! CBF, CBR and CBL too: files built here byte by byte, each read by both,
//! must give the same start, the same lines in the same order, the same
//! comments and the same names.
//!
//! The test is ignored, and CI runs ignored tests. It needs `python3` with
//! cchess 1.25.5 (`python3 -m pip install cchess==1.25.5`) and fails, saying
//! what is missing, without them. `tests/cchess/read.py` is the Python side.
//!
//! What cchess 1.25.5 reads differently, and the check therefore leaves out:
//! it takes a CBR record's side to move from the two bytes at 2116 (the first
//! move's number) rather than from byte 2112, so the side is compared for CBF
//! only; it reads a CBF file's main line only, without comments or names, so
//! the CBF samples hold no more; and it looks for a library's records from
//! byte 101952 on, where an index of 128 slots ends, so the library sample
//! has one of 128 slots.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use xiangqi::{Color, Position, Standard, rng::Rng};
use xiangqi_records::{Game, Limits, MoveTree, ccbridge};

const CCHESS: &str = "1.25.5";

#[test]
#[ignore = "needs python3 and cchess 1.25.5 (python3 -m pip install cchess==1.25.5); CI runs it"]
fn cchess_reads_the_ccbridge_files_built_here_as_the_crate_does() {
    let files = samples();
    let folder = Folder::new();
    for (name, bytes) in &files {
        std::fs::write(folder.0.join(name), bytes).expect("the test folder takes a file");
    }
    let seen = run_cchess(&folder.0);
    let limits = Limits { nodes_per_tree: 100_000, ..Limits::SITE };
    let mut problems = Vec::new();
    for (name, bytes) in &files {
        let ours: Vec<Game> = match ccbridge::kind(bytes) {
            Some(ccbridge::Kind::Cbf) => vec![ccbridge::read_cbf(bytes, &limits).unwrap()],
            Some(ccbridge::Kind::Cbr) => vec![ccbridge::read_cbr(bytes, &limits).unwrap()],
            Some(ccbridge::Kind::Cbl) => {
                ccbridge::cbl_games(&bytes[..], limits).map(Result::unwrap).collect()
            }
            None => panic!("{name} is no CCBridge file"),
        };
        let theirs: Vec<&Json> =
            seen.iter().filter(|line| line.get("file").and_then(Json::text) == Some(name.as_str())).collect();
        if theirs.len() != ours.len() {
            problems.push(format!("{name}: the crate reads {} games, cchess {}", ours.len(), theirs.len()));
            continue;
        }
        let cbf = name.ends_with(".cbf");
        for (i, (game, their)) in ours.iter().zip(theirs).enumerate() {
            problems
                .extend(differences(game, their, cbf).into_iter().map(|d| format!("{name} game {i}: {d}")));
        }
    }
    assert!(problems.is_empty(), "cchess reads these files otherwise:\n{}", problems.join("\n"));
}

/// Where cchess's reading of a game differs from the crate's.
fn differences(ours: &Game, theirs: &Json, cbf: bool) -> Vec<String> {
    if theirs.get("ok") != Some(&Json::Bool(true)) {
        return vec![format!("cchess could not read it: {:?}", theirs.get("error"))];
    }
    let mut out = Vec::new();
    let mut differ = |what: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{what}: the crate reads {a}, cchess {b}"));
        }
    };
    let start = &ours.record.start;
    let fen = start.to_fen();
    differ("the start's board", fen.split(' ').next().unwrap_or("").into(), their_text(theirs, "fen"));
    if cbf && !ours.tree.is_empty() {
        let turn = if start.turn() == Color::Red { "w" } else { "b" };
        differ("the side to move", turn.into(), their_text(theirs, "turn"));
    }
    let names = |moves: &[xiangqi::Move]| {
        let mut pos = start.clone();
        let mut out = Vec::new();
        for &m in moves {
            out.push(pos.move_name(m));
            pos.play_unchecked(m);
        }
        out.join(" ")
    };
    let their_words = |line: &Json| line.items().iter().filter_map(Json::text).collect::<Vec<_>>().join(" ");
    differ(
        "the main line",
        names(&ours.record.moves),
        theirs.get("main").map(their_words).unwrap_or_default(),
    );
    if cbf {
        return out;
    }
    let ends: Vec<String> = ours
        .tree
        .preorder()
        .filter(|&id| id != MoveTree::ROOT && ours.tree.children(id).is_empty())
        .map(|id| names(&ours.tree.path(id)))
        .collect();
    let their_ends: Vec<String> =
        theirs.get("lines").map_or(&[][..], Json::items).iter().map(their_words).collect();
    differ("the lines", format!("{ends:?}"), format!("{their_ends:?}"));
    let mut comments: Vec<(String, String)> = ours
        .tree
        .preorder()
        .filter(|&id| !ours.tree.comment(id).is_empty())
        .map(|id| (names(&ours.tree.path(id)), ours.tree.comment(id).to_string()))
        .collect();
    let mut their_comments: Vec<(String, String)> = match theirs.get("comments") {
        Some(Json::Object(fields)) => {
            fields.iter().map(|(k, v)| (k.clone(), v.text().unwrap_or("").replace("\r\n", "\n"))).collect()
        }
        _ => Vec::new(),
    };
    comments.sort();
    their_comments.sort();
    differ("the comments", format!("{comments:?}"), format!("{their_comments:?}"));
    let tags = theirs.get("tags");
    for (tag, key) in [("Title", "title"), ("Event", "event"), ("Red", "red"), ("Black", "black")] {
        let theirs = tags.and_then(|t| t.get(key)).and_then(Json::text).filter(|v| !v.is_empty());
        differ(tag, format!("{:?}", ours.record.tag(tag)), format!("{theirs:?}"));
    }
    let result = tags.and_then(|t| t.get("result")).and_then(Json::text).filter(|&r| r != "*");
    differ("the result", format!("{:?}", ours.record.tag("Result")), format!("{result:?}"));
    out
}

fn their_text(json: &Json, key: &str) -> String {
    json.get(key).and_then(Json::text).unwrap_or("").to_string()
}

// ---------------------------------------------------------------------------
// The samples, built from the layout of each format.

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn samples() -> Vec<(String, Vec<u8>)> {
    let start: Position<Standard> = START.parse().unwrap();
    let setup: Position<Standard> = "3ak4/4a4/4b4/9/2p6/9/9/4B4/4A4/3AK1R2 b - - 0 7".parse().unwrap();
    let opening = tree(
        &start,
        &[
            ("", "开局"),
            ("h2e2 h9g7 h0g2 i9h9", "屏风马"),
            ("h2e2 b9c7 b0c2", "变着"),
            ("h2e2 b9c7 h0g2 h7e7", ""),
            ("h2e2 h7e7", "顺炮"),
            ("c3c4 c6c5", ""),
            ("b2e2", "过宫炮"),
        ],
    );
    let endgame = tree(&setup, &[("c5c4 g0g9", "黑先"), ("e8f7 g0g9", "")]);
    let tags = [(TITLE, 128, "第一局"), (EVENT, 64, "全国赛"), (RED, 64, "棋手甲"), (BLACK, 64, "棋手乙")];
    let mut files = vec![
        (
            "main.cbr".to_string(),
            cbr(&start, &tree(&start, &[("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7", "")]), 1, &tags),
        ),
        ("opening.cbr".to_string(), cbr(&start, &opening, 3, &tags)),
        ("endgame.cbr".to_string(), cbr(&setup, &endgame, 2, &[(TITLE, 128, "残局")])),
        ("empty.cbr".to_string(), cbr(&start, &MoveTree::new(), 0, &[])),
    ];
    let mut library_records = vec![cbr(&start, &opening, 1, &tags), cbr(&setup, &endgame, 0, &[])];
    for seed in 0..10 {
        let (from, moves) = random_tree(seed);
        files.push((format!("random-{seed:02}.cbr"), cbr(&from, &moves, 0, &[(RED, 64, "红方")])));
        library_records.push(cbr(&from, &moves, 2, &[(TITLE, 128, &format!("第{seed}局"))]));
    }
    // A comment long enough to take a record past one block of the library.
    let mut long = tree(&start, &[("h2e2 h9g7", "")]);
    long.set_comment(MoveTree::ROOT, "长评注。".repeat(700));
    library_records.push(cbr(&start, &long, 0, &[]));
    files.push(("library.cbl".to_string(), cbl("棋谱库", &library_records)));
    files.push(("main.cbf".to_string(), cbf(&start, &["h2e2", "h9g7", "h0g2", "i9h9"])));
    files.push(("endgame.cbf".to_string(), cbf(&setup, &["c5c4", "g0g9"])));
    files
}

/// A tree of lines of ICCS moves, each with the comment after its last move.
fn tree(start: &Position<Standard>, lines: &[(&str, &str)]) -> MoveTree {
    let mut tree = MoveTree::new();
    for (line, comment) in lines {
        let mut pos = start.clone();
        let mut at = MoveTree::ROOT;
        for text in line.split_whitespace() {
            let m = pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            at = match tree.children(at).iter().copied().find(|&c| tree.mv(c) == Some(m)) {
                Some(child) => child,
                None => tree.add(at, m),
            };
            pos.play_unchecked(m);
        }
        if !comment.is_empty() {
            tree.set_comment(at, *comment);
        }
    }
    tree
}

/// A tree of random legal moves with random variations and comments.
fn random_tree(seed: u64) -> (Position<Standard>, MoveTree) {
    let mut rng = Rng(seed);
    let starts = [START, "4k4/9/2N6/9/9/9/4p4/9/9/5K3 b - - 0 21", "3ak4/4a4/4b4/9/2p6/9/9/4B4/4A4/3AK1R2 w"];
    let start: Position<Standard> = starts[rng.below(starts.len())].parse().unwrap();
    let comments = ["", "", "好棋", "a\nb", "平稳"];
    let mut tree = MoveTree::new();
    let mut todo = vec![(MoveTree::ROOT, start.clone(), 0usize)];
    while let Some((at, pos, ply)) = todo.pop() {
        let mut moves = pos.legal_moves().to_vec();
        rng.shuffle(&mut moves);
        let children = match rng.below(16) {
            _ if ply > 24 || tree.len() > 80 => 0,
            0 => 0,
            1..=3 => 2,
            _ => 1,
        };
        for &m in moves.iter().take(children) {
            let id = tree.add(at, m);
            tree.set_comment(id, comments[rng.below(comments.len())]);
            let mut after = pos.clone();
            after.play_unchecked(m);
            todo.push((id, after, ply + 1));
        }
    }
    (start, tree)
}

// Where a CBR record keeps what.
const TITLE: usize = 180;
const EVENT: usize = 692;
const RED: usize = 1076;
const BLACK: usize = 1300;
const RESULT: usize = 2076;
const SIDE: usize = 2112;
const FIRST_NUMBER: usize = 2116;
const BOARD: usize = 2120;
const MOVES: usize = 2214;

/// UTF-16LE text with its NUL.
fn utf16(text: &str) -> Vec<u8> {
    text.encode_utf16().chain([0]).flat_map(u16::to_le_bytes).collect()
}

/// The board index of a point: rows from Black's side.
fn index(pos: &Position<Standard>, cell: xiangqi::Cell) -> u8 {
    let name = pos.cell_name(cell);
    let file = name.as_bytes()[0] - b'a';
    let rank: u8 = name[1..].parse().unwrap();
    (9 - rank) * 9 + file
}

/// A CBR record of a game: its header, then its tree in preorder, flag 1 on
/// a line's last move, flag 2 on a move with an alternative after it.
fn cbr(start: &Position<Standard>, tree: &MoveTree, result: u8, texts: &[(usize, usize, &str)]) -> Vec<u8> {
    let mut bytes = vec![0u8; MOVES];
    bytes[..16].copy_from_slice(b"CCBridge Record\0");
    bytes[19] = 2;
    for &(at, width, text) in texts {
        let text = utf16(text);
        assert!(text.len() <= width);
        bytes[at..at + text.len()].copy_from_slice(&text);
    }
    bytes[RESULT] = result;
    bytes[SIDE] = if start.turn() == Color::Red { 1 } else { 2 };
    bytes[FIRST_NUMBER..FIRST_NUMBER + 2].copy_from_slice(&(start.fullmoves() as u16).to_le_bytes());
    let t = Position::<Standard>::tables();
    for i in 0..t.cells() {
        let cell = xiangqi::Cell::new(i);
        if let Some(p) = start.piece_at(cell) {
            let kind = match p.role {
                xiangqi::Role::Chariot => 1,
                xiangqi::Role::Horse => 2,
                xiangqi::Role::Elephant => 3,
                xiangqi::Role::Advisor => 4,
                xiangqi::Role::General => 5,
                xiangqi::Role::Cannon => 6,
                xiangqi::Role::Soldier => 7,
            };
            let color = if p.color == Color::Red { 0x10 } else { 0x20 };
            bytes[BOARD + usize::from(index(start, cell))] = color | kind;
        }
    }
    bytes[2210..2214].copy_from_slice(&[0xff; 4]);
    let mut steps = |flags: u8, from: u8, to: u8, comment: &str| {
        let note = if comment.is_empty() { 0 } else { 4 };
        bytes.extend([flags | note, 0, from, to]);
        if !comment.is_empty() {
            let text = utf16(comment);
            bytes.extend((text.len() as u32).to_le_bytes());
            bytes.extend(text);
        }
    };
    steps(0, 0, 0, tree.comment(MoveTree::ROOT));
    for id in tree.preorder().skip(1) {
        let Some(m) = tree.mv(id) else { continue };
        let parent = tree.parent(id).unwrap_or(MoveTree::ROOT);
        let last_child = tree.children(parent).last() == Some(&id);
        let flags = u8::from(tree.children(id).is_empty()) | (u8::from(!last_child) << 1);
        steps(flags, index(start, m.from), index(start, m.to), tree.comment(id));
    }
    bytes
}

/// A library of records: an index of 128 slots, each record on blocks.
fn cbl(name: &str, records: &[Vec<u8>]) -> Vec<u8> {
    let slots: u32 = 128;
    let mut bytes = vec![0u8; 66_624 + slots as usize * 276];
    bytes[..16].copy_from_slice(b"CCBridgeLibrary\0");
    bytes[52..56].copy_from_slice(&[0xff, 0xff, 0xff, 0x7f]);
    bytes[60..64].copy_from_slice(&slots.to_le_bytes());
    let name = utf16(name);
    bytes[64..64 + name.len()].copy_from_slice(&name);
    for record in records {
        let mut record = record.clone();
        record.resize(record.len().div_ceil(4096) * 4096, 0);
        bytes.extend(record);
    }
    bytes
}

/// A CBF record of a start and a main line.
fn cbf(start: &Position<Standard>, moves: &[&str]) -> Vec<u8> {
    let mut text = String::from("\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n");
    text.push_str("<ChineseChessRecord Version=\"1.0\">\r\n <Head>\r\n  <Name>样例</Name>\r\n");
    text.push_str(&format!("  <FEN>{}</FEN>\r\n </Head>\r\n <MoveList>\r\n", start.to_fen()));
    text.push_str("  <Move value=\"00-00\" />\r\n");
    let mut pos = start.clone();
    for (i, m) in moves.iter().enumerate() {
        let m = pos.parse_move(m).unwrap();
        let xy = |cell| {
            let at = index(&pos, cell);
            format!("{}{}", at % 9, at / 9)
        };
        let end = if i + 1 == moves.len() { " end=\"1\"" } else { "" };
        text.push_str(&format!("  <Move value=\"{}-{}\"{end} />\r\n", xy(m.from), xy(m.to)));
        pos.play_unchecked(m);
    }
    text.push_str(" </MoveList>\r\n</ChineseChessRecord>\r\n");
    text.into_bytes()
}

// ---------------------------------------------------------------------------
// Running read.py.

/// A folder under the system's temporary one, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new() -> Folder {
        let path = std::env::temp_dir().join(format!("xiangqi-records-ccbridge-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("a temporary folder can be made");
        Folder(path)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What read.py prints for a folder, a value per line, after checking the
/// cchess version it names first.
fn run_cchess(folder: &Path) -> Vec<Json> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cchess/read.py");
    let output = Command::new("python3").arg(&script).arg(folder).output().unwrap_or_else(|e| {
        panic!("python3 cannot be run ({e}): this check needs python3 with cchess {CCHESS} (python3 -m pip install cchess=={CCHESS})")
    });
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{} failed ({}):\n{}",
        script.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let mut values = stdout.lines().map(|line| Json::parse(line).unwrap_or_else(|e| panic!("{e}: {line}")));
    let version =
        values.next().and_then(|first| first.get("cchess").and_then(Json::text).map(str::to_string));
    assert_eq!(version.as_deref(), Some(CCHESS), "python3 -m pip install cchess=={CCHESS}");
    values.collect()
}

/// JSON values, as much as read.py prints.
#[derive(Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
    List(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            Json::Text(s) => Some(s),
            _ => None,
        }
    }

    fn items(&self) -> &[Json] {
        match self {
            Json::List(items) => items,
            _ => &[],
        }
    }

    /// Reads one value, with a stack of the lists and objects still open.
    fn parse(text: &str) -> Result<Json, String> {
        enum Open {
            List(Vec<Json>),
            Object(Vec<(String, Json)>, Option<String>),
        }
        let mut chars = text.char_indices().peekable();
        let mut open: Vec<Open> = Vec::new();
        let mut done: Option<Json> = None;
        while let Some((at, c)) = chars.next() {
            let value = match c {
                ' ' | '\t' | '\r' | '\n' | ',' | ':' => continue,
                '[' => {
                    open.push(Open::List(Vec::new()));
                    continue;
                }
                '{' => {
                    open.push(Open::Object(Vec::new(), None));
                    continue;
                }
                ']' | '}' => match open.pop() {
                    Some(Open::List(items)) if c == ']' => Json::List(items),
                    Some(Open::Object(fields, None)) if c == '}' => Json::Object(fields),
                    _ => return Err(format!("an unmatched {c} at {at}")),
                },
                '"' => {
                    let mut s = String::new();
                    loop {
                        match chars.next() {
                            Some((_, '"')) => break,
                            Some((_, '\\')) => match chars.next() {
                                Some((_, 'n')) => s.push('\n'),
                                Some((_, 'r')) => s.push('\r'),
                                Some((_, 't')) => s.push('\t'),
                                Some((_, 'u')) => {
                                    let hex: String =
                                        (0..4).filter_map(|_| chars.next().map(|(_, h)| h)).collect();
                                    let unit = u32::from_str_radix(&hex, 16).map_err(|e| e.to_string())?;
                                    s.push(char::from_u32(unit).unwrap_or('\u{fffd}'));
                                }
                                Some((_, other)) => s.push(other),
                                None => return Err("a string is never closed".into()),
                            },
                            Some((_, other)) => s.push(other),
                            None => return Err("a string is never closed".into()),
                        }
                    }
                    // A string where an object expects a key is the key.
                    if let Some(Open::Object(_, key @ None)) = open.last_mut() {
                        *key = Some(s);
                        continue;
                    }
                    Json::Text(s)
                }
                _ => {
                    let mut word = String::from(c);
                    while let Some(&(_, next)) = chars.peek() {
                        if next.is_ascii_alphanumeric() || "+-.".contains(next) {
                            word.push(next);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                    match word.as_str() {
                        "true" => Json::Bool(true),
                        "false" => Json::Bool(false),
                        "null" => Json::Null,
                        number => Json::Number(number.parse().map_err(|_| format!("{number:?} at {at}"))?),
                    }
                }
            };
            match open.last_mut() {
                Some(Open::List(items)) => items.push(value),
                Some(Open::Object(fields, key)) => match key.take() {
                    Some(key) => fields.push((key, value)),
                    None => return Err(format!("a value without a key at {at}")),
                },
                None => done = Some(value),
            }
        }
        match (done, open.is_empty()) {
            (Some(value), true) => Ok(value),
            _ => Err("the text ends inside a value".into()),
        }
    }
}

#[test]
fn the_json_reader_reads_what_read_py_prints() {
    let line = r#"{"file": "a.cbr", "ok": true, "main": ["h2e2", "h9g7"], "comments": {"": "开\n局", "h2e2": "\u4e2d"}, "n": -1.5, "x": null, "e": []}"#;
    let json = Json::parse(line).unwrap();
    assert_eq!(json.get("file").and_then(Json::text), Some("a.cbr"));
    assert_eq!(json.get("ok"), Some(&Json::Bool(true)));
    assert_eq!(json.get("main").map(Json::items).map(<[Json]>::len), Some(2));
    assert_eq!(json.get("comments").and_then(|c| c.get("")).and_then(Json::text), Some("开\n局"));
    assert_eq!(json.get("comments").and_then(|c| c.get("h2e2")).and_then(Json::text), Some("中"));
    assert_eq!(json.get("n"), Some(&Json::Number(-1.5)));
    assert!(Json::parse("{\"a\": [1, 2}").is_err());
}
