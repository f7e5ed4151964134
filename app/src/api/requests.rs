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
    pub status: RequestStatus,
    pub created_at: String,
    /// The tracker issue (or comment) this request became, when filed.
    #[serde(default)]
    pub issue_url: Option<String>,
}

/// A saved request and its markdown, ready to paste into an issue tracker.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestSaved {
    pub request: RequestSummary,
    pub markdown: String,
    /// What happened in the issue tracker; `None` when none is configured.
    #[serde(default)]
    pub tracker: Option<TrackerOutcome>,
}

/// A saved request in the configured issue tracker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum TrackerOutcome {
    /// Opened as a new issue.
    Filed { url: String },
    /// Added as a comment to an open issue that asks for the same.
    Commented { url: String, number: u64 },
    /// An open issue looks like the same request: the user chooses (`file_request`).
    Duplicate {
        number: u64,
        title: String,
        url: String,
    },
    /// Posted to the webhook (its reply's `url`, when it gave one).
    Sent { url: Option<String> },
    /// The tracker did not take it; the request is saved here all the same.
    Failed { message: String },
}

/// The user's choice after a `Duplicate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileAction {
    /// Add the request to the open issue the search found.
    Comment,
    /// Open a new issue anyway.
    New,
}

crate::closed_set! {
    /// Where a codebundle request stands in the registry's own triage.
    #[derive(Default)]
    pub enum RequestStatus {
        #[default]
        Open = "open",
        Planned = "planned",
        Done = "done",
        Rejected = "rejected",
    }
}

pub fn reference(id: i64) -> String {
    format!("REQ-{id:04}")
}
