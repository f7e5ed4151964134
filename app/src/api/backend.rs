//! What the server functions need from the server. The `server` crate implements this
//! trait and hands it to each server-function call through Leptos context; this keeps
//! the function declarations here (shared with the browser) without a crate cycle.

use super::catalog::{BundleDetail, BundleFilter, BundleSummary, CollectionStatus};
use super::conversation::{Conversation, Feedback, SessionItem};
use super::error::{ApiError, ErrorCode};
use super::events::ChatRequest;
use super::requests::{FileAction, RequestInput, RequestSaved, RequestSummary};
use super::status::Health;
use futures::future::BoxFuture;
use leptos::server_fn::codec::ByteStream;
use std::sync::Arc;

pub trait Backend: Send + Sync + 'static {
    fn health(&self) -> BoxFuture<'_, Health>;
    fn collections(&self) -> BoxFuture<'_, Result<Vec<CollectionStatus>, ApiError>>;
    fn bundles(&self, filter: BundleFilter) -> BoxFuture<'_, Result<Vec<BundleSummary>, ApiError>>;
    fn bundle(
        &self,
        collection: String,
        slug: String,
    ) -> BoxFuture<'_, Result<BundleDetail, ApiError>>;
    /// Questions the catalog can answer well, for the empty screen.
    fn examples(&self) -> BoxFuture<'_, Result<Vec<String>, ApiError>>;
    fn sessions(&self) -> BoxFuture<'_, Result<Vec<SessionItem>, ApiError>>;
    fn conversation(&self, id: String) -> BoxFuture<'_, Result<Conversation, ApiError>>;
    fn rename_session(&self, id: String, title: String) -> BoxFuture<'_, Result<(), ApiError>>;
    fn delete_session(&self, id: String) -> BoxFuture<'_, Result<(), ApiError>>;
    fn feedback(&self, feedback: Feedback) -> BoxFuture<'_, Result<(), ApiError>>;
    fn similar_requests(
        &self,
        problem: String,
    ) -> BoxFuture<'_, Result<Vec<RequestSummary>, ApiError>>;
    fn create_request(&self, input: RequestInput) -> BoxFuture<'_, Result<RequestSaved, ApiError>>;
    fn file_request(
        &self,
        id: i64,
        action: FileAction,
    ) -> BoxFuture<'_, Result<RequestSaved, ApiError>>;
    /// Starts a chat turn; its events as the bytes of a Server-Sent Events body.
    fn chat_turn(
        &self,
        request: ChatRequest,
    ) -> BoxFuture<'_, Result<ByteStream<ApiError>, ApiError>>;
}

pub type SharedBackend = Arc<dyn Backend>;

/// The backend of the current request, or an internal error if the server forgot to
/// provide it (a wiring bug, logged by the edge).
pub fn backend() -> Result<SharedBackend, ApiError> {
    leptos::prelude::use_context::<SharedBackend>().ok_or_else(|| ErrorCode::Internal.into())
}

/// Sets the HTTP status of a failing server-function call from its error code, so the
/// error table decides the status everywhere.
pub fn with_status<T>(result: Result<T, ApiError>) -> Result<T, ApiError> {
    if let Err(err) = &result
        && let Some(opts) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>()
        && let Ok(status) = http::StatusCode::from_u16(err.status())
    {
        opts.set_status(status);
    }
    result
}
