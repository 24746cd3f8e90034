//! The JSON API's handlers: parse, call a service, render. Each is annotated
//! with what it takes and answers, and the OpenAPI document is built from those
//! annotations and the types in [`crate::api`].

mod accounts;
mod analysis;
mod computer;
mod database;
mod exports;
mod games;
mod ladders;
mod lobby;
mod people;
mod puzzles;
mod ratings;
mod site;
mod studies;
mod tournaments;

use std::sync::Arc;

use axum::{Json, extract::DefaultBodyLimit, http::StatusCode, middleware};
use utoipa::OpenApi;
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};

use super::{
    AppState,
    auth::{self, BodyLimit},
};
use crate::{
    api::events::{AnalysisEvent, ClientMessage, Event},
    error::{ApiError, ApiResult, ErrorBody, Refusal},
};

/// A typed answer with its status.
type Answer<T> = ApiResult<(StatusCode, Json<T>)>;

fn ok<T>(body: T) -> Answer<T> {
    Ok((StatusCode::OK, Json(body)))
}

fn created<T>(body: T) -> Answer<T> {
    Ok((StatusCode::CREATED, Json(body)))
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "xiangqi play server",
        description = "The JSON API of the play server; the browser UI uses exactly this API. \
            Conventions (authentication, the X-Xiangqi header, errors, live updates) are in docs/API.md."
    ),
    servers((url = "/api/v1")),
    components(schemas(ErrorBody, Event, ClientMessage, AnalysisEvent)),
    tags(
        (name = "accounts", description = "Registering, logging in, profiles, who is here."),
        (name = "lobby", description = "Challenges, the waiting room, auto-match."),
        (name = "games", description = "Playing and watching games."),
        (name = "ratings", description = "Glicko-2 ratings per category, leaderboards, history."),
        (name = "site", description = "Preferences, news, games to watch."),
        (name = "people", description = "Messages, game chat, buddies and ignore lists, who is here, search, invitations."),
        (name = "tournaments", description = "Round-robin and Swiss tournaments: entries, rounds, standings."),
        (name = "analysis", description = "Positions along a line, the engine's live analysis, game reviews."),
        (name = "puzzles", description = "Puzzles found by the engine in real games: the next one, the day's, streaks, ratings."),
        (name = "database", description = "The games database, the opening explorer, imports of record files, and downloads of games as PGN or XQF."),
        (name = "studies", description = "Shared analysis in chapters: members, trees of moves, comments, arrows.")
    )
)]
struct ApiDoc;

