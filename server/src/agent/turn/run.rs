//! A turn's work from the question to its `done` event, in order; and the live
//! row's partial text while it streams.

use super::options::TurnOptions;
use super::state::{Failure, State, capture};
use crate::agent::answer;
use crate::agent::classify::Category;
use crate::agent::plan;
use crate::agent::retrieve;
use crate::agent::sink::Sink;
use crate::agent::{Agent, AgentError};
use app::api::ChatEvent;
use app::api::conversation::TurnStatus;
use std::time::{Duration, Instant};

/// How often the text streamed so far is written to the live turn row.
const PARTIAL_EVERY: Duration = Duration::from_millis(500);
/// Well inside `memory::LEASE_SECS`.
const RENEW_EVERY: Duration = Duration::from_secs(10);

impl Agent {
    pub(super) async fn run(
        &self,
        st: &mut State,
        session_id: Option<&str>,
        sink: &Sink,
        options: &TurnOptions,
    ) -> Result<(), Failure> {
        let dry_run = options.dry_run;
        let t_all = Instant::now();
        let (snapshot, early) = self.understand(st, session_id, sink, options).await?;
        let computing = match early {
            Some(permit) => permit,
            None => self.computing().await?,
        };
        self.search(st, &snapshot, sink).await?;

        sink.stage("write", "Writing…").await?;
        let t = Instant::now();
        let grounding = self.ground(st, snapshot).await?;
        drop(computing);
        let (written, streamed) = self.write(st, &grounding, sink).await?;
        st.outcome = answer::finish(&grounding, written, &st.read_bundles);
        st.answer = st.outcome.text.clone();
        st.time("write", t);

        stream_outcome(st, streamed, sink).await?;
        st.timings
            .push(("total", t_all.elapsed().as_secs_f64() * 1000.0));
        if let Some(first) = sink.first_token() {
            st.timings.push((
                "first_token",
                first.duration_since(t_all).as_secs_f64() * 1000.0,
            ));
        }

        let mut record = st.record(TurnStatus::Complete);
        record.owner = options.owner.id().map(str::to_string);
        capture(&options.capture, &record);
        let title = if dry_run {
            None
        } else {
            let title = self
                .conversations
                .save_turn(record)
                .await
                .map_err(AgentError::from)?;
            Some(title)
        };
        sink.send(ChatEvent::Done {
            turn_id: (!dry_run).then(|| st.id.clone()),
            session_id: (!dry_run).then(|| st.ctx.session_id.clone()),
            elapsed_ms: st.started.map_or(0, |s| s.elapsed().as_millis() as u64),
            source: st.outcome.source,
            confidence: st.outcome.confidence,
            no_match: st.outcome.no_match,
            title,
        })
        .await?;
        Ok(())
    }

