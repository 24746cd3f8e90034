//! Writes the inputs the record readers are measured on (see `read_speed`,
//! `cchess_speed.py`, `site_import.sh` and the README's Speed table). Every
//! game is made up here: random legal moves from the usual start, seeded, so
//! the same command writes the same bytes.
//!
//! ```sh
//! cargo run --release -p xiangqi-records --example make_corpus -- [DIR] [--games N] [--xqf N] [--sample N] [--seed S]
//! ```
//!
//! Into `DIR` (by default `target/records-bench` of the workspace):
//!
//! - `games.pgn`: `--games` games (100,000) in one UTF-8 file, their moves in
//!   ICCS, WXF and Chinese in turn;
//! - `xqf/00001.xqf`...: the first `--xqf` (10,000) of the same games, one XQF
//!   file each (`xqf::write`);
//! - `sample/0001.xqf`, `sample/0001.pgn`...: the first `--sample` (300) again,
//!   as XQF and as a PGN file of one game holding its main line in ICCS, the
//!   PGN that cchess's reader takes (it reads no comments or variations);
//! - `site/`: one file per format for an upload to the site, each as large
//!   as the site's limits let it be (2 MiB, 2,000 games, 400,000 moves):
//!   `games.pgn`, `games.dhtmlxq.txt`, `library.cbl` (a CCBridge library of
//!   records, written here, as the crate writes no CCBridge), and `book.xqf`,
//!   one game whose tree of variations fills the 2 MiB, as an opening book
//!   kept in XQF does.
//!
//! A game's main line runs 40 to 200 plies (100 to 200 in the site's files;
//! shorter only at a mate); one game
//! in four has one to four variations of 2 to 20 plies, some inside others;
//! three in ten have comments (Chinese, English, some of several lines); the
//! tags are in English or Chinese.

use std::{
    io::{BufWriter, Write},
    path::{Path, PathBuf},
};

use xiangqi::{
    Cell, Color, Move, Position, Role, Standard,
    notation::pgn::{self, Format as MoveFormat},
    rng::Rng,
};
use xiangqi_records::{Game, Limits, MoveTree, ReadOptions, Record, dhtmlxq, xqf};

struct Options {
    dir: PathBuf,
    games: usize,
    xqf: usize,
    sample: usize,
    seed: u64,
}

impl Options {
    fn parse() -> Options {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut options = Options {
            dir: workspace.join("target/records-bench"),
            games: 100_000,
            xqf: 10_000,
            sample: 300,
            seed: 1,
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let mut count = |name: &str| -> u64 {
                let value = args.next().unwrap_or_else(|| fail(&format!("{name} needs a number")));
                value.parse().unwrap_or_else(|_| fail(&format!("{name}: {value:?} is no number")))
            };
            match arg.as_str() {
                "--games" => options.games = count("--games") as usize,
                "--xqf" => options.xqf = count("--xqf") as usize,
                "--sample" => options.sample = count("--sample") as usize,
                "--seed" => options.seed = count("--seed"),
                flag if flag.starts_with("--") => fail(&format!("unknown option {flag}")),
                dir => options.dir = PathBuf::from(dir),
            }
        }
        options.xqf = options.xqf.min(options.games);
        options.sample = options.sample.min(options.games);
        options
    }
}

fn fail(why: &str) -> ! {
    eprintln!("make_corpus: {why}");
    std::process::exit(2)
}

