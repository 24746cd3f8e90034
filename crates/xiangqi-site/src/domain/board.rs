//! A game on either board, as the site keeps it: the rules crate's [`AnyGame`]
//! (which alone chooses the geometry from a game's variant) with what the site
//! adds: the rule sets each board allows, the written forms of moves, and
//! searches on the engine pool. Everything above it (the services, the views,
//! the engine pool) works with `Board` and never matches on the variant itself.

use std::ops::Deref;

use xiangqi::{AnyGame, Checked, Color, Geometry, Move, Position, RuleSet, Variant, notation::pgn::Format};
use xiangqi_engine::{Analysis, Control, Engine, Info, Limits, Root};

use super::refusal::{Illegality, Refusal};
use crate::model::board::BoardSpec;

/// A game being played or replayed, on the board its variant names. It reads
/// as an [`AnyGame`]; the methods here add the site's checks and name why a
/// move is refused.
#[derive(Clone, Debug)]
pub struct Board(AnyGame);

impl Deref for Board {
    type Target = AnyGame;
    fn deref(&self) -> &AnyGame {
        &self.0
    }
}

/// Runs `$body` with `$g` bound to the typed game inside a `&Board`.
macro_rules! each {
    ($board:expr, $g:ident => $body:expr) => {
        xiangqi::with_game!(std::ops::Deref::deref($board), $g => $body)
    };
}
pub(crate) use each;

/// A move's written forms. On the standard board: ICCS, WXF and Chinese. Xiang
/// Hex has no descriptive notation, so both of its other forms name the piece
/// and the two cells: `Ce3-e6` and `炮e3-e6`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNames {
    pub iccs: String,
    pub wxf: String,
    pub chinese: String,
}

/// The board a rule set is played on: the `hex` rules on the hex board, the
/// others on the standard board. A challenge keeps only its rules for this reason.
pub fn variant_of(rules: RuleSet) -> Variant {
    rules.variant()
}

/// The rule set a board is played under unless players choose: asian on the
/// standard board (as in tournaments), hex on the hex board.
pub fn default_rules(variant: Variant) -> RuleSet {
    variant.default_rules()
}

/// Whether a board is played under a rule set.
pub fn rules_fit(variant: Variant, rules: RuleSet) -> bool {
    variant_of(rules) == variant
}

/// The start position of a board, as FEN.
pub fn start_fen(variant: Variant) -> String {
    variant.start_fen()
}

/// A premove as `side` writes it while the other side is to move: two cells
/// (`h2e2`; `e3e6` on the hex board), the first holding one of `side`'s
/// pieces; what it will be allowed to do is known only after the other side's move.
fn premove_at<G: Geometry>(pos: &Position<G>, side: Color, text: &str) -> Option<String> {
    let m = xiangqi::notation::iccs::parse(Position::<G>::tables(), text)?;
    let mine = pos.piece_at(m.from).is_some_and(|p| p.color == side) && m.from != m.to;
    mine.then(|| xiangqi::notation::iccs::write(Position::<G>::tables(), m))
}

/// The written forms of a legal move from `pos`.
fn names_at<G: Geometry>(pos: &Position<G>, m: Move) -> MoveNames {
    MoveNames {
        iccs: Format::Iccs.write(pos, m),
        wxf: Format::Wxf.write(pos, m),
        chinese: Format::Chinese.write(pos, m),
    }
}

impl Board {
    /// A game from a FEN on the board `variant` names, judged by `rules`.
    pub fn from_fen(variant: Variant, fen: &str, rules: RuleSet) -> Result<Board, String> {
        if !rules_fit(variant, rules) {
            return Err(format!("the {variant} board is not played under the {rules} rules"));
        }
        AnyGame::new(variant, fen, rules).map(Board).map_err(|e| e.to_string())
    }

    /// A game record replayed as history from a FEN: it refuses only what the
    /// board refuses, since the record's moves were played whatever a rule
    /// set would have said (see `xiangqi::history`).
    pub fn record_from_fen(variant: Variant, fen: &str, rules: RuleSet) -> Result<Board, String> {
        if !rules_fit(variant, rules) {
            return Err(format!("the {variant} board is not played under the {rules} rules"));
        }
        AnyGame::with_rules(variant, fen, rules, xiangqi::Rules::BOARD_ONLY)
            .map(Board)
            .map_err(|e| e.to_string())
    }

    /// The game a request's [`BoardSpec`] names; a board and rules that do
    /// not go together, or a position the rules crate refuses, is a refusal
    /// naming what is wrong.
    pub fn from_spec(spec: &BoardSpec) -> Result<Board, Refusal> {
        let (variant, rules) = spec.board_and_rules();
        if !rules_fit(variant, rules) {
            return Err(Refusal::RulesMismatch { variant, rules });
        }
        let fen = spec.fen().map_or_else(|| start_fen(variant), str::to_string);
        Board::from_fen(variant, &fen, rules).map_err(|detail| Refusal::BadPosition { detail })
    }

