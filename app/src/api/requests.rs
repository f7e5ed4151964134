//! "Request CodeBundle": what the form sends and what the registry keeps.

use serde::{Deserialize, Serialize};

/// Longest problem statement accepted.
pub const MAX_PROBLEM_CHARS: usize = 4000;
/// Longest value of the other free-text fields.
pub const MAX_FIELD_CHARS: usize = 4000;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestInput {
    pub problem: String,
    #[serde(default)]
    pub platform: Option<String>,
    pub healthy: String,
    #[serde(default)]
    pub context: String,
    #[serde(default)]
    pub contact: Option<String>,
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub turn_id: Option<String>,
    /// Keys of the closest bundles the user was shown.
    #[serde(default)]
    pub closest: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestSummary {
    pub id: i64,
    /// `REQ-0007`: what people quote.
    pub reference: String,
    pub problem: String,
    #[serde(default)]
    pub platform: Option<String>,
    /// `open`, `planned`, `done` or `rejected`.
    pub status: String,
    pub created_at: String,
}

/// A saved request and its markdown, ready to paste into an issue tracker.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestSaved {
    pub request: RequestSummary,
    pub markdown: String,
}

pub const STATUSES: &[&str] = &["open", "planned", "done", "rejected"];

pub fn reference(id: i64) -> String {
    format!("REQ-{id:04}")
}
