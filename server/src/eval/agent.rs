//! Agent mode: every question is a full turn (classify, rewrite, plan, retrieve,
//! write), scored on the cards the answer recommends. A follow-up is asked in a
//! fresh session after the questions it depends on, exactly as a user would; those
//! earlier turns are not scored. Eval sessions are deleted afterwards so the
//! conversation list is left as it was.

use super::golden::{Question, chain};
use super::metrics::QuestionResult;
use super::retrieval::section_matches;
use crate::agent::{Agent, Collected, TurnOptions};
use crate::memory::sessions;
use crate::store::StoreError;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

async fn ask(agent: &Arc<Agent>, question: &str, session: Option<String>) -> Collected {
    crate::agent::collect(agent.start_turn(question.to_string(), session, TurnOptions::default()))
        .await
}

pub async fn run_agent(
    agent: &Arc<Agent>,
    questions: &[Question],
    mut progress: impl FnMut(usize, &QuestionResult),
) -> Result<Vec<QuestionResult>, StoreError> {
    let mut out = Vec::new();
    let mut created: Vec<String> = Vec::new();
    for (i, q) in questions.iter().enumerate() {
        let mut session = None;
        let path = chain(questions, q);
        for earlier in &path[..path.len() - 1] {
            let h = ask(agent, &earlier.question, session.clone()).await;
            session = h.session_id.or(session);
        }
        let t = Instant::now();
        let h = ask(agent, &q.question, session.clone()).await;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        if let Some(s) = h.session_id.clone().or(session) {
            created.push(s);
        }
        let trace = match h.turn_id.clone() {
            Some(id) => agent.conversations.trace(id).await?,
            None => None,
        };
        let r = score(agent, q, h, trace, ms);
        progress(i, &r);
        out.push(r);
    }
    created.sort();
    created.dedup();
    for id in created {
        agent
            .conversations
            .delete(crate::memory::Owner::Anyone, id)
            .await?;
    }
    Ok(out)
}

fn score(
    agent: &Agent,
    q: &Question,
    h: Collected,
    trace: Option<sessions::TurnTrace>,
    ms: f64,
) -> QuestionResult {
    let expected: Vec<String> = q.expected.iter().map(|e| e.key()).collect();
    let top: Vec<String> = h.cards.iter().map(|c| c.key.clone()).collect();
    let hit_rank = top
        .iter()
        .take(10)
        .position(|k| expected.contains(k))
        .map(|i| i + 1);
    let cited = |kind: &'static str| h.citations.iter().filter(move |c| c.kind.as_str() == kind);
    let snap = agent.searcher().snapshot();
    let doc_hit = (!q.expected_docs.is_empty()).then(|| {
        cited("doc").any(|c| {
            let id = c.id.trim_start_matches("doc:");
            snap.docs
                .values()
                .find(|d| d.cite_id() == id)
                .is_some_and(|d| section_matches(&d.path, id, &d.trail, &q.expected_docs))
        })
    });
    let keyword_hit = (!q.expected_keywords.is_empty()).then(|| {
        cited("kw").any(|c| {
            let id = c.id.to_lowercase();
            q.expected_keywords.iter().any(|w| {
                let w = w.to_lowercase();
                id == format!("kw:{w}") || id.ends_with(&format!(".{w}"))
            })
        })
    });
    let grounded = h.error.is_none().then(|| {
        h.cards.iter().all(|card| {
            h.citations
                .iter()
                .any(|c| c.id == format!("bundle:{}", card.key))
        })
    });
    // A meta question is right when it gets no bundle recommendations.
    let no_match = if q.category == "meta" {
        h.cards.is_empty()
    } else {
        h.no_match
    };
    let stages: BTreeMap<String, f64> = trace
        .as_ref()
        .and_then(|t| t.trace.get("timings_ms"))
        .and_then(|v| v.as_object())
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_f64()?)))
                .collect()
        })
        .unwrap_or_default();
    QuestionResult {
        id: q.id.clone(),
        category: q.category.clone(),
        hard: q.hard,
        hit_rank,
        top_score: h.cards.first().and_then(|c| c.relevance).unwrap_or(0.0),
        unranked_top: h.cards.first().is_some_and(|c| c.relevance.is_none()),
        top_fused: 0.0,
        second_fused: 0.0,
        evidence: Vec::new(),
        signals: Vec::new(),
        top,
        no_match,
        ms,
        expected,
        doc_hit,
        keyword_hit,
        // None when the turn did not search (meta, catalog) or found no section.
        doc_top_score: trace
            .as_ref()
            .and_then(|t| t.trace["docs"][0]["score"].as_f64())
            .map(|s| s as f32),
        keyword_top_score: trace
            .as_ref()
            .and_then(|t| t.trace["keywords"][0]["score"].as_f64())
            .map(|s| s as f32),
        bundle_top_score: trace
            .as_ref()
            .and_then(|t| t.trace["bundles"][0]["score"].as_f64())
            .map(|s| s as f32),
        routed_by: trace.as_ref().and_then(|t| {
            t.trace["classification"]["reason"]
                .as_str()
                .map(str::to_string)
        }),
        routed: trace.map(|t| t.category.as_str().to_string()),
        grounded,
        source: Some(h.source),
        stages,
        error: h.error.map(|(code, message)| format!("{code}: {message}")),
    }
}
