//! Reads one turn from `POST /api/chat`: the body is Server-Sent Events, read with
//! fetch streaming (not `EventSource`, which can only GET and reconnects by itself,
//! re-asking the question). Chunks are re-framed by `eventsource-stream`, so an event
//! or a multi-byte character split across network reads arrives whole.

use crate::api::{ApiError, ChatEvent, ChatRequest, ErrorCode};
use eventsource_stream::Eventsource;
use futures::StreamExt;
use wasm_bindgen::JsCast;

pub async fn stream_turn(
    request: &ChatRequest,
    signal: Option<&web_sys::AbortSignal>,
    mut on_event: impl FnMut(ChatEvent),
) -> Result<(), ApiError> {
    let response = gloo_net::http::Request::post("/api/chat")
        .header("accept", "text/event-stream")
        .abort_signal(signal)
        .json(request)
        .map_err(|e| ApiError::new(ErrorCode::BadRequest, e.to_string()))?
        .send()
        .await
        .map_err(|_| ApiError::from_code(ErrorCode::Network))?;

    if !response.ok() {
        let status = response.status();
        return Err(response.json::<ApiError>().await.unwrap_or_else(|_| {
            ApiError::new(
                ErrorCode::Internal,
                format!("The server answered with HTTP {status}."),
            )
        }));
    }
    let body = response
        .body()
        .ok_or_else(|| ApiError::new(ErrorCode::Internal, "The answer had no body."))?;
    let chunks = wasm_streams::ReadableStream::from_raw(body.unchecked_into())
        .into_stream()
        .map(|chunk| {
            chunk
                .map(|js| js_sys::Uint8Array::new(&js).to_vec())
                .map_err(|_| StreamBroken)
        });

    let mut events = chunks.eventsource();
    let mut finished = false;
    while let Some(item) = events.next().await {
        let event =
            item.map_err(|_| ApiError::new(ErrorCode::Network, "The connection was interrupted."))?;
        match serde_json::from_str::<ChatEvent>(&event.data) {
            Ok(ev) => {
                finished |= ev.is_terminal();
                on_event(ev);
            }
            // Unknown event types from a newer server are skipped, not fatal.
            Err(_) => continue,
        }
    }
    if finished {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::Network,
            "The answer stopped before it was complete.",
        ))
    }
}

#[derive(Debug)]
struct StreamBroken;

impl std::fmt::Display for StreamBroken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stream broken")
    }
}
