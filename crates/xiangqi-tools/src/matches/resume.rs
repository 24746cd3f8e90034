//! Going on with a match from the games it wrote before (`--resume`): a long
//! sequential test outlasts one sitting, so the score and the test start from
//! the games already in the PGN file, folded in the order they were written
//! (the order they ended), and the rounds go on after the last one written.

use xiangqi::notation::pgn;

use super::stats::{Decision, Sprt, Tally};

/// What the games already written say.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Resumed {
    /// The first engine's wins, draws and losses in them.
    pub tally: Tally,
    /// The test's verdict, if they already reached one.
    pub decided: Option<Decision>,
    /// The highest round written: the match goes on with the round after it.
    pub rounds: usize,
}

/// Reads the games of a match between `first` and `second` from a PGN text
/// (empty: nothing to resume).
///
/// # Errors
/// A game that is not between the two engines, has no finished result or no
/// round, or a malformed tag, named by its place in the file; and two engines
/// of one name, whose games cannot be told apart.
pub fn from_pgn(text: &str, first: &str, second: &str, sprt: Option<Sprt>) -> Result<Resumed, String> {
    if first == second {
        return Err(format!(
            "both engines are named {first:?}, so the file cannot say which won: give one a name= to resume"
        ));
    }
    let mut resumed = Resumed::default();
    for (i, game) in pgn::read_all_tags(text).into_iter().enumerate() {
        let n = i + 1;
        let tags = game.map_err(|e| format!("game {n} of the file: {e}"))?;
        let tag = |name: &str| tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or("?");
        let (red, black) = (tag("Red"), tag("Black"));
        let first_is_red = match (red == first, black == first, red == second, black == second) {
            (true, _, _, true) => true,
            (_, true, true, _) => false,
            _ => {
                return Err(format!(
                    "game {n} of the file is {red} - {black}, not a game between {first} and {second}"
                ));
            }
        };
        let red_points = match tag("Result") {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            other => return Err(format!("game {n} of the file has no finished result ({other:?})")),
        };
        let round: usize = tag("Round")
            .parse()
            .map_err(|_| format!("game {n} of the file has no round ({:?})", tag("Round")))?;
        resumed.tally.add(if first_is_red { red_points } else { 1.0 - red_points });
        if let Some(s) = sprt {
            s.follow(&mut resumed.decided, &resumed.tally);
        }
        resumed.rounds = resumed.rounds.max(round);
    }
    Ok(resumed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::stats::Verdict;

    fn game(round: usize, red: &str, black: &str, result: &str) -> String {
        format!(
            "[Event \"xiangqi match\"]\n[Round \"{round}\"]\n[Red \"{red}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 {result}\n\n"
        )
    }

    #[test]
    fn the_score_counts_each_game_for_the_engine_that_won_it_and_rounds_go_on_after_the_last() {
        // Written in the order they ended: round 3 before round 2, round 5 never finished.
        let text = [
            game(1, "new", "old", "1-0"),
            game(3, "new", "old", "0-1"),
            game(2, "old", "new", "0-1"),
            game(4, "old", "new", "1/2-1/2"),
            game(6, "old", "new", "1-0"),
        ]
        .concat();
        let r = from_pgn(&text, "new", "old", None).unwrap();
        assert_eq!(r.tally, Tally { wins: 2, draws: 1, losses: 2 });
        assert_eq!(r.rounds, 6);
        assert_eq!(r.decided, None);
        let r = from_pgn(&text, "old", "new", None).unwrap();
        assert_eq!(r.tally, Tally { wins: 2, draws: 1, losses: 2 });
        assert_eq!(from_pgn("", "new", "old", None).unwrap(), Resumed::default());
    }

    #[test]
    fn a_verdict_the_written_games_reached_stands_as_it_was_reached() {
        let sprt = Sprt::parse("0,10").unwrap();
        // Wins, draws and a loss in turn, until the test first decides.
        let mut text = String::new();
        let mut tally = Tally::default();
        let results = ["1-0", "1/2-1/2", "1-0", "1/2-1/2", "1-0", "0-1"];
        let mut round = 0;
        while sprt.verdict(&tally) == Verdict::Continue {
            let result = results[round % results.len()];
            round += 1;
            text.push_str(&game(round, "new", "old", result));
            match result {
                "1-0" => tally.wins += 1,
                "0-1" => tally.losses += 1,
                _ => tally.draws += 1,
            }
        }
        let at = tally;
        assert_eq!(sprt.verdict(&at), Verdict::H1);
        assert!(at.games() > 20, "{at:?}");
        // Losses written after it, from games that were under way, pull the ratio back.
        while sprt.verdict(&tally) != Verdict::Continue {
            round += 1;
            text.push_str(&game(round, "old", "new", "1-0"));
            tally.losses += 1;
        }
        let r = from_pgn(&text, "new", "old", Some(sprt)).unwrap();
        assert_eq!(r.decided, Some(Decision { verdict: Verdict::H1, at }));
        assert_eq!(r.tally, tally);
        assert_eq!(r.rounds, round);
        // Without a test there is nothing to decide.
        assert_eq!(from_pgn(&text, "new", "old", None).unwrap().decided, None);
    }

    #[test]
    fn games_of_other_engines_unfinished_ones_and_one_name_for_both_are_refused() {
        let text = [game(1, "new", "old", "1-0"), game(2, "old", "other", "1-0")].concat();
        let e = from_pgn(&text, "new", "old", None).unwrap_err();
        assert!(e.starts_with("game 2 of the file is old - other"), "{e}");
        let e = from_pgn(&game(1, "new", "old", "*"), "new", "old", None).unwrap_err();
        assert!(e.contains("no finished result"), "{e}");
        let e = from_pgn(&game(1, "new", "old", "1-0").replace("[Round \"1\"]\n", ""), "new", "old", None)
            .unwrap_err();
        assert!(e.contains("no round"), "{e}");
        let e = from_pgn(&game(1, "new", "new", "1-0"), "new", "new", None).unwrap_err();
        assert!(e.contains("give one a name="), "{e}");
    }
}
