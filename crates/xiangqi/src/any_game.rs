//! A game on whichever board a variant names, chosen at run time.
//!
//! [`Game`] is generic over the geometry so that neither board pays for the
//! other. Code that learns the board only at run time (a stored game, an engine
//! option, a command-line flag) holds an [`AnyGame`] instead. Its methods and
//! the two macros below are the one place that turns a [`Variant`] into a
//! geometry type: [`with_geometry!`] for code generic over the board,
//! [`with_game!`] for code that needs the typed game inside an `AnyGame`.
//!
//! ```
//! use xiangqi::{AnyGame, RuleSet, Variant, notation::pgn::Format};
//!
//! let mut game = AnyGame::startpos(Variant::Hex, RuleSet::Hex);
//! let m = game.parse_any("e4e5").unwrap();
//! assert_eq!(game.write_move(m, Format::Wxf), "Pe4-e5");
//! game.play(m).unwrap();
//! let plies = xiangqi::with_game!(&game, g => g.moves().len());
//! assert_eq!(plies, 1);
//! ```

use crate::{
    game::{Checked, Game, GameError},
    geometry::{Hex, Standard, Tables, Variant},
    movegen::MoveList,
    notation::{
        self,
        fen::FenError,
        iccs::MoveError,
        pgn::{self, Format, Record},
        tree::MoveTree,
    },
    position::{IllegalReason, Position},
    rules::{Outcome, RuleSet, Rules},
    types::{Color, Move},
};

/// A game on either board.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// A game on the standard 9x10 board.
    Standard(Game<Standard>),
    /// A game on the hexagonal board.
    Hex(Game<Hex>),
}

/// Evaluates `$body` with `$g` bound to the typed game inside an
/// [`AnyGame`](crate::AnyGame) (or a reference to one), whichever board it is on.
///
/// ```
/// use xiangqi::{AnyGame, RuleSet, Variant};
///
/// let game = AnyGame::startpos(Variant::Standard, RuleSet::Asian);
/// let red_pieces = xiangqi::with_game!(&game, g => g.position().by_color(xiangqi::Color::Red).count());
/// assert_eq!(red_pieces, 16);
/// ```
#[macro_export]
macro_rules! with_game {
    ($game:expr, $g:ident => $body:expr) => {
        match $game {
            $crate::AnyGame::Standard($g) => $body,
            $crate::AnyGame::Hex($g) => $body,
        }
    };
}

/// Evaluates `$body` with the type `$G` naming the geometry of a
/// [`Variant`](crate::Variant), for code generic over [`Geometry`](crate::Geometry).
///
/// ```
/// use xiangqi::{Position, Variant};
///
/// let cells = xiangqi::with_geometry!(Variant::Hex, G => Position::<G>::tables().cells());
/// assert_eq!(cells, 79);
/// ```
#[macro_export]
macro_rules! with_geometry {
    ($variant:expr, $G:ident => $body:expr) => {
        match $variant {
            $crate::Variant::Standard => {
                type $G = $crate::Standard;
                $body
            }
            $crate::Variant::Hex => {
                type $G = $crate::Hex;
                $body
            }
        }
    };
}

impl From<Game<Standard>> for AnyGame {
    fn from(game: Game<Standard>) -> Self {
        AnyGame::Standard(game)
    }
}

impl From<Game<Hex>> for AnyGame {
    fn from(game: Game<Hex>) -> Self {
        AnyGame::Hex(game)
    }
}

impl AnyGame {
    /// A game from a FEN on the board `variant` names, under a rule set.
    ///
    /// # Errors
    /// A FEN that does not describe a position on that board.
    pub fn new(variant: Variant, fen: &str, rule_set: RuleSet) -> Result<AnyGame, FenError> {
        AnyGame::with_rules(variant, fen, rule_set, rule_set.rules())
    }

    /// As [`AnyGame::new`] with the rule set's rules adjusted (see [`Game::with_rules`]).
    ///
    /// # Errors
    /// A FEN that does not describe a position on that board.
    pub fn with_rules(
        variant: Variant,
        fen: &str,
        rule_set: RuleSet,
        rules: Rules,
    ) -> Result<AnyGame, FenError> {
        with_geometry!(variant, G => {
            let start = Position::<G>::from_fen(fen)?;
            Ok(AnyGame::from(Game::with_rules(start, rule_set, rules)))
        })
    }

