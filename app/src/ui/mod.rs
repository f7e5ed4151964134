//! The single-page app. Components are grouped by feature (chat, cards, request,
//! sessions, admin); each talks to the server through `api` (server functions),
//! `chat::transport` (the answer stream) or `admin`'s own client (the token-guarded
//! admin API). Shared UI state lives in `state`.

mod admin;
mod cards;
mod chat;
mod clipboard;
mod download;
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
use leptos_router::hooks::use_location;
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

/// The admin console at `/admin/…`; everywhere else the sidebar, top bar and the
/// conversation. The chat page stays mounted while the URL moves between `/` and
/// `/c/:id` (only a change of side re-renders), so an answer in flight is never
/// torn down.
#[component]
fn Shell() -> impl IntoView {
    let shared = Shared::get();
    keys::install(shared);
    let location = use_location();
    let on_admin = Memo::new(move |_| crate::routes::is_admin_path(&location.pathname.get()));
    move || {
        if on_admin.get() {
            view! { <admin::AdminConsole /> }.into_any()
        } else {
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
            .into_any()
        }
    }
}
