//! Analysis: positions along a line, the engine's live analysis as
//! Server-Sent Events, and game reviews.

use std::{convert::Infallible, sync::Arc, time::Duration};

use axum::{
    Json,
    extract::{Path, State},
    http::StatusCode,
    response::sse::{Event, KeepAlive, Sse},
};
use futures_util::Stream;

use super::{Answer, ok};
use crate::{
    api::{
        events::AnalysisEvent,
        requests::{AnalysisQuery, LineRequest},
        views::{LineAnswer, LinePosition, ReviewAnswer, ReviewView},
    },
    domain::analysis::{Analysis, analysis_limits, play_line},
    error::{ApiResult, ErrorBody},
    http::{
        AppState,
        auth::{Body, Params, User},
    },
};

/// Every position along a line of moves: to load a FEN, to play a move, to
/// check a position set up by hand. Changes nothing; no log-in needed.
#[utoipa::path(post, path = "/positions", tag = "analysis", request_body = LineRequest,
    responses(
        (status = 200, body = LineAnswer),
        (status = 400, description = "A position the rules refuse, with what is wrong (two red generals, \
            generals facing, a piece on a point it can never reach, the side not to move in check, a \
            malformed FEN), or rules of the other board.", body = ErrorBody),
        (status = 422, description = "A move that cannot be played, with its number and why.", body = ErrorBody)))]
pub async fn positions(Body(r): Body<LineRequest>) -> Answer<LineAnswer> {
    let (variant, rules) = r.start.board_and_rules();
    let (_, steps) = play_line(&r.start, &r.moves, true)?;
    let positions = steps.into_iter().map(LinePosition::from).collect();
    ok(LineAnswer { variant, rules, positions })
}

/// The engine's analysis of a position, live: Server-Sent Events (`text/event-stream`),
/// each an `AnalysisEvent` whose `type` is also the SSE event name — `queued` if every
/// engine is busy, `info` after each depth (score from both views, nodes, the principal
/// variation in every notation), then `done`, and the stream closes. It thinks for at
/// most 20 s; closing the stream stops it, and so does the same user's next analysis
/// (whose old stream ends with `done`, reason `replaced`). Refusals come before the
/// stream starts, as JSON errors.
#[utoipa::path(get, path = "/analysis", tag = "analysis", params(crate::model::board::BoardSpec, AnalysisQuery),
    responses(
        (status = 200, description = "The event stream.", content_type = "text/event-stream", body = AnalysisEvent),
        (status = 400, description = "A position the rules refuse, or limits out of range.", body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 422, description = "A move that cannot be played.", body = ErrorBody),
        (status = 429, description = "Too many analyses started in the last minute; the message says when \
            the next may start.", body = ErrorBody)))]
pub async fn analyse(
    State(state): State<Arc<AppState>>,
    user: User,
    Params(q): Params<AnalysisQuery>,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let limits = analysis_limits(q.depth, q.time, q.lines)?;
    let (board, _) = play_line(&q.start, &q.move_list(), false)?;
    let Analysis { events, stop } =
        state.services.analysis.analyse(&user.name, board, limits, state.services.clock.now_ms())?;
    // The stop guard lives as long as the stream: a client that goes away
    // drops it, which stops the search.
    let stream = futures_util::stream::unfold((events, stop), |(mut events, stop)| async move {
        let event = AnalysisEvent::from(events.recv().await?);
        let sse = Event::default().event(event.name()).json_data(&event).unwrap_or_else(|e| {
            tracing::error!("unwritable analysis event: {e}");
            Event::default().event("error")
        });
        Some((Ok(sse), (events, stop)))
    });
    // Comments every second keep proxies from closing a quiet stream, and let
    // the server notice a client that has gone.
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(1))))
}

/// Asks for a finished game's review: the engine evaluates every position once (about
/// a tenth of a second each, on the server's engines) and each move is judged by how
/// much it lowered its mover's evaluation. Computed once, however many ask; poll
/// `GET` until its status is `done`.
#[utoipa::path(post, path = "/games/{id}/review", tag = "analysis", params(("id" = String, Path)),
    responses(
        (status = 202, description = "This request started (or resumed) computing it.", body = ReviewAnswer),
        (status = 200, description = "It was already being computed, or done.", body = ReviewAnswer),
        (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, description = "The game is still being played, or was aborted.", body = ErrorBody),
        (status = 429, description = "Too many reviews started in the last hour.", body = ErrorBody)))]
pub async fn request_review(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<ReviewAnswer>)> {
    let started =
        state.services.review.request_review(&user.name, &id, state.services.clock.now_ms()).await?;
    let (_, Json(answer)) = review(State(state), Path(id)).await?;
    Ok((if started { StatusCode::ACCEPTED } else { StatusCode::OK }, Json(answer)))
}

/// A game's review as far as it has been computed: null if none was asked for.
#[utoipa::path(get, path = "/games/{id}/review", tag = "analysis", params(("id" = String, Path)),
    responses((status = 200, body = ReviewAnswer), (status = 404, body = ErrorBody)))]
pub async fn review(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Answer<ReviewAnswer> {
    let (loaded, found) = state.services.review.review(&id).await?;
    ok(ReviewAnswer { review: found.map(|(row, positions)| ReviewView::new(&loaded, &row, &positions)) })
}
