//! What a turn has produced so far, how it ended, and the record saved from it
//! (with the metrics and the OpenTelemetry span counted from it).

use super::options::Capture;
use crate::agent::AgentError;
use crate::agent::answer::Outcome;
use crate::agent::classify::Classification;
use crate::agent::plan::Plan;
use crate::agent::retrieve::Retrieval;
use crate::agent::rewrite::Rewrite;
use crate::agent::sink::ClientGone;
use crate::memory::{SessionContext, TurnRecord};
use app::api::conversation::TurnStatus;
use serde_json::json;
use std::time::Instant;

/// What a turn has produced so far, saved whatever the outcome.
#[derive(Default)]
pub(super) struct State {
    pub(super) id: String,
    pub(super) question: String,
    /// The question as read once (`query::Query`), shared by every stage.
    pub(super) query: crate::query::Query,
    pub(super) ctx: SessionContext,
    pub(super) classification: Classification,
    pub(super) rewrite: Rewrite,
    pub(super) plan: Plan,
    pub(super) retrieval: Retrieval,
    pub(super) answer: String,
    pub(super) outcome: Outcome,
    pub(super) model: String,
    pub(super) tokens: (u32, u32),
    pub(super) timings: Vec<(&'static str, f64)>,
    pub(super) errors: Vec<String>,
    pub(super) llm_rounds: Vec<serde_json::Value>,
    /// The classify and rewrite LLM exchanges.
    pub(super) understand: Vec<serde_json::Value>,
    pub(super) reports: Vec<(String, String)>,
    /// Bundles the model's tools opened (citable besides the retrieved ones).
    pub(super) read_bundles: Vec<String>,
    pub(super) fallback: bool,
    /// The offline answer was shown as a preview while the model wrote.
    pub(super) previewed: bool,
    pub(super) started: Option<Instant>,
    /// Wall-clock start and each stage's (offset, duration) in ms, for OpenTelemetry.
    pub(super) started_at: Option<std::time::SystemTime>,
    pub(super) spans: Vec<(&'static str, f64, f64)>,
    pub(super) request_id: Option<String>,
}

impl State {
    pub(super) fn time(&mut self, stage: &'static str, since: Instant) {
        let ms = since.elapsed().as_secs_f64() * 1000.0;
        self.timings.push((stage, ms));
        let offset = self.started.map_or(0.0, |s| {
            since.saturating_duration_since(s).as_secs_f64() * 1000.0
        });
        self.spans.push((stage, offset, ms));
    }

    pub(super) fn record(&self, status: TurnStatus) -> TurnRecord {
        let timings: serde_json::Map<String, serde_json::Value> = self
            .timings
            .iter()
            .map(|(k, v)| (k.to_string(), json!((v * 10.0).round() / 10.0)))
            .collect();
        TurnRecord {
            id: self.id.clone(),
            session_id: self.ctx.session_id.clone(),
            owner: None,
            status,
            question: self.question.clone(),
            rewritten: self.rewrite.query.clone(),
            category: self.classification.category,
            answer: self.answer.clone(),
            source: self.outcome.source,
            confidence: self.outcome.confidence,
            no_match: self.outcome.no_match,
            model: self.model.clone(),
            tokens_in: self.tokens.0,
            tokens_out: self.tokens.1,
            latency_ms: self.started.map_or(0, |s| s.elapsed().as_millis() as u64),
            filters: self.plan.filters.clone(),
            cited: self
                .outcome
                .citations
                .iter()
                .map(|c| c.id.clone())
                .collect(),
            cards: self.outcome.cards.clone(),
            trace: json!({
                "understanding": self.query,
                "classification": self.classification,
                "rewrite": self.rewrite,
                "plan": self.plan,
                "searches": self.retrieval.searches,
                // The best doc sections found, whether or not the answer used them:
                // why a question was or was not answered from the docs.
                "docs": self.retrieval.docs.iter().take(3).map(|d| json!({
                    "path": d.path, "heading": d.heading, "score": d.score, "readme": d.readme,
                })).collect::<Vec<_>>(),
                // The best bundles and keywords found, with their scores: why a
                // question was answered with a keyword or with bundles.
                "bundles": self.retrieval.bundles.iter().take(3).map(|b| json!({
                    "key": b.key, "score": b.score,
                })).collect::<Vec<_>>(),
                "keywords": self.retrieval.keywords.iter().take(3).map(|k| json!({
                    "id": k.id, "score": k.score,
                })).collect::<Vec<_>>(),
                "no_match": self.retrieval.no_match,
                "uncovered": self.retrieval.uncovered,
                "correlations": self.retrieval.correlations,
                "llm": {"model": self.model, "understand": self.understand, "rounds": self.llm_rounds, "fallback": self.fallback},
                "citations": self.outcome.citations,
                "citations_dropped": self.outcome.dropped,
                "request": self.outcome.request,
                "suggestions": self.outcome.suggestions,
                "reports": self.reports.iter().map(|(t, m)| json!({"title": t, "markdown": m})).collect::<Vec<_>>(),
                "timings_ms": timings,
                "errors": self.errors,
                "request_id": self.request_id,
            }),
        }
    }
}

/// Counts a finished turn in `/metrics` (dry runs, the admin's test queries, are
/// not traffic).
pub(super) fn record_metrics(state: &State, outcome: &Result<(), Failure>) {
    let label = match outcome {
        Ok(()) if state.outcome.no_match => "no_match",
        Ok(()) => "ok",
        Err(Failure::ClientGone | Failure::ShuttingDown) => "interrupted",
        Err(Failure::OverBudget) => "timeout",
        Err(Failure::Agent(_)) => "error",
    };
    let source = state.outcome.source.as_str();
    crate::metrics::turn(
        state.classification.category.as_str(),
        label,
        source,
        &state.timings,
    );
    if let (Some(start), Some(started)) = (state.started_at, state.started) {
        crate::otel::turn(&crate::otel::TurnSpan {
            start,
            total_ms: started.elapsed().as_secs_f64() * 1000.0,
            request_id: state.request_id.as_deref(),
            category: state.classification.category.as_str(),
            outcome: label,
            source,
            stages: &state.spans,
        });
    }
    let m = &crate::metrics::METRICS;
    m.llm_tokens
        .with_label_values(&["prompt"])
        .inc_by(u64::from(state.tokens.0));
    m.llm_tokens
        .with_label_values(&["completion"])
        .inc_by(u64::from(state.tokens.1));
}

pub(super) enum Failure {
    ClientGone,
    ShuttingDown,
    /// The turn used up its wall-clock budget.
    OverBudget,
    Agent(AgentError),
}

impl From<ClientGone> for Failure {
    fn from(_: ClientGone) -> Self {
        Failure::ClientGone
    }
}

impl From<AgentError> for Failure {
    fn from(e: AgentError) -> Self {
        Failure::Agent(e)
    }
}

pub(super) fn capture(slot: &Option<Capture>, record: &TurnRecord) {
    if let Some(slot) = slot
        && let Ok(mut s) = slot.lock()
    {
        *s = Some(record.clone());
    }
}
