use app::api::ErrorCode;

/// Failures talking to a model server. All of them make the agent fall back to the
/// offline answerer; the code only matters when a caller reports them.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("no LLM is configured")]
    NotConfigured,
    #[error("cannot reach the LLM server: {0}")]
    Connect(String),
    #[error("the LLM server answered HTTP {status}: {message}")]
    Status { status: u16, message: String },
    #[error("no first token within {0} s")]
    FirstTokenTimeout(u64),
    #[error("the LLM call took longer than {0} s")]
    Timeout(u64),
    #[error("the LLM stream broke off: {0}")]
    Stream(String),
    #[error("the LLM server reported an error: {0}")]
    Upstream(String),
    #[error("the LLM reply was unusable: {0}")]
    BadReply(String),
}

impl LlmError {
    /// A closed label for metrics (never the message).
    pub fn kind(&self) -> &'static str {
        match self {
            LlmError::NotConfigured => "not_configured",
            LlmError::Connect(_) => "connect",
            LlmError::Status { .. } => "status",
            LlmError::FirstTokenTimeout(_) => "first_token_timeout",
            LlmError::Timeout(_) => "timeout",
            LlmError::Stream(_) => "stream",
            LlmError::Upstream(_) => "upstream",
            LlmError::BadReply(_) => "bad_reply",
        }
    }

    pub fn code(&self) -> ErrorCode {
        match self {
            LlmError::FirstTokenTimeout(_) | LlmError::Timeout(_) => ErrorCode::LlmTimeout,
            _ => ErrorCode::LlmUnavailable,
        }
    }
}
