//! The one table of error codes: every failure the browser can see is one of these,
//! with a stable machine code, an HTTP status and a safe default message.
//! Layers keep their own `thiserror` enums and map into this table at the edge, so
//! internal detail (SQL, paths, upstream bodies) is logged and never sent.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! error_codes {
    ($($variant:ident => ($code:literal, $status:literal, $message:literal),)*) => {
        /// Stable error codes. The string form is part of the API: never rename one.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ErrorCode { $($variant,)* }

        impl ErrorCode {
            /// Every code, for docs and tests.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            pub fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$variant => $code,)* }
            }

            /// HTTP status the edge answers with.
            pub fn status(self) -> u16 {
                match self { $(ErrorCode::$variant => $status,)* }
            }

            /// A message that is safe to show to anyone.
            pub fn default_message(self) -> &'static str {
                match self { $(ErrorCode::$variant => $message,)* }
            }

            pub fn parse(code: &str) -> Option<ErrorCode> {
                match code { $($code => Some(ErrorCode::$variant),)* _ => None }
            }
        }
    };
}

error_codes! {
    BadRequest => ("bad_request", 400, "The request was not understood."),
    QuestionEmpty => ("question_empty", 400, "Type a question first."),
    QuestionTooLong => ("question_too_long", 413, "That question is too long; shorten it and try again."),
    PayloadTooLarge => ("payload_too_large", 413, "The request body is too large."),
    NotFound => ("not_found", 404, "Nothing was found at that address."),
    SessionNotFound => ("session_not_found", 404, "That conversation does not exist (it may have been deleted)."),
    BundleNotFound => ("bundle_not_found", 404, "That codebundle is not in the index."),
    TurnNotFound => ("turn_not_found", 404, "That answer does not exist (its conversation may have been deleted)."),
    RequestNotFound => ("request_not_found", 404, "That codebundle request does not exist."),
    Unauthorized => ("unauthorized", 401, "A valid admin token is required."),
    Forbidden => ("forbidden", 403, "This request is not allowed from here."),
    AdminDisabled => ("admin_disabled", 403, "The admin area is disabled: no admin token is configured."),
    RateLimited => ("rate_limited", 429, "Many questions are being answered right now; wait a moment and try again."),
    TurnTimeout => ("turn_timeout", 504, "The answer took too long; try again, or ask something narrower."),
    IndexEmpty => ("index_empty", 409, "The index is empty: run `registry-chat index` first."),
    IndexBusy => ("index_busy", 409, "An index run is already in progress."),
    Database => ("database_error", 500, "The database could not complete the request."),
    LlmUnavailable => ("llm_unavailable", 502, "The language model could not be reached."),
    LlmTimeout => ("llm_timeout", 504, "The language model took too long to answer."),
    ShuttingDown => ("shutting_down", 503, "The server is shutting down; try again shortly."),
    Network => ("network_error", 503, "The server could not be reached."),
    Internal => ("internal_error", 500, "Something went wrong on the server."),
}

// Serialised as the table's string, so JSON always carries the documented code.
impl Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = String::deserialize(d)?;
        // A code this build does not know (a newer server) still decodes.
        Ok(ErrorCode::parse(&code).unwrap_or(ErrorCode::Internal))
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The JSON error body `{code, message}` used by every endpoint and server function.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError {
            code,
            message: message.into(),
        }
    }

    /// The code with its default, safe message.
    pub fn from_code(code: ErrorCode) -> Self {
        ApiError::new(code, code.default_message())
    }

    pub fn status(&self) -> u16 {
        self.code.status()
    }
}

impl From<ErrorCode> for ApiError {
    fn from(code: ErrorCode) -> Self {
        ApiError::from_code(code)
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for ApiError {}

/// Server functions fail with `ApiError`, encoded as the same JSON body.
impl leptos::server_fn::error::FromServerFnError for ApiError {
    type Encoder = leptos::server_fn::codec::JsonEncoding;

    fn from_server_fn_error(value: leptos::server_fn::error::ServerFnErrorErr) -> Self {
        use leptos::server_fn::error::ServerFnErrorErr as E;
        match value {
            E::Args(m) | E::MissingArg(m) | E::Deserialization(m) | E::Serialization(m) => {
                ApiError::new(ErrorCode::BadRequest, m)
            }
            E::Request(_) => ErrorCode::Network.into(),
            _ => ErrorCode::Internal.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for code in ErrorCode::ALL {
            assert!(seen.insert(code.as_str()), "duplicate code {code}");
            assert_eq!(ErrorCode::parse(code.as_str()), Some(*code));
            assert!((400..600).contains(&code.status()));
            // serde and as_str agree, so the JSON body carries the documented string
            let json = serde_json::to_string(code).unwrap();
            assert_eq!(json, format!("\"{}\"", code.as_str()));
        }
    }

    #[test]
    fn body_shape_is_code_and_message() {
        let body = serde_json::to_value(ApiError::from_code(ErrorCode::QuestionEmpty)).unwrap();
        assert_eq!(body["code"], "question_empty");
        assert_eq!(body["message"], "Type a question first.");
        assert_eq!(body.as_object().unwrap().len(), 2);
    }
}
