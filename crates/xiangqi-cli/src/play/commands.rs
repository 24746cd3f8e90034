//! The words a player types during `xiangqi play`, in both the full-screen and the
//! plain mode.

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A move in ICCS (`h2e2`), WXF (`C2=5`) or Chinese (`炮二平五`).
    Move(String),
    /// Take back the last move (and the engine's reply to it).
    TakeBack,
    Flip,
    /// Ask the engine for the best move here.
    Hint,
    Resign,
    /// Offer a draw to the engine (or, between two people, agree one).
    Draw,
    /// Start a new game with the same players.
    New,
    /// Start from a FEN.
    Fen(String),
    Save(String),
    Load(String),
    /// Show or hide the engine's thinking.
    Think,
    Moves,
    Help,
    Quit,
}

pub const HELP: &str = "\
moves: h2e2 (ICCS), C2=5 (WXF), 炮二平五 (Chinese)
  undo      take back the last move        flip   turn the board
  hint      the engine's best move         think  show/hide engine thinking
  resign    give up                         draw   offer a draw
  new       new game                        fen F  start from FEN F
  save F    write the game to F as PGN      load F read a PGN game from F
  moves     list the legal moves            quit   leave";

impl Command {
    /// Reads a line; anything that is not a command word is taken as a move.
    pub fn parse(line: &str) -> Option<Command> {
        let line = line.trim();
        if line.is_empty() {
            return None;
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let arg = || rest.to_string();
        Some(match word.to_ascii_lowercase().as_str() {
            "undo" | "takeback" | "back" | "u" => Command::TakeBack,
            "flip" | "f" => Command::Flip,
            "hint" => Command::Hint,
            "resign" => Command::Resign,
            "draw" => Command::Draw,
            "new" => Command::New,
            "fen" | "position" => Command::Fen(arg()),
            "save" => Command::Save(arg()),
            "load" => Command::Load(arg()),
            "think" => Command::Think,
            "moves" | "legal" => Command::Moves,
            "help" | "?" | "h" => Command::Help,
            "quit" | "exit" | "q" => Command::Quit,
            _ => Command::Move(line.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_commands_and_everything_else_is_a_move() {
        assert_eq!(Command::parse("undo"), Some(Command::TakeBack));
        assert_eq!(Command::parse("  save game.pgn "), Some(Command::Save("game.pgn".into())));
        assert_eq!(Command::parse("h2e2"), Some(Command::Move("h2e2".into())));
        assert_eq!(Command::parse("炮二平五"), Some(Command::Move("炮二平五".into())));
        assert_eq!(Command::parse("   "), None);
    }
}
