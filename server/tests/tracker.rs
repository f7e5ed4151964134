//! Saved codebundle requests reach the issue tracker: a scripted GitHub-compatible
//! API (and a webhook) on 127.0.0.1 answer the real client, and the request is
//! kept in the registry whatever the tracker does.

mod common;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use common::{TestServer, client};
use registry_chat::config::Secret;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What the fake tracker saw: (method and path, authorization header, body).
type Seen = Arc<Mutex<Vec<(String, String, Value)>>>;

#[derive(Clone)]
struct Fake {
    seen: Seen,
    /// Titles of the open issues the search knows.
    open: Vec<&'static str>,
    broken: bool,
}

fn auth(h: &HeaderMap) -> String {
    h.get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

async fn search(
    State(f): State<Fake>,
    h: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> (StatusCode, axum::Json<Value>) {
    f.seen
        .lock()
        .unwrap()
        .push(("GET /search/issues".into(), auth(&h), json!(q.get("q"))));
    if f.broken {
        return (StatusCode::BAD_GATEWAY, axum::Json(json!({})));
    }
    let items: Vec<Value> = f
        .open
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"number": 12 + i, "title": t, "html_url": format!("https://github.test/acme/registry/issues/{}", 12 + i)}))
        .collect();
    (
        StatusCode::OK,
        axum::Json(json!({"total_count": items.len(), "items": items})),
    )
}

async fn create(
    State(f): State<Fake>,
    h: HeaderMap,
    Path((owner, repo)): Path<(String, String)>,
    axum::Json(body): axum::Json<Value>,
) -> (StatusCode, axum::Json<Value>) {
    f.seen
        .lock()
        .unwrap()
        .push((format!("POST /repos/{owner}/{repo}/issues"), auth(&h), body));
    if f.broken {
        return (StatusCode::BAD_GATEWAY, axum::Json(json!({})));
    }
    (
        StatusCode::CREATED,
        axum::Json(
            json!({"number": 40, "html_url": "https://github.test/acme/registry/issues/40"}),
        ),
    )
}

async fn comment(
    State(f): State<Fake>,
    h: HeaderMap,
    Path((owner, repo, n)): Path<(String, String, u64)>,
    axum::Json(body): axum::Json<Value>,
) -> (StatusCode, axum::Json<Value>) {
    f.seen.lock().unwrap().push((
        format!("POST /repos/{owner}/{repo}/issues/{n}/comments"),
        auth(&h),
        body,
    ));
    (
        StatusCode::CREATED,
        axum::Json(
            json!({"html_url": format!("https://github.test/acme/registry/issues/{n}#issuecomment-1")}),
        ),
    )
}

async fn hook(
    State(f): State<Fake>,
    h: HeaderMap,
    axum::Json(body): axum::Json<Value>,
) -> (StatusCode, axum::Json<Value>) {
    f.seen
        .lock()
        .unwrap()
        .push(("POST /hook".into(), auth(&h), body));
    if f.broken {
        return (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(json!({})));
    }
    (
        StatusCode::OK,
        axum::Json(json!({"url": "https://tickets.test/T-9"})),
    )
}

async fn fake(open: Vec<&'static str>, broken: bool) -> (String, Seen) {
    let seen: Seen = Default::default();
    let app = Router::new()
        .route("/search/issues", get(search))
        .route("/repos/{owner}/{repo}/issues", post(create))
        .route("/repos/{owner}/{repo}/issues/{n}/comments", post(comment))
        .route("/hook", post(hook))
        .with_state(Fake {
            seen: seen.clone(),
            open,
            broken,
        });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.ok() });
    (url, seen)
}

async fn github(api: &str) -> TestServer {
    github_on(api, None).await
}

/// With requests in Postgres when `database` is a URL.
async fn github_on(api: &str, database: Option<String>) -> TestServer {
    let api = api.to_string();
    TestServer::start_with(move |c| {
        c.requests.github_repo = Some("acme/registry".into());
        c.requests.github_token = Some(Secret::new("ghp_scripted"));
        c.requests.github_api_url = api;
        c.database.url = database.map(Secret::new);
    })
    .await
}

