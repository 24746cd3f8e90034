//! Challenges, the waiting room and auto-match.

use std::sync::Arc;

use axum::{
    Json,
    extract::{Path, State},
    http::StatusCode,
    response::{IntoResponse, Response},
};

use super::{Answer, created, ok};
use crate::{
    api::{
        requests::{AutoMatch, NewChallenge, PageQuery},
        views::{ChallengeAnswer, ChallengePage, ChallengeView, GameAnswer, LobbyView, MyChallenges},
    },
    domain::{board::variant_of, lobby::Proposal},
    error::{ApiResult, ErrorBody},
    http::{
        AppState,
        auth::{Body, MaybeUser, Params, User},
    },
};

/// Challenge a player by name, or (without `opponent`) anyone in the waiting room.
#[utoipa::path(post, path = "/challenges", tag = "lobby", request_body = NewChallenge,
    responses(
        (status = 201, body = ChallengeAnswer),
        (status = 400, description = "Unknown fields or values, a variant and rule set that do not go together, a clock out of \
            range, or a challenge to oneself.", body = ErrorBody),
        (status = 404, description = "No such opponent.", body = ErrorBody),
        (status = 409, description = "The same challenge is already open, or you have as many open challenges \
            as one may (20 unless the server says otherwise).", body = ErrorBody),
        (status = 429, description = "Too many challenges made in the last hour; `retry_after` says when to \
            try again.", body = ErrorBody)))]
pub async fn create_challenge(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(c): Body<NewChallenge>,
) -> Answer<ChallengeAnswer> {
    let proposal = Proposal {
        opponent: c.opponent,
        variant: c.variant.unwrap_or(variant_of(c.rules)),
        rules: c.rules,
        color: c.color,
        clock: c.clock,
        rated: c.rated,
    };
    let row = state.services.lobby.propose(&user.name, proposal, state.services.clock.now_ms()).await?;
    created(ChallengeAnswer { challenge: ChallengeView::from(&row) })
}

/// My lobby: a page of the waiting room (`after` and `limit` walk it; 100 if
/// no limit is given), and the
/// challenges to me and mine. A visitor (no session) sees the waiting room
/// alone, to look around before registering; the other two lists are empty.
#[utoipa::path(get, path = "/challenges", tag = "lobby", params(PageQuery),
    responses((status = 200, body = LobbyView), (status = 400, description = "A bad query string.", body = ErrorBody)))]
pub async fn challenges(
    State(state): State<Arc<AppState>>,
    me: MaybeUser,
    Params(q): Params<PageQuery>,
) -> Answer<LobbyView> {
    let views =
        |rows: &[crate::model::challenges::ChallengeRecord]| rows.iter().map(ChallengeView::from).collect();
    // A page as long as the whole list once was, unless asked for less.
    let lists =
        state.services.lobby.lobby_lists(me.0.as_ref().map(|u| u.name.as_str()), &q.or_longest()).await?;
    let mine = MyChallenges {
        incoming: views(&lists.incoming.items),
        incoming_next: lists.incoming.next,
        outgoing: views(&lists.outgoing),
    };
    ok(LobbyView::with(views(&lists.room.items), lists.room.next, mine))
}

/// Challenges to me, oldest first, a page at a time (100 unless `limit` says fewer).
#[utoipa::path(get, path = "/challenges/incoming", tag = "lobby", params(PageQuery),
    responses((status = 200, body = ChallengePage), (status = 400, description = "A bad query string.", body = ErrorBody)))]
pub async fn incoming(
    State(state): State<Arc<AppState>>,
    user: User,
    Params(q): Params<PageQuery>,
) -> Answer<ChallengePage> {
    let page = state.services.lobby.incoming(&user.name, &q.or_longest()).await?;
    ok(ChallengePage::new(page.items.iter().map(ChallengeView::from).collect(), page.next))
}

/// Accept a challenge: its game starts.
#[utoipa::path(post, path = "/challenges/{id}/accept", tag = "lobby", params(("id" = String, Path)),
    responses(
        (status = 201, body = GameAnswer),
        (status = 403, description = "One's own challenge, or one meant for someone else.", body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, description = "Taken or cancelled meanwhile.", body = ErrorBody)))]
pub async fn accept_challenge(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> Answer<GameAnswer> {
    let game = state.services.lobby.accept_challenge(&user.name, &id, state.services.clock.now_ms()).await?;
    created(GameAnswer { game: state.hub.views.of(&game) })
}

/// The creator withdraws a challenge, or the one challenged declines it.
#[utoipa::path(delete, path = "/challenges/{id}", tag = "lobby", params(("id" = String, Path)),
    responses(
        (status = 204, description = "Closed."),
        (status = 403, description = "Neither its creator nor the one challenged.", body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, description = "No longer open.", body = ErrorBody)))]
pub async fn close_challenge(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    state.services.lobby.close_challenge(&user.name, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Be paired with the next player asking for the same settings.
#[utoipa::path(post, path = "/automatch", tag = "lobby", request_body = AutoMatch,
    responses(
        (status = 201, description = "Someone was waiting: the game has started.", body = GameAnswer),
        (status = 202, description = "You wait in the queue (cancel with `DELETE /challenges/{id}`).", body = ChallengeAnswer),
        (status = 400, body = ErrorBody),
        (status = 409, description = "You have as many open challenges as one may.", body = ErrorBody),
        (status = 429, description = "Too many challenges made in the last hour.", body = ErrorBody)))]
pub async fn automatch(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(a): Body<AutoMatch>,
) -> ApiResult<Response> {
    let board = (a.variant.unwrap_or(variant_of(a.rules)), a.rules);
    Ok(
        match state
            .services
            .lobby
            .automatch(&user.name, board, a.clock, a.rated, state.services.clock.now_ms())
            .await?
        {
            Ok(game) => {
                (StatusCode::CREATED, Json(GameAnswer { game: state.hub.views.of(&game) })).into_response()
            }
            Err(waiting) => {
                (StatusCode::ACCEPTED, Json(ChallengeAnswer { challenge: ChallengeView::from(&waiting) }))
                    .into_response()
            }
        },
    )
}
