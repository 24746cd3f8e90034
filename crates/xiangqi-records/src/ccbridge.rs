//! CCBridge (象棋桥) records: CBF, an XML record; CBR, a binary record; and
//! CBL, a binary library of CBR-like records, read a record at a time.
//!
//! A CBR record is a fixed header of 2214 bytes and then its moves:
//!
//! | byte | size | what |
//! |---|---|---|
//! | 0 | 16 | `CCBridge Record` and a NUL |
//! | 180 | 128 | title |
//! | 692, 756, 820, 852 | 64, 64, 32, 32 | event, round, group, table |
//! | 884, 948, 1012 | 64 each | date, site, time control |
//! | 1076, 1140 | 64 each | Red's player and team (Black's at 1300, 1364) |
//! | 2076 | 1 | result: 1 Red wins, 2 Black wins, 3 a draw, 0 unknown |
//! | 2112 | 1 | side to move first: 1 Red, 2 Black |
//! | 2116 | 2 | the number of the first move |
//! | 2120 | 90 | the board, row by row from Black's side, one byte a point: colour in the high nibble (1 Red, 2 Black), piece in the low (1 chariot, 2 horse, 3 elephant, 4 advisor, 5 general, 6 cannon, 7 soldier) |
//! | 2214 | ... | the moves |
//!
//! Text is UTF-16LE, ending at a NUL within its field. The moves are four
//! bytes each (flags, unused, from point, to point, points numbered as the
//! board's bytes), followed, when flag 4 is set, by a comment: its length
//! in bytes (four bytes, little-endian) and its UTF-16LE text. The first
//! four bytes are not a move but the start, carrying the comment before the
//! first move. Flag 1 ends the line a move is in; flag 2 says an alternative
//! to the move comes later, after the line it starts is done: the moves are
//! the tree in preorder, each variation after the line it branches from.
//!
//! A CBL library is a header (its name at byte 64, the number of index slots
//! at byte 60), an index of 276 bytes per slot from byte 66624, and then the
//! records, each starting on a block of 4096 bytes and taking as many blocks
//! as it needs.
//!
//! A CBF record is XML: `<ChineseChessRecord>` with a `<Head>` of facts
//! (`<Name>`, `<Contest>`, `<Red>`, `<FEN>`, `<RecordResult>`...) and a
//! `<MoveList>` of `<Move value="xy-xy"/>`, files `x` counted from Red's left
//! and rows `y` from Black's side, the first move `00-00` standing for the
//! start as in CBR. A move's `end="1"` ends its line as CBR's flag 1 does;
//! this reader takes `variation="1"` for CBR's flag 2, and a `comment`
//! attribute (or the move's text) for its comment.
//!
//! ```
//! use xiangqi_records::{Limits, ccbridge};
//!
//! let cbf = "\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?>
//! <ChineseChessRecord Version=\"1.0\">
//!  <Head><Red>胡荣华</Red><RecordResult>1</RecordResult></Head>
//!  <MoveList>
//!   <Move value=\"00-00\" />
//!   <Move value=\"77-47\" />
//!   <Move value=\"70-62\" end=\"1\" />
//!  </MoveList>
//! </ChineseChessRecord>";
//! assert_eq!(ccbridge::kind(cbf.as_bytes()), Some(ccbridge::Kind::Cbf));
//! let game = ccbridge::read_cbf(cbf.as_bytes(), &Limits::SITE).unwrap();
//! assert_eq!(game.record.tag("Red"), Some("胡荣华"));
//! assert_eq!(game.record.tag("Result"), Some("1-0"));
//! assert_eq!(game.record.moves.len(), 2);
//! ```

use std::io::{self, Read};

use quick_xml::{Reader, events::Event};
use xiangqi::{Cell, Color, FenError, Move, Piece, Position, Role, Setup, Standard};

use crate::{
    Game, Limit, Limits, MoveTree, PgnError, RecordError,
    dhtmlxq::{Built, Tags, layout, over},
};

