//! API errors: a status, a stable code and words for people. A refused request
//! changes nothing.

use axum::{
    Json,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;
use utoipa::ToSchema;

crate::domain::model::named_enum! {
    /// What kind of refusal an error is; `message` says it in words.
    "an error code" ErrorCode {
        BadRequest = "bad_request",
        Unauthorized = "unauthorized",
        Forbidden = "forbidden",
        NotFound = "not_found",
        Conflict = "conflict",
        IllegalMove = "illegal_move",
        TooManyRequests = "too_many_requests",
        PayloadTooLarge = "payload_too_large",
        Internal = "internal",
        Unavailable = "unavailable",
    }
}

crate::domain::model::named_enum! {
    /// Why a request was refused, for a program or a translation: stable, with
    /// its particulars in `params`. `other` is a refusal that has no reason of
    /// its own yet: its `error` code says the kind, its `message` the rest.
    "a reason of refusal" RefusalReason {
        /// The user id `name` is taken (ignoring case).
        NameTaken = "name_taken",
        /// A password must be `min` to `max` characters.
        PasswordLength = "password_length",
        /// The old password given to change it is wrong.
        OldPasswordWrong = "old_password_wrong",
        /// The user id or password given to log in is wrong.
        WrongCredentials = "wrong_credentials",
        /// There is no user `name`.
        NoUser = "no_user",
        /// It is the other side's turn.
        NotYourTurn = "not_your_turn",
        /// The game is over.
        GameOver = "game_over",
        /// The requester does not play in the game.
        NotPlaying = "not_playing",
        /// A live game aborted because a side did not make its first move in time.
        NotStarted = "not_started",
        /// No particular reason: see `error` and `message`.
        Other = "other",
    }
}

/// The particulars of a refusal's reason; each reason names the ones it sends.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct RefusalParams {
    /// A user id (`name_taken`, `no_user`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The least allowed (`password_length`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    /// The most allowed (`password_length`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
}

impl RefusalParams {
    pub fn name(name: &str) -> Self {
        RefusalParams { name: Some(name.to_string()), ..Self::default() }
    }

    pub fn range(min: i64, max: i64) -> Self {
        RefusalParams { min: Some(min), max: Some(max), ..Self::default() }
    }
}

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: ErrorCode,
    pub message: String,
    pub reason: RefusalReason,
    pub params: RefusalParams,
    /// For a refusal by a rate limit: seconds until the same request may succeed
    /// (also sent as the `Retry-After` header).
    pub retry_after_s: Option<u64>,
}

/// The body of every refusal.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorCode,
    /// In English words.
    pub message: String,
    /// Why, as a stable name to translate or act on.
    pub reason: RefusalReason,
    /// The reason's particulars (none for most).
    pub params: RefusalParams,
    /// With `too_many_requests`: seconds to wait before trying again, as in the
    /// `Retry-After` header.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
}

impl ApiError {
    fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        let status = match code {
            ErrorCode::BadRequest => StatusCode::BAD_REQUEST,
            ErrorCode::Unauthorized => StatusCode::UNAUTHORIZED,
            ErrorCode::Forbidden => StatusCode::FORBIDDEN,
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::Conflict => StatusCode::CONFLICT,
            ErrorCode::IllegalMove => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError {
            status,
            code,
            message: message.into(),
            reason: RefusalReason::Other,
            params: RefusalParams::default(),
            retry_after_s: None,
        }
    }

    /// The same refusal with its reason and that reason's particulars.
    pub fn because(self, reason: RefusalReason, params: RefusalParams) -> Self {
        ApiError { reason, params, ..self }
    }

    pub fn bad_request(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadRequest, m)
    }

    pub fn unauthorized(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::Unauthorized, m)
    }

    pub fn forbidden(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::Forbidden, m)
    }

    pub fn not_found(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, m)
    }

    pub fn conflict(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::Conflict, m)
    }

    pub fn illegal_move(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::IllegalMove, m)
    }

    pub fn too_many_requests(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::TooManyRequests, m)
    }

    /// A rate limit's refusal: why, and in how many seconds (at least one) the
    /// same request may succeed.
    pub fn rate_limited(m: impl Into<String>, retry_after_s: u64) -> Self {
        ApiError { retry_after_s: Some(retry_after_s.max(1)), ..Self::new(ErrorCode::TooManyRequests, m) }
    }

    pub fn payload_too_large(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::PayloadTooLarge, m)
    }

    pub fn internal(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::Internal, m)
    }

    pub fn unavailable(m: impl Into<String>) -> Self {
        Self::new(ErrorCode::Unavailable, m)
    }
}

/// How long a client is asked to wait while the database does not answer.
const DATABASE_RETRY_S: u64 = 5;

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        if crate::store::unreachable(&e) {
            tracing::warn!("database: {e}");
            return ApiError {
                retry_after_s: Some(DATABASE_RETRY_S),
                ..ApiError::unavailable(
                    "the database does not answer; nothing was changed, try again in a moment",
                )
            };
        }
        tracing::error!("database: {e}");
        ApiError::internal("the database failed; nothing was changed")
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let retry_after = self.retry_after_s;
        let body = ErrorBody {
            error: self.code,
            message: self.message,
            reason: self.reason,
            params: self.params,
            retry_after,
        };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(s) = retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        response
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::model::Named;

    #[test]
    fn every_code_has_its_status() {
        for code in ErrorCode::all() {
            let e = ApiError::new(*code, "x");
            assert!(
                e.status.is_client_error() || matches!(code, ErrorCode::Internal | ErrorCode::Unavailable),
                "{code:?}"
            );
        }
    }
}
