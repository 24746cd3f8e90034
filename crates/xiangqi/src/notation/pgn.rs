//! Game records in PGN as xqbase defines it for Chinese chess: `[Game "Chinese
//! Chess"]` first, then Event, Site, Date, Round, Red, Black, Result, an optional
//! FEN for games that do not start from the usual setup, and `[Format "ICCS"]`,
//! `"WXF"` or `"Chinese"` naming the move syntax.
//!
//! Games on the hex board are written the same way with `[Variant "hex"]` after
//! the Game tag and their moves by cell names (`e4e5`, or `E4-E5`), the only
//! syntax that board has in records. Reading takes standard-board records only.
//!
//! Reading skips comments (`{...}`, `;` to the end of the line), variations in
//! parentheses, numeric annotations and move numbers, and accepts moves in any
//! of the three syntaxes whatever the Format tag says. [`read`] takes the first
//! game of a text, [`read_all`] every game of a file (a BOM and CRLF line ends
//! are fine), each with its own error. [`read_tree`] keeps a game's
//! comments and variations in a [`MoveTree`], as [`write_tree`] writes them.
//!
//! Every reader holds to a table of [`Limits`] (plies per line, variation
//! depth, nodes per tree; [`check_file`] the file's bytes, games and moves)
//! while it reads, and nothing in reading or writing recurses: a record of
//! any shape costs a reader time and memory in proportion to its size, never
//! stack.
//!
//! ```
//! use xiangqi::{Game, RuleSet, notation::pgn::{self, Format, Record}};
//!
//! let mut game = Game::startpos(RuleSet::Asian);
//! game.play_str("h2e2").unwrap();
//! game.play_str("h9g7").unwrap();
//! let text = pgn::write(&Record::from_game(&game), Format::Wxf);
//! assert!(text.contains("1. C2=5 H8+7"));
//! let back = pgn::read(&text).unwrap();
//! assert_eq!(back.moves, game.moves());
//! ```

use std::{any::Any, fmt::Write as _};

use thiserror::Error;

use super::{
    chinese,
    fen::FenError,
    limits::{Limit, Limits},
    tree::MoveTree,
    wxf,
};
use crate::{
    game::{Game, GameError},
    geometry::{Geometry, Standard, Variant},
    position::Position,
    rules::RuleSet,
    types::Move,
};

/// The move syntax of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Coordinates as engines read them: `h2e2`.
    #[default]
    Iccs,
    /// Coordinates in the old ICCS style of the xqbase archives: `H2-E2`.
    OldIccs,
    /// The WXF notation: `C2=5`.
    Wxf,
    /// Chinese notation: `炮二平五`.
    Chinese,
}

impl Format {
    /// The notation's name, as the `Format` tag writes it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Iccs | Format::OldIccs => "ICCS",
            Format::Wxf => "WXF",
            Format::Chinese => "Chinese",
        }
    }

    /// Writes a legal move in this syntax. WXF and the Chinese notation
    /// describe moves along the files of the standard board; on the hex board,
    /// which has no such notation, they name the piece (by its letter or its
    /// glyph) and the two cells: `Ce3-e6`, `炮e3-e6`.
    pub fn write<G: Geometry>(self, pos: &Position<G>, m: Move) -> String {
        let cells = || format!("{}-{}", pos.cell_name(m.from), pos.cell_name(m.to));
        let standard = (pos as &dyn Any).downcast_ref::<Position<Standard>>();
        match (self, standard) {
            (Format::Iccs, _) => pos.move_name(m),
            (Format::OldIccs, _) => cells().to_uppercase(),
            (Format::Wxf, Some(pos)) => wxf::write(pos, m),
            (Format::Chinese, Some(pos)) => chinese::write(pos, m),
            (Format::Wxf, None) => {
                pos.piece_at(m.from).map_or_else(cells, |p| format!("{}{}", p.role.char(), cells()))
            }
            (Format::Chinese, None) => {
                pos.piece_at(m.from).map_or_else(cells, |p| format!("{}{}", p.glyph(), cells()))
            }
        }
    }

    /// The syntax a record on board `G` is written in when this one is asked
    /// for: the hex board's piece-and-cells forms are for display, and readers
    /// of its records know its moves by cell names only.
    fn in_records_of<G: Geometry>(self) -> Format {
        match self {
            Format::Wxf | Format::Chinese if G::VARIANT != Variant::Standard => Format::Iccs,
            other => other,
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "iccs" => Ok(Format::Iccs),
            "wxf" => Ok(Format::Wxf),
            "chinese" => Ok(Format::Chinese),
            other => Err(format!("unknown move format {other:?} (ICCS, WXF or Chinese)")),
        }
    }
}

