//! Opening names by ECCO, the Chinese opening classification (中国象棋开局编号):
//! codes `A00` to `E99` in five families (A: openings other than the central
//! cannon; B: the central cannon against defences other than the screen horses;
//! C: the central cannon against the screen horses; D: same and opposite
//! direction cannons; E: the pawn opening), each with its name in simplified and
//! traditional Chinese and, for the family heads, in English and Vietnamese.
//!
//! The table is `data/ecco.tsv`, built into the crate. Each code comes with
//! move orders that end in a position the ECCO rules give that code; a game is
//! named by the positions it reaches in its first [`PLIES`] plies, the most
//! specific (deepest) code winning, so a transposition gets the same name as
//! the book's order.
//!
//! ```
//! use xiangqi::{Position, Standard};
//! use xiangqi_records::ecco;
//!
//! let start = Position::<Standard>::startpos();
//! let mut pos = start.clone();
//! let mut moves = Vec::new();
//! for text in ["h2e2", "h9g7", "h0g2", "b9c7"] {
//!     let m = pos.parse_move(text).unwrap();
//!     pos.play(m).unwrap();
//!     moves.push(m);
//! }
//! let opening = ecco::classify(&start, &moves).unwrap();
//! assert_eq!(opening.code.to_string(), "C00");
//! assert_eq!(opening.simplified, "中炮对屏风马");
//! assert_eq!(opening.english, Some("Central Cannon vs Screen Horses"));
//!
//! let c4: Vec<_> = ecco::search("c4").map(|o| o.code.to_string()).collect();
//! assert_eq!(c4.len(), 10);
//! ```

use std::{
    collections::HashMap,
    fmt,
    hash::{BuildHasherDefault, Hasher},
    str::FromStr,
    sync::LazyLock,
};

use thiserror::Error;
use xiangqi::{Move, Position, Standard, Tables};

/// How many plies of a game [`classify`] looks at. The longest order in the
/// table is 17 plies and the ECCO rules read no further than each side's tenth
/// move; the ten plies beyond that let a game reach a table position after a
/// few tempi spent elsewhere. Later than that a game is in its middlegame, and
/// a position met there says nothing about how it opened.
pub const PLIES: usize = 30;

/// The five families, in the order of their letters.
const FAMILIES: &str = "ABCDE";

/// The separator between an opening and its variation in the table's names.
const VARIATION: &str = "——";

static DATA: &str = include_str!("../data/ecco.tsv");

/// An ECCO code: a family letter `A`-`E` and a number `00`-`99`, written `C45`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code {
    family: u8,
    number: u8,
}

impl Code {
    /// The code of a family letter (`'A'` to `'E'`, either case) and a number
    /// below 100, if both are in range.
    pub fn new(family: char, number: u8) -> Option<Code> {
        let family = family.to_ascii_uppercase();
        (FAMILIES.contains(family) && number < 100).then_some(Code { family: family as u8, number })
    }

    /// The family letter, `'A'` to `'E'`.
    pub fn family(self) -> char {
        char::from(self.family)
    }

    /// The number within the family, 0 to 99.
    pub fn number(self) -> u8 {
        self.number
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{:02}", self.family(), self.number)
    }
}

/// Text that is not an ECCO code.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0:?} is not an ECCO code (a letter A to E and two digits, like C45)")]
pub struct CodeError(String);

impl FromStr for Code {
    type Err = CodeError;

    /// Reads `C45` (the letter in either case).
    fn from_str(s: &str) -> Result<Code, CodeError> {
        let refuse = || CodeError(s.to_string());
        let &[letter, tens, units] = s.as_bytes() else { return Err(refuse()) };
        if !tens.is_ascii_digit() || !units.is_ascii_digit() {
            return Err(refuse());
        }
        Code::new(char::from(letter), (tens - b'0') * 10 + (units - b'0')).ok_or_else(refuse)
    }
}

/// The languages a name is given in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// Chinese in simplified characters, as the classification is published.
    Simplified,
    /// Chinese in traditional characters.
    Traditional,
    /// English, in the terms of English opening literature.
    English,
    /// Vietnamese, in the names of Vietnamese opening literature.
    Vietnamese,
}

/// One code of the classification and its names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The code, `A00` to `E48`.
    pub code: Code,
    /// The name in simplified characters; a variation follows its opening
    /// after `——` (see [`Opening::parts`]).
    pub simplified: &'static str,
    /// The name in traditional characters.
    pub traditional: &'static str,
    /// The English name, for the family heads that have one in print.
    pub english: Option<&'static str>,
    /// The Vietnamese name, for the family heads that have one in print.
    pub vietnamese: Option<&'static str>,
    lines: Vec<Vec<Move>>,
}

