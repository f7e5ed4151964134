//! The knowledge graph over the catalog, stored in SQLite (`graph_nodes`,
//! `graph_edges`) and loaded into memory for search.
//!
//! Nodes: collection, bundle, task, sli, tag, platform, resource, keyword, doc,
//! author. Edges: CONTAINS, HAS_TAG, SUPPORTS, TARGETS, USES, DOCUMENTS, SIMILAR_TO
//! (from vectors), SAME_SLUG_AS, AUTHORED_BY. Search uses it three ways: to expand a
//! query with the neighbours of entities it names, to boost results linked to those
//! entities, and to explain relations among the final results.

mod build;
pub mod correlate;
mod link;

pub use build::{GraphReport, rebuild};
pub use correlate::{Correlation, Relation, correlate};
pub use link::{Entity, link_entities};

use crate::store::StoreError;
use rusqlite::Connection;
use std::collections::HashMap;

app::closed_set! {
    /// What a graph node stands for (stored as its lower-case name).
    pub enum NodeKind {
        Collection = "collection",
        Bundle = "bundle",
        Task = "task",
        Sli = "sli",
        Tag = "tag",
        Platform = "platform",
        Resource = "resource",
        Keyword = "keyword",
        Doc = "doc",
        Author = "author",
    }
}

app::closed_set! {
    /// How two graph nodes relate (stored in upper case, as the graph is drawn).
    pub enum EdgeKind {
        Contains = "CONTAINS",
        HasTag = "HAS_TAG",
        Supports = "SUPPORTS",
        Targets = "TARGETS",
        Uses = "USES",
        Documents = "DOCUMENTS",
        SimilarTo = "SIMILAR_TO",
        SameSlugAs = "SAME_SLUG_AS",
        AuthoredBy = "AUTHORED_BY",
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    pub key: String,
    pub label: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub to: u32,
    pub kind: EdgeKind,
    pub weight: f32,
}

/// Adjacency lists in both directions; node ids are positions in `nodes`.
#[derive(Default)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub out: Vec<Vec<Edge>>,
    pub inn: Vec<Vec<Edge>>,
    pub by_key: HashMap<(NodeKind, String), u32>,
}

impl Graph {
    pub fn load(c: &Connection) -> Result<Graph, StoreError> {
        let mut g = Graph::default();
        let mut ids: HashMap<i64, u32> = HashMap::new();
        let mut st = c.prepare("SELECT id, kind, key, label FROM graph_nodes ORDER BY id")?;
        let rows = st.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                Node {
                    kind: crate::store::closed(r, 1)?,
                    key: r.get(2)?,
                    label: r.get(3)?,
                },
            ))
        })?;
        for row in rows {
            let (id, node) = row?;
            let i = g.nodes.len() as u32;
            ids.insert(id, i);
            g.by_key.insert((node.kind, node.key.clone()), i);
            g.nodes.push(node);
        }
        g.out = vec![Vec::new(); g.nodes.len()];
        g.inn = vec![Vec::new(); g.nodes.len()];
        let mut st = c.prepare("SELECT src, dst, kind, weight FROM graph_edges")?;
        let rows = st.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                crate::store::closed::<EdgeKind, _>(r, 2)?,
                r.get::<_, f64>(3)?,
            ))
        })?;
        for row in rows {
            let (s, d, kind, w) = row?;
            if let (Some(&s), Some(&d)) = (ids.get(&s), ids.get(&d)) {
                g.out[s as usize].push(Edge {
                    to: d,
                    kind,
                    weight: w as f32,
                });
                g.inn[d as usize].push(Edge {
                    to: s,
                    kind,
                    weight: w as f32,
                });
            }
        }
        Ok(g)
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, kind: NodeKind, key: &str) -> Option<u32> {
        self.by_key.get(&(kind, key.to_string())).copied()
    }

    /// Neighbours in either direction, with the edge kind.
    pub fn neighbours(&self, n: u32) -> impl Iterator<Item = &Edge> {
        self.out[n as usize]
            .iter()
            .chain(self.inn[n as usize].iter())
    }

    pub fn bundle_node(&self, key: &str) -> Option<u32> {
        self.node(NodeKind::Bundle, key)
    }
}
