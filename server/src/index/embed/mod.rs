//! Embedders behind one trait. Every stored vector carries its embedder's id, so
//! vectors of two embedders are never mixed; switching embedders embeds again.

mod batcher;
mod cached;
mod encoder;
mod gelu;
mod hash;
mod minilm;
mod openai;

pub use crate::config::model_files_present as files_present;
pub use cached::CachedEmbedder;
pub use hash::{HashEmbedder, identifier_parts};
pub use minilm::MiniLm;
pub use openai::OpenAiEmbedder;

use crate::config::{Config, EmbedderKind};
use futures::future::BoxFuture;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    Query,
    Passage,
}

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("embedding model: {0}")]
    Model(String),
    #[error("embedding service: {0}")]
    Remote(String),
    #[error("embedder configuration: {0}")]
    Config(String),
}

pub trait Embedder: Send + Sync {
    /// Stable id stored beside every vector (model and its version).
    fn id(&self) -> &str;
    /// Vector length, when known before the first call (0 otherwise).
    fn dim(&self) -> usize;
    fn embed<'a>(
        &'a self,
        texts: &'a [String],
        purpose: Purpose,
    ) -> BoxFuture<'a, Result<Vec<Vec<f32>>, EmbedError>>;
    /// Common words of the language, when the model knows them (a word-piece
    /// vocabulary's whole words). Query understanding uses them to tell a name the
    /// catalog lacks ("velero") from ordinary English.
    fn common_words(&self) -> Option<std::collections::HashSet<String>> {
        None
    }
}

pub type SharedEmbedder = Arc<dyn Embedder>;

pub fn normalize(v: &mut [f32]) {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        v.iter_mut().for_each(|x| *x /= n);
    }
}

/// The configured embedder; `auto` is MiniLM when its files are present, else the
/// hash embedder. Logs one line saying which.
pub fn from_config(config: &Config) -> Result<SharedEmbedder, EmbedError> {
    let dir = config.model_dir();
    let e: SharedEmbedder = match config.embedder.kind {
        EmbedderKind::Hash => Arc::new(HashEmbedder),
        EmbedderKind::Minilm => Arc::new(MiniLm::load(&dir)?),
        EmbedderKind::Openai => Arc::new(OpenAiEmbedder::new(&config.embedder)?),
        EmbedderKind::Auto if files_present(&dir) => Arc::new(MiniLm::load(&dir)?),
        EmbedderKind::Auto => {
            tracing::info!(model_dir = %dir.display(), "embedder: hash (no MiniLM files found; run scripts/setup for semantic search)");
            return Ok(Arc::new(HashEmbedder));
        }
    };
    tracing::info!(embedder = e.id(), "embedder: {}", e.id());
    Ok(e)
}
