//! Search scores: centipawns from the side to move's view, with mates encoded as
//! distances from the root so that a shorter mate always scores higher.

use std::fmt;

/// A score in centipawns (or a mate distance near [`MATE`]).
pub type Value = i32;

/// The score of giving mate at the root itself; mate in `n` plies scores `MATE - n`.
pub const MATE: Value = 30_000;
/// Larger than any score the search returns.
pub const INFINITE: Value = 31_000;
/// Deepest ply the search can reach; scores beyond `MATE - MAX_PLY` are mates.
pub const MAX_PLY: usize = 128;
/// The smallest score that is a forced win (a mate or a win by the repetition rules).
pub const MATE_BOUND: Value = MATE - MAX_PLY as Value;
/// A drawn position.
pub const DRAW: Value = 0;

/// The score of mating the opponent `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> Value {
    MATE - ply as Value
}

/// The score of being mated `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> Value {
    -MATE + ply as Value
}

/// Whether a score is a forced win or loss.
#[inline]
pub const fn is_decisive(v: Value) -> bool {
    v >= MATE_BOUND || v <= -MATE_BOUND
}

/// Converts a score relative to the root into one relative to the node at `ply`,
/// for storage in the transposition table (mate distances are path-independent there).
#[inline]
pub const fn to_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_BOUND {
        v + ply as Value
    } else if v <= -MATE_BOUND {
        v - ply as Value
    } else {
        v
    }
}

/// The inverse of [`to_tt`].
#[inline]
pub const fn from_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_BOUND {
        v - ply as Value
    } else if v <= -MATE_BOUND {
        v + ply as Value
    } else {
        v
    }
}

/// A score as the protocols print it: centipawns, or mate in moves (not plies),
/// negative when the side to move is being mated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(Value),
    /// Mate in this many moves, negative when the side to move is mated.
    Mate(i32),
}

impl Score {
    /// The score of a search value (a mate distance becomes [`Score::Mate`]).
    pub fn from_value(v: Value) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_print_in_moves() {
        assert_eq!(Score::from_value(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_value(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_value(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_value(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_value(35), Score::Cp(35));
    }

    #[test]
    fn tt_conversion_round_trips() {
        for v in [mate_in(5), mated_in(7), 120, -40] {
            assert_eq!(from_tt(to_tt(v, 9), 9), v);
        }
    }
}