impl Opening {
    /// The name in a language, if the table gives one in it.
    pub fn name(&self, language: Language) -> Option<&'static str> {
        match language {
            Language::Simplified => Some(self.simplified),
            Language::Traditional => Some(self.traditional),
            Language::English => self.english,
            Language::Vietnamese => self.vietnamese,
        }
    }

    /// The name in a language split as a PGN record's `Opening` and
    /// `Variation` tags hold it: `中炮七路马对屏风马——红左马盘河` gives
    /// `("中炮七路马对屏风马", Some("红左马盘河"))`.
    pub fn parts(&self, language: Language) -> Option<(&'static str, Option<&'static str>)> {
        let name = self.name(language)?;
        Some(match name.split_once(VARIATION) {
            Some((opening, variation)) => (opening, Some(variation)),
            None => (name, None),
        })
    }

    /// The code's move orders from the usual start, Red opening on his right:
    /// the first is the representative one. The catch-all's only order is
    /// empty (the start position itself).
    pub fn lines(&self) -> &[Vec<Move>] {
        &self.lines
    }
}

/// Every code of the table, in code order.
pub fn all() -> &'static [Opening] {
    &TABLE.openings
}

/// The opening of a code, if the classification assigns the code.
pub fn by_code(code: Code) -> Option<&'static Opening> {
    let openings = all();
    openings.binary_search_by_key(&code, |o| o.code).ok().map(|i| &openings[i])
}

/// The openings whose code starts with `text` (`C`, `C4`, `c45`) or whose
/// name in any language contains it. Latin letters match in either case and
/// full-width digits and letters as their ASCII forms, so `进7卒` finds
/// `进７卒`. Empty text matches every opening.
pub fn search(text: &str) -> impl Iterator<Item = &'static Opening> + use<> {
    let query = fold(text.trim());
    let table = &*TABLE;
    let code_prefix = query.to_ascii_uppercase();
    table.openings.iter().zip(&table.folded).filter_map(move |(opening, folded)| {
        let by_code = code_prefix.len() <= 3 && opening.code.to_string().starts_with(&code_prefix);
        (by_code || folded.contains(&query)).then_some(opening)
    })
}

/// The opening of a game from `start` with these moves, or `None` for a game
/// with no moves or from another position than the usual start.
///
/// The game's first [`PLIES`] plies are replayed (mirrored left to right when
/// Red's first move starts on his left half, as the ECCO rules read such
/// games) and every position met is looked up; the deepest code found names
/// the game, and the catch-all `A00` when none is. Replay stops at the first
/// move that is not legal, so a damaged record is named by what came before.
pub fn classify(start: &Position<Standard>, moves: &[Move]) -> Option<&'static Opening> {
    let table = &*TABLE;
    if moves.is_empty() || start.hash() != table.start_hash {
        return None;
    }
    let tables = Position::<Standard>::tables();
    let mirror = moves
        .first()
        .is_some_and(|m| m.from.index() < tables.cells() && tables.file(m.from) < tables.files() / 2);
    let mut best = table.catch_all.map(|index| (index, 0));
    let mut pos = start.clone();
    for &m in moves.iter().take(PLIES) {
        let m = if mirror {
            match mirrored(tables, m) {
                Some(m) => m,
                None => break,
            }
        } else {
            m
        };
        if !pos.is_legal(m) {
            break;
        }
        pos.play_unchecked(m);
        if let Some(&(index, depth)) = table.positions.get(&pos.hash()) {
            // At equal depth the position met later stands: the game has
            // developed into it.
            if best.is_none_or(|(_, d)| depth >= d) {
                best = Some((index, depth));
            }
        }
    }
    best.map(|(index, _)| &table.openings[index])
}

