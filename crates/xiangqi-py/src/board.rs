//! What the classes share about boards: a position on a board chosen at run
//! time, the names of variants, rule sets and notations, and the square grid
//! that arrays and move indices use.

use std::sync::OnceLock;

use pyo3::{exceptions::PyValueError, prelude::*};
use xiangqi::{
    Cell, FenError, Hex, Move, MoveError, Position, RuleSet, Standard, Variant,
    notation::{self, chinese, pgn::Format, wxf},
};

/// A position on either board.
#[derive(Clone, PartialEq, Eq)]
pub enum AnyPosition {
    Standard(Position<Standard>),
    Hex(Position<Hex>),
}

/// Evaluates `$body` with `$p` bound to the typed position inside an [`AnyPosition`].
macro_rules! with_position {
    ($pos:expr, $p:ident => $body:expr) => {
        match $pos {
            $crate::board::AnyPosition::Standard($p) => $body,
            $crate::board::AnyPosition::Hex($p) => $body,
        }
    };
}
pub(crate) use with_position;

impl AnyPosition {
    pub fn from_fen(variant: Variant, fen: &str) -> Result<AnyPosition, FenError> {
        Ok(match variant {
            Variant::Standard => AnyPosition::Standard(Position::from_fen(fen)?),
            Variant::Hex => AnyPosition::Hex(Position::from_fen(fen)?),
        })
    }

    pub fn startpos(variant: Variant) -> AnyPosition {
        match variant {
            Variant::Standard => AnyPosition::Standard(Position::startpos()),
            Variant::Hex => AnyPosition::Hex(Position::startpos()),
        }
    }

    pub fn variant(&self) -> Variant {
        match self {
            AnyPosition::Standard(_) => Variant::Standard,
            AnyPosition::Hex(_) => Variant::Hex,
        }
    }

    pub fn fen(&self) -> String {
        with_position!(self, p => p.to_fen())
    }
}

pub fn variant(name: &str) -> PyResult<Variant> {
    name.parse().map_err(PyValueError::new_err)
}

pub fn rule_set(name: &str) -> PyResult<RuleSet> {
    name.parse().map_err(PyValueError::new_err)
}

/// A move syntax to read or write: the record formats, or `any` to read
/// whichever of them the text is in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    Any,
    Written(Format),
}

pub fn notation(name: &str) -> PyResult<Notation> {
    match name.to_ascii_lowercase().as_str() {
        "any" => Ok(Notation::Any),
        "iccs" => Ok(Notation::Written(Format::Iccs)),
        "old_iccs" | "oldiccs" => Ok(Notation::Written(Format::OldIccs)),
        "wxf" => Ok(Notation::Written(Format::Wxf)),
        "chinese" => Ok(Notation::Written(Format::Chinese)),
        other => Err(PyValueError::new_err(format!(
            "unknown notation {other:?} (expected iccs, old_iccs, wxf, chinese or any)"
        ))),
    }
}

/// The syntax moves are written in: any but `any`.
pub fn written_notation(name: &str) -> PyResult<Format> {
    match notation(name)? {
        Notation::Written(f) => Ok(f),
        Notation::Any => Err(PyValueError::new_err("moves are written in iccs, old_iccs, wxf or chinese")),
    }
}

/// Reads a move in a notation and checks that the position allows it. The
/// hex board has coordinates only.
pub fn parse_move(pos: &AnyPosition, text: &str, how: Notation) -> Result<Move, MoveError> {
    match (pos, how) {
        (AnyPosition::Standard(p), Notation::Any) => notation::parse_any(p, text),
        (AnyPosition::Standard(p), Notation::Written(Format::Wxf)) => wxf::parse(p, text),
        (AnyPosition::Standard(p), Notation::Written(Format::Chinese)) => chinese::parse(p, text),
        (AnyPosition::Hex(_), Notation::Written(Format::Wxf | Format::Chinese)) => {
            Err(MoveError::Syntax(text.to_string()))
        }
        (_, _) => with_position!(pos, p => p.parse_move(text.trim())),
    }
}

/// The grid arrays are laid out on: one row per cell number along a file
/// (from Red's end), one column per file (from Red's left). The standard
/// board fills its 10 x 9; the hex board's files hold 7 to 11 cells of its
/// 11 x 9, the rest of the grid is no cell.
pub struct Grid {
    pub rows: usize,
    /// Square (`row * 9 + file`) of each cell.
    pub square: Vec<usize>,
    /// Cell of each square, if it is one.
    pub cell: Vec<Option<Cell>>,
    /// The cell a half turn of the board puts in each cell's place.
    pub turned: Vec<usize>,
}

pub const FILES: usize = 9;

impl Grid {
    pub fn of(variant: Variant) -> &'static Grid {
        static STANDARD: OnceLock<Grid> = OnceLock::new();
        static HEX: OnceLock<Grid> = OnceLock::new();
        match variant {
            Variant::Standard => STANDARD.get_or_init(|| Grid::build(variant)),
            Variant::Hex => HEX.get_or_init(|| Grid::build(variant)),
        }
    }

    fn build(variant: Variant) -> Grid {
        let t = variant.tables();
        let cells: Vec<Cell> = (0..t.cells()).map(Cell::new).collect();
        let first = cells.iter().map(|&c| t.number(c)).min().unwrap_or(0);
        let last = cells.iter().map(|&c| t.number(c)).max().unwrap_or(0);
        let rows = last - first + 1;
        let square: Vec<usize> = cells.iter().map(|&c| (t.number(c) - first) * FILES + t.file(c)).collect();
        let mut cell = vec![None; rows * FILES];
        for &c in &cells {
            cell[square[c.index()]] = Some(c);
        }
        // A half turn maps lattice point p to 2m - p, m the board's centre:
        // twice the centre is the sum of the coordinates of a cell and its
        // image, here the extremes along each axis.
        let xs = cells.iter().map(|&c| t.coords(c).0);
        let ys = cells.iter().map(|&c| t.coords(c).1);
        let (sx, sy) = (
            xs.clone().min().unwrap_or(0) + xs.max().unwrap_or(0),
            ys.clone().min().unwrap_or(0) + ys.max().unwrap_or(0),
        );
        let turned = cells
            .iter()
            .map(|&c| {
                let (x, y) = t.coords(c);
                cells
                    .iter()
                    .position(|&d| t.coords(d) == (sx - x, sy - y))
                    .expect("both boards are symmetric under a half turn")
            })
            .collect();
        Grid { rows, square, cell, turned }
    }
}
