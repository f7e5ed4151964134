//! One turn: understand → rewrite → plan → retrieve → write → save → done, streamed
//! as events. The turn's task watches three things at once: its work, the client
//! (when the stream is dropped the work is dropped, and with it any LLM request),
//! and server shutdown. Whatever happens, the turn is saved: complete before its
//! `done` event, or marked interrupted or failed.

mod options;
mod run;
mod stages;
mod state;

pub use options::{Capture, TurnOptions};

use crate::agent::Agent;
use crate::agent::sink::Sink;
use crate::memory::SessionContext;
use app::api::conversation::TurnStatus;
use app::api::{ChatEvent, ErrorCode};
use futures::Stream;
use state::{Failure, State, capture, record_metrics};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;
use tokio::sync::mpsc;
use tracing::Instrument;

/// Turns searching and grounding (without a model, understanding too) at once.
/// Those stages only compute (the embedder, scoring, bundle records) and wait
/// for nothing but the embedder's workers: two hundred streams running them
/// together just interleave, so every turn finishes as late as the last and all
/// their working sets are alive at once. A fair queue finishes turns in arrival
/// order with a bounded working set; the model's calls (classify, rewrite,
/// write) and the database work before them stay outside it. Four per core keep
/// the embedder's workers fed with batches: with 200 streams on 2 cores, peak
/// RSS 300–332 MB ungated, 230–266 MB at 8, turns/s within noise.
pub(crate) fn computing_at_once() -> usize {
    4 * std::thread::available_parallelism().map_or(2, |n| n.get())
}

pub struct Turn {
    rx: mpsc::Receiver<ChatEvent>,
}

impl Stream for Turn {
    type Item = ChatEvent;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<ChatEvent>> {
        self.rx.poll_recv(cx)
    }
}

impl Agent {
    pub fn start_turn(
        self: &Arc<Self>,
        question: String,
        session_id: Option<String>,
        options: TurnOptions,
    ) -> Turn {
        let (tx, rx) = mpsc::channel(256);
        let agent = self.clone();
        tokio::spawn(
            async move {
                let sink = Sink::new(tx, options.pace);
                let mut state = State {
                    id: crate::memory::new_id(),
                    // A fresh id until the context is loaded, so even a turn interrupted
                    // at once is saved (a client-given id is used only once looked up).
                    ctx: SessionContext {
                        session_id: crate::memory::new_id(),
                        ..Default::default()
                    },
                    question,
                    model: agent
                        .llm
                        .as_ref()
                        .map_or("offline".into(), |l| l.model().to_string()),
                    started: Some(Instant::now()),
                    started_at: Some(std::time::SystemTime::now()),
                    request_id: options.request_id.clone(),
                    ..Default::default()
                };
                let turn_id = state.id.clone();
                let outcome = {
                    let work = agent.run(&mut state, session_id.as_deref(), &sink, &options);
                    let budget = async {
                        if options.budget.is_zero() {
                            std::future::pending::<()>().await
                        } else {
                            tokio::time::sleep(options.budget).await
                        }
                    };
                    let partial = agent.save_partials(&turn_id, &sink, options.dry_run);
                    tokio::select! {
                        _ = options.shutdown.cancelled() => Err(Failure::ShuttingDown),
                        _ = sink.closed() => Err(Failure::ClientGone),
                        _ = budget => Err(Failure::OverBudget),
                        _ = partial => Err(Failure::ClientGone),
                        r = work => r,
                    }
                };
                // What reached the client, when the turn ends before writing its answer.
                if state.answer.is_empty() {
                    state.answer = sink.streamed();
                }
                if !options.dry_run {
                    record_metrics(&state, &outcome);
                }
                if let Err(failure) = outcome {
                    agent
                        .end_unfinished(&mut state, failure, &options, &sink)
                        .await;
                }
            }
            .instrument(tracing::Span::current()),
        );
        Turn { rx }
    }

    /// A turn that ended before its answer: saved as interrupted or failed with
    /// what was streamed, and the client told why (when it is still there).
    async fn end_unfinished(
        &self,
        state: &mut State,
        failure: Failure,
        options: &TurnOptions,
        sink: &Sink,
    ) {
        let (status, last) = match failure {
            Failure::ClientGone => (TurnStatus::Interrupted, None),
            Failure::ShuttingDown => (
                TurnStatus::Interrupted,
                Some(error_event(ErrorCode::ShuttingDown, None)),
            ),
            Failure::OverBudget => {
                state.errors.push(format!(
                    "the turn exceeded its budget of {} s",
                    options.budget.as_secs()
                ));
                (
                    TurnStatus::Failed,
                    Some(error_event(ErrorCode::TurnTimeout, None)),
                )
            }
            Failure::Agent(e) => {
                tracing::error!(error = %e, "turn failed");
                state.errors.push(e.to_string());
                (
                    TurnStatus::Failed,
                    Some(error_event(e.code(), Some(e.public_message()))),
                )
            }
        };
        let mut record = state.record(status);
        record.owner = options.owner.id().map(str::to_string);
        capture(&options.capture, &record);
        if !options.dry_run
            && !state.ctx.session_id.is_empty()
            && let Err(e) = self.conversations.save_turn(record).await
        {
            tracing::error!(error = %e, "could not save an unfinished turn");
        }
        if let Some(ev) = last {
            // The preview's cards and citations were on screen beside the
            // model's partial text; the failed turn keeps only what it
            // saved, so the screen shows what a reload will.
            if state.previewed && !state.answer.is_empty() {
                let _ = sink
                    .send(ChatEvent::Cards {
                        cards: state.outcome.cards.clone(),
                    })
                    .await;
                let _ = sink
                    .send(ChatEvent::Citations {
                        citations: state.outcome.citations.clone(),
                    })
                    .await;
            }
            let _ = sink.send(ev).await;
        }
    }
}

fn error_event(code: ErrorCode, message: Option<String>) -> ChatEvent {
    ChatEvent::Error {
        code: code.as_str().to_string(),
        message: message.unwrap_or_else(|| code.default_message().to_string()),
    }
}
