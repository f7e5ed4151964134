//! Query vectors are remembered: a turn embeds its question for the classifier's
//! example vote and again in its searches, a conversation repeats its subject, and
//! a team asks the same things. One forward pass per distinct text, the rest from
//! an LRU cache; passages (indexing) go straight through.

use super::{EmbedError, Embedder, Purpose, SharedEmbedder};
use futures::future::BoxFuture;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

/// Distinct query texts remembered (about 1.5 KB each at 384 dimensions).
const CAPACITY: usize = 4096;

pub struct CachedEmbedder {
    inner: SharedEmbedder,
    cache: Mutex<lru::LruCache<String, Arc<Vec<f32>>>>,
}

impl CachedEmbedder {
    pub fn wrap(inner: SharedEmbedder) -> SharedEmbedder {
        Arc::new(CachedEmbedder {
            inner,
            cache: Mutex::new(lru::LruCache::new(
                NonZeroUsize::new(CAPACITY).unwrap_or(NonZeroUsize::MIN),
            )),
        })
    }
}

impl Embedder for CachedEmbedder {
    fn id(&self) -> &str {
        self.inner.id()
    }

    fn dim(&self) -> usize {
        self.inner.dim()
    }

    fn common_words(&self) -> Option<std::collections::HashSet<String>> {
        self.inner.common_words()
    }

    fn embed<'a>(
        &'a self,
        texts: &'a [String],
        purpose: Purpose,
    ) -> BoxFuture<'a, Result<Vec<Vec<f32>>, EmbedError>> {
        if purpose != Purpose::Query {
            return Box::pin(async move {
                let t = std::time::Instant::now();
                crate::metrics::METRICS
                    .embed_texts
                    .with_label_values(&["document"])
                    .inc_by(texts.len() as u64);
                let r = self.inner.embed(texts, purpose).await;
                observe("document", t);
                r
            });
        }
        Box::pin(async move {
            let mut out: Vec<Option<Vec<f32>>> = {
                let mut c = self.cache.lock().unwrap_or_else(|p| p.into_inner());
                texts
                    .iter()
                    .map(|t| c.get(t).map(|v| v.as_ref().clone()))
                    .collect()
            };
            // The misses, each distinct text once, in one batch.
            let mut missing: Vec<String> = Vec::new();
            for (t, v) in texts.iter().zip(&out) {
                if v.is_none() && !missing.contains(t) {
                    missing.push(t.clone());
                }
            }
            crate::metrics::METRICS
                .embed_cache_hits
                .inc_by(out.iter().filter(|v| v.is_some()).count() as u64);
            if !missing.is_empty() {
                let t = std::time::Instant::now();
                crate::metrics::METRICS
                    .embed_texts
                    .with_label_values(&["query"])
                    .inc_by(missing.len() as u64);
                let vectors = self.inner.embed(&missing, purpose).await?;
                observe("query", t);
                let mut c = self.cache.lock().unwrap_or_else(|p| p.into_inner());
                for (t, v) in missing.iter().zip(vectors) {
                    c.put(t.clone(), Arc::new(v));
                }
                for (t, slot) in texts.iter().zip(out.iter_mut()) {
                    if slot.is_none() {
                        *slot = c.get(t).map(|v| v.as_ref().clone());
                    }
                }
            }
            Ok(out.into_iter().map(Option::unwrap_or_default).collect())
        })
    }
}

/// Embedding latency in `/metrics`.
fn observe(purpose: &str, since: std::time::Instant) {
    crate::metrics::METRICS
        .embed_seconds
        .with_label_values(&[purpose])
        .observe(since.elapsed().as_secs_f64());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::embed::HashEmbedder;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Counting(HashEmbedder, Arc<AtomicUsize>);

    impl Embedder for Counting {
        fn id(&self) -> &str {
            self.0.id()
        }
        fn dim(&self) -> usize {
            self.0.dim()
        }
        fn embed<'a>(
            &'a self,
            texts: &'a [String],
            purpose: Purpose,
        ) -> BoxFuture<'a, Result<Vec<Vec<f32>>, EmbedError>> {
            self.1.fetch_add(texts.len(), Ordering::SeqCst);
            self.0.embed(texts, purpose)
        }
    }

    #[tokio::test]
    async fn each_distinct_query_is_embedded_once() {
        let n = Arc::new(AtomicUsize::new(0));
        let e = CachedEmbedder::wrap(Arc::new(Counting(HashEmbedder, n.clone())));
        let q = |s: &str| s.to_string();
        let a = e
            .embed(&[q("pods restart"), q("pods restart")], Purpose::Query)
            .await
            .unwrap();
        assert_eq!(a[0], a[1]);
        assert_eq!(n.load(Ordering::SeqCst), 1, "duplicates in one call");
        e.embed(&[q("pods restart"), q("dns")], Purpose::Query)
            .await
            .unwrap();
        assert_eq!(n.load(Ordering::SeqCst), 2, "only the new text");
        e.embed(&[q("dns")], Purpose::Passage).await.unwrap();
        assert_eq!(n.load(Ordering::SeqCst), 3, "passages are not cached");
    }
}
