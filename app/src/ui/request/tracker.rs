//! What became of a saved request in the team's issue tracker, and the choice
//! when an open issue already asks for the same.

use crate::api::functions::file_request;
use crate::api::requests::{FileAction, RequestSaved, TrackerOutcome};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// Links only to web pages (the tracker's reply decides the URL).
fn web(url: &str) -> Option<String> {
    (url.starts_with("https://") || url.starts_with("http://")).then(|| url.to_string())
}

#[component]
pub fn TrackerNote(
    outcome: TrackerOutcome,
    id: i64,
    saved: RwSignal<Option<RequestSaved>>,
) -> impl IntoView {
    let busy = RwSignal::new(false);
    // A refused choice keeps both buttons: the other one may still work.
    let error = RwSignal::new(None::<String>);
    let choose = move |action: FileAction| {
        busy.set(true);
        error.set(None);
        spawn_local(async move {
            match file_request(id, action).await {
                Ok(s) => saved.set(Some(s)),
                Err(e) => error.set(Some(e.message)),
            }
            busy.set(false);
        });
    };
    let link = |url: &str, text: String| match web(url) {
        Some(href) => {
            view! { <a href=href target="_blank" rel="noopener noreferrer">{text}</a> }.into_any()
        }
        None => view! { <span>{text}</span> }.into_any(),
    };
    match outcome {
        TrackerOutcome::Filed { url } => view! {
            <p class="tracker" data-testid="request-issue">"Filed in the issue tracker: " {link(&url, url.clone())}</p>
        }
        .into_any(),
        TrackerOutcome::Commented { url, number } => view! {
            <p class="tracker" data-testid="request-issue">"Added to issue " {link(&url, format!("#{number}"))}</p>
        }
        .into_any(),
        TrackerOutcome::Sent { url } => view! {
            <p class="tracker" data-testid="request-issue">"Sent to the team's tracker"
                {url.map(|u| view! { ": " {link(&u, u.clone())} })}</p>
        }
        .into_any(),
        TrackerOutcome::Failed { message } => view! {
            <p class="error" role="alert" data-testid="request-tracker-error">{message}</p>
        }
        .into_any(),
        TrackerOutcome::Duplicate { number, title, url } => view! {
            <div class="tracker tracker-duplicate" data-testid="request-duplicate">
                <p>"An open issue may already ask for this: " {link(&url, format!("#{number} {title}"))}</p>
                <div class="dialog-actions">
                    <button type="button" class="button primary" data-testid="request-join"
                        disabled=move || busy.get() on:click=move |_| choose(FileAction::Comment)>
                        {format!("Add to #{number}")}</button>
                    <button type="button" class="button" data-testid="request-new-issue"
                        disabled=move || busy.get() on:click=move |_| choose(FileAction::New)>
                        "Open a new issue"</button>
                </div>
                {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            </div>
        }
        .into_any(),
    }
}
