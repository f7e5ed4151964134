//! OpenTelemetry traces, opt-in: with `otel.endpoint` (`REGISTRY_CHAT_OTEL_ENDPOINT`,
//! an OTLP/HTTP collector such as `http://otel-collector:4318`) each chat turn is
//! exported as a `turn` span with one child per stage (classify, rewrite, plan,
//! retrieve, write), carrying the request id, category, outcome and source.
//!
//! Spans are built from the stage timings the turn already records (the same
//! figures as the trace and `/metrics`), with their real start and end times,
//! rather than by instrumenting every await: the stages are what an SRE looks
//! at, and this keeps the agent free of exporter code. Export runs on the SDK's
//! batch thread; a collector that is down costs the turn nothing.

use opentelemetry::trace::{Span, TraceContextExt, Tracer, TracerProvider as _};
use opentelemetry::{Context, KeyValue};
use opentelemetry_otlp::{Protocol, SpanExporter, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{SdkTracer, SdkTracerProvider};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

struct Otel {
    provider: SdkTracerProvider,
    tracer: SdkTracer,
}

static OTEL: OnceLock<Otel> = OnceLock::new();

/// Starts exporting to `endpoint` (the collector's base URL; `/v1/traces` is
/// added). Call once at start-up; later calls are ignored.
pub fn init(endpoint: &str) -> Result<(), String> {
    let exporter = SpanExporter::builder()
        .with_http()
        .with_protocol(Protocol::HttpBinary)
        .with_endpoint(format!("{}/v1/traces", endpoint.trim_end_matches('/')))
        .with_timeout(Duration::from_secs(5))
        .build()
        .map_err(|e| e.to_string())?;
    let provider = SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(
            Resource::builder()
                .with_service_name("registry-chat")
                .with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")))
                .build(),
        )
        .build();
    let tracer = provider.tracer("registry-chat");
    let _ = OTEL.set(Otel { provider, tracer });
    Ok(())
}

/// One finished turn. `stages`: (name, start offset, duration) in ms from `start`.
pub struct TurnSpan<'a> {
    pub start: SystemTime,
    pub total_ms: f64,
    pub request_id: Option<&'a str>,
    pub category: &'a str,
    pub outcome: &'a str,
    pub source: &'a str,
    pub stages: &'a [(&'static str, f64, f64)],
}

pub fn turn(t: &TurnSpan) {
    let Some(o) = OTEL.get() else { return };
    let at = |ms: f64| t.start + Duration::from_secs_f64(ms.max(0.0) / 1000.0);
    let mut attributes = vec![
        KeyValue::new("turn.category", t.category.to_string()),
        KeyValue::new("turn.outcome", t.outcome.to_string()),
        KeyValue::new("turn.source", t.source.to_string()),
    ];
    if let Some(id) = t.request_id {
        attributes.push(KeyValue::new("http.request_id", id.to_string()));
    }
    let root = o
        .tracer
        .span_builder("turn")
        .with_start_time(t.start)
        .with_attributes(attributes)
        .start(&o.tracer);
    let cx = Context::current_with_span(root);
    for (name, offset, ms) in t.stages {
        let mut span = o
            .tracer
            .span_builder(format!("turn.{name}"))
            .with_start_time(at(*offset))
            .start_with_context(&o.tracer, &cx);
        span.end_with_timestamp(at(offset + ms));
    }
    cx.span().end_with_timestamp(at(t.total_ms));
}

/// Sends what is buffered (at shutdown, and in tests).
pub fn flush() {
    if let Some(o) = OTEL.get() {
        let _ = o.provider.force_flush();
    }
}
