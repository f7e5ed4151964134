//! The admin API (`/api/admin/*`, bearer token): traces, quality, test queries,
//! golden-set export, index status and reindex, codebundle requests.

use super::catalog::CollectionStatus;
use super::events::Card;
use super::requests::RequestSummary;
use serde::{Deserialize, Serialize};

/// `GET /api/admin/traces` query. Filters combine with AND.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceQuery {
    /// Words in the question, rewrite or answer.
    #[serde(default)]
    pub q: Option<String>,
    #[serde(default)]
    pub no_match: bool,
    /// Confidence below 0.5.
    #[serde(default)]
    pub low_confidence: bool,
    #[serde(default)]
    pub thumbs_down: bool,
    /// Turns with errors or that failed.
    #[serde(default)]
    pub errors: bool,
    #[serde(default)]
    pub follow_ups: bool,
    #[serde(default)]
    pub limit: Option<u32>,
    #[serde(default)]
    pub offset: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceSummary {
    pub id: String,
    pub session_id: String,
    pub created_at: String,
    pub question: String,
    pub category: super::conversation::Category,
    pub status: super::conversation::TurnStatus,
    pub source: super::AnswerSource,
    pub confidence: f32,
    pub no_match: bool,
    pub feedback: Option<i8>,
    pub latency_ms: u64,
    pub model: String,
    pub errors: u32,
    pub cards: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TracePage {
    pub total: u64,
    pub traces: Vec<TraceSummary>,
}

/// One turn in full: the saved record and its trace (classification, rewrite,
/// plan, searches with hits and scores, LLM rounds with tool calls, timings, errors).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceDetail {
    pub summary: TraceSummary,
    pub rewritten: String,
    pub answer: String,
    pub cards: Vec<Card>,
    pub cited: Vec<String>,
    pub tokens_in: u32,
    pub tokens_out: u32,
    pub feedback_note: Option<String>,
    pub trace: serde_json::Value,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StageLatency {
    pub stage: String,
    pub p50_ms: f64,
    pub p95_ms: f64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WorstQuery {
    pub turn_id: String,
    pub question: String,
    pub reason: String,
    pub confidence: f32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Recommendation {
    /// The rate or figure that crossed its threshold.
    pub metric: String,
    pub value: f64,
    pub threshold: f64,
    pub advice: String,
}

/// Quality over a time window (`GET /api/admin/quality?days=7` or `from`/`to`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Quality {
    pub from: String,
    pub to: String,
    pub turns: u64,
    pub no_match_rate: f64,
    /// Follow-up turns that ended in no match, failed, or got a thumbs-down.
    pub follow_up_failure_rate: f64,
    pub error_rate: f64,
    pub avg_cards: f64,
    pub avg_confidence: f64,
    pub thumbs_up: u64,
    pub thumbs_down: u64,
    /// Up / (up + down); `None` without feedback.
    pub thumbs_ratio: Option<f64>,
    pub latency: Vec<StageLatency>,
    pub worst: Vec<WorstQuery>,
    pub recommendations: Vec<Recommendation>,
}

/// `POST /api/admin/test-query`: the question, after optional earlier questions of
/// the same (simulated) conversation, through the production pipeline, not saved.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TestQuery {
    pub question: String,
    #[serde(default)]
    pub history: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TestQueryResult {
    pub answer: String,
    pub cards: Vec<Card>,
    pub source: super::AnswerSource,
    pub confidence: f32,
    pub no_match: bool,
    pub elapsed_ms: u64,
    pub trace: serde_json::Value,
    /// The earlier questions' rewritten queries, in order (how memory carried over).
    pub history_rewrites: Vec<String>,
    /// Set when the turn failed (`code: message`); the trace says where.
    #[serde(default)]
    pub error: Option<String>,
}

crate::closed_set! {
    /// The admin console's reindex job: none since the server started, running,
    /// or how the last one ended.
    #[derive(Default)]
    pub enum JobState {
        #[default]
        Idle = "idle",
        Running = "running",
        Done = "done",
        Failed = "failed",
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReindexJob {
    pub state: JobState,
    pub stage: String,
    pub done: u64,
    pub total: u64,
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
    pub message: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct IndexStatus {
    pub collections: Vec<CollectionStatus>,
    pub job: ReindexJob,
    pub embedder: String,
    pub vectors: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestList {
    pub requests: Vec<RequestSummary>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StatusUpdate {
    pub status: String,
}
