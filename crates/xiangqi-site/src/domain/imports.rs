//! Games imported from record files into a user's own collection, in any
//! format players keep (PGN in every dialect and encoding, XQF, DhtmlXQ,
//! CCBridge), read by content by `xiangqi_records`. An imported record is
//! history: it is replayed for legality only, and what the rule set would have
//! judged on the way (a repetition, a perpetual check or chase) is noted with
//! its ply rather than refused. Each game keeps its whole tree of moves; a
//! game with a move that cannot be played keeps the moves before it. A record
//! imported again is recognised by its digest and neither kept nor counted
//! twice. The games kept are written in one transaction and counted in the
//! owner's own opening explorer (games with a result only).

use sha2::{Digest, Sha256};
use xiangqi::{
    AnyGame, Color, Reason, RuleSet, Variant,
    history::{self, Verdict},
    notation::{
        limits::{Limit, Limits},
        pgn::{self, PgnError},
        tree::MoveTree,
    },
};
use xiangqi_records::{Encoding, FileRead, Format, Game, ReadOptions, RecordError};

use std::{net::IpAddr, sync::Arc};

use super::{
    accounts::new_id,
    analysis::{Step, step},
    board::Board,
    explorer::PLIES,
    masters::Masters,
    refusal::{Error, Illegality, Refusal, Result},
};

use crate::model::explorer::ImportedRecord;
use crate::model::page::{Page, Paged};
use crate::model::{explorer::Speed, named_enum};
use crate::parsing::ParsePool;
use crate::store::{Explored, Store};

/// The largest file one upload may be, in bytes: the record limits' bytes per file.
pub const MAX_BYTES: usize = Limits::SITE.file_bytes;
/// The most games one upload may hold: the record limits' games per file.
pub const MAX_GAMES: usize = Limits::SITE.games_per_file;
/// The most imported games one user may keep.
pub const MAX_KEPT: i64 = 20_000;
/// The limits an upload is read within: the site's, but a record's tree may
/// be as large as a file's moves, since one record of an opening book holds
/// thousands of variations.
pub const LIMITS: Limits = Limits { nodes_per_tree: Limits::SITE.nodes_per_file, ..Limits::SITE };
/// The refusal of an upload over [`MAX_BYTES`] or [`MAX_GAMES`].
pub fn too_large() -> Refusal {
    Refusal::ImportTooLarge { max_kib: (MAX_BYTES / 1024) as u32, max_games: MAX_GAMES as u32 }
}

/// How many imported games one transaction of a deletion of all takes.
const DELETE_PAGE: u32 = Page::MAX;

/// The longest a tag kept from a record (a player's name, the event) may be, in characters.
const TAG_CHARS: usize = 100;

named_enum! {
    /// Why a game of an imported file was refused.
    "why an imported game was refused" ImportProblem {
        /// A tag line that cannot be read.
        Tag = "tag",
        /// The FEN tag names no position the rules accept.
        Fen = "fen",
        /// A move cannot be read, or is illegal where it is played.
        Move = "move",
        /// A comment or variation is not closed.
        Unclosed = "unclosed",
        /// A record of another board than the standard one.
        Variant = "variant",
        /// The record passes a record limit (its line is too long).
        Limit = "limit",
        /// The record holds no move.
        Empty = "empty",
        /// The bytes of a binary record do not hold its format's layout.
        Layout = "layout",
    }
}

named_enum! {
    /// The formats of record files, as the importer tells them by content.
    "a record file format" RecordFormat {
        Pgn = "pgn",
        Xqf = "xqf",
        DhtmlXq = "dhtml_xq",
        /// CCBridge's XML record.
        Cbf = "cbf",
        /// CCBridge's binary record.
        Cbr = "cbr",
        /// CCBridge's library of records.
        Cbl = "cbl",
    }
}

impl From<Format> for RecordFormat {
    fn from(f: Format) -> Self {
        match f {
            Format::Pgn => RecordFormat::Pgn,
            Format::Xqf => RecordFormat::Xqf,
            Format::DhtmlXq => RecordFormat::DhtmlXq,
            Format::Cbf => RecordFormat::Cbf,
            Format::Cbr => RecordFormat::Cbr,
            Format::Cbl => RecordFormat::Cbl,
        }
    }
}

