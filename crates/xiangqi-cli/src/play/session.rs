//! A game in progress at the terminal: the game, who plays each side, and what the
//! player's commands do to it. Both the full-screen and the plain mode drive this.

use std::path::Path;

use xiangqi::{ByColor, Color, Game, Move, Outcome, Position, Reason, RuleSet, Standard};

use super::{commands::Command, engine::Opponent, notation};

/// Who moves for a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Human,
    Engine,
}

/// What a command did, for the screen to show.
#[derive(Debug, Default)]
pub struct Reply {
    pub lines: Vec<String>,
    pub quit: bool,
}

impl Reply {
    fn say(text: impl Into<String>) -> Reply {
        Reply { lines: vec![text.into()], quit: false }
    }
}

pub struct Session {
    pub game: Game,
    pub players: ByColor<Player>,
    pub flipped: bool,
    pub show_thinking: bool,
    pub opponent: Opponent,
    /// Names for the game record.
    pub names: ByColor<String>,
}

impl Session {
    pub fn new(
        start: Position<Standard>,
        rules: RuleSet,
        players: ByColor<Player>,
        opponent: Opponent,
    ) -> Self {
        let name = |p: Player| match p {
            Player::Human => "Player".to_string(),
            Player::Engine => format!("xiangqi level {}", opponent.level()),
        };
        let names = ByColor { red: name(players.red), black: name(players.black) };
        // The human's side at the bottom: a player with Black looks from Black's side.
        let flipped = players.red == Player::Engine && players.black == Player::Human;
        Session { game: Game::new(start, rules), players, flipped, show_thinking: false, opponent, names }
    }

    /// Whether the engine is to move in a game that goes on.
    pub fn engine_to_move(&self) -> bool {
        self.game.outcome().is_none() && *self.players.get(self.game.turn()) == Player::Engine
    }

    pub fn position(&self) -> &Position<Standard> {
        self.game.position()
    }

    /// The moves so far in WXF, one entry per ply.
    pub fn wxf_moves(&self) -> Vec<String> {
        let mut pos = self.game.start().clone();
        self.game
            .moves()
            .into_iter()
            .map(|m| {
                let name = notation::wxf(&pos, m);
                pos.play_unchecked(m);
                name
            })
            .collect()
    }

    /// Carries out a command. `Err` carries the reason a move or command was refused;
    /// nothing changed then.
    pub fn handle(&mut self, command: Command) -> Result<Reply, String> {
        match command {
            Command::Move(text) => self.human_move(&text),
            Command::TakeBack => self.take_back(),
            Command::Flip => {
                self.flipped = !self.flipped;
                Ok(Reply::default())
            }
            Command::Hint => self.hint(),
            Command::Resign => {
                self.ensure_on()?;
                let side = self.human_side();
                self.game.resign(side);
                Ok(self.outcome_reply())
            }
            Command::Draw => self.offer_draw(),
            Command::New => {
                let start = Position::startpos();
                self.game = Game::new(start, self.game.rule_set());
                Ok(Reply::say("New game."))
            }
            Command::Fen(fen) => {
                let start = Position::<Standard>::from_fen(&fen).map_err(|e| format!("bad FEN: {e}"))?;
                self.game = Game::new(start, self.game.rule_set());
                Ok(Reply::say("Position set."))
            }
            Command::Save(path) => self.save(&path),
            Command::Load(path) => self.load(&path),
            Command::Think => {
                self.show_thinking = !self.show_thinking;
                Ok(Reply::say(if self.show_thinking {
                    "Engine thinking shown."
                } else {
                    "Engine thinking hidden."
                }))
            }
            Command::Moves => {
                let pos = self.position();
                let mut names: Vec<String> =
                    self.game.legal_moves().iter().map(|m| pos.move_name(*m)).collect();
                names.sort();
                Ok(Reply::say(names.join(" ")))
            }
            Command::Help => {
                Ok(Reply { lines: super::commands::HELP.lines().map(String::from).collect(), quit: false })
            }
            Command::Quit => Ok(Reply { lines: Vec::new(), quit: true }),
        }
    }

    fn ensure_on(&self) -> Result<(), String> {
        match self.game.outcome() {
            Some(o) => Err(format!("the game is over: {o}")),
            None => Ok(()),
        }
    }

    /// The side a human plays: the side to move if a human has it, else the other.
    fn human_side(&self) -> Color {
        let turn = self.game.turn();
        if *self.players.get(turn) == Player::Human { turn } else { !turn }
    }

    fn human_move(&mut self, text: &str) -> Result<Reply, String> {
        self.ensure_on()?;
        if *self.players.get(self.game.turn()) == Player::Engine {
            return Err("it is the engine's turn".to_string());
        }
        let m = notation::read_move(&self.game, text)?;
        self.play(m)
    }

    /// Plays a move already known to be legal here (from a click or the engine).
    pub fn play(&mut self, m: Move) -> Result<Reply, String> {
        let name = notation::wxf(self.position(), m);
        let mover = self.game.turn();
        self.game.play(m).map_err(|e| e.to_string())?;
        let number = self.game.position().fullmoves() - u32::from(mover == Color::Black);
        let dots = if mover == Color::Red { "." } else { "..." };
        let mut reply = Reply::say(format!("{number}{dots} {name}"));
        reply.lines.extend(self.outcome_reply().lines);
        Ok(reply)
    }

    fn outcome_reply(&self) -> Reply {
        match self.game.outcome() {
            Some(o) => Reply::say(format!("Game over. {o}.")),
            None if self.game.is_check() => Reply::say("Check!"),
            None => Reply::default(),
        }
    }

    fn take_back(&mut self) -> Result<Reply, String> {
        if self.game.ply_count() == 0 {
            return Err("no move to take back".to_string());
        }
        self.game.undo();
        // Against the engine, take back to the human's own turn.
        while self.game.ply_count() > 0 && *self.players.get(self.game.turn()) == Player::Engine {
            self.game.undo();
        }
        Ok(Reply::say("Taken back."))
    }

    fn hint(&mut self) -> Result<Reply, String> {
        self.ensure_on()?;
        let found = self.opponent.hint(&self.game);
        Ok(Reply::say(format!("Hint: {} ({})", notation::wxf(self.position(), found.best), found.summary())))
    }

    fn offer_draw(&mut self) -> Result<Reply, String> {
        self.ensure_on()?;
        let engine_side = match (self.players.red, self.players.black) {
            (Player::Human, Player::Human) => {
                self.game.finish(Outcome::draw(Reason::Agreement));
                return Ok(self.outcome_reply());
            }
            (Player::Engine, _) => Color::Red,
            _ => Color::Black,
        };
        if self.opponent.accepts_draw(&self.game, engine_side) {
            self.game.finish(Outcome::draw(Reason::Agreement));
            Ok(self.outcome_reply())
        } else {
            Ok(Reply::say("The engine declines the draw."))
        }
    }

    fn save(&self, path: &str) -> Result<Reply, String> {
        if path.is_empty() {
            return Err("save needs a file name".to_string());
        }
        let text = notation::pgn_of(&self.game, &self.names);
        std::fs::write(Path::new(path), text).map_err(|e| format!("cannot write {path}: {e}"))?;
        Ok(Reply::say(format!("Saved to {path}.")))
    }

    fn load(&mut self, path: &str) -> Result<Reply, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let (game, names) = notation::game_of_pgn(&text, self.game.rule_set())?;
        self.game = game;
        if let Some(names) = names {
            self.names = names;
        }
        Ok(Reply::say(format!("Loaded {} moves from {path}.", self.game.ply_count())))
    }
}
