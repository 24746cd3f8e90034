//! DhtmlXQ (also called UBB), the bracketed text that Chinese game sites and
//! forums embed in their pages: a `[DhtmlXQ]` ... `[/DhtmlXQ]` block of fields
//! such as `[DhtmlXQ_red]...[/DhtmlXQ_red]`.
//!
//! The fields this module knows:
//!
//! - the game's facts (`title`, `event`, `date`, `place`, `round`, `table`,
//!   `group`, `red`, `redteam`, `black`, `blackteam`, `open`, `variation`,
//!   `ecco`, `remark`, `author`...), read as tags under their PGN names;
//! - `result`, in words (`红胜`, `黑胜`, `和棋`, and `红先胜`-style variants);
//! - `binit`, the set-up: 32 squares of two digits, one per piece in the order
//!   chariot, horse, elephant, advisor, general, advisor, elephant, horse,
//!   chariot, two cannons, five soldiers, Red's sixteen then Black's, `99` for
//!   a piece off the board; empty for the usual start;
//! - `movelist`, the main line, four digits a move (from-file, from-row,
//!   to-file, to-row);
//! - `move_<parent>_<ply>_<branch>`, a variation numbered `branch` that
//!   replaces the move at `ply` of line `parent` (0 is the main line);
//! - `comment<ply>` and `comment<branch>_<ply>`, the comment after the move at
//!   `ply` of the main line or of a variation (`comment0` is the one before the
//!   first move), `||` standing for a line break.
//!
//! Squares count files 0-8 from Red's left and rows 0-9 from Black's side of
//! the board, so `77` is ICCS `h2`. The side to move is the side of the first
//! move's piece. A `fen` field, which some viewers write beside `binit`, gives
//! the whole start position and wins over `binit`.
//!
//! ```
//! use xiangqi_records::{Limits, dhtmlxq};
//!
//! let page = "<p>[DhtmlXQ][DhtmlXQ_red]Hu Ronghua[/DhtmlXQ_red]\
//!             [DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]</p>";
//! assert!(dhtmlxq::looks_like(page));
//! let games = dhtmlxq::read_all(page, &Limits::SITE);
//! let game = games[0].as_ref().unwrap();
//! assert_eq!(game.record.tag("Red"), Some("Hu Ronghua"));
//! assert_eq!(game.record.moves.len(), 2);
//! let again = dhtmlxq::read_all(&dhtmlxq::write(game), &Limits::SITE);
//! assert_eq!(again[0].as_ref().unwrap(), game);
//! ```

use std::collections::{HashMap, HashSet};

use xiangqi::{Cell, Color, FenError, GameError, IllegalMove, Move, Piece, Position, Role, Setup, Standard};

use crate::{Game, Limit, Limits, MoveTree, PgnError, Record, RecordError};

/// The fields that hold a game's facts, with the tags they are read as.
const TAGS: [(&str, &str); 38] = [
    ("title", "Title"),
    ("event", "Event"),
    ("date", "Date"),
    ("place", "Site"),
    ("round", "Round"),
    ("table", "Table"),
    ("group", "Group"),
    ("red", "Red"),
    ("redteam", "RedTeam"),
    ("redname", "RedName"),
    ("redlevel", "RedLevel"),
    ("redrating", "RedRating"),
    ("redeng", "RedEnglish"),
    ("redtime", "RedTime"),
    ("black", "Black"),
    ("blackteam", "BlackTeam"),
    ("blackname", "BlackName"),
    ("blacklevel", "BlackLevel"),
    ("blackrating", "BlackRating"),
    ("blackeng", "BlackEnglish"),
    ("blacktime", "BlackTime"),
    ("open", "Opening"),
    ("variation", "Variation"),
    ("ecco", "ECCO"),
    ("remark", "Annotator"),
    ("author", "Author"),
    ("judge", "Referee"),
    ("record", "Recorder"),
    ("timerule", "TimeControl"),
    ("endtype", "Termination"),
    ("gametype", "GameType"),
    ("type", "RecordType"),
    ("class", "Category"),
    ("owner", "Owner"),
    ("other", "Note"),
    ("refer", "Source"),
    ("redcountry", "RedCountry"),
    ("blackcountry", "BlackCountry"),
];

