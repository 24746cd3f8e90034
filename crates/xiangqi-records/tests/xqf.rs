//! XQF files built here byte by byte from the format's description (the
//! header's offsets, the piece table's order, the record's flags, and for the
//! keyed versions every step of the key arithmetic), read back with the
//! crate; the crate's own writer checked by reading its files back; and
//! damaged files, each refused with the place and the reason.

use xiangqi::{Position, Standard, rng::Rng};
use xiangqi_records::{Game, Limit, Limits, MoveTree, PgnError, Record, RecordError, xqf};

// ---------------------------------------------------------------------------
// Building files from the description.

/// A square's number in XQF: its file (a..i as 0..8) times ten plus its rank
/// (0..9 from Red's side).
fn sq(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[0] - b'a') * 10 + (b[1] - b'0')
}

/// A 1024-byte header with the signature and version and nothing else.
fn header(version: u8) -> Vec<u8> {
    let mut h = vec![0u8; 1024];
    h[0] = b'X';
    h[1] = b'Q';
    h[2] = version;
    h
}

/// Puts a text field: its length byte, then its bytes.
fn put_text(h: &mut [u8], at: usize, bytes: &[u8]) {
    h[at] = bytes.len() as u8;
    h[at + 1..at + 1 + bytes.len()].copy_from_slice(bytes);
}

/// The usual start as the piece table holds it: Red's R N B A K A B N R C C
/// P P P P P, then Black's.
const START_TABLE: [u8; 32] = [
    0, 10, 20, 30, 40, 50, 60, 70, 80, 12, 72, 3, 23, 43, 63, 83, //
    9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86,
];

/// A record of a plain file (up to version 0x0a): from + 0x18, to + 0x20,
/// the flags, a spare byte, and always a 4-byte comment length.
fn plain(from: u8, to: u8, flags: u8, comment: &[u8]) -> Vec<u8> {
    let mut r = vec![from + 0x18, to + 0x20, flags, 0];
    r.extend_from_slice(&(comment.len() as u32).to_le_bytes());
    r.extend_from_slice(comment);
    r
}

/// The key bytes of a keyed header, and what the format derives from them.
struct Keys {
    mask: u8,
    or: [u8; 4],
    sum: u8,
    xy: u8,
    xyf: u8,
    xyt: u8,
}

impl Keys {
    /// `f(k) = ((((k·k·3 + 9)·3 + 8)·2 + 1)·3 + 8`, which is `54k² + 221`.
    fn f(k: u8) -> u32 {
        let k = u32::from(k);
        ((((k * k * 3 + 9) * 3 + 8) * 2 + 1) * 3) + 8
    }

    /// The piece offset: `f(byte 0x0d) · byte 0x0d`, mod 256.
    fn piece(&self) -> u8 {
        (Keys::f(self.xy) * u32::from(self.xy) % 256) as u8
    }

    /// The from offset: `f(byte 0x0e) · piece offset`, mod 256.
    fn from(&self) -> u8 {
        (Keys::f(self.xyf) * u32::from(self.piece()) % 256) as u8
    }

    /// The to offset: `f(byte 0x0f) · from offset`, mod 256.
    fn to(&self) -> u8 {
        (Keys::f(self.xyt) * u32::from(self.from()) % 256) as u8
    }

    /// The comment offset: `(byte 0x0c · 256 + byte 0x0d) mod 32000 + 767`.
    fn comment(&self) -> u32 {
        (u32::from(self.sum) * 256 + u32::from(self.xy)) % 32000 + 767
    }

    /// The stream's key: the four bytes from 0x0c, each and-ed with the mask
    /// and or-ed with its "or" key, then byte `i` of the copyright text
    /// and-ed with key byte `i mod 4`.
    fn stream(&self) -> [u8; 32] {
        let text = b"[(C) Copyright Mr. Dong Shiwei.]";
        let key = [
            (self.sum & self.mask) | self.or[0],
            (self.xy & self.mask) | self.or[1],
            (self.xyf & self.mask) | self.or[2],
            (self.xyt & self.mask) | self.or[3],
        ];
        std::array::from_fn(|i| text[i] & key[i % 4])
    }

    /// Writes the key bytes into a header: mask at 0x03, the "or" keys at
    /// 0x08..0x0c, then sum, xy, xyf, xyt at 0x0c..0x10.
    fn put(&self, h: &mut [u8]) {
        h[0x03] = self.mask;
        h[0x08..0x0c].copy_from_slice(&self.or);
        h[0x0c..0x10].copy_from_slice(&[self.sum, self.xy, self.xyf, self.xyt]);
    }

    /// The piece table as stored: each square plus the piece offset, and from
    /// version 0x0c the slot `s` stored at index `i` where `s = (i + 1 +
    /// piece offset) mod 32`. Slots with no piece hold a number above 89 first.
    fn table(&self, version: u8, squares: &[u8; 32]) -> [u8; 32] {
        let key = self.piece();
        std::array::from_fn(|i| {
            let slot = if version >= 0x0c { (i + 1 + usize::from(key)) % 32 } else { i };
            squares[slot].wrapping_add(key)
        })
    }

