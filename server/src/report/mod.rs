//! Conversation reports. One renderer serves the UI download, `registry-chat export`
//! and the chat loop's `:export`: markdown (questions, answers, cited bundles with
//! their matched tasks and source links, source tags, timestamps, and a mermaid
//! diagram of the graph relations among the cited bundles), JSON and plain text.

use crate::graph::{Graph, Relation, correlate};
use crate::memory::{Conversations, SessionView};
use crate::store::{Db, StoreError};
use app::api::conversation::TurnStatus;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Json,
    Text,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s.to_lowercase().as_str() {
            "md" | "markdown" => Some(Format::Markdown),
            "json" => Some(Format::Json),
            "txt" | "text" => Some(Format::Text),
            _ => None,
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Markdown => "md",
            Format::Json => "json",
            Format::Text => "txt",
        }
    }
}

/// The session's title and its rendering, or `None` when it does not exist. The
/// session comes from wherever conversations live; the graph (for the markdown
/// diagram) from this replica's catalog.
pub async fn export(
    conversations: &Conversations,
    db: &Db,
    session_id: String,
    format: Format,
) -> Result<Option<(String, String)>, StoreError> {
    let Some(s) = conversations.session(session_id).await? else {
        return Ok(None);
    };
    let title = s.title.clone();
    let body = match format {
        Format::Markdown => db.read(move |c| Ok(markdown(&s, &Graph::load(c)?))).await?,
        _ => render(&s, format),
    };
    Ok(Some((title, body)))
}

/// JSON and text need no catalog.
fn render(s: &SessionView, format: Format) -> String {
    match format {
        Format::Json => serde_json::to_string_pretty(s).unwrap_or_default(),
        _ => text(s),
    }
}

/// `[bundle:a/b]` → `**a/b**`, so the report reads well outside the app.
/// One list item's text: a display name from a repository must not start new
/// markdown blocks.
fn md_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn plain_citations(text: &str) -> String {
    let re = regex::Regex::new(r"\[(bundle|doc|kw):([^\]\n]+)\]").expect("valid pattern");
    re.replace_all(text, "[$2]").into_owned()
}

