//! Move names and game records for the terminal game.

use xiangqi::{
    ByColor, Game, Move, Position, RuleSet, Standard,
    notation::{
        self,
        pgn::{self, Format, Record},
        wxf as wxf_notation,
    },
};

/// Reads a move typed in ICCS, WXF or Chinese notation and checks it is allowed
/// now, under the game's rule set too.
pub fn read_move(game: &Game, text: &str) -> Result<Move, String> {
    let m = notation::parse_any(game.position(), text).map_err(|e| e.to_string())?;
    match game.why_illegal(m) {
        None => Ok(m),
        Some(why) => Err(format!("{text} is illegal: {why}")),
    }
}

/// The WXF name of a legal move.
pub fn wxf(pos: &Position<Standard>, m: Move) -> String {
    wxf_notation::write(pos, m)
}

/// The game as PGN, moves in WXF.
pub fn pgn_of(game: &Game, names: &ByColor<String>) -> String {
    let mut record = Record::from_game(game);
    record.set_tag("Event", "xiangqi play");
    record.set_tag("Red", &names.red);
    record.set_tag("Black", &names.black);
    pgn::write(&record, Format::Wxf)
}

/// A game read from PGN (under its RuleSet tag, else `rules`), with the players'
/// names if the record has them.
pub fn game_of_pgn(text: &str, rules: RuleSet) -> Result<(Game, Option<ByColor<String>>), String> {
    let record = pgn::read(text).map_err(|e| e.to_string())?;
    let rules = if record.tag("RuleSet").is_some() { None } else { Some(rules) };
    let game = record.to_game(rules).map_err(|e| e.to_string())?;
    let names = match (record.tag("Red"), record.tag("Black")) {
        (Some(r), Some(b)) if r != "?" && b != "?" => {
            Some(ByColor { red: r.to_string(), black: b.to_string() })
        }
        _ => None,
    };
    Ok((game, names))
}
