//! The HTTP edge, over a real socket: health, the chat stream, errors as data,
//! server functions and static assets.

mod common;

use app::api::ChatEvent;
use common::{TestServer, ask, client};
use serde_json::{Value, json};

#[tokio::test]
async fn health_reports_version_database_index_and_llm() {
    let server = TestServer::start().await;
    let res = client().get(server.at("/health")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["status"], "ok");
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(body["database"]["ok"], true);
    assert!(body["database"]["schema_version"].as_u64().unwrap() >= 1);
    assert_eq!(body["index"]["state"], "empty");
    assert_eq!(body["llm"]["configured"], false);
    server.stop().await.unwrap();
}

#[tokio::test]
async fn health_names_the_llm_when_configured_without_leaking_the_key() {
    let server = TestServer::start_with(|c| {
        c.llm.base_url = Some("http://127.0.0.1:9/v1".into());
        c.llm.model = Some("tiny-model".into());
        c.llm.api_key = Some(registry_chat::config::Secret::new("sk-very-secret"));
    })
    .await;
    let text = client()
        .get(server.at("/health"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["llm"]["configured"], true);
    assert_eq!(body["llm"]["model"], "tiny-model");
    assert!(!text.contains("sk-very-secret"));
}

#[tokio::test]
async fn chat_streams_typed_events_ending_in_done() {
    let server = TestServer::start().await;
    let events = ask(&server.url, json!({"question": "pods keep restarting"})).await;
    for (name, ev) in &events {
        assert_eq!(name, ev.kind(), "SSE event name equals the JSON type");
    }
    let kinds: Vec<&str> = events.iter().map(|(_, e)| e.kind()).collect();
    assert_eq!(kinds.first(), Some(&"stage"));
    assert_eq!(kinds.last(), Some(&"done"));
    let tokens = events
        .iter()
        .filter(|(_, e)| matches!(e, ChatEvent::Token { .. }))
        .count();
    assert!(
        tokens > 3,
        "the answer arrives in several tokens, got {tokens}"
    );
    let text: String = events
        .iter()
        .filter_map(|(_, e)| match e {
            ChatEvent::Token { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    // No index yet: the honest answer, never a fake recommendation.
    assert!(text.contains("index is empty"), "{text}");
    assert!(text.contains("registry-chat index"));
}

#[tokio::test]
async fn bad_questions_get_json_errors_with_stable_codes() {
    let server = TestServer::start().await;
    let http = client();
    let cases = [
        (json!({"question": "   "}), 400, "question_empty"),
        (
            json!({"question": "x".repeat(5000)}),
            413,
            "question_too_long",
        ),
        (json!({"nope": 1}), 400, "bad_request"),
    ];
    for (body, status, code) in cases {
        let res = http
            .post(server.at("/api/chat"))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), status, "{body}");
        let err: Value = res.json().await.unwrap();
        assert_eq!(err["code"], code);
        assert!(err["message"].as_str().unwrap().len() > 5);
        assert_eq!(
            err.as_object().unwrap().len(),
            2,
            "only code and message: {err}"
        );
    }
    // Not JSON at all
    let res = http
        .post(server.at("/api/chat"))
        .header("content-type", "application/json")
        .body("{broken")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    assert_eq!(res.json::<Value>().await.unwrap()["code"], "bad_request");
}

#[tokio::test]
async fn oversized_bodies_are_refused_before_parsing() {
    let server = TestServer::start().await;
    let huge = json!({"question": "a".repeat(300 * 1024)});
    let res = client()
        .post(server.at("/api/chat"))
        .json(&huge)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 413);
    assert_eq!(
        res.json::<Value>().await.unwrap()["code"],
        "payload_too_large"
    );
}

#[tokio::test]
async fn server_functions_are_registered_under_api() {
    let server = TestServer::start().await;
    let res = client()
        .post(server.at("/api/health"))
        .header("content-type", "application/x-www-form-urlencoded")
        // As the browser sends it: a form post from the page itself.
        .header("origin", &server.url)
        .body("")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["database"]["ok"], true);
}

#[tokio::test]
async fn shutdown_ends_open_streams_with_an_error_event() {
    let server = TestServer::start().await;
    let url = server.url.clone();
    let reader = tokio::spawn(async move { ask(&url, json!({"question": "what is slow?"})).await });
    // Let the stream start, then stop the server while it is still writing.
    tokio::time::sleep(std::time::Duration::from_millis(60)).await;
    server.stop().await.unwrap();
    let events = reader.await.unwrap();
    match events.last() {
        Some((_, ChatEvent::Error { code, .. })) => assert_eq!(code, "shutting_down"),
        other => panic!("expected a shutting_down error last, got {other:?}"),
    }
}

#[tokio::test]
async fn assets_fall_back_to_index_for_app_routes_only() {
    let assets = tempfile::tempdir().unwrap();
    std::fs::write(
        assets.path().join("index.html"),
        "<!doctype html><title>Registry Chat</title>",
    )
    .unwrap();
    std::fs::write(
        assets.path().join("app-0123456789abcdef.js"),
        "console.log(1)",
    )
    .unwrap();
    let dir = assets.path().to_path_buf();
    let server = TestServer::start_with(move |c| c.server.assets_dir = Some(dir)).await;
    let http = client();

    let res = http.get(server.at("/")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["cache-control"], "no-cache");
    assert!(
        res.text()
            .await
            .unwrap()
            .contains("<title>Registry Chat</title>")
    );

    let res = http
        .get(server.at("/c/some-conversation"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "client-side routes get index.html");

    let res = http
        .get(server.at("/app-0123456789abcdef.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .contains("javascript")
    );
    assert!(
        res.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable")
    );

    assert_eq!(
        http.get(server.at("/missing.js"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    assert_eq!(
        http.get(server.at("/%2e%2e/secret.txt"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}