fn main() {
    let options = Options::parse();
    let dir = &options.dir;
    for sub in ["xqf", "sample", "site"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap_or_else(|e| fail(&format!("{}: {e}", dir.display())));
    }
    let write = |path: PathBuf, bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())))
    };

    let mut rng = Rng(options.seed);
    let path = dir.join("games.pgn");
    let file = std::fs::File::create(&path).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
    let mut pgn_out = BufWriter::new(file);
    let mut totals = Totals::default();
    for number in 1..=options.games {
        let game = random_game(&mut rng, number, 40);
        totals.add(&game);
        let gap = if number == 1 { "" } else { "\n" };
        let text = pgn::write_tree(&game.record, &game.tree, dialect(number));
        write!(pgn_out, "{gap}{text}").unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
        if number <= options.xqf {
            write(dir.join(format!("xqf/{number:05}.xqf")), &xqf::write(&game));
        }
        if number <= options.sample {
            write(dir.join(format!("sample/{number:04}.xqf")), &xqf::write(&game));
            let main_line = pgn::write(&game.record, MoveFormat::Iccs);
            write(dir.join(format!("sample/{number:04}.pgn")), main_line.as_bytes());
        }
    }
    pgn_out.flush().unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
    println!(
        "games.pgn: {} games, {} moves ({} in variations), {} with variations, {} with comments, {:.1} MiB",
        options.games,
        totals.nodes,
        totals.nodes - totals.main,
        totals.varied,
        totals.commented,
        mib(std::fs::metadata(&path).map_or(0, |m| m.len() as usize)),
    );
    println!("xqf/: the first {} of them, one file each; sample/: the first {}", options.xqf, options.sample);

    // The site's files come from a generator of their own, so that their
    // games are not those of the files above.
    let mut rng = Rng(options.seed ^ 0x5171_e000);
    let site = dir.join("site");
    let fill = site_fill(&mut rng, |game, number| {
        let gap = if number == 1 { "" } else { "\n" };
        format!("{gap}{}", pgn::write_tree(&game.record, &game.tree, dialect(number))).into_bytes()
    });
    report_site(&site.join("games.pgn"), fill);
    let fill = site_fill(&mut rng, |game, _| dhtmlxq::write(game).into_bytes());
    report_site(&site.join("games.dhtmlxq.txt"), fill);
    report_site(&site.join("library.cbl"), site_library(&mut rng));
    report_site(&site.join("book.xqf"), xqf::write(&book(&mut rng)));
}

/// The move syntax of the `number`-th game of a PGN file.
fn dialect(number: usize) -> MoveFormat {
    [MoveFormat::Iccs, MoveFormat::Wxf, MoveFormat::Chinese][number % 3]
}

#[derive(Default)]
struct Totals {
    nodes: usize,
    main: usize,
    varied: usize,
    commented: usize,
}

impl Totals {
    fn add(&mut self, game: &Game) {
        self.nodes += game.tree.len() - 1;
        self.main += game.record.moves.len();
        self.varied += usize::from(game.tree.len() - 1 > game.record.moves.len());
        self.commented += usize::from(game.tree.preorder().any(|id| !game.tree.comment(id).is_empty()));
    }
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

// ---------------------------------------------------------------------------
// Games.

const EVENTS: [&str; 8] = [
    "全国象棋个人赛",
    "象甲联赛",
    "五羊杯象棋赛",
    "城市联赛",
    "City League",
    "Spring Open",
    "Club Championship",
    "Online Rapid",
];
const SITES: [&str; 6] = ["北京", "上海", "广州", "Online", "Hall 2", "成都"];
const SURNAMES: [&str; 10] = ["王", "李", "张", "刘", "陈", "杨", "赵", "黄", "周", "吴"];
const GIVEN: [&str; 12] = ["伟", "芳", "强", "敏", "军", "磊", "洋", "艳", "杰", "涛", "明", "超"];
const LATIN: [&str; 10] = ["Ann", "Bo", "Chen", "Dan", "Eli", "Fei", "Gus", "Hua", "Ivo", "Jun"];
const COMMENTS: [&str; 10] = [
    "好棋",
    "红方稍优",
    "黑方失先\n红方占优",
    "此着过急，不如先走兵",
    "A strong move.",
    "Black should keep the cannon home.",
    "The only move\nthat holds the centre.",
    "双方均势",
    "!?",
    "劣着。应改走车一平二",
];
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// A player's made-up name: Chinese (two or three glyphs) or Latin letters.
fn name(rng: &mut Rng) -> String {
    if rng.below(3) == 0 {
        format!("{} {}", LATIN[rng.below(LATIN.len())], LATIN[rng.below(LATIN.len())])
    } else {
        let mut name = SURNAMES[rng.below(SURNAMES.len())].to_string();
        for _ in 0..1 + rng.below(2) {
            name.push_str(GIVEN[rng.below(GIVEN.len())]);
        }
        name
    }
}

/// The `number`-th game: tags, a main line of `shortest` to 200 random legal
/// plies, and now and then variations and comments.
fn random_game(rng: &mut Rng, number: usize, shortest: usize) -> Game {
    let start = Position::<Standard>::startpos();
    let mut tree = MoveTree::new();
    let plies = shortest + rng.below(201 - shortest);
    extend(rng, &mut tree, MoveTree::ROOT, start.clone(), plies);
    if rng.below(4) == 0 {
        for _ in 0..1 + rng.below(4) {
            let plies = 2 + rng.below(19);
            branch(rng, &mut tree, &start, plies);
        }
    }
    if rng.below(10) < 3 {
        for _ in 0..1 + rng.below(6) {
            let id = rng.below(tree.len());
            tree.set_comment(id, COMMENTS[rng.below(COMMENTS.len())]);
        }
    }
    let date = format!("{}.{:02}.{:02}", 1990 + rng.below(35), 1 + rng.below(12), 1 + rng.below(28));
    let tags = [
        ("Event", EVENTS[rng.below(EVENTS.len())].to_string()),
        ("Site", SITES[rng.below(SITES.len())].to_string()),
        ("Date", date),
        ("Round", (1 + number % 11).to_string()),
        ("Red", name(rng)),
        ("Black", name(rng)),
        ("Result", RESULTS[rng.below(RESULTS.len())].to_string()),
    ];
    let tags = tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    Game::new(Record { tags, start, moves: vec![] }, tree)
}

/// Plays up to `plies` random legal moves on from node `at`, whose position
/// is `pos`, each the first child of the one before: the last node.
fn extend(
    rng: &mut Rng,
    tree: &mut MoveTree,
    mut at: usize,
    mut pos: Position<Standard>,
    plies: usize,
) -> usize {
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        at = tree.add(at, mv);
        pos.play_unchecked(mv);
    }
    at
}

