//! Documentation folders (and a collection's own README, CONTRIBUTING and docs):
//! markdown files split by headings into sections with anchors.

use super::markdown;
use super::record::{LinkBase, Warning};
use super::walk::{self, SourceFile};
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DocSection {
    /// Relative to the doc set or collection root.
    pub path: String,
    /// The file's title (first heading, else the file name).
    pub title: String,
    pub heading: Option<String>,
    pub anchor: String,
    pub trail: Vec<String>,
    pub markdown: String,
    pub text: String,
    pub line_start: usize,
    pub line_end: usize,
    pub url: Option<String>,
}

pub fn sections_of(file: &SourceFile, links: Option<&LinkBase>) -> Vec<DocSection> {
    let doc = markdown::parse(&file.text);
    let fallback = Path::new(&file.rel)
        .file_stem()
        .map(|s| s.to_string_lossy().replace(['-', '_'], " "))
        .unwrap_or_default();
    let title = doc.title.clone().unwrap_or(fallback);
    doc.sections
        .into_iter()
        .filter(|s| !s.text.trim().is_empty())
        .map(|s| DocSection {
            path: file.rel.clone(),
            title: title.clone(),
            heading: s.heading.as_ref().map(|h| h.text.clone()),
            anchor: s
                .heading
                .as_ref()
                .map(|h| h.anchor.clone())
                .unwrap_or_default(),
            trail: s.trail,
            url: links.map(|l| l.lines(&file.rel, s.line_start, s.line_end)),
            markdown: s.markdown,
            text: s.text,
            line_start: s.line_start,
            line_end: s.line_end,
        })
        .collect()
}

/// Every markdown file under `root` (hidden files skipped).
pub fn markdown_files(root: &Path, warnings: &mut Vec<Warning>) -> Vec<SourceFile> {
    walk::walk(root, root, warnings)
        .into_iter()
        .filter(|f| is_markdown(&f.rel))
        .collect()
}

pub fn is_markdown(rel: &str) -> bool {
    let l = rel.to_ascii_lowercase();
    l.ends_with(".md") || l.ends_with(".markdown")
}

/// A collection's rules for AI-assisted authoring (`.cursorrules`): markdown under a
/// dotfile name, and often the only written account of the house conventions
/// (folder names, required files, issue severities).
pub fn is_rules_file(name: &str) -> bool {
    name == ".cursorrules"
}
