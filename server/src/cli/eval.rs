//! `registry-chat eval`: scores retrieval (or full agent turns) on a golden set.

use super::search::Tuning;
use crate::config::Config;
use crate::eval::{self, Report, Summary};
use crate::search::{Filters, Searcher};
use clap::{Args, ValueEnum};
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Golden set (JSONL; see README "Evaluation").
    #[arg(long)]
    pub golden: PathBuf,
    #[arg(long, value_enum, default_value_t = EvalMode::Retrieval)]
    pub mode: EvalMode,
    #[command(flatten)]
    pub tuning: Tuning,
    /// Print the whole report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// List every question that missed.
    #[arg(long)]
    pub misses: bool,
    /// Write every question's raw signals to this JSONL file (for tuning).
    #[arg(long)]
    pub dump: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum EvalMode {
    Retrieval,
    Agent,
}

pub fn run(config: &Config, args: &EvalArgs) -> anyhow::Result<()> {
    let questions = eval::load(&args.golden)?;
    let rt = super::runtime()?;
    let report = rt.block_on(async {
        let results = match args.mode {
            EvalMode::Retrieval => retrieval(config, args, &questions).await?,
            EvalMode::Agent => {
                let agent = super::ask::open_agent(config).await?;
                let tty = std::io::stderr().is_terminal();
                let n = questions.len();
                eval::run_agent(&agent, &questions, |i, r| {
                    if tty {
                        eprint!("\r\x1b[2K{}/{n} {} {:.0} ms", i + 1, r.id, r.ms);
                    }
                })
                .await?
            }
        };
        anyhow::Ok(eval::report(results))
    })?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print(&report, args.misses);
    }
    Ok(())
}

async fn retrieval(
    config: &Config,
    args: &EvalArgs,
    questions: &[eval::Question],
) -> anyhow::Result<Vec<eval::metrics::QuestionResult>> {
    let db = super::open_db(config)?;
    let embedder = crate::index::embed::from_config(config)?;
    let searcher = Searcher::open(db, embedder, config.data_dir.clone()).await?;
    let mut options = args.tuning.options(10, Filters::default());
    options.explain = args.dump.is_some();
    let mut lines = Vec::new();
    let r = eval::run_retrieval_with(&searcher, questions, &options, |q, res| {
        if args.dump.is_some() {
            lines.push(
                serde_json::json!({
                    "q": q,
                    "explain": res.explain,
                    "bundles": res.bundles,
                    "no_match": res.no_match,
                    "uncovered": res.uncovered,
                    "unknown": res.unknown,
                })
                .to_string(),
            );
        }
    })
    .await?;
    if let Some(path) = &args.dump {
        std::fs::write(path, lines.join("\n"))?;
    }
    Ok(r)
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "   -".to_string(), |x| format!("{:.3}", x))
}

fn line(name: &str, s: &Summary) {
    println!(
        "{:<16} {:>4}  {}  {}  {}  {}  {}  {}  {}  {:>7.1} {:>7.1}",
        name,
        s.n,
        pct(s.recall_1),
        pct(s.recall_5),
        pct(s.recall_10),
        pct(s.mrr_10),
        pct(s.ndcg_10),
        pct(s.no_match_accuracy),
        pct(s.meta_accuracy),
        s.p50_ms,
        s.p95_ms
    );
}

fn print(r: &Report, misses: bool) {
    println!(
        "{:<16} {:>4}  {:>5}  {:>5}  {:>5}  {:>5}  {:>5}  {:>5}  {:>5}  {:>7} {:>7}",
        "", "n", "R@1", "R@5", "R@10", "MRR", "nDCG", "noM", "meta", "p50 ms", "p95 ms"
    );
    line("overall", &r.overall);
    line("hard", &r.hard);
    for (c, s) in &r.by_category {
        line(c, s);
    }
    println!(
        "no-match decision: precision {}, recall {}; false no-match on answerable questions {}",
        pct(r.no_match_precision),
        pct(r.no_match_recall),
        pct(r.overall.false_no_match_rate)
    );
    if let Some(d) = r.overall.doc_recall_5 {
        println!("doc recall@5 {:.3}", d);
    }
    if let Some(k) = r.overall.keyword_recall_5 {
        println!("keyword recall@5 {:.3}", k);
    }
    if let Some(a) = r.overall.routing_accuracy {
        println!(
            "routing accuracy {:.3}; cards all cited {}; turns with errors {}",
            a,
            pct(r.overall.grounded_rate),
            r.overall.errors.unwrap_or(0)
        );
    }
    if let Some(c) = &r.calibration {
        println!(
            "calibration over {} top results: ECE {:.3}; shown at >= 90%: {} right of {}",
            c.n,
            c.ece,
            pct(c.precision_at_90),
            c.n_at_90
        );
        for b in c.bins.iter().filter(|b| b.n > 0) {
            println!(
                "  score {:.1}-{:.1}: n {:>3}, mean score {:.3}, right {:.3}",
                b.lo, b.hi, b.n, b.confidence, b.accuracy
            );
        }
    }
    if !r.stages.is_empty() {
        println!(
            "{:<16} {:>9} {:>9} {:>9}",
            "stage", "p50 ms", "p95 ms", "max ms"
        );
        for (name, t) in &r.stages {
            println!(
                "{:<16} {:>9.1} {:>9.1} {:>9.1}",
                name, t.p50_ms, t.p95_ms, t.max_ms
            );
        }
    }
    if misses {
        for q in &r.questions {
            let misrouted = q
                .routed
                .as_deref()
                .is_some_and(|got| got != eval::metrics::expected_route(&q.category));
            let wrong = misrouted
                || q.error.is_some()
                || q.doc_hit == Some(false)
                || q.keyword_hit == Some(false)
                || match q.category.as_str() {
                    "no-match" | "meta" => !q.no_match,
                    _ if q.expected.is_empty() => false,
                    _ => q.hit_rank != Some(1) || q.no_match,
                };
            if wrong {
                let routed = q
                    .routed
                    .as_deref()
                    .map(|r| format!(" routed {r}"))
                    .unwrap_or_default();
                let error = q
                    .error
                    .as_deref()
                    .map(|e| format!(" error {e}"))
                    .unwrap_or_default();
                println!(
                    "  {} [{}{}]{routed}{error} rank {:?} score {:.2} no_match {} expected {:?} got {:?}",
                    q.id,
                    q.category,
                    if q.hard { ", hard" } else { "" },
                    q.hit_rank,
                    q.top_score,
                    q.no_match,
                    q.expected,
                    q.top.iter().take(3).collect::<Vec<_>>()
                );
            }
        }
    }
}
