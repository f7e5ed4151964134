//! Reading an indexed bundle's files: one set of checks for every caller. A path
//! is taken relative to its bundle, must name a file ingest indexed, and is read
//! through `ingest::confine` (regular files inside the checkout, size-capped) on
//! the blocking pool.

use super::{Registry, ToolError};
use crate::ingest::BundleRecord;
use regex::Regex;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// Largest file a tool reads.
pub const READ_MAX_BYTES: u64 = 1024 * 1024;
/// Most matching lines a grep returns.
const GREP_MAX_LINES: usize = 40;
/// Files a grep looks into: sources and docs, not data.
const GREP_EXTENSIONS: &[&str] = &[".robot", ".sh", ".py", ".md", ".yaml", ".yml"];

/// Lines matching a pattern, as `collection/slug/file:line: text`.
pub struct GrepHits {
    pub lines: Vec<String>,
    /// False when the hit limit cut the scan short.
    pub complete: bool,
}

impl Registry {
    /// One indexed file of a bundle, e.g. `runbook.robot`.
    pub async fn read_file(&self, id: &str, path: &str) -> Result<String, ToolError> {
        let rec = self.bundle(id).await?;
        let rel = safe_path(&rec.slug, path)?;
        if !rec.files.iter().any(|f| f.path == rel) {
            return Err(ToolError::NotFound(format!(
                "{path} is not an indexed file of {id}; files: {}",
                short_files(&rec).join(", ")
            )));
        }
        let root = self.collection_root(&rec.collection).await?;
        read_confined(root, rel).await
    }

    /// Source lines matching `pattern` (a case-insensitive regular expression) in
    /// every indexed bundle, or only in bundle `only`.
    pub async fn grep(&self, pattern: &str, only: Option<&str>) -> Result<GrepHits, ToolError> {
        let re = regex::RegexBuilder::new(pattern)
            .size_limit(1 << 20)
            .case_insensitive(true)
            .build()
            .map_err(|e| ToolError::Invalid(format!("bad pattern: {e}")))?;
        let keys: Vec<String> = match only {
            Some(id) => vec![id.to_string()],
            None => self
                .db
                .read(crate::catalog::bundle_rows)
                .await?
                .into_iter()
                .map(|b| b.header.key())
                .collect(),
        };
        // The files to scan are gathered first; the scan itself reads the disk, so
        // it runs on the blocking pool, confined to each root.
        let mut roots: HashMap<String, PathBuf> = HashMap::new();
        let mut files: Vec<(String, PathBuf, String)> = Vec::new();
        for key in keys {
            let rec = match self.bundle(&key).await {
                Ok(rec) => rec,
                Err(e) if only.is_some() => return Err(e),
                Err(_) => continue,
            };
            if !roots.contains_key(&rec.collection) {
                let root = self.collection_root(&rec.collection).await?;
                roots.insert(rec.collection.clone(), root);
            }
            let root = &roots[&rec.collection];
            for f in rec
                .files
                .iter()
                .filter(|f| GREP_EXTENSIONS.iter().any(|e| f.path.ends_with(e)))
            {
                files.push((rec.collection.clone(), root.clone(), f.path.clone()));
            }
        }
        let lines = tokio::task::spawn_blocking(move || scan(&re, files))
            .await
            .map_err(|e| ToolError::Io(e.to_string()))?;
        Ok(GrepHits {
            complete: lines.len() < GREP_MAX_LINES,
            lines,
        })
    }

    /// `collection/slug/file:line` → the lines around it, and the bundle's id.
    pub async fn location_text(&self, loc: &str) -> Result<(String, String), ToolError> {
        let bad = || ToolError::Invalid("location looks like collection/slug/file:line".into());
        let (path, line) = loc.rsplit_once(':').ok_or_else(bad)?;
        let line: usize = line
            .trim()
            .parse()
            .map_err(|_| ToolError::Invalid("the line is not a number".into()))?;
        let mut parts = path.splitn(3, '/');
        let (c, s, f) = (
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
            parts.next().ok_or_else(bad)?,
        );
        let id = format!("{c}/{s}");
        let text = self.read_file(&id, f).await?;
        let lines: Vec<&str> = text.lines().collect();
        let from = line.saturating_sub(6);
        let to = line.saturating_add(6).min(lines.len());
        Ok((lines.get(from..to).unwrap_or_default().join("\n"), id))
    }
}

