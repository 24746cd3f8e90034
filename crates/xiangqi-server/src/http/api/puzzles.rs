//! Puzzles: the next one, the day's, moves and hints, timed streaks, a
//! player's standing and the leaders.

use std::sync::Arc;

use axum::extract::{Path, State};
use xiangqi::Variant;

use super::{Answer, created, ok};
use crate::{
    api::{
        requests::{BoardQuery, NewStreak, PageQuery, PuzzleMoves, PuzzleQuery},
        views::{
            PuzzleHint, PuzzleLeader, PuzzleLeadersView, PuzzleStandingView, PuzzleStepView, PuzzleView,
            StreakView,
        },
    },
    error::ErrorBody,
    http::{
        AppState,
        auth::{Body, MaybeUser, Params, User},
    },
};

/// The next puzzle: near the player's puzzle rating (1500 for a visitor),
/// one they have not tried, of a theme if asked.
#[utoipa::path(get, path = "/puzzles/next", tag = "puzzles", params(PuzzleQuery),
    responses((status = 200, body = PuzzleView), (status = 404, description = "No puzzle left to try.", body = ErrorBody)))]
pub async fn next(
    State(state): State<Arc<AppState>>,
    MaybeUser(user): MaybeUser,
    Params(q): Params<PuzzleQuery>,
) -> Answer<PuzzleView> {
    let variant = q.variant.unwrap_or(Variant::Standard);
    let p = state.services.next_puzzle(user.as_ref().map(|u| u.name.as_str()), variant, q.theme).await?;
    ok(PuzzleView::from(&p))
}

/// The puzzle of the day (UTC), on the standard board.
#[utoipa::path(get, path = "/puzzles/daily", tag = "puzzles",
    responses((status = 200, body = PuzzleView), (status = 404, description = "No puzzle yet.", body = ErrorBody)))]
pub async fn daily(State(state): State<Arc<AppState>>) -> Answer<PuzzleView> {
    ok(PuzzleView::from(&state.services.daily_puzzle().await?))
}

/// A puzzle by its id.
#[utoipa::path(get, path = "/puzzles/{id}", tag = "puzzles", params(("id" = String, Path)),
    responses((status = 200, body = PuzzleView), (status = 404, description = "No such puzzle.", body = ErrorBody)))]
pub async fn puzzle(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Answer<PuzzleView> {
    ok(PuzzleView::from(&state.services.puzzle(&id).await?))
}

/// Judges the solver's moves so far (the last one new): right (with the
/// opponent's answer), solved, or wrong (with the solution). A logged-in
/// player's first attempt at a puzzle counts for both ratings.
#[utoipa::path(post, path = "/puzzles/{id}/moves", tag = "puzzles", params(("id" = String, Path)),
    request_body = PuzzleMoves,
    responses(
        (status = 200, body = PuzzleStepView),
        (status = 400, description = "No move, or more than the line has.", body = ErrorBody),
        (status = 404, description = "No such puzzle or streak.", body = ErrorBody),
        (status = 409, description = "The streak is over or on another puzzle.", body = ErrorBody),
        (status = 422, description = "A move that is not legal there.", body = ErrorBody)))]
pub async fn moves(
    State(state): State<Arc<AppState>>,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    Body(b): Body<PuzzleMoves>,
) -> Answer<PuzzleStepView> {
    let user = user.as_ref().map(|u| u.name.as_str());
    let step = state.services.puzzle_move(user, &id, &b.moves, b.streak.as_deref()).await?;
    ok(PuzzleStepView::from(step))
}

/// The piece to move next, after the solver's moves so far; a logged-in
/// player's attempt is then not rated.
#[utoipa::path(post, path = "/puzzles/{id}/hint", tag = "puzzles", params(("id" = String, Path)),
    request_body = PuzzleMoves,
    responses(
        (status = 200, body = PuzzleHint),
        (status = 400, description = "The moves are not the line's.", body = ErrorBody),
        (status = 404, description = "No such puzzle.", body = ErrorBody)))]
pub async fn hint(
    State(state): State<Arc<AppState>>,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    Body(b): Body<PuzzleMoves>,
) -> Answer<PuzzleHint> {
    let user = user.as_ref().map(|u| u.name.as_str());
    ok(PuzzleHint { cell: state.services.puzzle_hint(user, &id, &b.moves).await? })
}

/// Starts a timed streak: three minutes, each puzzle harder than the last,
/// until one is failed; the best count is kept.
#[utoipa::path(post, path = "/puzzles/streaks", tag = "puzzles", request_body = NewStreak,
    responses((status = 201, body = StreakView), (status = 404, description = "No puzzle left to try.", body = ErrorBody)))]
pub async fn streak(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(b): Body<NewStreak>,
) -> Answer<StreakView> {
    let (s, first) = state.services.start_streak(&user.name, b.variant.unwrap_or(Variant::Standard)).await?;
    created(StreakView::new(&s, &first))
}

/// The best puzzle solvers on a board.
#[utoipa::path(get, path = "/puzzles/leaders", tag = "puzzles", params(BoardQuery),
    responses((status = 200, body = PuzzleLeadersView)))]
pub async fn leaders(
    State(state): State<Arc<AppState>>,
    Params(q): Params<BoardQuery>,
) -> Answer<PuzzleLeadersView> {
    let variant = q.variant.unwrap_or(Variant::Standard);
    let rows = state.services.puzzle_leaders(variant).await?;
    let leaders = rows
        .iter()
        .map(|p| PuzzleLeader {
            name: p.user.clone(),
            rating: p.rating.rating.round() as i64,
            attempts: p.attempts,
        })
        .collect();
    ok(PuzzleLeadersView { variant, leaders })
}

/// A player's puzzle ratings and first attempts, newest first (the points
/// of their rating chart), a page at a time.
#[utoipa::path(get, path = "/users/{name}/puzzles", tag = "puzzles", params(("name" = String, Path), PageQuery),
    responses((status = 200, body = PuzzleStandingView), (status = 404, description = "No such user.", body = ErrorBody)))]
pub async fn standing(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    Params(q): Params<PageQuery>,
) -> Answer<PuzzleStandingView> {
    ok(state.services.puzzle_standing(&name, &q.into()).await?.into())
}
