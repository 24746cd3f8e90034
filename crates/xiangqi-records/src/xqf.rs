//! XQF, the binary game record of XQStudio (象棋演播室), read and written by
//! many programs since: the most common kind of game file in China.
//!
//! ```
//! use xiangqi::{Position, Standard};
//! use xiangqi_records::{Game, Limits, MoveTree, Record, xqf};
//!
//! let start = Position::<Standard>::startpos();
//! let mut tree = MoveTree::new();
//! let cannon = tree.add(MoveTree::ROOT, start.parse_move("h2e2").unwrap());
//! tree.set_comment(cannon, "中炮");
//! let tags = vec![("Red".to_string(), "王五".to_string())];
//! let game = Game::new(Record { tags, start, moves: vec![] }, tree);
//!
//! let bytes = xqf::write(&game);
//! assert!(xqf::looks_like(&bytes));
//! assert_eq!(xqf::read(&bytes, &Limits::SITE).unwrap(), game);
//! ```
//!
//! # Layout
//!
//! A file is a header of 1024 bytes and then the tree of moves. Numbers are
//! little-endian. The header holds:
//!
//! | offset | bytes | what |
//! | --- | --- | --- |
//! | `0x00` | 2 | `XQ` |
//! | `0x02` | 1 | version |
//! | `0x03` | 1 | key mask |
//! | `0x04` | 4 | the writing program's product number |
//! | `0x08` | 4 | four "or" keys, A to D |
//! | `0x0c` | 1 | key sum: the four bytes from here sum to 0 (mod 256) |
//! | `0x0d` | 3 | piece key, from key, to key |
//! | `0x10` | 32 | where each piece stands (below) |
//! | `0x30` | 2 | plies played before the record's start |
//! | `0x32` | 1 | side to move: 0 Red, 1 Black |
//! | `0x33` | 1 | result: 0 unknown, 1 Red won, 2 Black won, 3 drawn |
//! | `0x34` | 4 | moves in the tree (a hint that writers do not all keep) |
//! | `0x38` | 4 | where the tree starts (likewise; it follows the header) |
//! | `0x40` | 2 | kind of record: 0 whole game, 1 opening, 2 middle game, 3 endgame |
//! | `0x50` | 64 | title |
//! | `0xd0` | 64 | event |
//! | `0x110` | 16 | date |
//! | `0x120` | 16 | site |
//! | `0x130`, `0x140` | 16 each | Red's and Black's players |
//! | `0x150` | 64 | time control |
//! | `0x190`, `0x1a0` | 16 each | the time Red and Black used |
//! | `0x1d0`, `0x1e0` | 16 each | annotator and author |
//!
//! Text is a length byte and then at most the field's size less one bytes of
//! GB18030. The 32 piece bytes follow a fixed order, Red's `R N B A K A B N R
//! C C P P P P P` and then Black's the same; each is `file * 10 + rank` (files
//! `a..i` as 0 to 8, ranks counted from Red's side as in ICCS), or a number
//! above 89 for a piece that is not on the board.
//!
//! The tree is a preorder walk, one record for the start and one for each
//! move: from, to, flags and a spare byte, then (where the flags or the
//! version say so) a 4-byte comment length and the comment. A record is
//! followed by the record of the first move after it when its flags say "has
//! next", and after that whole subtree by the record of its next alternative
//! when they say "has variation". The start's record carries no move. A move's
//! squares are stored plus `0x18` (from) and `0x20` (to).
//!
//! # Versions
//!
//! - Up to `0x0a` the file is plain: every record has its comment length,
//!   and any bit of the flags' high nibble means "has next", any bit of the
//!   low one "has variation".
//! - From `0x0b` on the file is keyed. Three offsets come from the header's
//!   key bytes through `f(k) = 54k² + 221`: the piece offset is
//!   `f(h[0x0d]) · h[0x0d]`, the from offset `f(h[0x0e])` times the piece
//!   offset, the to offset `f(h[0x0f])` times the from offset, each taken
//!   modulo 256; the comment offset is `(h[0x0c] · 256 + h[0x0d]) mod 32000 +
//!   767`. Piece bytes are stored plus the piece offset, a move's squares plus
//!   the from and to offsets, a comment's length plus the comment offset. On
//!   top of that each byte from `0x400` on is stored plus `stream[p mod 32]`,
//!   `p` its place in the file, where `stream[i]` is byte `i` of `[(C)
//!   Copyright Mr. Dong Shiwei.]` and-ed with `key[i mod 4]`, and `key[j] =
//!   (h[0x0c + j] & mask) | h[0x08 + j]`. The flags are `0x80` has next,
//!   `0x40` has variation, `0x20` has a comment (and so a length field); their
//!   low bits and the spare byte are noise.
//! - From `0x0c` on the piece table is also rotated: the byte for piece `s`
//!   is stored at index `(s - 1 - piece offset) mod 32`. Later versions,
//!   `0x10` and XQStudio's last, `0x12`, are read the same way.
//!
//! [`write()`] writes version `0x0a`, plain, which every reader takes.