    /// A keyed record before the stream: squares plus 0x18/0x20 plus the from
    /// and to offsets, the flags with noise in their low five bits (0x20 set
    /// when there is a comment), a spare byte of noise, then for a comment its
    /// length plus the comment offset and its bytes.
    fn record(&self, from: u8, to: u8, flags: u8, noise: u8, comment: &[u8]) -> Vec<u8> {
        let flags = flags | (noise & 0x1f) | if comment.is_empty() { 0 } else { 0x20 };
        let mut r = vec![
            (from + 0x18).wrapping_add(self.from()),
            (to + 0x20).wrapping_add(self.to()),
            flags,
            noise.rotate_left(3),
        ];
        if !comment.is_empty() {
            r.extend_from_slice(&(comment.len() as u32 + self.comment()).to_le_bytes());
            r.extend_from_slice(comment);
        }
        r
    }

    /// Adds the stream to every byte from 0x400 on, by its place in the file.
    fn encipher(&self, file: &mut [u8]) {
        let stream = self.stream();
        for (p, b) in file.iter_mut().enumerate().skip(1024) {
            *b = b.wrapping_add(stream[p % 32]);
        }
    }
}

const NEXT: u8 = 0x80;
const VARIATION: u8 = 0x40;

// ---------------------------------------------------------------------------
// What the files should read as, built with the rules crate alone.

fn position(fen: &str) -> Position<Standard> {
    fen.parse().unwrap()
}

/// The node after a path of ICCS moves from the start, adding the moves the
/// tree lacks (after the ones it has, so as variations).
fn node(tree: &mut MoveTree, start: &Position<Standard>, path: &str) -> usize {
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
    at
}

/// A game from a start, paths with their comments (in the order their
/// nodes should be added) and tags.
fn game(start: &Position<Standard>, lines: &[(&str, &str)], tags: &[(&str, &str)]) -> Game {
    let mut tree = MoveTree::new();
    for (path, comment) in lines {
        let id = node(&mut tree, start, path);
        if !comment.is_empty() {
            tree.set_comment(id, *comment);
        }
    }
    let tags = tags.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Game::new(Record { tags, start: start.clone(), moves: vec![] }, tree)
}

fn big() -> Limits {
    Limits { nodes_per_tree: 1_000_000, plies_per_line: 20_000, variation_depth: 10_000, ..Limits::SITE }
}

// ---------------------------------------------------------------------------
// Known answers.

#[test]
fn a_plain_file_of_version_10_reads_its_tags_moves_comments_and_variations() {
    let mut h = header(0x0a);
    h[0x10..0x30].copy_from_slice(&START_TABLE);
    h[0x33] = 1; // Red won
    put_text(&mut h, 0x50, b"Game 1");
    put_text(&mut h, 0xd0, &[0xb2, 0xe2, 0xca, 0xd4, 0xc8, 0xfc]); // 测试赛
    put_text(&mut h, 0x110, b"2008.10.01");
    put_text(&mut h, 0x120, &[0xb1, 0xb1, 0xbe, 0xa9]); // 北京
    put_text(&mut h, 0x130, &[0xbc, 0xd7]); // 甲
    put_text(&mut h, 0x140, &[0xd2, 0xd2]); // 乙
    put_text(&mut h, 0x1d0, b"Annotator");
    put_text(&mut h, 0x1e0, b"Author");
    let mut file = h;
    // Up to 0x0a, any bit of the high nibble says "has next" and any bit of
    // the low one "has variation".
    file.extend(plain(0, 0, 0x10, b"start"));
    file.extend(plain(sq("h2"), sq("e2"), 0x20, &[0xd6, 0xd0, 0xc5, 0xda])); // 中炮
    file.extend(plain(sq("h9"), sq("g7"), 0x08, b""));
    file.extend(plain(sq("b9"), sq("c7"), 0x80, &[0xb1, 0xe4, 0xd7, 0xc5, b'\r', b'\n'])); // 变着
    file.extend(plain(sq("b0"), sq("c2"), 0x00, b""));

    let read = xqf::read(&file, &Limits::SITE).unwrap();
    let start = Position::<Standard>::startpos();
    let expected = game(
        &start,
        &[("", "start"), ("h2e2", "中炮"), ("h2e2 h9g7", ""), ("h2e2 b9c7", "变着"), ("h2e2 b9c7 b0c2", "")],
        &[
            ("Event", "测试赛"),
            ("Site", "北京"),
            ("Date", "2008.10.01"),
            ("Red", "甲"),
            ("Black", "乙"),
            ("Result", "1-0"),
            ("Title", "Game 1"),
            ("Annotator", "Annotator"),
            ("Author", "Author"),
        ],
    );
    assert_eq!(read, expected);
    assert_eq!(read.record.moves.len(), 2);
    assert!(xqf::looks_like(&file));
}

