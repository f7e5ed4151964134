//! `registry-chat bench --admin N`: how the admin queries scale with the number of
//! saved turns. Writes N synthetic turns (a mix of categories, no-matches, feedback
//! and errors, with realistic trace sizes) to a temporary database and times each
//! query; prints figures, asserts nothing.

use crate::admin::traces;
use crate::admin::window::{self, WindowQuery};
use crate::admin::{golden, quality};
use crate::memory::{self, TurnRecord};
use crate::store::Db;
use app::api::admin::TraceQuery;
use app::api::conversation::{Category, TurnStatus};
use serde_json::json;
use std::time::Instant;

const WORDS: &[&str] = &[
    "pods",
    "restarting",
    "payments",
    "kafka",
    "lag",
    "certificate",
    "expiry",
    "dns",
    "node",
    "pressure",
    "postgres",
    "replica",
    "ingress",
    "latency",
    "vault",
    "token",
];

fn synthetic(i: usize, session: &str) -> TurnRecord {
    let q: Vec<&str> = (0..6)
        .map(|k| WORDS[(i * 7 + k * 3) % WORDS.len()])
        .collect();
    let question = format!("{} question {i}", q.join(" "));
    TurnRecord {
        id: memory::new_id(),
        session_id: session.into(),
        status: if i.is_multiple_of(50) {
            TurnStatus::Failed
        } else {
            TurnStatus::Complete
        },
        rewritten: question.clone(),
        category: if i.is_multiple_of(4) {
            Category::FollowUp
        } else {
            Category::General
        },
        answer: format!("{} {}", "An answer paragraph with citations.".repeat(20), i),
        source: app::api::AnswerSource::Codebundles,
        confidence: (i % 100) as f32 / 100.0,
        no_match: i.is_multiple_of(7),
        model: "offline".into(),
        question,
        trace: json!({
            "timings_ms": {"classify": 12.0 + (i % 9) as f64, "retrieve": 40.0 + (i % 40) as f64, "total": 60.0 + (i % 80) as f64},
            "errors": if i.is_multiple_of(30) { vec!["llm: timeout"] } else { vec![] },
            "searches": (0..4).map(|k| json!({"query": format!("query {k}"), "hits": (0..8).map(|h| json!([format!("kube-ops/bundle-{h}"), 0.5])).collect::<Vec<_>>()})).collect::<Vec<_>>(),
        }),
        ..Default::default()
    }
}

fn time<T>(label: &str, f: impl FnOnce() -> anyhow::Result<T>) -> anyhow::Result<T> {
    let t = Instant::now();
    let out = f()?;
    println!(
        "  {label:<44} {:>8.1} ms",
        t.elapsed().as_secs_f64() * 1000.0
    );
    Ok(out)
}

pub fn run(turns: usize) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let db = Db::open(&dir.path().join("bench.db"))?;
    let t = Instant::now();
    let mut session = memory::new_id();
    db.write_blocking(|c| {
        for i in 0..turns {
            if i.is_multiple_of(5) {
                session = memory::new_id();
            }
            memory::save_turn(c, &synthetic(i, &session))?;
        }
        c.execute("UPDATE turns SET feedback = -1 WHERE rowid % 11 = 0", [])?;
        Ok(())
    })?;
    let size = std::fs::metadata(dir.path().join("bench.db"))?.len();
    println!(
        "admin over {turns} turns ({:.1} MB database, written in {:.1} s):",
        size as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    let read = |q: TraceQuery| db.read_blocking(move |c| traces::list(c, &q));
    let page = time("traces, newest 50", || Ok(read(TraceQuery::default())?))?;
    time("traces, text search (2 words)", || {
        Ok(read(TraceQuery {
            q: Some("kafka lag".into()),
            ..Default::default()
        })?)
    })?;
    time("traces, no-match + thumbs-down filters", || {
        Ok(read(TraceQuery {
            no_match: true,
            thumbs_down: true,
            ..Default::default()
        })?)
    })?;
    time("traces, errors filter", || {
        Ok(read(TraceQuery {
            errors: true,
            ..Default::default()
        })?)
    })?;
    let id = page
        .traces
        .first()
        .map(|t| t.id.clone())
        .unwrap_or_default();
    time("one trace in full", || {
        Ok(db.read_blocking(|c| traces::detail(c, &id))?)
    })?;
    let month = WindowQuery {
        days: Some(30),
        ..Default::default()
    };
    let w = db.read_blocking(|c| Ok(window::resolve(c, &month, 30)))??;
    let q = time("quality, 30-day window", || {
        Ok(db.read_blocking(|c| quality::compute(c, &w))?)
    })?;
    let text = time("golden export, 30-day window", || {
        Ok(db.read_blocking(|c| golden::export(c, &w))?)
    })?;
    println!(
        "  ({} turns in window, no-match rate {:.3}, {} golden lines)",
        q.turns,
        q.no_match_rate,
        text.lines().count()
    );
    Ok(())
}