named_enum! {
    /// What a rule set would have said at a move of an imported record.
    "what a rule set would have judged" Judgement {
        /// The game would have ended with this move (see the outcome).
        Ended = "ended",
        /// The move would have been refused: the same piece checking a fourth time in a row.
        FourthCheck = "fourth_check",
        /// The move would have been refused: a chase back and forth between two points.
        TwoPointChase = "two_point_chase",
    }
}

/// A verdict the rule set gives at a ply of an imported record, which the
/// players played on from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Noted {
    /// The move it fell on, 1 for the record's first.
    pub ply: u32,
    pub judgement: Judgement,
    /// How the game would have ended, for [`Judgement::Ended`].
    pub outcome: Option<xiangqi::Outcome>,
}

impl Noted {
    fn of(j: &history::Judged) -> Noted {
        let ply = j.ply as u32;
        match j.verdict {
            Verdict::Ended(o) => Noted { ply, judgement: Judgement::Ended, outcome: Some(o) },
            Verdict::Forbidden(xiangqi::Forbidden::FourthCheck) => {
                Noted { ply, judgement: Judgement::FourthCheck, outcome: None }
            }
            Verdict::Forbidden(xiangqi::Forbidden::TwoPointChase) => {
                Noted { ply, judgement: Judgement::TwoPointChase, outcome: None }
            }
        }
    }

