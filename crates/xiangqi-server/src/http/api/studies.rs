//! Studies: lists, creating one, reading one, its edits and its PGN.

use std::sync::Arc;

use axum::{
    extract::{Path, State},
    http::StatusCode,
    response::Response,
};

use super::{Answer, created, ok};
use crate::model::page::Page;
use crate::model::studies::StudyShelf;
use crate::{
    api::{
        requests::{
            ChapterPlace, ChapterRename, ExportQuery, NewChapter, NewStudy, NodeAnnotation, StudiesQuery,
            StudyImportQuery, StudyInvite, StudyMove, StudySettings, StudyShelfName, StudyVersion,
        },
        views::{StudiesPage, StudyAnswer, StudySummary, StudyView},
    },
    domain::studies::{self, Edit},
    error::{ApiResult, ErrorBody, Refusal},
    http::{
        AppState,
        auth::{Body, MaybeUser, Params, User},
        client::ClientIp,
    },
    model::studies::Visibility,
};

/// Public studies, or mine and those I am a member of; newest first.
#[utoipa::path(get, path = "/studies", tag = "studies", params(StudiesQuery),
    responses((status = 200, body = StudiesPage), (status = 401, body = ErrorBody)))]
pub async fn list(
    State(state): State<Arc<AppState>>,
    user: MaybeUser,
    Params(q): Params<StudiesQuery>,
) -> Answer<StudiesPage> {
    let name = user.0.map(|u| u.name);
    let shelf = match (q.shelf.unwrap_or_default(), name.as_deref()) {
        (StudyShelfName::Public, _) => StudyShelf::Public,
        (StudyShelfName::Mine, Some(name)) => StudyShelf::Of(name),
        (StudyShelfName::Mine, None) => return Err(Refusal::LogInFirst {}.into()),
    };
    let page = Page { after: q.after, limit: q.limit };
    let found = state.services.studies.studies(shelf, &page).await?;
    ok(StudiesPage::new(found.items.iter().map(StudySummary::from).collect(), found.next))
}

/// Start a study: one chapter from the start of the standard board.
#[utoipa::path(post, path = "/studies", tag = "studies", request_body = NewStudy,
    responses((status = 201, body = StudyAnswer), (status = 400, body = ErrorBody),
        (status = 409, description = "You own as many studies as one may.", body = ErrorBody)))]
pub async fn create(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(n): Body<NewStudy>,
) -> Answer<StudyAnswer> {
    let visibility = n.visibility.unwrap_or(Visibility::Private);
    let study = state
        .services
        .studies
        .create_study(&user.name, &n.title, visibility, state.services.clock.now_ms())
        .await?;
    created(StudyAnswer { study: StudyView::from(&study) })
}

/// A new private study from a file of game records (the body, as bytes, at
/// most 2 MiB; any format the importer reads): a chapter per game, each with
/// its whole tree of variations and comments, at most 32 chapters and 1,000
/// positions a chapter. A record is history: its moves need only be legal
/// on the board.
#[utoipa::path(post, path = "/studies/import", tag = "studies", params(StudyImportQuery),
    request_body(content = Vec<u8>, content_type = "application/octet-stream"),
    responses(
        (status = 201, body = StudyAnswer),
        (status = 400, description = "No record, a record that cannot be read, or more games than chapters.", body = ErrorBody),
        (status = 409, description = "I own as many studies as I may.", body = ErrorBody),
        (status = 413, description = "The file or a record is over a limit.", body = ErrorBody),
        (status = 429, description = "The server, or this client's share of it, is reading other files.", body = ErrorBody)))]
pub async fn import(
    State(state): State<Arc<AppState>>,
    ClientIp(client): ClientIp,
    user: User,
    Params(q): Params<StudyImportQuery>,
    body: axum::body::Body,
) -> Answer<StudyAnswer> {
    let bytes = axum::body::to_bytes(body, crate::domain::imports::MAX_BYTES)
        .await
        .map_err(|_| crate::domain::imports::too_large())?;
    let encoding = q.encoding.map(Into::into);
    let now = state.services.clock.now_ms();
    let study = state
        .services
        .studies
        .import_study(&user.name, client, &q.title, bytes.to_vec(), encoding, now)
        .await?;
    created(StudyAnswer { study: StudyView::from(&study) })
}

/// A study: members, chapters and their trees of moves. A private study is
/// shown to its owner and members only (404 to others).
#[utoipa::path(get, path = "/studies/{id}", tag = "studies", params(("id" = String, Path)),
    responses((status = 200, body = StudyAnswer), (status = 404, body = ErrorBody)))]
pub async fn show(
    State(state): State<Arc<AppState>>,
    user: MaybeUser,
    Path(id): Path<String>,
) -> Answer<StudyAnswer> {
    let study = state.services.studies.study(user.0.as_ref().map(|u| u.name.as_str()), &id).await?;
    ok(StudyAnswer { study: StudyView::from(&study) })
}

