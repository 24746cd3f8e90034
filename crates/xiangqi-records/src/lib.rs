//! Game records in the file formats players keep, read by their content
//! rather than their file names, into one model: a [`Game`] is a record
//! (tags, the start position, the main line) with its whole tree of moves
//! (variations and comments).
//!
//! - PGN in every dialect the rules crate reads (ICCS, WXF, Chinese), in
//!   UTF-8, GBK/GB18030 or Big5 ([`encoding`] detects which);
//! - XQF, the binary format of XiangQi Wizard and its descendants ([`xqf`]);
//! - DhtmlXQ, the bracketed text of Chinese game sites and forums ([`dhtmlxq`]);
//! - CCBridge's CBF, CBR and CBL ([`ccbridge`]).
//!
//! [`ecco`] names a game's opening by the Chinese opening classification.
//!
//! Every reader holds to a table of [`Limits`] while it reads, and none
//! recurses on its input: a file of any shape costs time and memory in
//! proportion to its size.

pub mod ccbridge;
pub mod dhtmlxq;
pub mod ecco;
pub mod encoding;
pub mod xqf;

use thiserror::Error;

pub use encoding::Encoding;
pub use xiangqi::notation::{
    limits::{Limit, Limits},
    pgn::{PgnError, Record},
    tree::MoveTree,
};

/// One game read from a file: its record, whose `moves` are the tree's main
/// line, and the tree itself with every variation and comment.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub record: Record,
    pub tree: MoveTree,
}

impl Game {
    /// A game whose record's main line is taken from its tree.
    pub fn new(mut record: Record, tree: MoveTree) -> Game {
        record.moves = tree.main_line();
        Game { record, tree }
    }
}

/// Why one record of a file could not be read.
#[derive(Debug, Error)]
pub enum RecordError {
    /// The record's layout was read, but what it says is refused: a tag, the
    /// start position, a move (with its ply), or a limit passed.
    #[error(transparent)]
    Record(#[from] PgnError),
    /// The bytes do not hold the layout of their format at `offset` (from the
    /// start of the file), for the reason given.
    #[error("byte {offset}: {what}")]
    Layout { offset: usize, what: String },
    /// A move that cannot be read or played: the record up to it is `kept`.
    #[error("{error} (the {} moves before it are kept)", kept.tree.len() - 1)]
    Cut { kept: Box<Game>, error: PgnError },
}

impl RecordError {
    /// The game kept of a record cut short by a bad move.
    pub fn kept(&self) -> Option<&Game> {
        match self {
            RecordError::Cut { kept, .. } => Some(kept),
            _ => None,
        }
    }
}

/// The formats of record files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Pgn,
    Xqf,
    DhtmlXq,
    Cbf,
    Cbr,
    Cbl,
}

impl Format {
    /// The format's usual name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pgn => "PGN",
            Format::Xqf => "XQF",
            Format::DhtmlXq => "DhtmlXQ",
            Format::Cbf => "CBF",
            Format::Cbr => "CBR",
            Format::Cbl => "CBL",
        }
    }

    /// The format of a file, by its content: the binary formats by their
    /// signatures, then DhtmlXQ by its brackets in the decoded text; any
    /// other text is read as PGN (which reads a bare list of moves too).
    pub fn of(bytes: &[u8], text_encoding: Option<Encoding>) -> Format {
        if xqf::looks_like(bytes) {
            return Format::Xqf;
        }
        match ccbridge::kind(bytes) {
            Some(ccbridge::Kind::Cbf) => return Format::Cbf,
            Some(ccbridge::Kind::Cbr) => return Format::Cbr,
            Some(ccbridge::Kind::Cbl) => return Format::Cbl,
            None => {}
        }
        let text = encoding::decode(bytes, text_encoding).text;
        if dhtmlxq::looks_like(&text) { Format::DhtmlXq } else { Format::Pgn }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How to read a file.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    /// The encoding of a text file, when its reader knows better than the guess.
    pub encoding: Option<Encoding>,
    pub limits: Limits,
}

/// A file read: its format, the encoding of its text (for text formats),
/// and each of its records in file order, kept or refused.
#[derive(Debug)]
pub struct FileRead {
    pub format: Format,
    pub encoding: Option<Encoding>,
    pub games: Vec<Result<Game, RecordError>>,
}

