//! One question and its streamed answer. Each field is its own signal so a new token
//! re-renders only the answer text, not the transcript.

use leptos::prelude::*;

#[derive(Clone)]
pub struct Exchange {
    pub id: u64,
    pub question: String,
    pub answer: RwSignal<String>,
    pub stage: RwSignal<Option<String>>,
    pub error: RwSignal<Option<String>>,
    pub streaming: RwSignal<bool>,
    pub done: RwSignal<bool>,
    pub stopped: RwSignal<bool>,
}

impl Exchange {
    pub fn new(question: String) -> Self {
        Exchange {
            id: next_id(),
            question,
            answer: RwSignal::new(String::new()),
            stage: RwSignal::new(Some("Sending…".into())),
            error: RwSignal::new(None),
            streaming: RwSignal::new(true),
            done: RwSignal::new(false),
            stopped: RwSignal::new(false),
        }
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
