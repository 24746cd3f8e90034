//! An evaluation as the site keeps and judges it: from one side's view,
//! clamped, and as the expected score that judges a move.

use xiangqi::{Color, Outcome};
use xiangqi_engine::Score;

/// Evaluations are clamped to this many centipawns when moves are judged and
/// drawn: beyond it a side is winning, and a forced mate counts the same.
pub const CLAMP_CP: i32 = 1000;
/// The least loss of expected score (percentage points of [`Eval::win_percent`],
/// the mover's) that makes a move an inaccuracy, a mistake and a blunder. An
/// inaccuracy is twice lichess's: searches of quiet opening positions within
/// the review's budget differ by up to half a soldier (5 points near
/// equality), which must not mark a move; near equality it is about a
/// soldier. A piece given for nothing near equality costs about 30 points,
/// which searches put a few points either side: a blunder, with room to spare.
pub const INACCURACY_PCT: i32 = 10;
pub const MISTAKE_PCT: i32 = 18;
pub const BLUNDER_PCT: i32 = 25;

/// An evaluation from one side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns.
    Cp(i32),
    /// A forced mate in this many moves: positive when this side gives it,
    /// negative when it suffers it; never 0.
    Mate(i32),
    /// The game is over here, and this side has won.
    Won,
    /// The game is over here, and this side has lost.
    Lost,
    /// The game is over here, drawn.
    Drawn,
}

impl Eval {
    /// An engine's score (from the side to move's view).
    pub fn from_score(score: Score) -> Eval {
        match score {
            Score::Cp(v) => Eval::Cp(v),
            Score::Mate(0) => Eval::Lost,
            Score::Mate(n) => Eval::Mate(n),
        }
    }

    /// A finished position for the side to move there.
    pub fn over(outcome: Outcome, turn: Color) -> Eval {
        match outcome.winner {
            None => Eval::Drawn,
            Some(w) if w == turn => Eval::Won,
            Some(_) => Eval::Lost,
        }
    }

    /// The same evaluation from the other side's view.
    pub fn flip(self) -> Eval {
        match self {
            Eval::Cp(v) => Eval::Cp(-v),
            Eval::Mate(n) => Eval::Mate(-n),
            Eval::Won => Eval::Lost,
            Eval::Lost => Eval::Won,
            Eval::Drawn => Eval::Drawn,
        }
    }

    /// From Red's view, when it is `side`'s view now.
    pub fn for_red(self, side: Color) -> Eval {
        if side == Color::Red { self } else { self.flip() }
    }

    /// Centipawns within ±[`CLAMP_CP`]: a forced mate or a won game is the limit.
    pub fn clamped(self) -> i32 {
        match self {
            Eval::Cp(v) => v.clamp(-CLAMP_CP, CLAMP_CP),
            Eval::Mate(n) if n > 0 => CLAMP_CP,
            Eval::Won => CLAMP_CP,
            Eval::Mate(_) | Eval::Lost => -CLAMP_CP,
            Eval::Drawn => 0,
        }
    }

    /// The expected score of this side in percent (lichess's Win%): from
    /// centipawns by a logistic curve, so that a centipawn counts most near
    /// equality and little when a side is far ahead; a mate or a won game is
    /// 100, a drawn one 50.
    pub fn win_percent(self) -> f64 {
        match self {
            Eval::Cp(v) => 50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * f64::from(v)).exp()) - 1.0),
            Eval::Mate(n) if n > 0 => 100.0,
            Eval::Won => 100.0,
            Eval::Mate(_) | Eval::Lost => 0.0,
            Eval::Drawn => 50.0,
        }
    }

    /// How the store keeps it: a kind and a number.
    pub fn to_columns(self) -> (&'static str, i64) {
        match self {
            Eval::Cp(v) => ("cp", i64::from(v)),
            Eval::Mate(n) => ("mate", i64::from(n)),
            Eval::Won => ("won", 0),
            Eval::Lost => ("lost", 0),
            Eval::Drawn => ("drawn", 0),
        }
    }

    /// Reads back what [`Eval::to_columns`] wrote.
    pub fn from_columns(kind: &str, value: i64) -> Result<Eval, String> {
        let number = || i32::try_from(value).map_err(|_| format!("evaluation {value} is out of range"));
        match kind {
            "cp" => Ok(Eval::Cp(number()?)),
            "mate" if value != 0 => Ok(Eval::Mate(number()?)),
            "won" => Ok(Eval::Won),
            "lost" => Ok(Eval::Lost),
            "drawn" => Ok(Eval::Drawn),
            other => Err(format!("{other:?} with {value} is not an evaluation")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_flip_clamp_and_round_trip_through_the_store() {
        assert_eq!(Eval::from_score(Score::Cp(35)), Eval::Cp(35));
        assert_eq!(Eval::from_score(Score::Mate(3)), Eval::Mate(3));
        assert_eq!(Eval::from_score(Score::Mate(0)), Eval::Lost);
        assert_eq!(Eval::Mate(3).flip(), Eval::Mate(-3));
        assert_eq!(Eval::Won.flip(), Eval::Lost);
        assert_eq!(Eval::Cp(-40).for_red(Color::Black), Eval::Cp(40));
        assert_eq!(Eval::Cp(-40).for_red(Color::Red), Eval::Cp(-40));
        assert_eq!(Eval::Cp(5000).clamped(), CLAMP_CP);
        assert_eq!(Eval::Mate(-2).clamped(), -CLAMP_CP);
        assert_eq!(Eval::Drawn.clamped(), 0);
        for e in [Eval::Cp(-12), Eval::Mate(-4), Eval::Mate(7), Eval::Won, Eval::Lost, Eval::Drawn] {
            let (kind, value) = e.to_columns();
            assert_eq!(Eval::from_columns(kind, value), Ok(e));
        }
        assert!(Eval::from_columns("mate", 0).is_err());
        assert!(Eval::from_columns("pawns", 1).is_err());
        let over = Outcome::win(Color::Red, xiangqi::Reason::Checkmate);
        assert_eq!(Eval::over(over, Color::Black), Eval::Lost);
        assert_eq!(Eval::over(over, Color::Red), Eval::Won);
    }
}
