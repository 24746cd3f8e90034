//! Static evaluation: material and piece-square values blended between middle
//! game and endgame, mobility, king safety (attacks on the palace against its
//! advisors and elephants), cannons and chariots lined up with the enemy general,
//! and soldiers across the river.
//!
//! Piece-square values are not hand-written tables: they are computed per cell
//! from a few tuned weights and the cell's facts ([`board::Board`]), so the same
//! evaluation plays on both boards.
//!
//! ```
//! use xiangqi::{Position, Standard};
//! use xiangqi_engine::eval::{Evaluator, P};
//!
//! let eval = Evaluator::<Standard>::default();
//! // The start position is symmetric: only the tempo bonus remains.
//! assert_eq!(eval.evaluate(&Position::startpos()), eval.params().get(P::tempo));
//! ```

pub mod board;
pub mod params;

use std::marker::PhantomData;

use board::{ALIGNED, Board};
pub use params::{P, Params};
use xiangqi::{Bitboard, Color, Geometry, Piece, Position, Role};

use crate::score::Value;

/// Game phase of a full board; each chariot counts 4, each horse and cannon 2.
const FULL_PHASE: i32 = 32;
const PHASE: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];

/// Red's material and placement sums (middle game, endgame) and the game phase.
pub type Placement = (i32, i32, i32);

/// How far the terms beyond material and placement move the score, for lazy
/// evaluation: outside the window by more than this, they are not computed. With
/// the current weights they exceed it in about one position in a thousand; a wider
/// margin that covers those too cost nodes and won nothing in play.
pub const LAZY_MARGIN: Value = 320;

/// An evaluator for one geometry with one set of weights.
pub struct Evaluator<G: Geometry> {
    params: Params,
    board: Board,
    /// Material + piece-square value per piece index and cell: (middle game, endgame).
    pst: Vec<[(i32, i32); 90]>,
    _geometry: PhantomData<G>,
}

impl<G: Geometry> Default for Evaluator<G> {
    fn default() -> Self {
        Self::new(Params::default())
    }
}

impl<G: Geometry> Evaluator<G> {
    /// An evaluator with these weights, its tables built for the board `G`.
    pub fn new(params: Params) -> Self {
        let board = Board::new::<G>();
        let mut e =
            Evaluator { params, board, pst: vec![[(0, 0); 90]; Piece::COUNT], _geometry: PhantomData };
        e.build_pst();
        e
    }

    /// The weights it evaluates with.
    pub fn params(&self) -> &Params {
        &self.params
    }

