//! Who calls a keyword or a library (one place for "which bundles use keyword K"),
//! and the small lookups the tools, answers and requests make.

use crate::store::StoreError;
use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;

/// A bundle that calls a keyword, and where (its first call in the bundle).
#[derive(Clone, Debug, Default, Serialize)]
pub struct KeywordUse {
    /// `collection/slug`.
    pub key: String,
    /// The calling file, relative to the bundle (`runbook.robot`).
    pub file: String,
    /// 1-based line of the first call; 0 when ingest did not record it.
    pub line: u32,
    /// How many of the bundle's tasks call it.
    pub tasks: u32,
}

/// Every bundle that calls `library.name`, the ones calling it from most tasks first.
pub fn keyword_users(
    c: &Connection,
    library: &str,
    name: &str,
) -> Result<Vec<KeywordUse>, StoreError> {
    // With `min(line)` SQLite takes `file` from the same row: the first call.
    let mut st = c.prepare_cached(
        "SELECT co.name || '/' || b.slug, u.file, min(nullif(u.line, 0)), count(DISTINCT u.task)
         FROM keyword_uses u JOIN keywords k ON k.id = u.keyword_id
         JOIN bundles b ON b.id = u.bundle_id JOIN collections co ON co.id = b.collection_id
         WHERE k.library = ?1 AND k.name = ?2 GROUP BY b.id ORDER BY 4 DESC, 1",
    )?;
    let rows = st.query_map([library, name], |r| {
        Ok(KeywordUse {
            key: r.get(0)?,
            file: r.get(1)?,
            line: r.get::<_, Option<u32>>(2)?.unwrap_or(0),
            tasks: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Bundles calling any keyword of `library` or its submodules, with how many of
/// their tasks do, most first.
pub fn library_users(c: &Connection, library: &str) -> Result<Vec<(String, u32)>, StoreError> {
    let prefix = format!("{library}.");
    let mut st = c.prepare_cached(
        "SELECT co.name || '/' || b.slug, count(DISTINCT u.task) FROM keyword_uses u
         JOIN keywords k ON k.id = u.keyword_id JOIN bundles b ON b.id = u.bundle_id
         JOIN collections co ON co.id = b.collection_id
         WHERE k.library = ?1 OR substr(k.library, 1, length(?2)) = ?2
         GROUP BY 1 ORDER BY 2 DESC, 1",
    )?;
    let rows = st.query_map([library, prefix.as_str()], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Where a collection's checkout lives, when it is indexed.
pub fn collection_root(c: &Connection, collection: &str) -> Result<Option<String>, StoreError> {
    Ok(c.query_row(
        "SELECT root FROM collections WHERE name = ?1",
        [collection],
        |r| r.get(0),
    )
    .optional()?)
}

/// The markdown of one documentation section.
pub fn doc_markdown(c: &Connection, id: i64) -> Result<Option<String>, StoreError> {
    Ok(
        c.query_row("SELECT markdown FROM docs WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?,
    )
}

/// A bundle's display name and source link, by `collection/slug`.
pub fn bundle_link(
    c: &Connection,
    collection: &str,
    slug: &str,
) -> Result<Option<(String, Option<String>)>, StoreError> {
    Ok(c
        .prepare_cached(
            "SELECT b.display_name, b.source_url FROM bundles b JOIN collections co ON co.id = b.collection_id
             WHERE co.name = ?1 AND b.slug = ?2",
        )?
        .query_row([collection, slug], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?)
}