#[test]
fn a_keyed_file_of_version_11_offsets_its_pieces_without_rotating_them() {
    let keys = Keys { mask: 0xff, or: [0; 4], sum: 0xe2, xy: 0x05, xyf: 0x0a, xyt: 0x0f };
    // The four bytes from 0x0c sum to 0xe2 + 0x05 + 0x0a + 0x0f = 0x100.
    // f(5) = 54·25 + 221 = 1571; 1571·5 = 7855 = 30·256 + 175.
    assert_eq!(keys.piece(), 175);
    // f(10) = 5621; 5621·175 = 983675 = 3842·256 + 123.
    assert_eq!(keys.from(), 123);
    // f(15) = 12371; 12371·123 = 1521633 = 5943·256 + 225.
    assert_eq!(keys.to(), 225);
    // (226·256 + 5) mod 32000 + 767 = 57861 mod 32000 + 767 = 25861 + 767.
    assert_eq!(keys.comment(), 26628);
    // The key bytes are 0xe2, 0x05, 0x0a, 0x0f; "[(C)" and-ed with them.
    assert_eq!(keys.stream()[..4], [b'[' & 0xe2, b'(' & 0x05, b'C' & 0x0a, b')' & 0x0f]);
    assert_eq!(keys.stream()[..4], [66, 0, 2, 9]);

    // An endgame: Red's general on d0 and chariot on h5, Black's general on e9.
    let mut squares = [0u8; 32];
    for (i, s) in squares.iter_mut().enumerate() {
        // Pieces off the board: any number from 90 up, as writers scatter them.
        *s = 90 + (i * 7 % 150) as u8;
    }
    squares[0] = sq("h5"); // Red's first chariot
    squares[4] = sq("d0"); // Red's general
    squares[20] = sq("e9"); // Black's general
    let mut h = header(0x0b);
    keys.put(&mut h);
    h[0x10..0x30].copy_from_slice(&keys.table(0x0b, &squares));
    let mut file = h;
    file.extend(keys.record(0, 0, NEXT, 0x17, &[0xb2, 0xd0, 0xbe, 0xd6])); // 残局
    file.extend(keys.record(sq("h5"), sq("h9"), NEXT, 0x05, &[0xbd, 0xab, 0xbe, 0xfc])); // 将军
    file.extend(keys.record(sq("e9"), sq("e8"), 0, 0x1f, b""));
    keys.encipher(&mut file);

    let start = position("4k4/9/9/9/7R1/9/9/9/9/3K5 w");
    let expected = game(&start, &[("", "残局"), ("h5h9", "将军"), ("h5h9 e9e8", "")], &[]);
    assert_eq!(xqf::read(&file, &Limits::SITE).unwrap(), expected);
    assert!(xqf::looks_like(&file));
}

#[test]
fn a_keyed_file_of_version_15_rotates_its_piece_table() {
    let keys = Keys { mask: 0xab, or: [0x11, 0x22, 0x33, 0x9a], sum: 0x37, xy: 0x21, xyf: 0x43, xyt: 0x65 };
    // 0x37 + 0x21 + 0x43 + 0x65 = 0x100.
    // f(33) = 54·1089 + 221 = 59027; 59027·33 = 1947891 = 7608·256 + 243.
    assert_eq!(keys.piece(), 243);
    // f(67) = 242627; 242627·243 = 58958361 = 230306·256 + 25.
    assert_eq!(keys.from(), 25);
    // f(101) = 551075; 551075·25 = 13776875 = 53815·256 + 235.
    assert_eq!(keys.to(), 235);
    // (55·256 + 33) mod 32000 + 767 = 14113 + 767.
    assert_eq!(keys.comment(), 14880);
    // Key bytes: (0x37 & 0xab) | 0x11 = 0x33, (0x21 & 0xab) | 0x22 = 0x23,
    // (0x43 & 0xab) | 0x33 = 0x33, (0x65 & 0xab) | 0x9a = 0xbb.
    assert_eq!(keys.stream()[..4], [b'[' & 0x33, b'(' & 0x23, b'C' & 0x33, b')' & 0xbb]);
    // Slot s is stored at index (s - 1 - 243) mod 32 = (s + 12) mod 32: Red's
    // first chariot (slot 0, on a0) at index 12, stored as 0 + 243.
    let table = keys.table(0x0f, &START_TABLE);
    assert_eq!(table[12], 243);
    assert_eq!(table[16], 27, "Red's general (slot 4) on e0: 40 + 243 = 283 = 256 + 27");

    let mut h = header(0x0f);
    keys.put(&mut h);
    h[0x10..0x30].copy_from_slice(&table);
    h[0x33] = 3; // drawn
    let mut file = h;
    file.extend(keys.record(0, 0, NEXT, 0x09, b""));
    file.extend(keys.record(sq("c3"), sq("c4"), NEXT | VARIATION, 0x1e, b""));
    file.extend(keys.record(sq("b9"), sq("c7"), 0, 0x03, b""));
    file.extend(keys.record(sq("h2"), sq("e2"), NEXT, 0x00, b""));
    file.extend(keys.record(sq("h9"), sq("g7"), 0, 0x11, &[0xc2, 0xed])); // 马
    keys.encipher(&mut file);

    let expected = game(
        &Position::<Standard>::startpos(),
        &[("c3c4 b9c7", ""), ("h2e2 h9g7", "马")],
        &[("Result", "1/2-1/2")],
    );
    assert_eq!(xqf::read(&file, &Limits::SITE).unwrap(), expected);
}

