//! The catalog through the server functions the UI calls, over a real socket.

mod common;

use common::{TestServer, client};
use registry_chat::ingest::{self, IndexOptions};
use serde_json::{Value, json};

async fn indexed_server() -> TestServer {
    let server = TestServer::start().await;
    let db = server.state.db.clone();
    let data = server.dir.path().to_path_buf();
    tokio::task::spawn_blocking(move || {
        let req = ingest::sample_request(&data).unwrap();
        ingest::run(&db, &data, &req, &IndexOptions::default()).unwrap();
    })
    .await
    .unwrap();
    server
}

async fn post(server: &TestServer, path: &str, body: Value) -> (u16, Value) {
    let res = client()
        .post(server.at(path))
        .json(&body)
        .send()
        .await
        .unwrap();
    (res.status().as_u16(), res.json().await.unwrap())
}

#[tokio::test]
async fn collections_bundles_and_one_bundle() {
    let server = indexed_server().await;
    let res = client()
        .post(server.at("/api/collections"))
        .header("content-type", "application/x-www-form-urlencoded")
        // As the browser sends it: a form post from the page itself.
        .header("origin", &server.url)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let cols: Value = res.json().await.unwrap();
    assert_eq!(cols.as_array().unwrap().len(), 3);

    let (status, aws) = post(
        &server,
        "/api/bundles",
        json!({"filter": {"platform": "aws"}}),
    )
    .await;
    assert_eq!(status, 200);
    let aws = aws.as_array().unwrap();
    assert!(!aws.is_empty() && aws.iter().all(|b| b["platform"] == "aws"));

    let (_, rw) = post(
        &server,
        "/api/bundles",
        json!({"filter": {"access": "read-write"}}),
    )
    .await;
    let keys: Vec<String> = rw
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            format!(
                "{}/{}",
                b["collection"].as_str().unwrap(),
                b["slug"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        keys,
        vec![
            "kube-ops/k8s-chaos-pod-killer",
            "kube-ops/k8s-workload-ops",
            "platform-ops/chat-notify-sender"
        ]
    );

    let (_, text) = post(
        &server,
        "/api/bundles",
        json!({"filter": {"text": "crashloop"}}),
    )
    .await;
    assert!(
        text.as_array()
            .unwrap()
            .iter()
            .any(|b| b["slug"] == "k8s-pod-crashloop-triage")
    );

    let (status, d) = post(
        &server,
        "/api/bundle",
        json!({"collection": "kube-ops", "slug": "k8s-pod-crashloop-triage"}),
    )
    .await;
    assert_eq!(status, 200);
    assert!(d["summary"]["tasks"].as_array().unwrap().len() >= 3);
    assert!(
        d["variables"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["name"] == "NAMESPACE")
    );
    assert!(d["readme"].as_str().unwrap().contains('#'));
    assert!(
        d["files"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["path"].as_str().unwrap().ends_with("runbook.robot"))
    );

    let (status, err) = post(
        &server,
        "/api/bundle",
        json!({"collection": "kube-ops", "slug": "nope"}),
    )
    .await;
    assert_eq!(status, 404);
    assert_eq!(err["code"], "bundle_not_found");

    let (status, err) = post(&server, "/api/bundle", json!({"collection": 5})).await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["code"], "bad_request");

    let health: Value = client()
        .get(server.at("/health"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(health["index"]["state"], "ready");
    assert_eq!(health["index"]["bundles"], 54);
    assert_eq!(health["index"]["collections"], 3);
    let sources = health["index"]["sources"].as_array().unwrap();
    assert_eq!(sources.len(), 3);
    assert!(
        sources
            .iter()
            .all(|s| s["bundles"].as_u64().unwrap() > 0 && s["indexed_at"].is_string())
    );
}