/// The API's routes and the OpenAPI document that describes exactly them.
pub fn routes() -> (axum::Router<Arc<AppState>>, utoipa::openapi::OpenApi) {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(accounts::register, accounts::users))
        .routes(routes!(accounts::profile))
        .routes(routes!(accounts::login, accounts::whoami, accounts::logout))
        .routes(routes!(accounts::change_password))
        .routes(routes!(accounts::set_profile))
        .routes(routes!(lobby::create_challenge, lobby::challenges))
        .routes(routes!(lobby::incoming))
        .routes(routes!(lobby::close_challenge))
        .routes(routes!(lobby::accept_challenge))
        .routes(routes!(lobby::automatch))
        .routes(routes!(games::my_games))
        .routes(routes!(games::my_playing))
        .routes(routes!(games::show))
        .routes(routes!(games::submit))
        .routes(routes!(games::set_premove, games::premove, games::cancel_premove))
        .routes(routes!(games::set_conditionals, games::conditionals))
        .routes(routes!(games::resign))
        .routes(routes!(games::abort))
        .routes(routes!(games::rematch))
        .routes(routes!(games::draw))
        .routes(routes!(games::claim))
        .routes(routes!(games::pgn))
        .routes(routes!(exports::game_record))
        .routes(routes!(computer::levels))
        .routes(routes!(computer::start))
        .routes(routes!(people::send_message, people::mailbox))
        .routes(routes!(people::conversations))
        .routes(routes!(people::conversation))
        .routes(routes!(people::mark_read))
        .routes(routes!(people::delete_message))
        .routes(routes!(people::counts))
        .routes(routes!(people::chat, people::write_chat))
        .routes(routes!(people::buddies))
        .routes(routes!(people::add_buddy, people::remove_buddy))
        .routes(routes!(people::ignored))
        .routes(routes!(people::ignore, people::unignore))
        .routes(routes!(people::online))
        .routes(routes!(people::search))
        .routes(routes!(people::invite, people::invitations))
        .routes(routes!(people::invitation))
        .routes(routes!(site::preferences, site::set_preferences))
        .routes(routes!(site::news, site::post_news))
        .routes(routes!(site::delete_news))
        .routes(routes!(site::live_games))
        .routes(routes!(ratings::leaders))
        .routes(routes!(ratings::history))
        .routes(routes!(ratings::settings, ratings::set_settings))
        .routes(routes!(ladders::ladder))
        .routes(routes!(ladders::join))
        .routes(routes!(ladders::challenge, ladders::challenges))
        .routes(routes!(tournaments::list, tournaments::create))
        .routes(routes!(tournaments::show))
        .routes(routes!(tournaments::join))
        .routes(routes!(tournaments::withdraw))
        .routes(routes!(analysis::positions))
        .routes(routes!(analysis::analyse))
        .routes(routes!(analysis::review, analysis::request_review))
        .routes(routes!(puzzles::next))
        .routes(routes!(puzzles::daily))
        .routes(routes!(puzzles::leaders))
        .routes(routes!(puzzles::puzzle))
        .routes(routes!(puzzles::moves))
        .routes(routes!(puzzles::hint))
        .routes(routes!(puzzles::streak))
        .routes(routes!(puzzles::standing))
        .routes(routes!(puzzles::sharing, puzzles::set_sharing))
        .routes(routes!(database::search))
        .routes(routes!(database::explorer))
        .routes(routes!(database::imported, database::delete_all_imported))
        .routes(routes!(database::imported_game, database::delete_imported))
        .routes(routes!(database::masters_game))
        .routes(routes!(database::openings))
        .routes(routes!(database::player_openings))
        .routes(routes!(database::archive))
        .routes(routes!(exports::search_games))
        .routes(routes!(exports::imported_record))
        .routes(routes!(exports::masters_record))
        .routes(routes!(studies::list, studies::create))
        .routes(routes!(studies::show, studies::delete))
        .routes(routes!(studies::settings))
        .routes(routes!(studies::invite))
        .routes(routes!(studies::remove))
        .routes(routes!(studies::add_chapter))
        .routes(routes!(studies::rename_chapter, studies::delete_chapter))
        .routes(routes!(studies::place_chapter))
        .routes(routes!(studies::main_line))
        .routes(routes!(studies::add_move))
        .routes(routes!(studies::annotate, studies::delete_node))
        .routes(routes!(studies::pgn))
        // Every route above takes a JSON body of at most `BODY_LIMIT`, read
        // before its handler runs; only the import of PGN files, added after,
        // takes a larger body, by a limit set on its own route.
        .route_layer(middleware::from_fn_with_state(BodyLimit::JSON, auth::limit_body))
        .routes(routes!(database::import).map(|route| {
            route
                .route_layer(middleware::from_fn_with_state(BodyLimit::IMPORT, auth::limit_body))
                .route_layer(DefaultBodyLimit::max(BodyLimit::IMPORT.max))
        }))
        .routes(routes!(studies::import).map(|route| {
            route
                .route_layer(middleware::from_fn_with_state(BodyLimit::IMPORT, auth::limit_body))
                .route_layer(DefaultBodyLimit::max(BodyLimit::IMPORT.max))
        }))
        .routes(routes!(database::import_masters, database::masters).map(|route| {
            route
                .route_layer(middleware::from_fn_with_state(BodyLimit::IMPORT, auth::limit_body))
                .route_layer(DefaultBodyLimit::max(BodyLimit::IMPORT.max))
        }))
        .split_for_parts()
}

pub async fn not_found() -> ApiError {
    Refusal::NoEndpoint {}.into()
}
