use crate::store::StoreError;
use app::api::ErrorCode;

#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    #[error("the question is empty")]
    QuestionEmpty,
    #[error("the question has {chars} characters; the limit is {max}")]
    QuestionTooLong { chars: usize, max: usize },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Search(#[from] crate::search::SearchError),
    #[error(transparent)]
    Llm(#[from] crate::llm::LlmError),
}

impl AgentError {
    pub fn code(&self) -> ErrorCode {
        match self {
            AgentError::QuestionEmpty => ErrorCode::QuestionEmpty,
            AgentError::QuestionTooLong { .. } => ErrorCode::QuestionTooLong,
            AgentError::Store(e) => e.code(),
            AgentError::Search(e) => e.code(),
            AgentError::Llm(e) => e.code(),
        }
    }

    /// Client mistakes are explained as written; anything else gets the safe message.
    pub fn public_message(&self) -> String {
        match self {
            AgentError::QuestionEmpty | AgentError::QuestionTooLong { .. } => self.to_string(),
            other => other.code().default_message().to_string(),
        }
    }
}