    fn build_pst(&mut self) {
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                for c in G::TABLES.reachable(piece) {
                    self.pst[piece.index()][c.index()] = self.cell_value(color, role, c.index());
                }
            }
        }
    }

    fn cell_value(&self, color: Color, role: Role, c: usize) -> (i32, i32) {
        let p = &self.params;
        let b = &self.board;
        let i = color.index();
        let adv = b.advance[i][c];
        let centre = 4 - b.side[c];
        let mut v = (0, 0);
        let mut add = |w: P, k: i32| {
            let (mg, eg) = p.pair(w);
            v.0 += mg * k;
            v.1 += eg * k;
        };
        match role {
            Role::General => {
                add(P::general_raised_mg, i32::from(!b.back_row[i][c]));
                add(P::general_side_mg, b.side[c]);
            }
            Role::Advisor => {
                add(P::advisor_mg, 1);
                add(P::advisor_centre_mg, i32::from(c == b.palace_centre[i]));
            }
            Role::Elephant => {
                add(P::elephant_mg, 1);
                add(P::elephant_centre_mg, i32::from(b.centre_file[c]));
            }
            Role::Horse => {
                add(P::horse_mg, 1);
                add(P::horse_centre_mg, centre);
                add(P::horse_advance_mg, adv);
                add(P::horse_near_palace_mg, b.near_enemy_palace[i][c]);
                add(P::horse_edge_mg, i32::from(b.edge[c]));
                add(P::horse_back_row_mg, i32::from(b.back_row[i][c]));
            }
            Role::Chariot => {
                add(P::chariot_mg, 1);
                add(P::chariot_advance_mg, adv);
                add(P::chariot_centre_mg, centre);
                add(P::chariot_back_row_mg, i32::from(b.back_row[i][c]));
            }
            Role::Cannon => {
                add(P::cannon_mg, 1);
                add(P::cannon_centre_file_mg, i32::from(b.centre_file[c]));
                add(P::cannon_advance_mg, adv);
                add(P::cannon_home_rows_mg, i32::from((1..=2).contains(&adv)));
            }
            Role::Soldier => {
                add(P::soldier_mg, 1);
                if b.crossed[i][c] {
                    add(P::soldier_crossed_mg, 1);
                    add(P::soldier_advance_mg, adv - 5);
                    add(P::soldier_near_palace_mg, b.near_enemy_palace[i][c]);
                    add(P::soldier_last_row_mg, i32::from(b.last_row[i][c]));
                    add(P::soldier_centre_mg, centre);
                }
            }
        }
        v
    }

    /// The score of a position for the side to move, in centipawns.
    pub fn evaluate(&self, pos: &Position<G>) -> Value {
        self.evaluate_within(pos, -crate::score::INFINITE, crate::score::INFINITE).0
    }

    /// The score, computed in full only if material and placement alone leave it
    /// within `LAZY_MARGIN` of the window (`alpha`, `beta`); also whether it is full.
    pub fn evaluate_within(&self, pos: &Position<G>, alpha: Value, beta: Value) -> (Value, bool) {
        self.evaluate_placed(pos, self.placement(pos), alpha, beta)
    }

    /// As [`Evaluator::evaluate_within`], with the material and placement sums
    /// ([`Evaluator::placement`]) kept up to date by the caller.
    pub fn evaluate_placed(
        &self,
        pos: &Position<G>,
        placed: Placement,
        alpha: Value,
        beta: Value,
    ) -> (Value, bool) {
        let (mg, eg, phase) = placed;
        let quick = self.blend(pos, mg, eg, phase);
        if quick - LAZY_MARGIN >= beta || quick + LAZY_MARGIN <= alpha {
            return (quick, false);
        }
        let (dmg, deg) = self.terms(pos);
        (self.blend(pos, mg + dmg, eg + deg, phase), true)
    }

    /// The tapered score for the side to move, from Red's middle-game and endgame scores.
    fn blend(&self, pos: &Position<G>, mg: i32, eg: i32, phase: i32) -> Value {
        let phase = phase.min(FULL_PHASE);
        let mut v = (mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE;
        // A side without a piece that can cross the river cannot win.
        if v > 0 && !has_attackers(pos, Color::Red) || v < 0 && !has_attackers(pos, Color::Black) {
            v /= 8;
        }
        let v = if pos.turn() == Color::Red { v } else { -v };
        v + self.params.get(P::tempo)
    }

    /// How a move changes the material and placement sums.
    #[inline]
    pub fn placement_change(&self, mover: Piece, m: xiangqi::Move, captured: Option<Piece>) -> Placement {
        let sign = |p: Piece| if p.color == Color::Red { 1 } else { -1 };
        let table = &self.pst[mover.index()];
        let (tm, te) = table[m.to.index()];
        let (fm, fe) = table[m.from.index()];
        let s = sign(mover);
        let (mut mg, mut eg, mut phase) = (s * (tm - fm), s * (te - fe), 0);
        if let Some(c) = captured {
            let (cm, ce) = self.pst[c.index()][m.to.index()];
            mg -= sign(c) * cm;
            eg -= sign(c) * ce;
            phase -= PHASE[c.role.index()];
        }
        (mg, eg, phase)
    }

    /// Material and piece-square sums for Red (middle game, endgame) and the phase.
    pub fn placement(&self, pos: &Position<G>) -> Placement {
        let (mut mg, mut eg, mut phase) = (0, 0, 0);
        for color in Color::ALL {
            let sign = if color == Color::Red { 1 } else { -1 };
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                let table = &self.pst[piece.index()];
                for c in pos.pieces(piece) {
                    let (m, e) = table[c.index()];
                    mg += sign * m;
                    eg += sign * e;
                }
                phase += PHASE[role.index()] * pos.pieces(piece).count() as i32;
            }
        }
        (mg, eg, phase)
    }

    /// Mobility, king safety, lines to the general and soldier structure for Red
    /// (middle game, endgame).
    fn terms(&self, pos: &Position<G>) -> (i32, i32) {
        let p = &self.params;
        let b = &self.board;
        let mut mg = [0i32; 2];
        let mut eg = [0i32; 2];
        let occ = pos.occupied();
        let mut attackers = [0i32; 2];
        for color in Color::ALL {
            let i = color.index();
            for role in [Role::Chariot, Role::Horse, Role::Cannon] {
                attackers[i] += pos.pieces(Piece::new(color, role)).count() as i32;
            }
        }
        for color in Color::ALL {
            let i = color.index();
            let them = !color;
            let enemy_general = pos.general(them).index();
            let enemy_palace = G::TABLES.palace(them);
            let mut danger = 0;
            let mut acc = Acc::default();
            // Role by role, so that each loop knows its piece without a lookup.
            let piece = Piece::new(color, Role::Chariot);
            for c in pos.pieces(piece) {
                let targets = pos.targets_of(piece, c);
                acc.add(p, P::chariot_mobility_mg, targets.count() as i32);
                danger += p.get(P::palace_attack_chariot) * (targets & enemy_palace).count() as i32;
                let between = b.between(c.index(), enemy_general);
                if between != 0 && between & !ALIGNED & occ.0 == 0 {
                    acc.add(p, P::chariot_open_line_mg, 1);
                }
            }
            let piece = Piece::new(color, Role::Horse);
            for c in pos.pieces(piece) {
                let targets = pos.targets_of(piece, c);
                let n = targets.count() as i32;
                acc.add(p, P::horse_mobility_mg, n);
                acc.add(p, P::horse_trapped_mg, i32::from(n == 0));
                danger += p.get(P::palace_attack_horse) * (targets & enemy_palace).count() as i32;
            }
            let piece = Piece::new(color, Role::Cannon);
            for c in pos.pieces(piece) {
                acc.add(p, P::cannon_mobility_mg, pos.targets_of(piece, c).count() as i32);
                danger +=
                    p.get(P::palace_attack_cannon) * (pos.attacks_from(c) & enemy_palace).count() as i32;
                let between = b.between(c.index(), enemy_general);
                if between != 0 {
                    match (Bitboard(between & !ALIGNED) & occ).count() {
                        0 => acc.add(p, P::cannon_no_screen_mg, 1),
                        1 => acc.add(p, P::cannon_one_screen_mg, 1),
                        2 => acc.add(p, P::cannon_two_screens_mg, 1),
                        _ => {}
                    }
                }
            }
            let piece = Piece::new(color, Role::Soldier);
            let soldiers = pos.pieces(piece);
            for c in soldiers & Bitboard(b.crossed_cells[i]) {
                danger += p.get(P::palace_attack_soldier)
                    * (pos.targets_of(piece, c) & enemy_palace).count() as i32;
                let friends = (Bitboard(b.beside[c.index()]) & soldiers).count() as i32;
                // Each connected pair is seen from both soldiers: count half.
                let (m, e) = p.pair(P::soldier_connected_mg);
                acc.mg += m * friends / 2;
                acc.eg += e * friends / 2;
            }
            let advisors = pos.pieces(Piece::new(color, Role::Advisor)).count() as i32;
            let elephants = pos.pieces(Piece::new(color, Role::Elephant)).count() as i32;
            acc.mg += (p.get(P::advisor_defence) * advisors + p.get(P::elephant_defence) * elephants)
                * attackers[them.index()];
            let enemy_defenders = (pos.pieces(Piece::new(them, Role::Advisor))
                | pos.pieces(Piece::new(them, Role::Elephant)))
            .count() as i32;
            // Attacks on a palace hurt more the fewer defenders it has left.
            let pressure = danger * (6 - enemy_defenders).max(2) / 4;
            acc.mg += pressure * pressure * p.get(P::king_danger_scale) / 1024;
            mg[i] = acc.mg;
            eg[i] = acc.eg;
        }
        (mg[0] - mg[1], eg[0] - eg[1])
    }
}