/// The opening whose move order ends in this very position (or in its mirror
/// image, for a game opened on Red's left), if one does: the name of a
/// position as an explorer shows it. [`classify`] names a game by the
/// deepest such position it passes through.
///
/// ```
/// use xiangqi::{Position, Standard};
/// use xiangqi_records::ecco;
///
/// let mut pos = Position::<Standard>::startpos();
/// for m in ["h2e2", "h9g7"] {
///     pos.play_unchecked(pos.parse_move(m).unwrap());
/// }
/// assert!(ecco::at(&pos).is_some());
/// assert!(ecco::at(&Position::<Standard>::startpos()).is_none());
/// let mut left = Position::<Standard>::startpos();
/// for m in ["b2e2", "b9c7"] {
///     left.play_unchecked(left.parse_move(m).unwrap());
/// }
/// assert_eq!(ecco::at(&left).map(|o| o.code), ecco::at(&pos).map(|o| o.code));
/// ```
pub fn at(position: &Position<Standard>) -> Option<&'static Opening> {
    let table = &*TABLE;
    // Before a move is made, no opening has been played: the catch-all's
    // empty order does not name the start.
    if position.hash() == table.start_hash {
        return None;
    }
    let found = |hash| table.positions.get(&hash).map(|&(index, _)| &table.openings[index]);
    found(position.hash()).or_else(|| {
        let fen = position.to_fen();
        let (board, rest) = fen.split_once(' ')?;
        let mirrored: Vec<String> = board.split('/').map(|row| row.chars().rev().collect()).collect();
        let mirror = Position::<Standard>::from_fen(&format!("{} {rest}", mirrored.join("/"))).ok()?;
        found(mirror.hash())
    })
}

/// A move reflected across the board's middle file, if its cells are on the board.
fn mirrored(tables: &Tables, m: Move) -> Option<Move> {
    let reflect = |c: xiangqi::Cell| {
        if c.index() >= tables.cells() {
            return None;
        }
        tables.cell(tables.files() - 1 - tables.file(c), tables.number(c))
    };
    Some(Move::new(reflect(m.from)?, reflect(m.to)?))
}

/// Lower case, with full-width ASCII forms made ASCII: what [`search`] compares.
fn fold(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
            _ => c,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// Zobrist hashes are already uniform, so the map uses them as they are.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The parsed table.
#[derive(Default)]
struct Table {
    openings: Vec<Opening>,
    /// Each opening's names, folded for [`search`] and joined by newlines.
    folded: Vec<String>,
    /// The position each move order ends in: its opening's index and the
    /// order's length in plies.
    positions: HashMap<u64, (usize, usize), BuildHasherDefault<PassThrough>>,
    start_hash: u64,
    /// The opening whose order is the start position itself.
    catch_all: Option<usize>,
}

/// A line of the table that does not hold what the table promises.
#[derive(Debug, PartialEq, Eq)]
struct TableError {
    line: usize,
    what: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ecco.tsv line {}: {}", self.line, self.what)
    }
}

// The table is part of the crate, not input: the tests hold it to parse
// without error, so the empty fallback is never what a build ships.
static TABLE: LazyLock<Table> = LazyLock::new(|| Table::parse(DATA).unwrap_or_default());

