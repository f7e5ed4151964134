//! The MCP endpoint with a real MCP client (the official Rust SDK's streamable HTTP
//! client over reqwest): list the tools, call each, check what comes back, offline
//! and with the scripted LLM.

mod common;

use common::TestServer;
use common::model::rule_model;
use common::scripted::Scripted;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult, ClientConfig};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};

type Client = RunningService<RoleClient, ClientConfig>;

async fn connect(server: &TestServer) -> Client {
    let transport = StreamableHttpClientTransport::from_uri(server.at("/mcp"));
    ClientConfig::default()
        .serve(transport)
        .await
        .expect("MCP handshake")
}

async fn call(client: &Client, tool: &str, args: Value) -> CallToolResult {
    let args = args.as_object().cloned().unwrap();
    client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .unwrap_or_else(|e| panic!("{tool} failed: {e}"))
}

fn text(r: &CallToolResult) -> String {
    r.content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn data(r: &CallToolResult) -> &Value {
    r.structured_content.as_ref().expect("structured content")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_client_lists_and_calls_every_tool() {
    let server = TestServer::start_indexed(|_| {}).await;
    let client = connect(&server).await;
    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().map(|s| s.name.as_str()),
        Some("registry-chat")
    );

    let mut names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| {
            assert!(
                t.description.as_deref().is_some_and(|d| d.len() > 40),
                "{} has a description",
                t.name
            );
            t.name.to_string()
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "ask",
            "find_codebundle",
            "find_documentation",
            "get_codebundle",
            "keyword_usage_help"
        ]
    );

    // find_codebundle: the right bundle first, with scores and matched tasks.
    let r = call(
        &client,
        "find_codebundle",
        json!({"query": "pods in payments keep restarting, where do I start?", "k": 3}),
    )
    .await;
    assert_eq!(r.is_error, Some(false));
    let results = data(&r)["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert_eq!(results[0]["id"], "kube-ops/k8s-pod-crashloop-triage");
    assert!(results[0]["score"].as_f64().unwrap() > 0.5);
    assert!(!results[0]["matched_tasks"].as_array().unwrap().is_empty());
    assert!(text(&r).contains("`kube-ops/k8s-pod-crashloop-triage`"));
    // ... with a platform filter, only that platform.
    let r = call(
        &client,
        "find_codebundle",
        json!({"query": "certificate expiry", "platform": "kubernetes"}),
    )
    .await;
    let results = data(&r)["results"].as_array().unwrap();
    assert!(!results.is_empty());
    assert!(
        results.iter().all(|b| b["platform"] == "kubernetes"),
        "{results:?}"
    );
    // ... and a gap is reported as one.
    let r = call(
        &client,
        "find_codebundle",
        json!({"query": "rebalance partitions across kafka brokers"}),
    )
    .await;
    assert_eq!(data(&r)["no_match"], true);
    assert!(text(&r).starts_with("No codebundle in the registry fits"));

    // find_documentation: sections with citable ids.
    let r = call(
        &client,
        "find_documentation",
        json!({"query": "how do I write a new codebundle and declare its user variables?", "k": 2}),
    )
    .await;
    let docs = data(&r)["docs"].as_array().unwrap();
    assert!(!docs.is_empty() && docs.len() <= 2);
    assert!(text(&r).contains(&format!("[doc:{}]", docs[0]["id"].as_str().unwrap())));

    // keyword_usage_help: the keyword, its import line, and a real call.
    let r = call(
        &client,
        "keyword_usage_help",
        json!({"query": "Summarize Pod Restarts"}),
    )
    .await;
    assert_eq!(data(&r)["keywords"][0]["name"], "Summarize Pod Restarts");
    let examples = data(&r)["examples"].as_array().unwrap();
    assert!(!examples.is_empty());
    assert!(
        examples[0]["call"]
            .as_str()
            .unwrap()
            .contains("RW.KubeTriage.Summarize Pod Restarts")
    );
    let md = text(&r);
    assert!(md.contains("Library    RW.KubeTriage"), "{md}");
    assert!(
        md.contains("codebundles/k8s-deployment-health/runbook.robot:"),
        "{md}"
    );

    // get_codebundle: details, and a clear miss.
    let r = call(
        &client,
        "get_codebundle",
        json!({"id": "kube-ops/k8s-pod-crashloop-triage"}),
    )
    .await;
    assert_eq!(data(&r)["id"], "kube-ops/k8s-pod-crashloop-triage");
    assert!(!data(&r)["tasks"].as_array().unwrap().is_empty());
    assert!(text(&r).contains("## Tasks"));
    let r = call(
        &client,
        "get_codebundle",
        json!({"id": "kube-ops/no-such-bundle"}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("No codebundle kube-ops/no-such-bundle"));

    // ask: a cited answer, then a follow-up in the same conversation.
    let r = call(
        &client,
        "ask",
        json!({"question": "pods in payments keep restarting, where do I start?"}),
    )
    .await;
    let a = data(&r);
    // Bundles, plus the library keywords under the hood: "mixed".
    assert!(
        ["codebundles", "mixed"].contains(&a["source"].as_str().unwrap()),
        "{a}"
    );
    assert_eq!(a["cards"][0]["key"], "kube-ops/k8s-pod-crashloop-triage");
    assert!(
        a["citations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == "bundle:kube-ops/k8s-pod-crashloop-triage")
    );
    assert!(text(&r).contains("Sources:"));
    let session = a["session_id"].as_str().unwrap().to_string();
    let r = call(
        &client,
        "ask",
        json!({"question": "does it need write access?", "session_id": session}),
    )
    .await;
    assert_eq!(data(&r)["session_id"], session.as_str());
    assert!(
        data(&r)["answer"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("access")
    );

    // Bad arguments are protocol errors the client sees.
    let err = client
        .call_tool(
            CallToolRequestParams::new("find_codebundle")
                .with_arguments(json!({"query": "  "}).as_object().cloned().unwrap()),
        )
        .await
        .unwrap_err();
    assert!(err.to_string().contains("empty"), "{err}");
    let err = client
        .call_tool(
            CallToolRequestParams::new("get_codebundle")
                .with_arguments(json!({"id": "no-slash"}).as_object().cloned().unwrap()),
        )
        .await
        .unwrap_err();
    assert!(err.to_string().contains("collection/slug"), "{err}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_ask_uses_the_configured_llm() {
    let llm = Scripted::start(vec![rule_model()]).await;
    let url = format!("{}/v1", llm.url);
    let server = TestServer::start_indexed(|c| {
        c.llm.base_url = Some(url);
        c.llm.model = Some("rule-model".into());
        c.llm.api_key = Some(registry_chat::config::Secret::new("sk-test"));
    })
    .await;
    let client = connect(&server).await;
    let r = call(
        &client,
        "ask",
        json!({"question": "pods in payments keep restarting, where do I start?"}),
    )
    .await;
    let a = data(&r);
    assert!(
        a["cards"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["key"] == "kube-ops/k8s-pod-crashloop-triage"),
        "{a}"
    );
    assert!(!a["citations"].as_array().unwrap().is_empty());
    assert!(!llm.requests().is_empty(), "the LLM was called");
    let turn = a["turn_id"].as_str().unwrap().to_string();
    let model: String = server
        .state
        .db
        .read(move |c| {
            Ok(
                c.query_row("SELECT model FROM turns WHERE id = ?1", [&turn], |r| {
                    r.get(0)
                })?,
            )
        })
        .await
        .unwrap();
    assert_eq!(model, "rule-model");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_refuses_foreign_host_headers() {
    let server = TestServer::start_indexed(|_| {}).await;
    let res = common::client()
        .post(server.at("/mcp"))
        .header("host", "evil.example")
        .header("accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    server.stop().await.unwrap();

    let open =
        TestServer::start_indexed(|c| c.server.allowed_hosts = "chat.example.com".into()).await;
    let res = common::client()
        .post(open.at("/mcp"))
        .header("host", "chat.example.com")
        .header("accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "curl", "version": "1"}}}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    // Ending the session answers 200, as MCP clients expect (not 202).
    let session = res.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_string();
    let res = common::client()
        .delete(open.at("/mcp"))
        .header("host", "chat.example.com")
        .header("mcp-session-id", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
}
