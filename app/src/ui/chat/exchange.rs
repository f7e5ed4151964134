//! One question and its answer. Each part is its own signal, so a new token
//! re-renders only the answer text, and a reloaded turn fills the same shape.

use crate::api::conversation::{SavedTurn, TurnStatus};
use crate::api::{Card, Citation, RequestDraft};
use leptos::prelude::*;

/// How the turn ended (from the `done` event or the saved turn).
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub source: crate::api::AnswerSource,
    pub confidence: f32,
    pub no_match: bool,
    pub elapsed_ms: Option<u64>,
}

#[derive(Clone)]
pub struct Exchange {
    pub id: u64,
    pub question: String,
    pub asked_at: String,
    pub turn_id: RwSignal<Option<String>>,
    pub answer: RwSignal<String>,
    /// The offline answer shown while a language model writes.
    pub preview: RwSignal<Option<String>>,
    pub stage: RwSignal<Option<String>>,
    pub error: RwSignal<Option<String>>,
    pub streaming: RwSignal<bool>,
    pub stopped: RwSignal<bool>,
    pub cards: RwSignal<Vec<Card>>,
    pub citations: RwSignal<Vec<Citation>>,
    pub outcome: RwSignal<Option<Outcome>>,
    pub request: RwSignal<Option<RequestDraft>>,
    /// Next questions offered under the answer.
    pub suggestions: RwSignal<Vec<String>>,
    pub feedback: RwSignal<Option<i8>>,
    /// Milliseconds from sending to the first token, as the browser saw it.
    pub first_token_ms: RwSignal<Option<f64>>,
    pub sent_at: f64,
}

impl Exchange {
    pub fn new(question: String) -> Self {
        Exchange {
            id: next_id(),
            question,
            asked_at: crate::ui::time::now(),
            turn_id: RwSignal::new(None),
            answer: RwSignal::new(String::new()),
            preview: RwSignal::new(None),
            stage: RwSignal::new(Some("Sending…".into())),
            error: RwSignal::new(None),
            streaming: RwSignal::new(true),
            stopped: RwSignal::new(false),
            cards: RwSignal::new(Vec::new()),
            citations: RwSignal::new(Vec::new()),
            outcome: RwSignal::new(None),
            request: RwSignal::new(None),
            suggestions: RwSignal::new(Vec::new()),
            feedback: RwSignal::new(None),
            first_token_ms: RwSignal::new(None),
            sent_at: crate::ui::time::ms(),
        }
    }

    /// A turn loaded from the server (after a reload or from the sidebar).
    pub fn saved(t: SavedTurn) -> Self {
        let ex = Exchange::new(t.question);
        let ex = Exchange {
            asked_at: crate::ui::time::from_iso(&t.created_at),
            ..ex
        };
        ex.turn_id.set(Some(t.id));
        ex.answer.set(t.answer);
        ex.stage.set(None);
        ex.streaming.set(false);
        ex.cards.set(t.cards);
        ex.citations.set(t.citations);
        ex.request.set(t.request);
        ex.suggestions.set(t.suggestions);
        ex.feedback.set(t.feedback);
        match t.status {
            TurnStatus::Complete => ex.outcome.set(Some(Outcome {
                source: t.source,
                confidence: t.confidence,
                no_match: t.no_match,
                elapsed_ms: None,
            })),
            TurnStatus::Interrupted => ex.stopped.set(true),
            _ => ex
                .error
                .set(Some("This answer failed before it was complete.".into())),
        }
        ex
    }

    pub fn fail(&self, message: String) {
        self.stage.set(None);
        self.error.set(Some(message));
    }
}

fn next_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