fn scan(re: &Regex, files: Vec<(String, PathBuf, String)>) -> Vec<String> {
    let mut hits = Vec::new();
    for (collection, root, path) in files {
        let Ok(text) = crate::ingest::confine::read_text(&root, &path, READ_MAX_BYTES) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            if re.is_match(line) {
                let short = path.trim_start_matches("codebundles/");
                hits.push(format!(
                    "{collection}/{short}:{}: {}",
                    i + 1,
                    line.trim().chars().take(200).collect::<String>()
                ));
                if hits.len() >= GREP_MAX_LINES {
                    return hits;
                }
            }
        }
    }
    hits
}

/// A file of a collection, through the same confinement as indexing (regular
/// files inside the root only), off the async workers.
pub(super) async fn read_confined(root: PathBuf, rel: String) -> Result<String, ToolError> {
    tokio::task::spawn_blocking(move || {
        crate::ingest::confine::read_text(&root, &rel, READ_MAX_BYTES)
            .map_err(|e| ToolError::Io(e.to_string()))
    })
    .await
    .map_err(|e| ToolError::Io(e.to_string()))?
}

/// `runbook.robot` → `codebundles/<slug>/runbook.robot`, refusing `..` and absolute paths.
fn safe_path(slug: &str, path: &str) -> Result<String, ToolError> {
    let p = path.trim_start_matches(&format!("codebundles/{slug}/"));
    if p.is_empty()
        || Path::new(p)
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(ToolError::Invalid(format!(
            "{path} is not a path inside the bundle"
        )));
    }
    Ok(format!("codebundles/{slug}/{p}"))
}

/// The bundle's indexed files, relative to the bundle.
fn short_files(r: &BundleRecord) -> Vec<String> {
    let prefix = format!("codebundles/{}/", r.slug);
    r.files
        .iter()
        .map(|f| f.path.trim_start_matches(&prefix).to_string())
        .collect()
}

/// A bundle as JSON, for the model and for MCP's structured results.
pub fn bundle_json(r: &BundleRecord) -> Value {
    let task = |t: &crate::ingest::TaskRecord| json!({"name": t.clean.trim(), "doc": t.doc, "access": t.access});
    json!({
        "id": r.key(),
        "name": r.display_name,
        "description": r.description,
        "platform": r.derived.platform,
        "access": r.derived.access,
        "access_decided_by": r.derived.access_source,
        "resource_types": r.derived.resource_types,
        "tasks": r.tasks.iter().map(task).collect::<Vec<_>>(),
        "slis": r.slis.iter().map(task).collect::<Vec<_>>(),
        "variables": r.variables.iter().filter(|v| !v.dynamic).map(|v| json!({"name": v.name, "kind": v.kind, "default": v.default, "description": v.description})).collect::<Vec<_>>(),
        "readme": r.readme.as_ref().map(|x| x.markdown.chars().take(1500).collect::<String>()),
        "files": short_files(r),
        "source_url": r.source_url,
    })
}

#[cfg(test)]
mod tests {
    use super::safe_path;

    #[test]
    fn paths_stay_inside_the_bundle() {
        assert_eq!(
            safe_path("x", "runbook.robot").unwrap(),
            "codebundles/x/runbook.robot"
        );
        assert_eq!(
            safe_path("x", "codebundles/x/a/b.sh").unwrap(),
            "codebundles/x/a/b.sh"
        );
        assert!(safe_path("x", "../y/runbook.robot").is_err());
        assert!(safe_path("x", "/etc/passwd").is_err());
        assert!(safe_path("x", "").is_err());
    }
}