/// Reads every record of a file of any format, within `options.limits`.
///
/// ```
/// use xiangqi_records::{Format, ReadOptions};
///
/// let (gbk, _, _) = encoding_rs::GBK.encode("[Red \"胡荣华\"]\n1. 炮二平五 马８进７ *\n");
/// let read = xiangqi_records::read_file(&gbk, &ReadOptions::default()).unwrap();
/// assert_eq!(read.format, Format::Pgn);
/// let game = read.games[0].as_ref().unwrap();
/// assert_eq!(game.record.tag("Red"), Some("胡荣华"));
/// assert_eq!(game.record.moves.len(), 2);
/// ```
///
/// # Errors
/// [`RecordError::Record`] with [`PgnError::OverLimit`] for a file over a
/// limit on a whole file (its bytes, games or moves), which is read no further.
pub fn read_file(bytes: &[u8], options: &ReadOptions) -> Result<FileRead, RecordError> {
    let limits = &options.limits;
    let over = |limit: Limit| PgnError::OverLimit { limit, allowed: limits.of(limit), ply: None };
    limits.check(Limit::FileBytes, bytes.len()).map_err(over)?;
    let format = Format::of(bytes, options.encoding);
    let one = |game: Result<Game, RecordError>| vec![game];
    let (encoding, games) = match format {
        Format::Xqf => (None, one(xqf::read(bytes, limits))),
        Format::Cbr => (None, one(ccbridge::read_cbr(bytes, limits))),
        Format::Cbf => (None, one(ccbridge::read_cbf(bytes, limits))),
        Format::Cbl => (None, ccbridge::cbl_games(bytes, *limits).collect()),
        Format::DhtmlXq => {
            let decoded = encoding::decode(bytes, options.encoding);
            (Some(decoded.encoding), dhtmlxq::read_all(&decoded.text, limits))
        }
        Format::Pgn => {
            let decoded = encoding::decode(bytes, options.encoding);
            xiangqi::notation::pgn::check_file(&decoded.text, limits)?;
            (Some(decoded.encoding), read_pgn(&decoded.text, limits))
        }
    };
    limits.check(Limit::GamesPerFile, games.len()).map_err(over)?;
    let nodes: usize = games
        .iter()
        .filter_map(|g| g.as_ref().ok().or(g.as_ref().err()?.kept()))
        .map(|g| g.tree.len() - 1)
        .sum();
    limits.check(Limit::NodesPerFile, nodes).map_err(over)?;
    Ok(FileRead { format, encoding, games })
}

/// Reads every record of a file as [`read_file`] does, handing each to
/// `each` in file order as it is read: a PGN text (the largest archives) is
/// read a game at a time, so a caller that writes each game out and drops it
/// holds the text and one game. The limits on a whole file are not applied;
/// those on each record are. The file's format and text encoding.
///
/// # Errors
/// None for now beyond what [`read_file`] says of a whole file; each
/// record's own error goes to `each`.
pub fn for_each_game(
    bytes: &[u8],
    options: &ReadOptions,
    mut each: impl FnMut(Result<Game, RecordError>),
) -> Result<(Format, Option<Encoding>), RecordError> {
    let format = Format::of(bytes, options.encoding);
    if format != Format::Pgn {
        let read = read_file(bytes, options)?;
        read.games.into_iter().for_each(each);
        return Ok((read.format, read.encoding));
    }
    let decoded = encoding::decode(bytes, options.encoding);
    for read in xiangqi::notation::pgn::trees_with(&decoded.text, &options.limits) {
        each(pgn_game(read));
    }
    Ok((format, Some(decoded.encoding)))
}

/// A game of a PGN text read with its tree, cut short where a move is refused.
fn pgn_game(read: Result<xiangqi::notation::pgn::TreeRead, PgnError>) -> Result<Game, RecordError> {
    let read = read?;
    let game = Game::new(read.record, read.tree);
    match read.cut {
        None => Ok(game),
        Some(error) => Err(RecordError::Cut { kept: Box::new(game), error }),
    }
}

/// The games of a PGN text, each with its tree.
fn read_pgn(text: &str, limits: &Limits) -> Vec<Result<Game, RecordError>> {
    xiangqi::notation::pgn::trees_with(text, limits).map(pgn_game).collect()
}
