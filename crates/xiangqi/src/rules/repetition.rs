//! Judging a repeated position.

use super::{Outcome, Reason, Repetition, Rules};
use crate::{
    bitboard::Bitboard,
    game::Ply,
    types::{Color, Move},
};

/// The outcome, if the last position of the game ends it by repetition.
/// `start_hash` is the hash of the start position; `plies` the moves since.
pub(crate) fn judge(rules: &Rules, start_hash: u64, plies: &[Ply]) -> Option<Outcome> {
    let last = plies.last()?;
    let needed = match rules.repetition {
        Repetition::Ignored => return None,
        Repetition::Draw { occurrences }
        | Repetition::Perpetual { occurrences }
        | Repetition::RecreatorLoses { occurrences } => occurrences.max(2) as usize,
    };
    // Position k is the start (k = 0) or the position after ply k.
    let hash_at = |k: usize| if k == 0 { start_hash } else { plies[k - 1].hash };
    let now = plies.len();
    let earlier: Vec<usize> = (0..now).rev().filter(|&k| hash_at(k) == last.hash).take(needed - 1).collect();
    if earlier.len() + 1 < needed {
        return None;
    }
    let first = *earlier.last()?;
    Some(match rules.repetition {
        Repetition::Draw { .. } | Repetition::Ignored => Outcome::draw(Reason::Repetition),
        Repetition::RecreatorLoses { .. } => Outcome::win(!last.mover, Reason::Repetition),
        Repetition::Perpetual { .. } => {
            let cycle = &plies[first..];
            let moves: Vec<CyclePly> =
                cycle.iter().map(|p| CyclePly { mover: p.mover, mv: p.mv, check: p.check }).collect();
            perpetual(&moves, || cycle.iter().map(|p| p.chased).collect())
        }
    })
}

/// One move of a repetition cycle, as the perpetual verdict needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CyclePly {
    /// The side that made the move.
    pub mover: Color,
    /// The move.
    pub mv: Move,
    /// Whether the move gave check.
    pub check: bool,
}

/// The verdict on a repetition cycle under the perpetual rules
/// ([`Repetition::Perpetual`]): perpetual check outranks perpetual chase; a sole
/// offender loses, and two offenders of the same kind draw. `cycle` holds the
/// moves from the first occurrence of the position to its last; `chased` gives,
/// for each of them, the enemy pieces it newly chased ([`super::chase::chased`]),
/// and is asked for only when the checks do not decide.
pub fn perpetual(cycle: &[CyclePly], chased: impl FnOnce() -> Vec<Bitboard>) -> Outcome {
    let checks = |c: Color| {
        let mut own = cycle.iter().filter(|p| p.mover == c).peekable();
        own.peek().is_some() && own.all(|p| p.check)
    };
    let (red, black) = (checks(Color::Red), checks(Color::Black));
    if red != black {
        let loser = if red { Color::Red } else { Color::Black };
        return Outcome::win(!loser, Reason::PerpetualCheck);
    }
    if red && black {
        return Outcome::draw(Reason::Repetition);
    }
    let chased = chased();
    let (red, black) = (chases(cycle, &chased, Color::Red), chases(cycle, &chased, Color::Black));
    if red != black {
        let loser = if red { Color::Red } else { Color::Black };
        return Outcome::win(!loser, Reason::PerpetualChase);
    }
    Outcome::draw(Reason::Repetition)
}

/// Whether `side` chased one and the same piece with every one of its moves in the
/// cycle, following the chased piece as it flees.
fn chases(cycle: &[CyclePly], chased: &[Bitboard], side: Color) -> bool {
    let mut followed: Option<Bitboard> = None;
    for (p, &c) in cycle.iter().zip(chased) {
        if p.mover == side {
            followed = Some(followed.map_or(c, |f| f & c));
        } else if let Some(f) = followed.as_mut()
            && f.contains(p.mv.from)
        {
            f.clear(p.mv.from);
            f.set(p.mv.to);
        }
    }
    followed.is_some_and(Bitboard::any)
}
