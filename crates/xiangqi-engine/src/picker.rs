//! Staged move selection for the main search.
//!
//! Most nodes are decided by their first move or two, so moves are produced in
//! the order they are likely to cut off, and each stage is generated only when
//! the one before it is used up: the hash move (before any generation), the
//! captures that win or keep material, the killer moves, the quiet moves by
//! history, and last the captures that lose material by exchange.

use arrayvec::ArrayVec;
use xiangqi::{Geometry, Move, Position};

use crate::{
    moves::{Context, History},
    see,
};

/// Moves with their ordering scores.
pub(crate) type Scored = ArrayVec<(Move, i32), 256>;

pub(crate) const TT_MOVE: i32 = 1 << 30;
pub(crate) const GOOD_CAPTURE: i32 = 1 << 28;
pub(crate) const KILLER: i32 = 1 << 26;
pub(crate) const BAD_CAPTURE: i32 = -(1 << 28);

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    /// A list given up front, handed out whole.
    Listed,
    HashMove,
    GenerateCaptures,
    GoodCaptures,
    Killers,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// Hands out the moves of one node, best first.
pub(crate) struct Picker {
    stage: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    killer_index: usize,
    contexts: [Context; 2],
    in_check: bool,
    list: Scored,
    next: usize,
    /// Captures that lose material; no position has more than 128 captures.
    bad: ArrayVec<(Move, i32), 128>,
    bad_next: usize,
    skip_quiets: bool,
}

impl Picker {
    /// A picker for a node whose hash move (if any) and killers are known.
    pub fn new(
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        contexts: [Context; 2],
        in_check: bool,
    ) -> Self {
        Picker {
            stage: Stage::HashMove,
            tt_move,
            killers,
            killer_index: 0,
            contexts,
            in_check,
            list: Scored::new(),
            next: 0,
            bad: ArrayVec::new(),
            bad_next: 0,
            skip_quiets: false,
        }
    }

    /// A picker that leaves one move out (the hash move, in a singular-extension test).
    pub fn excluding(
        excluded: Move,
        killers: [Option<Move>; 2],
        contexts: [Context; 2],
        in_check: bool,
    ) -> Self {
        Picker { stage: Stage::GenerateCaptures, ..Picker::new(Some(excluded), killers, contexts, in_check) }
    }

    /// A picker over a given list (the root's moves, ordered by the caller's scores).
    pub fn with_list(list: Scored) -> Self {
        Picker { stage: Stage::Listed, list, ..Picker::new(None, [None; 2], [None; 2], false) }
    }

    /// From now on, quiet moves are not worth trying (late-move pruning).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The best of the current list's moves not yet handed out.
    fn best_listed(&mut self) -> Option<(Move, i32)> {
        (self.next < self.list.len()).then(|| {
            self.next += 1;
            pick(&mut self.list, self.next - 1)
        })
    }

