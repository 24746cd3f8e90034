//! Tournaments: lists, creating one, its table, signing up and withdrawing.

use std::sync::Arc;

use axum::extract::{Path, State};

use super::{Answer, created, ok};
use crate::{
    api::{
        requests::{NewTournament, TournamentShelf, TournamentsQuery},
        views::{TournamentAnswer, TournamentSummary, TournamentView, TournamentsPage},
    },
    domain::tournaments::Plan,
    error::ErrorBody,
    http::{
        AppState,
        auth::{Body, Params, User},
    },
    model::TournamentStatus,
    model::page::Page,
};

/// Tournaments taking entries, running, or over; newest first (no log-in needed).
#[utoipa::path(get, path = "/tournaments", tag = "tournaments", params(TournamentsQuery),
    responses((status = 200, body = TournamentsPage), (status = 400, body = ErrorBody)))]
pub async fn list(
    State(state): State<Arc<AppState>>,
    Params(q): Params<TournamentsQuery>,
) -> Answer<TournamentsPage> {
    let statuses: &[TournamentStatus] = match q.status.unwrap_or_default() {
        TournamentShelf::Upcoming => &[TournamentStatus::Signup],
        TournamentShelf::Running => &[TournamentStatus::Running],
        TournamentShelf::Finished => &[TournamentStatus::Finished, TournamentStatus::Cancelled],
    };
    let page = Page { after: q.after, limit: q.limit };
    let found = state.services.tournaments.tournaments(statuses, &page).await?;
    ok(TournamentsPage::new(found.items.iter().map(TournamentSummary::from).collect(), found.next))
}

/// Create a tournament; it takes entries until its start.
#[utoipa::path(post, path = "/tournaments", tag = "tournaments", request_body = NewTournament,
    responses(
        (status = 201, body = TournamentAnswer),
        (status = 400, description = "A plan the site cannot run: the message says why.", body = ErrorBody)))]
pub async fn create(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(n): Body<NewTournament>,
) -> Answer<TournamentAnswer> {
    let plan = Plan {
        name: n.name,
        category: n.category,
        rules: n.rules,
        clock: n.clock,
        format: n.format,
        rounds: n.rounds,
        min_players: n.min_players,
        max_players: n.max_players,
        starts_ms: n.starts,
    };
    let table =
        state.services.tournaments.create_tournament(&user.name, plan, state.services.clock.now_ms()).await?;
    created(TournamentAnswer { tournament: TournamentView::from(&table) })
}

/// A tournament: entrants, rounds with their games, standings with tie-breaks
/// and each player's results by round (the crosstable).
#[utoipa::path(get, path = "/tournaments/{id}", tag = "tournaments", params(("id" = String, Path)),
    responses((status = 200, body = TournamentAnswer), (status = 404, body = ErrorBody)))]
pub async fn show(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Answer<TournamentAnswer> {
    let table = state.services.tournaments.tournament_table(&id).await?;
    ok(TournamentAnswer { tournament: TournamentView::from(&table) })
}

/// Sign up; a tournament that starts when full starts with the last entry.
#[utoipa::path(post, path = "/tournaments/{id}/join", tag = "tournaments", params(("id" = String, Path)),
    responses(
        (status = 201, body = TournamentAnswer),
        (status = 404, body = ErrorBody),
        (status = 409, description = "Signed up already, full, or no longer taking entries.", body = ErrorBody)))]
pub async fn join(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> Answer<TournamentAnswer> {
    let table =
        state.services.tournaments.join_tournament(&user.name, &id, state.services.clock.now_ms()).await?;
    created(TournamentAnswer { tournament: TournamentView::from(&table) })
}

/// Leave before the start; after it, withdraw: the game being played is
/// resigned, a round-robin's later games are forfeited, a Swiss pairs you no more.
#[utoipa::path(post, path = "/tournaments/{id}/withdraw", tag = "tournaments", params(("id" = String, Path)),
    responses(
        (status = 200, body = TournamentAnswer),
        (status = 404, body = ErrorBody),
        (status = 409, description = "Not in it, withdrawn already, or over.", body = ErrorBody)))]
pub async fn withdraw(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> Answer<TournamentAnswer> {
    let table = state
        .services
        .tournaments
        .withdraw_from_tournament(&user.name, &id, state.services.clock.now_ms())
        .await?;
    ok(TournamentAnswer { tournament: TournamentView::from(&table) })
}
