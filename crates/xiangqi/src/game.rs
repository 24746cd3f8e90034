//! A game: a start position, the moves played and a rule set.
//!
//! Only a game can say whether a move is allowed now (the play-site check limit
//! and chase rule depend on the moves before it) and whether it is over, who won
//! and why.
//!
//! ```
//! use xiangqi::{Color, Game, Reason, RuleSet};
//!
//! let mut game = Game::startpos(RuleSet::Asian);
//! for m in ["h2e2", "h9g7", "h0g2", "i9h9"] {
//!     game.play_str(m).unwrap();
//! }
//! assert_eq!(game.legal_moves().len(), 34);
//! assert!(game.outcome().is_none());
//! game.resign(Color::Black);
//! assert_eq!(game.outcome().unwrap().reason, Reason::Resignation);
//! ```

use thiserror::Error;

use crate::{
    bitboard::Bitboard,
    geometry::{Geometry, Standard, Variant},
    movegen::MoveList,
    notation::iccs::{self, MoveError},
    position::{Forbidden, IllegalMove, IllegalReason, Position, Undo},
    rules::{self, Outcome, Reason, RuleSet, Rules, chase},
    types::{Color, Move},
};

/// One move of a game, with what the rules need to remember about it.
#[derive(Clone, Debug)]
pub(crate) struct Ply {
    pub mv: Move,
    pub undo: Undo,
    pub mover: Color,
    /// Hash of the position after the move.
    pub hash: u64,
    /// Whether the move gave check.
    pub check: bool,
    /// Enemy pieces the move newly chased (computed only under rules that judge chases).
    pub chased: Bitboard,
}

/// A move found legal in one position of a game by [`Game::check`]: playing
/// it with [`Game::play_checked`] does not look again, so a move read from a
/// player is judged once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    mv: Move,
    /// The position it was found legal in.
    at: u64,
}

impl Checked {
    /// The move.
    pub fn mv(self) -> Move {
        self.mv
    }
}

/// Why a game refused a move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameError {
    /// The game has ended: no move may follow.
    #[error("the game is over ({0})")]
    Over(Outcome),
    /// The move is illegal on the board or under the rule set.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    /// The move's text does not read as a legal move.
    #[error(transparent)]
    Notation(#[from] MoveError),
}

/// A game on geometry `G` under a rule set.
#[derive(Clone, Debug)]
pub struct Game<G: Geometry = Standard> {
    start: Position<G>,
    position: Position<G>,
    rule_set: RuleSet,
    rules: Rules,
    plies: Vec<Ply>,
    ended: Option<Outcome>,
    /// An outcome set from outside the board (resignation, agreement, time).
    declared: Option<Outcome>,
}

impl Game<Standard> {
    /// A standard game from the start position.
    pub fn startpos(rule_set: RuleSet) -> Self {
        Game::new(Position::startpos(), rule_set)
    }
}

impl<G: Geometry> Game<G> {
    /// A game from `start` under a named rule set.
    pub fn new(start: Position<G>, rule_set: RuleSet) -> Self {
        Self::with_rules(start, rule_set, rule_set.rules())
    }

