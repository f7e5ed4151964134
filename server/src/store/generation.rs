//! The catalog generation: a counter in `app_meta` that every index run which
//! changed the catalog increments. Readers (the search snapshot, the graph build)
//! compare it to know whether what they hold is current; it lives with the storage
//! so that no layer has to reach up into another to read it.

use super::StoreError;
use rusqlite::Connection;

/// Incremented by every index run that changed the catalog.
pub fn catalog_generation(c: &Connection) -> Result<i64, StoreError> {
    let v: Option<String> = rusqlite::OptionalExtension::optional(c.query_row(
        "SELECT value FROM app_meta WHERE key = 'catalog_generation'",
        [],
        |r| r.get(0),
    ))?;
    Ok(v.and_then(|v| v.parse().ok()).unwrap_or(0))
}

/// Replicas on Postgres: the published index run the catalog is, if it is one
/// (noted on publishing or loading one, dropped when the catalog is rebuilt here).
pub fn catalog_run(c: &Connection) -> Result<Option<i64>, StoreError> {
    let v: Option<String> = rusqlite::OptionalExtension::optional(c.query_row(
        "SELECT value FROM app_meta WHERE key = 'catalog_run'",
        [],
        |r| r.get(0),
    ))?;
    Ok(v.and_then(|v| v.parse().ok()))
}

/// Counts the catalog as changed (in the transaction that changed it).
pub fn bump_catalog_generation(c: &Connection) -> rusqlite::Result<usize> {
    c.execute(
        "INSERT INTO app_meta (key, value) VALUES ('catalog_generation', '1')
         ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)",
        [],
    )
}
