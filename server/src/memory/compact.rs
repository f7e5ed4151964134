//! History compaction: the last five exchanges stay verbatim; older ones are
//! condensed into the session summary (question and the bundles recommended), which
//! is what a follow-up many turns later still needs.

use rusqlite::{Transaction, params};

/// Exchanges kept verbatim.
pub const VERBATIM: i64 = 5;

pub fn maybe_compact(tx: &Transaction, session_id: &str) -> rusqlite::Result<()> {
    let turns: i64 = tx.query_row(
        "SELECT count(*) FROM turns WHERE session_id = ?1",
        [session_id],
        |r| r.get(0),
    )?;
    if turns <= VERBATIM {
        return Ok(());
    }
    let summary = compact_history(tx, session_id)?;
    tx.execute(
        "UPDATE sessions SET summary = ?2 WHERE id = ?1",
        params![session_id, summary],
    )?;
    Ok(())
}

/// Older turns remembered in the summary: it stays bounded however long the
/// conversation (the oldest lines go first).
pub const SUMMARY_LINES: i64 = 40;

/// One line per turn older than the last five (at most `SUMMARY_LINES`, the most
/// recent): "Q: … → bundles …".
pub fn compact_history(tx: &rusqlite::Connection, session_id: &str) -> rusqlite::Result<String> {
    let mut st = tx.prepare(
        "SELECT question, cards, no_match FROM turns WHERE session_id = ?1 ORDER BY seq DESC LIMIT ?3 OFFSET ?2",
    )?;
    let mut lines: Vec<String> = st
        .query_map(params![session_id, VERBATIM, SUMMARY_LINES], |r| {
            let q: String = r.get(0)?;
            let cards: Vec<app::api::Card> =
                serde_json::from_str(&r.get::<_, String>(1)?).unwrap_or_default();
            Ok(summary_line(&q, &cards, r.get(2)?))
        })?
        .collect::<Result<_, _>>()?;
    lines.reverse();
    Ok(lines.join("\n"))
}

/// How a turn is remembered once it is older than the last five: "Q: … → bundles".
pub fn summary_line(question: &str, cards: &[app::api::Card], no_match: bool) -> String {
    let outcome = if no_match {
        "no match".to_string()
    } else {
        let names: Vec<&str> = cards.iter().take(3).map(|c| c.key.as_str()).collect();
        names.join(", ")
    };
    format!(
        "Q: {} → {}",
        question.chars().take(160).collect::<String>(),
        outcome
    )
}
