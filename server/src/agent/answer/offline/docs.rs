//! Documentation questions: the answering section quoted, with its neighbours.

use super::super::Grounding;
use super::super::cite::format as cite;
use crate::search::DocMeta;
use app::api::CitationKind;
use regex::Regex;
use std::fmt::Write;
use std::sync::LazyLock;

/// Sections of one group (siblings under the same heading) listed together.
const GROUP_MAX: usize = 8;

pub(super) fn documentation(g: &Grounding) -> String {
    let mut out = String::new();
    let top = &g.retrieval.docs[0];
    let snap = &g.snapshot;
    let section = snap.docs.values().find(|d| d.cite_id() == top.id);
    // When the best sections are siblings (e.g. "Severity 1" … "Severity 4" under
    // "Severity levels"), the answer is the whole group, in document order.
    let siblings: Vec<&DocMeta> = match section {
        // A README's own sections all sit under its title: that is the whole
        // README, not a group.
        Some(s) if s.trail.len() > usize::from(crate::search::is_readme_section(s.id)) => {
            let hits = g
                .retrieval
                .docs
                .iter()
                .filter(|d| d.score >= 0.45)
                .filter_map(|d| snap.docs.values().find(|m| m.cite_id() == d.id))
                .filter(|m| same_group(m, s))
                .count();
            if hits >= 2 {
                let mut all: Vec<&DocMeta> =
                    snap.docs.values().filter(|m| same_group(m, s)).collect();
                // README sections' ids count down in document order.
                all.sort_by_key(|m| m.id.abs());
                all
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    };
    if siblings.len() >= 2 {
        let group = section
            .and_then(|s| s.trail.last())
            .cloned()
            .unwrap_or_default();
        let _ = writeln!(out, "From **{} › {group}**:\n", top.title);
        for m in siblings.iter().take(GROUP_MAX) {
            let _ = writeln!(
                out,
                "- **{}** {} — {}",
                m.heading.as_deref().unwrap_or(&m.title),
                cite(CitationKind::Doc, &m.cite_id()),
                sentences(&m.text, 2)
            );
        }
    } else {
        let heading = top.heading.clone().unwrap_or_else(|| top.title.clone());
        let _ = writeln!(
            out,
            "From **{}** {}:\n",
            if heading == top.title {
                heading.clone()
            } else {
                format!("{} › {heading}", top.title)
            },
            cite(CitationKind::Doc, &top.id)
        );
        // The section's own markdown keeps its tables, lists and code; its heading
        // is already in the line above.
        let text = g
            .top_doc_markdown
            .as_deref()
            .map(|m| {
                m.trim_start()
                    .strip_prefix('#')
                    .map_or(m, |_| m.split_once('\n').map_or("", |(_, rest)| rest))
                    .trim()
                    .to_string()
            })
            .filter(|m| !m.is_empty())
            .or_else(|| section.map(|d| d.text.clone()))
            .unwrap_or_else(|| top.snippet.clone());
        quote(&mut out, &text, QUOTE_MAX);
    }
    // A question that also asks what to run gets the bundle to run; one about a
    // bundle it names ("the contract tests of the tool builder bundle") or about
    // a setting of its gets that bundle, so its card and files are one click away.
    let settings = &g.snapshot.vocab.settings;
    let named = g.retrieval.bundles.iter().find(|b| {
        g.query
            .names
            .iter()
            .any(|n| n.kind == crate::query::NameKind::Bundle && n.id == b.slug)
            || g.query
                .settings
                .iter()
                .any(|s| settings.get(s).is_some_and(|keys| keys.contains(&b.key)))
    });
    // So does a question only the example vote called documentation: a problem
    // worded like a question about the docs ("where can i read why the nightly
    // backup job fails") then still shows what to run; a real documentation
    // question routed so gets the bundle beside its sections (tuning halves: one
    // general question's bundle back at rank 1; held out, run after the
    // decision: four).
    let to_run = ((ASKS_WHAT_TO_RUN.is_match(&g.question.to_lowercase()) || g.category_guessed)
        && !g.retrieval.no_match)
        .then(|| {
            g.retrieval.bundles.first().filter(|b| {
                b.score >= crate::search::carried(&g.snapshot.embedder_id, RUN_BUNDLE_MIN)
            })
        })
        .flatten();
    // A section of a bundle's README comes with that bundle.
    let readme_of = g.retrieval.bundles.iter().find(|b| top.is_readme_of(b));
    let pick = named
        .or(readme_of)
        .map(|b| ("The bundle", b))
        .or(to_run.map(|b| ("To check it on your systems", b)));
    if let Some((label, b)) = pick {
        let _ = writeln!(
            out,
            "\n**{label}:** **{}** {} — {}",
            b.display_name,
            cite(CitationKind::Bundle, &b.key),
            super::text::sentence(&b.description)
        );
    }
    let shown: Vec<String> = siblings.iter().map(|m| m.cite_id()).collect();
    let more: Vec<_> = g
        .retrieval
        .docs
        .iter()
        .skip(1)
        .filter(|d| d.score >= 0.45 && !shown.contains(&d.id))
        .take(3)
        .collect();
    if !more.is_empty() {
        let _ = writeln!(
            out,
            "\nSee also: {}",
            more.iter()
                .map(|d| format!(
                    "*{}* {}",
                    d.heading.as_deref().unwrap_or(&d.title),
                    cite(CitationKind::Doc, &d.id)
                ))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    out.trim_end().to_string()
}

/// Characters of a section quoted before "…" (cut at a line end).
const QUOTE_MAX: usize = 1200;

static ASKS_WHAT_TO_RUN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(what|which|how) (do|should|can|could) (i|we) (run|use|check|fix|debug|diagnose|troubleshoot)\b|\bwhat (to|should i|do i) (run|use|check)\b|\b(which|what) (bundle|codebundle|check|task)s?\b",
    )
    .expect("valid pattern")
});

/// Quotes markdown as a blockquote, whole lines only, up to about `max` characters.
fn quote(out: &mut String, text: &str, max: usize) {
    let mut used = 0;
    for line in text.lines() {
        if used > 0 && used + line.len() > max {
            let _ = writeln!(out, ">\n> …");
            return;
        }
        used += line.len() + 1;
        if line.trim().is_empty() {
            let _ = writeln!(out, ">");
        } else {
            let _ = writeln!(out, "> {line}");
        }
    }
}

/// Bundles at least this relevant (on the evidence model's scale: see
/// `search::calibrate`) are recommended alongside a documentation answer.
const RUN_BUNDLE_MIN: f32 = 0.6;

fn same_group(a: &DocMeta, b: &DocMeta) -> bool {
    a.source == b.source && a.path == b.path && a.trail == b.trail
}

/// The first `n` sentences of a section, on one line.
fn sentences(text: &str, n: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut end = 0;
    for _ in 0..n {
        match flat[end..].find(". ") {
            Some(i) => end += i + 2,
            None => {
                end = flat.len();
                break;
            }
        }
    }
    let out = flat[..end].trim();
    if out.chars().count() > 300 {
        let cut: String = out.chars().take(300).collect();
        format!("{}…", cut.trim_end())
    } else {
        out.to_string()
    }
}
