//! Puzzles as a solver sees them: the position and the opponent's move that
//! sets it, never the solution until the attempt has ended.

use super::*;
use crate::model::puzzles::{AttemptRecord, PuzzlePlayerRecord, PuzzleRecord, StreakRecord};
use crate::{
    domain::puzzles::{PuzzleStanding, Step, StepKind},
    model::puzzles::{Origin, PuzzleTheme, Unrated},
};

/// A puzzle to solve.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct PuzzleView {
    pub id: String,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Variant>)]
    pub variant: Variant,
    /// The position before the opponent's move that sets the puzzle.
    pub fen: String,
    /// The opponent's move: play it, then find the solver's.
    pub setup: String,
    /// The solver's side.
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Color>)]
    pub solver: Color,
    /// How many moves the solver must find.
    pub moves: u32,
    /// The puzzle's rating (its difficulty), rounded, and how sure it is.
    pub rating: i64,
    pub deviation: i64,
    /// First attempts so far, and the share of them solved (percent).
    pub plays: i64,
    pub solved_percent: Option<u32>,
    pub themes: Vec<PuzzleTheme>,
    /// The site's game it comes from, if any.
    pub game: Option<String>,
    /// The game of the Masters collection it comes from, if any. A puzzle
    /// from a user's imported game names neither the game nor its owner.
    pub masters_game: Option<String>,
}

impl From<&PuzzleRecord> for PuzzleView {
    fn from(p: &PuzzleRecord) -> Self {
        // The setup move is the opponent's: the solver is the side after it.
        let opponent_turn = p.fen.split_whitespace().nth(1).is_some_and(|t| t == "b" || t == "B");
        let (game, masters_game) = match &p.origin {
            Origin::Site { game } => (Some(game.clone()), None),
            Origin::Masters { game } => (None, Some(game.clone())),
            // An imported game is its owner's alone: nothing of it is shown.
            Origin::Imported { .. } | Origin::Withdrawn | Origin::Engine => (None, None),
        };
        PuzzleView {
            id: p.id.clone(),
            variant: p.variant,
            fen: p.fen.clone(),
            setup: p.moves.first().cloned().unwrap_or_default(),
            solver: if opponent_turn { Color::Red } else { Color::Black },
            moves: (p.moves.len() / 2) as u32,
            rating: p.rating.rating.round() as i64,
            deviation: p.rating.deviation.round() as i64,
            plays: p.plays,
            solved_percent: (p.plays > 0).then(|| (100 * p.solves / p.plays) as u32),
            themes: p.themes.clone(),
            game,
            masters_game,
        }
    }
}

/// A rating before and after an attempt.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct RatingChange {
    pub before: i64,
    pub after: i64,
}

/// Where a streak stands after one of its puzzles.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct StreakStepView {
    pub solved: i64,
    pub over: bool,
    /// The next puzzle, after a solved one.
    pub next: Option<PuzzleView>,
}

/// What the move just sent did.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct PuzzleStepView {
    pub step: StepKind,
    /// The opponent's answer to a right move that is not the last.
    pub reply: Option<String>,
    /// The whole line (the opponent's move first) once the attempt has ended.
    pub solution: Option<Vec<String>>,
    /// The solver's puzzle rating, when this ended a rated first attempt.
    pub rating: Option<RatingChange>,
    /// Why the attempt this ended changed no rating: only a logged-in player's
    /// first attempt at a puzzle the site handed them (the next puzzle, the
    /// day's), without a hint, outside a streak, and not tried without logging
    /// in from their network address, is rated.
    pub unrated: Option<Unrated>,
    pub streak: Option<StreakStepView>,
}

impl From<Step> for PuzzleStepView {
    fn from(s: Step) -> Self {
        PuzzleStepView {
            step: s.kind,
            reply: s.reply,
            solution: s.solution,
            rating: s.rating.map(|(b, a)| RatingChange { before: b.round() as i64, after: a.round() as i64 }),
            unrated: s.unrated,
            streak: s.streak.map(|st| StreakStepView {
                solved: st.solved,
                over: st.over,
                next: st.next.as_ref().map(PuzzleView::from),
            }),
        }
    }
}

/// The piece to move next: its cell.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct PuzzleHint {
    pub cell: String,
}

/// A timed streak just started.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct StreakView {
    pub id: String,
    /// When it ends (milliseconds since the epoch).
    pub ends: i64,
    pub puzzle: PuzzleView,
}

impl StreakView {
    pub fn new(s: &StreakRecord, first: &PuzzleRecord) -> Self {
        StreakView { id: s.id.clone(), ends: s.ends_ms, puzzle: first.into() }
    }
}

/// A player's puzzle rating on one board.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct PuzzleRatingView {
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Variant>)]
    pub variant: Variant,
    pub rating: i64,
    pub deviation: i64,
    pub provisional: bool,
    pub attempts: i64,
    pub solved: i64,
    pub best_streak: i64,
}

impl PuzzleRatingView {
    pub fn new(variant: Variant, p: &PuzzlePlayerRecord) -> Self {
        PuzzleRatingView {
            variant,
            rating: p.rating.rating.round() as i64,
            deviation: p.rating.deviation.round() as i64,
            provisional: p.rating.provisional(),
            attempts: p.attempts,
            solved: p.solved,
            best_streak: p.best_streak,
        }
    }
}

/// One of a player's first attempts.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct PuzzleAttemptView {
    pub puzzle: String,
    pub result: crate::model::puzzles::AttemptResult,
    pub rated: bool,
    pub hinted: bool,
    /// The player's puzzle rating after it, when it was rated.
    pub rating: Option<i64>,
    /// The puzzle's rating now.
    pub puzzle_rating: i64,
    pub themes: Vec<PuzzleTheme>,
    pub at: i64,
}

impl From<&AttemptRecord> for PuzzleAttemptView {
    fn from(a: &AttemptRecord) -> Self {
        PuzzleAttemptView {
            puzzle: a.puzzle_id.clone(),
            result: a.result,
            rated: a.rated,
            hinted: a.hinted,
            rating: a.rating.map(|r| r.round() as i64),
            puzzle_rating: a.puzzle_rating.round() as i64,
            themes: a.themes.clone(),
            at: a.at_ms,
        }
    }
}

/// Beside a page of a player's puzzle attempts: their puzzle ratings.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct PuzzleRatings {
    pub ratings: Vec<PuzzleRatingView>,
}

super::page::listings! {
    /// A player's puzzle ratings and attempts, newest first, a page at a time.
    PuzzleStandingView = PuzzleAttempts of PuzzleAttemptView as "attempts" with PuzzleRatings,
        next "The `after` of the next page of attempts, if there is one.":
        "A player's puzzle ratings and attempts, newest first, a page at a time.";
}

impl From<PuzzleStanding> for PuzzleStandingView {
    fn from(s: PuzzleStanding) -> Self {
        let ratings = s.boards.iter().map(|(v, p)| PuzzleRatingView::new(*v, p)).collect();
        PuzzleStandingView::with(
            s.history.items.iter().map(PuzzleAttemptView::from).collect(),
            s.history.next,
            PuzzleRatings { ratings },
        )
    }
}

/// One of the best puzzle solvers.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct PuzzleLeader {
    pub name: String,
    pub rating: i64,
    pub attempts: i64,
}

/// The best puzzle solvers on a board (at least ten attempts).
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct PuzzleLeadersView {
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Variant>)]
    pub variant: Variant,
    pub leaders: Vec<PuzzleLeader>,
}
