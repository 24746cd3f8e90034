//! The crate's reading of game files checked against that of cchess, a
//! Python library that reads XQF (and CCBridge's CBF, CBR and CBL, and PGN):
//! files the crate writes, each read by both, must give the same start, the
//! same lines in the same order, the same comments and the same names.
//!
//! The test is ignored, and CI runs ignored tests. It needs `python3` with
//! cchess 1.25.5, the version it was written against (`python3 -m pip install
//! cchess==1.25.5`), and fails, saying what is missing, without them.
//! `tests/cchess/read.py` is the Python side: it prints what cchess read of
//! each file of a folder as a line of JSON.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use xiangqi::{Position, Standard, rng::Rng};
use xiangqi_records::{Game, Limits, MoveTree, Record, xqf};

/// The cchess release this check was written against: its quirks (the side
/// to move taken from the first move, comments as their writer stored them)
/// are what the comparison allows for.
const CCHESS: &str = "1.25.5";

#[test]
#[ignore = "needs python3 and cchess 1.25.5 (python3 -m pip install cchess==1.25.5); CI runs it"]
fn cchess_reads_the_xqf_files_the_crate_writes_as_the_crate_does() {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for (i, game) in shapes().iter().enumerate() {
        files.push((format!("shape-{i:02}.xqf"), xqf::write(game)));
    }
    for seed in 0..12 {
        files.push((format!("random-{seed:02}.xqf"), xqf::write(&random_game(seed))));
    }
    compare_with_cchess(&files);
}

/// Reads each file, named with its extension, with this crate and with
/// cchess, and fails naming every file where the two differ: in the start's
/// board, the side to move (when the game has a move), the main line, every
/// line from the start to its end (in order, which is the order of the
/// variations), every comment, and the names cchess gives (title, event, Red,
/// Black and the result).
///
/// The files are written to a fresh folder of their own, so names must be
/// plain file names. The crate reads a file by its extension in
/// [`read_here`]: to check another format's samples against cchess (a CBF
/// or CBR file of CCBridge, say), give it its reader there and pass the
/// samples here, built in the test as the XQF ones are.
fn compare_with_cchess<N: AsRef<str>>(files: &[(N, Vec<u8>)]) {
    let folder = Folder::new();
    for (name, bytes) in files {
        std::fs::write(folder.0.join(name.as_ref()), bytes).expect("the test folder takes a file");
    }
    let seen = run_cchess(&folder.0);
    let mut problems = Vec::new();
    for (name, bytes) in files {
        let name = name.as_ref();
        let game = read_here(name, bytes).unwrap_or_else(|e| panic!("{name}: the crate cannot read it: {e}"));
        match seen.iter().find(|line| line.get("file").and_then(Json::str) == Some(name)) {
            None => problems.push(format!("{name}: cchess printed nothing for it")),
            Some(theirs) => {
                problems.extend(differences(&game, theirs).into_iter().map(|d| format!("{name}: {d}")))
            }
        }
    }
    assert!(problems.is_empty(), "cchess reads these files otherwise:\n{}", problems.join("\n"));
}

/// The crate's reading of a file, chosen by its extension.
fn read_here(name: &str, bytes: &[u8]) -> Result<Game, String> {
    let limits = Limits { nodes_per_tree: 100_000, ..Limits::SITE };
    match Path::new(name).extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("xqf") => xqf::read(bytes, &limits).map_err(|e| e.to_string()),
        other => Err(format!("this check has no reader for {other:?} files yet: add one to read_here")),
    }
}

/// A folder under the system's temporary one, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new() -> Folder {
        let path = std::env::temp_dir().join(format!("xiangqi-records-cchess-{}", std::process::id()));
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

/// Runs `read.py` over a folder: one JSON value per file (per game of a
/// library), after checking the cchess version it names first.
fn run_cchess(folder: &Path) -> Vec<Json> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cchess/read.py");
    let output = match Command::new("python3").arg(&script).arg(folder).output() {
        Ok(output) => output,
        Err(e) => panic!(
            "python3 cannot be run ({e}): this check needs python3 with cchess {CCHESS} \
             (python3 -m pip install cchess=={CCHESS})"
        ),
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{} failed ({}):\n{stderr}", script.display(), output.status);
    let mut lines = stdout.lines().map(|line| parse(line).unwrap_or_else(|e| panic!("{e} in {line:?}")));
    let version = lines.next().and_then(|first| first.get("cchess").and_then(Json::str).map(String::from));
    assert_eq!(
        version.as_deref(),
        Some(CCHESS),
        "this check was written against cchess {CCHESS}: python3 -m pip install cchess=={CCHESS}"
    );
    lines.collect()
}

