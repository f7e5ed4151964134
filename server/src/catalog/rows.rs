//! Whole tables read in bulk, for the in-memory structures built from them (the
//! search snapshot): every chunk with its vector for one embedder, every doc
//! section, every library keyword.

use crate::ingest::ChunkKind;
use crate::store::StoreError;
use rusqlite::Connection;

/// One chunk row; `bundle_id`, `doc_id` and `keyword_id` say what it is cut from.
pub struct ChunkRow {
    pub rowid: i64,
    pub kind: ChunkKind,
    pub bundle_id: Option<i64>,
    pub doc_id: Option<i64>,
    pub keyword_id: Option<i64>,
    pub title: String,
    pub task: Option<String>,
    pub content_hash: String,
    /// The chunk's vector from the embedder asked for, when it has one (as stored:
    /// little-endian f32s).
    pub vector: Option<Vec<u8>>,
}

/// Every chunk in rowid order, with its vector from `embedder`.
pub fn chunk_rows(c: &Connection, embedder: &str) -> Result<Vec<ChunkRow>, StoreError> {
    let mut st = c.prepare(
        "SELECT c.rowid, c.kind, c.bundle_id, c.doc_id, c.keyword_id, c.title, c.task, c.content_hash, e.vector
         FROM chunks c LEFT JOIN embeddings e ON e.content_hash = c.content_hash AND e.embedder = ?1
         ORDER BY c.rowid",
    )?;
    let rows = st.query_map([embedder], |r| {
        Ok(ChunkRow {
            rowid: r.get(0)?,
            kind: r.get(1)?,
            bundle_id: r.get(2)?,
            doc_id: r.get(3)?,
            keyword_id: r.get(4)?,
            title: r.get(5)?,
            task: r.get(6)?,
            content_hash: r.get(7)?,
            vector: r.get(8)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[derive(Clone, Debug)]
pub struct DocMeta {
    pub id: i64,
    /// Doc set or collection name.
    pub source: String,
    pub path: String,
    pub title: String,
    pub heading: Option<String>,
    pub anchor: String,
    pub url: Option<String>,
    pub text: String,
    /// Headings above this section, outermost first.
    pub trail: Vec<String>,
}

impl DocMeta {
    /// Stable citation id: `source:path#anchor`.
    pub fn cite_id(&self) -> String {
        if self.anchor.is_empty() {
            format!("{}:{}", self.source, self.path)
        } else {
            format!("{}:{}#{}", self.source, self.path, self.anchor)
        }
    }
}

#[derive(Clone, Debug)]
pub struct KeywordMeta {
    pub id: i64,
    pub collection: String,
    pub library: String,
    pub name: String,
    pub args: String,
    pub doc: String,
    pub url: Option<String>,
    /// How many bundles call it: how much of the catalog relies on it.
    pub users: u32,
}

impl KeywordMeta {
    /// Stable citation id: `library.Keyword Name`.
    pub fn cite_id(&self) -> String {
        format!("{}.{}", self.library, self.name)
    }
}

/// Every doc section, with its doc set's or collection's name as `source`.
pub fn doc_rows(c: &Connection) -> Result<Vec<DocMeta>, StoreError> {
    let mut st = c.prepare(
        "SELECT d.id, coalesce(d.doc_set, co.name), d.path, d.title, d.heading, d.anchor, d.url, d.text, d.trail
         FROM docs d LEFT JOIN collections co ON co.id = d.collection_id",
    )?;
    let rows = st.query_map([], |r| {
        Ok(DocMeta {
            id: r.get(0)?,
            source: r.get(1)?,
            path: r.get(2)?,
            title: r.get(3)?,
            heading: r.get(4)?,
            anchor: r.get(5)?,
            url: r.get(6)?,
            text: r.get(7)?,
            trail: super::json_list(r, 8)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// One section of a bundle's README as ingest recorded it (`BundleRecord.readme`):
/// its heading with the anchor counted in document order, the headings above it.
pub struct ReadmeSectionRow {
    pub bundle_id: i64,
    pub file: String,
    /// 0 for text before the first heading.
    pub level: u32,
    pub heading: Option<String>,
    pub anchor: Option<String>,
    pub trail: Vec<String>,
    pub markdown: String,
    pub line_start: u32,
}

/// Every bundle's README sections, from the bundle records.
pub fn readme_section_rows(c: &Connection) -> Result<Vec<ReadmeSectionRow>, StoreError> {
    let mut st = c.prepare(
        "SELECT b.id, coalesce(json_extract(b.record, '$.readme.file'), ''),
           coalesce(json_extract(s.value, '$.heading.level'), 0),
           json_extract(s.value, '$.heading.text'), json_extract(s.value, '$.heading.anchor'),
           coalesce(json_extract(s.value, '$.trail'), '[]'),
           coalesce(json_extract(s.value, '$.markdown'), ''),
           coalesce(json_extract(s.value, '$.line_start'), 0)
         FROM bundles b, json_each(b.record, '$.readme.sections') s ORDER BY b.id, s.key",
    )?;
    let rows = st.query_map([], |r| {
        Ok(ReadmeSectionRow {
            bundle_id: r.get(0)?,
            file: r.get(1)?,
            level: r.get(2)?,
            heading: r.get(3)?,
            anchor: r.get(4)?,
            trail: super::json_list(r, 5)?,
            markdown: r.get(6)?,
            line_start: r.get(7)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The README chunks: which bundle, and the first line of the section each is cut
/// from (how a chunk finds its section).
pub fn readme_chunk_rows(c: &Connection) -> Result<Vec<(i64, i64, u32)>, StoreError> {
    let mut st = c.prepare(
        "SELECT rowid, bundle_id, coalesce(line_start, 0) FROM chunks
         WHERE kind = 'readme' AND bundle_id IS NOT NULL",
    )?;
    let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every library keyword, with how many bundles call it.
pub fn keyword_rows(c: &Connection) -> Result<Vec<KeywordMeta>, StoreError> {
    let mut st = c.prepare(
        "SELECT k.id, co.name, k.library, k.name, k.args, k.doc, k.url,
           (SELECT count(DISTINCT u.bundle_id) FROM keyword_uses u WHERE u.keyword_id = k.id)
         FROM keywords k JOIN collections co ON co.id = k.collection_id",
    )?;
    let rows = st.query_map([], |r| {
        Ok(KeywordMeta {
            id: r.get(0)?,
            collection: r.get(1)?,
            library: r.get(2)?,
            name: r.get(3)?,
            args: r.get(4)?,
            doc: r.get(5)?,
            url: r.get(6)?,
            users: r.get(7)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every bundle's settings (user variables and secrets) as (name, bundle key).
pub fn setting_rows(c: &Connection) -> Result<Vec<(String, String)>, StoreError> {
    let mut st = c.prepare(
        "SELECT DISTINCT v.name, co.name || '/' || b.slug FROM variables v
         JOIN bundles b ON b.id = v.bundle_id JOIN collections co ON co.id = b.collection_id
         WHERE v.kind IN ('user', 'secret')",
    )?;
    let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A task or SLI with its bundle.
pub struct TaskRow {
    pub bundle_id: i64,
    pub collection: String,
    pub slug: String,
    pub kind: crate::ingest::TaskKind,
    pub name: String,
}

pub fn task_rows(c: &Connection) -> Result<Vec<TaskRow>, StoreError> {
    let mut st = c.prepare(
        "SELECT t.bundle_id, co.name, b.slug, t.kind, t.name FROM tasks t
         JOIN bundles b ON b.id = t.bundle_id JOIN collections co ON co.id = b.collection_id",
    )?;
    let rows = st.query_map([], |r| {
        Ok(TaskRow {
            bundle_id: r.get(0)?,
            collection: r.get(1)?,
            slug: r.get(2)?,
            kind: crate::store::closed(r, 3)?,
            name: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every keyword, once per bundle that calls it (once with no bundle when none does).
pub struct KeywordUseRow {
    pub library: String,
    pub name: String,
    pub bundle_id: Option<i64>,
}

pub fn keyword_use_rows(c: &Connection) -> Result<Vec<KeywordUseRow>, StoreError> {
    let mut st = c.prepare(
        "SELECT k.library, k.name, u.bundle_id FROM keywords k LEFT JOIN keyword_uses u ON u.keyword_id = k.id",
    )?;
    let rows = st.query_map([], |r| {
        Ok(KeywordUseRow {
            library: r.get(0)?,
            name: r.get(1)?,
            bundle_id: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Each bundle's summary-chunk vector from `embedder` (stored little-endian f32s).
pub fn summary_vectors(c: &Connection, embedder: &str) -> Result<Vec<(i64, Vec<u8>)>, StoreError> {
    let mut st = c.prepare(
        "SELECT c.bundle_id, e.vector FROM chunks c
         JOIN embeddings e ON e.content_hash = c.content_hash AND e.embedder = ?1
         WHERE c.kind = 'bundle'",
    )?;
    let rows = st.query_map([embedder], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}
