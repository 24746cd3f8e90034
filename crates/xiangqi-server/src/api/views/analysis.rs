//! Analysis and reviews: scores, move names, a line's positions, depth reports and judged moves.

use super::*;
use crate::model::reviews::{ReviewPositionRecord, ReviewRecord};

impl From<crate::model::eval::Eval> for ScoreView {
    fn from(e: crate::model::eval::Eval) -> Self {
        use crate::model::eval::Eval;
        match e {
            Eval::Cp(value) => ScoreView::Cp { value },
            Eval::Mate(value) => ScoreView::Mate { value },
            Eval::Won => ScoreView::Won,
            Eval::Lost => ScoreView::Lost,
            Eval::Drawn => ScoreView::Drawn,
        }
    }
}

impl From<crate::domain::analysis::Step> for LinePosition {
    fn from(s: crate::domain::analysis::Step) -> Self {
        LinePosition {
            played: s.played.map(Into::into),
            fen: s.fen,
            turn: s.turn,
            check: s.check,
            legal: s.legal,
            outcome: s.outcome.map(Into::into),
        }
    }
}

impl From<crate::domain::board::MoveNames> for MoveNamesView {
    fn from(n: crate::domain::board::MoveNames) -> Self {
        MoveNamesView { iccs: n.iccs, wxf: n.wxf, chinese: n.chinese }
    }
}

impl From<crate::domain::analysis::DepthReport> for AnalysisInfo {
    fn from(r: crate::domain::analysis::DepthReport) -> Self {
        AnalysisInfo {
            depth: r.depth,
            seldepth: r.seldepth,
            score: r.score.into(),
            red: r.red.into(),
            nodes: r.nodes,
            nps: r.nps,
            time: r.time_ms,
            line: r.line,
            pv: r.pv.into_iter().map(MoveNamesView::from).collect(),
        }
    }
}

/// A move's written forms.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MoveNamesView {
    /// The two cells (`h2e2`; `e4e5` on the hex board).
    pub iccs: String,
    /// WXF (`C2=5`); on the hex board, the piece's letter and the cells (`Pe4-e5`).
    pub wxf: String,
    /// In Chinese (`炮二平五`); on the hex board, the glyph and the cells (`兵e4-e5`).
    pub chinese: String,
}

/// An evaluation from one side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ScoreView {
    /// Centipawns: positive when this side is better (a soldier is worth about 100).
    Cp { value: i32 },
    /// A forced mate in `value` moves: positive when this side gives it, negative when it suffers it.
    Mate { value: i32 },
    /// The game is over here and this side has won.
    Won,
    /// The game is over here and this side has lost (checkmated, stalemated or by a rule).
    Lost,
    /// The game is over here, drawn.
    Drawn,
}

/// One position along a line.
#[derive(Serialize, ToSchema)]
pub struct LinePosition {
    /// The move that led here; null for the first position.
    pub played: Option<MoveNamesView>,
    pub fen: String,
    /// The side to move.
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Color>)]
    pub turn: Color,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The moves the side to move may play (ICCS, sorted); empty when the game is over.
    pub legal: Vec<String>,
    /// How the game ended here, if it did (checkmate, stalemate, a repetition rule...).
    pub outcome: Option<OutcomeView>,
}

/// Every position of a line, from the one it starts at.
#[derive(Serialize, ToSchema)]
pub struct LineAnswer {
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Variant>)]
    pub variant: Variant,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    /// The start and then one per move: one more than the moves.
    pub positions: Vec<LinePosition>,
}

/// What the engine found at one depth.
#[derive(Serialize, ToSchema)]
pub struct AnalysisInfo {
    /// The depth completed.
    pub depth: i32,
    /// The deepest ply any line reached.
    pub seldepth: i32,
    /// From the side to move's view.
    pub score: ScoreView,
    /// The same from Red's view.
    pub red: ScoreView,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes searched per second.
    pub nps: u64,
    /// Milliseconds thought so far.
    pub time: u64,
    /// Which line this is, when several were asked for: 1 for the best, 2
    /// for the best of the other first moves, and so on. Each depth sends
    /// its lines in this order.
    pub line: u32,
    /// The principal variation: this line's moves, from the side to move.
    pub pv: Vec<MoveNamesView>,
}

/// One evaluated position of a review.
#[derive(Serialize, ToSchema)]
pub struct ReviewedPosition {
    /// The position after this many moves (0 is the start).
    pub ply: i64,
    /// From the side to move's view.
    pub score: ScoreView,
    /// The same from Red's view.
    pub red: ScoreView,
    /// Red's view in centipawns clamped to ±1000 (a mate or a won game is the
    /// limit): what the evaluation graph draws.
    pub red_cp: i32,
    /// The engine's move here; null when the game is over here.
    pub best: Option<MoveNamesView>,
    /// How deep the search went.
    pub depth: i64,
}