/// Where cchess's reading of a game differs from the crate's.
fn differences(ours: &Game, theirs: &Json) -> Vec<String> {
    if theirs.get("ok") != Some(&Json::Bool(true)) {
        let why = theirs.get("error").and_then(Json::str).unwrap_or("no reason given");
        return vec![format!("cchess could not read it: {why}")];
    }
    let mut out = Vec::new();
    let start = &ours.record.start;
    let fen = start.to_fen();
    let board = fen.split(' ').next().unwrap_or_default();
    let strings = |key: &str| -> Vec<String> {
        theirs.get(key).map_or(&[][..], Json::items).iter().filter_map(Json::str).map(String::from).collect()
    };
    let mut same = |what: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{what}: the crate reads {a}, cchess {b}"));
        }
    };
    same(
        "the start's board",
        board.to_string(),
        theirs.get("fen").and_then(Json::str).unwrap_or("").to_string(),
    );
    if !ours.tree.is_empty() {
        let turn = if start.turn() == xiangqi::Color::Red { "w" } else { "b" };
        same(
            "the side to move",
            turn.to_string(),
            theirs.get("turn").and_then(Json::str).unwrap_or("").to_string(),
        );
    }
    let names =
        |moves: &[xiangqi::Move]| moves.iter().map(|&m| start.move_name(m)).collect::<Vec<_>>().join(" ");
    same("the main line", names(&ours.record.moves), strings("main").join(" "));
    let leaves: Vec<String> = ours
        .tree
        .preorder()
        .filter(|&id| id != MoveTree::ROOT && ours.tree.children(id).is_empty())
        .map(|id| names(&ours.tree.path(id)))
        .collect();
    let their_lines: Vec<String> = theirs
        .get("lines")
        .map_or(&[][..], Json::items)
        .iter()
        .map(|line| line.items().iter().filter_map(Json::str).collect::<Vec<_>>().join(" "))
        .collect();
    same("the lines", format!("{leaves:?}"), format!("{their_lines:?}"));
    let mut our_comments: Vec<(String, String)> = ours
        .tree
        .preorder()
        .filter(|&id| !ours.tree.comment(id).is_empty())
        .map(|id| (names(&ours.tree.path(id)), ours.tree.comment(id).to_string()))
        .collect();
    let mut their_comments: Vec<(String, String)> = match theirs.get("comments") {
        Some(Json::Obj(fields)) => fields
            .iter()
            .map(|(path, c)| {
                // cchess keeps a comment as its writer stored it.
                let c = c.str().unwrap_or("").replace("\r\n", "\n");
                (path.clone(), c.trim_end_matches('\n').to_string())
            })
            .collect(),
        _ => vec![],
    };
    our_comments.sort();
    their_comments.sort();
    same("the comments", format!("{our_comments:?}"), format!("{their_comments:?}"));
    let tags = theirs.get("tags");
    for (tag, key) in [("Title", "title"), ("Event", "event"), ("Red", "red"), ("Black", "black")] {
        let their = tags.and_then(|t| t.get(key)).and_then(Json::str);
        same(tag, format!("{:?}", ours.record.tag(tag)), format!("{their:?}"));
    }
    let their_result = tags.and_then(|t| t.get("result")).and_then(Json::str).filter(|&r| r != "*");
    same("the result", format!("{:?}", ours.record.tag("Result")), format!("{their_result:?}"));
    out
}

// ---------------------------------------------------------------------------
// The games.

fn position(fen: &str) -> Position<Standard> {
    fen.parse().unwrap()
}

/// A game from a start and lines of ICCS moves with the comment after each
/// line's last move; a line that leaves the tree's moves adds a variation.
fn game(start: &Position<Standard>, lines: &[(&str, &str)], tags: &[(&str, &str)]) -> Game {
    let mut tree = MoveTree::new();
    for (path, comment) in lines {
        let mut pos = start.clone();
        let mut at = MoveTree::ROOT;
        for text in path.split_whitespace() {
            let mv = pos.parse_move(text).unwrap();
            at = match tree.children(at).iter().copied().find(|&c| tree.mv(c) == Some(mv)) {
                Some(child) => child,
                None => tree.add(at, mv),
            };
            pos.play_unchecked(mv);
        }
        if !comment.is_empty() {
            tree.set_comment(at, *comment);
        }
    }
    let tags = tags.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Game::new(Record { tags, start: start.clone(), moves: vec![] }, tree)
}

