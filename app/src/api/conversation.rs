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

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SavedTurn {
    pub id: String,
    /// `complete`, `interrupted` or `failed`.
    pub status: String,
    pub question: String,
    pub answer: String,
    pub cards: Vec<Card>,
    pub citations: Vec<Citation>,
    pub source: String,
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
