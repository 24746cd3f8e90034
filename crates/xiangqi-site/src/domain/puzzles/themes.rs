//! What a puzzle is about, worked out from its line: the positions and moves
//! themselves, never a guess from the score. Every test here looks at what a
//! move changes on the board (which pieces attack what, which pieces cannot
//! move), so it reads the same on both boards.

use xiangqi::{Bitboard, Cell, Color, Geometry, IllegalReason, Move, Piece, Position, Role};

use crate::model::puzzles::PuzzleTheme;

/// A piece's worth for telling which attacks matter, in tenths of a soldier.
fn worth(role: Role) -> i32 {
    match role {
        Role::General => 10_000,
        Role::Chariot => 90,
        Role::Cannon => 45,
        Role::Horse => 40,
        Role::Advisor | Role::Elephant => 20,
        Role::Soldier => 10,
    }
}

/// Plies before which a puzzle is an opening one.
const OPENING_PLIES: usize = 24;
/// At most this many chariots, horses and cannons on the board make an endgame.
const ENDGAME_MAJORS: u32 = 4;

/// The themes of a line: `start` is the position the solver moves first in,
/// `line` the solver's and the opponent's moves in turn (ending with the
/// solver's), `ply` how many moves of the game came before `start`, and
/// `mate` whether the line's last move mates.
pub fn themes_of<G: Geometry>(
    start: &Position<G>,
    line: &[Move],
    ply: usize,
    mate: bool,
) -> Vec<PuzzleTheme> {
    let solver = start.turn();
    let mut themes = Vec::new();
    if mate {
        themes.push(match line.len().div_ceil(2) {
            1 => PuzzleTheme::MateIn1,
            2 => PuzzleTheme::MateIn2,
            3 => PuzzleTheme::MateIn3,
            _ => PuzzleTheme::LongMate,
        });
    }
    if let Some(&first) = line.first()
        && start.piece_at(first.to).is_some()
    {
        themes.push(PuzzleTheme::Capture);
    }
    if line.first().is_some_and(|&m| is_defensive(start, m)) {
        themes.push(PuzzleTheme::DefensiveMove);
    }

    let mut pos = start.clone();
    for (i, &m) in line.iter().enumerate() {
        let before = pos.clone();
        pos.play_unchecked(m);
        if i % 2 == 1 {
            continue; // the opponent's reply: what matters is what it allowed
        }
        let mut found = |t: PuzzleTheme| {
            if !themes.contains(&t) {
                themes.push(t);
            }
        };
        if forks(&pos, m.to, solver) {
            found(PuzzleTheme::Fork);
        }
        if pinned(&pos, !solver) > pinned(&before, !solver) {
            found(PuzzleTheme::Pin);
        }
        if discovers(&before, &pos, m, solver, None) {
            found(PuzzleTheme::DiscoveredAttack);
        }
        if discovers(&before, &pos, m, solver, Some(Role::Cannon)) {
            found(PuzzleTheme::CannonScreen);
        }
        if discovers(&before, &pos, m, solver, Some(Role::Horse)) || blocks_a_horse(&before, &pos, m, solver)
        {
            found(PuzzleTheme::HorseLeg);
        }
        if facing_forbids(&pos) {
            found(PuzzleTheme::FlyingGeneral);
        }
    }

    let majors =
        [Role::Chariot, Role::Horse, Role::Cannon].iter().map(|&r| start.by_role(r).count()).sum::<u32>();
    themes.push(if majors <= ENDGAME_MAJORS {
        PuzzleTheme::Endgame
    } else if ply < OPENING_PLIES {
        PuzzleTheme::Opening
    } else {
        PuzzleTheme::Middlegame
    });
    themes
}

/// The pieces of `side` that an attack on matters: the general, or a piece
/// worth more than its attacker or not defended.
fn hits<G: Geometry>(pos: &Position<G>, attacker: Cell, target: Cell) -> bool {
    let (Some(a), Some(t)) = (pos.piece_at(attacker), pos.piece_at(target)) else { return false };
    t.role == Role::General || worth(t.role) > worth(a.role) || !pos.is_attacked(target, t.color)
}

fn pieces_of<G: Geometry>(pos: &Position<G>, side: Color) -> Bitboard {
    pos.by_color(side)
}

/// Whether the piece on `at` attacks two pieces of the other side that matter.
fn forks<G: Geometry>(pos: &Position<G>, at: Cell, solver: Color) -> bool {
    pieces_of(pos, !solver)
        .filter(|&target| pos.attackers(target, solver).contains(at) && hits(pos, at, target))
        .count()
        >= 2
}

/// How many pieces of `side` (its general aside) cannot make a move their
/// own rules allow because it would expose their general.
fn pinned<G: Geometry>(pos: &Position<G>, side: Color) -> usize {
    if pos.turn() != side || pos.is_check() {
        return 0;
    }
    let general = pos.general(side);
    pieces_of(pos, side)
        .filter(|&from| from != general)
        .filter(|&from| {
            Iterator::any(&mut pos.pseudo_targets(from), |to| {
                matches!(
                    pos.why_illegal(Move { from, to }),
                    Some(IllegalReason::LeavesGeneralInCheck | IllegalReason::GeneralsFace)
                )
            })
        })
        .count()
}

