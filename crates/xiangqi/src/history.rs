//! A game record replayed as history: the moves were played, so a move is
//! refused only when the board refuses it. Where a rule set would have ended
//! the game (a repetition, a perpetual check or chase, the move limit) or
//! refused a move (a fourth check in a row, a two-point chase), the verdict
//! is noted with its ply and the replay goes on, judging afresh from there:
//! the repetition history starts again at the judged position, and a rule
//! that judges the position alone (no attacking pieces, the move limit) is
//! not applied again once it has spoken.
//!
//! Each position is hashed once, as it is played, and the history rules
//! look back over the moves since the last capture at most, so a replay
//! costs time in proportion to the record (bounded as readers bound a line,
//! see [`crate::notation::limits`]).
//!
//! ```
//! use xiangqi::{Position, Reason, RuleSet, Standard, history};
//!
//! // Both horses out and back twice: the start position comes round a third time.
//! let pos = Position::<Standard>::startpos();
//! let names = ["h0g2", "h9g7", "g2h0", "g7h9"].repeat(3);
//! let mut moves = Vec::new();
//! let mut at = pos.clone();
//! for n in &names {
//!     let m = at.parse_move(n).unwrap();
//!     at.play_unchecked(m);
//!     moves.push(m);
//! }
//! let replayed = history::replay(&pos, RuleSet::Asian, &moves).unwrap();
//! let first = replayed.judged[0];
//! assert_eq!(first.ply, 8);
//! assert!(matches!(first.verdict, history::Verdict::Ended(o) if o.reason == Reason::Repetition));
//! assert_eq!(replayed.position.hash(), at.hash(), "the record went on, and so does its replay");
//! ```

use thiserror::Error;

use crate::{
    game::{Game, GameError},
    geometry::Geometry,
    position::{Forbidden, IllegalMove, IllegalReason, Position},
    rules::{Outcome, Reason, RuleSet, Rules},
    types::Move,
};

/// What a rule set would have said at a ply of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The game would have ended after this move.
    Ended(Outcome),
    /// This move would have been refused, for this reason.
    Forbidden(Forbidden),
}

/// A verdict and the move it fell on (1 for the record's first move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The move, 1 for the record's first.
    pub ply: usize,
    /// What the rule set says of it.
    pub verdict: Verdict,
}

/// A record replayed: the verdicts on the way, in order, and where it ended.
#[derive(Clone, Debug)]
pub struct History<G: Geometry> {
    /// The verdicts, in the order of the moves they fell on.
    pub judged: Vec<Judged>,
    /// The position after the record's last move.
    pub position: Position<G>,
}

impl<G: Geometry> History<G> {
    /// How the record's last move left the game under the rule set: the
    /// verdict on that move if it ended the game, else none (the record
    /// stops with the game going on, or with a result given off the board).
    pub fn outcome(&self, plies: usize) -> Option<Outcome> {
        match self.judged.last() {
            Some(Judged { ply, verdict: Verdict::Ended(o) }) if *ply == plies => Some(*o),
            _ => None,
        }
    }
}

/// A move of a record that the board refuses.
#[derive(Clone, Debug, Error)]
#[error("move {ply}: {illegal}")]
pub struct Refused {
    /// The move's place, 1 for the record's first.
    pub ply: usize,
    /// Why the board refuses it.
    pub illegal: IllegalMove,
}

/// Replays a record's moves from `start` as history under `rule_set`.
///
/// # Errors
/// [`Refused`] for the first move the board refuses; the moves before it
/// are legal.
pub fn replay<G: Geometry>(
    start: &Position<G>,
    rule_set: RuleSet,
    moves: &[Move],
) -> Result<History<G>, Refused> {
    let mut rules = rule_set.rules();
    let mut game = fresh(start, rule_set, &mut rules);
    let mut judged: Vec<Judged> = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let ply = i + 1;
        if game.outcome().is_some() {
            // The game went on after a verdict: judge afresh from here.
            game = fresh(game.position(), rule_set, &mut rules);
        }
        // The move is judged once: by the board and the rule set together,
        // and again only in the rare case the rule set forbade it.
        let checked = match game.check(m) {
            Ok(checked) => checked,
            Err(GameError::Illegal(IllegalMove { reason: IllegalReason::Forbidden(why), .. })) => {
                judged.push(Judged { ply, verdict: Verdict::Forbidden(why) });
                game = fresh(game.position(), rule_set, &mut rules);
                game.check(m).map_err(|e| refusal(game.position(), m, ply, e))?
            }
            Err(e) => return Err(refusal(game.position(), m, ply, e)),
        };
        game.play_checked(checked);
        if let Some(o) = game.outcome() {
            judged.push(Judged { ply, verdict: Verdict::Ended(o) });
        }
    }
    Ok(History { judged, position: game.position().clone() })
}

