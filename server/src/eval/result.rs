//! What one golden question's run produced: the record every metric and the
//! calibration table are computed from.

use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, Serialize)]
pub struct QuestionResult {
    pub id: String,
    pub category: String,
    pub hard: bool,
    /// 1-based rank of the first expected bundle in the top 10.
    pub hit_rank: Option<usize>,
    pub top: Vec<String>,
    pub top_score: f32,
    /// Agent mode: the first card was shown unranked (a keyword's caller, a
    /// related bundle): it has no score, so calibration leaves it out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unranked_top: bool,
    /// Retrieval mode: the top result's fused signal (what calibration maps).
    #[serde(default)]
    pub top_fused: f32,
    /// Retrieval mode: the runner-up's fused signal.
    #[serde(default)]
    pub second_fused: f32,
    /// Retrieval mode: evidence flags of the top result (`uncovered`, `unknown`,
    /// `action-missing`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
    /// Retrieval mode: (vector, BM25) signals of the top ten, for fitting the
    /// calibration on more than the fused score.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub signals: Vec<(f32, f32)>,
    pub no_match: bool,
    pub ms: f64,
    pub expected: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc_hit: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword_hit: Option<bool>,
    /// Agent mode: the best doc section's score (none when the turn did not
    /// search or found no section), for reading documentation routing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc_top_score: Option<f32>,
    /// Agent mode: the best keyword's search score (none when the turn did not
    /// search or found none), for reading why a question got a keyword.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keyword_top_score: Option<f32>,
    /// Agent mode: the best bundle's search score, before the answer chose what
    /// to show (none as above), for reading routing after the search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle_top_score: Option<f32>,
    /// Agent mode: the category the turn was routed to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub routed: Option<String>,
    /// Agent mode: why it was routed there (the classifier's reason), for reading
    /// routing mistakes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub routed_by: Option<String>,
    /// Agent mode: every card is cited in the answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grounded: Option<bool>,
    /// Agent mode: the answer's source tag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<app::api::AnswerSource>,
    /// Agent mode: milliseconds per pipeline stage.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub stages: BTreeMap<String, f64>,
    /// Agent mode: the turn ended in an error event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}