use encoding_rs::GB18030;
use xiangqi::{Cell, Color, FenError, GameError, IllegalMove, Move, Piece, Position, Role, Setup, Standard};

use crate::{Game, Limit, Limits, MoveTree, PgnError, Record, RecordError};

/// Bytes before the tree.
const HEADER: usize = 1024;
/// The last version XQStudio writes; later numbers are no XQF known.
const NEWEST: u8 = 0x12;
/// The last version without keys, and the one [`write()`] writes.
const PLAIN: u8 = 0x0a;
/// The first version whose piece table is rotated.
const ROTATED: u8 = 0x0c;
/// The text the byte stream's key is cut from.
const STREAM_TEXT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

const PIECES: usize = 0x10;
const START_PLY: usize = 0x30;
const TO_MOVE: usize = 0x32;
const RESULT: usize = 0x33;
const MOVES: usize = 0x34;
const TREE_AT: usize = 0x38;
const KIND: usize = 0x40;

/// The role of each of a side's 16 slots in the piece table.
const SLOTS: [Role; 16] = [
    Role::Chariot,
    Role::Horse,
    Role::Elephant,
    Role::Advisor,
    Role::General,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Chariot,
    Role::Cannon,
    Role::Cannon,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
];

/// The header's text fields: offset, bytes of text at most, and the tag each
/// becomes, in the order the tags are read (Result goes after Black).
const TEXT: [(usize, usize, &str); 11] = [
    (0xd0, 63, "Event"),
    (0x120, 15, "Site"),
    (0x110, 15, "Date"),
    (0x130, 15, "Red"),
    (0x140, 15, "Black"),
    (0x50, 63, "Title"),
    (0x150, 63, "TimeControl"),
    (0x190, 15, "RedTime"),
    (0x1a0, 15, "BlackTime"),
    (0x1d0, 15, "Annotator"),
    (0x1e0, 15, "Author"),
];

/// The results the header's byte names, by its value.
const RESULTS: [&str; 3] = ["1-0", "0-1", "1/2-1/2"];

/// Whether bytes look like an XQF file by their content: the `XQ` signature,
/// a version no later than XQStudio's last (`0x12`), and for a keyed version
/// key bytes that sum to zero as every keyed writer leaves them. A file cut
/// short after its signature still looks like one, so that [`read`] can say
/// where it ends.
pub fn looks_like(bytes: &[u8]) -> bool {
    match bytes {
        [b'X', b'Q', version, ..] if *version <= NEWEST => {
            *version <= PLAIN || bytes.len() < 16 || key_sum(bytes) == 0
        }
        _ => false,
    }
}

/// The sum of the four key bytes at `0x0c` (mod 256); the header has them.
fn key_sum(header: &[u8]) -> u8 {
    header[0x0c..0x10].iter().fold(0u8, |sum, &b| sum.wrapping_add(b))
}

