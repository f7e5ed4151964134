//! Markdown and JSON for MCP tool results: what a model reads, and the same facts
//! for programs.

use crate::agent::Collected;
use crate::ingest::BundleRecord;
use crate::search::{DocHit, KeywordHit, SearchResults};
use crate::tools::KeywordExample;
use serde_json::{Value, json};
use std::fmt::Write;

fn pct(score: f32) -> String {
    format!("{:.2}", score)
}

pub fn bundles(r: &SearchResults) -> String {
    let mut out = String::new();
    if r.no_match {
        let _ = writeln!(
            out,
            "No codebundle in the registry fits this well{}. The closest ones are below; if none fits, ask the registry owners for a new codebundle.\n",
            if r.uncovered.is_empty() {
                String::new()
            } else {
                format!(" (nothing covers {})", r.uncovered.join(", "))
            }
        );
    }
    if r.bundles.is_empty() {
        out.push_str("No codebundles found.\n");
        return out;
    }
    for (i, b) in r.bundles.iter().enumerate() {
        let _ = writeln!(
            out,
            "{}. **{}** (`{}`): {} · {} · relevance {}",
            i + 1,
            b.display_name,
            b.key,
            b.platform,
            b.access,
            pct(b.score)
        );
        if !b.description.is_empty() {
            let _ = writeln!(out, "   {}", b.description.lines().next().unwrap_or(""));
        }
        if !b.matched.is_empty() {
            let names: Vec<&str> = b.matched.iter().take(4).map(|m| m.name.as_str()).collect();
            let _ = writeln!(out, "   Matching tasks: {}", names.join("; "));
        }
        if let Some(url) = &b.source_url {
            let _ = writeln!(out, "   Source: {url}");
        }
    }
    out
}

pub fn bundles_json(r: &SearchResults) -> Value {
    json!({
        "no_match": r.no_match,
        "uncovered": r.uncovered,
        "results": r.bundles.iter().map(|b| json!({
            "id": b.key,
            "name": b.display_name,
            "description": b.description,
            "platform": b.platform,
            "access": b.access,
            "resource_types": b.resource_types,
            "tags": b.tags,
            "score": (b.score * 100.0).round() / 100.0,
            "matched_tasks": b.matched.iter().map(|m| &m.name).collect::<Vec<_>>(),
            "task_count": b.task_count,
            "sli_count": b.sli_count,
            "source_url": b.source_url,
        })).collect::<Vec<_>>(),
    })
}

pub fn docs(query: &str, docs: &[DocHit]) -> String {
    if docs.is_empty() {
        return format!("No documentation section matches {query:?}.\n");
    }
    let mut out = String::new();
    for d in docs {
        let heading = d.heading.as_deref().unwrap_or(&d.title);
        let _ = writeln!(
            out,
            "### {heading} [doc:{}]\n*{}{}* · relevance {}\n\n{}\n",
            d.id,
            d.path,
            d.url
                .as_deref()
                .map(|u| format!(" · {u}"))
                .unwrap_or_default(),
            pct(d.score),
            d.snippet.trim()
        );
    }
    out
}

pub fn keywords(query: &str, found: &[KeywordHit], examples: &[KeywordExample]) -> String {
    if found.is_empty() {
        return format!("No library keyword matches {query:?}.\n");
    }
    let mut out = String::new();
    for k in found {
        let _ = writeln!(
            out,
            "### {} [kw:{}]\nLibrary `{}` (collection {}) · relevance {}\n",
            k.name,
            k.id,
            k.library,
            k.collection,
            pct(k.score)
        );
        let _ = writeln!(
            out,
            "Import it in `*** Settings ***`:\n\n```robotframework\nLibrary    {}\n```\n",
            k.library
        );
        if !k.args.is_empty() {
            let _ = writeln!(out, "Arguments: `{}`\n", k.args);
        }
        if !k.doc.trim().is_empty() {
            let _ = writeln!(out, "{}\n", k.doc.trim());
        }
        for e in examples.iter().filter(|e| e.keyword == k.name) {
            let _ = writeln!(
                out,
                "Used in `{}` (task \"{}\", {}):\n\n```robotframework\n{}\n```\n",
                e.bundle, e.task, e.location, e.call
            );
        }
        if let Some(url) = &k.url {
            let _ = writeln!(out, "Source: {url}\n");
        }
    }
    out
}

pub fn bundle(r: &BundleRecord) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {} (`{}`)\n", r.display_name, r.key());
    let _ = writeln!(
        out,
        "Platform: {} · access: {} · resource types: {}\n",
        r.derived.platform,
        r.derived.access,
        if r.derived.resource_types.is_empty() {
            "—".to_string()
        } else {
            r.derived.resource_types.join(", ")
        }
    );
    if !r.description.is_empty() {
        let _ = writeln!(out, "{}\n", r.description.trim());
    }
    let list = |out: &mut String, title: &str, tasks: &[crate::ingest::TaskRecord]| {
        if tasks.is_empty() {
            return;
        }
        let _ = writeln!(out, "## {title}\n");
        for t in tasks {
            let doc = t.doc.lines().next().unwrap_or("").trim();
            let _ = writeln!(
                out,
                "- **{}** ({}){}",
                t.title,
                t.access,
                if doc.is_empty() {
                    String::new()
                } else {
                    format!(": {doc}")
                }
            );
        }
        out.push('\n');
    };
    list(&mut out, "Tasks", &r.tasks);
    list(&mut out, "SLIs", &r.slis);
    let vars: Vec<_> = r.variables.iter().filter(|v| !v.dynamic).collect();
    if !vars.is_empty() {
        let _ = writeln!(out, "## Variables\n");
        for v in vars {
            let _ = writeln!(
                out,
                "- `{}` ({}){}{}",
                v.name,
                v.kind,
                v.default
                    .as_deref()
                    .map(|d| format!(", default `{d}`"))
                    .unwrap_or_default(),
                v.description
                    .as_deref()
                    .map(|d| format!(": {d}"))
                    .unwrap_or_default()
            );
        }
        out.push('\n');
    }
    if let Some(url) = &r.source_url {
        let _ = writeln!(out, "Source: {url}");
    }
    out
}

pub fn answer(got: &Collected) -> String {
    let mut out = got.text.trim_end().to_string();
    if !got.citations.is_empty() {
        out.push_str("\n\n---\nSources:\n");
        for c in &got.citations {
            let _ = writeln!(
                out,
                "- [{}] {}{}",
                c.id,
                c.label,
                c.url
                    .as_deref()
                    .map(|u| format!(" ({u})"))
                    .unwrap_or_default()
            );
        }
    }
    let _ = write!(
        out,
        "\n_source: {} · confidence {:.2}{}{}_\n",
        got.source,
        got.confidence,
        if got.no_match { " · no match" } else { "" },
        got.session_id
            .as_deref()
            .map(|s| format!(" · session_id {s}"))
            .unwrap_or_default()
    );
    out
}

pub fn answer_json(got: &Collected) -> Value {
    json!({
        "answer": got.text,
        "session_id": got.session_id,
        "turn_id": got.turn_id,
        "source": got.source,
        "confidence": got.confidence,
        "no_match": got.no_match,
        "cards": got.cards,
        "citations": got.citations,
        "request": got.request,
    })
}
