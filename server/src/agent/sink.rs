//! Where a turn writes its events: the stream to one client. Sending fails when the
//! client left or stopped reading, and everything that writes answer text (the
//! offline writer, the LLM stream) stops on that one error, `ClientGone`.

use app::api::ChatEvent;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// How long an event may wait for a client that stopped reading (its buffer is
/// full) before the turn is dropped as if the client had left.
const SEND_DEADLINE: Duration = Duration::from_secs(30);

/// Where a turn writes its events. Sending fails when the client left or stopped
/// reading.
pub struct Sink {
    tx: mpsc::Sender<ChatEvent>,
    pace: Duration,
    /// The answer text streamed so far (saved while the turn is live).
    streamed: Arc<Mutex<String>>,
    /// When the first answer text went out (the latency users feel).
    first_token: OnceLock<Instant>,
}

impl Sink {
    /// `pace`: pause between pieces of offline text (zero: word by word at once).
    pub fn new(tx: mpsc::Sender<ChatEvent>, pace: Duration) -> Sink {
        Sink {
            tx,
            pace,
            streamed: Default::default(),
            first_token: OnceLock::new(),
        }
    }

    /// The answer text streamed so far.
    pub fn streamed(&self) -> String {
        self.streamed.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Resolves when the client has gone (the stream was dropped).
    pub async fn closed(&self) {
        self.tx.closed().await
    }

    /// When the first answer text went out.
    pub fn first_token(&self) -> Option<Instant> {
        self.first_token.get().copied()
    }

    pub async fn send(&self, ev: ChatEvent) -> Result<(), ClientGone> {
        if let ChatEvent::Token { text } = &ev {
            self.first_token.get_or_init(Instant::now);
            if let Ok(mut s) = self.streamed.lock() {
                s.push_str(text);
            }
        }
        self.tx
            .send_timeout(ev, SEND_DEADLINE)
            .await
            .map_err(|_| ClientGone)
    }

    pub async fn stage(&self, name: &str, detail: &str) -> Result<(), ClientGone> {
        self.send(ChatEvent::stage(name, detail)).await
    }

    pub async fn token(&self, text: &str) -> Result<(), ClientGone> {
        self.send(ChatEvent::token(text)).await
    }

    /// Streams offline text: without a pace, word by word (the CLI and eval); with
    /// one, in at most `OFFLINE_PIECES` pieces spread over `OFFLINE_WITHIN`, so a
    /// ready answer appears at once with a hint of motion rather than at typing
    /// speed.
    pub async fn text(&self, text: &str) -> Result<(), ClientGone> {
        let words: Vec<&str> = text.split_inclusive([' ', '\n']).collect();
        if self.pace.is_zero() {
            for w in words {
                self.send(ChatEvent::token(w)).await?;
            }
            return Ok(());
        }
        let per = words.len().div_ceil(OFFLINE_PIECES).max(1);
        let pieces = words.len().div_ceil(per).max(1);
        let pause = (OFFLINE_WITHIN / pieces as u32).min(self.pace);
        for group in words.chunks(per) {
            self.send(ChatEvent::token(group.concat())).await?;
            tokio::time::sleep(pause).await;
        }
        Ok(())
    }
}

/// An offline answer is fully shown within this, in at most this many pieces.
const OFFLINE_WITHIN: Duration = Duration::from_millis(250);
const OFFLINE_PIECES: usize = 25;

/// The receiving side was dropped; stop working.
#[derive(Debug)]
pub struct ClientGone;
