//! Compile-time construction of [`Tables`] from a board's shape.
//!
//! A shape gives the cells (as lattice coordinates, in index order), the orthogonal
//! unit steps in circular order, Red's palace and half, Red's soldier steps and
//! Red's setup. Everything else follows the seeds' words: a diagonal step is the
//! sum of two neighbouring orthogonal steps; the horse takes an empty orthogonal
//! leg and then one of the two diagonals beside it; the elephant takes two equal
//! diagonal steps over an empty eye and stays home; Black's side is Red's turned
//! half a circle.

use super::{MAX_CELLS, MAX_DIRS, MAX_FILES, MAX_NUMBERS, MAX_ROWS, Step, Tables};
use crate::types::{Color, Piece, Role};

const GRID: usize = 32;
const OFFSET: i32 = 8;

struct Shape {
    name: &'static str,
    files: usize,
    n: usize,
    coords: [(i8, i8); MAX_CELLS],
    grid: [i16; GRID * GRID],
    file_of: [u8; MAX_CELLS],
    number_of: [u8; MAX_CELLS],
    first_number: u8,
    ortho: [(i8, i8); MAX_DIRS],
    dirs: usize,
    /// Black's cell for Red's (x, y) is (rot.0 - x, rot.1 - y).
    rot: (i8, i8),
    red_palace: u128,
    red_home: u128,
    /// Red soldier: the forward step, then the steps it gains once off its own half.
    soldier_forward: (i8, i8),
    soldier_crossed: [(i8, i8); 4],
    n_crossed: usize,
    red_start: [(u8, Role); 16],
    rows: [[i8; MAX_FILES]; MAX_ROWS],
    n_rows: usize,
}

const fn grid_index(x: i32, y: i32) -> Option<usize> {
    let gx = x + OFFSET;
    let gy = y + OFFSET;
    if gx < 0 || gy < 0 || gx >= GRID as i32 || gy >= GRID as i32 {
        None
    } else {
        Some(gx as usize * GRID + gy as usize)
    }
}

const fn at(s: &Shape, x: i32, y: i32) -> i32 {
    match grid_index(x, y) {
        Some(i) => s.grid[i] as i32,
        None => -1,
    }
}

/// The cell one step `v` away from cell `c`, or -1 off the board.
const fn step(s: &Shape, c: usize, v: (i8, i8)) -> i32 {
    let (x, y) = s.coords[c];
    at(s, x as i32 + v.0 as i32, y as i32 + v.1 as i32)
}

const fn add(a: (i8, i8), b: (i8, i8)) -> (i8, i8) {
    (a.0 + b.0, a.1 + b.1)
}

const fn neg(a: (i8, i8)) -> (i8, i8) {
    (-a.0, -a.1)
}

const fn bit(c: i32) -> u128 {
    1u128 << c
}

const fn has(mask: u128, c: i32) -> bool {
    c >= 0 && mask >> c & 1 != 0
}

/// The diagonal between orthogonal directions `i` and `i + 1`.
const fn diagonal(s: &Shape, i: usize) -> (i8, i8) {
    add(s.ortho[i % s.dirs], s.ortho[(i + 1) % s.dirs])
}

const fn rotate_cell(s: &Shape, c: usize) -> i32 {
    let (x, y) = s.coords[c];
    at(s, s.rot.0 as i32 - x as i32, s.rot.1 as i32 - y as i32)
}

const fn rotate_mask(s: &Shape, mask: u128) -> u128 {
    let mut out = 0;
    let mut c = 0;
    while c < s.n {
        if has(mask, c as i32) {
            out |= bit(rotate_cell(s, c));
        }
        c += 1;
    }
    out
}

const EMPTY_STEP: Step = Step { via: 0, to: 0 };

