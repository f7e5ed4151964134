//! Health and status: the same document is served at `GET /health` and by the
//! `health` server function the UI polls for its banner.

use serde::{Deserialize, Serialize};

crate::closed_set! {
    /// `Ok` when the database answers.
    pub enum HealthStatus {
        Ok = "ok",
        Degraded = "degraded",
    }
}

crate::closed_set! {
    /// The index as `/health` sees it: never indexed, ready, a run in progress, or
    /// not known (its summary could not be read).
    pub enum IndexState {
        Empty = "empty",
        Ready = "ready",
        Indexing = "indexing",
        Unknown = "unknown",
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Health {
    pub status: HealthStatus,
    pub version: String,
    pub database: DatabaseHealth,
    pub index: IndexHealth,
    pub llm: LlmHealth,
    /// Which words the UI uses for the registry's parts (the `vocabulary` setting).
    #[serde(default)]
    pub vocabulary: super::vocabulary::Vocabulary,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DatabaseHealth {
    pub ok: bool,
    pub schema_version: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IndexHealth {
    pub state: IndexState,
    pub collections: u64,
    pub bundles: u64,
    #[serde(default)]
    pub last_indexed_at: Option<String>,
    /// One line per indexed collection.
    #[serde(default)]
    pub sources: Vec<IndexSource>,
    /// Replicas on Postgres: the fleet's index run whose published catalog this
    /// replica holds (the same on every replica once they have followed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalog_run: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IndexSource {
    pub name: String,
    pub bundles: u64,
    pub warnings: u64,
    #[serde(default)]
    pub commit: Option<String>,
    pub indexed_at: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LlmHealth {
    pub configured: bool,
    #[serde(default)]
    pub provider: Option<String>,
    #[serde(default)]
    pub model: Option<String>,
    /// Whether the last request reached the model; `None` before the first one.
    #[serde(default)]
    pub reachable: Option<bool>,
}

impl Health {
    pub fn is_ok(&self) -> bool {
        self.status == HealthStatus::Ok
    }
}
