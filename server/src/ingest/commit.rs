//! Phase two: apply a plan in one transaction, then report from the catalog.

use super::TaskKind;
use super::chunk_rows::{Owner, insert_chunk};
use super::chunks;
use super::docs::DocSection;
use super::evidence::Evidence;
use super::plan::{CollectionPlan, DocSetPlan, Plan};
use super::record::{BundleRecord, Warning};
use super::robot::normalize;
use super::{CollectionReport, DocSetReport, IndexOptions, IndexReport, IngestError};
use crate::store::Db;
use rusqlite::{Transaction, params};
use std::collections::{HashMap, HashSet};

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')";

pub(super) fn commit(db: &Db, plan: &mut Plan, opts: &IndexOptions) -> Result<(), IngestError> {
    db.write_blocking(|conn| {
        let tx = conn.transaction()?;
        let result = write_all(&tx, plan, opts);
        match result {
            Ok(()) => {
                tx.commit()?;
                Ok(Ok(()))
            }
            // Dropping the transaction rolls everything back.
            Err(e) => Ok(Err(e)),
        }
    })?
}

fn write_all(tx: &Transaction, plan: &mut Plan, opts: &IndexOptions) -> Result<(), IngestError> {
    tx.execute(
        &format!("INSERT INTO index_runs (started_at, status) VALUES ({NOW}, 'running')"),
        [],
    )?;
    let run_id = tx.last_insert_rowid();
    let mut written = 0usize;
    for c in plan.collections.iter_mut().filter(|c| !c.unchanged) {
        write_collection(tx, c, opts, &mut written)?;
    }
    for d in plan.doc_sets.iter().filter(|d| !d.unchanged) {
        write_doc_set(tx, d)?;
    }
    for name in &plan.removed_collections {
        tx.execute("DELETE FROM collections WHERE name = ?1", [name])?;
    }
    for name in &plan.removed_doc_sets {
        tx.execute("DELETE FROM doc_sets WHERE name = ?1", [name])?;
    }
    super::external::derive(tx)?;
    let calls = link_keywords(tx)?;
    super::usage::write(tx, &calls)?;
    crate::index::fts::prune(tx)?;
    // Search snapshots and the graph compare this to know they are stale.
    crate::store::bump_catalog_generation(tx)?;
    // Built here: no longer the catalog some replica published (publishing notes
    // its own run again).
    tx.execute("DELETE FROM app_meta WHERE key = 'catalog_run'", [])?;
    let summary = serde_json::json!({
        "collections": plan.collections.iter().map(|c| serde_json::json!({
            "name": c.resolved.name, "parsed": c.changed.len(), "removed": c.removed.len(), "unchanged": c.unchanged,
        })).collect::<Vec<_>>(),
        "removed": plan.removed_collections,
    });
    tx.execute(
        &format!(
            "UPDATE index_runs SET finished_at = {NOW}, status = 'ok', summary = ?2 WHERE id = ?1"
        ),
        params![run_id, summary.to_string()],
    )?;
    Ok(())
}

