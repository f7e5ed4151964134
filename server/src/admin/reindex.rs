//! The admin reindex: one background job at a time running the reindex pipeline
//! (`crate::reindex`) over the configured sources (or the bundled samples), with
//! the embedder already loaded, and swapping in the new search snapshot.
//! The old snapshot answers questions throughout; progress is polled.

use crate::config::Config;
use crate::ingest::{self, IndexOptions};
use crate::reindex::{Reindex, ReindexError, Step};
use crate::search::Searcher;
use crate::store::pg::{FOLLOW_WAIT, FleetLock, Pg};
use crate::store::{Db, Shared};
use app::api::admin::{JobState, ReindexJob};
use std::sync::{Arc, Mutex};

/// Shared by the HTTP handlers and the running job.
#[derive(Clone)]
pub struct Reindexer {
    job: Arc<Mutex<ReindexJob>>,
    /// This replica among those sharing Postgres: random, new at every start.
    replica: Arc<str>,
}

impl Default for Reindexer {
    fn default() -> Self {
        Reindexer {
            job: Default::default(),
            replica: crate::memory::new_id().into(),
        }
    }
}

/// A job is already running.
#[derive(Debug)]
pub struct Busy(pub ReindexJob);

/// Why a run starts. With replicas on Postgres a run started here takes the
/// fleet's index lock (refused while another replica indexes) and, when it
/// succeeds, publishes its catalog, which announces it; a run following another
/// replica's waits for the lock, loads that catalog and publishes nothing (or the
/// replicas would follow each other for ever).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Here,
    Following,
}

/// Timestamps in the format turns are stored in, from SQLite's clock.
async fn now(db: &Db) -> Option<String> {
    db.read(|c| Ok(c.query_row(&format!("SELECT {}", crate::memory::NOW), [], |r| r.get(0))?))
        .await
        .ok()
}

impl Reindexer {
    /// Who announces this replica's runs (and ignores its own announcements).
    pub fn replica(&self) -> &str {
        &self.replica
    }

