//! A topic guide for broad questions: the matching bundles in 2–6 groups (by
//! platform, else by resource, else diagnose vs monitor).

use super::super::Grounding;
use super::super::cite::format as cite;
use super::text::{platform_name, sentence, title_case};
use crate::search::{carried, first_stage_no_match_below};
use app::api::CitationKind;
use app::api::catalog::Access;
use std::fmt::Write;

/// Lists bundles somewhat under the "nothing fits" line too: three quarters of it
/// on the evidence model's scale (see `search::calibrate`).
pub(super) fn guide(g: &Grounding) -> String {
    let hits: Vec<_> = g
        .retrieval
        .bundles
        .iter()
        .filter(|b| {
            let id = &g.snapshot.embedder_id;
            b.score >= carried(id, first_stage_no_match_below(id) * 0.75)
        })
        .take(10)
        .collect();
    if hits.is_empty() {
        return super::no_match::no_match(g).text;
    }
    // Topics: by platform when several, else by what the bundles work on, else
    // diagnose (runbooks) vs monitor (SLIs).
    let mut topics: Vec<(String, Vec<&crate::search::BundleHit>)> = Vec::new();
    let group = |f: &dyn Fn(&crate::search::BundleHit) -> String| {
        let mut t: Vec<(String, Vec<&crate::search::BundleHit>)> = Vec::new();
        for h in &hits {
            let k = f(h);
            match t.iter_mut().find(|(name, _)| *name == k) {
                Some((_, v)) => v.push(h),
                None => t.push((k, vec![h])),
            }
        }
        t
    };
    for grouping in 0..3 {
        topics = match grouping {
            0 => group(&|h| platform_name(&h.platform)),
            1 => group(&|h| {
                h.resource_types
                    .first()
                    .map(|r| r.replace(['_', '.'], " "))
                    .unwrap_or_else(|| "other".into())
            }),
            _ => group(&|h| {
                if h.task_count > 0 {
                    "Diagnose and fix".into()
                } else {
                    "Monitor on a schedule".into()
                }
            }),
        };
        if topics.len() >= 2 {
            break;
        }
    }
    topics.truncate(6);
    let mut out = format!(
        "Here is what the registry has for this, in {} group{}:\n",
        topics.len(),
        if topics.len() > 1 { "s" } else { "" }
    );
    for (name, items) in &topics {
        let _ = writeln!(out, "\n### {}", title_case(name));
        for h in items {
            let kinds = match (h.task_count, h.sli_count) {
                (0, s) => format!("{s} SLI{}", if s > 1 { "s" } else { "" }),
                (t, 0) => format!("{t} task{}", if t > 1 { "s" } else { "" }),
                (t, s) => format!("{t} tasks, {s} SLI{}", if s > 1 { "s" } else { "" }),
            };
            let rw = if h.access == Access::ReadWrite {
                ", read-write"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "- **{}** {} ({kinds}{rw}) — {}",
                h.display_name,
                cite(CitationKind::Bundle, &h.key),
                sentence(&h.description)
            );
        }
    }
    if let Some(d) = g.further_reading() {
        super::text::doc_line(&mut out, "Background", d);
    }
    out.trim_end().to_string()
}