/// A game record on board `G`: tags, the start position, the moves and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record<G: Geometry = Standard> {
    /// Tags in order, without Game, Variant, FEN and Format (which follow from the rest).
    pub tags: Vec<(String, String)>,
    /// The position the game starts from.
    pub start: Position<G>,
    /// The moves of the main line.
    pub moves: Vec<Move>,
}

impl<G: Geometry> Record<G> {
    /// The record of a game, with the result (and a Termination tag saying why)
    /// when it is over. Event, Site, Date, Round, Red and Black are `?` until set.
    pub fn from_game(game: &Game<G>) -> Record<G> {
        let mut tags: Vec<(String, String)> = ["Event", "Site", "Date", "Round", "Red", "Black"]
            .iter()
            .map(|k| (k.to_string(), "?".to_string()))
            .collect();
        let result = game.outcome().map_or("*", |o| o.result());
        tags.push(("Result".into(), result.into()));
        if let Some(o) = game.outcome() {
            tags.push(("Termination".into(), o.reason.to_string()));
        }
        tags.push(("RuleSet".into(), game.rule_set().to_string()));
        Record { tags, start: game.start().clone(), moves: game.moves() }
    }

    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing an earlier value.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Replays the record as a game under a rule set (the record's `RuleSet`
    /// tag when `rules` is `None`, else the asian rules).
    ///
    /// # Errors
    /// [`PgnError::Move`] if a move is refused under the rules.
    pub fn to_game(&self, rules: Option<RuleSet>) -> Result<Game<G>, PgnError> {
        let rules = rules.or_else(|| self.tag("RuleSet")?.parse().ok()).unwrap_or_default();
        let mut game = Game::new(self.start.clone(), rules);
        for (i, &m) in self.moves.iter().enumerate() {
            let (number, red) = (game.position().fullmoves(), game.position().turn() == crate::Color::Red);
            let text = game.position().move_name(m);
            game.play(m).map_err(|e| PgnError::Move {
                ply: i + 1,
                number,
                red,
                text,
                source: Box::new(e),
            })?;
        }
        Ok(game)
    }
}

impl Record {
    /// Replays the record as history (see [`crate::history`]) under a rule set
    /// (the record's `RuleSet` tag when `rules` is `None`, else the asian
    /// rules): a move is refused only when the board refuses it, and what the
    /// rule set would have judged on the way is noted, not refused.
    ///
    /// # Errors
    /// [`PgnError::Move`] for the first move the board refuses.
    pub fn history(&self, rules: Option<RuleSet>) -> Result<crate::history::History<Standard>, PgnError> {
        let rules = rules.or_else(|| self.tag("RuleSet")?.parse().ok()).unwrap_or_default();
        crate::history::replay(&self.start, rules, &self.moves).map_err(|refused| {
            let black_first = usize::from(self.start.turn() == crate::Color::Black);
            let before = refused.ply - 1 + black_first;
            PgnError::Move {
                ply: refused.ply,
                number: self.start.fullmoves() + (before / 2) as u32,
                red: before % 2 == 0,
                text: refused.illegal.notation.clone(),
                source: Box::new(GameError::Illegal(refused.illegal)),
            }
        })
    }
}

/// Why a record could not be read.
#[derive(Debug, Error)]
pub enum PgnError {
    /// A tag line that is not `[Name "value"]`.
    #[error("line {line}: malformed tag {text:?}")]
    Tag {
        /// The line, from 1.
        line: usize,
        /// The line's text.
        text: String,
    },
    /// A FEN tag that is not a legal position.
    #[error("bad FEN tag: {0}")]
    Fen(#[from] FenError),
    /// A move that cannot be read or played: `ply` counts half-moves from the
    /// record's start (1-based), `number` is the move number as the record
    /// writes it (`12.` for Red, `12...` for Black).
    #[error("move {number}{} ({text}): {source}", if *.red { "" } else { "..." })]
    Move {
        /// The half-move, from 1.
        ply: usize,
        /// The move number as written.
        number: u32,
        /// Whether it is Red's move.
        red: bool,
        /// The move as written.
        text: String,
        /// Why it cannot be read or played.
        source: Box<GameError>,
    },
    /// A comment or variation left open (a file cut short, say): `what` it
    /// is, opened after `after` moves of its line.
    #[error("a {what} opened after {after} moves is never closed")]
    Unclosed {
        /// `comment` or `variation`.
        what: &'static str,
        /// The moves of its line before it opened.
        after: usize,
    },
    /// A record whose `Variant` tag names another board.
    #[error("a record of the {0} board: only standard-board records are read")]
    Variant(String),
    /// The record passes a limit of [`Limits`] (`allowed` is where it
    /// stands); `ply` is the move where it did, when a move did.
    #[error("over the limit of {allowed} {limit}{}", ply.map(|p| format!(" at ply {p}")).unwrap_or_default())]
    OverLimit {
        /// The limit passed.
        limit: Limit,
        /// Its bound.
        allowed: usize,
        /// The move where it passed, when a move did.
        ply: Option<usize>,
    },
}

impl PgnError {
    fn over(limits: &Limits, limit: Limit, ply: Option<usize>) -> PgnError {
        PgnError::OverLimit { limit, allowed: limits.of(limit), ply }
    }
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a record as PGN with moves in the given syntax (by cell names on the
/// hex board when WXF or Chinese is asked for).
pub fn write<G: Geometry>(record: &Record<G>, format: Format) -> String {
    write_tree(record, &MoveTree::line(&record.moves), format)
}

/// Writes a record's tags and start with a tree of moves in place of its
/// `moves`: the start's comment (if any) before the first move, each move's
/// comment after it in braces, variations in parentheses. [`read`] skips
/// comments and variations and keeps the main line.
pub fn write_tree<G: Geometry>(record: &Record<G>, tree: &MoveTree, format: Format) -> String {
    let format = format.in_records_of::<G>();
    let mut out = String::from("[Game \"Chinese Chess\"]\n");
    if G::VARIANT != Variant::Standard {
        let _ = writeln!(out, "[Variant \"{}\"]", G::VARIANT);
    }
    for (k, v) in &record.tags {
        let _ = writeln!(out, "[{k} \"{}\"]", escape(v));
    }
    if record.start != Position::startpos() {
        let _ = writeln!(out, "[FEN \"{}\"]", record.start.to_fen());
    }
    let _ = writeln!(out, "[Format \"{}\"]\n", format.name());
    let result = record.tag("Result").unwrap_or("*");
    let mut tokens = Vec::new();
    push_comment(&mut tokens, tree.comment(MoveTree::ROOT));
    write_moves(&record.start, tree, format, &mut tokens);
    tokens.push(result.to_string());
    out.push_str(&wrap(tokens));
    out
}

/// A comment's words as tokens: `{` on the first, `}` on the last (a brace
/// inside, which PGN cannot write, becomes a parenthesis).
fn push_comment(tokens: &mut Vec<String>, comment: &str) {
    let words: Vec<String> =
        comment.split_whitespace().map(|w| w.replace('{', "(").replace('}', ")")).collect();
    let n = words.len();
    for (i, w) in words.into_iter().enumerate() {
        let open = if i == 0 { "{" } else { "" };
        let close = if i + 1 == n { "}" } else { "" };
        tokens.push(format!("{open}{w}{close}"));
    }
}

/// A line being written: the position before the moves after node `at`, how
/// far through them it is (`0`: the main move is still to write, `k`: the
/// variations before the `k`-th are written), whether a Black move here needs
/// its number, and whether the line is a variation to close with `)`.
struct Writing<G: Geometry> {
    pos: Position<G>,
    at: usize,
    next: usize,
    number_black: bool,
    variation: bool,
}

/// The tokens of a tree's moves. At each node the main move comes first,
/// then each variation beside it in parentheses, then the main line goes
/// on. A Black move is numbered (`7...`) where it starts the text or a
/// variation, or follows a comment or a variation. The lines open at once
/// are a stack on the heap, as deep as the record nests them.
fn write_moves<G: Geometry>(start: &Position<G>, tree: &MoveTree, format: Format, tokens: &mut Vec<String>) {
    let mut open = vec![Writing {
        pos: start.clone(),
        at: MoveTree::ROOT,
        next: 0,
        number_black: true,
        variation: false,
    }];
    while let Some(line) = open.last_mut() {
        let after = tree.children(line.at);
        let (Some(&main), Some(main_mv)) = (after.first(), after.first().and_then(|&m| tree.mv(m))) else {
            let closes = line.variation;
            open.pop();
            if closes && let Some(last) = tokens.last_mut() {
                last.push(')');
            }
            continue;
        };
        if line.next == 0 {
            write_move(&line.pos, main_mv, tree.comment(main), format, tokens, line.number_black);
            line.next = 1;
        }
        if let Some(&alt) = after.get(line.next) {
            line.next += 1;
            let Some(alt_mv) = tree.mv(alt) else { continue };
            let at = tokens.len();
            write_move(&line.pos, alt_mv, tree.comment(alt), format, tokens, true);
            tokens[at].insert(0, '(');
            let mut pos = line.pos.clone();
            pos.play_unchecked(alt_mv);
            let number_black = !tree.comment(alt).is_empty();
            open.push(Writing { pos, at: alt, next: 0, number_black, variation: true });
            continue;
        }
        line.number_black = after.len() > 1 || !tree.comment(main).is_empty();
        line.pos.play_unchecked(main_mv);
        line.at = main;
        line.next = 0;
    }
}

/// One move's number (where it needs one), its name and its comment.
fn write_move<G: Geometry>(
    pos: &Position<G>,
    mv: Move,
    comment: &str,
    format: Format,
    tokens: &mut Vec<String>,
    number_black: bool,
) {
    let number = pos.fullmoves();
    if pos.turn() == crate::Color::Red {
        tokens.push(format!("{number}."));
    } else if number_black {
        tokens.push(format!("{number}..."));
    }
    tokens.push(format.write(pos, mv));
    push_comment(tokens, comment);
}

/// Tokens joined by spaces, wrapped before 80 columns, ending in a newline.
fn wrap(tokens: Vec<String>) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.chars().count() + 1 + t.chars().count() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Reads the first game of a PGN text, within the site's [`Limits`].
///
/// # Errors
/// A [`PgnError`] naming the malformed tag, the bad FEN, the first move that
/// cannot be read or played, or the limit the main line passes.
pub fn read(text: &str) -> Result<Record, PgnError> {
    let games = split_games(text);
    let (first_line, game) = games.first().copied().unwrap_or((1, ""));
    read_game(game, first_line, &Limits::SITE)
}

/// Reads every game of a PGN text, in file order: one entry per game, each
/// the record or why that game could not be read, so that one bad game does
/// not hide the others. A game starts at its tag block; a game without tags
/// (moves at the start of the file, or after another game's result) is a game
/// too. A byte-order mark at the start and CRLF line ends are accepted.
///
/// The entry's index in the list is the game's place in the file, for a
/// caller's messages:
///
/// ```
/// use xiangqi::notation::pgn;
///
/// let text = "[Event \"a\"]\n\n1. h2e2 h9g7 *\n\n[Event \"b\"]\n\n1. h2e2 h9h2 *\n";
/// let games = pgn::read_all(text);
/// assert_eq!(games.len(), 2);
/// let errors: Vec<String> = games
///     .iter()
///     .enumerate()
///     .filter_map(|(i, g)| g.as_ref().err().map(|e| format!("game {}: {e}", i + 1)))
///     .collect();
/// assert_eq!(errors.len(), 1);
/// assert!(errors[0].starts_with("game 2: move 1... (h9h2)"), "{}", errors[0]);
/// ```
pub fn read_all(text: &str) -> Vec<Result<Record, PgnError>> {
    read_all_with(text, &Limits::SITE)
}

/// [`read_all`] within other limits than the site's: a game whose main line
/// passes `limits.plies_per_line` is refused on its own. The limits on the
/// file as a whole are [`check_file`]'s.
pub fn read_all_with(text: &str, limits: &Limits) -> Vec<Result<Record, PgnError>> {
    split_games(text).into_iter().map(|(line, game)| read_game(game, line, limits)).collect()
}

/// Checks a file of records against the limits on a file as a whole (its
/// bytes, its games, and its moves over every game and variation) in one pass
/// that reads no move, so that a caller can refuse it before reading any.
///
/// ```
/// use xiangqi::notation::{limits::{Limit, Limits}, pgn::{self, PgnError}};
///
/// let file = "1. h2e2 h9g7 *\n\n1. c3c4 *\n";
/// assert!(pgn::check_file(file, &Limits::SITE).is_ok());
/// let two_games = Limits { games_per_file: 1, ..Limits::SITE };
/// assert!(matches!(
///     pgn::check_file(file, &two_games),
///     Err(PgnError::OverLimit { limit: Limit::GamesPerFile, allowed: 1, .. })
/// ));
/// ```
///
/// # Errors
/// [`PgnError::OverLimit`] naming the first limit passed.
pub fn check_file(text: &str, limits: &Limits) -> Result<(), PgnError> {
    let over = |limit| PgnError::over(limits, limit, None);
    limits.check(Limit::FileBytes, text.len()).map_err(over)?;
    limits.check(Limit::GamesPerFile, split_games(text).len()).map_err(over)?;
    limits.check(Limit::NodesPerFile, count_move_words(text)).map_err(over)
}

/// The words of a text outside comments that may be moves: an upper bound on
/// the moves its games and variations hold.
fn count_move_words(text: &str) -> usize {
    let mut count = 0;
    let mut word = String::new();
    let mut chars = text.chars();
    let mut in_tag = false;
    while let Some(c) = chars.next() {
        let boundary = c.is_whitespace() || matches!(c, '{' | ';' | '(' | ')' | '[' | ']');
        if boundary && !word.is_empty() {
            count += usize::from(!in_tag && move_word(&word).is_some());
            word.clear();
        }
        match c {
            '{' => {
                chars.by_ref().find(|&c| c == '}');
            }
            ';' => {
                chars.by_ref().find(|&c| c == '\n');
            }
            '[' => in_tag = true,
            ']' | '\n' => in_tag = false,
            _ if boundary => {}
            c => word.push(c),
        }
    }
    count + usize::from(!in_tag && move_word(&word).is_some())
}

/// Reads the tag block of every game of a PGN text, in file order, on any
/// board and without reading the moves: one entry per game, as [`read_all`]
/// splits them, each its tags in order or the first malformed tag line. For
/// a caller that needs only what the tags say (who played, the result), such
/// as a match picking up the games it wrote before.
///
/// ```
/// use xiangqi::notation::pgn;
///
/// let text = "[Round \"1\"]\n[Variant \"hex\"]\n\n1. E4-E5 *\n\n[Round \"2\"\n\n1. E4-E5 *\n";
/// let games = pgn::read_all_tags(text);
/// assert_eq!(games[0].as_ref().unwrap()[0], ("Round".to_string(), "1".to_string()));
/// assert!(games[1].as_ref().unwrap_err().to_string().starts_with("line 6: malformed tag"));
/// ```
pub fn read_all_tags(text: &str) -> Vec<Result<Vec<(String, String)>, PgnError>> {
    split_games(text)
        .into_iter()
        .map(|(first_line, game)| {
            game.lines()
                .map(str::trim)
                .enumerate()
                .take_while(|(_, line)| line.is_empty() || line.starts_with('['))
                .filter(|(_, line)| !line.is_empty())
                .map(|(i, line)| {
                    parse_tag(line)
                        .ok_or_else(|| PgnError::Tag { line: first_line + i, text: line.to_string() })
                })
                .collect()
        })
        .collect()
}

/// Where a text's results end its games: a termination marker outside
/// comments and variations.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Whether a word of movetext ends its game: PGN's results, or the words
/// Chinese records end with (`红胜`, `黑負`, `和棋`...).
fn is_result(word: &str) -> bool {
    if RESULTS.contains(&word) {
        return true;
    }
    let mut chars = word.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some('红' | '紅' | '黑'), Some('胜' | '勝' | '负' | '負'), None) => true,
        (Some('红' | '紅' | '黑'), Some('方'), Some('胜' | '勝' | '负' | '負')) => {
            chars.next().is_none()
        }
        (Some('和'), None | Some('棋' | '局'), None) => true,
        _ => false,
    }
}

/// The games of a PGN text, each with the number of its first line in the text.
/// A game is its tag block and the movetext after it, up to the next tag block
/// or, for moves after a result, up to that result.
fn split_games(text: &str) -> Vec<(usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    // The byte offset and line number where the current game starts.
    let mut start: Option<(usize, usize)> = None;
    let mut in_moves = false; // movetext seen in the current game
    let mut ended = false; // its result seen
    let mut content = false; // a tag or a move word seen: not just comments
    let mut comment = false; // inside `{...}` across lines
    let mut depth = 0usize; // variation nesting
    let mut offset = 0;
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        let line = raw.trim();
        let here = offset;
        offset += raw.len();
        if line.is_empty() {
            continue;
        }
        let is_tag = !comment && depth == 0 && line.starts_with('[');
        let new_game = match start {
            None => true,
            Some(_) => (is_tag && in_moves) || (!is_tag && ended),
        };
        if new_game {
            if let Some((from, first_line)) = start
                && content
            {
                games.push((first_line, &text[from..here]));
            }
            start = Some((here, i + 1));
            (in_moves, ended, content) = (false, false, false);
        }
        if is_tag {
            content = true;
            continue;
        }
        in_moves = true;
        // Follow comments and variations so that a result inside them, or a
        // bracket starting a line of a comment, is not taken for a boundary.
        let mut word = String::new();
        for c in line.chars().chain(std::iter::once('\n')) {
            if comment {
                comment = c != '}';
                continue;
            }
            let boundary = c.is_whitespace() || matches!(c, '{' | ';' | '(' | ')');
            if boundary && !word.is_empty() {
                content |= depth == 0;
                ended |= depth == 0 && is_result(&word);
                word.clear();
            }
            match c {
                '{' => comment = true,
                ';' => break,
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                c if c.is_whitespace() => {}
                c => word.push(c),
            }
        }
    }
    if let Some((from, first_line)) = start
        && content
    {
        games.push((first_line, &text[from..]));
    }
    games
}

/// A game's tags (Game, FEN and Format left out), start, move syntax and movetext.
struct Parts {
    tags: Vec<(String, String)>,
    start: Position<Standard>,
    format: Format,
    movetext: String,
}

/// Splits one game, whose text starts at line `first_line` of its file, into
/// its parts.
fn parts(text: &str, first_line: usize) -> Result<Parts, PgnError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut tags = Vec::new();
    let mut movetext = String::new();
    let mut in_moves = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if !in_moves && line.starts_with('[') {
            let (k, v) = parse_tag(line)
                .ok_or_else(|| PgnError::Tag { line: first_line + i, text: line.to_string() })?;
            tags.push((k, v));
            continue;
        }
        if !line.is_empty() {
            in_moves = true;
        }
        movetext.push_str(raw);
        movetext.push('\n');
    }
    if let Some((_, v)) = tags.iter().find(|(k, _)| k.eq_ignore_ascii_case("Variant"))
        && v.parse::<Variant>() != Ok(Variant::Standard)
    {
        return Err(PgnError::Variant(v.clone()));
    }
    let start = match tags.iter().find(|(k, _)| k.eq_ignore_ascii_case("FEN")) {
        Some((_, fen)) => Position::from_fen(fen)?,
        None => Position::startpos(),
    };
    let format = tags
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("Format"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or_default();
    tags.retain(|(k, _)| !["Game", "FEN", "Format"].iter().any(|n| k.eq_ignore_ascii_case(n)));
    Ok(Parts { tags, start, format, movetext })
}