    pub fn job(&self) -> ReindexJob {
        self.lock().clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ReindexJob> {
        self.job.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn update(&self, f: impl FnOnce(&mut ReindexJob)) {
        f(&mut self.lock());
    }

    /// Starts a run unless one is running; returns the job as it starts.
    pub async fn start(
        &self,
        config: Arc<Config>,
        db: Db,
        shared: Shared,
        searcher: Arc<Searcher>,
        origin: Origin,
    ) -> Result<ReindexJob, Busy> {
        // Started here while another replica indexes: refused now, as a busy run
        // here is (a follower waits for the lock inside its run instead).
        let early: Option<Option<FleetLock>> = match origin {
            Origin::Here => match fleet_lock(&shared, origin).await {
                Ok(lock) => Some(lock),
                Err(ReindexError::FleetBusy) => return Err(Busy(self.job())),
                // Postgres unreachable: the run tries again and reports it.
                Err(_) => None,
            },
            Origin::Following => None,
        };
        let started_at = now(&db).await;
        {
            let mut j = self.lock();
            if j.state == JobState::Running {
                return Err(Busy(j.clone()));
            }
            *j = ReindexJob {
                state: JobState::Running,
                stage: match origin {
                    Origin::Here => "reading sources".into(),
                    Origin::Following => "following another replica's reindex".into(),
                },
                started_at,
                ..Default::default()
            };
        }
        let me = self.clone();
        tokio::spawn(async move {
            // An inner task, so a panic anywhere in the run ends as "failed" instead
            // of leaving the job "running" (and every later reindex refused) forever.
            let run = {
                let (me, db) = (me.clone(), db.clone());
                tokio::spawn(async move {
                    // Held to the end of the run; released if this replica dies.
                    let _fleet = match early {
                        Some(lock) => lock,
                        None => fleet_lock(&shared, origin).await?,
                    };
                    match (&shared, origin) {
                        (Shared::Postgres(pg), Origin::Following) => {
                            me.follow(&config, &db, pg, &searcher).await
                        }
                        (Shared::Postgres(pg), Origin::Here) => {
                            let message = me.run(&config, &db, &searcher).await?;
                            // A catalog that is no publication yet: changed by this
                            // run, or by an earlier one whose publishing failed.
                            if db.read(crate::store::catalog_run).await?.is_none() {
                                me.update(|j| j.stage = "publishing the catalog".into());
                                pg.publish_catalog(&db, &me.replica).await?;
                            }
                            Ok(message)
                        }
                        (Shared::Sqlite(_), _) => me.run(&config, &db, &searcher).await,
                    }
                })
            };
            let result = run.await.unwrap_or_else(|e| Err(ReindexError::Task(e)));
            let finished_at = now(&db).await;
            me.update(|j| {
                j.finished_at = finished_at;
                match result {
                    Ok(message) => {
                        j.state = JobState::Done;
                        j.stage = "done".into();
                        j.message = Some(message);
                    }
                    Err(e) => {
                        tracing::error!(error = %e, "admin reindex failed");
                        j.state = JobState::Failed;
                        j.message = Some(e.to_string());
                    }
                }
            });
        });
        Ok(self.job())
    }

    /// Following another replica: load the catalog it published, then embed what
    /// this replica's embedder lacks, rebuild the graph and swap the snapshot. No
    /// sources are read. A publication built by another schema or parser (a
    /// rolling upgrade in progress) is not loaded: the sources are indexed here.
    async fn follow(
        &self,
        config: &Config,
        db: &Db,
        pg: &Pg,
        searcher: &Searcher,
    ) -> Result<String, ReindexError> {
        let published = match pg.latest_publication().await? {
            Some(p) if p.loadable_here() => p,
            other => {
                if let Some(p) = other {
                    tracing::info!(
                        run = p.run,
                        schema = ?p.catalog_schema,
                        parser = ?p.ingest_version,
                        "the newest run published no catalog this version can load; indexing the sources here"
                    );
                }
                return self.run(config, db, searcher).await;
            }
        };
        self.update(|j| j.stage = "loading the published catalog".into());
        let run = Reindex::start(db, &config.data_dir)?;
        let rows = run.load_published(pg, &published).await?;
        let (embed, graph) = run
            .retrieval(searcher.embedder().clone(), Some(searcher), &|_| {})
            .await?;
        Ok(format!(
            "loaded the catalog replica {} published ({rows} rows); embedded {} chunks ({} cached); graph {} nodes, {} edges",
            published.replica, embed.embedded, embed.cached, graph.nodes, graph.edges,
        ))
    }

    async fn run(
        &self,
        config: &Config,
        db: &Db,
        searcher: &Searcher,
    ) -> Result<String, ReindexError> {
        let request = ingest::configured_request(config)?;
        let run = Reindex::start(db, &config.data_dir)?;
        // The catalog step blocks (git, files); the run comes back with the lock.
        let (report, run) = tokio::task::spawn_blocking(move || {
            run.catalog(&request, &IndexOptions::default())
                .map(|r| (r, run))
        })
        .await??;
        let (bundles, tasks, _, _, _, warnings) = report.totals();
        self.update(|j| j.stage = "embedding".into());
        let on_step = |step: Step| {
            self.update(|j| match step {
                Step::Embedding { done, total } => {
                    j.done = done;
                    j.total = total;
                }
                Step::Graph => j.stage = "graph".into(),
                Step::Loading => j.stage = "loading the new index".into(),
            })
        };
        let (embed, graph) = run
            .retrieval(searcher.embedder().clone(), Some(searcher), &on_step)
            .await?;
        Ok(format!(
            "{} collections, {bundles} bundles, {tasks} tasks, {warnings} warnings{}; embedded {} chunks ({} cached); graph {} nodes, {} edges; {:.1}s",
            report.collections.len(),
            if report.wrote {
                ""
            } else {
                " (no catalog changes)"
            },
            embed.embedded,
            embed.cached,
            graph.nodes,
            graph.edges,
            report.elapsed_ms as f64 / 1000.0 + embed.elapsed_ms as f64 / 1000.0,
        ))
    }
}

/// The fleet's index lock when replicas share Postgres (none with SQLite: one
/// process, and the data dir's own lock already serialises its runs).
async fn fleet_lock(shared: &Shared, origin: Origin) -> Result<Option<FleetLock>, ReindexError> {
    let Shared::Postgres(pg) = shared else {
        return Ok(None);
    };
    let lock = match origin {
        Origin::Here => pg.try_index_lock().await?,
        Origin::Following => pg.wait_index_lock(FOLLOW_WAIT).await?,
    };
    lock.map(Some).ok_or(ReindexError::FleetBusy)
}
