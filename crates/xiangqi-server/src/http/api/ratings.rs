//! Ratings: leaderboards, a player's history, and what a player shows.

use std::sync::Arc;

use axum::extract::{Path, State};

use super::{Answer, ok};
use crate::{
    api::{
        requests::{PageQuery, RatingSettings},
        views::{HistoryAnswer, HistoryPointView, LeaderView, LeadersOf, LeadersPage},
    },
    error::{ApiResult, ErrorBody, Refusal},
    http::{
        AppState,
        auth::{Body, Params, User},
    },
    model::page::Page,
    model::{Named, ratings::Category},
};

/// A rating category named in a path, or a 400 that says which names there are.
pub(super) fn category(name: &str) -> ApiResult<Category> {
    Category::parse(name).map_err(|_| Refusal::NoCategory { name: name.to_string() }.into())
}

/// The leaderboard of a category: established ratings (deviation 110 or less), highest first.
#[utoipa::path(get, path = "/ratings/{category}/leaders", tag = "ratings", params(("category" = String, Path), PageQuery),
    responses((status = 200, body = LeadersPage), (status = 400, description = "No such category.", body = ErrorBody)))]
pub async fn leaders(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    Params(q): Params<PageQuery>,
) -> Answer<LeadersPage> {
    let category = category(&name)?;
    let page = state.services.people.leaders(category, &Page::from(q)).await?;
    let leaders = page
        .items
        .iter()
        .map(|r| LeaderView {
            name: r.user.clone(),
            rating: r.rating.rating.round() as i64,
            deviation: r.rating.deviation.round() as i64,
            games: r.rating.games,
        })
        .collect();
    ok(LeadersPage::with(leaders, page.next, LeadersOf { category }))
}

/// A player's rating after each rated game of a category, for the chart on the profile.
#[utoipa::path(get, path = "/users/{name}/ratings/{category}", tag = "ratings",
    params(("name" = String, Path), ("category" = String, Path)),
    responses((status = 200, body = HistoryAnswer), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn history(
    State(state): State<Arc<AppState>>,
    Path((name, cat)): Path<(String, String)>,
) -> Answer<HistoryAnswer> {
    let category = category(&cat)?;
    let points = state.services.people.rating_history(&name, category).await?;
    let points = points
        .into_iter()
        .map(|p| HistoryPointView {
            at: p.at_ms,
            rating: p.rating.round() as i64,
            deviation: p.deviation.round() as i64,
            game: p.game,
        })
        .collect();
    ok(HistoryAnswer { category, points })
}

/// Which rating I show and whether my challenges are rated by default.
#[utoipa::path(get, path = "/me/rating-settings", tag = "ratings", responses((status = 200, body = RatingSettings)))]
pub async fn settings(State(state): State<Arc<AppState>>, user: User) -> Answer<RatingSettings> {
    let u = state.services.accounts.user(&user.name).await?;
    ok(RatingSettings { shown: u.shown_category, rated_by_default: u.rated_by_default })
}

/// Choose which rating shows next to my name and whether new challenges are rated by default.
#[utoipa::path(put, path = "/me/rating-settings", tag = "ratings", request_body = RatingSettings,
    responses((status = 200, body = RatingSettings), (status = 400, body = ErrorBody)))]
pub async fn set_settings(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(s): Body<RatingSettings>,
) -> Answer<RatingSettings> {
    state.services.people.set_rating_settings(&user.name, s.shown, s.rated_by_default).await?;
    ok(s)
}
