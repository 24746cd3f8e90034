//! The site itself: preferences, news, and the games a visitor can watch.

use std::sync::Arc;

use axum::{
    extract::{Path, State},
    http::StatusCode,
};

use super::{Answer, created, ok};
use crate::{
    api::{
        requests::{NewNews, PageQuery},
        views::{GameSummary, LiveGames, NewsAnswer, NewsItem, NewsPage, PreferencesAnswer},
    },
    error::{ApiResult, ErrorBody},
    http::{
        AppState,
        auth::{Body, Params, User},
    },
    model::page::Page,
    model::preferences::Preferences,
};

/// My board, piece and language preferences.
#[utoipa::path(get, path = "/me/preferences", tag = "site", responses((status = 200, body = PreferencesAnswer)))]
pub async fn preferences(State(state): State<Arc<AppState>>, user: User) -> Answer<PreferencesAnswer> {
    ok(PreferencesAnswer { preferences: state.services.accounts.user(&user.name).await?.preferences })
}

/// Replace my preferences (every field).
#[utoipa::path(put, path = "/me/preferences", tag = "site", request_body = Preferences,
    responses((status = 200, body = PreferencesAnswer), (status = 400, description = "A field missing, unknown or out of range, named.", body = ErrorBody)))]
pub async fn set_preferences(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(p): Body<Preferences>,
) -> Answer<PreferencesAnswer> {
    let p = p.check()?;
    state.services.accounts.set_preferences(&user.name, &p).await?;
    ok(PreferencesAnswer { preferences: p })
}

/// Site news, newest first (no log-in needed).
#[utoipa::path(get, path = "/news", tag = "site", params(PageQuery), responses((status = 200, body = NewsPage)))]
pub async fn news(State(state): State<Arc<AppState>>, Params(q): Params<PageQuery>) -> Answer<NewsPage> {
    let page = state.services.news.news(&Page::from(q)).await?;
    ok(NewsPage::new(page.items.iter().map(NewsItem::from).collect(), page.next))
}

/// Post news (administrators).
#[utoipa::path(post, path = "/news", tag = "site", request_body = NewNews,
    responses(
        (status = 201, body = NewsAnswer),
        (status = 400, body = ErrorBody),
        (status = 403, description = "Not an administrator.", body = ErrorBody)))]
pub async fn post_news(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(n): Body<NewNews>,
) -> Answer<NewsAnswer> {
    let row =
        state.services.news.post_news(&user.name, &n.title, &n.body, state.services.clock.now_ms()).await?;
    created(NewsAnswer { news: NewsItem::from(&row) })
}

/// Delete news (administrators).
#[utoipa::path(delete, path = "/news/{id}", tag = "site", params(("id" = String, Path)),
    responses((status = 204, description = "Deleted."), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete_news(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    state.services.news.delete_news(&user.name, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Games being played now, the most recently moved first, a page at a time:
/// anyone may watch them.
#[utoipa::path(get, path = "/games/live", tag = "games", params(PageQuery),
    responses((status = 200, body = LiveGames), (status = 400, description = "A bad query string.", body = ErrorBody)))]
pub async fn live_games(
    State(state): State<Arc<AppState>>,
    Params(q): Params<PageQuery>,
) -> Answer<LiveGames> {
    let page = state.services.glances.live_glances(&Page::from(q)).await?;
    ok(LiveGames::new(page.items.iter().map(GameSummary::from).collect(), page.next))
}
