//! Two or three next questions, grounded in what the answer recommends: an SLI
//! to watch, the counterpart with the other access (what changes things after
//! a check, the check before a change) and a related bundle from the graph.
//!
//! Each names a real bundle by its display name, so asking it finds that bundle
//! (names weigh most in search), and none offers a bundle the answer already
//! shows. Built from catalog facts, never generated, so they cost nothing and
//! cannot point at something that does not exist.

use crate::graph::{EdgeKind, NodeKind};
use crate::query::{Role, Words};
use crate::search::{BundleMeta, Snapshot};
use app::api::Card;
use app::api::catalog::Access;
use std::collections::HashSet;

const MAX: usize = 3;

pub fn next_questions(snap: &Snapshot, cards: &[Card], words: Words) -> Vec<String> {
    let Some(top) = cards.first().and_then(|c| bundle(snap, &c.key)) else {
        return Vec::new();
    };
    let slis = words.plural(Role::Sli);
    let mut taken: HashSet<String> = cards.iter().map(|c| c.key.clone()).collect();
    let mut out = Vec::new();

    // An SLI to watch: the top bundle's own, else a related bundle's.
    if top.sli_count > 0 {
        out.push(format!("What about the {slis} of {}?", top.display_name));
    } else if let Some(b) = related(snap, top, &taken, |b| b.sli_count > 0) {
        out.push(format!("What about the {slis} of {}?", b.display_name));
        taken.insert(b.key());
    }

    // The counterpart: from a check to what changes things, and back.
    let read_only = top.access == Access::ReadOnly;
    if let Some(b) = related(snap, top, &taken, |b| {
        (b.access == Access::ReadOnly) != read_only
    }) {
        // Phrased the way the agent reads a bundle name best: plain, with no
        // extra topic words that would pull the search elsewhere.
        out.push(format!("What does {} do?", b.display_name));
        taken.insert(b.key());
    }

    // A related bundle the answer did not show.
    if let Some(b) = related(snap, top, &taken, |_| true) {
        out.push(format!("Tell me about {}", b.display_name));
    }
    out.truncate(MAX);
    out
}

fn bundle<'a>(snap: &'a Snapshot, key: &str) -> Option<&'a BundleMeta> {
    snap.bundle_by_key
        .get(key)
        .map(|&i| &snap.bundles[i as usize])
}

/// The related bundle with an SLI, for a bundle that has none ("what about its
/// SLIs?" after a runbook-only bundle): by key, from the index.
pub(crate) fn sli_counterpart(snap: &Snapshot, key: &str) -> Option<String> {
    let top = bundle(snap, key)?;
    if top.sli_count > 0 {
        return None;
    }
    related(snap, top, &HashSet::new(), |b| b.sli_count > 0).map(|b| b.key())
}

/// The bundle most related to `top` that passes `keep`: linked in the graph
/// (similar summaries, the same slug elsewhere) or sharing its resource types on
/// the same platform. Nothing when no bundle is related at all.
pub(crate) fn related<'a>(
    snap: &'a Snapshot,
    top: &BundleMeta,
    taken: &HashSet<String>,
    keep: impl Fn(&BundleMeta) -> bool,
) -> Option<&'a BundleMeta> {
    let top_key = top.key();
    let mut linked: std::collections::HashMap<&str, f32> = Default::default();
    if let Some(n) = snap.graph.bundle_node(&top_key) {
        for e in snap.graph.neighbours(n) {
            let to = &snap.graph.nodes[e.to as usize];
            if to.kind == NodeKind::Bundle
                && matches!(e.kind, EdgeKind::SimilarTo | EdgeKind::SameSlugAs)
            {
                let w = linked.entry(to.key.as_str()).or_default();
                *w = w.max(e.weight);
            }
        }
    }
    snap.bundles
        .iter()
        .filter(|b| !taken.contains(&b.key()) && b.key() != top_key && keep(b))
        .filter_map(|b| {
            let shared = b
                .resource_types
                .iter()
                .filter(|r| top.resource_types.contains(r))
                .count() as f32;
            let same_platform = (b.platform == top.platform) as u8 as f32;
            let link = linked.get(b.key().as_str()).copied().unwrap_or(0.0);
            let score = 2.0 * link + shared * same_platform;
            (score > 0.0).then_some((score, b))
        })
        .max_by(|x, y| x.0.total_cmp(&y.0).then_with(|| y.1.key().cmp(&x.1.key())))
        .map(|(_, b)| b)
}
