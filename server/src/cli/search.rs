//! `registry-chat search`: one question through hybrid retrieval, with the signals
//! that fired.

use crate::config::Config;
use crate::search::{Filters, Fusion, Mode, SearchOptions, Searcher};
use clap::{Args, ValueEnum};

#[derive(Debug, Args, Default)]
pub struct SearchArgs {
    /// The question, as a user would type it.
    pub query: String,
    /// Bundles to return.
    #[arg(long, default_value_t = 5)]
    pub k: usize,
    #[arg(long)]
    pub platform: Option<String>,
    #[arg(long, value_parser = |s: &str| s.parse::<app::api::catalog::Access>())]
    pub access: Option<app::api::catalog::Access>,
    #[arg(long)]
    pub collection: Option<String>,
    #[arg(long = "resource-type")]
    pub resource_type: Option<String>,
    /// Only bundles with this tag (repeatable).
    #[arg(long = "tag")]
    pub tags: Vec<String>,
    /// `runbook` (has tasks) or `sli` (has SLIs).
    #[arg(long, value_parser = |s: &str| s.parse::<crate::search::BundleKind>())]
    pub kind: Option<crate::search::BundleKind>,
    #[command(flatten)]
    pub tuning: Tuning,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Switches for measuring each part of retrieval (shared with `eval`).
#[derive(Debug, Args, Default, Clone)]
pub struct Tuning {
    /// Which signals retrieve: both, vectors only, or BM25 only.
    #[arg(long, value_enum, default_value_t = ModeArg::Hybrid)]
    pub retrieval: ModeArg,
    #[arg(long, value_enum, default_value_t = FusionArg::Weighted)]
    pub fusion: FusionArg,
    /// Expand the query with graph neighbours of entities it names (off by
    /// default: it lowered ranking on the golden set; kept for measurement).
    #[arg(long)]
    pub graph_expand: bool,
    /// Boost results linked to entities in the question (off by default, same reason).
    #[arg(long)]
    pub graph_boost: bool,
    /// Turn off the everyday-words concept lexicon.
    #[arg(long)]
    pub no_concepts: bool,
    /// Turn off MMR diversification.
    #[arg(long)]
    pub no_mmr: bool,
}

#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum ModeArg {
    #[default]
    Hybrid,
    Vector,
    Keyword,
}

#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum FusionArg {
    #[default]
    Weighted,
    Rrf,
}

impl Tuning {
    pub fn options(&self, k: usize, filters: Filters) -> SearchOptions {
        SearchOptions {
            k,
            filters,
            mode: match self.retrieval {
                ModeArg::Hybrid => Mode::Hybrid,
                ModeArg::Vector => Mode::Vector,
                ModeArg::Keyword => Mode::Keyword,
            },
            fusion: match self.fusion {
                FusionArg::Weighted => Fusion::Weighted,
                FusionArg::Rrf => Fusion::Rrf,
            },
            graph_expand: self.graph_expand,
            graph_boost: self.graph_boost,
            mmr: !self.no_mmr,
            concepts: !self.no_concepts,
            explain: false,
        }
    }
}

pub fn run(config: &Config, args: &SearchArgs) -> anyhow::Result<()> {
    let question = crate::agent::validate_question(&args.query)?;
    let rt = super::runtime()?;
    let db = super::open_db(config)?;
    let results = rt.block_on(async {
        let embedder = crate::index::embed::from_config(config)?;
        let searcher = Searcher::open(db, embedder, config.data_dir.clone()).await?;
        let filters = Filters {
            collection: args.collection.clone(),
            platform: args.platform.clone(),
            resource_type: args.resource_type.clone(),
            access: args.access,
            tags: args.tags.clone(),
            kind: args.kind,
            bundles: Vec::new(),
        };
        anyhow::Ok(
            searcher
                .search(&question, &args.tuning.options(args.k, filters))
                .await?,
        )
    })?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&results)?);
        return Ok(());
    }
    if results.bundles.is_empty() {
        println!("No codebundles in the index match (is it empty? run `registry-chat index`).");
    } else if results.no_match {
        println!("No good match in the registry; the closest bundles are:");
    }
    for (i, b) in results.bundles.iter().enumerate() {
        println!(
            "{:>2}. {:.2}  {}  — {}  [{} · {}]  signals: {}",
            i + 1,
            b.score,
            b.key,
            b.display_name,
            b.platform,
            b.access,
            b.signals.fired.join(", ")
        );
        for t in &b.matched {
            println!("      ↳ {} ({}, {:.2})", t.name, t.kind, t.score);
        }
    }
    if !results.docs.is_empty() {
        println!("Docs:");
        for d in &results.docs {
            println!(
                "    {:.2}  {}  {}",
                d.score,
                d.id,
                d.heading.as_deref().unwrap_or(&d.title)
            );
        }
    }
    if !results.keywords.is_empty() {
        println!("Keywords:");
        for k in &results.keywords {
            println!("    {:.2}  {}", k.score, k.id);
        }
    }
    if !results.correlations.is_empty() {
        println!("Related:");
        for c in &results.correlations {
            println!("    {}", c.explanation);
        }
    }
    if !results.corrections.is_empty() {
        let c: Vec<String> = results
            .corrections
            .iter()
            .map(|(a, b)| format!("{a}→{b}"))
            .collect();
        println!("Spelling: {}", c.join(", "));
    }
    println!(
        "({:.1} ms: embed {:.1}, keyword {:.1}, rank {:.1})",
        results.timings.total_ms,
        results.timings.embed_ms,
        results.timings.keyword_ms,
        results.timings.rank_ms
    );
    Ok(())
}