    /// A game under a named rule set with its rules adjusted (for example another
    /// move limit); `rule_set` stays the name it is filed under.
    pub fn with_rules(start: Position<G>, rule_set: RuleSet, rules: Rules) -> Self {
        let mut g = Game {
            position: start.clone(),
            start,
            rule_set,
            rules,
            plies: Vec::new(),
            ended: None,
            declared: None,
        };
        g.ended = g.compute_outcome();
        g
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position<G> {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position<G> {
        &self.position
    }

    /// The named rule set the game is played under.
    pub fn rule_set(&self) -> RuleSet {
        self.rule_set
    }

    /// The board the game is played on.
    pub fn variant(&self) -> Variant {
        G::VARIANT
    }

    /// The rules that judge the game (the rule set's, unless [`Game::with_rules`] gave others).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The moves played, in order.
    pub fn moves(&self) -> Vec<Move> {
        self.plies.iter().map(|p| p.mv).collect()
    }

    /// The number of moves played.
    pub fn ply_count(&self) -> usize {
        self.plies.len()
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<Move> {
        self.plies.last().map(|p| p.mv)
    }

    /// Hashes of every position so far, the start first and the current last.
    pub fn hashes(&self) -> impl Iterator<Item = u64> + '_ {
        std::iter::once(self.start.hash()).chain(self.plies.iter().map(|p| p.hash))
    }

    /// Whether each move so far gave check, in order.
    pub fn checks(&self) -> impl Iterator<Item = bool> + '_ {
        self.plies.iter().map(|p| p.check)
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.position.is_check()
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.position.turn()
    }

    /// The legal moves now, under the board's rules and the rule set's history
    /// rules. Empty once the game is over.
    pub fn legal_moves(&self) -> MoveList {
        if self.ended.is_some() {
            return MoveList::new();
        }
        self.allowed_moves()
    }

    fn allowed_moves(&self) -> MoveList {
        let mut moves = self.position.legal_moves();
        if self.history_may_forbid() {
            moves.retain(|m| self.forbidden(*m).is_none());
        }
        moves
    }

    /// Why a move is refused now, or `None` if it may be played.
    pub fn why_illegal(&self, m: Move) -> Option<IllegalReason> {
        if let Some(r) = self.position.why_illegal(m) {
            return Some(r);
        }
        self.forbidden(m).map(IllegalReason::Forbidden)
    }

    /// Whether a move may be played now.
    pub fn is_legal(&self, m: Move) -> bool {
        self.ended.is_none() && self.why_illegal(m).is_none()
    }

    /// Plays a move.
    ///
    /// # Errors
    /// [`GameError::Over`] once the game has ended; [`GameError::Illegal`] with the
    /// reason if the board or the rule set refuses the move.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        let checked = self.check(m)?;
        self.play_checked(checked);
        Ok(())
    }

    /// Whether a move may be played now, as a [`Checked`] move to play.
    ///
    /// # Errors
    /// As [`Game::play`].
    pub fn check(&self, m: Move) -> Result<Checked, GameError> {
        if let Some(o) = self.ended {
            return Err(GameError::Over(o));
        }
        if let Some(reason) = self.why_illegal(m) {
            return Err(IllegalMove { notation: self.position.move_name(m), reason }.into());
        }
        Ok(Checked { mv: m, at: self.position.hash() })
    }

    /// Plays a move [`Game::check`] found legal in the current position.
    ///
    /// # Panics
    /// If the move was checked in another position.
    pub fn play_checked(&mut self, checked: Checked) {
        assert_eq!(checked.at, self.position.hash(), "a move checked in another position");
        let m = checked.mv;
        let before = self.position.clone();
        let mover = before.turn();
        let undo = self.position.play_unchecked(m);
        let chased = if matches!(self.rules.repetition, rules::Repetition::Perpetual { .. }) {
            chase::chased(&before, &self.position)
        } else {
            Bitboard::EMPTY
        };
        let check = self.position.is_check();
        self.plies.push(Ply { mv: m, undo, mover, hash: self.position.hash(), check, chased });
        self.ended = self.compute_outcome();
    }

    /// Reads a coordinate move (`h2e2`) and plays it.
    ///
    /// # Errors
    /// As [`Game::play`], and [`GameError::Notation`] for text that is not a move.
    pub fn play_str(&mut self, text: &str) -> Result<Move, GameError> {
        let m = iccs::parse(G::TABLES, text).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
        self.play(m)?;
        Ok(m)
    }

    /// The game replayed from its start through its first `plies` moves (all of
    /// them if it has fewer), with the history that led there. A result
    /// declared off the board, such as a resignation, is not carried over.
    pub fn replay_to(&self, plies: usize) -> Game<G> {
        let mut before = Game::with_rules(self.start.clone(), self.rule_set, self.rules);
        for ply in self.plies.iter().take(plies) {
            before.play(ply.mv).expect("a game holds only legal moves");
        }
        before
    }

    /// Takes back the last move (also reopening a game that move had ended).
    pub fn undo(&mut self) -> Option<Move> {
        let ply = self.plies.pop()?;
        self.position.undo(ply.mv, ply.undo);
        self.declared = None;
        self.ended = self.compute_outcome();
        Some(ply.mv)
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.ended
    }

    /// Ends the game for a reason off the board: resignation, agreement, time.
    /// Ignored if the game is already over.
    pub fn finish(&mut self, outcome: Outcome) {
        if self.ended.is_none() {
            self.declared = Some(outcome);
            self.ended = Some(outcome);
        }
    }

    /// `side` resigns.
    pub fn resign(&mut self, side: Color) {
        self.finish(Outcome::win(!side, Reason::Resignation));
    }