/// Adds a variation of up to `plies` moves beside a move already in the tree
/// (in the main line or in an earlier variation), when a few tries find a
/// node with a move to branch from and another move to play there.
fn branch(rng: &mut Rng, tree: &mut MoveTree, start: &Position<Standard>, plies: usize) -> Option<usize> {
    for _ in 0..8 {
        let at = rng.below(tree.len());
        if tree.children(at).is_empty() {
            continue;
        }
        let pos = position_at(tree, start, at);
        let taken: Vec<Move> = tree.children(at).iter().filter_map(|&c| tree.mv(c)).collect();
        let others: Vec<Move> = pos.legal_moves().iter().copied().filter(|m| !taken.contains(m)).collect();
        if others.is_empty() {
            continue;
        }
        let mv = others[rng.below(others.len())];
        let first = tree.add(at, mv);
        let mut after = pos;
        after.play_unchecked(mv);
        return Some(extend(rng, tree, first, after, plies - 1));
    }
    None
}

/// The position after the moves that lead to node `id`.
fn position_at(tree: &MoveTree, start: &Position<Standard>, id: usize) -> Position<Standard> {
    let mut pos = start.clone();
    for mv in tree.path(id) {
        pos.play_unchecked(mv);
    }
    pos
}

// ---------------------------------------------------------------------------
// The site's files.

/// The bounds of one upload: the site's limits, a little under the moves per
/// file, which a PGN reader counts by words that may be moves.
const SITE_BYTES: usize = Limits::SITE.file_bytes;
const SITE_GAMES: usize = Limits::SITE.games_per_file;
const SITE_NODES: usize = Limits::SITE.nodes_per_file - 10_000;
/// The shortest main line of a game of the site's files: longer games than
/// the others', so that a DhtmlXQ file (four bytes a move) reaches 2 MiB
/// before it reaches 2,000 games.
const SITE_SHORTEST: usize = 100;

/// Games written one after another by `write` (given each game and its
/// number) for as long as the file stays within the site's bounds.
fn site_fill(rng: &mut Rng, write: impl Fn(&Game, usize) -> Vec<u8>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut nodes = 0;
    for number in 1..=SITE_GAMES {
        let game = random_game(rng, number, SITE_SHORTEST);
        let bytes = write(&game, number);
        nodes += game.tree.len() - 1;
        if out.len() + bytes.len() > SITE_BYTES || nodes > SITE_NODES {
            break;
        }
        out.extend_from_slice(&bytes);
    }
    out
}

