//! Correction history: how far searches found the static evaluation off, remembered
//! by the structures the evaluation judges worst, and added to later evaluations.
//!
//! Two structures change slowly and decide much that the evaluation only sums up:
//! the soldiers, and each side's general with its advisors and elephants. For each
//! (and the side to move) a table keeps a running average of "search result minus
//! static evaluation" from nodes whose result says something about it.

use xiangqi::{Color, Geometry, Piece, Position, Role};

use crate::score::Value;

const BITS: u32 = 14;
const SIZE: usize = 1 << BITS;
/// Entries are kept in 1/GRAIN centipawns, so that small corrections add up.
const GRAIN: i32 = 16;
/// The largest correction, in centipawns.
const LIMIT: i32 = 128;

/// The correction tables of one search thread.
pub struct Correction {
    soldiers: Vec<i16>,
    guards: Vec<i16>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction { soldiers: vec![0; 2 * SIZE], guards: vec![0; 2 * SIZE] }
    }
}

/// A table slot for two sets of cells, one per colour, and the side to move.
#[inline]
fn slot(red: u128, black: u128, turn: Color) -> usize {
    let fold = |b: u128| (b as u64) ^ ((b >> 64) as u64).rotate_left(29);
    let x = fold(red).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ fold(black).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    let x = (x ^ (x >> 31)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    turn.index() * SIZE + (x >> (64 - BITS)) as usize
}

/// The two slots of a position: its soldiers, and its generals, advisors and elephants.
#[inline]
fn slots<G: Geometry>(pos: &Position<G>) -> [usize; 2] {
    let of =
        |c: Color, roles: &[Role]| roles.iter().fold(0u128, |acc, &r| acc | pos.pieces(Piece::new(c, r)).0);
    let soldiers = [Role::Soldier];
    let guards = [Role::General, Role::Advisor, Role::Elephant];
    let turn = pos.turn();
    [
        slot(of(Color::Red, &soldiers), of(Color::Black, &soldiers), turn),
        slot(of(Color::Red, &guards), of(Color::Black, &guards), turn),
    ]
}

impl Correction {
    /// The correction for a position, in centipawns, from the side to move's view.
    #[inline]
    pub fn get<G: Geometry>(&self, pos: &Position<G>) -> Value {
        let [s, g] = slots(pos);
        (i32::from(self.soldiers[s]) + i32::from(self.guards[g])) / (2 * GRAIN)
    }

    /// Moves the position's entries towards `diff` (search result minus static
    /// evaluation), the more the deeper the search that found it.
    pub fn update<G: Geometry>(&mut self, pos: &Position<G>, diff: Value, depth: i32) {
        let [s, g] = slots(pos);
        let target = diff.clamp(-LIMIT, LIMIT) * GRAIN;
        let weight = (depth + 1).clamp(1, 16);
        for e in [&mut self.soldiers[s], &mut self.guards[g]] {
            let v = (i32::from(*e) * (256 - weight) + target * weight) / 256;
            *e = v.clamp(-LIMIT * GRAIN, LIMIT * GRAIN) as i16;
        }
    }

    pub fn clear(&mut self) {
        self.soldiers.fill(0);
        self.guards.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use xiangqi::Standard;

    use super::*;

    #[test]
    fn corrections_follow_the_searches_and_stay_bounded() {
        let pos = Position::<Standard>::startpos();
        let mut c = Correction::default();
        assert_eq!(c.get(&pos), 0);
        for _ in 0..200 {
            c.update(&pos, 1000, 20);
        }
        assert!(c.get(&pos) > LIMIT * 9 / 10 && c.get(&pos) <= LIMIT, "{}", c.get(&pos));
        for _ in 0..200 {
            c.update(&pos, -40, 20);
        }
        assert!((c.get(&pos) + 40).abs() <= 2, "{}", c.get(&pos));
        c.clear();
        assert_eq!(c.get(&pos), 0);
    }
}