/// Fields about the page or the viewer rather than the game: its size on the
/// page, counters, prices, the program that wrote it.
const IGNORED: [&str; 14] = [
    "ver",
    "init",
    "generator",
    "adddate",
    "hits",
    "price",
    "hidden",
    "gameid",
    "sortid",
    "oldowner",
    "length",
    "firstnum",
    "viewurl",
    "pwd",
];

/// The pieces of `binit`, slot by slot, for each side.
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

/// A field name longer than this is not taken for one: real names are short.
const MAX_NAME: usize = 64;

/// Whether a text holds a `[DhtmlXQ]` block.
pub fn looks_like(text: &str) -> bool {
    let mut at = 0;
    while let Some((start, marker)) = next_marker(text, at) {
        if let Marker::Open(_) = marker {
            return true;
        }
        at = start + 1;
    }
    false
}

/// Reads every `[DhtmlXQ]` block of a text (a forum page may hold several),
/// each to its own result, within `limits`. Fields outside a block are
/// ignored, and so are fields about the page rather than the game (the
/// viewer's size, hit counters); fields this module does not know are kept
/// as tags under their own names.
///
/// A block is refused with [`RecordError::Layout`], and the others still
/// read, where its set-up, a line of moves or a field does not hold the
/// format's layout, or where a variation names a line or a ply the record
/// does not have. A move the rules refuse gives [`RecordError::Cut`] with the
/// [`PgnError::Move`] naming its ply, keeping the game without that move and
/// what follows it in its line (the variations branching before it stay).
/// Past a limit of [`Limits`] the block is refused with
/// [`PgnError::OverLimit`]; past the limit of games or of moves in the file,
/// the last result says so and the rest of the text is not read.
pub fn read_all(text: &str, limits: &Limits) -> Vec<Result<Game, RecordError>> {
    if limits.check(Limit::FileBytes, text.len()).is_err() {
        return vec![Err(over(limits, Limit::FileBytes, None))];
    }
    let mut out = Vec::new();
    let mut nodes = 0usize;
    let mut at = 0;
    while let Some((open, marker)) = next_marker(text, at) {
        let Marker::Open(len) = marker else {
            // A closing marker with no block open is page text.
            at = open + 1;
            continue;
        };
        if limits.check(Limit::GamesPerFile, out.len() + 1).is_err() {
            out.push(Err(over(limits, Limit::GamesPerFile, None)));
            break;
        }
        let body = open + len;
        // The block runs to its closing marker; another block opening first
        // means this one was left open.
        let (end, next) = match next_marker(text, body) {
            Some((close, Marker::Close(len))) => (close, Ok(close + len)),
            Some((other, Marker::Open(_))) => (other, Err(other)),
            None => (text.len(), Err(text.len())),
        };
        let game = match next {
            Ok(_) => fields(text, body, end).and_then(|f| read_block(&f, limits)),
            Err(_) => Err(layout(open, "this [DhtmlXQ] block is never closed by [/DhtmlXQ]")),
        };
        if let Ok(game) = &game {
            nodes += game.tree.len() - 1;
            if limits.check(Limit::NodesPerFile, nodes).is_err() {
                out.push(Err(over(limits, Limit::NodesPerFile, None)));
                break;
            }
        }
        out.push(game);
        at = match next {
            Ok(after) => after,
            Err(resume) => resume,
        };
    }
    out
}

/// Writes a game as one `[DhtmlXQ]` block: its tags, the set-up (`binit`, and
/// the full position in a `fen` field) when it does not start from the usual
/// position, the main line, every variation and every comment.
///
/// A tag with no field of its own is written under its own name when that
/// name is plain letters, digits and underscores. A line break in a comment
/// is written `||`, so a comment that holds `||` itself reads back with a
/// line break there.
pub fn write(game: &Game) -> String {
    let mut out = String::from("[DhtmlXQ]\n");
    field(&mut out, "ver", "www_dpxq_com");
    for (name, value) in &game.record.tags {
        if let Some(field_name) = field_for_tag(name, value) {
            let value = if name == "Result" { result_words(value).unwrap_or("") } else { value };
            field(&mut out, &field_name, value);
        }
    }
    let start = &game.record.start;
    if *start != Position::startpos() {
        field(&mut out, "binit", &binit(start));
        field(&mut out, "fen", &start.to_fen());
    }
    write_tree(&mut out, &game.tree);
    out.push_str("[/DhtmlXQ]\n");
    out
}

