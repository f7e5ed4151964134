//! Conversations as the sidebar and a reloaded page see them, and feedback on turns.

use super::events::{Card, Citation, RequestDraft};
use serde::{Deserialize, Serialize};

/// Longest conversation title accepted.
pub const MAX_TITLE_CHARS: usize = 120;
/// Longest feedback comment accepted.
pub const MAX_NOTE_CHARS: usize = 2000;

/// One line of the sidebar.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionItem {
    pub id: String,
    pub title: String,
    pub updated_at: String,
    pub turns: u32,
}

/// A saved conversation, enough to render it again after a reload.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Conversation {
    pub id: String,
    pub title: String,
    pub created_at: String,
    pub updated_at: String,
    pub turns: Vec<SavedTurn>,
}

crate::closed_set! {
    /// What kind of question a turn answered: about the assistant, about the
    /// catalog as a whole, a follow-up, about keywords and libraries, about the
    /// documentation, or a problem to find bundles for.
    #[derive(Default)]
    pub enum Category {
        Meta = "meta",
        Catalog = "catalog",
        FollowUp = "follow-up",
        KeywordLibrary = "keyword-library",
        Documentation = "documentation",
        #[default]
        General = "general",
    }
}

crate::closed_set! {
    /// How a saved turn ended: complete, interrupted (the client left, the server
    /// stopped or died; a turn is on disk as interrupted from before its first
    /// token until it ends) or failed.
    #[derive(Default)]
    pub enum TurnStatus {
        #[default]
        Complete = "complete",
        Interrupted = "interrupted",
        Failed = "failed",
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SavedTurn {
    pub id: String,
    pub status: TurnStatus,
    pub question: String,
    pub answer: String,
    pub cards: Vec<Card>,
    pub citations: Vec<Citation>,
    pub source: super::AnswerSource,
    pub confidence: f32,
    pub no_match: bool,
    #[serde(default)]
    pub request: Option<RequestDraft>,
    /// The next questions offered under the answer.
    #[serde(default)]
    pub suggestions: Vec<String>,
    pub created_at: String,
    #[serde(default)]
    pub feedback: Option<i8>,
    #[serde(default)]
    pub feedback_note: Option<String>,
}

/// Thumbs up (1) or down (-1) on an answer, with an optional comment.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Feedback {
    pub turn_id: String,
    pub value: i8,
    #[serde(default)]
    pub note: Option<String>,
}
