use super::AppState;
use app::api::status::{DatabaseHealth, Health, HealthStatus, IndexHealth, IndexState, LlmHealth};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;

/// `GET /health`: 200 when the database answers, 503 otherwise, JSON either way.
pub async fn health(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    let report = report(&state).await;
    let status = if report.is_ok() {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(report))
}

pub async fn report(state: &AppState) -> Health {
    let (mut db_ok, schema_version) = match state.db.ping().await {
        Ok(v) => (true, v),
        Err(e) => {
            tracing::error!(error = %e, "health: database check failed");
            (false, 0)
        }
    };
    if let Err(e) = state.shared.ping().await {
        tracing::error!(error = %e, backend = state.shared.backend(), "health: conversation store check failed");
        db_ok = false;
    }
    let index = match state.db.read(crate::catalog::index_summary).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(error = %e, "health: index summary failed");
            IndexHealth {
                state: IndexState::Unknown,
                collections: 0,
                bundles: 0,
                last_indexed_at: None,
                sources: Vec::new(),
                catalog_run: None,
            }
        }
    };
    let llm = &state.config.llm;
    Health {
        status: if db_ok {
            HealthStatus::Ok
        } else {
            HealthStatus::Degraded
        },
        version: env!("CARGO_PKG_VERSION").into(),
        database: DatabaseHealth {
            ok: db_ok,
            schema_version,
        },
        index,
        llm: LlmHealth {
            configured: llm.is_configured(),
            provider: llm
                .is_configured()
                .then(|| llm.provider.as_str().to_string()),
            model: llm
                .model
                .clone()
                .or_else(|| llm.deployment.clone())
                .filter(|_| llm.is_configured()),
            reachable: state.agent.llm_reachable(),
        },
        vocabulary: state.config.vocabulary,
    }
}

/// `GET /ready`: whether this replica should get traffic.
#[derive(Debug, serde::Serialize)]
pub struct Readiness {
    pub ready: bool,
    pub database: bool,
    /// Bundles in the search index this replica answers from.
    pub bundles: usize,
    pub shutting_down: bool,
}

/// `GET /ready`: 200 when the database answers, the search index this process
/// answers from has bundles (an empty index gives wrong answers, so a replica still
/// with nothing indexed yet gets no traffic) and no shutdown has begun; 503 otherwise.
/// JSON either way.
pub async fn ready(State(state): State<AppState>) -> (StatusCode, Json<Readiness>) {
    let r = readiness(&state).await;
    let status = if r.ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(r))
}

pub async fn readiness(state: &AppState) -> Readiness {
    // With Postgres, a replica that cannot reach it cannot continue conversations.
    let database = state.db.ping().await.is_ok() && state.shared.ping().await.is_ok();
    let bundles = state.searcher().snapshot().bundles.len();
    let shutting_down = state.shutdown.is_cancelled();
    Readiness {
        ready: database && bundles > 0 && !shutting_down,
        database,
        bundles,
        shutting_down,
    }
}

/// `GET /metrics`: Prometheus text format. The index figures are read from the
/// catalog at scrape time (they change only when an index run commits).
pub async fn metrics(State(state): State<AppState>) -> axum::response::Response {
    use axum::response::IntoResponse;
    match state.db.read(crate::catalog::index_figures).await {
        Ok(figures) => {
            let m = &crate::metrics::METRICS;
            m.index_bundles.reset();
            m.index_warnings.reset();
            m.index_last_change.reset();
            for f in figures {
                let name = [f.collection.as_str()];
                m.index_bundles.with_label_values(&name).set(f.bundles);
                m.index_warnings.with_label_values(&name).set(f.warnings);
                if let Some(at) = f.indexed_at_unix {
                    m.index_last_change.with_label_values(&name).set(at);
                }
            }
        }
        Err(e) => tracing::warn!(error = %e, "metrics: cannot read the catalog"),
    }
    (
        [(
            axum::http::header::CONTENT_TYPE,
            crate::metrics::CONTENT_TYPE,
        )],
        crate::metrics::METRICS.render(),
    )
        .into_response()
}