/// Why the board refused a record's move. A game with its history just
/// cleared refuses only what the board does; one that ended with no history
/// (no move left) refuses every move, which the board names.
fn refusal<G: Geometry>(pos: &Position<G>, m: Move, ply: usize, e: GameError) -> Refused {
    match e {
        GameError::Illegal(illegal) => Refused { ply, illegal },
        _ => {
            let reason = pos.why_illegal(m).unwrap_or(IllegalReason::NoSuchMove);
            Refused { ply, illegal: IllegalMove { notation: pos.move_name(m), reason } }
        }
    }
}

/// A game from `pos` with no history. A rule that judges the position itself
/// and has judged this one (no attacking pieces, the move limit) would judge
/// every position after it the same, so it is dropped from `rules` for the
/// rest of the replay.
fn fresh<G: Geometry>(pos: &Position<G>, rule_set: RuleSet, rules: &mut Rules) -> Game<G> {
    loop {
        let game = Game::with_rules(pos.clone(), rule_set, *rules);
        match game.outcome().map(|o| o.reason) {
            Some(Reason::NoAttackers) if rules.no_attackers_draw => rules.no_attackers_draw = false,
            Some(Reason::MoveLimit) if rules.move_limit.is_some() => rules.move_limit = None,
            _ => return game,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Color, Standard};

    fn line(pos: &Position<Standard>, names: &[&str]) -> Vec<Move> {
        let mut at = pos.clone();
        names
            .iter()
            .map(|n| {
                let m = at.parse_move(n).unwrap_or_else(|e| panic!("{n}: {e:?}"));
                at.play_unchecked(m);
                m
            })
            .collect()
    }

    #[test]
    fn a_record_goes_on_after_each_verdict_and_each_is_noted_once() {
        let pos = Position::<Standard>::startpos();
        let shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"];
        let moves = line(&pos, &shuffle.repeat(6));
        let replayed = replay(&pos, RuleSet::Asian, &moves).unwrap();
        // The third time round is judged, then the history starts again.
        let plies: Vec<usize> = replayed.judged.iter().map(|j| j.ply).collect();
        assert_eq!(plies, [8, 16, 24]);
        assert_eq!(replayed.position.hash(), pos.hash());
        assert_eq!(replayed.outcome(24).map(|o| o.reason), Some(Reason::Repetition));
        assert_eq!(replayed.outcome(25), None);
    }

    #[test]
    fn a_move_the_board_refuses_is_named_with_its_place() {
        let pos = Position::<Standard>::startpos();
        let mut moves = line(&pos, &["h2e2", "h9g7"]);
        moves.push(pos.parse_move("h2h9").unwrap());
        let err = replay(&pos, RuleSet::Asian, &moves).unwrap_err();
        assert_eq!(err.ply, 3);
        assert_eq!(err.to_string(), format!("move 3: {}", err.illegal));
    }

    #[test]
    fn a_position_rule_speaks_once() {
        // 118 plies without a capture before the record starts: the move limit
        // speaks after its second move, and not again in the ten after.
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 118 60";
        let pos = Position::<Standard>::from_fen(fen).unwrap();
        let shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"];
        let moves = line(&pos, &shuffle.repeat(3));
        let replayed = replay(&pos, RuleSet::Casual, &moves).unwrap();
        let limits: Vec<usize> = replayed
            .judged
            .iter()
            .filter(|j| matches!(j.verdict, Verdict::Ended(o) if o.reason == Reason::MoveLimit))
            .map(|j| j.ply)
            .collect();
        assert_eq!(limits, [2]);
        assert_eq!(replayed.position.turn(), Color::Red);
    }

    #[test]
    fn a_move_the_rules_would_refuse_is_noted_and_played() {
        // The play site's rule: the same piece may not give a fourth check in a row.
        let pos = Position::<Standard>::from_fen("4k4/9/9/9/9/9/9/9/4A4/3RK4 w - - 0 1").unwrap();
        let moves = line(&pos, &["d0d9", "e9e8", "d9d8", "e8e9", "d8d9", "e9e8", "d9d8"]);
        let replayed = replay(&pos, RuleSet::ItsYourTurn, &moves).unwrap();
        assert_eq!(
            replayed.judged.first().map(|j| (j.ply, matches!(j.verdict, Verdict::Forbidden(_)))),
            Some((7, true))
        );
    }
}