/// Reads an XQF file of any version: the start position (set-up positions
/// of endgame compositions and handicap games included), the tags, the
/// comments and the whole tree of moves.
///
/// The side to move is the header's, unless the first move is made by a
/// piece of the other side: then that side's, as the record would be refused
/// at its first move otherwise (readers that take the side from the first
/// move alone read such files).
///
/// The header's text becomes these tags, in this order, each only when the
/// field holds more than blanks: Event, Site, Date, Red, Black, Result (only
/// when the header names one), Title, TimeControl, RedTime, BlackTime,
/// Annotator, Author. Comments lose the line break their writer put last,
/// and their line breaks read as `\n`.
///
/// A move that the position refuses stops the reading when it is on the
/// main line: the error is a [`RecordError::Cut`] that keeps the game read
/// before it. One inside a variation drops that move with everything after
/// it in its line and the variations that branch from those, and the reading
/// goes on: a variation is an annotator's aside, and a slip in one should not
/// cost the game itself, whose moves are all kept. [`read_partial`] lists
/// what was dropped, and keeps what was read before any other error too.
///
/// # Errors
/// [`RecordError::Layout`] where the bytes are no XQF (the signature, a
/// version after `0x12`, key bytes that do not sum to zero), where the file
/// ends before the header or the tree does, where a comment's length runs past
/// the end, where two pieces share a square or a move's square is off the
/// board; [`PgnError::Fen`] for a piece table that is no legal position;
/// [`RecordError::Cut`] with the [`PgnError::Move`] naming the ply of a
/// main-line move the position refuses; [`PgnError::OverLimit`] as soon as
/// the file, a line, the tree or the nesting of variations passes its limit.
pub fn read(bytes: &[u8], limits: &Limits) -> Result<Game, RecordError> {
    let read = read_partial(bytes, limits);
    match (read.game, read.error) {
        (Some(game), None) => Ok(game),
        (Some(game), Some(RecordError::Record(error @ PgnError::Move { .. }))) => {
            Err(RecordError::Cut { kept: Box::new(game), error })
        }
        (_, Some(error)) => Err(error),
        (None, None) => Err(RecordError::Layout { offset: 0, what: "no game could be read".into() }),
    }
}

/// What [`read_partial`] made of a file.
#[derive(Debug)]
pub struct Partial {
    /// The game as far as it was read: `None` only when the header could not
    /// be (the file is no XQF, or its piece table no position). When reading
    /// stopped early it holds every move and comment read before the place
    /// `error` names, and the main line up to the move before a refused one.
    pub game: Option<Game>,
    /// Why reading stopped before the end of the tree, if it did: what
    /// [`read`] returns as its error, except that a refused main-line move
    /// comes as its [`PgnError::Move`] in a [`RecordError::Record`] (the
    /// game read before it being `game`, not a [`RecordError::Cut`]'s).
    pub error: Option<RecordError>,
    /// The refused moves inside variations, each a [`PgnError::Move`] naming
    /// its ply, in the order of the file; the game goes without each and
    /// without what followed it in its line.
    pub dropped: Vec<PgnError>,
}

/// Reads an XQF file as [`read`] does, but keeps what was read when the
/// reading stops: the game up to the place of the error, with the error; and
/// the variation moves that were dropped.
pub fn read_partial(bytes: &[u8], limits: &Limits) -> Partial {
    let mut partial = Partial { game: None, error: None, dropped: Vec::new() };
    let (header, record) = match read_header(bytes, limits) {
        Ok(read) => read,
        Err(error) => {
            partial.error = Some(error);
            return partial;
        }
    };
    let mut tree = MoveTree::new();
    partial.error = read_tree(bytes, &header, &record.start, limits, &mut tree, &mut partial.dropped).err();
    partial.game = Some(Game::new(record, tree));
    partial
}

/// What the header says about reading the tree.
struct Header {
    version: u8,
    keys: Keys,
}

/// The offsets a keyed file adds to what it stores; all zero in a plain one.
#[derive(Clone, Copy)]
struct Keys {
    piece: u8,
    from: u8,
    to: u8,
    comment: u32,
    stream: [u8; 32],
}

