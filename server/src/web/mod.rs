//! The HTTP edge: router, state and graceful shutdown. Handlers stay thin and call
//! into the layers below; failures become `{code, message}` bodies via `ApiFailure`.

mod admin;
mod assets;
mod backend;
mod chat;
mod export;
mod failure;
pub mod guard;
mod health;
mod observe;
mod shutdown;

pub use failure::ApiFailure;
pub use health::{Readiness, readiness};
pub use shutdown::wait_for_signal;

use crate::agent::Agent;
use crate::config::Config;
use crate::search::Searcher;
use crate::store::Db;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;
use tower_http::compression::CompressionLayer;

/// Shared by every handler.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub db: Db,
    pub agent: Arc<Agent>,
    /// Cancelled on SIGINT/SIGTERM; open answer streams end with a `shutting_down` error.
    pub shutdown: CancellationToken,
    pub started: Instant,
    /// The admin reindex job (one at a time).
    pub reindexer: crate::admin::reindex::Reindexer,
    pub guard: Arc<guard::GuardConfig>,
    /// Answers streaming at once (`server.max_concurrent_turns`).
    pub turns: Arc<tokio::sync::Semaphore>,
    /// Questions per client per minute (`server.turns_per_minute`).
    pub per_client: Arc<governor::DefaultKeyedRateLimiter<String>>,
}

impl AppState {
    /// Opens the search index over `db` with the configured embedder and builds the
    /// agent; the caller keeps the index fresh with `watch_index`.
    pub async fn open(config: Config, db: Db) -> Result<Self, crate::agent::AgentError> {
        let config = Arc::new(config);
        let embedder =
            crate::index::embed::from_config(&config).map_err(crate::search::SearchError::from)?;
        let searcher = Searcher::open(db.clone(), embedder, config.data_dir.clone()).await?;
        let agent = Arc::new(Agent::new(db.clone(), config.clone(), searcher)?);
        // Turns cut by a crash stay interrupted with what was streamed.
        match db.write(crate::memory::recover_interrupted).await {
            Ok(0) => {}
            Ok(n) => tracing::warn!(turns = n, "marked turns cut by a crash as interrupted"),
            Err(e) => tracing::error!(error = %e, "cannot recover interrupted turns"),
        }
        let per_minute = std::num::NonZeroU32::new(config.server.turns_per_minute.max(1))
            .unwrap_or(std::num::NonZeroU32::MIN);
        Ok(AppState {
            guard: Arc::new(guard::GuardConfig::new(&config.server)),
            turns: Arc::new(tokio::sync::Semaphore::new(
                config.server.max_concurrent_turns.max(1),
            )),
            per_client: Arc::new(governor::RateLimiter::keyed(governor::Quota::per_minute(
                per_minute,
            ))),
            config,
            db,
            agent,
            shutdown: CancellationToken::new(),
            started: Instant::now(),
            reindexer: Default::default(),
        })
    }

    pub fn searcher(&self) -> &Arc<Searcher> {
        self.agent.searcher()
    }
}

/// Reloads the search snapshot when the catalog or the vectors change (an index run
/// from the CLI or the admin page); the old snapshot answers until the new one is
/// ready.
pub fn watch_index(state: &AppState, every: Duration) {
    let searcher = state.searcher().clone();
    let stop = state.shutdown.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = stop.cancelled() => break,
                _ = tokio::time::sleep(every) => {}
            }
            match searcher.refresh().await {
                Ok(true) => tracing::info!("search index reloaded"),
                Ok(false) => {}
                Err(e) => tracing::warn!(error = %e, "search index reload failed"),
            }
        }
    });
}

/// Applies the retention settings now and then every hour.
pub fn watch_retention(state: &AppState) {
    let (traces, sessions) = (
        state.config.retention.trace_days,
        state.config.retention.session_days,
    );
    if traces == 0 && sessions == 0 {
        return;
    }
    let db = state.db.clone();
    let stop = state.shutdown.clone();
    tokio::spawn(async move {
        loop {
            match db
                .write(move |c| crate::memory::retention::apply(c, traces, sessions))
                .await
            {
                Ok((0, 0)) => {}
                Ok((t, s)) => tracing::info!(traces = t, sessions = s, "retention applied"),
                Err(e) => tracing::warn!(error = %e, "retention failed"),
            }
            tokio::select! {
                _ = stop.cancelled() => break,
                _ = tokio::time::sleep(Duration::from_secs(3600)) => {}
            }
        }
    });
}

/// Request bodies above this are refused before any handler runs.
const MAX_BODY_BYTES: usize = 256 * 1024;

pub fn router(state: AppState) -> Router {
    let assets = assets::Assets::from_config(&state.config);
    Router::new()
        .route("/health", get(health::health))
        .route("/ready", get(health::ready))
        .route("/metrics", get(health::metrics))
        .route("/api/chat", post(chat::chat))
        .route("/api/sessions/{id}/export", get(export::session))
        .nest("/api/admin", admin::router(state.clone()))
        .nest_service(
            "/mcp",
            tower::ServiceBuilder::new()
                .layer(axum::middleware::from_fn(crate::mcp::session_end_ok))
                .service(crate::mcp::service(&state)),
        )
        .route(
            "/api/{*fn_name}",
            get(backend::server_fn).post(backend::server_fn),
        )
        .fallback(get(assets::serve).with_state(assets.clone()))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::guard,
        ))
        // Outside the guard, so refused requests are logged and counted too.
        .layer(axum::middleware::from_fn(observe::observe))
        .with_state(state)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        // The default predicate skips `text/event-stream`, so answers are not buffered.
        .layer(CompressionLayer::new())
}

/// Serves until the shutdown token is cancelled, then gives open connections the
/// configured grace period before returning.
pub async fn serve(state: AppState, listener: tokio::net::TcpListener) -> std::io::Result<()> {
    let shutdown = state.shutdown.clone();
    let grace = Duration::from_secs(state.config.server.shutdown_grace_secs);
    let app = router(state);
    let stopping = shutdown.clone();
    let server = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(async move { stopping.cancelled().await });
    tokio::select! {
        result = server => result,
        _ = async { shutdown.cancelled().await; tokio::time::sleep(grace).await } => {
            tracing::warn!(grace_secs = grace.as_secs(), "grace period over; closing remaining connections");
            Ok(())
        }
    }
}
