//! Server functions: the axum handler that runs them, and the `Backend` the
//! declarations in `app::api` call through Leptos context.

use super::{ApiFailure, AppState};
use crate::requests::tracker::Tracker;
use app::api::backend::{Backend, SharedBackend};
use app::api::catalog::{BundleDetail, BundleFilter, BundleSummary, CollectionStatus};
use app::api::conversation::{
    Conversation, Feedback, MAX_NOTE_CHARS, MAX_TITLE_CHARS, SessionItem,
};
use app::api::requests::{FileAction, RequestInput, RequestSaved, RequestSummary, TrackerOutcome};
use app::api::{ApiError, ChatRequest, ErrorCode, Health};
use axum::body::Body;
use axum::extract::State;
use axum::http::Request;
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use futures::future::BoxFuture;
use leptos::server_fn::codec::ByteStream;
use std::sync::Arc;

/// Longest problem text `similar_requests` searches with.
const MAX_SIMILAR_CHARS: usize = 2_000;

struct ServerBackend {
    state: AppState,
    /// Who is asking (`guard`): conversations are theirs only.
    owner: crate::memory::Owner,
    /// The caller's key for the per-client rate limit.
    rate_key: String,
    /// This HTTP request's id (logs, traces).
    request_id: Option<String>,
}

impl Backend for ServerBackend {
    fn health(&self) -> BoxFuture<'_, Health> {
        Box::pin(super::health::report(&self.state))
    }

    fn collections(&self) -> BoxFuture<'_, Result<Vec<CollectionStatus>, ApiError>> {
        Box::pin(async move {
            let mut list = self
                .state
                .db
                .read(crate::catalog::collections)
                .await
                .map_err(public)?;
            // Where the checkouts live on this machine is for admins only.
            for c in &mut list {
                c.root.clear();
            }
            Ok(list)
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

    fn examples(&self) -> BoxFuture<'_, Result<Vec<String>, ApiError>> {
        Box::pin(async move {
            self.state
                .db
                .read(|c| crate::catalog::examples(c, 4))
                .await
                .map_err(public)
        })
    }

    fn sessions(&self) -> BoxFuture<'_, Result<Vec<SessionItem>, ApiError>> {
        let owner = self.owner.clone();
        Box::pin(async move {
            let list = self
                .state
                .conversations
                .list(owner, 200)
                .await
                .map_err(public)?;
            Ok(list
                .into_iter()
                .map(|s| SessionItem {
                    id: s.id,
                    title: s.title,
                    updated_at: s.updated_at,
                    turns: s.turns,
                })
                .collect())
        })
    }

    fn conversation(&self, id: String) -> BoxFuture<'_, Result<Conversation, ApiError>> {
        let owner = self.owner.clone();
        Box::pin(async move {
            self.state
                .conversations
                .conversation(id, owner)
                .await
                .map_err(public)?
                .ok_or_else(|| ErrorCode::SessionNotFound.into())
        })
    }

    fn rename_session(&self, id: String, title: String) -> BoxFuture<'_, Result<(), ApiError>> {
        let owner = self.owner.clone();
        Box::pin(async move {
            let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
            if title.is_empty() {
                return Err(ApiError::new(
                    ErrorCode::BadRequest,
                    "A title cannot be empty.",
                ));
            }
            if title.chars().count() > MAX_TITLE_CHARS {
                return Err(ApiError::new(
                    ErrorCode::BadRequest,
                    format!("Titles are limited to {MAX_TITLE_CHARS} characters."),
                ));
            }
            let found = self
                .state
                .conversations
                .rename(owner, id, title)
                .await
                .map_err(public)?;
            found
                .then_some(())
                .ok_or_else(|| ErrorCode::SessionNotFound.into())
        })
    }

    fn delete_session(&self, id: String) -> BoxFuture<'_, Result<(), ApiError>> {
        let owner = self.owner.clone();
        Box::pin(async move {
            let found = self
                .state
                .conversations
                .delete(owner, id)
                .await
                .map_err(public)?;
            found
                .then_some(())
                .ok_or_else(|| ErrorCode::SessionNotFound.into())
        })
    }

    fn feedback(&self, feedback: Feedback) -> BoxFuture<'_, Result<(), ApiError>> {
        let owner = self.owner.clone();
        Box::pin(async move {
            if feedback.value != 1 && feedback.value != -1 {
                return Err(ApiError::new(ErrorCode::BadRequest, "Feedback is 1 or -1."));
            }
            let note = feedback
                .note
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty());
            if note
                .as_ref()
                .is_some_and(|n| n.chars().count() > MAX_NOTE_CHARS)
            {
                return Err(ApiError::new(
                    ErrorCode::BadRequest,
                    format!("Comments are limited to {MAX_NOTE_CHARS} characters."),
                ));
            }
            let found = self
                .state
                .conversations
                .set_feedback(owner, feedback.turn_id, feedback.value as i64, note)
                .await
                .map_err(public)?;
            found
                .then_some(())
                .ok_or_else(|| ErrorCode::TurnNotFound.into())
        })
    }

    fn similar_requests(
        &self,
        problem: String,
    ) -> BoxFuture<'_, Result<Vec<RequestSummary>, ApiError>> {
        // A long paste is cut: similar requests are found from its start.
        let problem: String = problem.chars().take(MAX_SIMILAR_CHARS).collect();
        Box::pin(async move {
            self.state
                .requests
                .similar(problem, 5)
                .await
                .map_err(public)
        })
    }

    fn create_request(&self, input: RequestInput) -> BoxFuture<'_, Result<RequestSaved, ApiError>> {
        Box::pin(async move {
            self.limit()?;
            // Validate first so a bad form is a 400, not a database error.
            crate::requests::validate(&input).map_err(public)?;
            let owner = self.owner.id().map(str::to_string);
            let mut saved = self
                .state
                .requests
                .create(input, owner)
                .await
                .map_err(public)?;
            // Saved first: from here on nothing fails the call (a resubmit would
            // save, and perhaps file, the request twice); the tracker adds a link.
            if let Some(tracker) = Tracker::from_config(&self.state.config.requests) {
                let id = saved.request.id;
                let outcome =
                    crate::requests::tracker::file(&self.state.requests, &tracker, id, None)
                        .await
                        .unwrap_or_else(|e| {
                            let failure: ApiFailure = e.into();
                            failure.log();
                            TrackerOutcome::Failed {
                            message:
                                "Saved here, but filing it in the tracker failed; try again later."
                                    .into(),
                        }
                        });
                if let Ok(now) = self.saved(id).await {
                    saved.request.issue_url = now.request.issue_url;
                }
                saved.tracker = Some(outcome);
            }
            Ok(saved)
        })
    }

    fn file_request(
        &self,
        id: i64,
        action: FileAction,
    ) -> BoxFuture<'_, Result<RequestSaved, ApiError>> {
        Box::pin(async move {
            self.limit()?;
            let Some(tracker) = Tracker::from_config(&self.state.config.requests) else {
                return Err(public(crate::requests::RequestError::Invalid(
                    "No issue tracker is configured.".into(),
                )));
            };
            // Only whoever saved the request files it; to anyone else it does not exist.
            let owner = self.owner.id().map(str::to_string);
            let mine = self
                .state
                .requests
                .owned_by(id, owner)
                .await
                .map_err(public)?;
            if !mine {
                return Err(public(crate::requests::RequestError::NotFound(id)));
            }
            let outcome =
                crate::requests::tracker::file(&self.state.requests, &tracker, id, Some(action))
                    .await
                    .map_err(public)?;
            let mut saved = self.saved(id).await?;
            saved.tracker = Some(outcome);
            Ok(saved)
        })
    }

    fn chat_turn(
        &self,
        request: ChatRequest,
    ) -> BoxFuture<'_, Result<ByteStream<ApiError>, ApiError>> {
        Box::pin(async move {
            let events = super::chat::start(
                &self.state,
                &self.caller(),
                self.request_id.clone(),
                request,
            )
            .map_err(public)?;
            Ok(ByteStream::new(
                super::chat::sse_bytes(events).map(Ok::<String, ApiError>),
            ))
        })
    }
}

