//! Static exchange evaluation: the material balance of the capture sequence on
//! one cell when both sides always recapture with their least valuable piece
//! and may stop whenever continuing would lose.
//!
//! The sequence is played on the board itself (and taken back), so screens that
//! appear or vanish for cannons and legs that open for horses are seen exactly.
//! Pins are ignored, as in most engines: a pinned recapturer still counts.

use arrayvec::ArrayVec;
use xiangqi::{Cell, Color, Geometry, Move, Position, Role, Undo};

/// Exchange values: rough, and only their order matters much.
pub const fn value(role: Role) -> i32 {
    match role {
        Role::General => 5000,
        Role::Advisor | Role::Elephant => 200,
        Role::Horse => 400,
        Role::Chariot => 900,
        Role::Cannon => 450,
        Role::Soldier => 100,
    }
}

/// The net gain of a capture (or the loss of a quiet move onto an attacked cell).
pub fn see<G: Geometry>(pos: &mut Position<G>, m: Move) -> i32 {
    let Some(mover) = pos.piece_at(m.from) else { return 0 };
    let to = m.to;
    // Not zeroed up front: most exchanges are two or three captures long.
    let mut gain: ArrayVec<i32, 34> = ArrayVec::new();
    gain.push(pos.piece_at(to).map_or(0, |p| value(p.role)));
    let mut played: ArrayVec<(Move, Undo), 34> = ArrayVec::new();
    let mut next = m;
    let mut next_value = value(mover.role);
    let mut d = 0;
    loop {
        d += 1;
        gain.push(next_value - gain[d - 1]);
        if d + 1 >= gain.capacity() {
            break;
        }
        let u = pos.play_unchecked(next);
        played.push((next, u));
        match least_attacker(pos, to, pos.turn()) {
            Some((from, v)) => {
                next = Move::new(from, to);
                next_value = v;
            }
            None => break,
        }
    }
    while let Some((mv, u)) = played.pop() {
        pos.undo(mv, u);
    }
    while d > 1 {
        d -= 1;
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
    }
    gain[0]
}

/// Whether a move's exchange gains at least `threshold`.
#[inline]
pub fn see_ge<G: Geometry>(pos: &mut Position<G>, m: Move, threshold: i32) -> bool {
    // A capture of a piece worth at least the capturer gains that much already.
    if let (Some(v), Some(a)) = (pos.piece_at(m.to), pos.piece_at(m.from))
        && value(v.role) - value(a.role) >= threshold
        && a.role != Role::General
    {
        return true;
    }
    see(pos, m) >= threshold
}

fn least_attacker<G: Geometry>(pos: &Position<G>, to: Cell, side: Color) -> Option<(Cell, i32)> {
    let mut best: Option<(Cell, i32)> = None;
    for from in pos.attackers(to, side) {
        let Some(p) = pos.piece_at(from) else { continue };
        // `attackers` counts the general along open lines (the flying-general rule),
        // which captures only the other general.
        if p.role == Role::General && !pos.pseudo_targets(from).contains(to) {
            continue;
        }
        let v = value(p.role);
        if best.is_none_or(|(_, b)| v < b) {
            best = Some((from, v));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use xiangqi::Standard;

    use super::*;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let mut pos: Position<Standard> = fen.parse().unwrap();
        let m = pos.parse_move(mv).unwrap();
        let before = pos.clone();
        let v = see(&mut pos, m);
        assert_eq!(pos, before, "see must leave the position as it was");
        v
    }

    #[test]
    fn free_soldier_is_won() {
        // The red chariot takes an unprotected soldier.
        assert_eq!(see_of("4k4/9/9/9/8p/9/9/9/9/3K4R w - - 0 1", "i0i5"), 100);
    }

    #[test]
    fn chariot_for_protected_soldier_loses() {
        // The soldier on i5 is protected by the chariot on i9.
        assert_eq!(see_of("3k4r/9/9/9/8p/9/9/9/9/4K3R w - - 0 1", "i0i5"), 100 - 900);
    }

    #[test]
    fn cannon_recaptures_over_a_screen() {
        // The horse takes the chariot on e5; the cannon on e9 recaptures over the advisor.
        assert_eq!(see_of("3kc4/4a4/9/9/4r4/9/3N5/9/9/5K3 w - - 0 1", "d3e5"), 900 - 400);
        // Without the screen, nothing recaptures.
        assert_eq!(see_of("3kc4/9/9/9/4r4/9/3N5/9/9/5K3 w - - 0 1", "d3e5"), 900);
    }
}
