//! Server-function declarations. Bodies run on the server only and stay thin: they
//! fetch the backend from context and delegate.

use super::error::ApiError;
use super::status::Health;
use leptos::prelude::*;

/// Server and index health, for the UI banner.
#[server(endpoint = "health")]
pub async fn get_health() -> Result<Health, ApiError> {
    use super::backend::{backend, with_status};
    with_status(async { Ok(backend()?.health().await) }.await)
}
