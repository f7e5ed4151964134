//! Browsing saved turns: filters and text search over every turn's record and
//! trace, newest first, and one turn in full.

use crate::store::StoreError;
use app::api::admin::{TraceDetail, TracePage, TraceQuery, TraceSummary};
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row};

/// Below this confidence a turn counts as low-confidence (filters, quality).
pub const LOW_CONFIDENCE: f64 = 0.5;
pub const DEFAULT_PAGE: u32 = 50;
pub const MAX_PAGE: u32 = 200;
/// Longest search text; longer is cut, not refused.
const MAX_QUERY_CHARS: usize = 200;

/// A turn has errors when it failed or any stage recorded one (a fallback from the
/// LLM counts: the user got an answer, but not the one configured).
pub const HAS_ERRORS: &str =
    "(t.status = 'failed' OR coalesce(json_array_length(t.trace, '$.errors'), 0) > 0)";

/// The same in Postgres (`rc_len` is 0 for anything but an array).
pub const PG_HAS_ERRORS: &str = "(t.status = 'failed' OR rc_len(t.trace::jsonb -> 'errors') > 0)";

/// The two SQL dialects the filters are written in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    fn param(self, n: usize) -> String {
        match self {
            Dialect::Sqlite => format!("?{n}"),
            Dialect::Postgres => format!("${n}"),
        }
    }

    /// Case-insensitive like SQLite's LIKE (for ASCII).
    fn like(self) -> &'static str {
        match self {
            Dialect::Sqlite => "LIKE",
            Dialect::Postgres => "ILIKE",
        }
    }

    fn has_errors(self) -> &'static str {
        match self {
            Dialect::Sqlite => HAS_ERRORS,
            Dialect::Postgres => PG_HAS_ERRORS,
        }
    }

    /// The columns `summary` reads, in order.
    pub fn summary_columns(self) -> &'static str {
        match self {
            Dialect::Sqlite => {
                "t.id, t.session_id, t.created_at, t.question, t.category, t.status, t.source,
                 t.confidence, t.no_match, t.feedback, t.latency_ms, t.model,
                 coalesce(json_array_length(t.trace, '$.errors'), 0), json_array_length(t.cards)"
            }
            Dialect::Postgres => {
                "t.id, t.session_id, t.created_at, t.question, t.category, t.status, t.source,
                 t.confidence, t.no_match, t.feedback, t.latency_ms, t.model,
                 rc_len(t.trace::jsonb -> 'errors')::bigint, rc_len(t.cards::jsonb)::bigint"
            }
        }
    }
}

/// The page's SQL (count, then rows) and its text parameters, from the filters.
pub struct PageSql {
    pub count: String,
    pub rows: String,
    pub params: Vec<String>,
}

pub fn page_sql(q: &TraceQuery, d: Dialect) -> PageSql {
    let mut clauses: Vec<String> = Vec::new();
    let mut params: Vec<String> = Vec::new();
    if let Some(text) = q.q.as_deref() {
        let text: String = text.chars().take(MAX_QUERY_CHARS).collect();
        // Every word must appear in the question, the rewrite or the answer.
        for word in text.split_whitespace().take(12) {
            params.push(like_pattern(word));
            let (n, like) = (d.param(params.len()), d.like());
            clauses.push(format!(
                "(t.question {like} {n} ESCAPE '\\' OR t.rewritten {like} {n} ESCAPE '\\' OR t.answer {like} {n} ESCAPE '\\')"
            ));
        }
    }
    if q.no_match {
        clauses.push("t.no_match".into());
    }
    if q.low_confidence {
        // A failed or interrupted turn has no confidence to speak of.
        clauses.push(format!(
            "t.status = 'complete' AND t.confidence < {LOW_CONFIDENCE}"
        ));
    }
    if q.thumbs_down {
        clauses.push("t.feedback < 0".into());
    }
    if q.errors {
        clauses.push(d.has_errors().into());
    }
    if q.follow_ups {
        clauses.push("t.category = 'follow-up'".into());
    }
    let filter = if clauses.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", clauses.join(" AND "))
    };
    let limit = q.limit.unwrap_or(DEFAULT_PAGE).clamp(1, MAX_PAGE);
    let offset = q.offset.unwrap_or(0);
    PageSql {
        count: format!("SELECT count(*) FROM turns t {filter}"),
        rows: format!(
            "SELECT {} FROM turns t {filter} ORDER BY t.created_at DESC, t.id LIMIT {limit} OFFSET {offset}",
            d.summary_columns()
        ),
        params,
    }
}