#[test]
fn a_keyed_file_of_version_18_reads_as_xqstudio_writes_it() {
    let keys = Keys { mask: 0xee, or: [0x05, 0x50, 0xa0, 0x0b], sum: 0x98, xy: 0xc8, xyf: 0x07, xyt: 0x99 };
    // 0x98 + 0xc8 + 0x07 + 0x99 = 0x200.
    // f(200) = 54·40000 + 221 = 2160221; ·200 = 432044200 = 1687672·256 + 168.
    assert_eq!(keys.piece(), 168);
    // f(7) = 2867; 2867·168 = 481656 = 1881·256 + 120.
    assert_eq!(keys.from(), 120);
    // f(153) = 1264307; 1264307·120 = 151716840 = 592643·256 + 232.
    assert_eq!(keys.to(), 232);
    // (152·256 + 200) mod 32000 + 767 = 39112 mod 32000 + 767 = 7112 + 767.
    assert_eq!(keys.comment(), 7879);
    // Key bytes: (0x98 & 0xee) | 0x05 = 0x8d, (0xc8 & 0xee) | 0x50 = 0xd8,
    // (0x07 & 0xee) | 0xa0 = 0xa6, (0x99 & 0xee) | 0x0b = 0x8b.
    assert_eq!(keys.stream()[..4], [b'[' & 0x8d, b'(' & 0xd8, b'C' & 0xa6, b')' & 0x8b]);
    assert_eq!(keys.stream()[..4], [9, 8, 2, 9]);

    // Black to move in an endgame from a longer game: 40 plies before it.
    let mut squares = [0u8; 32];
    for (i, s) in squares.iter_mut().enumerate() {
        *s = 90 + (i * 13 % 155) as u8;
    }
    squares[1] = sq("c7"); // Red's first horse
    squares[4] = sq("f0"); // Red's general
    squares[20] = sq("e9"); // Black's general
    squares[29] = sq("e3"); // a black soldier
    let mut h = header(0x12);
    keys.put(&mut h);
    h[0x10..0x30].copy_from_slice(&keys.table(0x12, &squares));
    h[0x30..0x32].copy_from_slice(&40u16.to_le_bytes());
    h[0x32] = 1; // Black to move
    h[0x33] = 2; // Black won
    put_text(&mut h, 0x130, &[0xba, 0xec, 0xb7, 0xbd]); // 红方
    put_text(&mut h, 0x140, &[0xba, 0xda, 0xb7, 0xbd]); // 黑方
    put_text(&mut h, 0x150, b"90+30");
    let mut file = h;
    file.extend(keys.record(b'X', b'Q', NEXT, 0x1c, &[0xcf, 0xc8, 0xca, 0xd6])); // 先手
    file.extend(keys.record(sq("e3"), sq("f3"), NEXT | VARIATION, 0x07, b""));
    file.extend(keys.record(sq("c7"), sq("e8"), NEXT, 0x12, &[0xc5, 0xda, b'\r', b'\n', b'x', b'\r', b'\n']));
    file.extend(keys.record(sq("e9"), sq("f9"), 0, 0x1b, b""));
    file.extend(keys.record(sq("e3"), sq("d3"), 0, 0x00, &[0xc1, 0xed, 0xd2, 0xbb, 0xd6, 0xd6])); // 另一种
    keys.encipher(&mut file);

    let start = position("4k4/9/2N6/9/9/9/4p4/9/9/5K3 b - - 0 21");
    let expected = game(
        &start,
        &[("", "先手"), ("e3f3", ""), ("e3f3 c7e8", "炮\nx"), ("e3f3 c7e8 e9f9", ""), ("e3d3", "另一种")],
        &[("Red", "红方"), ("Black", "黑方"), ("Result", "0-1"), ("TimeControl", "90+30")],
    );
    assert_eq!(xqf::read(&file, &Limits::SITE).unwrap(), expected);
    assert!(xqf::looks_like(&file));
}

#[test]
fn a_header_that_says_red_for_a_record_black_begins_yields_to_the_first_move() {
    let mut h = header(0x0a);
    let mut squares = [0xffu8; 32];
    squares[4] = sq("d0");
    squares[20] = sq("e9");
    squares[16] = sq("a9");
    h[0x10..0x30].copy_from_slice(&squares);
    let mut file = h;
    file.extend(plain(0, 0, 0xf0, b""));
    file.extend(plain(sq("a9"), sq("a1"), 0, b""));
    let read = xqf::read(&file, &Limits::SITE).unwrap();
    assert_eq!(read.record.start, position("r3k4/9/9/9/9/9/9/9/9/3K5 b"));
    assert_eq!(read.record.moves.len(), 1);
}

