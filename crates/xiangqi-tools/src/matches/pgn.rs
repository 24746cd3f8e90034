//! Game records in PGN with ICCS moves (`[Format "ICCS"]`), as Xiangqi programs
//! such as XQStudio and the `xqbase` archives exchange them.

use std::fmt::Write;

use xiangqi::{Geometry, Move, Position, Variant, notation::pgn::movetext};

/// One finished game.
pub struct Record<'a> {
    pub event: &'a str,
    pub round: usize,
    pub red: &'a str,
    pub black: &'a str,
    pub start_fen: &'a str,
    pub moves: &'a [String],
    pub result: &'a str,
    /// Why the game ended, in words.
    pub termination: &'a str,
    pub date: &'a str,
    pub variant: Variant,
}

fn quoted(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a game as PGN text (ending in a blank line).
pub fn write<G: Geometry>(r: &Record<'_>) -> String {
    let mut out = String::new();
    let tags = [
        ("Event", r.event.to_string()),
        ("Site", "?".to_string()),
        ("Date", r.date.to_string()),
        ("Round", r.round.to_string()),
        ("Red", r.red.to_string()),
        ("Black", r.black.to_string()),
        ("Result", r.result.to_string()),
    ];
    for (k, v) in tags {
        let _ = writeln!(out, "[{k} \"{}\"]", quoted(&v));
    }
    if r.variant != Variant::Standard {
        let _ = writeln!(out, "[Variant \"{}\"]", r.variant);
    }
    if r.start_fen != Position::<G>::startpos().to_fen() {
        let _ = writeln!(out, "[FEN \"{}\"]", quoted(r.start_fen));
    }
    let _ = writeln!(out, "[Format \"ICCS\"]");
    let _ = writeln!(out, "[Termination \"{}\"]", quoted(r.termination));
    out.push('\n');
    // The moves were played by the rules crate, so they replay from the start.
    let start: Position<G> = r.start_fen.parse().unwrap_or_default();
    let t = G::TABLES;
    let mut replay = start.clone();
    let moves: Vec<Move> = r
        .moves
        .iter()
        .map_while(|m| {
            let mv = replay.parse_move(m).ok()?;
            replay.play_unchecked(mv);
            Some(mv)
        })
        .collect();
    // Old ICCS style, `H2-E2`; hex cells may have two digits (`E10-E9`).
    let name =
        |_: &Position<G>, mv: Move| format!("{}-{}", t.cell_name(mv.from), t.cell_name(mv.to)).to_uppercase();
    out.push_str(&movetext(&start, &moves, r.result, name));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_game_is_written_with_iccs_moves() {
        let moves = ["h2e2".to_string(), "h9g7".to_string(), "h0g2".to_string()];
        let fen = Position::<xiangqi::Standard>::startpos().to_fen();
        let text = write::<xiangqi::Standard>(&Record {
            event: "match",
            round: 3,
            red: "a",
            black: "b",
            start_fen: &fen,
            moves: &moves,
            result: "1/2-1/2",
            termination: "repetition",
            date: "2026.11.22",
            variant: Variant::Standard,
        });
        assert!(text.contains("[Format \"ICCS\"]"));
        assert!(!text.contains("[FEN"));
        assert!(text.contains("1. H2-E2 H9-G7 2. H0-G2 1/2-1/2"), "{text}");
    }

    #[test]
    fn hex_games_carry_their_variant_and_two_digit_cells() {
        let moves = ["e4e5".to_string(), "e8e7".to_string(), "e1e2".to_string(), "e11e10".to_string()];
        let fen = Position::<xiangqi::Hex>::startpos().to_fen();
        let text = write::<xiangqi::Hex>(&Record {
            event: "match",
            round: 1,
            red: "a",
            black: "b",
            start_fen: &fen,
            moves: &moves,
            result: "*",
            termination: "unfinished",
            date: "2026.11.22",
            variant: Variant::Hex,
        });
        assert!(text.contains("[Variant \"hex\"]") && !text.contains("[FEN"), "{text}");
        assert!(text.contains("1. E4-E5 E8-E7 2. E1-E2 E11-E10 *"), "{text}");
    }
}
