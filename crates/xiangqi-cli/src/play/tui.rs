//! The full-screen terminal game: the board with the cursor and legal targets, the
//! WXF move list, the engine's thinking, and a line for typed moves and commands.
//! The engine thinks on its own thread so the screen stays live.

use std::{
    io,
    sync::mpsc::{self, Receiver},
    time::Duration,
};

use ratatui::{
    DefaultTerminal, Frame,
    crossterm::{
        event::{
            self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind,
            KeyModifiers, MouseButton, MouseEventKind,
        },
        execute,
    },
    layout::{Constraint, Layout, Rect},
    style::{Color as Tint, Modifier, Style},
    text::{Line, Span},
    widgets::{Block, Paragraph, Wrap},
};
use xiangqi::{Bitboard, Cell, Color, Move};

use super::{
    board_view::{self, BoardView},
    commands::Command,
    engine::{Found, Thinking},
    session::Session,
};

enum FromEngine {
    Info(Thinking),
    Done(Found),
}

pub struct App {
    pub session: Session,
    pub cursor: Cell,
    pub selected: Option<Cell>,
    pub input: String,
    pub messages: Vec<String>,
    pub thinking: Vec<String>,
    engine: Option<Receiver<FromEngine>>,
    quit: bool,
    /// Where the board was last drawn, for mouse clicks.
    board_area: Rect,
}

impl App {
    pub fn new(session: Session) -> App {
        let cursor = session.position().general(Color::Red);
        App {
            session,
            cursor,
            selected: None,
            input: String::new(),
            messages: vec![
                "Arrows and Enter to move, or type a move (h2e2, C2=5, 炮二平五). F1 or `help` for more."
                    .into(),
            ],
            thinking: Vec::new(),
            engine: None,
            quit: false,
            board_area: Rect::default(),
        }
    }

    fn say(&mut self, lines: impl IntoIterator<Item = String>) {
        self.messages.extend(lines);
        let keep = 40;
        if self.messages.len() > keep {
            self.messages.drain(..self.messages.len() - keep);
        }
    }

    /// Legal targets of the selected piece.
    pub fn targets(&self) -> Bitboard {
        let Some(from) = self.selected else { return Bitboard::EMPTY };
        self.session.game.legal_moves().iter().filter(|m| m.from == from).map(|m| m.to).collect()
    }

    pub fn run_command(&mut self, command: Command) {
        self.selected = None;
        match self.session.handle(command) {
            Ok(reply) => {
                self.quit |= reply.quit;
                self.say(reply.lines);
            }
            Err(why) => self.say([format!("Refused: {why}")]),
        }
    }

    /// Enter on a point: pick up a piece of the side to move, or move the picked one there.
    pub fn choose(&mut self, c: Cell) {
        if self.session.engine_to_move() || self.session.game.outcome().is_some() {
            return;
        }
        let turn = self.session.game.turn();
        if self.session.position().piece_at(c).is_some_and(|p| p.color == turn) {
            self.selected = if self.selected == Some(c) { None } else { Some(c) };
            return;
        }
        let Some(from) = self.selected else { return };
        let m = Move::new(from, c);
        if self.targets().contains(c) {
            self.selected = None;
            match self.session.play(m) {
                Ok(reply) => self.say(reply.lines),
                Err(why) => self.say([format!("Refused: {why}")]),
            }
        } else {
            let why =
                self.session.game.why_illegal(m).map_or("not a legal move".to_string(), |r| r.to_string());
            self.say([format!("Refused: {why}")]);
        }
    }

    fn step_cursor(&mut self, dx: i32, dy: i32) {
        let t = xiangqi::Position::<xiangqi::Standard>::tables();
        let (dx, dy) = if self.session.flipped { (-dx, -dy) } else { (dx, dy) };
        let file = (t.file(self.cursor) as i32 + dx).clamp(0, 8) as usize;
        let rank = (t.number(self.cursor) as i32 + dy).clamp(0, 9) as usize;
        if let Some(c) = t.cell(file, rank) {
            self.cursor = c;
        }
    }