#[test]
fn a_result_byte_the_format_does_not_name_gives_no_result() {
    for byte in [0u8, 4, 9, 255] {
        let mut file = header(0x0a);
        file[0x10..0x30].copy_from_slice(&START_TABLE);
        file[0x33] = byte;
        file.extend(plain(0, 0, 0, b""));
        let read = xqf::read(&file, &Limits::SITE).unwrap();
        assert_eq!(read.record.tag("Result"), None, "result byte {byte}");
    }
}

// ---------------------------------------------------------------------------
// The writer, read back.

/// Games of every shape the writer is asked for.
fn shapes() -> Vec<Game> {
    let start = Position::<Standard>::startpos();
    let all_tags = [
        ("Event", "全国象棋个人赛"),
        ("Site", "上海"),
        ("Date", "2024.05.01"),
        ("Red", "棋手甲"),
        ("Black", "Player B"),
        ("Result", "1/2-1/2"),
        ("Title", "第一轮"),
        ("TimeControl", "60分钟"),
        ("RedTime", "59:00"),
        ("BlackTime", "58:30"),
        ("Annotator", "某人"),
        ("Author", "象棋演播室"),
    ];
    vec![
        game(&start, &[], &[]),
        game(&start, &[("", "no moves, only words")], &[("Result", "0-1")]),
        game(&start, &[("h2e2 h9g7 h0g2 i9h9", "")], &all_tags),
        game(
            &start,
            &[
                ("", "开局\n第二行"),
                ("h2e2", "中炮"),
                ("h2e2 h9g7 h0g2", "𠀀 four bytes"),
                ("h2e2 b9c7", "变着"),
                ("h2e2 b9c7 b0c2", ""),
                ("h2e2 h7e7", "顺炮"),
                ("c3c4", "仙人指路"),
                ("c3c4 c6c5", ""),
                ("b2e2", ""),
            ],
            &[("Red", "甲"), ("Black", "乙")],
        ),
        // An endgame composition, Black to move deep into a game.
        game(&position("4k4/9/2N6/9/9/9/4p4/9/9/5K3 b - - 0 21"), &[("e3f3 c7e8", "")], &[]),
        // A handicap game: Red gives a horse.
        game(
            &position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR w"),
            &[("h2e2", "")],
            &[],
        ),
    ]
}

#[test]
fn writing_then_reading_gives_every_shape_back() {
    for game in shapes() {
        let bytes = xqf::write(&game);
        assert!(xqf::looks_like(&bytes));
        assert_eq!(bytes[2], 0x0a, "the writer writes the plain version");
        assert_eq!(xqf::read(&bytes, &Limits::SITE).unwrap(), game);
    }
}

