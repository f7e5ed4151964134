//! The turn's two faces over real HTTP on 127.0.0.1: the `chat_turn` streaming
//! server function the browser calls and `POST /api/chat` for curl. Both are read
//! with the browser's own reader (`app::api::stream::chat_events`) from reqwest's
//! network reads, and checked for what the SSE route was chosen for: whole events
//! whatever the reads, an error reported mid-stream, and a client that leaves
//! cancelling the turn on the server. (Splits inside an event and inside a
//! multi-byte character are covered byte by byte in `app::api::stream`.)

mod common;

use app::api::ChatEvent;
use app::api::stream::chat_events;
use common::scripted::{Reply, Scripted, endless_stream, sse};
use common::{TestServer, client};
use futures::StreamExt;
use serde_json::{Value, json};
use std::time::Duration;

const QUESTION: &str = "pods in payments keep restarting, where do I start?";

#[derive(Clone, Copy, Debug)]
enum Face {
    ServerFunction,
    SseRoute,
}

impl Face {
    fn post(self, server: &TestServer, request: Value) -> reqwest::RequestBuilder {
        match self {
            Face::ServerFunction => client()
                .post(server.at("/api/chat_turn"))
                .json(&json!({ "request": request })),
            Face::SseRoute => client().post(server.at("/api/chat")).json(&request),
        }
    }
}

/// Every event of one turn, read the browser's way.
async fn turn(face: Face, server: &TestServer, request: Value) -> Vec<ChatEvent> {
    let res = face.post(server, request).send().await.expect("send");
    assert_eq!(res.status(), 200, "{face:?} answered {}", res.status());
    assert_eq!(
        res.headers()["content-type"],
        "text/event-stream",
        "{face:?}"
    );
    chat_events(res.bytes_stream())
        .map(|e| e.expect("whole events"))
        .collect()
        .await
}

fn kinds(events: &[ChatEvent]) -> Vec<&'static str> {
    let mut k: Vec<&'static str> = events.iter().map(|e| e.kind()).collect();
    // Pieces of text arrive in as many events as the pacing makes.
    k.dedup();
    k
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_faces_stream_the_same_turn() {
    let server = TestServer::start_indexed(|_| {}).await;
    let by_fn = turn(Face::ServerFunction, &server, json!({"question": QUESTION})).await;
    let by_route = turn(Face::SseRoute, &server, json!({"question": QUESTION})).await;
    assert!(
        matches!(by_fn.last(), Some(ChatEvent::Done { .. })),
        "{by_fn:?}"
    );
    assert_eq!(kinds(&by_fn), kinds(&by_route));
    let cards = |ev: &[ChatEvent]| {
        ev.iter()
            .rev()
            .find_map(|e| match e {
                ChatEvent::Cards { cards } => {
                    Some(cards.iter().map(|c| c.key.clone()).collect::<Vec<_>>())
                }
                _ => None,
            })
            .unwrap_or_default()
    };
    assert!(!cards(&by_fn).is_empty());
    assert_eq!(cards(&by_fn), cards(&by_route));

    // A follow-up through the server function continues the conversation.
    let session = by_fn
        .iter()
        .find_map(|e| match e {
            ChatEvent::Done { session_id, .. } => session_id.clone(),
            _ => None,
        })
        .expect("a session");
    let again = turn(
        Face::ServerFunction,
        &server,
        json!({"question": "what about its SLIs?", "session_id": session}),
    )
    .await;
    assert!(
        again
            .iter()
            .any(|e| matches!(e, ChatEvent::Done { session_id: Some(s), .. } if *s == session))
    );
}

/// Refusals before the first event keep the error table's status and code.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_function_refuses_with_the_error_table() {
    let server = TestServer::start_indexed(|_| {}).await;
    for face in [Face::ServerFunction, Face::SseRoute] {
        let res = face
            .post(&server, json!({"question": "   "}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 400, "{face:?}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["code"], "question_empty", "{face:?}: {body}");
    }
}

fn llm_server(
    llm: &Scripted,
    turn_timeout: u64,
) -> impl FnOnce(&mut registry_chat::config::Config) {
    let url = format!("{}/v1", llm.url);
    move |c| {
        c.llm.base_url = Some(url);
        c.llm.model = Some("scripted-model".into());
        c.llm.api_key = Some(registry_chat::config::Secret::new("sk-test"));
        c.llm.first_token_timeout_secs = 3;
        c.llm.total_timeout_secs = 30;
        c.llm.max_retries = 0;
        c.server.turn_timeout_secs = turn_timeout;
    }
}

/// A turn that fails after text has streamed ends in an `error` event the reader
/// gets, not in a cut-off body.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_error_mid_stream_reaches_the_reader() {
    let llm = Scripted::start(vec![sse::classify("general"), endless_stream()]).await;
    // Long enough for the model's first pieces on a loaded CI machine (3 s
    // once ran out before any arrived), short enough to end the endless stream.
    let server = TestServer::start_indexed(llm_server(&llm, 8)).await;
    let ev = turn(Face::ServerFunction, &server, json!({"question": QUESTION})).await;
    let first_token = ev
        .iter()
        .position(|e| matches!(e, ChatEvent::Token { .. }))
        .expect("text before the failure");
    assert!(first_token < ev.len() - 1);
    assert!(
        matches!(ev.last(), Some(ChatEvent::Error { code, .. }) if code == "turn_timeout"),
        "{:?}",
        ev.last()
    );
}

/// Stop in the browser drops the server function's stream: the server drops the
/// turn (its model request closes) and saves it as interrupted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_the_stream_cancels_the_turn_on_the_server() {
    let llm = Scripted::start(vec![sse::classify("general"), Reply::Hang]).await;
    let server = TestServer::start_indexed(llm_server(&llm, 60)).await;
    let res = Face::ServerFunction
        .post(&server, json!({"question": QUESTION}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let mut body = res.bytes_stream();
    llm.read_until_answer_requested(&mut body).await;
    assert_eq!(llm.open_requests(), 1, "the answer's model request is open");
    drop(body);
    assert_eq!(
        llm.open_after_leaving().await,
        0,
        "leaving the stream dropped the model request"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    let status: String = server
        .state
        .db
        .read(|c| {
            Ok(c.query_row(
                "SELECT status FROM turns ORDER BY created_at DESC LIMIT 1",
                [],
                |r| r.get(0),
            )?)
        })
        .await
        .unwrap();
    assert_eq!(status, "interrupted");
}
