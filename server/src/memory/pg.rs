//! The same conversation operations on PostgreSQL (`database.url`), so any replica
//! can continue any conversation. Each function mirrors the SQLite one of the same
//! name in this module; the schema is the same, only the dialect differs.

use super::compact::{SUMMARY_LINES, VERBATIM, summary_line};
use super::erased::Json;
use super::sessions::{SessionSummary, TurnTrace};
use super::{
    Owner, PastTurn, RECENT_MESSAGES, RECENT_TURNS, SessionContext, SessionView, TurnRecord,
    TurnView, new_id, title_from,
};
use crate::store::StoreError;
use crate::store::pg::{Pg, closed, json};
use tokio_postgres::GenericClient;
use tokio_postgres::Row;

/// A live turn whose replica wrote nothing for this long was cut (the replica died):
/// the streaming replica saves the answer every few seconds while it streams.
pub const LEASE_SECS: i64 = 120;

pub async fn owns(c: &impl GenericClient, id: &str, owner: &Owner) -> Result<bool, StoreError> {
    let found = c
        .query_opt("SELECT owner FROM sessions WHERE id = $1", &[&id])
        .await?;
    Ok(match (found, owner) {
        (None, _) => false,
        (Some(_), Owner::Anyone) => true,
        (Some(r), Owner::Id(want)) => r.get::<_, Option<&str>>(0) == Some(want.as_str()),
    })
}

