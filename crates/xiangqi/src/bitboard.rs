//! A set of cells in one `u128`: both the 90-point board and the 79-cell hex board fit.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::types::Cell;

/// A set of cells: bit `i` stands for the cell of index `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// No cell.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set of one cell.
    #[inline]
    pub const fn from_cell(c: Cell) -> Bitboard {
        Bitboard(1u128 << c.0)
    }

    /// Whether `c` is in the set.
    #[inline]
    pub const fn contains(self, c: Cell) -> bool {
        self.0 >> c.0 & 1 != 0
    }

    /// Whether the set has no cell.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has a cell.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of cells.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Adds `c`.
    #[inline]
    pub fn set(&mut self, c: Cell) {
        self.0 |= 1u128 << c.0;
    }

    /// Removes `c`.
    #[inline]
    pub fn clear(&mut self, c: Cell) {
        self.0 &= !(1u128 << c.0);
    }

    /// Adds `c` if it is missing, else removes it.
    #[inline]
    pub fn toggle(&mut self, c: Cell) {
        self.0 ^= 1u128 << c.0;
    }

    /// The lowest cell, if any.
    #[inline]
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 { None } else { Some(Cell(self.0.trailing_zeros() as u8)) }
    }

    /// The single cell of a one-cell set.
    #[inline]
    pub const fn single(self) -> Option<Cell> {
        if self.0 != 0 && self.0 & (self.0 - 1) == 0 {
            Some(Cell(self.0.trailing_zeros() as u8))
        } else {
            None
        }
    }

    /// Whether the set holds more than one cell.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
}

impl Iterator for Bitboard {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let c = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Cell(c))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut b = Bitboard::EMPTY;
        for c in iter {
            b.set(c);
        }
        b
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}
