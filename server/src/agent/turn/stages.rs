//! The stages a turn calls on the agent: classify (rules, examples, or the
//! model), rewrite a follow-up, load what the writers need, and write (offline,
//! or the model with the offline answer shown first and kept as the fallback).

use super::state::State;
use crate::agent::answer::{self, Grounding, Written};
use crate::agent::classify::{self, Category, Classification};
use crate::agent::rewrite::{self, Rewrite};
use crate::agent::sink::{ClientGone, Sink};
use crate::agent::tools::ToolBox;
use crate::agent::{Agent, AgentError};
use crate::memory::SessionContext;
use app::api::ChatEvent;
use std::collections::HashMap;
use std::sync::Arc;

impl Agent {
    pub(super) async fn classify(
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
                match crate::agent::understand::classify(llm, &query.text, ctx, log).await {
                    Ok(c) => return c,
                    Err(e) => errors.push(format!("classify: {e}")),
                }
            }
        }
        let examples = self.examples().await;
        classify::offline(query, ctx, examples, self.searcher.embedder().as_ref()).await
    }

    pub(super) async fn rewrite(
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
            match crate::agent::understand::rewrite(llm, question, ctx, log).await {
                Ok(q) => {
                    rw.query = q;
                    rw.method = crate::agent::rewrite::RewriteMethod::Llm;
                }
                Err(e) => errors.push(format!("rewrite: {e}")),
            }
        }
        rewrite::keep_continuity(&mut rw, query, category, ctx);
        rw
    }

    /// The records and keyword users the writers need.
    pub(super) async fn ground(
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
            if st.rewrite.attribute == Some(crate::agent::rewrite::Attribute::Slis)
                && let Some(k) = crate::agent::answer::suggest::sli_counterpart(&snapshot, &s.key)
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
        // A question that names a library and one of its keywords ("who calls
        // RW.Core's Add Pre To Report?") asks about the keyword.
        let names_its_keyword = |lib: &String| {
            st.retrieval.keywords.first().is_some_and(|k| {
                crate::agent::library::within(&k.library, lib)
                    && crate::search::names_keyword(&st.query, &k.name)
            })
        };
        let library = (st.classification.category == Category::KeywordLibrary)
            .then(|| crate::agent::library::named(&st.question, &snapshot))
            .flatten()
            .filter(|lib| !names_its_keyword(lib));
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
            if let Err(e) = crate::agent::library::rank_users(&self.searcher, &st.query, list).await
            {
                tracing::warn!(error = %e, "ranking a keyword's users failed");
            }
        }
        let (records, library, top_doc_markdown, collections) = self
            .db
            .read(move |c| {
                let mut records = HashMap::new();
                for key in keys {
                    if let Some(r) = snap.record(c, &key)? {
                        records.insert(key, r);
                    }
                }
                let library = match library {
                    Some(name) => Some(crate::agent::library::listing(c, &snap, &name)?),
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
            category_guessed: st.classification.method
                == crate::agent::classify::ClassifyMethod::Examples,
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
    pub(super) async fn write(
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