/// A move of a reviewed game, judged.
#[derive(Serialize, ToSchema)]
pub struct ReviewedMove {
    /// Its number in the game, from 1: it leads from position `ply - 1` to `ply`.
    pub ply: i64,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Color>)]
    pub color: Color,
    pub played: MoveNamesView,
    pub class: MoveClass,
    /// Percentage points of expected score (Win%, from the engine's
    /// centipawns) its mover gave up against the engine's move searched to the
    /// same depth (0 for the engine's own move).
    pub loss: i32,
    /// The engine's move in its place.
    pub best: Option<MoveNamesView>,
}

/// How many moves of each class a side played.
#[derive(Serialize, ToSchema, Default)]
pub struct ClassCounts {
    pub good: i64,
    pub inaccuracy: i64,
    pub mistake: i64,
    pub blunder: i64,
}

impl ClassCounts {
    fn add(&mut self, class: MoveClass) {
        match class {
            MoveClass::Good => self.good += 1,
            MoveClass::Inaccuracy => self.inaccuracy += 1,
            MoveClass::Mistake => self.mistake += 1,
            MoveClass::Blunder => self.blunder += 1,
        }
    }
}

/// The thresholds the moves were judged by: the least loss of expected score,
/// in percentage points, of an inaccuracy, a mistake and a blunder.
#[derive(Serialize, ToSchema)]
pub struct Thresholds {
    pub inaccuracy: i32,
    pub mistake: i32,
    pub blunder: i32,
}

/// A game's review: every position evaluated once at a fixed node budget, and
/// each move judged by the expected score it gave up against the engine's move.
#[derive(Serialize, ToSchema)]
pub struct ReviewView {
    pub game: String,
    pub status: ReviewStatus,
    pub requested_by: String,
    /// Positions evaluated so far, of `total` (one more than the moves).
    pub done: i64,
    pub total: i64,
    /// Nodes searched per position.
    pub nodes: i64,
    pub positions: Vec<ReviewedPosition>,
    /// The moves whose positions before and after are both evaluated.
    pub moves: Vec<ReviewedMove>,
    pub red: ClassCounts,
    pub black: ClassCounts,
    pub thresholds: Thresholds,
}

/// A game's review, or null if none has been asked for.
#[derive(Serialize, ToSchema)]
pub struct ReviewAnswer {
    pub review: Option<ReviewView>,
}

impl ReviewView {
    pub fn new(g: &Loaded, row: &ReviewRecord, stored: &[ReviewPositionRecord]) -> ReviewView {
        let played: Vec<String> = g.moves.iter().map(|m| m.iccs.clone()).collect();
        let names = &g.names;
        let by_ply: HashMap<i64, &ReviewPositionRecord> = stored.iter().map(|p| (p.ply, p)).collect();
        // Along the game once: each position's side to move and the names of
        // the engine's move there.
        let mut board = g.game.prefix(0);
        let first = board.turn();
        let mut positions = Vec::with_capacity(stored.len());
        let mut best_at: HashMap<i64, MoveNamesView> = HashMap::new();
        for ply in 0..=played.len() {
            if let Some(p) = by_ply.get(&(ply as i64)) {
                let best =
                    p.best.as_deref().and_then(|b| board.parse_legal(b).ok()).map(|m| board.names(m).into());
                if let Some(b) = &best {
                    best_at.insert(p.ply, MoveNamesView::clone(b));
                }
                let red = p.eval.for_red(board.turn());
                positions.push(ReviewedPosition {
                    ply: p.ply,
                    score: p.eval.into(),
                    red: red.into(),
                    red_cp: red.clamped(),
                    best,
                    depth: p.depth,
                });
            }
            if ply == played.len() || board.play_name(&played[ply]).is_err() {
                break;
            }
        }
        let (mut red, mut black) = (ClassCounts::default(), ClassCounts::default());
        let moves = review::judge(first, &played, stored)
            .into_iter()
            .map(|j| {
                match j.mover {
                    Color::Red => red.add(j.class),
                    Color::Black => black.add(j.class),
                }
                let text = &played[j.ply - 1];
                ReviewedMove {
                    ply: j.ply as i64,
                    color: j.mover,
                    played: names.get(j.ply - 1).cloned().map_or_else(
                        || MoveNamesView { iccs: text.clone(), wxf: text.clone(), chinese: text.clone() },
                        MoveNamesView::from,
                    ),
                    class: j.class,
                    loss: j.loss,
                    best: best_at.get(&(j.ply as i64 - 1)).cloned(),
                }
            })
            .collect();
        ReviewView {
            game: g.row.id.clone(),
            status: row.status,
            requested_by: row.requested_by.clone(),
            done: stored.len() as i64,
            total: row.total,
            nodes: row.nodes,
            positions,
            moves,
            red,
            black,
            thresholds: Thresholds {
                inaccuracy: crate::model::eval::INACCURACY_PCT,
                mistake: crate::model::eval::MISTAKE_PCT,
                blunder: crate::model::eval::BLUNDER_PCT,
            },
        }
    }
}