impl Table {
    fn parse(text: &'static str) -> Result<Table, TableError> {
        let start = Position::<Standard>::startpos();
        let mut table = Table { start_hash: start.hash(), ..Table::default() };
        for (number, line) in text.lines().enumerate() {
            let line_no = number + 1;
            let refuse = |what: String| TableError { line: line_no, what };
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&'static str> = line.split('\t').collect();
            let &[code, simplified, traditional, english, vietnamese, moves] = fields.as_slice() else {
                return Err(refuse(format!("{} fields where there should be 6", fields.len())));
            };
            let code: Code = code.parse().map_err(|e: CodeError| refuse(e.to_string()))?;
            if let Some(last) = table.openings.last().filter(|last| last.code >= code) {
                return Err(refuse(format!("{code} comes after {}: codes must rise", last.code)));
            }
            if simplified.is_empty() || traditional.is_empty() {
                return Err(refuse(format!("{code} has no Chinese name")));
            }
            let index = table.openings.len();
            let mut lines = Vec::new();
            for order in moves.split('|') {
                let mut pos = start.clone();
                let mut line = Vec::new();
                for text in order.split_whitespace() {
                    let m = pos
                        .parse_move(text)
                        .map_err(|e| refuse(format!("{code}: move {} ({text}): {e}", line.len() + 1)))?;
                    pos.play_unchecked(m);
                    line.push(m);
                }
                if line.len() > PLIES {
                    return Err(refuse(format!(
                        "{code}: an order of {} plies, past the {PLIES} that are looked at",
                        line.len()
                    )));
                }
                match table.positions.get(&pos.hash()) {
                    Some(&(other, _)) if other != index => {
                        let other = table.openings[other].code;
                        return Err(refuse(format!("{code}: an order ends where {other}'s does")));
                    }
                    Some(_) => {}
                    None => {
                        table.positions.insert(pos.hash(), (index, line.len()));
                    }
                }
                if line.is_empty() {
                    table.catch_all = Some(index);
                }
                lines.push(line);
            }
            let optional = |name: &'static str| (!name.is_empty()).then_some(name);
            let opening = Opening {
                code,
                simplified,
                traditional,
                english: optional(english),
                vietnamese: optional(vietnamese),
                lines,
            };
            let names: Vec<&str> = [simplified, traditional, english, vietnamese]
                .into_iter()
                .filter(|n| !n.is_empty())
                .collect();
            table.folded.push(fold(&names.join("\n")));
            table.openings.push(opening);
        }
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_of(text: &str) -> Vec<Move> {
        let mut pos = Position::<Standard>::startpos();
        text.split_whitespace()
            .map(|t| {
                let m = pos.parse_move(t).unwrap();
                pos.play_unchecked(m);
                m
            })
            .collect()
    }

    fn refused(text: &'static str) -> TableError {
        match Table::parse(text) {
            Ok(_) => panic!("accepted: {text:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn the_built_in_table_parses_without_error() {
        let table = Table::parse(DATA).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(table.openings.len(), 260);
        assert_eq!(table.folded.len(), table.openings.len());
        assert!(table.catch_all.is_some());
    }

    #[test]
    fn a_table_line_must_have_six_fields() {
        let e = refused("# note\nA00\t其他开局\t其他開局\t\t\n");
        assert_eq!(e.line, 2);
        assert!(e.what.contains("5 fields"), "{}", e.what);
    }

    #[test]
    fn a_table_code_must_be_well_formed_and_rising() {
        assert!(refused("F00\tx\tx\t\t\t\n").what.contains("not an ECCO code"));
        let e = refused("A10\tx\tx\t\t\tg0e2\nA10\ty\ty\t\t\th0g2\n");
        assert_eq!(e.line, 2);
        assert!(e.what.contains("must rise"), "{}", e.what);
    }

    #[test]
    fn a_table_order_must_be_legal_and_name_its_ply() {
        let e = refused("B00\t中炮局\t中炮局\t\t\th2e2 h9g7 h2h9\n");
        assert!(e.what.contains("move 3 (h2h9)"), "{}", e.what);
    }

    #[test]
    fn two_codes_may_not_end_in_one_position() {
        let e = refused("E42\tx\tx\t\t\tg3g4 c6c5 h0g2 b9c7\nE43\ty\ty\t\t\tg3g4 b9c7 h0g2 c6c5\n");
        assert!(e.what.contains("E43: an order ends where E42's does"), "{}", e.what);
    }

    #[test]
    fn an_order_longer_than_the_horizon_is_refused() {
        let shuffle = "h0g2 h9g7 g2h0 g7h9 ".repeat(8);
        let text: &'static str = format!("A40\tx\tx\t\t\t{shuffle}\n").leak();
        assert!(refused(text).what.contains("past the 30"));
    }

    #[test]
    fn names_split_into_opening_and_variation() {
        let table =
            Table::parse("C02\t中炮七路马对屏风马——红左马盘河\t中炮七路馬對屏風馬——紅左馬盤河\t\t\th2e2\n")
                .unwrap();
        let opening = &table.openings[0];
        assert_eq!(opening.parts(Language::Simplified), Some(("中炮七路马对屏风马", Some("红左马盘河"))));
        assert_eq!(opening.parts(Language::Traditional).map(|p| p.0), Some("中炮七路馬對屏風馬"));
        assert_eq!(opening.parts(Language::English), None);
        assert_eq!(opening.lines(), &[line_of("h2e2")]);
    }

    #[test]
    fn folding_lowers_latin_and_flattens_full_width_forms() {
        assert_eq!(fold("进７卒 ＡB Đối"), "进7卒 ab đối");
    }

    #[test]
    fn a_mirrored_move_keeps_its_rank_and_swaps_files() {
        let tables = Position::<Standard>::tables();
        let pos = Position::<Standard>::startpos();
        let m = mirrored(tables, pos.parse_move("b2e2").unwrap()).unwrap();
        assert_eq!(pos.move_name(m), "h2e2");
        assert_eq!(mirrored(tables, Move::new(xiangqi::Cell::new(200), xiangqi::Cell::new(0))), None);
    }
}
