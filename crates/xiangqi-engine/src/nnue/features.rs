//! The network's inputs: one per (bucket, piece seen from a side, cell seen from that side).
//!
//! Each side sees the board from its own end: for Black every file is reversed
//! (the ranks on the standard board), so that "my soldier two rows from my back
//! row" is the same input for either side, and pieces are "mine" or "theirs"
//! rather than red or black. With palace buckets the inputs are also split by the
//! cell of the side's own general (one bucket per palace cell: nine on the
//! standard board, seven on the hex board), which lets the net judge every piece
//! relative to the general's shelter; a general's step then changes its own
//! side's every input (a refresh).
//!
//! A [`Layout`] holds what a board's inputs need: its cell count, each cell as
//! Black sees it, each palace cell's bucket, and each cell's left-right mirror
//! (for the trainer). Both boards' layouts are built once from the rules crate's tables.

use std::sync::OnceLock;

use xiangqi::{Cell, Color, Piece, Variant};

/// The most cells a board has (the standard board's 90; the hex board has 79).
pub const MAX_CELLS: usize = 90;
/// Roles times mine/theirs: the inputs of one cell in one bucket.
pub const PIECE_KINDS: usize = Piece::COUNT;

/// How one board's positions become inputs.
#[derive(Debug)]
pub struct Layout {
    /// The board.
    pub variant: Variant,
    /// The number of cells of the board.
    pub cells: usize,
    /// Each cell as Black sees it: the same file, counted from the other end.
    black_view: [u8; MAX_CELLS],
    /// The bucket of a general on each cell, as its own side sees the cell
    /// (Red's palace cells in index order); 0 off the palace.
    palace_bucket: [u8; MAX_CELLS],
    /// Each cell mirrored left to right: the same place on the opposite file.
    mirror: [u8; MAX_CELLS],
    /// The number of cells of a palace (a bucketed net has an input bucket for each).
    pub palace_cells: usize,
    /// Pieces on the board at the start, generals included (32 on either board).
    pub start_pieces: usize,
}

impl Layout {
    /// The layout of a board, built on first use.
    pub fn of(variant: Variant) -> &'static Layout {
        static LAYOUTS: OnceLock<[Layout; 2]> = OnceLock::new();
        let layouts = LAYOUTS.get_or_init(|| [Layout::build(Variant::Standard), Layout::build(Variant::Hex)]);
        &layouts[usize::from(variant == Variant::Hex)]
    }

    /// The layout of the board with this many cells, if there is one (a file names its board so).
    pub fn with_cells(cells: usize) -> Option<&'static Layout> {
        Variant::ALL.into_iter().map(Layout::of).find(|l| l.cells == cells)
    }

    fn build(variant: Variant) -> Layout {
        let t = variant.tables();
        let mut black_view = [0u8; MAX_CELLS];
        for file in 0..t.files() {
            let cells: Vec<Cell> = t.file_cells(file).collect();
            for (c, mirrored) in cells.iter().zip(cells.iter().rev()) {
                black_view[c.index()] = mirrored.index() as u8;
            }
        }
        let mut mirror = [0u8; MAX_CELLS];
        for (c, m) in mirror.iter_mut().enumerate().take(t.cells()) {
            let cell = Cell::new(c);
            let opposite =
                t.cell(t.files() - 1 - t.file(cell), t.number(cell)).expect("the boards are symmetric");
            *m = opposite.index() as u8;
        }
        let mut palace_bucket = [0u8; MAX_CELLS];
        let palace: Vec<Cell> = t.palace(Color::Red).into_iter().collect();
        for (k, c) in palace.iter().enumerate() {
            palace_bucket[c.index()] = k as u8;
        }
        let start_pieces = xiangqi::with_geometry!(variant, G => xiangqi::Position::<G>::startpos().occupied().count())
            as usize;
        Layout {
            variant,
            cells: t.cells(),
            black_view,
            palace_bucket,
            mirror,
            palace_cells: palace.len(),
            start_pieces,
        }
    }

    /// Inputs of one bucket: 7 roles, 2 sides (mine, theirs), every cell.
    #[inline]
    pub const fn per_bucket(&self) -> usize {
        PIECE_KINDS * self.cells
    }

    /// Whether a net may have `buckets` buckets on this board: one, or one per palace cell.
    pub fn takes_buckets(&self, buckets: usize) -> bool {
        buckets == 1 || buckets == self.palace_cells
    }

    /// A cell as `side` sees it: unchanged for Red, each file reversed for Black.
    #[inline]
    pub fn orient(&self, side: Color, cell: usize) -> usize {
        match side {
            Color::Red => cell,
            Color::Black => usize::from(self.black_view[cell]),
        }
    }

    /// The bucket of `side`'s inputs, from the cell of its own general: always 0
    /// with one bucket, else the general's palace cell as that side sees it.
    #[inline]
    pub fn bucket(&self, buckets: usize, side: Color, general: usize) -> usize {
        if buckets == 1 {
            return 0;
        }
        usize::from(self.palace_bucket[self.orient(side, general)])
    }

    /// The output bucket of a position with `pieces` on the board (generals
    /// included): the pieces beyond the two generals split into `outputs` equal
    /// ranges, so that the net can weigh its features differently in the
    /// opening, the middle game and the endgame. Always 0 with one output.
    #[inline]
    pub fn output_bucket(&self, outputs: usize, pieces: usize) -> usize {
        if outputs <= 1 {
            return 0;
        }
        (pieces.saturating_sub(2) * outputs / (self.start_pieces - 1)).min(outputs - 1)
    }

    /// A cell mirrored left to right (the trainer learns each position and its mirror image).
    #[inline]
    pub fn mirror(&self, cell: usize) -> usize {
        usize::from(self.mirror[cell])
    }

    /// The input for `piece` on `cell`, seen by `side`, in `bucket`.
    #[inline]
    pub fn index(&self, side: Color, bucket: usize, piece: Piece, cell: usize) -> usize {
        let theirs = usize::from(piece.color != side);
        bucket * self.per_bucket() + (theirs * 7 + piece.role.index()) * self.cells + self.orient(side, cell)
    }
}

