//! What a reader of game records accepts: one table, quoted by every reader
//! (PGN here, the server's importers and study chapters) and by the README.
//!
//! Each limit bounds work or memory that a record's author chooses: a line of
//! moves is replayed with repetition bookkeeping, a tree is held node by node,
//! a file is read game by game. The bounds sit far above any real record (the
//! longest master games run to a few hundred plies) and low enough that one
//! record cannot hold a reader for long. Readers check them while reading, so
//! nothing over a limit is ever built in full.

use std::fmt;

/// Which limit of [`Limits`] a record passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// Bytes of a record sent in an ordinary request (a study chapter, an analysis).
    RequestBytes,
    /// Bytes of one uploaded file of records.
    FileBytes,
    /// Games in one file.
    GamesPerFile,
    /// Moves in one line, the main line or a variation, counted from the start.
    PliesPerLine,
    /// Variations opened inside variations.
    VariationDepth,
    /// Positions in one tree of moves, its start included.
    NodesPerTree,
    /// Moves in one file, over all its games and variations.
    NodesPerFile,
}

impl Limit {
    /// The limit's name in the README's table, for messages and logs.
    pub fn name(self) -> &'static str {
        match self {
            Limit::RequestBytes => "bytes per request",
            Limit::FileBytes => "bytes per file",
            Limit::GamesPerFile => "games per file",
            Limit::PliesPerLine => "plies per line",
            Limit::VariationDepth => "variation depth",
            Limit::NodesPerTree => "nodes per tree",
            Limit::NodesPerFile => "nodes per file",
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The bounds on records, one field per [`Limit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// See [`Limit::RequestBytes`].
    pub request_bytes: usize,
    /// See [`Limit::FileBytes`].
    pub file_bytes: usize,
    /// See [`Limit::GamesPerFile`].
    pub games_per_file: usize,
    /// See [`Limit::PliesPerLine`].
    pub plies_per_line: usize,
    /// See [`Limit::VariationDepth`].
    pub variation_depth: usize,
    /// See [`Limit::NodesPerTree`].
    pub nodes_per_tree: usize,
    /// See [`Limit::NodesPerFile`].
    pub nodes_per_file: usize,
}

impl Limits {
    /// The site's limits, which the readers of this crate apply unless told otherwise.
    pub const SITE: Limits = Limits {
        request_bytes: 64 * 1024,
        file_bytes: 2 * 1024 * 1024,
        games_per_file: 2_000,
        plies_per_line: 2_000,
        variation_depth: 32,
        nodes_per_tree: 1_000,
        nodes_per_file: 400_000,
    };

    /// The limits for reading a person's own archive on their own machine
    /// (`xiangqi convert`, an administrator's masters import): files of any
    /// size and number of games, each game still bounded: a line as long as
    /// the site allows, and a tree as large as an opening book of a few
    /// million positions. Readers that go a game at a time (a PGN text by
    /// `pgn::trees_with`, a CCBridge library) hold one game's tree at once.
    pub const ARCHIVE: Limits = Limits {
        request_bytes: Limits::SITE.request_bytes,
        file_bytes: usize::MAX,
        games_per_file: usize::MAX,
        plies_per_line: Limits::SITE.plies_per_line,
        variation_depth: 1_000,
        nodes_per_tree: 4_000_000,
        nodes_per_file: usize::MAX,
    };

    /// The bound a limit stands at.
    pub fn of(&self, limit: Limit) -> usize {
        match limit {
            Limit::RequestBytes => self.request_bytes,
            Limit::FileBytes => self.file_bytes,
            Limit::GamesPerFile => self.games_per_file,
            Limit::PliesPerLine => self.plies_per_line,
            Limit::VariationDepth => self.variation_depth,
            Limit::NodesPerTree => self.nodes_per_tree,
            Limit::NodesPerFile => self.nodes_per_file,
        }
    }

    /// `Err(limit)` when `count` passes it.
    pub fn check(&self, limit: Limit, count: usize) -> Result<(), Limit> {
        if count > self.of(limit) { Err(limit) } else { Ok(()) }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::SITE
    }
}
