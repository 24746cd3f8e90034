//! Ladders: places, challenges up, results.

use std::sync::Arc;

use axum::extract::{Path, State};

use super::{Answer, created, ok, ratings::category};
use crate::model::challenges::ChallengeRecord;
use crate::model::page::Page;
use crate::{
    api::{
        requests::{NewLadderChallenge, PageQuery},
        views::{
            ChallengeAnswer, ChallengeView, JoinedLadder, LadderAround, LadderChallengePage,
            LadderChallengeView, LadderResultView, LadderView, RungView,
        },
    },
    domain::ladders::LadderPage,
    error::ErrorBody,
    http::{
        AppState,
        auth::{Body, Params, User},
    },
};

/// A ladder: places from the top, open challenges, latest results (no log-in needed).
#[utoipa::path(get, path = "/ladders/{category}", tag = "ratings", params(("category" = String, Path), PageQuery),
    responses((status = 200, body = LadderView), (status = 400, description = "No such category.", body = ErrorBody)))]
pub async fn ladder(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    Params(q): Params<PageQuery>,
) -> Answer<LadderView> {
    let category = category(&name)?;
    let LadderPage { rungs: page, challenges, results } =
        state.services.ladders.ladder_page(category, &Page::from(q)).await?;
    let results = results
        .into_iter()
        .map(|r| LadderResultView {
            challenger: r.challenger,
            defender: r.defender,
            challenger_won: r.challenger_won,
            game: r.game,
            at: r.at_ms,
        })
        .collect();
    let rungs = page
        .items
        .into_iter()
        .map(|r| RungView { position: r.position, name: r.user, joined: r.joined_ms })
        .collect();
    ok(LadderView::with(
        rungs,
        page.next,
        LadderAround {
            category,
            challenges: ladder_challenges(&challenges.items),
            challenges_next: challenges.next,
            results,
        },
    ))
}

fn ladder_challenges(rows: &[ChallengeRecord]) -> Vec<LadderChallengeView> {
    rows.iter()
        .map(|c| LadderChallengeView {
            challenge: ChallengeView::from(c),
            expires: c.expires_ms.unwrap_or(0),
        })
        .collect()
}

/// A ladder's open challenges, oldest first, a page at a time (100 unless
/// `limit` says fewer; no log-in needed).
#[utoipa::path(get, path = "/ladders/{category}/challenges", tag = "ratings", params(("category" = String, Path), PageQuery),
    responses((status = 200, body = LadderChallengePage), (status = 400, description = "No such category, or a bad query string.", body = ErrorBody)))]
pub async fn challenges(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    Params(q): Params<PageQuery>,
) -> Answer<LadderChallengePage> {
    let page = q.or_longest();
    let page = state.services.ladders.open_ladder_challenges(category(&name)?, &page).await?;
    ok(LadderChallengePage::new(ladder_challenges(&page.items), page.next))
}

/// Join a ladder at the bottom.
#[utoipa::path(post, path = "/ladders/{category}/join", tag = "ratings", params(("category" = String, Path)),
    responses(
        (status = 201, body = JoinedLadder),
        (status = 400, description = "No such category, or hex (not offered yet).", body = ErrorBody),
        (status = 409, description = "On this ladder already.", body = ErrorBody)))]
pub async fn join(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(name): Path<String>,
) -> Answer<JoinedLadder> {
    let position = state
        .services
        .ladders
        .join_ladder(&user.name, category(&name)?, state.services.clock.now_ms())
        .await?;
    created(JoinedLadder { position })
}

/// Challenge a player at most 20 places above you; they have 3 days to accept,
/// or lose their place to you.
#[utoipa::path(post, path = "/ladders/{category}/challenges", tag = "ratings", params(("category" = String, Path)),
    request_body = NewLadderChallenge,
    responses(
        (status = 201, body = ChallengeAnswer),
        (status = 400, description = "Not above you, more than 20 places above, or not on the ladder.", body = ErrorBody),
        (status = 403, description = "The player does not accept challenges from you.", body = ErrorBody),
        (status = 409, description = "Not on the ladder yet, either player is in 2 open challenges of it, or you \
            have as many open challenges as one may.", body = ErrorBody),
        (status = 429, description = "Too many challenges made in the last hour.", body = ErrorBody)))]
pub async fn challenge(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(name): Path<String>,
    Body(c): Body<NewLadderChallenge>,
) -> Answer<ChallengeAnswer> {
    let row = state
        .services
        .ladders
        .ladder_challenge(&user.name, category(&name)?, &c.opponent, state.services.clock.now_ms())
        .await?;
    created(ChallengeAnswer { challenge: ChallengeView::from(&row) })
}
