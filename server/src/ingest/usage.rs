//! A second chunk for every shipped keyword that bundles call: how they call it.
//! A docstring says how a keyword works ("Executes a string of shell commands
//! either locally or remotely… Preserves the existing logic for loop_with_items"),
//! so a question about what to use it for ("run a kubectl one-liner and read its
//! stdout") can sit far from it and close to a helper nobody calls. The calls are
//! the corpus's own account of its use. Re-derived at every index run, like the
//! keywords no collection ships (`external`), whose only chunk is already this.

use super::IngestError;
use super::chunk_rows::{Owner, insert_chunk};
use super::chunks::{ChunkKind, usage_chunk};
use super::evidence::Evidence;
use rusqlite::Transaction;
use std::collections::HashMap;

/// Callers that agree on a use. One or two bundles' calls are those bundles' own
/// business, and their short text sits close to any question.
const MIN_BUNDLES: usize = 5;

/// Replaces every usage chunk with one per called shipped keyword.
pub(super) fn write(tx: &Transaction, calls: &HashMap<i64, Evidence>) -> Result<(), IngestError> {
    tx.execute(
        "DELETE FROM chunks WHERE kind = ?1",
        [ChunkKind::KeywordUsage.as_str()],
    )?;
    let mut st = tx.prepare(
        "SELECT k.id, c.name, k.library, k.name, k.file, k.line FROM keywords k
         JOIN collections c ON c.id = k.collection_id WHERE k.external = 0 ORDER BY k.id",
    )?;
    let shipped = st.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, String>(4)?,
            r.get::<_, i64>(5)?,
        ))
    })?;
    for row in shipped {
        let (id, collection, library, name, file, line) = row?;
        let Some(ev) = calls.get(&id).filter(|e| e.bundles.len() >= MIN_BUNDLES) else {
            continue;
        };
        let usage = ev.usage();
        if usage.is_empty() {
            continue;
        }
        let parent = format!("usage:{collection}:{library}");
        let chunk = usage_chunk(&parent, &library, &name, &usage, (file, line as usize));
        insert_chunk(tx, &chunk, Owner::Keyword(id))?;
    }
    Ok(())
}