async fn call(server: &TestServer, name: &str, body: Value) -> (u16, Value) {
    let res = client()
        .post(server.at(&format!("/api/{name}")))
        .json(&body)
        .send()
        .await
        .unwrap();
    (
        res.status().as_u16(),
        res.json().await.unwrap_or(Value::Null),
    )
}

fn request(problem: &str) -> Value {
    json!({"input": {
        "problem": problem,
        "platform": "kafka",
        "healthy": "Lag stays under 1000 messages",
        "context": "Strimzi on EKS, ask @platform-team",
        "contact": "dana@example.com",
    }})
}

async fn issue_url(server: &TestServer, id: i64) -> Option<String> {
    let saved = server.state.requests.saved(id).await.unwrap();
    saved.request.issue_url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_opens_a_labelled_issue_when_no_open_issue_asks_the_same() {
    let (api, seen) = fake(vec!["Docs: fix a typo in the README"], false).await;
    let server = github(&api).await;
    let (status, saved) = call(
        &server,
        "create_request",
        request("Check consumer group lag on our Kafka brokers"),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["tracker"]["state"], "filed");
    assert_eq!(
        saved["tracker"]["url"],
        "https://github.test/acme/registry/issues/40"
    );
    assert_eq!(
        saved["request"]["issue_url"],
        "https://github.test/acme/registry/issues/40"
    );

    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2, "{seen:?}");
    let (what, authz, q) = &seen[0];
    assert_eq!(what, "GET /search/issues");
    assert_eq!(authz, "Bearer ghp_scripted");
    let q = q.as_str().unwrap();
    assert!(
        q.contains("repo:acme/registry is:issue is:open") && q.contains("kafka"),
        "{q}"
    );
    let (what, _, issue) = &seen[1];
    assert_eq!(what, "POST /repos/acme/registry/issues");
    assert_eq!(
        issue["title"],
        "CodeBundle request: Check consumer group lag on our Kafka brokers"
    );
    assert_eq!(issue["labels"], json!(["codebundle-request"]));
    let body = issue["body"].as_str().unwrap();
    for part in [
        "## Problem",
        "## What healthy looks like",
        "Lag stays under 1000",
        "platform: kafka",
    ] {
        assert!(body.contains(part), "{part} missing from {body}");
    }
    // The admin list shows the link.
    let listed = server
        .state
        .db
        .read(|c| Ok(registry_chat::requests::list(c, None)))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        listed[0].issue_url.as_deref(),
        Some("https://github.test/acme/registry/issues/40")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_likely_duplicate_is_offered_and_the_request_can_join_it() {
    duplicate_then_join(None).await;
}

/// The same claim, release and finish, with requests in Postgres.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_likely_duplicate_is_joined_the_same_way_on_postgres() {
    let Some(url) = common::pg::database().await else {
        return;
    };
    duplicate_then_join(Some(url)).await;
}

