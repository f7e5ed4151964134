//! OpenTelemetry export, opt-in: a turn reaches a fake OTLP/HTTP collector on
//! 127.0.0.1 as a `turn` span with one child per stage, decoded with the real
//! OTLP protobuf types. (Its own test binary: the exporter is process-global.)

mod common;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::routing::post;
use common::{TestServer, client};
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use prost::Message;
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::Duration;

type Received = Arc<Mutex<Vec<ExportTraceServiceRequest>>>;

async fn collect(State(got): State<Received>, body: Bytes) -> &'static str {
    got.lock()
        .unwrap()
        .push(ExportTraceServiceRequest::decode(body).expect("OTLP protobuf"));
    ""
}

fn attr(attrs: &[opentelemetry_proto::tonic::common::v1::KeyValue], key: &str) -> Option<String> {
    attrs
        .iter()
        .find(|a| a.key == key)
        .and_then(|a| match &a.value.as_ref()?.value {
            Some(AnyValue::StringValue(s)) => Some(s.clone()),
            _ => None,
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_turn_is_a_span_with_one_child_per_stage() {
    let got: Received = Default::default();
    let app = Router::new()
        .route("/v1/traces", post(collect))
        .with_state(got.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.ok() });
    registry_chat::otel::init(&endpoint).unwrap();

    let server = TestServer::start_indexed(|_| {}).await;
    let body = client()
        .post(server.at("/api/chat"))
        .header("x-request-id", "otel-turn-1")
        .json(&json!({"question": "pods in payments keep restarting, where do I start?"}))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(body.contains("event: done"), "{body}");

    tokio::task::spawn_blocking(registry_chat::otel::flush)
        .await
        .unwrap();
    let mut spans = Vec::new();
    for _ in 0..50 {
        spans = got
            .lock()
            .unwrap()
            .iter()
            .flat_map(|r| r.resource_spans.iter())
            .flat_map(|rs| {
                let service = rs
                    .resource
                    .as_ref()
                    .and_then(|r| attr(&r.attributes, "service.name"));
                assert_eq!(service.as_deref(), Some("registry-chat"));
                rs.scope_spans.iter().flat_map(|s| s.spans.clone())
            })
            .collect::<Vec<_>>();
        if !spans.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let root = spans
        .iter()
        .find(|s| s.name == "turn")
        .unwrap_or_else(|| panic!("no turn span in {spans:?}"));
    assert_eq!(
        attr(&root.attributes, "http.request_id").as_deref(),
        Some("otel-turn-1")
    );
    assert_eq!(
        attr(&root.attributes, "turn.category").as_deref(),
        Some("general")
    );
    assert_eq!(
        attr(&root.attributes, "turn.outcome").as_deref(),
        Some("ok")
    );
    let children: Vec<&str> = spans
        .iter()
        .filter(|s| s.parent_span_id == root.span_id && s.trace_id == root.trace_id)
        .map(|s| s.name.as_str())
        .collect();
    for stage in ["turn.classify", "turn.retrieve", "turn.write"] {
        assert!(
            children.contains(&stage),
            "{stage} missing from {children:?}"
        );
    }
    for s in spans.iter().filter(|s| s.parent_span_id == root.span_id) {
        assert!(
            s.start_time_unix_nano >= root.start_time_unix_nano
                && s.end_time_unix_nano <= root.end_time_unix_nano + 1_000_000,
            "{} lies inside the turn",
            s.name
        );
    }
}