    /// A place among the turns computing at once, in arrival order.
    async fn computing(&self) -> Result<tokio::sync::SemaphorePermit<'_>, Failure> {
        // Nothing closes the gate; were it closed, the server would be going away.
        self.computing
            .acquire()
            .await
            .map_err(|_| Failure::ShuttingDown)
    }

    /// The conversation so far, the turn's row on disk, the question read once,
    /// its category, its rewrite and the plan. Returns the snapshot every later
    /// stage reads.
    async fn understand(
        &self,
        st: &mut State,
        session_id: Option<&str>,
        sink: &Sink,
        options: &TurnOptions,
    ) -> Result<
        (
            std::sync::Arc<crate::search::Snapshot>,
            Option<tokio::sync::SemaphorePermit<'_>>,
        ),
        Failure,
    > {
        let dry_run = options.dry_run;
        sink.stage("understand", "Understanding the question…")
            .await?;
        let t = Instant::now();
        st.ctx = match &options.context {
            Some(ctx) => ctx.clone(),
            None => {
                let sid = session_id.map(str::to_string);
                let owner = options.owner.clone();
                self.conversations
                    .context(sid, owner)
                    .await
                    .map_err(AgentError::from)?
            }
        };
        // On disk before the first token: a crash loses nothing that was shown.
        if !dry_run {
            let mut record = st.record(TurnStatus::Interrupted);
            record.owner = options.owner.id().map(str::to_string);
            self.conversations
                .begin_turn(record)
                .await
                .map_err(AgentError::from)?;
        }
        // Past the database: without a model, nothing from here on waits but for
        // the embedder, so the gate covers understanding too. A model's classify
        // and rewrite stay outside it (the permit is taken after them).
        let early = match self.llm {
            None => Some(self.computing().await?),
            Some(_) => None,
        };
        let snapshot = self.searcher.snapshot();
        st.query = snapshot.understand(&st.question);
        st.classification = self
            .classify(&st.query, &st.ctx, &mut st.errors, &mut st.understand)
            .await;
        st.time("classify", t);

        let category = st.classification.category;
        let t = Instant::now();
        st.rewrite = self
            .rewrite(
                &st.query,
                category,
                &st.ctx,
                &snapshot,
                &mut st.errors,
                &mut st.understand,
            )
            .await;
        st.time("rewrite", t);

        let t = Instant::now();
        let platforms: Vec<String> = {
            let mut p: Vec<String> = snapshot
                .bundles
                .iter()
                .map(|b| b.platform.clone())
                .collect();
            p.sort();
            p.dedup();
            p
        };
        st.plan = plan::plan(&st.query, category, &st.rewrite, &platforms);
        st.time("plan", t);
        Ok((snapshot, early))
    }

    /// The plan's queries, each read once, searched together.
    async fn search(
        &self,
        st: &mut State,
        snapshot: &crate::search::Snapshot,
        sink: &Sink,
    ) -> Result<(), Failure> {
        let category = st.classification.category;
        // Meta and catalog questions, and questions about a known bundle, are
        // answered from facts without a search.
        let needs_search = !matches!(category, Category::Meta | Category::Catalog)
            && st.rewrite.attribute.is_none();
        if needs_search {
            let n = st.plan.queries.len();
            sink.stage(
                "search",
                &format!("Searching {n} quer{}…", if n == 1 { "y" } else { "ies" }),
            )
            .await?;
            let t = Instant::now();
            // Each planned query read once; the question itself is already read.
            let queries: Vec<crate::query::Query> = st
                .plan
                .queries
                .iter()
                .map(|t| {
                    if *t == st.query.text {
                        st.query.clone()
                    } else {
                        let mut q = snapshot.understand(t);
                        q.inherit_evidence(&st.query);
                        q
                    }
                })
                .collect();
            st.retrieval = retrieve::retrieve(&self.searcher, &st.plan, &queries)
                .await
                .map_err(AgentError::from)?;
            st.time("retrieve", t);
            if category == Category::General
                && let Some(c) = crate::agent::classify::answered_by_readme(
                    &st.query,
                    &st.retrieval.bundles,
                    &st.retrieval.docs,
                )
                .or_else(|| {
                    crate::agent::classify::answered_by_docs(
                        &st.classification,
                        &st.retrieval.bundles,
                        &st.retrieval.docs,
                        st.retrieval.no_match,
                    )
                })
                .or_else(|| {
                    crate::agent::classify::small_talk(
                        &st.classification,
                        &st.query,
                        &st.retrieval.bundles,
                    )
                })
            {
                st.classification = c;
            }
        }
        Ok(())
    }

    /// Writes the streamed text to the live turn row every `PARTIAL_EVERY` while it
    /// grows, and at least every `RENEW_EVERY` while it does not: the write is also
    /// the turn's lease, which tells other replicas this one is still answering.
    /// Never finishes on its own (the turn's end drops it).
    pub(super) async fn save_partials(&self, turn_id: &str, sink: &Sink, dry_run: bool) {
        if dry_run {
            return std::future::pending().await;
        }
        let mut saved = 0usize;
        let mut quiet = Duration::ZERO;
        loop {
            tokio::time::sleep(PARTIAL_EVERY).await;
            let text = sink.streamed();
            if text.len() == saved && quiet < RENEW_EVERY {
                quiet += PARTIAL_EVERY;
                continue;
            }
            saved = text.len();
            quiet = Duration::ZERO;
            let id = turn_id.to_string();
            if let Err(e) = self.conversations.save_partial(id, text).await {
                tracing::warn!(error = %e, "cannot save the partial answer");
            }
        }
    }
}

/// Sends what the validated answer adds to the stream: offline text now (an
/// LLM's was live), and the cards, citations, request and suggestions.
async fn stream_outcome(st: &State, streamed: bool, sink: &Sink) -> Result<(), Failure> {
    // Offline text is streamed only now, after validation; an LLM's was live.
    // After a preview the final cards and citations replace its own, even empty.
    let replace = st.previewed;
    if !streamed {
        if !st.outcome.cards.is_empty() || replace {
            sink.send(ChatEvent::Cards {
                cards: st.outcome.cards.clone(),
            })
            .await?;
        }
        sink.text(&st.outcome.text).await?;
    } else if !st.outcome.cards.is_empty() || replace {
        sink.send(ChatEvent::Cards {
            cards: st.outcome.cards.clone(),
        })
        .await?;
    }
    if !st.outcome.citations.is_empty() || replace {
        sink.send(ChatEvent::Citations {
            citations: st.outcome.citations.clone(),
        })
        .await?;
    }
    if let Some(draft) = st.outcome.request.clone() {
        sink.send(ChatEvent::RequestCodebundle { draft }).await?;
    }
    if !st.outcome.suggestions.is_empty() {
        sink.send(ChatEvent::Suggestions {
            questions: st.outcome.suggestions.clone(),
        })
        .await?;
    }
    Ok(())
}
