//! Query embeddings from many turns at once share forward passes.
//!
//! Measured with `bench load` (200 streams on 2 cores): each turn ran its own
//! forward pass on the blocking pool, so up to 200 passes ran at once. candle
//! splits every op across all cores and waits on a spinning barrier, so
//! concurrent passes spent a fifth of the CPU spinning, and each held its own
//! activations (the server grew past 2 GB). Here one worker per core runs passes
//! one after another, each on one thread (a 16-piece query takes 11.6 ms on one
//! thread and 11.2 ms split over two: splitting a small pass buys nothing, and
//! candle's shared per-op pool made concurrent passes queue on its lock and spin;
//! `main` turns it off), and a pass takes every query waiting when it starts (up
//! to `MAX_TEXTS`): under load a pass embeds many short queries for little more
//! than the cost of one, the cores run independent passes (`bench load`, 200
//! streams: 44 → 61 turns/s), and memory holds one batch per core whatever the
//! number of streams. Alone, a query waits for nothing.
//!
//! A turn embeds a few texts at once (the question, its corrected and its
//! expanded form). When no other request is waiting for vectors (a cancelled
//! one's pass may still be running) those texts are split over the workers, each part a pass of its own: the cores that would wait run them side
//! by side, and no short text is padded to the longest. Under load nothing is
//! split, so passes keep batching many turns' texts.
//!
//! Only queries come here: a reindex embeds thousands of chunks in long passes
//! and keeps its own thread, so questions are not queued behind it.

use super::EmbedError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use tokio::sync::oneshot;

/// Most texts one pass takes from the queue (a batch of short queries).
const MAX_TEXTS: usize = 64;

type Reply = oneshot::Sender<Result<Vec<Vec<f32>>, EmbedError>>;

struct Job {
    texts: Vec<String>,
    reply: Reply,
    /// A part of a split request: a pass it starts takes nothing else, so the
    /// other parts go to the other workers (a pass another job starts may still
    /// take it along; it is answered all the same).
    solo: bool,
}

#[derive(Clone)]
pub struct Batcher {
    jobs: mpsc::Sender<Job>,
    workers: usize,
    /// Requests queued or in a pass right now.
    in_flight: Arc<AtomicUsize>,
}

/// Counts a request out when it ends, answered or dropped.
struct InFlight<'a>(&'a AtomicUsize);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Batcher {
    /// Starts one embedding worker per core; `embed` runs one pass over the texts
    /// given.
    pub fn start<F>(embed: F) -> Batcher
    where
        F: Fn(&[String]) -> Result<Vec<Vec<f32>>, EmbedError> + Send + Sync + 'static,
    {
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        Batcher::with_workers(embed, workers)
    }

    fn with_workers<F>(embed: F, workers: usize) -> Batcher
    where
        F: Fn(&[String]) -> Result<Vec<Vec<f32>>, EmbedError> + Send + Sync + 'static,
    {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        let embed = Arc::new(embed);
        let workers = workers.max(1);
        for w in 0..workers {
            let (queue, embed) = (queue.clone(), embed.clone());
            std::thread::Builder::new()
                .name(format!("query-embed-{w}"))
                .spawn(move || {
                    // The model's ops run on this thread alone (see the module doc).
                    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build();
                    while let Some(batch) = next_batch(&queue) {
                        match &pool {
                            Ok(p) => p.install(|| run(embed.as_ref(), batch)),
                            Err(_) => run(embed.as_ref(), batch),
                        }
                    }
                })
                .expect("spawn a query embedding worker");
        }
        Batcher {
            jobs,
            workers,
            in_flight: Arc::new(AtomicUsize::new(0)),
        }
    }

    pub async fn embed(&self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, EmbedError> {
        // Split only when no other request waits for vectors: of a burst of
        // requests the first is split and the rest batch as before.
        let idle = self.in_flight.fetch_add(1, Ordering::SeqCst) == 0;
        let _counted = InFlight(&self.in_flight);
        let parts = if idle && self.workers > 1 && texts.len() > 1 {
            split(&texts, self.workers)
        } else {
            vec![(0..texts.len()).collect()]
        };
        let solo = parts.len() > 1;
        let mut answers = Vec::with_capacity(parts.len());
        for part in &parts {
            let (reply, answer) = oneshot::channel();
            let texts = part.iter().map(|&i| texts[i].clone()).collect();
            self.jobs
                .send(Job { texts, reply, solo })
                .map_err(|_| stopped())?;
            answers.push(answer);
        }
        let mut out = vec![Vec::new(); texts.len()];
        for (part, answer) in parts.iter().zip(answers) {
            let vectors = answer.await.map_err(|_| stopped())??;
            if vectors.len() != part.len() {
                return Err(EmbedError::Model(format!(
                    "{} vectors for {} texts",
                    vectors.len(),
                    part.len()
                )));
            }
            for (&i, v) in part.iter().zip(vectors) {
                out[i] = v;
            }
        }
        Ok(out)
    }
}

fn stopped() -> EmbedError {
    EmbedError::Model("the query embedding thread has stopped".into())
}

/// Text indices in at most `workers` parts of about equal length: longest text
/// first, each to the part with the least so far.
fn split(texts: &[String], workers: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(texts[i].len()));
    let mut parts: Vec<(usize, Vec<usize>)> = vec![(0, Vec::new()); workers.min(texts.len())];
    for i in order {
        if let Some(p) = parts.iter_mut().min_by_key(|p| p.0) {
            p.0 += texts[i].len();
            p.1.push(i);
        }
    }
    parts
        .into_iter()
        .map(|p| p.1)
        .filter(|p| !p.is_empty())
        .collect()
}

