//! Prometheus metrics, served as text format 0.0.4 at `/metrics`.
//!
//! One process-wide registry: turns, stages, the LLM and the embedder record from
//! deep inside the layers, and threading a handle through every call would touch
//! every signature for no gain (the `prometheus` crate's own default registry is
//! global for the same reason). Label values come from closed sets (routes as
//! matched, not raw paths; error kinds, not messages), so a hostile client cannot
//! grow the series count.

use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};
use std::sync::LazyLock;

/// Latency buckets in seconds: 5 ms to 60 s (a turn with a slow LLM).
const BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

pub struct Metrics {
    registry: Registry,
    pub turns: IntCounterVec,
    pub stage_seconds: HistogramVec,
    pub llm_calls: IntCounterVec,
    pub llm_tokens: IntCounterVec,
    pub llm_retries: IntCounter,
    pub llm_errors: IntCounterVec,
    pub embed_seconds: HistogramVec,
    pub embed_cache_hits: IntCounter,
    pub embed_texts: IntCounterVec,
    pub embed_passes: IntCounterVec,
    pub embed_pieces: IntCounterVec,
    pub streams: IntGauge,
    pub rate_limited: IntCounterVec,
    pub http_requests: IntCounterVec,
    pub http_seconds: HistogramVec,
    pub index_bundles: IntGaugeVec,
    pub index_warnings: IntGaugeVec,
    pub index_last_change: IntGaugeVec,
}

fn counter(r: &Registry, name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    let m = IntCounterVec::new(Opts::new(name, help), labels).expect("valid metric");
    r.register(Box::new(m.clone())).expect("unique metric");
    m
}

fn gauge(r: &Registry, name: &str, help: &str, labels: &[&str]) -> IntGaugeVec {
    let m = IntGaugeVec::new(Opts::new(name, help), labels).expect("valid metric");
    r.register(Box::new(m.clone())).expect("unique metric");
    m
}

fn histogram(r: &Registry, name: &str, help: &str, labels: &[&str]) -> HistogramVec {
    let m = HistogramVec::new(
        HistogramOpts::new(name, help).buckets(BUCKETS.to_vec()),
        labels,
    )
    .expect("valid metric");
    r.register(Box::new(m.clone())).expect("unique metric");
    m
}

impl Metrics {
    fn new() -> Metrics {
        let r = Registry::new_custom(Some("registry_chat".into()), None).expect("valid prefix");
        let llm_retries =
            IntCounter::new("llm_retries_total", "LLM requests retried").expect("valid metric");
        r.register(Box::new(llm_retries.clone()))
            .expect("unique metric");
        let embed_cache_hits = IntCounter::new(
            "embed_cache_hits_total",
            "Query texts whose vector came from the cache",
        )
        .expect("valid metric");
        r.register(Box::new(embed_cache_hits.clone()))
            .expect("unique metric");
        let streams = IntGauge::new("streams_active", "Answers streaming now").expect("valid");
        r.register(Box::new(streams.clone()))
            .expect("unique metric");
        Metrics {
            turns: counter(
                &r,
                "turns_total",
                "Chat turns by question category, outcome (ok, no_match, interrupted, timeout, error) and answer source",
                &["category", "outcome", "source"],
            ),
            stage_seconds: histogram(
                &r,
                "turn_stage_seconds",
                "Time per turn stage (classify, rewrite, plan, retrieve, write, total, first_token)",
                &["stage"],
            ),
            llm_calls: counter(
                &r,
                "llm_calls_total",
                "LLM requests by outcome (ok or the error kind)",
                &["outcome"],
            ),
            llm_tokens: counter(
                &r,
                "llm_tokens_total",
                "LLM tokens used by kind (prompt, completion)",
                &["kind"],
            ),
            llm_retries,
            llm_errors: counter(
                &r,
                "llm_errors_total",
                "LLM failures by kind (connect, status, timeout, first_token_timeout, stream, upstream, bad_reply)",
                &["kind"],
            ),
            embed_seconds: histogram(
                &r,
                "embed_seconds",
                "Embedding calls by purpose (query, document)",
                &["purpose"],
            ),
            embed_cache_hits,
            embed_texts: counter(
                &r,
                "embed_texts_total",
                "Texts embedded (cache misses) by purpose (query, document)",
                &["purpose"],
            ),
            embed_passes: counter(
                &r,
                "embed_passes_total",
                "Model forward passes by purpose (query, document)",
                &["purpose"],
            ),
            embed_pieces: counter(
                &r,
                "embed_pieces_total",
                "Word pieces through the model by purpose and kind (text, padding): the work a pass does",
                &["purpose", "kind"],
            ),
            streams,
            rate_limited: counter(
                &r,
                "rate_limited_total",
                "Questions refused by a limit (per_client, capacity)",
                &["limit"],
            ),
            http_requests: counter(
                &r,
                "http_requests_total",
                "HTTP requests by route (as matched), method and status",
                &["route", "method", "status"],
            ),
            http_seconds: histogram(
                &r,
                "http_request_duration_seconds",
                "HTTP request latency by route until the response head (streams last longer)",
                &["route"],
            ),
            index_bundles: gauge(
                &r,
                "index_bundles",
                "Bundles indexed per collection",
                &["collection"],
            ),
            index_warnings: gauge(
                &r,
                "index_warnings",
                "Index warnings per collection",
                &["collection"],
            ),
            index_last_change: gauge(
                &r,
                "index_last_change_timestamp_seconds",
                "When each collection's content last changed in the catalog (Unix time; a run that finds no change does not move it)",
                &["collection"],
            ),
            registry: r,
        }
    }

    /// The text exposition of every metric.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        if let Err(e) = TextEncoder::new().encode(&self.registry.gather(), &mut out) {
            tracing::error!(error = %e, "metrics encoding failed");
        }
        String::from_utf8(out).unwrap_or_default()
    }
}

/// The content type of [`Metrics::render`].
pub const CONTENT_TYPE: &str = prometheus::TEXT_FORMAT;

pub static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// Records a finished turn: its outcome and how long each stage took (ms).
pub fn turn(category: &str, outcome: &str, source: &str, stages_ms: &[(&str, f64)]) {
    METRICS
        .turns
        .with_label_values(&[category, outcome, source])
        .inc();
    for (stage, ms) in stages_ms {
        METRICS
            .stage_seconds
            .with_label_values(&[stage])
            .observe(ms / 1000.0);
    }
}

/// Holds the active-streams gauge up while it lives.
pub struct StreamGuard(());

impl StreamGuard {
    pub fn new() -> StreamGuard {
        METRICS.streams.inc();
        StreamGuard(())
    }
}

impl Default for StreamGuard {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        METRICS.streams.dec();
    }
}
