//! What can go wrong for the general of the side to move, worked out once per
//! position so that most moves need no test of their own.
//!
//! When the side to move is not in check, a move of a piece other than the
//! general changes the board in two ways only: its cell empties and its target
//! fills (a capture leaves the target full). Emptying a cell can open a line to a
//! chariot or the enemy general, take away one of two screens of a cannon, or
//! free the leg of a horse: the pieces for which that happens are *pinned*.
//! Filling an empty cell can only hurt on a line between the general and an
//! enemy cannon with nothing between them, where the piece becomes the screen:
//! those cells are the *screen cells*. A move of an unpinned piece to a cell
//! that is not a screen cell keeps the general safe, and both facts together
//! cover every way the move could matter: a line's count of pieces between the
//! general and an attacker drops by one at most where the piece leaves, and
//! grows by one at most where it lands.

use crate::{
    geometry::Geometry,
    position::{Dirs, Position, bit, first_along},
    types::Role,
};

/// Whether the side to move is in check and, when it is not, its pinned pieces
/// and screen cells.
pub(super) struct Guard {
    /// Whether an enemy piece attacks the general (then the other fields are
    /// not complete and every move must be tested).
    pub check: bool,
    /// Own pieces whose leaving their cell would expose the general.
    pub pinned: u128,
    /// Empty cells where a piece would become an enemy cannon's only screen.
    pub screens: u128,
}

impl<G: Geometry> Position<G> {
    /// The guard of the side to move's general, found in the same walk from the
    /// general as whether it is in check.
    #[inline(always)]
    pub(super) fn guard(&self) -> Guard {
        let t = G::TABLES;
        let us = self.turn;
        let g = self.general(us).index();
        let own = self.by_color[us.index()];
        let enemy = self.by_color[(!us).index()];
        let occ = own | enemy;
        let rooks = enemy & (self.by_role[Role::Chariot.index()] | self.by_role[Role::General.index()]);
        let cannons = enemy & self.by_role[Role::Cannon.index()];
        let horses = enemy & self.by_role[Role::Horse.index()];
        let mut pinned = 0;
        let mut screens = 0;
        let mut check = t.soldier_rev[(!us).index()][g] & enemy & self.by_role[Role::Soldier.index()] != 0;
        if t.lines[g] & (rooks | cannons) != 0 {
            for d in 0..Dirs::<G>::N {
                let ray = t.ray[d][g];
                if ray & (rooks | cannons) == 0 {
                    continue;
                }
                // The ray holds an enemy piece, so it has a first piece.
                let first = first_along::<G>(d, ray & occ);
                if rooks & bit(first) != 0 {
                    check = true;
                    continue;
                }
                let beyond_first = t.ray[d][first];
                if cannons & bit(first) != 0 {
                    screens |= ray & !beyond_first & !bit(first);
                }
                let rest = beyond_first & occ;
                if rest == 0 {
                    continue;
                }
                let second = first_along::<G>(d, rest);
                if rooks & bit(second) != 0 {
                    pinned |= own & bit(first);
                } else if cannons & bit(second) != 0 {
                    check = true;
                    continue;
                }
                let rest = t.ray[d][second] & occ;
                if rest != 0 && cannons & bit(first_along::<G>(d, rest)) != 0 {
                    pinned |= own & (bit(first) | bit(second));
                }
            }
        }
        if horses != 0 {
            for st in &t.horse_rev[g][..t.horse_rev_n[g] as usize] {
                if st.to & horses != 0 {
                    if occ & st.via == 0 {
                        check = true;
                    }
                    pinned |= own & st.via;
                }
            }
        }
        Guard { check, pinned, screens }
    }
}
