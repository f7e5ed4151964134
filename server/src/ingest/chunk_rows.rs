//! Writing one chunk: its catalog row and its keyword-index row, together. Bundles,
//! keywords (shipped or derived from calls, see `external`) and doc sections all
//! own chunks this way.

use super::IngestError;
use super::chunks::Chunk;
use rusqlite::{Transaction, params};

/// What a chunk belongs to.
pub(super) enum Owner {
    Bundle(i64),
    Keyword(i64),
    Doc(i64),
    CollectionDoc(i64),
    DocSet(String),
}

pub(super) fn insert_chunk(tx: &Transaction, c: &Chunk, owner: Owner) -> Result<(), IngestError> {
    let (bundle, doc, keyword) = match owner {
        Owner::Bundle(id) => (Some(id), None, None),
        Owner::Keyword(id) => (None, None, Some(id)),
        Owner::Doc(id) => (None, Some(id), None),
        Owner::CollectionDoc(_) | Owner::DocSet(_) => {
            unreachable!("docs own chunks through Owner::Doc")
        }
    };
    tx.prepare_cached(
        "INSERT INTO chunks (id, content_hash, kind, bundle_id, doc_id, keyword_id, title, task, embed_text, show_text, file, line_start, line_end)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?
    .execute(params![
        c.id,
        c.content_hash,
        c.kind,
        bundle,
        doc,
        keyword,
        c.title,
        c.task,
        c.embed_text,
        c.show_text,
        c.file,
        c.line_start.map(|v| v as i64),
        c.line_end.map(|v| v as i64)
    ])?;
    crate::index::fts::write_chunk(tx, tx.last_insert_rowid(), &c.title, &c.embed_text)?;
    Ok(())
}
