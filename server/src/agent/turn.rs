//! One turn: understand → rewrite → plan → retrieve → write → save → done, streamed
//! as events. The turn's task watches three things at once: its work, the client
//! (when the stream is dropped the work is dropped, and with it any LLM request),
//! and server shutdown. Whatever happens, the turn is saved: complete before its
//! `done` event, or marked interrupted or failed.

use super::answer::{self, Grounding, Outcome, Written};
use super::classify::{self, Category, Classification};
use super::plan::{self, Plan};
use super::retrieve::{self, Retrieval};
use super::rewrite::{self, Rewrite};
use super::sink::{ClientGone, Sink};

use super::tools::ToolBox;
use super::{Agent, AgentError};
use crate::memory::{self, SessionContext, TurnRecord};
use app::api::conversation::TurnStatus;
use app::api::{ChatEvent, ErrorCode};
use futures::Stream;
use serde_json::json;
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

#[derive(Clone, Default)]
pub struct TurnOptions {
    /// Pause between streamed pieces of offline text (zero for the CLI and eval).
    pub pace: Duration,
    /// Server shutdown: the turn ends with a `shutting_down` error.
    pub shutdown: CancellationToken,
    /// Do not record the turn (admin test queries).
    pub dry_run: bool,
    /// Answer within this conversation instead of loading the session from SQLite
    /// (a test query replays its earlier questions without saving them).
    pub context: Option<SessionContext>,
    /// Receives the turn's full record when it ends, saved or not.
    pub capture: Option<Capture>,
    /// Who is asking: a conversation is continued only by its owner, and a new
    /// one is theirs.
    pub owner: crate::memory::Owner,
    /// Wall-clock budget of the whole turn (zero: none).
    pub budget: Duration,
    /// The HTTP request that asked (`x-request-id`), kept in the trace.
    pub request_id: Option<String>,
}

/// Where a turn leaves its record for the caller (see `TurnOptions::capture`).
pub type Capture = Arc<std::sync::Mutex<Option<TurnRecord>>>;

fn capture(slot: &Option<Capture>, record: &TurnRecord) {
    if let Some(slot) = slot
        && let Ok(mut s) = slot.lock()
    {
        *s = Some(record.clone());
    }
}

pub struct Turn {
    rx: mpsc::Receiver<ChatEvent>,
}

impl Stream for Turn {
    type Item = ChatEvent;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<ChatEvent>> {
        self.rx.poll_recv(cx)
    }
}

/// How often the text streamed so far is written to the live turn row.
const PARTIAL_EVERY: Duration = Duration::from_millis(500);