    fn compute_outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.declared {
            return Some(o);
        }
        let turn = self.position.turn();
        if self.allowed_moves().is_empty() {
            let reason = if self.position.is_check() { Reason::Checkmate } else { Reason::Stalemate };
            return Some(Outcome::win(!turn, reason));
        }
        if let Some(o) = rules::judge(&self.rules, self.start.hash(), &self.plies) {
            return Some(o);
        }
        if self.rules.no_attackers_draw && self.position.no_attackers() {
            return Some(Outcome::draw(Reason::NoAttackers));
        }
        if self.rules.move_limit.is_some_and(|limit| self.position.halfmoves() >= limit) {
            return Some(Outcome::draw(Reason::MoveLimit));
        }
        None
    }

    /// Whether the rule set's history rules could forbid any move now (a cheap
    /// test, so that ordinary positions skip the per-move checks).
    fn history_may_forbid(&self) -> bool {
        let n = self.plies.len();
        let check_run = self.rules.check_limit.is_some_and(|limit| {
            let needed = limit.saturating_sub(1) as usize;
            needed > 0 && n >= 2 * needed && (0..needed).all(|k| self.plies[n - 2 - 2 * k].check)
        });
        let chase_shape = self.rules.two_point_chase && n >= 4 && {
            let p = &self.plies[n - 4..];
            p[0].mv.to == p[2].mv.from && p[1].mv.to == p[3].mv.from && p[1].mv.from == p[3].mv.to
        };
        check_run || chase_shape
    }

    /// Why the rule set's history rules forbid a board-legal move, if they do.
    fn forbidden(&self, m: Move) -> Option<Forbidden> {
        if self.exceeds_check_limit(m) {
            return Some(Forbidden::FourthCheck);
        }
        if self.is_two_point_chase(m) {
            return Some(Forbidden::TwoPointChase);
        }
        None
    }

    /// The play-site seed: "One player may not put the other player in check four
    /// turns in a row by moving the same piece each turn."
    fn exceeds_check_limit(&self, m: Move) -> bool {
        let Some(limit) = self.rules.check_limit else { return false };
        let earlier = limit.saturating_sub(1) as usize;
        let n = self.plies.len();
        if earlier == 0 || n < 2 * earlier {
            return false;
        }
        let mut piece_at = m.from;
        for k in 0..earlier {
            let own = &self.plies[n - 2 - 2 * k];
            if !own.check || own.mv.to != piece_at {
                return false;
            }
            piece_at = own.mv.from;
        }
        let mut after = self.position.clone();
        after.play_unchecked(m);
        after.is_check()
    }

    /// The play-site seed's chase rule: R chased B from p1 (B on b1, unprotected),
    /// B fled to b2 (unprotected), R followed to p2 and threatened it again, B went
    /// back to b1; now R may not return to p1 to threaten B there again. It does
    /// not apply if either point of B is protected, if R uses a third point, or if
    /// B flees to a third point.
    fn is_two_point_chase(&self, m: Move) -> bool {
        if !self.rules.two_point_chase || self.plies.len() < 4 {
            return false;
        }
        let n = self.plies.len();
        let (x_to_p1, y_to_b2, x_to_p2, y_to_b1) =
            (&self.plies[n - 4], &self.plies[n - 3], &self.plies[n - 2], &self.plies[n - 1]);
        let (p1, p2) = (x_to_p1.mv.to, x_to_p2.mv.to);
        let (b1, b2) = (y_to_b2.mv.from, y_to_b2.mv.to);
        let shape = x_to_p2.mv.from == p1
            && m.from == p2
            && m.to == p1
            && y_to_b1.mv.from == b2
            && y_to_b1.mv.to == b1;
        if !shape {
            return false;
        }
        // The positions just after R's two earlier moves.
        let mut after_p2 = self.position.clone();
        after_p2.undo(y_to_b1.mv, y_to_b1.undo);
        let mut after_p1 = after_p2.clone();
        after_p1.undo(x_to_p2.mv, x_to_p2.undo);
        after_p1.undo(y_to_b2.mv, y_to_b2.undo);
        let mut now = self.position.clone();
        now.play_unchecked(m);
        chase::threatens_unprotected(&after_p1, p1, b1)
            && chase::threatens_unprotected(&after_p2, p2, b2)
            && chase::threatens_unprotected(&now, p1, b1)
    }
}
