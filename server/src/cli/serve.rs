use crate::config::Config;
use crate::web::{self, AppState};
use anyhow::Context;
use std::io::Write;

pub fn run(config: Config) -> anyhow::Result<()> {
    runtime_main(config)
}

fn runtime_main(config: Config) -> anyhow::Result<()> {
    let rt = super::runtime()?;
    rt.block_on(async move {
        let db = super::open_db(&config)?;
        let addr = config.server.addr;
        let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| {
            format!("cannot listen on {addr} (is another server running there?)")
        })?;
        let local = listener.local_addr()?;
        let state = AppState::open(config, db).await?;
        crate::services::watch_index(&state, std::time::Duration::from_secs(5));
        crate::services::watch_retention(&state);
        crate::services::watch_live_turns(&state);
        crate::services::watch_fleet_index(&state, std::time::Duration::from_secs(5));

        let shutdown = state.shutdown.clone();
        tokio::spawn(async move {
            web::wait_for_signal().await;
            shutdown.cancel();
        });

        tracing::info!(%local, "listening");
        // Scripts and tests read this line to find the server.
        println!("Registry Chat is running at http://{local}/");
        std::io::stdout().flush().ok();
        web::serve(state, listener).await.context("server error")?;
        // Spans still in the batch go out before the process ends (blocking).
        tokio::task::spawn_blocking(crate::otel::flush).await.ok();
        tracing::info!("stopped");
        Ok(())
    })
}
