//! Retrieval metrics. With several acceptable bundles per question (best first):
//! - recall@k: the question counts as found when any expected bundle is in the top k;
//! - MRR@10: 1 / rank of the first expected bundle within the top 10;
//! - nDCG@10: graded gains (the first expected bundle gains most) over the ideal order;
//! - no-match accuracy: share of `no-match` questions the system reports as no match;
//! - meta accuracy: share of `meta` questions that get no results (retrieval mode:
//!   reported as no match; agent mode: no cards).

pub use super::result::QuestionResult;
use serde::Serialize;
use std::collections::BTreeMap;

/// The classifier category a golden category should be routed to.
pub fn expected_route(category: &str) -> &str {
    match category {
        "no-match" => "general",
        c => c,
    }
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub n: usize,
    #[serde(rename = "recall@1")]
    pub recall_1: Option<f64>,
    #[serde(rename = "recall@5")]
    pub recall_5: Option<f64>,
    #[serde(rename = "recall@10")]
    pub recall_10: Option<f64>,
    #[serde(rename = "mrr@10")]
    pub mrr_10: Option<f64>,
    #[serde(rename = "ndcg@10")]
    pub ndcg_10: Option<f64>,
    pub no_match_accuracy: Option<f64>,
    pub meta_accuracy: Option<f64>,
    /// Answerable questions wrongly reported as no match.
    pub false_no_match_rate: Option<f64>,
    #[serde(rename = "doc_recall@5", skip_serializing_if = "Option::is_none")]
    pub doc_recall_5: Option<f64>,
    #[serde(rename = "keyword_recall@5", skip_serializing_if = "Option::is_none")]
    pub keyword_recall_5: Option<f64>,
    /// Agent mode: share of turns routed to the golden category.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub routing_accuracy: Option<f64>,
    /// Agent mode: share of turns whose cards are all cited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grounded_rate: Option<f64>,
    /// Agent mode: turns that ended in an error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<usize>,
    pub p50_ms: f64,
    pub p95_ms: f64,
}

fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let idx = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

fn ndcg(r: &QuestionResult) -> f64 {
    let n = r.expected.len();
    if n == 0 {
        return 0.0;
    }
    let gain = |key: &str| {
        r.expected
            .iter()
            .position(|e| e == key)
            .map_or(0.0, |i| (n - i) as f64)
    };
    let dcg: f64 = r
        .top
        .iter()
        .take(10)
        .enumerate()
        .map(|(i, k)| gain(k) / ((i + 2) as f64).log2())
        .sum();
    let idcg: f64 = (0..n.min(10))
        .map(|i| (n - i) as f64 / ((i + 2) as f64).log2())
        .sum();
    if idcg > 0.0 { dcg / idcg } else { 0.0 }
}

