//! Conversations in SQLite: sessions (unguessable ids, automatic titles), messages,
//! and one record per turn. The agent reads a session's recent context from here,
//! so follow-ups work across restarts, devices and processes.

mod compact;
mod pg;
pub mod retention;
pub mod sessions;
mod store;

pub use compact::{VERBATIM, compact_history, summary_line};
pub use pg::LEASE_SECS;
pub use store::Conversations;

use crate::search::Filters;
use crate::store::StoreError;
use app::api::conversation::{Category, TurnStatus};
use app::api::{AnswerSource, Card};
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
    pub category: Category,
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

/// Who is asking. Trusted local callers (the CLI, `eval`, the admin console) see
/// every conversation; a browser (its owner cookie) or a user behind a trusted
/// single sign-on proxy sees only their own.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Owner {
    #[default]
    Anyone,
    Id(String),
}

impl Owner {
    pub fn id(&self) -> Option<&str> {
        match self {
            Owner::Anyone => None,
            Owner::Id(id) => Some(id),
        }
    }
}

/// Does the session exist and may `owner` see it? (Someone else's conversation is
/// answered exactly like a missing one.)
pub fn owns(c: &Connection, id: &str, owner: &Owner) -> Result<bool, StoreError> {
    let found: Option<Option<String>> = c
        .query_row("SELECT owner FROM sessions WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?;
    Ok(match (found, owner) {
        (None, _) => false,
        (Some(_), Owner::Anyone) => true,
        (Some(have), Owner::Id(want)) => have.as_deref() == Some(want.as_str()),
    })
}

/// Loads the session, or starts a new one (also when `id` is unknown or belongs to
/// someone else: the new id is reported back to the client).
pub fn context(
    c: &Connection,
    id: Option<&str>,
    owner: &Owner,
) -> Result<SessionContext, StoreError> {
    let id = match id {
        Some(id) if owns(c, id, owner)? => Some(id),
        _ => None,
    };
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
                category: crate::store::closed(r, 3)?,
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
    /// Who the session belongs to when this turn creates it.
    #[serde(default)]
    pub owner: Option<String>,
    pub status: TurnStatus,
    pub question: String,
    pub rewritten: String,
    pub category: Category,
    pub answer: String,
    pub source: AnswerSource,
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

/// Creates the session on its first turn (with its owner) and returns its title.
fn ensure_session(tx: &rusqlite::Transaction, t: &TurnRecord) -> Result<String, StoreError> {
    let title: Option<String> = tx
        .query_row(
            "SELECT title FROM sessions WHERE id = ?1",
            [&t.session_id],
            |r| r.get(0),
        )
        .optional()?;
    Ok(match title {
        Some(t) => t,
        None => {
            let title = title_from(&t.question);
            tx.execute(
                &format!("INSERT INTO sessions (id, title, owner, created_at, updated_at) VALUES (?1, ?2, ?3, {NOW}, {NOW})"),
                params![t.session_id, title, t.owner],
            )?;
            title
        }
    })
}

/// Puts a turn on disk before its first token: the session, the user's message and
/// a live turn row marked interrupted, so a crash mid-answer loses nothing that was
/// shown (`save_partial` keeps the streamed text; `save_turn` completes the row).
pub fn begin_turn(c: &mut Connection, t: &TurnRecord) -> Result<(), StoreError> {
    let tx = c.transaction()?;
    ensure_session(&tx, t)?;
    insert_live(&tx, t)?;
    tx.execute(
        &format!("UPDATE sessions SET updated_at = {NOW} WHERE id = ?1"),
        [&t.session_id],
    )?;
    tx.commit()?;
    Ok(())
}

/// The turn's row (live, interrupted, no answer yet) and the user's message.
fn insert_live(tx: &rusqlite::Transaction, t: &TurnRecord) -> Result<(), StoreError> {
    let seq: i64 = tx.query_row(
        "SELECT coalesce(max(seq), 0) + 1 FROM turns WHERE session_id = ?1",
        [&t.session_id],
        |r| r.get(0),
    )?;
    tx.execute(
        &format!(
            "INSERT INTO turns (id, session_id, seq, status, question, rewritten, category, answer, source, confidence, no_match,
               model, tokens_in, tokens_out, latency_ms, filters, cited, cards, trace, live, created_at)
             VALUES (?1, ?2, ?3, 'interrupted', ?4, ?4, 'general', '', 'system', 0, 0, ?5, 0, 0, 0, ?6, '[]', '[]', '{{}}', 1, {NOW})"
        ),
        params![t.id, t.session_id, seq, t.question, t.model, erased::Json::to_json(&t.filters)],
    )?;
    tx.execute(
        &format!("INSERT INTO messages (session_id, turn_id, role, content, created_at) VALUES (?1, ?2, 'user', ?3, {NOW})"),
        params![t.session_id, t.id, t.question],
    )?;
    Ok(())
}

/// The text streamed so far, while the turn is still live.
pub fn save_partial(c: &Connection, turn_id: &str, answer: &str) -> Result<(), StoreError> {
    c.execute(
        "UPDATE turns SET answer = ?2 WHERE id = ?1 AND live = 1",
        params![turn_id, answer],
    )?;
    Ok(())
}

/// Turns still live when the server starts were cut by a crash: they stay
/// interrupted with what was streamed, and the partial answer joins the
/// conversation's memory. Returns how many.
pub fn recover_interrupted(c: &mut Connection) -> Result<usize, StoreError> {
    let tx = c.transaction()?;
    tx.execute(
        &format!(
            "INSERT INTO messages (session_id, turn_id, role, content, created_at)
             SELECT session_id, id, 'assistant', answer, {NOW} FROM turns WHERE live = 1 AND answer != ''"
        ),
        [],
    )?;
    let n = tx.execute(
        "UPDATE turns SET live = 0, status = 'interrupted' WHERE live = 1",
        [],
    )?;
    tx.commit()?;
    Ok(n)
}

/// Saves a turn as it ended (creating the session on its first turn) and its
/// messages, in one transaction: completes the live row `begin_turn` wrote, or
/// writes the whole turn when there is none. Returns the session title.
pub fn save_turn(c: &mut Connection, t: &TurnRecord) -> Result<String, StoreError> {
    let tx = c.transaction()?;
    let title = ensure_session(&tx, t)?;
    let json = |v: &dyn erased::Json| v.to_json();
    // A turn that was not begun (the CLI, a test) gets its row now; either way the
    // row is then completed.
    let begun = tx
        .query_row("SELECT 1 FROM turns WHERE id = ?1", [&t.id], |_| Ok(()))
        .optional()?
        .is_some();
    if !begun {
        insert_live(&tx, t)?;
    }
    tx.execute(
        "UPDATE turns SET status = ?2, rewritten = ?3, category = ?4, answer = ?5, source = ?6, confidence = ?7,
           no_match = ?8, model = ?9, tokens_in = ?10, tokens_out = ?11, latency_ms = ?12, filters = ?13,
           cited = ?14, cards = ?15, trace = ?16, live = 0
         WHERE id = ?1",
        params![
            t.id,
            t.status.as_str(),
            t.rewritten,
            t.category.as_str(),
            t.answer,
            t.source.as_str(),
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
    pub status: TurnStatus,
    pub question: String,
    pub answer: String,
    pub cards: Vec<Card>,
    pub cited: Vec<String>,
    pub source: AnswerSource,
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
    #[serde(default)]
    pub suggestions: Vec<String>,
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
                json_extract(trace, '$.citations'), json_extract(trace, '$.request'),
                json_extract(trace, '$.suggestions')
         FROM turns WHERE session_id = ?1 ORDER BY seq",
    )?;
    let turns = st
        .query_map([id], |r| {
            Ok(TurnView {
                id: r.get(0)?,
                status: crate::store::closed(r, 1)?,
                question: r.get(2)?,
                answer: r.get(3)?,
                cards: serde_json::from_str(&r.get::<_, String>(4)?).unwrap_or_default(),
                cited: serde_json::from_str(&r.get::<_, String>(5)?).unwrap_or_default(),
                source: crate::store::closed(r, 6)?,
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
                suggestions: r
                    .get::<_, Option<String>>(15)?
                    .and_then(|j| serde_json::from_str(&j).ok())
                    .unwrap_or_default(),
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
    Ok(session(c, id)?.map(SessionView::into_conversation))
}

impl SessionView {
    pub fn into_conversation(self) -> app::api::conversation::Conversation {
        use app::api::conversation::{Conversation, SavedTurn};
        Conversation {
            id: self.id,
            title: self.title,
            created_at: self.created_at,
            updated_at: self.updated_at,
            turns: self
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
                    suggestions: t.suggestions,
                    created_at: t.created_at,
                    feedback: t.feedback.map(|f| f.signum() as i8),
                    feedback_note: t.feedback_note,
                })
                .collect(),
        }
    }
}
