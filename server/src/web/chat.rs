//! A chat turn over HTTP, with two faces on one function (`start`): the browser's
//! streaming server function `chat_turn` (`web/backend.rs`) and `POST /api/chat`,
//! the same Server-Sent Events for curl and scripts. Both validate the question,
//! apply the per-client limit and the server's turn capacity, and stream
//! `event: <type>` / `data: <json>`; dropping the connection drops the turn.

use super::guard::Caller;
use super::observe::RequestId;
use super::{ApiFailure, AppState};
use crate::agent::TurnOptions;
use app::api::{ChatEvent, ChatRequest};
use axum::Extension;
use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures::{Stream, StreamExt};
use governor::clock::{Clock, DefaultClock};
use std::convert::Infallible;
use std::time::Duration;

/// Longest pause between streamed pieces of an offline answer (the whole answer is
/// shown within a quarter second; an LLM's own pace is used as is).
const BROWSER_PACE: Duration = Duration::from_millis(12);

/// A comment line this often keeps proxies from closing a quiet stream (a slow
/// model's first token).
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Starts a turn for `caller`: the question checked, the limits applied, and the
/// turn's events, each numbered, holding its capacity slot until the stream ends or
/// is dropped.
pub fn start(
    state: &AppState,
    caller: &Caller,
    request_id: Option<String>,
    request: ChatRequest,
) -> Result<impl Stream<Item = (usize, ChatEvent)> + Send + use<>, ApiFailure> {
    let question = crate::agent::validate_question(&request.question).map_err(ApiFailure::from)?;
    // Per client first (a flood from one address), then the server's capacity.
    let limited = |limit: &str| {
        crate::metrics::METRICS
            .rate_limited
            .with_label_values(&[limit])
            .inc()
    };
    if let Err(not_until) = state.per_client.check_key(&caller.rate_key) {
        limited("per_client");
        let wait = not_until.wait_time_from(DefaultClock::default().now());
        return Err(ApiFailure::rate_limited(wait.as_secs_f64().ceil() as u64));
    }
    let permit = state.turns.clone().try_acquire_owned().map_err(|_| {
        limited("capacity");
        ApiFailure::rate_limited(2)
    })?;
    let options = TurnOptions {
        dry_run: false,
        pace: BROWSER_PACE,
        shutdown: state.shutdown.clone(),
        owner: caller.owner.clone(),
        budget: Duration::from_secs(state.config.server.turn_timeout_secs),
        request_id,
        ..Default::default()
    };
    let turn = state
        .agent
        .start_turn(question, request.session_id, options);
    // The permit lives as long as the stream: a turn holds its slot until it ends
    // or its client leaves.
    let streaming = crate::metrics::StreamGuard::new();
    Ok(turn.enumerate().map(move |(seq, ev)| {
        let _slot = (&permit, &streaming);
        (seq, ev)
    }))
}

/// `POST /api/chat`.
pub async fn chat(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    Extension(request_id): Extension<RequestId>,
    payload: Result<Json<ChatRequest>, JsonRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiFailure> {
    let Json(request) = payload?;
    let events = start(&state, &caller, Some(request_id.0), request)?;
    Ok(Sse::new(events.map(|(seq, ev)| Ok(to_sse(seq, &ev))))
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE)))
}

fn to_sse(seq: usize, ev: &ChatEvent) -> Event {
    Event::default()
        .id(seq.to_string())
        .event(ev.kind())
        .json_data(ev)
        .unwrap_or_else(|_| Event::default().event("error").data(ENCODING_FAILED))
}

/// The same events as `POST /api/chat` sends, as the bytes of an SSE body, with a
/// comment line when the turn is quiet for `KEEP_ALIVE`: what the server function
/// streams.
pub fn sse_bytes(
    events: impl Stream<Item = (usize, ChatEvent)> + Send + 'static,
) -> impl Stream<Item = String> + Send + 'static {
    futures::stream::unfold(Box::pin(events), |mut events| async move {
        match tokio::time::timeout(KEEP_ALIVE, events.next()).await {
            Ok(Some((seq, ev))) => Some((sse_message(seq, &ev), events)),
            Ok(None) => None,
            Err(_) => Some((":\n\n".to_string(), events)),
        }
    })
}

/// One SSE message: `id`, `event` and a single `data` line (JSON has no raw
/// newlines, so one line always suffices).
fn sse_message(seq: usize, ev: &ChatEvent) -> String {
    match serde_json::to_string(ev) {
        Ok(data) => format!("id: {seq}\nevent: {}\ndata: {data}\n\n", ev.kind()),
        Err(_) => format!("id: {seq}\nevent: error\ndata: {ENCODING_FAILED}\n\n"),
    }
}

/// What a client sees if an event could not be encoded (never expected).
const ENCODING_FAILED: &str =
    r#"{"type":"error","code":"internal_error","message":"event encoding failed"}"#;

#[cfg(test)]
mod tests {
    use super::*;

    /// The server function's body is the SSE route's: the same parser reads both.
    #[tokio::test]
    async fn server_function_bytes_are_server_sent_events() {
        use eventsource_stream::Eventsource;
        let events = futures::stream::iter(vec![
            (
                0,
                ChatEvent::Token {
                    text: "über\nline".into(),
                },
            ),
            (
                1,
                ChatEvent::Error {
                    code: "turn_timeout".into(),
                    message: "too slow".into(),
                },
            ),
        ]);
        let body: Vec<Result<Vec<u8>, std::io::Error>> = sse_bytes(events)
            .map(|s| Ok(s.into_bytes()))
            .collect()
            .await;
        let parsed: Vec<_> = futures::stream::iter(body).eventsource().collect().await;
        let parsed: Vec<_> = parsed.into_iter().map(|e| e.unwrap()).collect();
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[0].event, "token");
        assert_eq!(parsed[0].id, "0");
        assert_eq!(
            serde_json::from_str::<ChatEvent>(&parsed[0].data).unwrap(),
            ChatEvent::Token {
                text: "über\nline".into()
            }
        );
        assert_eq!(parsed[1].event, "error");
    }
}