/// A middle-game and endgame sum.
#[derive(Default)]
struct Acc {
    mg: i32,
    eg: i32,
}

impl Acc {
    #[inline]
    fn add(&mut self, p: &Params, w: P, k: i32) {
        let (m, e) = p.pair(w);
        self.mg += m * k;
        self.eg += e * k;
    }
}

/// Whether a side still has a piece that can cross the river.
pub fn has_attackers<G: Geometry>(pos: &Position<G>, color: Color) -> bool {
    [Role::Chariot, Role::Horse, Role::Cannon, Role::Soldier]
        .iter()
        .any(|&r| pos.pieces(Piece::new(color, r)).any())
}

#[cfg(test)]
mod tests {
    use xiangqi::{Hex, Standard};

    use super::*;

    fn eval(fen: &str) -> Value {
        Evaluator::<Standard>::default().evaluate(&fen.parse().unwrap())
    }

    /// The same position seen from the other side: rows reversed, colours swapped.
    fn flipped(fen: &str) -> String {
        let mut fields = fen.split(' ');
        let board: Vec<String> =
            fields
                .next()
                .unwrap()
                .split('/')
                .rev()
                .map(|row| {
                    row.chars()
                        .map(|c| {
                            if c.is_ascii_uppercase() {
                                c.to_ascii_lowercase()
                            } else {
                                c.to_ascii_uppercase()
                            }
                        })
                        .collect()
                })
                .collect();
        let turn = if fields.next() == Some("w") { "b" } else { "w" };
        format!("{} {turn} - - 0 1", board.join("/"))
    }

    #[test]
    fn the_evaluation_is_colour_symmetric() {
        for fen in [
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
            "2bak4/4a4/4b4/4C4/p3c1p2/2P6/4P1n2/4B4/3RA4/2BAK4 b - - 0 1",
        ] {
            assert_eq!(eval(fen), eval(&flipped(fen)), "{fen}");
        }
    }

    #[test]
    fn an_extra_chariot_is_worth_a_lot() {
        let v = eval("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        assert!(v > 500, "{v}");
    }

    #[test]
    fn hex_start_is_balanced() {
        let e = Evaluator::<Hex>::default();
        assert!(e.evaluate(&Position::<Hex>::startpos()).abs() < 40);
    }
}
