//! Relations among the bundles a search returns, so an answer can say how they fit
//! together ("this bundle's SLI watches what that runbook diagnoses").

use super::{EdgeKind, Graph, NodeKind};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

app::closed_set! {
    /// How two results relate: a graph edge between them, or what they share.
    pub enum Relation {
        SimilarTo = "SIMILAR_TO",
        SameSlugAs = "SAME_SLUG_AS",
        SharesResource = "SHARES_RESOURCE",
        SharesKeyword = "SHARES_KEYWORD",
        Monitors = "MONITORS",
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Correlation {
    pub a: String,
    pub b: String,
    pub relation: Relation,
    pub via: Option<String>,
    pub explanation: String,
}

/// Facts about a result needed to describe relations: key, display name, counts.
pub struct ResultFacts<'a> {
    pub key: &'a str,
    pub name: &'a str,
    pub tasks: u32,
    pub slis: u32,
}

/// A shared keyword links two bundles only when at most this many bundles call it.
const DISTINCTIVE_CALLERS: usize = 12;

fn neighbours_of_kind(g: &Graph, n: u32, edge: EdgeKind, kind: NodeKind) -> HashSet<u32> {
    g.out[n as usize]
        .iter()
        .filter(|e| e.kind == edge && g.nodes[e.to as usize].kind == kind)
        .map(|e| e.to)
        .collect()
}

pub fn correlate(g: &Graph, results: &[ResultFacts]) -> Vec<Correlation> {
    let mut out = Vec::new();
    let nodes: Vec<Option<u32>> = results.iter().map(|r| g.bundle_node(r.key)).collect();
    for i in 0..results.len() {
        for j in i + 1..results.len() {
            let (Some(a), Some(b)) = (nodes[i], nodes[j]) else {
                continue;
            };
            let (ra, rb) = (&results[i], &results[j]);
            let direct = g.out[a as usize]
                .iter()
                .chain(g.out[b as usize].iter())
                .find(|e| {
                    (e.to == b || e.to == a)
                        && matches!(e.kind, EdgeKind::SimilarTo | EdgeKind::SameSlugAs)
                });
            if let Some(e) = direct {
                let same_slug = e.kind == EdgeKind::SameSlugAs;
                let explanation = if same_slug {
                    format!(
                        "{} and {} are the same slug in two collections",
                        ra.name, rb.name
                    )
                } else {
                    format!("{} and {} cover closely related checks", ra.name, rb.name)
                };
                out.push(Correlation {
                    a: ra.key.into(),
                    b: rb.key.into(),
                    relation: if same_slug {
                        Relation::SameSlugAs
                    } else {
                        Relation::SimilarTo
                    },
                    via: None,
                    explanation,
                });
            }
            let shared: Vec<u32> = neighbours_of_kind(g, a, EdgeKind::Targets, NodeKind::Resource)
                .intersection(&neighbours_of_kind(
                    g,
                    b,
                    EdgeKind::Targets,
                    NodeKind::Resource,
                ))
                .copied()
                .collect();
            if let Some(&r) = shared.first() {
                let res = g.nodes[r as usize].label.clone();
                // An SLI-only bundle and a runbook on the same resource: one watches,
                // the other diagnoses.
                let (watch, fix) = if ra.slis > 0 && ra.tasks == 0 && rb.tasks > 0 {
                    (Some(ra), rb)
                } else if rb.slis > 0 && rb.tasks == 0 && ra.tasks > 0 {
                    (Some(rb), ra)
                } else {
                    (None, ra)
                };
                if let Some(w) = watch {
                    out.push(Correlation {
                        a: w.key.into(),
                        b: fix.key.into(),
                        relation: Relation::Monitors,
                        via: Some(res.clone()),
                        explanation: format!(
                            "{}'s SLI watches the {res} that {}'s runbook diagnoses",
                            w.name, fix.name
                        ),
                    });
                } else {
                    out.push(Correlation {
                        a: ra.key.into(),
                        b: rb.key.into(),
                        relation: Relation::SharesResource,
                        via: Some(res.clone()),
                        explanation: format!("{} and {} both work on {res}", ra.name, rb.name),
                    });
                }
            }
            // Only a keyword few bundles call says the two belong together: that
            // both report with `Add Issue`, as most bundles do, says nothing.
            let callers = |k: u32| {
                g.inn[k as usize]
                    .iter()
                    .filter(|e| e.kind == EdgeKind::Uses)
                    .count()
            };
            let kw = neighbours_of_kind(g, a, EdgeKind::Uses, NodeKind::Keyword)
                .intersection(&neighbours_of_kind(g, b, EdgeKind::Uses, NodeKind::Keyword))
                .map(|&k| (callers(k), k))
                .filter(|&(n, _)| n <= DISTINCTIVE_CALLERS)
                .min();
            if let Some((_, k)) = kw {
                let label = g.nodes[k as usize].label.clone();
                out.push(Correlation {
                    a: ra.key.into(),
                    b: rb.key.into(),
                    relation: Relation::SharesKeyword,
                    via: Some(label.clone()),
                    explanation: format!(
                        "{} and {} both call the keyword {label}",
                        ra.name, rb.name
                    ),
                });
            }
        }
    }
    out
}