/// Delete a study (its owner).
#[utoipa::path(delete, path = "/studies/{id}", tag = "studies", params(("id" = String, Path), StudyVersion),
    responses((status = 204, description = "Deleted."), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn delete(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
    Params(v): Params<StudyVersion>,
) -> ApiResult<StatusCode> {
    state.services.studies.delete_study(&user.name, &id, v.version).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A node's id from the path.
fn node_id(text: &str) -> Result<u32, Refusal> {
    text.parse().map_err(|_| Refusal::Malformed { detail: format!("{text:?} is no node id (a number)") })
}

/// One edit of a study, made on `version`; the study after it, which everyone
/// watching the study also gets on the WebSocket.
async fn edit(state: &AppState, user: &User, id: &str, version: i64, edit: Edit) -> Answer<StudyAnswer> {
    let study = state
        .services
        .studies
        .edit_study(&user.name, id, version, edit, state.services.clock.now_ms())
        .await?;
    ok(StudyAnswer { study: StudyView::from(&study) })
}

/// The owner renames the study or makes it public or private.
#[utoipa::path(post, path = "/studies/{id}/settings", tag = "studies", params(("id" = String, Path)),
    request_body = StudySettings,
    responses((status = 200, body = StudyAnswer), (status = 403, body = ErrorBody),
        (status = 409, description = "The study changed since `version`.", body = ErrorBody)))]
pub async fn settings(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
    Body(b): Body<StudySettings>,
) -> Answer<StudyAnswer> {
    edit(&state, &user, &id, b.version, Edit::Settings { title: b.title, visibility: b.visibility }).await
}

/// The owner invites a member to view or edit (someone who ignores the owner
/// cannot be invited), or changes a member's role.
#[utoipa::path(post, path = "/studies/{id}/members", tag = "studies", params(("id" = String, Path)),
    request_body = StudyInvite,
    responses((status = 200, body = StudyAnswer), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn invite(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
    Body(b): Body<StudyInvite>,
) -> Answer<StudyAnswer> {
    edit(&state, &user, &id, b.version, Edit::Invite { name: b.name, role: b.role }).await
}

/// The owner removes a member; a member may remove themself.
#[utoipa::path(delete, path = "/studies/{id}/members/{name}", tag = "studies",
    params(("id" = String, Path), ("name" = String, Path), StudyVersion),
    responses((status = 200, body = StudyAnswer), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn remove(
    State(state): State<Arc<AppState>>,
    user: User,
    Path((id, name)): Path<(String, String)>,
    Params(v): Params<StudyVersion>,
) -> Answer<StudyAnswer> {
    edit(&state, &user, &id, v.version, Edit::Remove { name }).await
}

/// A new chapter (editors): from a board's start, a position, or a game record
/// (read within the record limits; a record is read in the parsing pool, a few
/// at a time and each client's fewer still).
#[utoipa::path(post, path = "/studies/{id}/chapters", tag = "studies", params(("id" = String, Path)),
    request_body = NewChapter,
    responses((status = 200, body = StudyAnswer), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 413, description = "The record is over a record limit.", body = ErrorBody),
        (status = 429, description = "The server, or this client's share of it, is reading other records.", body = ErrorBody)))]
pub async fn add_chapter(
    State(state): State<Arc<AppState>>,
    ClientIp(client): ClientIp,
    user: User,
    Path(id): Path<String>,
    Body(b): Body<NewChapter>,
) -> Answer<StudyAnswer> {
    let n = studies::NewChapter { title: b.title, board: b.start, pgn: b.pgn };
    edit(&state, &user, &id, b.version, Edit::AddChapter(n, client)).await
}