fn write_collection(
    tx: &Transaction,
    c: &mut CollectionPlan,
    opts: &IndexOptions,
    written: &mut usize,
) -> Result<(), IngestError> {
    let r = &c.resolved;
    tx.execute(
        &format!(
            "INSERT INTO collections (name, root, git_url, git_ref, commit_sha, web_url, content_hash, libraries_hash, docs_hash, indexed_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, {NOW})
             ON CONFLICT (name) DO UPDATE SET root = ?2, git_url = ?3, git_ref = ?4, commit_sha = ?5, web_url = ?6,
               content_hash = ?7, libraries_hash = ?8, docs_hash = ?9, indexed_at = {NOW}"
        ),
        params![
            r.name,
            r.live_root.to_string_lossy(),
            // Stored without credentials: the catalog is read by public APIs.
            r.git_url.as_deref().map(super::source::redact),
            r.git_ref,
            r.commit,
            r.links.as_ref().map(|l| l.web.clone()),
            c.content_hash,
            c.libraries_hash,
            c.docs_hash
        ],
    )?;
    let cid: i64 = tx.query_row(
        "SELECT id FROM collections WHERE name = ?1",
        [&r.name],
        |row| row.get(0),
    )?;

    for slug in &c.removed {
        tx.execute(
            "DELETE FROM bundles WHERE collection_id = ?1 AND slug = ?2",
            params![cid, slug],
        )?;
    }
    for parsed in c.changed.drain()? {
        let (record, fingerprint) = parsed?;
        if opts.fail_after_bundles.is_some_and(|n| *written >= n) {
            return Err(IngestError::Injected(*written));
        }
        let updated = r.bundle_dates.get(&record.slug).map(String::as_str);
        write_bundle(tx, cid, &record, &fingerprint, updated)?;
        *written += 1;
    }
    if let Some(keywords) = &c.keywords {
        tx.execute("DELETE FROM keywords WHERE collection_id = ?1", [cid])?;
        let mut ins = tx.prepare(
            "INSERT INTO keywords (collection_id, library, name, python_name, class_name, args, doc, file, line, url)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
             ON CONFLICT (collection_id, library, name) DO NOTHING",
        )?;
        for k in keywords {
            let url = r.links.as_ref().map(|l| l.lines(&k.file, k.line, k.line));
            let n = ins.execute(params![
                cid,
                k.library,
                k.name,
                k.python_name,
                k.class_name,
                k.args,
                k.doc,
                k.file,
                k.line as i64,
                url
            ])?;
            if n == 1 {
                let kid = tx.last_insert_rowid();
                insert_chunk(
                    tx,
                    &chunks::keyword_chunk(&format!("{}:{}", r.name, k.library), k),
                    Owner::Keyword(kid),
                )?;
            }
        }
    }
    if let Some(docs) = &c.docs {
        tx.execute("DELETE FROM docs WHERE collection_id = ?1", [cid])?;
        for d in docs {
            insert_doc(tx, Owner::CollectionDoc(cid), &r.name, d)?;
        }
    }
    tx.execute(
        "DELETE FROM index_warnings WHERE collection_id = ?1 AND bundle_id IS NULL",
        [cid],
    )?;
    insert_warnings(tx, Some(cid), None, None, &c.warnings)?;
    tx.execute(
        "UPDATE collections SET
           bundles = (SELECT count(*) FROM bundles WHERE collection_id = ?1),
           tasks = (SELECT count(*) FROM tasks t JOIN bundles b ON b.id = t.bundle_id WHERE b.collection_id = ?1 AND t.kind = 'task'),
           slis = (SELECT count(*) FROM tasks t JOIN bundles b ON b.id = t.bundle_id WHERE b.collection_id = ?1 AND t.kind = 'sli'),
           keywords = (SELECT count(*) FROM keywords WHERE collection_id = ?1 AND external = 0),
           docs = (SELECT count(*) FROM docs WHERE collection_id = ?1),
           warnings = (SELECT count(*) FROM index_warnings WHERE collection_id = ?1)
         WHERE id = ?1",
        [cid],
    )?;
    Ok(())
}

