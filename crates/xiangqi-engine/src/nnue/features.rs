//! The network's inputs: one per (bucket, piece seen from a side, cell seen from that side).
//!
//! Each side sees the board from its own end: for Black the ranks are reversed, so
//! that "my soldier two rows from my back row" is the same input for either side,
//! and pieces are "mine" or "theirs" rather than red or black. With palace buckets
//! the inputs are also split by the cell of the side's own general (its nine
//! palace cells), which lets the net judge every piece relative to the general's
//! shelter; a general's step then changes its own side's every input (a refresh).

use xiangqi::{Color, Piece};

/// Cells of the standard board.
pub const CELLS: usize = 90;
/// Inputs of one bucket: 7 roles, 2 sides (mine, theirs), 90 cells.
pub const PER_BUCKET: usize = 14 * CELLS;
/// Buckets when split by the general's palace cell.
pub const PALACE_BUCKETS: usize = 9;

/// A cell as `side` sees it: unchanged for Red, ranks reversed for Black.
#[inline]
pub const fn orient(side: Color, cell: usize) -> usize {
    match side {
        Color::Red => cell,
        Color::Black => (9 - cell / 9) * 9 + cell % 9,
    }
}

/// The bucket of `side`'s inputs, from the cell of its own general: always 0 with one
/// bucket, else the general's palace cell as that side sees it (rank * 3 + file - 3).
#[inline]
pub fn bucket(buckets: usize, side: Color, general: usize) -> usize {
    if buckets == 1 {
        return 0;
    }
    let c = orient(side, general);
    // A general never leaves its palace; clamping keeps a malformed input in range.
    (c / 9).min(2) * 3 + (c % 9).clamp(3, 5) - 3
}

/// The input for `piece` on `cell`, seen by `side`, in `bucket`.
#[inline]
pub fn index(side: Color, bucket: usize, piece: Piece, cell: usize) -> usize {
    let theirs = usize::from(piece.color != side);
    bucket * PER_BUCKET + (theirs * 7 + piece.role.index()) * CELLS + orient(side, cell)
}

#[cfg(test)]
mod tests {
    use xiangqi::Role;

    use super::*;

    #[test]
    fn each_side_sees_its_own_pieces_from_its_own_end() {
        // Red's general on e0 (cell 4) and Black's on e9 (cell 85) are the same input for their sides.
        let red = index(Color::Red, 0, Piece::new(Color::Red, Role::General), 4);
        let black = index(Color::Black, 0, Piece::new(Color::Black, Role::General), 85);
        assert_eq!(red, black);
        assert_eq!(red, 4);
        // The enemy general is a "theirs" input.
        assert_eq!(index(Color::Red, 0, Piece::new(Color::Black, Role::General), 85), 7 * CELLS + 85);
        assert_eq!(orient(Color::Black, orient(Color::Black, 37)), 37);
        assert_eq!(bucket(PALACE_BUCKETS, Color::Red, 3), 0);
        assert_eq!(bucket(PALACE_BUCKETS, Color::Red, 23), 8);
        assert_eq!(bucket(PALACE_BUCKETS, Color::Black, 84), 0);
        assert_eq!(bucket(PALACE_BUCKETS, Color::Black, 77), 5);
        assert_eq!(bucket(1, Color::Black, 84), 0);
        let last = index(Color::Black, 8, Piece::new(Color::Red, Role::Soldier), 0);
        assert_eq!(last, PALACE_BUCKETS * PER_BUCKET - 9);
    }
}