/// The three CCBridge formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An XML record.
    Cbf,
    /// A binary record.
    Cbr,
    /// A binary library of records.
    Cbl,
}

const RECORD_MAGIC: &[u8; 16] = b"CCBridge Record\0";
const LIBRARY_MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";
/// Where a record's moves start.
const MOVES: usize = 2214;
const BOARD: usize = 2120;
const FIRST_SIDE: usize = 2112;
const FIRST_NUMBER: usize = 2116;
const RESULT: usize = 2076;
/// A library's header, as [`library_header`] reads it.
pub const LIBRARY_HEADER_BYTES: usize = 576;
/// Where a library's index starts, and the bytes of one slot of it.
const INDEX: u64 = 66_624;
const INDEX_SLOT: u64 = 276;
/// The block records of a library start on.
const BLOCK: usize = 4096;

/// A record's text fields: where each starts, its bytes, and its tag, in
/// the order the tags are given.
const TEXT: [(usize, usize, &str); 24] = [
    (692, 64, "Event"),
    (948, 64, "Site"),
    (884, 64, "Date"),
    (756, 64, "Round"),
    (1076, 64, "Red"),
    (1140, 64, "RedTeam"),
    (1300, 64, "Black"),
    (1364, 64, "BlackTeam"),
    (180, 128, "Title"),
    (820, 32, "Group"),
    (852, 32, "Table"),
    (1012, 64, "TimeControl"),
    (1204, 64, "RedTime"),
    (1268, 32, "RedScore"),
    (1428, 64, "BlackTime"),
    (1492, 32, "BlackScore"),
    (1524, 64, "Referee"),
    (1588, 64, "Recorder"),
    (1652, 64, "Annotator"),
    (1780, 64, "Creator"),
    (564, 64, "Source"),
    (628, 64, "EventCategory"),
    (308, 256, "Category"),
    (2080, 32, "Termination"),
];

/// The format of a file by its content: the binary formats by their
/// signatures, CBF by its XML root element near the start.
pub fn kind(bytes: &[u8]) -> Option<Kind> {
    if bytes.starts_with(LIBRARY_MAGIC) {
        return Some(Kind::Cbl);
    }
    if bytes.starts_with(RECORD_MAGIC) {
        return Some(Kind::Cbr);
    }
    let head = &bytes[..bytes.len().min(BLOCK)];
    let tag = b"<ChineseChessRecord";
    head.windows(tag.len()).any(|w| w == tag).then_some(Kind::Cbf)
}

/// Reads a CBR file: the tags of its header, its start position (set-ups
/// included, with the side to move and the first move's number), and its
/// whole tree of moves with their comments.
///
/// # Errors
/// [`RecordError::Layout`] where the bytes do not hold a record (no
/// signature, a file cut short, a board byte that is no piece, a move's
/// point off the board, a comment running past the end); [`PgnError::Fen`]
/// for a board that is no legal position; [`RecordError::Cut`] with the
/// [`PgnError::Move`] naming the ply of a move the position refuses, keeping
/// the game without it and what follows it in its line;
/// [`PgnError::OverLimit`] as soon as the file, a line, the tree or the
/// nesting of variations passes its limit.
pub fn read_cbr(bytes: &[u8], limits: &Limits) -> Result<Game, RecordError> {
    if limits.check(Limit::FileBytes, bytes.len()).is_err() {
        return Err(over(limits, Limit::FileBytes, None));
    }
    record(bytes, 0, limits)
}

