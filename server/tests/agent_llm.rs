//! The agent with an LLM: a scripted OpenAI-compatible server on 127.0.0.1 drives
//! the real client (reqwest, real SSE). Every scenario ends in a correct answer, the
//! offline fallback, or a clear error, and the turn is saved.

mod common;

use app::api::ChatEvent;
use common::scripted::{Reply, Scripted, endless_stream, sse};
use common::{TestServer, answer_text, ask};
use serde_json::{Value, json};
use std::time::Duration;

async fn server_with(
    llm: &Scripted,
    tweak: impl FnOnce(&mut registry_chat::config::LlmConfig),
) -> TestServer {
    let url = format!("{}/v1", llm.url);
    TestServer::start_indexed(move |c| {
        c.llm.base_url = Some(url);
        c.llm.model = Some("scripted-model".into());
        c.llm.api_key = Some(registry_chat::config::Secret::new("sk-test"));
        c.llm.first_token_timeout_secs = 3;
        c.llm.total_timeout_secs = 8;
        c.llm.max_retries = 2;
        tweak(&mut c.llm);
    })
    .await
}

fn tokens(events: &[(String, ChatEvent)]) -> usize {
    events
        .iter()
        .filter(|(_, e)| matches!(e, ChatEvent::Token { .. }))
        .count()
}

/// The answer's cards: the last `cards` event (a preview's come first and are
/// replaced).
fn card_keys(events: &[(String, ChatEvent)]) -> Vec<String> {
    events
        .iter()
        .rev()
        .find_map(|(_, e)| match e {
            ChatEvent::Cards { cards } => {
                Some(cards.iter().map(|c| c.key.clone()).collect::<Vec<_>>())
            }
            _ => None,
        })
        .unwrap_or_default()
}