impl Keys {
    fn of(header: &[u8]) -> Keys {
        let h = |at: usize| u32::from(header[at]);
        if header[2] <= PLAIN {
            return Keys { piece: 0, from: 0, to: 0, comment: 0, stream: [0; 32] };
        }
        // Only the low byte of each product survives, as in the program
        // that defined them, so wrapping arithmetic loses nothing.
        let f = |k: u32| k.wrapping_mul(k).wrapping_mul(54).wrapping_add(221);
        let piece = f(h(0x0d)).wrapping_mul(h(0x0d)) as u8;
        let from = f(h(0x0e)).wrapping_mul(u32::from(piece)) as u8;
        let to = f(h(0x0f)).wrapping_mul(u32::from(from)) as u8;
        let comment = (h(0x0c) * 256 + h(0x0d)) % 32000 + 767;
        let mask = header[0x03];
        let key: [u8; 4] = std::array::from_fn(|j| (header[0x0c + j] & mask) | header[0x08 + j]);
        let stream = std::array::from_fn(|i| STREAM_TEXT[i] & key[i % 4]);
        Keys { piece, from, to, comment, stream }
    }
}

fn layout(offset: usize, what: impl Into<String>) -> RecordError {
    RecordError::Layout { offset, what: what.into() }
}

fn over(limits: &Limits, limit: Limit, ply: Option<usize>) -> RecordError {
    PgnError::OverLimit { limit, allowed: limits.of(limit), ply }.into()
}

/// The header: how to read the tree, and the record (tags and start).
fn read_header(bytes: &[u8], limits: &Limits) -> Result<(Header, Record), RecordError> {
    if limits.check(Limit::FileBytes, bytes.len()).is_err() {
        return Err(over(limits, Limit::FileBytes, None));
    }
    if !bytes.starts_with(b"XQ") {
        return Err(layout(0, "no XQF signature: the file does not begin with \"XQ\""));
    }
    let Some(h) = bytes.get(..HEADER) else {
        return Err(layout(
            bytes.len(),
            format!("the file ends after {} bytes, inside the {HEADER}-byte header", bytes.len()),
        ));
    };
    let version = h[2];
    if version > NEWEST {
        return Err(layout(
            2,
            format!("version {version:#04x} is later than any XQF known (the last is {NEWEST:#04x})"),
        ));
    }
    if version > PLAIN && key_sum(h) != 0 {
        return Err(layout(
            0x0c,
            format!("the four key bytes sum to {} (mod 256), not 0: the header is damaged", key_sum(h)),
        ));
    }
    let keys = Keys::of(h);
    let mut setup = pieces(h, version, keys.piece)?;
    setup.turn = if h[TO_MOVE] == 1 { Color::Black } else { Color::Red };
    // The first move's piece overrules the header's side to move.
    let mut stream = Stream { bytes, at: HEADER, key: keys.stream };
    let header = Header { version, keys };
    if let Ok(root) = step(&mut stream, &header)
        && root.next
        && let Ok(first) = step(&mut stream, &header)
        && let Some(from) = cell(first.from)
        && let Some(piece) = setup.board[from.index()]
    {
        setup.turn = piece.color;
    }
    let before = u16::from_le_bytes([h[START_PLY], h[START_PLY + 1]]);
    setup.fullmoves = u32::from(before / 2) + 1;
    let start = Position::from_setup(&setup).map_err(|e| PgnError::Fen(FenError::Position(e)))?;
    let mut tags = Vec::new();
    for (at, size, name) in TEXT {
        let value = text(&h[at + 1..at + 1 + usize::from(h[at]).min(size)]);
        let value = value.trim();
        if !value.is_empty() {
            tags.push((name.to_string(), value.to_string()));
        }
        if name == "Black"
            && let Some(result) = usize::from(h[RESULT]).checked_sub(1).and_then(|i| RESULTS.get(i))
        {
            tags.push(("Result".to_string(), result.to_string()));
        }
    }
    Ok((header, Record { tags, start, moves: Vec::new() }))
}

