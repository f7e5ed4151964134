//! Rebuilding the graph from the catalog (one transaction; skipped when the catalog
//! generation and vectors it was built from are unchanged, so a no-change reindex
//! writes nothing).

use crate::index::build::blob_to_vector;
use crate::index::vectors::dot;
use crate::store::{Db, StoreError};
use rusqlite::{Transaction, params};
use std::collections::HashMap;

/// Bundles whose summary vectors are at least this similar get a SIMILAR_TO edge
/// (MiniLM puts paraphrases at 0.6–0.75 and unrelated text near 0).
const SIMILAR_MIN: f32 = 0.55;
const SIMILAR_PER_BUNDLE: usize = 3;

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct GraphReport {
    pub nodes: usize,
    pub edges: usize,
    pub rebuilt: bool,
}

struct Builder<'a> {
    tx: &'a Transaction<'a>,
    ids: HashMap<(String, String), i64>,
    edges: usize,
}

impl Builder<'_> {
    fn node(&mut self, kind: &str, key: &str, label: &str) -> rusqlite::Result<i64> {
        let k = (kind.to_string(), key.to_string());
        if let Some(id) = self.ids.get(&k) {
            return Ok(*id);
        }
        self.tx
            .prepare_cached("INSERT INTO graph_nodes (kind, key, label) VALUES (?1, ?2, ?3)")?
            .execute(params![kind, key, label])?;
        let id = self.tx.last_insert_rowid();
        self.ids.insert(k, id);
        Ok(id)
    }

    fn edge(&mut self, src: i64, dst: i64, kind: &str, weight: f64) -> rusqlite::Result<()> {
        if src == dst {
            return Ok(());
        }
        let n = self
            .tx
            .prepare_cached("INSERT OR IGNORE INTO graph_edges (src, dst, kind, weight) VALUES (?1, ?2, ?3, ?4)")?
            .execute(params![src, dst, kind, weight])?;
        self.edges += n;
        Ok(())
    }
}

fn norm(s: &str) -> String {
    s.trim().to_lowercase()
}

pub fn rebuild(db: &Db, embedder_id: &str) -> Result<GraphReport, StoreError> {
    let embedder_id = embedder_id.to_string();
    db.write_blocking(move |conn| {
        let generation = crate::store::catalog_generation(conn)?;
        let vectors: i64 = conn.query_row("SELECT count(*) FROM embeddings WHERE embedder = ?1", [&embedder_id], |r| r.get(0))?;
        let fingerprint = format!("{generation}:{embedder_id}:{vectors}");
        let current: Option<String> = rusqlite::OptionalExtension::optional(conn.query_row(
            "SELECT value FROM app_meta WHERE key = 'graph_fingerprint'",
            [],
            |r| r.get(0),
        ))?;
        if current.as_deref() == Some(fingerprint.as_str()) {
            let nodes: i64 = conn.query_row("SELECT count(*) FROM graph_nodes", [], |r| r.get(0))?;
            let edges: i64 = conn.query_row("SELECT count(*) FROM graph_edges", [], |r| r.get(0))?;
            return Ok(GraphReport { nodes: nodes as usize, edges: edges as usize, rebuilt: false });
        }
        let tx = conn.transaction()?;
        tx.execute("DELETE FROM graph_edges", [])?;
        tx.execute("DELETE FROM graph_nodes", [])?;
        let mut b = Builder { tx: &tx, ids: HashMap::new(), edges: 0 };
        build_all(&mut b, &embedder_id)?;
        let (nodes, edges) = (b.ids.len(), b.edges);
        tx.execute(
            "INSERT INTO app_meta (key, value) VALUES ('graph_fingerprint', ?1) ON CONFLICT (key) DO UPDATE SET value = ?1",
            [&fingerprint],
        )?;
        tx.commit()?;
        Ok(GraphReport { nodes, edges, rebuilt: true })
    })
}

/// (id, collection, slug, display name, platform, resource types, tags, author)
type BundleRow = (
    i64,
    String,
    String,
    String,
    String,
    String,
    String,
    Option<String>,
);

