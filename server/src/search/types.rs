//! Search requests and results.

use crate::graph::Correlation;
pub use app::api::catalog::Access;
use app::api::catalog::BundleHeader;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    #[default]
    Hybrid,
    Vector,
    Keyword,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Fusion {
    /// Calibrated weighted sum of normalised signals (the measured winner).
    #[default]
    Weighted,
    /// Reciprocal rank fusion (kept for comparison in `eval`).
    Rrf,
}

app::closed_set! {
    /// Bundles by what they hold: tasks to run, or SLIs that watch.
    pub enum BundleKind {
        Runbook = "runbook",
        Sli = "sli",
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Filters {
    pub collection: Option<String>,
    pub platform: Option<String>,
    pub resource_type: Option<String>,
    pub access: Option<Access>,
    pub tags: Vec<String>,
    pub kind: Option<BundleKind>,
    /// Only these bundles (`collection/slug`): the users of a keyword, ranked by
    /// the question. Empty: no restriction.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bundles: Vec<String>,
}

impl Filters {
    pub fn is_empty(&self) -> bool {
        *self == Filters::default()
    }

    pub fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut add = |k: &str, v: Option<&str>| {
            if let Some(v) = v {
                out.push(format!("{k}={v}"));
            }
        };
        add("collection", self.collection.as_deref());
        add("platform", self.platform.as_deref());
        add("resource_type", self.resource_type.as_deref());
        add("access", self.access.map(Access::as_str));
        add("kind", self.kind.map(BundleKind::as_str));
        for t in &self.tags {
            out.push(format!("tag={t}"));
        }
        if !self.bundles.is_empty() {
            out.push(format!("bundles={}", self.bundles.len()));
        }
        out
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SearchOptions {
    /// Bundles to return.
    pub k: usize,
    pub filters: Filters,
    pub mode: Mode,
    pub fusion: Fusion,
    pub graph_expand: bool,
    pub graph_boost: bool,
    pub mmr: bool,
    /// Concept-lexicon expansion of everyday words ("padlock" → TLS certificate).
    pub concepts: bool,
    /// Return the raw per-chunk and per-bundle signals (for `eval --dump`).
    #[serde(default)]
    pub explain: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            k: 5,
            filters: Filters::default(),
            mode: Mode::Hybrid,
            fusion: Fusion::Weighted,
            // Both graph uses are opt-in: measured on the golden set they lowered
            // ranking (README "Retrieval"). Correlation among results stays on.
            graph_expand: false,
            graph_boost: false,
            mmr: true,
            concepts: true,
            explain: false,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchedTask {
    pub name: String,
    /// `task` or `sli`.
    pub kind: crate::ingest::ChunkKind,
    pub score: f32,
}

/// Which signals contributed to a result, with their normalised values.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Signals {
    pub vector: f32,
    pub bm25: f32,
    pub graph: f32,
    /// +1 on the platform the question names or implies, −1 on another.
    pub platform: f32,
    pub fused: f32,
    pub fired: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BundleHit {
    pub key: String,
    #[serde(flatten)]
    pub bundle: BundleHeader,
    /// Calibrated relevance in 0–1 (see `calibrate`).
    pub score: f32,
    pub signals: Signals,
    pub matched: Vec<MatchedTask>,
}

app::derefs_to_header!(BundleHit, bundle);

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DocHit {
    pub id: String,
    pub source: String,
    pub path: String,
    pub title: String,
    pub heading: Option<String>,
    /// Headings above the section, outermost first.
    pub trail: Vec<String>,
    pub url: Option<String>,
    pub score: f32,
    pub snippet: String,
    /// A section of a bundle's README (`path` is the bundle's), not of the docs.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub readme: bool,
}

impl DocHit {
    /// Whether this is a section of `bundle`'s README.
    pub fn is_readme_of(&self, bundle: &BundleHeader) -> bool {
        self.readme
            && self.source == bundle.collection
            && self
                .path
                .starts_with(&format!("codebundles/{}/", bundle.slug))
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KeywordHit {
    pub id: String,
    pub library: String,
    pub name: String,
    pub collection: String,
    pub args: String,
    pub doc: String,
    pub url: Option<String>,
    pub score: f32,
    /// The order among keywords: the match weighed by how many bundles call it
    /// (`search::rank`); `score` stays the match's own.
    #[serde(default)]
    pub rank: f32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timings {
    pub embed_ms: f64,
    pub keyword_ms: f64,
    pub rank_ms: f64,
    pub total_ms: f64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchResults {
    pub query: String,
    pub bundles: Vec<BundleHit>,
    pub docs: Vec<DocHit>,
    pub keywords: Vec<KeywordHit>,
    /// The registry has nothing that fits (the bundles are only the closest).
    pub no_match: bool,
    /// Technologies the question names that no indexed bundle covers.
    pub uncovered: Vec<String>,
    /// Name-like words the catalog never uses.
    #[serde(default)]
    pub unknown: Vec<String>,
    pub corrections: Vec<(String, String)>,
    pub entities: Vec<String>,
    pub expansion: Vec<String>,
    pub correlations: Vec<Correlation>,
    pub timings: Timings,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explain: Option<Explain>,
}

/// Raw signals, for tuning: every chunk's cosine (plain and concept-expanded
/// question), BM25 per bundle and per chunk, graph boost per bundle.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Explain {
    /// (bundle key, chunk kind, cosine, cosine of the expanded question)
    pub chunks: Vec<(String, crate::ingest::ChunkKind, f32, f32)>,
    pub bm25: Vec<(String, f32)>,
    pub chunk_bm25: Vec<(String, crate::ingest::ChunkKind, f32)>,
    pub graph: Vec<(String, f32)>,
    /// Platform prior per bundle (+1 wanted, −1 contradicted).
    pub platform: Vec<(String, f32)>,
}