fn write_bundle(
    tx: &Transaction,
    cid: i64,
    b: &BundleRecord,
    fingerprint: &str,
    updated_at: Option<&str>,
) -> Result<(), IngestError> {
    tx.execute(
        "DELETE FROM bundles WHERE collection_id = ?1 AND slug = ?2",
        params![cid, b.slug],
    )?;
    let json = |v: &Vec<String>| serde_json::to_string(v).unwrap_or_else(|_| "[]".into());
    let record =
        serde_json::to_string(b).map_err(|e| crate::store::StoreError::Corrupt(e.to_string()))?;
    tx.execute(
        "INSERT INTO bundles (collection_id, slug, fingerprint, display_name, description, platform, access,
           resource_types, tags, task_count, sli_count, author, source_url, record, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
        params![
            cid,
            b.slug,
            fingerprint,
            b.display_name,
            b.description,
            b.derived.platform,
            b.derived.access.as_str(),
            json(&b.derived.resource_types),
            json(&b.all_tags()),
            b.tasks.len() as i64,
            b.slis.len() as i64,
            b.author,
            b.source_url,
            record,
            updated_at
        ],
    )?;
    let bid = tx.last_insert_rowid();
    crate::index::fts::write_bundle(tx, bid, &b.search_text())?;
    let mut ins_task = tx.prepare_cached(
        "INSERT INTO tasks (bundle_id, kind, position, name, doc, tags, access, file, line_start, line_end, calls, sites)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?;
    for (kind, list) in [(TaskKind::Task, &b.tasks), (TaskKind::Sli, &b.slis)] {
        for (i, t) in list.iter().enumerate() {
            ins_task.execute(params![
                bid,
                kind.as_str(),
                i as i64,
                t.name,
                t.doc,
                json(&t.tags),
                t.access.as_str(),
                t.file,
                t.line_start as i64,
                t.line_end as i64,
                json(&t.calls),
                serde_json::to_string(&t.sites).unwrap_or_else(|_| "[]".into())
            ])?;
        }
    }
    let mut ins_var = tx.prepare_cached(
        "INSERT INTO variables (bundle_id, name, kind, var_type, description, default_value, file, line)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for v in &b.variables {
        ins_var.execute(params![
            bid,
            v.name,
            v.kind.as_str(),
            v.var_type,
            v.description,
            v.default,
            v.file,
            v.line as i64
        ])?;
    }
    let mut ins_lib = tx.prepare_cached(
        "INSERT OR IGNORE INTO bundle_libraries (bundle_id, library) VALUES (?1, ?2)",
    )?;
    for l in &b.libraries {
        ins_lib.execute(params![bid, l])?;
    }
    for ch in chunks::bundle_chunks(b) {
        insert_chunk(tx, &ch, Owner::Bundle(bid))?;
    }
    insert_warnings(tx, Some(cid), Some(bid), None, &b.warnings)?;
    Ok(())
}

fn insert_doc(
    tx: &Transaction,
    owner: Owner,
    parent: &str,
    d: &DocSection,
) -> Result<(), IngestError> {
    let (doc_set, collection) = match &owner {
        Owner::CollectionDoc(cid) => (None, Some(*cid)),
        Owner::DocSet(name) => (Some(name.clone()), None),
        _ => unreachable!("docs belong to a collection or a doc set"),
    };
    tx.prepare_cached(
        "INSERT INTO docs (doc_set, collection_id, path, title, heading, anchor, trail, markdown, text, line_start, line_end, url)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?
    .execute(params![
        doc_set,
        collection,
        d.path,
        d.title,
        d.heading,
        d.anchor,
        serde_json::to_string(&d.trail).unwrap_or_default(),
        d.markdown,
        d.text,
        d.line_start as i64,
        d.line_end as i64,
        d.url
    ])?;
    let id = tx.last_insert_rowid();
    for ch in chunks::doc_chunks(&format!("{parent}:{}#{}", d.path, d.anchor), d) {
        insert_chunk(tx, &ch, Owner::Doc(id))?;
    }
    Ok(())
}

fn write_doc_set(tx: &Transaction, d: &DocSetPlan) -> Result<(), IngestError> {
    tx.execute(
        &format!(
            "INSERT INTO doc_sets (name, root, content_hash, indexed_at, files, sections) VALUES (?1, ?2, ?3, {NOW}, ?4, ?5)
             ON CONFLICT (name) DO UPDATE SET root = ?2, content_hash = ?3, indexed_at = {NOW}, files = ?4, sections = ?5"
        ),
        params![d.name, d.root, d.content_hash, d.files as i64, d.sections.len() as i64],
    )?;
    tx.execute("DELETE FROM docs WHERE doc_set = ?1", [&d.name])?;
    for s in &d.sections {
        insert_doc(tx, Owner::DocSet(d.name.clone()), &d.name, s)?;
    }
    tx.execute("DELETE FROM index_warnings WHERE doc_set = ?1", [&d.name])?;
    insert_warnings(tx, None, None, Some(&d.name), &d.warnings)?;
    Ok(())
}

fn insert_warnings(
    tx: &Transaction,
    cid: Option<i64>,
    bid: Option<i64>,
    doc_set: Option<&str>,
    ws: &[Warning],
) -> Result<(), IngestError> {
    let mut st = tx.prepare_cached(
        "INSERT INTO index_warnings (collection_id, bundle_id, doc_set, path, line, message) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for w in ws {
        st.execute(params![
            cid,
            bid,
            doc_set,
            w.path,
            w.line.map(|l| l as i64),
            w.message
        ])?;
    }
    Ok(())
}

/// Recomputes which bundles call which keywords, and which imported libraries no
/// indexed collection provides (external, e.g. `RW.Core`). Libraries resolve
/// across collections: a bundle importing `RW.CLI` links to whichever indexed
/// collection ships it, its own first. Returns what the calls say about each
/// shipped keyword, by id.
fn link_keywords(tx: &Transaction) -> Result<HashMap<i64, Evidence>, IngestError> {
    tx.execute("DELETE FROM keyword_uses", [])?;
    tx.execute(
        "UPDATE bundle_libraries SET external = NOT EXISTS (SELECT 1 FROM keywords k WHERE k.library = bundle_libraries.library AND k.external = 0)",
        [],
    )?;
    // library → normalized keyword name → [(keyword id, collection id)]
    let mut by_lib: HashMap<String, HashMap<String, Vec<(i64, i64)>>> = HashMap::new();
    // Shipped keywords' ids: external ones were just derived from the same calls.
    let mut shipped: HashSet<i64> = HashSet::new();
    {
        let mut st =
            tx.prepare("SELECT id, collection_id, library, name, external FROM keywords")?;
        let rows = st.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, bool>(4)?,
            ))
        })?;
        for row in rows {
            let (id, cid, lib, name, external) = row?;
            if !external {
                shipped.insert(id);
            }
            by_lib
                .entry(lib)
                .or_default()
                .entry(normalize(&name))
                .or_default()
                .push((id, cid));
        }
    }
    let mut evidence: HashMap<i64, Evidence> = HashMap::new();
    if by_lib.is_empty() {
        return Ok(evidence);
    }
    let mut libs_of: HashMap<i64, Vec<String>> = HashMap::new();
    {
        let mut st = tx.prepare("SELECT bundle_id, library FROM bundle_libraries")?;
        for row in st.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))? {
            let (b, l) = row?;
            libs_of.entry(b).or_default().push(l);
        }
    }
    let mut ins = tx.prepare(
        "INSERT OR IGNORE INTO keyword_uses (keyword_id, bundle_id, task, file, line) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for t in super::calls::all(tx)? {
        let libs = libs_of.get(&t.bundle_id).map_or(&[][..], Vec::as_slice);
        for (at, site) in t.sites.iter().enumerate() {
            // `RW.KubeTriage.Summarize Pod Restarts` names its library; a bare
            // `Summarize Pod Restarts` may come from any imported library.
            let (candidates, name): (Vec<&String>, &str) = match site.qualified_by(libs) {
                Some((lib, name)) => (vec![lib], name),
                None => (libs.iter().collect(), site.name.as_str()),
            };
            let key = normalize(name);
            for lib in candidates {
                let Some(hits) = by_lib.get(lib.as_str()).and_then(|m| m.get(&key)) else {
                    continue;
                };
                let best = hits
                    .iter()
                    .find(|(_, c)| *c == t.collection_id)
                    .or(hits.first());
                if let Some((kid, _)) = best {
                    // The first call in the task is the one pointed at.
                    ins.execute(params![
                        kid,
                        t.bundle_id,
                        t.task.trim(),
                        t.file,
                        site.line as i64
                    ])?;
                    if shipped.contains(kid) {
                        evidence.entry(*kid).or_default().add(&t.call(at, name));
                    }
                }
            }
        }
    }
    Ok(evidence)
}