const fn empty_tables(s: &Shape) -> Tables {
    Tables {
        name: s.name,
        cells: s.n,
        files: s.files,
        all: 0,
        dirs: s.dirs,
        up: [false; MAX_DIRS],
        ray: [[0; MAX_CELLS]; MAX_DIRS],
        lines: [0; MAX_CELLS],
        king: [[0; MAX_CELLS]; 2],
        advisor: [[0; MAX_CELLS]; 2],
        elephant: [[[EMPTY_STEP; MAX_DIRS]; MAX_CELLS]; 2],
        elephant_n: [[0; MAX_CELLS]; 2],
        horse: [[EMPTY_STEP; MAX_DIRS]; MAX_CELLS],
        horse_n: [0; MAX_CELLS],
        horse_rev: [[EMPTY_STEP; MAX_DIRS]; MAX_CELLS],
        horse_rev_n: [0; MAX_CELLS],
        soldier: [[0; MAX_CELLS]; 2],
        soldier_rev: [[0; MAX_CELLS]; 2],
        exposure: [0; MAX_CELLS],
        palace: [0; 2],
        home: [0; 2],
        reachable: [[0; 7]; 2],
        file_of: s.file_of,
        number_of: s.number_of,
        first_number: s.first_number,
        cell_at: [[-1; MAX_NUMBERS]; MAX_FILES],
        file_len: [0; MAX_FILES],
        rows: s.rows,
        row_len: [0; MAX_ROWS],
        n_rows: s.n_rows,
        coords: s.coords,
        start: [0; MAX_CELLS],
    }
}

const fn build(s: &Shape) -> Tables {
    let mut t = empty_tables(s);
    let n = s.n;
    t.all = if n == 128 { u128::MAX } else { (1u128 << n) - 1 };
    t.palace = [s.red_palace, rotate_mask(s, s.red_palace)];
    t.home = [s.red_home, rotate_mask(s, s.red_home)];

    let mut c = 0;
    while c < n {
        let f = s.file_of[c] as usize;
        let i = (s.number_of[c] - s.first_number) as usize;
        t.cell_at[f][i] = c as i8;
        if i as u8 + 1 > t.file_len[f] {
            t.file_len[f] = i as u8 + 1;
        }
        c += 1;
    }
    let mut r = 0;
    while r < s.n_rows {
        let mut len = 0;
        let mut k = 0;
        while k < MAX_FILES {
            if s.rows[r][k] >= 0 {
                len = k + 1;
            }
            k += 1;
        }
        t.row_len[r] = len as u8;
        r += 1;
    }

    build_rays(s, &mut t);
    let mut color = 0;
    while color < 2 {
        build_palace_moves(s, &mut t, color);
        build_elephant(s, &mut t, color);
        build_soldier(s, &mut t, color);
        color += 1;
    }
    build_horse(s, &mut t);

    let mut c = 0;
    while c < n {
        let mut e = t.lines[c];
        let mut k = 0;
        while k < t.horse_rev_n[c] as usize {
            e |= t.horse_rev[c][k].via;
            k += 1;
        }
        t.exposure[c] = e;
        c += 1;
    }

    build_start(s, &mut t);
    build_reachable(s, &mut t);
    t
}

const fn build_rays(s: &Shape, t: &mut Tables) {
    let mut d = 0;
    while d < s.dirs {
        let mut direction_known = false;
        let mut c = 0;
        while c < s.n {
            let mut ray = 0u128;
            let mut prev = c as i32;
            let mut cur = step(s, c, s.ortho[d]);
            while cur >= 0 {
                let up = cur > prev;
                if !direction_known {
                    t.up[d] = up;
                    direction_known = true;
                } else if t.up[d] != up {
                    panic!("cell numbering must make every ray run one way");
                }
                ray |= bit(cur);
                prev = cur;
                cur = step(s, cur as usize, s.ortho[d]);
            }
            t.ray[d][c] = ray;
            t.lines[c] |= ray;
            c += 1;
        }
        d += 1;
    }
}

const fn build_palace_moves(s: &Shape, t: &mut Tables, color: usize) {
    let palace = t.palace[color];
    let mut c = 0;
    while c < s.n {
        if has(palace, c as i32) {
            let mut d = 0;
            while d < s.dirs {
                let o = step(s, c, s.ortho[d]);
                if has(palace, o) {
                    t.king[color][c] |= bit(o);
                }
                let g = step(s, c, diagonal(s, d));
                if has(palace, g) {
                    t.advisor[color][c] |= bit(g);
                }
                d += 1;
            }
        }
        c += 1;
    }
}

