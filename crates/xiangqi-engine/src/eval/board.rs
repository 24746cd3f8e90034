//! What the evaluation needs to know about each cell of a geometry, derived from
//! the rules crate's public tables, so one evaluation serves both boards.

use xiangqi::{Color, Geometry, Tables, Variant};

/// Unit steps along the lines of the board, in lattice coordinates.
const STANDARD_LINES: &[(i32, i32)] = &[(0, 1), (1, 0), (0, -1), (-1, 0)];
const HEX_LINES: &[(i32, i32)] = &[(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)];

/// Set in a [`Board::between`] mask when the two cells share a line.
pub const ALIGNED: u128 = 1 << 127;

/// Per-cell facts for one geometry, seen from each side.
pub struct Board {
    /// The number of cells of the board.
    pub cells: usize,
    /// Rows advanced from the side's own back row (0 at home).
    pub advance: [Vec<i32>; 2],
    /// Files away from the central file.
    pub side: Vec<i32>,
    /// On the central file.
    pub centre_file: Vec<bool>,
    /// On the first or the last file.
    pub edge: Vec<bool>,
    /// On the side's first (back) cell of its file.
    pub back_row: [Vec<bool>; 2],
    /// On the side's last cell of its file, at the enemy's end.
    pub last_row: [Vec<bool>; 2],
    /// In the other side's half.
    pub crossed: [Vec<bool>; 2],
    /// The same, as a set of cells.
    pub crossed_cells: [u128; 2],
    /// Closeness to the enemy palace's centre: 3 next to it, 0 from four steps away.
    pub near_enemy_palace: [Vec<i32>; 2],
    /// The centre of the side's own palace.
    pub palace_centre: [usize; 2],
    /// Cells strictly between two cells on one line, with [`ALIGNED`] set; 0 when
    /// the cells share no line. Indexed `a * cells + b`.
    between: Vec<u128>,
    /// Cells beside each other on a row (for connected soldiers).
    pub beside: Vec<u128>,
}

impl Board {
    /// The facts of the board `G`.
    pub fn new<G: Geometry>() -> Board {
        let t = G::TABLES;
        let n = t.cells();
        let lines = match G::VARIANT {
            Variant::Standard => STANDARD_LINES,
            Variant::Hex => HEX_LINES,
        };
        let mut at = std::collections::HashMap::new();
        for c in t.all() {
            at.insert(t.coords(c), c.index());
        }
        let centre = (t.files() / 2) as i32;
        let advance_of = |c: usize, color: Color| -> i32 {
            let (x, y) = t.coords(xiangqi::Cell::new(c));
            let red = match G::VARIANT {
                Variant::Standard => y,
                // Height across the hexagon: 0 at Red's corner, 10 at Black's.
                Variant::Hex => (10 - (x - 2 * y)) / 2,
            };
            let top = match G::VARIANT {
                Variant::Standard => 9,
                Variant::Hex => 10,
            };
            if color == Color::Red { red } else { top - red }
        };
        let mut b = Board {
            cells: n,
            advance: [vec![0; n], vec![0; n]],
            side: vec![0; n],
            centre_file: vec![false; n],
            edge: vec![false; n],
            back_row: [vec![false; n], vec![false; n]],
            last_row: [vec![false; n], vec![false; n]],
            crossed: [vec![false; n], vec![false; n]],
            crossed_cells: [t.home(Color::Black).0, t.home(Color::Red).0],
            near_enemy_palace: [vec![0; n], vec![0; n]],
            palace_centre: [0; 2],
            between: vec![0; n * n],
            beside: vec![0; n],
        };
        for color in Color::ALL {
            let cells: Vec<_> = t.palace(color).collect();
            let (sx, sy) = cells.iter().fold((0, 0), |(sx, sy), c| {
                let (x, y) = t.coords(*c);
                (sx + x, sy + y)
            });
            let k = cells.len().max(1) as i32;
            let target = (
                sx.div_euclid(k) + i32::from(sx.rem_euclid(k) * 2 >= k),
                sy.div_euclid(k) + i32::from(sy.rem_euclid(k) * 2 >= k),
            );
            b.palace_centre[color.index()] = cells
                .iter()
                .map(|c| c.index())
                .find(|&c| t.coords(xiangqi::Cell::new(c)) == target)
                .unwrap_or(cells[0].index());
        }
        for c in 0..n {
            let cell = xiangqi::Cell::new(c);
            let file = t.file(cell) as i32;
            b.side[c] = (file - centre).abs();
            b.centre_file[c] = file == centre;
            b.edge[c] = file == 0 || file == t.files() as i32 - 1;
            let file_cells: Vec<_> = t.file_cells(t.file(cell)).collect();
            for color in Color::ALL {
                let i = color.index();
                b.advance[i][c] = advance_of(c, color);
                let (first, last) = (file_cells.first().copied(), file_cells.last().copied());
                let (own_end, far_end) = if color == Color::Red { (first, last) } else { (last, first) };
                b.back_row[i][c] = own_end == Some(cell);
                b.last_row[i][c] = far_end == Some(cell);
                b.crossed[i][c] = t.home(!color).contains(cell);
                let enemy_centre = b.palace_centre[(!color).index()];
                let d = distance::<G>(t, c, enemy_centre);
                b.near_enemy_palace[i][c] = (4 - d).clamp(0, 3);
            }
        }
        for a in 0..n {
            let (ax, ay) = t.coords(xiangqi::Cell::new(a));
            for &(dx, dy) in lines {
                let mut mask = 0u128;
                let (mut x, mut y) = (ax + dx, ay + dy);
                while let Some(&c) = at.get(&(x, y)) {
                    b.between[a * n + c] = mask | ALIGNED;
                    mask |= 1 << c;
                    x += dx;
                    y += dy;
                }
            }
            for dx in [-1, 1] {
                let side = match G::VARIANT {
                    Variant::Standard => (ax + dx, ay),
                    // Hex rows tilt: the neighbour on the same height is two files away.
                    Variant::Hex => (ax + 2 * dx, ay + dx),
                };
                if let Some(&c) = at.get(&side) {
                    b.beside[a] |= 1 << c;
                }
            }
        }
        b
    }

