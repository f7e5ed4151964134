//! Entities a question names: platforms, resource types, tags, keywords and bundle
//! names found in its words, weighted by how rare they are (a tag on half the
//! registry says little).

use super::{Graph, NodeKind};
use crate::index::text::tokens;
use std::collections::HashSet;

#[derive(Clone, Debug, PartialEq)]
pub struct Entity {
    pub node: u32,
    pub kind: NodeKind,
    pub label: String,
    /// Inverse document frequency over bundles, 0..~4.
    pub weight: f32,
}

// Tags are left out: they are ordinary words ("events", "capacity") and linking them
// pulled unrelated bundles up on the golden set.
const KINDS: &[NodeKind] = &[
    NodeKind::Platform,
    NodeKind::Resource,
    NodeKind::Tag,
    NodeKind::Keyword,
    NodeKind::Bundle,
];

/// Tokens plus naive singulars, so "pods" finds the tag "pod".
fn word_set(text: &str) -> HashSet<String> {
    let mut set = HashSet::new();
    for t in tokens(text) {
        if t.len() > 3 && t.ends_with('s') {
            set.insert(t[..t.len() - 1].to_string());
        }
        set.insert(t);
    }
    set
}

pub fn link_entities(g: &Graph, question: &str) -> Vec<Entity> {
    if g.is_empty() {
        return Vec::new();
    }
    let words = word_set(question);
    let bundles = g
        .nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Bundle)
        .count()
        .max(1) as f32;
    let mut out = Vec::new();
    for (i, n) in g.nodes.iter().enumerate() {
        if !KINDS.contains(&n.kind) {
            continue;
        }
        let label_words: Vec<String> = tokens(&n.label.replace(['_', '.'], " "));
        if label_words.is_empty()
            || label_words.len() > 4
            || label_words.iter().all(|w| w.len() < 3)
        {
            continue;
        }
        // Whole bundle names only count when most of their words are present.
        let present = label_words.iter().filter(|w| words.contains(*w)).count();
        let matched = if n.kind == NodeKind::Bundle {
            present * 4 >= label_words.len() * 3 && present >= 2
        } else {
            present == label_words.len()
        };
        if !matched {
            continue;
        }
        let degree = g
            .neighbours(i as u32)
            .filter(|e| g.nodes[e.to as usize].kind == NodeKind::Bundle)
            .count() as f32;
        let weight = if n.kind == NodeKind::Bundle {
            2.0
        } else {
            (bundles / (1.0 + degree)).ln().max(0.0)
        };
        if weight > 0.2 {
            out.push(Entity {
                node: i as u32,
                kind: n.kind,
                label: n.label.clone(),
                weight,
            });
        }
    }
    out.sort_by(|a, b| b.weight.total_cmp(&a.weight));
    out.truncate(8);
    out
}
