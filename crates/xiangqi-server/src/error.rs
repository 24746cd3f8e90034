//! The HTTP edge of a refusal: its status, the body every refusal sends and
//! the `Retry-After` header. What the refusal is and why is the domain's
//! [`Refusal`]; this is the one place it becomes HTTP. A refused request
//! changes nothing.

use axum::{
    Json,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::refusal;
pub use crate::domain::refusal::{ErrorCode, Refusal};

/// A refusal on its way out as an HTTP answer.
#[derive(Debug)]
pub struct ApiError(pub Refusal);

/// The body of every refusal.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorCode,
    /// In English words.
    pub message: String,
    /// Why, as a stable `reason` to translate or act on, with its particulars
    /// in `params` (an object, empty for most).
    #[serde(flatten)]
    pub refusal: Refusal,
    /// With `too_many_requests`: seconds to wait before trying again, as in the
    /// `Retry-After` header.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
}

/// The status a kind of refusal is answered with.
pub fn status(code: ErrorCode) -> StatusCode {
    match code {
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
    }
}

impl ApiError {
    pub fn code(&self) -> ErrorCode {
        self.0.code()
    }

    pub fn status(&self) -> StatusCode {
        status(self.code())
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> Self {
        ApiError(r)
    }
}

impl From<refusal::Error> for ApiError {
    fn from(e: refusal::Error) -> Self {
        ApiError(e.refusal())
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        refusal::Error::from(e).into()
    }
}

impl ApiError {
    /// The body this refusal is answered with.
    pub fn body(self) -> ErrorBody {
        let refusal = self.0;
        let retry_after = refusal.retry_after_s();
        ErrorBody { error: refusal.code(), message: refusal.to_string(), refusal, retry_after }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = self.body();
        let retry_after = body.retry_after;
        let mut response = (status(body.error), Json(body)).into_response();
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
    use crate::model::Named;

    #[test]
    fn every_code_has_its_status() {
        for code in ErrorCode::all() {
            let s = status(*code);
            assert!(
                s.is_client_error() || matches!(code, ErrorCode::Internal | ErrorCode::Unavailable),
                "{code:?}"
            );
        }
    }
}
