//! The admin console's reads of saved turns (traces, quality, golden export) when
//! turns live in Postgres: every replica's turns, in one place. The filters and
//! the arithmetic are shared with SQLite; only reading the rows differs.

use super::golden::{BAD_SQL, Bad, Earlier};
use super::quality::TurnRow;
use super::traces::{DETAIL_COLUMNS, Dialect, PG_HAS_ERRORS, page_sql};
use super::window::Window;
use crate::store::StoreError;
use crate::store::pg::{Pg, closed, json};
use app::api::admin::{TraceDetail, TracePage, TraceQuery, TraceSummary};
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

fn summary(r: &Row) -> Result<TraceSummary, StoreError> {
    Ok(TraceSummary {
        id: r.get(0),
        session_id: r.get(1),
        created_at: r.get(2),
        question: r.get(3),
        category: closed(r, 4)?,
        status: closed(r, 5)?,
        source: closed(r, 6)?,
        confidence: r.get::<_, f64>(7) as f32,
        no_match: r.get(8),
        feedback: r.get::<_, Option<i64>>(9).map(|f| f.signum() as i8),
        latency_ms: r.get::<_, i64>(10).max(0) as u64,
        model: r.get(11),
        errors: r.get::<_, i64>(12).max(0) as u32,
        cards: r.get::<_, i64>(13).max(0) as u32,
    })
}

pub async fn traces(pg: &Pg, q: &TraceQuery) -> Result<TracePage, StoreError> {
    let sql = page_sql(q, Dialect::Postgres);
    let params: Vec<&(dyn ToSql + Sync)> = sql
        .params
        .iter()
        .map(|p| p as &(dyn ToSql + Sync))
        .collect();
    let c = pg.client().await?;
    let total: i64 = c.query_one(&sql.count, &params).await?.get(0);
    let traces = c
        .query(&sql.rows, &params)
        .await?
        .iter()
        .map(summary)
        .collect::<Result<_, _>>()?;
    Ok(TracePage {
        total: total as u64,
        traces,
    })
}

pub async fn trace(pg: &Pg, id: &str) -> Result<Option<TraceDetail>, StoreError> {
    let row = pg
        .client()
        .await?
        .query_opt(
            &format!(
                "SELECT {}, {DETAIL_COLUMNS} FROM turns t WHERE t.id = $1",
                Dialect::Postgres.summary_columns()
            ),
            &[&id],
        )
        .await?;
    row.map(|r| {
        Ok(TraceDetail {
            summary: summary(&r)?,
            rewritten: r.get(14),
            answer: r.get(15),
            cards: json(&r, 16),
            cited: json(&r, 17),
            tokens_in: r.get::<_, i64>(18).max(0) as u32,
            tokens_out: r.get::<_, i64>(19).max(0) as u32,
            feedback_note: r.get(20),
            trace: json(&r, 21),
        })
    })
    .transpose()
}

/// The quality report's rows for a window, oldest first.
pub async fn quality_rows(pg: &Pg, w: &Window) -> Result<Vec<TurnRow>, StoreError> {
    let rows = pg
        .client()
        .await?
        .query(
            &format!(
                "SELECT t.id, t.question, t.category, t.status, t.confidence, t.no_match, t.feedback,
                        rc_len(t.cards::jsonb)::bigint, {PG_HAS_ERRORS}, (t.trace::jsonb -> 'timings_ms')::text
                 FROM turns t WHERE t.created_at >= $1 AND t.created_at < $2 ORDER BY t.created_at"
            ),
            &[&w.from, &w.to],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(TurnRow {
                id: r.get(0),
                question: r.get(1),
                category: closed(r, 2)?,
                status: closed(r, 3)?,
                confidence: r.get(4),
                no_match: r.get(5),
                feedback: r.get(6),
                cards: r.get(7),
                has_errors: r.get(8),
                timings: r
                    .get::<_, Option<&str>>(9)
                    .and_then(|j| serde_json::from_str(j).ok())
                    .unwrap_or_default(),
            })
        })
        .collect()
}

/// The golden export over a window: the reported turns, and every complete turn
/// of their sessions so follow-ups find what they follow without a query each.
pub async fn golden(pg: &Pg, w: &Window) -> Result<String, StoreError> {
    let c = pg.client().await?;
    let bad: Vec<Bad> = c
        .query(
            &BAD_SQL.replace("{from}", "$1").replace("{to}", "$2"),
            &[&w.from, &w.to],
        )
        .await?
        .iter()
        .map(|r| Bad {
            id: r.get(0),
            session_id: r.get(1),
            seq: r.get(2),
            question: r.get(3),
            category: r.get(4),
            no_match: r.get(5),
            feedback: r.get(6),
            note: r.get(7),
            confidence: r.get(8),
            cited: r.get(9),
        })
        .collect();
    let sessions: Vec<&str> = bad.iter().map(|b| b.session_id.as_str()).collect();
    let mut earlier: std::collections::HashMap<String, Vec<Earlier>> = Default::default();
    for r in c
        .query(
            "SELECT session_id, id, question, category, seq FROM turns
             WHERE session_id = ANY($1) AND status = 'complete' ORDER BY seq",
            &[&sessions],
        )
        .await?
    {
        earlier
            .entry(r.get(0))
            .or_default()
            .push((r.get(1), r.get(2), r.get(3), r.get(4)));
    }
    super::golden::lines(&bad, |session, seq| {
        Ok(earlier
            .get(session)
            .and_then(|turns| turns.iter().rev().find(|t| t.3 < seq))
            .cloned())
    })
}
