//! The classifier's embedded examples, kept per embedder and examples file. Only the
//! latest file's vectors are kept for an embedder: an edited file makes the old
//! ones useless.

use super::StoreError;
use rusqlite::{Connection, OptionalExtension, params};

/// The saved vectors (one blob, the examples in order) for this embedder and file.
pub fn example_vectors(
    c: &Connection,
    embedder: &str,
    intents_hash: &str,
) -> Result<Option<Vec<u8>>, StoreError> {
    Ok(c.query_row(
        "SELECT vectors FROM example_vectors WHERE embedder = ?1 AND intents_hash = ?2",
        params![embedder, intents_hash],
        |r| r.get(0),
    )
    .optional()?)
}

/// Saves the vectors for this embedder and file, dropping its older files' vectors.
pub fn save_example_vectors(
    c: &mut Connection,
    embedder: &str,
    intents_hash: &str,
    vectors: &[u8],
) -> Result<(), StoreError> {
    let tx = c.transaction()?;
    tx.execute(
        "DELETE FROM example_vectors WHERE embedder = ?1",
        params![embedder],
    )?;
    tx.execute(
        "INSERT INTO example_vectors (embedder, intents_hash, vectors) VALUES (?1, ?2, ?3)",
        params![embedder, intents_hash, vectors],
    )?;
    tx.commit()?;
    Ok(())
}
