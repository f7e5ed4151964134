//! OpenAI-compatible `/chat/completions` (and Azure OpenAI) with streaming.

use super::error::LlmError;
use super::retry::{RetryPolicy, retry_after, retryable_error, retryable_status};
use super::types::*;
use crate::config::{LlmConfig, LlmProvider};
use eventsource_stream::Eventsource;
use futures::{Stream, StreamExt};
use std::pin::Pin;
use std::time::{Duration, Instant};

#[derive(Clone)]
pub struct LlmClient {
    http: reqwest::Client,
    url: String,
    azure: bool,
    api_key: Option<String>,
    model: String,
    max_tokens: u32,
    temperature: f32,
    first_token: Duration,
    total: Duration,
    retry: RetryPolicy,
    /// Whether the last request reached the model (for the health banner).
    reachable: std::sync::Arc<std::sync::Mutex<Option<bool>>>,
}

type Events = Pin<Box<dyn Stream<Item = Result<eventsource_stream::Event, String>> + Send>>;

/// A reply being streamed. Timeouts apply to `next`: the first delta must come
/// within the first-token timeout, and everything within the total timeout.
pub struct DeltaStream {
    events: Events,
    started: Instant,
    first_token: Duration,
    total: Duration,
    got_first: bool,
    pending: Vec<Delta>,
    /// Bytes of event data read so far (capped by `MAX_STREAM_BYTES`).
    bytes: usize,
    done: bool,
    /// A finish reason arrived: the end of the body is now a normal end.
    finished: bool,
}

impl LlmClient {
    pub fn new(c: &LlmConfig) -> Result<LlmClient, LlmError> {
        let base = c
            .base_url
            .as_deref()
            .ok_or(LlmError::NotConfigured)?
            .trim_end_matches('/');
        let (url, azure, model) = match c.provider {
            LlmProvider::Azure => {
                let dep = c.deployment.clone().unwrap_or_default();
                let ver = c.api_version.clone().unwrap_or_default();
                (
                    format!("{base}/openai/deployments/{dep}/chat/completions?api-version={ver}"),
                    true,
                    dep,
                )
            }
            LlmProvider::Openai => (
                format!("{base}/chat/completions"),
                false,
                c.model.clone().unwrap_or_default(),
            ),
        };
        let http = super::tls::builder(c.ca_file.as_deref())
            .map_err(|e| LlmError::Connect(format!("llm.ca_file: {e}")))?
            .connect_timeout(Duration::from_secs(c.connect_timeout_secs))
            // A redirect would carry the API key to wherever the server points.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| LlmError::Connect(e.to_string()))?;
        Ok(LlmClient {
            http,
            url,
            azure,
            api_key: c.api_key.as_ref().map(|k| k.expose().to_string()),
            model,
            max_tokens: c.max_tokens,
            temperature: c.temperature,
            first_token: Duration::from_secs(c.first_token_timeout_secs),
            total: Duration::from_secs(c.total_timeout_secs),
            retry: RetryPolicy {
                max_retries: c.max_retries,
                ..Default::default()
            },
            reachable: Default::default(),
        })
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    /// `Some(false)` when the last request failed to reach the model (connection,
    /// timeout, 5xx, auth); `None` before the first request.
    pub fn reachable(&self) -> Option<bool> {
        *self.reachable.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn body(&self, req: &CompletionRequest, json: bool) -> serde_json::Value {
        let mut body = serde_json::json!({
            "messages": req.messages,
            "stream": true,
            "max_tokens": req.max_tokens.unwrap_or(self.max_tokens),
            "temperature": self.temperature,
        });
        if !self.azure {
            body["model"] = self.model.clone().into();
            body["stream_options"] = serde_json::json!({ "include_usage": true });
        }
        if !req.tools.is_empty() {
            body["tools"] = req
                .tools
                .iter()
                .map(|t| serde_json::json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}))
                .collect();
        }
        if json {
            body["response_format"] = serde_json::json!({ "type": "json_object" });
        }
        body
    }