/// The field a tag is written in, if it has one.
fn field_for_tag(name: &str, value: &str) -> Option<String> {
    if value.is_empty() {
        return None;
    }
    if name == "Result" {
        return result_words(value).map(|_| "result".to_string());
    }
    if let Some((field, _)) = TAGS.iter().find(|(_, tag)| *tag == name) {
        return Some(field.to_string());
    }
    let plain = !name.is_empty()
        && name.len() <= MAX_NAME
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    let taken = |n: &str| {
        let lower = n.to_ascii_lowercase();
        TAGS.iter().any(|(f, _)| *f == lower)
            || IGNORED.contains(&lower.as_str())
            || ["binit", "fen", "movelist", "result"].contains(&lower.as_str())
            || lower.starts_with("move_")
            || lower.starts_with("comment")
    };
    (plain && !taken(name)).then(|| name.to_string())
}

/// Appends one field, its value kept from closing it early.
fn field(out: &mut String, name: &str, value: &str) {
    let close = format!("[/DhtmlXQ_{name}]");
    // A value may not hold its own closing marker; a full-width bracket
    // keeps the text readable.
    let value = value.replace(&close, &close.replacen('[', "［", 1));
    out.push_str(&format!("[DhtmlXQ_{name}]{value}{close}\n"));
}

/// The main line, the variations and the comments of a tree, numbered as the
/// format numbers them: the main line is line 0, and each variation takes the
/// next number when it is written, after the line it branches from.
fn write_tree(out: &mut String, tree: &MoveTree) {
    let mut lines: Vec<(u64, usize, u64, String)> = Vec::new();
    let mut comments: Vec<(u64, usize, String)> = Vec::new();
    let root_comment = tree.comment(MoveTree::ROOT);
    if !root_comment.is_empty() {
        comments.push((0, 0, root_comment.to_string()));
    }
    // Lines still to write: their first node, the line they branch from and
    // the ply of their first move. Popped last-in first-out, which writes each
    // variation's own variations right after it.
    let mut stack: Vec<(usize, u64, usize)> = Vec::new();
    if let Some(&first) = tree.children(MoveTree::ROOT).first() {
        stack.push((first, 0, 1));
    }
    let mut number = 0u64;
    while let Some((first, parent, first_ply)) = stack.pop() {
        let line = number;
        number += 1;
        let mut digits = String::new();
        let mut later: Vec<(usize, u64, usize)> = Vec::new();
        if line == 0 {
            // Alternatives to the first move branch from the start, which
            // belongs to the main line.
            later.extend(tree.children(MoveTree::ROOT).iter().skip(1).map(|&alt| (alt, 0, 1)));
        }
        let (mut node, mut ply) = (first, first_ply);
        loop {
            if let Some(m) = tree.mv(node) {
                digits.push_str(&move_digits(m));
            }
            let comment = tree.comment(node);
            if !comment.is_empty() {
                comments.push((line, ply, comment.to_string()));
            }
            let children = tree.children(node);
            let Some(&next) = children.first() else { break };
            later.extend(children.iter().skip(1).map(|&alt| (alt, line, ply + 1)));
            node = next;
            ply += 1;
        }
        lines.push((parent, first_ply, line, digits));
        stack.extend(later.into_iter().rev());
    }
    for (parent, first_ply, line, digits) in lines {
        let name =
            if line == 0 { "movelist".to_string() } else { format!("move_{parent}_{first_ply}_{line}") };
        field(out, &name, &digits);
    }
    for (line, ply, text) in comments {
        let name = if line == 0 { format!("comment{ply}") } else { format!("comment{line}_{ply}") };
        field(out, &name, &text.replace("\r\n", "||").replace('\n', "||"));
    }
}

