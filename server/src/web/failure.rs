//! Turns any layer's error into the public `{code, message}` body. Server errors are
//! logged with their full detail; the client sees only the code's safe message.

use app::api::{ApiError, ErrorCode};
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug)]
pub struct ApiFailure {
    pub public: ApiError,
    /// Internal detail for the log; never serialised.
    pub detail: Option<String>,
    /// Seconds for a `Retry-After` header (rate limits).
    pub retry_after: Option<u64>,
}

impl ApiFailure {
    /// A client error whose message is safe to show as written.
    pub fn client(code: ErrorCode, message: impl Into<String>) -> Self {
        ApiFailure {
            public: ApiError::new(code, message),
            detail: None,
            retry_after: None,
        }
    }

    /// 429 with a `Retry-After`.
    pub fn rate_limited(retry_after_secs: u64) -> Self {
        ApiFailure {
            retry_after: Some(retry_after_secs.max(1)),
            ..ApiFailure::client(
                ErrorCode::RateLimited,
                ErrorCode::RateLimited.default_message(),
            )
        }
    }

    /// An internal error: the detail is logged, the client gets the default message.
    pub fn internal(code: ErrorCode, detail: impl std::fmt::Display) -> Self {
        ApiFailure {
            public: ApiError::from_code(code),
            detail: Some(detail.to_string()),
            retry_after: None,
        }
    }

    pub fn log(&self) {
        match &self.detail {
            Some(detail) if self.public.status() >= 500 => {
                tracing::error!(code = %self.public.code, %detail, "request failed")
            }
            Some(detail) => tracing::warn!(code = %self.public.code, %detail, "request rejected"),
            None => tracing::debug!(code = %self.public.code, "request rejected"),
        }
    }
}

impl From<crate::store::StoreError> for ApiFailure {
    fn from(e: crate::store::StoreError) -> Self {
        ApiFailure::internal(e.code(), e)
    }
}

/// A question the client got wrong is explained as written; anything else is an
/// internal failure with the code's safe message.
impl From<crate::agent::AgentError> for ApiFailure {
    fn from(e: crate::agent::AgentError) -> Self {
        use crate::agent::AgentError;
        match e {
            AgentError::QuestionEmpty | AgentError::QuestionTooLong { .. } => {
                ApiFailure::client(e.code(), e.public_message())
            }
            other => ApiFailure::internal(other.code(), other),
        }
    }
}

impl From<crate::requests::RequestError> for ApiFailure {
    fn from(e: crate::requests::RequestError) -> Self {
        use crate::requests::RequestError as E;
        match e {
            E::Invalid(m) => ApiFailure::client(ErrorCode::BadRequest, m),
            E::NotFound(_) => ApiFailure::client(
                ErrorCode::RequestNotFound,
                ErrorCode::RequestNotFound.default_message(),
            ),
            E::Store(e) => e.into(),
        }
    }
}

/// A body that is not the expected JSON: too large, wrong content type, or malformed.
impl From<axum::extract::rejection::JsonRejection> for ApiFailure {
    fn from(e: axum::extract::rejection::JsonRejection) -> Self {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiFailure::client(
                ErrorCode::PayloadTooLarge,
                ErrorCode::PayloadTooLarge.default_message(),
            )
        } else {
            ApiFailure::client(ErrorCode::BadRequest, e.body_text())
        }
    }
}

impl IntoResponse for ApiFailure {
    fn into_response(self) -> Response {
        self.log();
        let status =
            StatusCode::from_u16(self.public.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut res = (status, Json(self.public)).into_response();
        if let Some(secs) = self.retry_after {
            res.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        res
    }
}
