//! The agent: turns a question (and the conversation so far) into a streamed,
//! grounded answer with cards, citations, a source tag and, when nothing fits, a
//! request-codebundle offer. Works without an LLM; better with one.

pub mod answer;
pub mod classify;
mod collect;
mod error;
pub mod library;
pub mod plan;
pub mod retrieve;
pub mod rewrite;
mod sink;
pub mod tools;
mod turn;
mod understand;

pub use collect::{Collected, collect};
pub use error::AgentError;
pub use sink::{ClientGone, Sink};
pub use turn::{Capture, Turn, TurnOptions};

use crate::config::Config;
use crate::llm::LlmClient;
use crate::search::Searcher;
use crate::store::Db;
use app::api::MAX_QUESTION_CHARS;
use std::sync::Arc;

pub struct Agent {
    pub(crate) db: Db,
    /// Where turns are saved and a session's memory is read.
    pub(crate) conversations: crate::memory::Conversations,
    pub(crate) config: Arc<Config>,
    pub(crate) searcher: Arc<Searcher>,
    pub(crate) llm: Option<LlmClient>,
    examples: tokio::sync::OnceCell<classify::ExampleIndex>,
    /// The gate on turns computing at once (see `turn::computing_at_once`).
    computing: tokio::sync::Semaphore,
}

impl Agent {
    pub fn new(
        db: Db,
        conversations: crate::memory::Conversations,
        config: Arc<Config>,
        searcher: Arc<Searcher>,
    ) -> Result<Self, AgentError> {
        let llm = if config.llm.is_configured() {
            Some(LlmClient::new(&config.llm)?)
        } else {
            None
        };
        Ok(Agent {
            db,
            conversations,
            config,
            searcher,
            llm,
            examples: tokio::sync::OnceCell::new(),
            computing: tokio::sync::Semaphore::new(turn::computing_at_once()),
        })
    }

    /// The classifier's labelled examples, embedded on first use. A failure (a
    /// remote embedder not reachable yet) is logged and retried by the next
    /// question; meanwhile the rules decide alone.
    pub(crate) async fn examples(&self) -> Option<&classify::ExampleIndex> {
        let built = self
            .examples
            .get_or_try_init(|| {
                classify::ExampleIndex::load_or_build(self.searcher.embedder().as_ref(), &self.db)
            })
            .await;
        match built {
            Ok(ix) => Some(ix),
            Err(e) => {
                tracing::warn!(error = %e, "the classifier's example vote is unavailable");
                None
            }
        }
    }

    /// Loads the classifier's examples before the first question needs them: their
    /// saved vectors, or the first time for an embedder and examples file, embedded
    /// (about a second with MiniLM for ~670 examples, in small batches so that the
    /// first turns do not queue behind it).
    pub async fn warm_up(&self) {
        self.examples().await;
    }

    pub fn searcher(&self) -> &Arc<Searcher> {
        &self.searcher
    }

    pub fn llm_reachable(&self) -> Option<bool> {
        self.llm.as_ref().and_then(|l| l.reachable())
    }

    pub fn llm_model(&self) -> Option<&str> {
        self.llm.as_ref().map(|l| l.model())
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
