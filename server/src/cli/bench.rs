//! `registry-chat bench`: prints speed and memory figures for the current index
//! (never asserts; tests do not time things).

use crate::config::Config;
use crate::eval;
use crate::index::embed::{Embedder, HashEmbedder, Purpose};
use crate::index::vectors::VectorIndex;
use crate::search::{SearchOptions, Searcher};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub mode: Option<BenchMode>,
    /// Questions to time (a golden-set file); default: the bundled sample golden set.
    #[arg(long)]
    pub golden: Option<PathBuf>,
    /// Times each question is asked.
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
    /// Also time embedding every chunk with each embedder (minutes on big corpora).
    #[arg(long)]
    pub embed: bool,
    /// Instead, time the admin queries (traces, search, quality, golden export) over
    /// this many synthetic turns in a temporary database.
    #[arg(long, value_name = "TURNS")]
    pub admin: Option<usize>,
}

#[derive(Debug, Subcommand)]
pub enum BenchMode {
    /// Drive real SSE streams at a running server: first byte, first content and
    /// done percentiles, errors, turns per second, server memory, turns saved
    Load(super::bench_load::LoadArgs),
}

fn rss() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let get = |k: &str| {
        status
            .lines()
            .find(|l| l.starts_with(k))
            .map(|l| l[k.len()..].trim().to_string())
            .unwrap_or_else(|| "?".into())
    };
    format!("RSS {} (peak {})", get("VmRSS:"), get("VmHWM:"))
}

fn p(sorted: &[f64], q: f64) -> f64 {
    eval::metrics::percentile(sorted, q)
}

