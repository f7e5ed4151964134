//! Reading the catalog. Queries take a connection so the CLI can call them directly
//! and the web layer through `Db::read` on the blocking pool.

mod detail;
mod examples;
mod header;
mod lookups;
mod rows;

pub use detail::detail;
pub use examples::examples;
pub use header::{BundleRow, bundle_rows};
pub use lookups::{
    KeywordUse, bundle_link, collection_root, doc_markdown, keyword_users, library_users,
};
pub use rows::{
    ChunkRow, DocMeta, KeywordMeta, KeywordUseRow, ReadmeSectionRow, TaskRow, chunk_rows, doc_rows,
    keyword_rows, keyword_use_rows, readme_chunk_rows, readme_section_rows, setting_rows,
    summary_vectors, task_rows,
};

use crate::ingest::BundleRecord;
use crate::store::StoreError;
use app::api::catalog::{BundleFilter, BundleSummary, CollectionStatus, TaskInfo};
use app::api::status::{IndexHealth, IndexSource, IndexState};
use rusqlite::{Connection, OptionalExtension, Row};

pub fn collections(c: &Connection) -> Result<Vec<CollectionStatus>, StoreError> {
    let mut st = c.prepare(
        "SELECT name, commit_sha, content_hash, root, git_url, web_url, bundles, tasks, slis, docs, keywords, warnings, indexed_at
         FROM collections ORDER BY name",
    )?;
    let rows = st.query_map([], |r| {
        Ok(CollectionStatus {
            name: r.get(0)?,
            commit: r.get(1)?,
            content_hash: r.get(2)?,
            root: r.get(3)?,
            git_url: r.get(4)?,
            web_url: r.get(5)?,
            bundles: r.get::<_, i64>(6)? as u64,
            tasks: r.get::<_, i64>(7)? as u64,
            slis: r.get::<_, i64>(8)? as u64,
            docs: r.get::<_, i64>(9)? as u64,
            keywords: r.get::<_, i64>(10)? as u64,
            warnings: r.get::<_, i64>(11)? as u64,
            indexed_at: r.get(12)?,
            stale: Vec::new(),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn json_list<I: rusqlite::RowIndex>(r: &Row, i: I) -> rusqlite::Result<Vec<String>> {
    let s: String = r.get(i)?;
    Ok(serde_json::from_str(&s).unwrap_or_default())
}

pub fn bundles(c: &Connection, filter: &BundleFilter) -> Result<Vec<BundleSummary>, StoreError> {
    let mut out = Vec::new();
    for row in bundle_rows(c)? {
        let mut b = BundleSummary {
            header: row.header,
            author: row.author,
            ..Default::default()
        };
        if !matches(&b, filter) {
            continue;
        }
        let (tasks, slis) = tasks_of(c, row.id)?;
        b.tasks = tasks;
        b.slis = slis;
        out.push(b);
    }
    Ok(out)
}

fn matches(b: &BundleSummary, f: &BundleFilter) -> bool {
    let eq = |want: &Option<String>, have: &str| {
        want.as_deref()
            .is_none_or(|w| w.trim().eq_ignore_ascii_case(have))
    };
    eq(&f.collection, &b.collection)
        && eq(&f.platform, &b.platform)
        && f.access.is_none_or(|a| a == b.access)
        && f.tag
            .as_deref()
            .is_none_or(|t| b.tags.iter().any(|x| x.eq_ignore_ascii_case(t.trim())))
        && f.text.as_deref().is_none_or(|t| {
            let t = t.trim().to_lowercase();
            b.slug.to_lowercase().contains(&t)
                || b.display_name.to_lowercase().contains(&t)
                || b.description.to_lowercase().contains(&t)
        })
}

pub(crate) fn tasks_of(
    c: &Connection,
    bundle_id: i64,
) -> Result<(Vec<TaskInfo>, Vec<TaskInfo>), StoreError> {
    let mut st = c.prepare_cached(
        "SELECT kind, name, doc, tags, access, file, line_start, line_end FROM tasks WHERE bundle_id = ?1 ORDER BY kind, position",
    )?;
    let rows = st.query_map([bundle_id], |r| {
        Ok((
            r.get::<_, String>(0)?,
            TaskInfo {
                name: r.get(1)?,
                doc: r.get(2)?,
                tags: json_list(r, 3)?,
                access: crate::store::closed(r, 4)?,
                file: r.get(5)?,
                line_start: r.get::<_, i64>(6)? as u32,
                line_end: r.get::<_, i64>(7)? as u32,
                url: None,
            },
        ))
    })?;
    let (mut tasks, mut slis) = (Vec::new(), Vec::new());
    for row in rows {
        let (kind, t) = row?;
        if kind == "sli" {
            slis.push(t)
        } else {
            tasks.push(t)
        }
    }
    Ok((tasks, slis))
}

/// The stored record of one bundle.
pub fn record(
    c: &Connection,
    collection: &str,
    slug: &str,
) -> Result<Option<(i64, BundleRecord)>, StoreError> {
    let row: Option<(i64, String)> = c
        .query_row(
            "SELECT b.id, b.record FROM bundles b JOIN collections co ON co.id = b.collection_id WHERE co.name = ?1 AND b.slug = ?2",
            [collection, slug],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    match row {
        Some((id, json)) => {
            let rec = serde_json::from_str(&json)
                .map_err(|e| StoreError::Corrupt(format!("bundle {collection}/{slug}: {e}")))?;
            Ok(Some((id, rec)))
        }
        None => Ok(None),
    }
}

/// One collection's figures for `/metrics`.
pub struct IndexFigures {
    pub collection: String,
    pub bundles: i64,
    pub warnings: i64,
    /// When it was last indexed, as Unix seconds.
    pub indexed_at_unix: Option<i64>,
}

pub fn index_figures(c: &Connection) -> Result<Vec<IndexFigures>, StoreError> {
    let mut st = c.prepare_cached(
        "SELECT name, bundles, warnings, CAST(strftime('%s', indexed_at) AS INTEGER) FROM collections ORDER BY name",
    )?;
    let rows = st.query_map([], |r| {
        Ok(IndexFigures {
            collection: r.get(0)?,
            bundles: r.get(1)?,
            warnings: r.get(2)?,
            indexed_at_unix: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Index state for `/health` and the UI.
pub fn index_summary(c: &Connection) -> Result<IndexHealth, StoreError> {
    let (collections, bundles, last): (i64, i64, Option<String>) = c.query_row(
        "SELECT count(*), coalesce(sum(bundles), 0), max(indexed_at) FROM collections",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let running: bool = c.query_row(
        "SELECT EXISTS(SELECT 1 FROM index_runs WHERE status = 'running' AND started_at > strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-1 hour'))",
        [],
        |r| r.get(0),
    )?;
    let state = if running {
        IndexState::Indexing
    } else if bundles > 0 {
        IndexState::Ready
    } else {
        IndexState::Empty
    };
    let sources = self::collections(c)?
        .into_iter()
        .map(|s| IndexSource {
            name: s.name,
            bundles: s.bundles,
            warnings: s.warnings,
            commit: s.commit,
            indexed_at: s.indexed_at,
        })
        .collect();
    Ok(IndexHealth {
        state,
        collections: collections as u64,
        bundles: bundles as u64,
        last_indexed_at: last,
        sources,
        catalog_run: crate::store::catalog_run(c)?,
    })
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct DocSetStatus {
    pub name: String,
    pub root: String,
    pub files: u64,
    pub sections: u64,
    pub indexed_at: String,
}

pub fn doc_sets(c: &Connection) -> Result<Vec<DocSetStatus>, StoreError> {
    let mut st =
        c.prepare("SELECT name, root, files, sections, indexed_at FROM doc_sets ORDER BY name")?;
    let rows = st.query_map([], |r| {
        Ok(DocSetStatus {
            name: r.get(0)?,
            root: r.get(1)?,
            files: r.get::<_, i64>(2)? as u64,
            sections: r.get::<_, i64>(3)? as u64,
            indexed_at: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct WarningRow {
    /// Collection or doc set name.
    pub source: String,
    pub path: String,
    pub line: Option<u64>,
    pub message: String,
}

pub fn warnings(c: &Connection) -> Result<Vec<WarningRow>, StoreError> {
    let mut st = c.prepare(
        "SELECT coalesce(co.name, w.doc_set), w.path, w.line, w.message
         FROM index_warnings w LEFT JOIN collections co ON co.id = w.collection_id
         ORDER BY 1, w.path, w.line",
    )?;
    let rows = st.query_map([], |r| {
        Ok(WarningRow {
            source: r.get(0)?,
            path: r.get(1)?,
            line: r.get::<_, Option<i64>>(2)?.map(|l| l as u64),
            message: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
