//! Hybrid retrieval: vectors and BM25 fused and calibrated, chunk hits aggregated to
//! bundles (with the tasks that matched), graph expansion and boost, MMR
//! diversification, filters, and a calibrated no-match decision.

mod calibrate;
mod headings;
mod named;
mod products;
mod rank;
mod sections;
mod signals;
mod snapshot;
mod types;

pub use crate::store::catalog_generation;
pub use calibrate::{
    Evidence, calibrated, calibrated_section, carried, first_stage_no_match_below, no_match_below,
    nothing_fits, uncarried,
};
pub use named::names_keyword;
pub use rank::README_SUBJECT_MIN;
pub use sections::is_readme_section;
pub use snapshot::{BundleMeta, ChunkMeta, DocMeta, KeywordMeta, Snapshot};
pub use types::*;

use crate::index::embed::{EmbedError, Purpose, SharedEmbedder};
use crate::index::vectors::EXACT_MAX;
use crate::query::Query;
use crate::store::{Db, StoreError};
use app::api::ErrorCode;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::Instant;

#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Embed(#[from] EmbedError),
    #[error("search task failed: {0}")]
    Join(#[from] tokio::task::JoinError),
}

impl SearchError {
    pub fn code(&self) -> ErrorCode {
        match self {
            SearchError::Store(e) => e.code(),
            SearchError::Embed(_) | SearchError::Join(_) => ErrorCode::Internal,
        }
    }
}

/// The search service: one per process, shared by the web edge, the agent and the
/// CLI. Holds the current snapshot; a newer one replaces it atomically.
pub struct Searcher {
    db: Db,
    embedder: SharedEmbedder,
    index_dir: PathBuf,
    snapshot: RwLock<Arc<Snapshot>>,
}

impl Searcher {
    pub async fn open(
        db: Db,
        embedder: SharedEmbedder,
        data_dir: PathBuf,
    ) -> Result<Arc<Searcher>, SearchError> {
        let index_dir = data_dir.join("index");
        let snap = load_snapshot(&db, &embedder, &index_dir).await?;
        if snap.vectors.is_empty() && !snap.chunks.is_empty() {
            tracing::warn!(
                embedder = embedder.id(),
                "no vectors for this embedder yet: keyword search only until `registry-chat index` embeds the catalog"
            );
        }
        Ok(Arc::new(Searcher {
            db,
            // Query vectors are shared by the classifier and every search of a turn.
            embedder: crate::index::embed::CachedEmbedder::wrap(embedder),
            index_dir,
            snapshot: RwLock::new(Arc::new(snap)),
        }))
    }

    pub fn embedder(&self) -> &SharedEmbedder {
        &self.embedder
    }

    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.snapshot
            .read()
            .map(|s| s.clone())
            .unwrap_or_else(|p| p.into_inner().clone())
    }

    /// Reloads when the catalog or the vectors changed since the current snapshot.
    /// The old snapshot keeps answering until the new one is swapped in.
    pub async fn refresh(&self) -> Result<bool, SearchError> {
        let id = self.embedder.id().to_string();
        let current = self.snapshot().fingerprint.clone();
        let id2 = id.clone();
        let now = self
            .db
            .read(move |c| {
                let g = catalog_generation(c)?;
                let n = crate::store::embedded_chunks(c, &id2)?;
                Ok(format!("{g}:{id2}:{n}"))
            })
            .await?;
        if now == current {
            return Ok(false);
        }
        let snap = load_snapshot(&self.db, &self.embedder, &self.index_dir).await?;
        if let Ok(mut guard) = self.snapshot.write() {
            *guard = Arc::new(snap);
        }
        Ok(true)
    }

    /// Reads `query` against the current catalog, then searches.
    pub async fn search(
        &self,
        query: &str,
        options: &SearchOptions,
    ) -> Result<SearchResults, SearchError> {
        let q = self.snapshot().understand(query);
        self.search_query(&q, options).await
    }

    /// Searches for a question already read (the agent reads it once per turn).
    pub async fn search_query(
        &self,
        query: &Query,
        options: &SearchOptions,
    ) -> Result<SearchResults, SearchError> {
        let started = Instant::now();
        let snap = self.snapshot();
        let qvecs = if options.mode != Mode::Keyword && !snap.vectors.is_empty() {
            let t = Instant::now();
            // The question as typed (spelling corrected) and, when it uses everyday
            // words the concept lexicon knows, the question with the mechanism
            // words added.
            let mut texts = vec![query.corrected_text()];
            if options.concepts
                && let Some(x) = query.expanded_text()
            {
                texts.push(x);
            }
            let mut v = self
                .embedder
                .embed(&texts, Purpose::Query)
                .await?
                .into_iter();
            let plain = v.next().unwrap_or_default();
            let wider = v.next();
            Some((plain, wider, t.elapsed()))
        } else {
            None
        };
        let embed_ms = qvecs
            .as_ref()
            .map_or(0.0, |(_, _, d)| d.as_secs_f64() * 1000.0);
        let query = query.clone();
        let options = options.clone();
        let db = self.db.clone();
        let mut results = db
            .read(move |c| {
                let q = qvecs.as_ref().map(|(p, w, _)| signals::QueryVectors {
                    plain: p.as_slice(),
                    expanded: w.as_deref(),
                });
                Ok(rank::search(&snap, c, &query, q, &options))
            })
            .await?;
        results.timings.embed_ms = embed_ms;
        results.timings.total_ms = started.elapsed().as_secs_f64() * 1000.0;
        Ok(results)
    }
}

async fn load_snapshot(
    db: &Db,
    embedder: &SharedEmbedder,
    index_dir: &std::path::Path,
) -> Result<Snapshot, SearchError> {
    let db = db.clone();
    let id = embedder.id().to_string();
    let common = embedder.common_words();
    let dir = index_dir.to_path_buf();
    Ok(
        tokio::task::spawn_blocking(move || -> Result<Snapshot, StoreError> {
            let mut snap = db.read_blocking(|c| Snapshot::load(c, &id, common))?;
            // Only large corpora need the HNSW (see `index::vectors::EXACT_MAX`).
            if snap.vectors.len() > EXACT_MAX {
                let path = dir.join(format!("hnsw-{}.bin", id.replace(['/', ':'], "_")));
                if !snap.vectors.load_hnsw(&path, &snap.fingerprint) {
                    let t = Instant::now();
                    snap.vectors.build_hnsw(64);
                    tracing::info!(
                        vectors = snap.vectors.len(),
                        ms = t.elapsed().as_millis() as u64,
                        "built HNSW"
                    );
                    if let Err(e) = snap.vectors.save_hnsw(&path, &snap.fingerprint) {
                        tracing::warn!(error = %e, "cannot persist the HNSW");
                    }
                }
            }
            Ok(snap)
        })
        .await??,
    )
}