/// A move's four digits: from-file, from-row, to-file, to-row, rows counted
/// from Black's side.
fn move_digits(m: Move) -> String {
    let t = Position::<Standard>::tables();
    let square = |c: Cell| format!("{}{}", t.file(c), 9usize.saturating_sub(t.number(c)));
    format!("{}{}", square(m.from), square(m.to))
}

/// The `binit` of a position: each piece in the first free slot of its kind.
fn binit(pos: &Position<Standard>) -> String {
    let t = Position::<Standard>::tables();
    let mut slots = [None::<(usize, usize)>; 32];
    for index in 0..t.cells() {
        let cell = Cell::new(index);
        let Some(piece) = pos.piece_at(cell) else { continue };
        let base = if piece.color == Color::Red { 0 } else { 16 };
        let free = (0..16).find(|&i| SLOTS[i] == piece.role && slots[base + i].is_none());
        if let Some(i) = free {
            slots[base + i] = Some((t.file(cell), 9usize.saturating_sub(t.number(cell))));
        }
    }
    slots.iter().map(|s| s.map_or_else(|| "99".to_string(), |(x, y)| format!("{x}{y}"))).collect()
}

/// The words a result is written in, for the results a record can state.
fn result_words(result: &str) -> Option<&'static str> {
    match result {
        "1-0" => Some("红胜"),
        "0-1" => Some("黑胜"),
        "1/2-1/2" => Some("和棋"),
        _ => None,
    }
}

/// The result a `result` field states, if it states one: `红胜` and `黑负`
/// are a Red win, `黑胜` and `红负` a Black win, `和棋` a draw, with `先`
/// (who moved first) and traditional characters allowed.
fn result_tag(words: &str) -> Option<&'static str> {
    let words: String = words.trim().chars().filter(|&c| c != '先').collect();
    match words.as_str() {
        "1-0" | "红胜" | "紅勝" | "黑负" | "黑負" => Some("1-0"),
        "0-1" | "黑胜" | "黑勝" | "红负" | "紅負" => Some("0-1"),
        "1/2-1/2" | "和" | "和棋" | "和局" | "红和" | "紅和" | "黑和" => Some("1/2-1/2"),
        _ => None,
    }
}

/// What a `[` starts: a block's opening or closing marker, of this length.
#[derive(Clone, Copy)]
enum Marker {
    Open(usize),
    Close(usize),
}

/// The first `[DhtmlXQ]` or `[/DhtmlXQ]` (spaces allowed before the `]`) at
/// or after byte `from`, in one pass over the text.
fn next_marker(text: &str, from: usize) -> Option<(usize, Marker)> {
    let bytes = text.as_bytes();
    let mut at = from;
    while let Some(rel) = bytes.get(at..)?.iter().position(|&b| b == b'[') {
        let start = at + rel;
        let rest = &bytes[start..];
        let (closing, name_end) = if rest.starts_with(b"[/DhtmlXQ") {
            (true, 9)
        } else if rest.starts_with(b"[DhtmlXQ") {
            (false, 8)
        } else {
            at = start + 1;
            continue;
        };
        let spaces = rest[name_end..].iter().take_while(|&&b| b == b' ').count();
        if rest.get(name_end + spaces) == Some(&b']') {
            let len = name_end + spaces + 1;
            return Some((start, if closing { Marker::Close(len) } else { Marker::Open(len) }));
        }
        at = start + 1;
    }
    None
}

/// One field of a block: its name, its value and where the value starts.
struct Field<'a> {
    name: &'a str,
    value: &'a str,
    at: usize,
}