/// What a turn has produced so far, saved whatever the outcome.
#[derive(Default)]
struct State {
    id: String,
    question: String,
    /// The question as read once (`query::Query`), shared by every stage.
    query: crate::query::Query,
    ctx: SessionContext,
    classification: Classification,
    rewrite: Rewrite,
    plan: Plan,
    retrieval: Retrieval,
    answer: String,
    outcome: Outcome,
    model: String,
    tokens: (u32, u32),
    timings: Vec<(&'static str, f64)>,
    errors: Vec<String>,
    llm_rounds: Vec<serde_json::Value>,
    /// The classify and rewrite LLM exchanges.
    understand: Vec<serde_json::Value>,
    reports: Vec<(String, String)>,
    /// Bundles the model's tools opened (citable besides the retrieved ones).
    read_bundles: Vec<String>,
    fallback: bool,
    /// The offline answer was shown as a preview while the model wrote.
    previewed: bool,
    started: Option<Instant>,
    /// Wall-clock start and each stage's (offset, duration) in ms, for OpenTelemetry.
    started_at: Option<std::time::SystemTime>,
    spans: Vec<(&'static str, f64, f64)>,
    request_id: Option<String>,
}

impl State {
    fn time(&mut self, stage: &'static str, since: Instant) {
        let ms = since.elapsed().as_secs_f64() * 1000.0;
        self.timings.push((stage, ms));
        let offset = self.started.map_or(0.0, |s| {
            since.saturating_duration_since(s).as_secs_f64() * 1000.0
        });
        self.spans.push((stage, offset, ms));
    }

    fn record(&self, status: TurnStatus) -> TurnRecord {
        let timings: serde_json::Map<String, serde_json::Value> = self
            .timings
            .iter()
            .map(|(k, v)| (k.to_string(), json!((v * 10.0).round() / 10.0)))
            .collect();
        TurnRecord {
            id: self.id.clone(),
            session_id: self.ctx.session_id.clone(),
            owner: None,
            status,
            question: self.question.clone(),
            rewritten: self.rewrite.query.clone(),
            category: self.classification.category,
            answer: self.answer.clone(),
            source: self.outcome.source,
            confidence: self.outcome.confidence,
            no_match: self.outcome.no_match,
            model: self.model.clone(),
            tokens_in: self.tokens.0,
            tokens_out: self.tokens.1,
            latency_ms: self.started.map_or(0, |s| s.elapsed().as_millis() as u64),
            filters: self.plan.filters.clone(),
            cited: self
                .outcome
                .citations
                .iter()
                .map(|c| c.id.clone())
                .collect(),
            cards: self.outcome.cards.clone(),
            trace: json!({
                "understanding": self.query,
                "classification": self.classification,
                "rewrite": self.rewrite,
                "plan": self.plan,
                "searches": self.retrieval.searches,
                "no_match": self.retrieval.no_match,
                "uncovered": self.retrieval.uncovered,
                "correlations": self.retrieval.correlations,
                "llm": {"model": self.model, "understand": self.understand, "rounds": self.llm_rounds, "fallback": self.fallback},
                "citations": self.outcome.citations,
                "citations_dropped": self.outcome.dropped,
                "request": self.outcome.request,
                "suggestions": self.outcome.suggestions,
                "reports": self.reports.iter().map(|(t, m)| json!({"title": t, "markdown": m})).collect::<Vec<_>>(),
                "timings_ms": timings,
                "errors": self.errors,
                "request_id": self.request_id,
            }),
        }
    }
}

/// Counts a finished turn in `/metrics` (dry runs, the admin's test queries, are
/// not traffic).
fn record_metrics(state: &State, outcome: &Result<(), Failure>) {
    let label = match outcome {
        Ok(()) if state.outcome.no_match => "no_match",
        Ok(()) => "ok",
        Err(Failure::ClientGone | Failure::ShuttingDown) => "interrupted",
        Err(Failure::OverBudget) => "timeout",
        Err(Failure::Agent(_)) => "error",
    };
    let source = state.outcome.source.as_str();
    crate::metrics::turn(
        state.classification.category.as_str(),
        label,
        source,
        &state.timings,
    );
    if let (Some(start), Some(started)) = (state.started_at, state.started) {
        crate::otel::turn(&crate::otel::TurnSpan {
            start,
            total_ms: started.elapsed().as_secs_f64() * 1000.0,
            request_id: state.request_id.as_deref(),
            category: state.classification.category.as_str(),
            outcome: label,
            source,
            stages: &state.spans,
        });
    }
    let m = &crate::metrics::METRICS;
    m.llm_tokens
        .with_label_values(&["prompt"])
        .inc_by(u64::from(state.tokens.0));
    m.llm_tokens
        .with_label_values(&["completion"])
        .inc_by(u64::from(state.tokens.1));
}

enum Failure {
    ClientGone,
    ShuttingDown,
    /// The turn used up its wall-clock budget.
    OverBudget,
    Agent(AgentError),
}

impl From<ClientGone> for Failure {
    fn from(_: ClientGone) -> Self {
        Failure::ClientGone
    }
}

impl From<AgentError> for Failure {
    fn from(e: AgentError) -> Self {
        Failure::Agent(e)
    }
}

impl Agent {
    pub fn start_turn(
        self: &Arc<Self>,
        question: String,
        session_id: Option<String>,
        options: TurnOptions,
    ) -> Turn {
        let (tx, rx) = mpsc::channel(256);
        let agent = self.clone();
        tokio::spawn(
            async move {
                let sink = Sink::new(tx, options.pace);
                let mut state = State {
                    id: crate::memory::new_id(),
                    // A fresh id until the context is loaded, so even a turn interrupted
                    // at once is saved (a client-given id is used only once looked up).
                    ctx: SessionContext {
                        session_id: crate::memory::new_id(),
                        ..Default::default()
                    },
                    question,
                    model: agent
                        .llm
                        .as_ref()
                        .map_or("offline".into(), |l| l.model().to_string()),
                    started: Some(Instant::now()),
                    started_at: Some(std::time::SystemTime::now()),
                    request_id: options.request_id.clone(),
                    ..Default::default()
                };
                let turn_id = state.id.clone();
                let outcome = {
                    let work = agent.run(&mut state, session_id.as_deref(), &sink, &options);
                    let budget = async {
                        if options.budget.is_zero() {
                            std::future::pending::<()>().await
                        } else {
                            tokio::time::sleep(options.budget).await
                        }
                    };
                    let partial = agent.save_partials(&turn_id, &sink, options.dry_run);
                    tokio::select! {
                        _ = options.shutdown.cancelled() => Err(Failure::ShuttingDown),
                        _ = sink.closed() => Err(Failure::ClientGone),
                        _ = budget => Err(Failure::OverBudget),
                        _ = partial => Err(Failure::ClientGone),
                        r = work => r,
                    }
                };
                // What reached the client, when the turn ends before writing its answer.
                if state.answer.is_empty() {
                    state.answer = sink.streamed();
                }
                if !options.dry_run {
                    record_metrics(&state, &outcome);
                }
                let (status, last) = match outcome {
                    Ok(()) => return,
                    Err(Failure::ClientGone) => (TurnStatus::Interrupted, None),
                    Err(Failure::ShuttingDown) => (
                        TurnStatus::Interrupted,
                        Some(error_event(ErrorCode::ShuttingDown, None)),
                    ),
                    Err(Failure::OverBudget) => {
                        state.errors.push(format!(
                            "the turn exceeded its budget of {} s",
                            options.budget.as_secs()
                        ));
                        (
                            TurnStatus::Failed,
                            Some(error_event(ErrorCode::TurnTimeout, None)),
                        )
                    }
                    Err(Failure::Agent(e)) => {
                        tracing::error!(error = %e, "turn failed");
                        state.errors.push(e.to_string());
                        (
                            TurnStatus::Failed,
                            Some(error_event(e.code(), Some(e.public_message()))),
                        )
                    }
                };
                let mut record = state.record(status);
                record.owner = options.owner.id().map(str::to_string);
                capture(&options.capture, &record);
                if !options.dry_run
                    && !state.ctx.session_id.is_empty()
                    && let Err(e) = agent
                        .db
                        .write(move |c| memory::save_turn(c, &record).map(|_| ()))
                        .await
                {
                    tracing::error!(error = %e, "could not save an unfinished turn");
                }
                if let Some(ev) = last {
                    // The preview's cards and citations were on screen beside the
                    // model's partial text; the failed turn keeps only what it
                    // saved, so the screen shows what a reload will.
                    if state.previewed && !state.answer.is_empty() {
                        let _ = sink
                            .send(ChatEvent::Cards {
                                cards: state.outcome.cards.clone(),
                            })
                            .await;
                        let _ = sink
                            .send(ChatEvent::Citations {
                                citations: state.outcome.citations.clone(),
                            })
                            .await;
                    }
                    let _ = sink.send(ev).await;
                }
            }
            .instrument(tracing::Span::current()),
        );
        Turn { rx }
    }

    async fn run(
        &self,
        st: &mut State,
        session_id: Option<&str>,
        sink: &Sink,
        options: &TurnOptions,
    ) -> Result<(), Failure> {
        let dry_run = options.dry_run;
        let t_all = Instant::now();
        sink.stage("understand", "Understanding the question…")
            .await?;
        let t = Instant::now();
        st.ctx = match &options.context {
            Some(ctx) => ctx.clone(),
            None => {
                let sid = session_id.map(str::to_string);
                let owner = options.owner.clone();
                self.db
                    .read(move |c| memory::context(c, sid.as_deref(), &owner))
                    .await
                    .map_err(AgentError::from)?
            }
        };
        // On disk before the first token: a crash loses nothing that was shown.
        if !dry_run {
            let mut record = st.record(TurnStatus::Interrupted);
            record.owner = options.owner.id().map(str::to_string);
            self.db
                .write(move |c| memory::begin_turn(c, &record))
                .await
                .map_err(AgentError::from)?;
        }
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
        }

        sink.stage("write", "Writing…").await?;
        let t = Instant::now();
        let grounding = self.ground(st, snapshot).await?;
        let (written, streamed) = self.write(st, &grounding, sink).await?;
        st.outcome = answer::finish(&grounding, written, &st.read_bundles);
        st.answer = st.outcome.text.clone();
        st.time("write", t);

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
                .db
                .write(move |c| memory::save_turn(c, &record))
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

    /// Writes the streamed text to the live turn row every `PARTIAL_EVERY` while it
    /// grows. Never finishes on its own (the turn's end drops it).
    async fn save_partials(&self, turn_id: &str, sink: &Sink, dry_run: bool) {
        if dry_run {
            return std::future::pending().await;
        }
        let mut saved = 0usize;
        loop {
            tokio::time::sleep(PARTIAL_EVERY).await;
            let text = sink.streamed();
            if text.len() == saved {
                continue;
            }
            saved = text.len();
            let id = turn_id.to_string();
            if let Err(e) = self
                .db
                .write(move |c| memory::save_partial(c, &id, &text))
                .await
            {
                tracing::warn!(error = %e, "cannot save the partial answer");
            }
        }
    }

    async fn classify(
        &self,
        query: &crate::query::Query,
        ctx: &SessionContext,
        errors: &mut Vec<String>,
        log: &mut Vec<serde_json::Value>,
    ) -> Classification {
        if let Some(llm) = &self.llm {
            // Rules decide fast when there is no history; with history the LLM can
            // tell a follow-up from a new topic better than patterns.
            if !ctx.turns.is_empty() || classify::by_rules(query, ctx).is_none() {
                match super::understand::classify(llm, &query.text, ctx, log).await {
                    Ok(c) => return c,
                    Err(e) => errors.push(format!("classify: {e}")),
                }
            }
        }
        let examples = self
            .examples
            .get_or_init(|| async {
                classify::ExampleIndex::build(self.searcher.embedder().as_ref()).await
            })
            .await;
        classify::offline(
            query,
            ctx,
            examples.as_ref(),
            self.searcher.embedder().as_ref(),
        )
        .await
    }

    async fn rewrite(
        &self,
        query: &crate::query::Query,
        category: Category,
        ctx: &SessionContext,
        snapshot: &crate::search::Snapshot,
        errors: &mut Vec<String>,
        log: &mut Vec<serde_json::Value>,
    ) -> Rewrite {
        let question = query.text.as_str();
        let mut rw = rewrite::by_rules(query, category, ctx, &snapshot.vocab);
        if category == Category::FollowUp
            && rw.attribute.is_none()
            && let Some(llm) = &self.llm
        {
            match super::understand::rewrite(llm, question, ctx, log).await {
                Ok(q) => {
                    rw.query = q;
                    rw.method = super::rewrite::RewriteMethod::Llm;
                }
                Err(e) => errors.push(format!("rewrite: {e}")),
            }
        }
        rewrite::keep_continuity(&mut rw, query, category, ctx);
        rw
    }

    /// The records and keyword users the writers need.
    async fn ground(
        &self,
        st: &State,
        snapshot: Arc<crate::search::Snapshot>,
    ) -> Result<Grounding, AgentError> {
        let mut keys: Vec<String> = st
            .retrieval
            .bundles
            .iter()
            .take(6)
            .map(|b| b.key.clone())
            .collect();
        if let Some(s) = &st.rewrite.subject {
            keys.push(s.key.clone());
            // "What about its SLIs?" of a bundle with none: the related bundle
            // whose SLI watches the same thing is the answer too.
            if st.rewrite.attribute == Some(super::rewrite::Attribute::Slis)
                && let Some(k) = super::answer::suggest::sli_counterpart(&snapshot, &s.key)
            {
                keys.push(k);
            }
        }
        let kw_ids: Vec<(String, String, String)> = st
            .retrieval
            .keywords
            .iter()
            .take(3)
            .map(|k| (k.id.clone(), k.library.clone(), k.name.clone()))
            .collect();
        let library = (st.classification.category == Category::KeywordLibrary)
            .then(|| super::library::named(&st.question, &snapshot))
            .flatten();
        let top_doc: Option<i64> = st.retrieval.docs.first().and_then(|d| {
            snapshot
                .docs
                .values()
                .find(|m| m.cite_id() == d.id)
                .map(|m| m.id)
        });
        let snap = snapshot.clone();
        let wants_collections = matches!(
            st.classification.category,
            Category::Catalog | Category::Meta
        );
        let mut keyword_users = self
            .db
            .read(move |c| {
                let mut users = HashMap::new();
                for (id, library, name) in kw_ids {
                    users.insert(id, crate::catalog::keyword_users(c, &library, &name)?);
                }
                Ok(users)
            })
            .await?;
        // A keyword question shows the keyword's users that fit the question best.
        if st.classification.category == Category::KeywordLibrary
            && let Some(top) = st.retrieval.keywords.first()
            && let Some(list) = keyword_users.get_mut(&top.id)
        {
            // Ranking is a nicety: without it the users keep the most-tasks order.
            if let Err(e) = super::library::rank_users(&self.searcher, &st.query, top, list).await {
                tracing::warn!(error = %e, "ranking a keyword's users failed");
            }
        }
        let (records, library, top_doc_markdown, collections) = self
            .db
            .read(move |c| {
                let mut records = HashMap::new();
                for key in keys {
                    if let Some((coll, slug)) = key.split_once('/')
                        && let Some((_, r)) = crate::catalog::record(c, coll, slug)?
                    {
                        records.insert(key.clone(), r);
                    }
                }
                let library = match library {
                    Some(name) => Some(super::library::listing(c, &snap, &name)?),
                    None => None,
                };
                let markdown = match top_doc {
                    Some(id) => crate::catalog::doc_markdown(c, id)?,
                    None => None,
                };
                let collections = if wants_collections {
                    crate::catalog::collections(c)?
                } else {
                    Vec::new()
                };
                Ok((records, library, markdown, collections))
            })
            .await?;
        Ok(Grounding {
            question: st.question.clone(),
            query: st.query.clone(),
            words: crate::query::Words::new(self.config.vocabulary),
            collections,
            category: st.classification.category,
            route: st.plan.route,
            rewrite: st.rewrite.clone(),
            retrieval: st.retrieval.clone(),
            records,
            keyword_users,
            library,
            top_doc_markdown,
            snapshot,
            llm_model: self.llm.as_ref().map(|l| l.model().to_string()),
        })
    }

    /// The LLM writes when configured and working; otherwise (or after it fails) the
    /// offline answerer does. Returns whether the text was already streamed.
    async fn write(
        &self,
        st: &mut State,
        g: &Grounding,
        sink: &Sink,
    ) -> Result<(Written, bool), ClientGone> {
        let offline = || answer::offline::write(g);
        let Some(llm) = &self.llm else {
            return Ok((offline(), false));
        };
        if matches!(g.category, Category::Meta | Category::Catalog) || g.snapshot.bundles.is_empty()
        {
            // Questions about the assistant and the catalog are answered from
            // facts, not generated.
            return Ok((offline(), false));
        }
        // The offline answer is ready in milliseconds: the user sees it (and its
        // cards) while the model writes, and it is what they keep if the model fails.
        let draft = answer::finish(g, offline(), &[]);
        sink.send(ChatEvent::Cards { cards: draft.cards }).await?;
        sink.send(ChatEvent::Citations {
            citations: draft.citations,
        })
        .await?;
        sink.send(ChatEvent::Preview { text: draft.text }).await?;
        st.previewed = true;
        let searches = st.retrieval.searches.len();
        let mut tools = ToolBox::new(self.searcher.clone(), self.db.clone(), searches);
        let history = st.ctx.recent.clone();
        let run = answer::llm::write(
            llm,
            g,
            &history,
            &st.ctx.summary,
            &mut tools,
            self.config.llm.max_tool_iterations as usize,
            sink,
        )
        .await?;
        st.tokens = (run.tokens_in, run.tokens_out);
        st.llm_rounds = run.rounds;
        st.reports = tools.reports;
        st.read_bundles = tools.seen_bundles.clone();
        match run.error {
            None => Ok((
                Written {
                    text: run.text,
                    request: offline().request,
                },
                true,
            )),
            Some(e) => {
                tracing::warn!(error = %e, "LLM failed; answering offline");
                st.errors.push(format!("llm: {e}"));
                st.fallback = true;
                st.model = format!("offline (fallback from {})", llm.model());
                let fallback = offline();
                if run.streamed {
                    // Part of an LLM answer is on screen: continue below it.
                    sink.stage("fallback", "The language model stopped; finishing offline…")
                        .await?;
                    let text = format!("{}\n\n---\n\n{}", run.text.trim_end(), fallback.text);
                    sink.text(&format!("\n\n---\n\n{}", fallback.text)).await?;
                    Ok((
                        Written {
                            text,
                            request: fallback.request,
                        },
                        true,
                    ))
                } else {
                    sink.stage(
                        "fallback",
                        "The language model is unavailable; answering offline…",
                    )
                    .await?;
                    Ok((fallback, false))
                }
            }
        }
    }
}

fn error_event(code: ErrorCode, message: Option<String>) -> ChatEvent {
    ChatEvent::Error {
        code: code.as_str().to_string(),
        message: message.unwrap_or_else(|| code.default_message().to_string()),
    }
}
