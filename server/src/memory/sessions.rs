//! Managing conversations: list, rename, delete, feedback, and a turn's full record
//! (the sidebar, the admin traces and `eval --mode agent` read these).

use super::{NOW, Owner, owns};
use crate::store::StoreError;
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionSummary {
    pub id: String,
    pub title: String,
    pub updated_at: String,
    pub turns: u32,
}

/// The owner's sessions (all of them for `Owner::Anyone`), most recently updated
/// first.
pub fn list(
    c: &Connection,
    owner: &Owner,
    limit: usize,
) -> Result<Vec<SessionSummary>, StoreError> {
    let mut st = c.prepare(
        "SELECT s.id, s.title, s.updated_at, (SELECT count(*) FROM turns t WHERE t.session_id = s.id)
         FROM sessions s WHERE ?2 IS NULL OR s.owner = ?2 ORDER BY s.updated_at DESC, s.id LIMIT ?1",
    )?;
    let rows = st
        .query_map(params![limit as i64, owner.id()], |r| {
            Ok(SessionSummary {
                id: r.get(0)?,
                title: r.get(1)?,
                updated_at: r.get(2)?,
                turns: r.get(3)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// False when there is no such session (or it is someone else's).
pub fn rename(c: &Connection, owner: &Owner, id: &str, title: &str) -> Result<bool, StoreError> {
    if !owns(c, id, owner)? {
        return Ok(false);
    }
    let n = c.execute(
        &format!("UPDATE sessions SET title = ?2, updated_at = {NOW} WHERE id = ?1"),
        params![id, title],
    )?;
    Ok(n > 0)
}

/// Deletes the session with its turns and messages (foreign keys cascade); false
/// when there is no such session (or it is someone else's).
pub fn delete(c: &Connection, owner: &Owner, id: &str) -> Result<bool, StoreError> {
    if !owns(c, id, owner)? {
        return Ok(false);
    }
    Ok(c.execute("DELETE FROM sessions WHERE id = ?1", [id])? > 0)
}

/// Thumbs up (+1) or down (-1) with an optional note; false when the turn is unknown.
pub fn set_feedback(
    c: &Connection,
    owner: &Owner,
    turn_id: &str,
    value: i64,
    note: Option<&str>,
) -> Result<bool, StoreError> {
    let session: Option<String> = c
        .query_row(
            "SELECT session_id FROM turns WHERE id = ?1",
            [turn_id],
            |r| r.get(0),
        )
        .optional()?;
    if !session.is_some_and(|s| owns(c, &s, owner).unwrap_or(false)) {
        return Ok(false);
    }
    let n = c.execute(
        "UPDATE turns SET feedback = ?2, feedback_note = ?3 WHERE id = ?1",
        params![turn_id, value.signum(), note],
    )?;
    Ok(n > 0)
}

/// The classification and trace saved with a turn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnTrace {
    pub id: String,
    pub session_id: String,
    pub category: app::api::conversation::Category,
    pub rewritten: String,
    pub latency_ms: u64,
    pub trace: serde_json::Value,
}

pub fn trace(c: &Connection, turn_id: &str) -> Result<Option<TurnTrace>, StoreError> {
    Ok(c.query_row(
        "SELECT id, session_id, category, rewritten, latency_ms, trace FROM turns WHERE id = ?1",
        [turn_id],
        |r| {
            Ok(TurnTrace {
                id: r.get(0)?,
                session_id: r.get(1)?,
                category: crate::store::closed(r, 2)?,
                rewritten: r.get(3)?,
                latency_ms: r.get::<_, i64>(4)? as u64,
                trace: serde_json::from_str(&r.get::<_, String>(5)?).unwrap_or_default(),
            })
        },
    )
    .optional()?)
}