/// Reads one record whose first byte is byte `base` of its file.
fn record(bytes: &[u8], base: usize, limits: &Limits) -> Result<Game, RecordError> {
    if !bytes.starts_with(RECORD_MAGIC) {
        return Err(layout(base, "no CCBridge Record signature"));
    }
    if bytes.len() < MOVES + 4 {
        return Err(layout(
            base + bytes.len(),
            format!("the record ends after {} bytes, before its header of {} does", bytes.len(), MOVES + 4),
        ));
    }
    let mut tags: Vec<(String, String)> = Vec::new();
    for (at, len, tag) in TEXT {
        let text = utf16(&bytes[at..at + len]);
        if !text.trim().is_empty() {
            tags.push((tag.to_string(), text.trim().to_string()));
        }
        // The result goes with the players, where PGN puts it.
        if tag == "BlackTeam"
            && let Some(result) = result_tag(bytes[RESULT])
        {
            tags.push(("Result".to_string(), result.to_string()));
        }
    }

    let mut setup = Setup::<Standard>::empty();
    for (i, &code) in bytes[BOARD..BOARD + 90].iter().enumerate() {
        if code == 0 {
            continue;
        }
        let (Some(piece), Some(cell)) = (piece(code), point(i)) else {
            return Err(layout(
                base + BOARD + i,
                format!("board point {i} holds {code:#04x}, which is no piece"),
            ));
        };
        setup.board[cell.index()] = Some(piece);
    }
    setup.fullmoves = u32::from(u16::from_le_bytes([bytes[FIRST_NUMBER], bytes[FIRST_NUMBER + 1]])).max(1);
    let mut stream = Stream { bytes, at: MOVES, base };
    let opening = stream.step()?;
    let first = stream.peek()?;
    setup.turn = match bytes[FIRST_SIDE] {
        1 => Color::Red,
        2 => Color::Black,
        // Where the byte says nothing, the first move's piece does.
        _ => first
            .and_then(|(_, from, _)| point(from))
            .and_then(|cell| setup.board[cell.index()])
            .map_or(Color::Red, |p| p.color),
    };
    let start =
        Position::from_setup(&setup).map_err(|e| RecordError::from(PgnError::Fen(FenError::Position(e))))?;
    let mut built = Built::new(&start);
    if opening.flags & 4 != 0 {
        built.tree.set_comment(MoveTree::ROOT, opening.comment);
    }
    if first.is_some() {
        read_tree(&mut built, limits, || stream.step().map(Some))?;
    }
    built.finish(tags, start)
}

/// The piece a board byte holds: colour in the high nibble, kind in the low.
fn piece(code: u8) -> Option<Piece> {
    let color = match code >> 4 {
        1 => Color::Red,
        2 => Color::Black,
        _ => return None,
    };
    let role = match code & 0x0f {
        1 => Role::Chariot,
        2 => Role::Horse,
        3 => Role::Elephant,
        4 => Role::Advisor,
        5 => Role::General,
        6 => Role::Cannon,
        7 => Role::Soldier,
        _ => return None,
    };
    Some(Piece::new(color, role))
}

/// The point of a board index (0-89, rows from Black's side).
fn point(index: usize) -> Option<Cell> {
    if index >= 90 {
        return None;
    }
    Position::<Standard>::tables().cell(index % 9, 9 - index / 9)
}

/// The result a record's result byte states, if it states one (4, several
/// results, states none).
fn result_tag(code: u8) -> Option<&'static str> {
    match code {
        1 => Some("1-0"),
        2 => Some("0-1"),
        3 => Some("1/2-1/2"),
        _ => None,
    }
}

/// UTF-16LE text up to its first NUL, with Windows line breaks made `\n`.
fn utf16(bytes: &[u8]) -> String {
    let units: Vec<u16> =
        bytes.chunks_exact(2).map(|p| u16::from_le_bytes([p[0], p[1]])).take_while(|&u| u != 0).collect();
    String::from_utf16_lossy(&units).replace("\r\n", "\n")
}

/// One step of a tree of moves in CCBridge's order: its flags, its two board
/// points, its comment, and the byte where it starts.
struct Step {
    flags: u8,
    from: usize,
    to: usize,
    comment: String,
    at: usize,
}

/// A record's move stream being read.
struct Stream<'a> {
    bytes: &'a [u8],
    at: usize,
    base: usize,
}

