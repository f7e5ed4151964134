//! The registry over the Model Context Protocol: streamable HTTP at `/mcp`, served
//! by the official Rust SDK (rmcp) inside the same axum app. Other AI tools (IDEs,
//! agents) get the same search, catalog and agent the chat uses.
//!
//! The endpoint is as open as the chat itself (it exposes nothing the chat does
//! not), and checks the `Host` header against `server.allowed_hosts` so a web page
//! cannot reach a local server through DNS rebinding.

mod render;
mod tools;

pub use tools::RegistryTools;

use crate::services::Services;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::Arc;

/// rmcp answers a session's `DELETE` with 202; the MCP clients (the official Python
/// SDK among them) expect 200 or 204 and report "Session termination failed"
/// otherwise.
pub async fn session_end_ok(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let delete = req.method() == axum::http::Method::DELETE;
    let mut res = next.run(req).await;
    if delete && res.status() == axum::http::StatusCode::ACCEPTED {
        *res.status_mut() = axum::http::StatusCode::OK;
    }
    res
}

pub fn service(state: &Services) -> StreamableHttpService<RegistryTools, LocalSessionManager> {
    let tools = RegistryTools::new(
        state.agent.clone(),
        state.db.clone(),
        state.shutdown.clone(),
    );
    let hosts = state.config.server.allowed_hosts();
    let mut config =
        StreamableHttpServerConfig::default().with_cancellation_token(state.shutdown.child_token());
    config = if hosts.iter().any(|h| h == "*") {
        config.disable_allowed_hosts()
    } else {
        config.with_allowed_hosts(hosts)
    };
    StreamableHttpService::new(
        move || Ok(tools.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    )
}
