//! Indexing: codecollection repositories and documentation folders become the
//! catalog in SQLite that search, the agent and the UI read.
//!
//! A run has two phases. *Plan* reads files, hashes them and parses only what
//! changed, writing nothing. *Commit* applies every change in one transaction, so a
//! crash or error mid-run leaves the previous catalog serving; when nothing changed
//! it writes nothing at all.

pub mod bundle;
mod calls;
mod chunk_rows;
pub mod chunks;
mod commit;
pub mod confine;
pub mod derive;
pub mod docs;
mod evidence;
mod external;
mod lock;
pub mod markdown;
mod plan;
pub mod pylib;
pub mod record;
pub mod robot;
pub mod runwhen;
pub mod samples;
pub mod source;
mod spool;
mod usage;
pub mod walk;

pub use chunks::ChunkKind;
pub use lock::IndexLock;
pub use record::{BundleRecord, LinkBase, TaskKind, TaskRecord, Variable, Warning};
pub use source::{CollectionSource, DocSource, Location};

use crate::store::{Db, StoreError};
use app::api::ErrorCode;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// Bump when parsing or derivation changes, so the next run re-parses everything.
pub const INGEST_VERSION: &str = "15";

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error("collection {name}: {reason}")]
    Source { name: String, reason: String },
    #[error("doc set {name}: {reason}")]
    Docs { name: String, reason: String },
    #[error("two sources are named {0:?}; give one an explicit name")]
    DuplicateName(String),
    #[error("collections {0:?} and {1:?} would share one checkout folder; rename one")]
    SharedCheckout(String, String),
    #[error("cannot unpack the bundled sample registry: {0}")]
    Samples(std::io::Error),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("index run aborted by an injected failure after {0} bundles")]
    Injected(usize),
    #[error("another index run is using this data directory")]
    Busy,
    #[error("cannot spool parsed bundles in the data directory: {0}")]
    Spool(std::io::Error),
}

impl IngestError {
    pub fn code(&self) -> ErrorCode {
        match self {
            IngestError::Store(e) => e.code(),
            IngestError::Source { .. }
            | IngestError::Docs { .. }
            | IngestError::DuplicateName(_)
            | IngestError::SharedCheckout(..) => ErrorCode::BadRequest,
            IngestError::Busy => ErrorCode::IndexBusy,
            IngestError::Samples(_) | IngestError::Injected(_) | IngestError::Spool(_) => {
                ErrorCode::Internal
            }
        }
    }
}

impl From<rusqlite::Error> for IngestError {
    fn from(e: rusqlite::Error) -> Self {
        IngestError::Store(StoreError::Sqlite(e))
    }
}

#[derive(Clone, Debug, Default)]
pub struct IndexRequest {
    pub collections: Vec<CollectionSource>,
    pub docs: Vec<DocSource>,
}