impl Stream<'_> {
    /// The flags and points of the next step, if the stream has one: zeros,
    /// or nothing, where a step would start end it.
    fn peek(&self) -> Result<Option<(u8, usize, usize)>, RecordError> {
        let rest = &self.bytes[self.at.min(self.bytes.len())..];
        match rest.get(..4) {
            _ if rest.iter().take(4).all(|&b| b == 0) => Ok(None),
            Some(step) => Ok(Some((step[0], usize::from(step[2]), usize::from(step[3])))),
            None => Err(layout(self.base + self.bytes.len(), "the record ends in the middle of a move")),
        }
    }

    /// The next step, which must be there.
    fn step(&mut self) -> Result<Step, RecordError> {
        let at = self.base + self.at;
        let Some(step) = self.bytes.get(self.at..self.at + 4) else {
            return Err(layout(self.base + self.bytes.len(), "the record ends in the middle of its moves"));
        };
        if step == [0; 4] && self.at > MOVES {
            return Err(layout(at, "the moves stop in the middle of a line"));
        }
        let (flags, from, to) = (step[0], usize::from(step[2]), usize::from(step[3]));
        self.at += 4;
        let mut comment = String::new();
        if flags & 4 != 0 {
            let Some(&[a, b, c, d]) = self.bytes.get(self.at..self.at + 4) else {
                return Err(layout(
                    self.base + self.bytes.len(),
                    "the record ends before a comment's length",
                ));
            };
            let len = u32::from_le_bytes([a, b, c, d]);
            let from = self.at + 4;
            let text = usize::try_from(len).ok().and_then(|len| self.bytes.get(from..from.checked_add(len)?));
            let Some(text) = text else {
                return Err(layout(
                    self.base + self.at,
                    format!("a comment of {len} bytes runs past the end of the record"),
                ));
            };
            comment = utf16(text);
            self.at = from + text.len();
        }
        Ok(Step { flags, from, to, comment, at })
    }
}

/// Reads a tree of moves given in CCBridge's order into `built`, a step at a
/// time from `next`, which gives none once it has no more.
///
/// The steps are the tree in preorder: a move's line goes on with the next
/// step until one with flag 1 ends it; flag 2 promises an alternative to its
/// move, which comes once the line that move starts has ended. The reading
/// stops at a line's end when no alternative is still promised.
fn read_tree(
    built: &mut Built,
    limits: &Limits,
    mut next: impl FnMut() -> Result<Option<Step>, RecordError>,
) -> Result<(), RecordError> {
    /// Where the next move is played: the node (none once dropped), its ply,
    /// how many variations deep it is, and whether the next move there is an
    /// alternative to a move already played there.
    #[derive(Clone, Copy)]
    struct Cursor {
        node: Option<usize>,
        ply: usize,
        depth: usize,
        alternative: bool,
    }
    let mut cursor = Cursor { node: Some(MoveTree::ROOT), ply: 0, depth: 0, alternative: false };
    let mut promised: Vec<Cursor> = Vec::new();
    while let Some(step) = next()? {
        let (Some(from), Some(to)) = (point(step.from), point(step.to)) else {
            let bad = if point(step.from).is_none() { step.from } else { step.to };
            return Err(layout(step.at, format!("a move names point {bad}, off the board (0-89)")));
        };
        let ply = cursor.ply + 1;
        let depth = cursor.depth + usize::from(cursor.alternative);
        if limits.check(Limit::VariationDepth, depth).is_err() {
            return Err(over(limits, Limit::VariationDepth, Some(ply)));
        }
        let node = built.play(cursor.node, Move::new(from, to), ply, limits)?;
        if let Some(node) = node
            && !step.comment.is_empty()
        {
            built.tree.set_comment(node, step.comment);
        }
        if step.flags & 2 != 0 {
            promised.push(Cursor { alternative: true, ..cursor });
        }
        if step.flags & 1 != 0 {
            match promised.pop() {
                Some(next) => cursor = next,
                None => return Ok(()),
            }
        } else {
            cursor = Cursor { node, ply, depth, alternative: false };
        }
    }
    Ok(())
}