    /// The cells strictly between `a` and `b` with [`ALIGNED`] set, or 0 if they share no line.
    #[inline]
    pub fn between(&self, a: usize, b: usize) -> u128 {
        self.between[a * self.cells + b]
    }
}

/// Steps between two cells on the lattice.
fn distance<G: Geometry>(t: &Tables, a: usize, b: usize) -> i32 {
    let (ax, ay) = t.coords(xiangqi::Cell::new(a));
    let (bx, by) = t.coords(xiangqi::Cell::new(b));
    let (dx, dy) = (ax - bx, ay - by);
    match G::VARIANT {
        Variant::Standard => dx.abs() + dy.abs(),
        // Axial (q, r) = (x, -y): hex distance is (|dq| + |dr| + |dq + dr|) / 2.
        Variant::Hex => (dx.abs() + dy.abs() + (dx - dy).abs()) / 2,
    }
}

#[cfg(test)]
mod tests {
    use xiangqi::{Hex, Standard};

    use super::*;

    #[test]
    fn standard_board_facts() {
        let b = Board::new::<Standard>();
        let t = Standard::TABLES;
        let e0 = t.parse_cell("e0").unwrap().index();
        let e9 = t.parse_cell("e9").unwrap().index();
        let e1 = t.parse_cell("e1").unwrap().index();
        let e8 = t.parse_cell("e8").unwrap().index();
        assert_eq!(b.palace_centre, [e1, e8]);
        assert_eq!(b.advance[0][e9], 9);
        assert_eq!(b.advance[1][e9], 0);
        assert!(b.back_row[0][e0] && b.last_row[1][e0]);
        assert_eq!((b.between(e0, e9) & !ALIGNED).count_ones(), 8);
        assert_eq!(b.between(e0, t.parse_cell("d2").unwrap().index()), 0);
        assert_eq!(b.near_enemy_palace[0][e8], 3);
        assert!(b.crossed[0][t.parse_cell("a5").unwrap().index()]);
    }

    #[test]
    fn hex_board_facts() {
        let b = Board::new::<Hex>();
        let t = Hex::TABLES;
        let e2 = t.parse_cell("e2").unwrap().index();
        assert_eq!(b.palace_centre[0], e2);
        let red_general = t.parse_cell("e1").unwrap().index();
        assert_eq!(b.advance[0][red_general], 0);
        assert!(b.advance[1][red_general] >= 9);
        assert!(b.cells == 79);
    }
}
