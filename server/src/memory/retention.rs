//! Retention: traces (prompts, searches, tool results) are the bulk of the
//! database and only needed while someone may debug a turn; conversations nobody
//! touched for a long time can go. Both are settings (`retention.*`), 0 = keep.

use crate::store::StoreError;
use rusqlite::{Connection, params};

/// (traces dropped, sessions deleted)
pub fn apply(
    c: &Connection,
    trace_days: u32,
    session_days: u32,
) -> Result<(usize, usize), StoreError> {
    let mut traces = 0;
    if trace_days > 0 {
        traces = c.execute(
            "UPDATE turns SET trace = '{}' WHERE live = 0 AND trace != '{}'
               AND created_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?1)",
            params![format!("-{trace_days} days")],
        )?;
    }
    let mut sessions = 0;
    if session_days > 0 {
        sessions = c.execute(
            "DELETE FROM sessions WHERE updated_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?1)",
            params![format!("-{session_days} days")],
        )?;
    }
    Ok((traces, sessions))
}
