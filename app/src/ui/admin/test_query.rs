//! Try a question against the production pipeline without saving anything: no
//! conversation, no trace row, no effect on the quality figures. Earlier questions
//! (one per line) simulate a conversation, to see how follow-ups are rewritten.

use super::session::Admin;
use super::trace_view::{CardsTable, TraceView};
use super::widgets::{ms, pct};
use crate::api::admin::{TestQuery, TestQueryResult};
use crate::api::{ApiError, MAX_QUESTION_CHARS};
use crate::ui::markdown::Markdown;
use leptos::html::Textarea;
use leptos::prelude::*;
use leptos::task::spawn_local;

#[component]
pub fn TestQueryTab() -> impl IntoView {
    let admin = Admin::get();
    let question = RwSignal::new(String::new());
    let history = RwSignal::new(String::new());
    let running = RwSignal::new(false);
    let result = RwSignal::new(None::<Result<TestQueryResult, ApiError>>);
    let first = NodeRef::<Textarea>::new();
    Effect::new(move |_| {
        if let Some(t) = first.get() {
            let _ = t.focus();
        }
    });

    let run = move || {
        let q = question.get_untracked().trim().to_string();
        if q.is_empty() {
            result.set(Some(Err(ApiError::from_code(
                crate::api::ErrorCode::QuestionEmpty,
            ))));
            return;
        }
        if running.get_untracked() {
            return;
        }
        let body = TestQuery {
            question: q,
            history: history
                .get_untracked()
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(String::from)
                .collect(),
        };
        running.set(true);
        result.set(None);
        spawn_local(async move {
            let r = admin
                .post_json::<_, TestQueryResult>("/api/admin/test-query", &body)
                .await;
            result.set(Some(r));
            running.set(false);
        });
    };

    view! {
        <div class="admin-section">
            <form class="admin-card test-form" on:submit=move |ev: leptos::ev::SubmitEvent| { ev.prevent_default(); run(); }>
                <p class="muted small">
                    "Runs the question through the same pipeline as the chat. "
                    <strong>"Nothing is saved"</strong>
                    ": no conversation, no trace, no effect on the quality figures."
                </p>
                <label for="test-question">"Question"</label>
                <textarea id="test-question" rows="3" node_ref=first data-testid="test-question"
                    maxlength=MAX_QUESTION_CHARS.to_string()
                    placeholder="pods in payments keep restarting, where do I start?"
                    prop:value=move || question.get() on:input=move |e| question.set(event_target_value(&e))
                    on:keydown=move |e| if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) { e.prevent_default(); run(); }>
                </textarea>
                <label for="test-history">"Earlier questions in the conversation (optional, one per line, oldest first)"</label>
                <textarea id="test-history" rows="3" data-testid="test-history"
                    placeholder="what checks do we have for kubernetes pods?"
                    prop:value=move || history.get() on:input=move |e| history.set(event_target_value(&e))>
                </textarea>
                <div class="form-actions">
                    <button type="submit" class="button primary" data-testid="test-run" disabled=move || running.get()>
                        {move || if running.get() { "Running…" } else { "Run" }}
                    </button>
                    <span class="muted small">"Ctrl+Enter runs it."</span>
                </div>
            </form>
            {move || running.get().then(|| view! { <super::widgets::Loading text="Answering…" /> })}
            {move || match result.get() {
                None => ().into_any(),
                Some(Err(e)) => view! {
                    <div class="admin-alert" role="alert" data-testid="test-error">
                        <span>{e.message}</span>
                        <button type="button" class="button" on:click=move |_| run()>"Try again"</button>
                    </div>
                }.into_any(),
                Some(Ok(r)) => view! { <TestResult r=r /> }.into_any(),
            }}
        </div>
    }
}

#[component]
fn TestResult(r: TestQueryResult) -> impl IntoView {
    view! {
        <section class="admin-card" data-testid="test-result" aria-live="polite">
            <h2>"Result " <span class="muted small">"(not saved)"</span></h2>
            <p class="answer-meta">
                <span class=format!("chip source-{}", r.source) data-testid="test-source">{r.source.as_str()}</span>
                <span data-testid="test-confidence">{format!("confidence {}", pct(r.confidence as f64))}</span>
                {r.no_match.then(|| view! { <span class="badge warn" data-testid="test-no-match">"no match"</span> })}
                <span data-testid="test-elapsed">{ms(r.elapsed_ms as f64)}</span>
            </p>
            {(!r.history_rewrites.is_empty()).then(|| view! {
                <div class="trace-section" data-testid="test-rewrites">
                    <h3>"Earlier questions, as rewritten"</h3>
                    <ol>
                        {r.history_rewrites.iter().map(|h| view! { <li>{h.clone()}</li> }).collect_view()}
                    </ol>
                </div>
            })}
            <div class="trace-section">
                <h3>"Answer"</h3>
                <div class="trace-answer" data-testid="test-answer"><Markdown source=r.answer.clone() /></div>
            </div>
            <div class="trace-section">
                <h3>"Cards"</h3>
                <CardsTable cards=r.cards.clone() />
            </div>
            <TraceView trace=r.trace />
        </section>
    }
}
