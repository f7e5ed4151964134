//! Conversations in SQLite: sessions (unguessable ids, automatic titles), messages,
//! and one record per turn. The agent reads a session's recent context from here,
//! so follow-ups work across restarts, devices and processes.

mod compact;
pub mod sessions;

pub use compact::{VERBATIM, compact_history, summary_line};

use crate::search::Filters;
use crate::store::StoreError;
use app::api::Card;
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

pub const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// Messages of short-term memory, and turns of long-term memory, given to a turn.
pub const RECENT_MESSAGES: usize = 8;
pub const RECENT_TURNS: usize = 8;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PastTurn {
    pub id: String,
    pub question: String,
    pub rewritten: String,
    pub category: String,
    pub filters: Filters,
    pub cards: Vec<Card>,
    pub no_match: bool,
    pub answer: String,
}

#[derive(Clone, Debug, Default)]
pub struct SessionContext {
    pub session_id: String,
    pub title: String,
    /// The session existed before this turn.
    pub existing: bool,
    /// (role, content), oldest first.
    pub recent: Vec<(String, String)>,
    /// Oldest first.
    pub turns: Vec<PastTurn>,
    pub summary: String,
}

impl SessionContext {
    pub fn last(&self) -> Option<&PastTurn> {
        self.turns.last()
    }
}

/// 128 random bits as 32 hex digits.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// A title from the first question: its first line, at most 60 characters.
pub fn title_from(question: &str) -> String {
    let line = question.lines().next().unwrap_or("").trim();
    let mut t: String = line.chars().take(60).collect();
    if line.chars().count() > 60 {
        t = t.rsplit_once(' ').map_or(t.clone(), |(a, _)| a.to_string());
        t.push('…');
    }
    if t.is_empty() {
        "New conversation".into()
    } else {
        t
    }
}

