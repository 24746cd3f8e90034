//! Games: lists, the state of one, moves, resignation, draws, time claims, records.

use std::sync::Arc;

use axum::{
    Json,
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};

use super::{Answer, ok};
use crate::{
    api::{
        requests::{ConditionalsRequest, DrawRequest, PageQuery, PremoveRequest, Submit},
        views::{
            BeingPlayed, ChallengeAnswer, ChallengeView, ConditionalsAnswer, GameAnswer, GameSummary,
            MyGames, PlayingPage, PremoveAnswer, TheirTurn,
        },
    },
    domain::{games::Loaded, glance::Playing},
    error::{ApiResult, ErrorBody},
    http::{
        AppState,
        auth::{Body, Params, User},
    },
    model::page::Page,
};

/// A game's state as the answer to a request: the view its sockets get too.
fn game(state: &AppState, g: &Loaded) -> Answer<GameAnswer> {
    ok(GameAnswer { game: state.hub.views.of(g) })
}

/// The games that are waiting for me and for my opponents (the first page of
/// those being played), and a page of finished ones.
#[utoipa::path(get, path = "/games", tag = "games", params(PageQuery),
    responses((status = 200, body = MyGames), (status = 400, description = "A bad query string.", body = ErrorBody)))]
pub async fn my_games(
    State(state): State<Arc<AppState>>,
    user: User,
    Params(q): Params<PageQuery>,
) -> Answer<MyGames> {
    let (first, asked) = (Page::first(Page::MAX), Page::from(q));
    let (playing, finished) = state.services.glances.my_games(&user.name, &first, &asked).await?;
    let playing = playing_page(playing);
    let being_played = BeingPlayed {
        my_turn: playing.items,
        their_turn: playing.extras.their_turn,
        playing_next: playing.next,
    };
    ok(MyGames::with(finished.items.iter().map(GameSummary::from).collect(), finished.next, being_played))
}

/// My games being played, the most recently changed first, a page at a time
/// (100 unless `limit` says fewer), split by whose move it is.
#[utoipa::path(get, path = "/games/playing", tag = "games", params(PageQuery),
    responses((status = 200, body = PlayingPage), (status = 400, description = "A bad query string.", body = ErrorBody)))]
pub async fn my_playing(
    State(state): State<Arc<AppState>>,
    user: User,
    Params(q): Params<PageQuery>,
) -> Answer<PlayingPage> {
    ok(playing_page(state.services.glances.playing(&user.name, &q.or_longest()).await?))
}

fn playing_page(p: Playing) -> PlayingPage {
    let summaries = |games: Vec<_>| games.iter().map(GameSummary::from).collect();
    PlayingPage::with(summaries(p.my_turn), p.next, TheirTurn { their_turn: summaries(p.their_turn) })
}

/// A game in full; anyone may watch.
#[utoipa::path(get, path = "/games/{id}", tag = "games", params(("id" = String, Path)),
    responses((status = 200, body = GameAnswer), (status = 404, body = ErrorBody)))]
pub async fn show(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Answer<GameAnswer> {
    game(&state, &state.services.games.load_game(&id).await?)
}

/// Make a move.
#[utoipa::path(post, path = "/games/{id}/moves", tag = "games", params(("id" = String, Path)), request_body = Submit,
    responses(
        (status = 200, body = GameAnswer),
        (status = 403, description = "Not your game, or not your turn.", body = ErrorBody),
        (status = 409, description = "`ply` is not the current count (a double submit, or another move won), \
            the game is over, or your time ran out.", body = ErrorBody),
        (status = 422, description = "An unreadable or illegal move, with the reason.", body = ErrorBody)))]
pub async fn submit(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
    Body(s): Body<Submit>,
) -> Answer<GameAnswer> {
    let played = state
        .services
        .games
        .submit_move(&user.name, &id, s.ply, &s.text, state.services.clock.now_ms())
        .await?;
    crate::telemetry::move_played();
    game(&state, &played)
}

/// Queue a premove in a live game while the opponent is to move, in place of
/// one queued before: it is played in the same write as their move, taking no
/// time from my clock, if it is legal then, and dropped if not. Only I see it.
#[utoipa::path(put, path = "/games/{id}/premove", tag = "games", params(("id" = String, Path)),
    request_body = PremoveRequest,
    responses((status = 200, body = PremoveAnswer),
        (status = 400, description = "Not two points with one of my pieces on the first.", body = ErrorBody),
        (status = 403, description = "Not playing in this game.", body = ErrorBody),
        (status = 409, description = "My move now, a correspondence game, the game over, or `ply` not the \
            current count.", body = ErrorBody)))]
pub async fn set_premove(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
    Body(p): Body<PremoveRequest>,
) -> Answer<PremoveAnswer> {
    let kept = state.services.games.set_premove(&user.name, &id, p.ply, &p.text).await?;
    ok(PremoveAnswer { premove: Some(kept) })
}

