//! Opening files: one opening a line, either ICCS moves from the start position
//! (`h2e2 h9g7`) or a FEN, optionally followed by `moves` and ICCS moves.
//! `#` starts a comment.

use xiangqi::{AnyGame, Game, Geometry, Position, RuleSet, Variant};

/// A checked opening: where the game starts and the moves already played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub fen: String,
    pub moves: Vec<String>,
}

impl Opening {
    /// The game after the opening, on the board the openings were read for.
    pub fn game(&self, variant: Variant, rules: RuleSet) -> AnyGame {
        let mut game = AnyGame::new(variant, &self.fen, rules).expect("openings are checked when read");
        for m in &self.moves {
            game.play_str(m).expect("openings are checked when read");
        }
        game
    }
}

/// Reads and checks an opening file.
///
/// # Errors
/// The first line with a bad FEN or an illegal move, by line number.
pub fn parse<G: Geometry>(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (fen, moves) = if line.contains('/') {
            match line.split_once(" moves ") {
                Some((fen, moves)) => (fen.trim().to_string(), moves),
                None => (line.to_string(), ""),
            }
        } else {
            (Position::<G>::startpos().to_fen(), line)
        };
        let start: Position<G> = fen.parse().map_err(|e| format!("line {}: bad FEN: {e}", n + 1))?;
        let mut game = Game::new(start, RuleSet::Asian);
        let mut played = Vec::new();
        for m in moves.split_whitespace() {
            game.play_str(m).map_err(|e| format!("line {}: {m}: {e}", n + 1))?;
            played.push(m.to_string());
        }
        if game.outcome().is_some() {
            return Err(format!("line {}: the opening already ends the game", n + 1));
        }
        out.push(Opening { fen, moves: played });
    }
    if out.is_empty() {
        return Err("the opening file holds no openings".into());
    }
    Ok(out)
}

/// One opening a legal first move from the start: the default on boards without
/// an opening file of their own.
pub fn first_moves<G: Geometry>() -> Vec<Opening> {
    let start = Position::<G>::startpos();
    start
        .legal_moves()
        .iter()
        .map(|&m| Opening { fen: start.to_fen(), moves: vec![start.move_name(m)] })
        .collect()
}

#[cfg(test)]
mod tests {
    use xiangqi::{Hex, Standard};

    use super::*;

    #[test]
    fn moves_and_fens_are_read_and_checked() {
        let text = "# comment\nh2e2 h9g7\n\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b2e2\n";
        let o = parse::<Standard>(text).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves, vec!["h2e2", "h9g7"]);
        assert_eq!(o[1].game(Variant::Standard, RuleSet::Asian).moves().len(), 1);
        assert!(parse::<Standard>("h2h9 h9h0").is_err_and(|e| e.contains("line 1")));
        assert!(parse::<Standard>("# nothing").is_err());
    }

    #[test]
    fn the_shipped_openings_are_legal() {
        let text = include_str!("../../../xiangqi-engine/openings/openings.txt");
        assert!(parse::<Standard>(text).unwrap().len() >= 30);
    }

    #[test]
    fn every_first_move_is_an_opening_on_the_hex_board() {
        let o = first_moves::<Hex>();
        assert_eq!(o.len(), 30);
        assert_eq!(o[0].game(Variant::Hex, RuleSet::Hex).ply_count(), 1);
    }
}
