//! The games database, the opening explorer, imports and a player's archive.

use std::sync::Arc;

use axum::{
    Json,
    body::Body as RawBody,
    extract::{Path, State},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};

use super::{Answer, ok};
use crate::{
    api::{
        requests::{ExplorerQuery, ExportQuery, GameSearchQuery, ImportQuery, MastersQuery, PageQuery},
        views::{
            ExplorerAnswer, ExplorerMoveView, FoundGamesPage, GameSummary, ImportAnswer, ImportEvent,
            ImportProgress, ImportedGameAnswer, ImportedGameView, ImportedPage, ImportsDeleted, OpeningView,
            OpeningsAnswer, PlayerOpeningView, PlayerOpeningsAnswer,
        },
    },
    domain::{
        explorer::{ExplorerFilters, ExplorerSource, PLIES, PositionAsk},
        imports::{self, MAX_BYTES},
    },
    error::{ApiResult, ErrorBody},
    http::{
        AppState,
        auth::{MaybeUser, Params, User},
        client::ClientIp,
    },
    model::page::Page,
};

/// Search finished games: by player (either side), opponent, result, reason,
/// rule set, board, pace, rated or not, when they ended, and a position
/// reached in their first 40 plies (a FEN, or moves from the start). The most
/// recently ended first, a page at a time.
#[utoipa::path(get, path = "/database/games", tag = "database", params(GameSearchQuery),
    responses(
        (status = 200, body = FoundGamesPage),
        (status = 400, description = "A bad query string, FEN or move.", body = ErrorBody),
        (status = 422, description = "A move of `moves` is illegal.", body = ErrorBody)))]
pub async fn search(
    State(state): State<Arc<AppState>>,
    Params(q): Params<GameSearchQuery>,
) -> Answer<FoundGamesPage> {
    let (search, at, page) = q.asked();
    let found = state.services.explorer.search_games(search, &at, &page).await?;
    ok(FoundGamesPage::new(found.items.iter().map(GameSummary::from).collect(), found.next))
}

/// The opening explorer: the moves played from a position, the most played
/// first, with how their games went and the players' average rating; from the
/// site's finished games (as they finish) or my imported ones. Positions are
/// keyed by placement and side to move, so transpositions meet; only the
/// first 40 plies of each game count, and a game counts once per position.
#[utoipa::path(get, path = "/explorer", tag = "database", params(crate::model::board::BoardSpec, ExplorerQuery),
    responses(
        (status = 200, body = ExplorerAnswer),
        (status = 400, description = "A bad query string or FEN.", body = ErrorBody),
        (status = 401, description = "`source=mine` without logging in.", body = ErrorBody),
        (status = 422, description = "A move of `moves` is illegal.", body = ErrorBody)))]
pub async fn explorer(
    State(state): State<Arc<AppState>>,
    MaybeUser(user): MaybeUser,
    Params(q): Params<ExplorerQuery>,
) -> Answer<ExplorerAnswer> {
    let filters = ExplorerFilters {
        rules: q.start.rules,
        speed: q.speed,
        min_rating: q.min_rating,
        max_rating: q.max_rating,
        source: q.source.unwrap_or(ExplorerSource::Site),
    };
    let at = PositionAsk { start: q.start, moves: q.moves };
    let (board, moves) =
        state.services.explorer.explore(user.as_ref().map(|u| u.name.as_str()), &at, &filters).await?;
    ok(ExplorerAnswer {
        fen: board.fen(),
        variant: board.variant(),
        plies: PLIES as u32,
        moves: moves.iter().map(ExplorerMoveView::from).collect(),
        opening: board
            .standard_position()
            .and_then(|p| xiangqi_records::ecco::at(&p))
            .map(|o| o.code.to_string()),
    })
}

/// The ECCO classification of openings (A00-E99): each code with its names in
/// simplified and traditional Chinese, and in English and Vietnamese where a
/// published name exists. Games, imports and the explorer name openings by code.
#[utoipa::path(get, path = "/openings", tag = "database", responses((status = 200, body = OpeningsAnswer)))]
pub async fn openings() -> Answer<OpeningsAnswer> {
    ok(OpeningsAnswer {
        openings: xiangqi_records::ecco::all().iter().map(OpeningView::from).collect(),
        source: "ECCO (中国象棋开局编号), as classified by xqbase.com".to_string(),
    })
}

/// A player's finished games by opening and side, the most played first.
#[utoipa::path(get, path = "/users/{name}/openings", tag = "database", params(("name" = String, Path)),
    responses((status = 200, body = PlayerOpeningsAnswer)))]