/// Reads a move word where `pos` stands, `ply` moves into its line.
fn read_move(pos: &Position<Standard>, word: &str, ply: usize, format: Format) -> Result<Move, PgnError> {
    super::parse_in(pos, word, format).map_err(|e| PgnError::Move {
        ply,
        number: pos.fullmoves(),
        red: pos.turn() == crate::Color::Red,
        text: word.to_string(),
        source: Box::new(GameError::Notation(e)),
    })
}

/// Reads the moves of a word of movetext where `pos` stands, `ply` moves into
/// its line: one move, or several written without spaces between them
/// (`C2=5H8+7`, `炮二平五马８进７`), which records from some sites do. Every
/// move form of the standard board but the old ICCS one is four characters
/// long, so such a word is read four characters at a time.
fn read_moves(
    pos: &Position<Standard>,
    word: &str,
    ply: usize,
    format: Format,
) -> Result<Vec<Move>, PgnError> {
    let whole = match read_move(pos, word, ply, format) {
        Ok(m) => return Ok(vec![m]),
        Err(e) => e,
    };
    let chars: Vec<char> = word.chars().collect();
    if chars.len() < 8 || !chars.len().is_multiple_of(4) {
        return Err(whole);
    }
    let mut at = pos.clone();
    let mut moves = Vec::with_capacity(chars.len() / 4);
    for (i, chunk) in chars.chunks(4).enumerate() {
        let text: String = chunk.iter().collect();
        // A word that reads neither whole nor in parts is named whole.
        let Ok(m) = read_move(&at, &text, ply + i, format) else { return Err(whole) };
        at.play_unchecked(m);
        moves.push(m);
    }
    Ok(moves)
}

