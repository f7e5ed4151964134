//! The services every face of the server shares: configuration, storage, the
//! agent, the reindex job, limits on concurrent turns and the shutdown signal. It
//! sits below `web`, `mcp` and `cli`, so none of them reaches into another for it.

use crate::agent::Agent;
use crate::config::Config;
use crate::search::Searcher;
use crate::store::Db;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// What every face of the server (HTTP, MCP, the CLI's chat) works with.
#[derive(Clone)]
pub struct Services {
    pub config: Arc<Config>,
    pub db: Db,
    /// What replicas share: `db` itself, or Postgres (`database.url`).
    pub shared: crate::store::Shared,
    /// Sessions and turns, in `shared`.
    pub conversations: crate::memory::Conversations,
    /// Codebundle requests, in `shared`.
    pub requests: crate::requests::Requests,
    /// Saved turns as the admin console reads them, in `shared`.
    pub saved_turns: crate::admin::Turns,
    pub agent: Arc<Agent>,
    /// Cancelled on SIGINT/SIGTERM; open answer streams end with a `shutting_down` error.
    pub shutdown: CancellationToken,
    pub started: Instant,
    /// The admin reindex job (one at a time).
    pub reindexer: crate::admin::reindex::Reindexer,
    /// Answers streaming at once (`server.max_concurrent_turns`).
    pub turns: Arc<tokio::sync::Semaphore>,
    /// Questions per client per minute (`server.turns_per_minute`).
    pub per_client: Arc<governor::DefaultKeyedRateLimiter<String>>,
}

impl Services {
    /// Opens the search index over `db` with the configured embedder and builds the
    /// agent; the caller keeps the index fresh with `watch_index`.
    pub async fn open(config: Config, db: Db) -> Result<Self, crate::agent::AgentError> {
        let config = Arc::new(config);
        let embedder =
            crate::index::embed::from_config(&config).map_err(crate::search::SearchError::from)?;
        let shared = crate::store::Shared::open(&config, &db).await?;
        let conversations = crate::memory::Conversations(shared.clone());
        let searcher = Searcher::open(db.clone(), embedder, config.data_dir.clone()).await?;
        let agent = Arc::new(Agent::new(
            db.clone(),
            conversations.clone(),
            config.clone(),
            searcher,
        )?);
        let warm = agent.clone();
        tokio::spawn(async move { warm.warm_up().await });
        // Turns cut by a crash stay interrupted with what was streamed.
        match conversations.recover_interrupted().await {
            Ok(0) => {}
            Ok(n) => tracing::warn!(turns = n, "marked turns cut by a crash as interrupted"),
            Err(e) => tracing::error!(error = %e, "cannot recover interrupted turns"),
        }
        let per_minute = std::num::NonZeroU32::new(config.server.turns_per_minute.max(1))
            .unwrap_or(std::num::NonZeroU32::MIN);
        Ok(Services {
            turns: Arc::new(tokio::sync::Semaphore::new(
                config.server.max_concurrent_turns.max(1),
            )),
            per_client: Arc::new(governor::RateLimiter::keyed(governor::Quota::per_minute(
                per_minute,
            ))),
            config,
            requests: crate::requests::Requests::new(shared.clone(), db.clone()),
            saved_turns: crate::admin::Turns::new(shared.clone(), db.clone()),
            db,
            shared,
            conversations,
            agent,
            shutdown: CancellationToken::new(),
            started: Instant::now(),
            reindexer: Default::default(),
        })
    }

    pub fn searcher(&self) -> &Arc<Searcher> {
        self.agent.searcher()
    }

    /// Starts the reindex job over this replica's configuration and index.
    pub async fn start_reindex(
        &self,
        origin: crate::admin::reindex::Origin,
    ) -> Result<app::api::admin::ReindexJob, crate::admin::reindex::Busy> {
        self.reindexer
            .start(
                self.config.clone(),
                self.db.clone(),
                self.shared.clone(),
                self.searcher().clone(),
                origin,
            )
            .await
    }
}

/// Reloads the search snapshot when the catalog or the vectors change (an index run
/// from the CLI or the admin page); the old snapshot answers until the new one is
/// ready.
pub fn watch_index(state: &Services, every: Duration) {
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
pub fn watch_retention(state: &Services) {
    let (traces, sessions) = (
        state.config.retention.trace_days,
        state.config.retention.session_days,
    );
    if traces == 0 && sessions == 0 {
        return;
    }
    let conversations = state.conversations.clone();
    let stop = state.shutdown.clone();
    tokio::spawn(async move {
        loop {
            match conversations.retention(traces, sessions).await {
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

/// With replicas on Postgres, a replica that dies mid-answer leaves its turn live:
/// every replica sweeps for turns whose lease ran out, so the conversation shows
/// the turn as interrupted with what was streamed. SQLite recovers at start-up.
pub fn watch_live_turns(state: &Services) {
    if !matches!(state.shared, crate::store::Shared::Postgres(_)) {
        return;
    }
    let conversations = state.conversations.clone();
    let stop = state.shutdown.clone();
    let every = Duration::from_secs(crate::memory::LEASE_SECS as u64 / 4);
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = stop.cancelled() => break,
                _ = tokio::time::sleep(every) => {}
            }
            match conversations.recover_interrupted().await {
                Ok(0) => {}
                Ok(n) => tracing::warn!(
                    turns = n,
                    "marked turns of a stopped replica as interrupted"
                ),
                Err(e) => tracing::warn!(error = %e, "cannot sweep for interrupted turns"),
            }
        }
    });
}

/// With replicas on Postgres: when another replica announces a reindex, follow
/// it (waiting for the fleet's index lock): load the catalog it published, or
/// index the sources here when it published none this version can load. A
/// replica that starts behind the newest publication (it was down, or built its
/// own catalog) follows at once. A cheap poll of one row; SQLite: nothing to follow.
pub fn watch_fleet_index(state: &Services, every: Duration) {
    let crate::store::Shared::Postgres(pg) = &state.shared else {
        return;
    };
    let (pg, state) = (pg.clone(), state.clone());
    tokio::spawn(async move {
        let latest =
            |pg: crate::store::pg::Pg| async move { pg.latest_publication().await.ok().flatten() };
        // Runs announced before this replica started need no following when its
        // catalog is the newest publication (or there is none to load).
        let holds = state
            .db
            .read(crate::store::catalog_run)
            .await
            .ok()
            .flatten();
        let mut seen = match latest(pg.clone()).await {
            Some(p) if p.loadable_here() && holds != Some(p.run) => 0,
            Some(p) => p.run,
            None => 0,
        };
        loop {
            tokio::select! {
                _ = state.shutdown.cancelled() => break,
                _ = tokio::time::sleep(every) => {}
            }
            let Some(crate::store::pg::Publication {
                run: id, replica, ..
            }) = latest(pg.clone()).await
            else {
                continue;
            };
            if id <= seen {
                continue;
            }
            if replica == state.reindexer.replica() {
                seen = id;
                continue;
            }
            let started = state
                .start_reindex(crate::admin::reindex::Origin::Following)
                .await;
            // Busy: a run is going here already; look again next time.
            if started.is_ok() {
                tracing::info!(run = id, "following another replica's reindex");
                seen = id;
            }
        }
    });
}
