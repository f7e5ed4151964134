//! The single-page app. Components are grouped by feature (chat, cards, request,
//! sessions); each talks to the server through `api` (server functions) or
//! `chat::transport` (the answer stream). Shared UI state lives in `state`.

mod cards;
mod chat;
mod clipboard;
mod health;
mod icons;
mod keys;
mod markdown;
mod request;
mod sessions;
mod state;
mod theme;
mod time;

use leptos::prelude::*;
use leptos_router::components::Router;
use state::Shared;

#[component]
pub fn App() -> impl IntoView {
    theme::init();
    provide_context(Shared::new());
    view! {
        <Router>
            <Shell />
        </Router>
    }
}

/// Sidebar, top bar and the conversation. The chat page stays mounted while the URL
/// moves between `/` and `/c/:id`, so an answer in flight is never torn down.
#[component]
fn Shell() -> impl IntoView {
    let shared = Shared::get();
    keys::install(shared);
    view! {
        <div class="app" class:sidebar-open=move || shared.sidebar_open.get()>
            <a class="skip-link" href="#question">"Skip to the question box"</a>
            <sessions::Sidebar />
            <div class="main">
                <health::HealthBanner />
                <chat::ChatPage />
            </div>
            <cards::Drawer />
            <request::RequestDialog />
        </div>
    }
}