/// Writes one of the site's files, reads it back as an upload is read (the
/// site's limits, a record's tree as large as the file's moves), and says
/// what it holds; a file the site would refuse, or that holds a record the
/// reader refuses, stops the run.
fn report_site(path: &Path, bytes: Vec<u8>) {
    std::fs::write(path, &bytes).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
    let limits = Limits { nodes_per_tree: Limits::SITE.nodes_per_file, ..Limits::SITE };
    let read = xiangqi_records::read_file(&bytes, &ReadOptions { encoding: None, limits })
        .unwrap_or_else(|e| fail(&format!("{}: the site would refuse it: {e}", path.display())));
    let mut nodes = 0;
    for (i, game) in read.games.iter().enumerate() {
        match game {
            Ok(game) => nodes += game.tree.len() - 1,
            Err(e) => fail(&format!("{}: record {}: {e}", path.display(), i + 1)),
        }
    }
    println!(
        "site/{}: {} bytes ({:.2} MiB), {}, {} games, {} moves",
        path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()),
        bytes.len(),
        mib(bytes.len()),
        read.format,
        read.games.len(),
        nodes
    );
}

/// One game whose tree fills an XQF file of nearly 2 MiB: a main line, then
/// lines of 4 to 30 plies branching from any node already there, nested at
/// most eight variations deep, a comment on one node in fifty.
fn book(rng: &mut Rng) -> Game {
    // An XQF file is its header, eight bytes for each node (the start's
    // included), and each comment's bytes (two a glyph in GB18030).
    const HEADER: usize = 1024;
    const NODE: usize = 8;
    let start = Position::<Standard>::startpos();
    let mut tree = MoveTree::new();
    extend(rng, &mut tree, MoveTree::ROOT, start.clone(), 150);
    // How many variations deep each node is.
    let mut depth = vec![0usize; tree.len()];
    let mut bytes = HEADER + NODE * tree.len();
    let room = SITE_BYTES - 4 * 1024;
    while bytes + NODE * 31 < room {
        let at = rng.below(tree.len());
        if depth[at] >= 8 || tree.children(at).is_empty() {
            continue;
        }
        let pos = position_at(&tree, &start, at);
        let taken: Vec<Move> = tree.children(at).iter().filter_map(|&c| tree.mv(c)).collect();
        let others: Vec<Move> = pos.legal_moves().iter().copied().filter(|m| !taken.contains(m)).collect();
        if others.is_empty() {
            continue;
        }
        let mv = others[rng.below(others.len())];
        let first = tree.add(at, mv);
        let mut after = pos;
        after.play_unchecked(mv);
        let plies = 3 + rng.below(27);
        extend(rng, &mut tree, first, after, plies);
        // The new line is an alternative at `at`, so one variation deeper.
        depth.resize(tree.len(), depth[at] + 1);
        bytes += NODE * (tree.len() - first);
        for id in first..tree.len() {
            if rng.below(50) == 0 {
                let comment = COMMENTS[rng.below(COMMENTS.len())];
                tree.set_comment(id, comment);
                bytes += comment.len();
            }
        }
    }
    let tags = [("Event", "开局库"), ("Title", "中炮对屏风马"), ("Annotator", "Bench")];
    let tags = tags.into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Game::new(Record { tags, start, moves: vec![] }, tree)
}

// ---------------------------------------------------------------------------
// A CCBridge library, written as `xiangqi_records::ccbridge` documents the
// layout it reads.

const LIBRARY_MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";
const RECORD_MAGIC: &[u8; 16] = b"CCBridge Record\0";
const LIBRARY_INDEX: usize = 66_624;
const INDEX_SLOT: usize = 276;
const BLOCK: usize = 4096;

