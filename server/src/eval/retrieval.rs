//! Retrieval mode: each question goes straight to search. A follow-up has no
//! conversation here, so it is searched together with the questions it depends on
//! (the agent mode rewrites follow-ups properly).

use super::golden::{Question, chain};
use super::metrics::QuestionResult;
use crate::search::{SearchError, SearchOptions, Searcher};
use std::time::Instant;

pub async fn run_retrieval(
    searcher: &Searcher,
    questions: &[Question],
    options: &SearchOptions,
) -> Result<Vec<QuestionResult>, SearchError> {
    run_retrieval_with(searcher, questions, options, |_, _| {}).await
}

/// As `run_retrieval`, handing every question's full results to `each`.
pub async fn run_retrieval_with(
    searcher: &Searcher,
    questions: &[Question],
    options: &SearchOptions,
    mut each: impl FnMut(&Question, &crate::search::SearchResults),
) -> Result<Vec<QuestionResult>, SearchError> {
    let mut out = Vec::new();
    let options = SearchOptions {
        k: options.k.max(10),
        ..options.clone()
    };
    for q in questions {
        let text = chain(questions, q)
            .iter()
            .map(|x| x.question.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let t = Instant::now();
        let res = searcher.search(&text, &options).await?;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        each(q, &res);
        let top: Vec<String> = res.bundles.iter().map(|b| b.key.clone()).collect();
        let expected: Vec<String> = q.expected.iter().map(|e| e.key()).collect();
        let hit_rank = top
            .iter()
            .take(10)
            .position(|k| expected.contains(k))
            .map(|i| i + 1);
        let doc_hit = (!q.expected_docs.is_empty()).then(|| {
            res.docs
                .iter()
                .take(5)
                .any(|d| doc_matches(d, &q.expected_docs))
        });
        let keyword_hit = (!q.expected_keywords.is_empty()).then(|| {
            res.keywords.iter().take(5).any(|k| {
                q.expected_keywords
                    .iter()
                    .any(|w| w.eq_ignore_ascii_case(&k.name) || w.eq_ignore_ascii_case(&k.id))
            })
        });
        out.push(QuestionResult {
            id: q.id.clone(),
            category: q.category.clone(),
            hard: q.hard,
            hit_rank,
            top_score: res.bundles.first().map_or(0.0, |b| b.score),
            top_fused: res.bundles.first().map_or(0.0, |b| b.signals.fused),
            second_fused: res.bundles.get(1).map_or(0.0, |b| b.signals.fused),
            evidence: {
                let mut e = Vec::new();
                // As the ranking reads it: an uncovered product beside a covered
                // one is part of the setting, not the subject.
                if !res.uncovered.is_empty()
                    && !crate::query::Query::parse(&text, &searcher.snapshot().vocab)
                        .names_covered_product()
                {
                    e.push("uncovered".to_string());
                }
                if !res.unknown.is_empty() {
                    e.push("unknown".to_string());
                }
                if res
                    .bundles
                    .first()
                    .is_some_and(|b| b.signals.fired.iter().any(|f| f == "action-missing"))
                {
                    e.push("action-missing".to_string());
                }
                e
            },
            signals: res
                .bundles
                .iter()
                .take(10)
                .map(|b| (b.signals.vector, b.signals.bm25))
                .collect(),
            top: top.into_iter().take(10).collect(),
            no_match: res.no_match,
            ms,
            expected,
            doc_hit,
            keyword_hit,
            ..Default::default()
        });
    }
    Ok(out)
}

/// A returned section answers when it is an expected section or lies under one
/// (the expected heading is in its trail).
fn doc_matches(d: &crate::search::DocHit, expected: &[String]) -> bool {
    section_matches(&d.path, &d.id, &d.trail, expected)
}

/// `id` ends with `#anchor` when the section has one.
pub(super) fn section_matches(path: &str, id: &str, trail: &[String], expected: &[String]) -> bool {
    expected.iter().any(|want| {
        let (want_path, anchor) = want.split_once('#').unwrap_or((want, ""));
        if !path.ends_with(want_path.trim_start_matches("docs/")) {
            return false;
        }
        if anchor.is_empty() || id.ends_with(&format!("#{anchor}")) {
            return true;
        }
        let mut seen = std::collections::HashMap::new();
        trail
            .iter()
            .any(|h| crate::ingest::markdown::anchor(h, &mut seen) == anchor)
    })
}
