//! What WXF and Chinese notation have in common: a move described as a piece, the
//! file it stands on (or its place among like pieces on that file), a direction,
//! and a target (a file, or a number of steps).
//!
//! Files are numbered 1-9 from each player's right, so Red's file 1 is ICCS file
//! `i` and Black's file 1 is ICCS file `a`. Pieces that move straight (general,
//! chariot, cannon, soldier) give the number of steps when they go forward or
//! back, and the new file when they go sideways; pieces that move diagonally
//! (advisor, elephant, horse) always give the new file.
//!
//! Reading works by describing every legal move and keeping those that fit what
//! was written, so every accepted spelling resolves to exactly one legal move.

use crate::{
    geometry::Standard,
    notation::iccs::MoveError,
    position::{IllegalMove, IllegalReason, Position},
    types::{Color, Move, Role},
};

/// Forward, backward or sideways, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Towards the enemy (`+`, 进).
    Forward,
    /// Towards the mover's own side (`-`, 退).
    Backward,
    /// Along the rank (`=`, 平).
    Sideways,
}

/// Where a piece stands among like pieces on its file, when there are several.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// `+`, 前: the front one of two or three; the second of four or five.
    Front,
    /// `-`, 后: the rear one of two or three; the second last of four or five.
    Rear,
    /// 中, or the plain file digit: the middle one of three or five.
    Middle,
    /// `++`: the front one of four or five.
    FrontMost,
    /// `--`: the rear one of four or five.
    RearMost,
    /// The n-th from the front (1-based): 二, 三, 四 in Chinese, or a leading digit.
    Nth(u8),
    /// 前 in Chinese: the front one, however many there are.
    First,
    /// 后 in Chinese: the rear one, however many there are.
    Last,
    /// A soldier's file digit written twice (`77`): the middle of three where
    /// another file also holds two soldiers, the one place WXF writes it; anywhere
    /// else the numbered form, the soldier whose place from the front is the file's
    /// number.
    Doubled,
}

/// A legal move, described.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Description {
    /// The moving piece's role.
    pub role: Role,
    /// The origin file, 1-9 from the mover's right.
    pub file: u8,
    /// Index from the front among pieces of the same role and colour on the file.
    pub index: u8,
    /// How many such pieces stand on the file.
    pub count: u8,
    /// Whether another file also holds two or more of the mover's soldiers, so
    /// that a soldier's marker alone does not say which file.
    pub soldier_files: bool,
    /// Which way the piece goes.
    pub direction: Direction,
    /// The new file (1-9) or the number of steps.
    pub target: u8,
}

/// What a written move says; missing parts match anything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pattern {
    /// The moving piece's role.
    pub role: Option<Role>,
    /// The origin file, 1-9 from the mover's right.
    pub file: Option<u8>,
    /// Which of several like pieces on a file moves.
    pub marker: Option<Marker>,
    /// Which way the piece goes.
    pub direction: Option<Direction>,
    /// The new file (1-9) or the number of steps.
    pub target: Option<u8>,
}

/// A file's number from a side's right (1-9).
pub fn file_number(color: Color, file: usize) -> u8 {
    match color {
        Color::Red => 9 - file as u8,
        Color::Black => file as u8 + 1,
    }
}

/// Ranks counted towards the opponent.
fn forward_rank(color: Color, rank: usize) -> i32 {
    match color {
        Color::Red => rank as i32,
        Color::Black => 9 - rank as i32,
    }
}

fn moves_diagonally(role: Role) -> bool {
    matches!(role, Role::Advisor | Role::Elephant | Role::Horse)
}