/// A game of random moves from one of several starts, with random
/// variations and comments.
fn random_game(seed: u64) -> Game {
    let mut rng = Rng(seed);
    let starts = [
        Position::<Standard>::startpos(),
        position("4k4/9/2N6/9/9/9/4p4/9/9/5K3 b - - 0 21"),
        position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR w"),
        position("3ak4/4a4/4b4/9/2p6/9/9/4B4/4A4/3AK1R2 w - - 0 7"),
    ];
    let start = starts[rng.below(starts.len())].clone();
    let comments = ["", "", "", "好棋", "a\nb", "平稳\n\n下一步", "?!", "𠀀"];
    let mut tree = MoveTree::new();
    tree.set_comment(MoveTree::ROOT, comments[rng.below(comments.len())]);
    let mut todo = vec![(MoveTree::ROOT, start.clone(), 0usize)];
    while let Some((at, pos, ply)) = todo.pop() {
        let mut moves = pos.legal_moves().to_vec();
        rng.shuffle(&mut moves);
        let children = match rng.below(20) {
            _ if ply > 30 || tree.len() > 120 => 0,
            0 => 0,
            1..=3 => 3,
            4..=6 => 2,
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
    let result = ["1-0", "0-1", "1/2-1/2"][rng.below(3)];
    let tags = vec![("Red".to_string(), format!("红{seed}")), ("Result".to_string(), result.to_string())];
    Game::new(Record { tags, start, moves: vec![] }, tree)
}

#[test]
fn writing_then_reading_gives_random_trees_with_variations_and_comments_back() {
    for seed in 0..60 {
        let game = random_game(seed);
        let bytes = xqf::write(&game);
        assert_eq!(xqf::read(&bytes, &big()).unwrap(), game, "seed {seed}");
    }
}

#[test]
fn a_name_longer_than_its_field_is_cut_after_the_last_whole_character() {
    // Red's field holds 15 bytes: seven two-byte characters fit, the eighth
    // would need bytes 15 and 16.
    let long = game(
        &Position::<Standard>::startpos(),
        &[],
        &[("Red", "一二三四五六七八九十"), ("Black", "ab𠀀𠀀𠀀𠀀")],
    );
    let bytes = xqf::write(&long);
    assert_eq!(bytes[0x130], 14);
    assert_eq!(bytes[0x140], 14, "a, b and three four-byte characters");
    let read = xqf::read(&bytes, &Limits::SITE).unwrap();
    assert_eq!(read.record.tag("Red"), Some("一二三四五六七"));
    assert_eq!(read.record.tag("Black"), Some("ab𠀀𠀀𠀀"));
}

#[test]
fn tags_the_format_has_no_field_for_and_unknown_values_are_left_out() {
    let with = game(
        &Position::<Standard>::startpos(),
        &[("h2e2", "")],
        &[("Event", "?"), ("Round", "3"), ("Red", " 甲 "), ("ECCO", "A00"), ("Result", "*")],
    );
    let read = xqf::read(&xqf::write(&with), &Limits::SITE).unwrap();
    assert_eq!(read.record.tags, [("Red".to_string(), "甲".to_string())]);
    assert_eq!(read.tree, with.tree);
}

// ---------------------------------------------------------------------------
// Damaged files.

fn layout_at(error: &RecordError) -> usize {
    match error {
        RecordError::Layout { offset, .. } => *offset,
        other => panic!("expected a layout error, got {other:?}"),
    }
}

/// A plain file of the usual start: h2e2 (with a comment), h9g7.
fn small_plain() -> Vec<u8> {
    let mut file = header(0x0a);
    file[0x10..0x30].copy_from_slice(&START_TABLE);
    file.extend(plain(0, 0, 0xf0, b""));
    file.extend(plain(sq("h2"), sq("e2"), 0xf0, b"cannon"));
    file.extend(plain(sq("h9"), sq("g7"), 0x00, b""));
    file
}

#[test]
fn a_file_cut_inside_the_header_names_where_it_ends() {
    let file = small_plain();
    for len in [3, 100, 1023] {
        let error = xqf::read(&file[..len], &Limits::SITE).unwrap_err();
        assert_eq!(layout_at(&error), len);
        assert!(error.to_string().contains("header"), "{error}");
        assert!(xqf::looks_like(&file[..len]));
    }
}

#[test]
fn a_file_cut_inside_the_tree_keeps_the_moves_before_the_cut() {
    let file = small_plain();
    // The second move's record begins at 1024 + 8 + 14.
    let cut = 1024 + 8 + 14 + 3;
    let read = xqf::read_partial(&file[..cut], &Limits::SITE);
    let error = read.error.unwrap();
    assert_eq!(layout_at(&error), 1024 + 8 + 14);
    assert!(error.to_string().contains("ends inside a move record"), "{error}");
    let kept = read.game.unwrap();
    assert_eq!(kept.record.moves, [Position::<Standard>::startpos().parse_move("h2e2").unwrap()]);
    assert_eq!(kept.tree.comment(1), "cannon");
    assert!(xqf::read(&file[..cut], &Limits::SITE).is_err());
}

#[test]
fn a_comment_length_past_the_end_is_refused_before_anything_is_read_into_memory() {
    let mut file = header(0x0a);
    file[0x10..0x30].copy_from_slice(&START_TABLE);
    file.extend([0x18, 0x20, 0xf0, 0]);
    file.extend(0xffff_fff0u32.to_le_bytes());
    file.extend(b"short");
    let error = xqf::read(&file, &Limits::SITE).unwrap_err();
    assert_eq!(layout_at(&error), 1032);
    let text = error.to_string();
    assert!(text.contains("4294967280") && text.contains("5 are left"), "{text}");
}

#[test]
fn a_keyed_comment_length_below_the_comment_offset_is_refused() {
    let keys = Keys { mask: 0xff, or: [0; 4], sum: 0xe2, xy: 0x05, xyf: 0x0a, xyt: 0x0f };
    let mut file = header(0x0b);
    keys.put(&mut file);
    file[0x10..0x30].copy_from_slice(&keys.table(0x0b, &START_TABLE));
    // A comment flag with a stored length of 5, far below the offset 26628.
    file.extend([0x18, 0x20, 0x20, 0]);
    file.extend(5u32.to_le_bytes());
    keys.encipher(&mut file);
    let error = xqf::read(&file, &Limits::SITE).unwrap_err();
    assert_eq!(layout_at(&error), 1028);
    assert!(error.to_string().contains("26628"), "{error}");
}

#[test]
fn two_pieces_on_one_square_are_refused_naming_the_byte() {
    let mut file = small_plain();
    file[0x10 + 17] = 0; // Black's first horse onto a0, where Red's chariot stands
    let error = xqf::read(&file, &Limits::SITE).unwrap_err();
    assert_eq!(layout_at(&error), 0x10 + 17);
    assert!(error.to_string().contains("a0"), "{error}");
}

#[test]
fn a_piece_where_it_can_never_stand_is_refused_as_no_position() {
    let mut file = small_plain();
    file[0x10 + 3] = sq("e5"); // Red's advisor out of its palace
    let error = xqf::read(&file, &Limits::SITE).unwrap_err();
    assert!(matches!(error, RecordError::Record(PgnError::Fen(_))), "{error:?}");
    assert!(error.to_string().contains("e5"), "{error}");
}

#[test]
fn a_main_line_move_the_position_refuses_cuts_the_record_at_its_ply() {
    let mut file = header(0x0a);
    file[0x10..0x30].copy_from_slice(&START_TABLE);
    file.extend(plain(0, 0, 0xf0, b""));
    file.extend(plain(sq("h2"), sq("e2"), 0xf0, b""));
    file.extend(plain(sq("h9"), sq("g7"), 0xf0, b""));
    file.extend(plain(sq("e2"), sq("e9"), 0x00, b"")); // through two pieces
    let error = xqf::read(&file, &Limits::SITE).unwrap_err();
    let RecordError::Cut { kept, error: PgnError::Move { ply, number, red, text, .. } } = &error else {
        panic!("expected a cut record, got {error:?}");
    };
    assert_eq!((*ply, *number, *red, text.as_str()), (3, 2, true, "e2e9"));
    assert_eq!(kept.record.moves.len(), 2);
    assert!(error.to_string().contains("e2e9"), "{error}");
}

#[test]
fn a_move_a_variation_cannot_make_drops_the_rest_of_that_variation_only() {
    let mut file = header(0x0a);
    file[0x10..0x30].copy_from_slice(&START_TABLE);
    file.extend(plain(0, 0, 0xf0, b""));
    file.extend(plain(sq("h2"), sq("e2"), 0xff, b"")); // next and a variation
    file.extend(plain(sq("h9"), sq("g7"), 0x00, b""));
    // The variation: b2e2, then a reply the position refuses, with a
    // continuation and an alternative of its own.
    file.extend(plain(sq("b2"), sq("e2"), 0xf0, b""));
    file.extend(plain(sq("a9"), sq("a5"), 0xff, b"")); // a chariot cannot jump its pawn
    file.extend(plain(sq("a0"), sq("a1"), 0x00, b"")); // after the refused move: dropped
    file.extend(plain(sq("b9"), sq("c7"), 0x00, b"kept")); // the alternative: kept
    let read = xqf::read_partial(&file, &Limits::SITE);
    assert!(read.error.is_none(), "{:?}", read.error);
    assert_eq!(read.dropped.len(), 1);
    assert!(matches!(read.dropped[0], PgnError::Move { ply: 2, .. }), "{:?}", read.dropped[0]);
    let expected = game(&Position::<Standard>::startpos(), &[("h2e2 h9g7", ""), ("b2e2 b9c7", "kept")], &[]);
    assert_eq!(read.game.unwrap(), expected);
    assert_eq!(xqf::read(&file, &Limits::SITE).unwrap(), expected);
}

#[test]
fn a_move_square_off_the_board_is_refused_naming_the_record() {
    let mut file = header(0x0a);
    file[0x10..0x30].copy_from_slice(&START_TABLE);
    file.extend(plain(0, 0, 0xf0, b""));
    file.extend([sq("h2") + 0x18, 95 + 0x20, 0, 0, 0, 0, 0, 0]);
    let error = xqf::read(&file, &Limits::SITE).unwrap_err();
    assert_eq!(layout_at(&error), 1032);
    assert!(error.to_string().contains("95"), "{error}");
}

#[test]
fn what_is_no_xqf_is_refused_at_its_first_byte() {
    let mut file = small_plain();
    file[2] = 0x13;
    assert_eq!(layout_at(&xqf::read(&file, &Limits::SITE).unwrap_err()), 2);
    assert!(!xqf::looks_like(&file));
    let mut file = small_plain();
    file[0] = b'x';
    assert_eq!(layout_at(&xqf::read(&file, &Limits::SITE).unwrap_err()), 0);
    assert!(!xqf::looks_like(&file));
    let mut file = small_plain();
    file[2] = 0x12;
    file[0x0d] = 1; // the key bytes no longer sum to zero
    assert_eq!(layout_at(&xqf::read(&file, &Limits::SITE).unwrap_err()), 0x0c);
    assert!(!xqf::looks_like(&file));
    assert!(!xqf::looks_like(b"[Game \"Chinese Chess\"]"));
    assert!(!xqf::looks_like(b""));
    assert!(!xqf::looks_like(b"XQ"));
}

#[test]
fn no_cut_or_damaged_byte_makes_the_reader_panic() {
    let keys = Keys { mask: 0xab, or: [0x11, 0x22, 0x33, 0x9a], sum: 0x37, xy: 0x21, xyf: 0x43, xyt: 0x65 };
    let mut keyed = header(0x12);
    keys.put(&mut keyed);
    keyed[0x10..0x30].copy_from_slice(&keys.table(0x12, &START_TABLE));
    keyed.extend(keys.record(0, 0, NEXT, 1, b"root"));
    keyed.extend(keys.record(sq("h2"), sq("e2"), NEXT | VARIATION, 2, b"c"));
    keyed.extend(keys.record(sq("h9"), sq("g7"), 0, 3, b""));
    keyed.extend(keys.record(sq("c3"), sq("c4"), 0, 4, b"d"));
    keys.encipher(&mut keyed);
    let written = xqf::write(&random_game(7));
    let mut rng = Rng(99);
    for file in [small_plain(), keyed, written] {
        for len in 0..file.len() {
            let _ = xqf::read_partial(&file[..len], &Limits::SITE);
        }
        for _ in 0..3000 {
            let mut damaged = file.clone();
            let at = rng.below(damaged.len());
            damaged[at] = rng.next_u64() as u8;
            let _ = xqf::read_partial(&damaged, &Limits::SITE);
        }
    }
}

// ---------------------------------------------------------------------------
// Limits, and files too deep for any recursion.

/// A line of `plies` moves: both sides' horses out and back again.
fn long_line(plies: usize) -> Game {
    let start = Position::<Standard>::startpos();
    let names = ["b0c2", "b9c7", "c2b0", "c7b9"];
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(plies);
    for i in 0..plies {
        let mv = pos.parse_move(names[i % 4]).unwrap();
        pos.play_unchecked(mv);
        moves.push(mv);
    }
    Game::new(Record { tags: vec![], start, moves: vec![] }, MoveTree::line(&moves))
}

/// Variations nested `depth` deep: after each move of the line, the next
/// move of the line is the variation of another.
fn nested(depth: usize) -> Game {
    let start = Position::<Standard>::startpos();
    let names = ["b0c2", "b9c7", "c2b0", "c7b9"];
    let mut tree = MoveTree::new();
    let mut pos = start.clone();
    let mut at = MoveTree::ROOT;
    for i in 0..depth {
        let other = pos.parse_move(if i % 2 == 0 { "a3a4" } else { "a6a5" }).unwrap();
        let mv = pos.parse_move(names[i % 4]).unwrap();
        tree.add(at, other);
        at = tree.add(at, mv);
        pos.play_unchecked(mv);
    }
    Game::new(Record { tags: vec![], start, moves: vec![] }, tree)
}

fn over(error: &RecordError) -> (Limit, Option<usize>) {
    match error {
        RecordError::Record(PgnError::OverLimit { limit, ply, .. }) => (*limit, *ply),
        other => panic!("expected a limit, got {other:?}"),
    }
}

#[test]
fn a_line_longer_than_the_limit_is_refused_at_the_ply_that_passes_it() {
    let bytes = xqf::write(&long_line(50));
    let limits = Limits { plies_per_line: 40, ..Limits::SITE };
    assert_eq!(over(&xqf::read(&bytes, &limits).unwrap_err()), (Limit::PliesPerLine, Some(41)));
    let read = xqf::read_partial(&bytes, &limits);
    assert_eq!(read.game.unwrap().record.moves.len(), 40);
}

#[test]
fn a_tree_over_the_node_limit_is_refused() {
    let bytes = xqf::write(&long_line(50));
    let limits = Limits { nodes_per_tree: 30, ..Limits::SITE };
    assert_eq!(over(&xqf::read(&bytes, &limits).unwrap_err()), (Limit::NodesPerTree, Some(30)));
}

#[test]
fn variations_nested_deeper_than_the_limit_are_refused() {
    let bytes = xqf::write(&nested(40));
    let limits = Limits { variation_depth: 10, ..Limits::SITE };
    assert_eq!(over(&xqf::read(&bytes, &limits).unwrap_err()), (Limit::VariationDepth, Some(11)));
    assert!(xqf::read(&bytes, &Limits { variation_depth: 40, ..Limits::SITE }).is_ok());
}

#[test]
fn a_file_over_the_byte_limit_is_refused() {
    let bytes = xqf::write(&long_line(50));
    let limits = Limits { file_bytes: 1024, ..Limits::SITE };
    assert_eq!(over(&xqf::read(&bytes, &limits).unwrap_err()), (Limit::FileBytes, None));
}

#[test]
fn a_line_of_twenty_thousand_plies_and_variations_nested_ten_thousand_deep_read_without_recursion() {
    let limits = Limits { plies_per_line: 30_000, variation_depth: 30_000, ..big() };
    for game in [long_line(20_000), nested(10_000)] {
        let bytes = xqf::write(&game);
        assert_eq!(xqf::read(&bytes, &limits).unwrap(), game);
    }
}

#[test]
fn an_opening_book_of_three_hundred_thousand_nodes_reads_within_limits_that_allow_it() {
    // Every line of three plies from the start, and three replies to each.
    let start = Position::<Standard>::startpos();
    let mut tree = MoveTree::new();
    let mut todo = vec![(MoveTree::ROOT, start.clone(), 0)];
    while let Some((at, pos, ply)) = todo.pop() {
        let moves = pos.legal_moves();
        let take = if ply < 3 { moves.len() } else { 3 };
        for &mv in moves.iter().take(take) {
            let id = tree.add(at, mv);
            if ply < 3 {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                todo.push((id, after, ply + 1));
            }
        }
    }
    assert!(tree.len() > 300_000, "{}", tree.len());
    let book = Game::new(Record { tags: vec![], start, moves: vec![] }, tree);
    let bytes = xqf::write(&book);
    let limits = Limits { nodes_per_tree: 400_000, file_bytes: 4 << 20, ..Limits::SITE };
    assert_eq!(xqf::read(&bytes, &limits).unwrap(), book);
    assert_eq!(
        over(&xqf::read(&bytes, &Limits { file_bytes: 4 << 20, ..Limits::SITE }).unwrap_err()).0,
        Limit::NodesPerTree
    );
}