async fn duplicate_then_join(database: Option<String>) {
    let (api, seen) = fake(vec!["Kafka consumer group lag check for brokers"], false).await;
    let server = github_on(&api, database).await;
    let (_, saved) = call(
        &server,
        "create_request",
        request("Check consumer group lag on our Kafka brokers"),
    )
    .await;
    assert_eq!(saved["tracker"]["state"], "duplicate", "{saved}");
    assert_eq!(saved["tracker"]["number"], 12);
    assert_eq!(
        saved["tracker"]["title"],
        "Kafka consumer group lag check for brokers"
    );
    let id = saved["request"]["id"].as_i64().unwrap();
    assert_eq!(
        issue_url(&server, id).await,
        None,
        "nothing filed before the user chooses"
    );
    assert_eq!(seen.lock().unwrap().len(), 1, "only the search");

    let (status, joined) = call(
        &server,
        "file_request",
        json!({"id": id, "action": "comment"}),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["tracker"]["state"], "commented");
    assert_eq!(joined["tracker"]["number"], 12);
    let (what, _, body) = seen.lock().unwrap()[1].clone();
    assert_eq!(what, "POST /repos/acme/registry/issues/12/comments");
    assert!(
        body["body"]
            .as_str()
            .unwrap()
            .contains("Check consumer group lag")
    );
    assert_eq!(
        issue_url(&server, id).await.as_deref(),
        Some("https://github.test/acme/registry/issues/12#issuecomment-1")
    );
    // Filed once: asking again changes nothing in the tracker.
    let (_, again) = call(&server, "file_request", json!({"id": id, "action": "new"})).await;
    assert_eq!(again["tracker"]["state"], "filed");
    assert_eq!(seen.lock().unwrap().len(), 2);

    // The other choice: a new issue after all.
    let (_, second) = call(
        &server,
        "create_request",
        request("Kafka consumer group lag on brokers"),
    )
    .await;
    assert_eq!(second["tracker"]["state"], "duplicate");
    let id2 = second["request"]["id"].as_i64().unwrap();
    let (_, new) = call(&server, "file_request", json!({"id": id2, "action": "new"})).await;
    assert_eq!(new["tracker"]["state"], "filed");
    assert_eq!(
        seen.lock().unwrap().last().unwrap().0,
        "POST /repos/acme/registry/issues"
    );
    // Someone else (another browser) cannot file, or even see, this request.
    let stranger = common::client_as("rc_owner=ffffffffffffffffffffffffffffffff")
        .post(server.at("/api/file_request"))
        .json(&json!({"id": id2, "action": "comment"}))
        .send()
        .await
        .unwrap();
    assert_eq!(stranger.status(), 404);
    // Commenting is only possible on the issue the search offered.
    let (_, third) = call(
        &server,
        "create_request",
        request("Rotate Vault unseal keys"),
    )
    .await;
    assert_eq!(third["tracker"]["state"], "filed", "{third}");
    let (_, unknown) = call(
        &server,
        "file_request",
        json!({"id": 999, "action": "comment"}),
    )
    .await;
    assert_eq!(unknown["code"], "request_not_found");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_gets_the_request_as_json() {
    let (base, seen) = fake(vec![], false).await;
    let hook = format!("{base}/hook");
    let server =
        TestServer::start_with(move |c| c.requests.webhook_url = Some(Secret::new(hook))).await;
    let (_, saved) = call(
        &server,
        "create_request",
        request("Check consumer group lag on our Kafka brokers"),
    )
    .await;
    assert_eq!(
        saved["tracker"],
        json!({"state": "sent", "url": "https://tickets.test/T-9"})
    );
    let (what, _, payload) = seen.lock().unwrap()[0].clone();
    assert_eq!(what, "POST /hook");
    assert_eq!(payload["reference"], "REQ-0001");
    assert_eq!(payload["platform"], "kafka");
    assert!(payload["markdown"].as_str().unwrap().contains("## Problem"));
    // Filed once: no second post.
    let (_, again) = call(&server, "file_request", json!({"id": 1, "action": "new"})).await;
    assert_eq!(again["tracker"]["state"], "filed");
    assert_eq!(seen.lock().unwrap().len(), 1);

    // A webhook that answers 500 did not take it.
    let (base, _) = fake(vec![], true).await;
    let hook = format!("{base}/hook");
    let server =
        TestServer::start_with(move |c| c.requests.webhook_url = Some(Secret::new(hook))).await;
    let (_, saved) = call(
        &server,
        "create_request",
        request("Check consumer group lag"),
    )
    .await;
    assert_eq!(saved["tracker"]["state"], "failed", "{saved}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_tracker_loses_nothing_and_leaks_nothing() {
    let (api, _) = fake(vec![], true).await;
    let server = github(&api).await;
    let (status, saved) = call(
        &server,
        "create_request",
        request("Check consumer group lag on our Kafka brokers"),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(saved["tracker"]["state"], "failed");
    let message = saved["tracker"]["message"].as_str().unwrap();
    assert!(
        message.contains("HTTP 502") && message.contains("Saved here"),
        "{message}"
    );
    assert!(
        !message.contains("ghp_") && !message.contains("127.0.0.1"),
        "{message}"
    );
    assert_eq!(saved["request"]["reference"], "REQ-0001");

    // Without a tracker, today's behaviour: saved, no tracker outcome.
    let plain = TestServer::start().await;
    let (_, saved) = call(
        &plain,
        "create_request",
        request("Check consumer group lag"),
    )
    .await;
    assert_eq!(saved["tracker"], Value::Null);
    let (_, refused) = call(&plain, "file_request", json!({"id": 1, "action": "new"})).await;
    assert_eq!(refused["code"], "bad_request");
}