    /// A game from the start position of its board.
    pub fn startpos(variant: Variant, rules: RuleSet) -> Result<Board, String> {
        Board::from_fen(variant, &start_fen(variant), rules)
    }

    /// Reads a move in any notation the board has (ICCS, WXF or Chinese on the
    /// standard board; cell names on the hex board) and checks it is legal now.
    pub fn parse_legal(&self, text: &str) -> Result<Move, Illegality> {
        let m = self.0.parse_any(text).map_err(|e| Illegality::from(&e))?;
        self.0.why_illegal(m).map_or(Ok(m), |why| Err(why.into()))
    }

    /// The written forms of a move from the current position.
    pub fn names(&self, m: Move) -> MoveNames {
        each!(self, g => names_at(g.position(), m))
    }

    /// The written forms of a line of moves from the current position (an
    /// engine's principal variation), up to the first that is not legal where
    /// it would be played.
    pub fn line_names(&self, line: &[Move]) -> Vec<MoveNames> {
        each!(self, g => {
            let mut pos = g.position().clone();
            line.iter()
                .map_while(|&m| {
                    let names = pos.is_legal(m).then(|| names_at(&pos, m))?;
                    pos.play_unchecked(m);
                    Some(names)
                })
                .collect()
        })
    }

    /// The written forms of every move played, in order.
    pub fn all_names(&self) -> Vec<MoveNames> {
        each!(self, g => {
            let mut pos = g.start().clone();
            g.moves()
                .into_iter()
                .map(|m| {
                    let names = names_at(&pos, m);
                    pos.play_unchecked(m);
                    names
                })
                .collect()
        })
    }

    /// The current position when the game is on the standard board.
    pub fn standard_position(&self) -> Option<xiangqi::Position<xiangqi::Standard>> {
        match &self.0 {
            AnyGame::Standard(g) => Some(g.position().clone()),
            _ => None,
        }
    }

    /// The key of the current position: its placement and side to move (the
    /// rules crate's Zobrist hash, the same in every build), as the database
    /// keeps it. Transpositions share it; the move counters do not count.
    pub fn position_key(&self) -> i64 {
        each!(self, g => g.position().hash() as i64)
    }

    /// The game's first `plies` moves as the explorer counts them: the key of
    /// each position met and the move (ICCS) played from it, a position that
    /// comes again counted once (with the move first played from it), and the
    /// keys of every position reached, the start and the last included, once each.
    pub fn opening(&self, plies: usize) -> (Vec<(i64, String)>, Vec<i64>) {
        each!(self, g => {
            let mut pos = g.start().clone();
            let mut steps: Vec<(i64, String)> = Vec::new();
            let mut reached = vec![pos.hash() as i64];
            for m in g.moves().into_iter().take(plies) {
                let key = pos.hash() as i64;
                if !steps.iter().any(|(k, _)| *k == key) {
                    steps.push((key, names_at(&pos, m).iccs));
                }
                pos.play_unchecked(m);
                let after = pos.hash() as i64;
                if !reached.contains(&after) {
                    reached.push(after);
                }
            }
            (steps, reached)
        })
    }

    /// The game as it stood after its first `plies` moves, with the history
    /// that led there (a result declared off the board, such as a resignation,
    /// is not carried over).
    pub fn prefix(&self, plies: usize) -> Board {
        Board(self.0.replay_to(plies))
    }

    /// Searches only the move `m` from the current position (to `limits`): the
    /// score the engine gives it, to compare with its best move's at one depth.
    /// Blocks: run it on the engine pool.
    pub fn search_move(&self, engine: &mut Engine, m: Move, limits: &Limits) -> Analysis {
        each!(self, g => {
            let mut root = Root::from_game(g);
            root.search_only(vec![m]);
            engine.search(&root, limits, &Control::new(), &mut |_| {})
        })
    }

    /// Searches the current position, repetitions judged over the whole game,
    /// calling `on_info` after each depth. Blocks: run it on the engine pool.
    pub fn search(
        &self,
        engine: &mut Engine,
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> Analysis {
        each!(self, g => engine.search(&Root::from_game(g), limits, control, on_info))
    }

    /// Reads a move in any notation the board has and judges it once: the
    /// move to play with [`Board::play_checked`], or why it cannot be played
    /// (the game being over included).
    pub fn check_text(&self, text: &str) -> Result<Checked, Illegality> {
        let m = self.0.parse_any(text).map_err(|e| Illegality::from(&e))?;
        self.0.check(m).map_err(|e| Illegality::from(&e))
    }

    /// A premove of `side`'s, as it is kept (see [`premove_at`]); none if the
    /// text names no two cells or the first holds no piece of `side`'s.
    pub fn premove(&self, side: Color, text: &str) -> Option<String> {
        each!(self, g => premove_at(g.position(), side, text))
    }

    /// Plays a move [`Board::check_text`] found legal now, without judging it again.
    pub fn play_checked(&mut self, checked: Checked) {
        self.0.play_checked(checked);
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) -> Result<(), String> {
        self.0.play(m).map_err(|e| e.to_string())
    }

    /// Takes the last move back; the move, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        self.0.undo()
    }