pub fn summarize(rs: &[&QuestionResult]) -> Summary {
    let answerable: Vec<&&QuestionResult> = rs.iter().filter(|r| !r.expected.is_empty()).collect();
    let rate = |k: usize| {
        mean(
            &answerable
                .iter()
                .map(|r| r.hit_rank.is_some_and(|h| h <= k) as u8 as f64)
                .collect::<Vec<_>>(),
        )
    };
    let no_match: Vec<f64> = rs
        .iter()
        .filter(|r| r.category == "no-match")
        .map(|r| r.no_match as u8 as f64)
        .collect();
    let meta: Vec<f64> = rs
        .iter()
        .filter(|r| r.category == "meta")
        .map(|r| r.no_match as u8 as f64)
        .collect();
    let docs: Vec<f64> = rs
        .iter()
        .filter_map(|r| r.doc_hit)
        .map(|h| h as u8 as f64)
        .collect();
    let kws: Vec<f64> = rs
        .iter()
        .filter_map(|r| r.keyword_hit)
        .map(|h| h as u8 as f64)
        .collect();
    let routed: Vec<f64> = rs
        .iter()
        .filter_map(|r| {
            r.routed
                .as_deref()
                .map(|got| (got == expected_route(&r.category)) as u8 as f64)
        })
        .collect();
    let grounded: Vec<f64> = rs
        .iter()
        .filter_map(|r| r.grounded)
        .map(|g| g as u8 as f64)
        .collect();
    let agent = rs.iter().any(|r| r.routed.is_some() || r.error.is_some());
    let mut ms: Vec<f64> = rs.iter().map(|r| r.ms).collect();
    ms.sort_by(|a, b| a.total_cmp(b));
    Summary {
        n: rs.len(),
        recall_1: rate(1),
        recall_5: rate(5),
        recall_10: rate(10),
        mrr_10: mean(
            &answerable
                .iter()
                .map(|r| {
                    r.hit_rank
                        .filter(|h| *h <= 10)
                        .map_or(0.0, |h| 1.0 / h as f64)
                })
                .collect::<Vec<_>>(),
        ),
        ndcg_10: mean(&answerable.iter().map(|r| ndcg(r)).collect::<Vec<_>>()),
        no_match_accuracy: mean(&no_match),
        meta_accuracy: mean(&meta),
        false_no_match_rate: mean(
            &answerable
                .iter()
                .map(|r| r.no_match as u8 as f64)
                .collect::<Vec<_>>(),
        ),
        doc_recall_5: mean(&docs),
        keyword_recall_5: mean(&kws),
        routing_accuracy: mean(&routed),
        grounded_rate: mean(&grounded),
        errors: agent.then(|| rs.iter().filter(|r| r.error.is_some()).count()),
        p50_ms: percentile(&ms, 50.0),
        p95_ms: percentile(&ms, 95.0),
    }
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    pub overall: Summary,
    pub hard: Summary,
    pub by_category: BTreeMap<String, Summary>,
    pub questions: Vec<QuestionResult>,
    /// Precision and recall of the no-match decision (positive = "no match").
    pub no_match_precision: Option<f64>,
    pub no_match_recall: Option<f64>,
    /// Agent mode: (p50, p95) milliseconds per stage over the scored turns.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub stages: BTreeMap<String, StageTimes>,
    /// Reliability of the top result's score.
    pub calibration: Option<super::calibration::Calibration>,
}

#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct StageTimes {
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub max_ms: f64,
}

pub fn report(results: Vec<QuestionResult>) -> Report {
    let all: Vec<&QuestionResult> = results.iter().collect();
    let hard: Vec<&QuestionResult> = results.iter().filter(|r| r.hard).collect();
    let mut by: BTreeMap<String, Vec<&QuestionResult>> = BTreeMap::new();
    for r in &results {
        by.entry(r.category.clone()).or_default().push(r);
    }
    let should = |r: &QuestionResult| r.category == "no-match";
    let tp = results.iter().filter(|r| should(r) && r.no_match).count() as f64;
    let fp = results
        .iter()
        .filter(|r| !should(r) && r.category != "meta" && r.no_match)
        .count() as f64;
    let positives = results.iter().filter(|r| should(r)).count() as f64;
    let mut per_stage: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for r in &results {
        for (k, v) in &r.stages {
            per_stage.entry(k.clone()).or_default().push(*v);
        }
    }
    let stages = per_stage
        .into_iter()
        .map(|(k, mut v)| {
            v.sort_by(|a, b| a.total_cmp(b));
            let t = StageTimes {
                p50_ms: percentile(&v, 50.0),
                p95_ms: percentile(&v, 95.0),
                max_ms: v.last().copied().unwrap_or(0.0),
            };
            (k, t)
        })
        .collect();
    Report {
        overall: summarize(&all),
        hard: summarize(&hard),
        by_category: by.into_iter().map(|(k, v)| (k, summarize(&v))).collect(),
        no_match_precision: (tp + fp > 0.0).then(|| tp / (tp + fp)),
        no_match_recall: (positives > 0.0).then(|| tp / positives),
        stages,
        calibration: super::calibration::calibration(&results),
        questions: results,
    }
}