/// Reads one game whose text starts at line `first_line` of its file.
fn read_game(text: &str, first_line: usize, limits: &Limits) -> Result<Record, PgnError> {
    let Parts { tags, start, format, movetext } = parts(text, first_line)?;
    let mut pos = start.clone();
    let tokens = move_tokens(&movetext)?;
    if limits.check(Limit::PliesPerLine, tokens.len()).is_err() {
        return Err(PgnError::over(limits, Limit::PliesPerLine, Some(limits.plies_per_line + 1)));
    }
    let mut moves = Vec::with_capacity(tokens.len());
    for token in tokens {
        for m in read_moves(&pos, &token, moves.len() + 1, format)? {
            if limits.check(Limit::PliesPerLine, moves.len() + 1).is_err() {
                return Err(PgnError::over(limits, Limit::PliesPerLine, Some(moves.len() + 1)));
            }
            pos.play_unchecked(m);
            moves.push(m);
        }
    }
    Ok(Record { tags, start, moves })
}

/// Reads the first game of a PGN text with its comments and variations,
/// within the site's [`Limits`]: the record (its `moves` the main line) and
/// the tree of moves, the comment before the first move on its start (see
/// [`write_tree`], whose output this reads back). Every move of every
/// variation must be legal where it stands.
///
/// # Errors
/// As [`read`], for a move of any line; [`PgnError::Unclosed`] for a comment
/// or variation left open; [`PgnError::OverLimit`] as soon as a line, the
/// nesting of variations or the tree passes its limit.
pub fn read_tree(text: &str) -> Result<(Record, MoveTree), PgnError> {
    read_tree_with(text, &Limits::SITE)
}