    pub fn key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        match key.code {
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => self.quit = true,
            KeyCode::Up => self.step_cursor(0, 1),
            KeyCode::Down => self.step_cursor(0, -1),
            KeyCode::Left => self.step_cursor(-1, 0),
            KeyCode::Right => self.step_cursor(1, 0),
            KeyCode::F(1) => self.run_command(Command::Help),
            KeyCode::F(2) => self.run_command(Command::Hint),
            KeyCode::F(3) => self.run_command(Command::TakeBack),
            KeyCode::F(4) => self.run_command(Command::Flip),
            KeyCode::F(5) => self.run_command(Command::Think),
            KeyCode::Esc => {
                self.input.clear();
                self.selected = None;
            }
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Enter if !self.input.is_empty() => {
                let line = std::mem::take(&mut self.input);
                if let Some(cmd) = Command::parse(&line) {
                    self.run_command(cmd);
                }
            }
            KeyCode::Enter | KeyCode::Char(' ') if self.input.is_empty() => self.choose(self.cursor),
            KeyCode::Char(ch) => self.input.push(ch),
            _ => {}
        }
    }

    fn click(&mut self, x: u16, y: u16) {
        let a = self.board_area;
        if x < a.x || y < a.y {
            return;
        }
        if let Some(c) = BoardView::point_at(self.session.flipped, x - a.x, y - a.y) {
            self.cursor = c;
            self.choose(c);
        }
    }

    /// Starts the engine on its own thread when it is its turn.
    fn poll_engine(&mut self) {
        if self.engine.is_none() && self.session.engine_to_move() {
            let (tx, rx) = mpsc::channel();
            let game = self.session.game.clone();
            let opponent = self.session.opponent.clone();
            std::thread::spawn(move || {
                let info_tx = tx.clone();
                let mut on_info = |t: Thinking| {
                    let _ = info_tx.send(FromEngine::Info(t));
                };
                let found = opponent.best_move(&game, Some(&mut on_info));
                let _ = tx.send(FromEngine::Done(found));
            });
            self.engine = Some(rx);
            self.thinking.clear();
        }
        let Some(rx) = &self.engine else { return };
        let mut done = None;
        while let Ok(msg) = rx.try_recv() {
            match msg {
                FromEngine::Info(t) => {
                    self.thinking.push(t.line(self.session.position()));
                    if self.thinking.len() > 6 {
                        self.thinking.remove(0);
                    }
                }
                FromEngine::Done(found) => done = Some(found),
            }
        }
        if let Some(found) = done {
            self.engine = None;
            match self.session.play(found.best) {
                Ok(reply) => self.say(reply.lines),
                Err(why) => self.say([format!("Engine move refused: {why}")]),
            }
        }
    }

    pub fn draw(&mut self, frame: &mut Frame) {
        let [main, input] =
            Layout::vertical([Constraint::Min(board_view::HEIGHT + 2), Constraint::Length(1)])
                .areas(frame.area());
        let [left, right] =
            Layout::horizontal([Constraint::Length(board_view::WIDTH + 2), Constraint::Min(20)]).areas(main);
        let board_block = Block::bordered().title(" 象棋 ");
        let inner = board_block.inner(left);
        self.board_area = inner;
        frame.render_widget(board_block, left);
        let targets = self.targets();
        frame.render_widget(
            BoardView {
                pos: self.session.position(),
                last: self.session.game.last_move(),
                cursor: Some(self.cursor),
                selected: self.selected,
                targets,
                flipped: self.session.flipped,
            },
            inner,
        );
        self.draw_panel(frame, right);
        let prompt = Line::from(vec![
            Span::styled("> ", Style::default().fg(Tint::Yellow)),
            Span::raw(self.input.clone()),
            Span::styled("▏", Style::default().add_modifier(Modifier::SLOW_BLINK)),
            Span::styled(
                "   F1 help  F2 hint  F3 undo  F4 flip  F5 think",
                Style::default().fg(Tint::DarkGray),
            ),
        ]);
        frame.render_widget(Paragraph::new(prompt), input);
    }

    fn draw_panel(&self, frame: &mut Frame, area: Rect) {
        let game = &self.session.game;
        let (turn_name, tint) = match game.turn() {
            Color::Red => ("Red", board_view::RED),
            Color::Black => ("Black", board_view::BLACK),
        };
        let status = match game.outcome() {
            Some(o) => {
                Line::styled(format!("{o}"), Style::default().fg(Tint::Yellow).add_modifier(Modifier::BOLD))
            }
            None => {
                let mut spans = vec![Span::styled(
                    format!("{turn_name} to move"),
                    Style::default().fg(tint).add_modifier(Modifier::BOLD),
                )];
                if self.engine.is_some() {
                    spans.push(Span::raw(" (engine thinking…)"));
                }
                if game.is_check() {
                    spans.push(Span::styled(
                        "  CHECK",
                        Style::default().fg(Tint::LightRed).add_modifier(Modifier::BOLD),
                    ));
                }
                Line::from(spans)
            }
        };
        let thinking_rows = if self.session.show_thinking { 7 } else { 0 };
        let [head, list, think, msgs] = Layout::vertical([
            Constraint::Length(3),
            Constraint::Min(4),
            Constraint::Length(thinking_rows),
            Constraint::Length(5),
        ])
        .areas(area);
        let rules = Line::styled(
            format!(
                "rules: {}   {} vs {}",
                game.rule_set(),
                self.session.names.red,
                self.session.names.black
            ),
            Style::default().fg(Tint::DarkGray),
        );
        frame.render_widget(Paragraph::new(vec![status, rules]).block(Block::bordered()), head);

        let moves = self.session.wxf_moves();
        let rows: Vec<Line> = moves
            .chunks(2)
            .enumerate()
            .map(|(i, pair)| {
                Line::raw(format!("{:>3}. {:<8} {}", i + 1, pair[0], pair.get(1).map_or("", String::as_str)))
            })
            .collect();
        let visible = list.height.saturating_sub(2) as usize;
        let skip = rows.len().saturating_sub(visible);
        frame.render_widget(
            Paragraph::new(rows.into_iter().skip(skip).collect::<Vec<_>>())
                .block(Block::bordered().title(" moves (WXF) ")),
            list,
        );
        if thinking_rows > 0 {
            let lines: Vec<Line> = self.thinking.iter().map(|l| Line::raw(l.clone())).collect();
            frame.render_widget(
                Paragraph::new(lines).wrap(Wrap { trim: true }).block(Block::bordered().title(" engine ")),
                think,
            );
        }
        let visible = msgs.height as usize;
        let lines: Vec<Line> =
            self.messages.iter().rev().take(visible).rev().map(|l| Line::raw(l.clone())).collect();
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), msgs);
    }
}

