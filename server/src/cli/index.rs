//! `registry-chat index`: builds or refreshes the catalog.

use crate::config::Config;
use crate::ingest::{
    self, CollectionSource, DocSource, IndexOptions, IndexReport, IndexRequest, Location, source,
};
use crate::reindex::{Reindex, Step};
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Debug, Args, Default)]
pub struct IndexArgs {
    /// A codecollection: a directory or a git URL (`URL#ref` picks a branch, tag or
    /// commit); prefix `NAME=` to name it. Repeatable. Without any --collection or
    /// --docs, the config's [[collections]]/[[docs]] are used, else the bundled samples.
    #[arg(long = "collection", value_name = "PATH|URL")]
    pub collections: Vec<String>,
    /// A folder of markdown documentation (`NAME=PATH` to name it). Repeatable.
    #[arg(long = "docs", value_name = "PATH")]
    pub docs: Vec<String>,
    /// Do nothing when the catalog already has collections (used by scripts/start).
    /// With replicas on Postgres, an empty catalog loads the published one if any.
    #[arg(long)]
    pub if_empty: bool,
    /// Replicas on Postgres: load the catalog another replica published (sources
    /// are not read; only what this embedder lacks is embedded). For starting a
    /// new replica quickly.
    #[arg(long, conflicts_with_all = ["collections", "docs"])]
    pub published: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(config: &Config, args: &IndexArgs) -> anyhow::Result<()> {
    keep_freed_memory();
    let db = super::open_db(config)?;
    if args.if_empty {
        let summary = db.read_blocking(crate::catalog::index_summary)?;
        if summary.collections > 0 {
            if !args.json {
                eprintln!(
                    "The catalog already has {} collections; not indexing (--if-empty).",
                    summary.collections
                );
            }
            return Ok(());
        }
    }
    let rt = super::runtime()?;
    // Held to the end of the run (dropping it releases the lock).
    let fleet = rt.block_on(fleet_lock(config, &db))?;
    // A new replica's first start (`--if-empty`) loads what the others published
    // rather than indexing the sources again.
    let first_start = match (&fleet, args.if_empty) {
        (Some((pg, _)), true) => rt
            .block_on(pg.latest_publication())?
            .is_some_and(|p| p.loadable_here()),
        _ => false,
    };
    if args.published || first_start {
        let Some((pg, _lock)) = &fleet else {
            anyhow::bail!(
                "--published loads the catalog replicas share in Postgres; set database.url"
            );
        };
        return rt.block_on(load_published(config, &db, pg, args.json));
    }
    let request = request(config, args)?;
    let options = IndexOptions {
        progress: !args.quiet && !args.json && std::io::stderr().is_terminal(),
        ..Default::default()
    };
    let run = Reindex::start(&db, &config.data_dir)?;
    let report = run.catalog(&request, &options)?;
    if !args.json {
        print_report(&report);
    }
    // The catalog is committed; now the retrieval index on top of it.
    let bar = crate::index::build::progress_bar(options.progress);
    let retrieval = rt.block_on(async {
        let embedder = crate::index::embed::from_config(config)?;
        let on_step = |step: Step| {
            if let Step::Embedding { done, total } = step {
                bar.set_length(total);
                bar.set_position(done);
            } else {
                bar.finish_and_clear();
            }
        };
        anyhow::Ok(run.retrieval(embedder, None, &on_step).await?)
    });
    bar.finish_and_clear();
    // A catalog that is no publication yet (changed by this run, or by an earlier
    // one whose publishing failed) is published, which announces it: the other
    // replicas load it.
    if let (Some((pg, _)), true) = (&fleet, retrieval.is_ok())
        && db.read_blocking(crate::store::catalog_run)?.is_none()
    {
        let me = format!("cli-{}", crate::memory::new_id());
        rt.block_on(pg.publish_catalog(&db, &me))?;
    }
    match retrieval {
        Ok((embed, graph)) => {
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(
                        &serde_json::json!({ "catalog": report, "embeddings": embed, "graph": graph })
                    )?
                );
            } else if embed.embedded > 0 || graph.rebuilt {
                println!(
                    "Embedded {} chunks with {} in {:.1}s ({} cached, {} removed); graph: {} nodes, {} edges",
                    embed.embedded,
                    embed.embedder,
                    embed.elapsed_ms as f64 / 1000.0,
                    embed.cached,
                    embed.removed,
                    graph.nodes,
                    graph.edges
                );
            }
            Ok(())
        }
        Err(e) => {
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&serde_json::json!({ "catalog": report }))?
                );
            }
            Err(anyhow::anyhow!(
                "{e:#}\nThe catalog was indexed; keyword search works. Run `registry-chat index` again to finish the vector index."
            ))
        }
    }
}

