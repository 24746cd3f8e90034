//! Text drawings of a position for the terminal: the standard board as lines and
//! points with palace diagonals and the river, the hex board as ASCII hexagons.
//! Pieces are Chinese glyphs (two columns wide); on a colour terminal red pieces
//! are red, black pieces bold, and the cells of the last move are underlined.

use xiangqi::{Cell, Color, Geometry, Move, Piece, Position, Tables, Variant};

/// Whether to use ANSI colours.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    Plain,
    Ansi,
}

impl Paint {
    /// Colours when stdout is a terminal and `NO_COLOR` is unset.
    pub fn detect() -> Paint {
        use std::io::IsTerminal;
        if std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
            Paint::Ansi
        } else {
            Paint::Plain
        }
    }

    fn piece(self, p: Piece, marked: bool) -> String {
        let glyph = p.glyph().to_string();
        if self == Paint::Plain {
            return glyph;
        }
        let colour = match p.color {
            Color::Red => "1;31",
            Color::Black => "1",
        };
        let mark = if marked { ";4;7" } else { "" };
        format!("\x1b[{colour}{mark}m{glyph}\x1b[0m")
    }

    fn mark(self, s: &str, marked: bool) -> String {
        if self == Paint::Ansi && marked { format!("\x1b[7m{s}\x1b[0m") } else { s.to_string() }
    }
}

/// Draws a position from Red's side; `last` marks the cells of the last move.
pub fn board<G: Geometry>(pos: &Position<G>, last: Option<Move>, paint: Paint) -> String {
    board_from(pos, last, paint, false)
}

/// Draws a position, from Black's side when `flipped` (the standard board only).
pub fn board_from<G: Geometry>(pos: &Position<G>, last: Option<Move>, paint: Paint, flipped: bool) -> String {
    match G::VARIANT {
        Variant::Standard => standard(pos, last, paint, flipped),
        Variant::Hex => hex(pos, last, paint),
    }
}

fn marked(last: Option<Move>, c: Cell) -> bool {
    last.is_some_and(|m| m.from == c || m.to == c)
}

/// The empty point at (file, rank): a line crossing shaped by the board edges and the river.
pub(crate) fn crossing(file: usize, rank: usize) -> char {
    let (left, right) = (file == 0, file == 8);
    let top = rank == 9 || rank == 4 && !left && !right;
    let bottom = rank == 0 || rank == 5 && !left && !right;
    match (left, right, top, bottom) {
        (true, _, true, _) => '┌',
        (_, true, true, _) => '┐',
        (true, _, _, true) => '└',
        (_, true, _, true) => '┘',
        (true, _, _, _) => '├',
        (_, true, _, _) => '┤',
        (_, _, true, _) => '┬',
        (_, _, _, true) => '┴',
        _ => '┼',
    }
}

/// The palace diagonal drawn between files `file` and `file + 1`, below rank `upper`.
fn diagonal(file: usize, upper: usize) -> char {
    match (upper, file) {
        (1 | 8, 3) | (2 | 9, 4) => '╱',
        (1 | 8, 4) | (2 | 9, 3) => '╲',
        _ => ' ',
    }
}

fn standard<G: Geometry>(pos: &Position<G>, last: Option<Move>, paint: Paint, flipped: bool) -> String {
    let t: &Tables = G::TABLES;
    // Screen column and row (row 0 at the top) to the board's file and rank.
    let cell_at = |col: usize, row: usize| {
        if flipped { t.cell(8 - col, row) } else { t.cell(col, 9 - row) }
    };
    let letters: String = (0..9)
        .map(|col| {
            let file = if flipped { 8 - col } else { col };
            format!("{}  ", (b'a' + file as u8) as char)
        })
        .collect();
    let files = format!("   {}\n", letters.trim_end());
    let mut out = files.clone();
    for row in 0..10 {
        let rank = if flipped { row } else { 9 - row };
        out.push_str(&format!("{rank}  "));
        for col in 0..9 {
            let Some(c) = cell_at(col, row) else { continue };
            let here = marked(last, c);
            match pos.piece_at(c) {
                Some(p) => out.push_str(&paint.piece(p, here)),
                None => {
                    let tail = if col < 8 { '─' } else { ' ' };
                    out.push_str(&paint.mark(&format!("{}{tail}", crossing(col, 9 - row)), here));
                }
            }
            if col < 8 {
                out.push('─');
            }
        }
        out.push_str(&format!("  {rank}\n"));
        if row == 4 {
            let (a, b) = if flipped { ("漢 界", "楚 河") } else { ("楚 河", "漢 界") };
            out.push_str(&format!("   │    {a}          {b}    │\n"));
        } else if row < 9 {
            out.push_str("   ");
            for col in 0..9 {
                out.push('│');
                if col < 8 {
                    out.push(' ');
                    out.push(diagonal(col, 9 - row));
                }
            }
            out.push('\n');
        }
    }
    out.push_str(&files);
    out
}

/// The hex board as ASCII flat-topped hexagons: files three columns apart, each
/// cell two lines tall, neighbouring files half a cell apart, Red at the bottom.
fn hex<G: Geometry>(pos: &Position<G>, last: Option<Move>, paint: Paint) -> String {
    let t: &Tables = G::TABLES;
    const WIDTH: usize = 3 * 9 + 2;
    const HEIGHT: usize = 24;
    // Each slot holds the text drawn at that column; a wide glyph leaves the next slot empty.
    let mut grid: Vec<Vec<Option<String>>> = vec![vec![Some(" ".to_string()); WIDTH + 1]; HEIGHT];
    fn put(grid: &mut [Vec<Option<String>>], y: usize, x: usize, s: &str) {
        grid[y][x] = Some(s.to_string());
    }
    for i in 0..t.cells() {
        let c = Cell::new(i);
        let (q, y) = t.coords(c);
        // Height D = q + 2r with r = -y: D = 10 at Red's end.
        let d = q - 2 * y;
        let line = (d + 11) as usize;
        let col = 3 * (q + 4) as usize;
        put(&mut grid, line - 1, col + 1, "_");
        put(&mut grid, line - 1, col + 2, "_");
        put(&mut grid, line, col, "/");
        put(&mut grid, line, col + 3, "\\");
        put(&mut grid, line + 1, col, "\\");
        put(&mut grid, line + 1, col + 1, "_");
        put(&mut grid, line + 1, col + 2, "_");
        put(&mut grid, line + 1, col + 3, "/");
        let here = marked(last, c);
        let river = d == 0;
        grid[line][col + 2] = None;
        match pos.piece_at(c) {
            Some(p) => grid[line][col + 1] = Some(paint.piece(p, here)),
            None => {
                let palace = t.palace(Color::Red) | t.palace(Color::Black);
                let fill = if river {
                    "~~"
                } else if palace.contains(c) {
                    "::"
                } else {
                    "  "
                };
                grid[line][col + 1] = Some(paint.mark(fill, here));
            }
        }
    }
    let mut out = String::new();
    for row in grid {
        let line: String = row.into_iter().flatten().collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let mut letters = String::new();
    for f in 0..9 {
        letters.push_str(&format!(" {}{}", (b'a' + f) as char, if f < 8 { " " } else { "" }));
    }
    out.push_str(letters.trim_end());
    out.push_str("\n(cells are named per file from Red's end: a1..a7, e1..e11; ~~ river, :: palace)\n");
    out
}