/// The piece table as a board.
fn pieces(h: &[u8], version: u8, key: u8) -> Result<Setup<Standard>, RecordError> {
    let mut squares = [0u8; 32];
    // Where each slot's byte is stored, to name it in an error.
    let mut stored_at = [0usize; 32];
    for (i, &b) in h[PIECES..PIECES + 32].iter().enumerate() {
        let slot = if version >= ROTATED { (i + 1 + usize::from(key)) % 32 } else { i };
        squares[slot] = b.wrapping_sub(key);
        stored_at[slot] = PIECES + i;
    }
    let mut setup = Setup::empty();
    // The slot that stands on each cell, for a second piece there.
    let mut holder: [Option<usize>; 90] = [None; 90];
    for (slot, &square) in squares.iter().enumerate() {
        let Some(cell) = cell(square) else { continue };
        let color = if slot < 16 { Color::Red } else { Color::Black };
        let piece = Piece::new(color, SLOTS[slot % 16]);
        if let Some(other) = holder[usize::from(square)] {
            return Err(layout(
                stored_at[slot],
                format!(
                    "the piece table puts a {color} {} on {}, where its {} {} already stands",
                    piece.role.name(),
                    square_name(square),
                    if other < 16 { "red" } else { "black" },
                    SLOTS[other % 16].name(),
                ),
            ));
        }
        holder[usize::from(square)] = Some(slot);
        setup.board[cell.index()] = Some(piece);
    }
    Ok(setup)
}

/// The cell of a square number, `file * 10 + rank`; none above 89.
fn cell(square: u8) -> Option<Cell> {
    if square > 89 {
        return None;
    }
    Position::<Standard>::tables().cell(usize::from(square / 10), usize::from(square % 10))
}

/// A square number's ICCS name (`e0`).
fn square_name(square: u8) -> String {
    format!("{}{}", char::from(b'a' + square / 10), square % 10)
}

/// The bytes after the header, unkeyed as they are read.
struct Stream<'a> {
    bytes: &'a [u8],
    at: usize,
    key: [u8; 32],
}

impl Stream<'_> {
    /// The next `n` bytes, or where the file ends before them; `what` names
    /// what they were to be.
    fn take(&mut self, n: usize, what: &str) -> Result<Vec<u8>, RecordError> {
        let left = self.bytes.len() - self.at;
        if n > left {
            return Err(layout(
                self.at,
                format!("the file ends inside {what}: it needs {n} bytes and {left} are left"),
            ));
        }
        let start = self.at;
        self.at += n;
        Ok(self.bytes[start..self.at]
            .iter()
            .zip(start..)
            .map(|(&b, p)| b.wrapping_sub(self.key[p % 32]))
            .collect())
    }

    fn four(&mut self, what: &str) -> Result<[u8; 4], RecordError> {
        let b = self.take(4, what)?;
        Ok([b[0], b[1], b[2], b[3]])
    }
}

/// One record of the tree.
struct Step {
    /// Where the record begins in the file.
    at: usize,
    /// The move's squares, unkeyed (meaningless on the start's record).
    from: u8,
    to: u8,
    next: bool,
    variation: bool,
    comment: String,
}

fn step(s: &mut Stream, header: &Header) -> Result<Step, RecordError> {
    let at = s.at;
    let [from, to, flags, _spare] = s.four("a move record")?;
    let (next, variation, commented) = if header.version <= PLAIN {
        (flags & 0xf0 != 0, flags & 0x0f != 0, true)
    } else {
        (flags & 0x80 != 0, flags & 0x40 != 0, flags & 0x20 != 0)
    };
    let mut comment = String::new();
    if commented {
        let stored = u32::from_le_bytes(s.four("a comment's length")?);
        // A stored length of zero is no comment even in a keyed file.
        if stored > 0 {
            let Some(len) = stored.checked_sub(header.keys.comment) else {
                return Err(layout(
                    at + 4,
                    format!(
                        "the comment length {stored} is below the file's comment offset {}",
                        header.keys.comment
                    ),
                ));
            };
            let len = usize::try_from(len).unwrap_or(usize::MAX);
            comment = comment_text(&s.take(len, &format!("a comment of {len} bytes"))?);
        }
    }
    let from = from.wrapping_sub(0x18).wrapping_sub(header.keys.from);
    let to = to.wrapping_sub(0x20).wrapping_sub(header.keys.to);
    Ok(Step { at, from, to, next, variation, comment })
}

