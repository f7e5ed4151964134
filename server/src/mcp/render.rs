//! Markdown and JSON for MCP tool results: what a model reads, and the same facts
//! for programs.

use crate::agent::Collected;
use crate::ingest::BundleRecord;
use crate::search::{DocHit, KeywordHit, SearchResults};
use crate::store::StoreError;
use rusqlite::Connection;
use serde::Serialize;
use serde_json::{Value, json};
use std::fmt::Write;
use std::path::Path;

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

/// A real call of a keyword in an indexed bundle.
#[derive(Clone, Debug, Serialize)]
pub struct KeywordExample {
    pub keyword: String,
    pub bundle: String,
    pub task: String,
    /// `codebundles/<slug>/<file>:<line>`.
    pub location: String,
    pub call: String,
}

/// Robot matches keyword names ignoring case, spaces and underscores.
fn normalise(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The keyword a body line calls: its first cell after any `${var}=` assignments.
fn called_keyword(line: &str) -> Option<&str> {
    if !line.starts_with([' ', '\t']) {
        return None; // column 1 holds task names and settings, not calls
    }
    line.split("  ")
        .flat_map(|c| c.split('\t'))
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .find(|c| !(c.starts_with(['$', '@', '&']) && c.ends_with('=')))
        .filter(|c| !c.starts_with('#') && !c.starts_with("..."))
}

/// The file under `root` if it is a regular file inside it (`ingest::confine`, the
/// checks indexing and the agent's tools use).
fn read_inside(root: &Path, rel: &str) -> Option<String> {
    crate::ingest::confine::read_text(root, rel, 1024 * 1024).ok()
}

/// Up to two calls per keyword, read from the robot files of bundles that use it.
pub fn keyword_examples(
    c: &Connection,
    keys: &[(String, String)],
) -> Result<Vec<KeywordExample>, StoreError> {
    let mut out = Vec::new();
    for (library, name) in keys {
        let mut st = c.prepare(
            "SELECT DISTINCT co.name, co.root, b.slug FROM keyword_uses u
             JOIN keywords k ON k.id = u.keyword_id JOIN bundles b ON b.id = u.bundle_id
             JOIN collections co ON co.id = b.collection_id
             WHERE k.library = ?1 AND k.name = ?2 ORDER BY co.name, b.slug LIMIT 6",
        )?;
        let uses: Vec<(String, String, String)> = st
            .query_map([library, name], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<Result<_, _>>()?;
        let wanted = normalise(name);
        let suffix = format!(".{wanted}");
        let mut found = 0;
        for (coll, root, slug) in uses {
            if found == 2 {
                break;
            }
            for file in ["runbook.robot", "sli.robot"] {
                let rel = format!("codebundles/{slug}/{file}");
                let Some(text) = read_inside(Path::new(&root), &rel) else {
                    continue;
                };
                let lines: Vec<&str> = text.lines().collect();
                // Robot matches names ignoring case, spaces and underscores, with or
                // without the library prefix.
                let Some(at) = lines.iter().position(|l| {
                    called_keyword(l).is_some_and(|k| {
                        let k = normalise(k);
                        k == wanted || k.ends_with(&suffix)
                    })
                }) else {
                    continue;
                };
                let task = lines[..at]
                    .iter()
                    .rev()
                    .find(|l| !l.is_empty() && !l.starts_with([' ', '\t', '#', '*']))
                    .map(|l| l.trim().to_string())
                    .unwrap_or_default();
                let mut call: Vec<&str> = vec![lines[at].trim()];
                call.extend(
                    lines[at + 1..]
                        .iter()
                        .map(|l| l.trim())
                        .take_while(|l| l.starts_with("..."))
                        .take(5),
                );
                out.push(KeywordExample {
                    keyword: name.clone(),
                    bundle: format!("{coll}/{slug}"),
                    task,
                    location: format!("{rel}:{}", at + 1),
                    call: call.join("\n"),
                });
                found += 1;
                break;
            }
        }
    }
    Ok(out)
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

#[cfg(test)]
mod tests {
    use super::called_keyword;

    #[test]
    fn the_called_keyword_is_the_first_cell_after_assignments() {
        assert_eq!(
            called_keyword("    ${out}=    RW.Kube.Summarize Pod Restarts    pods_json=${x}"),
            Some("RW.Kube.Summarize Pod Restarts")
        );
        assert_eq!(called_keyword("\tLog    hello"), Some("Log"));
        assert_eq!(called_keyword("Summarize Pod Restarts"), None);
        assert_eq!(called_keyword("    # Summarize Pod Restarts"), None);
        assert_eq!(called_keyword("    ...    more"), None);
    }
}