fn shapes() -> Vec<Game> {
    let start = Position::<Standard>::startpos();
    vec![
        game(&start, &[], &[]),
        game(&start, &[("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7", "")], &[("Result", "1-0")]),
        game(
            &start,
            &[
                ("", "开局\n第二行"),
                ("h2e2", "中炮"),
                ("h2e2 h9g7 h0g2", ""),
                ("h2e2 b9c7", "变着"),
                ("h2e2 b9c7 b0c2 h9g7", ""),
                ("h2e2 b9c7 h0g2", "又一变"),
                ("h2e2 h7e7", "顺炮"),
                ("c3c4", "仙人指路"),
                ("c3c4 c6c5", ""),
                ("b2e2", ""),
            ],
            &[
                ("Event", "全国象棋个人赛"),
                ("Red", "棋手甲"),
                ("Black", "棋手乙"),
                ("Result", "1/2-1/2"),
                ("Title", "第一轮"),
            ],
        ),
        game(
            &position("4k4/9/2N6/9/9/9/4p4/9/9/5K3 b - - 0 21"),
            &[("", "黑先"), ("e3f3 c7e8 e9f9", ""), ("e3d3", "另一种")],
            &[("Result", "0-1"), ("Title", "残局")],
        ),
        game(
            &position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR w"),
            &[("h2e2 h9g7", "让单马")],
            &[("Red", "Player A"), ("Black", "Player B")],
        ),
    ]
}

/// A game of random moves from one of several starts, with random
/// variations and comments.
fn random_game(seed: u64) -> Game {
    let mut rng = Rng(seed);
    let starts = [
        Position::<Standard>::startpos(),
        position("4k4/9/2N6/9/9/9/4p4/9/9/5K3 b - - 0 21"),
        position("3ak4/4a4/4b4/9/2p6/9/9/4B4/4A4/3AK1R2 w - - 0 7"),
    ];
    let start = starts[rng.below(starts.len())].clone();
    let comments = ["", "", "", "好棋", "a\nb", "平稳\n\n下一步"];
    let mut tree = MoveTree::new();
    let mut todo = vec![(MoveTree::ROOT, start.clone(), 0usize)];
    while let Some((at, pos, ply)) = todo.pop() {
        let mut moves = pos.legal_moves().to_vec();
        rng.shuffle(&mut moves);
        let children = match rng.below(20) {
            _ if ply > 30 || tree.len() > 100 => 0,
            0 => 0,
            1..=3 => 2,
            _ => 1,
        };
        for &mv in moves.iter().take(children) {
            let id = tree.add(at, mv);
            tree.set_comment(id, comments[rng.below(comments.len())]);
            let mut after = pos.clone();
            after.play_unchecked(mv);
            todo.push((id, after, ply + 1));
        }
    }
    let tags = vec![("Red".to_string(), format!("红{seed}"))];
    Game::new(Record { tags, start, moves: vec![] }, tree)
}

// ---------------------------------------------------------------------------
// Just enough JSON for read.py's lines, read with a stack rather than
// recursion.

#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(f64),
    Str(String),
    Array(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    fn items(&self) -> &[Json] {
        match self {
            Json::Array(items) => items,
            _ => &[],
        }
    }
}

/// A container being read: an array's items, or an object's fields and the
/// key whose value comes next.
enum Open {
    Array(Vec<Json>),
    Obj(Vec<(String, Json)>, String),
}

fn parse(text: &str) -> Result<Json, String> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut open: Vec<Open> = Vec::new();
    loop {
        skip_space(b, &mut i);
        let mut value = match b.get(i) {
            Some(b'{') => {
                i += 1;
                skip_space(b, &mut i);
                if b.get(i) == Some(&b'}') {
                    i += 1;
                    Json::Obj(vec![])
                } else {
                    let key = key(b, &mut i)?;
                    open.push(Open::Obj(vec![], key));
                    continue;
                }
            }
            Some(b'[') => {
                i += 1;
                skip_space(b, &mut i);
                if b.get(i) == Some(&b']') {
                    i += 1;
                    Json::Array(vec![])
                } else {
                    open.push(Open::Array(vec![]));
                    continue;
                }
            }
            Some(b'"') => Json::Str(string(b, &mut i)?),
            Some(_) if b[i..].starts_with(b"true") => {
                i += 4;
                Json::Bool(true)
            }
            Some(_) if b[i..].starts_with(b"false") => {
                i += 5;
                Json::Bool(false)
            }
            Some(_) if b[i..].starts_with(b"null") => {
                i += 4;
                Json::Null
            }
            Some(_) => {
                let len = b[i..].iter().take_while(|c| b"+-0123456789.eE".contains(c)).count();
                let number = std::str::from_utf8(&b[i..i + len]).unwrap_or_default();
                let number = number.parse().map_err(|_| format!("no JSON value at byte {i}"))?;
                i += len;
                Json::Number(number)
            }
            None => return Err("the text ends where a JSON value should be".into()),
        };
        // Hand the finished value to the container it is in, closing those
        // it finishes, until one expects another value.
        loop {
            skip_space(b, &mut i);
            let next = b.get(i).copied();
            match open.last_mut() {
                None if next.is_none() => return Ok(value),
                None => return Err(format!("text after the JSON value at byte {i}")),
                Some(Open::Array(items)) => {
                    items.push(value);
                    i += 1;
                    match next {
                        Some(b',') => break,
                        Some(b']') => {
                            let Some(Open::Array(items)) = open.pop() else { unreachable!() };
                            value = Json::Array(items);
                        }
                        _ => return Err(format!("no , or ] at byte {}", i - 1)),
                    }
                }
                Some(Open::Obj(fields, key_now)) => {
                    fields.push((std::mem::take(key_now), value));
                    i += 1;
                    match next {
                        Some(b',') => {
                            skip_space(b, &mut i);
                            *key_now = key(b, &mut i)?;
                            break;
                        }
                        Some(b'}') => {
                            let Some(Open::Obj(fields, _)) = open.pop() else { unreachable!() };
                            value = Json::Obj(fields);
                        }
                        _ => return Err(format!("no , or }} at byte {}", i - 1)),
                    }
                }
            }
        }
    }
}

