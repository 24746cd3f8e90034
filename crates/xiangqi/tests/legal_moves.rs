//! The exact legal-move set and check flag of every position in the reference file.

mod common;

use xiangqi::{Game, Position, RuleSet, Standard};

#[test]
fn reference_legal_moves_and_check_flags() {
    let lines = common::data_lines("legal_moves.txt");
    assert!(lines.len() > 100, "the reference file looks truncated");
    let mut failures = Vec::new();
    for line in &lines {
        let fields: Vec<&str> = line.split(';').collect();
        let (fen, expected, check) = (fields[0], fields[1], fields[2]);
        let pos: Position<Standard> = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut got: Vec<String> = pos.legal_moves().iter().map(|m| pos.move_name(*m)).collect();
        got.sort();
        let expected: Vec<&str> = expected.split_whitespace().collect();
        if got != expected {
            failures.push(format!("{fen}\n  got      {}\n  expected {}", got.join(" "), expected.join(" ")));
        }
        let want_check = check == "check=1";
        if pos.is_check() != want_check {
            failures.push(format!("{fen}: check flag {} expected {want_check}", pos.is_check()));
        }
        // A position without moves is lost for the side to move, whatever the rule set.
        if expected.is_empty() {
            for rules in RuleSet::ALL {
                let game = Game::new(pos.clone(), rules);
                let outcome = game.outcome().expect("no legal move ends the game");
                assert_eq!(outcome.winner, Some(!pos.turn()), "{fen} under {rules}");
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