#[derive(Clone, Debug, Default)]
pub struct IndexOptions {
    /// Show a progress bar on stderr (CLI on a terminal).
    pub progress: bool,
    /// Test hook: fail inside the write transaction after this many bundles.
    pub fail_after_bundles: Option<usize>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct CollectionReport {
    pub name: String,
    pub commit: Option<String>,
    pub bundles: u64,
    pub tasks: u64,
    pub slis: u64,
    pub keywords: u64,
    pub docs: u64,
    /// Bundles parsed this run (new or changed).
    pub parsed: usize,
    /// Bundles removed this run.
    pub removed: usize,
    pub unchanged: bool,
    pub warnings: Vec<Warning>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct DocSetReport {
    pub name: String,
    pub files: u64,
    pub sections: u64,
    pub unchanged: bool,
    pub warnings: Vec<Warning>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct IndexReport {
    pub collections: Vec<CollectionReport>,
    pub doc_sets: Vec<DocSetReport>,
    /// Collections and doc sets that were in the catalog but not in this run.
    pub removed: Vec<String>,
    /// False when nothing changed and nothing was written.
    pub wrote: bool,
    pub elapsed_ms: u64,
}

impl IndexReport {
    pub fn totals(&self) -> (u64, u64, u64, u64, u64, usize) {
        let c = &self.collections;
        (
            c.iter().map(|r| r.bundles).sum(),
            c.iter().map(|r| r.tasks).sum(),
            c.iter().map(|r| r.slis).sum(),
            c.iter().map(|r| r.docs).sum::<u64>()
                + self.doc_sets.iter().map(|d| d.sections).sum::<u64>(),
            c.iter().map(|r| r.keywords).sum(),
            c.iter().map(|r| r.warnings.len()).sum::<usize>()
                + self
                    .doc_sets
                    .iter()
                    .map(|d| d.warnings.len())
                    .sum::<usize>(),
        )
    }
}

/// Indexes exactly the given sources: the catalog afterwards holds these
/// collections and doc sets and nothing else. Blocking; call from a blocking
/// context.
pub fn run(
    db: &Db,
    data_dir: &Path,
    request: &IndexRequest,
    options: &IndexOptions,
) -> Result<IndexReport, IngestError> {
    let lock = IndexLock::acquire(data_dir)?;
    run_holding(db, data_dir, request, options, &lock)
}

/// `run` for a caller that already holds the data dir's index lock and keeps it
/// past the catalog (the reindex pipeline: embedding and the graph too).
pub fn run_holding(
    db: &Db,
    data_dir: &Path,
    request: &IndexRequest,
    options: &IndexOptions,
    _lock: &IndexLock,
) -> Result<IndexReport, IngestError> {
    let started = Instant::now();
    let mut names = std::collections::HashSet::new();
    for n in request
        .collections
        .iter()
        .map(|c| &c.name)
        .chain(request.docs.iter().map(|d| &d.name))
    {
        if !names.insert(n.clone()) {
            return Err(IngestError::DuplicateName(n.clone()));
        }
    }
    // Collections are planned side by side: two names that make one checkout folder
    // ("rw.cli", "rw cli") would fetch into and clean up each other's checkout.
    let mut folders = std::collections::HashMap::new();
    for c in &request.collections {
        if !matches!(c.location, Location::Git { .. }) {
            continue;
        }
        if let Some(other) = folders.insert(source::checkout_folder(&c.name), &c.name) {
            return Err(IngestError::SharedCheckout(other.clone(), c.name.clone()));
        }
    }
    let mut plan = plan::plan(db, data_dir, request, options)?;
    let wrote = plan.has_changes();
    let committed = if wrote {
        commit::commit(db, &mut plan, options)
    } else {
        Ok(())
    };
    // Git checkouts move only now, and only when the catalog moved with them. A
    // checkout that cannot move after a commit is logged, not a failed run: the
    // catalog is in, and the next run moves it.
    for c in &plan.collections {
        if let Err(e) = source::finish(&c.resolved, committed.is_ok()) {
            tracing::warn!(error = %e, "the checkout did not move to the indexed commit");
        }
    }
    committed?;
    let mut report = commit::report(db, &plan)?;
    report.wrote = wrote;
    report.elapsed_ms = started.elapsed().as_millis() as u64;
    Ok(report)
}

/// What to index when no sources are given: the config's `[[collections]]` and
/// `[[docs]]`, else the sample registry built into the binary. Used by
/// `registry-chat index` without flags and by the admin reindex.
pub fn configured_request(config: &crate::config::Config) -> Result<IndexRequest, IngestError> {
    if !config.collections.is_empty() || !config.docs.is_empty() {
        let collections = config
            .collections
            .iter()
            .map(|c| {
                let location = match (&c.path, &c.git_url) {
                    (Some(p), _) => Location::Path(p.clone()),
                    (None, Some(u)) => Location::Git {
                        url: u.clone(),
                        reference: c.git_ref.clone(),
                    },
                    (None, None) => unreachable!("validated at start-up"),
                };
                CollectionSource {
                    name: c
                        .name
                        .clone()
                        .unwrap_or_else(|| source::default_name(&location)),
                    location,
                }
            })
            .collect();
        let docs = config
            .docs
            .iter()
            .map(|d| DocSource {
                name: d
                    .name
                    .clone()
                    .unwrap_or_else(|| source::default_name(&Location::Path(d.path.clone()))),
                path: d.path.clone(),
            })
            .collect();
        return Ok(IndexRequest { collections, docs });
    }
    sample_request(&config.data_dir)
}

/// The sources used when none are configured: the sample registry in the binary.
pub fn sample_request(data_dir: &Path) -> Result<IndexRequest, IngestError> {
    let (roots, docs) = samples::unpack(data_dir).map_err(IngestError::Samples)?;
    let collections = roots
        .into_iter()
        .map(|root| {
            let location = Location::Path(root);
            CollectionSource {
                name: source::default_name(&location),
                location,
            }
        })
        .collect();
    Ok(IndexRequest {
        collections,
        docs: vec![DocSource {
            name: "registry-docs".into(),
            path: docs,
        }],
    })
}

/// Bundles whose files on disk differ from what was indexed (`slug (changed)`,
/// `slug (new)`, `slug (removed)`), for `registry-chat status`. Reads and hashes
/// files; parses nothing.
pub fn stale_bundles(db: &Db, name: &str, root: &Path) -> Result<Vec<String>, IngestError> {
    if !root.join("codebundles").is_dir() {
        return Ok(vec![format!("{} is missing", root.display())]);
    }
    let now = plan::scan(name, root)?.fingerprints();
    let stored: std::collections::BTreeMap<String, String> = db.read_blocking(|c| {
        let mut st = c.prepare(
            "SELECT b.slug, b.fingerprint FROM bundles b JOIN collections co ON co.id = b.collection_id WHERE co.name = ?1",
        )?;
        let rows = st.query_map([name], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_, _>>()?;
        Ok(rows)
    })?;
    let mut out = Vec::new();
    for (slug, fp) in &now {
        match stored.get(slug) {
            None => out.push(format!("{slug} (new)")),
            Some(old) if old != fp => out.push(format!("{slug} (changed)")),
            _ => {}
        }
    }
    out.extend(
        stored
            .keys()
            .filter(|s| !now.contains_key(*s))
            .map(|s| format!("{s} (removed)")),
    );
    Ok(out)
}