    /// The verdicts as a row keeps them: `ply:judgement[:reason:winner]`, one
    /// per verdict, separated by spaces (`8:ended:repetition:-`).
    pub fn write_all(noted: &[Noted]) -> String {
        use crate::model::Named;
        noted
            .iter()
            .map(|n| match n.outcome {
                Some(o) => format!(
                    "{}:{}:{}:{}",
                    n.ply,
                    n.judgement.name(),
                    o.reason.name(),
                    o.winner.map_or("-", Color::name)
                ),
                None => format!("{}:{}", n.ply, n.judgement.name()),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Reads [`Noted::write_all`]'s form back; a part it cannot read is dropped.
    pub fn read_all(text: &str) -> Vec<Noted> {
        use crate::model::Named;
        text.split_whitespace()
            .filter_map(|part| {
                let mut fields = part.split(':');
                let ply = fields.next()?.parse().ok()?;
                let judgement = Judgement::all().iter().copied().find(|j| Some(j.name()) == fields.next())?;
                let outcome = match (fields.next(), fields.next()) {
                    (Some(reason), Some(winner)) => Some(xiangqi::Outcome {
                        reason: reason.parse::<Reason>().ok()?,
                        winner: match winner {
                            "-" => None,
                            w => Some(*Color::ALL.iter().find(|c| c.name() == w)?),
                        },
                    }),
                    _ => None,
                };
                Some(Noted { ply, judgement, outcome })
            })
            .collect()
    }
}

/// A game of a file that was refused, or cut short at a move.
#[derive(Clone, Debug)]
pub struct Refused {
    /// Its place in the file, from 1.
    pub number: u32,
    pub red: String,
    pub black: String,
    pub problem: ImportProblem,
    /// The move refused: its number (ply, from 1), its number as the record
    /// writes it (`2.` for Red's second move, `2...` for Black's), its text and why.
    pub ply: Option<u32>,
    pub label: Option<String>,
    pub text: Option<String>,
    pub why: Option<Illegality>,
    /// The moves before the refused one were kept, as a game of the collection.
    pub cut: bool,
    /// The reason in English.
    pub detail: String,
}

/// How far the reading of an upload has come: records replayed of those the
/// file holds (0 of 0 while the file itself is being read), for a page that
/// shows it as it goes.
#[derive(Debug, Default)]
pub struct Progress {
    checked: std::sync::atomic::AtomicU32,
    total: std::sync::atomic::AtomicU32,
}

impl Progress {
    /// Records replayed, and records in the file.
    pub fn get(&self) -> (u32, u32) {
        use std::sync::atomic::Ordering::Relaxed;
        (self.checked.load(Relaxed), self.total.load(Relaxed))
    }

    fn set_total(&self, n: usize) {
        self.total.store(u32::try_from(n).unwrap_or(u32::MAX), std::sync::atomic::Ordering::Relaxed);
    }

    fn one_more(&self) {
        self.checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// What came of an upload.
#[derive(Clone, Debug)]
pub struct ImportReport {
    /// The file's format and, for a text format, its encoding.
    pub format: Format,
    pub encoding: Option<Encoding>,
    pub kept: Vec<ImportedRecord>,
    /// Records of the file that were in the collection already (imported
    /// before, or twice in the file): neither kept nor counted again.
    pub duplicates: u32,
    pub refused: Vec<Refused>,
}

/// The tag blocks of a PGN text, one per game, in order: a game starts at a
/// tag line that comes after moves (or at the first tag line). Only the
/// players' names of a game that cannot be read are taken from these.
fn tag_blocks(text: &str) -> Vec<Vec<(String, String)>> {
    let mut games: Vec<Vec<(String, String)>> = Vec::new();
    let mut in_moves = true;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            if in_moves {
                games.push(Vec::new());
                in_moves = false;
            }
            let inner = trimmed.trim_start_matches('[').trim_end_matches(']');
            if let (Some((key, value)), Some(game)) =
                (inner.split_once(char::is_whitespace), games.last_mut())
            {
                game.push((key.to_string(), value.trim().trim_matches('"').to_string()));
            }
        } else if !trimmed.is_empty() {
            in_moves = true;
        }
    }
    games
}

/// The names tags give Red and Black, in English and Chinese.
const RED: [&str; 3] = ["Red", "红方", "紅方"];
const BLACK: [&str; 2] = ["Black", "黑方"];

/// A tag's value fit to keep: control characters (NUL among them, which a
/// database text cannot hold) dropped, cut to [`TAG_CHARS`], `?` when empty.
fn clean_tag(value: Option<&str>) -> String {
    let value: String =
        value.unwrap_or("").trim().chars().filter(|c| !c.is_control()).take(TAG_CHARS).collect();
    if value.is_empty() { "?".to_string() } else { value }
}

/// The players a tag block names, `?` where it does not.
fn named_players(tags: Option<&Vec<(String, String)>>) -> (String, String) {
    let find = |names: &[&str]| {
        clean_tag(
            tags.and_then(|t| t.iter().find(|(k, _)| names.contains(&k.as_str()))).map(|(_, v)| v.as_str()),
        )
    };
    (find(&RED), find(&BLACK))
}

/// A tag's value under any of its names, cleaned.
fn tag(record: &Record, names: &[&str]) -> String {
    clean_tag(names.iter().find_map(|n| record.tag(n)))
}

/// The players' names of a record, in English or Chinese tag names.
pub(crate) fn players(record: &Record) -> (String, String) {
    (tag(record, &RED), tag(record, &BLACK))
}

type Record = xiangqi::notation::pgn::Record;

fn refused_of(number: u32, (red, black): (String, String), e: &PgnError) -> Refused {
    let mut r = Refused {
        number,
        red,
        black,
        problem: ImportProblem::Move,
        ply: None,
        label: None,
        text: None,
        why: None,
        cut: false,
        detail: e.to_string(),
    };
    match e {
        PgnError::Tag { .. } => r.problem = ImportProblem::Tag,
        PgnError::Fen(_) => r.problem = ImportProblem::Fen,
        PgnError::Unclosed { .. } => r.problem = ImportProblem::Unclosed,
        PgnError::Variant(_) => r.problem = ImportProblem::Variant,
        PgnError::OverLimit { ply, .. } => {
            r.problem = ImportProblem::Limit;
            r.ply = ply.and_then(|p| u32::try_from(p).ok());
        }
        PgnError::Move { ply, number, red, text, source } => {
            r.ply = Some(*ply as u32);
            r.label = Some(format!("{number}{}", if *red { "." } else { "..." }));
            r.text = Some(text.clone());
            r.why = Some(Illegality::from(source.as_ref()));
        }
    }
    r
}

/// A record of a file that was not kept whole, named by its players where
/// they can be told.
pub(crate) fn refused_record(number: u32, players: (String, String), e: &RecordError) -> Refused {
    match e {
        RecordError::Record(e) => refused_of(number, players, e),
        RecordError::Cut { error, kept } => {
            Refused { cut: !kept.record.moves.is_empty(), ..refused_of(number, players, error) }
        }
        RecordError::Layout { .. } => Refused {
            number,
            red: players.0,
            black: players.1,
            problem: ImportProblem::Layout,
            ply: None,
            label: None,
            text: None,
            why: None,
            cut: false,
            detail: e.to_string(),
        },
    }
}

/// The outcome a result as written names: `Some(None)` for a draw, none
/// when it names none. Records write results in PGN's signs or in words
/// (`红胜`, `黑負`, `和棋`).
fn winner_of(result: &str) -> Option<Option<Color>> {
    let result = result.trim();
    match result {
        "1-0" => return Some(Some(Color::Red)),
        "0-1" => return Some(Some(Color::Black)),
        "1/2-1/2" | "½-½" | "0.5-0.5" => return Some(None),
        _ => {}
    }
    let won = result.contains(['胜', '勝']);
    let lost = result.contains(['负', '負']);
    let red = result.starts_with(['红', '紅']);
    let black = result.starts_with('黑');
    match (red, black, won, lost) {
        (true, _, true, _) | (_, true, _, true) => Some(Some(Color::Red)),
        (_, true, true, _) | (true, _, _, true) => Some(Some(Color::Black)),
        _ if result.starts_with('和') => Some(None),
        _ => None,
    }
}

/// What a kept game gives its owner's explorer: its opening, if its result is known.
fn explored(row: &ImportedRecord, game: &Board) -> Option<Explored> {
    let (steps, reached) = game.opening(PLIES);
    winner_of(&row.result).map(|_| Explored { rules: row.rules, speed: Speed::Other, steps, reached })
}

/// A kept game replayed from its row, with what it gave its owner's explorer.
fn replayed(row: ImportedRecord) -> Result<(ImportedRecord, Option<Explored>)> {
    let broken = |why: String| Error::broken(format!("imported game {}: {why}", row.id));
    let mut board = Board::record_from_fen(Variant::Standard, &row.start_fen, row.rules).map_err(broken)?;
    // The explorer counts a game's first plies only.
    for m in row.moves.split_whitespace().take(PLIES) {
        board.play_name(m).map_err(broken)?;
    }
    let explored = explored(&row, &board);
    Ok((row, explored))
}

/// The digest that tells a record imported again: its tags, start and whole
/// tree as written.
fn digest(record_text: &str) -> String {
    Sha256::digest(record_text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// A game read, replayed as history: kept with what it gives its owner's
/// explorer, or refused.
pub(crate) fn check(
    owner: &str,
    number: u32,
    game: &Game,
    now: i64,
) -> std::result::Result<(ImportedRecord, Option<Explored>), Box<Refused>> {
    let record = &game.record;
    let refuse = |problem, detail: String| {
        let (red, black) = players(record);
        let (ply, label, text, why, cut) = (None, None, None, None, false);
        Box::new(Refused { number, red, black, problem, ply, label, text, why, cut, detail })
    };
    if record.moves.is_empty() {
        return Err(refuse(ImportProblem::Empty, "the record holds no move".into()));
    }
    let rules = record.tag("RuleSet").and_then(|r| r.parse::<RuleSet>().ok()).unwrap_or(RuleSet::Asian);
    let rules = if super::board::rules_fit(Variant::Standard, rules) { rules } else { RuleSet::Asian };
    let replayed =
        record.history(Some(rules)).map_err(|e| Box::new(refused_of(number, players(record), &e)))?;
    let start_fen = record.start.to_fen();
    // The history replay checked every move; the names need the positions
    // alone, and the explorer the first plies on a board.
    let mut at = record.start.clone();
    let iccs: Vec<String> = record
        .moves
        .iter()
        .map(|&m| {
            let name = pgn::Format::Iccs.write(&at, m);
            at.play_unchecked(m);
            name
        })
        .collect();
    let mut board = Board::record_from_fen(Variant::Standard, &start_fen, rules)
        .map_err(|detail| refuse(ImportProblem::Fen, detail))?;
    for &m in record.moves.iter().take(PLIES) {
        board.play(m).map_err(|detail| refuse(ImportProblem::Move, detail))?;
    }
    let written = clean_tag(["Result", "结果", "結果"].iter().find_map(|n| record.tag(n)));
    let winner = winner_of(&written);
    let result = if winner.is_some() { written } else { "*".to_string() };
    let (red, black) = players(record);
    let elo =
        |n: &str| record.tag(n).and_then(|v| v.trim().parse::<i64>().ok()).filter(|r| (1..4000).contains(r));
    // NUL cannot be stored in a database text, and no record means one.
    let text = pgn::write_tree(record, &game.tree, pgn::Format::Iccs).replace('\0', "");
    let row = ImportedRecord {
        id: new_id(),
        owner: owner.to_string(),
        red,
        black,
        event: tag(record, &["Event", "赛事", "賽事"]),
        date: tag(record, &["Date", "日期"]),
        rules,
        start_fen,
        winner: winner.flatten(),
        result,
        ply: iccs.len() as i64,
        moves: iccs.join(" "),
        rating: match (elo("RedElo"), elo("BlackElo")) {
            (Some(r), Some(b)) => Some((r + b) / 2),
            _ => None,
        },
        judged: Noted::write_all(&replayed.judged.iter().map(Noted::of).collect::<Vec<_>>()),
        digest: Some(digest(&text)),
        ecco: Some(
            xiangqi_records::ecco::classify(&record.start, &record.moves)
                .map_or_else(String::new, |o| o.code.to_string()),
        ),
        record: text,
        created_ms: now,
    };
    let explored = explored(&row, &board);
    Ok((row, explored))
}

/// What a file gives: its format and encoding, the games kept with what each
/// gives its owner's explorer, and those refused.
pub(crate) struct Read {
    pub format: Format,
    pub encoding: Option<Encoding>,
    pub kept: Vec<(ImportedRecord, Option<Explored>)>,
    pub refused: Vec<Refused>,
}

/// Reads and checks every game of a file for `owner`: the heavy part of an
/// import, run in the parsing pool. The file as a whole is measured before
/// any of its games is kept.
pub(crate) fn read_file(
    owner: &str,
    bytes: &[u8],
    encoding: Option<Encoding>,
    now: i64,
    progress: &Progress,
) -> Result<Read> {
    let options = ReadOptions { encoding, limits: LIMITS };
    let FileRead { format, encoding, games } =
        xiangqi_records::read_file(bytes, &options).map_err(|e| match e {
            RecordError::Record(PgnError::OverLimit {
                limit: Limit::FileBytes | Limit::GamesPerFile,
                ..
            }) => too_large(),
            RecordError::Record(other) => Refusal::from_pgn(other),
            other => Refusal::BadPgn { detail: other.to_string() },
        })?;
    if games.is_empty() {
        return Err(Refusal::NoRecords { format: format.name().to_string() }.into());
    }
    progress.set_total(games.len());
    // The names of PGN games that cannot be read, where the tag blocks line up with the games.
    let blocks = match (format, encoding) {
        (Format::Pgn, Some(e)) => tag_blocks(&xiangqi_records::encoding::decode(bytes, Some(e)).text),
        _ => Vec::new(),
    };
    let blocks = if blocks.len() == games.len() { blocks } else { Vec::new() };
    let mut kept = Vec::new();
    let mut refused = Vec::new();
    for (i, read) in games.iter().enumerate() {
        progress.one_more();
        let number = i as u32 + 1;
        let whole = match read {
            Ok(game) => Some(game),
            Err(e) => {
                let names =
                    e.kept().map(|g| players(&g.record)).unwrap_or_else(|| named_players(blocks.get(i)));
                refused.push(refused_record(number, names, e));
                e.kept().filter(|g| !g.record.moves.is_empty())
            }
        };
        if let Some(game) = whole {
            match check(owner, number, game, now) {
                Ok(game) => kept.push(game),
                Err(r) => refused.push(*r),
            }
        }
    }
    refused.sort_by_key(|r| r.number);
    Ok(Read { format, encoding, kept, refused })
}

/// The most positions of an imported record's tree that its page is given:
/// an opening book of many thousand variations shows its first ones, and its
/// file (which holds them all) is a download away.
pub const TREE_POSITIONS: usize = 2_000;

/// A position of an imported record's tree, placed: the position its parent
/// (by place in [`PlacedRecord::steps`]) reached after the move, and the
/// comment written after that move (before the first move, at the start).
pub struct PlacedStep {
    pub parent: Option<u32>,
    pub step: Step,
    pub comment: String,
}

/// An imported game as its page shows it: its row, and its tree's positions
/// in order, each after its parent (at most [`TREE_POSITIONS`]).
pub struct PlacedRecord {
    pub row: ImportedRecord,
    pub steps: Vec<PlacedStep>,
    /// Whether the tree has more positions than `steps` holds.
    pub cut: bool,
}

/// An imported game's record and tree as kept: its whole record read back,
/// or, for a game kept before records were (or one whose record no longer
/// reads), its main line with the tags its row holds.
pub(crate) fn kept_game(row: &ImportedRecord) -> Result<xiangqi_records::Game> {
    if !row.record.is_empty() {
        match pgn::read_tree_with(&row.record, &LIMITS) {
            Ok((record, tree)) => return Ok(xiangqi_records::Game::new(record, tree)),
            Err(e) => tracing::warn!(
                "imported game {}: its record does not read back ({e}): main line only",
                row.id
            ),
        }
    }
    let broken = |why: String| Error::broken(format!("imported game {}: {why}", row.id));
    let rules =
        if super::board::rules_fit(Variant::Standard, row.rules) { row.rules } else { RuleSet::Asian };
    let mut board = Board::record_from_fen(Variant::Standard, &row.start_fen, rules).map_err(broken)?;
    for m in row.moves.split_whitespace() {
        board.play_name(m).map_err(broken)?;
    }
    let AnyGame::Standard(game) = &*board else {
        return Err(broken("not on the standard board".into()));
    };
    let mut record = Record::from_game(game);
    for (name, value) in [
        ("Event", &row.event),
        ("Date", &row.date),
        ("Red", &row.red),
        ("Black", &row.black),
        ("Result", &row.result),
    ] {
        record.set_tag(name, value);
    }
    let tree = MoveTree::line(&record.moves);
    Ok(xiangqi_records::Game::new(record, tree))
}

/// Every position of an imported game's tree, walked in order on one board
/// that takes moves back to each branch's parent, so a tree of `n` positions
/// costs `n` moves played and at most as many taken back, whatever its shape.
/// Moves are replayed as history: only a move the board refuses ends its line.
pub(crate) fn placed(row: ImportedRecord) -> Result<PlacedRecord> {
    let game = kept_game(&row)?;
    let broken = |why: String| Error::broken(format!("imported game {}: {why}", row.id));
    let rules =
        if super::board::rules_fit(Variant::Standard, row.rules) { row.rules } else { RuleSet::Asian };
    let mut board = Board::record_from_fen(Variant::Standard, &row.start_fen, rules).map_err(broken)?;
    let tree = &game.tree;
    // Where each node of the record's tree stands in `steps`, once placed.
    let mut place: Vec<Option<u32>> = vec![None; tree.len()];
    // The nodes whose moves are on the board now, from the root.
    let mut path: Vec<usize> = Vec::new();
    let mut steps = Vec::new();
    let mut cut = false;
    for id in tree.preorder() {
        let Some(parent) = tree.parent(id) else {
            place[id] = Some(0);
            path.push(id);
            steps.push(PlacedStep {
                parent: None,
                step: step(&board, None),
                comment: tree.comment(id).to_string(),
            });
            continue;
        };
        let (Some(at), Some(mv)) = (place[parent], tree.mv(id)) else { continue };
        if steps.len() >= TREE_POSITIONS {
            cut = true;
            break;
        }
        while path.last().is_some_and(|&p| p != parent) {
            path.pop();
            board.undo();
        }
        let names = board.names(mv);
        if board.play(mv).is_err() {
            continue;
        }
        path.push(id);
        place[id] = Some(u32::try_from(steps.len()).unwrap_or(u32::MAX));
        steps.push(PlacedStep {
            parent: Some(at),
            step: step(&board, Some(names)),
            comment: tree.comment(id).to_string(),
        });
    }
    Ok(PlacedRecord { row, steps, cut })
}

/// Users' imported game records: reading files, keeping and deleting them.
pub struct Imports {
    store: Store,
    parsing: Arc<ParsePool>,
    masters: Arc<Masters>,
}

impl Imports {
    pub fn new(store: Store, parsing: Arc<ParsePool>, masters: Arc<Masters>) -> Self {
        Imports { store, parsing, masters }
    }

    /// Imports the games of a record file of any format into `user`'s
    /// collection: every game replayed, those refused named, the rest kept
    /// together and those already kept skipped. The file is read in the
    /// parsing pool, in a turn of `client`'s share; `encoding` overrides the
    /// guess for a text file.
    pub async fn import_records(
        &self,
        user: &str,
        client: IpAddr,
        bytes: Vec<u8>,
        encoding: Option<Encoding>,
        now: i64,
        progress: std::sync::Arc<Progress>,
    ) -> Result<ImportReport> {
        if bytes.len() > MAX_BYTES {
            return Err(too_large().into());
        }
        let owner = user.to_string();
        let read =
            self.parsing.run(client, move || read_file(&owner, &bytes, encoding, now, &progress)).await??;
        // One upload of a user at a time counts and writes: two at once cannot
        // both pass the cap.
        let held = self.store.exclusive(&format!("xiangqi:imports:{user}")).await?;
        let written = async {
            let stored = self.store.imported_count(user).await?;
            if stored + read.kept.len() as i64 > MAX_KEPT {
                return Err(Refusal::ImportsFull { allowed: MAX_KEPT as u32, stored }.into());
            }
            Ok::<_, super::refusal::Error>(self.store.import_games(&read.kept).await?)
        }
        .await;
        held.release().await;
        let fresh = written?;
        let duplicates = (read.kept.len() - fresh.len()) as u32;
        Ok(ImportReport {
            format: read.format,
            encoding: read.encoding,
            kept: fresh,
            duplicates,
            refused: read.refused,
        })
    }

    /// A page of `user`'s imported games, newest first.
    pub async fn imported_games(&self, user: &str, page: &Page) -> Result<Paged<ImportedRecord>> {
        Ok(self.store.imported_games(user, page).await?)
    }

    /// Deletes one of `user`'s imported games, and what it gave their explorer.
    pub async fn delete_imported(&self, user: &str, id: &str) -> Result<()> {
        let game = replayed(self.imported_game(user, id).await?)?;
        match self.store.forget_imported(user, &[game]).await? {
            0 => Err(Refusal::NoGame { id: id.to_string() }.into()),
            _ => Ok(()),
        }
    }

    /// Deletes all of `user`'s imported games, a page at a time (each page
    /// with what it gave the explorer, together): how many there were.
    pub async fn delete_all_imported(&self, user: &str) -> Result<u64> {
        let mut deleted = 0;
        loop {
            let page = self.store.imported_games(user, &Page::first(DELETE_PAGE)).await?;
            if page.items.is_empty() {
                return Ok(deleted);
            }
            let games = page.items.into_iter().map(replayed).collect::<Result<Vec<_>>>()?;
            deleted += self.store.forget_imported(user, &games).await?;
        }
    }

    /// One of `user`'s imported games with its tree placed for its page, in
    /// `client`'s share of the parsing pool (a record may hold a file's moves).
    pub async fn imported_placed(&self, client: IpAddr, user: &str, id: &str) -> Result<PlacedRecord> {
        let row = self.imported_game(user, id).await?;
        self.parsing.run(client, move || placed(row)).await?
    }

    /// A game of the Masters collection with its tree placed, as [`Self::imported_placed`].
    pub async fn masters_placed(&self, client: IpAddr, id: &str) -> Result<PlacedRecord> {
        let row = self.masters.masters_game(id).await?;
        self.parsing.run(client, move || placed(row)).await?
    }

    /// One of `user`'s imported games (only its owner sees it).
    pub async fn imported_game(&self, user: &str, id: &str) -> Result<ImportedRecord> {
        match self.store.imported_game(id).await? {
            Some(g) if g.owner == user => Ok(g),
            _ => Err(Refusal::NoGame { id: id.to_string() }.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_s_tag_blocks_name_its_games_players() {
        let text = "[Game \"Chinese Chess\"]\n[Red \"a\"]\n\n1. h2e2 h9g7 1-0\n\n[Game \"Chinese Chess\"]\n[黑方 \"乙\"]\n1. h2e2 *\n";
        let blocks = tag_blocks(text);
        assert_eq!(blocks.len(), 2);
        assert_eq!(named_players(blocks.first()), ("a".to_string(), "?".to_string()));
        assert_eq!(named_players(blocks.get(1)), ("?".to_string(), "乙".to_string()));
        assert_eq!(pgn::read_all(text).len(), 2);
    }

    #[test]
    fn a_bad_game_is_named_with_its_move() {
        let text = "[Red \"x\"]\n1. h2e2 h9g7 2. a0a5 1-0\n";
        let games = pgn::read_all(text);
        let Err(e) = &games[0] else { panic!("a rook cannot jump") };
        let r = refused_of(1, ("x".into(), "y".into()), e);
        assert_eq!(r.problem, ImportProblem::Move);
        assert_eq!(r.ply, Some(3));
    }

    /// A kept game of a record written as PGN.
    fn kept(text: &str) -> ImportedRecord {
        let read = read_file("me", text.as_bytes(), None, 0, &Progress::default()).unwrap();
        assert!(read.refused.is_empty(), "{:?}", read.refused);
        read.kept.into_iter().next().unwrap().0
    }

    #[test]
    fn a_tree_is_placed_in_order_on_one_board_taken_back_to_each_branch() {
        // Two variations from Black's first move, one nested in the other's line.
        let row = kept("1. h2e2 h9g7 (1... b9c7 2. h0g2 (2. b0c2 {both knights})) 2. h0g2 b9c7 *\n");
        let placed = placed(row).unwrap();
        let shape: Vec<(Option<u32>, String, String)> = placed
            .steps
            .iter()
            .map(|s| {
                (
                    s.parent,
                    s.step.played.as_ref().map_or(String::new(), |n| n.iccs.clone()),
                    s.comment.clone(),
                )
            })
            .collect();
        let at = |p: u32, m: &str| (Some(p), m.to_string(), String::new());
        assert_eq!(
            shape,
            [
                (None, String::new(), String::new()),
                at(0, "h2e2"),
                at(1, "h9g7"),
                at(2, "h0g2"),
                at(3, "b9c7"),
                at(1, "b9c7"),
                at(5, "h0g2"),
                (Some(5), "b0c2".to_string(), "both knights".to_string()),
            ]
        );
        // Each position is the one its line reaches, not the last line's.
        let fen_after = |moves: &[&str]| {
            let mut b = Board::startpos(Variant::Standard, RuleSet::Asian).unwrap();
            for m in moves {
                b.play_name(m).unwrap();
            }
            b.fen()
        };
        assert_eq!(placed.steps[7].step.fen, fen_after(&["h2e2", "b9c7", "b0c2"]));
        assert_eq!(placed.steps[4].step.fen, fen_after(&["h2e2", "h9g7", "h0g2", "b9c7"]));
        assert!(!placed.cut);
    }

    #[test]
    fn a_tree_larger_than_a_page_shows_is_cut_and_says_so() {
        // Knights out and back: a main line of 1,600 plies, and a variation
        // of two moves from each of its first 300 positions.
        let shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"];
        let mut text = String::new();
        for i in 0..1_600 {
            text.push_str(shuffle[i % 4]);
            text.push(' ');
            if i < 300 {
                let (a, b) = if i % 2 == 0 { ("b0c2", "b9c7") } else { ("b9c7", "b0c2") };
                text.push_str(&format!("({a} {b}) "));
            }
        }
        text.push('*');
        let placed = placed(kept(&text)).unwrap();
        assert_eq!(placed.steps.len(), TREE_POSITIONS);
        assert!(placed.cut);
        assert!(placed.steps.iter().skip(1).all(|s| s.parent.is_some_and(|p| (p as usize) < TREE_POSITIONS)));
    }
}