pub async fn context(
    pg: &Pg,
    id: Option<&str>,
    owner: &Owner,
) -> Result<SessionContext, StoreError> {
    let c = pg.client().await?;
    let id = match id {
        Some(id) if owns(&**c, id, owner).await? => Some(id),
        _ => None,
    };
    let found = match id {
        Some(id) => {
            c.query_opt(
                "SELECT id, title, summary FROM sessions WHERE id = $1",
                &[&id],
            )
            .await?
        }
        None => None,
    };
    let Some(found) = found else {
        return Ok(SessionContext {
            session_id: new_id(),
            existing: false,
            ..Default::default()
        });
    };
    let session_id: String = found.get(0);
    let mut recent: Vec<(String, String)> = c
        .query(
            "SELECT role, content FROM messages WHERE session_id = $1 ORDER BY id DESC LIMIT $2",
            &[&session_id, &(RECENT_MESSAGES as i64)],
        )
        .await?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    recent.reverse();
    let rows = c
        .query(
            "SELECT id, question, rewritten, category, filters, cards, no_match, answer FROM turns
             WHERE session_id = $1 AND status = 'complete' ORDER BY seq DESC LIMIT $2",
            &[&session_id, &(RECENT_TURNS as i64)],
        )
        .await?;
    let mut turns = rows
        .iter()
        .map(|r| {
            Ok(PastTurn {
                id: r.get(0),
                question: r.get(1),
                rewritten: r.get(2),
                category: closed(r, 3)?,
                filters: json(r, 4),
                cards: json(r, 5),
                no_match: r.get(6),
                answer: r.get(7),
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    turns.reverse();
    Ok(SessionContext {
        session_id,
        title: found.get(1),
        existing: true,
        recent,
        turns,
        summary: found.get(2),
    })
}

/// Creates the session on its first turn and returns its title. `ON CONFLICT`
/// because two replicas may race to create it.
async fn ensure_session(tx: &impl GenericClient, t: &TurnRecord) -> Result<String, StoreError> {
    tx.execute(
        "INSERT INTO sessions (id, title, owner, created_at, updated_at)
         VALUES ($1, $2, $3, rc_now(), rc_now()) ON CONFLICT (id) DO NOTHING",
        &[&t.session_id, &title_from(&t.question), &t.owner],
    )
    .await?;
    let row = tx
        .query_one("SELECT title FROM sessions WHERE id = $1", &[&t.session_id])
        .await?;
    Ok(row.get(0))
}

async fn insert_live(tx: &impl GenericClient, t: &TurnRecord) -> Result<(), StoreError> {
    // The session row is locked first so two turns of one session (two replicas,
    // two tabs) take consecutive sequence numbers instead of colliding.
    tx.execute(
        "SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE",
        &[&t.session_id],
    )
    .await?;
    tx.execute(
        "INSERT INTO turns (id, session_id, seq, status, question, rewritten, category, answer, source,
           confidence, no_match, model, tokens_in, tokens_out, latency_ms, filters, cited, cards, trace,
           live, heartbeat, created_at)
         SELECT $1, $2, coalesce(max(seq), 0) + 1, 'interrupted', $3, $3, 'general', '', 'system',
           0, false, $4, 0, 0, 0, $5, '[]', '[]', '{}', true, now(), rc_now()
         FROM turns WHERE session_id = $2",
        &[&t.id, &t.session_id, &t.question, &t.model, &t.filters.to_json()],
    )
    .await?;
    tx.execute(
        "INSERT INTO messages (session_id, turn_id, role, content, created_at)
         VALUES ($1, $2, 'user', $3, rc_now())",
        &[&t.session_id, &t.id, &t.question],
    )
    .await?;
    Ok(())
}

pub async fn begin_turn(pg: &Pg, t: &TurnRecord) -> Result<(), StoreError> {
    let mut c = pg.client().await?;
    let tx = c.transaction().await?;
    ensure_session(&*tx, t).await?;
    insert_live(&*tx, t).await?;
    tx.execute(
        "UPDATE sessions SET updated_at = rc_now() WHERE id = $1",
        &[&t.session_id],
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Also renews the turn's lease: the replica streaming it is alive.
pub async fn save_partial(pg: &Pg, turn_id: &str, answer: &str) -> Result<(), StoreError> {
    pg.client()
        .await?
        .execute(
            "UPDATE turns SET answer = $2, heartbeat = now() WHERE id = $1 AND live",
            &[&turn_id, &answer],
        )
        .await?;
    Ok(())
}

/// Live turns whose lease ran out: the replica streaming them is gone. Any replica
/// may run this at any time; `SKIP LOCKED` keeps two sweeps from doubling a message.
pub async fn recover_interrupted(pg: &Pg) -> Result<usize, StoreError> {
    let n = pg
        .client()
        .await?
        .execute(
            "WITH cut AS (
                 SELECT id, session_id, answer FROM turns
                 WHERE live AND heartbeat < now() - make_interval(secs => $1)
                 FOR UPDATE SKIP LOCKED),
             kept AS (
                 INSERT INTO messages (session_id, turn_id, role, content, created_at)
                 SELECT session_id, id, 'assistant', answer, rc_now() FROM cut WHERE answer != '')
             UPDATE turns SET live = false, status = 'interrupted' FROM cut WHERE turns.id = cut.id",
            &[&(LEASE_SECS as f64)],
        )
        .await?;
    Ok(n as usize)
}

pub async fn save_turn(pg: &Pg, t: &TurnRecord) -> Result<String, StoreError> {
    let mut c = pg.client().await?;
    let tx = c.transaction().await?;
    let title = ensure_session(&*tx, t).await?;
    let begun = tx
        .query_opt("SELECT 1 FROM turns WHERE id = $1", &[&t.id])
        .await?
        .is_some();
    if !begun {
        insert_live(&*tx, t).await?;
    }
    tx.execute(
        "UPDATE turns SET status = $2, rewritten = $3, category = $4, answer = $5, source = $6,
           confidence = $7, no_match = $8, model = $9, tokens_in = $10, tokens_out = $11,
           latency_ms = $12, filters = $13, cited = $14, cards = $15, trace = $16,
           live = false, heartbeat = NULL
         WHERE id = $1",
        &[
            &t.id,
            &t.status.as_str(),
            &t.rewritten,
            &t.category.as_str(),
            &t.answer,
            &t.source.as_str(),
            &(t.confidence as f64),
            &t.no_match,
            &t.model,
            &(t.tokens_in as i64),
            &(t.tokens_out as i64),
            &(t.latency_ms as i64),
            &t.filters.to_json(),
            &t.cited.to_json(),
            &t.cards.to_json(),
            &t.trace.to_string(),
        ],
    )
    .await?;
    if !t.answer.is_empty() {
        tx.execute(
            "INSERT INTO messages (session_id, turn_id, role, content, created_at)
             VALUES ($1, $2, 'assistant', $3, rc_now())",
            &[&t.session_id, &t.id, &t.answer],
        )
        .await?;
    }
    tx.execute(
        "UPDATE sessions SET updated_at = rc_now() WHERE id = $1",
        &[&t.session_id],
    )
    .await?;
    maybe_compact(&*tx, &t.session_id).await?;
    tx.commit().await?;
    Ok(title)
}

async fn maybe_compact(tx: &impl GenericClient, session_id: &str) -> Result<(), StoreError> {
    let turns: i64 = tx
        .query_one(
            "SELECT count(*) FROM turns WHERE session_id = $1",
            &[&session_id],
        )
        .await?
        .get(0);
    if turns <= VERBATIM {
        return Ok(());
    }
    let rows = tx
        .query(
            "SELECT question, cards, no_match FROM turns WHERE session_id = $1
             ORDER BY seq DESC LIMIT $3 OFFSET $2",
            &[&session_id, &VERBATIM, &SUMMARY_LINES],
        )
        .await?;
    let mut lines: Vec<String> = rows
        .iter()
        .map(|r| {
            let cards: Vec<app::api::Card> = json(r, 1);
            summary_line(r.get(0), &cards, r.get(2))
        })
        .collect();
    lines.reverse();
    tx.execute(
        "UPDATE sessions SET summary = $2 WHERE id = $1",
        &[&session_id, &lines.join("\n")],
    )
    .await?;
    Ok(())
}

pub async fn session(pg: &Pg, id: &str) -> Result<Option<SessionView>, StoreError> {
    let c = pg.client().await?;
    let Some(s) = c
        .query_opt(
            "SELECT title, created_at, updated_at FROM sessions WHERE id = $1",
            &[&id],
        )
        .await?
    else {
        return Ok(None);
    };
    let rows = c
        .query(
            "SELECT id, status, question, answer, cards, cited, source, confidence, no_match, model,
                    created_at, feedback, feedback_note,
                    (trace::jsonb -> 'citations')::text, (trace::jsonb -> 'request')::text,
                    (trace::jsonb -> 'suggestions')::text
             FROM turns WHERE session_id = $1 ORDER BY seq",
            &[&id],
        )
        .await?;
    let parsed = |r: &Row, col: usize| -> Option<serde_json::Value> {
        r.get::<_, Option<&str>>(col)
            .and_then(|j| serde_json::from_str(j).ok())
    };
    let turns = rows
        .iter()
        .map(|r| {
            Ok(TurnView {
                id: r.get(0),
                status: closed(r, 1)?,
                question: r.get(2),
                answer: r.get(3),
                cards: json(r, 4),
                cited: json(r, 5),
                source: closed(r, 6)?,
                confidence: r.get::<_, f64>(7) as f32,
                no_match: r.get(8),
                model: r.get(9),
                created_at: r.get(10),
                feedback: r.get(11),
                feedback_note: r.get(12),
                citations: parsed(r, 13)
                    .and_then(|v| serde_json::from_value(v).ok())
                    .unwrap_or_default(),
                request: parsed(r, 14).and_then(|v| serde_json::from_value(v).ok()),
                suggestions: parsed(r, 15)
                    .and_then(|v| serde_json::from_value(v).ok())
                    .unwrap_or_default(),
            })
        })
        .collect::<Result<_, StoreError>>()?;
    Ok(Some(SessionView {
        id: id.to_string(),
        title: s.get(0),
        created_at: s.get(1),
        updated_at: s.get(2),
        turns,
    }))
}

pub async fn list(pg: &Pg, owner: &Owner, limit: usize) -> Result<Vec<SessionSummary>, StoreError> {
    let rows = pg
        .client()
        .await?
        .query(
            "SELECT s.id, s.title, s.updated_at, (SELECT count(*) FROM turns t WHERE t.session_id = s.id)
             FROM sessions s WHERE $2::text IS NULL OR s.owner = $2
             ORDER BY s.updated_at DESC, s.id LIMIT $1",
            &[&(limit as i64), &owner.id()],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| SessionSummary {
            id: r.get(0),
            title: r.get(1),
            updated_at: r.get(2),
            turns: r.get::<_, i64>(3) as u32,
        })
        .collect())
}

pub async fn rename(pg: &Pg, owner: &Owner, id: &str, title: &str) -> Result<bool, StoreError> {
    let c = pg.client().await?;
    if !owns(&**c, id, owner).await? {
        return Ok(false);
    }
    let n = c
        .execute(
            "UPDATE sessions SET title = $2, updated_at = rc_now() WHERE id = $1",
            &[&id, &title],
        )
        .await?;
    Ok(n > 0)
}

pub async fn delete(pg: &Pg, owner: &Owner, id: &str) -> Result<bool, StoreError> {
    let c = pg.client().await?;
    if !owns(&**c, id, owner).await? {
        return Ok(false);
    }
    Ok(c.execute("DELETE FROM sessions WHERE id = $1", &[&id])
        .await?
        > 0)
}

pub async fn set_feedback(
    pg: &Pg,
    owner: &Owner,
    turn_id: &str,
    value: i64,
    note: Option<&str>,
) -> Result<bool, StoreError> {
    let c = pg.client().await?;
    let Some(r) = c
        .query_opt("SELECT session_id FROM turns WHERE id = $1", &[&turn_id])
        .await?
    else {
        return Ok(false);
    };
    if !owns(&**c, r.get(0), owner).await? {
        return Ok(false);
    }
    let n = c
        .execute(
            "UPDATE turns SET feedback = $2, feedback_note = $3 WHERE id = $1",
            &[&turn_id, &value.signum(), &note],
        )
        .await?;
    Ok(n > 0)
}

pub async fn trace(pg: &Pg, turn_id: &str) -> Result<Option<TurnTrace>, StoreError> {
    let row = pg
        .client()
        .await?
        .query_opt(
            "SELECT id, session_id, category, rewritten, latency_ms, trace FROM turns WHERE id = $1",
            &[&turn_id],
        )
        .await?;
    row.map(|r| {
        Ok(TurnTrace {
            id: r.get(0),
            session_id: r.get(1),
            category: closed(&r, 2)?,
            rewritten: r.get(3),
            latency_ms: r.get::<_, i64>(4) as u64,
            trace: json(&r, 5),
        })
    })
    .transpose()
}

/// `$1` days ago in the stored timestamp format.
const DAYS_AGO: &str = "to_char((now() - make_interval(days => $1)) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')";

/// (traces dropped, sessions deleted), as `retention::apply`.
pub async fn retention(
    pg: &Pg,
    trace_days: u32,
    session_days: u32,
) -> Result<(usize, usize), StoreError> {
    let c = pg.client().await?;
    let mut traces = 0;
    if trace_days > 0 {
        traces = c
            .execute(
                &format!(
                    "UPDATE turns SET trace = '{{}}' WHERE NOT live AND trace != '{{}}' AND created_at < {DAYS_AGO}"
                ),
                &[&(trace_days as i32)],
            )
            .await? as usize;
    }
    let mut sessions = 0;
    if session_days > 0 {
        sessions = c
            .execute(
                &format!("DELETE FROM sessions WHERE updated_at < {DAYS_AGO}"),
                &[&(session_days as i32)],
            )
            .await? as usize;
    }
    Ok((traces, sessions))
}
