//! The HTTP edge: router, guard and graceful shutdown. Handlers stay thin and call
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

use crate::config::Config;
use crate::services::Services;
use crate::store::Db;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use std::sync::Arc;
use std::time::Duration;
use tower_http::compression::CompressionLayer;

/// Shared by every handler: the services every face uses, plus the edge's own
/// guard settings. Derefs to [`Services`], so handlers read `state.db`.
#[derive(Clone)]
pub struct AppState {
    pub services: Services,
    pub guard: Arc<guard::GuardConfig>,
}

impl std::ops::Deref for AppState {
    type Target = Services;
    fn deref(&self) -> &Services {
        &self.services
    }
}

impl AppState {
    /// Opens the services (see [`Services::open`]) and reads the guard settings.
    pub async fn open(config: Config, db: Db) -> Result<Self, crate::agent::AgentError> {
        let guard = Arc::new(guard::GuardConfig::new(&config.server));
        Ok(AppState {
            services: Services::open(config, db).await?,
            guard,
        })
    }
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
                .service(crate::mcp::service(&state.services)),
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
