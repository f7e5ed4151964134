//! `registry-chat bundles` and `registry-chat show`.

use crate::config::Config;
use app::api::catalog::{BundleDetail, BundleFilter, TaskInfo};
use clap::Args;

#[derive(Debug, Args, Default)]
pub struct BundlesArgs {
    /// Only this collection.
    #[arg(long)]
    pub collection: Option<String>,
    /// Only this platform (kubernetes, aws, azure, gcp, ...).
    #[arg(long)]
    pub platform: Option<String>,
    /// Only read-only or read-write bundles.
    #[arg(long, value_parser = |s: &str| s.parse::<app::api::catalog::Access>())]
    pub access: Option<app::api::catalog::Access>,
    /// Print JSON (with tasks and SLIs).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args, Default)]
pub struct ShowArgs {
    /// The bundle as COLLECTION/SLUG.
    pub bundle: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn list(config: &Config, args: &BundlesArgs) -> anyhow::Result<()> {
    let db = super::open_db(config)?;
    let filter = BundleFilter {
        collection: args.collection.clone(),
        platform: args.platform.clone(),
        access: args.access,
        ..Default::default()
    };
    let bundles = db.read_blocking(|c| crate::catalog::bundles(c, &filter))?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&bundles)?);
        return Ok(());
    }
    for b in &bundles {
        println!(
            "{:<52} {:<12} {:<10} {:>2} tasks {:>2} SLIs  {}",
            b.key(),
            b.platform,
            b.access,
            b.task_count,
            b.sli_count,
            b.display_name
        );
    }
    eprintln!("{} bundles", bundles.len());
    Ok(())
}

pub fn show(config: &Config, args: &ShowArgs) -> anyhow::Result<()> {
    let Some((collection, slug)) = args.bundle.split_once('/') else {
        anyhow::bail!("give the bundle as COLLECTION/SLUG, e.g. kube-ops/k8s-pod-crashloop-triage");
    };
    let db = super::open_db(config)?;
    let Some(d) = db.read_blocking(|c| crate::catalog::detail(c, collection, slug))? else {
        anyhow::bail!("no bundle {collection}/{slug} in the index (see `registry-chat bundles`)");
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&d)?);
    } else {
        print_detail(&d);
    }
    Ok(())
}

fn print_detail(d: &BundleDetail) {
    let s = &d.summary;
    println!("{} — {}", s.key(), s.display_name);
    println!(
        "Platform: {} (from {}) · Access: {} (from {}) · Resources: {} (from {})",
        s.platform,
        d.derived_from.platform,
        s.access,
        d.derived_from.access,
        if s.resource_types.is_empty() {
            "-".to_string()
        } else {
            s.resource_types.join(", ")
        },
        d.derived_from.resource_types
    );
    if let Some(a) = &s.author {
        println!("Author: {a}");
    }
    if !d.supports.is_empty() {
        println!("Supports: {}", d.supports.join("; "));
    }
    if !s.tags.is_empty() {
        println!("Tags: {}", s.tags.join(", "));
    }
    if let Some(u) = &s.source_url {
        println!("Source: {u}");
    }
    if !s.description.is_empty() {
        println!("\n{}", s.description);
    }
    let print_tasks = |title: &str, list: &[TaskInfo]| {
        if list.is_empty() {
            return;
        }
        println!("\n{title}:");
        for (i, t) in list.iter().enumerate() {
            println!(
                "  {}. {}  [{}; {}:{}-{}]",
                i + 1,
                t.name.trim(),
                t.access,
                t.file,
                t.line_start,
                t.line_end
            );
            if !t.doc.is_empty() {
                println!("     {}", t.doc.replace('\n', "\n     "));
            }
            let tags: Vec<&str> = t.tags.iter().map(String::as_str).collect();
            if !tags.is_empty() {
                println!("     tags: {}", tags.join(", "));
            }
        }
    };
    print_tasks("Tasks (runbook)", &s.tasks);
    print_tasks("SLIs", &s.slis);
    if !d.variables.is_empty() {
        println!("\nVariables:");
        for v in &d.variables {
            let mut facts = vec![v.kind.to_string()];
            facts.extend(v.var_type.clone());
            if let Some(def) = &v.default {
                facts.push(format!("default {def:?}"));
            } else if v.required {
                facts.push("required".into());
            }
            if !v.enum_values.is_empty() {
                facts.push(format!("one of {}", v.enum_values.join("|")));
            }
            println!(
                "  {} ({}): {}",
                v.name,
                facts.join(", "),
                v.description.as_deref().unwrap_or("")
            );
        }
    }
    if !d.libraries.is_empty() {
        println!("\nLibraries:");
        for l in &d.libraries {
            let used = if l.keywords_used.is_empty() {
                String::new()
            } else {
                format!(" — uses {}", l.keywords_used.join(", "))
            };
            println!(
                "  {}{}{}",
                l.name,
                if l.external { " (external)" } else { "" },
                used
            );
        }
    }
    println!("\nFiles:");
    for f in &d.files {
        println!("  {} ({} bytes)", f.path, f.size);
    }
    if !d.warnings.is_empty() {
        println!("\nWarnings:");
        for w in &d.warnings {
            println!("  {w}");
        }
    }
}
