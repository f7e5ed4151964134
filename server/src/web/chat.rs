//! `POST /api/chat`: validates the question, then streams the turn as Server-Sent
//! Events (`event: <type>`, `data: <json>`). A POST carries long questions and the
//! session id in the body; the browser reads the body with fetch streaming and an
//! AbortController (Stop), and dropping the connection drops the turn.

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

pub async fn chat(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    Extension(request_id): Extension<RequestId>,
    payload: Result<Json<ChatRequest>, JsonRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiFailure> {
    let Json(request) = payload?;
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
        owner: caller.owner,
        budget: Duration::from_secs(state.config.server.turn_timeout_secs),
        request_id: Some(request_id.0),
        ..Default::default()
    };
    let turn = state
        .agent
        .start_turn(question, request.session_id, options);
    // The permit lives as long as the stream: a turn holds its slot until it ends
    // or its client leaves.
    let streaming = crate::metrics::StreamGuard::new();
    let events = turn.enumerate().map(move |(seq, ev)| {
        let _slot = (&permit, &streaming);
        Ok(to_sse(seq, &ev))
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

fn to_sse(seq: usize, ev: &ChatEvent) -> Event {
    Event::default()
        .id(seq.to_string())
        .event(ev.kind())
        .json_data(ev)
        .unwrap_or_else(|_| {
            Event::default().event("error").data(
                r#"{"type":"error","code":"internal_error","message":"event encoding failed"}"#,
            )
        })
}
