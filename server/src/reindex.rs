//! The one reindex pipeline: catalog (ingest) → embeddings → knowledge graph →
//! search snapshot, under one index lock from the first step to the last. The CLI
//! (`registry-chat index`) and the admin console's Reindex both run it; they differ
//! only in how they show progress and report.
//!
//! The lock is held across every step, so two runs never interleave their
//! embedding or graph writes (before, the lock covered the catalog alone). A step
//! that fails after the catalog committed leaves the catalog in: keyword search
//! works, and the next run finishes the rest.

use crate::graph::GraphReport;
use crate::index::build::{BuildError, EmbedReport};
use crate::index::embed::Embedder;
use crate::ingest::{self, IndexLock, IndexOptions, IndexReport, IndexRequest, IngestError};
use crate::search::{SearchError, Searcher};
use crate::store::{Db, StoreError};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, thiserror::Error)]
pub enum ReindexError {
    #[error(transparent)]
    Ingest(#[from] IngestError),
    #[error("embedding: {0}")]
    Embed(#[from] BuildError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("loading the new index: {0}")]
    Search(#[from] SearchError),
    #[error("another replica is reindexing; try again when it has finished")]
    FleetBusy,
    #[error("the index task stopped unexpectedly: {0}")]
    Task(#[from] tokio::task::JoinError),
}

/// Where a run is, for whoever shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Embedding { done: u64, total: u64 },
    Graph,
    Loading,
}

/// One run of the pipeline, holding the data dir's index lock until dropped.
pub struct Reindex {
    db: Db,
    data_dir: PathBuf,
    lock: IndexLock,
}

impl Reindex {
    /// Takes the index lock: a second run on the same data dir, from this process or
    /// another, fails here with `index_busy`.
    pub fn start(db: &Db, data_dir: &Path) -> Result<Reindex, IngestError> {
        Ok(Reindex {
            db: db.clone(),
            data_dir: data_dir.to_path_buf(),
            lock: IndexLock::acquire(data_dir)?,
        })
    }

    /// Step one: the catalog. Blocking (git, files, one SQLite transaction).
    pub fn catalog(
        &self,
        request: &IndexRequest,
        options: &IndexOptions,
    ) -> Result<IndexReport, IngestError> {
        ingest::run_holding(&self.db, &self.data_dir, request, options, &self.lock)
    }

    /// Step one when following a replica that published its catalog: that
    /// catalog instead of the sources (`store::pg` explains the exchange).
    pub async fn load_published(
        &self,
        pg: &crate::store::pg::Pg,
        published: &crate::store::pg::Publication,
    ) -> Result<u64, ReindexError> {
        Ok(pg.load_catalog(&self.db, published).await?)
    }

    /// The rest: embed new chunks, rebuild the graph, then load the new snapshot
    /// into `searcher` (a running server) or, without one, build and save a large
    /// corpus's HNSW now, while the user expects to wait, rather than at the
    /// server's next start (a minute at 126k vectors; `scripts/bench-growth`).
    pub async fn retrieval(
        &self,
        embedder: Arc<dyn Embedder>,
        searcher: Option<&Searcher>,
        on_step: &(dyn Fn(Step) + Sync),
    ) -> Result<(EmbedReport, GraphReport), ReindexError> {
        let embed =
            crate::index::build::embed_missing_with(&self.db, embedder.as_ref(), &|done, total| {
                on_step(Step::Embedding { done, total })
            })
            .await?;
        on_step(Step::Graph);
        let (db, id) = (self.db.clone(), embedder.id().to_string());
        let graph = tokio::task::spawn_blocking(move || crate::graph::rebuild(&db, &id)).await??;
        on_step(Step::Loading);
        match searcher {
            Some(s) => {
                s.refresh().await?;
            }
            None if embed.embedded > 0 || embed.removed > 0 || graph.rebuilt => {
                Searcher::open(self.db.clone(), embedder, self.data_dir.clone()).await?;
            }
            None => {}
        }
        Ok((embed, graph))
    }
}