/// Whether move `m` of `solver` let another of its pieces (of `role`, any
/// when `None`) attack a piece that matters which it did not attack before.
fn discovers<G: Geometry>(
    before: &Position<G>,
    after: &Position<G>,
    m: Move,
    solver: Color,
    role: Option<Role>,
) -> bool {
    Iterator::any(&mut pieces_of(after, !solver), |target| {
        let new = after.attackers(target, solver) & !before.attackers(target, solver);
        new.filter(|&a| a != m.to).any(|a| {
            role.is_none_or(|r| after.piece_at(a).is_some_and(|p| p.role == r)) && hits(after, a, target)
        })
    })
}

/// Whether move `m` stopped a horse of the other side attacking a piece of
/// `solver` (by standing on its leg): the horse and the piece are still there.
fn blocks_a_horse<G: Geometry>(before: &Position<G>, after: &Position<G>, m: Move, solver: Color) -> bool {
    let horse = Piece { color: !solver, role: Role::Horse };
    pieces_of(after, solver).filter(|&t| t != m.to).any(|target| {
        Iterator::any(&mut (before.attackers(target, !solver) & !after.attackers(target, !solver)), |a| {
            after.piece_at(a) == Some(horse) && a != m.from
        })
    })
}

/// Whether the side to move has a move its own rules allow that the facing
/// generals forbid.
fn facing_forbids<G: Geometry>(pos: &Position<G>) -> bool {
    Iterator::any(&mut pieces_of(pos, pos.turn()), |from| {
        Iterator::any(&mut pos.pseudo_targets(from), |to| {
            pos.why_illegal(Move { from, to }) == Some(IllegalReason::GeneralsFace)
        })
    })
}

/// Whether the first move answers a threat: the solver is in check, or the
/// piece moved was attacked where it stood and takes nothing.
fn is_defensive<G: Geometry>(start: &Position<G>, m: Move) -> bool {
    if start.is_check() {
        return true;
    }
    start.piece_at(m.to).is_none()
        && start.piece_at(m.from).is_some_and(|p| start.is_attacked(m.from, !p.color))
}

#[cfg(test)]
mod tests {
    use xiangqi::{Standard, notation::iccs};

    use super::*;

    fn line(pos: &Position<Standard>, moves: &[&str]) -> Vec<Move> {
        let t = Position::<Standard>::tables();
        let mut p = pos.clone();
        moves
            .iter()
            .map(|s| {
                let m = iccs::parse(t, s).unwrap();
                assert!(p.is_legal(m), "{s} in {}", p.to_fen());
                p.play_unchecked(m);
                m
            })
            .collect()
    }

    #[test]
    fn themes_round_trip_through_their_bits() {
        let set = [PuzzleTheme::MateIn2, PuzzleTheme::Fork, PuzzleTheme::Endgame];
        assert_eq!(PuzzleTheme::from_bits(PuzzleTheme::to_bits(&set)), set);
    }

    #[test]
    fn a_horse_fork_of_general_and_chariot_is_a_fork() {
        // The horse on d6 goes to c8, checking the general on e9 and
        // attacking the chariot on a9.
        let pos = Position::<Standard>::from_fen("r3k4/9/9/3H5/9/9/9/9/9/3K5 w").unwrap();
        let m = line(&pos, &["d6c8"]);
        let themes = themes_of(&pos, &m, 40, false);
        assert!(themes.contains(&PuzzleTheme::Fork), "{themes:?}");
        assert!(themes.contains(&PuzzleTheme::Endgame));
        assert!(!themes.contains(&PuzzleTheme::Capture));
    }

    #[test]
    fn a_chariot_mate_in_one_is_tagged_with_its_length_and_the_facing_generals() {
        // The chariot comes to the d file: the general cannot step to the e
        // file, where it would face the red general.
        let pos = Position::<Standard>::from_fen("3k5/9/9/9/9/9/9/9/R8/4K4 w").unwrap();
        let m = line(&pos, &["a1d1"]);
        let themes = themes_of(&pos, &m, 70, true);
        assert!(themes.contains(&PuzzleTheme::MateIn1), "{themes:?}");
        assert!(themes.contains(&PuzzleTheme::FlyingGeneral), "{themes:?}");
    }

    #[test]
    fn a_chariot_behind_a_cannon_pins_the_piece_in_front_of_the_general() {
        // The red chariot comes to the e file: the black horse on e7 shields its general.
        let pos = Position::<Standard>::from_fen("4k4/9/4n4/9/9/9/9/9/R8/3K5 w").unwrap();
        let m = line(&pos, &["a1e1"]);
        let themes = themes_of(&pos, &m, 60, false);
        assert!(themes.contains(&PuzzleTheme::Pin), "{themes:?}");
    }

    #[test]
    fn moving_a_screen_discovers_the_cannon_behind_it() {
        // The horse on e5 and the soldier on e6 stand between the cannon on
        // e2 and the general: when the horse jumps away, the soldier is the
        // cannon's one screen and the general is in check.
        let pos = Position::<Standard>::from_fen("4k4/9/9/4p4/4H4/9/9/4C4/9/3K5 w").unwrap();
        let m = line(&pos, &["e5c6"]);
        let themes = themes_of(&pos, &m, 30, false);
        assert!(themes.contains(&PuzzleTheme::CannonScreen), "{themes:?}");
        assert!(themes.contains(&PuzzleTheme::DiscoveredAttack), "{themes:?}");
    }

    #[test]
    fn stage_follows_the_material_and_the_ply() {
        let start = Position::<Standard>::startpos();
        let m = line(&start, &["h2e2"]);
        assert!(themes_of(&start, &m, 0, false).contains(&PuzzleTheme::Opening));
        assert!(themes_of(&start, &m, 40, false).contains(&PuzzleTheme::Middlegame));
    }
}
