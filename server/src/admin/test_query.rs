//! Test queries: a question, after optional earlier questions of the same
//! simulated conversation, through exactly the production turn pipeline, with
//! nothing saved. Earlier questions are real dry-run turns whose records build the
//! in-memory conversation, so memory and follow-up rewriting behave as in a chat.

use crate::agent::{Agent, AgentError, Capture, TurnOptions, collect, validate_question};
use crate::memory::{
    self, PastTurn, RECENT_MESSAGES, RECENT_TURNS, SessionContext, TurnRecord, VERBATIM,
    summary_line,
};
use app::api::admin::{TestQuery, TestQueryResult};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Earlier questions beyond the agent's long-term memory would be forgotten anyway.
pub const MAX_HISTORY: usize = RECENT_TURNS;

#[derive(Debug, thiserror::Error)]
pub enum TestQueryError {
    #[error(transparent)]
    Question(#[from] AgentError),
    #[error("At most {MAX_HISTORY} earlier questions are used; remove some.")]
    TooMuchHistory,
    #[error("earlier question {index} failed: {message}")]
    History { index: usize, message: String },
}

struct Ran {
    record: Option<TurnRecord>,
    text: String,
    elapsed_ms: u64,
    error: Option<String>,
}

async fn dry_turn(
    agent: &Arc<Agent>,
    question: String,
    ctx: &SessionContext,
    shutdown: &CancellationToken,
) -> Ran {
    let slot: Capture = Arc::default();
    let options = TurnOptions {
        dry_run: true,
        context: Some(ctx.clone()),
        capture: Some(slot.clone()),
        shutdown: shutdown.clone(),
        ..Default::default()
    };
    let got = collect(agent.start_turn(question, None, options)).await;
    let record = slot.lock().ok().and_then(|mut s| s.take());
    Ran {
        record,
        text: got.text,
        elapsed_ms: got.elapsed_ms,
        error: got
            .error
            .map(|(code, message)| format!("{code}: {message}")),
    }
}

/// What saving `r` would have added to the conversation (`earlier` are the turns
/// before it): messages, the turn, and the summary of turns older than the last five.
fn remember(ctx: &mut SessionContext, earlier: &[TurnRecord], r: &TurnRecord) {
    if ctx.turns.is_empty() {
        ctx.title = memory::title_from(&r.question);
    }
    ctx.existing = true;
    ctx.recent.push(("user".into(), r.question.clone()));
    if !r.answer.is_empty() {
        ctx.recent.push(("assistant".into(), r.answer.clone()));
    }
    let excess = ctx.recent.len().saturating_sub(RECENT_MESSAGES);
    ctx.recent.drain(..excess);
    ctx.turns.push(PastTurn {
        id: r.id.clone(),
        question: r.question.clone(),
        rewritten: r.rewritten.clone(),
        category: r.category,
        filters: r.filters.clone(),
        cards: r.cards.clone(),
        no_match: r.no_match,
        answer: r.answer.clone(),
    });
    let excess = ctx.turns.len().saturating_sub(RECENT_TURNS);
    ctx.turns.drain(..excess);
    let all: Vec<&TurnRecord> = earlier.iter().chain(std::iter::once(r)).collect();
    let old = all.len().saturating_sub(VERBATIM as usize);
    ctx.summary = all[..old]
        .iter()
        .map(|t| summary_line(&t.question, &t.cards, t.no_match))
        .collect::<Vec<_>>()
        .join("\n");
}

pub async fn run(
    agent: &Arc<Agent>,
    q: &TestQuery,
    shutdown: &CancellationToken,
) -> Result<TestQueryResult, TestQueryError> {
    let question = validate_question(&q.question)?;
    let history: Vec<String> = q
        .history
        .iter()
        .filter(|h| !h.trim().is_empty())
        .map(|h| validate_question(h))
        .collect::<Result<_, _>>()?;
    if history.len() > MAX_HISTORY {
        return Err(TestQueryError::TooMuchHistory);
    }
    let mut ctx = SessionContext {
        session_id: memory::new_id(),
        ..Default::default()
    };
    let mut history_rewrites = Vec::new();
    let mut earlier: Vec<TurnRecord> = Vec::new();
    for (i, h) in history.into_iter().enumerate() {
        let ran = dry_turn(agent, h, &ctx, shutdown).await;
        match (ran.record, ran.error) {
            (Some(r), None) => {
                history_rewrites.push(r.rewritten.clone());
                remember(&mut ctx, &earlier, &r);
                earlier.push(r);
            }
            (_, e) => {
                return Err(TestQueryError::History {
                    index: i + 1,
                    message: e.unwrap_or_else(|| "no record".into()),
                });
            }
        }
    }
    let ran = dry_turn(agent, question, &ctx, shutdown).await;
    let record = ran.record.unwrap_or_default();
    Ok(TestQueryResult {
        answer: if record.answer.is_empty() {
            ran.text
        } else {
            record.answer.clone()
        },
        cards: record.cards,
        source: record.source,
        confidence: record.confidence,
        no_match: record.no_match,
        elapsed_ms: ran.elapsed_ms.max(record.latency_ms),
        trace: record.trace,
        history_rewrites,
        error: ran.error,
    })
}
