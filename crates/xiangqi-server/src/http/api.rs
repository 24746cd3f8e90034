//! The JSON API handlers (`docs/API.md`): parse, call a service, render.

use std::sync::Arc;

use axum::{
    Json,
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use serde_json::{Value, json};
use xiangqi::RuleSet;

use super::{
    AppState,
    auth::{Body, COOKIE, User},
};
use crate::{
    domain::{
        accounts::{
            FAILURE_WINDOW_MS, MAX_FAILURES, SESSION_MS, check_name, check_password, hash_password,
            new_token, token_hash, verify_password,
        },
        clock::ClockSpec,
        lobby::{Terms, challenge_json},
        now_ms,
    },
    error::{ApiError, ApiResult},
    store::UserRow,
};

type Answer = ApiResult<Response>;

fn answer(status: StatusCode, body: Value) -> Answer {
    Ok((status, Json(body)).into_response())
}

async fn user_json(state: &AppState, u: &UserRow) -> ApiResult<Value> {
    let (wins, losses, draws) = state.services.store.record(&u.name).await?;
    Ok(json!({
        "name": u.name, "bio": u.bio, "joined": u.created_ms, "rating": u.rating,
        "record": {"wins": wins, "losses": losses, "draws": draws},
    }))
}

fn session_cookie(token: &str, max_age_s: i64) -> HeaderValue {
    let v = format!("{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_s}");
    HeaderValue::from_str(&v).unwrap_or_else(|_| HeaderValue::from_static(""))
}

async fn start_session(state: &AppState, user: &UserRow, status: StatusCode) -> Answer {
    let token = new_token();
    let now = now_ms();
    state.services.store.create_session(&token_hash(&token), &user.name, now, now + SESSION_MS).await?;
    let body = json!({ "user": user_json(state, user).await?, "token": token });
    let mut response = (status, Json(body)).into_response();
    response.headers_mut().insert(header::SET_COOKIE, session_cookie(&token, SESSION_MS / 1000));
    Ok(response)
}

#[derive(Deserialize)]
pub struct Credentials {
    name: String,
    password: String,
}

pub async fn register(State(state): State<Arc<AppState>>, Body(c): Body<Credentials>) -> Answer {
    check_name(&c.name)?;
    check_password(&c.password)?;
    let hash = hash_password(&c.password)?;
    if !state.services.store.create_user(&c.name, &hash, now_ms()).await? {
        return Err(ApiError::conflict(format!("the user id {:?} is taken", c.name)));
    }
    let user =
        state.services.store.user(&c.name).await?.ok_or_else(|| ApiError::internal("new user vanished"))?;
    start_session(&state, &user, StatusCode::CREATED).await
}

pub async fn login(State(state): State<Arc<AppState>>, Body(c): Body<Credentials>) -> Answer {
    let store = &state.services.store;
    let key = c.name.to_lowercase();
    let now = now_ms();
    if store.login_failures(&key, now - FAILURE_WINDOW_MS).await? >= MAX_FAILURES {
        return Err(ApiError::too_many_requests(
            "too many failed log-ins for this user id; wait a few minutes",
        ));
    }
    let user = store.user(&c.name).await?;
    match user {
        Some(u) if verify_password(&c.password, &u.password_hash) => {
            store.clear_login_failures(&key).await?;
            start_session(&state, &u, StatusCode::OK).await
        }
        _ => {
            store.add_login_failure(&key, now).await?;
            Err(ApiError::unauthorized("wrong user id or password"))
        }
    }
}

pub async fn whoami(State(state): State<Arc<AppState>>, user: User) -> Answer {
    let u =
        state.services.store.user(&user.name).await?.ok_or_else(|| ApiError::unauthorized("no such user"))?;
    answer(StatusCode::OK, json!({ "user": user_json(&state, &u).await? }))
}

pub async fn logout(State(state): State<Arc<AppState>>, user: User) -> Answer {
    state.services.store.delete_session(&user.token_hash).await?;
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().insert(header::SET_COOKIE, session_cookie("", 0));
    Ok(response)
}

#[derive(Deserialize)]
pub struct PasswordChange {
    old: String,
    new: String,
}

pub async fn change_password(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(p): Body<PasswordChange>,
) -> Answer {
    let store = &state.services.store;
    let u = store.user(&user.name).await?.ok_or_else(|| ApiError::unauthorized("no such user"))?;
    if !verify_password(&p.old, &u.password_hash) {
        return Err(ApiError::unauthorized("the old password is wrong"));
    }
    check_password(&p.new)?;
    store.set_password(&u.name, &hash_password(&p.new)?).await?;
    store.delete_other_sessions(&u.name, &user.token_hash).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Deserialize)]
pub struct Profile {
    bio: String,
}

pub async fn set_profile(State(state): State<Arc<AppState>>, user: User, Body(p): Body<Profile>) -> Answer {
    if p.bio.chars().count() > 500 {
        return Err(ApiError::bad_request("the bio is at most 500 characters"));
    }
    state.services.store.set_bio(&user.name, &p.bio).await?;
    whoami(State(state), user).await
}