fn summary(r: &Row) -> rusqlite::Result<TraceSummary> {
    Ok(TraceSummary {
        id: r.get(0)?,
        session_id: r.get(1)?,
        created_at: r.get(2)?,
        question: r.get(3)?,
        category: crate::store::closed(r, 4)?,
        status: crate::store::closed(r, 5)?,
        source: crate::store::closed(r, 6)?,
        confidence: r.get::<_, f64>(7)? as f32,
        no_match: r.get(8)?,
        feedback: r.get::<_, Option<i64>>(9)?.map(|f| f.signum() as i8),
        latency_ms: r.get::<_, i64>(10)?.max(0) as u64,
        model: r.get(11)?,
        errors: r.get::<_, i64>(12)?.max(0) as u32,
        cards: r.get::<_, i64>(13)?.max(0) as u32,
    })
}

/// `%`, `_` and `\` match themselves in the LIKE patterns built here.
pub fn like_pattern(word: &str) -> String {
    let mut p = String::from("%");
    for ch in word.chars() {
        if matches!(ch, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(ch);
    }
    p.push('%');
    p
}

pub fn list(c: &Connection, q: &TraceQuery) -> Result<TracePage, StoreError> {
    let sql = page_sql(q, Dialect::Sqlite);
    let params: Vec<Value> = sql.params.into_iter().map(Value::Text).collect();
    let total: i64 = c.query_row(&sql.count, rusqlite::params_from_iter(params.iter()), |r| {
        r.get(0)
    })?;
    let mut st = c.prepare(&sql.rows)?;
    let traces = st
        .query_map(rusqlite::params_from_iter(params.iter()), summary)?
        .collect::<Result<_, _>>()?;
    Ok(TracePage {
        total: total as u64,
        traces,
    })
}

/// The columns after the summary's that `detail` reads.
pub const DETAIL_COLUMNS: &str =
    "t.rewritten, t.answer, t.cards, t.cited, t.tokens_in, t.tokens_out,
                    t.feedback_note, t.trace";

pub fn detail(c: &Connection, id: &str) -> Result<Option<TraceDetail>, StoreError> {
    Ok(c.query_row(
        &format!(
            "SELECT {}, {DETAIL_COLUMNS} FROM turns t WHERE t.id = ?1",
            Dialect::Sqlite.summary_columns()
        ),
        [id],
        |r| {
            Ok(TraceDetail {
                summary: summary(r)?,
                rewritten: r.get(14)?,
                answer: r.get(15)?,
                cards: serde_json::from_str(&r.get::<_, String>(16)?).unwrap_or_default(),
                cited: serde_json::from_str(&r.get::<_, String>(17)?).unwrap_or_default(),
                tokens_in: r.get::<_, i64>(18)?.max(0) as u32,
                tokens_out: r.get::<_, i64>(19)?.max(0) as u32,
                feedback_note: r.get(20)?,
                trace: serde_json::from_str(&r.get::<_, String>(21)?).unwrap_or_default(),
            })
        },
    )
    .optional()?)
}

#[cfg(test)]
mod tests {
    #[test]
    fn like_patterns_escape_wildcards() {
        assert_eq!(super::like_pattern("50%_off"), "%50\\%\\_off%");
    }
}
