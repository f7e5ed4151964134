//! Reads one turn through the `chat_turn` streaming server function. Its body is
//! Server-Sent Events, re-framed by `api::stream::chat_events`, so an event or a
//! multi-byte character split across network reads arrives whole. Stop aborts the
//! future: the stream is dropped, which cancels the fetch, and the server drops
//! the turn.

use crate::api::functions::chat_turn;
use crate::api::stream::chat_events;
use crate::api::{ApiError, ChatEvent, ChatRequest, ErrorCode};
use futures::StreamExt;

pub async fn stream_turn(
    request: &ChatRequest,
    mut on_event: impl FnMut(ChatEvent),
) -> Result<(), ApiError> {
    let body = chat_turn(request.clone()).await?;
    let mut events = std::pin::pin!(chat_events(body.into_inner()));
    let mut finished = false;
    while let Some(item) = events.next().await {
        let ev =
            item.map_err(|_| ApiError::new(ErrorCode::Network, "The connection was interrupted."))?;
        finished |= ev.is_terminal();
        on_event(ev);
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
