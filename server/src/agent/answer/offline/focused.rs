//! A focused answer: the bundle to start with, which tasks to run first and why,
//! what to set, whether it changes things, and one or two alternatives.

use super::super::Grounding;
use super::super::cite::format as cite;
use super::text::{access_line, first_tasks, lower_first, sentence, settings_line, task_line};
use crate::search::no_match_below;
use app::api::CitationKind;
use app::api::catalog::Access;
use std::fmt::Write;

/// Keyword hits at least this relevant are named when a recommended bundle calls them.
const KEYWORD_MIN: f32 = 0.5;

/// The bundle to start with and up to four alternatives, each a card. Close calls
/// are common between sibling bundles (a service's performance and its health
/// check), and a user scanning five one-line alternatives finds the right one far
/// more often than one shown three (agent R@5 rose to the retrieval's own on the
/// tuning halves).
const FOCUSED_BUNDLES: usize = 5;

pub(super) fn focused(g: &Grounding) -> String {
    let mut out = String::new();
    let hits: Vec<_> = g
        .retrieval
        .bundles
        .iter()
        .filter(|b| b.score >= no_match_below(&g.snapshot.embedder_id))
        .take(FOCUSED_BUNDLES)
        .collect();
    let Some(top) = hits.first() else {
        return super::no_match::no_match(g).text;
    };
    let rec = g.records.get(&top.key);
    let desc = rec
        .map(|r| r.description.clone())
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| top.description.clone());
    let _ = writeln!(
        out,
        "**Start with {}** {} — {}",
        top.display_name,
        cite(CitationKind::Bundle, &top.key),
        sentence(&desc)
    );
    if let Some(rec) = rec {
        let matched: Vec<String> = top.matched.iter().map(|m| m.name.clone()).collect();
        let tasks = first_tasks(rec, &matched, 3);
        if !tasks.is_empty() {
            let _ = writeln!(out, "\n**Run first**");
            for (i, t) in tasks.iter().enumerate() {
                let _ = writeln!(out, "{}. {}", i + 1, task_line(t));
            }
        }
        if !rec.slis.is_empty() {
            let _ = writeln!(
                out,
                "\nIts SLI{} ({}) can watch this on a schedule and score it 0–1.",
                if rec.slis.len() > 1 { "s" } else { "" },
                rec.slis
                    .iter()
                    .take(2)
                    .map(|s| format!("*{}*", s.title))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let mut facts = Vec::new();
        if let Some(s) = settings_line(rec) {
            facts.push(s);
        }
        facts.push(access_line(rec));
        let _ = writeln!(out, "\n{}", facts.join(" "));
    }
    if hits.len() > 1 {
        let _ = writeln!(out, "\n**Also worth a look**");
        for h in &hits[1..] {
            let why = h
                .matched
                .first()
                .map(|m| format!("its *{}* task fits", m.name))
                .unwrap_or_else(|| lower_first(&sentence(&h.description)));
            let rw = if h.access == Access::ReadWrite {
                " (read-write)"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "- **{}** {}{rw} — {why}",
                h.display_name,
                cite(CitationKind::Bundle, &h.key)
            );
        }
    }
    if let Some(c) = g.retrieval.correlations.first() {
        let _ = writeln!(out, "\nHow they fit: {}.", c.explanation);
    }
    // For people writing their own tasks: the library keyword doing the work.
    let used: Vec<_> = g
        .retrieval
        .keywords
        .iter()
        .filter(|k| k.score >= KEYWORD_MIN)
        .filter(|k| {
            g.keyword_users
                .get(&k.id)
                .is_some_and(|users| users.iter().any(|u| hits.iter().any(|h| h.key == u.key)))
        })
        .take(2)
        .collect();
    if !used.is_empty() {
        let _ = writeln!(
            out,
            "\nUnder the hood: {}.",
            used.iter()
                .map(|k| format!(
                    "*{}* from `{}` {}",
                    k.name,
                    k.library,
                    cite(CitationKind::Kw, &k.id)
                ))
                .collect::<Vec<_>>()
                .join(" and ")
        );
    }
    if let Some(d) = g.further_reading() {
        super::text::doc_line(&mut out, "Further reading", d);
    }
    let readme = g.readme_sections();
    if !readme.is_empty() {
        let _ = writeln!(
            out,
            "\nIn the README of {}: {}.",
            top.display_name,
            readme
                .iter()
                .map(|(label, d)| format!("*{label}* {}", cite(CitationKind::Doc, &d.id)))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    out.trim_end().to_string()
}
