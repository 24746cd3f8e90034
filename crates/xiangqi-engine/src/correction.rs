//! Correction history: how far searches found the static evaluation off, remembered
//! by the features the evaluation judges worst, and added to later evaluations.
//!
//! Some structures change slowly and decide much that the evaluation only sums up:
//! the soldiers; each side's general with its advisors and elephants; and each
//! side's chariots, horses and cannons. For each (and the side to move) a table
//! keeps a running average of "search result minus static evaluation" from nodes
//! whose result says something about it. One more table is keyed by the last two
//! moves, which catches what a particular exchange or threat leaves the evaluation
//! blind to. A position's correction is the mean of the tables that apply.

use xiangqi::{Color, Geometry, Piece, Position, Role};

use crate::{
    moves::{CONTEXTS, Context},
    score::Value,
};

const BITS: u32 = 14;
const SIZE: usize = 1 << BITS;
/// Entries are kept in 1/GRAIN centipawns, so that small corrections add up.
const GRAIN: i32 = 16;
/// The largest correction, in centipawns.
const LIMIT: i32 = 128;
/// The structure tables: soldiers, guards, Red's majors, Black's majors.
const STRUCTURES: usize = 4;

/// The correction tables of one search thread.
pub struct Correction {
    structures: [Vec<i16>; STRUCTURES],
    /// By the last move and the one before it: `CONTEXTS * CONTEXTS` entries.
    continuation: Vec<i16>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            structures: std::array::from_fn(|_| vec![0; 2 * SIZE]),
            continuation: vec![0; CONTEXTS * CONTEXTS],
        }
    }
}

/// Where one position's entries lie, found once per node and used both to read
/// the correction and to teach it.
#[derive(Clone, Copy)]
pub struct Keys {
    structures: [usize; STRUCTURES],
    continuation: Option<usize>,
}

/// A table slot for two sets of cells, one per colour, and the side to move.
#[inline]
fn slot(red: u128, black: u128, turn: Color) -> usize {
    let fold = |b: u128| (b as u64) ^ ((b >> 64) as u64).rotate_left(29);
    let x = fold(red).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ fold(black).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    let x = (x ^ (x >> 31)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    turn.index() * SIZE + (x >> (64 - BITS)) as usize
}

impl Keys {
    /// The keys of `pos`, reached by the moves `contexts` (the last first).
    #[inline]
    pub fn new<G: Geometry>(pos: &Position<G>, contexts: &[Context; 2]) -> Keys {
        let of = |c: Color, roles: &[Role]| {
            roles.iter().fold(0u128, |acc, &r| acc | pos.pieces(Piece::new(c, r)).0)
        };
        let soldiers = [Role::Soldier];
        let guards = [Role::General, Role::Advisor, Role::Elephant];
        let majors = [Role::Chariot, Role::Horse, Role::Cannon];
        let turn = pos.turn();
        Keys {
            structures: [
                slot(of(Color::Red, &soldiers), of(Color::Black, &soldiers), turn),
                slot(of(Color::Red, &guards), of(Color::Black, &guards), turn),
                slot(of(Color::Red, &majors), 0, turn),
                slot(0, of(Color::Black, &majors), turn),
            ],
            continuation: match *contexts {
                [Some(last), Some(before)] => Some(usize::from(before) * CONTEXTS + usize::from(last)),
                _ => None,
            },
        }
    }
}

impl Correction {
    /// The correction for a position, in centipawns, from the side to move's view.
    #[inline]
    pub fn get(&self, keys: &Keys) -> Value {
        let structures: i32 = self.structures.iter().zip(keys.structures).map(|(t, k)| i32::from(t[k])).sum();
        match keys.continuation {
            Some(k) => (structures + i32::from(self.continuation[k])) / ((STRUCTURES as i32 + 1) * GRAIN),
            None => structures / (STRUCTURES as i32 * GRAIN),
        }
    }

    /// Moves the position's entries towards `diff` (search result minus static
    /// evaluation), the more the deeper the search that found it.
    pub fn update(&mut self, keys: &Keys, diff: Value, depth: i32) {
        let target = diff.clamp(-LIMIT, LIMIT) * GRAIN;
        let weight = (depth + 1).clamp(1, 16);
        let learn = |e: &mut i16| {
            let v = (i32::from(*e) * (256 - weight) + target * weight) / 256;
            *e = v.clamp(-LIMIT * GRAIN, LIMIT * GRAIN) as i16;
        };
        for (t, k) in self.structures.iter_mut().zip(keys.structures) {
            learn(&mut t[k]);
        }
        if let Some(k) = keys.continuation {
            learn(&mut self.continuation[k]);
        }
    }

    pub fn clear(&mut self) {
        for t in &mut self.structures {
            t.fill(0);
        }
        self.continuation.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use xiangqi::Standard;

    use super::*;
    use crate::moves::context;

    #[test]
    fn corrections_follow_the_searches_and_stay_bounded() {
        let pos = Position::<Standard>::startpos();
        let keys = Keys::new(&pos, &[None, None]);
        let mut c = Correction::default();
        assert_eq!(c.get(&keys), 0);
        for _ in 0..200 {
            c.update(&keys, 1000, 20);
        }
        assert!(c.get(&keys) > LIMIT * 9 / 10 && c.get(&keys) <= LIMIT, "{}", c.get(&keys));
        for _ in 0..200 {
            c.update(&keys, -40, 20);
        }
        assert!((c.get(&keys) + 40).abs() <= 2, "{}", c.get(&keys));
        c.clear();
        assert_eq!(c.get(&keys), 0);
    }

    #[test]
    fn the_last_two_moves_have_a_correction_of_their_own() {
        let pos = Position::<Standard>::startpos();
        let cell = |i| xiangqi::Cell::new(i);
        let a = [context(3, cell(40)), context(10, cell(50))];
        let b = [context(3, cell(41)), context(10, cell(50))];
        let mut c = Correction::default();
        for _ in 0..200 {
            c.update(&Keys::new(&pos, &a), 100, 20);
        }
        let (with_a, with_b) = (c.get(&Keys::new(&pos, &a)), c.get(&Keys::new(&pos, &b)));
        // The structure tables are shared; only the moves' own entry tells the two apart.
        assert!(with_a > with_b && with_b > 0, "{with_a} {with_b}");
        let alone = c.get(&Keys::new(&pos, &[None, a[1]]));
        assert!((alone - with_b * 5 / 4).abs() <= 1, "the structures alone: {alone}, {with_b}");
    }
}