    /// Starts a streamed completion. Connection failures, 429 and 5xx are retried
    /// here (nothing has been streamed yet); a server that rejects
    /// `response_format` is asked again without it.
    pub async fn stream(&self, req: &CompletionRequest) -> Result<DeltaStream, LlmError> {
        let result = self.start(req).await;
        *self.reachable.lock().unwrap_or_else(|p| p.into_inner()) = Some(result.is_ok());
        let m = &crate::metrics::METRICS;
        match &result {
            Ok(_) => m.llm_calls.with_label_values(&["ok"]).inc(),
            Err(e) => {
                m.llm_calls.with_label_values(&[e.kind()]).inc();
                m.llm_errors.with_label_values(&[e.kind()]).inc();
            }
        }
        result
    }

    async fn start(&self, req: &CompletionRequest) -> Result<DeltaStream, LlmError> {
        let started = Instant::now();
        let mut json = req.json;
        let mut attempt = 0u32;
        loop {
            // The total deadline is enforced here and in `next`, so it is reported
            // as a timeout rather than as a broken body.
            let mut r = self.http.post(&self.url).json(&self.body(req, json));
            if let Some(k) = &self.api_key {
                r = if self.azure {
                    r.header("api-key", k)
                } else {
                    r.bearer_auth(k)
                };
            }
            let remaining = self.total.saturating_sub(started.elapsed());
            let outcome = match tokio::time::timeout(remaining, r.send()).await {
                Ok(o) => o,
                Err(_) => return Err(LlmError::Timeout(self.total.as_secs())),
            };
            let (retry, wait, err) = match outcome {
                Ok(res) if res.status().is_success() => {
                    let events: Events = Box::pin(
                        res.bytes_stream()
                            .eventsource()
                            .map(|e| e.map_err(|e| e.to_string())),
                    );
                    return Ok(DeltaStream {
                        events,
                        started,
                        first_token: self.first_token,
                        total: self.total,
                        got_first: false,
                        pending: Vec::new(),
                        bytes: 0,
                        done: false,
                        finished: false,
                    });
                }
                Ok(res) => {
                    let status = res.status().as_u16();
                    let wait = retry_after(res.headers());
                    let remaining = self.total.saturating_sub(started.elapsed());
                    let text = error_body(res, remaining.min(ERROR_BODY_DEADLINE)).await;
                    let message = error_message(&text);
                    if status == 400 && json && message.to_lowercase().contains("response_format") {
                        json = false;
                        continue;
                    }
                    (
                        retryable_status(status),
                        wait,
                        LlmError::Status { status, message },
                    )
                }
                Err(e) if e.is_timeout() => (true, None, LlmError::Timeout(self.total.as_secs())),
                Err(e) => (retryable_error(&e), None, LlmError::Connect(e.to_string())),
            };
            if !retry || attempt >= self.retry.max_retries {
                return Err(err);
            }
            let delay = self.retry.delay(attempt, wait);
            if started.elapsed() + delay > self.total {
                return Err(err);
            }
            tracing::warn!(attempt = attempt + 1, ?delay, error = %err, "LLM request failed; retrying");
            crate::metrics::METRICS.llm_retries.inc();
            tokio::time::sleep(delay).await;
            attempt += 1;
        }
    }

    /// A whole completion (no streaming to a user): used for classification.
    pub async fn complete(&self, req: &CompletionRequest) -> Result<Completion, LlmError> {
        let mut s = self.stream(req).await?;
        let mut out = Completion::default();
        while let Some(d) = s.next().await? {
            out.apply(&d);
        }
        Ok(out.finish())
    }
}

/// Most of an error body read, and how long it may take: a server that sends an
/// endless or trickling error body does not hold the turn.
const ERROR_BODY_BYTES: usize = 64 * 1024;
const ERROR_BODY_DEADLINE: Duration = Duration::from_secs(5);
/// Most event data one streamed reply may send.
pub const MAX_STREAM_BYTES: usize = 4 * 1024 * 1024;