/// Runs the full-screen game until the player quits.
pub fn run(session: Session) -> io::Result<()> {
    let mut terminal = ratatui::init();
    execute!(io::stdout(), EnableMouseCapture)?;
    let result = event_loop(&mut terminal, App::new(session));
    let _ = execute!(io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}

fn event_loop(terminal: &mut DefaultTerminal, mut app: App) -> io::Result<()> {
    while !app.quit {
        app.poll_engine();
        terminal.draw(|f| app.draw(f))?;
        if event::poll(Duration::from_millis(50))? {
            match event::read()? {
                Event::Key(key) => app.key(key),
                Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => {
                    app.click(m.column, m.row)
                }
                _ => {}
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use ratatui::{Terminal, backend::TestBackend, buffer::Buffer};
    use xiangqi::{ByColor, Position, RuleSet};

    use super::*;
    use crate::play::{engine::Opponent, session::Player};

    fn app() -> App {
        let players = ByColor { red: Player::Human, black: Player::Human };
        App::new(Session::new(
            Position::startpos(),
            RuleSet::Asian,
            players,
            Opponent::new(xiangqi_engine::Level::new(1).unwrap(), 1),
        ))
    }

    fn render(app: &mut App) -> Buffer {
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        terminal.draw(|f| app.draw(f)).unwrap();
        terminal.backend().buffer().clone()
    }

    fn text(buf: &Buffer) -> String {
        let area = buf.area;
        (0..area.height)
            .map(|y| (0..area.width).map(|x| buf[(x, y)].symbol().to_string()).collect::<String>() + "\n")
            .collect()
    }

    /// The buffer cell where a board point is drawn.
    fn at<'a>(app: &App, buf: &'a Buffer, name: &str) -> &'a ratatui::buffer::Cell {
        let t = Position::<Standard>::tables();
        let c = t.parse_cell(name).unwrap();
        let (x, y) = BoardView::place(app.session.flipped, t.file(c), t.number(c));
        &buf[(app.board_area.x + x, app.board_area.y + y)]
    }

    use xiangqi::Standard;

    #[test]
    fn the_board_shows_both_armies_in_chinese_glyphs_within_80_by_24() {
        let mut app = app();
        let buf = render(&mut app);
        let screen = text(&buf);
        for glyph in ["帥", "仕", "相", "傌", "俥", "炮", "兵", "將", "士", "象", "馬", "車", "砲", "卒"]
        {
            assert!(screen.contains(glyph), "{glyph} missing:\n{screen}");
        }
        assert!(screen.contains('楚') && screen.contains('河') && screen.contains("Red to move"));
        assert_eq!(at(&app, &buf, "e0").symbol(), "帥");
        assert_eq!(at(&app, &buf, "e0").fg, board_view::RED);
        assert_eq!(at(&app, &buf, "e9").fg, board_view::BLACK);
    }

    #[test]
    fn selecting_a_piece_marks_its_legal_targets_and_enter_moves_it() {
        let mut app = app();
        app.cursor = Position::<Standard>::tables().parse_cell("h2").unwrap();
        app.key(KeyEvent::from(KeyCode::Enter));
        let buf = render(&mut app);
        assert_eq!(at(&app, &buf, "h2").bg, Tint::Yellow, "selected piece");
        assert_eq!(at(&app, &buf, "e2").symbol(), "◉", "a legal target");
        assert_eq!(at(&app, &buf, "h9").bg, Tint::Green, "a capture target");
        assert_ne!(at(&app, &buf, "g1").symbol(), "◉", "not a cannon move");
        for _ in 0..3 {
            app.key(KeyEvent::from(KeyCode::Left));
        }
        app.key(KeyEvent::from(KeyCode::Enter));
        let buf = render(&mut app);
        assert_eq!(at(&app, &buf, "e2").symbol(), "炮");
        assert_eq!(at(&app, &buf, "e2").bg, Tint::Blue, "last move marked");
        assert_eq!(at(&app, &buf, "h2").bg, Tint::Blue, "last move marked");
        assert!(text(&buf).contains("Black to move"));
    }

    #[test]
    fn typed_moves_and_commands_work_and_refusals_say_why() {
        let mut app = app();
        for ch in "h2e2".chars() {
            app.key(KeyEvent::from(KeyCode::Char(ch)));
        }
        app.key(KeyEvent::from(KeyCode::Enter));
        assert_eq!(app.session.game.ply_count(), 1);
        for ch in "e9e7".chars() {
            app.key(KeyEvent::from(KeyCode::Char(ch)));
        }
        app.key(KeyEvent::from(KeyCode::Enter));
        assert_eq!(app.session.game.ply_count(), 1);
        assert!(app.messages.last().unwrap().starts_with("Refused: "), "{:?}", app.messages);
        app.key(KeyEvent::from(KeyCode::F(3)));
        assert_eq!(app.session.game.ply_count(), 0);
        app.key(KeyEvent::from(KeyCode::F(4)));
        let buf = render(&mut app);
        assert!(app.session.flipped);
        // Flipped, Black's back rank is at the bottom of the board.
        let bottom = app.board_area.y + BoardView::place(true, 4, 9).1;
        assert_eq!(buf[(app.board_area.x + BoardView::place(true, 4, 9).0, bottom)].symbol(), "將");
        assert!(bottom > app.board_area.y + BoardView::place(true, 4, 0).1);
    }
}