const fn build_elephant(s: &Shape, t: &mut Tables, color: usize) {
    let home = t.home[color];
    let mut c = 0;
    while c < s.n {
        if has(home, c as i32) {
            let mut d = 0;
            while d < s.dirs {
                let v = diagonal(s, d);
                let eye = step(s, c, v);
                let to = if eye >= 0 { step(s, eye as usize, v) } else { -1 };
                if eye >= 0 && has(home, to) {
                    let k = t.elephant_n[color][c] as usize;
                    t.elephant[color][c][k] = Step { via: bit(eye), to: bit(to) };
                    t.elephant_n[color][c] += 1;
                }
                d += 1;
            }
        }
        c += 1;
    }
}

const fn build_soldier(s: &Shape, t: &mut Tables, color: usize) {
    let home = t.home[color];
    let sign_red = color == 0;
    let mut c = 0;
    while c < s.n {
        let fwd = if sign_red { s.soldier_forward } else { neg(s.soldier_forward) };
        let mut moves = 0u128;
        let f = step(s, c, fwd);
        if f >= 0 {
            moves |= bit(f);
        }
        if !has(home, c as i32) {
            let mut k = 0;
            while k < s.n_crossed {
                let v = if sign_red { s.soldier_crossed[k] } else { neg(s.soldier_crossed[k]) };
                let to = step(s, c, v);
                if to >= 0 {
                    moves |= bit(to);
                }
                k += 1;
            }
        }
        t.soldier[color][c] = moves;
        let mut to = 0;
        while to < s.n {
            if has(moves, to as i32) {
                t.soldier_rev[color][to] |= bit(c as i32);
            }
            to += 1;
        }
        c += 1;
    }
}

const fn build_horse(s: &Shape, t: &mut Tables) {
    let mut c = 0;
    while c < s.n {
        let mut d = 0;
        while d < s.dirs {
            let leg = step(s, c, s.ortho[d]);
            if leg >= 0 {
                let mut targets = 0u128;
                let a = step(s, leg as usize, diagonal(s, d + s.dirs - 1));
                let b = step(s, leg as usize, diagonal(s, d));
                if a >= 0 {
                    targets |= bit(a);
                }
                if b >= 0 {
                    targets |= bit(b);
                }
                if targets != 0 {
                    let k = t.horse_n[c] as usize;
                    t.horse[c][k] = Step { via: bit(leg), to: targets };
                    t.horse_n[c] += 1;
                    add_horse_source(s, t, c, leg as u8, targets);
                }
            }
            d += 1;
        }
        c += 1;
    }
}

/// Records that a horse on `from` with leg `leg` empty attacks every cell of `targets`.
const fn add_horse_source(s: &Shape, t: &mut Tables, from: usize, leg: u8, targets: u128) {
    let mut to = 0;
    while to < s.n {
        if has(targets, to as i32) {
            let n = t.horse_rev_n[to] as usize;
            let mut k = 0;
            while k < n && t.horse_rev[to][k].via != bit(leg as i32) {
                k += 1;
            }
            if k == n {
                t.horse_rev[to][k] = Step { via: bit(leg as i32), to: 0 };
                t.horse_rev_n[to] += 1;
            }
            t.horse_rev[to][k].to |= bit(from as i32);
        }
        to += 1;
    }
}

const fn build_start(s: &Shape, t: &mut Tables) {
    let mut k = 0;
    while k < 16 {
        let (c, role) = s.red_start[k];
        let red = Piece::new(Color::Red, role);
        let black = Piece::new(Color::Black, role);
        t.start[c as usize] = red.index() as u8 + 1;
        t.start[rotate_cell(s, c as usize) as usize] = black.index() as u8 + 1;
        k += 1;
    }
}

const fn build_reachable(s: &Shape, t: &mut Tables) {
    let mut color = 0;
    while color < 2 {
        let mut role = 0;
        while role < 7 {
            let mut reach = 0u128;
            let mut c = 0;
            while c < s.n {
                if t.start[c] as usize == color * 7 + role + 1 {
                    reach |= bit(c as i32);
                }
                c += 1;
            }
            t.reachable[color][role] = match role {
                0 => t.palace[color],
                1 | 2 | 6 => closure(s, t, color, role, reach),
                _ => t.all,
            };
            role += 1;
        }
        color += 1;
    }
}

