use super::AppState;
use app::api::status::{DatabaseHealth, Health, IndexHealth, LlmHealth};
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
    let (db_ok, schema_version) = match state.db.ping().await {
        Ok(v) => (true, v),
        Err(e) => {
            tracing::error!(error = %e, "health: database check failed");
            (false, 0)
        }
    };
    let index = match state.db.read(crate::catalog::index_summary).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(error = %e, "health: index summary failed");
            IndexHealth {
                state: "unknown".into(),
                collections: 0,
                bundles: 0,
                last_indexed_at: None,
                sources: Vec::new(),
            }
        }
    };
    let llm = &state.config.llm;
    Health {
        status: if db_ok { "ok" } else { "degraded" }.into(),
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
    }
}
