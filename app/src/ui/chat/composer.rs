//! The question box: Enter sends, Shift+Enter adds a line; Stop cancels the turn.

use crate::api::MAX_QUESTION_CHARS;
use leptos::html::Textarea;
use leptos::prelude::*;

#[component]
pub fn Composer(
    busy: RwSignal<bool>,
    on_ask: impl Fn(String) + Clone + Send + Sync + 'static,
    on_stop: impl Fn() + Clone + Send + Sync + 'static,
) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let input = NodeRef::<Textarea>::new();
    let too_long = move || text.with(|t| t.chars().count() > MAX_QUESTION_CHARS);

    let submit = {
        let on_ask = on_ask.clone();
        move || {
            let q = text.get_untracked().trim().to_string();
            if q.is_empty() || busy.get_untracked() || q.chars().count() > MAX_QUESTION_CHARS {
                return;
            }
            text.set(String::new());
            on_ask(q);
        }
    };
    let on_submit = {
        let submit = submit.clone();
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            submit();
        }
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" && !ev.shift_key() && !ev.is_composing() {
            ev.prevent_default();
            submit();
        }
    };

    view! {
        <form class="composer" on:submit=on_submit data-testid="composer">
            <label for="question" class="visually-hidden">"Your question"</label>
            <textarea
                id="question"
                node_ref=input
                rows="2"
                placeholder="e.g. pods in payments keep restarting, where do I start?"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
                on:keydown=on_keydown
                data-testid="question-input"
            ></textarea>
            <Show when=too_long>
                <p class="hint error">{format!("Questions are limited to {MAX_QUESTION_CHARS} characters.")}</p>
            </Show>
            <Show
                when=move || busy.get()
                fallback=move || view! {
                    <button type="submit" class="send" data-testid="send"
                        disabled=move || text.with(|t| t.trim().is_empty()) || too_long()>"Send"</button>
                }
            >
                {
                    let on_stop = on_stop.clone();
                    view! { <button type="button" class="stop" data-testid="stop" on:click=move |_| on_stop()>"Stop"</button> }
                }
            </Show>
        </form>
    }
}
