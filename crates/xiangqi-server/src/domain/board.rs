//! A game on either board. The rules crate is generic over the geometry; the
//! site stores games of both kinds side by side, so this enum is the one place
//! that chooses the geometry from a game's variant. Everything above it (the
//! services, the views, the engine pool) works with `Board` and never matches
//! on the variant itself.

use xiangqi::{
    Color, Game, Geometry, Hex, Move, Outcome, Position, RuleSet, Standard, Variant,
    notation::{self, chinese, pgn, wxf},
};
use xiangqi_engine::{Control, Engine, Info, Limits, Root, SearchResult};

/// A game being played or replayed, on the board its variant names.
#[derive(Clone, Debug)]
pub enum Board {
    Standard(Game<Standard>),
    Hex(Game<Hex>),
}

/// Runs `$body` with `$g` bound to the inner game, whichever board it is.
macro_rules! each {
    ($board:expr, $g:ident => $body:expr) => {
        match $board {
            Board::Standard($g) => $body,
            Board::Hex($g) => $body,
        }
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
    if rules == RuleSet::Hex { Variant::Hex } else { Variant::Standard }
}

/// The rule set a board is played under unless players choose: asian on the
/// standard board (as in tournaments), hex on the hex board.
pub fn default_rules(variant: Variant) -> RuleSet {
    match variant {
        Variant::Standard => RuleSet::Asian,
        Variant::Hex => RuleSet::Hex,
    }
}

/// Whether a board is played under a rule set.
pub fn rules_fit(variant: Variant, rules: RuleSet) -> bool {
    variant_of(rules) == variant
}

/// The start position of a board, as FEN.
pub fn start_fen(variant: Variant) -> String {
    match variant {
        Variant::Standard => Position::<Standard>::startpos().to_fen(),
        Variant::Hex => Position::<Hex>::startpos().to_fen(),
    }
}

fn standard_names(pos: &Position<Standard>, m: Move) -> MoveNames {
    MoveNames { iccs: pos.move_name(m), wxf: wxf::write(pos, m), chinese: chinese::write(pos, m) }
}

/// The game replayed from its start to just after its first `plies` moves.
fn replay<G: Geometry>(g: &Game<G>, plies: usize) -> Game<G> {
    let mut before = Game::with_rules(g.start().clone(), g.rule_set(), *g.rules());
    for m in g.moves().into_iter().take(plies) {
        before.play(m).expect("a game holds only legal moves");
    }
    before
}

/// The written forms of `line` played on from `pos`, as far as each move is
/// legal where it stands.
fn name_line<G: Geometry>(
    pos: &Position<G>,
    line: &[Move],
    name: impl Fn(&Position<G>, Move) -> MoveNames,
) -> Vec<MoveNames> {
    let mut pos = pos.clone();
    let mut names = Vec::with_capacity(line.len());
    for &m in line {
        if !pos.is_legal(m) {
            break;
        }
        names.push(name(&pos, m));
        pos.play_unchecked(m);
    }
    names
}

fn hex_names(pos: &Position<Hex>, m: Move) -> MoveNames {
    let cells = format!("{}-{}", pos.cell_name(m.from), pos.cell_name(m.to));
    let piece = pos.piece_at(m.from);
    MoveNames {
        iccs: pos.move_name(m),
        wxf: piece.map_or_else(|| cells.clone(), |p| format!("{}{cells}", p.role.char())),
        chinese: piece.map_or_else(|| cells.clone(), |p| format!("{}{cells}", p.glyph())),
    }
}

impl Board {
    /// A game from a FEN on the board `variant` names, judged by `rules`.
    pub fn from_fen(variant: Variant, fen: &str, rules: RuleSet) -> Result<Board, String> {
        if !rules_fit(variant, rules) {
            return Err(format!("the {variant} board is not played under the {rules} rules"));
        }
        Ok(match variant {
            Variant::Standard => {
                Board::Standard(Game::new(Position::from_fen(fen).map_err(|e| e.to_string())?, rules))
            }
            Variant::Hex => Board::Hex(Game::new(Position::from_fen(fen).map_err(|e| e.to_string())?, rules)),
        })
    }

    /// A game from the start position of its board.
    pub fn startpos(variant: Variant, rules: RuleSet) -> Result<Board, String> {
        Board::from_fen(variant, &start_fen(variant), rules)
    }

    pub fn variant(&self) -> Variant {
        match self {
            Board::Standard(_) => Variant::Standard,
            Board::Hex(_) => Variant::Hex,
        }
    }

    pub fn rule_set(&self) -> RuleSet {
        each!(self, g => g.rule_set())
    }

    pub fn turn(&self) -> Color {
        each!(self, g => g.turn())
    }

    pub fn is_check(&self) -> bool {
        each!(self, g => g.is_check())
    }

    pub fn ply_count(&self) -> usize {
        each!(self, g => g.ply_count())
    }

    pub fn moves(&self) -> Vec<Move> {
        each!(self, g => g.moves())
    }

    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, g => g.outcome())
    }

    pub fn fen(&self) -> String {
        each!(self, g => g.position().to_fen())
    }

    pub fn start_fen(&self) -> String {
        each!(self, g => g.start().to_fen())
    }

    /// The moves the side to move may play, by cell names, sorted.
    pub fn legal_names(&self) -> Vec<String> {
        let mut names: Vec<String> = each!(self, g => {
            let pos = g.position();
            g.legal_moves().iter().map(|m| pos.move_name(*m)).collect()
        });
        names.sort();
        names
    }

    /// Reads a move in any notation the board has (ICCS, WXF or Chinese on the
    /// standard board; cell names on the hex board) and checks it is legal now.
    pub fn parse_legal(&self, text: &str) -> Result<Move, String> {
        let m = match self {
            Board::Standard(g) => notation::parse_any(g.position(), text).map_err(|e| e.to_string())?,
            Board::Hex(g) => g.position().parse_move(text.trim()).map_err(|e| e.to_string())?,
        };
        each!(self, g => match g.why_illegal(m) {
            Some(why) => Err(format!("{} is illegal: {why}", g.position().move_name(m))),
            None => Ok(m),
        })
    }

    /// The written forms of a move from the current position.
    pub fn names(&self, m: Move) -> MoveNames {
        match self {
            Board::Standard(g) => standard_names(g.position(), m),
            Board::Hex(g) => hex_names(g.position(), m),
        }
    }

    /// The written forms of a line of moves from the current position (an
    /// engine's principal variation), up to the first that is not legal where
    /// it would be played.
    pub fn line_names(&self, line: &[Move]) -> Vec<MoveNames> {
        match self {
            Board::Standard(g) => name_line(g.position(), line, standard_names),
            Board::Hex(g) => name_line(g.position(), line, hex_names),
        }
    }

    /// The game as it stood after its first `plies` moves, with the history
    /// that led there (a result declared off the board, such as a resignation,
    /// is not carried over).
    pub fn prefix(&self, plies: usize) -> Board {
        match self {
            Board::Standard(g) => Board::Standard(replay(g, plies)),
            Board::Hex(g) => Board::Hex(replay(g, plies)),
        }
    }

    /// Searches only the move `m` from the current position (to `limits`): the
    /// score the engine gives it, to compare with its best move's at one depth.
    /// Blocks: run it on the engine pool.
    pub fn search_move(&self, engine: &mut Engine, m: Move, limits: &Limits) -> SearchResult {
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
    ) -> SearchResult {
        each!(self, g => engine.search(&Root::from_game(g), limits, control, on_info))
    }

    /// The written forms of every move played, in order.
    pub fn all_names(&self) -> Vec<MoveNames> {
        fn walk<G: Geometry>(g: &Game<G>, name: impl Fn(&Position<G>, Move) -> MoveNames) -> Vec<MoveNames> {
            let mut pos = g.start().clone();
            g.moves()
                .into_iter()
                .map(|m| {
                    let n = name(&pos, m);
                    pos.play_unchecked(m);
                    n
                })
                .collect()
        }
        match self {
            Board::Standard(g) => walk(g, standard_names),
            Board::Hex(g) => walk(g, hex_names),
        }
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) -> Result<(), String> {
        each!(self, g => g.play(m).map_err(|e| e.to_string()))
    }

    /// Plays a move given by cell names (a stored move).
    pub fn play_name(&mut self, text: &str) -> Result<(), String> {
        each!(self, g => g.play_str(text).map(|_| ()).map_err(|e| e.to_string()))
    }

    /// The record as PGN: tags in order, then the moves (WXF on the standard
    /// board, cell names on the hex board, which PGN readers know by the
    /// `Variant` tag).
    pub fn pgn(&self, tags: &[(&str, String)]) -> String {
        each!(self, g => {
            let mut record = pgn::Record::from_game(g);
            for (k, v) in tags {
                record.set_tag(k, v);
            }
            pgn::write(&record, pgn::Format::Wxf)
        })
    }
}

#[cfg(test)]
mod tests {
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
        assert!(s.parse_legal("a0a5").unwrap_err().contains("illegal"));
        assert!(s.parse_legal("zz").is_err());
        let h = Board::startpos(Variant::Hex, RuleSet::Hex).unwrap();
        assert!(h.parse_legal("C2=5").is_err());
    }
}
