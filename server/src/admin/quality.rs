//! Quality over a time window, computed from the saved turns: rates, averages,
//! per-stage latency percentiles, the worst queries, and recommendations when a
//! figure crosses its threshold.
//!
//! Definitions (README "Admin console" repeats them):
//! - *no-match rate*: completed turns that found nothing fitting / completed turns;
//! - *follow-up failure rate*: follow-up turns that failed, found nothing, or got a
//!   thumbs-down / follow-up turns;
//! - *error rate*: turns that failed or recorded any error (an LLM fallback counts) /
//!   all turns;
//! - *average cards* and *average confidence*: over completed turns;
//! - *thumbs ratio*: up / (up + down);
//! - latency percentiles as in `eval` (the value at rank round(p × (n − 1))).

use super::traces::{HAS_ERRORS, LOW_CONFIDENCE};
use super::window::Window;
use crate::eval::metrics::percentile;
use crate::store::StoreError;
use app::api::admin::{Quality, Recommendation, StageLatency, WorstQuery};
use app::api::conversation::{Category, TurnStatus};
use rusqlite::Connection;

/// Stages in pipeline order, as the trace's `timings_ms` names them.
pub const STAGES: &[&str] = &["classify", "rewrite", "plan", "retrieve", "write", "total"];
/// Fewer turns than this make rates noise: no recommendations.
pub const MIN_TURNS: u64 = 5;
const WORST: usize = 10;

/// `(metric, threshold, higher is worse, advice)`.
pub const THRESHOLDS: &[(&str, f64, bool, &str)] = &[
    (
        "no_match_rate",
        0.30,
        true,
        "Many questions find nothing that fits. Read the worst queries: add codebundles for real gaps (see the requests list), or tags and README words for bundles that exist but are not found.",
    ),
    (
        "follow_up_failure_rate",
        0.20,
        true,
        "Follow-ups often fail. Check their rewritten queries in Traces; configuring an LLM improves rewriting of vague follow-ups.",
    ),
    (
        "error_rate",
        0.05,
        true,
        "Turns hit errors. Filter Traces by errors: usually the LLM is unreachable or timing out (see llm.* timeouts), so answers fall back to the offline answerer.",
    ),
    (
        "avg_confidence",
        0.50,
        false,
        "Average confidence is low: answers rest on weak matches. Export the golden set from feedback and compare `registry-chat eval` runs after improving bundle docs and tags.",
    ),
    (
        "thumbs_down_share",
        0.25,
        true,
        "Users dislike many answers. Export thumbs-down turns as golden-set lines, fill in the expected bundles, and track them with `registry-chat eval`.",
    ),
    (
        "p95_total_ms",
        5000.0,
        true,
        "Answers are slow at the 95th percentile. Check which stage dominates in the latency table; a slow LLM or embedder is the usual cause.",
    ),
];

/// What the report needs of one turn (read by either backend).
pub struct TurnRow {
    pub id: String,
    pub question: String,
    pub category: Category,
    pub status: TurnStatus,
    pub confidence: f64,
    pub no_match: bool,
    pub feedback: Option<i64>,
    pub cards: i64,
    pub has_errors: bool,
    pub timings: serde_json::Value,
}