/// [`read_tree`] within other limits than the site's.
///
/// # Errors
/// As [`read_tree`].
pub fn read_tree_with(text: &str, limits: &Limits) -> Result<(Record, MoveTree), PgnError> {
    let games = split_games(text);
    let (first_line, game) = games.first().copied().unwrap_or((1, ""));
    let read = read_tree_game(game, first_line, limits)?;
    match read.cut {
        Some(e) => Err(e),
        None => Ok((read.record, read.tree)),
    }
}

/// A game read with its tree, perhaps cut short by a move that cannot be
/// read or played: the moves before it are kept, and `cut` says which it
/// was and why.
#[derive(Debug)]
pub struct TreeRead {
    /// The tags, the start and the main line.
    pub record: Record,
    /// Every move of the record, variations and comments included.
    pub tree: MoveTree,
    /// The error that cut the game short, if one did.
    pub cut: Option<PgnError>,
}

/// Reads every game of a PGN text with its comments and variations, in file
/// order, within `limits`: one entry per game, as [`read_all`] splits them.
/// A game whose tags, set-up, brackets or size cannot be taken is an error;
/// a game with a move that cannot be read or played keeps the moves read
/// before it, with the move named in [`TreeRead::cut`].
///
/// ```
/// use xiangqi::notation::{limits::Limits, pgn};
///
/// let text = "1. h2e2 (1. c3c4) h9g7 2. h0g2 i9i1 *\n\n[Event \"b\"\n\n1. h2e2 *\n";
/// let games = pgn::read_all_trees_with(text, &Limits::SITE);
/// let first = games[0].as_ref().unwrap();
/// assert_eq!(first.record.moves.len(), 3);
/// assert_eq!(first.tree.len(), 5);
/// assert!(first.cut.as_ref().unwrap().to_string().starts_with("move 2... (i9i1)"));
/// assert!(games[1].is_err());
/// ```
pub fn read_all_trees_with(text: &str, limits: &Limits) -> Vec<Result<TreeRead, PgnError>> {
    trees_with(text, limits).collect()
}

