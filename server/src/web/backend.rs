//! Server functions: the axum handler that runs them, and the `Backend` the
//! declarations in `app::api` call through Leptos context.

use super::AppState;
use app::api::Health;
use app::api::backend::{Backend, SharedBackend};
use axum::body::Body;
use axum::extract::State;
use axum::http::Request;
use axum::response::IntoResponse;
use futures::future::BoxFuture;
use std::sync::Arc;

struct ServerBackend {
    state: AppState,
}

impl Backend for ServerBackend {
    fn health(&self) -> BoxFuture<'_, Health> {
        Box::pin(super::health::report(&self.state))
    }
}

pub async fn server_fn(State(state): State<AppState>, req: Request<Body>) -> impl IntoResponse {
    let backend: SharedBackend = Arc::new(ServerBackend { state });
    leptos_axum::handle_server_fns_with_context(
        move || leptos::prelude::provide_context(backend.clone()),
        req,
    )
    .await
}
