//! Threats to capture ("chases"), as the repetition rules judge them.
//!
//! A chase is a move after which the mover threatens to win a piece next move: the
//! capture is legal, and either the target has no legal recapture on its cell
//! (it is *unprotected*: a protector that is pinned, or whose recapture would face
//! the generals, does not count), or the attacker is worth clearly less than the
//! target (a horse or cannon against a chariot; an advisor or elephant against a
//! chariot, horse or cannon). Following the Asian rules, the general and soldiers
//! may chase freely, a soldier that has not crossed the river is never chased, the
//! general is never "chased" (that is check), and two pieces of one kind attacking
//! each other offer an exchange rather than a chase.
//!
//! A chase is judged per threatened piece. A side *threatens* an enemy piece when
//! one of its pieces, with that side to move, could capture it as above. A move
//! chases an enemy piece when the mover threatens it after the move and did not
//! threaten it before, whichever of the mover's pieces makes either threat. The
//! Asian rules define a chase as a move that *creates* a threat to capture a piece
//! next move, and a threat that already stood is not created by the move, whether
//! the piece that made it moved along keeping it or another piece now threatens
//! the same target. So a chariot that steps along its line keeping its threat on
//! a horse that walked into it does not chase the horse, and a horse that attacks
//! a chariot which a cannon already attacked through a screen does not chase the
//! chariot; a piece that was not threatened before the move and is threatened
//! after it is chased, whether by the moved piece, by a piece it uncovered, or
//! because the move took away its protection. Pikafish reads it the same way (its
//! `detect_chases` takes, per piece, the chased set after each move less the one
//! before it). Fairy-Stockfish keys a chase by attacker instead (a new attack by
//! the moved piece, or a discovered one), under which the horse's attack on the
//! chariot above would count.

use crate::{
    bitboard::Bitboard,
    geometry::Geometry,
    position::Position,
    types::{Cell, Color, Move, Role},
};

/// The enemy pieces newly chased by the move from `before` to `after`: those the
/// mover threatens in `after` and did not already threaten in `before`, whoever
/// attacks them (see the module documentation).
pub fn chased<G: Geometry>(before: &Position<G>, after: &Position<G>) -> Bitboard {
    let us = before.turn();
    let mut attacker_view = after.clone();
    attacker_view.play_null();
    let mut out = Bitboard::EMPTY;
    for target in threatened(&attacker_view, us) {
        // The opponent has not moved, so a piece threatened now stood on the same
        // cell before the move.
        if !threatens(before, us, target) {
            out.set(target);
        }
    }
    out
}

/// The enemy pieces `us` chases in `pos`, where `us` is to move.
fn threatened<G: Geometry>(pos: &Position<G>, us: Color) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for from in pos.by_color(us) {
        if !may_chase(pos, from) {
            continue;
        }
        for target in pos.attacks_from(from) & pos.by_color(!us) & !out {
            if is_chase(pos, from, target) {
                out.set(target);
            }
        }
    }
    out
}

/// Whether any piece of `us`, to move in `pos`, chases the piece on `target`.
fn threatens<G: Geometry>(pos: &Position<G>, us: Color, target: Cell) -> bool {
    for from in pos.by_color(us) {
        if may_chase(pos, from) && pos.attacks_from(from).contains(target) && is_chase(pos, from, target) {
            return true;
        }
    }
    false
}

/// Whether the piece on `from` is one whose threats count as chases: the general
/// and soldiers may threaten freely.
fn may_chase<G: Geometry>(pos: &Position<G>, from: Cell) -> bool {
    pos.piece_at(from).is_some_and(|p| !matches!(p.role, Role::General | Role::Soldier))
}

/// Whether the piece on `from` chases the enemy piece on `target`, in a position
/// where the attacker's side is to move.
fn is_chase<G: Geometry>(pos: &Position<G>, from: Cell, target: Cell) -> bool {
    let (Some(a), Some(t)) = (pos.piece_at(from), pos.piece_at(target)) else { return false };
    if t.role == Role::General {
        return false;
    }
    if t.role == Role::Soldier && G::TABLES.home(t.color).contains(target) {
        return false;
    }
    if !pos.is_legal(Move::new(from, target)) {
        return false;
    }
    if t.role == a.role && pos.attacks_from(target).contains(from) {
        return false;
    }
    let outranks = match a.role {
        Role::Horse | Role::Cannon => t.role == Role::Chariot,
        Role::Advisor | Role::Elephant => matches!(t.role, Role::Chariot | Role::Horse | Role::Cannon),
        _ => false,
    };
    outranks || !is_protected(pos, from, target)
}

/// Whether, if the side to move captured on `target` with the piece on `from`, the
/// other side could legally recapture there. The capture must itself be legal.
pub fn is_protected<G: Geometry>(pos: &Position<G>, from: Cell, target: Cell) -> bool {
    let mut p = pos.clone();
    p.play_unchecked(Move::new(from, target));
    p.legal_moves().iter().any(|m| m.to == target)
}

/// Whether, in `pos` just after a move by the side of the piece on `from`, that
/// piece threatens to capture the piece on `target` next move, and nothing could
/// recapture (the play-site seed's "unprotected point").
pub fn threatens_unprotected<G: Geometry>(pos: &Position<G>, from: Cell, target: Cell) -> bool {
    let mut view = pos.clone();
    view.play_null();
    let (Some(a), Some(t)) = (view.piece_at(from), view.piece_at(target)) else { return false };
    a.color == view.turn()
        && t.color != a.color
        && t.role != Role::General
        && view.is_legal(Move::new(from, target))
        && !is_protected(&view, from, target)
}
