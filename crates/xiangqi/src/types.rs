//! Small value types: colours, piece roles, pieces, cells and moves.

use std::{fmt, ops::Not};

/// The two sides. Red moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Red, who moves first.
    Red = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both sides, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// 0 for Red, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"red"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }

    /// Chooses between two values by colour.
    #[inline]
    pub fn fold<T>(self, red: T, black: T) -> T {
        match self {
            Color::Red => red,
            Color::Black => black,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The seven kinds of piece. The moves below are the standard board's; the
/// hex board's are its own (see [`crate::Hex`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// The general (king), confined to its palace.
    General = 0,
    /// An advisor, moving one step diagonally inside the palace.
    Advisor = 1,
    /// An elephant, moving two steps diagonally on its own side of the river.
    Elephant = 2,
    /// A horse, moving one step straight then one diagonally, unless the first point is blocked.
    Horse = 3,
    /// A chariot, moving any distance along a line.
    Chariot = 4,
    /// A cannon, moving as a chariot but capturing by jumping over exactly one piece.
    Cannon = 5,
    /// A soldier, moving one step forward, and sideways too once across the river.
    Soldier = 6,
}

impl Role {
    /// Every role, in index order.
    pub const ALL: [Role; 7] = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Soldier,
    ];

    /// Dense index `0..7`, in the order of [`Role::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this role each side has at the start, and so at most.
    pub const fn max_count(self) -> usize {
        match self {
            Role::General => 1,
            Role::Soldier => 5,
            _ => 2,
        }
    }

    /// The FEN letter, upper case (`K A B N R C P`).
    pub const fn char(self) -> char {
        match self {
            Role::General => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Horse => 'N',
            Role::Chariot => 'R',
            Role::Cannon => 'C',
            Role::Soldier => 'P',
        }
    }

    /// The WXF letter (`K A E H R C P`).
    pub const fn wxf_char(self) -> char {
        match self {
            Role::Elephant => 'E',
            Role::Horse => 'H',
            other => other.char(),
        }
    }

    /// Reads a FEN or WXF letter in either case; `E`/`H` are aliases of `B`/`N`.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'K' => Role::General,
            'A' => Role::Advisor,
            'B' | 'E' => Role::Elephant,
            'N' | 'H' => Role::Horse,
            'R' => Role::Chariot,
            'C' => Role::Cannon,
            'P' => Role::Soldier,
            _ => return None,
        })
    }

    /// The role's lower-case English name.
    pub const fn name(self) -> &'static str {
        match self {
            Role::General => "general",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Chariot => "chariot",
            Role::Cannon => "cannon",
            Role::Soldier => "soldier",
        }
    }

    /// Whether a piece of this role can ever leave its own half (and so ever attack).
    pub const fn can_cross_river(self) -> bool {
        matches!(self, Role::Horse | Role::Chariot | Role::Cannon | Role::Soldier)
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its role.
    pub role: Role,
}

impl Piece {
    /// The number of coloured pieces: seven roles for each side.
    pub const COUNT: usize = 14;

    /// The piece of `color` and `role`.
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// Dense index `0..Piece::COUNT` (red roles, then black roles).
    #[inline]
    pub const fn index(self) -> usize {
        self.color as usize * 7 + self.role as usize
    }

    /// The piece of a [`Piece::index`] (below [`Piece::COUNT`]).
    pub const fn from_index(i: usize) -> Piece {
        let color = if i < 7 { Color::Red } else { Color::Black };
        let role = Role::ALL[i % 7];
        Piece { color, role }
    }

    /// FEN letter: upper case for red, lower case for black.
    pub fn char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece of a FEN letter (upper case for red); `None` for a letter that names no role.
    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() { Color::Red } else { Color::Black };
        Some(Piece { color, role })
    }

    /// The traditional glyph: red and black pieces carry different characters.
    pub const fn glyph(self) -> char {
        match (self.color, self.role) {
            (Color::Red, Role::General) => '帥',
            (Color::Red, Role::Advisor) => '仕',
            (Color::Red, Role::Elephant) => '相',
            (Color::Red, Role::Horse) => '傌',
            (Color::Red, Role::Chariot) => '俥',
            (Color::Red, Role::Cannon) => '炮',
            (Color::Red, Role::Soldier) => '兵',
            (Color::Black, Role::General) => '將',
            (Color::Black, Role::Advisor) => '士',
            (Color::Black, Role::Elephant) => '象',
            (Color::Black, Role::Horse) => '馬',
            (Color::Black, Role::Chariot) => '車',
            (Color::Black, Role::Cannon) => '砲',
            (Color::Black, Role::Soldier) => '卒',
        }
    }
}

/// A cell (a point of the board) as a dense index into its geometry.
///
/// What a given index names depends on the geometry: use [`Position::cell_name`]
/// (or the geometry's tables) to print it.
///
/// [`Position::cell_name`]: crate::Position::cell_name
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub(crate) u8);

impl Cell {
    /// The index into its geometry's cells.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The cell with this index; the caller keeps it below the geometry's cell count.
    #[inline]
    pub const fn new(index: usize) -> Cell {
        Cell(index as u8)
    }
}

/// A move from one cell to another. Xiangqi has no promotions or drops, so the
/// two cells say everything; the captured piece, if any, is whatever stands on `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the piece stands.
    pub from: Cell,
    /// Where it goes (and what stands there, if anything, is captured).
    pub to: Cell,
}

impl Move {
    /// The move from `from` to `to`.
    #[inline]
    pub const fn new(from: Cell, to: Cell) -> Move {
        Move { from, to }
    }
}

/// Two values indexed by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    /// Red's value.
    pub red: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// The value of side `c`.
    #[inline]
    pub fn get(&self, c: Color) -> &T {
        match c {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }

    /// The value of side `c`, to change.
    #[inline]
    pub fn get_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Red => &mut self.red,
            Color::Black => &mut self.black,
        }
    }
}