/// Every cell reachable from `reach` by the role's moves on an empty board.
const fn closure(s: &Shape, t: &Tables, color: usize, role: usize, mut reach: u128) -> u128 {
    loop {
        let mut next = reach;
        let mut c = 0;
        while c < s.n {
            if has(reach, c as i32) {
                next |= match role {
                    1 => t.advisor[color][c],
                    6 => t.soldier[color][c],
                    _ => {
                        let mut m = 0;
                        let mut k = 0;
                        while k < t.elephant_n[color][c] as usize {
                            m |= t.elephant[color][c][k].to;
                            k += 1;
                        }
                        m
                    }
                };
            }
            c += 1;
        }
        if next == reach {
            return reach;
        }
        reach = next;
    }
}

const fn empty_shape(name: &'static str) -> Shape {
    Shape {
        name,
        files: 9,
        n: 0,
        coords: [(0, 0); MAX_CELLS],
        grid: [-1; GRID * GRID],
        file_of: [0; MAX_CELLS],
        number_of: [0; MAX_CELLS],
        first_number: 0,
        ortho: [(0, 0); MAX_DIRS],
        dirs: 0,
        rot: (0, 0),
        red_palace: 0,
        red_home: 0,
        soldier_forward: (0, 0),
        soldier_crossed: [(0, 0); 4],
        n_crossed: 0,
        red_start: [(0, Role::General); 16],
        rows: [[-1; MAX_FILES]; MAX_ROWS],
        n_rows: 0,
    }
}

const fn push_cell(s: &mut Shape, x: i32, y: i32, file: usize, number: usize) {
    let c = s.n;
    s.coords[c] = (x as i8, y as i8);
    match grid_index(x, y) {
        Some(g) => s.grid[g] = c as i16,
        None => panic!("cell outside the lattice"),
    }
    s.file_of[c] = file as u8;
    s.number_of[c] = number as u8;
    s.n += 1;
}

const fn cell_by_name(s: &Shape, file: u8, number: u8) -> u8 {
    let mut c = 0;
    while c < s.n {
        if s.file_of[c] == file && s.number_of[c] == number {
            return c as u8;
        }
        c += 1;
    }
    panic!("no such cell")
}

const fn set_start(s: &mut Shape, names: [(u8, u8, Role); 16]) {
    let mut k = 0;
    while k < 16 {
        let (f, n, role) = names[k];
        s.red_start[k] = (cell_by_name(s, f - b'a', n), role);
        k += 1;
    }
}

const R_SETUP: [Role; 16] = [
    Role::General,
    Role::Advisor,
    Role::Advisor,
    Role::Elephant,
    Role::Elephant,
    Role::Horse,
    Role::Horse,
    Role::Chariot,
    Role::Chariot,
    Role::Cannon,
    Role::Cannon,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
];

const fn setup(cells: [(u8, u8); 16]) -> [(u8, u8, Role); 16] {
    let mut out = [(0, 0, Role::General); 16];
    let mut k = 0;
    while k < 16 {
        out[k] = (cells[k].0, cells[k].1, R_SETUP[k]);
        k += 1;
    }
    out
}

