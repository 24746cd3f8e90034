//! Puzzles: the next one, the day's, moves and hints, timed streaks, a
//! player's standing and the leaders, and whether my imported games may give
//! puzzles.

use std::{
    net::{IpAddr, Ipv6Addr},
    sync::Arc,
};

use axum::extract::{Path, State};
use xiangqi::Variant;

use super::{Answer, created, ok};
use crate::{
    api::{
        requests::{BoardQuery, NewStreak, PageQuery, PuzzleMoves, PuzzleQuery, PuzzleSharing},
        views::{
            PuzzleHint, PuzzleLeader, PuzzleLeadersView, PuzzleStandingView, PuzzleStepView, PuzzleView,
            StreakView,
        },
    },
    domain::puzzles::Solver,
    error::ErrorBody,
    http::{
        AppState,
        auth::{Body, MaybeUser, Params, User},
        client::ClientIp,
    },
};

/// The network a client's address stands for: an IPv4 address, or the /64 an
/// IPv6 address belongs to (one subscriber usually holds a whole /64). What
/// visitors try is counted and kept by it.
fn network(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{}/64", Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The next puzzle: near the player's puzzle rating (1500 for a visitor),
/// one they have not tried, of a theme if asked, drawn from the few nearest.
/// A logged-in player gets one nobody tried from their network address
/// without logging in, and it is the puzzle their next rated attempt may be
/// on (on each board, the last one asked for).
#[utoipa::path(get, path = "/puzzles/next", tag = "puzzles", params(PuzzleQuery),
    responses((status = 200, body = PuzzleView), (status = 404, description = "No puzzle left to try.", body = ErrorBody)))]
pub async fn next(
    State(state): State<Arc<AppState>>,
    MaybeUser(user): MaybeUser,
    ClientIp(client): ClientIp,
    Params(q): Params<PuzzleQuery>,
) -> Answer<PuzzleView> {
    let variant = q.variant.unwrap_or(Variant::Standard);
    let address = network(client);
    let solver = Solver { user: user.as_ref().map(|u| u.name.as_str()), address: &address };
    let p = state.services.puzzles.next_puzzle_for(solver, variant, q.theme).await?;
    ok(PuzzleView::from(&p))
}

/// The puzzle of the day (UTC), on the standard board; a logged-in player's
/// first attempt at it is rated.
#[utoipa::path(get, path = "/puzzles/daily", tag = "puzzles",
    responses((status = 200, body = PuzzleView), (status = 404, description = "No puzzle yet.", body = ErrorBody)))]
pub async fn daily(
    State(state): State<Arc<AppState>>,
    MaybeUser(user): MaybeUser,
    ClientIp(client): ClientIp,
) -> Answer<PuzzleView> {
    let address = network(client);
    let solver = Solver { user: user.as_ref().map(|u| u.name.as_str()), address: &address };
    ok(PuzzleView::from(&state.services.puzzles.daily_puzzle_for(solver).await?))
}

/// A puzzle by its id. A logged-in player's attempt at a puzzle opened so,
/// rather than handed to them as the next puzzle or the day's, is not rated.
#[utoipa::path(get, path = "/puzzles/{id}", tag = "puzzles", params(("id" = String, Path)),
    responses((status = 200, body = PuzzleView), (status = 404, description = "No such puzzle.", body = ErrorBody)))]
pub async fn puzzle(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Answer<PuzzleView> {
    ok(PuzzleView::from(&state.services.puzzles.puzzle(&id).await?))
}

/// Judges the solver's moves so far (the last one new): right (with the
/// opponent's answer), solved, or wrong (with the solution). A logged-in
/// player's first attempt counts for both ratings only on a puzzle the site
/// handed them (the next puzzle, the day's) that nobody tried from their
/// network address without logging in, and without a hint; otherwise the end
/// says why not (`unrated`). A visitor's moves count against an hourly limit
/// per network address. The puzzle a running streak stands on is answered
/// only in that streak.
#[utoipa::path(post, path = "/puzzles/{id}/moves", tag = "puzzles", params(("id" = String, Path)),
    request_body = PuzzleMoves,
    responses(
        (status = 200, body = PuzzleStepView),
        (status = 400, description = "No move, or more than the line has.", body = ErrorBody),
        (status = 401, description = "A streak named without logging in.", body = ErrorBody),
        (status = 404, description = "No such puzzle or streak.", body = ErrorBody),
        (status = 409, description = "The streak is over or on another puzzle, or, without a streak, a \
            running streak stands on this puzzle.", body = ErrorBody),
        (status = 422, description = "A move that is not legal there.", body = ErrorBody),
        (status = 429, description = "Too many moves and hints without logging in from this network address \
            in the last hour; `retry_after` says when to try again.", body = ErrorBody)))]
