//! Server functions: the axum handler that runs them, and the `Backend` the
//! declarations in `app::api` call through Leptos context.

use super::{ApiFailure, AppState};
use app::api::backend::{Backend, SharedBackend};
use app::api::catalog::{BundleDetail, BundleFilter, BundleSummary, CollectionStatus};
use app::api::{ApiError, ErrorCode, Health};
use axum::body::Body;
use axum::extract::State;
use axum::http::Request;
use axum::response::{IntoResponse, Response};
use futures::future::BoxFuture;
use std::sync::Arc;

struct ServerBackend {
    state: AppState,
}

impl Backend for ServerBackend {
    fn health(&self) -> BoxFuture<'_, Health> {
        Box::pin(super::health::report(&self.state))
    }

    fn collections(&self) -> BoxFuture<'_, Result<Vec<CollectionStatus>, ApiError>> {
        Box::pin(async move {
            self.state
                .db
                .read(crate::catalog::collections)
                .await
                .map_err(public)
        })
    }

    fn bundles(&self, filter: BundleFilter) -> BoxFuture<'_, Result<Vec<BundleSummary>, ApiError>> {
        Box::pin(async move {
            self.state
                .db
                .read(move |c| crate::catalog::bundles(c, &filter))
                .await
                .map_err(public)
        })
    }

    fn bundle(
        &self,
        collection: String,
        slug: String,
    ) -> BoxFuture<'_, Result<BundleDetail, ApiError>> {
        Box::pin(async move {
            let (c2, s2) = (collection.clone(), slug.clone());
            match self
                .state
                .db
                .read(move |c| crate::catalog::detail(c, &c2, &s2))
                .await
                .map_err(public)?
            {
                Some(d) => Ok(d),
                None => Err(ApiError::new(
                    ErrorCode::BundleNotFound,
                    format!("No codebundle {collection}/{slug} in the index."),
                )),
            }
        })
    }
}

/// Logs the internal error and returns its safe public form.
fn public(e: impl Into<ApiFailure>) -> ApiError {
    let failure: ApiFailure = e.into();
    failure.log();
    failure.public
}

pub async fn server_fn(State(state): State<AppState>, req: Request<Body>) -> Response {
    let backend: SharedBackend = Arc::new(ServerBackend { state });
    let res = leptos_axum::handle_server_fns_with_context(
        move || leptos::prelude::provide_context(backend.clone()),
        req,
    )
    .await
    .into_response();
    status_from_code(res).await
}

/// server_fn answers failures it raises itself (argument decoding) with 500; take
/// the status from the error code in the body so the error table decides everywhere.
async fn status_from_code(res: Response) -> Response {
    if !res.status().is_server_error() {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 64 * 1024).await else {
        return Response::from_parts(parts, Body::empty());
    };
    if let Ok(err) = serde_json::from_slice::<ApiError>(&bytes)
        && let Ok(status) = axum::http::StatusCode::from_u16(err.status())
    {
        parts.status = status;
    }
    Response::from_parts(parts, Body::from(bytes))
}
