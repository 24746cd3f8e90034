//! The computer as an opponent: its levels, and games against it.

use std::sync::Arc;

use axum::extract::State;
use xiangqi_engine::Level;

use super::{Answer, created, ok};
use crate::{
    api::{
        requests::NewComputerGame,
        views::{ComputerLevel, ComputerLevels, GameAnswer},
    },
    domain::{
        board::variant_of,
        computer::{MAX_GAMES, name_of},
    },
    error::ErrorBody,
    http::{
        AppState,
        auth::{Body, User},
    },
};

/// The computer's levels, with the strength each was measured at.
#[utoipa::path(get, path = "/computer/levels", tag = "games", responses((status = 200, body = ComputerLevels)))]
pub async fn levels() -> Answer<ComputerLevels> {
    let levels =
        Level::all().map(|l| ComputerLevel { level: l.number(), player: name_of(l), elo: l.elo() }).collect();
    ok(ComputerLevels { levels, max_games: MAX_GAMES })
}

/// Starts a game against the computer; it moves at once when it plays Red.
#[utoipa::path(post, path = "/computer-games", tag = "games", request_body = NewComputerGame,
    responses(
        (status = 201, body = GameAnswer),
        (status = 400, description = "A level other than 1 to 8, rules that do not fit the board, a clock out of range, a start position that is not legal or already over.",
            body = ErrorBody),
        (status = 429, description = "Already playing the most games against the computer at once.", body = ErrorBody)))]
pub async fn start(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(g): Body<NewComputerGame>,
) -> Answer<GameAnswer> {
    let terms = (g.variant.unwrap_or(variant_of(g.rules)), g.rules);
    let loaded = state
        .services
        .computer
        .play_computer(
            &user.name,
            g.level,
            terms,
            g.fen.as_deref(),
            g.color,
            g.clock,
            state.services.clock.now_ms(),
        )
        .await?;
    created(GameAnswer { game: state.hub.views.of(&loaded) })
}