#[cfg(test)]
mod tests {
    use xiangqi::{Geometry, Hex, Position, Role, Standard};

    use super::*;

    #[test]
    fn each_side_sees_its_own_pieces_from_its_own_end() {
        let l = Layout::of(Variant::Standard);
        // Red's general on e0 (cell 4) and Black's on e9 (cell 85) are the same input for their sides.
        let red = l.index(Color::Red, 0, Piece::new(Color::Red, Role::General), 4);
        let black = l.index(Color::Black, 0, Piece::new(Color::Black, Role::General), 85);
        assert_eq!(red, black);
        assert_eq!(red, 4);
        // The enemy general is a "theirs" input.
        assert_eq!(l.index(Color::Red, 0, Piece::new(Color::Black, Role::General), 85), 7 * 90 + 85);
        // Black sees the ranks reversed.
        for c in 0..90 {
            assert_eq!(l.orient(Color::Black, c), (9 - c / 9) * 9 + c % 9);
            assert_eq!(l.mirror(c), c / 9 * 9 + 8 - c % 9);
        }
        // The palace buckets are rank * 3 + file - 3, each side from its own end.
        assert_eq!(l.palace_cells, 9);
        assert_eq!(l.bucket(9, Color::Red, 3), 0);
        assert_eq!(l.bucket(9, Color::Red, 23), 8);
        assert_eq!(l.bucket(9, Color::Black, 84), 0);
        assert_eq!(l.bucket(9, Color::Black, 77), 5);
        assert_eq!(l.bucket(1, Color::Black, 84), 0);
        let last = l.index(Color::Black, 8, Piece::new(Color::Red, Role::Soldier), 0);
        assert_eq!(last, 9 * l.per_bucket() - 9);
        assert!(l.takes_buckets(1) && l.takes_buckets(9) && !l.takes_buckets(7));
    }

    #[test]
    fn output_buckets_split_the_pieces_beyond_the_generals_evenly() {
        for variant in Variant::ALL {
            let l = Layout::of(variant);
            assert_eq!(l.start_pieces, 32);
            let buckets: Vec<usize> = (2..=32).map(|n| l.output_bucket(8, n)).collect();
            assert_eq!(buckets[0], 0, "two bare generals");
            assert_eq!(buckets[30], 7, "the full start");
            assert!(buckets.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1), "{buckets:?}");
            for b in 0..8 {
                let n = buckets.iter().filter(|&&x| x == b).count();
                assert!((3..=5).contains(&n), "bucket {b} covers {n} counts: {buckets:?}");
            }
            assert!((2..=32).all(|n| l.output_bucket(1, n) == 0));
        }
    }

    /// The start position is the same army for either side seen from its own end,
    /// so Black's view of every piece is a Red piece of the same role.
    fn views_agree<G: Geometry>() {
        let l = Layout::of(G::VARIANT);
        let start = Position::<G>::startpos();
        for c in 0..l.cells {
            let cell = Cell::new(c);
            let seen = Cell::new(l.orient(Color::Black, c));
            let mirrored = Cell::new(l.mirror(c));
            assert_eq!(l.mirror(mirrored.index()), c);
            assert_eq!(G::TABLES.number(mirrored), G::TABLES.number(cell));
            assert_eq!(start.piece_at(mirrored), start.piece_at(cell), "the start is symmetric");
            assert_eq!(l.orient(Color::Black, seen.index()), c, "the view is its own inverse");
            assert_eq!(G::TABLES.file(seen), G::TABLES.file(cell));
            match start.piece_at(cell) {
                Some(p) => {
                    let q = start.piece_at(seen).expect("a piece opposite");
                    assert_eq!((q.role, q.color), (p.role, !p.color));
                }
                None => assert!(start.piece_at(seen).is_none()),
            }
        }
        // Each side's general starts in the same bucket.
        let buckets = l.palace_cells;
        let red = l.bucket(buckets, Color::Red, start.general(Color::Red).index());
        assert_eq!(red, l.bucket(buckets, Color::Black, start.general(Color::Black).index()));
        // Every palace cell is its own bucket.
        let mut seen: Vec<usize> = G::TABLES
            .palace(Color::Black)
            .into_iter()
            .map(|c| l.bucket(buckets, Color::Black, c.index()))
            .collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..buckets).collect::<Vec<_>>());
    }

    #[test]
    fn black_sees_the_start_as_red_does_on_both_boards() {
        views_agree::<Standard>();
        views_agree::<Hex>();
        let hex = Layout::of(Variant::Hex);
        assert_eq!((hex.cells, hex.palace_cells, hex.per_bucket()), (79, 7, 14 * 79));
    }
}
