//! Server-function declarations. Bodies run on the server only and stay thin: they
//! fetch the backend from context and delegate.

use super::catalog::{BundleDetail, BundleFilter, BundleSummary, CollectionStatus};
use super::conversation::{Conversation, Feedback, SessionItem};
use super::error::ApiError;
use super::events::ChatRequest;
use super::requests::{FileAction, RequestInput, RequestSaved, RequestSummary};
use super::status::Health;
use leptos::prelude::*;
use leptos::server_fn::codec::{ByteStream, Json, Streaming};

/// Server and index health, for the UI banner.
#[server(endpoint = "health")]
pub async fn get_health() -> Result<Health, ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { Ok(backend()?.health().await) }.await)
}

/// Indexed collections with their counts.
#[server(endpoint = "collections")]
pub async fn list_collections() -> Result<Vec<CollectionStatus>, ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { backend()?.collections().await }.await)
}

/// Bundles matching every given filter, ordered by collection and slug.
#[server(endpoint = "bundles", input = Json)]
pub async fn list_bundles(filter: BundleFilter) -> Result<Vec<BundleSummary>, ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { backend()?.bundles(filter).await }.await)
}

/// One bundle in full: tasks and SLIs, variables, README, files and source links.
#[server(endpoint = "bundle", input = Json)]
pub async fn get_bundle(collection: String, slug: String) -> Result<BundleDetail, ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { backend()?.bundle(collection, slug).await }.await)
}

/// Example questions drawn from what the catalog covers.
#[server(endpoint = "examples")]
pub async fn example_questions() -> Result<Vec<String>, ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { backend()?.examples().await }.await)
}

/// Past conversations, most recent first.
#[server(endpoint = "sessions")]
pub async fn list_sessions() -> Result<Vec<SessionItem>, ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { backend()?.sessions().await }.await)
}

/// One conversation with every turn, for the page at `/c/:id`.
#[server(endpoint = "conversation", input = Json)]
pub async fn get_conversation(id: String) -> Result<Conversation, ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { backend()?.conversation(id).await }.await)
}

#[server(endpoint = "rename_session", input = Json)]
pub async fn rename_session(id: String, title: String) -> Result<(), ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { backend()?.rename_session(id, title).await }.await)
}

#[server(endpoint = "delete_session", input = Json)]
pub async fn delete_session(id: String) -> Result<(), ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { backend()?.delete_session(id).await }.await)
}

/// Thumbs up or down (with an optional comment) on one answer.
#[server(endpoint = "feedback", input = Json)]
pub async fn send_feedback(feedback: Feedback) -> Result<(), ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { backend()?.feedback(feedback).await }.await)
}

/// Earlier requests like this one ("someone already asked for it").
#[server(endpoint = "similar_requests", input = Json)]
pub async fn similar_requests(problem: String) -> Result<Vec<RequestSummary>, ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { backend()?.similar_requests(problem).await }.await)
}

/// After a `Duplicate`: add the saved request to that issue or open a new one.
#[server(endpoint = "file_request", input = Json)]
pub async fn file_request(id: i64, action: FileAction) -> Result<RequestSaved, ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { backend()?.file_request(id, action).await }.await)
}

/// Saves a codebundle request; returns its reference and markdown.
#[server(endpoint = "create_request", input = Json)]
pub async fn create_request(input: RequestInput) -> Result<RequestSaved, ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { backend()?.create_request(input).await }.await)
}

/// One chat turn, streamed: the body is the Server-Sent Events `POST /api/chat`
/// sends (`event: <type>`, `data: <ChatEvent JSON>`), so one reader serves both
/// (`api::stream::chat_events`). The browser asks through this function; dropping
/// the stream (Stop) closes the connection and the server drops the turn. Failures
/// before the first event (a bad question, a rate limit) are `ApiError`s with their
/// status; failures during the turn are `error` events.
#[server(endpoint = "chat_turn", input = Json, output = Streaming)]
pub async fn chat_turn(request: ChatRequest) -> Result<ByteStream<ApiError>, ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { backend()?.chat_turn(request).await }.await)
}