/// Counts and warnings per source, read back from the catalog.
pub(super) fn report(db: &Db, plan: &Plan) -> Result<IndexReport, IngestError> {
    let collections = plan
        .collections
        .iter()
        .map(|c| {
            let name = c.resolved.name.clone();
            let (bundles, tasks, slis, keywords, docs, warnings) = db.read_blocking(|conn| {
                let counts = conn.query_row(
                    "SELECT id, bundles, tasks, slis, keywords, docs FROM collections WHERE name = ?1",
                    [&name],
                    |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?, r.get::<_, i64>(3)?, r.get::<_, i64>(4)?, r.get::<_, i64>(5)?)),
                )?;
                let mut st = conn.prepare("SELECT path, line, message FROM index_warnings WHERE collection_id = ?1 ORDER BY path, line")?;
                let ws = st
                    .query_map([counts.0], |r| Ok(Warning { path: r.get(0)?, line: r.get::<_, Option<i64>>(1)?.map(|l| l as usize), message: r.get(2)? }))?
                    .collect::<Result<Vec<_>, _>>()?;
                Ok((counts.1 as u64, counts.2 as u64, counts.3 as u64, counts.4 as u64, counts.5 as u64, ws))
            })?;
            Ok(CollectionReport {
                name,
                commit: c.resolved.commit.clone(),
                bundles,
                tasks,
                slis,
                keywords,
                docs,
                parsed: c.changed.len(),
                removed: c.removed.len(),
                unchanged: c.unchanged,
                warnings,
            })
        })
        .collect::<Result<Vec<_>, IngestError>>()?;
    let doc_sets = plan
        .doc_sets
        .iter()
        .map(|d| {
            let (files, sections) = db.read_blocking(|conn| {
                Ok(conn.query_row(
                    "SELECT files, sections FROM doc_sets WHERE name = ?1",
                    [&d.name],
                    |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)),
                )?)
            })?;
            Ok(DocSetReport {
                name: d.name.clone(),
                files: files as u64,
                sections: sections as u64,
                unchanged: d.unchanged,
                warnings: d.warnings.clone(),
            })
        })
        .collect::<Result<Vec<_>, IngestError>>()?;
    let mut removed = plan.removed_collections.clone();
    removed.extend(plan.removed_doc_sets.iter().cloned());
    Ok(IndexReport {
        collections,
        doc_sets,
        removed,
        wrote: false,
        elapsed_ms: 0,
    })
}