pub async fn moves(
    State(state): State<Arc<AppState>>,
    MaybeUser(user): MaybeUser,
    ClientIp(client): ClientIp,
    Path(id): Path<String>,
    Body(b): Body<PuzzleMoves>,
) -> Answer<PuzzleStepView> {
    let address = network(client);
    let solver = Solver { user: user.as_ref().map(|u| u.name.as_str()), address: &address };
    let step = state.services.puzzles.puzzle_move(solver, &id, &b.moves, b.streak.as_deref()).await?;
    ok(PuzzleStepView::from(step))
}

/// The piece to move next, after the solver's moves so far; a logged-in
/// player's attempt is then not rated. In a streak, name it (`streak`): the
/// puzzle a running streak stands on is hinted only in that streak. A
/// visitor's hints count with their moves against the hourly limit.
#[utoipa::path(post, path = "/puzzles/{id}/hint", tag = "puzzles", params(("id" = String, Path)),
    request_body = PuzzleMoves,
    responses(
        (status = 200, body = PuzzleHint),
        (status = 400, description = "The moves are not the line's.", body = ErrorBody),
        (status = 401, description = "A streak named without logging in.", body = ErrorBody),
        (status = 404, description = "No such puzzle or streak.", body = ErrorBody),
        (status = 409, description = "The streak is over or on another puzzle, or, without a streak, a \
            running streak stands on this puzzle.", body = ErrorBody),
        (status = 429, description = "Too many moves and hints without logging in from this network address \
            in the last hour; `retry_after` says when to try again.", body = ErrorBody)))]
pub async fn hint(
    State(state): State<Arc<AppState>>,
    MaybeUser(user): MaybeUser,
    ClientIp(client): ClientIp,
    Path(id): Path<String>,
    Body(b): Body<PuzzleMoves>,
) -> Answer<PuzzleHint> {
    let address = network(client);
    let solver = Solver { user: user.as_ref().map(|u| u.name.as_str()), address: &address };
    ok(PuzzleHint {
        cell: state.services.puzzles.puzzle_hint(solver, &id, &b.moves, b.streak.as_deref()).await?,
    })
}

/// Starts a timed streak: three minutes, each puzzle harder than the last,
/// until one is failed; the best count is kept. Its puzzles are drawn from
/// those near each difficulty that the player has not tried and nobody tried
/// from their network address without logging in.
#[utoipa::path(post, path = "/puzzles/streaks", tag = "puzzles", request_body = NewStreak,
    responses((status = 201, body = StreakView), (status = 404, description = "No puzzle left to try.", body = ErrorBody)))]
pub async fn streak(
    State(state): State<Arc<AppState>>,
    user: User,
    ClientIp(client): ClientIp,
    Body(b): Body<NewStreak>,
) -> Answer<StreakView> {
    let variant = b.variant.unwrap_or(Variant::Standard);
    let (s, first) = state.services.puzzles.start_streak(&user.name, &network(client), variant).await?;
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
    let rows = state.services.puzzles.puzzle_leaders(variant).await?;
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
    ok(state.services.puzzles.puzzle_standing(&name, &q.into()).await?.into())
}

/// Whether the site may find puzzles in my imported games.
#[utoipa::path(get, path = "/me/puzzle-sharing", tag = "puzzles", responses((status = 200, body = PuzzleSharing)))]
pub async fn sharing(State(state): State<Arc<AppState>>, user: User) -> Answer<PuzzleSharing> {
    ok(PuzzleSharing { imports: state.services.puzzles.puzzle_sharing(&user.name).await? })
}

/// Let the site find puzzles in my imported games, or stop it: stopping
/// removes the puzzles from them that nobody has tried, and the others forget
/// which game they came from.
#[utoipa::path(put, path = "/me/puzzle-sharing", tag = "puzzles", request_body = PuzzleSharing,
    responses((status = 200, body = PuzzleSharing), (status = 400, body = ErrorBody)))]
pub async fn set_sharing(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(s): Body<PuzzleSharing>,
) -> Answer<PuzzleSharing> {
    state.services.puzzles.set_puzzle_sharing(&user.name, s.imports).await?;
    ok(s)
}
