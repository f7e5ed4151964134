//! The catalog's records: what indexing produces and the catalog stores.

use super::derive::Derived;
use super::markdown::{Heading, Section};
use super::runwhen::{GenerationRules, ManifestHints, TemplateHints};
use serde::{Deserialize, Serialize};

app::closed_set! {
    /// A row of the `tasks` table: a runbook task or an SLI.
    pub enum TaskKind {
        Task = "task",
        Sli = "sli",
    }
}

/// A problem found while indexing: reported with path and line, never fatal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    pub path: String,
    pub line: Option<usize>,
    pub message: String,
}

impl Warning {
    pub fn new(path: impl Into<String>, line: Option<usize>, message: impl Into<String>) -> Self {
        Warning {
            path: path.into(),
            line,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.path, l, self.message),
            None => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskRecord {
    /// Exactly as Robot reads it.
    pub name: String,
    /// Trimmed, for display.
    pub title: String,
    /// Placeholders removed, for matching and embedding.
    pub clean: String,
    pub doc: String,
    /// The task's own `[Tags]` (suite force tags are on the bundle).
    pub tags: Vec<String>,
    pub access: super::derive::Access,
    pub access_source: String,
    pub file: String,
    pub line_start: usize,
    pub line_end: usize,
    pub calls: Vec<String>,
    /// Each call with its line and arguments (older records have none).
    #[serde(default)]
    pub sites: Vec<super::robot::CallSite>,
    /// Write commands the body runs (evidence for access).
    #[serde(default)]
    pub writes: Vec<String>,
    pub url: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Variable {
    pub name: String,
    pub kind: app::api::catalog::VariableKind,
    pub var_type: Option<String>,
    pub description: Option<String>,
    pub pattern: Option<String>,
    pub example: Option<String>,
    pub default: Option<String>,
    pub enum_values: Vec<String>,
    pub optional: bool,
    pub dynamic: bool,
    pub file: String,
    pub line: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Readme {
    pub file: String,
    pub title: Option<String>,
    pub headings: Vec<Heading>,
    pub markdown: String,
    pub sections: Vec<Section>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FileRecord {
    pub path: String,
    pub size: u64,
    pub hash: String,
    pub url: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TemplateRecord {
    pub file: String,
    #[serde(flatten)]
    pub hints: TemplateHints,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BundleRecord {
    pub collection: String,
    pub slug: String,
    pub display_name: String,
    pub runbook_display_name: Option<String>,
    pub sli_display_name: Option<String>,
    /// The best one-paragraph summary (runbook docs, SLI docs, README, manifest).
    pub description: String,
    pub runbook_doc: Option<String>,
    pub sli_doc: Option<String>,
    pub author: Option<String>,
    pub supports: Vec<String>,
    pub force_tags: Vec<String>,
    pub libraries: Vec<String>,
    pub variables: Vec<Variable>,
    pub tasks: Vec<TaskRecord>,
    pub slis: Vec<TaskRecord>,
    pub readme: Option<Readme>,
    pub rules: Vec<GenerationRules>,
    pub templates: Vec<TemplateRecord>,
    pub skill: Option<ManifestHints>,
    pub meta: Option<ManifestHints>,
    pub scripts: Vec<String>,
    pub files: Vec<FileRecord>,
    pub derived: Derived,
    pub level_of_detail: Option<String>,
    pub source_url: Option<String>,
    pub warnings: Vec<Warning>,
}

impl BundleRecord {
    /// The bundle's keyword-index row: names weigh most, then task names and tags,
    /// then docs, then the README (weights in `index::fts::BUNDLE_WEIGHTS`).
    pub fn search_text(&self) -> crate::index::fts::BundleText {
        let b = self;
        let mut names = vec![b.display_name.clone(), b.slug.replace(['-', '_'], " ")];
        names.extend(
            b.runbook_display_name
                .iter()
                .chain(b.sli_display_name.iter())
                .cloned(),
        );
        names.extend(b.supports.iter().cloned());
        let tasks: Vec<&str> = b
            .tasks
            .iter()
            .chain(&b.slis)
            .map(|t| t.clean.as_str())
            .collect();
        let mut tags = b.all_tags();
        tags.push(b.derived.platform.clone());
        tags.extend(
            b.derived
                .resource_types
                .iter()
                .map(|r| r.replace(['_', '.'], " ")),
        );
        let mut docs = vec![b.description.clone()];
        docs.extend(b.runbook_doc.iter().chain(b.sli_doc.iter()).cloned());
        docs.extend(b.tasks.iter().chain(&b.slis).map(|t| t.doc.clone()));
        docs.extend(
            b.variables
                .iter()
                .map(|v| format!("{} {}", v.name, v.description.clone().unwrap_or_default())),
        );
        let readme = b
            .readme
            .as_ref()
            .map(|r| {
                r.sections
                    .iter()
                    .map(|s| s.text.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default();
        crate::index::fts::BundleText {
            names: names.join("\n"),
            tasks: tasks.join("\n"),
            tags: tags.join(" "),
            docs: docs.join("\n"),
            readme,
        }
    }

    /// Suite tags plus every task's tags, deduplicated, without `access:` tags.
    pub fn all_tags(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for t in self.force_tags.iter().chain(
            self.tasks
                .iter()
                .chain(&self.slis)
                .flat_map(|t| t.tags.iter()),
        ) {
            let t = t.trim().to_string();
            if !t.is_empty()
                && !t.to_lowercase().starts_with("access:")
                && !out.iter().any(|o| o.eq_ignore_ascii_case(&t))
            {
                out.push(t);
            }
        }
        out
    }

    pub fn key(&self) -> String {
        format!("{}/{}", self.collection, self.slug)
    }
}

/// Where source links point: a web URL of the repository and the commit.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkBase {
    pub web: String,
    pub commit: String,
}

impl LinkBase {
    pub fn file(&self, path: &str) -> String {
        format!("{}/blob/{}/{}", self.web, self.commit, path)
    }

    pub fn lines(&self, path: &str, start: usize, end: usize) -> String {
        if end > start {
            format!("{}#L{start}-L{end}", self.file(path))
        } else {
            format!("{}#L{start}", self.file(path))
        }
    }

    pub fn tree(&self, path: &str) -> String {
        format!("{}/tree/{}/{}", self.web, self.commit, path)
    }
}