    /// Plays a move given by cell names (a stored move).
    pub fn play_name(&mut self, text: &str) -> Result<(), String> {
        self.0.play_str(text).map(|_| ()).map_err(|e| e.to_string())
    }

    /// The record as PGN: tags in order, then the moves (WXF on the standard
    /// board, cell names on the hex board, which PGN readers know by the
    /// `Variant` tag).
    pub fn pgn(&self, tags: &[(&str, String)]) -> String {
        self.pgn_as(tags, Format::Wxf)
    }

    /// The record as PGN with moves in `format` on the standard board (cell
    /// names on the hex board, whatever the format).
    pub fn pgn_as(&self, tags: &[(&str, String)], format: Format) -> String {
        self.0.pgn(tags, format)
    }

    /// A tree of moves from this game's start as PGN, with comments and
    /// variations, moves in `format` on the standard board (cell names on the
    /// hex board).
    pub fn pgn_tree(
        &self,
        tags: &[(&str, String)],
        tree: &xiangqi::notation::tree::MoveTree,
        format: Format,
    ) -> String {
        self.0.pgn_tree(tags, tree, format)
    }
}

#[cfg(test)]
mod tests {
    use xiangqi::Color;

    use super::*;

    #[test]
    fn each_board_reads_its_own_moves_and_names_them() {
        let mut s = Board::startpos(Variant::Standard, RuleSet::Asian).unwrap();
        let m = s.parse_legal("C2=5").unwrap();
        assert_eq!(
            s.names(m),
            MoveNames { iccs: "h2e2".into(), wxf: "C2=5".into(), chinese: "炮二平五".into() }
        );
        s.play(m).unwrap();
        assert_eq!(s.all_names()[0].iccs, "h2e2");

        let mut h = Board::startpos(Variant::Hex, RuleSet::Hex).unwrap();
        let legal = h.legal_names();
        assert!(!legal.is_empty());
        let first = h.parse_legal(&legal[0]).unwrap();
        let names = h.names(first);
        assert_eq!(names.iccs, legal[0]);
        let soldier = h.parse_legal("e4e5").unwrap();
        assert_eq!(h.names(soldier).wxf, "Pe4-e5");
        assert_eq!(h.names(soldier).chinese, "兵e4-e5");
        h.play(first).unwrap();
        assert_eq!(h.turn(), Color::Black);
        assert!(h.pgn(&[("Red", "a".into())]).contains("[Variant \"hex\"]"));
    }

    #[test]
    fn a_line_is_named_from_the_current_position_and_a_prefix_replays_the_start() {
        let mut s = Board::startpos(Variant::Standard, RuleSet::Asian).unwrap();
        let cannon = s.parse_legal("h2e2").unwrap();
        let mut after = s.clone();
        after.play(cannon).unwrap();
        let horse = after.parse_legal("h9g7").unwrap();
        let names = s.line_names(&[cannon, horse, cannon]);
        let wxf: Vec<&str> = names.iter().map(|n| n.wxf.as_str()).collect();
        assert_eq!(wxf, ["C2=5", "H8+7"], "the line stops at the move that is not legal there");
        s.play(cannon).unwrap();
        s.play(horse).unwrap();
        assert_eq!(s.prefix(1).fen(), s.prefix(2).prefix(1).fen());
        assert_eq!(s.prefix(1).ply_count(), 1);
        assert_eq!(s.prefix(0).fen(), start_fen(Variant::Standard));
        assert_eq!(s.prefix(5).ply_count(), 2, "a prefix longer than the game is the game");
    }

    #[test]
    fn a_search_of_either_board_finds_a_legal_move() {
        let mut engine = Engine::new(xiangqi_engine::Options { hash_mb: 1, ..Default::default() });
        for variant in [Variant::Standard, Variant::Hex] {
            let board = Board::startpos(variant, default_rules(variant)).unwrap();
            let mut depths = 0;
            let found = board.search(&mut engine, &Limits::depth(3), &Control::new(), &mut |_| depths += 1);
            let best = found.best.unwrap();
            assert!(board.legal_names().contains(&board.names(best).iccs));
            assert_eq!(depths, 3);
        }
    }

    #[test]
    fn a_board_refuses_rules_of_the_other_board_and_moves_it_cannot_read() {
        assert!(Board::startpos(Variant::Hex, RuleSet::Asian).is_err());
        assert!(Board::startpos(Variant::Standard, RuleSet::Hex).is_err());
        let s = Board::startpos(Variant::Standard, RuleSet::Asian).unwrap();
        assert_eq!(s.parse_legal("a0a5").unwrap_err(), Illegality::NotAMove);
        assert!(s.parse_legal("zz").is_err());
        let h = Board::startpos(Variant::Hex, RuleSet::Hex).unwrap();
        assert!(h.parse_legal("C2=5").is_err());
    }
}
