//! Board geometries: the standard 9x10 points and the 79-cell hexagonal board.
//!
//! The seeds state every move of both games in the same words (an orthogonal step,
//! a diagonal step, a slide, a jump over one screen, a blocked leg, a blocked eye,
//! the palace, the river), so a geometry is data: its cells, its orthogonal
//! directions, and tables derived from them at compile time. Move generation is
//! written once over [`Geometry`] and monomorphised, so neither board pays for the
//! other.
//!
//! Cells are numbered so that every orthogonal ray runs in one index direction:
//! the first piece along a ray is then a single bit scan.

mod build;

use crate::{
    bitboard::Bitboard,
    types::{Cell, Color, Piece},
};

pub(crate) const MAX_CELLS: usize = 90;
pub(crate) const MAX_DIRS: usize = 6;
pub(crate) const MAX_FILES: usize = 9;
pub(crate) const MAX_NUMBERS: usize = 12;
pub(crate) const MAX_ROWS: usize = 11;

/// One conditional step: `to` is reachable when cell `via` is empty
/// (a horse's leg, an elephant's eye).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    /// The cell that must be empty, as a one-cell set: testing it is an `and`,
    /// where a shift of a `u128` by a variable takes several instructions.
    pub via: u128,
    pub to: u128,
}

/// Everything move generation and notation need to know about a board.
/// Built at compile time by `build`.
pub struct Tables {
    pub(crate) name: &'static str,
    pub(crate) cells: usize,
    pub(crate) files: usize,
    pub(crate) all: u128,
    pub(crate) dirs: usize,
    /// Whether ray `d` runs towards higher indices.
    pub(crate) up: [bool; MAX_DIRS],
    pub(crate) ray: [[u128; MAX_CELLS]; MAX_DIRS],
    /// All orthogonal rays through a cell.
    pub(crate) lines: [u128; MAX_CELLS],
    pub(crate) king: [[u128; MAX_CELLS]; 2],
    pub(crate) advisor: [[u128; MAX_CELLS]; 2],
    pub(crate) elephant: [[[Step; MAX_DIRS]; MAX_CELLS]; 2],
    pub(crate) elephant_n: [[u8; MAX_CELLS]; 2],
    pub(crate) horse: [[Step; MAX_DIRS]; MAX_CELLS],
    pub(crate) horse_n: [u8; MAX_CELLS],
    /// Horses that attack a cell, grouped by the leg they need empty.
    pub(crate) horse_rev: [[Step; MAX_DIRS]; MAX_CELLS],
    pub(crate) horse_rev_n: [u8; MAX_CELLS],
    pub(crate) soldier: [[u128; MAX_CELLS]; 2],
    /// Cells from which a soldier of the colour attacks the cell.
    pub(crate) soldier_rev: [[u128; MAX_CELLS]; 2],
    /// Cells whose change can expose a general on this cell: its lines and
    /// the legs of horses that could attack it.
    pub(crate) exposure: [u128; MAX_CELLS],
    pub(crate) palace: [u128; 2],
    pub(crate) home: [u128; 2],
    /// Cells a piece of the role can ever stand on, from the setup.
    pub(crate) reachable: [[u128; 7]; 2],
    pub(crate) file_of: [u8; MAX_CELLS],
    pub(crate) number_of: [u8; MAX_CELLS],
    /// The lowest cell number on a file (0 on the standard board, 1 on the hex board).
    pub(crate) first_number: u8,
    pub(crate) cell_at: [[i8; MAX_NUMBERS]; MAX_FILES],
    pub(crate) file_len: [u8; MAX_FILES],
    /// FEN rows from the top: cells, or -1 for an off-board slot.
    pub(crate) rows: [[i8; MAX_FILES]; MAX_ROWS],
    pub(crate) row_len: [u8; MAX_ROWS],
    pub(crate) n_rows: usize,
    /// Lattice coordinates (x, y) of each cell, y growing towards Black.
    pub(crate) coords: [(i8, i8); MAX_CELLS],
    /// Piece index + 1 on each cell of the start position, 0 for empty.
    pub(crate) start: [u8; MAX_CELLS],
}

impl Tables {
    /// The board's name: `"standard"` or `"hex"`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The number of files.
    pub fn files(&self) -> usize {
        self.files
    }

    /// The set of all cells.
    pub fn all(&self) -> Bitboard {
        Bitboard(self.all)
    }

    /// The file of a cell, 0 = `a` (Red's left).
    pub fn file(&self, c: Cell) -> usize {
        self.file_of[c.index()] as usize
    }

    /// The number of a cell on its file, counted from Red's end: the ICCS rank 0-9
    /// on the standard board, 1-11 on the hex board.
    pub fn number(&self, c: Cell) -> usize {
        self.number_of[c.index()] as usize
    }