fn rate(n: usize, d: usize) -> f64 {
    if d == 0 { 0.0 } else { n as f64 / d as f64 }
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

pub fn compute(c: &Connection, w: &Window) -> Result<Quality, StoreError> {
    let mut st = c.prepare(&format!(
        "SELECT t.id, t.question, t.category, t.status, t.confidence, t.no_match, t.feedback,
                coalesce(json_array_length(t.cards), 0), {HAS_ERRORS}, json_extract(t.trace, '$.timings_ms')
         FROM turns t WHERE t.created_at >= ?1 AND t.created_at < ?2 ORDER BY t.created_at"
    ))?;
    let rows: Vec<TurnRow> = st
        .query_map([&w.from, &w.to], |r| {
            Ok(TurnRow {
                id: r.get(0)?,
                question: r.get(1)?,
                category: crate::store::closed(r, 2)?,
                status: crate::store::closed(r, 3)?,
                confidence: r.get(4)?,
                no_match: r.get(5)?,
                feedback: r.get(6)?,
                cards: r.get(7)?,
                has_errors: r.get(8)?,
                timings: r
                    .get::<_, Option<String>>(9)?
                    .and_then(|j| serde_json::from_str(&j).ok())
                    .unwrap_or_default(),
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(report(&rows, w))
}

/// The report over a window's turns, oldest first.
pub fn report(rows: &[TurnRow], w: &Window) -> Quality {
    let complete: Vec<&TurnRow> = rows
        .iter()
        .filter(|r| r.status == TurnStatus::Complete)
        .collect();
    let follow_ups: Vec<&TurnRow> = rows
        .iter()
        .filter(|r| r.category == Category::FollowUp)
        .collect();
    let follow_up_failed = follow_ups
        .iter()
        .filter(|r| {
            r.status == TurnStatus::Failed || r.no_match || r.feedback.is_some_and(|f| f < 0)
        })
        .count();
    let up = rows
        .iter()
        .filter(|r| r.feedback.is_some_and(|f| f > 0))
        .count();
    let down = rows
        .iter()
        .filter(|r| r.feedback.is_some_and(|f| f < 0))
        .count();
    let avg = |f: &dyn Fn(&TurnRow) -> f64| {
        if complete.is_empty() {
            0.0
        } else {
            complete.iter().map(|r| f(r)).sum::<f64>() / complete.len() as f64
        }
    };

    let latency: Vec<StageLatency> = STAGES
        .iter()
        .filter_map(|stage| {
            let mut v: Vec<f64> = complete
                .iter()
                .filter_map(|r| r.timings.get(*stage).and_then(|x| x.as_f64()))
                .collect();
            if v.is_empty() {
                return None;
            }
            v.sort_by(f64::total_cmp);
            Some(StageLatency {
                stage: stage.to_string(),
                p50_ms: round(percentile(&v, 50.0)),
                p95_ms: round(percentile(&v, 95.0)),
            })
        })
        .collect();

    let mut q = Quality {
        from: w.from.clone(),
        to: w.to.clone(),
        turns: rows.len() as u64,
        no_match_rate: round(rate(
            complete.iter().filter(|r| r.no_match).count(),
            complete.len(),
        )),
        follow_up_failure_rate: round(rate(follow_up_failed, follow_ups.len())),
        error_rate: round(rate(
            rows.iter().filter(|r| r.has_errors).count(),
            rows.len(),
        )),
        avg_cards: round(avg(&|r| r.cards as f64)),
        avg_confidence: round(avg(&|r| r.confidence)),
        thumbs_up: up as u64,
        thumbs_down: down as u64,
        thumbs_ratio: (up + down > 0).then(|| round(rate(up, up + down))),
        latency,
        worst: worst(rows),
        recommendations: Vec::new(),
    };
    q.recommendations = recommend(&q, rate(down, up + down));
    q
}

/// Thumbs-down first, then failures, then no-match, then the least confident.
fn worst(rows: &[TurnRow]) -> Vec<WorstQuery> {
    let badness = |r: &TurnRow| -> (u8, String) {
        if r.feedback.is_some_and(|f| f < 0) {
            (0, "thumbs-down".into())
        } else if r.status == TurnStatus::Failed {
            (1, "failed".into())
        } else if r.no_match {
            (2, "no match".into())
        } else if r.has_errors {
            (3, "errors".into())
        } else if r.status == TurnStatus::Complete && r.confidence < LOW_CONFIDENCE {
            (4, "low confidence".into())
        } else {
            (9, String::new())
        }
    };
    let mut list: Vec<(u8, String, &TurnRow)> = rows
        .iter()
        .map(|r| {
            let (b, why) = badness(r);
            (b, why, r)
        })
        .filter(|(b, _, _)| *b < 9)
        .collect();
    list.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(a.2.confidence.total_cmp(&b.2.confidence))
    });
    list.into_iter()
        .take(WORST)
        .map(|(_, reason, r)| WorstQuery {
            turn_id: r.id.clone(),
            question: r.question.clone(),
            reason,
            confidence: r.confidence as f32,
        })
        .collect()
}

fn recommend(q: &Quality, thumbs_down_share: f64) -> Vec<Recommendation> {
    if q.turns < MIN_TURNS {
        return Vec::new();
    }
    let p95_total = q
        .latency
        .iter()
        .find(|s| s.stage == "total")
        .map_or(0.0, |s| s.p95_ms);
    THRESHOLDS
        .iter()
        .filter_map(|(metric, threshold, higher_is_worse, advice)| {
            let value = match *metric {
                "no_match_rate" => q.no_match_rate,
                "follow_up_failure_rate" => q.follow_up_failure_rate,
                "error_rate" => q.error_rate,
                "avg_confidence" => q.avg_confidence,
                "thumbs_down_share" if q.thumbs_ratio.is_some() => round(thumbs_down_share),
                "p95_total_ms" => p95_total,
                _ => return None,
            };
            let crossed = if *higher_is_worse {
                value > *threshold
            } else {
                value < *threshold
            };
            crossed.then(|| Recommendation {
                metric: metric.to_string(),
                value,
                threshold: *threshold,
                advice: advice.to_string(),
            })
        })
        .collect()
}