pub fn markdown(s: &SessionView, graph: &Graph) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", s.title);
    let _ = writeln!(
        out,
        "*Registry Chat conversation {} — started {}, last activity {}.*\n",
        s.id, s.created_at, s.updated_at
    );
    let mut cited_all: Vec<app::api::Card> = Vec::new();
    for (i, t) in s.turns.iter().enumerate() {
        let _ = writeln!(
            out,
            "## {}. {}\n",
            i + 1,
            t.question.lines().next().unwrap_or("")
        );
        if t.question.lines().count() > 1 {
            let _ = writeln!(out, "> {}\n", t.question.replace('\n', "\n> "));
        }
        let _ = writeln!(
            out,
            "*{} · source: {} · confidence {:.0}%{}{}*\n",
            t.created_at,
            t.source.label(),
            t.confidence * 100.0,
            if t.no_match { " · no match" } else { "" },
            if t.status != TurnStatus::Complete {
                format!(" · {}", t.status)
            } else {
                String::new()
            }
        );
        let _ = writeln!(out, "{}\n", plain_citations(&t.answer));
        if !t.cards.is_empty() {
            let _ = writeln!(out, "**Cited codebundles**\n");
            for c in &t.cards {
                let link = c
                    .source_url
                    .as_deref()
                    .map(|u| format!(" — [source]({u})"))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "- **{}** (`{}`, {}, {}{}){link}",
                    c.display_name,
                    c.key,
                    c.platform,
                    c.access,
                    c.relevance_percent()
                        .map(|p| format!(", relevance {p}%"))
                        .unwrap_or_default()
                );
                for task in c.matched_tasks.iter().take(3) {
                    let _ = writeln!(out, "  - matched task: {task}");
                }
                if !cited_all.iter().any(|x| x.key == c.key) {
                    cited_all.push(c.clone());
                }
            }
            out.push('\n');
        }
        if !t.suggestions.is_empty() {
            let _ = writeln!(out, "**Suggested next questions**\n");
            for q in &t.suggestions {
                let _ = writeln!(out, "- {}", md_line(q));
            }
            out.push('\n');
        }
        if let Some(f) = t.feedback {
            let _ = writeln!(
                out,
                "*Feedback: {}{}*\n",
                if f > 0 { "👍" } else { "👎" },
                t.feedback_note
                    .as_deref()
                    .map(|n| format!(" — {n}"))
                    .unwrap_or_default()
            );
        }
    }
    if cited_all.len() >= 2 {
        let facts: Vec<crate::graph::correlate::ResultFacts> = cited_all
            .iter()
            .map(|c| crate::graph::correlate::ResultFacts {
                key: &c.key,
                name: &c.display_name,
                tasks: c.task_count,
                slis: c.sli_count,
            })
            .collect();
        let rel = correlate(graph, &facts);
        let _ = writeln!(out, "## How the cited bundles relate\n");
        out.push_str("```mermaid\ngraph LR\n");
        for c in &cited_all {
            let _ = writeln!(
                out,
                "  {}[\"{}\"]",
                mermaid_id(&c.key),
                mermaid_label(&c.display_name)
            );
        }
        for r in &rel {
            let label = match (r.relation, &r.via) {
                (Relation::Monitors, Some(v)) => format!("monitors {v}"),
                (Relation::SharesResource, Some(v)) => format!("both on {v}"),
                (Relation::SharesKeyword, Some(v)) => format!("both use {v}"),
                (Relation::SameSlugAs, _) => "same slug".into(),
                _ => "similar".into(),
            };
            let _ = writeln!(
                out,
                "  {} -- \"{}\" --- {}",
                mermaid_id(&r.a),
                mermaid_label(&label),
                mermaid_id(&r.b)
            );
        }
        out.push_str("```\n");
        if rel.is_empty() {
            out.push_str("\nNo direct relations between these bundles in the knowledge graph.\n");
        }
    }
    out
}

/// A node id mermaid accepts: letters, digits and `_` only.
fn mermaid_id(key: &str) -> String {
    let id: String = key
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("n_{id}")
}

/// A label that cannot leave its quotes or the code block: names and resource
/// types come from repositories anyone may write (a newline, a quote or three
/// backticks would close the diagram and inject markdown).
fn mermaid_label(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '"' => '\'',
            '`' | '<' | '>' | '[' | ']' | '{' | '}' | '|' => ' ',
            c if c.is_control() => ' ',
            c => c,
        })
        .take(80)
        .collect::<String>()
        .trim()
        .to_string()
}

pub fn text(s: &SessionView) -> String {
    let mut out = format!("{}\n{}\n\n", s.title, "=".repeat(s.title.chars().count()));
    for t in &s.turns {
        let _ = writeln!(out, "[{}] You: {}\n", t.created_at, t.question);
        let _ = writeln!(
            out,
            "Registry Chat ({}): {}\n",
            t.source.label(),
            plain_citations(&t.answer)
        );
        for c in &t.cards {
            let _ = writeln!(
                out,
                "  * {} ({}){}",
                c.display_name,
                c.key,
                c.source_url
                    .as_deref()
                    .map(|u| format!(" {u}"))
                    .unwrap_or_default()
            );
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod mermaid_tests {
    #[test]
    fn hostile_names_stay_inside_the_diagram() {
        let l = super::mermaid_label("evil\n```\n# injected\n\"x\"");
        assert!(
            !l.contains('\n') && !l.contains('`') && !l.contains('"'),
            "{l}"
        );
        assert_eq!(super::mermaid_id("a-b/c.d e\nf"), "n_a_b_c_d_e_f");
    }
}
