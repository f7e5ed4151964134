//! The keyword index: SQLite FTS5 with porter stemming. `bundle_fts` has one row
//! per bundle with weighted columns (names > task names, tags > docs > README);
//! `chunk_fts` one row per chunk for docs, keywords and task-level matches. Rows are
//! written in the same transaction as the catalog, so they never disagree.

use super::text::with_identifier_parts;
use rusqlite::{Connection, Transaction, params};

/// bm25 column weights for `bundle_fts(names, tasks, tags, docs, readme)`.
pub const BUNDLE_WEIGHTS: (f64, f64, f64, f64, f64) = (10.0, 5.0, 5.0, 2.0, 1.0);
/// bm25 column weights for `chunk_fts(title, body)`.
pub const CHUNK_WEIGHTS: (f64, f64) = (3.0, 1.0);

/// The text of one bundle's `bundle_fts` row, column by column. Ingest composes it
/// from its records; this module only stores and searches it, so the keyword index
/// does not depend on how bundles are read.
#[derive(Debug, Default)]
pub struct BundleText {
    pub names: String,
    pub tasks: String,
    pub tags: String,
    pub docs: String,
    pub readme: String,
}

pub fn write_bundle(tx: &Transaction, bundle_id: i64, t: &BundleText) -> rusqlite::Result<()> {
    // SQLite may reuse the rowid of a bundle deleted earlier in this transaction,
    // whose FTS row is only pruned at the end: clear it first.
    tx.prepare_cached("DELETE FROM bundle_fts WHERE rowid = ?1")?
        .execute([bundle_id])?;
    tx.prepare_cached("INSERT INTO bundle_fts (rowid, names, tasks, tags, docs, readme) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")?
        .execute(params![
            bundle_id,
            with_identifier_parts(&t.names),
            with_identifier_parts(&t.tasks),
            with_identifier_parts(&t.tags),
            with_identifier_parts(&t.docs),
            t.readme
        ])?;
    Ok(())
}

/// One chunk's `chunk_fts` row: its title and the text that was embedded.
pub fn write_chunk(
    tx: &Transaction,
    chunk_rowid: i64,
    title: &str,
    body: &str,
) -> rusqlite::Result<()> {
    tx.prepare_cached("DELETE FROM chunk_fts WHERE rowid = ?1")?
        .execute([chunk_rowid])?;
    tx.prepare_cached("INSERT INTO chunk_fts (rowid, title, body) VALUES (?1, ?2, ?3)")?
        .execute(params![
            chunk_rowid,
            with_identifier_parts(title),
            with_identifier_parts(body)
        ])?;
    Ok(())
}

/// Drops rows whose bundle or chunk is gone (cascades do not reach FTS tables).
pub fn prune(tx: &Transaction) -> rusqlite::Result<()> {
    tx.execute(
        "DELETE FROM bundle_fts WHERE rowid NOT IN (SELECT id FROM bundles)",
        [],
    )?;
    tx.execute(
        "DELETE FROM chunk_fts WHERE rowid NOT IN (SELECT rowid FROM chunks)",
        [],
    )?;
    Ok(())
}

/// Every bundle's indexed words (names, tasks, tags, docs), for the catalog's
/// vocabulary.
pub fn bundle_texts(c: &rusqlite::Connection) -> rusqlite::Result<Vec<String>> {
    let mut st =
        c.prepare("SELECT names || ' ' || tasks || ' ' || tags || ' ' || docs FROM bundle_fts")?;
    let rows = st.query_map([], |r| r.get::<_, String>(0))?;
    rows.collect()
}

/// The FTS5 expression for some terms: each quoted (user text can never be FTS
/// syntax) and OR-ed. Spelling was already corrected when the question was read
/// (`query::Query`).
pub fn expression(terms: &[String]) -> Option<String> {
    let alts: Vec<String> = terms
        .iter()
        .map(|t| quote(t))
        .filter(|t| t.len() > 2)
        .collect();
    (!alts.is_empty()).then(|| alts.join(" OR "))
}

fn quote(t: &str) -> String {
    format!("\"{}\"", t.replace('"', ""))
}

/// Bundle ids with their bm25 (lower is better in SQLite; negated here so higher
/// is better).
pub fn search_bundles(
    c: &Connection,
    expr: &str,
    limit: usize,
) -> rusqlite::Result<Vec<(i64, f64)>> {
    let (w1, w2, w3, w4, w5) = BUNDLE_WEIGHTS;
    let mut st = c.prepare_cached(&format!(
        "SELECT rowid, -bm25(bundle_fts, {w1}, {w2}, {w3}, {w4}, {w5}) AS s FROM bundle_fts WHERE bundle_fts MATCH ?1 ORDER BY s DESC LIMIT ?2"
    ))?;
    let rows = st.query_map(params![expr, limit as i64], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

pub fn search_chunks(
    c: &Connection,
    expr: &str,
    limit: usize,
) -> rusqlite::Result<Vec<(i64, f64)>> {
    let (w1, w2) = CHUNK_WEIGHTS;
    let mut st = c.prepare_cached(&format!(
        "SELECT rowid, -bm25(chunk_fts, {w1}, {w2}) AS s FROM chunk_fts WHERE chunk_fts MATCH ?1 ORDER BY s DESC LIMIT ?2"
    ))?;
    let rows = st.query_map(params![expr, limit as i64], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_quotes_never_become_syntax() {
        let e = expression(&["a\" OR NEAR(x".to_string(), "pods".into()]).unwrap();
        assert_eq!(e, "\"a OR NEAR(x\" OR \"pods\"");
        assert_eq!(expression(&["\"".to_string()]), None);
        assert_eq!(expression(&[]), None);
    }
}
