//! One saved turn in full, in a side panel over the traces list: the question and
//! how it was rewritten, the answer as the user saw it, its cards and feedback, then
//! the pipeline trace. A panel rather than a page, so the filtered list and its
//! paging stay where they were; its URL (`/admin/traces/<turn>`) can still be shared.

use super::client::encode;
use super::session::Admin;
use super::trace_view::{CardsTable, TraceView};
use super::widgets::{LoadError, Loading, feedback_view, ms, pct};
use crate::api::admin::TraceDetail;
use crate::ui::markdown::Markdown;
use leptos::html::Button;
use leptos::prelude::*;

#[component]
pub fn TraceDrawer(id: String, #[prop(into)] on_close: Callback<()>) -> impl IntoView {
    let admin = Admin::get();
    let path = format!("/api/admin/traces/{}", encode(&id));
    let detail = LocalResource::new(move || {
        let path = path.clone();
        async move { admin.get_json::<TraceDetail>(&path).await }
    });
    let close_button = NodeRef::<Button>::new();
    Effect::new(move |_| {
        if let Some(b) = close_button.get() {
            let _ = b.focus();
        }
    });
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.key() == "Escape" {
            on_close.run(());
        }
    });
    on_cleanup(move || handle.remove());

    view! {
        <div class="scrim" on:click=move |_| on_close.run(())></div>
        <aside class="drawer trace-drawer" role="dialog" aria-modal="true" aria-labelledby="trace-title"
            data-testid="trace-detail">
            <div class="drawer-head">
                <h2 id="trace-title">"Turn " <span class="mono">{id.chars().take(8).collect::<String>()}</span></h2>
                <button type="button" class="icon-button" aria-label="Close" data-testid="trace-close"
                    node_ref=close_button on:click=move |_| on_close.run(())>
                    {crate::ui::icons::close()}
                </button>
            </div>
            <div class="drawer-body">
                {move || match detail.get() {
                    None => view! { <Loading text="Loading the trace…" /> }.into_any(),
                    Some(Err(e)) => view! { <LoadError error=e retry=move || detail.refetch() /> }.into_any(),
                    Some(Ok(d)) => view! { <TurnDetail d=d /> }.into_any(),
                }}
            </div>
        </aside>
    }
}

#[component]
fn TurnDetail(d: TraceDetail) -> impl IntoView {
    let s = d.summary;
    let tokens = (d.tokens_in + d.tokens_out > 0)
        .then(|| format!(" · {} tokens in, {} out", d.tokens_in, d.tokens_out));
    let model = Some(s.model.clone()).filter(|m| !m.is_empty());
    view! {
        <section class="trace-section">
            <h3>"Question"</h3>
            <p class="trace-question" data-testid="trace-question">{s.question.clone()}</p>
            <dl class="kv">
                <dt>"Rewritten"</dt><dd data-testid="trace-rewritten">{if d.rewritten.is_empty() { "—".to_string() } else { d.rewritten.clone() }}</dd>
                <dt>"Category"</dt><dd data-testid="trace-category">{s.category.as_str()}</dd>
                <dt>"Asked"</dt><dd>{crate::ui::time::from_iso(&s.created_at)}</dd>
                <dt>"Conversation"</dt><dd><a href=format!("/c/{}", s.session_id) class="mono">{s.session_id.chars().take(8).collect::<String>()}</a></dd>
                <dt>"Outcome"</dt>
                <dd>
                    <span class=format!("chip source-{}", s.source)>{s.source.as_str()}</span>" "
                    {format!("confidence {} · {} card{} · {}", pct(s.confidence as f64), s.cards,
                        if s.cards == 1 { "" } else { "s" }, ms(s.latency_ms as f64))}
                    {s.no_match.then(|| view! { " " <span class="badge warn">"no match"</span> })}
                    " " <span class=format!("badge status-{}", s.status)>{s.status.as_str()}</span>
                </dd>
                <dt>"Model"</dt><dd>{model.unwrap_or_else(|| "offline answerer".into())}{tokens}</dd>
                <dt>"Feedback"</dt>
                <dd data-testid="trace-feedback">
                    {feedback_view(s.feedback)}
                    {d.feedback_note.clone().filter(|n| !n.trim().is_empty()).map(|n| view! {
                        <blockquote class="feedback-note">{n}</blockquote>
                    })}
                </dd>
            </dl>
        </section>
        <section class="trace-section" data-testid="trace-answer">
            <h3>"Answer"</h3>
            <div class="trace-answer"><Markdown source=d.answer.clone() /></div>
        </section>
        <section class="trace-section" data-testid="trace-cards">
            <h3>"Cards"</h3>
            <CardsTable cards=d.cards.clone() />
            {(!d.cited.is_empty()).then(|| view! {
                <p class="small muted">"Cited: " <span class="mono">{d.cited.join(", ")}</span></p>
            })}
        </section>
        <TraceView trace=d.trace />
    }
}
