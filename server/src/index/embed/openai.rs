//! Any OpenAI-compatible `/embeddings` endpoint (OpenAI, Azure OpenAI, Ollama, vLLM),
//! batched, with retries.

use super::{EmbedError, Embedder, Purpose};
use crate::config::{EmbedderConfig, LlmProvider};
use crate::llm::retry::{RetryPolicy, retry_after, retryable_error, retryable_status};
use futures::future::BoxFuture;
use serde::Deserialize;
use std::time::Duration;

pub struct OpenAiEmbedder {
    client: reqwest::Client,
    url: String,
    azure: bool,
    api_key: Option<String>,
    model: String,
    batch: usize,
    retry: RetryPolicy,
    id: String,
}

#[derive(Deserialize)]
struct Response {
    data: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    embedding: Vec<f32>,
    #[serde(default)]
    index: Option<usize>,
}

impl OpenAiEmbedder {
    pub fn new(c: &EmbedderConfig) -> Result<Self, EmbedError> {
        let base = c.base_url.as_deref().ok_or_else(|| {
            EmbedError::Config("embedder.base_url is required for the openai embedder".into())
        })?;
        let base = base.trim_end_matches('/');
        let (url, azure, model) = match c.provider {
            LlmProvider::Azure => {
                let dep = c.deployment.clone().unwrap_or_default();
                let ver = c.api_version.clone().unwrap_or_default();
                (
                    format!("{base}/openai/deployments/{dep}/embeddings?api-version={ver}"),
                    true,
                    dep,
                )
            }
            LlmProvider::Openai => (
                format!("{base}/embeddings"),
                false,
                c.model.clone().unwrap_or_default(),
            ),
        };
        let client = crate::llm::tls::builder(c.ca_file.as_deref())
            .map_err(|e| EmbedError::Config(format!("embedder.ca_file: {e}")))?
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(c.timeout_secs))
            .build()
            .map_err(|e| EmbedError::Config(e.to_string()))?;
        Ok(OpenAiEmbedder {
            client,
            url,
            azure,
            api_key: c.api_key.as_ref().map(|k| k.expose().to_string()),
            id: format!("openai-{}", model.replace(['/', ':', ' '], "_")),
            model,
            batch: c.batch_size.max(1),
            retry: RetryPolicy {
                max_retries: c.max_retries,
                ..Default::default()
            },
        })
    }

    async fn call(&self, inputs: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let body = if self.azure {
            serde_json::json!({ "input": inputs })
        } else {
            serde_json::json!({ "model": self.model, "input": inputs })
        };
        let mut attempt = 0;
        loop {
            let mut req = self.client.post(&self.url).json(&body);
            if let Some(k) = &self.api_key {
                req = if self.azure {
                    req.header("api-key", k)
                } else {
                    req.bearer_auth(k)
                };
            }
            let outcome = req.send().await;
            let (retry, wait, error) = match outcome {
                Ok(res) if res.status().is_success() => {
                    let parsed: Response = res.json().await.map_err(|e| {
                        EmbedError::Remote(format!("unreadable embeddings response: {e}"))
                    })?;
                    return order(parsed, inputs.len());
                }
                Ok(res) => {
                    let status = res.status().as_u16();
                    let wait = retry_after(res.headers());
                    let text: String = res
                        .text()
                        .await
                        .unwrap_or_default()
                        .chars()
                        .take(300)
                        .collect();
                    (
                        retryable_status(status),
                        wait,
                        format!("HTTP {status}: {text}"),
                    )
                }
                Err(e) => (retryable_error(&e), None, e.to_string()),
            };
            if !retry || attempt >= self.retry.max_retries {
                return Err(EmbedError::Remote(format!(
                    "embeddings request failed after {} attempts: {error}",
                    attempt + 1
                )));
            }
            let delay = self.retry.delay(attempt, wait);
            tracing::warn!(attempt = attempt + 1, ?delay, %error, "embeddings request failed; retrying");
            tokio::time::sleep(delay).await;
            attempt += 1;
        }
    }
}

/// Items may come back in any order (`index` says which input); vectors are
/// normalised here because not every server does.
fn order(r: Response, expected: usize) -> Result<Vec<Vec<f32>>, EmbedError> {
    if r.data.len() != expected {
        return Err(EmbedError::Remote(format!(
            "asked for {expected} embeddings, got {}",
            r.data.len()
        )));
    }
    let mut out = vec![Vec::new(); expected];
    for (pos, item) in r.data.into_iter().enumerate() {
        let i = item.index.unwrap_or(pos);
        let slot = out
            .get_mut(i)
            .ok_or_else(|| EmbedError::Remote(format!("embedding index {i} out of range")))?;
        let mut v = item.embedding;
        if v.is_empty() || v.iter().any(|x| !x.is_finite()) {
            return Err(EmbedError::Remote(
                "an embedding was empty or not finite".into(),
            ));
        }
        super::normalize(&mut v);
        *slot = v;
    }
    Ok(out)
}

impl Embedder for OpenAiEmbedder {
    fn id(&self) -> &str {
        &self.id
    }

    fn dim(&self) -> usize {
        0
    }

    fn embed<'a>(
        &'a self,
        texts: &'a [String],
        _purpose: Purpose,
    ) -> BoxFuture<'a, Result<Vec<Vec<f32>>, EmbedError>> {
        Box::pin(async move {
            let mut out = Vec::with_capacity(texts.len());
            for batch in texts.chunks(self.batch) {
                out.extend(self.call(batch).await?);
            }
            Ok(out)
        })
    }
}