/// Where the next record of the tree goes.
enum Place {
    /// After a node of the tree (boxed, as a file can leave many places
    /// waiting under dropped moves, and those should cost little).
    Live(Box<Line>),
    /// Under a dropped move: read, so as to find what follows, and left out.
    Dropped,
}

/// A node of the tree with what reading on from it needs.
#[derive(Clone)]
struct Line {
    node: usize,
    position: Position<Standard>,
    ply: usize,
    /// Variations opened inside variations on the way to the node.
    depth: usize,
    main: bool,
}

/// Reads the tree into `tree`, which keeps what was read when an error stops it.
fn read_tree(
    bytes: &[u8],
    header: &Header,
    start: &Position<Standard>,
    limits: &Limits,
    tree: &mut MoveTree,
    dropped: &mut Vec<PgnError>,
) -> Result<(), RecordError> {
    let mut s = Stream { bytes, at: HEADER, key: header.keys.stream };
    let root = step(&mut s, header)?;
    tree.set_comment(MoveTree::ROOT, root.comment);
    // The start has no alternatives: a variation flag on its record has
    // nothing to stand for, and what would follow is not read.
    if !root.next {
        return Ok(());
    }
    let start = Line { node: MoveTree::ROOT, position: start.clone(), ply: 0, depth: 0, main: true };
    let mut place = Place::Live(Box::new(start));
    // The places of the alternatives still to come, the latest on top.
    let mut waiting: Vec<Place> = Vec::new();
    loop {
        let step = step(&mut s, header)?;
        let after = match place {
            Place::Dropped => {
                if step.variation {
                    waiting.push(Place::Dropped);
                }
                step.next.then_some(Place::Dropped)
            }
            Place::Live(line) => {
                if step.variation {
                    waiting.push(Place::Live(line.clone()));
                }
                grow(tree, *line, step, limits, dropped)?
            }
        };
        place = match after.or_else(|| waiting.pop()) {
            Some(place) => place,
            None => return Ok(()),
        };
    }
}

/// Adds a record's move after a line's node; where the next record goes when
/// the record says one follows.
fn grow(
    tree: &mut MoveTree,
    line: Line,
    step: Step,
    limits: &Limits,
    dropped: &mut Vec<PgnError>,
) -> Result<Option<Place>, RecordError> {
    let Line { node, mut position, ply, depth, main } = line;
    let ply = ply + 1;
    let (Some(from), Some(to)) = (cell(step.from), cell(step.to)) else {
        let (which, square) = if step.from > 89 { ("from", step.from) } else { ("to", step.to) };
        return Err(layout(
            step.at,
            format!("the move at ply {ply} has a {which} square of {square}, off the board (0 to 89)"),
        ));
    };
    let mv = Move::new(from, to);
    let first = tree.children(node).is_empty();
    if let Some(reason) = position.why_illegal(mv) {
        let notation = position.move_name(mv);
        let refused = PgnError::Move {
            ply,
            number: position.fullmoves(),
            red: position.turn() == Color::Red,
            text: notation.clone(),
            source: Box::new(GameError::Illegal(IllegalMove { notation, reason })),
        };
        if main && first {
            return Err(refused.into());
        }
        dropped.push(refused);
        return Ok(step.next.then_some(Place::Dropped));
    }
    let depth = depth + usize::from(!first);
    if limits.check(Limit::PliesPerLine, ply).is_err() {
        return Err(over(limits, Limit::PliesPerLine, Some(ply)));
    }
    if limits.check(Limit::NodesPerTree, tree.len() + 1).is_err() {
        return Err(over(limits, Limit::NodesPerTree, Some(ply)));
    }
    if limits.check(Limit::VariationDepth, depth).is_err() {
        return Err(over(limits, Limit::VariationDepth, Some(ply)));
    }
    position.play_unchecked(mv);
    let id = tree.add(node, mv);
    tree.set_comment(id, step.comment);
    let line = Line { node: id, position, ply, depth, main: main && first };
    Ok(step.next.then(|| Place::Live(Box::new(line))))
}

