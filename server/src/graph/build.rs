//! Rebuilding the graph from the catalog (one transaction; skipped when the catalog
//! generation and vectors it was built from are unchanged, so a no-change reindex
//! writes nothing).

use super::{EdgeKind, NodeKind};
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
    ids: HashMap<(NodeKind, String), i64>,
    edges: usize,
}

impl Builder<'_> {
    fn node(&mut self, kind: NodeKind, key: &str, label: &str) -> rusqlite::Result<i64> {
        let k = (kind, key.to_string());
        if let Some(id) = self.ids.get(&k) {
            return Ok(*id);
        }
        self.tx
            .prepare_cached("INSERT INTO graph_nodes (kind, key, label) VALUES (?1, ?2, ?3)")?
            .execute(params![kind.as_str(), key, label])?;
        let id = self.tx.last_insert_rowid();
        self.ids.insert(k, id);
        Ok(id)
    }

    fn edge(&mut self, src: i64, dst: i64, kind: EdgeKind, weight: f64) -> rusqlite::Result<()> {
        if src == dst {
            return Ok(());
        }
        let n = self
            .tx
            .prepare_cached("INSERT OR IGNORE INTO graph_edges (src, dst, kind, weight) VALUES (?1, ?2, ?3, ?4)")?
            .execute(params![src, dst, kind.as_str(), weight])?;
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
        let vectors = crate::store::vector_count(conn, &embedder_id)?;
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

fn build_all(b: &mut Builder, embedder_id: &str) -> Result<(), StoreError> {
    let tx = b.tx;
    // Collections and bundles with their facets.
    // In row order, as the graph was always built: a node shared by several bundles
    // (a tag) takes its label from the first.
    let mut rows = crate::catalog::bundle_rows(tx)?;
    rows.sort_by_key(|r| r.id);
    let mut bundle_node: HashMap<i64, i64> = HashMap::new();
    let mut by_slug: HashMap<String, Vec<i64>> = HashMap::new();
    let mut names: Vec<(i64, String, String)> = Vec::new(); // (node, slug, display name) for DOCUMENTS
    for row in &rows {
        let h = &row.header;
        let (coll, slug, name, platform) = (&h.collection, &h.slug, &h.display_name, &h.platform);
        let key = format!("{coll}/{slug}");
        let c = b.node(NodeKind::Collection, coll, coll)?;
        let n = b.node(NodeKind::Bundle, &key, name)?;
        bundle_node.insert(row.id, n);
        by_slug.entry(slug.clone()).or_default().push(n);
        names.push((n, slug.clone(), name.clone()));
        b.edge(c, n, EdgeKind::Contains, 1.0)?;
        if platform != "generic" {
            let p = b.node(NodeKind::Platform, platform, platform)?;
            b.edge(n, p, EdgeKind::Supports, 1.0)?;
        }
        for r in &h.resource_types {
            let rn = b.node(NodeKind::Resource, &norm(r), r)?;
            b.edge(n, rn, EdgeKind::Targets, 1.0)?;
        }
        for t in &h.tags {
            let tn = b.node(NodeKind::Tag, &norm(t), t)?;
            b.edge(n, tn, EdgeKind::HasTag, 1.0)?;
        }
        if let Some(a) = row.author.as_deref().filter(|a| !a.trim().is_empty()) {
            let an = b.node(NodeKind::Author, &norm(a), a)?;
            b.edge(n, an, EdgeKind::AuthoredBy, 1.0)?;
        }
    }
    for nodes in by_slug.values().filter(|v| v.len() > 1) {
        for (i, a) in nodes.iter().enumerate() {
            for bb in &nodes[i + 1..] {
                b.edge(*a, *bb, EdgeKind::SameSlugAs, 1.0)?;
                b.edge(*bb, *a, EdgeKind::SameSlugAs, 1.0)?;
            }
        }
    }
    // Tasks and SLIs.
    for t in crate::catalog::task_rows(tx)? {
        if let Some(&bn) = bundle_node.get(&t.bundle_id) {
            let name = t.name.trim();
            let kind = match t.kind {
                crate::ingest::TaskKind::Task => NodeKind::Task,
                crate::ingest::TaskKind::Sli => NodeKind::Sli,
            };
            let tn = b.node(kind, &format!("{}/{}#{name}", t.collection, t.slug), name)?;
            b.edge(bn, tn, EdgeKind::Contains, 1.0)?;
        }
    }
    // Keywords and who uses them.
    let mut keyword_names: Vec<(i64, String)> = Vec::new();
    for u in crate::catalog::keyword_use_rows(tx)? {
        let kn = b.node(
            NodeKind::Keyword,
            &format!("{}.{}", u.library, u.name),
            &u.name,
        )?;
        keyword_names.push((kn, u.name.clone()));
        if let Some(bn) = u.bundle_id.and_then(|id| bundle_node.get(&id).copied()) {
            b.edge(bn, kn, EdgeKind::Uses, 1.0)?;
        }
    }
    // Doc sections that name a bundle (slug or display name) or a keyword document it.
    for d in crate::catalog::doc_rows(tx)? {
        let text = &d.text;
        let heading = d.heading.as_deref().unwrap_or(&d.title);
        let (source, path, anchor) = (&d.source, &d.path, &d.anchor);
        let lower = text.to_lowercase();
        let dn = b.node(NodeKind::Doc, &format!("{source}:{path}#{anchor}"), heading)?;
        for (bn, slug, name) in &names {
            if lower.contains(slug.as_str())
                || (name.len() > 12 && lower.contains(&name.to_lowercase()))
            {
                b.edge(dn, *bn, EdgeKind::Documents, 1.0)?;
            }
        }
        for (kn, name) in &keyword_names {
            if name.len() > 8 && lower.contains(&name.to_lowercase()) {
                b.edge(dn, *kn, EdgeKind::Documents, 1.0)?;
            }
        }
    }
    // SIMILAR_TO from the bundles' summary vectors.
    let vecs: Vec<(i64, Vec<f32>)> = crate::catalog::summary_vectors(tx, embedder_id)?
        .into_iter()
        .map(|(id, blob)| (id, blob_to_vector(&blob)))
        .collect();
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
                b.edge(na, nb, EdgeKind::SimilarTo, s as f64)?;
            }
        }
    }
    Ok(())
}