/// Loads the session, or starts a new one (also when `id` is unknown, e.g. a deleted
/// conversation: the new id is reported back to the client).
pub fn context(c: &Connection, id: Option<&str>) -> Result<SessionContext, StoreError> {
    let found: Option<(String, String, String)> = match id {
        Some(id) => c
            .query_row(
                "SELECT id, title, summary FROM sessions WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?,
        None => None,
    };
    let Some((session_id, title, summary)) = found else {
        return Ok(SessionContext {
            session_id: new_id(),
            existing: false,
            ..Default::default()
        });
    };
    let mut st = c.prepare(
        "SELECT role, content FROM messages WHERE session_id = ?1 ORDER BY id DESC LIMIT ?2",
    )?;
    let mut recent: Vec<(String, String)> = st
        .query_map(params![session_id, RECENT_MESSAGES as i64], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?
        .collect::<Result<_, _>>()?;
    recent.reverse();
    let mut st = c.prepare(
        "SELECT id, question, rewritten, category, filters, cards, no_match, answer FROM turns
         WHERE session_id = ?1 AND status = 'complete' ORDER BY seq DESC LIMIT ?2",
    )?;
    let mut turns: Vec<PastTurn> = st
        .query_map(params![session_id, RECENT_TURNS as i64], |r| {
            Ok(PastTurn {
                id: r.get(0)?,
                question: r.get(1)?,
                rewritten: r.get(2)?,
                category: r.get(3)?,
                filters: serde_json::from_str(&r.get::<_, String>(4)?).unwrap_or_default(),
                cards: serde_json::from_str(&r.get::<_, String>(5)?).unwrap_or_default(),
                no_match: r.get(6)?,
                answer: r.get(7)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    turns.reverse();
    Ok(SessionContext {
        session_id,
        title,
        existing: true,
        recent,
        turns,
        summary,
    })
}

/// Everything saved about one turn.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct TurnRecord {
    pub id: String,
    pub session_id: String,
    pub status: String,
    pub question: String,
    pub rewritten: String,
    pub category: String,
    pub answer: String,
    pub source: String,
    pub confidence: f32,
    pub no_match: bool,
    pub model: String,
    pub tokens_in: u32,
    pub tokens_out: u32,
    pub latency_ms: u64,
    pub filters: Filters,
    pub cited: Vec<String>,
    pub cards: Vec<Card>,
    pub trace: serde_json::Value,
}

/// Saves a turn (creating the session on its first turn) and its two messages, in
/// one transaction. Returns the session title.
pub fn save_turn(c: &mut Connection, t: &TurnRecord) -> Result<String, StoreError> {
    let tx = c.transaction()?;
    let title: Option<String> = tx
        .query_row(
            "SELECT title FROM sessions WHERE id = ?1",
            [&t.session_id],
            |r| r.get(0),
        )
        .optional()?;
    let title = match title {
        Some(t) => t,
        None => {
            let title = title_from(&t.question);
            tx.execute(
                &format!("INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?1, ?2, {NOW}, {NOW})"),
                params![t.session_id, title],
            )?;
            title
        }
    };
    let seq: i64 = tx.query_row(
        "SELECT coalesce(max(seq), 0) + 1 FROM turns WHERE session_id = ?1",
        [&t.session_id],
        |r| r.get(0),
    )?;
    let json = |v: &dyn erased::Json| v.to_json();
    tx.execute(
        &format!(
            "INSERT INTO turns (id, session_id, seq, status, question, rewritten, category, answer, source, confidence, no_match,
               model, tokens_in, tokens_out, latency_ms, filters, cited, cards, trace, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, {NOW})"
        ),
        params![
            t.id,
            t.session_id,
            seq,
            t.status,
            t.question,
            t.rewritten,
            t.category,
            t.answer,
            t.source,
            t.confidence as f64,
            t.no_match,
            t.model,
            t.tokens_in,
            t.tokens_out,
            t.latency_ms as i64,
            json(&t.filters),
            json(&t.cited),
            json(&t.cards),
            t.trace.to_string()
        ],
    )?;
    tx.execute(
        &format!("INSERT INTO messages (session_id, turn_id, role, content, created_at) VALUES (?1, ?2, 'user', ?3, {NOW})"),
        params![t.session_id, t.id, t.question],
    )?;
    if !t.answer.is_empty() {
        tx.execute(
            &format!("INSERT INTO messages (session_id, turn_id, role, content, created_at) VALUES (?1, ?2, 'assistant', ?3, {NOW})"),
            params![t.session_id, t.id, t.answer],
        )?;
    }
    tx.execute(
        &format!("UPDATE sessions SET updated_at = {NOW} WHERE id = ?1"),
        [&t.session_id],
    )?;
    compact::maybe_compact(&tx, &t.session_id)?;
    tx.commit()?;
    Ok(title)
}

/// Serialises anything serde can (a tiny helper so `save_turn` stays readable).
mod erased {
    pub trait Json {
        fn to_json(&self) -> String;
    }
    impl<T: serde::Serialize> Json for T {
        fn to_json(&self) -> String {
            serde_json::to_string(self).unwrap_or_else(|_| "null".into())
        }
    }
}

/// A session as the UI, the CLI and exports show it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionView {
    pub id: String,
    pub title: String,
    pub created_at: String,
    pub updated_at: String,
    pub turns: Vec<TurnView>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnView {
    pub id: String,
    pub status: String,
    pub question: String,
    pub answer: String,
    pub cards: Vec<Card>,
    pub cited: Vec<String>,
    pub source: String,
    pub confidence: f32,
    pub no_match: bool,
    pub model: String,
    pub created_at: String,
    pub feedback: Option<i64>,
    pub feedback_note: Option<String>,
    /// From the trace: the validated citations and the request draft (no match).
    #[serde(default)]
    pub citations: Vec<app::api::Citation>,
    #[serde(default)]
    pub request: Option<app::api::RequestDraft>,
}

pub fn session(c: &Connection, id: &str) -> Result<Option<SessionView>, StoreError> {
    let Some((title, created_at, updated_at)) = c
        .query_row(
            "SELECT title, created_at, updated_at FROM sessions WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?
    else {
        return Ok(None);
    };
    let mut st = c.prepare(
        "SELECT id, status, question, answer, cards, cited, source, confidence, no_match, model, created_at, feedback, feedback_note,
                json_extract(trace, '$.citations'), json_extract(trace, '$.request')
         FROM turns WHERE session_id = ?1 ORDER BY seq",
    )?;
    let turns = st
        .query_map([id], |r| {
            Ok(TurnView {
                id: r.get(0)?,
                status: r.get(1)?,
                question: r.get(2)?,
                answer: r.get(3)?,
                cards: serde_json::from_str(&r.get::<_, String>(4)?).unwrap_or_default(),
                cited: serde_json::from_str(&r.get::<_, String>(5)?).unwrap_or_default(),
                source: r.get(6)?,
                confidence: r.get::<_, f64>(7)? as f32,
                no_match: r.get(8)?,
                model: r.get(9)?,
                created_at: r.get(10)?,
                feedback: r.get(11)?,
                feedback_note: r.get(12)?,
                citations: r
                    .get::<_, Option<String>>(13)?
                    .and_then(|j| serde_json::from_str(&j).ok())
                    .unwrap_or_default(),
                request: r
                    .get::<_, Option<String>>(14)?
                    .and_then(|j| serde_json::from_str(&j).ok()),
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(Some(SessionView {
        id: id.to_string(),
        title,
        created_at,
        updated_at,
        turns,
    }))
}

/// The session as the browser renders it after a reload.
pub fn conversation(
    c: &Connection,
    id: &str,
) -> Result<Option<app::api::conversation::Conversation>, StoreError> {
    use app::api::conversation::{Conversation, SavedTurn};
    Ok(session(c, id)?.map(|s| Conversation {
        id: s.id,
        title: s.title,
        created_at: s.created_at,
        updated_at: s.updated_at,
        turns: s
            .turns
            .into_iter()
            .map(|t| SavedTurn {
                id: t.id,
                status: t.status,
                question: t.question,
                answer: t.answer,
                cards: t.cards,
                citations: t.citations,
                source: t.source,
                confidence: t.confidence,
                no_match: t.no_match,
                request: t.request,
                created_at: t.created_at,
                feedback: t.feedback.map(|f| f.signum() as i8),
                feedback_note: t.feedback_note,
            })
            .collect(),
    }))
}
