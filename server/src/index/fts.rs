//! The keyword index: SQLite FTS5 with porter stemming. `bundle_fts` has one row
//! per bundle with weighted columns (names > task names, tags > docs > README);
//! `chunk_fts` one row per chunk for docs, keywords and task-level matches. Rows are
//! written in the same transaction as the catalog, so they never disagree.

use super::text::{edit_distance, query_terms, typo_budget, with_identifier_parts};
use crate::ingest::BundleRecord;
use crate::ingest::chunks::Chunk;
use rusqlite::{Connection, Transaction, params};

/// bm25 column weights for `bundle_fts(names, tasks, tags, docs, readme)`.
pub const BUNDLE_WEIGHTS: (f64, f64, f64, f64, f64) = (10.0, 5.0, 5.0, 2.0, 1.0);
/// bm25 column weights for `chunk_fts(title, body)`.
pub const CHUNK_WEIGHTS: (f64, f64) = (3.0, 1.0);

pub fn write_bundle(tx: &Transaction, bundle_id: i64, b: &BundleRecord) -> rusqlite::Result<()> {
    // SQLite may reuse the rowid of a bundle deleted earlier in this transaction,
    // whose FTS row is only pruned at the end: clear it first.
    tx.prepare_cached("DELETE FROM bundle_fts WHERE rowid = ?1")?
        .execute([bundle_id])?;
    let mut names = vec![b.display_name.clone(), b.slug.replace(['-', '_'], " ")];
    names.extend(
        b.runbook_display_name
            .iter()
            .chain(b.sli_display_name.iter())
            .cloned(),
    );
    names.extend(b.supports.iter().cloned());
    let tasks: Vec<&str> = b
        .tasks
        .iter()
        .chain(&b.slis)
        .map(|t| t.clean.as_str())
        .collect();
    let mut tags = b.all_tags();
    tags.push(b.derived.platform.clone());
    tags.extend(
        b.derived
            .resource_types
            .iter()
            .map(|r| r.replace(['_', '.'], " ")),
    );
    let mut docs = vec![b.description.clone()];
    docs.extend(b.runbook_doc.iter().chain(b.sli_doc.iter()).cloned());
    docs.extend(b.tasks.iter().chain(&b.slis).map(|t| t.doc.clone()));
    docs.extend(
        b.variables
            .iter()
            .map(|v| format!("{} {}", v.name, v.description.clone().unwrap_or_default())),
    );
    let readme = b
        .readme
        .as_ref()
        .map(|r| {
            r.sections
                .iter()
                .map(|s| s.text.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default();
    tx.prepare_cached("INSERT INTO bundle_fts (rowid, names, tasks, tags, docs, readme) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")?
        .execute(params![
            bundle_id,
            with_identifier_parts(&names.join("\n")),
            with_identifier_parts(&tasks.join("\n")),
            with_identifier_parts(&tags.join(" ")),
            with_identifier_parts(&docs.join("\n")),
            readme
        ])?;
    Ok(())
}

pub fn write_chunk(tx: &Transaction, chunk_rowid: i64, c: &Chunk) -> rusqlite::Result<()> {
    tx.prepare_cached("DELETE FROM chunk_fts WHERE rowid = ?1")?
        .execute([chunk_rowid])?;
    tx.prepare_cached("INSERT INTO chunk_fts (rowid, title, body) VALUES (?1, ?2, ?3)")?
        .execute(params![
            chunk_rowid,
            with_identifier_parts(&c.title),
            with_identifier_parts(&c.embed_text)
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

/// The terms of the keyword index, for spelling correction.
pub fn vocabulary(c: &Connection) -> rusqlite::Result<Vec<(String, i64)>> {
    let mut st = c.prepare("SELECT term, doc FROM bundle_fts_vocab")?;
    let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

/// A parsed query: the terms searched for, spelling corrections made, and the FTS5
/// expression (terms OR-ed, each quoted so user text can never be FTS syntax).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KeywordQuery {
    pub terms: Vec<String>,
    pub corrections: Vec<(String, String)>,
    pub expr: Option<String>,
}

/// Builds the query; words not in the vocabulary get the closest vocabulary term
/// (within a length-dependent edit budget) as an alternative.
pub fn parse_query(text: &str, vocab: &[(String, i64)]) -> KeywordQuery {
    let terms = query_terms(text);
    let mut alts: Vec<String> = Vec::new();
    let mut corrections = Vec::new();
    for t in &terms {
        alts.push(quote(t));
        if vocab.is_empty() || known(t, vocab) {
            continue;
        }
        let budget = typo_budget(t.chars().count());
        if budget == 0 {
            continue;
        }
        let best = vocab
            .iter()
            .filter_map(|(v, df)| edit_distance(t, v, budget).map(|d| (d, -df, v)))
            .min();
        if let Some((_, _, v)) = best {
            corrections.push((t.clone(), v.clone()));
            alts.push(quote(v));
        }
    }
    let expr = (!alts.is_empty()).then(|| alts.join(" OR "));
    KeywordQuery {
        terms,
        corrections,
        expr,
    }
}

/// A word is known when the (stemmed) vocabulary has it or a prefix stem of it.
fn known(t: &str, vocab: &[(String, i64)]) -> bool {
    vocab.iter().any(|(v, _)| {
        v == t || (t.starts_with(v.as_str()) && v.len() >= 4 && t.len() - v.len() <= 3)
    })
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
    fn typos_get_alternatives_and_quotes_are_safe() {
        let vocab = vec![
            ("prometheu".to_string(), 3),
            ("azur".to_string(), 10),
            ("kubernet".to_string(), 20),
        ];
        let q = parse_query("prometeus alerts on azrue", &vocab);
        assert!(
            q.corrections
                .iter()
                .any(|(a, b)| a == "prometeus" && b == "prometheu"),
            "{:?}",
            q.corrections
        );
        assert!(q.expr.unwrap().contains("\"prometheu\""));
        let q = parse_query("kubernetes", &vocab);
        assert!(
            q.corrections.is_empty(),
            "stems of known words are not corrected"
        );
        let q = parse_query("a\" OR NEAR(x", &vocab);
        assert!(
            !q.expr.unwrap().contains("\"\""),
            "user quotes are stripped"
        );
        assert_eq!(parse_query("the and of", &vocab).expr, None);
    }
}
