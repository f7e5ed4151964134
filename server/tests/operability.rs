//! What an SRE's tools see: `/metrics` read by a real Prometheus text parser,
//! request ids on every response and in the turn's trace, readiness, and unknown API
//! paths answered in the error table's shape.

mod common;

use common::{TestServer, ask, client};
use prometheus_parse::{Sample, Scrape, Value};
use serde_json::json;

async fn scrape(server: &TestServer) -> Scrape {
    let res = client().get(server.at("/metrics")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let ct = res.headers()["content-type"].to_str().unwrap().to_string();
    assert!(ct.starts_with("text/plain; version=0.0.4"), "{ct}");
    let body = res.text().await.unwrap();
    Scrape::parse(body.lines().map(|l| Ok(l.to_string()))).expect("valid text format")
}

/// The sum of a metric's samples whose labels include `want`.
fn total(s: &Scrape, metric: &str, want: &[(&str, &str)]) -> f64 {
    s.samples
        .iter()
        .filter(|x: &&Sample| x.metric == metric)
        .filter(|x| want.iter().all(|(k, v)| x.labels.get(k) == Some(*v)))
        .map(|x| match &x.value {
            Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v) => *v,
            Value::Histogram(h) => h.last().map_or(0.0, |b| b.count),
            Value::Summary(_) => 0.0,
        })
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_turns_stages_requests_and_the_index() {
    let server = TestServer::start_indexed(|_| {}).await;
    let before = scrape(&server).await;
    let ev = ask(
        &server.url,
        json!({"question": "pods keep restarting in my namespace"}),
    )
    .await;
    assert!(!ev.is_empty());
    let after = scrape(&server).await;
    // Metrics are per process and tests run side by side: at least this turn.
    // Metrics are per process and tests run side by side: at least this turn.
    let delta = |metric: &str, want: &[(&str, &str)]| {
        total(&after, metric, want) - total(&before, metric, want)
    };
    let general_ok = [("category", "general"), ("outcome", "ok")];
    assert!(delta("registry_chat_turns_total", &general_ok) >= 1.0);
    for stage in ["classify", "retrieve", "write", "total", "first_token"] {
        let seen = delta("registry_chat_turn_stage_seconds", &[("stage", stage)]);
        assert!(seen >= 1.0, "{stage}");
    }
    let chat = [
        ("route", "/api/chat"),
        ("method", "POST"),
        ("status", "200"),
    ];
    assert!(delta("registry_chat_http_requests_total", &chat) >= 1.0);
    assert!(delta("registry_chat_embed_seconds", &[("purpose", "query")]) >= 1.0);
    assert!(delta("registry_chat_embed_texts_total", &[("purpose", "query")]) >= 1.0);
    // Index figures per collection, as the catalog has them.
    assert_eq!(
        total(&after, "registry_chat_index_bundles", &[]),
        54.0,
        "the sample registry"
    );
    assert!(
        total(
            &after,
            "registry_chat_index_last_change_timestamp_seconds",
            &[]
        ) > 1.7e9
    );
    assert!(total(&after, "registry_chat_streams_active", &[]) >= 0.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_ids_come_back_and_reach_the_trace() {
    let server = TestServer::start_indexed(|_| {}).await;
    let res = client()
        .get(server.at("/health"))
        .header("x-request-id", "probe-42")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-request-id"], "probe-42");
    // Without one, or with one that is not a sane token, an id is generated.
    for sent in [None, Some("has spaces"), Some(&*"x".repeat(300))] {
        let mut r = client().get(server.at("/ready"));
        if let Some(v) = sent {
            r = r.header("x-request-id", v);
        }
        let res = r.send().await.unwrap();
        let id = res.headers()["x-request-id"].to_str().unwrap().to_string();
        assert_eq!(id.len(), 32, "{id}");
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
    }
    // Refused requests carry one too.
    let res = client()
        .post(server.at("/api/chat"))
        .header("content-type", "text/plain")
        .body("x")
        .send()
        .await
        .unwrap();
    assert!(res.status().is_client_error());
    assert!(res.headers().contains_key("x-request-id"));
    // The turn's trace records the request that asked.
    let res = client()
        .post(server.at("/api/chat"))
        .header("x-request-id", "turn-7f3a")
        .json(&json!({"question": "certificate expires soon"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-request-id"], "turn-7f3a");
    let _ = res.text().await.unwrap();
    let traced: String = server
        .state
        .db
        .read(|c| {
            Ok(c.query_row(
                "SELECT json_extract(trace, '$.request_id') FROM turns ORDER BY rowid DESC LIMIT 1",
                [],
                |r| r.get(0),
            )?)
        })
        .await
        .unwrap();
    assert_eq!(traced, "turn-7f3a");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_and_unknown_api_paths() {
    let server = TestServer::start_indexed(|_| {}).await;
    let res = client().get(server.at("/ready")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["ready"], true);
    assert_eq!(body["bundles"], 54);
    for path in ["/api/no_such_function", "/api/sessions/x/nothing"] {
        let res = client().get(server.at(path)).send().await.unwrap();
        assert_eq!(res.status(), 404, "{path}");
        let body: serde_json::Value = res.json().await.unwrap();
        assert_eq!(body["code"], "not_found");
    }
    // An empty index is not ready: a replica still on its first index run gets no
    // traffic.
    let empty = TestServer::start().await;
    let res = client().get(empty.at("/ready")).send().await.unwrap();
    assert_eq!(res.status(), 503);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(
        (body["ready"].clone(), body["database"].clone()),
        (json!(false), json!(true))
    );
    // Nor is a server shutting down.
    let state = server.state.clone();
    state.shutdown.cancel();
    let ready = registry_chat::web::readiness(&state).await;
    assert!(!ready.ready && ready.shutting_down);
}