    /// The next move and its ordering score, or `None` when all were handed out.
    pub fn next<G: Geometry>(&mut self, pos: &mut Position<G>, history: &History) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::Listed => match self.best_listed() {
                    Some(found) => return Some(found),
                    None => self.stage = Stage::Done,
                },
                Stage::HashMove => {
                    self.stage = Stage::GenerateCaptures;
                    if let Some(m) = self.tt_move {
                        if pos.is_legal(m) {
                            return Some((m, TT_MOVE));
                        }
                        self.tt_move = None;
                    }
                }
                Stage::GenerateCaptures => {
                    self.stage = Stage::GoodCaptures;
                    let captures = pos.legal_moves_to_with_check(pos.by_color(!pos.turn()), self.in_check);
                    self.list.clear();
                    self.next = 0;
                    for &m in &captures {
                        if Some(m) != self.tt_move {
                            self.list.push((m, capture_order(pos, m, history)));
                        }
                    }
                }
                Stage::GoodCaptures => match self.best_listed() {
                    Some((m, order)) if see::see_ge(pos, m, 0) => return Some((m, order)),
                    Some((m, order)) => self.bad.push((m, order - GOOD_CAPTURE + BAD_CAPTURE)),
                    None => self.stage = Stage::Killers,
                },
                Stage::Killers => {
                    if self.skip_quiets || self.killer_index >= 2 {
                        self.stage = Stage::GenerateQuiets;
                        continue;
                    }
                    let k = self.killers[self.killer_index];
                    self.killer_index += 1;
                    if let Some(m) = k
                        && Some(m) != self.tt_move
                        && pos.piece_at(m.to).is_none()
                        && pos.is_legal(m)
                    {
                        return Some((m, KILLER + 2 - self.killer_index as i32));
                    }
                }
                Stage::GenerateQuiets => {
                    self.stage = Stage::Quiets;
                    self.list.clear();
                    self.next = 0;
                    if self.skip_quiets {
                        continue;
                    }
                    let us = pos.turn().index();
                    let quiets = pos.legal_moves_to_with_check(!pos.occupied(), self.in_check);
                    for &m in &quiets {
                        if Some(m) != self.tt_move && !self.killers.contains(&Some(m)) {
                            let piece = pos.piece_at(m.from).map_or(0, |p| p.index());
                            let score = history.quiet_score(us, piece, m, &self.contexts);
                            self.list.push((m, score.min(KILLER - 1)));
                        }
                    }
                }
                Stage::Quiets => match self.best_listed().filter(|_| !self.skip_quiets) {
                    Some(found) => return Some(found),
                    None => self.stage = Stage::BadCaptures,
                },
                Stage::BadCaptures => {
                    if self.bad_next >= self.bad.len() {
                        self.stage = Stage::Done;
                        continue;
                    }
                    let found = self.bad[self.bad_next];
                    self.bad_next += 1;
                    return Some(found);
                }
                Stage::Done => return None,
            }
        }
    }
}

/// The victim's value plus the capture's history (which can outweigh a step or
/// two between victims: a capture that kept refuting nodes is likely to again),
/// least valuable attacker first among equals. Evasions in the quiescence
/// search come here too, without a victim.
#[inline]
pub(crate) fn capture_order<G: Geometry>(pos: &Position<G>, m: Move, history: &History) -> i32 {
    let Some(attacker) = pos.piece_at(m.from) else { return GOOD_CAPTURE };
    let mut order = GOOD_CAPTURE - see::value(attacker.role) / 8;
    if let Some(victim) = pos.piece_at(m.to) {
        order += see::value(victim.role) * 8;
        order += history.capture_score(attacker, m.to, victim.role) / 2;
    }
    order
}

/// Moves the best-scored of the remaining moves to `i` and returns it (a lazy
/// selection sort: most nodes cut off after one or two moves).
#[inline]
pub(crate) fn pick(moves: &mut [(Move, i32)], i: usize) -> (Move, i32) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if moves[j].1 > moves[best].1 {
            best = j;
        }
    }
    moves.swap(i, best);
    moves[i]
}

#[cfg(test)]
mod tests {
    use xiangqi::{Position, Role};

    use super::*;
    use crate::moves::history_bonus;

    #[test]
    fn capture_history_can_put_a_lesser_victim_first() {
        let pos: Position = "3k5/9/9/9/9/9/9/9/n8/R1p1K4 w - - 0 1".parse().unwrap();
        let horse = pos.parse_move("a0a1").unwrap();
        let soldier = pos.parse_move("a0c0").unwrap();
        let mut history = History::default();
        assert!(capture_order(&pos, horse, &history) > capture_order(&pos, soldier, &history));
        let chariot = pos.piece_at(soldier.from).unwrap();
        for _ in 0..20 {
            history.update_capture(chariot, soldier.to, Role::Soldier, history_bonus(12));
            history.update_capture(chariot, horse.to, Role::Horse, -history_bonus(12));
        }
        assert!(capture_order(&pos, soldier, &history) > capture_order(&pos, horse, &history));
        history.clear();
        assert!(capture_order(&pos, horse, &history) > capture_order(&pos, soldier, &history));
    }
}
