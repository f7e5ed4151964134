//! A banner when the server or its database is down, or the configured language
//! model is not answering (answers then come from the offline answerer). Polled, so
//! it appears and clears on its own.

use crate::api::functions::get_health;
use leptos::prelude::*;
use std::time::Duration;

const POLL: Duration = Duration::from_secs(30);

#[component]
pub fn HealthBanner() -> impl IntoView {
    let health = LocalResource::new(get_health);
    let shared = crate::ui::state::Shared::get();
    Effect::new(move |_| {
        if let Some(Ok(h)) = health.get()
            && h.vocabulary != shared.vocabulary.get_untracked()
        {
            shared.vocabulary.set(h.vocabulary);
        }
    });
    let handle = set_interval_with_handle(move || health.refetch(), POLL).ok();
    on_cleanup(move || {
        if let Some(h) = handle {
            h.clear();
        }
    });
    move || {
        let (class, message) = match health.get() {
            None => return None,
            Some(Ok(h)) if !h.is_ok() => (
                "banner banner-error",
                "The server is running but its database is not answering.".to_string(),
            ),
            Some(Ok(h)) if h.llm.configured && h.llm.reachable == Some(false) => (
                "banner banner-warn",
                "The language model is not answering; answers come from the offline answerer until it is back."
                    .to_string(),
            ),
            Some(Ok(h)) if h.index.bundles == 0 => (
                "banner banner-warn",
                "The index is empty: run `registry-chat index` to index a codecollection.".to_string(),
            ),
            Some(Ok(_)) => return None,
            Some(Err(e)) => (
                "banner banner-error",
                format!("The server cannot be reached right now ({}).", e.message),
            ),
        };
        Some(view! {
            <div class=class role="alert" data-testid="health-banner">
                <span>{message}</span>
                <button type="button" class="link" on:click=move |_| health.refetch()>"Retry"</button>
            </div>
        })
    }
}