fn build_all(b: &mut Builder, embedder_id: &str) -> rusqlite::Result<()> {
    let tx = b.tx;
    // Collections and bundles with their facets.
    let mut st = tx.prepare(
        "SELECT b.id, co.name, b.slug, b.display_name, b.platform, b.resource_types, b.tags, b.author
         FROM bundles b JOIN collections co ON co.id = b.collection_id",
    )?;
    let rows: Vec<BundleRow> = st
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    drop(st);
    let mut bundle_node: HashMap<i64, i64> = HashMap::new();
    let mut by_slug: HashMap<String, Vec<i64>> = HashMap::new();
    let mut names: Vec<(i64, String, String)> = Vec::new(); // (node, slug, display name) for DOCUMENTS
    for (id, coll, slug, name, platform, resources, tags, author) in &rows {
        let key = format!("{coll}/{slug}");
        let c = b.node("collection", coll, coll)?;
        let n = b.node("bundle", &key, name)?;
        bundle_node.insert(*id, n);
        by_slug.entry(slug.clone()).or_default().push(n);
        names.push((n, slug.clone(), name.clone()));
        b.edge(c, n, "CONTAINS", 1.0)?;
        if platform != "generic" {
            let p = b.node("platform", platform, platform)?;
            b.edge(n, p, "SUPPORTS", 1.0)?;
        }
        for r in serde_json::from_str::<Vec<String>>(resources).unwrap_or_default() {
            let rn = b.node("resource", &norm(&r), &r)?;
            b.edge(n, rn, "TARGETS", 1.0)?;
        }
        for t in serde_json::from_str::<Vec<String>>(tags).unwrap_or_default() {
            let tn = b.node("tag", &norm(&t), &t)?;
            b.edge(n, tn, "HAS_TAG", 1.0)?;
        }
        if let Some(a) = author.as_deref().filter(|a| !a.trim().is_empty()) {
            let an = b.node("author", &norm(a), a)?;
            b.edge(n, an, "AUTHORED_BY", 1.0)?;
        }
    }
    for nodes in by_slug.values().filter(|v| v.len() > 1) {
        for (i, a) in nodes.iter().enumerate() {
            for bb in &nodes[i + 1..] {
                b.edge(*a, *bb, "SAME_SLUG_AS", 1.0)?;
                b.edge(*bb, *a, "SAME_SLUG_AS", 1.0)?;
            }
        }
    }
    // Tasks and SLIs.
    let mut st = tx.prepare("SELECT t.bundle_id, co.name, b.slug, t.kind, t.name FROM tasks t JOIN bundles b ON b.id = t.bundle_id JOIN collections co ON co.id = b.collection_id")?;
    let tasks: Vec<(i64, String, String, String, String)> = st
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?
        .collect::<Result<_, _>>()?;
    drop(st);
    for (bid, coll, slug, kind, name) in &tasks {
        if let Some(&bn) = bundle_node.get(bid) {
            let tn = b.node(kind, &format!("{coll}/{slug}#{}", name.trim()), name.trim())?;
            b.edge(bn, tn, "CONTAINS", 1.0)?;
        }
    }
    // Keywords and who uses them.
    let mut st = tx.prepare(
        "SELECT k.id, k.library, k.name, u.bundle_id FROM keywords k LEFT JOIN keyword_uses u ON u.keyword_id = k.id",
    )?;
    let uses: Vec<(i64, String, String, Option<i64>)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    drop(st);
    let mut keyword_names: Vec<(i64, String)> = Vec::new();
    for (_, lib, name, user) in &uses {
        let kn = b.node("keyword", &format!("{lib}.{name}"), name)?;
        keyword_names.push((kn, name.clone()));
        if let Some(bn) = user.and_then(|u| bundle_node.get(&u).copied()) {
            b.edge(bn, kn, "USES", 1.0)?;
        }
    }
    // Doc sections that name a bundle (slug or display name) or a keyword document it.
    let mut st = tx.prepare("SELECT d.id, coalesce(d.doc_set, co.name), d.path, d.anchor, coalesce(d.heading, d.title), d.text FROM docs d LEFT JOIN collections co ON co.id = d.collection_id")?;
    let docs: Vec<(i64, String, String, String, String, String)> = st
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    drop(st);
    for (_, source, path, anchor, heading, text) in &docs {
        let lower = text.to_lowercase();
        let dn = b.node("doc", &format!("{source}:{path}#{anchor}"), heading)?;
        for (bn, slug, name) in &names {
            if lower.contains(slug.as_str())
                || (name.len() > 12 && lower.contains(&name.to_lowercase()))
            {
                b.edge(dn, *bn, "DOCUMENTS", 1.0)?;
            }
        }
        for (kn, name) in &keyword_names {
            if name.len() > 8 && lower.contains(&name.to_lowercase()) {
                b.edge(dn, *kn, "DOCUMENTS", 1.0)?;
            }
        }
    }
    // SIMILAR_TO from the bundles' summary vectors.
    let mut st = tx.prepare(
        "SELECT c.bundle_id, e.vector FROM chunks c JOIN embeddings e ON e.content_hash = c.content_hash AND e.embedder = ?1 WHERE c.kind = 'bundle'",
    )?;
    let vecs: Vec<(i64, Vec<f32>)> = st
        .query_map([embedder_id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                blob_to_vector(&r.get::<_, Vec<u8>>(1)?),
            ))
        })?
        .collect::<Result<_, _>>()?;
    drop(st);
    for (i, (a, va)) in vecs.iter().enumerate() {
        let mut sims: Vec<(f32, i64)> = vecs
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, (bb, vb))| (dot(va, vb), *bb))
            .collect();
        // Only the top few are kept: partition instead of sorting every row
        // (at 10k bundles a full sort per bundle dominated the graph build).
        if sims.len() > SIMILAR_PER_BUNDLE {
            sims.select_nth_unstable_by(SIMILAR_PER_BUNDLE, |x, y| y.0.total_cmp(&x.0));
            sims.truncate(SIMILAR_PER_BUNDLE);
        }
        sims.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        for (s, bb) in sims
            .into_iter()
            .take(SIMILAR_PER_BUNDLE)
            .filter(|(s, _)| *s >= SIMILAR_MIN)
        {
            if let (Some(&na), Some(&nb)) = (bundle_node.get(a), bundle_node.get(&bb)) {
                b.edge(na, nb, "SIMILAR_TO", s as f64)?;
            }
        }
    }
    Ok(())
}