    /// The cells of a file, from Red's end.
    pub fn file_cells(&self, file: usize) -> impl Iterator<Item = Cell> + '_ {
        let len = if file < self.files { self.file_len[file] as usize } else { 0 };
        (0..len).map(move |i| Cell(self.cell_at[file][i] as u8))
    }

    /// The cell at a file and number, if the board has one.
    pub fn cell(&self, file: usize, number: usize) -> Option<Cell> {
        let i = number.checked_sub(self.first_number as usize)?;
        if file >= self.files || i >= self.file_len[file] as usize {
            return None;
        }
        Some(Cell(self.cell_at[file][i] as u8))
    }

    /// Lattice coordinates of a cell (for drawing): `x` grows to Red's right,
    /// `y` towards Black. On the hex board these are axial `(q, -r)` coordinates.
    pub fn coords(&self, c: Cell) -> (i32, i32) {
        let (x, y) = self.coords[c.index()];
        (x as i32, y as i32)
    }

    /// The palace of a side.
    pub fn palace(&self, c: Color) -> Bitboard {
        Bitboard(self.palace[c.index()])
    }

    /// A side's own half (not counting the hex board's river row).
    pub fn home(&self, c: Color) -> Bitboard {
        Bitboard(self.home[c.index()])
    }

    /// Cells a piece could ever stand on in a game from the start position.
    pub fn reachable(&self, p: Piece) -> Bitboard {
        Bitboard(self.reachable[p.color.index()][p.role.index()])
    }

    /// Writes the name of a cell: file letter and number (`e0`, `e11`).
    pub fn cell_name(&self, c: Cell) -> String {
        format!("{}{}", (b'a' + self.file_of[c.index()]) as char, self.number_of[c.index()])
    }

    /// Reads a cell name such as `h2` or `e11`.
    pub fn parse_cell(&self, s: &str) -> Option<Cell> {
        let mut chars = s.chars();
        let f = chars.next()?.to_ascii_lowercase();
        if !f.is_ascii_lowercase() {
            return None;
        }
        let rest = chars.as_str();
        if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        self.cell((f as u8 - b'a') as usize, rest.parse().ok()?)
    }

    pub(crate) fn start_piece(&self, c: usize) -> Option<Piece> {
        match self.start[c] {
            0 => None,
            i => Some(Piece::from_index(i as usize - 1)),
        }
    }
}

/// Which board a position is on, for code that chooses at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// The standard 9x10 board.
    #[default]
    Standard,
    /// The hexagonal board of the Xiang Hex variant.
    Hex,
}

impl Variant {
    /// Every board.
    pub const ALL: [Variant; 2] = [Variant::Standard, Variant::Hex];

    /// The board's lower-case name (`standard`, `hex`), which [`str::parse`] reads back.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Hex => "hex",
        }
    }

    /// The rule set the board is played under unless players choose: asian on
    /// the standard board (as in tournaments), hex on the hex board.
    pub fn default_rules(self) -> crate::RuleSet {
        match self {
            Variant::Standard => crate::RuleSet::Asian,
            Variant::Hex => crate::RuleSet::Hex,
        }
    }

    /// The start position of the board, as FEN.
    pub fn start_fen(self) -> String {
        crate::with_geometry!(self, G => crate::Position::<G>::startpos().to_fen())
    }

    /// The board's tables.
    pub fn tables(self) -> &'static Tables {
        match self {
            Variant::Standard => &STANDARD_TABLES,
            Variant::Hex => &HEX_TABLES,
        }
    }
}

impl std::str::FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "standard" | "xiangqi" | "std" => Ok(Variant::Standard),
            "hex" | "hexagonal" | "xianghex" | "xiang-hex" => Ok(Variant::Hex),
            other => Err(format!("unknown variant {other:?} (expected standard or hex)")),
        }
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A board geometry: a type that names one set of [`Tables`].
pub trait Geometry:
    Copy + Clone + Default + std::fmt::Debug + PartialEq + Eq + std::hash::Hash + Send + Sync + 'static
{
    /// The board, named at run time.
    const VARIANT: Variant;
    /// The board's tables.
    const TABLES: &'static Tables;
}

/// The standard 9x10 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Standard;

/// Xiang Hex: nine files of 7 to 11 hexagonal cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hex;

static STANDARD_TABLES: Tables = build::standard();
static HEX_TABLES: Tables = build::hex();

impl Geometry for Standard {
    const VARIANT: Variant = Variant::Standard;
    const TABLES: &'static Tables = &STANDARD_TABLES;
}

impl Geometry for Hex {
    const VARIANT: Variant = Variant::Hex;
    const TABLES: &'static Tables = &HEX_TABLES;
}

#[cfg(test)]
mod tests;
