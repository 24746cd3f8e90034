//! The board as a ratatui widget: lines and points, palace diagonals, the river,
//! Chinese glyphs in red and black, the last move, the cursor, the selected piece
//! and its legal targets.

use ratatui::{
    buffer::Buffer,
    layout::Rect,
    style::{Color as Tint, Modifier, Style},
    widgets::Widget,
};
use xiangqi::{Bitboard, Cell, Color, Move, Position, Standard, Tables};

/// Columns per point and rows per rank.
pub const POINT_W: u16 = 4;
pub const POINT_H: u16 = 2;
/// The size the board needs, labels included.
pub const WIDTH: u16 = 2 + 9 * POINT_W + 1;
pub const HEIGHT: u16 = 10 * POINT_H;

pub struct BoardView<'a> {
    pub pos: &'a Position<Standard>,
    pub last: Option<Move>,
    pub cursor: Option<Cell>,
    pub selected: Option<Cell>,
    pub targets: Bitboard,
    pub flipped: bool,
}

pub const RED: Tint = Tint::LightRed;
pub const BLACK: Tint = Tint::White;
const LINES: Tint = Tint::DarkGray;

impl BoardView<'_> {
    fn tables() -> &'static Tables {
        Position::<Standard>::tables()
    }

    /// Screen column and row of a point, relative to the board's top-left corner.
    pub fn place(flipped: bool, file: usize, rank: usize) -> (u16, u16) {
        let (col, row) = if flipped { (8 - file, rank) } else { (file, 9 - rank) };
        (2 + col as u16 * POINT_W, row as u16 * POINT_H)
    }

    /// The point under a screen position of the board, if any.
    pub fn point_at(flipped: bool, x: u16, y: u16) -> Option<Cell> {
        let col = x.checked_sub(2)? / POINT_W;
        let row = y / POINT_H;
        if col > 8 || row > 9 || y % POINT_H != 0 {
            return None;
        }
        let (file, rank) = if flipped { (8 - col, row) } else { (col, 9 - row) };
        Self::tables().cell(file as usize, rank as usize)
    }
}

impl Widget for BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = Self::tables();
        let line = Style::default().fg(LINES);
        let put = |buf: &mut Buffer, x: u16, y: u16, s: &str, style: Style| {
            if x < area.width && y < area.height {
                buf.set_string(area.x + x, area.y + y, s, style);
            }
        };
        // Grid lines first, pieces over them.
        for rank in 0..10 {
            let (_, y) = Self::place(self.flipped, 0, rank);
            for x in 2..2 + 8 * POINT_W + 1 {
                put(buf, x, y, "─", line);
            }
            let label = rank.to_string();
            put(buf, 0, y, &label, line);
        }
        for file in 0..9 {
            let (x, y_top) = Self::place(self.flipped, file, if self.flipped { 0 } else { 9 });
            for y in y_top..y_top + 9 * POINT_H {
                let river = y > 4 * POINT_H && y < 5 * POINT_H;
                if y % POINT_H != 0 && (!river || file == 0 || file == 8) {
                    put(buf, x, y, "│", line);
                }
            }
        }
        let river_y = 4 * POINT_H + 1;
        let (left, right) = if self.flipped { ("漢 界", "楚 河") } else { ("楚 河", "漢 界") };
        put(buf, 2 + POINT_W + 2, river_y, left, line);
        put(buf, 2 + 5 * POINT_W + 2, river_y, right, line);
        // Each palace line runs through the palace centre (e1, e8) to a corner.
        for centre in [1, 8] {
            for (file, rank) in [(3, centre - 1), (5, centre - 1), (3, centre + 1), (5, centre + 1)] {
                let (xa, ya) = Self::place(self.flipped, 4, centre);
                let (xb, yb) = Self::place(self.flipped, file, rank);
                let rising = (xb > xa) == (yb < ya);
                put(
                    buf,
                    xa.min(xb) + POINT_W / 2,
                    ya.min(yb) + POINT_H / 2,
                    if rising { "╱" } else { "╲" },
                    line,
                );
            }
        }
        for file in 0..9 {
            let (x, _) = Self::place(self.flipped, file, 0);
            let letter = ((b'a' + file as u8) as char).to_string();
            put(buf, x, 9 * POINT_H + 1, &letter, line);
        }
        for i in 0..t.cells() {
            let c = Cell::new(i);
            let (x, y) = Self::place(self.flipped, t.file(c), t.number(c));
            let mut style = Style::default();
            if self.last.is_some_and(|m| m.from == c || m.to == c) {
                style = style.bg(Tint::Blue);
            }
            if self.selected == Some(c) {
                style = style.bg(Tint::Yellow).fg(Tint::Black);
            }
            if self.cursor == Some(c) {
                style = style.add_modifier(Modifier::REVERSED);
            }
            match self.pos.piece_at(c) {
                Some(p) => {
                    let tint = if p.color == Color::Red { RED } else { BLACK };
                    let mut s = style.fg(tint).add_modifier(Modifier::BOLD);
                    if self.selected == Some(c) {
                        s = s.fg(Tint::Black);
                    }
                    if self.targets.contains(c) {
                        s = s.add_modifier(Modifier::UNDERLINED).bg(Tint::Green);
                    }
                    put(buf, x, y, &p.glyph().to_string(), s);
                }
                None if self.targets.contains(c) => put(buf, x, y, "◉", style.fg(Tint::Green)),
                None => {
                    // The crossing as the screen shows it: a flipped board turns its edges too.
                    let (f, r) = if self.flipped {
                        (8 - t.file(c), 9 - t.number(c))
                    } else {
                        (t.file(c), t.number(c))
                    };
                    let mark = crate::render::crossing(f, r).to_string();
                    put(buf, x, y, &mark, if style == Style::default() { line } else { style.fg(LINES) });
                }
            }
        }
    }
}
