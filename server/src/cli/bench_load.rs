//! `registry-chat bench load`: real SSE streams against a running server, the way
//! a team's browsers open them. Prints time to first byte, first content and
//! done (p50/p95/p99), errors by kind, turns per second, the server's memory
//! when its pid is given, and whether every completed turn is in its database.
//! A figure printer: nothing here passes or fails on time.

use crate::eval;
use anyhow::Context;
use app::api::ChatEvent;
use clap::Args;
use eventsource_stream::Eventsource;
use futures::StreamExt;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Debug, Args)]
pub struct LoadArgs {
    /// The running server to drive; several (comma-separated) are replicas, given
    /// turns in turn as a round-robin load balancer would.
    #[arg(long, default_value = "http://127.0.0.1:3000", value_delimiter = ',')]
    pub url: Vec<String>,
    /// Streams open at once.
    #[arg(long, default_value_t = 50)]
    pub concurrency: usize,
    /// Questions: a golden-set JSONL file (its questions) or plain text, one per
    /// line. Default: the bundled sample golden set.
    #[arg(long)]
    pub questions: Option<PathBuf>,
    /// Turns in all; the questions repeat as needed. Default: twice the concurrency.
    #[arg(long)]
    pub turns: Option<usize>,
    /// The server's process id, to sample its resident memory during the run.
    #[arg(long)]
    pub pid: Option<u32>,
    /// The server's SQLite file, to check that every completed turn was saved.
    /// Default: this configuration's database (Postgres when `database.url` is set).
    #[arg(long)]
    pub db: Option<PathBuf>,
}

/// What one stream saw.
#[derive(Default)]
struct Outcome {
    first_byte: Option<f64>,
    /// The first thing a user can read: cards, a preview or answer text.
    first_content: Option<f64>,
    first_token: Option<f64>,
    total: f64,
    turn_id: Option<String>,
    /// `None` when the turn ended with `done`.
    error: Option<String>,
}

pub fn run(config: &crate::config::Config, args: &LoadArgs) -> anyhow::Result<()> {
    let questions = load_questions(args.questions.as_deref())?;
    anyhow::ensure!(!questions.is_empty(), "no questions to ask");
    anyhow::ensure!(args.concurrency > 0, "--concurrency must be at least 1");
    let turns = args.turns.unwrap_or(args.concurrency * 2);
    let urls: Vec<String> = args
        .url
        .iter()
        .map(|u| format!("{}/api/chat", u.trim_end_matches('/')))
        .collect();
    anyhow::ensure!(!urls.is_empty(), "--url names no server");
    let url = urls.join(", ");
    let rt = super::runtime()?;
    let (outcomes, wall, rss) = rt.block_on(drive(&urls, &questions, turns, args))?;

    let done: Vec<&Outcome> = outcomes.iter().filter(|o| o.error.is_none()).collect();
    let mut errors: BTreeMap<&str, usize> = BTreeMap::new();
    for o in &outcomes {
        if let Some(e) = &o.error {
            *errors.entry(e.as_str()).or_default() += 1;
        }
    }
    println!(
        "{turns} turns, {} at once, against {url}: {} done, {} failed in {:.1} s → {:.1} turns/s",
        args.concurrency,
        done.len(),
        outcomes.len() - done.len(),
        wall,
        done.len() as f64 / wall.max(1e-9)
    );
    let row = |name: &str, pick: &dyn Fn(&Outcome) -> Option<f64>| {
        let mut v: Vec<f64> = done.iter().filter_map(|o| pick(o)).collect();
        v.sort_by(f64::total_cmp);
        if v.is_empty() {
            println!("  {name:<14} –");
        } else {
            let p = |q| eval::metrics::percentile(&v, q) * 1000.0;
            println!(
                "  {name:<14} p50 {:>7.0} ms  p95 {:>7.0} ms  p99 {:>7.0} ms  (n={})",
                p(50.0),
                p(95.0),
                p(99.0),
                v.len()
            );
        }
    };
    row("first byte", &|o| o.first_byte);
    row("first content", &|o| o.first_content);
    row("first token", &|o| o.first_token);
    row("done", &|o| Some(o.total));
    for (kind, n) in &errors {
        println!("  error {kind}: {n}");
    }
    if let Some((now, peak)) = rss {
        println!("  server RSS: peak {peak} MB sampled during the run, {now} MB at the end");
    }
    let ids: Vec<String> = done.iter().filter_map(|o| o.turn_id.clone()).collect();
    let (found, place) = match (&args.db, config.database.postgres()) {
        (None, Some(pg)) => (rt.block_on(saved_in_postgres(pg, &ids)), "Postgres".into()),
        (db, _) => {
            let db = db.clone().unwrap_or_else(|| config.database_path());
            let name = db
                .file_name()
                .map(|f| f.to_string_lossy().to_string())
                .unwrap_or_default();
            (saved(&db, &ids), name)
        }
    };
    match found {
        Ok(n) => println!(
            "  saved: {n} of {} completed turns are in {place}",
            ids.len()
        ),
        Err(e) => println!("  saved: not checked ({e:#})"),
    }
    Ok(())
}

type Driven = (Vec<Outcome>, f64, Option<(u64, u64)>);

