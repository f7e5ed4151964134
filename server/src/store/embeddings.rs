//! The chunk texts and their vectors, across the catalog's `chunks` and the
//! index's `embeddings`: what the embedding step, the search snapshot's freshness
//! check and the embedding benchmark ask. Here, below both, so neither layer
//! reaches into the other.

use super::StoreError;
use rusqlite::Connection;

/// Distinct chunk texts `embedder` has no vector for yet, as (content hash, text),
/// and how many distinct texts there are in all.
pub fn texts_to_embed(
    c: &Connection,
    embedder: &str,
) -> Result<(Vec<(String, String)>, usize), StoreError> {
    let mut st = c.prepare(
        "SELECT content_hash, min(embed_text) FROM chunks
         WHERE content_hash NOT IN (SELECT content_hash FROM embeddings WHERE embedder = ?1)
         GROUP BY content_hash",
    )?;
    let rows = st
        .query_map([embedder], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    let total: i64 = c.query_row("SELECT count(DISTINCT content_hash) FROM chunks", [], |r| {
        r.get(0)
    })?;
    Ok((rows, total as usize))
}

/// Every distinct chunk text (for the embedding benchmark).
pub fn distinct_texts(c: &Connection) -> Result<Vec<String>, StoreError> {
    let mut st = c.prepare("SELECT min(embed_text) FROM chunks GROUP BY content_hash")?;
    let rows = st.query_map([], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// How many chunks have a vector from `embedder`: with the catalog generation, what
/// says a search snapshot is current.
pub fn embedded_chunks(c: &Connection, embedder: &str) -> Result<i64, StoreError> {
    Ok(c.query_row(
        "SELECT count(*) FROM chunks c JOIN embeddings e ON e.content_hash = c.content_hash AND e.embedder = ?1",
        [embedder],
        |r| r.get(0),
    )?)
}

/// Removes vectors of texts no chunk has any more; how many went.
pub fn prune_embeddings(c: &Connection) -> Result<usize, StoreError> {
    let orphans: bool = c.query_row(
        "SELECT EXISTS (SELECT 1 FROM embeddings WHERE content_hash NOT IN (SELECT content_hash FROM chunks))",
        [],
        |r| r.get(0),
    )?;
    if !orphans {
        return Ok(0);
    }
    Ok(c.execute(
        "DELETE FROM embeddings WHERE content_hash NOT IN (SELECT content_hash FROM chunks)",
        [],
    )?)
}

/// How many vectors `embedder` has stored.
pub fn vector_count(c: &Connection, embedder: &str) -> Result<u64, StoreError> {
    let n: i64 = c.query_row(
        "SELECT count(*) FROM embeddings WHERE embedder = ?1",
        [embedder],
        |r| r.get(0),
    )?;
    Ok(n as u64)
}
