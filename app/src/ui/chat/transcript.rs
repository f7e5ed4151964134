//! The transcript: the empty screen with example questions, then one answer per
//! question. It follows the answer as it streams, unless the reader scrolled up.

use super::Chat;
use super::answer::AnswerView;
use crate::api::functions::example_questions;
use crate::api::vocabulary::Part;
use leptos::html::Section;
use leptos::prelude::*;

/// Closer to the bottom than this (pixels) counts as "following".
const FOLLOW_SLACK: i32 = 80;

#[component]
pub fn Transcript() -> impl IntoView {
    let chat = expect_context::<Chat>();
    let exchanges = chat.exchanges;
    let node = NodeRef::<Section>::new();
    let follow = RwSignal::new(true);

    let on_scroll = move |_| {
        if let Some(el) = node.get_untracked() {
            let gap = el.scroll_height() - el.scroll_top() - el.client_height();
            follow.set(gap < FOLLOW_SLACK);
        }
    };
    // Whatever grows the transcript (a token, cards, a new question) scrolls it
    // when following. A new question always follows.
    Effect::new(move |prev: Option<usize>| {
        let count = exchanges.with(Vec::len);
        let grew = prev.is_some_and(|p| count > p);
        if let Some(last) = exchanges.with(|v| v.last().cloned()) {
            last.answer.track();
            last.cards.track();
            last.stage.track();
        }
        if grew {
            follow.set(true);
        }
        if follow.get_untracked() {
            request_animation_frame(move || {
                if let Some(el) = node.get_untracked() {
                    el.set_scroll_top(el.scroll_height());
                }
            });
        }
        count
    });

    view! {
        <section class="transcript" role="log" aria-label="Conversation" node_ref=node
            on:scroll=on_scroll data-testid="transcript">
            <Show when=move || exchanges.with(Vec::is_empty)>
                <EmptyState />
            </Show>
            <For each=move || exchanges.get() key=|ex| ex.id let:ex>
                <AnswerView ex=ex />
            </For>
        </section>
    }
}

#[component]
fn EmptyState() -> impl IntoView {
    let chat = expect_context::<Chat>();
    let examples = LocalResource::new(example_questions);
    let vocabulary = crate::ui::state::Shared::get().vocabulary;
    view! {
        <div class="empty" data-testid="empty-state">
            <h2>"What are you troubleshooting?"</h2>
            <p>{move || {
                let v = vocabulary.get();
                format!(
                    "Describe the problem in your own words. I will point you to the {} that fit, the {} to run first and what to set.",
                    v.words(Part::Codebundle).1,
                    v.words(Part::Task).1
                )
            }}</p>
            {move || match examples.get() {
                Some(Ok(list)) if !list.is_empty() => Some(view! {
                    <div class="examples" data-testid="examples">
                        <p class="examples-label">"Try one of these:"</p>
                        <ul>
                            {list.into_iter().map(|q| {
                                let q2 = q.clone();
                                view! {
                                    <li><button type="button" class="example" data-testid="example"
                                        on:click=move |_| chat.ask.run(q2.clone())>{q}</button></li>
                                }
                            }).collect_view()}
                        </ul>
                    </div>
                }),
                _ => None,
            }}
            <p class="hint">"Press " <kbd>"/"</kbd> " to jump to the question box, " <kbd>"Esc"</kbd> " to stop an answer."</p>
        </div>
    }
}