/// Header text: GB18030 up to a NUL, if any.
fn text(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    GB18030.decode_without_bom_handling(&bytes[..end]).0.into_owned()
}

/// A comment: its writer's line breaks (`\r\n` from the Windows programs) as
/// `\n`, without the break or NUL its writer may have put last.
fn comment_text(bytes: &[u8]) -> String {
    let text = text(bytes).replace("\r\n", "\n").replace('\r', "\n");
    text.trim_end_matches('\n').to_string()
}

/// Writes a game as a plain XQF file of version `0x0a`, which every reader
/// takes: the start position, the tags the header has fields for, and the
/// whole tree with its comments, in GB18030.
///
/// Tags are matched by name (see [`read`] for the list); Result is written
/// when it is `1-0`, `0-1` or `1/2-1/2`. A value that is empty or `?` is left
/// out, as the format has no other way to say "unknown"; a longer one than its
/// field holds is cut at the last whole character that fits, never inside
/// one. Other tags, the start's count of plies since a capture, and
/// characters GB18030 has no code for (written `?`) do not survive. Line
/// breaks in comments are written `\r\n`, as the format's programs write them.
///
/// So `read(&write(game))` gives `game` back for a game whose tags are among
/// those, in [`read`]'s order, trimmed, with a start whose count of plies
/// since a capture is zero, and whose comments use `\n` and do not end with
/// one.
pub fn write(game: &Game) -> Vec<u8> {
    let tree = &game.tree;
    let start = &game.record.start;
    let mut out = vec![0u8; HEADER];
    out[..3].copy_from_slice(&[b'X', b'Q', PLAIN]);
    out[PIECES..PIECES + 32].copy_from_slice(&piece_table(start));
    let black = start.turn() == Color::Black;
    let before = u64::from(start.fullmoves().max(1) - 1) * 2 + u64::from(black);
    let before = u16::try_from(before).unwrap_or(u16::MAX);
    out[START_PLY..START_PLY + 2].copy_from_slice(&before.to_le_bytes());
    out[TO_MOVE] = u8::from(black);
    let result = game.record.tag("Result").and_then(|r| RESULTS.iter().position(|&known| known == r));
    out[RESULT] = result.map_or(0, |i| i as u8 + 1);
    let moves = u32::try_from(tree.len() - 1).unwrap_or(u32::MAX);
    out[MOVES..MOVES + 4].copy_from_slice(&moves.to_le_bytes());
    out[TREE_AT..TREE_AT + 4].copy_from_slice(&(HEADER as u32).to_le_bytes());
    // Readers that trust the kind set up the usual start for a whole game or
    // an opening, whatever the piece table says.
    out[KIND] = if *start == Position::startpos() { 0 } else { 2 };
    for (at, size, name) in TEXT {
        let value = game.record.tag(name).map(str::trim).unwrap_or("");
        if value.is_empty() || value == "?" {
            continue;
        }
        let bytes = gb18030(value, size);
        out[at] = bytes.len() as u8;
        out[at + 1..at + 1 + bytes.len()].copy_from_slice(&bytes);
    }
    for id in tree.preorder() {
        let next = !tree.children(id).is_empty();
        let variation = tree
            .parent(id)
            .is_some_and(|parent| tree.children(parent).last().is_some_and(|&last| last != id));
        let (from, to) = match tree.mv(id) {
            Some(mv) => (square(mv.from), square(mv.to)),
            None => (0, 0),
        };
        let flags = (if next { 0xf0 } else { 0 }) | (if variation { 0x0f } else { 0 });
        out.extend_from_slice(&[from + 0x18, to + 0x20, flags, 0]);
        let comment = match tree.comment(id) {
            "" => Vec::new(),
            text => {
                gb18030(&text.replace("\r\n", "\n").replace('\r', "\n").replace('\n', "\r\n"), usize::MAX)
            }
        };
        let len = u32::try_from(comment.len()).unwrap_or(u32::MAX);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&comment[..len as usize]);
    }
    out
}

