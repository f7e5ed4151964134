//! Server-function declarations. Bodies run on the server only and stay thin: they
//! fetch the backend from context and delegate.

use super::catalog::{BundleDetail, BundleFilter, BundleSummary, CollectionStatus};
use super::error::ApiError;
use super::status::Health;
use leptos::prelude::*;
use leptos::server_fn::codec::Json;

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
