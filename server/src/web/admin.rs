//! `/api/admin/*`: the admin API behind a bearer token (`admin.token`). Without a
//! configured token every route answers 403 `admin_disabled`; a missing or wrong
//! token gets 401 `unauthorized`. Handlers are thin: the logic is in `crate::admin`.

use super::export::attachment;
use super::{ApiFailure, AppState};
use crate::admin::auth::{self, Access};
use crate::admin::test_query::{self, TestQueryError};
use crate::admin::window::{WindowError, WindowQuery};
use app::api::ErrorCode;
use app::api::admin::{
    IndexStatus, Quality, RequestList, StatusUpdate, TestQuery, TestQueryResult, TraceDetail,
    TracePage, TraceQuery,
};
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Json, Router};
use serde::Deserialize;

pub fn router(state: AppState) -> Router<AppState> {
    Router::new()
        .route("/check", get(check))
        .route("/traces", get(list_traces))
        .route("/traces/{id}", get(trace))
        .route("/quality", get(quality_report))
        .route("/golden", get(golden_export))
        .route("/test-query", post(test_query))
        .route("/index", get(index_status))
        .route("/reindex", get(reindex_job).post(reindex))
        .route("/requests", get(requests))
        .route("/requests/{id}/status", post(request_status))
        .route("/requests/{id}/export", get(request_export))
        // Only matched routes are guarded, so unknown paths are plain 404s.
        .route_layer(middleware::from_fn_with_state(state, require_admin))
        // Added after the guard: without it `/api/{*fn_name}` (server functions)
        // would answer unknown admin paths.
        .route("/{*rest}", any(not_found))
}

async fn not_found() -> ApiFailure {
    ApiFailure::client(ErrorCode::NotFound, ErrorCode::NotFound.default_message())
}

async fn require_admin(
    State(state): State<AppState>,
    req: Request,
    next: Next,
) -> Result<Response, ApiFailure> {
    let presented = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(auth::bearer);
    match auth::check(state.config.admin.token.as_ref(), presented) {
        Access::Granted => Ok(next.run(req).await),
        Access::Disabled => Err(ApiFailure::client(
            ErrorCode::AdminDisabled,
            ErrorCode::AdminDisabled.default_message(),
        )),
        Access::Denied => {
            tracing::warn!(path = %req.uri().path(), with_token = presented.is_some(), "admin request refused");
            Err(ApiFailure::client(
                ErrorCode::Unauthorized,
                ErrorCode::Unauthorized.default_message(),
            ))
        }
    }
}

impl From<WindowError> for ApiFailure {
    fn from(e: WindowError) -> Self {
        match e {
            WindowError::Invalid(m) => ApiFailure::client(ErrorCode::BadRequest, m),
            WindowError::Store(e) => e.into(),
        }
    }
}

impl From<TestQueryError> for ApiFailure {
    fn from(e: TestQueryError) -> Self {
        match e {
            TestQueryError::Question(e) => e.into(),
            TestQueryError::TooMuchHistory => {
                ApiFailure::client(ErrorCode::BadRequest, e.to_string())
            }
            // The message is the failed turn's public error, safe to show.
            TestQueryError::History { .. } => {
                ApiFailure::client(ErrorCode::Internal, e.to_string())
            }
        }
    }
}

async fn check() -> Json<serde_json::Value> {
    Json(serde_json::json!({ "ok": true }))
}

async fn list_traces(
    State(state): State<AppState>,
    Query(q): Query<TraceQuery>,
) -> Result<Json<TracePage>, ApiFailure> {
    Ok(Json(state.saved_turns.traces(q).await?))
}

async fn trace(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<TraceDetail>, ApiFailure> {
    state.saved_turns.trace(id).await?.map(Json).ok_or_else(|| {
        ApiFailure::client(
            ErrorCode::TurnNotFound,
            ErrorCode::TurnNotFound.default_message(),
        )
    })
}

async fn quality_report(
    State(state): State<AppState>,
    Query(q): Query<WindowQuery>,
) -> Result<Json<Quality>, ApiFailure> {
    let w = state.saved_turns.window(q, 7).await?;
    Ok(Json(state.saved_turns.quality(w).await?))
}

async fn golden_export(
    State(state): State<AppState>,
    Query(q): Query<WindowQuery>,
) -> Result<Response, ApiFailure> {
    let w = state.saved_turns.window(q, 30).await?;
    let text = state.saved_turns.golden(w).await?;
    Ok(attachment(
        text,
        "golden-from-feedback.jsonl",
        "application/x-ndjson",
    ))
}

async fn test_query(
    State(state): State<AppState>,
    payload: Result<Json<TestQuery>, JsonRejection>,
) -> Result<Json<TestQueryResult>, ApiFailure> {
    let Json(q) = payload?;
    Ok(Json(
        test_query::run(&state.agent, &q, &state.shutdown).await?,
    ))
}

async fn index_status(State(state): State<AppState>) -> Result<Json<IndexStatus>, ApiFailure> {
    let db = state.db.clone();
    let embedder = state.searcher().embedder().id().to_string();
    let id = embedder.clone();
    let (mut collections, vectors) = state
        .db
        .read(move |c| {
            let vectors = crate::store::vector_count(c, &id)?;
            Ok((crate::catalog::collections(c)?, vectors))
        })
        .await?;
    // Hashing files to find stale bundles is blocking work.
    collections = tokio::task::spawn_blocking(move || {
        for c in &mut collections {
            c.stale = crate::ingest::stale_bundles(&db, &c.name, std::path::Path::new(&c.root))
                .unwrap_or_else(|e| vec![format!("could not check: {e}")]);
        }
        collections
    })
    .await
    .map_err(|e| ApiFailure::internal(ErrorCode::Internal, e))?;
    Ok(Json(IndexStatus {
        collections,
        job: state.reindexer.job(),
        embedder,
        vectors,
    }))
}

/// The job alone, for polling: cheap, unlike the full status (which hashes files to
/// find stale bundles).
async fn reindex_job(State(state): State<AppState>) -> Json<app::api::admin::ReindexJob> {
    Json(state.reindexer.job())
}

async fn reindex(State(state): State<AppState>) -> Result<Response, ApiFailure> {
    match state
        .start_reindex(crate::admin::reindex::Origin::Here)
        .await
    {
        Ok(job) => Ok((StatusCode::ACCEPTED, Json(job)).into_response()),
        Err(_) => Err(ApiFailure::client(
            ErrorCode::IndexBusy,
            ErrorCode::IndexBusy.default_message(),
        )),
    }
}

#[derive(Deserialize)]
struct RequestFilter {
    #[serde(default)]
    status: Option<String>,
}

async fn requests(
    State(state): State<AppState>,
    Query(f): Query<RequestFilter>,
) -> Result<Json<RequestList>, ApiFailure> {
    let status = f.status.filter(|s| !s.is_empty());
    let requests = state.requests.list(status).await?;
    Ok(Json(RequestList { requests }))
}

async fn request_status(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    payload: Result<Json<StatusUpdate>, JsonRejection>,
) -> Result<Json<StatusUpdate>, ApiFailure> {
    let Json(update) = payload?;
    state.requests.set_status(id, update.status.clone()).await?;
    Ok(Json(update))
}

/// Admin-only: a request carries the requester's contact details.
async fn request_export(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Response, ApiFailure> {
    let md = state.requests.markdown(id).await?;
    Ok(attachment(
        md,
        &format!("{}.md", app::api::requests::reference(id).to_lowercase()),
        "text/markdown; charset=utf-8",
    ))
}
