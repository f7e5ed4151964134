//! The catalog as the UI, the CLI and the API see it.

use serde::{Deserialize, Serialize};

crate::closed_set! {
    /// Whether a bundle or task only reads or also changes what it runs against.
    #[derive(Default)]
    pub enum Access {
        #[default]
        ReadOnly = "read-only",
        ReadWrite = "read-write",
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CollectionStatus {
    pub name: String,
    pub commit: Option<String>,
    pub content_hash: String,
    pub root: String,
    pub git_url: Option<String>,
    pub web_url: Option<String>,
    pub bundles: u64,
    pub tasks: u64,
    pub slis: u64,
    pub docs: u64,
    pub keywords: u64,
    pub warnings: u64,
    pub indexed_at: String,
    /// Bundles whose files changed on disk since they were indexed (`slug (changed)`,
    /// `slug (new)`, `slug (removed)`); filled by `registry-chat status`.
    #[serde(default)]
    pub stale: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskInfo {
    pub name: String,
    pub doc: String,
    pub tags: Vec<String>,
    pub access: Access,
    pub file: String,
    pub line_start: u32,
    pub line_end: u32,
    #[serde(default)]
    pub url: Option<String>,
}

/// What every view of a bundle shows — a search hit, a card, a catalog listing, an
/// MCP result, a report — read from the catalog by one reader (`catalog::header`
/// on the server). The views embed it (flattened, so their JSON is unchanged) and
/// deref to it, so `hit.display_name` reads the same everywhere.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BundleHeader {
    pub collection: String,
    pub slug: String,
    pub display_name: String,
    pub description: String,
    pub platform: String,
    pub access: Access,
    #[serde(default)]
    pub resource_types: Vec<String>,
    pub tags: Vec<String>,
    pub task_count: u32,
    pub sli_count: u32,
    #[serde(default)]
    pub source_url: Option<String>,
}

impl BundleHeader {
    /// `collection/slug`, the stable identity used in citations and URLs.
    pub fn key(&self) -> String {
        format!("{}/{}", self.collection, self.slug)
    }
}

/// Implements `Deref` to the embedded [`BundleHeader`] for a view of a bundle.
#[macro_export]
macro_rules! derefs_to_header {
    ($view:ty, $field:ident) => {
        impl std::ops::Deref for $view {
            type Target = $crate::api::catalog::BundleHeader;
            fn deref(&self) -> &Self::Target {
                &self.$field
            }
        }
    };
}

/// A bundle with its tasks and SLIs, as the catalog lists it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BundleSummary {
    #[serde(flatten)]
    pub header: BundleHeader,
    #[serde(default)]
    pub author: Option<String>,
    pub tasks: Vec<TaskInfo>,
    pub slis: Vec<TaskInfo>,
}

crate::derefs_to_header!(BundleSummary, header);

/// Who supplies a variable's value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VariableKind {
    /// The user configuring the bundle (`RW.Core.Import User Variable`).
    #[default]
    User,
    /// A secret (`RW.Core.Import Secret`).
    Secret,
    /// The platform's service (`RW.Core.Import Service`).
    Service,
}

impl VariableKind {
    pub fn as_str(self) -> &'static str {
        match self {
            VariableKind::User => "user",
            VariableKind::Secret => "secret",
            VariableKind::Service => "service",
        }
    }
}

impl std::fmt::Display for VariableKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct VariableInfo {
    pub name: String,
    pub kind: VariableKind,
    pub var_type: Option<String>,
    pub description: Option<String>,
    pub default: Option<String>,
    pub example: Option<String>,
    pub enum_values: Vec<String>,
    pub optional: bool,
    /// No default and not optional: the user must set it.
    pub required: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FileInfo {
    pub path: String,
    pub size: u64,
    #[serde(default)]
    pub url: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LibraryInfo {
    pub name: String,
    /// Not provided by any indexed collection (e.g. `RW.Core` from the runtime image).
    pub external: bool,
    /// Keywords of this library the bundle calls.
    pub keywords_used: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DerivedSources {
    pub platform: String,
    pub resource_types: String,
    pub access: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BundleDetail {
    pub summary: BundleSummary,
    pub runbook_display_name: Option<String>,
    pub sli_display_name: Option<String>,
    pub supports: Vec<String>,
    pub force_tags: Vec<String>,
    pub variables: Vec<VariableInfo>,
    /// README markdown as written (rendered safely by the UI).
    pub readme: Option<String>,
    pub readme_url: Option<String>,
    pub files: Vec<FileInfo>,
    pub scripts: Vec<String>,
    pub libraries: Vec<LibraryInfo>,
    pub derived_from: DerivedSources,
    pub level_of_detail: Option<String>,
    pub warnings: Vec<String>,
}

/// Filters for listing bundles; every field is optional and they combine with AND.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BundleFilter {
    #[serde(default)]
    pub collection: Option<String>,
    #[serde(default)]
    pub platform: Option<String>,
    #[serde(default)]
    pub tag: Option<String>,
    #[serde(default)]
    pub access: Option<Access>,
    /// Case-insensitive substring of the slug, display name or description.
    #[serde(default)]
    pub text: Option<String>,
}
