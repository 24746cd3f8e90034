//! Accounts and sessions; profiles; who is here.

use std::sync::Arc;

use axum::{
    Json,
    extract::{Path, State},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};

use super::{Answer, ok};
use crate::model::accounts::ProfileFields;
use crate::model::page::Page;
use crate::{
    api::{
        requests::{Credentials, PageQuery, PasswordChange, ProfileEdit},
        views::{
            GameSummary, ProfileAnswer, RatingView, RuleSetRecordView, SeenLately, SessionAnswer, UserAnswer,
            UserView, UsersPage,
        },
    },
    domain::{
        accounts::{NewSession, SESSION_MS},
        people::People,
    },
    error::{ApiResult, ErrorBody},
    http::{
        AppState,
        auth::{Body, COOKIE, MaybeUser, Params, User},
        client::ClientIp,
    },
};

/// The session cookie; `Secure` (sent over HTTPS only) behind a TLS proxy.
fn session_cookie(token: &str, max_age_s: i64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let v = format!("{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_s}{secure}");
    HeaderValue::from_str(&v).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The answer that opens a session: the token in the body and in the cookie.
fn session_answer(s: NewSession, status: StatusCode, secure: bool) -> Response {
    let body = SessionAnswer { user: UserView::from(&s.user), token: s.token.clone() };
    let mut response = (status, Json(body)).into_response();
    response.headers_mut().insert(header::SET_COOKIE, session_cookie(&s.token, SESSION_MS / 1000, secure));
    response
}

/// Create a user id; the answer logs it in.
#[utoipa::path(post, path = "/users", tag = "accounts", request_body = Credentials,
    responses(
        (status = 201, description = "Registered and logged in; sets the session cookie.", body = SessionAnswer),
        (status = 400, description = "A name or password that breaks the rules.", body = ErrorBody),
        (status = 409, description = "The name is taken (ignoring case).", body = ErrorBody),
        (status = 429, description = "Too many new accounts from this network address in the last hour (behind \
            a proxy, the address the proxy reports); `retry_after` says when to try again.", body = ErrorBody)))]
pub async fn register(
    State(state): State<Arc<AppState>>,
    ClientIp(client): ClientIp,
    Body(c): Body<Credentials>,
) -> ApiResult<Response> {
    let address = client.to_string();
    let session = state
        .services
        .accounts
        .register(&c.name, &c.password, c.invite.as_deref(), &address, state.services.clock.now_ms())
        .await?;
    Ok(session_answer(session, StatusCode::CREATED, state.behind_proxy))
}

/// Log in.
#[utoipa::path(post, path = "/session", tag = "accounts", request_body = Credentials,
    responses(
        (status = 200, description = "Logged in; sets the session cookie.", body = SessionAnswer),
        (status = 401, description = "Wrong user id or password.", body = ErrorBody),
        (status = 429, description = "After 5 failures for a name from one network address within 15 minutes, \
            each further try from there waits 1 s after the latest failure, doubling up to 60 s (other addresses \
            are not affected); and one address fails at most 50 times in 15 minutes over every name. \
            `retry_after` says when to try again.", body = ErrorBody)))]
pub async fn login(
    State(state): State<Arc<AppState>>,
    ClientIp(client): ClientIp,
    Body(c): Body<Credentials>,
) -> ApiResult<Response> {
    let session = state
        .services
        .accounts
        .login(&c.name, &c.password, &client.to_string(), state.services.clock.now_ms())
        .await?;
    Ok(session_answer(session, StatusCode::OK, state.behind_proxy))
}

/// Who is logged in.
#[utoipa::path(get, path = "/session", tag = "accounts",
    responses((status = 200, body = UserAnswer), (status = 401, description = "Not logged in.", body = ErrorBody)))]
pub async fn whoami(State(state): State<Arc<AppState>>, user: User) -> Answer<UserAnswer> {
    let u = state.services.accounts.user(&user.name).await?;
    ok(UserAnswer { user: UserView::from(&u) })
}

/// Log out: the session ends and the cookie is cleared.
#[utoipa::path(delete, path = "/session", tag = "accounts", responses((status = 204, description = "Logged out.")))]
pub async fn logout(State(state): State<Arc<AppState>>, user: User) -> ApiResult<Response> {
    state.services.accounts.delete_session(&user.token_hash).await?;
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().insert(header::SET_COOKIE, session_cookie("", 0, state.behind_proxy));
    Ok(response)
}

/// Change the password; every other session of the user ends.
#[utoipa::path(post, path = "/me/password", tag = "accounts", request_body = PasswordChange,
    responses(
        (status = 204, description = "Changed."),
        (status = 400, description = "The new password breaks the rules.", body = ErrorBody),
        (status = 401, description = "`old` is wrong.", body = ErrorBody)))]
pub async fn change_password(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(p): Body<PasswordChange>,
) -> ApiResult<StatusCode> {
    state.services.accounts.change_password(&user.name, &user.token_hash, &p.old, &p.new).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Edit one's profile: bio, location, languages, preferred rule set and time control.
#[utoipa::path(put, path = "/me/profile", tag = "accounts", request_body = ProfileEdit,
    responses((status = 200, body = UserAnswer), (status = 400, description = "A field out of bounds.", body = ErrorBody)))]
pub async fn set_profile(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(p): Body<ProfileEdit>,
) -> Answer<UserAnswer> {
    let u = state.services.people.set_profile(&user.name, &ProfileFields::from(p)).await?;
    ok(UserAnswer { user: UserView::from(&u) })
}

/// A player's profile page: the user, results per rule set, latest games, buddies.
#[utoipa::path(get, path = "/users/{name}", tag = "accounts", params(("name" = String, Path, description = "User id, any case")),
    responses((status = 200, body = ProfileAnswer), (status = 404, description = "No such user.", body = ErrorBody)))]
pub async fn profile(
    State(state): State<Arc<AppState>>,
    me: MaybeUser,
    Path(name): Path<String>,
) -> Answer<ProfileAnswer> {
    let p = state.services.people.profile(me.0.as_ref().map(|u| u.name.as_str()), &name).await?;
    ok(ProfileAnswer {
        records: p.records.iter().map(RuleSetRecordView::from).collect(),
        recent: p.recent.iter().map(GameSummary::from).collect(),
        buddies: p.buddies,
        ratings: p.ratings.iter().map(RatingView::from).collect(),
        online: People::is_here(&p.user, state.services.clock.now_ms()),
        relation: p.relation,
        user: UserView::from(&p.user),
    })
}

/// Players by name, a page at a time, and which of them are here now.
#[utoipa::path(get, path = "/users", tag = "accounts", params(PageQuery),
    responses((status = 200, body = UsersPage), (status = 400, description = "A bad query string.", body = ErrorBody)))]
pub async fn users(State(state): State<Arc<AppState>>, Params(q): Params<PageQuery>) -> Answer<UsersPage> {
    let services = &state.services;
    let page = services.people.users(&Page::from(q)).await?;
    let now = state.services.clock.now_ms();
    let online = page.items.iter().filter(|u| People::is_here(u, now)).map(|u| u.name.clone()).collect();
    ok(UsersPage::with(page.items.iter().map(UserView::from).collect(), page.next, SeenLately { online }))
}