/// The start of an error body, within a deadline and a size cap.
async fn error_body(mut res: reqwest::Response, deadline: Duration) -> String {
    let mut buf: Vec<u8> = Vec::new();
    let read = async {
        while let Ok(Some(chunk)) = res.chunk().await {
            let room = ERROR_BODY_BYTES.saturating_sub(buf.len());
            buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
            if buf.len() >= ERROR_BODY_BYTES {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(deadline, read).await;
    String::from_utf8_lossy(&buf).into_owned()
}

/// `{"error": {"message": "..."}}`, `{"error": "..."}`, `{"message": "..."}` or text.
fn error_message(body: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(body).unwrap_or(serde_json::Value::Null);
    let m = v["error"]["message"]
        .as_str()
        .or_else(|| v["error"].as_str())
        .or_else(|| v["message"].as_str());
    m.map(str::to_string)
        .unwrap_or_else(|| body.chars().take(300).collect())
}

impl DeltaStream {
    /// The next delta, `None` at the end. Errors: timeouts, a broken stream, an error
    /// chunk from the server.
    pub async fn next(&mut self) -> Result<Option<Delta>, LlmError> {
        let r = self.read_next().await;
        if let Err(e) = &r {
            crate::metrics::METRICS
                .llm_errors
                .with_label_values(&[e.kind()])
                .inc();
        }
        r
    }

    async fn read_next(&mut self) -> Result<Option<Delta>, LlmError> {
        loop {
            if !self.pending.is_empty() {
                let d = self.pending.remove(0);
                if matches!(d, Delta::Text(_) | Delta::Tool { .. }) {
                    self.got_first = true;
                }
                return Ok(Some(d));
            }
            if self.done {
                return Ok(None);
            }
            let elapsed = self.started.elapsed();
            let (limit, err) = if self.got_first {
                (
                    self.total.saturating_sub(elapsed),
                    LlmError::Timeout(self.total.as_secs()),
                )
            } else {
                (
                    self.first_token.min(self.total).saturating_sub(elapsed),
                    LlmError::FirstTokenTimeout(self.first_token.as_secs()),
                )
            };
            let ev = match tokio::time::timeout(limit, self.events.next()).await {
                Err(_) => return Err(err),
                Ok(None) if self.finished => {
                    self.done = true;
                    return Ok(None);
                }
                Ok(None) => {
                    // A stream that ends without [DONE] or a finish reason was cut.
                    self.done = true;
                    return Err(LlmError::Stream(
                        "the connection closed before the reply was complete".into(),
                    ));
                }
                Ok(Some(Err(e))) => return Err(LlmError::Stream(e)),
                Ok(Some(Ok(ev))) => ev,
            };
            self.bytes += ev.data.len();
            if self.bytes > MAX_STREAM_BYTES {
                self.done = true;
                return Err(LlmError::BadReply(format!(
                    "the reply exceeded {} MB",
                    MAX_STREAM_BYTES / (1024 * 1024)
                )));
            }
            let data = ev.data.trim();
            if data.is_empty() {
                continue;
            }
            if data == "[DONE]" {
                self.done = true;
                continue;
            }
            let v: serde_json::Value = match serde_json::from_str(data) {
                Ok(v) => v,
                // Keep-alives and comments from some servers: skip what is not JSON.
                Err(_) => continue,
            };
            if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
                let msg = err["message"]
                    .as_str()
                    .or(err.as_str())
                    .unwrap_or("unknown error")
                    .to_string();
                return Err(LlmError::Upstream(msg));
            }
            self.pending = parse_chunk(&v)?;
            // Usage may still follow the finish reason; keep reading until [DONE] or
            // the end of the body.
            self.finished |= self.pending.iter().any(|d| matches!(d, Delta::Finish(_)));
        }
    }
}

/// Deltas in one chunk; every field is optional. A tool-call index past
/// `MAX_TOOL_CALLS` is refused (it would otherwise size a vector).
fn parse_chunk(v: &serde_json::Value) -> Result<Vec<Delta>, LlmError> {
    let mut out = Vec::new();
    if let Some(choice) = v["choices"].get(0) {
        let delta = if choice["delta"].is_object() {
            &choice["delta"]
        } else {
            &choice["message"]
        };
        if let Some(t) = delta["content"].as_str().filter(|t| !t.is_empty()) {
            out.push(Delta::Text(t.to_string()));
        }
        if let Some(calls) = delta["tool_calls"].as_array() {
            for (pos, c) in calls.iter().enumerate() {
                let index = c["index"].as_u64().map_or(pos as u64, |i| i);
                if index >= MAX_TOOL_CALLS as u64 || pos >= MAX_TOOL_CALLS {
                    return Err(LlmError::BadReply(format!(
                        "tool call index {index} (at most {MAX_TOOL_CALLS} calls per reply)"
                    )));
                }
                out.push(Delta::Tool {
                    index: index as usize,
                    id: c["id"].as_str().map(str::to_string),
                    name: c["function"]["name"].as_str().map(str::to_string),
                    arguments: c["function"]["arguments"]
                        .as_str()
                        .unwrap_or("")
                        .to_string(),
                });
            }
        }
        if let Some(r) = choice["finish_reason"].as_str().filter(|r| !r.is_empty()) {
            out.push(Delta::Finish(r.to_string()));
        }
    }
    if let Some(u) = v["usage"].as_object() {
        out.push(Delta::Usage(Usage {
            prompt_tokens: u.get("prompt_tokens").and_then(|x| x.as_u64()).unwrap_or(0) as u32,
            completion_tokens: u
                .get("completion_tokens")
                .and_then(|x| x.as_u64())
                .unwrap_or(0) as u32,
        }));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_read_leniently() {
        let v = serde_json::json!({"choices": [{"delta": {"content": "Hi"}, "finish_reason": null}], "extra": 1});
        assert_eq!(parse_chunk(&v).unwrap(), vec![Delta::Text("Hi".into())]);
        let v = serde_json::json!({"choices": [{"delta": {"tool_calls": [{"index": 1, "function": {"arguments": "{\"q\""}}]}}]});
        assert_eq!(
            parse_chunk(&v).unwrap(),
            vec![Delta::Tool {
                index: 1,
                id: None,
                name: None,
                arguments: "{\"q\"".into()
            }]
        );
        assert!(parse_chunk(&serde_json::json!({})).unwrap().is_empty());
        assert!(
            parse_chunk(&serde_json::json!({"choices": []}))
                .unwrap()
                .is_empty()
        );
        let v = serde_json::json!({"choices": [{"delta": {"tool_calls": [{"index": 200000000u64, "function": {"arguments": "{}"}}]}}]});
        assert!(parse_chunk(&v).is_err(), "a huge index is refused");
        let v = serde_json::json!({"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 7}});
        assert_eq!(
            parse_chunk(&v).unwrap(),
            vec![Delta::Usage(Usage {
                prompt_tokens: 5,
                completion_tokens: 7
            })]
        );
    }

    #[test]
    fn tool_calls_accumulate_by_index() {
        let mut c = Completion::default();
        for d in [
            Delta::Tool {
                index: 0,
                id: Some("a".into()),
                name: Some("search".into()),
                arguments: "{\"q\":".into(),
            },
            Delta::Tool {
                index: 1,
                id: Some("b".into()),
                name: Some("get".into()),
                arguments: "{}".into(),
            },
            Delta::Tool {
                index: 0,
                id: None,
                name: None,
                arguments: "\"x\"}".into(),
            },
        ] {
            c.apply(&d);
        }
        let c = c.finish();
        assert_eq!(c.tool_calls[0].function.arguments, "{\"q\":\"x\"}");
        assert_eq!(c.tool_calls[1].function.name, "get");
    }

    #[test]
    fn error_bodies() {
        assert_eq!(
            error_message(r#"{"error":{"message":"bad key"}}"#),
            "bad key"
        );
        assert_eq!(error_message(r#"{"error":"nope"}"#), "nope");
        assert_eq!(error_message("plain"), "plain");
    }
}