fn stage_names(events: &[(String, ChatEvent)]) -> Vec<String> {
    events
        .iter()
        .filter_map(|(_, e)| match e {
            ChatEvent::Stage { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect()
}

async fn saved_turn(server: &TestServer) -> (String, String, i64, i64, Value) {
    let db = server.state.db.clone();
    db.read(|c| {
        Ok(c.query_row("SELECT status, model, tokens_in, tokens_out, trace FROM turns ORDER BY created_at DESC LIMIT 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, serde_json::from_str(&r.get::<_, String>(4)?).unwrap()))
        })?)
    })
    .await
    .unwrap()
}

const QUESTION: &str = "pods in payments keep restarting, where do I start?";

/// A model server behind a private CA (HTTPS with a certificate no bundled or
/// system root knows) is refused until `llm.ca_file` names its CA; then it answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_server_behind_a_private_ca_is_trusted_with_its_ca_file() {
    let cert = rcgen::generate_simple_self_signed(vec!["127.0.0.1".into()]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let ca = dir.path().join("company-ca.pem");
    std::fs::write(&ca, cert.cert.pem()).unwrap();
    let script = || {
        vec![
            sse::classify("general"),
            sse::reply(&[
                "Through TLS: **Kubernetes Pod Crashloop Triage** [bundle:kube-ops/k8s-pod-crashloop-triage].",
            ]),
        ]
    };

    let llm = Scripted::start_tls(script(), &cert).await;
    let server = server_with(&llm, |_| {}).await;
    let ev = ask(&server.url, json!({"question": QUESTION})).await;
    assert!(
        llm.requests().is_empty(),
        "no request gets through an untrusted TLS handshake"
    );
    assert!(!answer_text(&ev).contains("Through TLS"));
    assert!(
        answer_text(&ev).contains("Kubernetes Pod Crashloop Triage"),
        "the offline answer"
    );

    let llm = Scripted::start_tls(script(), &cert).await;
    let trusted = ca.clone();
    let server = server_with(&llm, move |c| c.ca_file = Some(trusted)).await;
    let ev = ask(&server.url, json!({"question": QUESTION})).await;
    assert!(
        answer_text(&ev).contains("Through TLS"),
        "{}",
        answer_text(&ev)
    );
    assert_eq!(llm.requests().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamed_deltas_become_tokens_with_validated_citations() {
    let llm = Scripted::start(vec![
        sse::classify("general"),
        sse::reply(&[
            "Start with **Kubernetes Pod Crashloop Triage** ",
            "[bundle:kube-ops/k8s-pod-crashloop-triage]",
            ": run its crash-loop task first. ",
            "Ignore [bundle:kube-ops/made-up-bundle].",
        ]),
    ])
    .await;
    let server = server_with(&llm, |_| {}).await;
    let ev = ask(&server.url, json!({"question": QUESTION})).await;
    assert!(tokens(&ev) >= 4, "the answer streams in pieces");
    assert_eq!(
        card_keys(&ev),
        vec!["kube-ops/k8s-pod-crashloop-triage"],
        "only valid, cited bundles get cards"
    );
    // The last citations event is the answer's (the preview's came first).
    let cits: Vec<String> = ev
        .iter()
        .rev()
        .find_map(|(_, e)| match e {
            ChatEvent::Citations { citations } => {
                Some(citations.iter().map(|c| c.id.clone()).collect::<Vec<_>>())
            }
            _ => None,
        })
        .unwrap_or_default();
    assert_eq!(cits, vec!["bundle:kube-ops/k8s-pod-crashloop-triage"]);
    let (status, model, tin, tout, trace) = saved_turn(&server).await;
    assert_eq!(
        (status.as_str(), model.as_str()),
        ("complete", "scripted-model")
    );
    assert!(tin >= 120 && tout >= 40, "usage recorded");
    assert_eq!(
        trace["citations_dropped"],
        json!(["bundle:kube-ops/made-up-bundle"])
    );
    let saved: String = server
        .state
        .db
        .read(|c| Ok(c.query_row("SELECT answer FROM turns", [], |r| r.get(0))?))
        .await
        .unwrap();
    assert!(
        !saved.contains("made-up-bundle"),
        "unknown citations are dropped from the saved answer"
    );

    let reqs = llm.requests();
    assert_eq!(reqs.len(), 2, "classify, then answer");
    assert_eq!(reqs[0].body["response_format"]["type"], "json_object");
    assert_eq!(reqs[1].body["stream"], true);
    assert_eq!(reqs[1].headers["authorization"], "Bearer sk-test");
    let context = reqs[1].body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap_or(""))
        .collect::<String>();
    assert!(
        context.contains("kube-ops/k8s-pod-crashloop-triage") && context.contains("tasks"),
        "retrieved bundles with details reach the model"
    );
    assert!(reqs[1].body["tools"].as_array().unwrap().len() >= 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_calls_split_across_chunks_are_assembled_and_run() {
    let ms = Duration::from_millis(5);
    let call_chunk = |v: Value| {
        (
            ms,
            sse::data(
                json!({"choices": [{"index": 0, "delta": {"tool_calls": [v]}, "finish_reason": null}]}),
            ),
        )
    };
    let llm = Scripted::start(vec![
        sse::classify("general"),
        Reply::Stream(vec![
            call_chunk(json!({"index": 0, "id": "call_1", "type": "function", "function": {"name": "get_codebundle", "arguments": ""}})),
            call_chunk(json!({"index": 0, "function": {"arguments": "{\"id\": \"kube-ops/k8s-pod-"}})),
            call_chunk(json!({"index": 0, "function": {"arguments": "crashloop-triage\"}"}})),
            call_chunk(json!({"index": 1, "id": "call_2", "function": {"name": "read_file", "arguments": "{\"id\":\"kube-ops/k8s-pod-crashloop-triage\",\"path\":\"../../../etc/passwd\"}"}})),
            (ms, sse::finish("tool_calls")),
            (ms, sse::done()),
        ]),
        sse::reply(&["Its first task is the one to run [bundle:kube-ops/k8s-pod-crashloop-triage]."]),
    ])
    .await;
    let server = server_with(&llm, |_| {}).await;
    let ev = ask(&server.url, json!({"question": QUESTION})).await;
    assert!(stage_names(&ev).contains(&"tools".to_string()));
    assert_eq!(card_keys(&ev), vec!["kube-ops/k8s-pod-crashloop-triage"]);
    let reqs = llm.requests();
    assert_eq!(reqs.len(), 3);
    let msgs = reqs[2].body["messages"].as_array().unwrap();
    let tool_msgs: Vec<&Value> = msgs.iter().filter(|m| m["role"] == "tool").collect();
    assert_eq!(tool_msgs.len(), 2);
    assert_eq!(tool_msgs[0]["tool_call_id"], "call_1");
    assert!(
        tool_msgs[0]["content"]
            .as_str()
            .unwrap()
            .contains("List Containers Stuck in CrashLoopBackOff")
    );
    assert!(
        tool_msgs[1]["content"]
            .as_str()
            .unwrap()
            .contains("not a path inside the bundle"),
        "path-checked"
    );
    let assistant = msgs
        .iter()
        .find(|m| m["role"] == "assistant" && m["tool_calls"].is_array())
        .unwrap();
    assert_eq!(
        assistant["tool_calls"][0]["function"]["arguments"],
        "{\"id\": \"kube-ops/k8s-pod-crashloop-triage\"}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limits_are_retried_and_response_format_is_dropped_when_refused() {
    let llm = Scripted::start(vec![
        Reply::Json {
            status: 400,
            body: json!({"error": {"message": "response_format is not supported by this model"}}),
            headers: vec![],
        },
        sse::classify("general"),
        Reply::Json {
            status: 429,
            body: json!({"error": {"message": "slow down"}}),
            headers: vec![("retry-after".into(), "0".into())],
        },
        Reply::Json {
            status: 503,
            body: json!({"error": "overloaded"}),
            headers: vec![],
        },
        sse::reply(&["Use [bundle:kube-ops/k8s-pod-crashloop-triage]."]),
    ])
    .await;
    let server = server_with(&llm, |_| {}).await;
    let metrics = &registry_chat::metrics::METRICS;
    let retries = metrics.llm_retries.get();
    let ev = ask(&server.url, json!({"question": QUESTION})).await;
    assert!(answer_text(&ev).contains("Use"), "{}", answer_text(&ev));
    let reqs = llm.requests();
    assert_eq!(reqs.len(), 5);
    // Both retries are counted in /metrics (other tests may add their own).
    assert!(metrics.llm_retries.get() >= retries + 2);
    assert!(metrics.llm_calls.with_label_values(&["ok"]).get() >= 2);
    assert!(
        reqs[0].body.get("response_format").is_some()
            && reqs[1].body.get("response_format").is_none()
    );
    assert_eq!(saved_turn(&server).await.1, "scripted-model");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_cut_in_the_middle_falls_back_offline_below_the_partial_answer() {
    let llm = Scripted::start(vec![
        sse::classify("general"),
        Reply::Stream(vec![
            (
                Duration::from_millis(5),
                sse::text("Start with the crash loop triage"),
            ),
            (Duration::from_millis(5), sse::text(" bundle, which")),
        ]),
    ])
    .await;
    let server = server_with(&llm, |c| c.max_retries = 0).await;
    let ev = ask(&server.url, json!({"question": QUESTION})).await;
    assert!(stage_names(&ev).contains(&"fallback".to_string()));
    let text = answer_text(&ev);
    assert!(text.starts_with("Start with the crash loop triage bundle, which"));
    assert!(
        text.contains("**Start with Kubernetes Pod Crashloop Triage**"),
        "the offline answer follows: {text}"
    );
    assert!(!card_keys(&ev).is_empty());
    let (status, model, _, _, trace) = saved_turn(&server).await;
    assert_eq!(status, "complete");
    assert_eq!(model, "offline (fallback from scripted-model)");
    assert!(
        trace["errors"].to_string().contains("broke off"),
        "{}",
        trace["errors"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_tool_arguments_are_reported_to_the_model_not_fatal() {
    let llm = Scripted::start(vec![
        sse::classify("general"),
        Reply::Stream(vec![
            (Duration::ZERO, sse::data(json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "search_codebundles", "arguments": "{not json"}}]}, "finish_reason": "tool_calls"}]}))),
            (Duration::ZERO, sse::done()),
        ]),
        sse::reply(&["Sorry, here it is: [bundle:kube-ops/k8s-pod-crashloop-triage]"]),
    ])
    .await;
    let server = server_with(&llm, |_| {}).await;
    let ev = ask(&server.url, json!({"question": QUESTION})).await;
    assert!(answer_text(&ev).contains("here it is"));
    let tool = llm.requests()[2].body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .cloned()
        .unwrap();
    assert!(tool["content"].as_str().unwrap().contains("not valid JSON"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_first_token_falls_back_to_the_offline_answer() {
    let llm = Scripted::start(vec![
        sse::classify("general"),
        Reply::Stream(vec![(Duration::from_secs(5), sse::text("too late"))]),
    ])
    .await;
    let server = server_with(&llm, |c| {
        c.first_token_timeout_secs = 1;
        c.max_retries = 0;
    })
    .await;
    let ev = ask(&server.url, json!({"question": QUESTION})).await;
    let text = answer_text(&ev);
    assert!(
        text.starts_with("**Start with Kubernetes Pod Crashloop Triage**"),
        "{text}"
    );
    assert!(!text.contains("too late"));
    let (status, model, _, _, trace) = saved_turn(&server).await;
    assert_eq!(
        (status.as_str(), model.as_str()),
        ("complete", "offline (fallback from scripted-model)")
    );
    assert!(
        trace["errors"].to_string().contains("first token"),
        "{}",
        trace["errors"]
    );
    let late = registry_chat::metrics::METRICS
        .llm_errors
        .with_label_values(&["first_token_timeout"])
        .get();
    assert!(late >= 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endless_stream_is_cut_by_the_total_timeout() {
    let llm = Scripted::start(vec![sse::classify("general"), endless_stream()]).await;
    let server = server_with(&llm, |c| {
        c.total_timeout_secs = 2;
        c.first_token_timeout_secs = 1;
        c.max_retries = 0;
    })
    .await;
    let started = std::time::Instant::now();
    let ev = ask(&server.url, json!({"question": QUESTION})).await;
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "ended by the timeout"
    );
    assert!(
        answer_text(&ev).contains("Kubernetes Pod Crashloop Triage"),
        "offline answer after the cut"
    );
    let (_, _, _, _, trace) = saved_turn(&server).await;
    assert!(
        trace["errors"].to_string().contains("longer than"),
        "{}",
        trace["errors"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_llm_still_answers_offline() {
    let llm = Scripted::start(vec![Reply::ok(json!({}))]).await;
    let dead = "http://127.0.0.1:9".to_string();
    let server = TestServer::start_indexed(move |c| {
        c.llm.base_url = Some(format!("{dead}/v1"));
        c.llm.model = Some("gone".into());
        c.llm.max_retries = 0;
        c.llm.connect_timeout_secs = 1;
    })
    .await;
    drop(llm);
    let ev = ask(&server.url, json!({"question": QUESTION})).await;
    assert!(answer_text(&ev).contains("**Start with Kubernetes Pod Crashloop Triage**"));
    assert!(ev.iter().any(|(_, e)| matches!(e, ChatEvent::Done { .. })));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_goes_away_cancels_the_llm_request() {
    let llm = Scripted::start(vec![sse::classify("general"), Reply::Hang]).await;
    let server = server_with(&llm, |c| c.first_token_timeout_secs = 30).await;
    let res = common::client()
        .post(server.at("/api/chat"))
        .json(&json!({"question": QUESTION}))
        .send()
        .await
        .unwrap();
    let mut body = res.bytes_stream();
    // Wait until the answer request is in flight, then leave.
    llm.read_until_answer_requested(&mut body).await;
    assert_eq!(llm.requests().len(), 2);
    assert_eq!(llm.open_requests(), 1, "the LLM request is open");
    drop(body);
    assert_eq!(
        llm.open_after_leaving().await,
        0,
        "dropping the client dropped the LLM request"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(saved_turn(&server).await.0, "interrupted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn azure_openai_uses_the_deployment_url_and_api_key() {
    let llm = Scripted::start(vec![
        sse::classify("general"),
        sse::reply(&["See [bundle:kube-ops/k8s-pod-crashloop-triage]."]),
    ])
    .await;
    let base = llm.url.clone();
    let server = TestServer::start_indexed(move |c| {
        c.llm.provider = registry_chat::config::LlmProvider::Azure;
        c.llm.base_url = Some(base);
        c.llm.deployment = Some("gpt-dep".into());
        c.llm.api_version = Some("2024-10-21".into());
        c.llm.api_key = Some(registry_chat::config::Secret::new("azure-key"));
    })
    .await;
    let ev = ask(&server.url, json!({"question": QUESTION})).await;
    assert!(answer_text(&ev).contains("See"));
    let r = &llm.requests()[1];
    assert_eq!(r.path, "/openai/deployments/gpt-dep/chat/completions");
    assert_eq!(r.query.as_deref(), Some("api-version=2024-10-21"));
    assert_eq!(r.headers["api-key"], "azure-key");
    assert!(r.body.get("model").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_model_shows_grounded_cards_and_the_offline_answer_first() {
    use eventsource_stream::Eventsource;
    use futures::StreamExt;
    // The model's first token comes after 2 s, as a small local model's might.
    let llm = Scripted::start(vec![
        sse::classify("general"),
        Reply::Stream(vec![
            (
                Duration::from_secs(2),
                sse::text("Start with [bundle:kube-ops/k8s-pod-crashloop-triage]."),
            ),
            (Duration::ZERO, sse::done()),
        ]),
    ])
    .await;
    let server = server_with(&llm, |c| c.first_token_timeout_secs = 5).await;
    let started = std::time::Instant::now();
    let res = common::client()
        .post(server.at("/api/chat"))
        .json(&json!({"question": QUESTION}))
        .send()
        .await
        .unwrap();
    let mut stream = res.bytes_stream().eventsource();
    let mut seen: Vec<(f64, ChatEvent)> = Vec::new();
    while let Some(ev) = stream.next().await {
        let ev = ev.unwrap();
        let parsed: ChatEvent = serde_json::from_str(&ev.data).unwrap();
        seen.push((started.elapsed().as_secs_f64() * 1000.0, parsed));
    }
    let at = |want: fn(&ChatEvent) -> bool| seen.iter().position(|(_, e)| want(e));
    let preview = at(|e| matches!(e, ChatEvent::Preview { .. })).expect("a preview");
    let first_cards = at(|e| matches!(e, ChatEvent::Cards { .. })).expect("cards");
    let first_token = at(|e| matches!(e, ChatEvent::Token { .. })).expect("the model's text");
    assert!(first_cards < first_token && preview < first_token);
    let ChatEvent::Preview { text } = &seen[preview].1 else {
        unreachable!()
    };
    assert!(text.contains("[bundle:"), "a grounded answer: {text}");
    // The model's answer is the answer; its own cards replace the preview's.
    let events: Vec<(String, ChatEvent)> = seen
        .iter()
        .map(|(_, e)| (e.kind().to_string(), e.clone()))
        .collect();
    assert!(answer_text(&events).starts_with("Start with"));
    let last_cards = seen
        .iter()
        .rev()
        .find_map(|(_, e)| match e {
            ChatEvent::Cards { cards } => Some(cards.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(last_cards.len(), 1);
    // The figure the issue asks for, printed (no timed assertion).
    println!(
        "first useful content after {:.0} ms; the model's first token after {:.0} ms",
        seen[preview].0, seen[first_token].0
    );
}

/// A turn that runs out of its budget after the model has streamed part of its
/// answer: the preview's cards do not stay on screen beside the partial text; the
/// screen is left as the saved (failed) turn has it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_failing_after_partial_text_does_not_leave_the_previews_cards() {
    let llm = Scripted::start(vec![sse::classify("general"), endless_stream()]).await;
    let url = format!("{}/v1", llm.url);
    let server = TestServer::start_indexed(move |c| {
        c.llm.base_url = Some(url);
        c.llm.model = Some("scripted-model".into());
        c.llm.api_key = Some(registry_chat::config::Secret::new("sk-test"));
        c.llm.first_token_timeout_secs = 3;
        c.llm.total_timeout_secs = 30;
        c.llm.max_retries = 0;
        c.server.turn_timeout_secs = 3;
    })
    .await;
    let ev = ask(&server.url, json!({"question": QUESTION})).await;
    let at = |f: &dyn Fn(&ChatEvent) -> bool| ev.iter().position(|(_, e)| f(e));
    let first_token = at(&|e| matches!(e, ChatEvent::Token { .. })).expect("partial text");
    let preview = at(&|e| matches!(e, ChatEvent::Preview { .. })).expect("a preview");
    assert!(preview < first_token);
    assert!(
        matches!(ev.last().map(|(_, e)| e), Some(ChatEvent::Error { code, .. }) if code == "turn_timeout"),
        "the turn ends in its timeout: {:?}",
        ev.last()
    );
    let last_cards = ev
        .iter()
        .rposition(|(_, e)| matches!(e, ChatEvent::Cards { .. }))
        .unwrap();
    assert!(last_cards > first_token, "the preview's cards are replaced");
    assert!(card_keys(&ev).is_empty(), "by what the failed turn saved");
    let (status, ..) = saved_turn(&server).await;
    assert_eq!(status, "failed");
    let saved: String = server
        .state
        .db
        .read(|c| {
            Ok(c.query_row(
                "SELECT cards FROM turns ORDER BY created_at DESC LIMIT 1",
                [],
                |r| r.get(0),
            )?)
        })
        .await
        .unwrap();
    assert_eq!(saved, "[]");
}