/// The standard board: 9 files x 10 ranks, cell = rank * 9 + file, so north and
/// east run up the indices and south and west down.
pub(super) const fn standard() -> Tables {
    let mut s = empty_shape("standard");
    let mut rank = 0;
    while rank < 10 {
        let mut file = 0;
        while file < 9 {
            push_cell(&mut s, file as i32, rank as i32, file, rank);
            file += 1;
        }
        rank += 1;
    }
    s.ortho = [(0, 1), (1, 0), (0, -1), (-1, 0), (0, 0), (0, 0)];
    s.dirs = 4;
    s.rot = (8, 9);
    let mut c = 0;
    while c < s.n {
        let (x, y) = s.coords[c];
        if x >= 3 && x <= 5 && y <= 2 {
            s.red_palace |= bit(c as i32);
        }
        if y <= 4 {
            s.red_home |= bit(c as i32);
        }
        c += 1;
    }
    s.soldier_forward = (0, 1);
    s.soldier_crossed = [(1, 0), (-1, 0), (0, 0), (0, 0)];
    s.n_crossed = 2;
    set_start(
        &mut s,
        setup([
            (b'e', 0),
            (b'd', 0),
            (b'f', 0),
            (b'c', 0),
            (b'g', 0),
            (b'b', 0),
            (b'h', 0),
            (b'a', 0),
            (b'i', 0),
            (b'b', 2),
            (b'h', 2),
            (b'a', 3),
            (b'c', 3),
            (b'e', 3),
            (b'g', 3),
            (b'i', 3),
        ]),
    );
    let mut row = 0;
    while row < 10 {
        let mut file = 0;
        while file < 9 {
            s.rows[row][file] = ((9 - row) * 9 + file) as i8;
            file += 1;
        }
        row += 1;
    }
    s.n_rows = 10;
    build(&s)
}

/// Hex cells in axial coordinates (q, r) with `q = file - 4`; the lattice keeps
/// `(x, y) = (q, -r)` so that `y` grows towards Black.
const fn hex_on_board(q: i32, r: i32) -> bool {
    let qr = q + r;
    q >= -4 && q <= 4 && r >= -5 && r <= 5 && qr >= -5 && qr <= 5
}

/// The per-file number of an axial cell, counted from Red's end (docs/RULES.md 1.2).
const fn hex_number(q: i32, r: i32) -> i32 {
    if q >= 0 { 6 - q - r } else { 6 - r }
}

/// Xiang Hex: 79 flat-topped cells on nine files of 7..11. Cells are numbered by
/// height from Red's end (D = q + 2r falling), so every orthogonal step, each of
/// which changes the height, runs one way through the indices.
pub(super) const fn hex() -> Tables {
    let mut s = empty_shape("hex");
    s.first_number = 1;
    let mut d = 10;
    while d >= -10 {
        let mut q = -4;
        while q <= 4 {
            if (d - q) % 2 == 0 {
                let r = (d - q) / 2;
                if hex_on_board(q, r) {
                    push_cell(&mut s, q, -r, (q + 4) as usize, hex_number(q, r) as usize);
                    let c = s.n - 1;
                    if d > 0 {
                        s.red_home |= bit(c as i32);
                    }
                }
            }
            q += 1;
        }
        d -= 1;
    }
    // N, NE, SE, S, SW, NW as (x, y) = (q, -r).
    s.ortho = [(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)];
    s.dirs = 6;
    s.rot = (0, 0);
    let palace = [(b'e', 1), (b'e', 2), (b'e', 3), (b'd', 1), (b'd', 2), (b'f', 1), (b'f', 2)];
    let mut k = 0;
    while k < palace.len() {
        s.red_palace |= bit(cell_by_name(&s, palace[k].0 - b'a', palace[k].1) as i32);
        k += 1;
    }
    s.soldier_forward = (0, 1);
    // Forward-right and forward-left (NE, NW), and the sideways diagonals E and W.
    s.soldier_crossed = [(1, 1), (-1, 0), (2, 1), (-2, -1)];
    s.n_crossed = 4;
    set_start(
        &mut s,
        setup([
            (b'e', 1),
            (b'd', 1),
            (b'f', 1),
            (b'c', 1),
            (b'g', 1),
            (b'b', 1),
            (b'h', 1),
            (b'a', 1),
            (b'i', 1),
            (b'b', 2),
            (b'h', 2),
            (b'a', 2),
            (b'c', 3),
            (b'e', 4),
            (b'g', 3),
            (b'i', 2),
        ]),
    );
    // FEN rows follow the Game Courier layout: global rank R = 6 - q - r from 11
    // down to 1, files a..i across, off-board slots written as '-'.
    let mut row = 0;
    while row < 11 {
        let rank = 11 - row as i32;
        let mut q = -4;
        while q <= 4 {
            let r = 6 - q - rank;
            if hex_on_board(q, r) {
                s.rows[row][(q + 4) as usize] = at(&s, q, -r) as i8;
            }
            q += 1;
        }
        row += 1;
    }
    s.n_rows = 11;
    build(&s)
}