/// [`read_all_trees_with`] a game at a time: each game is read when the
/// iterator reaches it, so a caller that handles one and lets it go holds
/// one game's tree, whatever the file's size.
pub fn trees_with<'a>(
    text: &'a str,
    limits: &'a Limits,
) -> impl Iterator<Item = Result<TreeRead, PgnError>> + 'a {
    split_games(text).into_iter().map(move |(line, game)| read_tree_game(game, line, limits))
}

/// Reads one game with its tree, whose text starts at line `first_line` of its file.
fn read_tree_game(game: &str, first_line: usize, limits: &Limits) -> Result<TreeRead, PgnError> {
    let Parts { tags, start, format, movetext } = parts(game, first_line)?;
    let mut tree = MoveTree::new();
    let cut = match grow_tree(&mut tree, &start, format, &movetext, limits) {
        Ok(()) => None,
        Err(e @ PgnError::Move { .. }) => Some(e),
        Err(e) => return Err(e),
    };
    Ok(TreeRead { record: Record { tags, start, moves: tree.main_line() }, tree, cut })
}

/// Adds the moves, variations and comments of a movetext to `tree`, which
/// keeps what was added before an error.
fn grow_tree(
    tree: &mut MoveTree,
    start: &Position<Standard>,
    format: Format,
    movetext: &str,
    limits: &Limits,
) -> Result<(), PgnError> {
    // Beside each node of the tree, the position after it and its ply.
    let mut placed = vec![(start.clone(), 0usize)];
    let mut current = MoveTree::ROOT;
    // The node each open variation returns to when it closes.
    let mut open: Vec<usize> = Vec::new();
    let mut chars = movetext.chars();
    let mut word = String::new();
    loop {
        let c = chars.next();
        let boundary = c.is_none_or(|c| c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | ';'));
        if boundary && !word.is_empty() {
            let w = std::mem::take(&mut word);
            if let Some(w) = move_word(&w) {
                let (pos, ply) = &placed[current];
                for m in read_moves(pos, &w, ply + 1, format)? {
                    let (pos, ply) = &placed[current];
                    let ply = ply + 1;
                    if limits.check(Limit::PliesPerLine, ply).is_err() {
                        return Err(PgnError::over(limits, Limit::PliesPerLine, Some(ply)));
                    }
                    if limits.check(Limit::NodesPerTree, tree.len() + 1).is_err() {
                        return Err(PgnError::over(limits, Limit::NodesPerTree, Some(ply)));
                    }
                    let mut pos = pos.clone();
                    pos.play_unchecked(m);
                    current = tree.add(current, m);
                    placed.push((pos, ply));
                }
            }
        }
        match c {
            None => break,
            Some('{') => {
                let mut comment = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(c) => comment.push(c),
                        None => return Err(PgnError::Unclosed { what: "comment", after: placed[current].1 }),
                    }
                }
                let comment = comment.split_whitespace().collect::<Vec<_>>().join(" ");
                let mut joined = tree.comment(current).to_string();
                if !joined.is_empty() && !comment.is_empty() {
                    joined.push(' ');
                }
                joined.push_str(&comment);
                tree.set_comment(current, joined);
            }
            Some(';') => {
                chars.by_ref().find(|&c| c == '\n');
            }
            // A variation is an alternative to the move just made.
            Some('(') => {
                if limits.check(Limit::VariationDepth, open.len() + 1).is_err() {
                    return Err(PgnError::over(limits, Limit::VariationDepth, Some(placed[current].1)));
                }
                open.push(current);
                current = tree.parent(current).unwrap_or(MoveTree::ROOT);
            }
            Some(')') => current = open.pop().unwrap_or(current),
            Some(c) if c.is_whitespace() || c == '}' => {}
            Some(c) => word.push(c),
        }
    }
    if let Some(&first) = open.first() {
        // The variation stands beside the move it was opened after.
        let after = placed[first].1.saturating_sub(1);
        return Err(PgnError::Unclosed { what: "variation", after });
    }
    Ok(())
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (key, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        value.push(if c == '\\' { chars.next()? } else { c });
    }
    Some((key.to_string(), value))
}