/// The facts a library's header gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryHeader {
    /// The library's name.
    pub name: String,
    /// The slots its index was made for: not a count of its records, which
    /// the header does not give.
    pub slots: u32,
}

impl LibraryHeader {
    /// The byte where the records start, after the index.
    pub fn first_record(&self) -> u64 {
        INDEX + u64::from(self.slots) * INDEX_SLOT
    }
}

/// Reads a library's header from its first [`LIBRARY_HEADER_BYTES`] bytes.
///
/// # Errors
/// [`RecordError::Layout`] for bytes that are no CBL header.
pub fn library_header(bytes: &[u8]) -> Result<LibraryHeader, RecordError> {
    if !bytes.starts_with(LIBRARY_MAGIC) {
        return Err(layout(0, "no CCBridgeLibrary signature"));
    }
    let Some(header) = bytes.get(..LIBRARY_HEADER_BYTES) else {
        return Err(layout(
            bytes.len(),
            format!(
                "the library ends after {} bytes, before its header of {LIBRARY_HEADER_BYTES} does",
                bytes.len()
            ),
        ));
    };
    let slots = u32::from_le_bytes([header[60], header[61], header[62], header[63]]);
    Ok(LibraryHeader { name: utf16(&header[64..576]).trim().to_string(), slots })
}

/// The games of a CBL library, read from `reader` one record at a time: a
/// library of any size costs the memory of its largest record.
///
/// Each record gives its own result, as [`read_cbr`] does for a file, and a
/// bad one does not stop the others. A record is held to the bytes of a file
/// of [`Limits`] (one longer is refused by itself, and the next read); the
/// library as a whole, never held at once, to the games and moves of a file:
/// past either, the last result says so and the reading stops. A header that
/// is no library's, or a read that fails, ends the games with that error.
///
/// ```
/// use xiangqi_records::{Limits, ccbridge};
///
/// let mut library = vec![0u8; 66_624];
/// library[..16].copy_from_slice(b"CCBridgeLibrary\0");
/// let games: Vec<_> = ccbridge::cbl_games(&library[..], Limits::SITE).collect();
/// assert!(games.is_empty());
/// ```
pub fn cbl_games<R: Read>(reader: R, limits: Limits) -> CblGames<R> {
    CblGames { reader, limits, header: None, offset: 0, held: None, games: 0, nodes: 0, done: false }
}

/// The games of a library being read: see [`cbl_games`].
pub struct CblGames<R> {
    reader: R,
    limits: Limits,
    header: Option<LibraryHeader>,
    /// Bytes read so far.
    offset: u64,
    /// A block read ahead that starts the next record.
    held: Option<Vec<u8>>,
    games: usize,
    nodes: usize,
    done: bool,
}

impl<R: Read> CblGames<R> {
    /// The library's header, once the first game has been asked for.
    pub fn header(&self) -> Option<&LibraryHeader> {
        self.header.as_ref()
    }

