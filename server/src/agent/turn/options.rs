//! How a turn is run: pacing, shutdown, dry runs, a given context, capture,
//! owner, budget and request id.

use crate::memory::{SessionContext, TurnRecord};
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

#[derive(Clone, Default)]
pub struct TurnOptions {
    /// Pause between streamed pieces of offline text (zero for the CLI and eval).
    pub pace: Duration,
    /// Server shutdown: the turn ends with a `shutting_down` error.
    pub shutdown: CancellationToken,
    /// Do not record the turn (admin test queries).
    pub dry_run: bool,
    /// Answer within this conversation instead of loading the session from SQLite
    /// (a test query replays its earlier questions without saving them).
    pub context: Option<SessionContext>,
    /// Receives the turn's full record when it ends, saved or not.
    pub capture: Option<Capture>,
    /// Who is asking: a conversation is continued only by its owner, and a new
    /// one is theirs.
    pub owner: crate::memory::Owner,
    /// Wall-clock budget of the whole turn (zero: none).
    pub budget: Duration,
    /// The HTTP request that asked (`x-request-id`), kept in the trace.
    pub request_id: Option<String>,
}

/// Where a turn leaves its record for the caller (see `TurnOptions::capture`).
pub type Capture = Arc<std::sync::Mutex<Option<TurnRecord>>>;
