//! Bundles near a text or a place in the sources, and a bundle's neighbours in the
//! knowledge graph: the snapshot's vectors and graph, no SQL.

use super::{Registry, ToolError};
use crate::graph::{EdgeKind, NodeKind};
use crate::index::embed::Purpose;
use std::collections::HashMap;

/// A bundle and its best chunk's cosine to the text.
pub struct Similar {
    pub id: String,
    pub name: String,
    pub similarity: f32,
}

/// One relation of a bundle in the graph.
pub struct Neighbour {
    pub relation: EdgeKind,
    pub kind: NodeKind,
    pub id: String,
    pub label: String,
}

/// Most bundles `similar` returns and most relations `neighbours` returns.
const SIMILAR_MAX: usize = 5;
const NEIGHBOURS_MAX: usize = 40;

impl Registry {
    /// Bundles whose chunks are closest to `text`, best first, without `exclude`.
    pub async fn similar(
        &self,
        text: &str,
        exclude: Option<&str>,
    ) -> Result<Vec<Similar>, ToolError> {
        if text.trim().is_empty() {
            return Err(ToolError::Invalid("give text or location".into()));
        }
        let v = self
            .searcher
            .embedder()
            .embed(&[text.to_string()], Purpose::Query)
            .await
            .map_err(crate::search::SearchError::from)?;
        let snap = self.searcher.snapshot();
        let mut best: HashMap<u32, f32> = HashMap::new();
        for (ci, cos) in v
            .first()
            .map(|q| snap.vectors.scores_for_ranking(q))
            .unwrap_or_default()
        {
            if let Some(b) = snap.chunks[ci as usize].bundle {
                let e = best.entry(b).or_insert(f32::MIN);
                *e = e.max(cos);
            }
        }
        let mut list: Vec<(u32, f32)> = best
            .into_iter()
            .filter(|(b, _)| exclude != Some(snap.bundles[*b as usize].key().as_str()))
            .collect();
        list.sort_by(|x, y| y.1.total_cmp(&x.1));
        Ok(list
            .into_iter()
            .take(SIMILAR_MAX)
            .map(|(b, s)| {
                let m = &snap.bundles[b as usize];
                Similar {
                    id: m.key(),
                    name: m.display_name.clone(),
                    similarity: s,
                }
            })
            .collect())
    }

    /// The bundle's relations (tags, platform, resources, keywords, similar
    /// bundles, docs), without its own tasks and SLIs.
    pub fn neighbours(&self, id: &str) -> Result<Vec<Neighbour>, ToolError> {
        let snap = self.searcher.snapshot();
        let g = &snap.graph;
        let n = g
            .bundle_node(id.trim())
            .ok_or_else(|| ToolError::NotFound(format!("no bundle {id} in the graph")))?;
        Ok(g.neighbours(n)
            .filter(|e| !matches!(g.nodes[e.to as usize].kind, NodeKind::Task | NodeKind::Sli))
            .take(NEIGHBOURS_MAX)
            .map(|e| {
                let node = &g.nodes[e.to as usize];
                Neighbour {
                    relation: e.kind,
                    kind: node.kind,
                    id: node.key.clone(),
                    label: node.label.clone(),
                }
            })
            .collect())
    }
}