    /// Reads up to `buf.len()` bytes, fewer only at the end.
    fn fill(&mut self, buf: &mut [u8]) -> Result<usize, RecordError> {
        let mut filled = 0;
        while filled < buf.len() {
            match self.reader.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(layout(
                        offset(self.offset) + filled,
                        format!("the library could not be read: {e}"),
                    ));
                }
            }
        }
        self.offset += filled as u64;
        Ok(filled)
    }

    /// Reads the header and skips the index.
    fn start(&mut self) -> Result<(), RecordError> {
        let mut header = vec![0u8; LIBRARY_HEADER_BYTES];
        let n = self.fill(&mut header)?;
        let header = library_header(&header[..n])?;
        let skip = header.first_record() - LIBRARY_HEADER_BYTES as u64;
        let skipped = io::copy(&mut (&mut self.reader).take(skip), &mut io::sink())
            .map_err(|e| layout(offset(self.offset), format!("the library could not be read: {e}")))?;
        self.offset += skipped;
        if skipped < skip {
            return Err(layout(
                offset(self.offset),
                format!(
                    "the library ends at byte {}, inside the index its header makes for {} slots (up to byte {})",
                    self.offset,
                    header.slots,
                    header.first_record()
                ),
            ));
        }
        self.header = Some(header);
        Ok(())
    }

    /// The next record's bytes and where it starts, or none at the end.
    fn next_record(&mut self) -> Result<Option<(Vec<u8>, u64)>, RecordError> {
        // Find a block that starts a record.
        let mut bytes = match self.held.take() {
            Some(block) => block,
            None => loop {
                let mut block = vec![0u8; BLOCK];
                let n = self.fill(&mut block)?;
                if n == 0 {
                    return Ok(None);
                }
                block.truncate(n);
                if block.starts_with(RECORD_MAGIC) {
                    break block;
                }
            },
        };
        let start = self.offset - bytes.len() as u64;
        // Take the blocks that go on with it, up to the next record.
        let most = self.limits.file_bytes;
        let mut too_long = bytes.len() > most;
        loop {
            let mut block = vec![0u8; BLOCK];
            let n = self.fill(&mut block)?;
            if n == 0 {
                break;
            }
            block.truncate(n);
            if block.starts_with(RECORD_MAGIC) {
                self.held = Some(block);
                break;
            }
            if bytes.len() + n > most {
                too_long = true;
            } else {
                bytes.extend_from_slice(&block);
            }
        }
        if too_long {
            return Err(over(&self.limits, Limit::FileBytes, None));
        }
        Ok(Some((bytes, start)))
    }
}

impl<R: Read> Iterator for CblGames<R> {
    type Item = Result<Game, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if self.header.is_none()
            && let Err(e) = self.start()
        {
            self.done = true;
            return Some(Err(e));
        }
        let (bytes, start) = match self.next_record() {
            Ok(Some(record)) => record,
            Ok(None) => {
                self.done = true;
                return None;
            }
            Err(e) => {
                // A record too long leaves the rest readable; a read that
                // failed does not.
                self.done = !matches!(e, RecordError::Record(PgnError::OverLimit { .. }));
                return Some(Err(e));
            }
        };
        self.games += 1;
        if self.limits.check(Limit::GamesPerFile, self.games).is_err() {
            self.done = true;
            return Some(Err(over(&self.limits, Limit::GamesPerFile, None)));
        }
        let game = record(&bytes, offset(start), &self.limits);
        let kept = match &game {
            Ok(game) => Some(game),
            Err(e) => e.kept(),
        };
        self.nodes += kept.map_or(0, |g| g.tree.len() - 1);
        if self.limits.check(Limit::NodesPerFile, self.nodes).is_err() {
            self.done = true;
            return Some(Err(over(&self.limits, Limit::NodesPerFile, None)));
        }
        Some(game)
    }
}

/// A file offset as the errors give it.
fn offset(at: u64) -> usize {
    usize::try_from(at).unwrap_or(usize::MAX)
}