/// Rename a chapter (editors).
#[utoipa::path(post, path = "/studies/{id}/chapters/{chapter}", tag = "studies",
    params(("id" = String, Path), ("chapter" = String, Path)), request_body = ChapterRename,
    responses((status = 200, body = StudyAnswer), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn rename_chapter(
    State(state): State<Arc<AppState>>,
    user: User,
    Path((id, chapter)): Path<(String, String)>,
    Body(b): Body<ChapterRename>,
) -> Answer<StudyAnswer> {
    edit(&state, &user, &id, b.version, Edit::RenameChapter { chapter, title: b.title }).await
}

/// Delete a chapter (editors); a study keeps at least one.
#[utoipa::path(delete, path = "/studies/{id}/chapters/{chapter}", tag = "studies",
    params(("id" = String, Path), ("chapter" = String, Path), StudyVersion),
    responses((status = 200, body = StudyAnswer), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn delete_chapter(
    State(state): State<Arc<AppState>>,
    user: User,
    Path((id, chapter)): Path<(String, String)>,
    Params(v): Params<StudyVersion>,
) -> Answer<StudyAnswer> {
    edit(&state, &user, &id, v.version, Edit::DeleteChapter { chapter }).await
}

/// Move a chapter to another place in the list (editors).
#[utoipa::path(post, path = "/studies/{id}/chapters/{chapter}/place", tag = "studies",
    params(("id" = String, Path), ("chapter" = String, Path)), request_body = ChapterPlace,
    responses((status = 200, body = StudyAnswer), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn place_chapter(
    State(state): State<Arc<AppState>>,
    user: User,
    Path((id, chapter)): Path<(String, String)>,
    Body(b): Body<ChapterPlace>,
) -> Answer<StudyAnswer> {
    edit(&state, &user, &id, b.version, Edit::PlaceChapter { chapter, place: b.place }).await
}

/// Make the line to a node the chapter's main line (editors): each move on
/// the way becomes the first from the position before it.
#[utoipa::path(post, path = "/studies/{id}/chapters/{chapter}/nodes/{node}/main", tag = "studies",
    params(("id" = String, Path), ("chapter" = String, Path), ("node" = u32, Path)), request_body = StudyVersion,
    responses((status = 200, body = StudyAnswer), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn main_line(
    State(state): State<Arc<AppState>>,
    user: User,
    Path((id, chapter, node)): Path<(String, String, String)>,
    Body(b): Body<StudyVersion>,
) -> Answer<StudyAnswer> {
    let node = node_id(&node)?;
    edit(&state, &user, &id, b.version, Edit::MainLine { chapter, node }).await
}

/// Add a move after a node (editors): checked by the rules of the chapter.
#[utoipa::path(post, path = "/studies/{id}/chapters/{chapter}/moves", tag = "studies",
    params(("id" = String, Path), ("chapter" = String, Path)), request_body = StudyMove,
    responses((status = 200, body = StudyAnswer), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, description = "The move is not legal there.", body = ErrorBody)))]
pub async fn add_move(
    State(state): State<Arc<AppState>>,
    user: User,
    Path((id, chapter)): Path<(String, String)>,
    Body(b): Body<StudyMove>,
) -> Answer<StudyAnswer> {
    edit(&state, &user, &id, b.version, Edit::Move { chapter, node: b.node, text: b.text }).await
}

/// A node's comment, arrows or marked points (editors).
#[utoipa::path(post, path = "/studies/{id}/chapters/{chapter}/nodes/{node}", tag = "studies",
    params(("id" = String, Path), ("chapter" = String, Path), ("node" = u32, Path)), request_body = NodeAnnotation,
    responses((status = 200, body = StudyAnswer), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn annotate(
    State(state): State<Arc<AppState>>,
    user: User,
    Path((id, chapter, node)): Path<(String, String, String)>,
    Body(b): Body<NodeAnnotation>,
) -> Answer<StudyAnswer> {
    let node = node_id(&node)?;
    let e = Edit::Annotate { chapter, node, comment: b.comment, arrows: b.arrows, marks: b.marks };
    edit(&state, &user, &id, b.version, e).await
}

/// Delete a node and everything after it (editors); not the chapter's start.
#[utoipa::path(delete, path = "/studies/{id}/chapters/{chapter}/nodes/{node}", tag = "studies",
    params(("id" = String, Path), ("chapter" = String, Path), ("node" = u32, Path), StudyVersion),
    responses((status = 200, body = StudyAnswer), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn delete_node(
    State(state): State<Arc<AppState>>,
    user: User,
    Path((id, chapter, node)): Path<(String, String, String)>,
    Params(v): Params<StudyVersion>,
) -> Answer<StudyAnswer> {
    let node = node_id(&node)?;
    edit(&state, &user, &id, v.version, Edit::DeleteNode { chapter, node }).await
}

/// Every chapter as a PGN game with its comments (arrows and marks as
/// `[%cal]` and `[%csl]`) and variations, moves in the dialect asked for
/// (WXF unless `format` says; cell names on the hex board).
#[utoipa::path(get, path = "/studies/{id}/pgn", tag = "studies", params(("id" = String, Path), ExportQuery),
    responses(
        (status = 200, description = "The chapters.", content_type = "application/x-chess-pgn", body = String),
        (status = 400, description = "A bad format, or `xqf` (one game only).", body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn pgn(
    State(state): State<Arc<AppState>>,
    user: MaybeUser,
    Path(id): Path<String>,
    Params(q): Params<ExportQuery>,
) -> ApiResult<Response> {
    let viewer = user.0.as_ref().map(|u| u.name.as_str());
    Ok(super::exports::download(state.services.exports.study_export(viewer, &id, q.format()).await?))
}
