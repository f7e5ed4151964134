//! After the catalog changes: embed the chunks that have no vector yet for the active
//! embedder (in batches, off the request path, each batch its own small transaction
//! so an interruption keeps finished work), and forget vectors of text that is gone.

use super::embed::{EmbedError, Embedder, Purpose};
use crate::store::{Db, StoreError};
use rusqlite::params;
use std::time::Instant;

/// Texts per embed call and per write (MiniLM batches again internally and spreads
/// the batches over the cores); the texts go in length order, so each call holds
/// texts of about one length.
const BATCH: usize = 64;

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Embed(#[from] EmbedError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct EmbedReport {
    pub embedder: String,
    pub embedded: usize,
    pub cached: usize,
    pub removed: usize,
    pub elapsed_ms: u64,
}

pub fn vector_to_blob(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn blob_to_vector(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Embeds every chunk text that has no vector for `embedder`. Writes nothing when
/// nothing is missing. `progress` draws a bar on stderr (the CLI).
pub async fn embed_missing(
    db: &Db,
    embedder: &dyn Embedder,
    progress: bool,
) -> Result<EmbedReport, BuildError> {
    let bar = progress_bar(progress);
    let report = embed_missing_with(db, embedder, &|done, total| {
        bar.set_length(total);
        bar.set_position(done);
    })
    .await;
    bar.finish_and_clear();
    report
}

/// The CLI's embedding progress bar on stderr (hidden unless `show`).
pub fn progress_bar(show: bool) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let b = indicatif::ProgressBar::new(0);
    b.set_style(
        indicatif::ProgressStyle::with_template(
            "{prefix:>20} [{bar:30}] {pos}/{len} {per_sec} ETA {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    b.set_prefix("embedding");
    b
}

/// As `embed_missing`, reporting `(done, total)` texts after each batch (the admin
/// reindex shows it as a progress bar). Not called when nothing is missing.
pub async fn embed_missing_with(
    db: &Db,
    embedder: &dyn Embedder,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<EmbedReport, BuildError> {
    let started = Instant::now();
    let id = embedder.id().to_string();
    let key = id.clone();
    let (mut missing, total): (Vec<(String, String)>, usize) = db
        .read(move |c| crate::store::texts_to_embed(c, &key))
        .await?;
    missing.sort_by_key(|(_, text)| text.len());
    let mut done = 0u64;
    for batch in missing.chunks(BATCH) {
        let texts: Vec<String> = batch.iter().map(|(_, t)| t.clone()).collect();
        let vectors = embedder.embed(&texts, Purpose::Passage).await?;
        let rows: Vec<(String, Vec<u8>)> = batch
            .iter()
            .zip(vectors)
            .map(|((h, _), v)| (h.clone(), vector_to_blob(&v)))
            .collect();
        let id = id.clone();
        db.write(move |c| {
            let tx = c.transaction()?;
            {
                let mut st = tx.prepare_cached("INSERT OR REPLACE INTO embeddings (embedder, content_hash, vector) VALUES (?1, ?2, ?3)")?;
                for (h, v) in &rows {
                    st.execute(params![id, h, v])?;
                }
            }
            tx.commit()?;
            Ok(())
        })
        .await?;
        done += batch.len() as u64;
        on_progress(done, missing.len() as u64);
    }
    let removed = db.write(|c| crate::store::prune_embeddings(c)).await?;
    Ok(EmbedReport {
        embedder: embedder.id().to_string(),
        embedded: missing.len(),
        cached: total.saturating_sub(missing.len()),
        removed,
        elapsed_ms: started.elapsed().as_millis() as u64,
    })
}