/// Reads a CBF file: the tags of its `<Head>`, its start position (`<FEN>`,
/// the usual start without one), and its tree of moves with their comments.
///
/// The file is UTF-8, with or without a byte-order mark. Head elements give
/// tags under PGN's names (`Name` is the Title, `Contest` the Event,
/// `Commentator` the Annotator, `RecordResult` the Result: 1 Red wins, 2
/// Black wins, 3 a draw); elements about the file itself (`URL`,
/// `RecordType`...) are left out, and others kept under their own names.
///
/// # Errors
/// [`RecordError::Layout`] for bytes that are not UTF-8 or not well-formed
/// XML, a root that is not `ChineseChessRecord`, a move whose value is not
/// `xy-xy` on the board, and moves after the last line has ended;
/// [`PgnError::Fen`] for a bad `<FEN>`; [`RecordError::Cut`] with the
/// [`PgnError::Move`] naming the ply of a move the position refuses, keeping
/// the rest; [`PgnError::OverLimit`] as soon as the file, a line, the tree
/// or the nesting of variations passes its limit.
pub fn read_cbf(bytes: &[u8], limits: &Limits) -> Result<Game, RecordError> {
    if limits.check(Limit::FileBytes, bytes.len()).is_err() {
        return Err(over(limits, Limit::FileBytes, None));
    }
    let bom = if bytes.starts_with(b"\xef\xbb\xbf") { 3 } else { 0 };
    let text = std::str::from_utf8(&bytes[bom..])
        .map_err(|e| layout(bom + e.valid_up_to(), "the file is not UTF-8 text"))?;
    let Cbf { head, moves } = parse_cbf(text, bom)?;

    let mut tags = Tags::default();
    let mut start = Position::startpos();
    for (name, value) in head {
        let value = value.trim();
        match name.as_str() {
            "FEN" if !value.is_empty() => start = Position::from_fen(value).map_err(PgnError::Fen)?,
            "RecordResult" => {
                let result = value.parse::<u8>().ok().and_then(result_tag);
                if let Some(result) = result {
                    tags.push("Result", result);
                }
            }
            "URL" | "CommentatorURL" | "CreatorURL" | "RecordType" | "RecordKind" | "FEN" => {}
            other => {
                let tag =
                    CBF_TAGS.iter().find(|(element, _)| *element == other).map_or(other, |(_, tag)| tag);
                tags.push(tag, value);
            }
        }
    }

    let mut built = Built::new(&start);
    let mut steps = moves.into_iter().peekable();
    if let Some(first) = steps.next_if(|m| m.value == "00-00") {
        built.tree.set_comment(MoveTree::ROOT, first.comment);
    }
    let mut steps = steps.map(|m| {
        let (from, to) = cbf_points(&m.value)
            .ok_or_else(|| layout(m.at, format!("the move value {:?} is not xy-xy on the board", m.value)))?;
        let flags = u8::from(m.end) | (u8::from(m.variation) << 1);
        Ok(Step { flags, from, to, comment: m.comment, at: m.at })
    });
    read_tree(&mut built, limits, || steps.next().transpose())?;
    if let Some(extra) = steps.next() {
        let at = match extra {
            Ok(step) => step.at,
            Err(RecordError::Layout { offset, .. }) => offset,
            Err(_) => 0,
        };
        return Err(layout(
            at,
            "a move follows the end of the last line, and no move before it has variation=\"1\"",
        ));
    }
    built.finish(tags.into_vec(), start)
}

/// CBF's Head elements and the tags they are read as.
const CBF_TAGS: [(&str, &str); 12] = [
    ("Name", "Title"),
    ("Contest", "Event"),
    ("ContestType", "EventCategory"),
    ("TimeRule", "TimeControl"),
    ("Commentator", "Annotator"),
    ("DateCreated", "Created"),
    ("DateModified", "Modified"),
    ("From", "Source"),
    ("ResultType", "Termination"),
    ("RedRating", "RedRating"),
    ("BlackRating", "BlackRating"),
    ("ECCO", "ECCO"),
];

/// The two board indexes (0-89) of a CBF move value `xy-xy`.
fn cbf_points(value: &str) -> Option<(usize, usize)> {
    let b = value.as_bytes();
    if b.len() != 5 || b[2] != b'-' {
        return None;
    }
    let digit = |i: usize| b[i].is_ascii_digit().then(|| usize::from(b[i] - b'0'));
    let (x1, y1, x2, y2) = (digit(0)?, digit(1)?, digit(3)?, digit(4)?);
    (x1 < 9 && x2 < 9).then_some((y1 * 9 + x1, y2 * 9 + x2))
}