    /// A game from the start position of the board `variant` names.
    pub fn startpos(variant: Variant, rule_set: RuleSet) -> AnyGame {
        with_geometry!(variant, G => AnyGame::from(Game::new(Position::<G>::startpos(), rule_set)))
    }

    /// The board the game is played on.
    pub fn variant(&self) -> Variant {
        with_game!(self, g => g.variant())
    }

    /// The board's tables, for naming cells.
    pub fn tables(&self) -> &'static Tables {
        self.variant().tables()
    }

    /// The named rule set the game is played under.
    pub fn rule_set(&self) -> RuleSet {
        with_game!(self, g => g.rule_set())
    }

    /// The rules that judge the game.
    pub fn rules(&self) -> Rules {
        with_game!(self, g => *g.rules())
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        with_game!(self, g => g.turn())
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        with_game!(self, g => g.is_check())
    }

    /// The number of moves played.
    pub fn ply_count(&self) -> usize {
        with_game!(self, g => g.ply_count())
    }

    /// The moves played, in order.
    pub fn moves(&self) -> Vec<Move> {
        with_game!(self, g => g.moves())
    }

    /// The move played last, if any.
    pub fn last_move(&self) -> Option<Move> {
        with_game!(self, g => g.last_move())
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        with_game!(self, g => g.outcome())
    }

    /// The current position as FEN.
    pub fn fen(&self) -> String {
        with_game!(self, g => g.position().to_fen())
    }

    /// The start position as FEN.
    pub fn start_fen(&self) -> String {
        with_game!(self, g => g.start().to_fen())
    }

    /// The legal moves now (see [`Game::legal_moves`]).
    pub fn legal_moves(&self) -> MoveList {
        with_game!(self, g => g.legal_moves())
    }

    /// The legal moves now by their coordinate names, sorted.
    pub fn legal_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.legal_moves().iter().map(|m| self.move_name(*m)).collect();
        names.sort();
        names
    }

    /// A move's coordinate name (`h2e2`, `e4e5`).
    pub fn move_name(&self, m: Move) -> String {
        notation::iccs::write(self.tables(), m)
    }

    /// A legal move from the current position written in a syntax (see [`Format::write`]).
    pub fn write_move(&self, m: Move, format: Format) -> String {
        with_game!(self, g => format.write(g.position(), m))
    }

    /// Every move played, in order, written in a syntax.
    pub fn written_moves(&self, format: Format) -> Vec<String> {
        with_game!(self, g => {
            let mut pos = g.start().clone();
            g.moves()
                .into_iter()
                .map(|m| {
                    let text = format.write(&pos, m);
                    pos.play_unchecked(m);
                    text
                })
                .collect()
        })
    }

    /// Reads a coordinate move and checks that the board allows it now (see
    /// [`Position::parse_move`]).
    ///
    /// # Errors
    /// Text that names no cells, or a move the board refuses.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        with_game!(self, g => g.position().parse_move(text))
    }

    /// Reads a move in any notation the board has, and checks that the board
    /// allows it now: ICCS, WXF or Chinese on the standard board (see
    /// [`notation::parse_any`]), cell names on the hex board.
    ///
    /// # Errors
    /// Text that is no move in those notations, or a move the board refuses.
    pub fn parse_any(&self, text: &str) -> Result<Move, MoveError> {
        match self {
            AnyGame::Standard(g) => notation::parse_any(g.position(), text),
            AnyGame::Hex(g) => g.position().parse_move(text.trim()),
        }
    }

    /// Why a move is refused now, or `None` if it may be played.
    pub fn why_illegal(&self, m: Move) -> Option<IllegalReason> {
        with_game!(self, g => g.why_illegal(m))
    }

    /// Whether a move may be played now (see [`Game::check`]).
    ///
    /// # Errors
    /// As [`Game::play`].
    pub fn check(&self, m: Move) -> Result<Checked, GameError> {
        with_game!(self, g => g.check(m))
    }

    /// Plays a move [`AnyGame::check`] found legal now (see [`Game::play_checked`]).
    pub fn play_checked(&mut self, checked: Checked) {
        with_game!(self, g => g.play_checked(checked))
    }

    /// Plays a move (see [`Game::play`]).
    ///
    /// # Errors
    /// The game is over, or the board or the rule set refuses the move.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        with_game!(self, g => g.play(m))
    }

    /// Reads a coordinate move and plays it (see [`Game::play_str`]).
    ///
    /// # Errors
    /// As [`AnyGame::play`], and for text that is not a move.
    pub fn play_str(&mut self, text: &str) -> Result<Move, GameError> {
        with_game!(self, g => g.play_str(text))
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        with_game!(self, g => g.undo())
    }

    /// Ends the game for a reason off the board (see [`Game::finish`]).
    pub fn finish(&mut self, outcome: Outcome) {
        with_game!(self, g => g.finish(outcome))
    }

    /// The game replayed through its first `plies` moves (see [`Game::replay_to`]).
    pub fn replay_to(&self, plies: usize) -> AnyGame {
        with_game!(self, g => AnyGame::from(g.replay_to(plies)))
    }

    /// The game's record as PGN (see [`pgn::write`]): the tags of
    /// [`Record::from_game`], then `tags` set in order, then the moves.
    pub fn pgn(&self, tags: &[(&str, String)], format: Format) -> String {
        with_game!(self, g => {
            let mut record = Record::from_game(g);
            for (name, value) in tags {
                record.set_tag(name, value);
            }
            pgn::write(&record, format)
        })
    }

    /// A study's record as PGN (see [`pgn::write_tree`]): the tags of
    /// [`Record::from_game`] for this game's start, then `tags`, then the
    /// tree of moves from the start with its comments and variations.
    pub fn pgn_tree(&self, tags: &[(&str, String)], tree: &MoveTree, format: Format) -> String {
        with_game!(self, g => {
            let mut record = Record::from_game(&Game::new(g.start().clone(), g.rule_set()));
            for (name, value) in tags {
                record.set_tag(name, value);
            }
            pgn::write_tree(&record, tree, format)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Reason;

    #[test]
    fn each_board_starts_reads_and_plays_its_own_moves() {
        let mut s = AnyGame::startpos(Variant::Standard, RuleSet::Asian);
        assert_eq!((s.variant(), s.rule_set(), s.turn()), (Variant::Standard, RuleSet::Asian, Color::Red));
        assert_eq!(s.legal_names().len(), 44);
        let cannon = s.parse_any("C2=5").unwrap();
        assert_eq!(s.move_name(cannon), "h2e2");
        assert_eq!(s.write_move(cannon, Format::Chinese), "炮二平五");
        assert_eq!(s.play_str("h2e2").unwrap(), cannon);
        assert_eq!((s.turn(), s.ply_count(), s.last_move()), (Color::Black, 1, Some(cannon)));
        assert_eq!(s.fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");

        let mut h = AnyGame::startpos(Variant::Hex, RuleSet::Hex);
        assert_eq!(h.variant(), Variant::Hex);
        assert!(h.parse_any("C2=5").is_err(), "the hex board has no WXF");
        let soldier = h.parse_any(" e4e5 ").unwrap();
        assert_eq!(h.write_move(soldier, Format::Wxf), "Pe4-e5");
        assert_eq!(h.write_move(soldier, Format::Chinese), "兵e4-e5");
        assert_eq!(h.write_move(soldier, Format::OldIccs), "E4-E5");
        h.play(soldier).unwrap();
        h.play_str("e8e7").unwrap();
        assert_eq!(h.written_moves(Format::Iccs), ["e4e5", "e8e7"]);
        let last = h.last_move();
        assert!(last.is_some());
        assert_eq!(h.undo(), last);
        assert_eq!(h.ply_count(), 1);
        assert!(h.start_fen() != h.fen());
    }

    #[test]
    fn a_fen_is_read_on_the_board_the_variant_names() {
        let hex_start = Position::<Hex>::startpos().to_fen();
        assert!(AnyGame::new(Variant::Standard, &hex_start, RuleSet::Asian).is_err());
        let h = AnyGame::new(Variant::Hex, &hex_start, RuleSet::Hex).unwrap();
        assert_eq!(h.fen(), hex_start);
        let mate = AnyGame::new(Variant::Standard, "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1", RuleSet::Asian);
        let mate = mate.unwrap();
        assert_eq!(mate.outcome().map(|o| o.reason), Some(Reason::Checkmate));
        assert!(mate.legal_moves().is_empty());
    }

    #[test]
    fn a_replay_keeps_the_history_and_drops_a_declared_result() {
        let mut s = AnyGame::startpos(Variant::Standard, RuleSet::Asian);
        for m in ["h2e2", "h9g7", "h0g2"] {
            s.play_str(m).unwrap();
        }
        s.finish(crate::Outcome::win(Color::Red, Reason::Resignation));
        assert!(s.outcome().is_some());
        let two = s.replay_to(2);
        assert_eq!((two.ply_count(), two.outcome()), (2, None));
        assert_eq!(two.moves(), s.moves()[..2]);
        assert_eq!(s.replay_to(9).ply_count(), 3);
        assert_eq!(s.replay_to(0).fen(), s.start_fen());
    }

    #[test]
    fn board_only_rules_let_a_repetition_go_on() {
        let shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"];
        let mut judged = AnyGame::startpos(Variant::Standard, RuleSet::Casual);
        let start = Position::<Standard>::startpos().to_fen();
        let mut free =
            AnyGame::with_rules(Variant::Standard, &start, RuleSet::Casual, Rules::BOARD_ONLY).unwrap();
        for m in shuffle.iter().cycle().take(8) {
            judged.play_str(m).unwrap();
            free.play_str(m).unwrap();
        }
        assert_eq!(judged.outcome().map(|o| o.reason), Some(Reason::Repetition));
        assert!(free.outcome().is_none());
        assert!(free.play_str("h0g2").is_ok());
        assert_eq!((free.rule_set(), free.rules()), (RuleSet::Casual, Rules::BOARD_ONLY));
    }

    #[test]
    fn both_boards_write_pgn_with_their_moves() {
        let mut s = AnyGame::startpos(Variant::Standard, RuleSet::Asian);
        s.play_str("h2e2").unwrap();
        let text = s.pgn(&[("Red", "a".into())], Format::Wxf);
        assert!(text.starts_with("[Game \"Chinese Chess\"]\n[Event \"?\"]"), "{text}");
        assert!(text.contains("[Red \"a\"]\n") && text.contains("[Format \"WXF\"]\n\n1. C2=5 *\n"), "{text}");
        assert!(!text.contains("[Variant"), "{text}");

        let mut h = AnyGame::startpos(Variant::Hex, RuleSet::Hex);
        h.play_str("e4e5").unwrap();
        h.finish(crate::Outcome::win(Color::Red, Reason::Resignation));
        let text = h.pgn(&[("Red", "a".into())], Format::Wxf);
        assert!(text.starts_with("[Game \"Chinese Chess\"]\n[Variant \"hex\"]\n"), "{text}");
        assert_eq!(text.matches("[Result \"1-0\"]").count(), 1, "{text}");
        assert!(text.contains("[RuleSet \"hex\"]") && !text.contains("[FEN"), "{text}");
        assert!(text.contains("[Format \"ICCS\"]\n\n1. e4e5 1-0\n"), "{text}");
        assert!(matches!(pgn::read(&text), Err(pgn::PgnError::Variant(v)) if v == "hex"));
        let dashed = h.pgn(&[], Format::OldIccs);
        assert!(dashed.contains("1. E4-E5 1-0"), "{dashed}");
    }

    #[test]
    fn the_geometry_follows_the_variant() {
        for variant in Variant::ALL {
            let named = with_geometry!(variant, G => Position::<G>::startpos().to_fen());
            assert_eq!(named, AnyGame::startpos(variant, variant.default_rules()).fen());
            assert_eq!(with_geometry!(variant, G => <G as crate::Geometry>::VARIANT), variant);
        }
        assert_eq!(Variant::Hex.default_rules().variant(), Variant::Hex);
        assert_eq!(RuleSet::ALL.map(|r| r.variant() == Variant::Hex), [false, false, false, true]);
    }
}