/// The move words of a movetext: comments, variations, annotations, move
/// numbers and results removed.
fn move_tokens(text: &str) -> Result<Vec<String>, PgnError> {
    let mut clean = String::new();
    let mut depth = 0usize;
    // Where the outermost open variation began in `clean`.
    let mut opened = 0;
    let moves_in = |clean: &str| clean.split_whitespace().filter_map(move_word).count();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                if !chars.by_ref().any(|c| c == '}') {
                    return Err(PgnError::Unclosed { what: "comment", after: moves_in(&clean) });
                }
                clean.push(' ');
            }
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                clean.push(' ');
            }
            '(' => {
                if depth == 0 {
                    opened = clean.len();
                }
                depth += 1;
            }
            ')' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            _ => clean.push(c),
        }
    }
    if depth > 0 {
        let after = moves_in(&clean[..opened]).saturating_sub(1);
        return Err(PgnError::Unclosed { what: "variation", after });
    }
    Ok(clean.split_whitespace().filter_map(move_word).collect())
}

/// The move in a word of movetext, if it holds one: results, numeric
/// annotations and move numbers are not moves.
fn move_word(word: &str) -> Option<String> {
    if is_result(word) || word.starts_with('$') {
        return None;
    }
    // "12." and "12..." are move numbers (in full-width digits and stops
    // too: "１２．"); "12.h2e2" carries a move after one. A leading number
    // without dots is part of a move (`15=6`).
    let is_digit = |c: char| c.is_ascii_digit() || ('０'..='９').contains(&c);
    let is_stop = |c: char| matches!(c, '.' | '．' | '。' | '、');
    let after_digits = word.trim_start_matches(is_digit);
    let word = if after_digits.len() < word.len() && after_digits.starts_with(is_stop) {
        after_digits.trim_start_matches(is_stop)
    } else {
        word
    };
    // Annotation marks after a move (`!`, `?!`) are not part of it.
    let word = word.trim_end_matches(['!', '?']);
    (!word.is_empty()).then(|| word.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_result_words_end_a_game_and_are_not_moves() {
        for word in ["红胜", "紅勝", "黑负", "黑方胜", "和棋", "和局", "和", "1-0", "*"] {
            assert!(is_result(word), "{word}");
        }
        for word in ["红", "炮二平五", "和棋局", "黑方"] {
            assert!(!is_result(word), "{word}");
        }
        let games = read_all("1. 炮二平五 马８进７ 红胜\n1. h2e2 *\n");
        assert_eq!(games.len(), 2, "a result word ends its game");
        assert_eq!(games[0].as_ref().map(|r| r.moves.len()).ok(), Some(2));
    }
}