fn skip_space(b: &[u8], i: &mut usize) {
    while b.get(*i).is_some_and(u8::is_ascii_whitespace) {
        *i += 1;
    }
}

/// An object's key and the colon after it.
fn key(b: &[u8], i: &mut usize) -> Result<String, String> {
    let key = string(b, i)?;
    skip_space(b, i);
    if b.get(*i) != Some(&b':') {
        return Err(format!("no : at byte {i}"));
    }
    *i += 1;
    Ok(key)
}

/// A string, from its opening quote.
fn string(b: &[u8], i: &mut usize) -> Result<String, String> {
    if b.get(*i) != Some(&b'"') {
        return Err(format!("no string at byte {i}"));
    }
    *i += 1;
    let mut out = Vec::new();
    // A high surrogate waiting for its low half.
    let mut high: Option<u32> = None;
    loop {
        let Some(&c) = b.get(*i) else { return Err("a string is never closed".into()) };
        *i += 1;
        match c {
            b'"' => break,
            b'\\' => {
                let Some(&e) = b.get(*i) else { return Err("a string ends in an escape".into()) };
                *i += 1;
                let plain = match e {
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    b'u' => {
                        let hex = b.get(*i..*i + 4).and_then(|h| std::str::from_utf8(h).ok());
                        let unit =
                            hex.and_then(|h| u32::from_str_radix(h, 16).ok()).ok_or("a bad \\u escape")?;
                        *i += 4;
                        let code = match (high.take(), unit) {
                            (None, 0xd800..=0xdbff) => {
                                high = Some(unit);
                                continue;
                            }
                            (Some(h), 0xdc00..=0xdfff) => 0x10000 + ((h - 0xd800) << 10) + (unit - 0xdc00),
                            (_, unit) => unit,
                        };
                        char::from_u32(code).unwrap_or('\u{fffd}')
                    }
                    _ => return Err(format!("an unknown escape at byte {}", *i - 1)),
                };
                out.extend_from_slice(plain.encode_utf8(&mut [0; 4]).as_bytes());
            }
            _ => out.push(c),
        }
    }
    String::from_utf8(out).map_err(|e| e.to_string())
}

#[test]
fn the_json_reader_reads_what_read_py_prints() {
    let line = r#"{"ok": true, "n": -1.5e2, "main": ["h2e2", "h9g7"], "lines": [[], ["a"]],
        "comments": {"": "中炮\r\n", "x": "\ud840\udc00\u4e2d\"q\""}, "tags": {}, "none": null}"#;
    let json = parse(line).unwrap();
    assert_eq!(json.get("ok"), Some(&Json::Bool(true)));
    assert_eq!(json.get("n"), Some(&Json::Number(-150.0)));
    assert_eq!(json.get("main").unwrap().items().len(), 2);
    assert_eq!(json.get("lines").unwrap().items()[1].items()[0].str(), Some("a"));
    let comments = json.get("comments").unwrap();
    assert_eq!(comments.get("").and_then(Json::str), Some("中炮\r\n"));
    assert_eq!(comments.get("x").and_then(Json::str), Some("𠀀中\"q\""));
    assert_eq!(json.get("none"), Some(&Json::Null));
    assert!(parse("[1, 2").is_err());
    assert!(parse("{\"a\" 1}").is_err());
    assert!(parse("[1] x").is_err());
    let nested = "[".repeat(50) + &"]".repeat(50);
    assert!(parse(&nested).is_ok());
}