pub fn run(config: &Config, args: &BenchArgs) -> anyhow::Result<()> {
    if let Some(BenchMode::Load(load)) = &args.mode {
        return super::bench_load::run(config, load);
    }
    if let Some(n) = args.admin {
        return super::bench_admin::run(n);
    }
    let golden = args
        .golden
        .clone()
        .unwrap_or_else(|| PathBuf::from("samples/golden/sample.jsonl"));
    let questions = eval::load(&golden)?;
    let rt = super::runtime()?;
    let db = super::open_db(config)?;
    rt.block_on(async {
        let t = Instant::now();
        let embedder = crate::index::embed::from_config(config)?;
        println!("embedder {} loaded in {:.0} ms", embedder.id(), t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        let searcher = Searcher::open(db.clone(), embedder.clone(), config.data_dir.clone()).await?;
        let snap = searcher.snapshot();
        println!(
            "snapshot: {} bundles, {} chunks, {} vectors, {} graph nodes, loaded in {:.0} ms; {}",
            snap.bundles.len(),
            snap.chunks.len(),
            snap.vectors.len(),
            snap.graph.nodes.len(),
            t.elapsed().as_secs_f64() * 1000.0,
            rss()
        );

        // Hybrid query latency: the first pass embeds every question (cold), the
        // repeats find their vectors in the query cache (warm, as a repeated or
        // suggested question does).
        let opts = SearchOptions::default();
        for (label, rounds) in [("cold", 1), ("warm", args.repeat.saturating_sub(1))] {
            let (mut total, mut emb, mut kw, mut rank) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for _ in 0..rounds {
                for q in &questions {
                    let t = Instant::now();
                    let r = searcher.search(&q.question, &opts).await?;
                    total.push(t.elapsed().as_secs_f64() * 1000.0);
                    emb.push(r.timings.embed_ms);
                    kw.push(r.timings.keyword_ms);
                    rank.push(r.timings.rank_ms);
                }
            }
            if total.is_empty() {
                continue;
            }
            for v in [&mut total, &mut emb, &mut kw, &mut rank] {
                v.sort_by(|a, b| a.total_cmp(b));
            }
            println!(
                "hybrid search, {label}, over {} queries: p50 {:.2} ms, p95 {:.2} ms (embed p50 {:.2} p95 {:.2}, keyword p50 {:.2}, rank p50 {:.2})",
                total.len(),
                p(&total, 50.0),
                p(&total, 95.0),
                p(&emb, 50.0),
                p(&emb, 95.0),
                p(&kw, 50.0),
                p(&rank, 50.0)
            );
        }
        embed_floor(embedder.as_ref()).await?;

        // Exact scan vs HNSW on the same vectors.
        if !snap.vectors.is_empty() {
            let texts: Vec<String> = questions.iter().map(|q| q.question.clone()).collect();
            let qv = embedder.embed(&texts, Purpose::Query).await?;
            let items: Vec<u32> = (0..snap.vectors.len() as u32).collect();
            let vecs: Vec<Vec<f32>> = (0..snap.vectors.len()).map(|s| snap.vectors.vector(s).to_vec()).collect();
            let mut idx = VectorIndex::new(items, &vecs);
            let t = Instant::now();
            idx.build_hnsw(64);
            let build = t.elapsed().as_secs_f64();
            let (mut exact_ms, mut hnsw_ms, mut hits) = (Vec::new(), Vec::new(), 0usize);
            for q in &qv {
                let t = Instant::now();
                let e = idx.exact(q, 10);
                exact_ms.push(t.elapsed().as_secs_f64() * 1000.0);
                let t = Instant::now();
                let h = idx.approximate(q, 10);
                hnsw_ms.push(t.elapsed().as_secs_f64() * 1000.0);
                hits += e.iter().filter(|(i, _)| h.iter().any(|(j, _)| j == i)).count();
            }
            exact_ms.sort_by(|a, b| a.total_cmp(b));
            hnsw_ms.sort_by(|a, b| a.total_cmp(b));
            println!(
                "vectors: {} × {}; HNSW build {:.2} s (ef_construction 64); top-10 query: exact p50 {:.3} ms, HNSW p50 {:.3} ms; HNSW recall@10 vs exact {:.3}",
                idx.len(),
                idx.dim(),
                build,
                p(&exact_ms, 50.0),
                p(&hnsw_ms, 50.0),
                hits as f64 / (qv.len() * 10).max(1) as f64
            );
        }

        if args.embed {
            let texts: Vec<String> = db.read(crate::store::distinct_texts).await?;
            let embedders: Vec<std::sync::Arc<dyn Embedder>> = vec![embedder.clone(), std::sync::Arc::new(HashEmbedder)];
            for e in embedders {
                let t = Instant::now();
                e.embed(&texts, Purpose::Passage).await?;
                let secs = t.elapsed().as_secs_f64();
                println!("index build (embed {} chunks) with {}: {:.1} s ({:.1} ms/chunk)", texts.len(), e.id(), secs, secs * 1000.0 / texts.len().max(1) as f64);
            }
        }
        println!("memory: {}", rss());
        anyhow::Ok(())
    })
}

/// One query's forward pass against the arithmetic it needs: all-MiniLM-L6 costs
/// about 21 MFLOP (multiply-adds) per word piece, so a 16-piece query is about
/// 0.35 GFLOP, a few milliseconds on one core at best. Distinct texts, so no
/// cache answers. Measured on a 2-core EPYC (32 MB L3): about 30 GFLOP/s, and
/// `perf` puts nine tenths of the pass in the matrix kernel: a lone query reads
/// the six layers' 42 MB of weights from memory for a few products each, so it
/// is bound by memory, not arithmetic. Batches (a loaded server's passes) reuse
/// each weight across their pieces and run near the kernel's 100 GFLOP/s.
async fn embed_floor(embedder: &dyn Embedder) -> anyhow::Result<()> {
    if embedder.id().starts_with("hash") {
        return Ok(());
    }
    // Sixteen word pieces with [CLS] and [SEP]: fourteen plain words.
    let words = [
        "pods",
        "restart",
        "payments",
        "namespace",
        "latency",
        "disk",
        "queue",
        "certificate",
        "ingress",
        "replica",
        "backup",
        "cluster",
        "node",
        "memory",
    ];
    let mut ms = Vec::new();
    for i in 0..60 {
        let mut w = words.to_vec();
        w.rotate_left(i % words.len());
        let text = format!("{} {}", w.join(" "), i);
        let t = Instant::now();
        embedder.embed(&[text], Purpose::Query).await?;
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    ms.sort_by(|a, b| a.total_cmp(b));
    let p50 = p(&ms, 50.0);
    println!(
        "query embedding, 16 word pieces (~0.35 GFLOP): p50 {p50:.2} ms, p95 {:.2} ms ({:.0} GFLOP/s)",
        p(&ms, 95.0),
        0.35 / (p50 / 1000.0)
    );
    Ok(())
}
