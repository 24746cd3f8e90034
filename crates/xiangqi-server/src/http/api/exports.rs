//! Downloads: the games a search of the database finds, and one game's
//! record (the site's, an imported one, a Masters game), in the format asked
//! for; and the answer every download is sent as (a player's archive and a
//! study's file too): its media type, and a file name to save it under.

use std::sync::Arc;

use axum::{
    body::Body as RawBody,
    extract::{FromRequestParts, Path, Query, State},
    http::{HeaderMap, HeaderValue, StatusCode, Uri, header, request::Parts},
    response::{IntoResponse, Response},
};

use crate::{
    api::requests::{ExportQuery, GameSearchQuery},
    domain::exports::{Contents, Export},
    error::{ApiError, ApiResult, ErrorBody, Refusal},
    http::{
        AppState,
        auth::{Params, User},
        client::ClientIp,
    },
};

/// An export as an HTTP answer: the file's media type, `attachment` with its
/// name, and its bytes whole or as they are written.
pub fn download(export: Export) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(export.format.content_type()));
    // The name holds letters, digits, '-', '_' and '.' only (see `exports`).
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{}\"", export.name)) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    let body = match export.contents {
        Contents::Whole(bytes) => RawBody::from(bytes),
        Contents::Pages(text) => RawBody::from_stream(text),
    };
    (StatusCode::OK, headers, body).into_response()
}

/// A search of the games database and the format of its download, from one
/// query string: `format` is the download's, every other parameter the
/// search's, read as `GET /database/games` reads them.
pub struct SearchDownload {
    search: GameSearchQuery,
    format: ExportQuery,
}

impl<S: Send + Sync> FromRequestParts<S> for SearchDownload {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let bad = |e: axum::extract::rejection::QueryRejection| -> ApiError {
            Refusal::Malformed { detail: format!("bad query string: {}", e.body_text()) }.into()
        };
        let (format, search): (Vec<&str>, Vec<&str>) = parts
            .uri
            .query()
            .unwrap_or("")
            .split('&')
            .filter(|pair| !pair.is_empty())
            .partition(|pair| pair.split('=').next() == Some("format"));
        let uri = |pairs: Vec<&str>| -> Result<Uri, ApiError> {
            format!("/?{}", pairs.join("&")).parse().map_err(|_| {
                Refusal::Malformed { detail: "bad query string: not a URI's query".into() }.into()
            })
        };
        let Query(search) = Query::<GameSearchQuery>::try_from_uri(&uri(search)?).map_err(bad)?;
        let Query(format) = Query::<ExportQuery>::try_from_uri(&uri(format)?).map_err(bad)?;
        Ok(SearchDownload { search, format })
    }
}

/// Every finished game a search of the database finds, as one PGN file: the
/// same query as `GET /database/games` (`after` starts after that page's
/// key; `limit`, a page's size there, does not bound a download), the most
/// recently ended first, at most 100,000 games (a search that finds more is
/// cut there: narrow it, by `until` say, for the rest). The file is written
/// as it is sent, a page of games at a time, so any number of games costs
/// the server one page of memory. While it is sent the download holds one
/// of the places downloads share (each client a few of them): past them it
/// is refused (429, try again after `Retry-After`).
#[utoipa::path(get, path = "/database/games.pgn", tag = "database", params(GameSearchQuery, ExportQuery),
    responses(
        (status = 200, description = "The games.", content_type = "application/x-chess-pgn", body = String),
        (status = 400, description = "A bad query string, FEN or move, or `format=xqf` (one game only).", body = ErrorBody),
        (status = 422, description = "A move of `moves` is illegal.", body = ErrorBody),
        (status = 429, description = "This client, or the server, is sending as many downloads as it takes.", body = ErrorBody)))]
pub async fn search_games(
    State(state): State<Arc<AppState>>,
    ClientIp(client): ClientIp,
    q: SearchDownload,
) -> ApiResult<Response> {
    let format = q.format.format();
    let (search, at, page) = q.search.asked();
    let export = state.services.exports.export_search(client, search, &at, page.after, format).await?;
    Ok(download(export))
}

/// A game's record as a file: PGN with its date and time control, moves in
/// the dialect asked for (cell names on the hex board), or XQF (the standard
/// board only).
#[utoipa::path(get, path = "/games/{id}/record", tag = "games", params(("id" = String, Path), ExportQuery),
    responses(
        (status = 200, description = "The record.", content(
            (String = "application/x-chess-pgn"), (Vec<u8> = "application/octet-stream"))),
        (status = 400, description = "A bad format, or XQF of a game on the hex board.", body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn game_record(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Params(q): Params<ExportQuery>,
) -> ApiResult<Response> {
    Ok(download(state.services.exports.game_record(&id, q.format()).await?))
}

/// One of my imported games as a file, with its whole tree (variations and
/// comments): PGN in the dialect asked for, or XQF.
#[utoipa::path(get, path = "/imports/{id}/record", tag = "database", params(("id" = String, Path), ExportQuery),
    responses(
        (status = 200, description = "The record.", content(
            (String = "application/x-chess-pgn"), (Vec<u8> = "application/octet-stream"))),
        (status = 400, description = "A bad format.", body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 404, description = "No such game of mine.", body = ErrorBody),
        (status = 429, description = "The server, or this client's share of it, is reading other records.", body = ErrorBody)))]
pub async fn imported_record(
    State(state): State<Arc<AppState>>,
    ClientIp(client): ClientIp,
    user: User,
    Path(id): Path<String>,
    Params(q): Params<ExportQuery>,
) -> ApiResult<Response> {
    Ok(download(state.services.exports.imported_record(client, &user.name, &id, q.format()).await?))
}

/// A game of the Masters collection as a file, with its whole tree
/// (variations and comments): PGN in the dialect asked for, or XQF.
#[utoipa::path(get, path = "/masters/{id}/record", tag = "database", params(("id" = String, Path), ExportQuery),
    responses(
        (status = 200, description = "The record.", content(
            (String = "application/x-chess-pgn"), (Vec<u8> = "application/octet-stream"))),
        (status = 400, description = "A bad format.", body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 429, description = "The server, or this client's share of it, is reading other records.", body = ErrorBody)))]
pub async fn masters_record(
    State(state): State<Arc<AppState>>,
    ClientIp(client): ClientIp,
    Path(id): Path<String>,
    Params(q): Params<ExportQuery>,
) -> ApiResult<Response> {
    Ok(download(state.services.exports.masters_record(client, &id, q.format()).await?))
}