/// A CBF file's parts: the Head's elements in order, and the moves.
struct Cbf {
    head: Vec<(String, String)>,
    moves: Vec<CbfMove>,
}

/// One `<Move>` of a CBF file.
struct CbfMove {
    value: String,
    end: bool,
    variation: bool,
    comment: String,
    at: usize,
}

/// Elements deeper than this are no part of a record.
const MAX_DEPTH: usize = 64;

/// Splits a CBF text (whose first byte is byte `base` of its file) into its
/// parts, in one pass of the XML reader.
fn parse_cbf(text: &str, base: usize) -> Result<Cbf, RecordError> {
    let mut reader = Reader::from_str(text);
    let mut path: Vec<String> = Vec::new();
    let mut head: Vec<(String, String)> = Vec::new();
    let mut moves: Vec<CbfMove> = Vec::new();
    // The Head element or Move whose text is being read.
    let mut open_field: Option<usize> = None;
    let mut open_move: Option<usize> = None;
    let xml_error = |reader: &Reader<&[u8]>, e: quick_xml::Error| {
        layout(base + offset(reader.error_position()), format!("the file is not well-formed XML: {e}"))
    };
    loop {
        let at = base + offset(reader.buffer_position());
        let event = reader.read_event().map_err(|e| xml_error(&reader, e))?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                if path.is_empty() && name != "ChineseChessRecord" {
                    return Err(layout(
                        at,
                        format!("the root element is <{name}>, not <ChineseChessRecord>"),
                    ));
                }
                if path.len() >= MAX_DEPTH {
                    return Err(layout(at, "elements nest deeper than a record's do"));
                }
                let parent = path.last().map(String::as_str);
                if path.len() == 2 && parent == Some("Head") {
                    head.push((name.clone(), String::new()));
                    open_field = Some(head.len() - 1);
                } else if path.len() == 2 && parent == Some("MoveList") && name == "Move" {
                    let mut m = CbfMove {
                        value: String::new(),
                        end: false,
                        variation: false,
                        comment: String::new(),
                        at,
                    };
                    for attribute in e.attributes() {
                        let attribute = attribute.map_err(|e| xml_error(&reader, e.into()))?;
                        let value = attribute.unescape_value().map_err(|e| xml_error(&reader, e))?;
                        let yes = matches!(value.trim(), "1" | "true");
                        match attribute.key.as_ref() {
                            b"value" => m.value = value.trim().to_string(),
                            b"end" => m.end = yes,
                            b"variation" => m.variation = yes,
                            b"comment" => m.comment = value.replace("\r\n", "\n"),
                            _ => {}
                        }
                    }
                    moves.push(m);
                    open_move = Some(moves.len() - 1);
                }
                if matches!(event, Event::Start(_)) {
                    path.push(name);
                } else {
                    open_field = None;
                    open_move = None;
                }
            }
            Event::End(_) => {
                path.pop();
                open_field = None;
                open_move = None;
            }
            Event::Text(ref e) => {
                let text = e.unescape().map_err(|e| xml_error(&reader, e))?;
                add_text(&mut head, &mut moves, open_field, open_move, &text);
            }
            Event::CData(ref e) => {
                let text = String::from_utf8_lossy(e.as_ref()).into_owned();
                add_text(&mut head, &mut moves, open_field, open_move, &text);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !path.is_empty() {
        return Err(layout(base + text.len(), "the file ends before its elements close"));
    }
    Ok(Cbf { head, moves })
}

/// Adds text to the Head element or the move being read.
fn add_text(
    head: &mut [(String, String)],
    moves: &mut [CbfMove],
    field: Option<usize>,
    mv: Option<usize>,
    text: &str,
) {
    if let Some(slot) = field.and_then(|i| head.get_mut(i)) {
        slot.1.push_str(text);
    } else if let Some(m) = mv.and_then(|i| moves.get_mut(i))
        && m.comment.is_empty()
    {
        m.comment = text.trim().replace("\r\n", "\n");
    }
}
