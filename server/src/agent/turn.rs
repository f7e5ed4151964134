//! One turn as a stream. The work runs in its own task feeding a channel; the stream
//! owns an abort-on-drop handle, so a client that goes away cancels the turn (and any
//! LLM request in it).

use super::{Agent, AgentError};
use app::api::{ChatEvent, ErrorCode};
use futures::Stream;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::AbortOnDropHandle;

#[derive(Clone, Default)]
pub struct TurnOptions {
    /// Pause between streamed pieces of offline text (zero for the CLI and eval).
    pub pace: Duration,
    /// Server shutdown: the turn ends with a `shutting_down` error.
    pub shutdown: CancellationToken,
}

pub struct Turn {
    rx: mpsc::Receiver<ChatEvent>,
    _task: AbortOnDropHandle<()>,
}

impl Stream for Turn {
    type Item = ChatEvent;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<ChatEvent>> {
        self.rx.poll_recv(cx)
    }
}

/// Where a turn writes its events. Sending fails only when the client left.
pub(crate) struct Sink {
    tx: mpsc::Sender<ChatEvent>,
    pace: Duration,
}

impl Sink {
    pub(crate) async fn send(&self, ev: ChatEvent) -> Result<(), ClientGone> {
        self.tx.send(ev).await.map_err(|_| ClientGone)
    }

    /// Streams text piece by piece (words with their trailing space), at the pace.
    pub(crate) async fn text(&self, text: &str) -> Result<(), ClientGone> {
        for piece in text.split_inclusive(' ') {
            self.send(ChatEvent::token(piece)).await?;
            if !self.pace.is_zero() {
                tokio::time::sleep(self.pace).await;
            }
        }
        Ok(())
    }
}

/// The receiving side was dropped; stop working.
#[derive(Debug)]
pub(crate) struct ClientGone;

impl Agent {
    pub fn start_turn(
        self: &Arc<Self>,
        question: String,
        session_id: Option<String>,
        options: TurnOptions,
    ) -> Turn {
        let (tx, rx) = mpsc::channel(64);
        let agent = self.clone();
        let task = tokio::spawn(async move {
            let sink = Sink {
                tx,
                pace: options.pace,
            };
            let started = Instant::now();
            let outcome = tokio::select! {
                _ = options.shutdown.cancelled() => Err(TurnFailure::ShuttingDown),
                r = agent.run(&question, session_id.as_deref(), &sink) => r,
            };
            let last = match outcome {
                Ok(()) => ChatEvent::Done {
                    turn_id: None,
                    session_id,
                    elapsed_ms: started.elapsed().as_millis() as u64,
                },
                Err(TurnFailure::ClientGone) => return,
                Err(TurnFailure::ShuttingDown) => error_event(ErrorCode::ShuttingDown, None),
                Err(TurnFailure::Agent(e)) => {
                    tracing::error!(error = %e, "turn failed");
                    error_event(e.code(), Some(e.public_message()))
                }
            };
            let _ = sink.send(last).await;
        });
        Turn {
            rx,
            _task: AbortOnDropHandle::new(task),
        }
    }

    /// Until retrieval exists the only honest answer is the index state.
    async fn run(
        &self,
        _question: &str,
        _session: Option<&str>,
        sink: &Sink,
    ) -> Result<(), TurnFailure> {
        sink.send(ChatEvent::stage(
            "understand",
            "Understanding the question…",
        ))
        .await?;
        sink.send(ChatEvent::stage("search", "Checking the index…"))
            .await?;
        let index = self
            .db
            .read(crate::catalog::index_summary)
            .await
            .map_err(AgentError::from)?;
        sink.send(ChatEvent::stage("write", "Writing…")).await?;
        let answer = if index.bundles == 0 {
            "The index is empty, so I have no codebundles to recommend yet. \
             Run `registry-chat index` to index a codecollection (the README's start command \
             indexes the bundled sample registry), then ask again."
                .to_string()
        } else {
            format!(
                "The index holds {} codebundles in {} collections, but search is not available \
                 in this build yet, so I cannot recommend one.",
                index.bundles, index.collections
            )
        };
        sink.text(&answer).await?;
        Ok(())
    }
}

fn error_event(code: ErrorCode, message: Option<String>) -> ChatEvent {
    ChatEvent::Error {
        code: code.as_str().to_string(),
        message: message.unwrap_or_else(|| code.default_message().to_string()),
    }
}

pub(crate) enum TurnFailure {
    ClientGone,
    ShuttingDown,
    Agent(AgentError),
}

impl From<ClientGone> for TurnFailure {
    fn from(_: ClientGone) -> Self {
        TurnFailure::ClientGone
    }
}

impl From<AgentError> for TurnFailure {
    fn from(e: AgentError) -> Self {
        TurnFailure::Agent(e)
    }
}