async fn drive(
    urls: &[String],
    questions: &[String],
    turns: usize,
    args: &LoadArgs,
) -> anyhow::Result<Driven> {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(args.concurrency)
        .timeout(Duration::from_secs(600))
        .build()?;
    let gate = Arc::new(tokio::sync::Semaphore::new(args.concurrency));
    let sampler = args.pid.map(|pid| tokio::spawn(sample_rss(pid)));
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(turns);
    for i in 0..turns {
        let (client, gate) = (client.clone(), gate.clone());
        let url = urls[i % urls.len()].clone();
        let question = questions[i % questions.len()].clone();
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire_owned().await;
            one_turn(&client, &url, &question).await
        }));
    }
    let mut outcomes = Vec::with_capacity(turns);
    for t in tasks {
        outcomes.push(t.await?);
    }
    let wall = started.elapsed().as_secs_f64();
    let rss = match sampler {
        Some(s) => {
            s.abort();
            let peak = PEAK_KB.load(std::sync::atomic::Ordering::Relaxed) / 1024;
            Some((
                rss_kb(args.pid.unwrap_or_default()).unwrap_or(0) / 1024,
                peak,
            ))
        }
        None => None,
    };
    Ok((outcomes, wall, rss))
}

async fn one_turn(client: &reqwest::Client, url: &str, question: &str) -> Outcome {
    let t = Instant::now();
    let mut out = Outcome::default();
    let res = client
        .post(url)
        .json(&serde_json::json!({ "question": question }))
        .send()
        .await;
    let res = match res {
        Ok(r) if r.status().is_success() => r,
        Ok(r) => {
            out.error = Some(format!("http {}", r.status().as_u16()));
            out.total = t.elapsed().as_secs_f64();
            return out;
        }
        Err(e) => {
            out.error = Some(if e.is_timeout() { "timeout" } else { "connect" }.into());
            out.total = t.elapsed().as_secs_f64();
            return out;
        }
    };
    out.first_byte = Some(t.elapsed().as_secs_f64());
    let mut events = res.bytes_stream().eventsource();
    out.error = Some("stream ended without done".into());
    while let Some(ev) = events.next().await {
        let Ok(ev) = ev else {
            out.error = Some("broken stream".into());
            break;
        };
        let now = t.elapsed().as_secs_f64();
        match serde_json::from_str::<ChatEvent>(&ev.data) {
            Ok(ChatEvent::Token { .. }) => {
                out.first_token.get_or_insert(now);
                out.first_content.get_or_insert(now);
            }
            Ok(ChatEvent::Cards { .. } | ChatEvent::Preview { .. }) => {
                out.first_content.get_or_insert(now);
            }
            Ok(ChatEvent::Done { turn_id, .. }) => {
                out.turn_id = turn_id;
                out.error = None;
                break;
            }
            Ok(ChatEvent::Error { code, .. }) => {
                out.error = Some(code);
                break;
            }
            Ok(_) => {}
            Err(_) => {
                out.error = Some("unreadable event".into());
                break;
            }
        }
    }
    out.total = t.elapsed().as_secs_f64();
    out
}

static PEAK_KB: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

async fn sample_rss(pid: u32) {
    loop {
        if let Some(kb) = rss_kb(pid) {
            PEAK_KB.fetch_max(kb, std::sync::atomic::Ordering::Relaxed);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn load_questions(path: Option<&Path>) -> anyhow::Result<Vec<String>> {
    let path = path.unwrap_or(Path::new("samples/golden/sample.jsonl"));
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    // A golden file may open with `//` comments; its first other line says which.
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//"));
    if first.is_some_and(|l| l.starts_with('{')) {
        return Ok(eval::load(path)?.into_iter().map(|q| q.question).collect());
    }
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect())
}

/// How many of these turns the replicas' Postgres database holds.
async fn saved_in_postgres(url: &str, ids: &[String]) -> anyhow::Result<usize> {
    let pg = crate::store::pg::Pg::connect(url).await?;
    let row = pg
        .client()
        .await?
        .query_one("SELECT count(*) FROM turns WHERE id = ANY($1)", &[&ids])
        .await?;
    Ok(row.get::<_, i64>(0) as usize)
}

/// How many of these turns the server's database holds (read-only).
fn saved(db: &Path, ids: &[String]) -> anyhow::Result<usize> {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let mut st = conn.prepare("SELECT 1 FROM turns WHERE id = ?1")?;
    let mut n = 0;
    for id in ids {
        if st.exists([id])? {
            n += 1;
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The golden files open with `//` comments: they are still read as JSONL, so
    /// the load is real questions, not JSON lines sent as text.
    #[test]
    fn a_commented_golden_file_gives_its_questions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.jsonl");
        std::fs::write(
            &path,
            "// a header\n{\"id\": \"q1\", \"question\": \"pods keep restarting\", \"category\": \"general\", \"expected\": []}\n",
        )
        .unwrap();
        assert_eq!(
            load_questions(Some(&path)).unwrap(),
            vec!["pods keep restarting"]
        );
        std::fs::write(&path, "first question\n\nsecond one\n").unwrap();
        assert_eq!(
            load_questions(Some(&path)).unwrap(),
            vec!["first question", "second one"]
        );
    }
}
