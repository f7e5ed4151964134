//! `registry-chat migrate`: a deployment's conversations and requests, copied
//! from its SQLite file into an empty Postgres database with their ids, so links,
//! exports and request references (REQ-0007) stay what they were.

use super::Pg;
use crate::store::StoreError;

use super::table::Kind::{Bool, Int, Real, Text};
use super::table::{Table, params};

/// Parents before children (foreign keys), each in its id order.
const TABLES: &[Table] = &[
    Table {
        name: "sessions",
        columns: &[
            ("id", Text),
            ("title", Text),
            ("created_at", Text),
            ("updated_at", Text),
            ("summary", Text),
            ("owner", Text),
        ],
    },
    Table {
        name: "turns",
        columns: &[
            ("id", Text),
            ("session_id", Text),
            ("seq", Int),
            ("status", Text),
            ("question", Text),
            ("rewritten", Text),
            ("category", Text),
            ("answer", Text),
            ("source", Text),
            ("confidence", Real),
            ("no_match", Bool),
            ("model", Text),
            ("tokens_in", Int),
            ("tokens_out", Int),
            ("latency_ms", Int),
            ("filters", Text),
            ("cited", Text),
            ("cards", Text),
            ("trace", Text),
            ("feedback", Int),
            ("feedback_note", Text),
            ("created_at", Text),
        ],
    },
    Table {
        name: "messages",
        columns: &[
            ("id", Int),
            ("session_id", Text),
            ("turn_id", Text),
            ("role", Text),
            ("content", Text),
            ("created_at", Text),
        ],
    },
    Table {
        name: "requests",
        columns: &[
            ("id", Int),
            ("problem", Text),
            ("platform", Text),
            ("healthy", Text),
            ("context", Text),
            ("contact", Text),
            ("session_id", Text),
            ("turn_id", Text),
            ("closest", Text),
            ("status", Text),
            ("created_at", Text),
            ("updated_at", Text),
            ("issue_url", Text),
            ("issue_candidate", Int),
            ("owner", Text),
            ("filing", Text),
        ],
    },
];

/// Rows copied per table, in `TABLES` order.
pub type Copied = Vec<(&'static str, u64)>;

/// Copies everything in one transaction: a failure leaves the target as it was.
/// Refuses a target that already holds conversations or requests (the ids would
/// collide, and merging two deployments is not a copy).
pub async fn from_sqlite(source: &rusqlite::Connection, pg: &Pg) -> Result<Copied, StoreError> {
    let mut c = pg.client().await?;
    let tx = c.transaction().await?;
    let held: i64 = tx
        .query_one(
            "SELECT (SELECT count(*) FROM sessions) + (SELECT count(*) FROM requests)",
            &[],
        )
        .await?
        .get(0);
    if held > 0 {
        return Err(StoreError::PgConfig(format!(
            "the target already holds {held} conversations and requests; migrate into an empty database"
        )));
    }
    let mut copied = Vec::new();
    for t in TABLES {
        let names: Vec<&str> = t.columns.iter().map(|(n, _)| *n).collect();
        let marks: Vec<String> = (1..=names.len()).map(|i| format!("${i}")).collect();
        let insert = tx
            .prepare(&format!(
                "INSERT INTO {} ({}) VALUES ({})",
                t.name,
                names.join(", "),
                marks.join(", ")
            ))
            .await?;
        let mut st = source.prepare(&format!(
            "SELECT {} FROM {} ORDER BY rowid",
            names.join(", "),
            t.name
        ))?;
        let mut rows = st.query([])?;
        let mut n = 0u64;
        while let Some(r) = rows.next()? {
            let values = t.to_pg(r)?;
            tx.execute(&insert, &params(&values)).await?;
            n += 1;
        }
        copied.push((t.name, n));
    }
    // Ids were copied: new rows continue after them.
    for table in ["messages", "requests"] {
        tx.execute(
            &format!(
                "SELECT setval(pg_get_serial_sequence('{table}', 'id'), coalesce(max(id), 0) + 1, false) FROM {table}"
            ),
            &[],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(copied)
}