/// `index --published`: the newest published catalog, if this binary builds
/// catalogs alike, then the retrieval steps on top of it.
async fn load_published(
    config: &Config,
    db: &crate::store::Db,
    pg: &crate::store::pg::Pg,
    json: bool,
) -> anyhow::Result<()> {
    let Some(published) = pg.latest_publication().await?.filter(|p| p.rows.is_some()) else {
        anyhow::bail!("no replica has published a catalog yet; index the sources instead");
    };
    if !published.loadable_here() {
        anyhow::bail!(
            "the published catalog was built by another version (schema {}, parser {}; this binary: {}, {}); index the sources instead",
            published.catalog_schema.unwrap_or_default(),
            published.ingest_version.as_deref().unwrap_or("?"),
            crate::store::LATEST_VERSION,
            ingest::INGEST_VERSION
        );
    }
    let started = std::time::Instant::now();
    let run = Reindex::start(db, &config.data_dir)?;
    let rows = run.load_published(pg, &published).await?;
    let loaded_ms = started.elapsed().as_millis() as u64;
    let embedder = crate::index::embed::from_config(config)?;
    let (embed, graph) = run.retrieval(embedder, None, &|_| {}).await?;
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "published_by": published.replica, "rows": rows, "load_ms": loaded_ms,
                "embeddings": embed, "graph": graph,
            }))?
        );
    } else {
        println!(
            "Loaded the catalog {} published ({rows} rows) in {:.1}s; embedded {} chunks ({} cached); graph: {} nodes, {} edges",
            published.replica,
            loaded_ms as f64 / 1000.0,
            embed.embedded,
            embed.cached,
            graph.nodes,
            graph.edges
        );
    }
    Ok(())
}

/// Flags replace the config lists; with neither, the bundled sample registry.
fn request(config: &Config, args: &IndexArgs) -> anyhow::Result<IndexRequest> {
    if !args.collections.is_empty() || !args.docs.is_empty() {
        let collections = args
            .collections
            .iter()
            .map(|s| parse_collection(s))
            .collect();
        let docs = args
            .docs
            .iter()
            .map(|s| {
                let (name, path) = named(s);
                let path = PathBuf::from(path);
                let name =
                    name.unwrap_or_else(|| source::default_name(&Location::Path(path.clone())));
                DocSource { name, path }
            })
            .collect();
        return Ok(IndexRequest { collections, docs });
    }
    Ok(ingest::configured_request(config)?)
}

/// `name=value` when the part before `=` is a plain name (no path separators).
fn named(s: &str) -> (Option<String>, &str) {
    match s.split_once('=') {
        Some((n, rest)) if !n.is_empty() && !n.contains(['/', '\\', ':']) => {
            (Some(n.to_string()), rest)
        }
        _ => (None, s),
    }
}

fn parse_collection(s: &str) -> CollectionSource {
    let (name, value) = named(s);
    let is_url = value.contains("://") || (value.starts_with("git@") && value.contains(':'));
    let location = if is_url {
        let (url, reference) = match value.rsplit_once('#') {
            Some((u, r)) if !r.is_empty() => (u.to_string(), Some(r.to_string())),
            _ => (value.to_string(), None),
        };
        Location::Git { url, reference }
    } else {
        Location::Path(PathBuf::from(value))
    };
    CollectionSource {
        name: name.unwrap_or_else(|| source::default_name(&location)),
        location,
    }
}

