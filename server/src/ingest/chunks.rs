//! Retrieval units. Each chunk has a stable id (kind + parent + text), a content
//! hash of the text alone (embedding cache key and duplicate detection), the text to
//! embed, the text to show and where it came from.

use super::docs::DocSection;
use super::pylib::Keyword;
use super::record::BundleRecord;
use serde::{Deserialize, Serialize};

/// What a chunk is cut from; stored and serialised in lower case.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChunkKind {
    /// A bundle's summary: names, description, task list.
    Bundle,
    /// The default only so that a matched task (`search::MatchedTask`) has one.
    #[default]
    Task,
    Sli,
    Readme,
    Doc,
    Keyword,
    /// How bundles call a shipped keyword (see `usage`).
    KeywordUsage,
}

impl ChunkKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChunkKind::Bundle => "bundle",
            ChunkKind::Task => "task",
            ChunkKind::Sli => "sli",
            ChunkKind::Readme => "readme",
            ChunkKind::Doc => "doc",
            ChunkKind::Keyword => "keyword",
            ChunkKind::KeywordUsage => "keyword_usage",
        }
    }

    pub fn parse(s: &str) -> Option<ChunkKind> {
        [
            ChunkKind::Bundle,
            ChunkKind::Task,
            ChunkKind::Sli,
            ChunkKind::Readme,
            ChunkKind::Doc,
            ChunkKind::Keyword,
            ChunkKind::KeywordUsage,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }

    /// A task's or an SLI's own chunk.
    pub fn is_task(self) -> bool {
        matches!(self, ChunkKind::Task | ChunkKind::Sli)
    }
}

impl std::fmt::Display for ChunkKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl rusqlite::types::ToSql for ChunkKind {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(self.as_str().into())
    }
}

