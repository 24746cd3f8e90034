//! Judging a repeated position.

use super::{Outcome, Reason, Repetition, Rules};
use crate::{bitboard::Bitboard, game::Ply, types::Color};

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
        Repetition::Perpetual { .. } => perpetual(&plies[first..]),
    })
}

/// The verdict on a cycle of plies: perpetual check outranks perpetual chase; a
/// sole offender loses, and two offenders of the same kind draw.
fn perpetual(cycle: &[Ply]) -> Outcome {
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
    let (red, black) = (chases(cycle, Color::Red), chases(cycle, Color::Black));
    if red != black {
        let loser = if red { Color::Red } else { Color::Black };
        return Outcome::win(!loser, Reason::PerpetualChase);
    }
    Outcome::draw(Reason::Repetition)
}

/// Whether `side` chased one and the same piece with every one of its moves in the
/// cycle, following the chased piece as it flees.
fn chases(cycle: &[Ply], side: Color) -> bool {
    let mut followed: Option<Bitboard> = None;
    for p in cycle {
        if p.mover == side {
            followed = Some(followed.map_or(p.chased, |f| f & p.chased));
        } else if let Some(f) = followed.as_mut()
            && f.contains(p.mv.from)
        {
            f.clear(p.mv.from);
            f.set(p.mv.to);
        }
    }
    followed.is_some_and(Bitboard::any)
}