/// The next job and every job waiting behind it, up to `MAX_TEXTS` texts (a
/// split request's part alone); `None` once the batcher is gone. Workers take
/// turns at the queue.
fn next_batch(queue: &Mutex<mpsc::Receiver<Job>>) -> Option<Vec<Job>> {
    let queue = queue.lock().unwrap_or_else(|p| p.into_inner());
    let first = queue.recv().ok()?;
    let mut texts = first.texts.len();
    let solo = first.solo;
    let mut batch = vec![first];
    while !solo && texts < MAX_TEXTS {
        let Ok(job) = queue.try_recv() else { break };
        texts += job.texts.len();
        batch.push(job);
    }
    Some(batch)
}

/// One pass for the whole batch; each job gets its own slice of the vectors.
fn run<F>(embed: &F, batch: Vec<Job>)
where
    F: Fn(&[String]) -> Result<Vec<Vec<f32>>, EmbedError>,
{
    let all: Vec<String> = batch.iter().flat_map(|j| j.texts.iter().cloned()).collect();
    // A panic in the model must not end the only embedding thread (every later
    // query would fail until a restart): it fails this batch instead.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| embed(&all)))
        .unwrap_or_else(|_| Err(EmbedError::Model("the model panicked on this batch".into())));
    match result {
        Ok(vectors) => {
            let mut vectors = vectors.into_iter();
            for job in batch {
                let mine: Vec<Vec<f32>> = vectors.by_ref().take(job.texts.len()).collect();
                let _ = job.reply.send(Ok(mine));
            }
        }
        Err(e) => {
            for job in batch {
                let _ = job.reply.send(Err(EmbedError::Model(e.to_string())));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn waiting_queries_share_passes_and_each_gets_its_own_vectors() {
        let passes = Arc::new(AtomicUsize::new(0));
        let counted = passes.clone();
        let batcher = Batcher::start(move |texts| {
            counted.fetch_add(1, Ordering::SeqCst);
            // Slow enough that the other callers queue up behind the first pass.
            std::thread::sleep(std::time::Duration::from_millis(50));
            Ok(texts.iter().map(|t| vec![t.len() as f32]).collect())
        });
        let calls: Vec<_> = (0..20)
            .map(|i| {
                let b = batcher.clone();
                tokio::spawn(async move { b.embed(vec!["x".repeat(i), "y".repeat(i + 1)]).await })
            })
            .collect();
        for (i, call) in calls.into_iter().enumerate() {
            let v = call.await.unwrap().unwrap();
            assert_eq!(v, vec![vec![i as f32], vec![(i + 1) as f32]]);
        }
        let n = passes.load(Ordering::SeqCst);
        assert!(n < 20, "20 callers took {n} passes");
    }

    #[tokio::test]
    async fn an_idle_batcher_runs_a_requests_texts_side_by_side_in_order() {
        let sizes = Arc::new(Mutex::new(Vec::new()));
        let seen = sizes.clone();
        let batcher = Batcher::with_workers(
            move |texts| {
                seen.lock().unwrap().push(texts.len());
                std::thread::sleep(std::time::Duration::from_millis(20));
                Ok(texts.iter().map(|t| vec![t.len() as f32]).collect())
            },
            2,
        );
        let texts = vec!["a".repeat(3), "b".repeat(9), "c".repeat(5)];
        let v = batcher.embed(texts).await.unwrap();
        assert_eq!(v, vec![vec![3.0], vec![9.0], vec![5.0]]);
        let mut sizes = sizes.lock().unwrap().clone();
        sizes.sort();
        // The longest alone, the two shorter together: two passes, one per worker.
        assert_eq!(sizes, vec![1, 2]);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_request_while_another_waits_is_not_split() {
        let sizes = Arc::new(Mutex::new(Vec::new()));
        let seen = sizes.clone();
        let batcher = Batcher::with_workers(
            move |texts| {
                seen.lock().unwrap().push(texts.len());
                std::thread::sleep(std::time::Duration::from_millis(100));
                Ok(texts.iter().map(|t| vec![t.len() as f32]).collect())
            },
            2,
        );
        let first = {
            let b = batcher.clone();
            tokio::spawn(async move { b.embed(vec!["a".into()]).await })
        };
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        let v = batcher
            .embed(vec!["bb".into(), "ccc".into()])
            .await
            .unwrap();
        assert_eq!(v, vec![vec![2.0], vec![3.0]]);
        first.await.unwrap().unwrap();
        let mut sizes = sizes.lock().unwrap().clone();
        sizes.sort();
        assert_eq!(sizes, vec![1, 2]);
        // Both answered: nothing counts as waiting any more.
        assert_eq!(batcher.in_flight.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn split_balances_parts_by_length() {
        let texts: Vec<String> = [4, 10, 3, 3].iter().map(|&n| "x".repeat(n)).collect();
        assert_eq!(split(&texts, 2), vec![vec![1], vec![0, 2, 3]]);
        assert_eq!(split(&texts[..1], 2), vec![vec![0]]);
    }

    #[tokio::test]
    async fn a_panicking_pass_fails_its_queries_and_the_thread_lives_on() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = calls.clone();
        let batcher = Batcher::start(move |texts| {
            if counted.fetch_add(1, Ordering::SeqCst) == 0 {
                panic!("model bug");
            }
            Ok(texts.iter().map(|_| vec![1.0]).collect())
        });
        assert!(batcher.embed(vec!["a".into()]).await.is_err());
        assert_eq!(
            batcher.embed(vec!["b".into()]).await.unwrap(),
            vec![vec![1.0]]
        );
    }

    #[tokio::test]
    async fn a_failed_pass_fails_each_waiting_query() {
        let batcher = Batcher::start(|_| Err(EmbedError::Model("boom".into())));
        let err = batcher.embed(vec!["q".into()]).await.unwrap_err();
        assert!(err.to_string().contains("boom"));
    }
}