impl rusqlite::types::FromSql for ChunkKind {
    fn column_result(v: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let s = v.as_str()?;
        ChunkKind::parse(s).ok_or_else(|| {
            rusqlite::types::FromSqlError::Other(format!("unknown chunk kind {s:?}").into())
        })
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Chunk {
    pub id: String,
    pub content_hash: String,
    pub kind: ChunkKind,
    pub title: String,
    pub embed_text: String,
    pub show_text: String,
    pub file: Option<String>,
    pub line_start: Option<usize>,
    pub line_end: Option<usize>,
    /// For task and SLI chunks: the task name as Robot reads it.
    pub task: Option<String>,
}

/// Longest text embedded per chunk; longer README sections are split at paragraphs.
/// MiniLM reads at most 256 word pieces (about 1,000 characters of English).
pub const MAX_EMBED_CHARS: usize = 1200;

fn hash(parts: &[&str]) -> String {
    let mut h = blake3::Hasher::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update(&[0]);
    }
    h.finalize().to_hex()[..32].to_string()
}

fn chunk(
    kind: ChunkKind,
    parent: &str,
    title: String,
    embed: String,
    show: String,
    loc: (Option<String>, Option<usize>, Option<usize>),
) -> Chunk {
    Chunk {
        id: hash(&[kind.as_str(), parent, &embed]),
        content_hash: hash(&[&embed]),
        kind,
        title,
        embed_text: embed,
        show_text: show,
        file: loc.0,
        line_start: loc.1,
        line_end: loc.2,
        task: None,
    }
}

/// Splits text into pieces of at most `max` characters at paragraph, then line,
/// then word boundaries.
pub fn split_text(text: &str, max: usize) -> Vec<String> {
    if text.chars().count() <= max {
        return vec![text.to_string()];
    }
    let mut out = Vec::new();
    let mut current = String::new();
    for word in text.split_inclusive(char::is_whitespace) {
        if current.chars().count() + word.chars().count() > max && !current.trim().is_empty() {
            out.push(current.trim().to_string());
            current.clear();
        }
        current.push_str(word);
        if current.ends_with("\n\n") && current.chars().count() > max / 2 {
            out.push(current.trim().to_string());
            current.clear();
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

pub fn bundle_chunks(b: &BundleRecord) -> Vec<Chunk> {
    let parent = b.key();
    let mut out = Vec::new();
    let slug_words = b.slug.replace('-', " ");
    let names: Vec<&str> = [
        Some(b.display_name.as_str()),
        b.runbook_display_name.as_deref(),
        b.sli_display_name.as_deref(),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut unique_names: Vec<&str> = Vec::new();
    for n in names {
        if !unique_names.contains(&n) {
            unique_names.push(n);
        }
    }
    let task_names: Vec<&str> = b
        .tasks
        .iter()
        .chain(&b.slis)
        .map(|t| t.clean.as_str())
        .filter(|t| !t.is_empty())
        .collect();
    let summary = format!(
        "{}. {}. {}\nPlatform: {}. Resources: {}. Tags: {}.\nTasks: {}",
        unique_names.join(" / "),
        slug_words,
        b.description,
        b.derived.platform,
        b.derived.resource_types.join(", "),
        b.all_tags().join(", "),
        task_names.join("; ")
    );
    let first_file = b.tasks.first().or(b.slis.first()).map(|t| t.file.clone());
    out.push(chunk(
        ChunkKind::Bundle,
        &parent,
        b.display_name.clone(),
        summary,
        b.description.clone(),
        (first_file, None, None),
    ));

    for (kind, list) in [(ChunkKind::Task, &b.tasks), (ChunkKind::Sli, &b.slis)] {
        for t in list {
            let tags: Vec<&str> = t
                .tags
                .iter()
                .map(String::as_str)
                .filter(|t| !t.starts_with("access:"))
                .collect();
            let embed = format!(
                "{}. {}\nTags: {}. From: {}",
                t.clean,
                t.doc,
                tags.join(", "),
                b.display_name
            );
            let mut c = chunk(
                kind,
                &parent,
                t.title.clone(),
                embed,
                t.doc.clone(),
                (Some(t.file.clone()), Some(t.line_start), Some(t.line_end)),
            );
            c.task = Some(t.name.clone());
            out.push(c);
        }
    }
    if let Some(readme) = &b.readme {
        for s in &readme.sections {
            if s.text.trim().is_empty() {
                continue;
            }
            let heading = s
                .heading
                .as_ref()
                .map(|h| h.text.clone())
                .unwrap_or_else(|| "README".into());
            let mut trail = s.trail.clone();
            trail.push(heading.clone());
            for piece in split_text(&s.text, MAX_EMBED_CHARS) {
                let embed = format!("{} — {}: {}", b.display_name, trail.join(" › "), piece);
                out.push(chunk(
                    ChunkKind::Readme,
                    &parent,
                    heading.clone(),
                    embed,
                    s.markdown.clone(),
                    (
                        Some(readme.file.clone()),
                        Some(s.line_start),
                        Some(s.line_end),
                    ),
                ));
            }
        }
    }
    dedupe(out)
}

pub fn doc_chunks(parent: &str, d: &DocSection) -> Vec<Chunk> {
    let mut trail = d.trail.clone();
    if let Some(h) = &d.heading {
        trail.push(h.clone());
    }
    let title = d.heading.clone().unwrap_or_else(|| d.title.clone());
    split_text(&d.text, MAX_EMBED_CHARS)
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .map(|piece| {
            let embed = format!("{} — {}: {}", d.title, trail.join(" › "), piece);
            chunk(
                ChunkKind::Doc,
                parent,
                title.clone(),
                embed,
                d.markdown.clone(),
                (Some(d.path.clone()), Some(d.line_start), Some(d.line_end)),
            )
        })
        .collect()
}

pub fn keyword_chunk(parent: &str, k: &Keyword) -> Chunk {
    let embed = format!(
        "{} (keyword in library {}). {}\nArguments: {}",
        k.name, k.library, k.doc, k.args
    );
    chunk(
        ChunkKind::Keyword,
        parent,
        k.name.clone(),
        embed,
        k.doc.clone(),
        (Some(k.file.clone()), Some(k.line), Some(k.line)),
    )
}

/// How bundles call a shipped keyword, embedded beside its docstring chunk.
pub fn usage_chunk(
    parent: &str,
    library: &str,
    name: &str,
    usage: &str,
    at: (String, usize),
) -> Chunk {
    let embed = format!("{name} (keyword in library {library}). {usage}");
    chunk(
        ChunkKind::KeywordUsage,
        parent,
        name.to_string(),
        embed,
        usage.to_string(),
        (Some(at.0), Some(at.1), Some(at.1)),
    )
}

fn dedupe(chunks: Vec<Chunk>) -> Vec<Chunk> {
    let mut seen = std::collections::HashSet::new();
    chunks
        .into_iter()
        .filter(|c| seen.insert(c.id.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_respects_the_limit() {
        let text = "word ".repeat(1000);
        let parts = split_text(&text, 300);
        assert!(parts.len() > 3);
        assert!(parts.iter().all(|p| p.chars().count() <= 300));
        assert_eq!(split_text("short", 300), vec!["short"]);
    }
}