/// A library of as many records as fit in 2 MiB: its header, an index with a
/// slot for each record (left empty: the reader finds records by their
/// blocks), and the records, each on whole blocks.
fn site_library(rng: &mut Rng) -> Vec<u8> {
    let mut records = Vec::new();
    let mut total = LIBRARY_INDEX;
    let mut nodes = 0;
    for number in 1..=SITE_GAMES {
        let game = random_game(rng, number, SITE_SHORTEST);
        let record = cbr(&game);
        let blocks = record.len().div_ceil(BLOCK);
        nodes += game.tree.len() - 1;
        if total + INDEX_SLOT + blocks * BLOCK > SITE_BYTES || nodes > SITE_NODES {
            break;
        }
        total += INDEX_SLOT + blocks * BLOCK;
        records.push(record);
    }
    let mut out = vec![0u8; LIBRARY_INDEX + records.len() * INDEX_SLOT];
    out[..16].copy_from_slice(LIBRARY_MAGIC);
    out[60..64].copy_from_slice(&(records.len() as u32).to_le_bytes());
    put_utf16(&mut out[64..576], "基准对局库");
    for record in records {
        let end = out.len() + record.len().div_ceil(BLOCK) * BLOCK;
        out.extend_from_slice(&record);
        out.resize(end, 0);
    }
    out
}

/// A game as a CBR record: the header's text fields, result and board, then
/// its tree in preorder, each move with flag 1 where its line ends, 2 where
/// an alternative to it comes later, and 4 with its comment.
fn cbr(game: &Game) -> Vec<u8> {
    let mut out = vec![0u8; 2214];
    out[..16].copy_from_slice(RECORD_MAGIC);
    let fields = [("Event", 692, 64), ("Round", 756, 64), ("Date", 884, 64), ("Site", 948, 64)];
    let players = [("Red", 1076, 64), ("Black", 1300, 64)];
    for (tag, at, len) in fields.into_iter().chain(players) {
        if let Some(value) = game.record.tag(tag) {
            put_utf16(&mut out[at..at + len], value);
        }
    }
    out[2076] = match game.record.tag("Result") {
        Some("1-0") => 1,
        Some("0-1") => 2,
        Some("1/2-1/2") => 3,
        _ => 0,
    };
    let start = &game.record.start;
    out[2112] = if start.turn() == Color::Red { 1 } else { 2 };
    out[2116..2118].copy_from_slice(&1u16.to_le_bytes());
    let tables = Position::<Standard>::tables();
    for index in 0..90 {
        let cell = tables.cell(index % 9, 9 - index / 9).expect("a point of the standard board");
        if let Some(piece) = start.piece_at(cell) {
            let role = match piece.role {
                Role::Chariot => 1,
                Role::Horse => 2,
                Role::Elephant => 3,
                Role::Advisor => 4,
                Role::General => 5,
                Role::Cannon => 6,
                Role::Soldier => 7,
            };
            let color = if piece.color == Color::Red { 0x10 } else { 0x20 };
            out[2120 + index] = color | role;
        }
    }
    let point = |cell: Cell| (9 - tables.number(cell)) as u8 * 9 + tables.file(cell) as u8;
    let tree = &game.tree;
    for id in tree.preorder() {
        let (from, to, ends, more) = match tree.mv(id) {
            None => (0, 0, false, false),
            Some(mv) => {
                let siblings = tree.parent(id).map_or(&[][..], |p| tree.children(p));
                let more = siblings.last().is_some_and(|&last| last != id);
                (point(mv.from), point(mv.to), tree.children(id).is_empty(), more)
            }
        };
        let comment = tree.comment(id);
        let flags = u8::from(ends) | (u8::from(more) << 1) | (u8::from(!comment.is_empty()) << 2);
        out.extend_from_slice(&[flags, 0, from, to]);
        if !comment.is_empty() {
            let text: Vec<u8> =
                comment.replace('\n', "\r\n").encode_utf16().flat_map(u16::to_le_bytes).collect();
            out.extend_from_slice(&(text.len() as u32).to_le_bytes());
            out.extend_from_slice(&text);
        }
    }
    out
}

/// Text as UTF-16LE in a field, cut to leave the field's last two bytes NUL.
fn put_utf16(field: &mut [u8], text: &str) {
    let units = text.encode_utf16().take(field.len() / 2 - 1);
    for (i, unit) in units.enumerate() {
        field[2 * i..2 * i + 2].copy_from_slice(&unit.to_le_bytes());
    }
}
