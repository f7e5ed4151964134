//! Relations among the bundles a search returns, so an answer can say how they fit
//! together ("this bundle's SLI watches what that runbook diagnoses").

use super::Graph;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Correlation {
    pub a: String,
    pub b: String,
    /// SIMILAR_TO, SAME_SLUG_AS, SHARES_RESOURCE, SHARES_KEYWORD, MONITORS.
    pub relation: String,
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

fn neighbours_of_kind(g: &Graph, n: u32, edge: &str, kind: &str) -> HashSet<u32> {
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
                        && matches!(e.kind.as_str(), "SIMILAR_TO" | "SAME_SLUG_AS")
                });
            if let Some(e) = direct {
                let explanation = if e.kind == "SAME_SLUG_AS" {
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
                    relation: e.kind.clone(),
                    via: None,
                    explanation,
                });
            }
            let shared: Vec<u32> = neighbours_of_kind(g, a, "TARGETS", "resource")
                .intersection(&neighbours_of_kind(g, b, "TARGETS", "resource"))
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
                        relation: "MONITORS".into(),
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
                        relation: "SHARES_RESOURCE".into(),
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
                    .filter(|e| e.kind == "USES")
                    .count()
            };
            let kw = neighbours_of_kind(g, a, "USES", "keyword")
                .intersection(&neighbours_of_kind(g, b, "USES", "keyword"))
                .map(|&k| (callers(k), k))
                .filter(|&(n, _)| n <= DISTINCTIVE_CALLERS)
                .min();
            if let Some((_, k)) = kw {
                let label = g.nodes[k as usize].label.clone();
                out.push(Correlation {
                    a: ra.key.into(),
                    b: rb.key.into(),
                    relation: "SHARES_KEYWORD".into(),
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
