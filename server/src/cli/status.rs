//! `registry-chat status`: what the catalog holds and what changed on disk since.

use crate::config::Config;
use clap::Args;
use serde::Serialize;

#[derive(Debug, Args, Default)]
pub struct StatusArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// List every indexing warning.
    #[arg(long)]
    pub warnings: bool,
}

#[derive(Serialize)]
struct Status {
    index: app::api::status::IndexHealth,
    collections: Vec<app::api::catalog::CollectionStatus>,
    doc_sets: Vec<crate::catalog::DocSetStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    warnings: Option<Vec<crate::catalog::WarningRow>>,
}

pub fn run(config: &Config, args: &StatusArgs) -> anyhow::Result<()> {
    let db = super::open_db(config)?;
    let (index, mut collections, doc_sets, warnings) = db.read_blocking(|c| {
        Ok((
            crate::catalog::index_summary(c)?,
            crate::catalog::collections(c)?,
            crate::catalog::doc_sets(c)?,
            if args.warnings {
                Some(crate::catalog::warnings(c)?)
            } else {
                None
            },
        ))
    })?;
    for c in &mut collections {
        c.stale = crate::ingest::stale_bundles(&db, &c.name, std::path::Path::new(&c.root))?;
    }
    let status = Status {
        index,
        collections,
        doc_sets,
        warnings,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&status)?);
        return Ok(());
    }
    println!(
        "Index: {} ({} collections, {} bundles)",
        status.index.state, status.index.collections, status.index.bundles
    );
    if status.collections.is_empty() {
        println!("Nothing indexed yet: run `registry-chat index`.");
    }
    for c in &status.collections {
        let commit = c
            .commit
            .as_deref()
            .map(|s| s[..s.len().min(10)].to_string())
            .unwrap_or_else(|| format!("content {}", &c.content_hash[..10]));
        println!(
            "  {:<28} {:>4} bundles {:>5} tasks {:>4} SLIs {:>4} docs {:>4} keywords {:>4} warnings  {commit}  indexed {}",
            c.name, c.bundles, c.tasks, c.slis, c.docs, c.keywords, c.warnings, c.indexed_at
        );
        if !c.stale.is_empty() {
            println!("      stale since indexing: {}", c.stale.join(", "));
        }
    }
    for d in &status.doc_sets {
        println!(
            "  {:<28} {:>4} files {:>5} sections  (docs)  indexed {}",
            d.name, d.files, d.sections, d.indexed_at
        );
    }
    if let Some(ws) = &status.warnings {
        println!("Warnings ({}):", ws.len());
        for w in ws {
            println!(
                "  {}: {}{}: {}",
                w.source,
                w.path,
                w.line.map(|l| format!(":{l}")).unwrap_or_default(),
                w.message
            );
        }
    }
    Ok(())
}