/// A cell's square number, `file * 10 + rank`.
fn square(c: Cell) -> u8 {
    let t = Position::<Standard>::tables();
    (t.file(c) * 10 + t.number(c)) as u8
}

/// The piece table of a position: each piece in a slot of its role, the
/// slots of a role filled in the order of their squares (which gives the
/// usual start its usual table), `0xff` for a slot with no piece.
fn piece_table(position: &Position<Standard>) -> [u8; 32] {
    let mut table = [0xffu8; 32];
    let pieces = (0..90u8).filter_map(|sq| Some((sq, position.piece_at(cell(sq)?)?)));
    for (sq, piece) in pieces {
        let base = if piece.color == Color::Red { 0 } else { 16 };
        let free = (0..16).find(|&s| SLOTS[s] == piece.role && table[base + s] == 0xff);
        // A legal position has no more pieces of a role than it has slots.
        if let Some(s) = free {
            table[base + s] = sq;
        }
    }
    table
}

/// Text as GB18030, at most `limit` bytes of it, cut after a whole character.
fn gb18030(text: &str, limit: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4];
    for c in text.chars() {
        let (bytes, _, unmapped) = GB18030.encode(c.encode_utf8(&mut buf));
        let bytes: &[u8] = if unmapped { b"?" } else { &bytes };
        if out.len() + bytes.len() > limit {
            break;
        }
        out.extend_from_slice(bytes);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_derived_offsets_follow_the_formula_for_a_header_of_known_keys() {
        let mut h = [0u8; HEADER];
        h[2] = 0x12;
        // f(3) = 54 * 9 + 221 = 707; 707 * 3 = 2121 = 8 * 256 + 73.
        h[0x0d] = 3;
        // f(1) = 275; 275 * 73 = 20075 = 78 * 256 + 107.
        h[0x0e] = 1;
        // f(2) = 437; 437 * 107 = 46759 = 182 * 256 + 167.
        h[0x0f] = 2;
        h[0x0c] = 250;
        let keys = Keys::of(&h);
        assert_eq!((keys.piece, keys.from, keys.to), (73, 107, 167));
        // (250 * 256 + 3) % 32000 + 767 = 64003 % 32000 + 767 = 3 + 767.
        assert_eq!(keys.comment, 770);
    }

    #[test]
    fn the_usual_start_has_the_usual_piece_table() {
        let table = piece_table(&Position::startpos());
        let red = [0, 10, 20, 30, 40, 50, 60, 70, 80, 12, 72, 3, 23, 43, 63, 83];
        let black = [9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86];
        assert_eq!(table[..16], red);
        assert_eq!(table[16..], black);
    }

    #[test]
    fn text_is_cut_after_the_last_whole_character_that_fits() {
        // 中 is two bytes, 𠀀 four, a one.
        assert_eq!(gb18030("中中中", 5), [0xd6, 0xd0, 0xd6, 0xd0]);
        assert_eq!(gb18030("a𠀀", 4), b"a");
        assert_eq!(gb18030("a𠀀", 5), [b'a', 0x95, 0x32, 0x82, 0x36]);
    }

    #[test]
    fn a_comment_loses_its_last_line_break_and_reads_breaks_as_newlines() {
        assert_eq!(comment_text(b"one\r\ntwo\r\n"), "one\ntwo");
        assert_eq!(comment_text(b"abc\0junk"), "abc");
    }
}
