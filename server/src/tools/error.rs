//! A tool's failure: the caller's mistake (said as written, so a model can
//! correct itself), something that is not there, or the registry's own fault
//! (logged; the caller sees only a safe message).

use crate::search::SearchError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    NotFound(String),
    #[error(transparent)]
    Search(#[from] SearchError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("reading the collection failed: {0}")]
    Io(String),
}

impl ToolError {
    /// What the caller may see. Internal detail (paths, SQL) is logged here and
    /// never returned.
    pub fn public_message(&self) -> String {
        match self {
            ToolError::Invalid(m) | ToolError::NotFound(m) => m.clone(),
            internal => {
                tracing::error!(error = %internal, "a registry tool failed");
                "the registry could not complete the request".into()
            }
        }
    }

    /// Whether the caller got something wrong (as opposed to the registry).
    pub fn is_callers(&self) -> bool {
        matches!(self, ToolError::Invalid(_) | ToolError::NotFound(_))
    }
}