fn print_report(r: &IndexReport) {
    let secs = r.elapsed_ms as f64 / 1000.0;
    if !r.wrote {
        println!(
            "Nothing changed since the last index ({} collections, {} doc sets checked in {secs:.2}s); nothing written.",
            r.collections.len(),
            r.doc_sets.len()
        );
    } else {
        println!(
            "Indexed {} collections and {} doc sets in {secs:.2}s",
            r.collections.len(),
            r.doc_sets.len()
        );
    }
    for c in &r.collections {
        let change = if c.unchanged {
            "unchanged".to_string()
        } else {
            format!("parsed {}, removed {}", c.parsed, c.removed)
        };
        println!(
            "  {:<28} {:>4} bundles {:>5} tasks {:>4} SLIs {:>4} keywords {:>4} doc sections {:>4} warnings  ({change}{})",
            c.name,
            c.bundles,
            c.tasks,
            c.slis,
            c.keywords,
            c.docs,
            c.warnings.len(),
            c.commit
                .as_deref()
                .map(|s| format!(", commit {}", &s[..s.len().min(10)]))
                .unwrap_or_default()
        );
    }
    for d in &r.doc_sets {
        println!(
            "  {:<28} {:>4} files {:>5} sections {:>4} warnings  (docs{})",
            d.name,
            d.files,
            d.sections,
            d.warnings.len(),
            if d.unchanged { ", unchanged" } else { "" }
        );
    }
    for name in &r.removed {
        println!("  {name:<28} removed (no longer in the sources)");
    }
    let (bundles, tasks, slis, docs, keywords, warnings) = r.totals();
    println!(
        "Total: {bundles} bundles, {tasks} tasks, {slis} SLIs, {docs} doc sections, {keywords} keywords, {warnings} warnings"
    );
    let all: Vec<String> = r
        .collections
        .iter()
        .flat_map(|c| c.warnings.iter().map(move |w| format!("{}: {w}", c.name)))
        .chain(
            r.doc_sets
                .iter()
                .flat_map(|d| d.warnings.iter().map(move |w| format!("{}: {w}", d.name))),
        )
        .collect();
    const SHOWN: usize = 15;
    if !all.is_empty() && r.wrote {
        println!("Warnings:");
        for w in all.iter().take(SHOWN) {
            println!("  {w}");
        }
        if all.len() > SHOWN {
            println!(
                "  … and {} more (registry-chat status --warnings)",
                all.len() - SHOWN
            );
        }
    }
}

/// With replicas on Postgres, the fleet's index lock, as an admin Reindex takes
/// it: one indexer at a time across replicas. A command-line run (a deploy script,
/// a new replica's first index) waits for another replica's run instead of
/// failing, for as long as a following replica would.
async fn fleet_lock(
    config: &Config,
    db: &crate::store::Db,
) -> anyhow::Result<Option<(crate::store::pg::Pg, crate::store::pg::FleetLock)>> {
    let crate::store::Shared::Postgres(pg) = crate::store::Shared::open(config, db).await? else {
        return Ok(None);
    };
    if let Some(lock) = pg.try_index_lock().await? {
        return Ok(Some((pg, lock)));
    }
    eprintln!("Another replica is indexing; waiting for it to finish…");
    let wait = crate::store::pg::FOLLOW_WAIT;
    match pg.wait_index_lock(wait).await? {
        Some(lock) => Ok(Some((pg, lock))),
        None => anyhow::bail!(
            "another replica has held the fleet's index lock for {} minutes; try again later",
            wait.as_secs() / 60
        ),
    }
}

/// An index run allocates and frees a forward pass's large buffers thousands of
/// times. glibc hands those above its mmap threshold back to the kernel and trims
/// the heap's top, so every pass faults its memory in again: 24 of the 155 CPU
/// seconds of an index run of the public collections (2.1 with this; 85 → 71 s).
/// Only this batch process keeps freed memory: in the server, glibc's defaults
/// keep the RSS under load at a third of what a caching allocator (mimalloc) took.
/// One arena for all threads: with one per embedding worker, each kept its own
/// freed passes (peak 1,353 MB against 369 MB, at the same speed).
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters; called before any
    // embedding thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collection_arguments() {
        let c = parse_collection("ops=/srv/ops");
        assert_eq!(c.name, "ops");
        assert_eq!(c.location, Location::Path(PathBuf::from("/srv/ops")));
        let c = parse_collection("https://github.com/acme/ops.git#v2");
        assert_eq!(c.name, "ops");
        assert_eq!(
            c.location,
            Location::Git {
                url: "https://github.com/acme/ops.git".into(),
                reference: Some("v2".into())
            }
        );
        let c = parse_collection("file:///tmp/repo");
        assert!(matches!(c.location, Location::Git { .. }));
    }
}