pub async fn player_openings(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Answer<PlayerOpeningsAnswer> {
    let counts = state.services.openings.player_openings(&name).await?;
    ok(PlayerOpeningsAnswer {
        openings: counts
            .into_iter()
            .map(|c| PlayerOpeningView {
                opening: c.ecco,
                color: c.color,
                games: c.games,
                wins: c.wins,
                draws: c.draws,
            })
            .collect(),
    })
}

/// Import a file of game records (the body, as bytes, at most 2 MiB and
/// 2,000 games; a user keeps at most 20,000), its format told by its content:
/// PGN in any dialect (ICCS, WXF also in full-width forms, Chinese in either
/// script, xqbase tags, FEN set-ups, variations and comments) in UTF-8, GBK
/// or Big5, XQF of every version, DhtmlXQ, and CCBridge's CBF, CBR and CBL.
/// Every game is replayed for legality only: what the rule set would have
/// judged on the way (a repetition, a perpetual check or chase) is noted on
/// the game, not refused; a game with an illegal move keeps the moves before
/// it and is named (its place in the file, the move and why). A record
/// imported before is not kept or counted again. Files are read a few at a
/// time, each client's fewer still: while the server reads as many as it
/// can, another is refused (429, try again after `Retry-After`).
#[utoipa::path(post, path = "/imports", tag = "database", params(ImportQuery),
    request_body(content = Vec<u8>, content_type = "application/octet-stream"),
    responses(
        (status = 201, body = ImportAnswer),
        (status = 200, description = "With `progress=true`: lines of progress, then the answer or the refusal.",
            content_type = "application/x-ndjson", body = ImportEvent),
        (status = 400, description = "The file holds no game record, or names an unknown encoding.", body = ErrorBody),
        (status = 409, description = "My collection is full.", body = ErrorBody),
        (status = 413, description = "The file is too large or holds too many games.", body = ErrorBody),
        (status = 429, description = "The server, or this client's share of it, is reading other files.", body = ErrorBody)))]
pub async fn import(
    State(state): State<Arc<AppState>>,
    ClientIp(client): ClientIp,
    user: User,
    Params(q): Params<ImportQuery>,
    body: RawBody,
) -> ApiResult<Response> {
    let bytes = axum::body::to_bytes(body, MAX_BYTES).await.map_err(|_| imports::too_large())?;
    let encoding = q.encoding.map(Into::into);
    let now = state.services.clock.now_ms();
    let progress = Arc::new(imports::Progress::default());
    let services = state.services.clone();
    let watched = progress.clone();
    let import = async move {
        services.imports.import_records(&user.name, client, bytes.to_vec(), encoding, now, watched).await
    };
    if q.progress != Some(true) {
        let report = import.await?;
        return Ok((StatusCode::CREATED, Json(ImportAnswer::from(&report))).into_response());
    }
    // The import runs on its own, so that a client that goes away loses
    // nothing it sent; the answer tells how far it has come until it ends.
    let task = tokio::spawn(import);
    let line = |event: ImportEvent| {
        let mut text = serde_json::to_string(&event).unwrap_or_default();
        text.push('\n');
        Ok::<_, std::io::Error>(text)
    };
    let events = futures_util::stream::unfold(Some(task), move |task| {
        let progress = progress.clone();
        async move {
            let mut task = task?;
            tokio::select! {
                ended = &mut task => {
                    let event = match ended {
                        Ok(Ok(report)) => ImportEvent::Answer(ImportAnswer::from(&report)),
                        Ok(Err(e)) => ImportEvent::Error(crate::error::ApiError::from(e).body()),
                        Err(e) => ImportEvent::Error(
                            crate::error::ApiError::from(crate::domain::refusal::Error::broken(format!("import: {e}"))).body(),
                        ),
                    };
                    Some((line(event), None))
                }
                () = tokio::time::sleep(std::time::Duration::from_millis(250)) => {
                    let (checked, total) = progress.get();
                    Some((line(ImportEvent::Progress(ImportProgress { checked, total })), Some(task)))
                }
            }
        }
    });
    let mut response = axum::body::Body::from_stream(events).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-ndjson"));
    Ok(response)
}

/// Load a file of game records into the site's Masters collection
/// (administrators only): read and replayed as an import is, kept apart from
/// the site's own games and counted in the explorer's `masters` source; a
/// record loaded before is kept once. Larger files and many at once:
/// `xiangqi admin import-masters FILE...`.
#[utoipa::path(post, path = "/masters", tag = "database", params(ImportQuery),
    request_body(content = Vec<u8>, content_type = "application/octet-stream"),
    responses(
        (status = 201, body = ImportAnswer),
        (status = 400, description = "The file holds no game record, or names an unknown encoding.", body = ErrorBody),
        (status = 403, description = "Administrators only.", body = ErrorBody),
        (status = 413, description = "The file is too large or holds too many games.", body = ErrorBody),
        (status = 429, description = "The server, or this client's share of it, is reading other files.", body = ErrorBody)))]