/// The fields between bytes `from` and `to` of a text; other text (page
/// markup, line breaks) between them is skipped.
fn fields(text: &str, from: usize, to: usize) -> Result<Vec<Field<'_>>, RecordError> {
    let block = &text[..to];
    let mut out = Vec::new();
    let mut at = from;
    while let Some(rel) = block[at..].find("[DhtmlXQ_") {
        let start = at + rel;
        let name_from = start + "[DhtmlXQ_".len();
        let name_len = block[name_from..]
            .bytes()
            .take(MAX_NAME + 1)
            .take_while(|&b| b.is_ascii_alphanumeric() || b == b'_')
            .count();
        let name_to = name_from + name_len;
        if name_len == 0 || name_len > MAX_NAME || block.as_bytes().get(name_to) != Some(&b']') {
            at = start + 1;
            continue;
        }
        let name = &block[name_from..name_to];
        let value_from = name_to + 1;
        let close = format!("[/DhtmlXQ_{name}]");
        let Some(len) = block[value_from..].find(&close) else {
            return Err(layout(start, format!("the field [DhtmlXQ_{name}] is never closed")));
        };
        out.push(Field { name, value: &block[value_from..value_from + len], at: value_from });
        at = value_from + len + close.len();
    }
    Ok(out)
}

/// A variation as its field gives it.
struct Branch<'a> {
    parent: u64,
    ply: usize,
    number: u64,
    field: &'a Field<'a>,
}

/// A line of the tree once built: the ply played at `at[0]`, and the node
/// where each later move of the line is played (for the main line, the start
/// and then each of its moves; for a variation, each of its moves), none for
/// a node dropped after a refused move.
struct Line {
    first_ply: usize,
    at: Vec<Option<usize>>,
    depth: usize,
}

