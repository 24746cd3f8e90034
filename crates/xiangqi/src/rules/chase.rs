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

use crate::{
    bitboard::Bitboard,
    geometry::Geometry,
    position::Position,
    types::{Cell, Move, Role},
};

/// The enemy pieces newly chased by the side that played `m` from `before`;
/// `after` is the position after `m`.
pub fn chased<G: Geometry>(before: &Position<G>, m: Move, after: &Position<G>) -> Bitboard {
    let us = before.turn();
    let them = !us;
    let mut out = Bitboard::EMPTY;
    let mut attacker_view = after.clone();
    attacker_view.play_null();
    for from in after.by_color(us) {
        let Some(attacker) = after.piece_at(from) else { continue };
        if matches!(attacker.role, Role::General | Role::Soldier) {
            continue;
        }
        let old_cell = if from == m.to { m.from } else { from };
        let before_targets = before.attacks_from(old_cell);
        let new_targets = after.attacks_from(from) & after.by_color(them) & !before_targets;
        for target in new_targets {
            if is_chase(&attacker_view, from, target) {
                out.set(target);
            }
        }
    }
    out
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