pub async fn import_masters(
    State(state): State<Arc<AppState>>,
    ClientIp(client): ClientIp,
    user: User,
    Params(q): Params<ImportQuery>,
    body: RawBody,
) -> Answer<ImportAnswer> {
    let bytes = axum::body::to_bytes(body, MAX_BYTES).await.map_err(|_| imports::too_large())?;
    let encoding = q.encoding.map(Into::into);
    let now = state.services.clock.now_ms();
    let report =
        state.services.masters.import_masters(&user.name, client, bytes.to_vec(), encoding, now).await?;
    Ok((StatusCode::CREATED, Json(ImportAnswer::from(&report))))
}

/// The site's Masters collection, the most recently loaded first; a
/// player's games (either side) when one is named.
#[utoipa::path(get, path = "/masters", tag = "database", params(MastersQuery),
    responses((status = 200, body = ImportedPage), (status = 400, body = ErrorBody)))]
pub async fn masters(
    State(state): State<Arc<AppState>>,
    Params(q): Params<MastersQuery>,
) -> Answer<ImportedPage> {
    let page = Page { after: q.after, limit: q.limit };
    let found = state.services.masters.masters_games(q.player.as_deref(), &page).await?;
    ok(ImportedPage::new(found.items.iter().map(ImportedGameView::from).collect(), found.next))
}

/// A game of the Masters collection, with its whole record.
#[utoipa::path(get, path = "/masters/{id}", tag = "database", params(("id" = String, Path)),
    responses((status = 200, body = ImportedGameAnswer), (status = 404, body = ErrorBody),
        (status = 429, description = "The server, or this client's share of it, is reading other records.", body = ErrorBody)))]
pub async fn masters_game(
    State(state): State<Arc<AppState>>,
    ClientIp(client): ClientIp,
    Path(id): Path<String>,
) -> Answer<ImportedGameAnswer> {
    ok(ImportedGameAnswer::from(state.services.imports.masters_placed(client, &id).await?))
}

/// My imported games, the most recently imported first.
#[utoipa::path(get, path = "/imports", tag = "database", params(PageQuery),
    responses((status = 200, body = ImportedPage), (status = 401, body = ErrorBody)))]
pub async fn imported(
    State(state): State<Arc<AppState>>,
    user: User,
    Params(q): Params<PageQuery>,
) -> Answer<ImportedPage> {
    let page = state.services.imports.imported_games(&user.name, &Page::from(q)).await?;
    ok(ImportedPage::new(page.items.iter().map(ImportedGameView::from).collect(), page.next))
}

/// One of my imported games with its moves.
#[utoipa::path(get, path = "/imports/{id}", tag = "database", params(("id" = String, Path)),
    responses((status = 200, body = ImportedGameAnswer), (status = 404, body = ErrorBody),
        (status = 429, description = "The server, or this client's share of it, is reading other records.", body = ErrorBody)))]
pub async fn imported_game(
    State(state): State<Arc<AppState>>,
    ClientIp(client): ClientIp,
    user: User,
    Path(id): Path<String>,
) -> Answer<ImportedGameAnswer> {
    ok(ImportedGameAnswer::from(state.services.imports.imported_placed(client, &user.name, &id).await?))
}

/// Delete one of my imported games (it leaves my explorer too).
#[utoipa::path(delete, path = "/imports/{id}", tag = "database", params(("id" = String, Path)),
    responses((status = 204, description = "Deleted."), (status = 404, description = "No such game of mine.", body = ErrorBody)))]
pub async fn delete_imported(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    state.services.imports.delete_imported(&user.name, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Delete all my imported games (and what they gave my explorer).
#[utoipa::path(delete, path = "/imports", tag = "database",
    responses((status = 200, body = ImportsDeleted), (status = 401, body = ErrorBody)))]
pub async fn delete_all_imported(State(state): State<Arc<AppState>>, user: User) -> Answer<ImportsDeleted> {
    ok(ImportsDeleted { deleted: state.services.imports.delete_all_imported(&user.name).await? })
}

/// A player's finished games as one PGN file, oldest first, moves in the
/// dialect asked for (WXF unless `format` says). It is written as it is
/// read, a page of games at a time: any number of games in bounded memory,
/// at most 100,000 of them. While it is sent it holds one of the places
/// downloads share (each client a few of them): past them it is refused
/// (429, try again after `Retry-After`).
#[utoipa::path(get, path = "/users/{name}/games.pgn", tag = "database", params(("name" = String, Path), ExportQuery),
    responses(
        (status = 200, description = "The games.", content_type = "application/x-chess-pgn", body = String),
        (status = 400, description = "A bad format, or `xqf` (one game only).", body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 429, description = "This client, or the server, is sending as many downloads as it takes.", body = ErrorBody)))]
pub async fn archive(
    State(state): State<Arc<AppState>>,
    ClientIp(client): ClientIp,
    Path(name): Path<String>,
    Params(q): Params<ExportQuery>,
) -> ApiResult<Response> {
    Ok(super::exports::download(state.services.exports.archive(client, &name, q.format()).await?))
}
