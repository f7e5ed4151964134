//! The agent: turns a question into a stream of `ChatEvent`s.

mod error;
mod turn;

pub use error::AgentError;
pub use turn::{Turn, TurnOptions};

use crate::config::Config;
use crate::store::Db;
use app::api::MAX_QUESTION_CHARS;
use std::sync::Arc;

pub struct Agent {
    pub(crate) db: Db,
    #[allow(dead_code)] // read by the LLM path
    pub(crate) config: Arc<Config>,
}

impl Agent {
    pub fn new(db: Db, config: Arc<Config>) -> Self {
        Agent { db, config }
    }
}

/// Trims the question and enforces the size limits shared with the browser.
pub fn validate_question(raw: &str) -> Result<String, AgentError> {
    let question = raw.trim();
    if question.is_empty() {
        return Err(AgentError::QuestionEmpty);
    }
    let chars = question.chars().count();
    if chars > MAX_QUESTION_CHARS {
        return Err(AgentError::QuestionTooLong {
            chars,
            max: MAX_QUESTION_CHARS,
        });
    }
    Ok(question.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_are_trimmed_and_bounded() {
        assert_eq!(validate_question("  why?\n").unwrap(), "why?");
        assert!(matches!(
            validate_question(" \n\t "),
            Err(AgentError::QuestionEmpty)
        ));
        let long = "é".repeat(MAX_QUESTION_CHARS + 1);
        assert!(matches!(
            validate_question(&long),
            Err(AgentError::QuestionTooLong { .. })
        ));
        // the limit counts characters, not bytes
        assert!(validate_question(&"é".repeat(MAX_QUESTION_CHARS)).is_ok());
    }
}