impl ServerBackend {
    fn caller(&self) -> super::guard::Caller {
        super::guard::Caller {
            owner: self.owner.clone(),
            rate_key: self.rate_key.clone(),
        }
    }

    /// Saving and filing requests share the per-client limit of questions: each
    /// may post to the team's tracker with its token.
    fn limit(&self) -> Result<(), ApiError> {
        use governor::clock::{Clock, DefaultClock};
        if let Err(not_until) = self.state.per_client.check_key(&self.rate_key) {
            crate::metrics::METRICS
                .rate_limited
                .with_label_values(&["per_client"])
                .inc();
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            return Err(public(ApiFailure::rate_limited(
                wait.as_secs_f64().ceil() as u64
            )));
        }
        Ok(())
    }

    async fn saved(&self, id: i64) -> Result<RequestSaved, ApiError> {
        self.state.requests.saved(id).await.map_err(public)
    }
}

/// Logs the internal error and returns its safe public form.
fn public(e: impl Into<ApiFailure>) -> ApiError {
    let failure: ApiFailure = e.into();
    failure.log();
    failure.public
}

pub async fn server_fn(State(state): State<AppState>, req: Request<Body>) -> Response {
    // An API path no server function answers is a 404 in the error table's shape
    // (server_fn itself answers 400 with a page of advice for developers).
    let path = req.uri().path();
    if !leptos::server_fn::axum::server_fn_paths().any(|(p, _)| p == path) {
        return ApiFailure::client(ErrorCode::NotFound, ErrorCode::NotFound.default_message())
            .into_response();
    }
    let request_id = req
        .extensions()
        .get::<super::observe::RequestId>()
        .map(|r| r.0.clone());
    let streams_events = path == CHAT_TURN_PATH;
    let (owner, rate_key) = req
        .extensions()
        .get::<super::guard::Caller>()
        .map(|c| (c.owner.clone(), c.rate_key.clone()))
        // Only reachable without the guard (never in the router): see nothing.
        .unwrap_or_else(|| {
            (
                crate::memory::Owner::Id(crate::memory::new_id()),
                String::new(),
            )
        });
    let backend: SharedBackend = Arc::new(ServerBackend {
        state,
        owner,
        rate_key,
        request_id,
    });
    let res = leptos_axum::handle_server_fns_with_context(
        move || leptos::prelude::provide_context(backend.clone()),
        req,
    )
    .await
    .into_response();
    let mut res = status_from_code(res).await;
    // The turn's body is Server-Sent Events (server_fn labels any byte stream
    // octet-stream): said so, it is also never compressed, which would buffer it.
    if streams_events && res.status().is_success() {
        let headers = res.headers_mut();
        headers.insert(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("text/event-stream"),
        );
        headers.insert(
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("no-cache"),
        );
    }
    res
}

/// Where the `chat_turn` server function is served.
const CHAT_TURN_PATH: &str = "/api/chat_turn";

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
