//! Conversations, feedback, codebundle requests and exports over real HTTP: the
//! server functions the UI calls and the download endpoints.

mod common;

use app::api::ChatEvent;
use common::{TestServer, ask, client};
use serde_json::{Value, json};

async fn call(server: &TestServer, name: &str, body: Value) -> (u16, Value) {
    let res = client()
        .post(server.at(&format!("/api/{name}")))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn done(events: &[(String, ChatEvent)]) -> (String, String) {
    events
        .iter()
        .find_map(|(_, e)| match e {
            ChatEvent::Done {
                turn_id: Some(t),
                session_id: Some(s),
                ..
            } => Some((t.clone(), s.clone())),
            _ => None,
        })
        .expect("done with ids")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conversation_is_listed_reloaded_renamed_rated_exported_and_deleted() {
    lifecycle(TestServer::start_indexed(|_| {}).await).await;
}

/// The same, with conversations in Postgres (`database.url`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conversation_lives_the_same_life_on_postgres() {
    let Some(url) = common::pg::database().await else {
        return;
    };
    let server = TestServer::start_indexed(|c| {
        c.database.url = Some(registry_chat::config::Secret::new(url));
    })
    .await;
    assert_eq!(server.state.conversations.backend(), "postgres");
    lifecycle(server).await;
}

async fn lifecycle(server: TestServer) {
    let first = ask(
        &server.url,
        json!({"question": "pods in payments keep restarting, where do I start?"}),
    )
    .await;
    let (turn, session) = done(&first);
    let second = ask(
        &server.url,
        json!({"question": "kafka consumer lag on our brokers", "session_id": session}),
    )
    .await;
    let (_, same) = done(&second);
    assert_eq!(same, session);

    let (status, list) = call(&server, "sessions", json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(list[0]["id"], session.as_str());
    assert_eq!(
        list[0]["title"],
        "pods in payments keep restarting, where do I start?"
    );
    assert_eq!(list[0]["turns"], 2);

    // Reload: cards, citations, source tags, next questions and the no-match request
    // draft return.
    let (status, conv) = call(&server, "conversation", json!({"id": session})).await;
    assert_eq!(status, 200);
    let turns = conv["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 2);
    assert_eq!(
        turns[0]["cards"][0]["key"],
        "kube-ops/k8s-pod-crashloop-triage"
    );
    assert!(
        turns[0]["suggestions"]
            .as_array()
            .is_some_and(|s| s.len() >= 2),
        "the next questions come back: {}",
        turns[0]
    );
    assert!(
        turns[0]["citations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == "bundle:kube-ops/k8s-pod-crashloop-triage")
    );
    assert_eq!(turns[1]["no_match"], true);
    assert_eq!(
        turns[1]["request"]["problem"],
        "kafka consumer lag on our brokers"
    );
    assert_eq!(turns[1]["request"]["platform"], "kafka");

    let (status, _) = call(
        &server,
        "rename_session",
        json!({"id": session, "title": "  Crashloops   in payments "}),
    )
    .await;
    assert_eq!(status, 200);
    let (_, list) = call(&server, "sessions", json!({})).await;
    assert_eq!(list[0]["title"], "Crashloops in payments");
    let (status, err) = call(
        &server,
        "rename_session",
        json!({"id": session, "title": "   "}),
    )
    .await;
    assert_eq!((status, err["code"].as_str()), (400, Some("bad_request")));
    let (status, err) = call(
        &server,
        "rename_session",
        json!({"id": "nope", "title": "x"}),
    )
    .await;
    assert_eq!(
        (status, err["code"].as_str()),
        (404, Some("session_not_found"))
    );

    // Feedback is saved with the turn; bad values and unknown turns are refused.
    let (status, _) = call(
        &server,
        "feedback",
        json!({"feedback": {"turn_id": turn, "value": -1, "note": "wanted OOM details"}}),
    )
    .await;
    assert_eq!(status, 200);
    let (_, conv) = call(&server, "conversation", json!({"id": session})).await;
    assert_eq!(conv["turns"][0]["feedback"], -1);
    assert_eq!(conv["turns"][0]["feedback_note"], "wanted OOM details");
    let (status, _) = call(
        &server,
        "feedback",
        json!({"feedback": {"turn_id": turn, "value": 5}}),
    )
    .await;
    assert_eq!(status, 400);
    let (status, err) = call(
        &server,
        "feedback",
        json!({"feedback": {"turn_id": "missing", "value": 1}}),
    )
    .await;
    assert_eq!(
        (status, err["code"].as_str()),
        (404, Some("turn_not_found"))
    );

    // The markdown report downloads with a name from the title.
    let res = client()
        .get(server.at(&format!("/api/sessions/{session}/export?format=md")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/markdown")
    );
    assert_eq!(
        res.headers()["content-disposition"],
        "attachment; filename=\"registry-chat-crashloops-in-payments.md\""
    );
    let md = res.text().await.unwrap();
    assert!(md.contains("# Crashloops in payments"));
    assert!(md.contains("kube-ops/k8s-pod-crashloop-triage"));
    assert!(md.contains("Feedback: 👎 — wanted OOM details"));
    assert!(md.contains("**Suggested next questions**\n\n- "), "{md}");
    let res = client()
        .get(server.at(&format!("/api/sessions/{session}/export?format=json")))
        .send()
        .await
        .unwrap();
    let v: Value = res.json().await.unwrap();
    assert_eq!(v["turns"].as_array().unwrap().len(), 2);
    let res = client()
        .get(server.at("/api/sessions/nope/export"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    let res = client()
        .get(server.at(&format!("/api/sessions/{session}/export?format=pdf")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);

    let (status, _) = call(&server, "delete_session", json!({"id": session})).await;
    assert_eq!(status, 200);
    let (status, _) = call(&server, "conversation", json!({"id": session})).await;
    assert_eq!(status, 404);
    let (_, list) = call(&server, "sessions", json!({})).await;
    assert_eq!(list.as_array().unwrap().len(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codebundle_requests_are_validated_stored_found_and_exported() {
    requests(TestServer::start_indexed(|_| {}).await).await;
}

/// The same, with requests in Postgres (found again by `tsvector`, not FTS5).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codebundle_requests_live_the_same_life_on_postgres() {
    let Some(url) = common::pg::database().await else {
        return;
    };
    requests(
        TestServer::start_indexed(|c| {
            c.database.url = Some(registry_chat::config::Secret::new(url));
        })
        .await,
    )
    .await;
}

async fn requests(server: TestServer) {
    let (status, err) = call(
        &server,
        "create_request",
        json!({"input": {"problem": "  ", "healthy": ""}}),
    )
    .await;
    assert_eq!((status, err["code"].as_str()), (400, Some("bad_request")));
    assert_eq!(err["message"], "The problem is required.");
    let long = "x".repeat(5000);
    let (status, _) = call(
        &server,
        "create_request",
        json!({"input": {"problem": long, "healthy": ""}}),
    )
    .await;
    assert_eq!(status, 400);

    let (status, saved) = call(
        &server,
        "create_request",
        json!({"input": {
            "problem": "Check consumer group lag on our Kafka brokers",
            "platform": "kafka",
            "healthy": "Lag stays under 1000 messages",
            "context": "Strimzi on EKS",
            "contact": "team-streams",
            "session_id": "not-a-session",
            "closest": ["platform-ops/nats-server-health"]
        }}),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["request"]["reference"], "REQ-0001");
    assert_eq!(saved["request"]["status"], "open");
    let md = saved["markdown"].as_str().unwrap();
    assert!(md.starts_with("# CodeBundle request REQ-0001: Check consumer group lag"));
    assert!(md.contains("## What healthy looks like\n\nLag stays under 1000 messages"));
    assert!(md.contains("NATS Server Health (`platform-ops/nats-server-health`)"));
    assert!(md.contains("Contact: team-streams"));

    // Similar requests: FTS over the problem, with FTS syntax in the words harmless.
    let (_, similar) = call(
        &server,
        "similar_requests",
        json!({"problem": "kafka lag \"OR* NEAR("}),
    )
    .await;
    assert_eq!(similar[0]["reference"], "REQ-0001");
    let (_, none) = call(
        &server,
        "similar_requests",
        json!({"problem": "postgres vacuum"}),
    )
    .await;
    assert_eq!(none.as_array().unwrap().len(), 0);

    // The markdown export carries contact details: admin only (tests/admin.rs).
    let res = client()
        .get(server.at("/api/requests/1/export"))
        .send()
        .await
        .unwrap();
    assert_ne!(res.status(), 200);
    assert!(!res.text().await.unwrap().contains("team-streams"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn example_questions_come_from_the_catalog() {
    let server = TestServer::start_indexed(|_| {}).await;
    let (status, list) = call(&server, "examples", json!({})).await;
    assert_eq!(status, 200);
    let list: Vec<String> = serde_json::from_value(list).unwrap();
    assert_eq!(list.len(), 4);
    assert!(list.iter().all(|q| q.ends_with('?')));
    // Each example finds a confident answer.
    for q in &list {
        let events = ask(&server.url, json!({"question": q})).await;
        let no_match = events
            .iter()
            .any(|(_, e)| matches!(e, ChatEvent::Done { no_match: true, .. }));
        assert!(!no_match, "example {q:?} has no answer");
    }
}
