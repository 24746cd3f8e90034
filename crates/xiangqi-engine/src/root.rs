//! The position to search and the game that led to it: repetitions are judged
//! over the whole game, not only over the moves the search itself plays.

use xiangqi::{Bitboard, Game, Geometry, IllegalMove, Move, Position, Rules, rules::chase};

/// One move of the game before the search starts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PastPly {
    /// Hash of the position after the move.
    pub hash: u64,
    /// Whether the move gave check.
    pub check: bool,
    /// The enemy pieces the move newly chased (see [`xiangqi::rules::chase`]).
    pub chased: Bitboard,
    pub mv: Move,
}

/// What the engine searches: a position, the game before it, the rules that
/// judge repetitions, and the moves the search may choose from.
#[derive(Clone, Debug)]
pub struct Root<G: Geometry> {
    pub(crate) start_hash: u64,
    pub(crate) position: Position<G>,
    pub(crate) past: Vec<PastPly>,
    pub(crate) rules: Rules,
    /// If not empty, only these root moves are searched.
    pub(crate) only: Vec<Move>,
    /// Root moves that may not be played (UCCI `banmoves`, a rule set's limits).
    pub(crate) banned: Vec<Move>,
}

impl<G: Geometry> Root<G> {
    /// The game from `start` after `moves`, judged by `rules`.
    ///
    /// # Errors
    /// The first move that is illegal where it is played.
    pub fn new(start: Position<G>, moves: &[Move], rules: Rules) -> Result<Self, IllegalMove> {
        let mut position = start.clone();
        let mut past = Vec::with_capacity(moves.len());
        let judges_chases = matches!(rules.repetition, xiangqi::Repetition::Perpetual { .. });
        for &m in moves {
            let before = position.clone();
            position.play(m)?;
            let chased = if judges_chases { chase::chased(&before, &position) } else { Bitboard::EMPTY };
            past.push(PastPly { hash: position.hash(), check: position.is_check(), chased, mv: m });
        }
        Ok(Root { start_hash: start.hash(), position, past, rules, only: Vec::new(), banned: Vec::new() })
    }

    /// The current position of a game, with its history and its rules (moves that
    /// its rule set forbids now, such as a fourth check in a row, are banned).
    pub fn from_game(game: &Game<G>) -> Self {
        let moves = game.moves();
        let mut root =
            Root::new(game.start().clone(), &moves, *game.rules()).expect("a game holds only legal moves");
        root.banned =
            game.position().legal_moves().into_iter().filter(|m| game.why_illegal(*m).is_some()).collect();
        root
    }

    /// A position with no history.
    pub fn from_position(position: Position<G>, rules: Rules) -> Self {
        Root {
            start_hash: position.hash(),
            position,
            past: Vec::new(),
            rules,
            only: Vec::new(),
            banned: Vec::new(),
        }
    }

    /// Restricts the search to these root moves (UCI `searchmoves`).
    pub fn search_only(&mut self, moves: Vec<Move>) {
        self.only = moves;
    }

    /// Forbids these root moves (UCCI `banmoves`).
    pub fn ban(&mut self, moves: Vec<Move>) {
        self.banned.extend(moves);
    }

    /// The position to search.
    pub fn position(&self) -> &Position<G> {
        &self.position
    }

    /// The rules that judge repetitions in the search.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The legal root moves the search may choose from.
    pub fn moves(&self) -> Vec<Move> {
        self.position
            .legal_moves()
            .into_iter()
            .filter(|m| !self.banned.contains(m) && (self.only.is_empty() || self.only.contains(m)))
            .collect()
    }
}