/// Reads one block's fields into a game.
fn read_block(fields: &[Field<'_>], limits: &Limits) -> Result<Game, RecordError> {
    let mut tags = Tags::default();
    let mut binit_field = None;
    let mut fen_field = None;
    let mut movelist = None;
    let mut branches: Vec<Branch<'_>> = Vec::new();
    let mut comments: Vec<(u64, usize, &Field<'_>)> = Vec::new();
    for f in fields {
        let name = f.name;
        if let Some(ids) = name.strip_prefix("move_") {
            let [parent, ply, number] = numbers::<3>(ids).ok_or_else(|| {
                layout(f.at, format!("the variation field {name} is not move_<line>_<ply>_<number>"))
            })?;
            let ply = usize::try_from(ply).unwrap_or(usize::MAX);
            if (parent, ply, number) == (0, 1, 0) {
                // Some writers give the main line as the variation numbered 0.
                movelist = movelist.or(Some(f));
                continue;
            }
            branches.push(Branch { parent, ply, number, field: f });
        } else if let Some(ids) = name.strip_prefix("comment").filter(|ids| numbers::<1>(ids).is_some()) {
            let [ply] = numbers::<1>(ids).unwrap_or([0]);
            comments.push((0, usize::try_from(ply).unwrap_or(usize::MAX), f));
        } else if let Some([line, ply]) = name.strip_prefix("comment").and_then(numbers::<2>) {
            comments.push((line, usize::try_from(ply).unwrap_or(usize::MAX), f));
        } else {
            match name {
                "binit" => binit_field = binit_field.or(Some(f)),
                "fen" => fen_field = fen_field.or(Some(f)),
                "movelist" => movelist = movelist.or(Some(f)),
                "result" => {
                    if let Some(result) = result_tag(f.value) {
                        tags.push("Result", result);
                    }
                }
                _ if IGNORED.contains(&name) => {}
                _ => {
                    let tag = TAGS.iter().find(|(field, _)| *field == name).map_or(name, |(_, tag)| tag);
                    tags.push(tag, f.value.trim());
                }
            }
        }
    }
    // `red` carries team, name and level together; a record with only the
    // name still names its players.
    let mut tags = tags.into_vec();
    for (side, name) in [("Red", "RedName"), ("Black", "BlackName")] {
        if !tags.iter().any(|(k, _)| k == side)
            && let Some(slot) = tags.iter_mut().find(|(k, _)| k == name)
        {
            slot.0 = side.to_string();
        }
    }

    let main = match movelist {
        Some(f) => parse_moves(f, limits, 1)?,
        None => Vec::new(),
    };
    let start = start_position(binit_field, fen_field, main.first().map(|&(m, _)| m))?;

    let mut built = Built::new(&start);
    let mut at = vec![Some(MoveTree::ROOT)];
    let mut node = Some(MoveTree::ROOT);
    for (i, &(m, _)) in main.iter().enumerate() {
        node = built.play(node, m, i + 1, limits)?;
        at.push(node);
    }
    let mut lines: HashMap<u64, Line> = HashMap::new();
    lines.insert(0, Line { first_ply: 1, at, depth: 0 });

    let mut by_parent: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut numbers_seen = HashSet::new();
    for (i, b) in branches.iter().enumerate() {
        if b.number == 0 {
            return Err(layout(b.field.at, "a variation numbered 0, the main line's number"));
        }
        if !numbers_seen.insert(b.number) {
            return Err(layout(b.field.at, format!("variation {} is given twice", b.number)));
        }
        by_parent.entry(b.parent).or_default().push(i);
    }
    // Lines are built from the main line outwards, so that each variation
    // finds the line it branches from already in the tree.
    let mut stack = vec![0u64];
    while let Some(parent) = stack.pop() {
        for &i in by_parent.get(&parent).map_or(&[][..], Vec::as_slice) {
            let b = &branches[i];
            let (from, depth) = match lines.get(&parent) {
                Some(line) => {
                    let index = b.ply.checked_sub(line.first_ply);
                    (index.and_then(|k| line.at.get(k)).copied(), line.depth + 1)
                }
                None => (None, 0),
            };
            let Some(mut node) = from else {
                return Err(layout(
                    b.field.at,
                    format!(
                        "variation {} replaces move {} of line {parent}, which that line does not have",
                        b.number, b.ply
                    ),
                ));
            };
            if limits.check(Limit::VariationDepth, depth).is_err() {
                return Err(over(limits, Limit::VariationDepth, Some(b.ply)));
            }
            let moves = parse_moves(b.field, limits, b.ply)?;
            let mut at = Vec::with_capacity(moves.len());
            for (k, &(m, _)) in moves.iter().enumerate() {
                node = built.play(node, m, b.ply + k, limits)?;
                at.push(node);
            }
            lines.insert(b.number, Line { first_ply: b.ply + 1, at, depth });
            stack.push(b.number);
        }
    }
    if let Some(b) = branches.iter().find(|b| !lines.contains_key(&b.number)) {
        return Err(layout(
            b.field.at,
            format!("variation {} branches from line {}, which the record does not have", b.number, b.parent),
        ));
    }
    for (line, ply, f) in comments {
        let node = lines.get(&line).and_then(|l| l.at.get(ply.checked_add(1)?.checked_sub(l.first_ply)?));
        // A comment on a move the record does not have, or on one dropped
        // after a refused move, has nowhere to go.
        if let Some(&Some(node)) = node {
            built.tree.set_comment(node, f.value.replace("||", "\n"));
        }
    }
    built.finish(tags, start)
}

/// A tree being built: beside each node the position after it, and the
/// first move refused. The CCBridge readers build theirs with it too.
pub(crate) struct Built {
    pub(crate) tree: MoveTree,
    pub(crate) positions: Vec<Position<Standard>>,
    pub(crate) refused: Option<PgnError>,
}

impl Built {
    /// A tree of no moves from a start.
    pub(crate) fn new(start: &Position<Standard>) -> Built {
        Built { tree: MoveTree::new(), positions: vec![start.clone()], refused: None }
    }

    /// The game built, or [`RecordError::Cut`] keeping it when a move was
    /// refused.
    pub(crate) fn finish(
        self,
        tags: Vec<(String, String)>,
        start: Position<Standard>,
    ) -> Result<Game, RecordError> {
        let game = Game::new(Record { tags, start, moves: Vec::new() }, self.tree);
        match self.refused {
            None => Ok(game),
            Some(error) => Err(RecordError::Cut { kept: Box::new(game), error }),
        }
    }

    /// Plays a move after a node, checking the limits; the new node, or none
    /// when the node was dropped or the move is refused (which drops what
    /// follows it in its line, and is remembered when it is the first).
    pub(crate) fn play(
        &mut self,
        parent: Option<usize>,
        m: Move,
        ply: usize,
        limits: &Limits,
    ) -> Result<Option<usize>, RecordError> {
        if limits.check(Limit::PliesPerLine, ply).is_err() {
            return Err(over(limits, Limit::PliesPerLine, Some(ply)));
        }
        let Some(parent) = parent else { return Ok(None) };
        if limits.check(Limit::NodesPerTree, self.tree.len() + 1).is_err() {
            return Err(over(limits, Limit::NodesPerTree, Some(ply)));
        }
        let pos = &self.positions[parent];
        if let Some(reason) = pos.why_illegal(m) {
            let notation = pos.move_name(m);
            self.refused.get_or_insert(PgnError::Move {
                ply,
                number: pos.fullmoves(),
                red: pos.turn() == Color::Red,
                text: notation.clone(),
                source: Box::new(GameError::Illegal(IllegalMove { notation, reason })),
            });
            return Ok(None);
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        self.positions.push(after);
        Ok(Some(self.tree.add(parent, m)))
    }
}

/// Tags being gathered: the first value given for each name, in the order
/// given, empty ones left out.
#[derive(Default)]
pub(crate) struct Tags {
    list: Vec<(String, String)>,
    seen: HashSet<String>,
}

impl Tags {
    /// Adds a tag unless it is empty or already given.
    pub(crate) fn push(&mut self, name: &str, value: &str) {
        if !value.is_empty() && self.seen.insert(name.to_string()) {
            self.list.push((name.to_string(), value.to_string()));
        }
    }

    /// The tags, in order.
    pub(crate) fn into_vec(self) -> Vec<(String, String)> {
        self.list
    }
}

/// `N` numbers joined by `_`, as field names carry them.
fn numbers<const N: usize>(text: &str) -> Option<[u64; N]> {
    let mut out = [0u64; N];
    let mut parts = text.split('_');
    for slot in &mut out {
        let part = parts.next()?;
        if part.is_empty() || part.len() > 18 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *slot = part.parse().ok()?;
    }
    parts.next().is_none().then_some(out)
}

/// The moves of a line field, each with the byte where it starts; the line's
/// first move is played at ply `first_ply`.
fn parse_moves(f: &Field<'_>, limits: &Limits, first_ply: usize) -> Result<Vec<(Move, usize)>, RecordError> {
    let mut digits: Vec<(u8, usize)> = Vec::new();
    for (i, c) in f.value.char_indices().filter(|(_, c)| !c.is_whitespace()) {
        match c.to_digit(10) {
            Some(d) if c.is_ascii_digit() => digits.push((d as u8, f.at + i)),
            _ => return Err(layout(f.at + i, format!("the line {} holds {c:?}, not a digit", f.name))),
        }
    }
    if digits.len() % 4 != 0 {
        return Err(layout(
            f.at,
            format!(
                "the line {} holds {} digits, which is not a whole number of moves of 4 digits",
                f.name,
                digits.len()
            ),
        ));
    }
    let last_ply = first_ply.saturating_add(digits.len() / 4).saturating_sub(1);
    if limits.check(Limit::PliesPerLine, last_ply).is_err() {
        return Err(over(limits, Limit::PliesPerLine, Some(limits.plies_per_line + 1)));
    }
    let t = Position::<Standard>::tables();
    digits
        .chunks(4)
        .map(|d| {
            let square = |x: u8, y: u8, at: usize| {
                let (x, y) = (usize::from(x), usize::from(y));
                t.cell(x, 9 - y).ok_or_else(|| layout(at, format!("square {x}{y} is off the board")))
            };
            Ok((Move::new(square(d[0].0, d[1].0, d[0].1)?, square(d[2].0, d[3].0, d[2].1)?), d[0].1))
        })
        .collect()
}

/// The start position: a `fen` field's, else `binit`'s placement (the usual
/// one when empty) with the side of the first move's piece to move, or with
/// whichever side makes the position legal when there is no move.
fn start_position(
    binit: Option<&Field<'_>>,
    fen: Option<&Field<'_>>,
    first: Option<Move>,
) -> Result<Position<Standard>, RecordError> {
    if let Some(f) = fen {
        return Position::from_fen(f.value.trim()).map_err(|e| PgnError::Fen(e).into());
    }
    let mut setup = match binit {
        Some(f) => read_binit(f)?,
        None => Setup::start(),
    };
    let legal = |setup: &Setup<Standard>| {
        Position::from_setup(setup).map_err(|e| RecordError::from(PgnError::Fen(FenError::Position(e))))
    };
    match first {
        Some(m) => {
            setup.turn = setup.board[m.from.index()].map_or(Color::Red, |p| p.color);
            legal(&setup)
        }
        None => legal(&setup).or_else(|red| {
            setup.turn = Color::Black;
            legal(&setup).map_err(|_| red)
        }),
    }
}

/// The placement a `binit` field gives (the usual one when it is empty).
fn read_binit(f: &Field<'_>) -> Result<Setup<Standard>, RecordError> {
    let text: Vec<(char, usize)> =
        f.value.char_indices().filter(|(_, c)| !c.is_whitespace()).map(|(i, c)| (c, f.at + i)).collect();
    if text.is_empty() {
        return Ok(Setup::start());
    }
    if text.len() != 64 || !text.iter().all(|(c, _)| c.is_ascii_digit()) {
        return Err(layout(
            f.at,
            format!("binit holds {} characters; it takes 64 digits, two for each of 32 pieces", text.len()),
        ));
    }
    let t = Position::<Standard>::tables();
    let mut setup = Setup::empty();
    for (slot, pair) in text.chunks(2).enumerate() {
        let (x, y) = (pair[0].0 as usize - '0' as usize, pair[1].0 as usize - '0' as usize);
        if (x, y) == (9, 9) {
            continue;
        }
        let color = if slot < 16 { Color::Red } else { Color::Black };
        let piece = Piece::new(color, SLOTS[slot % 16]);
        let what = || format!("the {color} {} of binit's slot {slot}", piece.role.name());
        let cell = t
            .cell(x, 9 - y)
            .ok_or_else(|| layout(pair[0].1, format!("{} stands on {x}{y}, off the board", what())))?;
        if setup.board[cell.index()].is_some() {
            return Err(layout(
                pair[0].1,
                format!("{} stands on {x}{y}, where a piece stands already", what()),
            ));
        }
        setup.board[cell.index()] = Some(piece);
    }
    Ok(setup)
}

pub(crate) fn over(limits: &Limits, limit: Limit, ply: Option<usize>) -> RecordError {
    PgnError::OverLimit { limit, allowed: limits.of(limit), ply }.into()
}

pub(crate) fn layout(offset: usize, what: impl Into<String>) -> RecordError {
    RecordError::Layout { offset, what: what.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_one(text: &str) -> Result<Game, RecordError> {
        let mut all = read_all(text, &Limits::SITE);
        assert_eq!(all.len(), 1, "one block in {text}");
        all.remove(0)
    }

    #[test]
    fn squares_count_rows_from_blacks_side() {
        let game = read_one("[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]").unwrap();
        let names: Vec<String> =
            game.record.moves.iter().map(|&m| Position::<Standard>::startpos().move_name(m)).collect();
        assert_eq!(names, ["h2e2", "h9g7"]);
    }

    #[test]
    fn the_usual_start_has_the_binit_of_the_format() {
        assert_eq!(
            binit(&Position::startpos()),
            "0919293949596979891777062646668600102030405060708012720323436383"
        );
    }

    #[test]
    fn field_names_carry_numbers_joined_by_underscores() {
        assert_eq!(numbers::<3>("0_12_3"), Some([0, 12, 3]));
        assert_eq!(numbers::<2>("0_12_3"), None);
        assert_eq!(numbers::<1>("x"), None);
        assert_eq!(numbers::<1>("99999999999999999999"), None);
    }

    #[test]
    fn results_in_words_become_pgn_results() {
        assert_eq!(result_tag("红先胜"), Some("1-0"));
        assert_eq!(result_tag("红先负"), Some("0-1"));
        assert_eq!(result_tag("和棋"), Some("1/2-1/2"));
        assert_eq!(result_tag("未知"), None);
    }
}
