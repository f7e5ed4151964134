//! Thumbs up or down on an answer, with an optional comment, saved with the turn.

use super::exchange::Exchange;
use crate::api::conversation::{Feedback, MAX_NOTE_CHARS};
use crate::api::functions::send_feedback;
use leptos::prelude::*;
use leptos::task::spawn_local;

#[component]
pub fn FeedbackBar(ex: Exchange) -> impl IntoView {
    let value = ex.feedback;
    let turn = ex.turn_id;
    let commenting = RwSignal::new(false);
    let note = RwSignal::new(String::new());
    let status = RwSignal::new(None::<String>);

    let send = move |v: i8, with_note: Option<String>| {
        let Some(turn_id) = turn.get_untracked() else {
            return;
        };
        let previous = value.get_untracked();
        value.set(Some(v));
        spawn_local(async move {
            let has_note = with_note.is_some();
            match send_feedback(Feedback {
                turn_id,
                value: v,
                note: with_note,
            })
            .await
            {
                Ok(()) => {
                    status.set(Some("Thanks for the feedback.".into()));
                    if has_note {
                        commenting.set(false);
                    }
                }
                Err(e) => {
                    value.set(previous);
                    status.set(Some(e.message));
                }
            }
        });
    };
    let rate = move |v: i8| {
        send(v, None);
        // A thumbs-down invites a reason.
        commenting.set(v < 0);
    };

    view! {
        <span class="feedback" data-testid="feedback">
            <button type="button" class="icon-button" data-testid="thumbs-up" title="Helpful"
                aria-pressed=move || (value.get() == Some(1)).to_string()
                disabled=move || turn.with(Option::is_none)
                on:click=move |_| rate(1)>{crate::ui::icons::thumbs_up()}<span class="visually-hidden">"Helpful"</span></button>
            <button type="button" class="icon-button" data-testid="thumbs-down" title="Not helpful"
                aria-pressed=move || (value.get() == Some(-1)).to_string()
                disabled=move || turn.with(Option::is_none)
                on:click=move |_| rate(-1)>{crate::ui::icons::thumbs_down()}<span class="visually-hidden">"Not helpful"</span></button>
            <Show when=move || value.get().is_some() && !commenting.get()>
                <button type="button" class="link" data-testid="add-comment"
                    on:click=move |_| commenting.set(true)>"Add a comment"</button>
            </Show>
            <Show when=move || commenting.get()>
                <form class="feedback-comment" on:submit=move |ev| {
                    ev.prevent_default();
                    let v = value.get_untracked().unwrap_or(-1);
                    let n = note.get_untracked().trim().to_string();
                    send(v, (!n.is_empty()).then_some(n));
                }>
                    <label class="visually-hidden" for=format!("note-{}", ex.id)>"What was wrong or missing?"</label>
                    <textarea id=format!("note-{}", ex.id) rows="2" maxlength=MAX_NOTE_CHARS.to_string()
                        placeholder="What was wrong or missing? (optional)" data-testid="feedback-note"
                        prop:value=move || note.get() on:input=move |e| note.set(event_target_value(&e))></textarea>
                    <button type="submit" class="button" data-testid="feedback-send">"Send"</button>
                </form>
            </Show>
            {move || status.get().map(|s| view! { <span class="muted" role="status" data-testid="feedback-status">{s}</span> })}
        </span>
    }
}
