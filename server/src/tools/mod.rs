//! The registry's tools, one layer for both callers: the agent's tool loop (the
//! LLM's function calls, `agent::tools`) and MCP (`mcp::tools`). Each tool checks
//! its arguments, confines file access to indexed files inside a collection's
//! checkout, and returns typed results; the callers only render them (compact JSON
//! for the model, markdown and JSON for MCP clients) and keep their own budgets.

mod error;
mod files;
mod keywords;
mod similar;

pub use error::ToolError;
pub use files::{GrepHits, READ_MAX_BYTES, bundle_json};
pub use keywords::KeywordExample;
pub use similar::{Neighbour, Similar};

use crate::ingest::BundleRecord;
use crate::search::{SearchOptions, SearchResults, Searcher};
use crate::store::Db;
use std::path::PathBuf;
use std::sync::Arc;

/// What every tool works on: the current search snapshot and the catalog.
#[derive(Clone)]
pub struct Registry {
    searcher: Arc<Searcher>,
    db: Db,
}

impl Registry {
    pub fn new(searcher: Arc<Searcher>, db: Db) -> Self {
        Registry { searcher, db }
    }

    pub fn searcher(&self) -> &Arc<Searcher> {
        &self.searcher
    }

    /// A search of bundles, docs and keywords.
    pub async fn search(
        &self,
        query: &str,
        options: &SearchOptions,
    ) -> Result<SearchResults, ToolError> {
        if query.trim().is_empty() {
            return Err(ToolError::Invalid("query is empty".into()));
        }
        Ok(self.searcher.search(query, options).await?)
    }

    /// One bundle's stored record by `collection/slug`.
    pub async fn bundle(&self, id: &str) -> Result<BundleRecord, ToolError> {
        let (c, s) = split_id(id)?;
        let (c, s) = (c.to_string(), s.to_string());
        match self
            .db
            .read(move |conn| crate::catalog::record(conn, &c, &s))
            .await?
        {
            Some((_, r)) => Ok(r),
            None => Err(ToolError::NotFound(format!(
                "No codebundle {id} in the registry. Search to find one."
            ))),
        }
    }

    /// Where an indexed collection's checkout is.
    async fn collection_root(&self, collection: &str) -> Result<PathBuf, ToolError> {
        let name = collection.to_string();
        self.db
            .read(move |c| crate::catalog::collection_root(c, &name))
            .await?
            .map(PathBuf::from)
            .ok_or_else(|| ToolError::NotFound(format!("no collection {collection}")))
    }
}

/// `collection/slug` → its two parts.
fn split_id(id: &str) -> Result<(&str, &str), ToolError> {
    id.trim()
        .split_once('/')
        .filter(|(c, s)| !c.is_empty() && !s.is_empty())
        .ok_or_else(|| {
            ToolError::Invalid(
                "ids look like collection/slug (e.g. kube-ops/k8s-pod-crashloop-triage)".into(),
            )
        })
}