/// My queued premove in a game, if any.
#[utoipa::path(get, path = "/games/{id}/premove", tag = "games", params(("id" = String, Path)),
    responses((status = 200, body = PremoveAnswer), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn premove(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> Answer<PremoveAnswer> {
    ok(PremoveAnswer { premove: state.services.games.premove(&user.name, &id).await? })
}

/// Take back my queued premove (nothing if none is queued).
#[utoipa::path(delete, path = "/games/{id}/premove", tag = "games", params(("id" = String, Path)),
    responses((status = 200, body = PremoveAnswer), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn cancel_premove(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> Answer<PremoveAnswer> {
    state.services.games.cancel_premove(&user.name, &id).await?;
    ok(PremoveAnswer { premove: None })
}

/// Keep conditional moves in a correspondence game while the opponent is to
/// move, in place of those kept before (none takes them back): when the
/// opponent's move begins a line, its answer is played in the same write, and
/// the lines that go on stay; any other move drops them all. Only I see them.
#[utoipa::path(put, path = "/games/{id}/conditionals", tag = "games", params(("id" = String, Path)),
    request_body = ConditionalsRequest,
    responses((status = 200, body = ConditionalsAnswer),
        (status = 400, description = "A line with an illegal move, ending with the opponent's move, or \
            answering a move two ways.", body = ErrorBody),
        (status = 403, description = "Not playing in this game.", body = ErrorBody),
        (status = 409, description = "My move now, a live game, the game over, or `ply` not the current \
            count.", body = ErrorBody),
        (status = 413, description = "More moves, or branching nested deeper, than a tree may hold.",
            body = ErrorBody)))]
pub async fn set_conditionals(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
    Body(c): Body<ConditionalsRequest>,
) -> Answer<ConditionalsAnswer> {
    let kept = state.services.games.set_conditionals(&user.name, &id, c.ply, &c.lines).await?;
    ok(ConditionalsAnswer::from(kept))
}

/// My conditional moves in a game (none once it is over).
#[utoipa::path(get, path = "/games/{id}/conditionals", tag = "games", params(("id" = String, Path)),
    responses((status = 200, body = ConditionalsAnswer), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn conditionals(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> Answer<ConditionalsAnswer> {
    ok(ConditionalsAnswer::from(state.services.games.conditionals(&user.name, &id).await?))
}

/// Resign.
#[utoipa::path(post, path = "/games/{id}/resign", tag = "games", params(("id" = String, Path)),
    responses((status = 200, body = GameAnswer), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn resign(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> Answer<GameAnswer> {
    game(&state, &state.services.games.resign(&user.name, &id, state.services.clock.now_ms()).await?)
}

/// Abort: call the game off while a side has yet to make its first move. No result, not rated.
#[utoipa::path(post, path = "/games/{id}/abort", tag = "games", params(("id" = String, Path)),
    responses(
        (status = 200, description = "The game, now `aborted`.", body = GameAnswer),
        (status = 403, body = ErrorBody),
        (status = 409, description = "Both sides have moved, or the game is over.", body = ErrorBody)))]
pub async fn abort(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> Answer<GameAnswer> {
    game(&state, &state.services.games.abort(&user.name, &id, state.services.clock.now_ms()).await?)
}

/// Offer the opponent a rematch of a game that is over: the same rules and clock, colours swapped.
#[utoipa::path(post, path = "/games/{id}/rematch", tag = "games", params(("id" = String, Path)),
    responses(
        (status = 201, description = "The opponent had offered one too, or is the computer: the new game has started.", body = GameAnswer),
        (status = 202, description = "The offer waits for the opponent (a challenge with `rematch_of`).", body = ChallengeAnswer),
        (status = 403, description = "You did not play in this game.", body = ErrorBody),
        (status = 409, description = "The game is still being played, or you have as many open challenges as \
            one may.", body = ErrorBody),
        (status = 429, description = "Too many challenges made in the last hour.", body = ErrorBody)))]
pub async fn rematch(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    Ok(match state.services.lobby.rematch(&user.name, &id, state.services.clock.now_ms()).await? {
        Ok(started) => {
            (StatusCode::CREATED, Json(GameAnswer { game: state.hub.views.of(&started) })).into_response()
        }
        Err(offer) => {
            (StatusCode::ACCEPTED, Json(ChallengeAnswer { challenge: ChallengeView::from(&offer) }))
                .into_response()
        }
    })
}

/// Offer, accept or decline a draw. An offer stands until the opponent answers or a move is made.
#[utoipa::path(post, path = "/games/{id}/draw", tag = "games", params(("id" = String, Path)), request_body = DrawRequest,
    responses(
        (status = 200, body = GameAnswer),
        (status = 403, body = ErrorBody),
        (status = 409, description = "An offer already made, or none to answer.", body = ErrorBody)))]
pub async fn draw(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
    Body(d): Body<DrawRequest>,
) -> Answer<GameAnswer> {
    game(&state, &state.services.games.draw(&user.name, &id, d.action, state.services.clock.now_ms()).await?)
}

/// Win on time when the opponent's clock or correspondence deadline has run out.
#[utoipa::path(post, path = "/games/{id}/claim", tag = "games", params(("id" = String, Path)),
    responses(
        (status = 200, body = GameAnswer),
        (status = 409, description = "The opponent still has time.", body = ErrorBody)))]
pub async fn claim(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> Answer<GameAnswer> {
    game(&state, &state.services.games.claim(&user.name, &id, state.services.clock.now_ms()).await?)
}

/// The game record as PGN with WXF moves, its date and time control.
#[utoipa::path(get, path = "/games/{id}/pgn", tag = "games", params(("id" = String, Path)),
    responses(
        (status = 200, description = "The record.", content_type = "application/x-chess-pgn", body = String),
        (status = 404, body = ErrorBody)))]
pub async fn pgn(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> ApiResult<Response> {
    let loaded = state.services.games.load_game(&id).await?;
    let mut headers = HeaderMap::new();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"));
    let disposition = format!("attachment; filename=\"xiangqi-{id}.pgn\"");
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok((StatusCode::OK, headers, loaded.pgn()).into_response())
}