/// Describes a legal move. `None` if no piece stands on its origin.
pub fn describe(pos: &Position<Standard>, m: Move) -> Option<Description> {
    let t = Position::<Standard>::tables();
    let piece = pos.piece_at(m.from)?;
    let color = piece.color;
    let (file, rank) = (t.file(m.from), t.number(m.from));
    let (to_file, to_rank) = (t.file(m.to), t.number(m.to));
    let along_file: Vec<i32> = t
        .file_cells(file)
        .filter(|&c| pos.piece_at(c) == Some(piece))
        .map(|c| forward_rank(color, t.number(c)))
        .collect();
    let here = forward_rank(color, rank);
    let index = along_file.iter().filter(|&&r| r > here).count() as u8;
    let soldier_files = piece.role == Role::Soldier
        && (0..9)
            .filter(|&f| f != file)
            .any(|f| t.file_cells(f).filter(|&c| pos.piece_at(c) == Some(piece)).count() >= 2);
    let advance = forward_rank(color, to_rank) - here;
    let direction = match advance {
        0 => Direction::Sideways,
        a if a > 0 => Direction::Forward,
        _ => Direction::Backward,
    };
    let target = if direction == Direction::Sideways || moves_diagonally(piece.role) {
        file_number(color, to_file)
    } else {
        advance.unsigned_abs() as u8
    };
    Some(Description {
        role: piece.role,
        file: file_number(color, file),
        index,
        count: along_file.len() as u8,
        soldier_files,
        direction,
        target,
    })
}

/// The marker a writer uses for a piece, or `None` when the file number alone is
/// clear. Advisors and elephants never need one: the direction and target tell
/// two of them on a file apart.
pub fn marker(d: &Description) -> Option<Marker> {
    if d.count < 2 || matches!(d.role, Role::Advisor | Role::Elephant) {
        return None;
    }
    Some(match (d.count, d.index) {
        (2 | 3, 0) => Marker::Front,
        (2, _) | (3, 2) => Marker::Rear,
        (3, _) => Marker::Middle,
        (_, 0) => Marker::FrontMost,
        (n, i) if i + 1 == n => Marker::RearMost,
        (_, 1) => Marker::Front,
        (n, i) if i + 2 == n => Marker::Rear,
        _ => Marker::Middle,
    })
}

impl Pattern {
    fn fits(&self, d: &Description) -> bool {
        self.role.is_none_or(|r| r == d.role)
            && self.file.is_none_or(|f| f == d.file)
            && self.direction.is_none_or(|x| x == d.direction)
            && self.target.is_none_or(|t| t == d.target)
            && self.marker.is_none_or(|m| marker_fits(m, d))
    }
}

fn marker_fits(m: Marker, d: &Description) -> bool {
    let (i, n) = (d.index, d.count);
    n >= 2
        && match m {
            Marker::Front => i == if n >= 4 { 1 } else { 0 },
            Marker::Rear => i + if n >= 4 { 2 } else { 1 } == n,
            Marker::Middle => n % 2 == 1 && i == n / 2,
            Marker::FrontMost => i == 0,
            Marker::RearMost => i + 1 == n,
            Marker::Nth(k) => k >= 1 && i + 1 == k,
            Marker::First => i == 0,
            Marker::Last => i + 1 == n,
            Marker::Doubled if d.soldier_files && n == 3 => i == 1,
            Marker::Doubled => i + 1 == d.file,
        }
}

/// The one legal move that fits a pattern.
///
/// # Errors
/// [`MoveError::Illegal`] if no legal move fits (with the reason when the text
/// names a piece that cannot go there), [`MoveError::Ambiguous`] if several do.
pub fn resolve(pos: &Position<Standard>, pattern: &Pattern, text: &str) -> Result<Move, MoveError> {
    let t = Position::<Standard>::tables();
    // Describing a move walks its file and every file for soldiers, which made
    // this the bulk of reading a WXF or Chinese record when every legal move
    // was described; the piece and its file, which most texts name, are read
    // off the board at once and leave the moves of a piece or two to describe.
    let may_fit = |m: &Move| {
        pos.piece_at(m.from).is_some_and(|p| {
            pattern.role.is_none_or(|r| r == p.role)
                && pattern.file.is_none_or(|f| f == file_number(p.color, t.file(m.from)))
        })
    };
    let fits: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(may_fit)
        .filter(|&m| describe(pos, m).is_some_and(|d| pattern.fits(&d)))
        .collect();
    match fits.as_slice() {
        [m] => Ok(*m),
        [] => Err(MoveError::Illegal(IllegalMove {
            notation: text.to_string(),
            reason: IllegalReason::NoSuchMove,
        })),
        many => Err(MoveError::Ambiguous {
            text: text.to_string(),
            candidates: many.iter().map(|m| pos.move_name(*m)).collect::<Vec<_>>().join(", "),
        }),
    }
}