pub async fn profile(State(state): State<Arc<AppState>>, Path(name): Path<String>) -> Answer {
    let u = state
        .services
        .store
        .user(&name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no user {name:?}")))?;
    answer(StatusCode::OK, json!({ "user": user_json(&state, &u).await? }))
}

pub async fn users(State(state): State<Arc<AppState>>) -> Answer {
    let all = state.services.store.users().await?;
    let online_since = now_ms() - 5 * 60 * 1000;
    let online: Vec<&str> =
        all.iter().filter(|u| u.seen_ms > online_since).map(|u| u.name.as_str()).collect();
    let users: Vec<Value> = all
        .iter()
        .map(|u| json!({"name": u.name, "rating": u.rating, "joined": u.created_ms, "bio": u.bio}))
        .collect();
    answer(StatusCode::OK, json!({ "users": users, "online": online }))
}

#[derive(Deserialize)]
pub struct NewChallenge {
    opponent: Option<String>,
    rules: String,
    color: String,
    clock: ClockSpec,
}

fn rules(name: &str) -> ApiResult<RuleSet> {
    name.parse().map_err(ApiError::bad_request)
}

pub async fn create_challenge(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(c): Body<NewChallenge>,
) -> Answer {
    let terms = Terms {
        opponent: c.opponent.filter(|o| !o.is_empty()),
        rules: rules(&c.rules)?,
        color: c.color,
        clock: c.clock,
    };
    let row = state.services.create_challenge(&user.name, terms, false).await?;
    answer(StatusCode::CREATED, json!({ "challenge": challenge_json(&row) }))
}

pub async fn challenges(State(state): State<Arc<AppState>>, user: User) -> Answer {
    let all = state.services.store.open_challenges().await?;
    let me = user.name.as_str();
    let pick = |f: &dyn Fn(&crate::store::ChallengeRow) -> bool| -> Vec<Value> {
        all.iter().filter(|c| f(c)).map(challenge_json).collect()
    };
    answer(
        StatusCode::OK,
        json!({
            "open": pick(&|c| c.opponent.is_none() && c.creator != me),
            "incoming": pick(&|c| c.opponent.as_deref() == Some(me)),
            "outgoing": pick(&|c| c.creator == me),
        }),
    )
}

pub async fn accept_challenge(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> Answer {
    let game = state.services.accept_challenge(&user.name, &id).await?;
    answer(StatusCode::CREATED, json!({ "game": game.to_json(true) }))
}

pub async fn close_challenge(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> Answer {
    state.services.close_challenge(&user.name, &id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Deserialize)]
pub struct AutoMatch {
    rules: String,
    clock: ClockSpec,
}

pub async fn automatch(State(state): State<Arc<AppState>>, user: User, Body(a): Body<AutoMatch>) -> Answer {
    match state.services.automatch(&user.name, rules(&a.rules)?, a.clock).await? {
        Ok(game) => answer(StatusCode::CREATED, json!({ "game": game.to_json(true) })),
        Err(waiting) => answer(StatusCode::ACCEPTED, json!({ "challenge": challenge_json(&waiting) })),
    }
}

pub async fn my_games(State(state): State<Arc<AppState>>, user: User) -> Answer {
    let (mut mine, mut theirs, mut finished) = (Vec::new(), Vec::new(), Vec::new());
    for row in state.services.store.games_of(&user.name).await? {
        let loaded = state.services.load_game(&row.id).await?;
        let summary = loaded.to_json(false);
        if row.status != "active" {
            finished.push(summary);
        } else if loaded.player(loaded.turn()) == user.name {
            mine.push(summary);
        } else {
            theirs.push(summary);
        }
    }
    answer(StatusCode::OK, json!({ "my_turn": mine, "their_turn": theirs, "finished": finished }))
}

pub async fn game(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Answer {
    let loaded = state.services.load_game(&id).await?;
    answer(StatusCode::OK, json!({ "game": loaded.to_json(true) }))
}

#[derive(Deserialize)]
pub struct Submit {
    ply: i64,
    #[serde(rename = "move")]
    text: String,
}

pub async fn submit(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
    Body(s): Body<Submit>,
) -> Answer {
    let loaded = state.services.submit_move(&user.name, &id, s.ply, &s.text).await?;
    answer(StatusCode::OK, json!({ "game": loaded.to_json(true) }))
}

pub async fn resign(State(state): State<Arc<AppState>>, user: User, Path(id): Path<String>) -> Answer {
    let loaded = state.services.resign(&user.name, &id).await?;
    answer(StatusCode::OK, json!({ "game": loaded.to_json(true) }))
}

#[derive(Deserialize)]
pub struct DrawAction {
    action: String,
}

pub async fn draw(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
    Body(d): Body<DrawAction>,
) -> Answer {
    let loaded = state.services.draw(&user.name, &id, &d.action).await?;
    answer(StatusCode::OK, json!({ "game": loaded.to_json(true) }))
}

pub async fn claim(State(state): State<Arc<AppState>>, user: User, Path(id): Path<String>) -> Answer {
    let loaded = state.services.claim(&user.name, &id).await?;
    answer(StatusCode::OK, json!({ "game": loaded.to_json(true) }))
}

pub async fn pgn(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Answer {
    let loaded = state.services.load_game(&id).await?;
    let mut headers = HeaderMap::new();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"));
    let disposition = format!("attachment; filename=\"xiangqi-{id}.pgn\"");
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok((StatusCode::OK, headers, loaded.pgn()).into_response())
}

pub async fn not_found() -> ApiError {
    ApiError::not_found("no such API endpoint")
}
